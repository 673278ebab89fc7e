/**
 * The usage text a failed command prints after its error (npm's `EUSAGE`, commander, yargs, Go's
 * flag package, git's option table): the error lines, the `Usage:` line and the synopsis under it
 * stay; a long listing of options, commands and their descriptions below becomes one line that
 * says how many lines went and which `--help` shows them. When the error is about an unknown or
 * invalid option or command, the listing is what the model needs to correct the call: its
 * entries stay and only the lines that describe them fold. A short listing stays whole: it is
 * the answer to a wrong flag. Lines may carry a program's prefix (`npm error `): the prefix of
 * the `Usage:` line is taken off the lines below it before they are read. A line read into a
 * listing that starts an error (`Error: …`) or names a source location (a stack frame after the
 * listing and a blank line) never folds. When the error names the word the caller mistyped (git's
 * ``unknown option `ammend'``) and a long listing holds entries whose names are near it
 * (`--amend`), those entries are the answer: they stay and the rest of the listing folds; with no
 * entry near the word, every entry stays.
 */

import { appendAll, FoldedLines } from "./arrays.ts";
import { lastCommand } from "./command.ts";
import { MAX_TESTED } from "./generic_folds.ts";
import { indentOf } from "./sanitize.ts";
import { LOCATION } from "./strategies/mod.ts";

/** A listing shorter than this stays whole. */
export const MIN_FOLDED_USAGE = 20;
/** In a listing kept for an unknown option, fewer description lines than this stay. */
const MIN_FOLDED_DESCRIPTIONS = 10;
/** Words of the command named in the `--help` hint, at most. */
const MAX_HELP_WORDS = 4;

/**
 * `Usage:`, `usage: git commit …`, `Usage of ./srv:` and what precedes it (a short prefix; a
 * lowercase `usage:` only at the start, so that `memory usage: 4 MB` is none).
 */
const USAGE = /^(.{0,24}?)\b(usage|Usage|USAGE)(?: of \S{1,200})?:(.*)$/;
/**
 * A section heading of a help text: `Options:`, `Global Flags:`, git's `Commit message options`
 * and `Specific git-branch actions:`.
 */
const HEADING =
  /^(?:[A-Z][\w -]{0,40} )?(?:options|flags|arguments|positionals|commands|subcommands|actions)(?::| \(.{1,60}\):)?$/i;
/** The error is about what the caller wrote: the listing is then the answer. */
const UNKNOWN_INPUT =
  /\b(?:unknown|unrecognized|unrecognised|unexpected|invalid|no such|not defined|did you mean|similar)\b.{0,80}\b(?:option|argument|flag|command|subcommand|switch|choice|value)|\b(?:option|flag|argument|command)s? .{0,80}\b(?:unknown|unrecognized|not (?:recognized|defined|allowed|supported))\b|flag provided but not defined|did you mean/i;

/**
 * A line of a listing, its prefix taken off: an option entry (`-q, --quiet`, `[--omit <dev>]`), an
 * item at a section's own indentation (a command or an argument and what it does), or text
 * deeper than that (a description, a wrapped line).
 */
type Kind = "blank" | "heading" | "entry" | "item" | "text";

/**
 * The word an error about the caller's input names: quoted (`` `ammend' ``, `'--colour'`, a value
 * after `=` left out) or last after a colon (`Unknown argument: prio`, `not defined: -port`).
 */
const NAMED_WORD =
  /[`'"‘“]-{0,2}([A-Za-z][\w-]{1,40})(?:=[^`'"’”]{0,80})?[`'"’”]|:\s+-{0,2}([A-Za-z][\w-]{1,40})\s*$/;
/** The names of an option entry (`-l, --list`, `--[no-]verify`, `-addr string`), dashes off. */
const OPTION_NAME = /(?:^|[\s,|[(])-{1,2}(?:\[no-\])?([A-Za-z][\w-]*)/g;

/** The word the caller mistyped, lowercase, from the error lines outside the listings. */
function mistypedWord(lines: readonly string[], inListing: Uint8Array): string | null {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (inListing[i] || line.length > MAX_TESTED || !UNKNOWN_INPUT.test(line)) continue;
    const m = NAMED_WORD.exec(line);
    if (m) return (m[1] ?? m[2]).toLowerCase();
  }
  return null;
}

/** Whether an option entry (its prefix taken off) has a name near `word`. */
function entryNear(entry: string, word: string): boolean {
  // The entry's head: up to the gap before its description.
  const head = entry.trimStart().split(/\s{2,}|\t/, 1)[0];
  for (const m of head.matchAll(OPTION_NAME)) {
    if (near(m[1].toLowerCase(), word)) return true;
  }
  return false;
}

/**
 * Whether an option's name is near a mistyped word: the same, one the start of the other (of 3
 * characters at least), or a few edits apart (1, or 2 when the longer has 6 characters or more).
 */
function near(name: string, word: string): boolean {
  if (name === word) return true;
  const [short, long] = name.length <= word.length ? [name, word] : [word, name];
  if (short.length >= 3 && long.startsWith(short)) return true;
  const limit = long.length >= 6 ? 2 : 1;
  if (long.length - short.length > limit) return false;
  return editDistance(short, long, limit) <= limit;
}

/** Levenshtein distance of two short words, or `limit + 1` once it is past `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
    }
    if (Math.min(...row) > limit) return limit + 1;
    previous = row;
  }
  return previous[b.length];
}

/** An error's own line (`Error: …`, `fatal: …`, `error[E0425]:`), its prefix taken off. */
const ERROR_START = /^\s*(?:error|fatal|panic|exception)(?:\[[^\]]{0,40}\])?:/i;

/**
 * A line read into a listing that is no part of it and never folds: an error's own line or one
 * naming a source location (a stack frame printed after the listing and a blank line).
 */
function failureLine(line: string, prefix: string): boolean {
  return ERROR_START.test(withoutPrefix(line, prefix) ?? line) || LOCATION.test(line);
}

/**
 * A line with the prefix taken off (`npm error` alone is a blank line), or null when it lacks
 * the prefix or is too long to read.
 */
function withoutPrefix(line: string, prefix: string): string | null {
  if (line.length > MAX_TESTED) return null;
  if (line.startsWith(prefix)) return line.slice(prefix.length);
  return line === prefix.trimEnd() ? "" : null;
}

function isBlank(line: string, prefix: string): boolean {
  return withoutPrefix(line, prefix)?.trim() === "";
}

/** What follows the listing starting at `from` (its prefix `prefix`): its end and line kinds. */
function listingAt(
  lines: readonly string[],
  from: number,
  prefix: string,
): { end: number; kinds: Kind[] } {
  const kinds: Kind[] = [];
  let end = from;
  // The indentation of the section's first line (-1 until it is read).
  let section = -1;
  for (let i = from; i < lines.length; i++) {
    const rest = withoutPrefix(lines[i], prefix);
    if (rest === null) break;
    let kind: Kind;
    if (rest.trim() === "") kind = "blank";
    else if (HEADING.test(rest.trimEnd())) {
      kind = "heading";
      section = -1;
    } else {
      const indent = indentOf(rest);
      if (section < 0) section = indent;
      if (rest[indent] === "-" || rest[indent] === "[") kind = "entry";
      // A listing's other lines (descriptions, commands, wrapped text) are indented.
      else if (indent === 0) break;
      else kind = indent <= section ? "item" : "text";
    }
    kinds.push(kind);
    if (kind !== "blank") end = i + 1;
  }
  kinds.length = end - from;
  return { end, kinds };
}

/**
 * Whether the kinds look like a help listing: option entries (and, below a usage line, items)
 * are a fair share of its lines.
 */
function looksLikeListing(kinds: readonly Kind[], underUsage: boolean): boolean {
  let entries = 0;
  let nonBlank = 0;
  for (const kind of kinds) {
    if (kind === "blank") continue;
    nonBlank++;
    if (kind === "entry" || (underUsage && kind === "item")) entries++;
  }
  return entries >= 3 && entries * 4 >= nonBlank;
}

/** The `--help` call that shows what a fold hides: the command's words before its first flag. */
export function helpHint(command: string): string {
  const last = lastCommand(command);
  const words: string[] = [];
  for (const word of last.split(/\s+/)) {
    if (word === "" || word.startsWith("-") || words.length === MAX_HELP_WORDS) break;
    words.push(word);
  }
  return words.length ? `run \`${words.join(" ")} --help\`` : "run the command with --help";
}

/**
 * A failed command's output with the long usage listings folded (see the module comment);
 * anything else, and any output of a command that did not fail, comes back unchanged.
 */
export function foldUsage(
  lines: readonly string[],
  options: { failed: boolean; command?: string },
): readonly string[] {
  if (!options.failed) return lines;
  const out = new FoldedLines(lines);
  // Where listings start: after each usage line's synopsis, and at each heading.
  const listings: { start: number; end: number; kinds: Kind[]; prefix: string }[] = [];
  let prefix = "";
  let underUsage = false;
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    const usage = line.length <= MAX_TESTED ? USAGE.exec(line) : null;
    let start = -1;
    if (usage && !/usage/i.test(usage[1]) && (usage[1] === "" || usage[2] !== "usage")) {
      prefix = usage[1];
      underUsage = true;
      start = synopsisEnd(lines, i, prefix, usage[3].trim() !== "");
    } else if (HEADING.test(withoutPrefix(line, prefix)?.trimEnd() ?? "")) {
      start = i;
    }
    if (start < 0) {
      i++;
      continue;
    }
    // Blank lines before the listing stay: they part it from the synopsis.
    while (start < lines.length && isBlank(lines[start], prefix)) start++;
    const { kinds, end: last } = listingAt(lines, start, prefix);
    let end = last;
    if (end > start && looksLikeListing(kinds, underUsage)) {
      // Of the blank lines after the listing, one stays.
      while (
        end + 1 < lines.length && isBlank(lines[end], prefix) && isBlank(lines[end + 1], prefix)
      ) {
        end++;
        kinds.push("blank");
      }
      listings.push({ start, end, kinds, prefix });
    }
    i = Math.max(end, i + 1);
  }
  if (!listings.length) return lines;
  const inListing = new Uint8Array(lines.length);
  for (const { start, end } of listings) inListing.fill(1, start, end);
  const aboutInput = lines.some((line, i) =>
    !inListing[i] && line.length <= MAX_TESTED && UNKNOWN_INPUT.test(line)
  );
  const hint = helpHint(options.command ?? "");
  const wrong = aboutInput ? mistypedWord(lines, inListing) : null;
  // Listings long enough to fold, one of them with an entry near the mistyped word: each keeps
  // only such entries (a listing of none folds whole).
  const nearFound = wrong !== null &&
    listings.reduce((n, { start, end }) => n + end - start, 0) >= MIN_FOLDED_USAGE &&
    listings.some(({ start, end, kinds, prefix }) =>
      nearEntries(lines.slice(start, end), kinds, prefix, wrong, []).some(Boolean)
    );
  let next = 0;
  for (const { start, end, kinds, prefix } of listings) {
    appendAll(out, lines, next, start);
    next = end;
    const listing = lines.slice(start, end);
    const failing = listing.map((line) => failureLine(line, prefix));
    if (!aboutInput) {
      if (listing.length < MIN_FOLDED_USAGE) appendAll(out, listing);
      else {
        // A failure's lines read into the listing stay, after the fold.
        const kept = listing.filter((_, k) => failing[k]);
        out.push(
          `${prefix}… ${listing.length - kept.length} lines of usage folded; ${hint} to see them …`,
        );
        appendAll(out, kept);
      }
      continue;
    }
    // Entries near the mistyped word, with their descriptions, and failure lines stay.
    const nearKept = nearFound ? nearEntries(listing, kinds, prefix, wrong!, failing) : null;
    if (nearKept !== null) {
      const kept = listing.filter((_, k) => nearKept[k]);
      appendAll(out, kept).push(
        `${prefix}… ${listing.length - kept.length} lines of usage folded; ${hint} to see them …`,
      );
      continue;
    }
    // Entries, items, headings and failure lines stay; the descriptions and blank lines go.
    const kept = listing.filter((_, k) =>
      failing[k] || (kinds[k] !== "text" && kinds[k] !== "blank")
    );
    const dropped = listing.length - kept.length;
    const descriptions = kinds.filter((k, i) => k === "text" && !failing[i]).length;
    if (descriptions < MIN_FOLDED_DESCRIPTIONS) appendAll(out, listing);
    else {
      appendAll(out, kept).push(
        `${prefix}… ${dropped} lines of option descriptions folded; ${hint} to see them …`,
      );
    }
  }
  appendAll(out, lines, next);
  return out.lines();
}

/**
 * Which lines of a listing stay when the error names a mistyped word: the entries with a name
 * near it, the description lines under each, and failure lines.
 */
function nearEntries(
  listing: readonly string[],
  kinds: readonly Kind[],
  prefix: string,
  word: string,
  failing: readonly boolean[],
): boolean[] {
  const kept = listing.map((_, k) => failing[k] ?? false);
  let under = false;
  for (let k = 0; k < listing.length; k++) {
    if (kinds[k] === "entry") {
      under = entryNear(withoutPrefix(listing[k], prefix) ?? listing[k], word);
    } else if (kinds[k] !== "text") under = false;
    if (under) kept[k] = true;
  }
  return kept;
}

/**
 * Where the listing after the usage line at `at` starts: past the synopsis, which is the rest of
 * the usage line with the deeper-indented lines continuing it (`inline`), or, after a bare
 * `Usage:`, the lines up to a blank one that are no option entry.
 */
function synopsisEnd(
  lines: readonly string[],
  at: number,
  prefix: string,
  inline: boolean,
): number {
  let i = at + 1;
  for (; i < lines.length; i++) {
    const rest = withoutPrefix(lines[i], prefix);
    if (rest === null || rest.trim() === "" || HEADING.test(rest.trimEnd())) break;
    const indent = indentOf(rest);
    if (rest[indent] === "-") break;
    if (inline && indent === 0) break;
  }
  return i;
}
