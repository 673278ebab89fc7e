/**
 * A sanitizer's memory map after its report: the shadow rows and the legend fold into a count,
 * the headers, the buggy address's row and everything of the report itself stay as printed —
 * with no rule and after a rule that matched the command.
 */
import { expect } from "expect";
import { FilterEngine, loadFilterEngine } from "../../src/filter/mod.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { foldSanitizerMaps } from "../../src/filter/generic_sanitizer.ts";

const row = (addr: string, bytes: string) => `  0x${addr}: ${bytes}`;
const ZEROS = "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00";
const REDZONE = "fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa fa";
const BUGGY = "=>0x0c0c7fff8000: fa fa fa fa 00 00 00 00 00 00 00 00[fa]fa fa fa";
const LEGEND = [
  "Shadow byte legend (one shadow byte represents 8 application bytes):",
  "  Addressable:           00",
  "  Partially addressable: 01 02 03 04 05 06 07 ",
  "  Heap left redzone:       fa",
  "  Freed heap region:       fd",
  "  Stack left redzone:      f1",
  "  ASan internal:           fe",
];
const REPORT = [
  "==6928==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x606000000060 at pc 0x55d5",
  "READ of size 16 at 0x606000000060 thread T0",
  "    #0 0x55d557fdc5bc in polygon_area src/polygon.c:15",
  "    #1 0x55d557fdba3a in main src/main.c:10",
  "",
  "SUMMARY: AddressSanitizer: heap-buffer-overflow src/polygon.c:15 in polygon_area",
  "Shadow bytes around the buggy address:",
  row("0c0c7fff7fe0", ZEROS),
  row("0c0c7fff7ff0", ZEROS),
  BUGGY,
  row("0c0c7fff8010", REDZONE),
  row("0c0c7fff8020", REDZONE),
  ...LEGEND,
  "==6928==ABORTING",
];
const FOLDED = [
  ...REPORT.slice(0, 7),
  BUGGY,
  "  … (4 rows of shadow memory) …",
  LEGEND[0],
  "  … (6 entries of the legend) …",
  "==6928==ABORTING",
];

Deno.test("a sanitizer's shadow rows and legend fold; its report, the buggy row and the headers stay", () => {
  expect(foldSanitizerMaps(REPORT)).toEqual(FOLDED);
});

Deno.test("a short map stays, and so do lines that only look like its header", () => {
  const short = ["Shadow bytes around the buggy address:", BUGGY, row("0c0c7fff8010", REDZONE)];
  expect(foldSanitizerMaps(short)).toEqual(short);
  const prose = ["Shadow bytes around the buggy address:", "  see the docs", "done"];
  expect(foldSanitizerMaps(prose)).toEqual(prose);
});

Deno.test("the engine folds the map with no rule and after a rule that matched", async () => {
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: "/nonexistent" });
  for (const command of ["./geomtool-asan", "make test"]) {
    const out = engine.filter(command, REPORT.join("\n"), { failed: true }).text.split("\n");
    expect({ command, out: out.filter((l) => !l.startsWith("[")) }).toEqual({
      command,
      out: FOLDED,
    });
  }
  // The guard leaves the fold's lines alone: they are markers.
  const bare = new FilterEngine([], { security: false });
  expect(bare.filter("./t", REPORT.join("\n"), { failed: true }).text.split("\n")).toEqual(FOLDED);
});

Deno.test("a shadow map of more rows than a call takes arguments folds, not throws", () => {
  const buggy: string[] = [];
  for (let i = 0; i < 200_000; i++) {
    buggy.push(`=>0x0c047fff${(i % 65536).toString(16)}: fa fa 00 00`);
  }
  const lines = [
    "Shadow bytes around the buggy address:",
    ...buggy,
    "  0x0c047fff8000: fa fa 00 00",
    "  0x0c047fff8010: fa fa 00 00",
    "  0x0c047fff8020: fa fa 00 00",
    "SUMMARY: AddressSanitizer: heap-buffer-overflow",
  ];
  // The buggy rows were spread into one call: 200,000 arguments threw a RangeError.
  expect(foldSanitizerMaps(lines).join("\n")).toBe([
    "Shadow bytes around the buggy address:",
    ...buggy,
    "  … (3 rows of shadow memory) …",
    "SUMMARY: AddressSanitizer: heap-buffer-overflow",
  ].join("\n"));
});
