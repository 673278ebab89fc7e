/**
 * group_by_rule's `file_layout`: a linter that prints a file line and then that file's findings
 * (eslint's stylish format, yamllint) keeps that layout as printed — each file line, each finding
 * line, the tool's own summary — in the tool's order. Only repetition folds: past `max_repeats`
 * findings of one rule saying one message (with one severity), a file's further ones become one
 * line after its other findings, each said by its position and its rule (the message was shown
 * above); a file whose folded kinds are the file before's says only which of them it has
 * elsewhere, and a file whose findings all fold and are the file before's, shown or folded, as
 * many of each kind, says so on its file line (`src/b.js  … 7 warnings as in the file before but
 * 3:36 no-unused-vars 'unused'`): a run of files alike costs a line each.
 */
import type { Pattern } from "../regex.ts";

export interface LayoutPatterns {
  line: Pattern;
  file: Pattern;
  noise: (line: string) => boolean;
  /** Lines under a file line, before its findings, that stay in it (phpcs's `FOUND 3 ERRORS …`). */
  head: (line: string) => boolean;
  /**
   * A finding's message wrapped onto the lines after it (phpcs's `    |       |     line`): they
   * are the finding's, shown and folded with it; its `msg` group, else the line, continues it.
   */
  continuation?: Pattern;
  /**
   * Errors stay as printed, never folded: a finding whose `sev` reads `error` (group_by_rule's
   * line_pattern with a `sev` group, without `group_errors`: spectral's errors among its warnings).
   */
  keepErrors?: boolean;
}

interface Finding {
  /** Its line and the lines continuing its message, as printed. */
  lines: string[];
  /** Its rule, severity and message. */
  key: string;
  /** Whether it is past max_repeats of its key. */
  repeat: boolean;
  position: string;
  rule: string;
  severity: string;
  message: string;
}

/** The characters of lines, a newline after each. */
const textSize = (lines: readonly string[]) => lines.reduce((n, line) => n + line.length + 1, 0);

/** Quoted names in a message (`` `os` ``, `'x'`, `"y"`). */
const QUOTED = /`[^`]*`|'[^']*'|‘[^’]*’|"[^"]*"/g;

/**
 * The lines in the tool's layout with repeated findings folded, or null when no finding stands
 * under a file line (the output is not in this layout). A file's findings of kinds shown
 * max_repeats times already (the same rule, severity and message) fold into one line after its
 * other findings, each said by its position and its rule (`1:56, 12:14 no-explicit-any`), with
 * what tells it from the rule's other messages shown when the rule says several; the fold is
 * made only when it is the shorter.
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
  // The kinds (severity and message) each rule was found saying in the whole output: a fold
  // says which of them a finding is only for a rule that says several.
  const kinds = new Map<string, Set<string>>();
  // The lines in order, each finding read once: the folds need every kind before the first.
  const read: (Finding | string)[] = [];
  let inFile = false;
  // The finding the next continuation line goes on, while lines continue it.
  let last: Finding | null = null;
  for (const line of lines) {
    if (line.trim() === "" || p.noise(line)) continue;
    const more = last !== null ? p.continuation?.exec(line) : null;
    if (more) {
      last!.lines.push(line);
      last!.message += ` ${(more.group("msg") ?? line).trim()}`;
      continue;
    }
    last = null;
    const finding = inFile ? p.line.exec(line) : null;
    if (!finding) {
      inFile = p.file.test(line) || (inFile && (!/^\S/.test(line) || p.head(line)));
      read.push(line);
      continue;
    }
    last = {
      lines: [line],
      key: "",
      repeat: false,
      position: finding.group("loc") ?? "",
      rule: finding.group("rule") ?? "",
      severity: finding.group("sev") ?? "",
      message: (finding.group("msg") ?? "").trim(),
    };
    read.push(last);
  }
  // Each finding's kind once its message is whole, counted in order.
  for (const f of read) {
    if (typeof f === "string") continue;
    f.key = `${f.rule}\n${f.severity}\n${f.message}`;
    const n = (seen.get(f.key) ?? 0) + 1;
    seen.set(f.key, n);
    f.repeat = n > maxRepeats && !(p.keepErrors && f.severity === "error");
    const said = kinds.get(f.rule);
    if (said) said.add(`${f.severity}\n${f.message}`);
    else kinds.set(f.rule, new Set([`${f.severity}\n${f.message}`]));
  }
  // The current file's findings, held until its last one says which repeats fold.
  let block: Finding[] = [];
  // The places the last file's fold listed (what was found → where), when it folded.
  let before = new Map<string, string>();
  // What each rule says over the whole output, read once for every fold that names the rule.
  const said = new Map<string, RuleKinds>();
  const saidBy = (rule: string) => {
    let known = said.get(rule);
    if (known === undefined) said.set(rule, known = ruleKinds(kinds.get(rule) ?? new Set()));
    return known;
  };
  // The places of all of the last file's findings, shown or folded, when they stood together
  // right under its file line; and where in `out` the current file line is, when the current
  // findings stand right under it.
  let beforeAll: Map<string, string> | null = null;
  let head = -1;
  const flush = () => {
    const repeats = block.filter((f) => f.repeat);
    const places = repeats.length >= 2 ? foldPlaces(repeats, saidBy) : new Map<string, string>();
    // Its severity said (`errors`) keeps it a failure line, and so one a later fold keeps.
    const severities = new Set(repeats.map((f) => f.severity.toLowerCase()));
    const what = severities.size === 1 && /^(error|warning)$/.test([...severities][0])
      ? `${[...severities][0]}s`
      : "findings";
    const size = repeats.reduce((n, f) => n + textSize(f.lines), 0);
    const all = head >= 0 && block.length > 0 ? foldPlaces(block, saidBy) : null;
    // Every finding folds and the file before had these kinds, as many of each: one line.
    const alike = head >= 0 && repeats.length === block.length && places.size > 0 &&
        beforeAll !== null
      ? sameKinds(places, beforeAll)
      : null;
    if (alike !== null) {
      const fold = `  … ${repeats.length} ${what} as in the file before${alike}`;
      if (fold.length < size + 1) {
        out[head] = `${out[head].trimEnd()}${fold}`;
        before = places;
        beforeAll = all;
        block = [];
        return;
      }
    }
    const fold = places.size === 0
      ? ""
      : `  … ${repeats.length} more ${what} as above${placesSaid(places, before)}`;
    const folds = fold !== "" && fold.length < size;
    for (const f of block) if (!folds || !f.repeat) out.push(...f.lines);
    if (folds) out.push(fold);
    before = folds ? places : new Map();
    beforeAll = all;
    block = [];
  };
  for (const entry of read) {
    if (typeof entry !== "string") {
      block.push(entry);
      continue;
    }
    // A line between files (a heading, a note) parts them: the next is not said by this one. A
    // file line's head lines (phpcs's `FOUND …`) stand between it and its findings: the last of
    // them is the line a file alike the one before says so on.
    const heads = head >= 0 && block.length === 0 && p.head(entry);
    if (!heads) flush();
    head = p.file.test(entry) || heads ? out.length : -1;
    if (head < 0) beforeAll = null;
    out.push(entry);
  }
  flush();
  return seen.size > 0 ? out : null;
}

/**
 * Where a fold says its findings are: `: 1:56, 12:14 no-explicit-any; 9:22 …` (each kind's
 * places, then the kind); when the file before folded the same kinds, as many of each, only the
 * kinds found elsewhere than there (`, at the places of the file before but 3:36
 * no-unused-vars 'unused'`), or that it found them at the same places.
 */
function placesSaid(places: Map<string, string>, before: Map<string, string>): string {
  const listed = `: ${listPlaces(places)}`;
  const moved = sameKinds(places, before);
  if (moved === null) return listed;
  if (moved === "") return ", at the same places as in the file before";
  // Said by what moved, only when that is the shorter.
  const but = `, at the places of the file before${moved}`;
  return but.length < listed.length ? but : listed;
}

/** Each kind's places, then the kind: `1:56, 12:14 no-explicit-any; 9:22 …`. */
const listPlaces = (places: Map<string, string>) =>
  [...places].map(([what, where]) => `${where} ${what}`).join("; ");

/**
 * How a file's folded findings differ from the file before's (`places` and `before`: each kind
 * and its places): `""` at the same places, ` but 3:36 no-unused-vars 'unused'` with the kinds
 * found elsewhere, or null when the kinds, or how many of each, are not the same, or the kinds
 * found elsewhere say more than a list of all.
 */
function sameKinds(places: Map<string, string>, before: Map<string, string>): string | null {
  if (places.size !== before.size) return null;
  const moved: string[] = [];
  for (const [what, where] of places) {
    const was = before.get(what);
    if (was === undefined || was.split(", ").length !== where.split(", ").length) return null;
    if (was !== where) moved.push(`${where} ${what}`);
  }
  if (moved.length === 0) return "";
  const but = ` but ${moved.join("; ")}`;
  return but.length < listPlaces(places).length ? but : null;
}

/**
 * A file's findings of kinds shown above, each kind (`no-explicit-any`) with its places (`1:56,
 * 12:14`). A rule that says one message is said by its name; one saying several by its name and
 * the names quoted in this message (`` F401 `os` ``), or the whole message when it quotes none or
 * the messages differ in more than their names; a severity the rule's other findings lack is said
 * too.
 */
function foldPlaces(
  repeats: Finding[],
  saidBy: (rule: string) => RuleKinds,
): Map<string, string> {
  const byKind = new Map<string, Finding[]>();
  for (const f of repeats) {
    const members = byKind.get(f.key);
    if (members) members.push(f);
    else byKind.set(f.key, [f]);
  }
  const places = new Map<string, string>();
  for (const members of byKind.values()) {
    const { rule, message, key } = members[0];
    const severity = key.split("\n")[1];
    const { severities, messages, shapes } = saidBy(rule);
    const names = message.match(QUOTED);
    const which = rule !== "" && messages.size === 1
      ? ""
      : shapes.size === 1 && names && rule !== ""
      ? names.join(" … ")
      : `"${message}"`;
    const tag = severities.size > 1 ? severity : "";
    const what = [rule, tag, which].filter((part) => part).join(" ");
    const where = members.map((f) => f.position).join(", ");
    // Two kinds said alike (one message's names) keep their places apart.
    places.set(what, places.has(what) ? `${places.get(what)}, ${where}` : where);
  }
  return places;
}

/** What a rule was found saying in the whole output: its severities, messages and their shapes. */
interface RuleKinds {
  severities: Set<string>;
  messages: Set<string>;
  /** Its messages with their quoted names masked (`QUOTED`). */
  shapes: Set<string>;
}

/** A rule's kinds (`severity\nmessage` each) read into what `foldPlaces` asks of them. */
function ruleKinds(kinds: Set<string>): RuleKinds {
  const said = [...kinds];
  const messages = new Set(said.map((kind) => kind.split("\n")[1]));
  return {
    severities: new Set(said.map((kind) => kind.split("\n")[0])),
    messages,
    shapes: new Set([...messages].map((m) => m.replace(QUOTED, "…"))),
  };
}
