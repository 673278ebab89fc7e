/** The registry hooks of src/tools/hooks.ts: the lazily loaded output filter. */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { type FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";
import { join } from "node:path";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { AuditWriter, openStore } from "../../src/store/mod.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { auditHook, filterHook, lazyFilterHook, overflowHook } from "../../src/tools/hooks.ts";
import { readOverflowTool } from "../../src/tools/read_overflow.ts";
import { type CallScope, ToolRegistry, type ToolResult } from "../../src/tools/registry.ts";
import type { OutputHook } from "../../src/tools/registry.ts";

type HookInput = Parameters<OutputHook["apply"]>[1];
const call = {} as HookInput;

function countingHook(engine: FilterEngine) {
  const loads = { count: 0 };
  const hook = lazyFilterHook(() => {
    loads.count++;
    return Promise.resolve(engine);
  });
  return { hook, loads };
}

Deno.test("lazyFilterHook never loads the rules for results without a command", async () => {
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
  const { hook, loads } = countingHook(engine);
  const result = { ok: true, text: "a\nb\n" } as ToolResult;
  await hook.apply(result, call);
  await hook.apply({ ...result, output: { text: "x" } } as unknown as ToolResult, call);
  expect(loads.count).toBe(0);
  expect(result.text).toBe("a\nb\n");
});

Deno.test("lazyFilterHook loads the rules once and filters command output with them", async () => {
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
  const { hook, loads } = countingHook(engine);
  const noisy = Array.from({ length: 300 }, (_, i) => `Compiling crate${i} v0.1.0`).join("\n") +
    "\n    Finished `dev` profile in 3.2s\n";
  const results = [0, 1].map(() =>
    ({
      ok: true,
      text: noisy,
      output: { filterCommand: "cargo build", exitCode: 0 },
    }) as unknown as ToolResult
  );
  await Promise.all(results.map((r) => hook.apply(r, call)));
  expect(loads.count).toBe(1);
  for (const r of results) {
    expect(r.text.length).toBeLessThan(noisy.length);
    expect(r.filterStats).toBeDefined();
  }
});

Deno.test("AuditWriter.checkWritable: null for a log it can create, else the one warning", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/file`, "");
    const good = new AuditWriter(`${dir}/logs/audit.jsonl`);
    expect(good.checkWritable()).toBeNull();
    expect((await Deno.stat(`${dir}/logs/audit.jsonl`)).mode! & 0o777).toBe(0o600);
    expect(new AuditWriter(`${dir}/file/audit.jsonl`).checkWritable()).toBe(
      `Cannot write the audit log "${dir}/file/audit.jsonl" ("${dir}/file" is a file, not a ` +
        "directory), so tool calls " +
        "are not audited; set [tools.audit] path (or ZEPH_TOOLS_AUDIT_PATH) to a writable " +
        "file, or turn the log off with ZEPH_TOOLS_AUDIT_ENABLED=false.",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("auditHook: a log that cannot be written is one warning with the fix, not one per call", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // The log's directory would have to be created under a regular file: every append fails.
    await Deno.writeTextFile(`${dir}/file`, "");
    const warnings: string[] = [];
    const broken = new AuditWriter(`${dir}/file/audit.jsonl`);
    const hook = auditHook(broken, { warn: (message) => warnings.push(message) });
    const call = { params: {}, scope: {} };
    const result = { tool: "read", outcome: "success", durationMs: 1 } as const;
    for (let i = 0; i < 3; i++) await hook.record(result as ToolResult, call as never);
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toMatch(
      new RegExp(
        `^zeph: warning: Cannot write the audit log "${dir}/file/audit.jsonl" \\(.+\\), ` +
          "so tool calls are not audited; set \\[tools.audit\\] path \\(or ZEPH_TOOLS_AUDIT_PATH\\) " +
          "to a writable file, or turn the log off with ZEPH_TOOLS_AUDIT_ENABLED=false\\.$",
      ),
    );

    // A log that works is written, without a word.
    const good = auditHook(new AuditWriter(`${dir}/audit.jsonl`), {
      warn: (message) => warnings.push(message),
    });
    await good.record(result as ToolResult, call as never);
    expect(JSON.parse(await Deno.readTextFile(`${dir}/audit.jsonl`))).toMatchObject({
      tool: "read",
      result: "success",
    });
    expect(warnings.length).toBe(1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bash through the registry: a passing command's folded listing is stored in SQLite and read back whole, only from its conversation", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_recall_" }));
  const store = openStore(join(dir, "zeph.db"));
  try {
    const config = defaultConfig();
    const { engine } = await loadFilterEngine(config, { configDir: null });
    const registry = new ToolRegistry({
      tools: [bashTool, readOverflowTool],
      executor: new LocalExecutor(),
      policy: new PermissionPolicy({ bash: [{ pattern: "*", action: "allow" }] }),
      config,
      deps: { overflow: store },
    });
    registry.addOutputHook(filterHook(engine));
    registry.addOutputHook(overflowHook(store, config));
    const conv = store.createConversation();
    const other = store.createConversation();
    const scope = async (conversationId: string): Promise<CallScope> => ({
      cwd: dir,
      sandbox: await Sandbox.create(dir),
      conversationId,
    });
    // 2,000 paths in 20 directories: the generic pass folds each directory to `src/dirN/ … (100 entries folded)`.
    const command = "for i in $(seq 0 1999); do echo src/dir$((i % 20))/file$i.ts; done";
    const listed = await registry.dispatch(
      { id: "b1", name: "bash", input: { command: `${command} # find src -type f` } },
      await scope(conv),
    );
    expect(listed.ok).toBe(true);
    expect(listed.output?.exitCode).toBe(0);
    const note =
      /\n\n\[filtered: 2000 → (\d+) lines; unfiltered output: overflow:(\S+) \(read_overflow\)\]$/
        .exec(listed.text)!;
    expect(note).not.toBeNull();
    const id = note[2];
    expect(listed.overflowId).toBe(id);
    expect(listed.text).toContain("entries folded)");

    const back = await registry.dispatch(
      {
        id: "r1",
        name: "read_overflow",
        input: { id: `overflow:${id}`, unit: "lines", limit: 5000 },
      },
      await scope(conv),
    );
    expect(back.ok).toBe(true);
    const expected = Array.from({ length: 2000 }, (_, i) => `src/dir${i % 20}/file${i}.ts`);
    expect(back.text.split("\n").filter((l) => l !== "")).toEqual(expected);

    const elsewhere = await registry.dispatch(
      { id: "r2", name: "read_overflow", input: { id } },
      await scope(other),
    );
    expect(elsewhere.ok).toBe(false);
    expect(elsewhere.error).toBe("overflow entry not found or expired");
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
