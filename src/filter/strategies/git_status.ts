/**
 * git_status: branch plus file names, compact. Understands the long format (`On branch`,
 * `Changes to be committed:` …), short/porcelain (`XY path`, `## branch...upstream`). Hints such
 * as `(use "git add <file>..." …)` are dropped; other lines (rebase/merge state) are kept.
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
const LONG_CODES: Record<string, string> = {
  "modified": "M",
  "new file": "A",
  "deleted": "D",
  "renamed": "R",
  "copied": "C",
  "typechange": "T",
  "both modified": "UU",
  "both added": "AA",
  "both deleted": "DD",
  "added by us": "AU",
  "added by them": "UA",
  "deleted by us": "DU",
  "deleted by them": "UD",
};
const LONG_ENTRY = /^\t([a-z ]+):\s+(.*)$/;
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
          const out = summarize(input, config.max_files);
          for (const line of out ?? input) ctx.emit(line);
          return out ? "full" : "fallback";
        },
      };
    },
  };
}

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
  let section: Section | null = null;
  let recognised = false;
  for (const line of lines) {
    if (line.trim() === "") continue;
    const header = SECTION_HEADERS.find(([h]) => line === h);
    if (header) {
      section = header[1];
      recognised = true;
      continue;
    }
    if (line.startsWith("On branch ") || line.startsWith("HEAD detached ")) {
      head.push(line.startsWith("On branch ") ? "branch " + line.slice(10) : line);
      recognised = true;
      continue;
    }
    if (line.startsWith("## ")) {
      head.push("branch " + line.slice(3));
      recognised = true;
      continue;
    }
    if (line.startsWith("Your branch ")) {
      // `Your branch is ahead of 'origin/main' by 2 commits.` joins the branch line:
      // `branch main (ahead of 'origin/main' by 2 commits)`; other forms stay lines.
      const state = /^Your branch is (.*?)\.?$/.exec(line);
      const last = head.length - 1;
      if (state && head[last]?.startsWith("branch ") && !head[last].endsWith(")")) {
        head[last] += ` (${state[1]})`;
      } else head.push(line.replace(/\.$/, ""));
      continue;
    }
    if (line.startsWith("nothing to commit")) {
      head.push("clean");
      recognised = true;
      continue;
    }
    if (DROPPED.some((p) => p.test(line))) continue;
    const long = LONG_ENTRY.exec(line);
    if (long && section && LONG_CODES[long[1]]) {
      files[section].push(`${LONG_CODES[long[1]]} ${long[2]}`);
      continue;
    }
    if (line.startsWith("\t") && (section === "untracked" || section === "ignored")) {
      files[section].push(line.slice(1));
      continue;
    }
    const short = SHORT_ENTRY.exec(line);
    if (short && !section) {
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
