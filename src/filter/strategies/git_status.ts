/**
 * git_status: branch plus file names. The long format (`On branch`, `Changes to be committed:` …)
 * keeps git's own lines as printed — its labels (`both modified:   a.py`, `Your branch is ahead
 * of …`) are what an agent quotes and looks for — with the hints (`(use "git add <file>..." …)`)
 * and blank lines dropped and each section's entries capped. The short/porcelain format (`XY
 * path`, `## branch...upstream`), already codes, is grouped compactly per section.
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

/** The short/porcelain format grouped per section, or null when the lines are not one. */
function summarize(lines: string[], maxFiles: number): string[] | null {
  const files: Record<Section, string[]> = {
    staged: [],
    unstaged: [],
    untracked: [],
    unmerged: [],
    ignored: [],
  };
  const head: string[] = [];
  const other: string[] = [];
  let recognised = false;
  for (const line of lines) {
    if (line.trim() === "") continue;
    if (line.startsWith("## ")) {
      head.push("branch " + line.slice(3));
      recognised = true;
      continue;
    }
    const short = SHORT_ENTRY.exec(line);
    if (short) {
      const [x, y] = short[1];
      const path = short[2];
      recognised = true;
      if (short[1] === "??") files.untracked.push(path);
      else if (short[1] === "!!") files.ignored.push(path);
      else if (x === "U" || y === "U" || short[1] === "AA" || short[1] === "DD") {
        files.unmerged.push(`${short[1]} ${path}`);
      } else {
        if (x !== " ") files.staged.push(`${x} ${path}`);
        if (y !== " ") files.unstaged.push(`${y} ${path}`);
      }
      continue;
    }
    other.push(line);
  }
  const counted = Object.values(files).some((list) => list.length > 0);
  if (!recognised && !counted) return null;
  const out = [...head, ...other];
  for (const name of ["unmerged", "staged", "unstaged", "untracked", "ignored"] as Section[]) {
    const list = files[name];
    if (!list.length) continue;
    // Staged or unstaged files all of one change say it once (`staged modified (20): a.rs, b.rs`).
    const change = name === "staged" || name === "unstaged" ? soleChange(list) : null;
    const paths = change ? list.map((entry) => entry.slice(entry.indexOf(" ") + 1)) : list;
    // Conflicts are what blocks the merge: every one is listed, whatever the cap.
    const cap = name === "unmerged" ? paths.length : maxFiles;
    const shown = paths.slice(0, cap).join(", ");
    const more = paths.length > cap ? `, … and ${paths.length - cap} more` : "";
    out.push(`${name}${change ? ` ${change}` : ""} (${paths.length}): ${shown}${more}`);
  }
  return out;
}

const CHANGE_NAMES: Record<string, string> = {
  M: "modified",
  A: "added",
  D: "deleted",
  R: "renamed",
  C: "copied",
  T: "typechange",
};

/** The change every `M a.rs` entry of two or more shares, named (`modified`), else null. */
function soleChange(entries: string[]): string | null {
  if (entries.length < 2) return null;
  const code = entries[0].slice(0, entries[0].indexOf(" "));
  if (!CHANGE_NAMES[code] || entries.some((entry) => !entry.startsWith(`${code} `))) return null;
  return CHANGE_NAMES[code];
}
