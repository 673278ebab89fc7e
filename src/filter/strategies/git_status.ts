/**
 * git_status: branch plus file names. The long format (`On branch`, `Changes to be committed:` …)
 * keeps git's own lines as printed — its labels (`both modified:   a.py`, `Your branch is ahead
 * of …`) are what an agent quotes and looks for — with the hints (`(use "git add <file>..." …)`)
 * and blank lines dropped and each section's entries capped. The closing line (`nothing to
 * commit`, `no changes added to commit (use "git add" …)`, `nothing added to commit but untracked
 * files present …`) stays: it is the one line that says whether anything is staged. The short/porcelain format (`XY
 * path`, `## branch...upstream`), already codes, keeps its lines as printed, each section capped.
 * Past a section's cap its odd entries stay (generic_outliers.ts: a `deleted:` among `modified:`
 * entries, a `D` among `M`s), the rest counted with what the odd ones among them were.
 *
 * In a compound command's output the other commands' lines need no part of their own: only git's
 * hint lines and blank lines go, and entries are capped by section; any other line stays as
 * printed.
 */
import { z } from "zod";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { findOutliers, noteOf } from "../generic_outliers.ts";

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
  // Each entry's section (null: not an entry), for reading each section's odd entries.
  const sections: (Section | null)[] = [];
  let section: Section | null = null;
  for (const line of lines) {
    const header = SECTION_HEADERS.find(([h]) => line === h);
    if (header) section = header[1];
    else if (!line.startsWith("\t") && line.trim() !== "" && !DROPPED.some((p) => p.test(line))) {
      section = null;
    }
    sections.push(section && line.startsWith("\t") ? section : null);
  }
  const odd = oddEntries(lines, sections);
  const out: string[] = [];
  let shown = 0;
  let hidden = 0;
  const labels = new Map<string, number>();
  const close = () => {
    if (hidden) out.push(`… and ${hidden} more ${section}${noteOf(labels)}`);
    hidden = 0;
    labels.clear();
  };
  section = null;
  lines.forEach((line, i) => {
    if (line.trim() === "" || DROPPED.some((p) => p.test(line))) return;
    const header = SECTION_HEADERS.find(([h]) => line === h);
    if (header) {
      close();
      section = header[1];
      shown = 0;
    } else if (section && line.startsWith("\t")) {
      if (section !== "unmerged" && shown >= maxFiles && !odd.kept.has(i)) {
        hidden++;
        const label = odd.counted.get(i);
        if (label !== undefined) labels.set(label, (labels.get(label) ?? 0) + 1);
        return;
      }
      shown++;
    } else {
      close();
      section = null;
    }
    out.push(line);
  });
  close();
  return out;
}

/**
 * The odd entries of each section (generic_outliers.ts): those that stay past the cap, and those
 * counted with the value that makes them odd. `sections`: each line's section, null for no entry.
 */
function oddEntries(
  lines: readonly string[],
  sections: readonly (Section | null)[],
): { kept: Set<number>; counted: Map<number, string> } {
  const bySection = new Map<Section, number[]>();
  sections.forEach((section, i) => {
    if (section === null) return;
    const at = bySection.get(section);
    if (at) at.push(i);
    else bySection.set(section, [i]);
  });
  const kept = new Set<number>();
  const counted = new Map<number, string>();
  for (const at of bySection.values()) {
    const found = findOutliers(at.map((i) => lines[i]));
    for (const k of found.kept) kept.add(at[k]);
    for (const [k, label] of found.counted) counted.set(at[k], label);
  }
  return { kept, counted };
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
  const sections = lines.map((line) => {
    const short = line.startsWith("## ") ? null : SHORT_ENTRY.exec(line);
    return short ? sectionOf(short[1]) : null;
  });
  const odd = oddEntries(lines, sections);
  // Per section: the entries past the cap not shown, and the odd values among them.
  const hidden = new Map<Section, { count: number; labels: Map<string, number> }>();
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    if (line.startsWith("## ")) {
      out.push(line);
      recognised = true;
      return;
    }
    const section = sections[i];
    if (section === null) {
      out.push(line);
      return;
    }
    recognised = true;
    // Conflicts are what blocks the merge: every one is listed, whatever the cap.
    if (counts[section]++ < maxFiles || section === "unmerged" || odd.kept.has(i)) {
      out.push(line);
      return;
    }
    const more = hidden.get(section) ?? { count: 0, labels: new Map<string, number>() };
    hidden.set(section, more);
    more.count++;
    const label = odd.counted.get(i);
    if (label !== undefined) more.labels.set(label, (more.labels.get(label) ?? 0) + 1);
  });
  if (!recognised) return null;
  for (const name of ["staged", "unstaged", "untracked", "ignored"] as Section[]) {
    const more = hidden.get(name);
    if (more) out.push(`… and ${more.count} more ${name}${noteOf(more.labels)}`);
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
