/**
 * Path validation of the spec: relative paths resolve against the workspace, `..` is resolved
 * lexically, the deepest existing ancestor is canonicalised (symlinks followed) and the rest is
 * re-appended, and the result must sit component-wise inside an allowed root.
 */
import * as path from "./os_path.ts";
import { SandboxViolation } from "../errors/mod.ts";

export interface SandboxOptions {
  /** Allowed roots; empty means the workspace itself. `~` and `~/x` are expanded. */
  allowedPaths?: string[];
  /** Globs on canonical absolute paths that may not be read… */
  denyRead?: string[];
  /** …unless they also match one of these (allow is the exception to deny). */
  allowRead?: string[];
}

const MAX_PATH_LENGTH = 4096;

/** Plain data that rebuilds a Sandbox in another thread (the file worker) without I/O. */
export interface SandboxSnapshot {
  workspace: string;
  /** `~` in model-supplied paths expands to this (captured once: the file worker has no env). */
  home: string;
  roots: string[];
  allowedPaths: string[];
  denyRead: string[];
  allowRead: string[];
  /** denyRead and allowRead compiled (anchored, `~` expanded): restoring loads no glob engine. */
  globs: { deny: CompiledGlob[]; allow: CompiledGlob[] };
}

/**
 * A read glob as picomatch compiles it: the anchored pattern and its regular expression. It
 * travels in snapshots, so the file worker and the grep pool match exactly as the main thread
 * does without loading picomatch (and the Node compatibility layer it needs).
 */
export interface CompiledGlob {
  glob: string;
  source: string;
  flags: string;
}

/** Anchors relative globs at the workspace and compiles them; loads picomatch only for some. */
async function compileGlobs(patterns: string[], workspace: string, home: string) {
  if (!patterns.length) return [];
  const { default: picomatch } = await import("picomatch");
  // Globs are matched on canonical absolute paths: a relative one (".env", "secrets/*") is
  // anchored at the workspace, as relative paths are everywhere else, instead of silently
  // never matching. `**/…` patterns match at any depth and are kept as written.
  return patterns.map((p): CompiledGlob => {
    const expanded = expandHome(p, home);
    const glob = path.isAbsolute(expanded) || expanded.startsWith("**")
      ? expanded
      : `${workspace.replace(/[*?[\]{}()!+@\\]/g, "\\$&")}/${path.normalize(expanded)}`;
    const re = picomatch.makeRe(glob, { dot: true });
    return { glob, source: re.source, flags: re.flags };
  });
}

/** picomatch's own test: an empty path never matches, the pattern itself always does. */
function globMatcher(globs: CompiledGlob[]): ((p: string) => boolean) | null {
  if (!globs.length) return null;
  const compiled = globs.map((g) => ({ glob: g.glob, re: new RegExp(g.source, g.flags) }));
  return (p) => p !== "" && compiled.some((g) => p === g.glob || g.re.test(p));
}

/**
 * Characters that render like `/`, `\` or `.` but are not: a path holding one is refused so that
 * what the user approves in a prompt is what the file system sees.
 */
const LOOK_ALIKES =
  /[\u2024\u2025\u2026\u2044\u2215\u2216\u29F8\u29F9\uFE52\uFE68\uFF0E\uFF0F\uFF3C]/;

/** `~` and `~/x` → the home directory (`$HOME` unless given); `~user` is left as is. */
export function expandHome(p: string, home?: string): string {
  if (p !== "~" && !p.startsWith("~/")) return p;
  const dir = home ?? Deno.env.get("HOME") ?? "/";
  return p === "~" ? dir : path.join(dir, p.slice(2));
}

/** Symlink hops followed before giving up, as the kernel does (Linux MAXSYMLINKS). */
const MAX_LINK_HOPS = 40;

/**
 * Canonicalises the deepest existing ancestor and re-appends the part that does not exist.
 * A dangling symlink on the way is followed to its target: a write through it lands there, so
 * that (not the link's own location) is what must be inside the sandbox.
 */
export async function canonicalize(absolute: string, hops = 0): Promise<string> {
  let current = path.resolve(absolute);
  const suffix: string[] = [];
  while (true) {
    try {
      const real = await Deno.realPath(current);
      return suffix.length ? path.join(real, ...suffix.reverse()) : real;
    } catch {
      const target = await Deno.readLink(current).catch(() => null);
      if (target !== null) {
        if (hops >= MAX_LINK_HOPS) {
          throw new Deno.errors.FilesystemLoop(`too many levels of symbolic links: ${current}`);
        }
        const followed = path.resolve(path.dirname(current), target);
        return await canonicalize(path.join(followed, ...suffix.reverse()), hops + 1);
      }
      const parent = path.dirname(current);
      if (parent === current) return path.join(current, ...suffix.reverse());
      suffix.push(path.basename(current));
      current = parent;
    }
  }
}

/** Component-wise containment: `/ws_evil` is not inside `/ws`. */
export function isInside(child: string, root: string): boolean {
  if (child === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return child.startsWith(prefix);
}

/** Checks the raw input, expands `~` and resolves it lexically against `cwd`. */
function absoluteInput(input: string, cwd: string, home: string): string {
  if (input.includes("\0")) throw new SandboxViolation(input, "contains a NUL byte");
  if (input.length > MAX_PATH_LENGTH) {
    throw new SandboxViolation(input.slice(0, 80) + "…", "is longer than 4096 characters");
  }
  if (input.trim() === "") throw new SandboxViolation(input, "is empty");
  if (LOOK_ALIKES.test(input)) {
    throw new SandboxViolation(
      input,
      "contains a character that looks like a path separator or dot but is not one",
    );
  }
  return path.resolve(cwd, expandHome(input, home));
}

export class Sandbox {
  readonly roots: readonly string[];
  readonly workspace: string;
  readonly home: string;
  #deny: ((p: string) => boolean) | null;
  #allow: ((p: string) => boolean) | null;
  readonly options: Required<SandboxOptions>;

  readonly #globs: SandboxSnapshot["globs"];

  private constructor(
    workspace: string,
    roots: string[],
    options: Required<SandboxOptions>,
    home: string,
    globs: SandboxSnapshot["globs"],
  ) {
    this.workspace = workspace;
    this.home = home;
    this.roots = roots;
    this.options = options;
    this.#globs = globs;
    this.#deny = globMatcher(globs.deny);
    this.#allow = globMatcher(globs.allow);
  }

  /** Builds a sandbox for a workspace; roots are canonicalised once, here. */
  static async create(workspace: string, options: SandboxOptions = {}): Promise<Sandbox> {
    const ws = await canonicalize(path.resolve(workspace));
    const configured = options.allowedPaths ?? [];
    const roots = configured.length
      ? await Promise.all(configured.map((p) => canonicalize(path.resolve(ws, expandHome(p)))))
      : [ws];
    const home = Deno.env.get("HOME") ?? "/";
    const denyRead = options.denyRead ?? [];
    const allowRead = options.allowRead ?? [];
    return new Sandbox(ws, roots, { allowedPaths: configured, denyRead, allowRead }, home, {
      deny: await compileGlobs(denyRead, ws, home),
      allow: await compileGlobs(allowRead, ws, home),
    });
  }

  /** Rebuilds a sandbox from `snapshot()` output; the roots are trusted as already canonical. */
  static restore(snapshot: SandboxSnapshot): Sandbox {
    return new Sandbox(
      snapshot.workspace,
      [...snapshot.roots],
      {
        allowedPaths: [...snapshot.allowedPaths],
        denyRead: [...snapshot.denyRead],
        allowRead: [...snapshot.allowRead],
      },
      snapshot.home,
      structuredClone(snapshot.globs),
    );
  }

  snapshot(): SandboxSnapshot {
    return {
      workspace: this.workspace,
      home: this.home,
      roots: [...this.roots],
      allowedPaths: [...this.options.allowedPaths],
      denyRead: [...this.options.denyRead],
      allowRead: [...this.options.allowRead],
      globs: structuredClone(this.#globs),
    };
  }

  /** Resolves a user- or model-supplied path to its canonical form, or throws SandboxViolation. */
  async resolve(input: string, cwd: string = this.workspace): Promise<string> {
    const canonical = await canonicalize(absoluteInput(input, cwd, this.home));
    if (!this.contains(canonical)) throw new SandboxViolation(input);
    return canonical;
  }

  /**
   * Like `resolve`, but the last component is not followed: the parent is canonicalised and the
   * name re-appended. Tools that act on an entry itself (delete_path, move_path) use this so
   * that deleting a symlink removes the link, never its target.
   */
  async resolveEntry(input: string, cwd: string = this.workspace): Promise<string> {
    const absolute = absoluteInput(input, cwd, this.home);
    const parent = path.dirname(absolute);
    const canonical = parent === absolute
      ? absolute
      : path.join(await canonicalize(parent), path.basename(absolute));
    if (!this.contains(canonical)) throw new SandboxViolation(input);
    return canonical;
  }

  /**
   * Every spelling of a path the permission rules should see: workspace-relative and absolute,
   * as written (`..` resolved) and canonical (symlinks followed). The first is the one shown in
   * prompts. Input the sandbox would refuse anyway comes back as written.
   */
  async pathForms(input: string, cwd: string = this.workspace): Promise<string[]> {
    let lexical: string;
    try {
      lexical = absoluteInput(input, cwd, this.home);
    } catch {
      return [input];
    }
    const canonical = await canonicalize(lexical).catch(() => lexical);
    return [...new Set([this.display(lexical), lexical, this.display(canonical), canonical])];
  }

  contains(canonical: string): boolean {
    return this.roots.some((root) => isInside(canonical, root));
  }

  /** True for an allowed root itself or anything above one (delete_path refuses these). */
  isRootOrAbove(canonical: string): boolean {
    return this.roots.some((root) => isInside(root, canonical));
  }

  /** deny_read, with allow_read as the exception; matched on canonical absolute paths. */
  canRead(canonical: string): boolean {
    if (!this.#deny || !this.#deny(canonical)) return true;
    return this.#allow ? this.#allow(canonical) : false;
  }

  assertReadable(canonical: string, shown: string = canonical): void {
    if (!this.canRead(canonical)) {
      throw new SandboxViolation(shown, "is denied by [tools.file] deny_read");
    }
  }

  /** Path as shown to the model: relative to the workspace when inside it. */
  display(canonical: string): string {
    if (isInside(canonical, this.workspace)) {
      return path.relative(this.workspace, canonical) || ".";
    }
    return canonical;
  }
}
