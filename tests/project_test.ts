// The skeleton is part of the product: the tasks, the release workflow and the README's tables
// must stay true as the code changes.
import { expect } from "expect";
import * as path from "node:path";
import { ENV_OVERRIDES } from "../src/config/load.ts";

const ROOT = path.resolve(import.meta.dirname!, "..");
const read = (rel: string) => Deno.readTextFileSync(path.join(ROOT, rel));
const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
];

Deno.test("deno is pinned to an exact version published for every platform", () => {
  const pkg = JSON.parse(read("package.json"));
  expect(pkg.devDependencies.deno).toMatch(/^\d+\.\d+\.\d+$/);
  expect(pkg.scripts.start).toBe("deno task zeph");
  expect(pkg.scripts.test).toBe("deno task test");
});

Deno.test("the compile task embeds the worker and the filters and takes the target flags", () => {
  const task: string = JSON.parse(read("deno.json")).tasks.compile;
  const words = task.split(/\s+/);
  for (
    const flag of [
      "--unstable-worker-options",
      "--include src/tools/executors/file_worker.ts",
      "--include src/tools/executors/file_worker_lite.ts",
      "--include src/search/_pool_thread.ts",
      "--include filters/",
    ]
  ) expect(task).toContain(flag);
  // Flags after the entry point would become script arguments baked into the binary.
  expect(words.indexOf("$ZEPH_COMPILE_FLAGS")).toBeLessThan(words.indexOf("main.ts"));
  expect(words.at(-1)).toBe("main.ts");
  const exists = (rel: string) => {
    try {
      Deno.statSync(path.join(ROOT, rel));
      return true;
    } catch {
      return false;
    }
  };
  expect(
    ["src/tools/executors/file_worker.ts", "src/search/_pool_thread.ts", "filters"].filter((p) =>
      !exists(p)
    ),
  ).toEqual([]);
});

Deno.test("the release workflow builds and smoke-tests all five targets", () => {
  const workflow = read(".github/workflows/release.yml");
  for (const target of TARGETS) expect(workflow).toContain(`target: ${target}`);
  expect(workflow).toContain("ZEPH_COMPILE_FLAGS: --target ${{ matrix.target }}");
  expect(workflow).toContain("run: ./node_modules/deno/deno task compile");
  expect(workflow).toContain("npm ci");
});

Deno.test("the README's environment table lists exactly the documented overrides", () => {
  const readme = read("README.md");
  const section = readme.split(/^## /m).find((s) => s.startsWith("Configuration"))!;
  const listed = [...section.matchAll(/^\| `(ZEPH_[A-Z_]+)` +\|/gm)].map((m) => m[1]);
  expect(listed).toEqual(ENV_OVERRIDES.map((o) => o.name));
});
