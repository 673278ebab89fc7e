/**
 * The generic pass's folds (src/filter/generic_folds.ts), each on the class of output it reads:
 * stack traces whose library frames fold while the user's frames, the innermost frame and the
 * error stay; long path listings whose biggest directories fold; hex and base64 runs; lines that
 * repeat with only their timestamps changing. And what must not fold.
 */
import { expect } from "expect";
import { FilterEngine } from "../../src/filter/mod.ts";
import {
  dropRuntimeEcho,
  foldDataRuns,
  foldPathListing,
  foldStackFrames,
  foldTreeListing,
  LISTING_BUDGET,
  nodePackage,
} from "../../src/filter/generic_folds.ts";
import { withoutTimes } from "../../src/filter/generic_outliers.ts";
import { indentOf, isBlank } from "../../src/filter/sanitize.ts";
import { threadCpuMs } from "../_support/timing.ts";

const engine = new FilterEngine([], { security: false });
const generic = (input: string, failed = true) =>
  engine.filter("some-tool --run", input, { failed }).text;

Deno.test("a Python traceback folds its library frames; user frames, the raising frame and the error stay", () => {
  const lib = (pkg: string, n: number) => [
    `  File "/opt/py/lib/python3.12/site-packages/${pkg}/core.py", line ${n}, in step${n}`,
    `    return self.next${n}()`,
    `           ^^^^^^^^^^^^^`,
  ];
  const input = [
    "Traceback (most recent call last):",
    '  File "/home/me/app/main.py", line 4, in <module>',
    "    run()",
    '  File "/home/me/app/main.py", line 2, in run',
    "    parse(open('x.toml'))",
    ...lib("tomlkit", 10),
    ...lib("tomlkit", 20),
    '  File "/opt/py/lib/python3.12/json/decoder.py", line 30, in decode',
    "    obj = scan(s)",
    ...lib("tomlkit", 40),
    "tomlkit.exceptions.ParseError: Unexpected character at line 3 col 7",
  ];
  const out = foldStackFrames(input);
  expect(out).toEqual([
    "Traceback (most recent call last):",
    '  File "/home/me/app/main.py", line 4, in <module>',
    "    run()",
    '  File "/home/me/app/main.py", line 2, in run',
    "    parse(open('x.toml'))",
    "  … 3 frames in tomlkit, stdlib folded …",
    // The frame that raised stays, without the `^^^^` line under its source.
    ...lib("tomlkit", 40).slice(0, 2),
    "tomlkit.exceptions.ParseError: Unexpected character at line 3 col 7",
  ]);
  // Through the engine, for a command no rule knows.
  expect(generic(input.join("\n"))).toBe(out.join("\n"));
});

Deno.test("a single library frame between user frames stays; a trace of user frames keeps all but its marks", () => {
  const input = [
    "Traceback (most recent call last):",
    '  File "/srv/tool/cli.py", line 9, in main',
    "    load()",
    '  File "/usr/lib/python3.11/pathlib.py", line 1058, in read_text',
    "    with self.open() as f:",
    '  File "/srv/tool/cli.py", line 3, in load',
    "    raise SystemExit('bad config')",
    "SystemExit: bad config",
  ];
  expect(foldStackFrames(input)).toEqual(input);
  const marked = [
    "Traceback (most recent call last):",
    '  File "/srv/tool/cli.py", line 9, in main',
    "    total = price / count",
    "            ~~~~~~^~~~~~~",
    "ZeroDivisionError: division by zero",
    "    ^^^^ this line is text, not a mark",
  ];
  expect(foldStackFrames(marked)).toEqual([...marked.slice(0, 3), ...marked.slice(4)]);
});

Deno.test("JavaScript frames in node internals and node_modules fold; the first (throwing) frame stays", () => {
  const input = [
    "TypeError: Cannot read properties of undefined (reading 'map')",
    "    at normalize (/app/node_modules/@scope/schema/lib/index.js:40:12)",
    "    at walk (/app/node_modules/@scope/schema/lib/walk.js:8:3)",
    "    at walk (/app/node_modules/@scope/schema/lib/walk.js:8:3)",
    "    at Array.map (<anonymous>)",
    "    at loadRoutes (file:///app/src/routes.js:12:7)",
    "    at ModuleJob.run (node:internal/modules/esm/module_job:234:25)",
    "    at async ModuleLoader.import (node:internal/modules/esm/loader:473:24)",
    "    at async asyncRunEntryPointWithESMLoader (node:internal/modules/run_main:123:5)",
    "",
    "Node.js v22.3.0",
  ];
  expect(foldStackFrames(input)).toEqual([
    "TypeError: Cannot read properties of undefined (reading 'map')",
    "    at normalize (/app/node_modules/@scope/schema/lib/index.js:40:12)",
    "    … 3 frames in @scope/schema, native folded …",
    "    at loadRoutes (file:///app/src/routes.js:12:7)",
    "    … 3 frames in node internals folded …",
    "",
    "Node.js v22.3.0",
  ]);
});

Deno.test("Java frames of the JDK and test runners fold; Caused by and user frames stay", () => {
  const input = [
    'Exception in thread "main" java.lang.RuntimeException: wrap',
    "\tat org.example.App.run(App.java:20)",
    "\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)",
    "\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)",
    "\tat org.junit.runners.model.FrameworkMethod$1.runReflectiveCall(FrameworkMethod.java:59)",
    "Caused by: java.io.FileNotFoundException: conf.yml (No such file or directory)",
    "\tat java.base/java.io.FileInputStream.open0(Native Method)",
    "\tat java.base/java.io.FileInputStream.open(FileInputStream.java:213)",
    "\tat java.base/java.io.FileInputStream.<init>(FileInputStream.java:152)",
    "\tat org.example.Config.load(Config.java:11)",
    "\t... 4 more",
  ];
  expect(foldStackFrames(input)).toEqual([
    'Exception in thread "main" java.lang.RuntimeException: wrap',
    "\tat org.example.App.run(App.java:20)",
    "\t… 3 frames in java.base, org.junit folded …",
    "Caused by: java.io.FileNotFoundException: conf.yml (No such file or directory)",
    "\tat java.base/java.io.FileInputStream.open0(Native Method)",
    "\t… 2 frames in java.base folded …",
    "\tat org.example.Config.load(Config.java:11)",
    "\t... 4 more",
  ]);
});

Deno.test("a Java cause chain keeps only its root cause's innermost frame: a wrapper's library frames fold", () => {
  // Captured from a program whose start-up fails under four causes, through a thread pool,
  // framework-named packages (stand-ins for Guice and Spring), a stream and reflection.
  const input = [
    'Exception in thread "main" java.lang.IllegalStateException: Order service failed to start',
    "\tat com.acme.shop.Main.main(Main.java:14)",
    "Caused by: java.util.concurrent.ExecutionException: com.google.inject.internal.ProvisionException: Unable to provision",
    "\tat java.base/java.util.concurrent.FutureTask.report(FutureTask.java:122)",
    "\tat java.base/java.util.concurrent.FutureTask.get(FutureTask.java:191)",
    "\tat com.acme.shop.Main.main(Main.java:12)",
    "Caused by: com.google.inject.internal.ProvisionException: Unable to provision",
    "\tat com.google.inject.internal.InjectorImpl.provision(InjectorImpl.java:15)",
    "\tat com.google.inject.internal.InjectorImpl.getInstance(InjectorImpl.java:9)",
    "\tat org.springframework.web.servlet.DispatcherServlet.doDispatch(DispatcherServlet.java:9)",
    "\tat com.acme.shop.Main.lambda$main$0(Main.java:10)",
    "\tat java.base/java.util.concurrent.FutureTask.run(FutureTask.java:264)",
    "\tat java.base/java.lang.Thread.run(Thread.java:840)",
    "Caused by: com.google.inject.internal.ProvisionException: Error injecting constructor",
    "\tat com.google.inject.internal.InjectorImpl$ConstructorInjector.construct(InjectorImpl.java:26)",
    "\tat com.google.inject.internal.InjectorImpl.provision(InjectorImpl.java:13)",
    "\t... 13 more",
    'Caused by: java.lang.NumberFormatException: For input string: "12,50"',
    "\tat java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)",
    "\tat java.base/java.lang.Integer.parseInt(Integer.java:668)",
    "\tat java.base/java.lang.Integer.parseInt(Integer.java:786)",
    "\tat com.acme.shop.OrderController.parse(OrderController.java:13)",
    "\t... 28 more",
  ];
  expect(foldStackFrames(input)).toEqual([
    ...input.slice(0, 3),
    "\t… 2 frames in java.base folded …",
    input[5],
    input[6],
    "\t… 3 frames in com.google, org.springframework folded …",
    input[10],
    "\t… 2 frames in java.base folded …",
    input[13],
    "\t… 2 frames in com.google folded …",
    ...input.slice(16, 19),
    "\t… 2 frames in java.base folded …",
    ...input.slice(21),
  ]);
});

Deno.test("Java frames behind a class loader's or a module's name (app//, name@version/) are read by their class", () => {
  const input = [
    "java.lang.IllegalStateException: Cannot map row",
    "\tat app//com.acme.shop.Rows.map(Rows.java:9)",
    "\tat app//org.hibernate.loader.Loader.getRow(Loader.java:1579)",
    "\tat app//com.fasterxml.jackson.databind.ObjectMapper.readValue(ObjectMapper.java:3548)",
    "\tat com.foo.loader/netty@4.1/io.netty.channel.Ctx.invoke(Ctx.java:379)",
    "\tat app//com.acme.shop.Server.start(Server.java:20)",
  ];
  expect(foldStackFrames(input)).toEqual([
    ...input.slice(0, 2),
    "\t… 3 frames in org.hibernate, com.fasterxml, netty folded …",
    input[5],
  ]);
});

Deno.test("Go goroutine traces fold GOROOT frames; Ruby backtraces fold gem frames", () => {
  const go = [
    "panic: runtime error: index out of range [3] with length 3",
    "",
    "goroutine 1 [running]:",
    "example.com/svc/queue.(*Ring).Pop(...)",
    "\t/home/me/svc/queue/ring.go:41",
    "encoding/json.(*decodeState).object(0xc0000, {0x5, 0x6})",
    "\t/usr/local/go/src/encoding/json/decode.go:700 +0x1a5",
    "encoding/json.(*decodeState).value(0xc0000, {0x5, 0x6})",
    "\t/usr/local/go/src/encoding/json/decode.go:380 +0x8e",
    "main.main()",
    "\t/home/me/svc/main.go:12 +0x1d",
    "exit status 2",
  ];
  expect(foldStackFrames(go)).toEqual([
    ...go.slice(0, 5),
    "… 2 frames in encoding/json folded …",
    ...go.slice(9),
  ]);
  const ruby = [
    "/srv/app/lib/report.rb:4:in `+': nil can't be coerced into Integer (TypeError)",
    "\tfrom /srv/app/lib/report.rb:4:in `sum'",
    "\tfrom /var/lib/gems/3.1.0/gems/activesupport-7.0.4/lib/core_ext/enumerable.rb:10:in `each'",
    "\tfrom /var/lib/gems/3.1.0/gems/activesupport-7.0.4/lib/core_ext/enumerable.rb:12:in `map'",
    "\tfrom /usr/lib/ruby/3.1.0/set.rb:511:in `each'",
    "\tfrom bin/report:8:in `<main>'",
  ];
  expect(foldStackFrames(ruby)).toEqual([
    ...ruby.slice(0, 2),
    "\t… 3 frames in activesupport, ruby stdlib folded …",
    ruby[5],
  ]);
});

Deno.test("a Ruby backtrace printed one frame a line (rake --trace) folds its gem frames", () => {
  const rake = [
    "rake aborted!",
    'JSON::ParserError: 451: unexpected token at \'{"name": "bob",}]}',
    "/usr/lib/ruby/3.1.0/json/common.rb:216:in `parse'",
    "/srv/app/lib/seeds.rb:5:in `load'",
    "/srv/app/Rakefile:15:in `block (2 levels) in <top (required)>'",
    "/usr/lib/ruby/gems/3.1.0/gems/rake-13.0.6/lib/rake/task.rb:281:in `block in execute'",
    "/usr/lib/ruby/gems/3.1.0/gems/rake-13.0.6/lib/rake/task.rb:281:in `each'",
    "/usr/lib/ruby/gems/3.1.0/gems/rake-13.0.6/lib/rake/task.rb:281:in `execute'",
    "/usr/bin/rake:25:in 'Kernel#load'",
    "Tasks: TOP => default => db:seed",
  ];
  expect(foldStackFrames(rake)).toEqual([
    ...rake.slice(0, 5),
    "… 3 frames in rake folded …",
    ...rake.slice(8),
  ]);
  // The line that carries the message (an uncaught exception's first line) is no bare frame.
  const uncaught = [
    "/srv/app/a.rb:4:in `+': nil can't be coerced into Integer (TypeError)",
    "/var/lib/gems/3.1.0/gems/x-1.0/lib/x.rb:1:in `a'",
  ];
  expect(foldStackFrames(uncaught)).toEqual(uncaught);
});

Deno.test("Java frames of the usual third-party frameworks (Guice, Hibernate, Jackson, Netty) fold like the JDK's", () => {
  const trace = [
    "Caused by: com.google.inject.CreationException: Unable to create injector",
    "\tat com.google.inject.internal.Errors.throwCreationExceptionIfErrorsExist(Errors.java:554)",
    "\tat com.google.inject.internal.InternalInjectorCreator.build(InternalInjectorCreator.java:108)",
    "\tat com.google.inject.Guice.createInjector(Guice.java:87)",
    "\tat com.acme.shop.Main.main(Main.java:52)",
    "Caused by: java.lang.IllegalStateException: Cannot map row",
    "\tat com.acme.shop.Rows.map(Rows.java:9)",
    "\tat org.hibernate.loader.Loader.getRow(Loader.java:1579)",
    "\tat com.fasterxml.jackson.databind.ObjectMapper.readValue(ObjectMapper.java:3548)",
    "\tat io.netty.channel.AbstractChannelHandlerContext.invokeChannelRead(AbstractChannelHandlerContext.java:379)",
    "\tat com.acme.shop.Server.start(Server.java:20)",
  ];
  expect(foldStackFrames(trace)).toEqual([
    trace[0],
    // A wrapper's trace (a cause follows): its innermost library frame folds too.
    "\t… 3 frames in com.google folded …",
    ...trace.slice(4, 7),
    "\t… 3 frames in org.hibernate, com.fasterxml, io.netty folded …",
    trace[10],
  ]);
});

Deno.test("native frames of gdb and the sanitizers fold inside the C library, a sanitizer's runtime and shared objects", () => {
  const gdb = [
    "Program received signal SIGSEGV, Segmentation fault.",
    "#0  0x0000555555555161 in cmp (a=0x7fffffffe5f0, b=0x7fffffffe5f4) at g.c:4",
    "#1  0x00007ffff7e13bf4 in msort_with_tmp (p=p@entry=0x7fffffffe580, n=n@entry=2) at ./stdlib/msort.c:64",
    "#2  msort_with_tmp (p=p@entry=0x7fffffffe580, n=n@entry=4) at ./stdlib/msort.c:52",
    "#3  __GI___qsort_r (b=<optimized out>, n=<optimized out>, s=4, arg=0x0) at ./stdlib/msort.c:296",
    "#4  0x00005555555551bb in main () at g.c:5",
  ];
  expect(foldStackFrames(gdb)).toEqual([...gdb.slice(0, 2), "… 3 frames in libc folded …", gdb[5]]);
  const asan = [
    "READ of size 16 at 0x606000000060 thread T0",
    "    #0 0x55d557fdc5bc in polygon_area src/polygon.c:15",
    "    #1 0x55d557fdba3a in main src/main.c:10",
    "    #2 0x7f7b10045249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58",
    "    #3 0x7f7b10045304 in __libc_start_main_impl ../csu/libc-start.c:360",
    "    #4 0x555e4a8a61c0 in _start (/tmp/zeph-corpus/geom/geomtool-asan+0x21c0)",
    "",
    "allocated by thread T0 here:",
    "    #0 0x7f7b102b83b7 in __interceptor_calloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:77",
    "    #1 0x555e4a8a73e6 in polygon_new src/polygon.c:6",
    "    #2 0x7f7b10045249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58",
    "    #3 0x7f2a in pthread_once (/lib/x86_64-linux-gnu/libpthread.so.0+0x1234)",
    "    #4 0x7f2b in uv_run (/usr/lib/x86_64-linux-gnu/libuv.so.1.0.0+0x99)",
  ];
  expect(foldStackFrames(asan)).toEqual([
    // The C runtime's entry frames under `main` go without a fold line, and so does the
    // interceptor standing in for the `calloc` the heading names.
    ...asan.slice(0, 3),
    ...asan.slice(6, 8),
    asan[9],
    "    … 3 frames in libc, libpthread.so, libuv.so folded …",
  ]);
  // A heading or a comment starting with `#` and a number is no frame.
  const prose = [
    "#1 fix the parser (see issue)",
    "#2 0xdead beef in notes ./stdlib/x.c:1",
    "#3 done",
  ];
  expect(foldStackFrames(prose)).toEqual(prose);
});

Deno.test("a long path listing folds its biggest directories to their first and last entries; small ones and non-path lines stay", () => {
  const lines = ["Archive:  bundle.zip"];
  lines.push(
    "   creating: out/app/",
    "  inflating: out/app/main.py",
    "  inflating: out/app/cli.py",
  );
  for (let i = 0; i < 600; i++) lines.push(`  inflating: out/vendor/pkg${i % 60}/mod${i}.py`);
  lines.push("  inflating: out/README.md", "warning: out/LICENSE: stored with bad CRC");
  const out = foldPathListing(lines);
  expect(out.length).toBeLessThanOrEqual(LISTING_BUDGET + 5);
  expect(out.slice(0, 4)).toEqual(lines.slice(0, 4));
  expect(out).toContain("  inflating: out/README.md");
  expect(out).toContain("warning: out/LICENSE: stored with bad CRC");
  // out/vendor has 60 directories of 10 files: too many to open, it shows its first and last
  // entries around a count.
  expect(out.slice(4, 7)).toEqual([
    "  inflating: out/vendor/pkg0/mod0.py",
    "  out/vendor/ … (598 entries folded)",
    "  inflating: out/vendor/pkg59/mod599.py",
  ]);
  expect(out.filter((l) => l.includes("out/vendor/pkg"))).toHaveLength(2);
  // With fewer packages the directory opens and each package folds on its own.
  const few = lines.filter((l) => !/pkg(?:1[2-9]|[2-5]\d)\//.test(l));
  const opened = foldPathListing(few);
  expect(opened.length).toBeLessThanOrEqual(LISTING_BUDGET + 5);
  expect(opened.filter((l) => l.includes("out/vendor/pkg7/"))).toEqual([
    "  inflating: out/vendor/pkg7/mod7.py",
    "  out/vendor/pkg7/ … (8 entries folded)",
    "  inflating: out/vendor/pkg7/mod547.py",
  ]);
  // A directory listed by its own line keeps it; its entries fold under it.
  const tar = ["proj/", "proj/src/", "proj/src/a.ts", "proj/deps/"];
  for (let i = 0; i < 200; i++) tar.push(`proj/deps/lib${i}/index.js`, `proj/deps/lib${i}/`);
  tar.push("proj/package.json");
  expect(foldPathListing(tar)).toEqual([
    "proj/",
    "proj/src/",
    "proj/src/a.ts",
    "proj/deps/",
    "proj/deps/lib0/index.js",
    "proj/deps/ … (398 entries folded)",
    "proj/deps/lib199/",
    "proj/package.json",
  ]);
});

Deno.test("short listings, and outputs that are mostly not paths, are not folded", () => {
  const short = Array.from({ length: 50 }, (_, i) => `src/deep/dir${i}/file.ts`);
  expect(foldPathListing(short)).toEqual(short);
  const mixed = Array.from(
    { length: 200 },
    (_, i) => i % 3 ? `compiling unit ${i} of 200` : `build/obj/u${i}.o`,
  );
  expect(foldPathListing(mixed)).toEqual(mixed);
  // Absolute paths (dpkg -L) fold by the same rule.
  const abs = ["/.", "/usr", "/usr/lib", "/usr/lib/gconv"];
  for (let i = 0; i < 120; i++) abs.push(`/usr/lib/gconv/CP${i}.so`);
  abs.push("/usr/lib/libc.so.6");
  expect(foldPathListing(abs)).toEqual([
    "/.",
    "/usr",
    "/usr/lib",
    "/usr/lib/gconv",
    "/usr/lib/gconv/CP0.so",
    "/usr/lib/gconv/ … (118 entries folded)",
    "/usr/lib/gconv/CP119.so",
    "/usr/lib/libc.so.6",
  ]);
});

Deno.test("a path listing keeps its failure lines inside a folded directory, after its fold line; a failure word in a path is a name", () => {
  const lines: string[] = [];
  for (let d = 0; d < 5; d++) for (let i = 0; i < 40; i++) lines.push(`pkg/d${d}/f${i}.txt`);
  lines.splice(120, 0, "error: pkg/d3/f7.txt");
  lines.splice(50, 0, "pkg/d1/failed_test.txt");
  const out = foldPathListing(lines);
  expect(out.length).toBeLessThanOrEqual(LISTING_BUDGET + 5);
  // Each directory folds to its first and last entries, `failed_test.txt` (a file's name) with
  // the rest; the failure line stays (here the first of its directory's lines).
  expect(out.filter((l) => !/^pkg\/d[0-4]\/f(?:0|39)\.txt$/.test(l))).toEqual([
    "pkg/d0/ … (38 entries folded)",
    "pkg/d1/ … (39 entries folded)",
    "pkg/d2/ … (38 entries folded)",
    "error: pkg/d3/f7.txt",
    "pkg/d3/ … (39 entries folded)",
    "pkg/d4/ … (38 entries folded)",
  ]);
  // Through the generic pass too, the failure line is in what a failed command shows.
  const shown = generic(lines.join("\n"));
  expect(shown).toContain("error: pkg/d3/f7.txt");
});

Deno.test("a long tree drawing folds its biggest subtrees into their top line; a problem stays under its parent", () => {
  const lines = ["app@1.0.0 /srv/app", "├─┬ small@1.0.0", "│ └── leaf@1.0.0"];
  lines.push("├─┬ big@2.0.0");
  for (let i = 0; i < 40; i++) lines.push(`│ ├─┬ dep${i}@1.0.0`, `│ │ └── sub${i}@0.1.0`);
  lines.push("│ └── UNMET DEPENDENCY broken-error@^3.0.0");
  for (let i = 0; i < 20; i++) lines.push(`├── top${i}@1.0.0`);
  lines.push("└── last@1.0.0", "", "npm error code ELSPROBLEMS");
  const out = foldTreeListing(lines);
  expect(out.length).toBeLessThanOrEqual(LISTING_BUDGET + 5);
  expect(out.slice(0, 3)).toEqual(lines.slice(0, 3));
  // The problem inside the subtree the budget folds stays under its parent, the parent's other
  // children counted in one line; what follows the tree stays.
  expect(out.slice(3, 6)).toEqual([
    "├─┬ big@2.0.0",
    "│ … (80 entries folded)",
    "│ └── UNMET DEPENDENCY broken-error@^3.0.0",
  ]);
  expect(out.slice(-3)).toEqual(["└── last@1.0.0", "", "npm error code ELSPROBLEMS"]);
  expect(out.filter((l) => l.includes("dep1"))).toEqual([]);
  // ASCII drawings (tree --charset ascii, mvn dependency:tree) fold the same way.
  const ascii = ["root"];
  for (let i = 0; i < 70; i++) ascii.push(`|-- mod${i}`, `|   \\-- file${i}.txt`);
  ascii.push("`-- end");
  const folded = foldTreeListing(ascii);
  expect(folded.length).toBeLessThanOrEqual(LISTING_BUDGET + 5);
  expect(folded[0]).toBe("root (+141 entries folded)");
  // A short tree, or text that is mostly not a drawing, is left alone.
  expect(foldTreeListing(lines.slice(0, 40))).toEqual(lines.slice(0, 40));
});

Deno.test("runs of hex and base64 lines keep their first line and a count", () => {
  const hex = Array.from(
    { length: 10 },
    (_, i) => `        a${i}:3f:00:12:9c:44:de:ad:be:ef:01:02:03:04:05:`,
  );
  const input = ["    Modulus:", ...hex, "    Exponent: 65537 (0x10001)"];
  expect(foldDataRuns(input)).toEqual([
    "    Modulus:",
    hex[0],
    "        … (9 more lines of hex) …",
    "    Exponent: 65537 (0x10001)",
  ]);
  const b64 = Array.from(
    { length: 6 },
    (_, i) => `MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${i}xY+/z`,
  );
  expect(foldDataRuns(["-----BEGIN PUBLIC KEY-----", ...b64, "-----END PUBLIC KEY-----"]))
    .toEqual([
      "-----BEGIN PUBLIC KEY-----",
      b64[0],
      "… (5 more lines of base64) …",
      "-----END PUBLIC KEY-----",
    ]);
  // Three lines are not a run; prose and separator lines are not data.
  const short = [hex[0], hex[1], hex[2], "=".repeat(60), "a".repeat(60)];
  expect(foldDataRuns(short)).toEqual(short);
});

Deno.test("lines that differ only in their timestamps collapse with a count; other differences do not", () => {
  expect(withoutTimes("2025-01-02 10:11:12,345 WARN retry")).toBe("<T> WARN retry");
  expect(withoutTimes('E0102 10:11:12.345678   77 x.go:1] "fail"')).toBe(
    '<T> <T>   77 x.go:1] "fail"',
  );
  const input = [
    "starting",
    ...Array.from(
      { length: 8 },
      (_, i) => `2025-01-02T10:11:1${i}Z WARN upstream refused, retrying`,
    ),
    "2025-01-02T10:11:19Z ERROR giving up after 8 attempts",
    "item 1 ok",
    "item 2 ok",
    "item 3 ok",
  ];
  expect(generic(input.join("\n"))).toBe([
    "starting",
    "2025-01-02T10:11:10Z WARN upstream refused, retrying (x8, at different times)",
    "2025-01-02T10:11:19Z ERROR giving up after 8 attempts",
    "item 1 ok",
    "item 2 ok",
    "item 3 ok",
  ].join("\n"));
  // Two lines that differ in time are both shown, as they came.
  const two = ["10:00:01 tick", "10:00:02 tick", "done"];
  expect(generic(two.join("\n"))).toBe(two.join("\n"));
});

/**
 * How many times the CPU the generic pass takes on `input` the CPU it takes on as many characters
 * of ordinary log lines, each the fastest of three runs made in turn: a loaded machine slows both
 * alike, a fold superlinear on `input`'s shape only the first (by hundreds of times on these).
 */
function slowdown(input: string, failed = true): number {
  const cpuMs = (work: () => void) => {
    const start = threadCpuMs();
    work();
    return threadCpuMs() - start;
  };
  const ordinary = Array.from(
    { length: Math.ceil(input.length / 44) },
    (_, i) => `10:00:${String(i % 60).padStart(2, "0")} worker ${i % 7} took job ${i} ok`,
  ).join("\n");
  let shaped = Infinity;
  let base = Infinity;
  for (let run = 0; run < 3; run++) {
    shaped = Math.min(shaped, cpuMs(() => generic(input, failed)));
    base = Math.min(base, cpuMs(() => generic(ordinary, failed)));
  }
  // A base under a millisecond is the clock's grain: the budget is a few of them.
  return shaped / Math.max(base, 5);
}

Deno.test("the folds stay linear on long pathological lines and on deep or many paths", () => {
  const shapes = ["/", "a/", '  File "', "    at ", "\tfrom ", "ab:", "A1", "10:00:00 "];
  for (const shape of shapes) {
    const line = shape.repeat(Math.ceil(100_000 / shape.length)).slice(0, 100_000);
    const input = Array.from({ length: 20 }, () => line.slice(0, 1999)).concat(line).join("\n");
    expect(slowdown(input)).toBeLessThan(8);
  }
  const deep = Array.from({ length: 5000 }, (_, i) => "d/".repeat(60) + `f${i}.txt`).join("\n");
  expect(slowdown(deep, false)).toBeLessThan(8);
});

Deno.test("a line of Unicode whitespace (no-break spaces, U+3000) is blank to the folds, as to the engine", () => {
  // Node's echo of its internals, then the blank line it prints under the caret: a line of
  // no-break spaces is that blank line, and goes with the echo as a line of spaces does.
  for (const blank of ["   ", "\u00a0\u00a0", "\u3000", "\t\u00a0"]) {
    const input = [
      "node:internal/modules/cjs/loader:1228",
      "  throw err;",
      "  ^",
      blank,
      "Error: Cannot find module 'left-pad'",
    ];
    expect(dropRuntimeEcho(input)).toEqual(["Error: Cannot find module 'left-pad'"]);
  }
  // The same reading of indentation: no-break spaces before a word indent it.
  expect(indentOf("\u00a0\u00a0at main (/app/a.js:3:5)")).toBe(2);
  expect(isBlank("\u00a0\u3000")).toBe(true);
});

Deno.test("an exception group's sub-tracebacks fold their library frames and carets behind the | gutter", () => {
  // Python 3.11: `raise ExceptionGroup(…)` over five failed rows, one through json's decoder.
  const input = Deno.readTextFileSync(
    new URL("../fixtures/generic/python_exception_group.txt", import.meta.url),
  ).trimEnd().split("\n");
  const out = foldStackFrames(input);
  expect(out.length).toBeLessThan(input.length - 10);
  // Every sub-exception's final line, every project frame and its source line stay.
  const kept = input.filter((line) =>
    /^\s*\| [\w.]+(?:Error|Operation|Group): /.test(line) || line.includes('File "/tmp/') ||
    /^\s*\|\s+(?:run|load|return price_of|row =|return json|return decimal)/.test(line)
  );
  expect(kept.length).toBeGreaterThan(20);
  expect(kept.filter((line) => !out.includes(line))).toEqual([]);
  // The stdlib frames before the innermost one fold behind the gutter; the innermost stays.
  expect(out).toContain("    |   … 2 frames in stdlib folded …");
  expect(out.some((line) => line.includes('json/decoder.py", line 353'))).toBe(true);
  expect(out.filter((line) => /^\s*\|\s+[~^]+$/.test(line))).toEqual([]);
});

Deno.test("a tree entry whose name alone reads as a failure folds with its subtree", () => {
  const lines = ["app@1.0.0 /srv/app"];
  // 45 children of three entries each: the budget opens one of them.
  for (let i = 0; i < 45; i++) {
    lines.push(`├─┬ mod${i}@1.0.0`, `│ ├── es-errors@1.3.0 deduped`);
    lines.push(`│ ├── http-errors@2.0.1`, `│ └── ms@2.0.0`);
  }
  lines.push("└── last@1.0.0");
  const out = foldTreeListing(lines);
  expect(out).toContain("├─┬ mod44@1.0.0 (+3 entries folded)");
  expect(out.filter((l) => l.includes("errors@")).length).toBe(2);
});

Deno.test("nodePackage names the innermost package, with its scope", () => {
  expect(nodePackage("node_modules/a/node_modules/b/src/x.c")).toBe("b");
  expect(nodePackage("/app/node_modules/@s/a/node_modules/@t/b/i.js")).toBe("@t/b");
  expect(nodePackage("at f (/app/node_modules/a/lib/i.js:4:2)")).toBe("a");
  expect(nodePackage("/app/src/node_modules.js")).toBe(null);
});

Deno.test("Node's native stack under a fatal error folds the frames in its own binary; an addon's frame stays", () => {
  // Node 20 out of heap (`--max-old-space-size=16`).
  const input = [
    "start",
    "",
    "<--- Last few GCs --->",
    "",
    "[8794:0x1ffa3ef0]      438 ms: Mark-Compact 15.7 (24.3) -> 15.7 (32.3) MB, 45.03 / 0.00 ms  (average mu = 0.243, current mu = 0.369) allocation failure; scavenge might not succeed",
    "",
    "",
    "<--- JS stacktrace --->",
    "",
    "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
    "----- Native stack trace -----",
    "",
    " 1: 0xb78db3 node::OOMErrorHandler(char const*, v8::OOMDetails const&) [node]",
    " 2: 0xee8300 v8::Utils::ReportOOMFailure(v8::internal::Isolate*, char const*, v8::OOMDetails const&) [node]",
    " 3: 0xee85e7 v8::internal::V8::FatalProcessOutOfMemory(v8::internal::Isolate*, char const*, v8::OOMDetails const&) [node]",
    " 4: 0x10fb205  [node]",
    " 5: 0x1113088 v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace, v8::internal::GarbageCollectionReason, v8::GCCallbackFlags) [node]",
    " 6: 0x10e91f1 v8::internal::HeapAllocator::AllocateRawWithLightRetrySlowPath(int, v8::internal::AllocationType, v8::internal::AllocationOrigin, v8::internal::AllocationAlignment) [node]",
    " 7: 0x10ea385 v8::internal::HeapAllocator::AllocateRawWithRetryOrFailSlowPath(int, v8::internal::AllocationType, v8::internal::AllocationOrigin, v8::internal::AllocationAlignment) [node]",
    " 8: 0x10c69a6 v8::internal::Factory::AllocateRaw(int, v8::internal::AllocationType, v8::internal::AllocationAlignment) [node]",
    " 9: 0x10b7e4a v8::internal::FactoryBase<v8::internal::Factory>::AllocateRawArray(int, v8::internal::AllocationType, v8::internal::AllocationAlignment) [node]",
    "10: 0x10b7fb4 v8::internal::FactoryBase<v8::internal::Factory>::NewFixedArrayWithFiller(v8::internal::Handle<v8::internal::Map>, int, v8::internal::Handle<v8::internal::Oddball>, v8::internal::AllocationType) [node]",
    "11: 0x129975f  [node]",
    "12: 0x12a6793  [node]",
    "13: 0x12c1b3b  [node]",
    "14: 0x12cbb55 v8::internal::ArrayConstructInitializeElements(v8::internal::Handle<v8::internal::JSArray>, v8::internal::Arguments<(v8::internal::ArgumentsType)1>*) [node]",
    "15: 0x1512628 v8::internal::Runtime_NewArray(int, unsigned long*, v8::internal::Isolate*) [node]",
    "16: 0x195e476  [node]",
  ];
  const frames = input.findIndex((l) => l.startsWith(" 1: 0x"));
  const out = generic(input.join("\n")).split("\n");
  // Everything above the second frame stays (a doubled blank line aside), then one fold line.
  expect(out.slice(-3)).toEqual([
    "",
    " 1: 0xb78db3 node::OOMErrorHandler(char const*, v8::OOMDetails const&) [node]",
    " … 15 frames in node folded …",
  ]);
  for (const line of input.slice(0, frames)) expect(out).toContain(line);
  const addon = [
    "FATAL ERROR: v8::ToLocalChecked Empty MaybeLocal",
    " 1: 0xb78db3 node::Abort() [node]",
    " 2: 0xee8300 v8::Utils::ReportApiFailure(char const*, char const*) [node]",
    " 3: 0x7f0a1c2d3e4f Parser::Parse(v8::FunctionCallbackInfo<v8::Value> const&) [/app/build/Release/parser.node]",
    " 4: 0x10fb205  [node]",
    " 5: 0x1113088 v8::internal::Builtins::InvokeApiFunction() [node]",
  ];
  expect(generic(addon.join("\n")).split("\n")).toEqual([
    ...addon.slice(0, 4),
    " … 2 frames in node folded …",
  ]);
});

Deno.test("a native trace loses the C runtime's entry frames under main; the frames above stay", () => {
  // gcc 12 -fsanitize=address,undefined on a program that leaks twice.
  const input = [
    "leak.c:6:36: runtime error: shift exponent 40 is too large for 32-bit type 'int'",
    "leak.c:10:29: runtime error: signed integer overflow: 256 + 2147483647 cannot be represented in type 'int'",
    "",
    "=================================================================",
    "==14084==ERROR: LeakSanitizer: detected memory leaks",
    "",
    "Direct leak of 40 byte(s) in 1 object(s) allocated from:",
    "    #0 0x7f20a78b83b7 in __interceptor_calloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:77",
    "    #1 0x562f39546288 in make_table /tmp/reduce17/cap/leak.c:5",
    "    #2 0x562f3954634a in main /tmp/reduce17/cap/leak.c:9",
    "    #3 0x7f20a6e45249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58",
    "",
    "Direct leak of 18 byte(s) in 3 object(s) allocated from:",
    "    #0 0x7f20a78b89cf in __interceptor_malloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:69",
    "    #1 0x562f39546222 in dup_name /tmp/reduce17/cap/leak.c:4",
    "    #2 0x562f39546311 in main /tmp/reduce17/cap/leak.c:8",
    "    #3 0x7f20a6e45249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58",
    "",
    "SUMMARY: AddressSanitizer: 58 byte(s) leaked in 4 allocation(s).",
  ];
  // The interceptors under `allocated from:` go too (the sanitizer interceptor test below).
  const startup = (l: string) => /__libc_start_call_main|__interceptor_/.test(l);
  expect(generic(input.join("\n")).split("\n")).toEqual(
    input.filter((l) => !startup(l) && !/^=+$/.test(l)),
  );
  // gdb's form, and a trace of nothing but startup frames keeps its first.
  const gdb = [
    "#0  parse (s=0x0) at parse.c:12",
    "#1  0x0000555555555189 in main () at main.c:5",
    "#2  0x00007ffff7829d90 in __libc_start_call_main (main=main@entry=0x555555555169 <main>, argc=argc@entry=1, argv=argv@entry=0x7fffffffe0b8) at ../sysdeps/nptl/libc_start_call_main.h:58",
    "#3  0x00007ffff7829e40 in __libc_start_main_impl (main=0x555555555169 <main>, argc=1, argv=0x7fffffffe0b8, init=<optimized out>, fini=<optimized out>, rtld_fini=<optimized out>, stack_end=0x7fffffffe0a8) at ../csu/libc-start.c:392",
    "#4  0x0000555555555085 in _start ()",
  ];
  expect(foldStackFrames(gdb)).toEqual(gdb.slice(0, 2));
  const only = [gdb[2], gdb[3]];
  expect(foldStackFrames(only)).toEqual([gdb[2]]);
});

/** A fixture of tests/fixtures/generic/ as lines. */
const fixtureLines = (name: string) =>
  Deno.readTextFileSync(new URL(`../fixtures/generic/${name}`, import.meta.url)).trimEnd().split(
    "\n",
  );

Deno.test("a sanitizer's interceptor under a heading naming an allocation, a free or a thread's creation goes; the caller's frame leads", () => {
  // gcc 12 -fsanitize=address (a use after free, a leak) and -fsanitize=thread (a data race).
  const startup = (l: string) => /__libc_start_call_main|__libc_start_main_impl|in _start /.test(l);
  for (
    const [name, interceptors] of [
      ["sanitizer_asan_use_after_free.txt", ["__interceptor_free", "__interceptor_malloc"]],
      ["sanitizer_lsan_leak.txt", ["__interceptor_malloc", "__interceptor_strdup"]],
      ["sanitizer_tsan_race.txt", ["#0 pthread_create ", "#0 pthread_create "]],
    ] as const
  ) {
    const input = fixtureLines(name);
    const gone = input.filter((l) => interceptors.some((i) => l.includes(i)));
    expect(gone.length).toBe(2);
    expect(foldStackFrames(input)).toEqual(input.filter((l) => !gone.includes(l) && !startup(l)));
  }
  // Under `WRITE of size 12 …` the interceptor is where memory was written (the summary names
  // it): it stays; the one under `allocated by thread T0 here:` goes.
  const overflow = fixtureLines("sanitizer_asan_memcpy_overflow.txt");
  const folded = foldStackFrames(overflow);
  expect(folded.filter((l) => l.includes("__interceptor_"))).toEqual([
    "    #0 0x7f68fb248060 in __interceptor_memcpy ../../../../src/libsanitizer/sanitizer_common/sanitizer_common_interceptors.inc:827",
    "SUMMARY: AddressSanitizer: heap-buffer-overflow ../../../../src/libsanitizer/sanitizer_common/sanitizer_common_interceptors.inc:827 in __interceptor_memcpy",
  ]);
  expect(folded).toContain("    #1 0x555fcba521f0 in main /tmp/r18b-san/over.c:6");
  // An interceptor whose next frame is a library's, or the only frame, stays (the innermost).
  const alone = [
    "freed by thread T0 here:",
    "    #0 0x7f5d688b76a8 in __interceptor_free ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:52",
    "    #1 0x7f2a in pthread_once (/lib/x86_64-linux-gnu/libpthread.so.0+0x1234)",
  ];
  expect(foldStackFrames(alone)).toEqual(alone);
  expect(foldStackFrames(alone.slice(0, 2))).toEqual(alone.slice(0, 2));
});

Deno.test("CMake's call stack folds the frames in CMake's own modules; the project's listfiles stay", () => {
  // cmake 3.25 configuring projects whose find_package fails, from CMakeLists.txt and from a
  // function in an included cmake/deps.cmake.
  for (const name of ["cmake_find_curl.txt", "cmake_find_tiff_include.txt"]) {
    const input = fixtureLines(name);
    const at = input.indexOf("Call Stack (most recent call first):");
    expect(input[at + 1]).toMatch(/^ {2}\/usr\/share\/cmake-3\.25\/Modules\/FindPackageHandle/);
    expect(foldStackFrames(input)).toEqual([
      ...input.slice(0, at + 1),
      "  … 2 frames in cmake modules folded …",
      ...input.slice(at + 3),
    ]);
  }
  // One module frame does not fold (its fold line would cost as much); a project's own frames
  // never do.
  const own = [
    "CMake Error at cmake/deps.cmake:2 (message):",
    "  missing codec",
    "Call Stack (most recent call first):",
    "  /usr/share/cmake-3.25/Modules/CMakeParseArguments.cmake:10 (message)",
    "  cmake/deps.cmake:5 (require_lib)",
    "  CMakeLists.txt:3 (include)",
  ];
  expect(foldStackFrames(own)).toEqual(own);
});

/** A fixture of tests/fixtures/generic/ through the engine with no rule, as `command` printed it. */
const filtered = (name: string, command: string, exitCode: number) =>
  engine.filter(command, fixtureLines(name).join("\n"), { failed: exitCode !== 0 }).text.split(
    "\n",
  );

Deno.test("a listing whose rows end in a path (npm pack --dry-run, tar -tv) folds by directory: small ones whole, big ones to their first and last entries", () => {
  // npm 11's `npm pack --dry-run` of a package shipping docs and tests (exit 0): its rows were
  // folded as chatter to the first and the last; each directory's rows are what it ships.
  const npm = filtered("listing_npm_pack_dry_run.txt", "npm pack --dry-run", 0);
  const rows = fixtureLines("listing_npm_pack_dry_run.txt");
  const dir = (d: string) => rows.filter((l) => l.includes(` ${d}/`));
  for (const d of ["lib/projections", "docs/api"]) {
    expect(npm.filter((l) => l.includes(` ${d}/`))).toEqual(dir(d));
  }
  for (const d of ["lib/shapes", "test/snapshots", "test/unit"]) {
    expect(npm.filter((l) => l.includes(`${d}/`))).toEqual([
      dir(d)[0],
      `${d}/ … (12 entries folded)`,
      dir(d).at(-1),
    ]);
  }
  expect(npm).toContain("npm notice 6B .env.local");
  expect(npm.slice(-12)).toEqual(rows.slice(-12));
  // GNU tar 1.34's `tar -tvzf` of the same tree (mode, owner, size, date, time, path), in the
  // archive's order: the directories' own lines stay.
  const tar = filtered("listing_tar_tv.txt", "tar -tvzf geo.tgz", 0);
  const entries = fixtureLines("listing_tar_tv.txt");
  const under = (d: string) =>
    entries.filter((l) => l.includes(`fix28-pack/${d}/`) && !l.endsWith("/"));
  expect(tar.filter((l) => l.includes("fix28-pack/lib/projections/"))).toEqual(
    entries.filter((l) => l.includes("fix28-pack/lib/projections/")),
  );
  expect(tar.filter((l) => l.includes("fix28-pack/test/unit/"))).toEqual([
    entries.find((l) => l.endsWith(" fix28-pack/test/unit/")),
    under("test/unit")[0],
    "fix28-pack/test/unit/ … (12 entries folded)",
    under("test/unit").at(-1),
  ]);
  expect(tar).toContain(entries.find((l) => l.endsWith("/.env.local")));
  expect(tar.length).toBeLessThan(entries.length);
  // Rows whose columns count progress (`[3/80]`) are a log, not a listing: they fold as one shape.
  const log = Array.from(
    { length: 80 },
    (_, i) => `[${i + 1}/80] Building C object src/m${i % 4}/u${i}.c.o`,
  );
  expect(foldPathListing(log)).toEqual(log);
});

Deno.test("a crashed tool's frames nearest its call into the library that raised stay when the trace has no frame in the user's code", () => {
  // jekyll 4.3.1 (Debian's gems) on a `_config.yml` that does not parse, `--trace`: psych raised
  // it; jekyll's frames in the file that called psych and in its caller's say which file it was
  // loading and how; its command dispatch and mercenary's frames fold.
  const trace = fixtureLines("tool_trace_jekyll_config.txt");
  expect(filtered("tool_trace_jekyll_config.txt", "jekyll build --trace", 1)).toEqual([
    ...trace.slice(0, 2),
    "\t… 2 frames in ruby stdlib folded …",
    ...trace.slice(4, 11),
    "\t… 13 frames in jekyll, mercenary folded …",
    ...trace.slice(24),
  ]);
  // The same trace under a command that runs another program folds jekyll's frames too.
  expect(filtered("tool_trace_jekyll_config.txt", "ruby build.rb", 1)).toEqual([
    ...trace.slice(0, 2),
    "\t… 22 frames in ruby stdlib, jekyll, mercenary folded …",
    ...trace.slice(24),
  ]);
  // eslint 8 (`NODE_OPTIONS=--stack-trace-limit=40`) on an `.eslintrc.yml` that does not parse:
  // js-yaml raised it; @eslint/eslintrc's frames (a package of eslint's scope) and eslint's file
  // enumerator above them stay.
  const eslint = fixtureLines("tool_trace_eslint_rc.txt");
  const at = (lines: string[]) => lines.filter((l) => /^ {4}\S/.test(l));
  const frames = at(eslint);
  expect(at(filtered("tool_trace_eslint_rc.txt", "npx eslint a.js", 2))).toEqual([
    frames[0],
    "    … 10 frames in js-yaml folded …",
    ...frames.slice(11, 19),
    "    … 5 frames in native, eslint folded …",
  ]);
  // The yaml package's CLI (Node 20) raising its own parse error: the tool's frames are where it
  // raised it, and fold as a library's.
  expect(at(filtered("tool_trace_yaml_cli.txt", "npx yaml valid", 1))).toEqual([
    at(fixtureLines("tool_trace_yaml_cli.txt"))[0],
    "    … 9 frames in yaml folded … {",
  ]);
  // rake 13 running a project's Rakefile that fails: the Rakefile's frame is the user's code, so
  // rake's own frames fold as a library's.
  const rake = filtered("tool_trace_rake_project.txt", "rake --trace", 1);
  expect(rake).toContain("/home/dev/site-tasks/Rakefile:3:in `block in <top (required)>'");
  expect(rake.filter((l) => l.includes("gems/rake-13.0.6"))).toEqual([]);
  expect(rake).toContain("… 23 frames in rake folded …");
});
