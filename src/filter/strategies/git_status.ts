/**
 * git_status: branch plus file names. The long format (`On branch`, `Changes to be committed:` …)
 * keeps git's own lines as printed — its labels (`both modified:   a.py`, `Your branch is ahead
 * of …`) are what an agent quotes and looks for — with the hints (`(use "git add <file>..." …)`)
 * and blank lines dropped and each section's entries capped. The short/porcelain format (`XY
 * path`, `## branch...upstream`), already codes, keeps its lines as printed, each section capped.
 */
import { z } from "zod";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";

export const GitStatusConfig = z.object({
  type: z.literal("git_status"),
  max_files: z.number().int().min(1).default(50).describe("Files listed per section"),
}).strict();
export type GitStatusConfig = z.infer<typeof GitStatusConfig>;

type Section = "staged" | "unstaged" | "untracked" | "unmerged" | "ignored";
const SECTION_HEADERS: [string, Section][] = [
  ["Changes to be committed:", "staged"],
  ["Changes not staged for commit:", "unstaged"],
  ["Untracked files:", "untracked"],
  ["Unmerged paths:", "unmerged"],
  ["Ignored files:", "ignored"],
];
/** A line only git's long format prints. */
const LONG_FORMAT =
  /^(?:On branch |HEAD detached |Not currently on any branch|nothing to commit|Changes to be committed:$|Changes not staged for commit:$|Untracked files:$|Unmerged paths:$)/;
const SHORT_ENTRY = /^([ MADRCUT?!]{2}) (.+)$/;
const DROPPED = [
  /^\s*\(use "git /,
  /^\s*\(commit or discard /,
  /^\s*\(fix conflicts /,
  /^\s*\(all conflicts fixed/,
  /^no changes added to commit/,
  /^nothing added to commit but untracked/,
];

export function compileGitStatus(config: GitStatusConfig): CompiledStrategy {
  return {
    type: "git_status",
    createStage(ctx: StageContext): Stage {
      const input: string[] = [];
      return {
        push: (line) => void input.push(line),
        finish() {
          const out = input.some((line) => LONG_FORMAT.test(line))
            ? keepLong(input, config.max_files)
            : summarize(input, config.max_files);
          for (const line of out ?? input) ctx.emit(line);
          return out ? "full" : "fallback";
        },
      };
    },
  };
}

/**
 * The long format as printed, without hints and blank lines; a section lists its first
 * `maxFiles` entries and says how many more it had, except conflicts (they block the merge: all
 * are listed).
 */
function keepLong(lines: string[], maxFiles: number): string[] {
  const out: string[] = [];
  let section: Section | null = null;
  let shown = 0;
  let hidden = 0;
  const close = () => {
    if (hidden) out.push(`… and ${hidden} more ${section}`);
    hidden = 0;
  };
  for (const line of lines) {
    if (line.trim() === "" || DROPPED.some((p) => p.test(line))) continue;
    const header = SECTION_HEADERS.find(([h]) => line === h);
    if (header) {
      close();
      section = header[1];
      shown = 0;
    } else if (section && line.startsWith("\t")) {
      if (section !== "unmerged" && shown >= maxFiles) {
        hidden++;
        continue;
      }
      shown++;
    } else {
      close();
      section = null;
    }
    out.push(line);
  }
  close();
  return out;
}

/**
 * The short/porcelain format, its lines as printed (`## main...origin/main`, ` M src/a.ts`: the
 * codes are what a reader looks for, and a line joining several entries is no line git printed),
 * past `max_files` entries of a section a line counting the rest; null when the lines are not one.
 */
function summarize(lines: string[], maxFiles: number): string[] | null {
  const counts: Record<Section, number> = {
    staged: 0,
    unstaged: 0,
    untracked: 0,
    unmerged: 0,
    ignored: 0,
  };
  const out: string[] = [];
  let recognised = false;
  for (const line of lines) {
    if (line.trim() === "") continue;
    if (line.startsWith("## ")) {
      out.push(line);
      recognised = true;
      continue;
    }
    const short = SHORT_ENTRY.exec(line);
    if (!short) {
      out.push(line);
      continue;
    }
    recognised = true;
    const section = sectionOf(short[1]);
    // Conflicts are what blocks the merge: every one is listed, whatever the cap.
    if (counts[section]++ < maxFiles || section === "unmerged") out.push(line);
  }
  if (!recognised) return null;
  for (const name of ["staged", "unstaged", "untracked", "ignored"] as Section[]) {
    if (counts[name] > maxFiles) out.push(`… and ${counts[name] - maxFiles} more ${name}`);
  }
  return out;
}

/** The section of a short-format entry by its `XY` code (a file staged and changed since: staged). */
function sectionOf(code: string): Section {
  const [x, y] = code;
  if (code === "??") return "untracked";
  if (code === "!!") return "ignored";
  if (x === "U" || y === "U" || code === "AA" || code === "DD") return "unmerged";
  return x !== " " ? "staged" : "unstaged";
}
