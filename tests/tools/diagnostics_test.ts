import { expect } from "expect";
import * as path from "node:path";
import { defaultConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import {
  type DiagnosticsReport,
  diagnosticsTool,
  parseCargoJson,
  parseDenoCheck,
  parseTsc,
} from "../../src/tools/diagnostics.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";

const FIXTURES = path.join(import.meta.dirname!, "..", "fixtures", "diagnostics");
const REPO = path.join(import.meta.dirname!, "..", "..");

/** Copies a fixture project into a temp dir, dropping the `.txt` suffix of every file. */
async function project(name: string): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: `zeph_diag_${name}_` }));
  const copy = async (from: string, to: string) => {
    for await (const entry of Deno.readDir(from)) {
      const src = path.join(from, entry.name);
      if (entry.isDirectory) {
        await Deno.mkdir(path.join(to, entry.name));
        await copy(src, path.join(to, entry.name));
      } else {
        await Deno.copyFile(src, path.join(to, entry.name.replace(/\.txt$/, "")));
      }
    }
  };
  await copy(path.join(FIXTURES, name), dir);
  return dir;
}

async function diagnose(cwd: string, input: Record<string, unknown>) {
  const config = defaultConfig();
  config.tools.shell.timeout = 300; // a cold cargo build on a slow CI machine
  const registry = new ToolRegistry({
    tools: [diagnosticsTool],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy({ diagnostics: [{ pattern: "*", action: "allow" }] }),
    config,
  });
  const result = await registry.dispatch(
    { id: "d1", name: "diagnostics", input },
    { cwd, sandbox: await Sandbox.create(cwd) },
  );
  expect(result.ok).toBe(true);
  return { text: result.text, report: result.output?.raw as DiagnosticsReport };
}

Deno.env.set("CARGO_NET_OFFLINE", "true");

Deno.test("diagnostics: cargo check reports a real type error", async () => {
  const dir = await project("rust_error");
  const { text, report } = await diagnose(dir, { kind: "check" });
  expect(report.project).toBe("rust");
  expect(report.command).toBe("cargo check --message-format=json --all-targets");
  expect(report.diagnostics).toEqual([
    {
      severity: "error",
      message: "mismatched types",
      file: "src/main.rs",
      line: 2,
      col: 22,
      code: "E0308",
    },
  ]);
  expect(report.warnings).toEqual([]);
  expect(text).toBe(
    "src/main.rs:2:22: error[E0308]: mismatched types\n" +
      "1 diagnostics (1 errors, 0 warnings shown) from cargo check --message-format=json --all-targets",
  );
  await Deno.remove(dir, { recursive: true });
});

Deno.test("diagnostics: cargo clippy reports a real lint warning", async () => {
  const dir = await project("rust_clippy");
  const { report } = await diagnose(dir, { kind: "clippy" });
  expect(report.diagnostics).toEqual([
    {
      severity: "warning",
      message: "unneeded `return` statement",
      file: "src/main.rs",
      line: 2,
      col: 5,
      code: "clippy::needless_return",
    },
  ]);
  // The same crate has no compile error.
  const check = await diagnose(dir, { kind: "check" });
  expect([check.report.diagnostics, check.text]).toEqual([
    [],
    "No diagnostics from cargo check --message-format=json --all-targets",
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("diagnostics: max_diagnostics caps the list, errors first", async () => {
  const dir = await project("rust_error");
  await Deno.writeTextFile(
    path.join(dir, "src", "main.rs"),
    'use std::fmt;\nfn main() {\n    let a: u32 = "x";\n    let b: u32 = "y";\n}\n',
  );
  const all = await diagnose(dir, { kind: "check" });
  // rustc reports the unused import (line 1) before the type errors; the list puts errors first.
  expect(all.report.diagnostics.map((d) => [d.severity, d.line])).toEqual([
    ["error", 3],
    ["error", 4],
    ["warning", 1],
  ]);
  const { report, text } = await diagnose(dir, { kind: "check", max_diagnostics: 1 });
  expect(report.total).toBe(3);
  expect(report.diagnostics.map((d) => [d.severity, d.line])).toEqual([["error", 3]]);
  expect(text).toContain("(showing 1 of 3; raise max_diagnostics for more)");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("diagnostics: deno check and deno lint --json on a deno project", async () => {
  const dir = await project("deno");
  const check = await diagnose(dir, { kind: "check" });
  expect(check.report.project).toBe("deno");
  expect(check.report.diagnostics).toEqual([
    {
      severity: "error",
      message: "Type 'string' is not assignable to type 'number'.",
      file: "main.ts",
      line: 1,
      col: 7,
      code: "TS2322",
    },
  ]);
  const lint = await diagnose(dir, { kind: "lint" });
  expect(lint.report.diagnostics).toEqual([
    {
      severity: "warning",
      message: "`unused` is never used (If this is intentional, prefix it with an underscore " +
        "like `_unused`)",
      file: "main.ts",
      line: 3,
      col: 7,
      code: "no-unused-vars",
    },
    {
      severity: "warning",
      message: "`unused` is never reassigned (Use `const` instead)",
      file: "main.ts",
      line: 3,
      col: 7,
      code: "prefer-const",
    },
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("diagnostics: tsc --noEmit from the workspace's node_modules", async () => {
  const dir = await project("tsc");
  await Deno.symlink(path.join(REPO, "node_modules"), path.join(dir, "node_modules"));
  const { report } = await diagnose(dir, { kind: "check" });
  expect(report.project).toBe("typescript");
  expect(report.command).toBe("tsc --noEmit --pretty false");
  expect(report.diagnostics).toEqual([
    {
      severity: "error",
      message: "Type 'string' is not assignable to type 'number'.",
      file: "src/a.ts",
      line: 1,
      col: 7,
      code: "TS2322",
    },
    {
      severity: "error",
      message: "Argument of type 'number' is not assignable to parameter of type 'string'.",
      file: "src/a.ts",
      line: 3,
      col: 7,
      code: "TS2345",
    },
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("diagnostics: a missing checker gives an empty list and a warning", async () => {
  const dir = await project("rust_error");
  const empty = await Deno.makeTempDir();
  const saved = Deno.env.get("PATH");
  Deno.env.set("PATH", empty);
  try {
    const { report, text } = await diagnose(dir, { kind: "check" });
    expect(report.diagnostics).toEqual([]);
    expect(report.warnings).toEqual(["cargo is not installed (or not on PATH); no diagnostics"]);
    expect(text).toBe(
      "No diagnostics from cargo check --message-format=json --all-targets\n" +
        "[warning] cargo is not installed (or not on PATH); no diagnostics",
    );
  } finally {
    Deno.env.set("PATH", saved ?? "");
  }
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(empty);
});

Deno.test("diagnostics: no project, or a kind that does not fit the project, is a warning", async () => {
  const empty = await Deno.realPath(await Deno.makeTempDir());
  const none = await diagnose(empty, {});
  expect(none.report.warnings).toEqual([
    `No project found in ${empty} (looked for Cargo.toml, deno.json, deno.jsonc, tsconfig.json); nothing to check`,
  ]);
  const dir = await project("deno");
  const clippy = await diagnose(dir, { kind: "clippy" });
  expect(clippy.report.warnings).toEqual([
    `No rust project found in ${dir} (looked for Cargo.toml); nothing to check`,
  ]);
  await Deno.remove(dir, { recursive: true });
  await Deno.remove(empty);
});

Deno.test("diagnostics: parsers skip noise and cut lines", () => {
  expect(parseCargoJson(
    '{"reason":"compiler-artifact"}\nnot json\n{"reason":"compiler-message","message":{"level":' +
      '"error","message":"aborting","spans":[]}}\n{"reason":"compiler-mess',
  )).toEqual([]);
  expect(parseDenoCheck("Check main.ts\nerror: Type checking failed.\n", "/w")).toEqual([]);
  expect(parseTsc("src/x.ts(2,3): error TS1005: ';' expected.\n  elaboration\n", "/w")).toEqual([
    {
      severity: "error",
      message: "';' expected.",
      file: "src/x.ts",
      line: 2,
      col: 3,
      code: "TS1005",
    },
  ]);
});

Deno.test("diagnostics: without a rule it asks (cargo runs build scripts)", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const registry = new ToolRegistry({
    tools: [diagnosticsTool],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy(),
    config: defaultConfig(),
  });
  const result = await registry.dispatch(
    { id: "d1", name: "diagnostics", input: { kind: "check" } },
    { cwd: dir, sandbox: await Sandbox.create(dir) },
  );
  expect([result.ok, result.category, result.decision?.action]).toEqual([
    false,
    "confirmation_required",
    "ask",
  ]);
  await Deno.remove(dir);
});
