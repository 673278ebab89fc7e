// Landlock's ABI-dependent rights and the probe; confinement itself is tested where it runs, in
// the file worker (tests/tools/executors/file_worker_test.ts).
import { expect } from "expect";
import { landlockBlocker, probeLandlock, writeRights } from "../../src/sandbox/landlock.ts";

Deno.test("writeRights: the write-side rights each ABI version knows, reads never", () => {
  const table: [number, bigint][] = [
    [1, 0b1_1111_1111_0010n], // WRITE_FILE, REMOVE_*, MAKE_*
    [2, 0b11_1111_1111_0010n], // + REFER
    [3, 0b111_1111_1111_0010n], // + TRUNCATE
    [7, 0b111_1111_1111_0010n], // later ABIs add no file write right
  ];
  expect(table.map(([abi]) => writeRights(abi))).toEqual(table.map(([, rights]) => rights));
  const READ_FILE = 1n << 2n, READ_DIR = 1n << 3n, EXECUTE = 1n;
  expect(writeRights(7) & (READ_FILE | READ_DIR | EXECUTE)).toBe(0n);
});

Deno.test("probeLandlock: an ABI version here, or the reason there is none", () => {
  const probe = probeLandlock();
  if ("abi" in probe) {
    expect([landlockBlocker(), Number.isInteger(probe.abi) && probe.abi >= 1]).toEqual([
      null,
      true,
    ]);
  } else {
    console.log(`Landlock is unavailable here: ${probe.reason}`);
    expect(probe.reason).toMatch(/Landlock|libc|--allow-ffi/);
  }
});
