/**
 * The directory walker behind grep and find_path: synchronous `Deno.readDirSync` (one op per
 * directory, no promise per entry), whole directories pruned by .gitignore before they are
 * read, `.git` always skipped, symlinked directories never descended (no loops, no way out of
 * the sandbox).
 */
import * as path from "node:path";
import ignore, { type Ignore } from "ignore";

export interface WalkEntry {
  /** Absolute path (under the canonical start directory, so canonical unless a symlink). */
  path: string;
  name: string;
  isSymlink: boolean;
  /** Only with `directories: true`; a directory is visited before its contents. */
  isDirectory: boolean;
}

export interface WalkOptions {
  /** Apply .gitignore files (the start directory's, its children's, its ancestors' up to `top`). */
  gitignore: boolean;
  /** Highest directory whose .gitignore applies (the workspace or sandbox root). */
  top: string;
  /** Polled between entries (an AbortSignal, or a shared-memory flag in a grep pool thread). */
  signal?: { readonly aborted: boolean };
  /** Visit entries of a directory in name order (deterministic output). @default true */
  sort?: boolean;
  /** Also visit directories (find_path matches them). @default false */
  directories?: boolean;
}

export interface Matcher {
  dir: string;
  /** The .gitignore text, so another thread can rebuild the matcher. */
  text: string;
  test(rel: string): { ignored: boolean; unignored: boolean };
  /** Verdicts by name (directories with a trailing "/"), when only names matter (`namesOnly`). */
  byName: Map<string, { ignored: boolean; unignored: boolean }> | null;
}

/** A .gitignore as plain data: its directory and text. */
export interface IgnoreSource {
  dir: string;
  text: string;
}

/**
 * A directory the walk has reached but not opened, with the .gitignore files in force there:
 * plain data, so another thread can walk it (`Walker.fromDir`) exactly as the walk would have.
 */
export interface DirUnit {
  dir: string;
  ignores: IgnoreSource[];
}

interface IgnoreRules {
  test(path: string, mode: string): { ignored: boolean; unignored: boolean };
}

/**
 * `ignore`'s public `test` re-checks every parent directory and caches every path it saw; the
 * walk has already pruned ignored parents, so the one-path rule test of the pinned version
 * (7.0.16) is used when present (it halved the walk over 100k files), else the public one.
 */
function ruleTest(ig: Ignore): Matcher["test"] {
  const rules = (ig as unknown as { _rules?: Partial<IgnoreRules> })._rules;
  if (rules && typeof rules.test === "function") {
    const r = rules as IgnoreRules;
    return (rel) => r.test(rel, "regex");
  }
  return (rel) => ig.test(rel);
}

/**
 * True when every rule of a .gitignore looks at the last path component only: no "/" except a
 * trailing one, no "**" (git matches such patterns at any depth, by name). Verdicts can then be
 * kept per name, and the rule test runs once per name instead of once per walked entry.
 */
function namesOnly(text: string): boolean {
  for (const raw of text.split("\n")) {
    // Only a "#" in the first column starts a comment (" #a/b" is a path rule, as in git).
    const line = raw.trimEnd();
    if (line.trim() === "" || line.startsWith("#")) continue;
    const body = line.endsWith("/") ? line.slice(0, -1) : line;
    if (body === "" || body.includes("/") || body.includes("**")) return false;
  }
  return true;
}

/** Most names whose verdict one matcher keeps. */
const MAX_NAME_VERDICTS = 20_000;

function makeMatcher(dir: string, text: string): Matcher {
  const test = ruleTest(ignore({ allowRelativePaths: false }).add(text));
  return { dir, text, test, byName: namesOnly(text) ? new Map() : null };
}

function loadGitignore(dir: string): Matcher | null {
  let text: string;
  try {
    text = Deno.readTextFileSync(path.join(dir, ".gitignore"));
  } catch {
    return null;
  }
  return makeMatcher(dir, text);
}

/** Deepest matcher with an opinion decides (a nested `!pattern` re-includes). */
function isIgnored(matchers: Matcher[], full: string, name: string, isDir: boolean): boolean {
  for (let i = matchers.length - 1; i >= 0; i--) {
    const m = matchers[i];
    let rel = full.slice(m.dir.length + 1);
    if (rel === "") continue;
    if (isDir) rel += "/";
    let verdict = m.byName?.get(isDir ? name + "/" : name);
    if (!verdict) {
      const { ignored, unignored } = m.test(rel);
      verdict = { ignored, unignored };
      if (m.byName && m.byName.size < MAX_NAME_VERDICTS) {
        m.byName.set(isDir ? name + "/" : name, verdict);
      }
    }
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

function ancestorMatchers(start: string, top: string): Matcher[] {
  if (start === top || !start.startsWith(top + path.sep)) return [];
  const dirs: string[] = [];
  for (let d = path.dirname(start);; d = path.dirname(d)) {
    dirs.unshift(d);
    if (d === top || d === path.dirname(d)) break;
  }
  const matchers = dirs.map(loadGitignore).filter((m): m is Matcher => m !== null);
  // A directory the user names explicitly is searched even when an ancestor ignores it
  // (as ripgrep does); its own .gitignore files still apply below it.
  return isIgnored(matchers, start, path.basename(start), true) ? [] : matchers;
}

interface Frame {
  dir: string;
  entries: Deno.DirEntry[];
  next: number;
  /** The .gitignore matchers in force here; a new array only where a .gitignore adds one. */
  matchers: Matcher[];
}

function openDir(dir: string, parent: Matcher[], options: WalkOptions): Frame | null {
  let entries: Deno.DirEntry[];
  try {
    entries = Array.from(Deno.readDirSync(dir));
  } catch {
    return null; // unreadable directories are skipped
  }
  let matchers = parent;
  if (options.gitignore) {
    for (const e of entries) {
      if (e.name === ".gitignore" && e.isFile) {
        const m = loadGitignore(dir);
        if (m) matchers = [...parent, m];
        break;
      }
    }
  }
  if (options.sort ?? true) {
    // The default sort of the names (UTF-16 code unit order, as `<`) and a lookup, cheaper
    // than sorting the entries with a comparator.
    const byName = new Map<string, Deno.DirEntry>();
    for (const e of entries) byName.set(e.name, e);
    entries = [...byName.keys()].sort().map((name) => byName.get(name)!);
  }
  return { dir, entries, next: 0, matchers };
}

/**
 * A depth-first walk in name order (unless `sort` is false) that can hand over what it has not
 * visited yet (`rest`), so a search can split the remainder of a large tree between threads.
 */
export class Walker {
  #stack: Frame[];
  #options: WalkOptions;

  private constructor(stack: Frame[], options: WalkOptions) {
    this.#stack = stack;
    this.#options = options;
  }

  /** A walk of `start` (a canonical directory); nothing to visit if it cannot be read. */
  static of(start: string, options: WalkOptions): Walker {
    const root = openDir(
      start,
      options.gitignore ? ancestorMatchers(start, options.top) : [],
      options,
    );
    return new Walker(root ? [root] : [], options);
  }

  /**
   * The walk of a directory another walk handed over; `cache` keeps the .gitignore matchers
   * rebuilt from text, keyed by directory, across the units of one search.
   */
  static fromDir(unit: DirUnit, options: WalkOptions, cache: Map<string, Matcher>): Walker {
    const matchers = unit.ignores.map((s) => {
      let m = cache.get(s.dir);
      if (!m || m.text !== s.text) {
        m = makeMatcher(s.dir, s.text);
        cache.set(s.dir, m);
      }
      return m;
    });
    const frame = openDir(unit.dir, matchers, options);
    return new Walker(frame ? [frame] : [], options);
  }

  /** The next file or symlink (or directory, if asked), or null at the end or when aborted. */
  next(): WalkEntry | null {
    const stack = this.#stack;
    const options = this.#options;
    while (stack.length) {
      if (options.signal?.aborted) return null;
      const frame = stack[stack.length - 1];
      if (frame.next >= frame.entries.length) {
        stack.pop();
        continue;
      }
      const entry = frame.entries[frame.next++];
      if (entry.isDirectory && entry.name === ".git") continue;
      const full = frame.dir === "/" ? `/${entry.name}` : `${frame.dir}/${entry.name}`;
      if (frame.matchers.length && isIgnored(frame.matchers, full, entry.name, entry.isDirectory)) {
        continue;
      }
      if (entry.isDirectory) {
        const child = openDir(full, frame.matchers, options);
        if (child) stack.push(child);
        if (options.directories) {
          return { path: full, name: entry.name, isSymlink: false, isDirectory: true };
        }
      } else if (entry.isFile || entry.isSymlink) {
        return { path: full, name: entry.name, isSymlink: entry.isSymlink, isDirectory: false };
      }
    }
    return null;
  }

  /**
   * Everything not visited yet, in walk order: files and symlinks as entries, directories as
   * units not yet opened (ignored ones and .git already left out). The walker is empty after.
   * Only for walks without `directories`.
   */
  rest(): (WalkEntry | DirUnit)[] {
    const out: (WalkEntry | DirUnit)[] = [];
    for (let s = this.#stack.length - 1; s >= 0; s--) {
      const frame = this.#stack[s];
      let ignores: IgnoreSource[] | undefined;
      for (let i = frame.next; i < frame.entries.length; i++) {
        const entry = frame.entries[i];
        if (entry.isDirectory && entry.name === ".git") continue;
        const full = frame.dir === "/" ? `/${entry.name}` : `${frame.dir}/${entry.name}`;
        if (
          frame.matchers.length && isIgnored(frame.matchers, full, entry.name, entry.isDirectory)
        ) {
          continue;
        }
        if (entry.isDirectory) {
          ignores ??= frame.matchers.map((m) => ({ dir: m.dir, text: m.text }));
          out.push({ dir: full, ignores });
        } else if (entry.isFile || entry.isSymlink) {
          out.push({
            path: full,
            name: entry.name,
            isSymlink: entry.isSymlink,
            isDirectory: false,
          });
        }
      }
    }
    this.#stack = [];
    return out;
  }
}

/**
 * Every file and symlink (and directory, if asked) below `start` (a canonical directory), depth
 * first, in name order unless `sort` is false. A generator, so a caller can stop at any entry.
 * Unreadable directories are skipped.
 */
export function* walk(start: string, options: WalkOptions): Generator<WalkEntry> {
  const walker = Walker.of(start, options);
  for (let entry = walker.next(); entry; entry = walker.next()) yield entry;
}

/** Calls `visit` for each entry of `walk`; `visit` returns false to stop. */
export function walkFiles(
  start: string,
  options: WalkOptions,
  visit: (entry: WalkEntry) => boolean,
): void {
  for (const entry of walk(start, options)) if (!visit(entry)) return;
}

/** The highest directory whose .gitignore applies to `dir`: the workspace, else its root. */
export function gitignoreTop(dir: string, workspace: string, roots: readonly string[]): string {
  const inside = (root: string) => dir === root || dir.startsWith(root + path.sep);
  if (inside(workspace)) return workspace;
  return roots.find(inside) ?? dir;
}
