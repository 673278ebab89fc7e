/**
 * git_log: the default `git log` formats (medium, full, fuller; with or without `--stat` or `-p`)
 * with every kept line as printed (an agent copies a hash line or a subject whole): each commit's
 * `commit <hash>` line (refs included), its subject (the message's first paragraph, at most
 * `max_body_lines` + 1 lines), the rest of the message for the newest `max_bodies` commits
 * (bounded by `max_body_lines`), and the first `max_stat_files` `--stat` lines of each commit and
 * its totals line. Header lines are read for what they tell: `Author:` (and fuller's `Commit:`)
 * stays where it differs from the previous commit's, `Date:` (`AuthorDate:`, `CommitDate:`) where
 * the day does (a history is read for its hashes and subjects; who and when matter where they
 * change, and a run of one author's commits of one day reads them once, above); `Merge:` and
 * other header lines stay. Patches of `git log -p`
 * pass, for a cut after the rule. Output without `commit` headers (`--oneline`, `--graph`) passes
 * unchanged as a Fallback. Streaming: one commit's header is held at a time.
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

const HEADER = /^commit [0-9a-f]{7,64}(?: \(.*\))?$/;
/** The header fields shown where they change: `Author:`, `Date:` and fuller's four. */
const FIELD = /^(Author|Date|AuthorDate|Commit|CommitDate):\s+(.*)$/;
const DATED = /Date$/;
/** A date's time of day (`10:00:00`, `10:00`): what a commit of the same day differs by. */
const TIME = /\d{1,2}:\d\d(?::\d\d)?/g;
/** A `--stat` file line: ` path   |  12 ++++----` or ` a.png | Bin 0 -> 12 bytes`. */
const STAT_BAR = /^ \S.*? +\| +\d+ [+-]+$/;
const STAT_BIN = /^ \S.*\|\s+Bin /;
const STAT_SUMMARY = /^ \d+ files? changed/;

export function compileGitLog(config: GitLogConfig): CompiledStrategy {
  const maxBody = config.max_body_lines;
  const maxStat = config.max_stat_files;
  const maxBodies = config.max_bodies;
  return {
    type: "git_log",
    createStage(ctx: StageContext): Stage {
      let commits = 0;
      // Between a `commit` line and its message: the header lines.
      let inHeader = false;
      let inMessage = false;
      // In the message's first paragraph (the subject, however many lines it wraps to).
      let inSubject = false;
      let body = 0;
      let skipped = 0;
      let hiddenLines = 0;
      let statFiles = 0;
      let statHidden = 0;
      // The previous commit's header fields (a date without its time of day).
      const last = new Map<string, string>();
      let hiddenBodies = 0;
      let bodyHidden = false;

      const endMessage = () => {
        if (skipped) ctx.emit(`    … (${skipped} more message lines)`);
        if (hiddenLines) hiddenBodies++;
        skipped = 0;
        hiddenLines = 0;
        inMessage = false;
      };

      return {
        push(line) {
          if (HEADER.test(line)) {
            endMessage();
            commits++;
            statFiles = 0;
            statHidden = 0;
            body = 0;
            bodyHidden = commits > maxBodies;
            inHeader = true;
            ctx.emit(line);
            return;
          }
          if (inHeader) {
            const field = FIELD.exec(line);
            if (field) {
              // A date is compared by its day: a commit of the same day as the one above
              // shows none.
              const value = DATED.test(field[1]) ? field[2].replace(TIME, "").trim() : field[2];
              if (last.get(field[1]) !== value) ctx.emit(line);
              last.set(field[1], value);
              return;
            }
            if (line.trim() === "") return;
            if (line.startsWith("    ")) {
              ctx.emit(line);
              inHeader = false;
              inMessage = true;
              inSubject = true;
              return;
            }
            // `Merge: a b` and other header lines stay.
            ctx.emit(line);
            return;
          }
          // A blank line ends a paragraph of the message (git indents it as "    " or "").
          if (inMessage && line.trim() === "") {
            inSubject = false;
            return;
          }
          if (inMessage && line.startsWith("    ")) {
            if (bodyHidden && !inSubject) hiddenLines++;
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
          endMessage();
          if (hiddenBodies) ctx.emit(`(message bodies of ${hiddenBodies} older commits not shown)`);
          return commits > 0 ? "full" : "fallback";
        },
      };
    },
  };
}
