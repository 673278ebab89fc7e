// `zeph sessions`: a table with a header and the workspace; a failed first turn stays listed.
import { expect } from "expect";
import * as path from "node:path";
import { sessionTable } from "../../src/cli/sessions_cmd.ts";
import { withWorkspace, zeph } from "./_run.ts";

const at = Date.UTC(2026, 0, 2, 3, 4);

Deno.test("sessionTable: header, cwd column (~ for home), escapes stripped, cut to the width", () => {
  const list = [
    {
      id: "a1",
      title: "fix \x1b[31mred\x1b[0m\nthing",
      cwd: "/home/me/src/zeph",
      createdAt: at,
      updatedAt: at,
      messageCount: 3,
    },
    { id: "b2", title: "", cwd: "/srv/x", createdAt: at, updatedAt: at, messageCount: 12 },
  ];
  expect(sessionTable(list, { home: "/home/me" })).toBe(
    [
      "ID  UPDATED (UTC)     MSGS  WORKSPACE   TITLE",
      "a1  2026-01-02 03:04     3  ~/src/zeph  fix red ⏎ thing",
      "b2  2026-01-02 03:04    12  /srv/x      (untitled)",
    ].join("\n"),
  );
  const narrow = sessionTable(list, { home: "/home/me", columns: 40 }).split("\n");
  expect(narrow[1]).toBe("a1  2026-01-02 03:04     3  ~/src/zeph…");
});

Deno.test("a conversation whose first turn failed is listed and can be resumed", async () => {
  await withWorkspace(async (ws, home) => {
    const failing = path.join(home, "fail.jsonl");
    await Deno.writeTextFile(failing, '{"error": {"status": 500, "message": "down"}}\n');
    const first = await zeph(["-p", "first \x1b[2Jtry", "--script", failing], { cwd: ws, home });
    expect(first.code).toBe(1);
    const listed = await zeph(["sessions"], { cwd: ws, home });
    const lines = listed.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID +UPDATED \(UTC\) +MSGS +WORKSPACE +TITLE$/);
    expect(lines.length).toBe(2);
    // The workspace column ends with the workspace (long paths are cut at the front).
    expect(lines[1]).toMatch(/ {5}1 {2}\S*\/ws {2}first try$/);
    const id = lines[1].split(" ")[0];
    const ok = path.join(home, "ok.jsonl");
    await Deno.writeTextFile(ok, '{"text": "second time lucky"}\n');
    const resumed = await zeph(["--resume", id, "-p", "again", "--script", ok], { cwd: ws, home });
    expect([resumed.code, resumed.stdout]).toEqual([0, "second time lucky\n"]);
  });
});
