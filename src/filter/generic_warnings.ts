/**
 * Warning storms: an interpreter run with its warnings on (`ruby -w`, `python -W always`, `perl
 * -w`, PHP with E_ALL) prints one line per place a warning fires, often hundreds of a few kinds
 * (a file loaded twice redefines every constant and method in it), before the output that
 * matters (the crash, the result).
 *
 * Each warning is its line and the deeper-indented lines under it (Python's echo of the source
 * line, javac-style carets), unless one of them reads as a failure: then it ends the warning and
 * stays. Warnings located in a library (a gem, the standard library, site-packages, node_modules,
 * a Composer vendor tree, Perl's own modules) fold to one line per library with their count and
 * kinds: they are not the project's to fix. Of the project's warnings, a kind that recurs at
 * least `MIN_KIND` times keeps the first warning of each distinct message as printed, and its last
 * warning, and the repeats between fold to one line that names the kind and their locations, by
 * file with its line numbers: a location is where the reader goes to fix it, so only the repeated
 * text goes, and past what a line holds the places not listed are counted. A
 * kind is the message's first words, a word that names something (a quote, a sigil, a digit, a
 * call) standing as `…`, so `already initialized constant PORT` and `… HOST` are one kind; a
 * message is the whole text with its numbers masked, so `Undefined array key "name"` and `…
 * "amount"` are two messages (each a different thing to fix) and `… key 3` and `… key 4` one;
 * warnings from a place already shown fold whatever their message (a loop's line warning of each
 * file it leaves open).
 * Kinds seen fewer times, and every line that is not a warning, stay as printed.
 *
 * One pass over the lines; each line is tested only when shorter than MAX_TESTED, with patterns
 * linear in the line.
 */

import { FoldedLines } from "./arrays.ts";
import { MAX_TESTED, nodePackage, pythonLibrary, rubyLibrary } from "./generic_folds.ts";
import { FAILURE_SIGNAL } from "./signals.ts";

/** A kind folds when it recurs at least this many times. */
const MIN_KIND = 6;
/** Library warnings fold when a library has at least this many. */
const MIN_LIBRARY = 3;
/** Words of a message that name its kind, at most. */
const KIND_WORDS = 3;
/** Characters of locations a fold line lists, at most (the rest are counted). */
const LOCATION_CHARS = 600;

interface Warning {
  path: string;
  line: string;
  message: string;
}

/** `path:12: warning: …` (Ruby, and gcc-style tools), `path:12: DeprecationWarning: …` (Python). */
const LOCATED =
  /^(\S{1,1000}?):(\d{1,7})(?::\d{1,5})?: (?:warning: (.{1,2000})|([A-Z]\w{0,60}Warning: .{1,2000}))$/;
/** Perl: `Use of uninitialized value $x in concatenation (.) or string at t.pl line 12.` */
const PERL =
  /^(.{1,2000}) at (\S{1,1000}) line (\d{1,7})(?:, <[^>]{1,200}> (?:line|chunk) \d{1,9})?\.$/;
/** PHP: `PHP Warning:  Undefined variable $x in /app/a.php on line 3` (the CLI's forms). */
const PHP =
  /^(?:PHP )?((?:Warning|Notice|Deprecated|Strict Standards):)\s{1,4}(.{1,2000}) in (\S{1,1000}) on line (\d{1,7})$/;

/**
 * What every form above holds: `arning: ` (LOCATED's) or ` line ` (PHP's and Perl's). One
 * search of two literals: a line that holds neither is let go without trying the forms.
 */
const MAY_WARN = /arning: | line /;

function warningOf(text: string): Warning | null {
  if (text.length > MAX_TESTED || !MAY_WARN.test(text)) return null;
  let m = LOCATED.exec(text);
  if (m) return { path: m[1], line: m[2], message: m[3] ?? m[4] };
  if (text.includes(" line ")) {
    m = PHP.exec(text);
    if (m) return { path: m[3], line: m[4], message: `${m[1]} ${m[2]}` };
    // Perl's form ends a sentence: only lines that read as a warning, not `die`'s message.
    m = PERL.exec(text);
    if (
      m &&
      /^(Use of |Useless |Name "|Possible |Scalar value |Argument "|Odd number |Unquoted |Found = |Deprecated |Subroutine \S+ redefined|"my" variable )/
        .test(m[1])
    ) {
      return { path: m[2], line: m[3], message: m[1] };
    }
  }
  return null;
}

/**
 * The kind of a message: its first words, a word that names something (a quote, a sigil, a
 * digit, a call) standing as `…`.
 */
export function warningKind(message: string): string {
  const words: string[] = [];
  let counted = 0;
  for (const word of message.split(" ")) {
    if (counted === KIND_WORDS) break;
    if (word === "") continue;
    if (/["'`$@%\d(<\[{]/.test(word)) {
      if (words.at(-1) !== "…") words.push("…");
      continue;
    }
    words.push(word);
    counted++;
  }
  return counted === 0 ? "" : words.join(" ");
}

/** The library a warning's file is in, or null for the project's own. */
function libraryOf(path: string): string | null {
  const modules = nodePackage(path);
  if (modules !== null) return modules;
  const vendor = /\/vendor\/([^/]{1,100}\/[^/]{1,100})\//.exec(path);
  if (vendor) return vendor[1];
  if (/^\/usr\/(?:share|lib)\/(?:\S{1,100}\/)?perl5?\//.test(path)) return "perl library";
  if (/^\/usr\/share\/php\//.test(path)) return "php library";
  return rubyLibrary(path) ?? pythonLibrary(path);
}

/** Line numbers, each once, ascending, consecutive ones as ranges: `2-21`, `25`, `30`. */
function lineRanges(numbers: readonly string[]): { text: string; places: number }[] {
  const sorted = [...new Set(numbers.map(Number))].sort((a, b) => a - b);
  const ranges: { text: string; places: number }[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    ranges.push({ text: j > i ? `${sorted[i]}-${sorted[j]}` : `${sorted[i]}`, places: j - i + 1 });
    i = j + 1;
  }
  return ranges;
}

/**
 * `a.rb lines 2-9, 14; b.rb line 3`: the locations by file, in the order first seen, as many as
 * LOCATION_CHARS holds; the places past it are counted (`; 97 more places in 97 files not
 * listed`), so the fold line is never long enough for the long-line cut to take its end.
 */
function locations(warnings: readonly Warning[]): string {
  const byFile = new Map<string, string[]>();
  for (const w of warnings) {
    const lines = byFile.get(w.path);
    if (lines) lines.push(w.line);
    else byFile.set(w.path, [w.line]);
  }
  const parts: string[] = [];
  let length = 0;
  let hidden = 0;
  let hiddenFiles = 0;
  for (const [path, lines] of byFile) {
    const ranges = lineRanges(lines);
    const shown: string[] = [];
    for (const range of ranges) {
      if (hidden > 0) break;
      const text = shown.length ? `, ${range.text}` : `; ${path} lines ${range.text}`;
      if (length + text.length > LOCATION_CHARS) break;
      shown.push(range.text);
      length += text.length;
    }
    if (shown.length) {
      const many = shown.length > 1 || shown[0].includes("-");
      parts.push(`${path} ${many ? "lines" : "line"} ${shown.join(", ")}`);
    }
    if (shown.length < ranges.length) {
      hidden += ranges.slice(shown.length).reduce((n, r) => n + r.places, 0);
      hiddenFiles++;
    }
  }
  if (hidden > 0) {
    const files = hiddenFiles === 1 ? "1 file" : `${hiddenFiles} files`;
    parts.push(`${hidden} more place${hidden === 1 ? "" : "s"} in ${files} not listed`);
  }
  return parts.join("; ");
}

interface Entry {
  warning: Warning;
  /** The warning's line and the deeper-indented ones under it. */
  lines: string[];
  library: string | null;
  kind: string;
}

/** What each warning's place puts out: its own lines, a fold line, or nothing (folded). */
function foldEntries(entries: readonly Entry[]): Map<Entry, readonly string[]> {
  const libraries = new Map<string, Entry[]>();
  const kinds = new Map<string, Entry[]>();
  for (const e of entries) {
    const group = e.library === null ? kinds : libraries;
    const key = e.library ?? e.kind;
    const list = group.get(key);
    if (list) list.push(e);
    else group.set(key, [e]);
  }
  const put = new Map<Entry, readonly string[]>();
  for (const [library, all] of libraries) {
    if (all.length < MIN_LIBRARY) continue;
    const named = [...new Set(all.map((x) => x.kind))].filter((k) => k !== "");
    const what = named.length ? ` (${named.map((k) => `"${k} …"`).join(", ")})` : "";
    put.set(all[0], [`… ${all.length} warnings in ${library}'s files${what} folded …`]);
    for (const e of all.slice(1)) put.set(e, []);
  }
  for (const [kind, all] of kinds) {
    if (kind === "" || all.length < MIN_KIND) continue;
    // The first warning of each distinct message stays; a repeat of a message, or of a place
    // already shown (one line of code warning of each value it meets), folds.
    const messages = new Set<string>();
    const places = new Set<string>();
    const rest = all.filter((e) => {
      const message = e.warning.message.replace(/\b(?:0x[0-9a-f]+|\d+)\b/gi, "#");
      const place = `${e.warning.path}:${e.warning.line}`;
      if (messages.has(message) || places.has(place)) return true;
      messages.add(message);
      places.add(place);
      return false;
    });
    // The last warning of the kind stays as printed, where it was: the storm's end as the tool
    // printed it, whatever the fold line lists.
    const last = rest.at(-1) === all.at(-1) ? rest.pop() : undefined;
    if (rest.length < 2) continue;
    put.set(all[0], [
      ...all[0].lines,
      `… ${rest.length} more warnings "${kind} …" at ${locations(rest.map((x) => x.warning))} …`,
    ]);
    for (const e of rest) put.set(e, []);
    if (last !== undefined) put.set(last, last.lines);
  }
  for (const e of entries) if (!put.has(e)) put.set(e, e.lines);
  return put;
}

/**
 * Folds the warning storms of an output (see the module's comment). The warnings of a kind or a
 * library need not be consecutive (PHP prints its notices amid the script's output): each
 * folds at the place of its first.
 */
export function foldWarningStorms(lines: readonly string[]): readonly string[] {
  // Fewer lines that may be warnings than the least that fold: nothing to read further (the
  // pass runs on every output no rule matches).
  let candidates = 0;
  for (const line of lines) {
    if (MAY_WARN.test(line) && ++candidates === MIN_LIBRARY) break;
  }
  if (candidates < MIN_LIBRARY) return lines;
  // The warnings and the lines under each, by the index of the warning's line.
  const entries = new Map<number, Entry>();
  for (let i = 0; i < lines.length;) {
    const warning = warningOf(lines[i]);
    if (warning === null) {
      i++;
      continue;
    }
    const entry: Entry = {
      warning,
      lines: [lines[i]],
      library: libraryOf(warning.path),
      kind: warningKind(warning.message),
    };
    entries.set(i, entry);
    i++;
    while (
      i < lines.length && lines[i].length <= MAX_TESTED && /^\s+\S/.test(lines[i]) &&
      !FAILURE_SIGNAL.test(lines[i])
    ) {
      entry.lines.push(lines[i]);
      i++;
    }
  }
  if (entries.size < MIN_LIBRARY) return lines;
  const out = new FoldedLines(lines);
  const put = foldEntries([...entries.values()]);
  for (let i = 0; i < lines.length;) {
    const entry = entries.get(i);
    if (entry === undefined) {
      out.push(lines[i]);
      i++;
      continue;
    }
    for (const line of put.get(entry) ?? []) out.push(line);
    i += entry.lines.length;
  }
  return out.lines();
}

/** A Python warning's line: its location, its category and its message. */
const PY_WARNING = /^(\s{0,12})\S{1,1000}:\d{1,7}: [A-Z]\w{0,60}Warning: \S/;
/** Python's echo of the source line under a warning, when that line is the `warn` call itself. */
const WARN_CALL_ECHO = /^(\s{1,24})(?:warnings\.)?warn(?:_explicit)?\(/;

/**
 * The lines without the echo Python prints under a warning when the echoed source line is the
 * `warnings.warn(…)` call that printed it: the warning's line names the same place and says its
 * message; an echo of any other line (the caller's, with `stacklevel`) stays.
 */
export function dropWarnCallEchoes(lines: readonly string[]): readonly string[] {
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length; i++) {
    out.push(lines[i]);
    const next = lines[i + 1];
    if (
      next === undefined || lines[i].length > MAX_TESTED || next.length > MAX_TESTED ||
      !next.includes("warn(")
    ) continue;
    const warning = PY_WARNING.exec(lines[i]);
    const echo = warning && WARN_CALL_ECHO.exec(next);
    if (echo && echo[1].length > warning[1].length) i++;
  }
  return out.lines();
}
