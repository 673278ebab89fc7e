/**
 * grep's per-file work, shared by the calling thread and the pool threads (_pool.ts): filter a
 * walked entry (glob, symlink rules, deny_read), read a small file into a reused buffer, skip
 * binaries, check the required literal on the bytes, decode, and find the matching lines.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import picomatch from "picomatch";
import type { Sandbox } from "../sandbox/mod.ts";
import { indexOfByte, READ_BUFFER, READ_BUFFER_BYTES } from "./_bytes.ts";
import { CHUNK_BYTES, scanFileSync } from "./_chunks.ts";
import { requiredLiteral } from "./_literal.ts";
import { bytePrefilter, compileLineMatcher, decodeUtf8, pieceChecks } from "./_match.ts";
import type { WalkEntry } from "./_walk.ts";

/** How many leading bytes are scanned for a NUL byte (git and ripgrep use the same idea). */
export const BINARY_SNIFF_BYTES = 8192;

/** What a search looks for; plain data, so it can be posted to a pool thread. */
export interface GrepSpec {
  pattern: string;
  caseSensitive: boolean;
  /** A file never contributes more than max + 1 lines (+1 tells that the cap cut). */
  max: number;
}

export interface FileMatch {
  lines: string[];
  /** 0-based indexes of the matching lines, ascending. */
  matched: number[];
}

/** A file with matching lines, as the output needs it. */
export interface GrepHit extends FileMatch {
  /** The path read (a symlink's canonical target). */
  file: string;
  /** The path as walked (shown to the model). */
  walked: string;
}

/** Which walked entries a directory search reads, besides the walk's own rules. */
export interface EntryFilter {
  /** The `glob` parameter, if any. */
  glob?: string;
  /** Length of the search's start directory plus one: `path.slice(prefix)` is relative. */
  prefix: number;
  /** Context lines kept around matches in a file too large to read whole. @default 0 */
  context?: number;
}

/**
 * The per-entry step of a directory search: the glob filter, file symlinks followed only to a
 * readable regular file inside the sandbox, deny_read, the read and the match. Null when the
 * entry is skipped or has no matching line. A file over `CHUNK_BYTES` is scanned in chunks, so
 * memory stays bounded and `stopped` (asked between chunks) can end it early.
 */
export function entrySearcher(
  spec: GrepSpec,
  filter: EntryFilter,
  sandbox: Sandbox,
): (entry: WalkEntry, stopped?: () => boolean) => GrepHit | null {
  const matchBytes = fileMatcher(spec);
  const { glob, prefix } = filter;
  // Like ripgrep's -g: a slash-less glob ("*.ts") matches the file name at any depth.
  const isGlobMatch = glob ? picomatch(glob, { dot: true, basename: !glob.includes("/") }) : null;
  const large = {
    match: matchBytes,
    max: spec.max,
    context: filter.context ?? 0,
    sniffBytes: BINARY_SNIFF_BYTES,
  };
  return (entry, stopped) => {
    if (isGlobMatch && !isGlobMatch(entry.path.slice(prefix))) return null;
    let file = entry.path;
    if (entry.isSymlink) {
      // Follow a file symlink only to a readable target inside the sandbox.
      try {
        file = Deno.realPathSync(entry.path);
        if (!sandbox.contains(file) || !Deno.statSync(file).isFile) return null;
      } catch {
        return null;
      }
    }
    if (!sandbox.canRead(file)) return null;
    const bytes = readSmallFile(file);
    if (!bytes) return null; // unreadable files are skipped, as the description says
    const m = bytes === "large" ? scanFileSync(file, large, stopped) : matchBytes(bytes);
    return m ? { file, walked: entry.path, lines: m.lines, matched: m.matched } : null;
  };
}

// Files up to READ_BUFFER_BYTES are read into one reused buffer (where the literal's byte search
// is fastest, _bytes.ts); larger ones with readFileSync, up to `CHUNK_BYTES` ("large" beyond).

/**
 * The bytes of a file (a view of the shared buffer when it fits, valid until the next call),
 * "large" when it is over `CHUNK_BYTES` (to be scanned in chunks), or null when it cannot be
 * read or is a large binary. Only regular files reach here (the walk
 * classifies entries without following them; symlinks are checked with stat first). node:fs
 * file descriptors: no FsFile object per file, as Deno.openSync would make.
 */
export function readSmallFile(file: string): Uint8Array | "large" | null {
  let fd = -1;
  try {
    fd = openSync(file, "r");
    let n = 0;
    while (n < READ_BUFFER_BYTES) {
      const got = readSync(fd, READ_BUFFER, n, READ_BUFFER_BYTES - n, n);
      if (got === 0) return READ_BUFFER.subarray(0, n);
      n += got;
      // A regular file returns fewer bytes than asked only at its end: one read op per small
      // file instead of two.
      if (n < READ_BUFFER_BYTES) return READ_BUFFER.subarray(0, n);
    }
    // A large file: binary ones are recognised from this first chunk and never read whole.
    if (indexOfByte(READ_BUFFER.subarray(0, BINARY_SNIFF_BYTES), 0) !== -1) return null;
    if (fstatSync(fd).size > CHUNK_BYTES) return "large";
    closeSync(fd);
    fd = -1;
    return Deno.readFileSync(file);
  } catch {
    return null;
  } finally {
    if (fd !== -1) closeSync(fd);
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/**
 * The matcher of one search: bytes in, matching lines out (null: binary, not UTF-8 or no match).
 * The pattern must already be valid RE2 (grep validates it first, with a clear error).
 */
export function fileMatcher(spec: GrepSpec): (bytes: Uint8Array) => FileMatch | null {
  const { max } = spec;
  const matcher = compileLineMatcher(spec.pattern, spec.caseSensitive);
  // A native indexOf on a substring every match must contain skips most files and lines
  // before the regex runs.
  const literal = requiredLiteral(spec.pattern);
  const findLiteral: ((text: string, from: number) => number) | null = !literal
    ? null
    : spec.caseSensitive
    ? (text, from) => text.indexOf(literal.text, from)
    : (() => {
      const re = new RegExp(escapeRegExp(literal.text), "giu");
      return (text: string, from: number) => {
        re.lastIndex = from;
        return re.exec(text)?.index ?? -1;
      };
    })();
  // Pieces every match contains, checked with V8 before re2js runs on a text or a line.
  const pieces = matcher.engine === "re2" ? pieceChecks(spec.pattern, spec.caseSensitive) : [];
  const hasPieces = (s: string) => {
    for (const re of pieces) if (!re.test(s)) return false;
    return true;
  };
  // Files without the literal's bytes are skipped before any UTF-8 decoding.
  const hasLiteralBytes = literal ? bytePrefilter(literal.text, spec.caseSensitive) : null;

  return (bytes) => {
    if (bytes.length === 0) return null;
    // The literal first: most files lack it, and then whether they are binary does not matter.
    if (hasLiteralBytes && !hasLiteralBytes(bytes)) return null;
    const head = bytes.length > BINARY_SNIFF_BYTES ? bytes.subarray(0, BINARY_SNIFF_BYTES) : bytes;
    if (indexOfByte(head, 0) !== -1) return null;
    const text = decodeUtf8(bytes);
    if (text === null) return null; // not UTF-8: treated as binary
    if (findLiteral) {
      // Only the lines holding the literal are tested, and the text is split into lines only
      // when one matches: most files that hold a literal have no matching line, and a regex
      // run over a whole file (re2js is JS) costs more than one per candidate line.
      const test = literal!.whole
        ? null
        : (line: string) => hasPieces(line) && matcher.testLine(line);
      const matched = literalLines(text, findLiteral, test, max);
      return matched.length ? { lines: splitLines(text), matched } : null;
    }
    if (!(hasPieces(text) && matcher.testText(text))) return null;
    const lines = splitLines(text);
    const matched: number[] = [];
    for (let n = 0; n < lines.length && matched.length <= max; n++) {
      const line = lines[n].endsWith("\r") ? lines[n].slice(0, -1) : lines[n];
      if (hasPieces(line) && matcher.testLine(line)) matched.push(n);
    }
    return matched.length ? { lines, matched } : null;
  };
}

/** The lines of a text, without the empty one after a final newline. */
function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * 0-based numbers of the lines that hold the literal (`find`) and pass `test` (null: every
 * such line), at most `max + 1` of them; a trailing `\r` is not part of a tested line.
 */
function literalLines(
  text: string,
  find: (text: string, from: number) => number,
  test: ((line: string) => boolean) | null,
  max: number,
): number[] {
  const matched: number[] = [];
  let lineNo = 0;
  let counted = 0;
  for (let hit = find(text, 0); hit !== -1 && matched.length <= max;) {
    const start = hit === 0 ? 0 : text.lastIndexOf("\n", hit - 1) + 1;
    let end = text.indexOf("\n", hit);
    if (end === -1) end = text.length;
    lineNo += countNewlines(text, counted, start);
    counted = start;
    if (test === null) matched.push(lineNo);
    else {
      const line = text.slice(start, text.charCodeAt(end - 1) === 13 ? end - 1 : end);
      if (test(line)) matched.push(lineNo);
    }
    if (end >= text.length) break;
    hit = find(text, end + 1);
  }
  return matched;
}

/** How many `\n` are in text[from, to). */
function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
