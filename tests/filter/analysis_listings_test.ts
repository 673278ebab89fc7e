/**
 * Built-in rules of tools that list what a build holds (objdump's disassembly, jdeps' dependencies,
 * rustdoc's warnings under cargo doc, knip's unused code, psql's descriptions of a schema): the stubs and the dependencies every
 * program has go, the program's own code, what is missing and every warning's place stay, and
 * each rule matches its own tool only. The lines are from real runs (binutils 2.40, OpenJDK 17,
 * cargo 1.95, knip 6.44, PostgreSQL 15); the golden fixtures and bench/corpus hold the whole captures.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });

const filter = (command: string, lines: string[], exit = 0) =>
  engine.filter(command, lines.join("\n"), { failed: exit !== 0 });

const OBJDUMP = [
  "",
  "ring:     file format elf64-x86-64",
  "",
  "",
  "Disassembly of section .init:",
  "",
  "0000000000001000 <_init>:",
  "    1000:\t48 83 ec 08          \tsub    $0x8,%rsp",
  "    1004:\t48 8b 05 c5 2f 00 00 \tmov    0x2fc5(%rip),%rax        # 3fd0 <__gmon_start__@Base>",
  "    1016:\tc3                   \tret",
  "",
  "Disassembly of section .plt:",
  "",
  "0000000000001090 <strerror@plt>:",
  "    1090:\tff 25 9a 2f 00 00    \tjmp    *0x2f9a(%rip)        # 4030 <strerror@GLIBC_2.2.5>",
  "    1096:\t68 06 00 00 00       \tpush   $0x6",
  "    109b:\te9 80 ff ff ff       \tjmp    1020 <_init+0x20>",
  "",
  "Disassembly of section .text:",
  "",
  "0000000000001260 <frame_dummy>:",
  "    1260:\tf3 0f 1e fa          \tendbr64",
  "    1264:\te9 77 ff ff ff       \tjmp    11e0 <register_tm_clones>",
  "    1269:\t0f 1f 80 00 00 00 00 \tnopl   0x0(%rax)",
  "    1270:\t90                   \tnop",
  "",
  "0000000000001270 <cmp>:",
  "    1270:\t8b 07                \tmov    (%rdi),%eax",
  "    1272:\t2b 06                \tsub    (%rsi),%eax",
  "    1274:\tc3                   \tret",
  "    1275:\t66 2e 0f 1f 84 00 00 \tcs nopw 0x0(%rax,%rax,1)",
  "    127c:\t00 00 00 ",
  "",
  "0000000000001280 <ring_error>:",
  "    1280:\te9 0b fe ff ff       \tjmp    1090 <strerror@plt>",
];

Deno.test("objdump -d: the init and PLT stubs fold under their labels (one naming strerror too), the C runtime's start-up folds, alignment nops go; the program's functions stay whole", () => {
  const out = filter("objdump -d ring", OBJDUMP);
  expect(out.text.split("\n")).toEqual([
    "",
    "ring:     file format elf64-x86-64",
    "",
    "Disassembly of section .init:",
    "0000000000001000 <_init>:",
    "Disassembly of section .plt:",
    "0000000000001090 <strerror@plt>:",
    "  … (10 lines of the linker's init, PLT and fini stubs)",
    "Disassembly of section .text:",
    "",
    "0000000000001260 <frame_dummy>:",
    "  … (4 lines of the C runtime's start-up code)",
    "",
    "0000000000001270 <cmp>:",
    "    1270:\t8b 07                \tmov    (%rdi),%eax",
    "    1272:\t2b 06                \tsub    (%rsi),%eax",
    "    1274:\tc3                   \tret",
    "    127c:\t00 00 00 ",
    "",
    "0000000000001280 <ring_error>:",
    "    1280:\te9 0b fe ff ff       \tjmp    1090 <strerror@plt>",
    "(1 alignment nop lines not shown)",
  ]);
});

Deno.test("objdump's rules read a disassembly only: -d in any spelling matches, a header or symbol listing does not", () => {
  for (
    const command of [
      "objdump -d a.out",
      "objdump -drwC lib.o",
      "objdump -S prog",
      "objdump --disassemble=main prog",
      "aarch64-linux-gnu-objdump -dl fw.elf",
      "/usr/bin/objdump -M intel -d x",
    ]
  ) {
    expect({ command, rules: filter(command, ["x"]).rules }).toEqual({
      command,
      rules: ["objdump-disassembly", "objdump-crt", "objdump-padding"],
    });
  }
  for (
    const command of [
      "objdump -h a.out",
      "objdump -t lib.o",
      "objdump -s -j .rodata prog",
      "objdump -x prog",
    ]
  ) {
    expect({ command, rules: filter(command, ["x"]).rules.filter((r) => r.startsWith("objdump")) })
      .toEqual({ command, rules: [] });
  }
});

Deno.test("jdeps: dependencies on java.base go, counted; every other module's, another archive's, a JDK internal API and each not found stay", () => {
  const pad = (from: string, to: string, where: string) =>
    `   ${from.padEnd(50)} -> ${to.padEnd(50)} ${where}`;
  const out = filter("jdeps -verbose:class lib/shop.jar", [
    "shop.jar -> java.base",
    "shop.jar -> java.sql",
    "shop.jar -> not found",
    pad("com.acme.shop.api.OrderClient", "com.acme.shop.util.Json", "shop.jar"),
    pad("com.acme.shop.api.OrderClient", "java.lang.Object", "java.base"),
    pad("com.acme.shop.api.OrderClient", "java.lang.String", "java.base"),
    pad("com.acme.shop.store.OrderStore", "java.sql.Connection", "java.sql"),
    pad("com.acme.shop.store.OrderStore", "com.google.common.base.Strings", "not found"),
    pad("com.acme.shop.store.OrderStore", "sun.misc.Unsafe", "JDK internal API (jdk.unsupported)"),
    pad("com.acme.shop.util.Json", "java.util.regex.Pattern", "java.base"),
  ]);
  expect(out.text.split("\n")).toEqual([
    "shop.jar -> java.base",
    "shop.jar -> java.sql",
    "shop.jar -> not found",
    pad("com.acme.shop.api.OrderClient", "com.acme.shop.util.Json", "shop.jar"),
    pad("com.acme.shop.store.OrderStore", "java.sql.Connection", "java.sql"),
    pad("com.acme.shop.store.OrderStore", "com.google.common.base.Strings", "not found"),
    pad("com.acme.shop.store.OrderStore", "sun.misc.Unsafe", "JDK internal API (jdk.unsupported)"),
    "(3 dependencies on java.base not shown)",
  ]);
});

const RUSTDOC = (n: number, name: string, file: string, line: number) => [
  `warning: unresolved link to \`${name}\``,
  ` --> ${file}:${line}:${n + 10}`,
  "  |",
  `${line} | /// See [\`${name}\`].`,
  `  |          ${"^".repeat(name.length)} no item named \`${name}\` in scope`,
  "  |",
  "  = help: to escape `[` and `]` characters, add '\\' before them like `\\[` or `\\]`",
  ...(n === 0 ? ["  = note: `#[warn(rustdoc::broken_intra_doc_links)]` on by default"] : []),
  "",
];

Deno.test("cargo doc: each broken intra-doc link keeps its headline, location and label; the doc line the label points into, the gutter and the escape advice said again go", () => {
  const names = ["Book", "Rates", "Kind", "PostError", "Ledger"];
  const input = [
    " Documenting ledger v0.3.1 (/src/ledger)",
    ...names.flatMap((name, i) => RUSTDOC(i, name, i % 2 ? "src/money.rs" : "src/lib.rs", 3 + i)),
    "warning: `ledger` (lib doc) generated 5 warnings",
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.70s",
    "   Generated /src/ledger/target/doc/ledger/index.html",
  ];
  const out = filter("cargo doc --no-deps", input);
  expect(out.rules).toEqual(["cargo-doc"]);
  const kept = out.text.split("\n");
  for (const [i, name] of names.entries()) {
    const file = i % 2 ? "src/money.rs" : "src/lib.rs";
    expect(kept).toContain(`warning: unresolved link to \`${name}\``);
    expect(kept).toContain(` --> ${file}:${3 + i}:${i + 10}`);
    expect(kept).not.toContain(`${3 + i} | /// See [\`${name}\`].`);
    expect(kept).toContain(
      `  |          ${"^".repeat(name.length)} no item named \`${name}\` in scope`,
    );
  }
  expect(kept.filter((l) => l.includes("= help: to escape"))).toHaveLength(1);
  expect(kept).not.toContain("  |");
  expect(kept.slice(-3)).toEqual(input.slice(-3));
});

Deno.test("cargo doc: a compile error's source line stays when it is a doc comment or a #[doc] attribute; a broken link's doc line goes", async () => {
  const fixture = (name: string) =>
    Deno.readTextFile(new URL(`../fixtures/filters/cargo-doc/${name}.in.txt`, import.meta.url));
  // rustc's errors quote the line they are about: a stray `///` it cannot parse (two shapes of
  // E0585 and a parse error) and an attribute `#[doc(inline)]` put on a function, each with a
  // labelled mark under it, as a broken link's doc line has.
  const cases: [string, string[]][] = [
    ["doc_comment_errors", [
      "9 |     /// dangling doc at the end",
      "25 |     /// after missing semicolon",
    ]],
    ["doc_attribute_error", ["3 | #[doc(inline)]"]],
  ];
  for (const [name, quoted] of cases) {
    const input = (await fixture(name)).split("\n");
    for (const line of quoted) expect(input).toContain(line);
    const kept = filter("cargo doc", input, 101).text.split("\n");
    expect({ name, kept: quoted.filter((line) => kept.includes(line)) })
      .toEqual({ name, kept: quoted });
  }
  // Under a link warning the doc line its label points into goes (here beside an error).
  const link = RUSTDOC(0, "Book", "src/lib.rs", 3);
  const both = [...link, ...(await fixture("doc_attribute_error")).split("\n")];
  const kept = filter("cargo doc", both, 101).text.split("\n");
  expect(kept).not.toContain("3 | /// See [`Book`].");
  expect(kept).toContain("3 | #[doc(inline)]");
  // `-D warnings` makes the broken link an error: still a link's headline, its doc line goes.
  const denied = link.map((line) => line.replace(/^warning: /, "error: "));
  const deniedKept = filter("cargo doc", [...denied, "error: could not document `ledger`"], 101)
    .text.split("\n");
  expect(deniedKept).toContain("error: unresolved link to `Book`");
  expect(deniedKept).not.toContain("3 | /// See [`Book`].");
});

Deno.test("cargo doc's rules match cargo doc only, and cargo build's rules do not match it", () => {
  for (
    const command of [
      "cargo doc",
      "cargo doc --no-deps --open",
      'RUSTDOCFLAGS="-D warnings" cargo doc',
      "cargo +nightly doc",
    ]
  ) {
    expect({ command, rules: filter(command, ["x"]).rules }).toEqual({
      command,
      rules: ["cargo-doc"],
    });
  }
  for (const command of ["cargo build", "cargo test --doc", "cargo deny check", "cargo clippy"]) {
    expect({ command, doc: filter(command, ["x"]).rules.some((r) => r.startsWith("cargo-doc")) })
      .toEqual({ command, doc: false });
  }
});

Deno.test("knip: unused files, dependencies and unresolved imports stay whole however many; each per-symbol list keeps its first 15 and counts the rest", () => {
  const files = Array.from({ length: 30 }, (_, i) => `src/old/module${i}.ts`);
  const exports = Array.from(
    { length: 40 },
    (_, i) => `${`helper${i}`.padEnd(10)}  function  src/lib/util${i}.ts:${i + 1}:17`,
  );
  const input = [
    `Unused files (${files.length})`,
    ...files,
    "Unused dependencies (1)",
    "lodash  package.json",
    "Unresolved imports (1)",
    "./lib/missing_module  src/lib/broken.ts:1:23",
    `Unused exports (${exports.length})`,
    ...exports,
  ];
  const out = filter("npx knip", input, 1);
  expect(out.text.split("\n")).toEqual([
    ...input.slice(0, 36),
    ...exports.slice(0, 15),
    "… 25 more of this kind (knip --include <kind> lists them whole)",
  ]);
  // Asked for one kind, knip's list is the answer: it stays whole.
  const asked = filter("npx knip --include exports", input, 1);
  expect(asked.rules).not.toContain("knip");
  expect(asked.text).toContain(exports.at(-1));
});

Deno.test("psql \\d+: each row keeps its cells without their padding, the title loses its centring; the sections under the table stay as printed", () => {
  const out = filter("psql -X -c '\\d+ order_items'", [
    '                                            Table "public.order_items"',
    "   Column   |     Type      | Collation | Nullable | Default | Storage | Compression | Stats target | Description ",
    "------------+---------------+-----------+----------+---------+---------+-------------+--------------+-------------",
    " order_id   | bigint        |           | not null |         | plain   |             |              | ",
    " discount   | numeric(5,2)  |           | not null | 0       | main    |             |              | ",
    "Indexes:",
    '    "order_items_pkey" PRIMARY KEY, btree (order_id, product_id)',
    "Access method: heap",
  ]);
  expect(out.text.split("\n")).toEqual([
    'Table "public.order_items"',
    "Column | Type | Collation | Nullable | Default | Storage | Compression | Stats target | Description",
    "order_id | bigint |  | not null |  | plain |  |  |",
    "discount | numeric(5,2) |  | not null | 0 | main |  |  |",
    "Indexes:",
    '    "order_items_pkey" PRIMARY KEY, btree (order_id, product_id)',
    "Access method: heap",
    "(1 command tags (CREATE, ALTER, DROP, INSERT, SET, BEGIN, COMMIT) and table rules not shown)",
  ]);
  // A script or a query is no description: its result tables stay aligned as printed.
  for (
    const command of [
      "psql -f migrate.sql",
      "psql -c 'select * from orders'",
      "psql -c \"\\copy t to 'x.csv'\"",
    ]
  ) {
    expect({ command, rules: filter(command, ["x"]).rules }).toEqual({ command, rules: ["psql"] });
  }
});
