import { expect } from "expect";
import * as path from "node:path";
import {
  firstInvalidUtf8,
  openRegular,
  readBoundedTextFile,
  UnreadableFileError,
} from "../../src/config/bounded_file.ts";

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "zeph_bounded_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function refusal(p: Promise<unknown>): Promise<UnreadableFileError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof UnreadableFileError) return error;
    throw error;
  }
  throw new Error("expected an UnreadableFileError");
}

const OPTIONS = { maxBytes: 1024, what: "test file" };

async function mkfifo(file: string): Promise<void> {
  const r = await new Deno.Command("mkfifo", { args: [file] }).output();
  if (!r.success) throw new Error("mkfifo failed");
}

Deno.test("what is not a regular file is refused at once, by kind, also behind a symlink", async () => {
  await withTemp(async (dir) => {
    const fifo = path.join(dir, "fifo");
    await mkfifo(fifo);
    const linkToFifo = path.join(dir, "link-fifo");
    await Deno.symlink(fifo, linkToFifo);
    const zero = path.join(dir, "zero");
    await Deno.symlink("/dev/zero", zero);
    const sock = path.join(dir, "sock");
    const listener = Deno.listen({ transport: "unix", path: sock });
    const cases: [string, string][] = [
      [fifo, "a FIFO (named pipe)"],
      [linkToFifo, "a FIFO (named pipe)"],
      [zero, "a character device"],
      ["/dev/null", "a character device"],
      [dir, "a directory"],
      [sock, "a socket"],
    ];
    try {
      for (const [file, kind] of cases) {
        const error = await refusal(readBoundedTextFile(file, OPTIONS));
        expect([file, error.kind, error.message]).toEqual([
          file,
          "not-regular",
          `Cannot read test file "${file}": it is ${kind}, not a regular file. Point it at a regular file.`,
        ]);
      }
    } finally {
      listener.close();
    }
  });
});

Deno.test("opening a FIFO never blocks: the pending open is completed and the FIFO refused", async () => {
  await withTemp(async (dir) => {
    const fifo = path.join(dir, "fifo");
    await mkfifo(fifo);
    // openRegular is the step after the stat: a path swapped for a FIFO in between lands here.
    const error = await refusal(openRegular(fifo, OPTIONS));
    expect(error.kind).toBe("not-regular");
    expect(error.message).toContain("it is a FIFO (named pipe)");
  });
});

Deno.test("size cap: a file of exactly the cap reads, one byte more is refused", async () => {
  await withTemp(async (dir) => {
    const exact = path.join(dir, "exact");
    await Deno.writeTextFile(exact, "a".repeat(1024));
    expect(await readBoundedTextFile(exact, OPTIONS)).toBe("a".repeat(1024));
    const over = path.join(dir, "over");
    await Deno.writeTextFile(over, "a".repeat(1025));
    const error = await refusal(readBoundedTextFile(over, OPTIONS));
    expect([error.kind, error.message]).toEqual([
      "too-large",
      `Cannot read test file "${over}": 1025 bytes, larger than the 1 KiB limit. Use a smaller file.`,
    ]);
  });
});

Deno.test("a regular file that reports size 0 but is larger is still cut at the cap", async () => {
  // /proc files are regular with st_size 0: only the bounded read stops them.
  const error = await refusal(
    readBoundedTextFile("/proc/self/maps", { maxBytes: 16, what: "test file" }),
  );
  expect([error.kind, error.message]).toEqual([
    "too-large",
    'Cannot read test file "/proc/self/maps": it is larger than the 16 bytes limit. Use a smaller file.',
  ]);
});

Deno.test("invalid UTF-8 is refused with the offset of the first bad byte", async () => {
  const cases: [string, number[], number][] = [
    ["lone continuation", [0x61, 0x62, 0x80], 2],
    ["bad lead byte", [0x61, 0xff, 0x61], 1],
    ["overlong two-byte", [0x61, 0xc0, 0x80], 1],
    ["overlong three-byte", [0x61, 0x62, 0xe0, 0x80, 0x80], 2],
    ["surrogate", [0xed, 0xa0, 0x80], 0],
    ["above U+10FFFF", [0x61, 0xf4, 0x90, 0x80, 0x80], 1],
    ["truncated at end", [0x61, 0x62, 0x63, 0xe2, 0x82], 3],
    ["bad continuation", [0xe2, 0x28, 0xa1], 0],
    ["after valid multibyte", [0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xc3], 9],
  ];
  await withTemp(async (dir) => {
    for (const [name, bytes, offset] of cases) {
      const file = path.join(dir, "bad");
      await Deno.writeFile(file, new Uint8Array(bytes));
      const error = await refusal(readBoundedTextFile(file, OPTIONS));
      expect([name, error.kind, error.message]).toEqual([
        name,
        "not-utf8",
        `Cannot read test file "${file}": invalid UTF-8 at byte offset ${offset}. Save the file as UTF-8.`,
      ]);
      expect([name, firstInvalidUtf8(new Uint8Array(bytes))]).toEqual([name, offset]);
    }
  });
});

Deno.test("valid UTF-8 reads; a BOM is dropped; CRLF is kept for the parser", async () => {
  const cases: [string, number[], string][] = [
    ["ascii", [0x61, 0x0a], "a\n"],
    ["multibyte", [0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80], "é€😀"],
    ["bom", [0xef, 0xbb, 0xbf, 0x61], "a"],
    ["crlf", [0x61, 0x0d, 0x0a], "a\r\n"],
    ["empty", [], ""],
  ];
  await withTemp(async (dir) => {
    for (const [name, bytes, text] of cases) {
      const file = path.join(dir, "ok");
      await Deno.writeFile(file, new Uint8Array(bytes));
      expect([name, await readBoundedTextFile(file, OPTIONS)]).toEqual([name, text]);
      expect([name, firstInvalidUtf8(new Uint8Array(bytes))]).toEqual([name, -1]);
    }
  });
});

Deno.test("a missing file is its own kind, so optional files can fall back to defaults", async () => {
  const error = await refusal(readBoundedTextFile("/nonexistent/zeph/x.toml", OPTIONS));
  expect(error.kind).toBe("not-found");
});
