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
 * other header lines stay. A patch (`git log -p`, `--follow`, `--stat -p`) is budgeted per
 * commit, not once for the whole log: each file's diff header lines stay (`diff --git`, `rename
 * from`/`rename to`, `similarity index`, `new file mode`, `deleted file mode`, `old mode`/`new
 * mode`, `Binary files … differ`; the `index` line and the `---`/`+++` pair repeat the `diff --git`
 * names and go), and the first `max_patch_lines` hunk lines of each of the newest `max_patches`
 * commits; each file's hunk lines past that are counted where they went (`... (N more diff lines:
 * +A -D) ...`), so an older commit still says what it renamed, added, deleted or changed the mode
 * of. Output without `commit` headers (`--oneline`, `--graph`, `--format`) passes unchanged as a
 * Fallback but for its patches: a line a patch cannot hold (`abc1234 subject`) ends the patch and
 * starts the next commit's record, whose patch has a budget of its own.
 * Streaming: one commit's header is held at a time.
 *
 * In a compound command's output a later command's lines need no part of their own: a line no patch
 * can hold ends the patch and stays, and lines it does not read stay as printed.
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
  max_patch_lines: z.number().int().min(0).default(25).describe(
    "Hunk lines (`@@` lines included) shown of each commit's patch; its diff header lines always stay",
  ),
  max_patches: z.number().int().min(0).default(10).describe(
    "Commits (newest first) whose hunk lines are shown; older ones show their diff header lines and counts",
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
/** The line starting a file's diff (`--cc` and `--combined` for merges). */
const FILE_DIFF = /^diff --(git|cc|combined) /;
/** Header lines that repeat the `diff --git` names: the blob ids and the `---`/`+++` pair. */
const REPEATED_HEADER = /^(index [0-9a-f]|--- |\+\+\+ )/;
/** Where a file's hunk lines start: its first `@@` (`@@@` merged) or a binary patch's literal. */
const HUNKS = /^(@@|GIT binary patch$)/;
/** A file diff's header lines before its hunks. */
const FILE_HEADER =
  /^(index [0-9a-f]|--- |\+\+\+ |(new|deleted) file mode |(old|new) mode |(dis)?similarity index |(rename|copy) (from|to) |Binary files )/;
/** A hunk's lines (`\ No newline at end of file` too). */
const HUNK_LINE = /^[ +\-@\\]/;
/** A binary patch's lines: `literal 12`/`delta 12` and its base85 data. */
const BINARY_LINE = /^((literal|delta) \d+|[A-Za-z][!-~]*)$/;

export function compileGitLog(config: GitLogConfig): CompiledStrategy {
  const maxBody = config.max_body_lines;
  const maxStat = config.max_stat_files;
  const maxBodies = config.max_bodies;
  const maxPatchLines = config.max_patch_lines;
  const maxPatches = config.max_patches;
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
      // In a commit's patch (since its first file diff line), in a file's header lines (before
      // its first hunk), the hunk lines shown of this commit and the current file's lines cut.
      let inPatch = false;
      let inFileHeader = false;
      let inBinary = false;
      let patchShown = 0;
      // Records without a `commit` header (`--oneline -p`): each line outside a patch starts one.
      let records = 0;
      let cut = { lines: 0, add: 0, del: 0 };

      const endFile = () => {
        if (cut.lines) {
          ctx.emit(`... (${cut.lines} more diff lines: +${cut.add} -${cut.del}) ...`);
        }
        cut = { lines: 0, add: 0, del: 0 };
      };
      /** A line of a commit's patch: header lines stay, hunk lines within the commit's budget. */
      const patchLine = (line: string) => {
        if (FILE_DIFF.test(line)) {
          endFile();
          inFileHeader = true;
          ctx.emit(line);
          return;
        }
        if (inFileHeader && HUNKS.test(line)) {
          inFileHeader = false;
          inBinary = line === "GIT binary patch";
        } else if (inFileHeader) {
          if (!REPEATED_HEADER.test(line)) ctx.emit(line);
          return;
        }
        if ((commits || records) <= maxPatches && patchShown < maxPatchLines) {
          patchShown++;
          ctx.emit(line);
          return;
        }
        cut.lines++;
        if (line.startsWith("+")) cut.add++;
        else if (line.startsWith("-")) cut.del++;
      };

      /** Whether a patch can hold the line: a file's diff, header, hunk or binary patch line. */
      const inPatchAlphabet = (line: string) =>
        FILE_DIFF.test(line) ||
        (inFileHeader ? FILE_HEADER.test(line) || HUNKS.test(line) : false) ||
        (inBinary ? BINARY_LINE.test(line) : HUNK_LINE.test(line));

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
            endFile();
            inPatch = false;
            patchShown = 0;
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
          if (FILE_DIFF.test(line)) inPatch = true;
          if (inPatch && line !== "") {
            if (inPatchAlphabet(line)) return patchLine(line);
            // A line no patch holds: the next commit's (`abc1234 subject` of `--oneline -p`).
            endFile();
            inPatch = false;
            inFileHeader = false;
            inBinary = false;
          }
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
          if (commits === 0 && !inPatch) {
            records++;
            patchShown = 0;
          }
          ctx.emit(line);
        },
        finish() {
          endMessage();
          endFile();
          if (hiddenBodies) ctx.emit(`(message bodies of ${hiddenBodies} older commits not shown)`);
          return commits > 0 ? "full" : "fallback";
        },
      };
    },
  };
}
