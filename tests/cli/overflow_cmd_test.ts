import { expect } from "expect";
import * as path from "node:path";
import { withWorkspace, zeph } from "./_run.ts";

Deno.test("the overflow id the CLI prints opens with zeph overflow show, in full or by lines", async () => {
  await withWorkspace(async (ws, home) => {
    const script = path.join(home, "s.jsonl");
    await Deno.writeTextFile(
      script,
      '{"tool_calls":[{"id":"c1","name":"bash","input":{"command":"seq 1 30000"}}]}\n' +
        '{"text":"done"}\n',
    );
    const run = await zeph(["-y", "-p", "go", "--provider", "script", "--script", script], {
      cwd: ws,
      home,
    });
    expect(run.code).toBe(0);
    const id = /full output: zeph overflow show (\S+)\n/.exec(run.stderr)?.[1];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const full = await zeph(["overflow", "show", id!], { cwd: ws, home });
    expect(full.code).toBe(0);
    // Whole lines: the output ends with a newline, as a terminal and `wc -l` expect.
    expect(full.stdout).toBe(Array.from({ length: 30000 }, (_, i) => `${i + 1}\n`).join(""));
    const tail = await zeph(["overflow", "show", id!, "--offset", "29998"], { cwd: ws, home });
    expect(tail).toEqual({ code: 0, stdout: "29999\n30000\n", stderr: "" });

    const part = await zeph(
      ["overflow", "show", `overflow:${id}`, "--offset", "5", "--limit", "3"],
      {
        cwd: ws,
        home,
      },
    );
    expect(part).toEqual({
      code: 0,
      stdout: "6\n7\n8\n",
      stderr: "(lines 6–8 of 30000; more with --offset 8)\n",
    });

    const json = await zeph(["--json", "overflow", "show", id!, "--limit", "1"], { cwd: ws, home });
    expect(JSON.parse(json.stdout)).toMatchObject({ id, text: "1\n", totalLines: 30000, end: 1 });

    const missing = await zeph(["overflow", "show", "0000"], { cwd: ws, home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No overflow entry "0000" in ');
    expect(missing.stderr).toContain("Entries are kept 7 days ([tools.overflow] retention_days)");
  });
});
