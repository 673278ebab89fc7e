/**
 * Compiler diagnostics through library and system headers (gcc, g++, clang): inside a
 * diagnostic, the lines located in a header the user did not write — `In file included from
 * /usr/include/…` chains, `/usr/include/…: In instantiation of …`, `note:` lines (`candidate:`,
 * `template argument deduction/substitution failed`, clang's `in instantiation of … requested
 * here`) and `required from` steps — fold with the source snippets under them into one line with
 * their count. Every `error:`, `warning:` and `fatal error:` line stays wherever it is located,
 * and so does every line located in the user's files (`main.cpp:8:12:   required from here`,
 * `from main.cpp:1:`), and so does `required from here` (where an instantiation chain starts, in
 * whatever file), so the innermost user location is never lost, and so does a note naming the type
 * a call expects or the declaration a name collides with (the header's line is the explanation).
 * A note that says its diagnostic's message again at the diagnostic's own location (clang's
 * static analyzer ends each path, and explains each insecure call, with one) goes, with its
 * source snippet: the diagnostic's line says all of it. A header's diagnostics printed again for
 * the next source that includes it (the same lines, after that source's include chain) become one
 * line naming their locations: the chain stays, and says the header is that source's too. The
 * linker's undefined references to one symbol from one function, at several offsets, keep the
 * first and a count.
 */

import { FoldedLines } from "./arrays.ts";
import { MAX_TESTED, runFolder } from "./generic_folds.ts";

/** Headers the user did not write: the system's, a toolchain's, installed packages'. */
const SYSTEM_PATH =
  /^(?:\/usr\/(?:include|lib|lib64|local\/include|share)\/|\/usr\/bin\/\.\.\/lib\/|\/opt\/|\/Library\/Developer\/|\/Applications\/Xcode|<built-in>|<command-line>)|[/\\](?:node_modules|site-packages|dist-packages)[/\\]|\/\.cargo\/registry\/|\/\.rustup\/|\/usr\/lib\/jvm\//;

/** `In file included from PATH:12,` and its continuation lines `                 from PATH:3:`. */
const INCLUDE = /^(?:In file included from |\s{1,40}from )([^\s:]{1,1000}):\d{1,7}[,:]$/;
/** `PATH: In instantiation of …`, `PATH: In function …`, `PATH: At global scope:`. */
const CONTEXT = /^([^\s:]{1,1000}): (?:In |At )/;
/** `PATH:12:5: rest`. */
const LOCATED = /^([^\s:]{1,1000}):\d{1,7}(?::\d{1,7})?: {1,8}(\S.{0,1500})$/;
/** What a located line says that may fold: notes and the steps of an instantiation. */
const NOTE =
  /^(?:note:|required from|required by|recursively required|in (?:instantiation|expansion|substitution|definition|requirements) )/;
/** gcc's snippet lines: `   45 |   code`, `      |   ^~~~`. */
const GCC_SNIPPET = /^\s{0,12}\d{0,7} \|/;
/**
 * Notes that explain the user's diagnostic wherever they are located: the type a call expects
 * (gcc names it only in the header's note) and the declaration a name collides with.
 */
const EXPLAINS =
  /^note: (?:expected .{1,500} but argument is of type |previous (?:declaration|definition))/;
/** A line of position marks under a source line (`~~~~^~~~`, `^`). */
const MARKS = /^[\s~^]{0,2000}$/;

type Kind = "fold" | "keep" | "other";

/** Whether a diagnostic line is located in a system header and may fold, must stay, or is neither. */
function classify(line: string): Kind {
  if (line.length > MAX_TESTED) return "other";
  let m = INCLUDE.exec(line) ?? CONTEXT.exec(line);
  if (m) return SYSTEM_PATH.test(m[1]) ? "fold" : "keep";
  m = LOCATED.exec(line);
  if (!m) return "other";
  // `required from here` is where an instantiation chain starts: it stays wherever it is.
  return SYSTEM_PATH.test(m[1]) && NOTE.test(m[2]) && !m[2].startsWith("required from here") &&
      !EXPLAINS.test(m[2])
    ? "fold"
    : "keep";
}

/** A diagnostic (`PATH:12:5: warning: message [check]`), indented when a rule grouped it. */
const DIAGNOSTIC = /^\s*([^\s:]{1,1000}:\d{1,7}:\d{1,7}): (?:warning|error|fatal error|remark): /;
/** A note at a location: `PATH:12:5: note: text`. */
const LOCATED_NOTE = /^\s*([^\s:]{1,1000}:\d{1,7}:\d{1,7}): note: /;
/** A check's or flag's name after a message: ` [clang-analyzer-unix.Malloc]`, ` [-Wformat=]`. */
const CHECK = / \[[\w.,=+-]{1,200}\]$/;

/**
 * The lines without the notes that repeat their diagnostic: a note at the location of the
 * diagnostic it follows saying that diagnostic's message (its check's name aside), with the
 * source snippet under it.
 */
function dropRestatedNotes(lines: readonly string[]): string[] {
  const out: string[] = [];
  /** The location and message of the diagnostic the notes read belong to. */
  let last: { at: string; message: string } | null = null;
  /** Whether the last line went (a dropped note or its snippet); the snippet lines still due. */
  let dropping = false;
  let loose = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length > MAX_TESTED) {
      dropping = false;
      out.push(line);
      continue;
    }
    const diagnostic = DIAGNOSTIC.exec(line);
    const note = diagnostic ? null : LOCATED_NOTE.exec(line);
    if (diagnostic) {
      const message = line.slice(diagnostic[0].length);
      last = { at: diagnostic[1], message: message.replace(CHECK, "") };
    } else if (
      note && last && note[1] === last.at && line.slice(note[0].length) === last.message
    ) {
      dropping = true;
      loose = 2;
      continue;
    } else if (dropping && !note && isSnippet(lines, i, loose)) {
      loose = GCC_SNIPPET.test(line) ? 0 : loose - 1;
      continue;
    }
    dropping = false;
    out.push(line);
  }
  return out;
}

/**
 * The lines with the notes that repeat their diagnostic dropped and each run of system-header
 * notes (and their snippets) folded into one line.
 */
export function foldCompilerNotes(input: readonly string[]): readonly string[] {
  const lines = input.some((line) => line.length <= MAX_TESTED && LOCATED_NOTE.test(line))
    ? dropRestatedNotes(input)
    : input;
  // Most outputs have no diagnostic: return early without building anything.
  if (!lines.some((line) => classify(line) === "fold")) return lines;
  const out = new FoldedLines(lines);
  const run = runFolder(out, (n) => `… ${n} lines of notes in system headers folded …`);
  /** What the last diagnostic line did: its snippet lines follow it. */
  let last: Kind = "other";
  /** clang's snippet lines (a source line, its marks) still expected after a folded note. */
  let loose = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const kind = classify(line);
    if (kind === "other" && last === "fold" && isSnippet(lines, i, loose)) {
      // A snippet of a folded note folds with it.
      loose = GCC_SNIPPET.test(line) ? 0 : loose - 1;
      run.add(line);
      continue;
    }
    last = kind;
    loose = kind === "fold" ? 2 : 0;
    if (kind === "fold") {
      run.add(line);
      continue;
    }
    run.flush();
    out.push(line);
  }
  run.flush();
  return out.lines();
}

/**
 * Whether the line at `i` is a source snippet under a diagnostic: gcc's (`  45 | code`), or, while
 * `loose` allows, clang's marks (`  ^~~~`) and the indented source line above them. A rule may
 * have dropped the marks (the gcc rule does), so a source line is also one when the next
 * diagnostic line follows it. After gcc's snippet lines no clang line is due. An indented line followed by anything else is what
 * the build printed next (kbuild's `  CC foo.o` lines), never a snippet.
 */
function isSnippet(lines: readonly string[], i: number, loose: number): boolean {
  const line = lines[i];
  if (line.length > MAX_TESTED) return false;
  if (GCC_SNIPPET.test(line)) return true;
  if (loose <= 0 || line.trim() === "") return false;
  if (isMarks(line)) return true;
  if (!/^\s/.test(line)) return false;
  const next = lines[i + 1];
  return next !== undefined && (isMarks(next) || classify(next) !== "other" ||
    (next.length <= MAX_TESTED && DIAGNOSTIC.test(next)));
}

/** Whether a line is clang's position marks (`^`, `~~~^~~`): marks and spaces, at least one mark. */
function isMarks(line: string): boolean {
  return line.length <= MAX_TESTED && MARKS.test(line) && /[~^]/.test(line);
}

/** A diagnostic at the start of a line, as a compiler prints it (not one a rule indented). */
const TOP_DIAGNOSTIC = /^([^\s:]{1,1000}:\d{1,7}:\d{1,7}): (?:warning|error|fatal error): /;
/** `In file included from a.h:3:`, gcc's `                 from a.c:2:` */
const CHAIN = /^(?:In file included from |\s{1,40}from )\S/;

/**
 * The lines with each block that repeats an earlier one from a compiler diagnostic on (a header's
 * warnings and errors, printed for each source including it) replaced by one line naming the
 * block's diagnostics. A block ends before an include chain line, which stays: it says which
 * source the repeat is for. The first copy stays as printed, so no diagnostic is lost.
 */
export function foldRepeatedDiagnostics(lines: readonly string[]): readonly string[] {
  const first = new Map<string, number>();
  // Copied only from the first block that folds: an output without one is handed on as it came.
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    const top = line.length <= MAX_TESTED ? TOP_DIAGNOSTIC.exec(line) : null;
    if (!top) {
      out.push(line);
      i++;
      continue;
    }
    const seen = first.get(line);
    if (seen === undefined) {
      first.set(line, i);
      out.push(line);
      i++;
      continue;
    }
    let k = 0;
    let chars = 0;
    const locations: string[] = [];
    while (
      i + k < lines.length && seen + k < i && lines[seen + k] === lines[i + k] &&
      lines[i + k].length <= MAX_TESTED && !CHAIN.test(lines[i + k])
    ) {
      const at = TOP_DIAGNOSTIC.exec(lines[i + k]);
      if (at) locations.push(at[1]);
      chars += lines[i + k].length + 1;
      k++;
    }
    const n = locations.length;
    // The lines are counted when more than the diagnostics (their snippets, notes).
    const size = k > n ? ` (${k} lines)` : "";
    const marker = `… ${n} diagnostic${n === 1 ? "" : "s"}${size} again, as shown above: ${
      locations.join(", ")
    } …`;
    if (marker.length < chars) out.push(marker);
    else for (let j = i; j < i + k; j++) out.push(lines[j]);
    i += k;
  }
  return out.lines();
}

/** The linker's `[/usr/bin/ld: ]main.o: in function `main':` over the references it made. */
const LINK_FUNCTION = /^(?:\S{0,300}ld(?:\.\w{1,10})?: )?(\S{1,1000}): in function `(.{1,1000})':$/;
/** `[/usr/bin/ld: ]main.c:(.text+0x3b): undefined reference to `foo'`. */
const UNDEFINED_REFERENCE =
  /^(?:\S{0,300}ld(?:\.\w{1,10})?: )?([^\s:]{1,1000}):\([\w.$]{1,200}\+0x[0-9a-f]{1,16}\): undefined reference to `(.{1,1000})'$/;

/**
 * The lines with the linker's repeated undefined references folded: under one `in function`
 * header, the references to one symbol from one file that differ only in their offset keep the
 * first as printed, followed by `… N more references to `foo' in main`. A reference to another
 * symbol, or from another function or object, is its own; a single repeat stays as printed, in
 * its place (its count would be no shorter).
 */
export function foldRepeatedReferences(lines: readonly string[]): readonly string[] {
  const out = new FoldedLines(lines);
  /** The function the references now read were made in (`main`), or their file without a header. */
  let scope = "";
  /** The lines of the current block, and for each symbol's later references the first's tally. */
  let block: (string | { first: Tally } | { again: string; of: Tally })[] = [];
  let tallies = new Map<string, Tally>();
  let folds = false;
  const flush = () => {
    for (const item of block) {
      if (typeof item === "string") out.push(item);
      else if ("first" in item) {
        const n = item.first.more;
        if (n > 1) {
          out.push(`… ${n} more references to \`${item.first.symbol}' in ${item.first.scope}`);
        }
      } else if (item.of.more === 1) out.push(item.again);
    }
    block = [];
    tallies = new Map();
  };
  for (const line of lines) {
    const header = line.length <= MAX_TESTED && line.endsWith("':")
      ? LINK_FUNCTION.exec(line)
      : null;
    if (header) {
      flush();
      scope = header[2];
      block.push(line);
      continue;
    }
    const ref = line.length <= MAX_TESTED && line.includes("undefined reference to `")
      ? UNDEFINED_REFERENCE.exec(line)
      : null;
    if (!ref) {
      flush();
      scope = "";
      out.push(line);
      continue;
    }
    const key = `${ref[1]}\n${ref[2]}`;
    const tally = tallies.get(key);
    if (tally) {
      tally.more++;
      if (tally.more > 1) folds = true;
      block.push({ again: line, of: tally });
      continue;
    }
    const first: Tally = { symbol: ref[2], scope: scope || ref[1], more: 0 };
    tallies.set(key, first);
    block.push(line, { first });
  }
  flush();
  return folds ? out.lines() : lines;
}

/** A symbol's references in one block: the first's, and how many more. */
type Tally = { symbol: string; scope: string; more: number };

/**
 * `[/usr/bin/ld: ]b.o:(.bss+0x0): multiple definition of `counter'; a.o:(.bss+0x0): first
 * defined here` (the object, or under an `in function` header the source, then the symbol and
 * where it was first defined).
 */
const MULTIPLE_DEFINITION =
  /^(?:\S{0,300}ld(?:\.\w{1,10})?: )?([^\s:]{1,1000}):(?:[^\s:(]{1,1000}:)?\([\w.$]{1,200}\+0x[0-9a-f]{1,16}\): multiple definition of `(.{1,1000})'; (\S{1,1000}): first defined here$/;
/** An object file or an archive member (`a.o`, `libx.a(b.o)`), not a source file. */
const OBJECT = /\.(?:o|obj|so)$|\.a\(|\)$/;
/** What every line the linker folds says. */
const LINKER_WORDS = /undefined reference to `|multiple definition of `|in function `/;
/** Places a fold names before it says how many more there are. */
const NAMED_PLACES = 12;

/** One linker diagnostic: what it is about (kind and symbol) and where it was made. */
type LinkSite = {
  key: string;
  symbol: string;
  kind: "undefined" | "multiple";
  /** The object or source named, and with the function it is in. */
  file: string;
  at: string;
};

/**
 * The linker's diagnostics repeated per object folded across objects: an undefined reference to
 * one symbol, or a multiple definition of one symbol first defined in one place, made from three
 * or more places (objects or functions) stays whole the first time, followed by one line naming
 * the other places (`… the same undefined reference to `log_msg' from 2 more places: b.c
 * (use_b), c.c (use_c)`);
 * the `in function` headers whose every line went, go with them. Each distinct symbol stays,
 * and so do repeats from the first one's own file (another function's first reference there,
 * and the repeats foldRepeatedReferences counts).
 */
export function foldLinkerRepeats(lines: readonly string[]): readonly string[] {
  // Most outputs hold no linker diagnostic: they are handed on before anything is allocated.
  if (!lines.some((line) => line.length <= MAX_TESTED && LINKER_WORDS.test(line))) return lines;
  const sites: (LinkSite | null)[] = new Array(lines.length).fill(null);
  /** Per line, the index of the `in function` header it is under (-1: none). */
  const under: number[] = new Array(lines.length).fill(-1);
  let header = -1;
  let headerObject = "";
  let scope = "";
  let any = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length > MAX_TESTED || !LINKER_WORDS.test(line)) {
      header = -1;
      scope = "";
      continue;
    }
    const head = line.endsWith("':") ? LINK_FUNCTION.exec(line) : null;
    if (head) {
      header = i;
      headerObject = head[1];
      scope = head[2];
      continue;
    }
    const ref = UNDEFINED_REFERENCE.exec(line);
    const multiple = ref ? null : MULTIPLE_DEFINITION.exec(line);
    const match = ref ?? multiple;
    if (!match) {
      header = -1;
      scope = "";
      continue;
    }
    // A line naming another object than its header's is not in that header's function (a
    // variable's multiple definition right after a function's).
    if (header >= 0 && OBJECT.test(match[1]) && match[1] !== headerObject) {
      header = -1;
      scope = "";
    }
    const at = scope ? `${match[1]} (${scope})` : match[1];
    sites[i] = ref
      ? { key: `u\n${ref[2]}`, symbol: ref[2], kind: "undefined", file: match[1], at }
      : {
        key: `m\n${match[2]}\n${match[3]}`,
        symbol: match[2],
        kind: "multiple",
        file: match[1],
        at,
      };
    under[i] = header;
    any = true;
  }
  if (!any) return lines;
  // Per symbol: its first line, and the lines made from another place than the first's.
  const first = new Map<string, number>();
  const others = new Map<string, number[]>();
  sites.forEach((site, i) => {
    if (site === null) return;
    const at = first.get(site.key);
    if (at === undefined) first.set(site.key, i);
    else if (sites[at]!.file !== site.file) {
      others.set(site.key, [...others.get(site.key) ?? [], i]);
    }
  });
  const dropped = new Set<number>();
  const folds = new Map<number, string>();
  for (const [key, at] of others) {
    const places = new Map<string, number>();
    for (const i of at) places.set(sites[i]!.at, (places.get(sites[i]!.at) ?? 0) + 1);
    if (places.size < 2) continue;
    for (const i of at) dropped.add(i);
    const site = sites[first.get(key)!]!;
    const named = [...places].slice(0, NAMED_PLACES).map(([place, n]) =>
      n > 1 ? `${place} ×${n}` : place
    );
    const rest = places.size - named.length;
    const list = named.join(", ") + (rest > 0 ? `, and ${rest} more` : "");
    folds.set(
      first.get(key)!,
      site.kind === "undefined"
        ? `… the same undefined reference to \`${site.symbol}' from ${places.size} more places: ${list}`
        : `… the same multiple definition of \`${site.symbol}' in ${places.size} more places: ${list}`,
    );
  }
  if (dropped.size === 0) return lines;
  // A header goes when every diagnostic under it went.
  const kept = new Set<number>();
  sites.forEach((site, i) => {
    if (site !== null && !dropped.has(i) && under[i] >= 0) kept.add(under[i]);
  });
  const headers = new Set<number>();
  sites.forEach((site, i) => {
    if (site !== null && under[i] >= 0 && !kept.has(under[i])) headers.add(under[i]);
  });
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length; i++) {
    if (dropped.has(i) || headers.has(i)) continue;
    out.push(lines[i]);
    const fold = folds.get(i);
    if (fold !== undefined) out.push(fold);
  }
  return out.lines();
}
