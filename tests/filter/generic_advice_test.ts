/**
 * Advice and decoration (src/filter/generic_advice.ts), on real short failures of gradle, Maven
 * (with and without its rule), rustc, a Rust panic, ls, kubectl, docker, npm, rake, valgrind
 * and javac: the lines on how to get more output or help go, through the no-rule path and after
 * a rule alike; every error, location and count line stays as printed; lines that only look
 * like advice stay; an output of nothing but advice stays whole; hostile inputs take linear time.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";
import { foldAdvice, isAdvice, isDecoration } from "../../src/filter/generic_advice.ts";
import { threadCpuMs } from "../_support/timing.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const GENERIC = new URL("../fixtures/generic/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(`advice_${name}.txt`, GENERIC));

const CASES: {
  name: string;
  command: string;
  exit: number;
  /** Lines that stay as printed. */
  kept: string[];
  /** Text that no line of the output contains any more. */
  gone: string[];
}[] = [
  {
    name: "gradle_compile",
    command: "timeout 300 gradle --offline -q compileJava",
    exit: 1,
    kept: [
      "/work/demo/gr/src/main/java/A.java:1: error: incompatible types: String cannot be converted to int",
      "* What went wrong:",
      "> Compilation failed; see the compiler error output for details.",
      "BUILD FAILED in 9s",
    ],
    gone: ["* Try:", "Run with --stacktrace", "Get more help at"],
  },
  {
    name: "mvn_offline",
    command: "timeout 300 mvn -o -q compile",
    exit: 1,
    kept: [],
    gone: [
      "re-run Maven",
      "Re-run Maven",
      "please read the following articles",
      "cwiki.apache.org",
    ],
  },
  {
    name: "mvn_nopom",
    command: "cd /tmp && mvn -o validate",
    exit: 1,
    kept: [
      "[ERROR] The goal you specified requires a project to execute but there is no POM in this directory (/tmp). Please verify you invoked Maven from the correct directory. -> [Help 1]",
    ],
    gone: ["-X switch", "[Help 1] http"],
  },
  {
    name: "rustc_mismatch",
    command: "rustc main.rs",
    exit: 1,
    kept: [
      "error[E0308]: mismatched types",
      " --> main.rs:1:26",
      "error: aborting due to 1 previous error",
    ],
    gone: ["rustc --explain"],
  },
  {
    name: "rust_panic",
    command: "./p",
    exit: 101,
    kept: [
      "thread 'main' (4798) panicked at p.rs:1:55:",
      "index out of bounds: the len is 0 but the index is 3",
    ],
    gone: ["RUST_BACKTRACE=full"],
  },
  {
    name: "ls_badopt",
    command: "ls -z",
    exit: 2,
    kept: ["ls: invalid option -- 'z'"],
    gone: ["ls --help"],
  },
  {
    name: "kubectl_bad",
    command: "kubectl get pods --bogus",
    exit: 1,
    kept: ["Error: unknown flag: --bogus"],
    gone: ["kubectl get --help"],
  },
  {
    name: "docker_run_bad",
    command: "docker run --bogus-flag alpine",
    exit: 125,
    kept: ["unknown flag: --bogus-flag", "Usage:  docker run [OPTIONS] IMAGE [COMMAND] [ARG...]"],
    gone: ["docker run --help"],
  },
  {
    name: "npm_install_bad",
    command: "timeout 120 npm install nonexistent-package-zz-qq --no-audit --no-fund",
    exit: 1,
    kept: [
      "npm error code E404",
      "npm error 404 Not Found - GET https://registry.npmjs.org/nonexistent-package-zz-qq",
    ],
    gone: ["A complete log of this run"],
  },
  {
    name: "rake_fail",
    command: "rake",
    exit: 1,
    kept: [
      "rake aborted!",
      "boom in rake",
      "/work/demo/rb/Rakefile:2:in `block in <top (required)>'",
    ],
    gone: ["--trace"],
  },
  {
    name: "valgrind_short",
    command: "valgrind ./a",
    exit: 0,
    kept: ["==4084== Invalid write of size 4"],
    gone: ["rerun with: -s", "Rerun with --leak-check=full"],
  },
  {
    name: "javac_xlint",
    command: "javac B.java",
    exit: 1,
    kept: ["B.java:2: error: incompatible types: String cannot be converted to int", "1 error"],
    gone: ["Recompile with -Xlint"],
  },
];

for (const c of CASES) {
  Deno.test(`advice: ${c.name} loses its advice and keeps its failure as printed`, () => {
    const raw = read(c.name);
    const out = engine.filter(c.command, raw, { failed: c.exit !== 0 }).text;
    const lines = out.split("\n");
    for (const line of c.kept) expect(lines).toContain(line);
    for (const text of c.gone) expect(out).not.toContain(text);
    // Every line left ends a line of the input (ANSI escapes and a rule's prefix cut aside).
    // deno-lint-ignore no-control-regex
    const input = raw.replace(/\x1b\[[0-9;]*m/g, "").split("\n").map((l) => l.trim());
    for (const line of lines.map((l) => l.trim()).filter((l) => l && !/^\[\w+\] |^…/.test(l))) {
      expect([line, input.some((l) => l.endsWith(line))]).toEqual([line, true]);
    }
  });
}

Deno.test("advice: one sentence per tool family is advice", () => {
  for (
    const line of [
      "Try 'ls --help' for more information.",
      "Try 'tar --help' or 'tar --usage' for more information.",
      "curl: try 'curl --help' or 'curl --manual' for more information",
      "Try `wget --help' for more options.",
      "info Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.",
      "For more information, try '--help'.",
      "For more information try --help",
      "See 'docker run --help'.",
      "Run 'kubectl get --help' for usage.",
      'Use "kubectl <command> --help" for more information about a given command.',
      'npm error Run "npm help ci" for more info',
      "For more information about this error, try `rustc --explain E0308`.",
      "Some errors have detailed explanations: E0382, E0502.",
      "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
      "> Run with --stacktrace option to get the stack trace.",
      "> Run with --info or --debug option to get more log output.",
      "> Run with --scan to get full insights.",
      "> Get more help at https://help.gradle.org.",
      "Run with --stacktrace option to get the stack trace. Run with --info or --debug option to get more log output.",
      "[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.",
      "[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MissingProjectException",
      "npm ERR! A complete log of this run can be found in:",
      "npm ERR!     /root/.npm/_logs/2020-01-01T00_00_00_000Z-debug.log",
      "(See full trace by running task with --trace)",
      "Use --trace to view backtrace",
      "[notice] A new release of pip is available: 23.0.1 -> 24.0",
      "[notice] To update, run: pip install --upgrade pip",
      "npm notice New major version of npm available! 10.2.4 -> 11.0.0",
      "npm notice Changelog: https://github.com/npm/cli/releases/tag/v11.0.0",
      'hint: Disable this message with "git config advice.detachedHead false"',
      "==4084== For lists of detected and suppressed errors, rerun with: -s",
      "Note: Recompile with -Xlint:unchecked for details.",
    ]
  ) expect([line, isAdvice(line)]).toEqual([line, true]);
});

Deno.test("advice: lines that only look like advice stay", () => {
  for (
    const line of [
      "error: test failed, to rerun pass `--lib`",
      "help: you can convert an `i64` to a `u8` and panic if the converted value doesn't fit",
      "help: consider borrowing here: `&x`",
      "[ERROR] Failed to execute goal x on project y: compilation failure -> [Help 1]",
      "Run with --force to overwrite the existing files.",
      "Run `npm install` to install missing dependencies.",
      "See the pkg-config man page for more details.",
      "No composer.lock file present. See https://getcomposer.org/install for more information.",
      "[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch. The pom is broken.",
      "Usage: grep [OPTION]... PATTERNS [FILE]...",
      "  -h, --help             display help for command",
      "Error: unknown flag: --help",
      "hint: Updates were rejected because the remote contains work that you do not",
      "2 errors and 0 warnings potentially fixable with the `--fix` option.",
      "x".repeat(3000) + " Try 'ls --help' for more information.",
    ]
  ) expect([line, isAdvice(line)]).toEqual([line, false]);
});

Deno.test("advice: decoration lines go, tables and YAML markers stay", () => {
  for (
    const line of [
      "------",
      "[INFO] ------------------------------------------------------------------------",
      "======================================================================",
      "────────────────────────────",
      "* * * *",
    ]
  ) expect([line, isDecoration(line)]).toEqual([line, true]);
  for (
    const line of [
      "---",
      "-- ",
      "------  ------",
      "+----+----+",
      "|---|---|",
      "=== RUN   TestX",
      "--- FAIL: TestX (0.00s)",
      "=================================== FAILURES ===================================",
    ]
  ) expect([line, isDecoration(line)]).toEqual([line, false]);
});

Deno.test("advice: a run of marks under the code line it points into stays; an underline goes", () => {
  // tsc --pretty's frames as a rule leaves them (its colours sanitised away).
  const frames = [
    "src/invoice.ts:9:26 - error TS2551: Property 'totl' does not exist on type 'Invoice'.",
    "9   return `${label} ${inv.totl} ${inv.currency}`;",
    "                           ~~~~",
    "    3   total: number;",
    "        ~~~~~",
    "    'total' is declared here.",
  ];
  expect(foldAdvice(frames)).toEqual(frames);
  // Marks under nothing, or starting where the line above starts (an underline), are decoration.
  expect(foldAdvice(["Summary", "~~~~~~~", "  Results", "  ~~~~~~~", "ok", "", "    ~~~~"]))
    .toEqual(["Summary", "  Results", "ok"]);
});

Deno.test("advice: an output of nothing but advice and decoration stays whole", () => {
  const lines = ["Try 'ls --help' for more information.", "------"];
  expect(foldAdvice(lines)).toEqual(lines);
  expect(engine.filter("ls -z", lines.join("\n"), { failed: true }).text).toBe(lines.join("\n"));
});

Deno.test("advice: prefix-only lines go only beside folded advice", () => {
  expect(foldAdvice([
    "[ERROR] Failed to execute goal x -> [Help 1]",
    "[ERROR] ",
    "[ERROR] Re-run Maven using the -X switch to enable full debug logging.",
    "[ERROR] ",
    "[ERROR] Compilation failure",
    "[ERROR] ",
    "[ERROR] Second failure",
  ])).toEqual([
    "[ERROR] Failed to execute goal x -> [Help 1]",
    "[ERROR] Compilation failure",
    "[ERROR] ",
    "[ERROR] Second failure",
  ]);
});

Deno.test("advice: hostile inputs take linear time and keep their failures", () => {
  const long = "Run with " + "--x or ".repeat(15_000) + "--y to get more output.";
  const many = Array.from(
    { length: 100_000 },
    (_, i) =>
      i % 3 === 0
        ? "[ERROR] "
        : i % 3 === 1
        ? "* Try:"
        : i % 1000 === 2
        ? `error: failure ${i}`
        : "> Run with --stacktrace option to get the stack trace.",
  );
  const start = threadCpuMs();
  expect(foldAdvice([long])).toEqual([long]);
  const out = foldAdvice(many);
  const outText = engine.filter("some-tool", many.join("\n"), { failed: true }).text;
  const ms = threadCpuMs() - start;
  expect(out.filter((l) => l.startsWith("error: failure")))
    .toEqual(many.filter((l) => l.startsWith("error: failure")));
  expect(out.some((l) => l.includes("Run with --stacktrace"))).toBe(false);
  expect(outText).toContain("error: failure 2");
  expect(ms).toBeLessThan(3000);
});

Deno.test("advice: where a usage listing folded, the tool's pointer to its help stays", () => {
  const raw = Deno.readTextFileSync(
    new URL("../../bench/corpus/usage/npm_ci_no_lockfile.txt", import.meta.url),
  );
  const out = engine.filter("npm ci", raw, { failed: true }).text.split("\n");
  expect(out).toContain('npm error Run "npm help ci" for more info');
  expect(out.some((l) => l.includes("lines of usage folded"))).toBe(true);
  expect(out.some((l) => l.includes("A complete log of this run"))).toBe(false);
  // Without a usage fold the same pointer goes.
  expect(foldAdvice(["npm error code E404", 'npm error Run "npm help ci" for more info']))
    .toEqual(["npm error code E404"]);
});
