import { expect } from "expect";
import { fileTest, okText } from "../_support/file_tools.ts";

fileTest("read: numbered lines, 1-based, whole file", async (h) => {
  await h.put({ "a.txt": "alpha\nbeta\r\ngamma\n" });
  const r = await h.dispatch("read", { path: "a.txt" });
  expect(okText(r)).toBe("   1\talpha\n   2\tbeta\n   3\tgamma");
  expect(r.output?.truncated).toBe(false);
});

fileTest("read: offset skips lines (0-based) and limit caps them", async (h) => {
  await h.put({ "a.txt": "l1\nl2\nl3\nl4\nl5" });
  const r = await h.dispatch("read", { path: "a.txt", offset: 2, limit: 2 });
  expect(okText(r)).toBe(
    "   3\tl3\n   4\tl4\n\n[Showing lines 3-4 of 5. Use offset=4 to read further.]",
  );
  expect(r.output?.locations).toEqual([{ path: `${h.ws}/a.txt`, line: 3 }]);
});

fileTest("read: default cap is max_read_lines with a note on how to read further", async (h) => {
  const lines = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`);
  await h.put({ "big.txt": lines.join("\n") + "\n" });
  const first = okText(await h.dispatch("read", { path: "big.txt" }));
  const rows = first.split("\n");
  expect(rows[0]).toBe("   1\tline 1");
  expect(rows[1999]).toBe("2000\tline 2000");
  expect(rows.slice(2000)).toEqual([
    "",
    "[Showing lines 1-2000 of 2500. Use offset=2000 to read further.]",
  ]);
  const rest = okText(await h.dispatch("read", { path: "big.txt", offset: 2000, limit: 5000 }));
  expect(rest.split("\n")[0]).toBe("2001\tline 2001");
  expect(rest.split("\n").length).toBe(500);
});

fileTest("read: a limit above the cap is capped", async (h) => {
  await h.put({ "a.txt": "1\n2\n3\n4\n" });
  const r = okText(await h.dispatch("read", { path: "a.txt", limit: 100 }));
  expect(r).toBe("   1\t1\n   2\t2\n\n[Showing lines 1-2 of 4. Use offset=2 to read further.]");
}, { file: { max_read_lines: 2 } });

fileTest("read: long lines are cut at max_line_chars", async (h) => {
  await h.put({ "a.txt": "x".repeat(12) + "\nshort\n" });
  const r = await h.dispatch("read", { path: "a.txt" });
  expect(okText(r)).toBe(
    "   1\txxxxx… [line truncated: 12 characters]\n   2\tshort\n\n" +
      "[Lines longer than 5 characters were truncated.]",
  );
  expect(r.output?.truncated).toBe(true);
}, { file: { max_line_chars: 5 } });

fileTest("read: empty file says so", async (h) => {
  await h.put({ "empty.txt": "" });
  expect(okText(await h.dispatch("read", { path: "empty.txt" }))).toBe(
    'File "empty.txt" is empty.',
  );
});

fileTest("read: binary files are refused (NUL byte, invalid UTF-8)", async (h) => {
  await h.put({
    "nul.bin": new Uint8Array([104, 105, 0, 1, 2]),
    "latin1.txt": new Uint8Array([99, 97, 102, 0xe9, 10]),
  });
  const nul = await h.dispatch("read", { path: "nul.bin" });
  expect([nul.ok, nul.category, nul.error]).toEqual([
    false,
    "permanent_failure",
    'Cannot read "nul.bin": it is a binary file (it contains NUL bytes, 5 bytes)',
  ]);
  const latin = await h.dispatch("read", { path: "latin1.txt" });
  expect([latin.ok, latin.category, latin.error]).toEqual([
    false,
    "permanent_failure",
    'Cannot read "latin1.txt": it is a binary file (it is not valid UTF-8 text, 5 bytes)',
  ]);
});

fileTest("read: missing file, directory, offset past the end", async (h) => {
  await h.put({ "d/a.txt": "one\n" });
  const missing = await h.dispatch("read", { path: "nope.txt" });
  expect([missing.category, missing.error]).toEqual([
    "permanent_failure",
    'Cannot read "nope.txt": no such file or directory',
  ]);
  expect(missing.text).toContain("suggestion: Check the path with list_directory or find_path.");
  const dir = await h.dispatch("read", { path: "d" });
  expect([dir.category, dir.error]).toEqual([
    "permanent_failure",
    'Cannot read "d": it is a directory',
  ]);
  const past = await h.dispatch("read", { path: "d/a.txt", offset: 5 });
  expect([past.category, past.error]).toEqual([
    "invalid_parameters",
    'Cannot read "d/a.txt" from offset=5: the file has 1 lines',
  ]);
});

fileTest("read: bad params are rejected by the schema", async (h) => {
  const r = await h.dispatch("read", { path: "a.txt", offset: -1 });
  expect(r.category).toBe("invalid_parameters");
  expect(r.error).toContain("- offset:");
});

fileTest("read: deny_read blocks, allow_read is the exception", async (h) => {
  await h.put({ "secret.env": "KEY=1\n", "public.env": "OK=1\n" });
  const denied = await h.dispatch("read", { path: "secret.env" });
  expect([denied.category, denied.error]).toEqual([
    "policy_blocked",
    'Cannot access "secret.env": is denied by [tools.file] deny_read',
  ]);
  expect(okText(await h.dispatch("read", { path: "public.env" }))).toBe("   1\tOK=1");
}, { denyRead: ["**/*.env"], allowRead: ["**/public.env"] });

fileTest("read: a FIFO is refused instead of blocking", async (h) => {
  const mk = await new Deno.Command("mkfifo", { args: [`${h.ws}/pipe`] }).output();
  expect(mk.success).toBe(true);
  const r = await h.dispatch("read", { path: "pipe" });
  expect([r.category, r.error]).toEqual([
    "permanent_failure",
    'Cannot read "pipe": it is not a regular file',
  ]);
});

// Files over 16 MiB are scanned chunk by chunk (1 MiB), never loaded whole: the window, the
// line count, CRLF across chunk edges and the binary checks must match the small-file path.
const BIG = 17 * 1024 * 1024;

function bigText(): { text: string; lines: string[] } {
  const lines: string[] = [];
  let size = 0;
  for (let i = 1; size < BIG; i++) {
    // Lengths vary so that "\r\n" pairs fall on both sides of the 1 MiB chunk edges.
    const line = `row ${i} ${"x".repeat(i % 97)}`;
    lines.push(line);
    size += line.length + 2;
  }
  return { text: lines.join("\r\n") + "\r\n", lines };
}

fileTest(
  "read: a file over 16 MiB gives the same window and line count as a small one",
  async (h) => {
    const { text, lines } = bigText();
    await h.put({ "big.log": text });
    const offset = lines.length - 3;
    const r = okText(await h.dispatch("read", { path: "big.log", offset, limit: 2 }));
    const expected =
      [offset, offset + 1].map((i) => `${String(i + 1).padStart(4)}\t${lines[i]}`).join("\n") +
      `\n\n[Showing lines ${offset + 1}-${offset + 2} of ${lines.length}. Use offset=${
        offset + 2
      } to read further.]`;
    expect(r).toBe(expected);
    const head = okText(await h.dispatch("read", { path: "big.log", limit: 1 }));
    expect(head.split("\n")[0]).toBe(`   1\t${lines[0]}`);
  },
);

fileTest("read: one 17 MiB line is shown cut, with its real length", async (h) => {
  await h.put({ "one.txt": "y".repeat(BIG) });
  const r = okText(await h.dispatch("read", { path: "one.txt" }));
  expect(r).toBe(
    `   1\t${"y".repeat(2000)}… [line truncated: ${BIG} characters]\n\n` +
      "[Lines longer than 2000 characters were truncated.]",
  );
});

fileTest("read: large binary and invalid UTF-8 files are refused like small ones", async (h) => {
  const nul = new Uint8Array(BIG);
  nul.fill(0x61);
  nul[100] = 0;
  const bad = new Uint8Array(BIG);
  bad.fill(0x62);
  bad[BIG - 10] = 0xff;
  await h.put({ "nul.bin": nul, "bad.txt": bad });
  for (const path of ["nul.bin", "bad.txt"]) {
    const r = await h.dispatch("read", { path });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("binary file");
  }
});
