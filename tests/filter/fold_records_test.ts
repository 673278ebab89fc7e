/**
 * fold_records: records that differ only in what `mask` matches fold into the first and a count;
 * records whose other text (a frame's function or file:line, the error's kind) differs stay.
 */
import { expect } from "expect";
import { compileRule, FilterEngine } from "../../src/filter/mod.ts";
import { corpus, filter, fixture, lines } from "./_builtin.ts";

function run(strategy: Record<string, unknown>, input: string[]) {
  const rule = compileRule({ name: "t", match: { prefix: "cmd" }, strategy }, "test");
  const out = new FilterEngine([rule], { security: false, generic: false }).filter(
    "cmd",
    input.join("\n"),
  );
  return out.text.split("\n");
}

const S = {
  type: "fold_records",
  start: "^Invalid ",
  within: "^\\s+\\S",
  mask: ["\\b0x[0-9A-Fa-f]+\\b", "\\b\\d+ bytes after\\b"],
  summary: "… {n} more",
};

const record = (kind: string, at: string, frame: string, after: number) => [
  kind,
  `   at ${at}: ${frame}`,
  `   by 0x1090B3: main (c.c:15)`,
  ` Address 0x4a400${80 + after} is ${after} bytes after a block of size 64 alloc'd`,
];

Deno.test("records differing only in masked parts fold into the first and a count", () => {
  const input = [
    "start",
    ...record("Invalid read of size 4", "0x10927D", "checksum (c.c:7)", 0),
    ...record("Invalid read of size 4", "0x109291", "checksum (c.c:7)", 4),
    ...record("Invalid read of size 4", "0x10929F", "checksum (c.c:7)", 8),
    "program output",
    ...record("Invalid read of size 4", "0x1092AF", "checksum (c.c:7)", 12),
    "end",
  ];
  expect(run(S, input)).toEqual([
    "start",
    ...record("Invalid read of size 4", "0x10927D", "checksum (c.c:7)", 0),
    "… 2 more",
    "program output",
    "… 1 more",
    "end",
  ]);
});

Deno.test("records whose frames or kind differ all stay", () => {
  const input = [
    ...record("Invalid read of size 4", "0x10927D", "checksum (c.c:7)", 0),
    ...record("Invalid read of size 4", "0x10927D", "checksum (c.c:8)", 0),
    ...record("Invalid read of size 4", "0x10927D", "total (c.c:7)", 0),
    ...record("Invalid write of size 4", "0x10927D", "checksum (c.c:7)", 0),
    ...record("Invalid read of size 8", "0x10927D", "checksum (c.c:7)", 0),
  ];
  expect(run(S, input)).toEqual(input);
});

Deno.test("a frame with no symbol keeps its address: records of a stripped binary fold only at the same place", () => {
  const unmasked = { ...S, unmasked: ["\\?\\?\\? \\(in "] };
  const stripped = (at: string, after: number) => [
    "Invalid read of size 4",
    `   at ${at}: ??? (in /usr/bin/app)`,
    `   by 0x1090B3: ??? (in /usr/bin/app)`,
    ` Address 0x4a400${80 + after} is ${after} bytes after a block of size 64 alloc'd`,
  ];
  // Two places of the binary: both stay; the first place again (another block) folds.
  const input = [
    ...stripped("0x10927D", 0),
    ...stripped("0x10A11C", 0),
    ...stripped("0x10927D", 4),
  ];
  expect(run(unmasked, input)).toEqual([
    ...stripped("0x10927D", 0),
    ...stripped("0x10A11C", 0),
    "… 1 more",
  ]);
  // The built-in rule reads them so too.
  const out = filter(
    "valgrind ./app",
    ["==7== Memcheck", ...input.map((l) => `==7== ${l}`)].join("\n"),
    true,
  );
  expect(out).toContain("==7==    at 0x10A11C: ??? (in /usr/bin/app)");
});

Deno.test("a record one line longer than another is another record", () => {
  const short = record("Invalid read of size 4", "0x1", "f (a.c:1)", 0).slice(0, 3);
  const input = [...record("Invalid read of size 4", "0x1", "f (a.c:1)", 0), ...short];
  expect(run(S, input)).toEqual(input);
});

Deno.test("valgrind: one loop's unrolled reads and each child process's copy fold", async () => {
  const unrolled = await fixture("valgrind-records/unrolled_loop.in.txt");
  const out = lines(filter("valgrind ./c", unrolled, false));
  expect(out.filter((l) => l.endsWith("== Invalid read of size 4")).length).toBe(2);
  expect(out).toContain(
    '… 5 more "Invalid read of size 4" like a record above, at other addresses',
  );
  expect(out).toContain("==15094==    at 0x10927D: checksum (c.c:7)");
  expect(out).toContain("==15094== ERROR SUMMARY: 8 errors from 8 contexts (suppressed: 0 from 0)");
  const children = await fixture("valgrind-records/trace_children.in.txt");
  const kept = lines(filter("valgrind --trace-children=yes ./run_all.sh", children, false));
  expect(kept.filter((l) => l.endsWith("== Invalid read of size 4")).length).toBe(1);
  // Each process's leak record and summary stay: their counts differ.
  expect(kept.filter((l) => l.includes("are definitely lost in loss record")).length).toBe(5);
});

Deno.test("fold_records with a section: records fold only between its open and close lines", () => {
  const s = { ...S, section: { open: "^Pending:", close: "^Failures:" } };
  const twice = [
    ...record("Invalid read", "0x1", "f (c.c:3)", 4),
    ...record("Invalid read", "0x2", "f (c.c:3)", 8),
  ];
  const input = ["Pending:", ...twice, "Failures:", ...twice];
  // Outside the section the same records stay as printed.
  expect(run(s, input)).toEqual([
    "Pending:",
    ...twice.slice(0, 4),
    "… 1 more",
    "Failures:",
    ...twice,
  ]);
});

Deno.test("rspec's Pending list: pending examples of one reason fold under the first, failures stay whole", async () => {
  const input = await corpus("ruby/rspec_pending_many.txt");
  const out = lines(filter("rspec --format progress", input, true));
  expect(out.filter((line) => line.startsWith("… "))).toEqual([
    "… 29 more pending examples like the one above, for the same reason",
    "… 24 more pending examples like the one above, for the same reason",
    "… 17 more pending examples like the one above, for the same reason",
  ]);
  for (
    const line of [
      "     # exporter not written yet",
      "     # needs the sync service",
      "     # Temporarily skipped with xit",
      "     # Not yet implemented",
      "Failures:",
      "  1) Shop computes tax",
      "            got: 20.0",
      "76 examples, 1 failure, 74 pending",
    ]
  ) expect(out).toContain(line);
  expect(out.length).toBeLessThan(30);
});
