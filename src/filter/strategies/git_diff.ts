/**
 * git_diff: file headers and hunks until `max_diff_lines` body lines have been shown, then one
 * `path | +A -D` line per remaining file, then the totals. `index …` lines and the `---`/`+++`
 * pair (they repeat the `diff --git` names) are dropped. A hunk longer than `max_hunk_lines`
 * (a generated file, a lockfile) shows its first lines, a count of the middle and its last
 * `hunk_tail_lines` (where the change ends), so one huge hunk does not spend the whole budget. A
 * new file's hunk is its whole content, which the working tree holds: it is cut at
 * `max_new_file_lines` the same way, and so is a long run of added lines inside a hunk (new text
 * the working tree holds too: `... (N more added lines) ...`, its first and last lines stay).
 * Text before the first `diff --git` (a `git show` commit header) is kept, and so is every later
 * commit's (`git show A B`, `git show A..B`): its `commit` line, header and message stay whatever
 * the budget, and the files of a commit shown past the budget are listed right after it. A listed
 * file keeps its header lines that say more than its name (a rename, a mode change, a new,
 * deleted or binary file) under its `path | +A -D` line. A combined diff (`git diff` during a
 * merge: `diff --cc path`, `@@@` hunks, a column of `+`/`-` per parent) reads the same way, a line
 * added or removed when any of its columns says so; a conflict's marker lines (`<<<<<<< HEAD`,
 * `=======`) end a run of added lines, so each stays; a hunk's cut keeps them too, each with the
 * line before it and the line after it (where one side's text ends and the next starts), the
 * lines cut around them counted apart. In a compound command's output with later commands' lines
 * after it (`git diff ; npm test`), the diff ends where its last hunk has all the lines its
 * `@@ -a,b +c,d @@` line counts: the totals come there, and the lines after it pass as printed,
 * not read as that hunk's.
 */
import { z } from "zod";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { hunkCounts } from "./_tool_part.ts";

export const GitDiffConfig = z.object({
  type: z.literal("git_diff"),
  max_diff_lines: z.number().int().min(0).default(500).describe("Diff lines shown in full"),
  max_hunk_lines: z.number().int().min(1).default(100).describe("Lines shown per hunk"),
  max_new_file_lines: z.number().int().min(1).default(30).describe(
    "Lines shown of a new file's hunk (its content is in the working tree)",
  ),
  hunk_tail_lines: z.number().int().min(0).default(10).describe(
    "Last lines of a cut hunk shown after the count (at most half the hunk's limit)",
  ),
}).strict();
export type GitDiffConfig = z.infer<typeof GitDiffConfig>;

/** The line standing for a cut run of added lines; the hunk's own cut counts what it stands for. */
const RUN_MARK = /^\.\.\. \((\d+) more added lines\) \.\.\.$/;
const runMark = (n: number) => `... (${n} more added lines) ...`;

interface FileStat {
  name: string;
  add: number;
  del: number;
  /** Its header lines past `diff --git` that say more than its name, when it is listed. */
  headers?: string[];
}

/** A combined diff's file line (`git diff` during a merge, `git show` of a merge): its path. */
const COMBINED = /^diff --(?:cc|combined) (.+)$/;
/** A merge conflict's marker line (past its diff marks). */
const CONFLICT_MARK = /^(?:<{7}|={7}$|>{7}|\|{7})/;
/** A `git show` commit line (refs included). */
const COMMIT = /^commit [0-9a-f]{7,64}(?: \(.*\))?$/;
/** File header lines that say more than the file's name. */
const TELLING_HEADER =
  /^(similarity index |dissimilarity index |rename (from|to) |copy (from|to) |(new|deleted) file mode |(old|new) mode |Binary files )/;

export function compileGitDiff(config: GitDiffConfig): CompiledStrategy {
  const budget = config.max_diff_lines;
  const maxHunk = config.max_hunk_lines;
  const maxNew = config.max_new_file_lines;
  return {
    type: "git_diff",
    createStage(ctx: StageContext): Stage {
      // Held until the first `diff --git` proves the shape; afterwards the stage streams.
      let held: string[] | null = [];
      const files: FileStat[] = [];
      let summarized: FileStat[] = [];
      let listed = 0;
      // Between a later commit's line and its first `diff --git`: its header and message.
      let inCommit = false;
      let current: FileStat | null = null;
      let shown = 0;
      let total = 0;
      let inFull = true;
      let hunk = false;
      let newFile = false;
      // The current file's columns of `+`/`-` marks: 1, or one per parent of a combined diff.
      let columns = 1;
      /** The mark a body line carries: `+`, `-` or none (a context line). */
      const markOf = (line: string) => {
        if (columns === 1) return line[0];
        const marks = line.slice(0, columns);
        return marks.includes("+") ? "+" : marks.includes("-") ? "-" : " ";
      };
      // Lines of the current hunk, its limit and how many of them lead; past the lead, the
      // latest `tail.length` lines are held, those before them are not shown (with their +/-
      // counts).
      let hunkLines = 0;
      let limit = maxHunk;
      let lead = maxHunk;
      let tail: string[] = [];
      let tailSize = 0;
      let cut = { lines: 0, add: 0, del: 0 };
      // The run of added lines being read (outside new files): its length, the lines past its
      // lead held as its tail, and how many went.
      const runTailSize = Math.min(config.hunk_tail_lines, Math.floor(maxNew / 2));
      const runLead = maxNew - runTailSize;
      let run = 0;
      let runTail: string[] = [];
      let runCut = 0;
      // The lines the current hunk's `@@ -a,b +c,d @@` line says are still to come, old and new
      // (unknown for a combined diff); and, in a compound command's output, whether the diff is
      // over: a line after a complete hunk that opens no hunk, file or commit is a later command's
      // (git's `\ No newline at end of file` under a hunk's last line is the diff's own).
      let oldLeft = Infinity;
      let newLeft = Infinity;
      let over = false;
      const ends = ctx.shared?.after === true;
      const openHunk = (line: string) => {
        const counts = columns === 1 ? hunkCounts(line) : null;
        oldLeft = counts?.old ?? Infinity;
        newLeft = counts?.new ?? Infinity;
        limit = newFile ? maxNew : maxHunk;
        tailSize = Math.min(config.hunk_tail_lines, Math.floor(limit / 2));
        lead = limit - tailSize;
      };
      /** Whether a body line is a conflict's marker line. */
      const isConflictMark = (line: string) => CONFLICT_MARK.test(line.slice(columns));
      /** The count of the hunk's lines cut since the last line shown of it. */
      const emitCut = () => {
        if (cut.lines) {
          ctx.emit(`... (${cut.lines} more lines in this hunk: +${cut.add} -${cut.del}) ...`);
        }
        cut = { lines: 0, add: 0, del: 0 };
      };
      // The hunk's line just before the oldest held one (the last one shown or cut).
      let before: string | null = null;
      /**
       * A line of a hunk's middle, the line after it being `next` (none at the hunk's end): cut,
       * unless it is a conflict's marker or next to one (the end of a side's text, the start of
       * the next), which stay in their place among the counts of the lines cut around them.
       */
      const pass = (gone: string, next: string | undefined) => {
        const stays = isConflictMark(gone) || (before !== null && isConflictMark(before)) ||
          (next !== undefined && isConflictMark(next));
        before = gone;
        if (stays) {
          emitCut();
          ctx.emit(gone);
          shown++;
          return;
        }
        const mark = RUN_MARK.exec(gone);
        if (mark) {
          cut.lines += Number(mark[1]);
          cut.add += Number(mark[1]);
        } else cut.lines++;
        const goneMark = markOf(gone);
        if (goneMark === "+") cut.add++;
        else if (goneMark === "-") cut.del++;
      };
      const closeHunk = () => {
        endRun();
        if (inFull) {
          if (tail.length > tailSize) pass(tail.shift()!, undefined);
          emitCut();
          for (const line of tail) ctx.emit(line);
          shown += tail.length;
        }
        cut = { lines: 0, add: 0, del: 0 };
        tail = [];
        hunkLines = 0;
        before = null;
      };
      /** A line of the diff after the run cut: the hunk's limit, then the budget. */
      const show = (line: string, body: boolean) => {
        if (!inFull || !current) return;
        if (body && ++hunkLines > lead) {
          // One line more than the tail is held: whether the line after the oldest is a
          // conflict's marker is known when the oldest goes.
          tail.push(line);
          if (tail.length <= tailSize + 1) return;
          const gone = tail.shift()!;
          pass(gone, tail[0]);
          return;
        }
        if (body) before = line;
        if (shown >= budget) {
          // Budget spent mid-file: the rest of this file is summarised.
          inFull = false;
          ctx.emit(`... (rest of ${current.name} summarised below) ...`);
          return;
        }
        shown++;
        ctx.emit(line);
      };
      /** Ends a run of added lines: the count of those that went, then its last lines. */
      const endRun = () => {
        const lines = runTail;
        const n = runCut;
        run = 0;
        runTail = [];
        runCut = 0;
        if (n) show(runMark(n), true);
        for (const l of lines) show(l, true);
      };
      const closeFile = () => {
        closeHunk();
        if (current && !inFull) summarized.push(current);
        current = null;
      };
      /** The files shown past the budget since the last commit line, listed. */
      const listSummarized = () => {
        if (!summarized.length) return;
        ctx.emit("");
        ctx.emit(`Not shown (over max_diff_lines = ${budget}):`);
        for (const f of summarized) {
          ctx.emit(`${f.name} | +${f.add} -${f.del}`);
          for (const header of f.headers ?? []) ctx.emit(header);
        }
        listed += summarized.length;
        summarized = [];
      };
      // The diff is over: its totals, then the later commands' lines as printed.
      const end = () => {
        closeFile();
        listSummarized();
        totals();
        over = true;
      };
      const totals = () => {
        const add = files.reduce((n, f) => n + f.add, 0);
        const del = files.reduce((n, f) => n + f.del, 0);
        const cut = listed ? ` (showed ${shown} of ${total} diff lines)` : "";
        ctx.emit(
          `${files.length} file${
            files.length === 1 ? "" : "s"
          } changed, ${add} insertions(+), ${del} deletions(-)${cut}`,
        );
      };
      // A blank line after a complete hunk, in a compound command's output: the line between two
      // commits of `git show A B` when a `diff` or `commit` line follows (it is then read as the
      // diff's), else the diff is over before it.
      let blank: string | null = null;
      let ours = false;
      const stage: Stage = {
        push(line) {
          if (blank !== null) {
            const under = blank;
            blank = null;
            if (!/^(diff |commit )/.test(line)) {
              end();
              ctx.emit(under);
            } else {
              ours = true;
              stage.push(under);
              ours = false;
            }
          }
          if (over) return ctx.emit(line);
          if (
            ends && !ours && hunk && oldLeft <= 0 && newLeft <= 0 &&
            !/^(@@|diff |commit |\\)/.test(line)
          ) {
            if (line.trim() === "") return void (blank = line);
            end();
            return ctx.emit(line);
          }
          if (!held && COMMIT.test(line)) {
            closeFile();
            listSummarized();
            hunk = false;
            inCommit = true;
            ctx.emit(line);
            return;
          }
          const combined = COMBINED.exec(line);
          if (inCommit && !combined && !line.startsWith("diff --git ")) {
            ctx.emit(line);
            return;
          }
          if (combined || line.startsWith("diff --git ")) {
            inCommit = false;
            closeFile();
            if (held) {
              for (const h of held) ctx.emit(h);
              held = null;
            }
            const m = /^diff --git a\/(.*) b\/(.*)$/.exec(line);
            const name = combined ? combined[1] : m ? m[2] : line.slice(11);
            current = { name, add: 0, del: 0 };
            columns = 1;
            files.push(current);
            hunk = false;
            newFile = false;
            inFull = shown < budget;
            if (inFull) ctx.emit(line);
            return;
          }
          if (held) {
            held.push(line);
            return;
          }
          if (!current) return;
          let body = false;
          if (!hunk) {
            // File header: `index`, `---` and `+++` repeat what `diff --git` said.
            if (line.startsWith("@@")) {
              hunk = true;
              // A combined diff's hunk line opens with one `@` more than its parents.
              columns = Math.max(1, /^@+/.exec(line)![0].length - 1);
              openHunk(line);
            } else if (/^(index [0-9a-f]|--- |\+\+\+ )/.test(line)) return;
            else {
              if (line.startsWith("new file mode ")) newFile = true;
              if (!inFull && TELLING_HEADER.test(line)) (current.headers ??= []).push(line);
            }
          } else if (line.startsWith("@@")) {
            closeHunk();
            openHunk(line);
          } else if (line.startsWith("diff ") || line.startsWith("commit ")) {
            closeHunk();
            hunk = false;
          } else {
            body = true;
            const mark = markOf(line);
            if (mark === "+") current.add++;
            else if (mark === "-") current.del++;
            if (mark === "+") newLeft--;
            else if (mark === "-") oldLeft--;
            else if (mark !== "\\") {
              oldLeft--;
              newLeft--;
            }
          }
          total++;
          if (!inFull) return;
          if (!body || newFile) return show(line, body);
          // A conflict's markers stay: they say where each side's text is.
          if (markOf(line) !== "+" || CONFLICT_MARK.test(line.slice(columns))) {
            endRun();
            return show(line, true);
          }
          if (++run <= runLead) return show(line, true);
          runTail.push(line);
          if (runTail.length > runTailSize) {
            runTail.shift();
            runCut++;
          }
        },
        finish() {
          if (blank !== null) {
            // The output ends with it: the diff's, as without later commands.
            ours = true;
            stage.push(blank);
            blank = null;
          }
          if (held) {
            for (const h of held) ctx.emit(h);
            return "fallback";
          }
          if (over) return "full";
          closeFile();
          listSummarized();
          totals();
          return "full";
        },
      };
      return stage;
    },
  };
}
