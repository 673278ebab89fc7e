/**
 * Warning storms with no rule (src/filter/generic_warnings.ts), on real runs of `ruby -w`,
 * `python3 -W always`, `perl -w` and PHP with E_ALL (tests/fixtures/generic/warnings_*): a
 * library's warnings fold to a count, a project's kind that recurs keeps its first and last
 * warnings and the locations between (counted past what one line holds), and the crash after the
 * storm stays.
 */
import { expect } from "expect";
import { FilterEngine } from "../../src/filter/mod.ts";
import { LONG_LINE } from "../../src/filter/generic.ts";
import {
  dropWarnCallEchoes,
  foldWarningStorms,
  warningKind,
} from "../../src/filter/generic_warnings.ts";

const engine = new FilterEngine([], { security: false });
const fixture = (name: string) =>
  Deno.readTextFile(new URL(`../fixtures/generic/${name}`, import.meta.url));

Deno.test("ruby -w: a file loaded three times keeps each redefined name once, its repeats by line; the gem's warnings fold; the crash stays", async () => {
  const input = await fixture("warnings_ruby_w.txt");
  const out = engine.filter("ruby -w app.rb", input, { failed: true }).text;
  const lines = out.split("\n");
  expect(lines.length).toBeLessThan(input.split("\n").length / 2);
  expect(lines).toContain(
    `… 3 warnings in rubocop-ast's files ("mismatched indentations at …") folded …`,
  );
  // Each constant and method redefined is named once as printed, the repeats by location; the
  // last warning of each kind (the second load's LOCALE and prune) is printed again where it was.
  for (const [name, times] of [["TIMEOUT", 1], ["PORT", 1], ["LOCALE", 2]] as const) {
    expect(lines.filter((line) => line.endsWith(`already initialized constant Settings::${name}`)))
      .toHaveLength(times);
  }
  for (const [name, times] of [["load", 1], ["prune", 2]] as const) {
    expect(lines.filter((line) => line.endsWith(`discarding old ${name}`))).toHaveLength(times);
  }
  expect(lines).toContain(
    `… 19 more warnings "already initialized constant …" at /tmp/zeph-r15/rb/lib/settings.rb lines 2-20 …`,
  );
  expect(out).toContain(
    `… 14 more warnings "method redefined; discarding …" at /tmp/zeph-r15/rb/lib/settings.rb lines 25, 30, 35,`,
  );
  // Every place the unused variable is assigned is named.
  for (let n = 26; n <= 96; n += 5) expect(out).toMatch(new RegExp(`lines [\\d, ]*\\b${n}\\b`));
  expect(out).toContain("app.rb:13:in `fetch': key not found: :qty (KeyError)");
  expect(out).toContain("\tfrom app.rb:18:in `<main>'");
});

Deno.test("python -W, perl -w and PHP's notices fold by kind; the traceback, die's message and the fatal error stay", async () => {
  const py = engine.filter("python3 -W always app.py", await fixture("warnings_python_w.txt"), {
    failed: true,
  }).text;
  expect(py).toContain(
    `… 6 more warnings "DeprecationWarning: … is deprecated, …" at /tmp/zeph-r15/py/app.py line 5 …`,
  );
  expect(py).toContain(
    "/tmp/zeph-r15/py/app.py:5: DeprecationWarning: legacy() is deprecated, item 7",
  );
  expect(py).toContain("ZeroDivisionError: division by zero");
  const pl = engine.filter("perl -w app.pl", await fixture("warnings_perl_w.txt"), {
    failed: true,
  }).text;
  expect(pl).toContain(`… 4 more warnings "Use of uninitialized …" at app.pl line 3 …`);
  expect(pl).toContain("cannot open config: No such file or directory");
  const php = engine.filter("php app.php", await fixture("warnings_php_e_all.txt"), {
    failed: true,
  }).text;
  expect(php).toContain(
    `… 12 more warnings "Warning: Undefined variable …" at /tmp/zeph-r15/php/app.php line 7 …`,
  );
  expect(php).toContain(
    "PHP Fatal error:  Uncaught DivisionByZeroError: Division by zero in /tmp/zeph-r15/php/app.php:9",
  );
});

Deno.test("a kind seen fewer than six times, errors and lines that only look located stay as printed", () => {
  const input = [
    "a.rb:1: warning: assigned but unused variable - x",
    "a.rb:2: warning: assigned but unused variable - y",
    "a.rb:3: warning: assigned but unused variable - z",
    "a.rb:4: warning: assigned but unused variable - w",
    "a.rb:5: warning: assigned but unused variable - v",
    "src/a.c:9: error: expected ';'",
    "notes.txt:12: warning signs everywhere",
  ];
  expect(foldWarningStorms(input)).toBe(input);
});

Deno.test("a warning's kind is its first words, a word that names something standing as …", () => {
  expect(warningKind("already initialized constant Settings::TIMEOUT")).toBe(
    "already initialized constant",
  );
  expect(warningKind("Warning: Undefined variable $total")).toBe("Warning: Undefined variable");
  expect(warningKind("DeprecationWarning: legacy() is deprecated, item 3")).toBe(
    "DeprecationWarning: … is deprecated,",
  );
  expect(warningKind("'x' \"y\"")).toBe("");
});

Deno.test("an indented line under a folded warning that reads as a failure stays", () => {
  const input = [
    ...Array.from(
      { length: 6 },
      (_, i) => `lib/a.rb:${i + 1}: warning: method redefined; discarding old m`,
    ),
    "  Error: connection refused",
  ];
  const out = foldWarningStorms(input);
  expect(out).toEqual([
    "lib/a.rb:1: warning: method redefined; discarding old m",
    `… 4 more warnings "method redefined; discarding …" at lib/a.rb lines 2-5 …`,
    "lib/a.rb:6: warning: method redefined; discarding old m",
    "  Error: connection refused",
  ]);
});

Deno.test("gcc in nested node_modules: each package's warnings fold under the package whose code it is", async () => {
  // Real gcc -Wall runs over node_modules/a/src/*.c and node_modules/a/node_modules/b/src/*.c.
  const input = await fixture("warnings_gcc_nested_node_modules.txt");
  const out = engine.filter("node-gyp rebuild", input).text;
  expect(out).toContain(`… 6 warnings in b's files ("unused variable … …") folded …`);
  expect(out).toContain(`… 6 warnings in a's files ("unused variable … …") folded …`);
});

Deno.test("a kind keeps one warning per distinct message: a quoted key, a variable or a call names its own", async () => {
  const php = engine.filter("php app.php", await fixture("warnings_distinct_php.txt")).text;
  for (
    const line of [
      'PHP Warning:  Undefined array key "name" in /tmp/zeph-r16/php/app.php on line 6',
      'PHP Warning:  Undefined array key "amount" in /tmp/zeph-r16/php/app.php on line 7',
      "PHP Warning:  Undefined array key 12 in /tmp/zeph-r16/php/app.php on line 10",
    ]
  ) expect(php.split("\n")).toContain(line);
  const perl = engine.filter("perl -w app.pl", await fixture("warnings_distinct_perl.txt")).text;
  for (
    const line of [
      "Use of uninitialized value $name in concatenation (.) or string at app.pl line 5.",
      "Use of uninitialized value $city in concatenation (.) or string at app.pl line 6.",
    ]
  ) expect(perl.split("\n")).toContain(line);
  const py =
    engine.filter("python3 -W always app.py", await fixture("warnings_distinct_python.txt"))
      .text;
  for (
    const line of [
      "/tmp/zeph-r16/py/app.py:7: DeprecationWarning: old_fetch() is deprecated, use fetch()",
      "/tmp/zeph-r16/py/app.py:8: DeprecationWarning: old_store() is deprecated, use store()",
    ]
  ) expect(py.split("\n")).toContain(line);
  // The repeats of each message still fold, every location named.
  for (const out of [php, perl, py]) expect(out.split("\n").length).toBeLessThan(12);
});

Deno.test("a message's numbers do not make it distinct; its names do", () => {
  const input = [
    ...Array.from({ length: 4 }, (_, i) => `a.php:${i + 1}: warning: Undefined array key ${i}`),
    ...Array.from({ length: 4 }, (_, i) => `a.php:${i + 9}: warning: Undefined array key "k"`),
  ];
  expect(foldWarningStorms(input)).toEqual([
    "a.php:1: warning: Undefined array key 0",
    `… 5 more warnings "Undefined array key …" at a.php lines 2-4, 10-11 …`,
    'a.php:9: warning: Undefined array key "k"',
    'a.php:12: warning: Undefined array key "k"',
  ]);
});

Deno.test("warnings from one place fold whatever names their messages quote: a loop's line warns of each value", async () => {
  const input = await fixture("warnings_one_place_python.txt");
  const lines = engine.filter("python3 -X dev res.py", input).text.split("\n");
  expect(lines).toContain(
    "/tmp/zeph-r16/py/res.py:8: ResourceWarning: unclosed file <_io.TextIOWrapper name='data_0.txt' mode='r' encoding='UTF-8'>",
  );
  expect(lines).toContain(
    `… 8 more warnings "ResourceWarning: unclosed file …" at /tmp/zeph-r16/py/res.py line 8 …`,
  );
  expect(lines).toContain(
    "/tmp/zeph-r16/py/res.py:8: ResourceWarning: unclosed file <_io.TextIOWrapper name='data_9.txt' mode='r' encoding='UTF-8'>",
  );
  expect(lines.filter((line) => line.includes("unclosed file"))).toHaveLength(3);
});

Deno.test("a Python warning loses the echo of the warnings.warn call that printed it; a caller's echo stays", () => {
  // python3.11 -W default on a script warning through a helper (stacklevel=2) and directly.
  const input = [
    "/srv/app/warn.py:6: DeprecationWarning: old_api is deprecated, use new_api",
    "  old_api(i)",
    "/srv/app/warn.py:8: UserWarning: config key 'timeout' is ignored",
    `  warnings.warn("config key 'timeout' is ignored", UserWarning)`,
    "fatal: cannot open database",
  ];
  const out = engine.filter("python3 warn.py", input.join("\n"), { failed: true }).text;
  expect(out.split("\n")).toEqual([input[0], input[1], input[2], input[4]]);
  // Under pytest's summary the warning is indented too: the echo goes when deeper.
  const pytest = [
    "  /srv/app/report.py:6: RuntimeWarning: ratio with zero denominator",
    '    warnings.warn("ratio with zero denominator", RuntimeWarning)',
  ];
  expect(dropWarnCallEchoes(pytest)).toEqual([pytest[0]]);
  // A `warn(` line that follows no warning, or sits no deeper than it, stays.
  const plain = ["Running checks", '  warnings.warn("x")', "a.py:1: UserWarning: x", 'warn("x")'];
  expect(dropWarnCallEchoes(plain)).toBe(plain);
});

Deno.test("a storm over more places than a line holds lists what fits, counts the rest and keeps its last warning as printed", async () => {
  // Real runs: `ruby -w` loading 120 handler files that each assign an unused variable (one place
  // in each of many files), and `python3 -W always` calling a deprecated function on every other
  // line of one file (many places in one file).
  const cases = [
    {
      command: "ruby -w app.rb",
      input: await fixture("warnings_ruby_w_many_files.txt"),
      first:
        "/tmp/fix26-rbwarn/lib/handlers/invoice_create.rb:3: warning: assigned but unused variable - scratch",
      fold:
        /^… 118 more warnings "assigned but unused …" at (.+); 108 more places in 108 files not listed …$/,
      listed: 10,
      last:
        "/tmp/fix26-rbwarn/lib/handlers/quota_retry.rb:3: warning: assigned but unused variable - scratch",
      failure: "app.rb:123:in `<main>': handler table is empty (ArgumentError)",
    },
    {
      command: "python3 -W always billing.py",
      input: await fixture("warnings_python_w_scattered.txt"),
      first:
        "/tmp/fix26-pywarn/billing.py:8: DeprecationWarning: old_rate is deprecated, use rate()",
      fold:
        /^… 238 more warnings "DeprecationWarning: old_rate is …" at \/tmp\/fix26-pywarn\/billing\.py lines ([\d, ]+); 116 more places in 1 file not listed …$/,
      listed: 122,
      last:
        "/tmp/fix26-pywarn/billing.py:486: DeprecationWarning: old_rate is deprecated, use rate()",
      failure: "ZeroDivisionError: division by zero",
    },
  ];
  for (const c of cases) {
    const lines = engine.filter(c.command, c.input, { failed: true }).text.split("\n");
    const fold = lines.find((line) => c.fold.test(line));
    expect(fold).toBeDefined();
    // The fold line is short enough that no long-line cut takes its count of what it leaves out.
    expect(fold!.length).toBeLessThanOrEqual(LONG_LINE);
    expect(fold).not.toContain("chars cut");
    const listed = c.fold.exec(fold!)![1];
    expect(listed.split(/[;,] /)).toHaveLength(c.listed);
    // The first and the last warning as printed, in their places, and the failure after them.
    const at = (line: string) => lines.indexOf(line);
    expect(at(c.first)).toBeLessThan(at(fold!));
    expect(at(fold!)).toBeLessThan(at(c.last));
    expect(at(c.last)).toBeLessThan(at(c.failure));
  }
});
