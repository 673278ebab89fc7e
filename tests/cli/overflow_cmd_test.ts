import { expect } from "expect";
import * as path from "node:path";
import { openStore } from "../../src/store/mod.ts";
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

Deno.test("zeph overflow show accepts a unique prefix of an id; an ambiguous one lists the entries", async () => {
  await withWorkspace(async (ws, home) => {
    // The database the CLI opens ($XDG_DATA_HOME/zeph/zeph.db), written here: entries until two
    // share their first character (17 at most), so one character is an ambiguous prefix.
    const db = path.join(home, ".local", "share", "zeph", "zeph.db");
    await Deno.mkdir(path.dirname(db), { recursive: true });
    const store = openStore(db);
    const conversation = store.createConversation();
    const ids: string[] = [];
    let shared: string | undefined;
    while (shared === undefined) {
      const id = store.saveOverflow(conversation, `entry ${ids.length}\n`).id;
      shared = ids.find((other) => other[0] === id[0]);
      ids.push(id);
    }
    store.close();
    const unique = ids.at(-1)!.slice(0, 12);

    const byPrefix = await zeph(["overflow", "show", `overflow:${unique}`], { cwd: ws, home });
    expect(byPrefix).toEqual({ code: 0, stdout: `entry ${ids.length - 1}\n`, stderr: "" });

    const ambiguous = await zeph(["overflow", "show", shared[0]], { cwd: ws, home });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(
      `The prefix "${shared[0]}" matches several overflow entries; give more of the id:\n`,
    );
    for (const id of ids.filter((id) => id[0] === shared![0])) {
      expect(ambiguous.stderr).toContain(`  ${id}  1 line  `);
    }

    const empty = await zeph(["overflow", "show", "overflow:"], { cwd: ws, home });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("zeph overflow show needs an id");
  });
});
