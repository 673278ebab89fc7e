// What the fenced file worker and the code that starts it load: a one-shot `zeph tool` pays for
// both isolates' module graphs, so they stay free of what they do not use.
import { expect } from "expect";
import { join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";

const ROOT = fromFileUrl(new URL("../../../", import.meta.url));
const DENO = join(ROOT, "node_modules", "deno", "deno");

/** The modules `entry` loads when it runs (type-only and dynamic imports left out). */
async function runtimeGraph(entry: string): Promise<string[]> {
  const out = await new Deno.Command(DENO, {
    args: ["info", "--json", join(ROOT, entry)],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: { specifier: string; dependencies?: { code?: { specifier: string } }[] }[];
  };
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const visit = (specifier: string) => {
    if (seen.has(specifier)) return;
    seen.add(specifier);
    for (const d of modules.get(specifier)?.dependencies ?? []) {
      const code = d.code as { specifier: string; isDynamic?: boolean } | undefined;
      if (code && !("isDynamic" in d && d.isDynamic)) visit(code.specifier);
    }
  };
  visit(info.roots[0]);
  return [...seen].map((s) => s.startsWith("file://") ? fromFileUrl(s).slice(ROOT.length) : s);
}

Deno.test("file worker: no config schema, process runner, web client or zod in its graph", async () => {
  const graph = await runtimeGraph("src/tools/executors/file_worker.ts");
  expect(graph).toContain("src/tools/read_exec.ts");
  expect(graph).toContain("src/tools/grep_exec.ts");
  expect(graph).toContain("src/search/_fence.ts");
  expect(graph.filter((m) => /^src\/(config|exec|web|store|permission)\//.test(m))).toEqual([]);
  expect(graph.filter((m) => m.includes("/zod/"))).toEqual([]);
});

Deno.test("lite file worker: no zod, npm package, node: module, search engine or tool schema", async () => {
  const graph = await runtimeGraph("src/tools/executors/file_worker_lite.ts");
  expect(graph).toContain("src/tools/read_exec.ts");
  expect(graph.filter((m) => !m.startsWith("src/"))).toEqual([]);
  expect(graph.filter((m) => m.startsWith("src/search/"))).toEqual([]);
  // The tool modules hold the zod schemas; the worker loads only their executors.
  const toolLevel = graph.filter((m) => /^src\/tools\/[a-z][a-z_]*\.ts$/.test(m));
  expect(toolLevel.filter((m) => !m.endsWith("_exec.ts")).sort()).toEqual([
    "src/tools/disk_files.ts",
    "src/tools/fs_ops.ts",
  ]);
});

Deno.test("the lite worker runs every file tool but the search tools", async () => {
  const { PATH_EXECUTORS } = await import("../../../src/tools/executors/_file_executors.ts");
  const { FILE_TOOL_NAMES, SEARCH_TOOL_NAMES } = await import(
    "../../../src/tools/file_tool_names.ts"
  );
  const lite = Object.keys(PATH_EXECUTORS);
  expect(lite.filter((name) => SEARCH_TOOL_NAMES.has(name))).toEqual([]);
  expect([...lite, ...SEARCH_TOOL_NAMES].sort()).toEqual([...FILE_TOOL_NAMES].sort());
});

Deno.test("the file tools' binary sniff equals search's", async () => {
  const file = await import("../../../src/tools/_file.ts");
  const search = await import("../../../src/search/mod.ts");
  expect(file.BINARY_SNIFF_BYTES).toBe(search.BINARY_SNIFF_BYTES);
});

Deno.test("executors/mod.ts: starting the file worker loads no tool, no zod, no search engine", async () => {
  const graph = await runtimeGraph("src/tools/executors/mod.ts");
  expect(graph.filter((m) => /^src\/tools\/[a-z_]+\.ts$/.test(m))).toEqual([
    "src/tools/file_tool_names.ts",
  ]);
  expect(graph.filter((m) => m.includes("zod") || m.startsWith("src/search/_"))).toEqual([
    "src/search/_threads.ts",
  ]);
});
