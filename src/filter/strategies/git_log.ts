/**
 * git_log: the default `git log` format (with or without `--stat`) in RTK's one-line-per-commit
 * form: `commit <hash> <subject> (<author>, <date>)`, the body's first `max_body_lines` lines,
 * and the first `max_stat_files` `--stat` lines of each commit and its totals line as printed (an
 * agent copies ` src/a.ts | 3 ++-` whole). The author is shown when it differs from the previous commit's, the date
 * as its time alone when the previous commit's has the same day, and the bodies of the newest
 * `max_bodies` commits only (a long history is read for its subjects). The
 * `commit <hash>` prefix is kept verbatim so the hash can be copied. Anything else (patches of `git log -p`, `--oneline`
 * output, notes) passes unchanged; output without `commit` headers is a Fallback.
 * Streaming: one commit is held at a time.
 */
import { z } from "zod";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";

export const GitLogConfig = z.object({
  type: z.literal("git_log"),
  max_body_lines: z.number().int().min(0).default(3).describe(
    "Lines of each commit message after the subject",
  ),
  max_bodies: z.number().int().min(0).default(10).describe(
    "Commits (newest first) whose message body is shown; older ones show their subject",
  ),
  max_stat_files: z.number().int().min(1).default(10).describe(
    "`--stat` file lines shown per commit (the summary line always stays)",
  ),
}).strict();
export type GitLogConfig = z.infer<typeof GitLogConfig>;

const HEADER = /^commit ([0-9a-f]{7,64})( \(.*\))?$/;
const AUTHOR = /^Author:\s+(.*?)(?:\s+<[^>]*>)?$/;
const DATE = /^(?:Date|AuthorDate):\s+(.*)$/;
/** git's default date: `Sat Nov 21 22:35:12 2026 +0000`. */
const DEFAULT_DATE = /^\w{3} (\w{3}) +(\d{1,2}) (\d{2}:\d{2}):\d{2} (\d{4}) ([+-]\d{4})$/;
/** A short date's day, time and zone: `2026-03-10`, `10:00`, `+0000`. */
const DAY = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d) ([+-]\d{4})$/;
const MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";
/** A `--stat` file line: ` path   |  12 ++++----` or ` a.png | Bin 0 -> 12 bytes`. */
const STAT_BAR = /^ \S.*? +\| +\d+ [+-]+$/;
const STAT_BIN = /^ \S.*\|\s+Bin /;
const STAT_SUMMARY = /^ \d+ files? changed/;

function shortDate(date: string): string {
  const m = DEFAULT_DATE.exec(date);
  if (!m) return date;
  const month = MONTHS.indexOf(m[1]) / 3 + 1;
  if (month < 1) return date;
  return `${m[4]}-${String(month).padStart(2, "0")}-${m[2].padStart(2, "0")} ${m[3]} ${m[5]}`;
}

export function compileGitLog(config: GitLogConfig): CompiledStrategy {
  const maxBody = config.max_body_lines;
  const maxStat = config.max_stat_files;
  const maxBodies = config.max_bodies;
  return {
    type: "git_log",
    createStage(ctx: StageContext): Stage {
      let commits = 0;
      // The commit being read: header fields until its message is complete.
      let head: { line: string; author: string; date: string; extra: string[] } | null = null;
      let subject: string | null = null;
      let body = 0;
      let skipped = 0;
      let inMessage = false;
      let statFiles = 0;
      let statHidden = 0;
      // A history is mostly one author's: the name is shown when it differs from the previous
      // commit's.
      let lastAuthor = "";
      // `2026-03-10 ` and ` +0000` of the previous commit's date: a commit of the same day shows
      // its time alone.
      let lastDay = "";
      let hiddenBodies = 0;
      let bodyHidden = false;

      const flushHead = () => {
        if (!head) return;
        const author = head.author === lastAuthor ? "" : head.author;
        if (head.author) lastAuthor = head.author;
        const day = DAY.exec(head.date);
        const date = day && `${day[1]} ${day[3]}` === lastDay ? day[2] : head.date;
        lastDay = day ? `${day[1]} ${day[3]}` : "";
        const who = [author, date].filter(Boolean).join(", ");
        ctx.emit(`${head.line}${subject ? ` ${subject}` : ""}${who ? ` (${who})` : ""}`);
        for (const line of head.extra) ctx.emit(line);
        head = null;
      };
      const endMessage = () => {
        if (skipped && !bodyHidden) ctx.emit(`    … (${skipped} more message lines)`);
        if (bodyHidden && (body || skipped)) hiddenBodies++;
        skipped = 0;
        inMessage = false;
      };

      return {
        push(line) {
          if (HEADER.test(line)) {
            flushHead();
            endMessage();
            commits++;
            statFiles = 0;
            statHidden = 0;
            head = { line, author: "", date: "", extra: [] };
            subject = null;
            body = 0;
            bodyHidden = commits > maxBodies;
            return;
          }
          if (head) {
            const author = AUTHOR.exec(line);
            if (author && !head.author) {
              head.author = author[1];
              return;
            }
            const date = DATE.exec(line);
            if (date && !head.date) {
              head.date = shortDate(date[1].trim());
              return;
            }
            if (line.trim() === "") return;
            if (line.startsWith("    ")) {
              subject = line.trim();
              flushHead();
              inMessage = true;
              return;
            }
            // `Merge: a b` and other header lines stay, under the commit line.
            head.extra.push(line);
            return;
          }
          // Blank lines separate paragraphs of the message (they arrive as "").
          if (inMessage && line.trim() === "") return;
          if (inMessage && line.startsWith("    ")) {
            if (bodyHidden) body++;
            else if (body < maxBody) {
              body++;
              ctx.emit(line);
            } else skipped++;
            return;
          }
          if (inMessage) endMessage();
          if (line.trim() === "") return;
          if (STAT_BAR.test(line) || STAT_BIN.test(line)) {
            if (statFiles++ < maxStat) ctx.emit(line);
            else statHidden++;
            return;
          }
          if (STAT_SUMMARY.test(line)) {
            if (statHidden) ctx.emit(` … (${statHidden} more files)`);
            statHidden = 0;
            ctx.emit(line);
            return;
          }
          ctx.emit(line);
        },
        finish() {
          flushHead();
          endMessage();
          if (hiddenBodies) ctx.emit(`(message bodies of ${hiddenBodies} older commits not shown)`);
          return commits > 0 ? "full" : "fallback";
        },
      };
    },
  };
}
