/**
 * group_by_rule's `file_layout`: a linter that prints a file line and then that file's findings
 * (eslint's stylish format, yamllint) keeps that layout as printed — each file line, each finding
 * line, the tool's own summary — in the tool's order. Only repetition folds: past `max_repeats`
 * findings of one rule saying one message (with one severity), a file's further ones become one
 * line naming the message and rule, with their positions as printed.
 */
import type { Pattern } from "../regex.ts";

export interface LayoutPatterns {
  line: Pattern;
  file: Pattern;
  noise: (line: string) => boolean;
}

interface Finding {
  line: string;
  /** Its rule, severity and message, when it is past max_repeats of them. */
  repeat?: string;
  position: string;
  what: string;
}

/**
 * The lines in the tool's layout with repeated findings folded, or null when no finding stands
 * under a file line (the output is not in this layout). A file's repeats of one kind fold into
 * one line only when there are two or more and that line is the shorter; else they stay in place.
 */
export function keepFileLayout(
  lines: readonly string[],
  p: LayoutPatterns,
  maxRepeats: number,
): string[] | null {
  // No file line, no finding under one: nothing is copied to find that out.
  if (!lines.some((line) => p.file.test(line))) return null;
  const out: string[] = [];
  const seen = new Map<string, number>();
  // The current file's findings, held until its last one says which repeats fold.
  let block: Finding[] = [];
  let inFile = false;
  let findings = 0;
  const flush = () => {
    const kinds = new Map<string, Finding[]>();
    for (const f of block) {
      if (f.repeat === undefined) continue;
      const members = kinds.get(f.repeat);
      if (members) members.push(f);
      else kinds.set(f.repeat, [f]);
    }
    const folds = new Map<string, string>();
    for (const [kind, members] of kinds) {
      const fold = `  … ${members.length} more ${members[0].what} at ${
        members.map((f) => f.position).join(", ")
      }`;
      const size = members.reduce((n, f) => n + f.line.length + 1, 0);
      if (members.length >= 2 && fold.length < size) folds.set(kind, fold);
    }
    for (const f of block) {
      if (f.repeat === undefined || !folds.has(f.repeat)) out.push(f.line);
    }
    for (const fold of folds.values()) out.push(fold);
    block = [];
  };
  for (const line of lines) {
    if (line.trim() === "" || p.noise(line)) continue;
    const finding = inFile ? p.line.exec(line) : null;
    if (finding) {
      findings++;
      const severity = finding.group("sev") ?? "";
      const message = (finding.group("msg") ?? "").trim();
      const rule = finding.group("rule") ?? "";
      const key = `${rule}\n${severity}\n${message}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      block.push({
        line,
        repeat: n > maxRepeats ? key : undefined,
        position: finding.group("loc") ?? "",
        what: `${severity ? `${severity} ` : ""}"${message}" (${rule})`,
      });
      continue;
    }
    flush();
    inFile = p.file.test(line) || (inFile && !/^\S/.test(line));
    out.push(line);
  }
  flush();
  return findings > 0 ? out : null;
}
