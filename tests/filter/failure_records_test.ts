/**
 * A run whose exit code hides its failure (`| tee`, `|| true`, a go that exits 0 after a failed
 * benchmark) is filtered as a failed run when its output holds a failure record a matched rule
 * knows: every stage that folds more on a passing run asks whether the output failed too.
 * Real captures, each piped through `tee` (exit 0).
 */
import { expect } from "expect";
import { compileRule, explainFilter, FilterEngine } from "../../src/filter/mod.ts";
import { builtinEngine, filter } from "./_builtin.ts";

/** go test of a package whose TestMain cannot set up: its log says why, then `FAIL\tpkg`. */
const GO_SETUP = [
  "ok  \texample.com/svc/api\t0.010s",
  "2026/11/28 20:27:05 connecting to postgres://app@127.0.0.1:5999/app_test",
  "2026/11/28 20:27:05 setup failed: dial tcp 127.0.0.1:5999: connect: connection refused",
  "FAIL\texample.com/svc/db\t0.005s",
  "FAIL",
].join("\n");

/** go test of a package whose test does not compile: the type checker's have/want lines. */
const GO_BUILD = [
  "# example.com/kv/store [example.com/kv/store.test]",
  "store/store_test.go:9:39: too many arguments in call to Open",
  "\thave (context.Context, string)",
  "\twant (string)",
  "store/store_test.go:13:14: s.Close undefined (type *Store has no field or method Close)",
  "FAIL\texample.com/kv/store [build failed]",
  "FAIL",
].join("\n");

/** git push refused by a pre-receive hook: the hook's reasons come as `remote:` lines. */
const GIT_PUSH = [
  "remote: ERROR: commit 4ef2c73 names no ticket: add file 3        ",
  "remote: ERROR: commit fd01c6e names no ticket: add file 2        ",
  "remote: ERROR: commit 7c4bff6 names no ticket: add file 1        ",
  "remote: Push rejected: every commit must name a ticket (TICKET-123).        ",
  "To /tmp/mend5-git/origin.git",
  " ! [remote rejected] HEAD -> main (pre-receive hook declined)",
  "error: failed to push some refs to '/tmp/mend5-git/origin.git'",
].join("\n");

/** go test -bench -count 3 where one sub-benchmark fails (`b.Errorf`). */
const GO_BENCH = [
  "goos: linux",
  "goarch: amd64",
  "pkg: example.com/benchy",
  "cpu: AMD EPYC",
  "BenchmarkConcat/n=10-2        \t    2000\t       348.2 ns/op",
  "BenchmarkConcat/n=10-2        \t    2000\t       296.3 ns/op",
  "BenchmarkConcat/n=10-2        \t    2000\t       518.4 ns/op",
  "--- FAIL: BenchmarkConcat/n=100",
  "    calc_test.go:31: Concat(100) length = 200, want 199",
  "--- FAIL: BenchmarkConcat",
  "BenchmarkSprintf-2            \t    2000\t       122.2 ns/op",
  "FAIL",
  "exit status 1",
  "FAIL\texample.com/benchy\t1.027s",
].join("\n");

const CASES = [
  {
    command: "go test -count=1 ./... | tee setup.txt",
    text: GO_SETUP,
    record: "FAIL\texample.com/svc/db\t0.005s",
    kept: ["setup failed: dial tcp 127.0.0.1:5999: connect: connection refused"],
  },
  {
    command: "go test ./... | tee build.txt",
    text: GO_BUILD,
    record: "FAIL\texample.com/kv/store [build failed]",
    kept: ["\thave (context.Context, string)", "\twant (string)"],
  },
  {
    command: "git push origin HEAD:main 2>&1 | tee push.txt",
    text: GIT_PUSH,
    record: " ! [remote rejected] HEAD -> main (pre-receive hook declined)",
    kept: ["remote: ERROR: commit 7c4bff6 names no ticket: add file 1"],
  },
  {
    command: "go test -bench . -count 3",
    text: GO_BENCH,
    record: "--- FAIL: BenchmarkConcat/n=100",
    kept: ["    calc_test.go:31: Concat(100) length = 200, want 199"],
  },
];

Deno.test("an output holding a failure record is filtered as a failed run's, whatever the exit code", () => {
  for (const { command, text, record, kept } of CASES) {
    expect({ command, record: builtinEngine.failureRecord(command, text) }).toEqual({
      command,
      record,
    });
    const passed = filter(command, text, false);
    expect({ command, text: passed }).toEqual({ command, text: filter(command, text, true) });
    for (const line of kept) expect(passed).toContain(line);
  }
});

Deno.test("a passing run's output holds no failure record", () => {
  const passing = [
    ["go test ./...", "ok  \texample.com/svc/api\t0.010s\nok  \texample.com/svc/db\t(cached)"],
    [
      "cargo test",
      "running 2 tests\ntest a ... ok\ntest b ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
    ],
    // TAP's `# TODO` marks an expected failure, `# SKIP` a test not run.
    [
      "node --test",
      "not ok 1 - parses dates # TODO not written yet\nnot ok 2 - on windows # SKIP\nok 3 - sums\n# fail 0",
    ],
    ["pytest", "tests/test_a.py ..x.  [100%]\n=== 3 passed, 1 xfailed in 0.12s ==="],
    ["git push origin main", "To ../origin.git\n   1a2b3c4..5d6e7f8  main -> main"],
  ];
  for (const [command, text] of passing) {
    expect({ command, record: builtinEngine.failureRecord(command, text) }).toEqual({
      command,
      record: null,
    });
  }
});

Deno.test("a rule's failure_records make its failed-run patterns apply to an output that exited 0", () => {
  const engine = new FilterEngine([
    compileRule({
      name: "deploy",
      match: { prefix: "deploy" },
      failure_records: ["^deploy failed: "],
      strategy: {
        type: "strip_noise",
        patterns: ["^uploading "],
        failed_patterns: ["^step \\d+ ok$"],
      },
    }, "test"),
  ]);
  const failed = "uploading a.tar\nstep 1 ok\nstep 2 ok\ndeploy failed: disk full";
  expect(engine.filter("deploy prod || true", failed).text).toBe("deploy failed: disk full");
  // Without the record the run passed: its steps say what it did.
  const passed = "uploading a.tar\nstep 1 ok\nstep 2 ok\ndeployed";
  expect(engine.filter("deploy prod", passed).text).toBe("step 1 ok\nstep 2 ok\ndeployed");
  // A pattern of the field is checked as the rule's others are.
  expect(() =>
    compileRule({
      name: "bad",
      match: { prefix: "x" },
      failure_records: ["(unclosed"],
      strategy: { type: "strip_noise", patterns: ["^a"] },
    }, "test")
  ).toThrow(/failure_records\[0\]/);
});

Deno.test("--explain says which record made an exit-0 output a failed run's", () => {
  const out = explainFilter(builtinEngine, CASES[0].command, GO_SETUP, { failed: false });
  expect(out).toContain(
    `a failed run's output (a matched rule's failure record: ${JSON.stringify(CASES[0].record)})`,
  );
  const failed = explainFilter(builtinEngine, CASES[0].command, GO_SETUP, { failed: true });
  expect(failed.some((line) => line.includes("failure record"))).toBe(false);
});
