/**
 * The OS sandbox of shell commands (Linux, bubblewrap): a plan of what a command may see and
 * write, turned into a `bwrap` command line. The plan is data (paths in, argv out); the probe (is
 * `bwrap` usable here?) runs once per `bwrap` path and is cached. Tools never see any of this:
 * the composition root hands the bash tool a runner that wraps (SandboxedRunner, in mod.ts).
 */
import * as path from "node:path";
import type { Config } from "../config/mod.ts";
import { ToolError } from "../errors/mod.ts";
import { BRIDGE_PORT, bridgeCommand, findSocat, launcherArgs, proxyEnv } from "./_network.ts";
import type { NetworkProxy, ProxySession } from "./_proxy.ts";

export type SandboxMode = "auto" | "bwrap" | "off";

/**
 * Paths inside every writable root that stay read-only in the sandbox: files that run code or
 * configure tools on the user's behalf (git hooks and config, zeph's and editors' settings,
 * direnv). Bound read-only where they exist; one that is absent can be created by a command
 * (a mount point would have to be created in the workspace first).
 */
export const PROTECTED_NAMES: readonly string[] = [
  ".git/hooks",
  ".git/config",
  ".zeph",
  ".mcp.json",
  ".vscode/settings.json",
  ".envrc",
];

/** The protected names of a git directory itself (`.git/hooks` is `hooks` there). */
const GIT_DIR_PROTECTED_NAMES: readonly string[] = ["hooks", "config", "config.worktree"];

/** Secrets under `$HOME` that a sandboxed command does not see. */
export const HIDDEN_HOME_PATHS: readonly string[] = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".config/gcloud",
  ".netrc",
  ".docker/config.json",
  ".kube",
  ".azure",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
];

/**
 * Sockets of daemons that act on a command's behalf outside the sandbox (Docker's is root on the
 * host; the session bus starts programs through systemd) and the per-user runtime directory that
 * holds the session's sockets. A read-only mount does not stop `connect()`, so they are hidden.
 */
export const HIDDEN_SYSTEM_PATHS: readonly string[] = [
  "/run/user",
  "/run/docker.sock",
  "/var/run/docker.sock",
  "/run/containerd/containerd.sock",
  "/run/podman/podman.sock",
  "/run/dbus/system_bus_socket",
];

/** What a sandboxed command may do, as absolute paths. */
export interface SandboxPlan {
  /** Bound writable (the workspace, `[tools.shell] allowed_paths`). */
  writable: string[];
  /** Bound read-only on top of the writable roots (protected paths, extra read-only paths). */
  readOnly: string[];
  /** Made invisible: an empty directory over a directory, /dev/null over a file. */
  hidden: string[];
  allowNetwork: boolean;
}

/** The kind of what a path names, after symlinks; null when nothing is there. */
export type PathKind = "file" | "directory" | null;

/** The settings a plan is made from: `[tools.shell.sandbox]` and the keys it reads besides. */
export interface SandboxSettings {
  /** `[tools.shell] allowed_paths` (absolute, `~/…`, or relative to the workspace). */
  allowedPaths: readonly string[];
  /** `[tools.shell.sandbox] read_only_paths`. */
  readOnlyPaths: readonly string[];
  /** `[tools.shell.sandbox] hidden_paths` plus the literal `[tools.file] deny_read` entries. */
  hiddenPaths: readonly string[];
  /** Paths zeph itself keeps (the config file, the store, the audit log). */
  zephPaths: readonly string[];
  allowNetwork: boolean;
  /**
   * `[tools.permissions] protected_paths` as the permission layer matches them: whether a path
   * relative to a writable root is protected. Those found in the roots are bound read-only
   * (bounded search, see `protectedBelow`). Absent: only the built-in names are.
   */
  isProtected?: (relative: string) => boolean;
}

/**
 * The settings of `config`: `[tools.shell.sandbox]`, `[tools.shell] allowed_paths`, and the
 * `[tools.file] deny_read` entries that name one path. Globs such as `secrets/*` name no single
 * path a mount can cover: the file tools enforce them, a shell command is not kept from them.
 */
export function sandboxSettingsOf(
  config: Pick<Config, "tools">,
  options: { zephPaths?: readonly string[]; isProtected?: (relative: string) => boolean } = {},
): SandboxSettings {
  const shell = config.tools.shell;
  return {
    allowedPaths: shell.allowed_paths,
    readOnlyPaths: shell.sandbox.read_only_paths,
    hiddenPaths: [
      ...shell.sandbox.hidden_paths,
      ...config.tools.file.deny_read.filter((p) => !/[*?[\]{}]/.test(p)),
    ],
    zephPaths: options.zephPaths ?? [],
    allowNetwork: shell.sandbox.allow_network,
    ...(options.isProtected ? { isProtected: options.isProtected } : {}),
  };
}

/**
 * The plan for a workspace: the workspace and allowed paths writable, the protected names under
 * each read-only, `$HOME` secrets, daemon sockets (`$XDG_RUNTIME_DIR` too) and zeph's own config
 * and data directories hidden. Paths are resolved (`~`, relative to the workspace, symlinks
 * followed by `realPath`) and those that do not exist are left out: bubblewrap can only mount
 * over something.
 */
export function planSandbox(
  workspace: string,
  settings: SandboxSettings,
  options: { env?: Record<string, string>; realPath?: (p: string) => string | null } = {},
): SandboxPlan {
  const env = options.env ?? {};
  const real = options.realPath ?? realPathOrNull;
  const home = env.HOME && path.isAbsolute(env.HOME) ? env.HOME : "";
  const resolve = (p: string) => {
    const expanded = p === "~"
      ? home
      : p.startsWith("~/") && home
      ? path.join(home, p.slice(2))
      : p;
    if (expanded === "" || expanded.startsWith("~")) return null;
    return real(path.resolve(workspace, expanded));
  };
  const present = (paths: readonly string[]) =>
    unique(paths.map(resolve).filter((p): p is string => p !== null));

  const ws = real(path.resolve(workspace)) ?? path.resolve(workspace);
  const writable = unique([ws, ...present(settings.allowedPaths)]);
  const readOnly = present([
    ...writable.flatMap((root) => PROTECTED_NAMES.map((name) => path.join(root, name))),
    // A git directory allowed on its own (the common directory of a worktree): its hooks and
    // config stay read-only as they do under `.git/`.
    ...writable.flatMap((root) =>
      real(path.join(root, "HEAD")) && real(path.join(root, "objects"))
        ? GIT_DIR_PROTECTED_NAMES.map((name) => path.join(root, name))
        : []
    ),
    // Submodules' repositories (`.git/modules/<name>`, nested ones under `modules/` again).
    ...writable.flatMap((root) =>
      submoduleGitDirs(path.join(root, ".git", "modules")).flatMap((dir) =>
        GIT_DIR_PROTECTED_NAMES.map((name) => path.join(dir, name))
      )
    ),
    ...settings.readOnlyPaths,
    // What the user's protected_paths name anywhere in the roots: a nested clone's git hooks
    // and config, a subdirectory's `.envrc`, `.gitattributes`, …
    ...(settings.isProtected
      ? writable.flatMap((root) => protectedBelow(root, settings.isProtected!))
      : []),
  ]);
  const xdgConfig = absoluteOr(env.XDG_CONFIG_HOME, home && path.join(home, ".config"));
  const xdgData = absoluteOr(env.XDG_DATA_HOME, home && path.join(home, ".local", "share"));
  const runtimeDir = absoluteOr(env.XDG_RUNTIME_DIR, "");
  const hidden = present([
    ...HIDDEN_SYSTEM_PATHS,
    ...(runtimeDir ? [runtimeDir] : []),
    ...(home ? HIDDEN_HOME_PATHS.map((p) => path.join(home, p)) : []),
    ...(xdgConfig ? [path.join(xdgConfig, "zeph")] : []),
    ...(xdgData ? [path.join(xdgData, "zeph")] : []),
    ...settings.zephPaths,
    ...settings.hiddenPaths,
  ]).filter((p) => p !== "/");
  return {
    writable,
    readOnly,
    // What lies inside a hidden directory is hidden with it.
    hidden: hidden.filter((p) => !hidden.some((h) => h !== p && isInsideOrSame(p, h))),
    allowNetwork: settings.allowNetwork,
  };
}

/**
 * The `bwrap` arguments of a plan, up to (not including) the program to run. Later mounts sit
 * on earlier ones: root read-only, fresh /dev, /proc and /tmp, writable roots, read-only
 * protected paths, hidden paths, and last the writable roots that lie inside a hidden directory
 * (a workspace under `~/.config/zeph` stays usable) with their protected paths again.
 */
export function bwrapArgs(
  plan: SandboxPlan,
  options: {
    cwd?: string;
    kindOf?: (p: string) => PathKind;
    /**
     * The command reaches the network only through zeph's proxy: no network namespace of the
     * host, the proxy socket's directory bound read-only, the proxy variables set.
     */
    proxy?: { dir: string; port?: number; files?: readonly string[] };
  } = {},
): string[] {
  const kindOf = options.kindOf ?? pathKind;
  const args = [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--die-with-parent",
    "--new-session",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
  ];
  if (!plan.allowNetwork || options.proxy) args.push("--unshare-net");
  const bindWritable = (roots: string[]) => {
    for (const root of roots) args.push("--bind", root, root);
    for (const p of plan.readOnly) {
      if (roots.some((root) => isInsideOrSame(p, root))) args.push("--ro-bind", p, p);
    }
  };
  bindWritable(plan.writable);
  for (const p of plan.readOnly) {
    if (!plan.writable.some((root) => isInsideOrSame(p, root))) args.push("--ro-bind", p, p);
  }
  for (const p of plan.hidden) {
    const kind = kindOf(p);
    if (kind === "directory") args.push("--tmpfs", p);
    else if (kind === "file") args.push("--ro-bind", "/dev/null", p);
  }
  bindWritable(
    plan.writable.filter((root) => plan.hidden.some((h) => root !== h && isInsideOrSame(root, h))),
  );
  if (options.proxy) {
    // After the private /tmp and the hidden paths, so the socket stays visible whatever covers
    // its parent on the host.
    args.push("--ro-bind", options.proxy.dir, options.proxy.dir);
    // The bridge's own program and script, read-only where they are: under /tmp (a checkout or
    // an unpacked binary there) the private /tmp would hide them and the bridge could not start.
    for (const file of options.proxy.files ?? []) args.push("--ro-bind", file, file);
    for (const [name, value] of proxyEnv(options.proxy.port)) args.push("--setenv", name, value);
  }
  if (options.cwd) args.push("--chdir", options.cwd);
  args.push("--");
  return args;
}

/** Whether `bwrap` can run a command here, and if not, why. */
export interface SandboxProbe {
  available: boolean;
  /** Why it is not available (what was tried, what failed). */
  reason?: string;
}

const probes = new Map<string, SandboxProbe>();

/**
 * Runs `bwrap` once with the namespaces the plan uses (`true` inside); the answer is cached per
 * `bwrap` path. Linux only: elsewhere the answer is "not available".
 */
export function probeBwrap(bwrapPath = "bwrap"): SandboxProbe {
  const cached = probes.get(bwrapPath);
  if (cached) return cached;
  let probe: SandboxProbe;
  if (Deno.build.os !== "linux") {
    probe = { available: false, reason: `the OS sandbox is Linux-only (this is ${Deno.build.os})` };
  } else {
    try {
      const out = new Deno.Command(bwrapPath, {
        args: [
          ...bwrapArgs({ writable: [], readOnly: [], hidden: [], allowNetwork: false }),
          "true",
        ],
        stdin: "null",
        stdout: "null",
        stderr: "piped",
      }).outputSync();
      probe = out.success ? { available: true } : {
        available: false,
        reason: `"${bwrapPath}" failed: ${
          new TextDecoder().decode(out.stderr).trim() || `exit code ${out.code}`
        }`,
      };
    } catch (error) {
      probe = {
        available: false,
        reason: error instanceof Deno.errors.NotFound
          ? `"${bwrapPath}" is not installed`
          : `"${bwrapPath}" cannot be started: ${(error as Error).message}`,
      };
    }
  }
  probes.set(bwrapPath, probe);
  return probe;
}

/** The shell sandbox of a runtime: its mode, its plan, and whether it is on. */
export class ShellSandbox {
  readonly mode: SandboxMode;
  readonly bwrapPath: string;
  /** The network proxy of sandboxed commands, when `allowed_domains` is set. */
  readonly network: NetworkProxy | null;
  #plan: () => SandboxPlan;

  /**
   * `plan` may be a function: it is then made again for every command, so a protected path
   * created during the session (`git init` makes `.git/config`) is protected from then on.
   */
  constructor(
    mode: SandboxMode,
    plan: SandboxPlan | (() => SandboxPlan),
    options: {
      bwrapPath?: string;
      /**
       * Called once when `auto` finds bubblewrap installed but failing (a container without
       * user namespaces): the fence the user expects is gone. Not installed at all is quiet on
       * Linux unless a network proxy is configured; on other systems it is one notice.
       */
      onBroken?: (reason: string) => void;
      /**
       * The proxy of `[tools.shell.sandbox] allowed_domains`: each sandboxed command then runs
       * without the host's network and reaches the listed hosts through it.
       */
      network?: NetworkProxy;
      /** The socat that bridges to the proxy; null: the Deno bridge. @default socat on PATH */
      socat?: string | null;
    } = {},
  ) {
    this.#socat = options.socat;
    this.mode = mode;
    this.network = options.network ?? null;
    this.#plan = typeof plan === "function" ? plan : () => plan;
    this.bwrapPath = options.bwrapPath ?? "bwrap";
    this.#onBroken = options.onBroken;
  }

  #onBroken?: (reason: string) => void;
  #socat?: string | null;

  /** The plan the next command runs under. */
  plan(): SandboxPlan {
    return this.#plan();
  }

  /**
   * Whether commands run inside bubblewrap: never with `off`, when the probe succeeds with
   * `auto`, always with `bwrap` (which then refuses to run anything when the probe fails).
   */
  active(): boolean {
    if (this.mode === "off") return false;
    if (this.mode === "bwrap") return true;
    const probe = probeBwrap(this.bwrapPath);
    // Elsewhere than Linux there is no OS sandbox to fall back from: one notice. With a
    // network proxy configured, bubblewrap missing is reported too: allowed_domains needs it.
    const broken = !probe.available &&
      (Deno.build.os !== "linux" || this.network !== null ||
        !probe.reason?.endsWith("is not installed"));
    if (broken && this.#onBroken) {
      this.#onBroken(probe.reason ?? "bubblewrap failed");
      this.#onBroken = undefined;
    }
    return probe.available;
  }

  /**
   * The program and arguments that run `program args` in the sandbox, or them unchanged when
   * the sandbox is off. Throws a ToolError (`permanent_failure`) when `mode = "bwrap"` and
   * bubblewrap does not work here.
   */
  wrap(
    program: string,
    args: string[],
    options: { cwd?: string; proxy?: ProxySession } = {},
  ): { program: string; args: string[]; sandboxed: boolean; proxied?: boolean } {
    if (!this.active()) return { program, args, sandboxed: false };
    const probe = probeBwrap(this.bwrapPath);
    if (!probe.available) {
      throw new ToolError(
        "permanent_failure",
        `Cannot run the command: [tools.shell.sandbox] mode = "bwrap" requires bubblewrap, ` +
          `and ${probe.reason}`,
        {
          hint: Deno.build.os === "linux"
            ? 'Install the "bubblewrap" package (apt-get install bubblewrap, dnf install ' +
              'bubblewrap), or set [tools.shell.sandbox] mode = "auto" or "off".'
            : 'Set [tools.shell.sandbox] mode = "auto" or "off": the OS sandbox is Linux-only.',
        },
      );
    }
    const cwd = options.cwd ? path.resolve(options.cwd) : undefined;
    const plan = this.#plan();
    if (options.proxy && !plan.allowNetwork) {
      const bridge = bridgeCommand(options.proxy.socketPath, {
        socat: this.#socat === undefined ? findSocat() : this.#socat,
      });
      return {
        program: this.bwrapPath,
        args: [
          ...bwrapArgs(plan, {
            cwd,
            proxy: { dir: options.proxy.dir, port: BRIDGE_PORT, files: bridge.files },
          }),
          ...launcherArgs(bridge, BRIDGE_PORT),
          program,
          ...args,
        ],
        sandboxed: true,
        proxied: true,
      };
    }
    return {
      program: this.bwrapPath,
      args: [...bwrapArgs(plan, { cwd }), program, ...args],
      sandboxed: true,
    };
  }
}

/** Directories read at most, and how deep, when looking for protected paths per command. */
const PROTECTED_SCAN_DIRS = 2000;
const PROTECTED_SCAN_DEPTH = 8;
/** Directories not searched for protected paths: installed packages and build output. */
const PROTECTED_SCAN_SKIP: ReadonlySet<string> = new Set(["node_modules", "target", "dist"]);

/**
 * The paths below `root` that `isProtected` names (relative to the root), breadth first,
 * bounded, symlinks not followed. A git directory (`.git`, at any depth: a clone inside the
 * workspace) is never bound whole, since commands must still commit: its hooks and config are,
 * when the rules protect them; a `.git` file (a worktree's or submodule's link) is bound itself.
 * A directory is bound whole when what is inside it is protected (`.zeph/**`).
 */
export function protectedBelow(root: string, isProtected: (relative: string) => boolean): string[] {
  const found: string[] = [];
  const queue: [string, string, number][] = [[root, "", 0]];
  let read = 0;
  while (queue.length > 0 && read < PROTECTED_SCAN_DIRS) {
    const [dir, rel, depth] = queue.shift()!;
    read++;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      continue;
    }
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      const child = path.join(dir, e.name);
      if (e.name === ".git" && e.isDirectory) {
        const names = GIT_DIR_PROTECTED_NAMES.filter((n) => isProtected(`${childRel}/${n}`));
        found.push(...names.map((n) => path.join(child, n)));
        continue;
      }
      if (e.isDirectory ? isProtected(`${childRel}/x`) : isProtected(childRel)) {
        found.push(child);
        continue;
      }
      if (e.isDirectory && depth + 1 < PROTECTED_SCAN_DEPTH && !PROTECTED_SCAN_SKIP.has(e.name)) {
        queue.push([child, childRel, depth + 1]);
      }
    }
  }
  return found;
}

/** At most this many directories are looked at under a `.git/modules` per command. */
const SUBMODULE_SCAN_LIMIT = 500;

/**
 * The git directories under a `.git/modules` directory: a directory holding `HEAD` and `objects`
 * is one (its own `modules/` is searched again); others are searched for nested names
 * (`modules/a/b` for a submodule named `a/b`). Bounded, symlinks not followed.
 */
function submoduleGitDirs(modules: string): string[] {
  const found: string[] = [];
  const queue = [modules];
  let seen = 0;
  while (queue.length > 0 && seen < SUBMODULE_SCAN_LIMIT) {
    const dir = queue.shift()!;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      continue;
    }
    for (const e of entries) {
      if (!e.isDirectory || ++seen > SUBMODULE_SCAN_LIMIT) continue;
      const child = path.join(dir, e.name);
      const names = new Set<string>();
      try {
        for (const c of Deno.readDirSync(child)) names.add(c.name);
      } catch {
        continue;
      }
      if (names.has("HEAD") && names.has("objects")) {
        found.push(child);
        if (names.has("modules")) queue.push(path.join(child, "modules"));
      } else queue.push(child);
    }
  }
  return found;
}

function realPathOrNull(p: string): string | null {
  try {
    return Deno.realPathSync(p);
  } catch {
    return null;
  }
}

function pathKind(p: string): PathKind {
  try {
    const info = Deno.statSync(p);
    return info.isDirectory ? "directory" : "file";
  } catch {
    return null;
  }
}

function absoluteOr(value: string | undefined, fallback: string): string {
  return value && path.isAbsolute(value) ? value : fallback;
}

function isInsideOrSame(child: string, root: string): boolean {
  const rel = path.relative(root, child);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !path.isAbsolute(rel));
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
