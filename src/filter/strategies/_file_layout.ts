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

interface Repeat {
  severity: string;
  message: string;
  rule: string;
  positions: string[];
}

/**
 * The lines in the tool's layout with repeated findings folded, or null when no finding stands
 * under a file line (the output is not in this layout).
 */
export function keepFileLayout(
  lines: readonly string[],
  p: LayoutPatterns,
  maxRepeats: number,
): string[] | null {
  const out: string[] = [];
  const seen = new Map<string, number>();
  // The current file's findings past max_repeats, by rule, severity and message.
  let repeats = new Map<string, Repeat>();
  let inFile = false;
  let findings = 0;
  const flush = () => {
    for (const { severity, message, rule, positions } of repeats.values()) {
      const what = `${severity ? `${severity} ` : ""}"${message}" (${rule})`;
      out.push(`  … ${positions.length} more ${what} at ${positions.join(", ")}`);
    }
    repeats = new Map();
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
      if (n <= maxRepeats) {
        out.push(line);
        continue;
      }
      const repeat = repeats.get(key) ?? { severity, message, rule, positions: [] };
      repeat.positions.push(finding.group("loc") ?? "");
      repeats.set(key, repeat);
      continue;
    }
    flush();
    inFile = p.file.test(line) || (inFile && !/^\S/.test(line));
    out.push(line);
  }
  flush();
  return findings > 0 ? out : null;
}
