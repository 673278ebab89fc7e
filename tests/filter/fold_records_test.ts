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

const alternating = await fixture("valgrind-records/alternating.in.txt");

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
  // One count for the kind, at the end (no `counts_before`).
  expect(run(S, input)).toEqual([
    "start",
    ...record("Invalid read of size 4", "0x10927D", "checksum (c.c:7)", 0),
    "program output",
    "end",
    "… 3 more",
  ]);
});

Deno.test("records that recur alternating fold wherever they recur: one count per kind, in first-come order", () => {
  const a = (at: string, after: number) =>
    record("Invalid read of size 4", at, "checksum (c.c:7)", after);
  const b = (at: string, after: number) =>
    record("Invalid read of size 4", at, "total (c.c:9)", after);
  const c = (at: string) => record("Invalid write of size 1", at, "mark (c.c:11)", 0);
  const input = [
    ...a("0x10", 0),
    ...b("0x20", 0),
    ...c("0x30"),
    ...a("0x11", 4),
    ...b("0x21", 4),
    ...c("0x31"),
    ...a("0x12", 8),
    ...b("0x22", 8),
    "HEAP SUMMARY:",
    ...c("0x32"),
  ];
  const before = { ...S, counts_before: "^HEAP SUMMARY:" };
  expect(run(before, input)).toEqual([
    ...a("0x10", 0),
    ...b("0x20", 0),
    ...c("0x30"),
    "… 2 more",
    "… 2 more",
    "… 1 more",
    "HEAP SUMMARY:",
    "… 1 more",
  ]);
  // The real capture: two inlined reads of two blocks alternate four times over (unrolled by
  // hand, -O1); the frames differ only in the line of each block's malloc, which the count names.
  const out = lines(filter("valgrind ./c", alternating, false));
  expect(out.filter((l) => l.endsWith("== Invalid read of size 4")).length).toBe(1);
  const counted =
    '… 7 more "Invalid read of size 4" like the one at 0x109179: main (c.c:12), at other addresses (also at c.c:9)';
  expect(out).toContain(counted);
  expect(out.indexOf("==1178== HEAP SUMMARY:")).toBeGreaterThan(out.indexOf(counted));
});

const P = {
  ...S,
  start: "^(Invalid |Conditional )",
  places: ["\\((?P<place>[^()\\s:]+:\\d+)\\)$"],
  name: "^\\s+(?P<name>at 0x[0-9A-Fa-f]+: .+)$",
  summary: "… {n} more like the one {name}{places}",
};

Deno.test("places: records whose functions agree fold across lines, and the count lists the lines", () => {
  const input = [
    ...record("Invalid read of size 4", "0x10927D", "checksum (c.c:7)", 0),
    ...record("Invalid read of size 4", "0x10928D", "checksum (c.c:8)", 4),
    ...record("Invalid read of size 4", "0x10929D", "checksum (c.c:7)", 8),
    ...record("Invalid read of size 4", "0x1092AD", "checksum (c.c:9)", 8),
    ...record("Invalid read of size 4", "0x1092BD", "total (c.c:7)", 0),
    ...record("Invalid write of size 4", "0x1092CD", "checksum (c.c:7)", 0),
  ];
  expect(run(P, input)).toEqual([
    ...record("Invalid read of size 4", "0x10927D", "checksum (c.c:7)", 0),
    "… 3 more like the one at 0x10927D: checksum (c.c:7) (also at c.c:8, c.c:9)",
    // Another function, another kind: they stay.
    ...record("Invalid read of size 4", "0x1092BD", "total (c.c:7)", 0),
    ...record("Invalid write of size 4", "0x1092CD", "checksum (c.c:7)", 0),
  ]);
  // Without `places` a line of its own is another record.
  expect(run(S, input).filter((l) => l.startsWith("Invalid read")).length).toBe(4);
});

Deno.test("name: counts of kinds sharing a first line say which record each counts", () => {
  const a = (at: string) => record("Invalid read of size 4", at, "checksum (c.c:7)", 0);
  const b = (at: string) => record("Invalid read of size 4", at, "total (c.c:9)", 0);
  const out = run({ ...P, counts_before: "^HEAP" }, [
    ...a("0x10"),
    ...b("0x20"),
    ...a("0x11"),
    ...b("0x21"),
    "HEAP SUMMARY:",
  ]);
  expect(out.slice(-3)).toEqual([
    "… 1 more like the one at 0x10: checksum (c.c:7)",
    "… 1 more like the one at 0x20: total (c.c:9)",
    "HEAP SUMMARY:",
  ]);
});

Deno.test("valgrind: a loop's uninitialised tests and reads at -O2 fold across the loop's lines", async () => {
  // unroll.c at -O2: the unrolled loop's tests at lines 13 and 14 of main, the reads past a block
  // at line 18, printf's uninitialised digits at two lines of vfprintf.
  const out = lines(
    filter("valgrind ./unroll 32", await fixture("valgrind-records/loop_lines.in.txt")),
  );
  expect(out.filter((l) => l.includes("== Conditional jump")).length).toBe(3);
  expect(out).toContain(
    '… 3 more "Conditional jump or move depends on uninitialised value(s)" like the one at 0x1090F8: main (unroll.c:13), at other addresses (also at unroll.c:14)',
  );
  expect(out).toContain(
    '… 1 more "Invalid read of size 1" like the one at 0x1091EE: main (unroll.c:18), at other addresses',
  );
  // Another function's record of the same kind stays; the summaries stay.
  expect(out).toContain("==27229==    at 0x48ACABC: _itoa_word (_itoa.c:177)");
  expect(out).toContain(
    "==27229== ERROR SUMMARY: 24 errors from 10 contexts (suppressed: 0 from 0)",
  );
  expect(out).toContain("==27229== HEAP SUMMARY:");
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
    '… 5 more "Invalid read of size 4" like the one at 0x10927D: checksum (c.c:7), at other addresses',
  );
  expect(out).toContain("==15094==    at 0x10927D: checksum (c.c:7)");
  expect(out).toContain("==15094== ERROR SUMMARY: 8 errors from 8 contexts (suppressed: 0 from 0)");
  const children = await fixture("valgrind-records/trace_children.in.txt");
  const kept = lines(filter("valgrind --trace-children=yes ./run_all.sh", children, false));
  expect(kept.filter((l) => l.endsWith("== Invalid read of size 4")).length).toBe(1);
  // Each process's leak record and summary stay: their counts differ.
  expect(kept.filter((l) => l.includes("are definitely lost in loss record")).length).toBe(5);
});

Deno.test("max_like: the first records of a kind stay, the further ones fold", () => {
  const rows = (table: string, n: number) =>
    Array.from({ length: n }, (_, i) => `INSERT INTO ${table} VALUES(${i},'v${i}');`);
  const s = {
    type: "fold_records",
    start: "^INSERT ",
    within: "^\\s+\\(",
    mask: ["'[^']*'", "\\b\\d+\\b"],
    max_like: 2,
    summary: "… {n} more",
  };
  expect(run(s, ["CREATE TABLE a(x);", ...rows("a", 5), ...rows("b", 2), "COMMIT;"])).toEqual([
    "CREATE TABLE a(x);",
    "INSERT INTO a VALUES(0,'v0');",
    "INSERT INTO a VALUES(1,'v1');",
    "… 3 more",
    "INSERT INTO b VALUES(0,'v0');",
    "INSERT INTO b VALUES(1,'v1');",
    "COMMIT;",
  ]);
});

Deno.test("a dump's rows keep their first three and last per table; schema and errors stay", async () => {
  const text = await Deno.readTextFile(
    new URL("../../bench/corpus/db/sqlite_dump.txt", import.meta.url),
  );
  const out = lines(filter("sqlite3 shop.db .dump", text));
  const input = lines(text.trimEnd());
  // Every line that is no row stays as printed, each table's first three rows too.
  for (const line of input.filter((l) => !l.startsWith("INSERT "))) expect(out).toContain(line);
  for (const table of ["products", "sales"]) {
    const rows = input.filter((l) => l.startsWith(`INSERT INTO ${table} `));
    expect(out.filter((l) => l.startsWith(`INSERT INTO ${table} `))).toEqual([
      ...rows.slice(0, 3),
      rows.at(-1),
    ]);
  }
  // The last row of each table (its last id) stays under the count of those between.
  expect(out.slice(-3)).toEqual([
    "… 296 more rows inserted like those above",
    "INSERT INTO sales VALUES(300,2,1,'2026-04-18');",
    "COMMIT;",
  ]);
  // A failing dump's error stays, between rows that fold around it.
  const failing = [
    ...input.slice(0, 12),
    "Error: database disk image is malformed",
    ...input.slice(12),
  ];
  expect(lines(filter("sqlite3 shop.db .dump", failing.join("\n"), true))).toContain(
    "Error: database disk image is malformed",
  );
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
    "… 29 more pending examples for the same reason as 1) Shop exports format 1",
    "… 24 more pending examples for the same reason as 31) Shop syncs store 1",
    "… 17 more pending examples for the same reason as 56) Shop rounds currency 1",
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

Deno.test("pg_dump --inserts: a row whose text value spans lines folds or stays whole, never its first line alone", () => {
  const input = ["INSERT INTO public.mail VALUES (0, 'x');"];
  for (let i = 1; i <= 7; i++) {
    input.push(`INSERT INTO public.mail VALUES (${i}, 'Dear user,`, `  your order ${i} shipped');`);
  }
  input.push("", "--", "-- PostgreSQL database dump complete", "--");
  const out = lines(filter("pg_dump --inserts shop", input.join("\n")));
  // Each continuation line kept is right under its own INSERT line.
  out.forEach((line, i) => {
    const m = line.match(/^ {2}your order (\d) shipped/);
    if (m) expect(out[i - 1]).toBe(`INSERT INTO public.mail VALUES (${m[1]}, 'Dear user,`);
  });
  expect(out).toContain("… 3 more rows inserted like those above");
  expect(out).toContain("  your order 7 shipped');");
});

Deno.test("a dump's last row shown under its count stays where it was printed, above the blank lines after it", () => {
  const input = ["SET client_encoding = 'UTF8';", ""];
  for (let i = 1; i <= 8; i++) input.push(`INSERT INTO public.t VALUES (${i}, 'v${i}');`);
  input.push("", "", "--", "-- PostgreSQL database dump complete", "--");
  const out = lines(filter("pg_dump --inserts shop", input.join("\n")));
  const at = out.indexOf("INSERT INTO public.t VALUES (8, 'v8');");
  expect(out[at - 1]).toBe("… 4 more rows inserted like those above");
  // The sql-dump rule drops the blank lines and `--` frames; the closing comment comes next.
  expect(out.slice(at + 1)).toEqual(["-- PostgreSQL database dump complete"]);
});

Deno.test("rspec's Pending list: a reason that recurs after another's example is counted under its own, not 'the one above'", () => {
  const input = [
    "Pending: (Failures listed here are expected and do not affect your suite's status)",
    "",
  ];
  [1, 2, 3, 4, 5].forEach((i) => {
    const reason = i === 4 ? "Waiting on API v2" : "Not yet implemented";
    input.push(
      `  ${i}) Cart totals case ${i}`,
      `     # ${reason}`,
      `     # ./spec/cart_spec.rb:${i * 10}`,
      "",
    );
  });
  input.push(
    "Finished in 0.01 seconds (files took 0.1 seconds to load)",
    "5 examples, 0 failures, 5 pending",
  );
  const out = lines(filter("bundle exec rspec", input.join("\n")));
  const at = out.indexOf("     # Waiting on API v2");
  // What follows case 4 counts the examples like case 1, and says so.
  for (const line of out.slice(at).filter((l) => l.startsWith("… "))) {
    expect(line).toContain("1) Cart totals case 1");
  }
  expect(out.join("\n")).toMatch(/… 1 more pending examples[^\n]*1\) Cart totals case 1/);
});

Deno.test("a dump's tables whose quoted names differ by a number keep their own rows and counts", async () => {
  // sqlite3 3.40 `.dump` of tables "order-2" and "order-3": the number is the name's, not a value.
  const dump = await fixture("sql-dump-inserts/hyphen_names.in.txt");
  const out = lines(filter("sqlite3 s.db .dump", dump));
  for (const table of ['"order-2"', '"order-3"']) {
    expect(out.filter((l) => l.startsWith(`INSERT INTO ${table} `)).length).toBe(4);
  }
  expect(out).toContain(`INSERT INTO "order-3" VALUES(1,'sku-1',5);`);
  expect(out.filter((l) => l === "… 4 more rows inserted like those above").length).toBe(2);
});

Deno.test("valgrind: two kinds shown with one top frame are counted by the frame that differs", async () => {
  // peek() reads past the block, called from from_left and from_right: both kept records have
  // `at 0x109178: peek (v.c:4)` on top, so each count names its caller.
  const out = lines(
    filter("valgrind ./v", await fixture("valgrind-records/shared_top_frame.in.txt")),
  );
  const counts = out.filter((l) => l.startsWith("… 2 more "));
  expect(counts).toEqual([
    '… 2 more "Invalid read of size 4" like the one by 0x1091E0: from_left (v.c:6), at other addresses',
    '… 2 more "Invalid read of size 4" like the one by 0x10921F: from_right (v.c:7), at other addresses',
  ]);
});
