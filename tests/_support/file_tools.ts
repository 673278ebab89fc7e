// Harness for the file tool tests: real temp dirs, the real registry and policy, and one shared
// suite run against both executors (LocalExecutor and the permission-fenced WorkerFileExecutor).
import * as path from "node:path";
import { defaultConfig, type FileConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { WorkerFileExecutor } from "../../src/tools/executors/mod.ts";
import { LocalExecutor, type ToolExecutor } from "../../src/tools/executors/mod.ts";
import { FILE_TOOLS } from "../../src/tools/file_tools.ts";
import { ToolRegistry, type ToolResult } from "../../src/tools/registry.ts";

export interface Harness {
  /** Canonical workspace (the sandbox root unless allowedPaths says otherwise). */
  ws: string;
  /** A directory next to the workspace that no call may touch. */
  outside: string;
  /** The temp dir holding both. */
  base: string;
  executorName: string;
  /** The executor the calls run on (shared by the module's tests of that kind). */
  executor: ToolExecutor;
  sandbox: Sandbox;
  dispatch(tool: string, input: unknown, options?: { signal?: AbortSignal }): Promise<ToolResult>;
  /** Writes files relative to the workspace (parents created). */
  put(files: Record<string, string | Uint8Array>): Promise<void>;
  readWs(rel: string): Promise<string>;
}

export interface HarnessOptions {
  denyRead?: string[];
  allowRead?: string[];
  /** Relative to the temp base dir. */
  allowedPaths?: string[];
  file?: Partial<FileConfig>;
}

export const EXECUTORS: { name: string; make(): ToolExecutor }[] = [
  { name: "local", make: () => new LocalExecutor() },
  { name: "worker", make: () => new WorkerFileExecutor() },
];

/** A policy that allows every file tool call, so the tools' own checks are what is tested. */
export function allowAllPolicy(): PermissionPolicy {
  return new PermissionPolicy(
    Object.fromEntries(FILE_TOOLS.map((t) => [t.name, [{ pattern: "*", action: "allow" }]])),
  );
}

interface Fixture {
  base: string;
  ws: string;
  outside: string;
  executor: ToolExecutor;
}

// One workspace and one executor per executor kind and test module: a worker's permissions are
// fixed to its roots, and starting one under `deno test` type-checks its module (~1-3 s), so the
// worker is reused and the directories are emptied between tests instead.
const fixtures = new Map<string, Fixture>();

async function emptyDir(dir: string): Promise<void> {
  for await (const e of Deno.readDir(dir)) {
    await Deno.remove(path.join(dir, e.name), { recursive: true });
  }
}

async function fixtureFor(ex: { name: string; make(): ToolExecutor }): Promise<Fixture> {
  let f = fixtures.get(ex.name);
  if (!f) {
    const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_ft_" }));
    f = {
      base,
      ws: path.join(base, "ws"),
      outside: path.join(base, "outside"),
      executor: ex.make(),
    };
    fixtures.set(ex.name, f);
    globalThis.addEventListener("unload", () => {
      try {
        Deno.removeSync(base, { recursive: true });
      } catch {
        // already gone
      }
    });
  }
  // The workspace is emptied, not made again: the worker's Landlock rules hold its directory
  // (a new one would start a new worker).
  for (const dir of [f.ws, f.outside]) await Deno.mkdir(dir, { recursive: true });
  for await (const e of Deno.readDir(f.base)) {
    if (e.name !== "ws" && e.name !== "outside") {
      await Deno.remove(path.join(f.base, e.name), { recursive: true });
    }
  }
  await emptyDir(f.ws);
  await emptyDir(f.outside);
  return f;
}

export async function makeHarness(
  ex: { name: string; make(): ToolExecutor },
  options: HarnessOptions = {},
): Promise<Harness> {
  const { base, ws, outside, executor } = await fixtureFor(ex);
  for (const p of options.allowedPaths ?? []) {
    await Deno.mkdir(path.join(base, p), { recursive: true });
  }
  const sandbox = await Sandbox.create(ws, {
    allowedPaths: options.allowedPaths?.map((p) => path.join(base, p)),
    denyRead: options.denyRead,
    allowRead: options.allowRead,
  });
  const config = defaultConfig();
  config.tools.file = { ...config.tools.file, ...options.file };
  const registry = new ToolRegistry({
    tools: FILE_TOOLS,
    executor,
    policy: allowAllPolicy(),
    config,
  });
  let n = 0;
  return {
    base,
    ws,
    outside,
    executorName: ex.name,
    executor,
    sandbox,
    dispatch: (tool, input, opts = {}) =>
      registry.dispatch({ id: `call_${++n}`, name: tool, input }, {
        cwd: ws,
        sandbox,
        signal: opts.signal,
      }),
    async put(files) {
      for (const [rel, content] of Object.entries(files)) {
        const p = path.join(ws, rel);
        await Deno.mkdir(path.dirname(p), { recursive: true });
        if (typeof content === "string") await Deno.writeTextFile(p, content);
        else await Deno.writeFile(p, content);
      }
    },
    readWs: (rel) => Deno.readTextFile(path.join(ws, rel)),
  };
}

/** Registers `name [local]` and `name [worker]`: one suite, both executors. */
export function fileTest(
  name: string,
  fn: (h: Harness) => Promise<void>,
  options: HarnessOptions = {},
): void {
  for (const ex of EXECUTORS) {
    Deno.test(`${name} [${ex.name}]`, async () => {
      await fn(await makeHarness(ex, options));
    });
  }
}

/** Every file and directory below `root` with its kind and content (or link target). */
export async function snapshotTree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const p = path.join(dir, e.name);
      const rel = path.relative(root, p);
      if (e.isSymlink) out[rel] = `link:${await Deno.readLink(p)}`;
      else if (e.isDirectory) {
        out[rel] = "dir";
        await walk(p);
      } else out[rel] = `file:${await Deno.readTextFile(p)}`;
    }
  };
  await walk(root);
  return out;
}

/** The text of a successful result, failing loudly with the error text otherwise. */
export function okText(result: ToolResult): string {
  if (!result.ok) throw new Error(`expected success, got:\n${result.text}`);
  return result.text;
}
