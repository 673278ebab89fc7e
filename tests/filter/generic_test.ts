/** The generic pass over outputs no rule matches. */
import { expect } from "expect";
import { FilterEngine } from "../../src/filter/mod.ts";
import { cutMiddle, genericStage, isProgress, LONG_LINE } from "../../src/filter/generic.ts";
import { filter, lines } from "./_builtin.ts";

const engine = new FilterEngine([], { security: false });

Deno.test("repeated lines collapse with a count; progress and spinner lines go", () => {
  const input = [
    "starting sync",
    "[#####.....] 50% downloading",
    "⠋ resolving packages",
    "retrying connection",
    "retrying connection",
    "retrying connection",
    "retrying connection",
    "done: 3 files",
    "}",
    "}",
  ].join("\n");
  const out = engine.filter("mytool sync", input);
  expect(out.text).toBe("starting sync\nretrying connection (x4)\ndone: 3 files\n}\n}");
  expect(out.stats.confidence).toBe("partial");
});

Deno.test("rows that differ only in a counter collapse with a count; a row whose text differs stays", async () => {
  // A program's rows `  1 | polling queue: empty` … numbered by a counter (`cargo run -q`).
  const input = await Deno.readTextFile(
    new URL("../fixtures/generic/counter_rows_cargo_run.txt", import.meta.url),
  );
  const expected = [
    "  1 | polling queue: empty (x40, numbered 1 to 40)",
    " 41 | polling queue: got job 7",
    " 42 | polling queue: empty (x19, numbered 42 to 60)",
    "done",
  ].join("\n");
  expect(engine.filter("./poll", input).text).toBe(expected);
  // The pass after a rule that left them (cargo's rules match `cargo run`) folds them too.
  expect(filter("cargo run -q", input)).toBe(expected);
  // Numbers that do not count up one by one, and rows whose text differs, are data: they stay.
  const data = ["1 | a", "2 | b", "3 | c", "5 | x", "9 | x", "12 | x"].join("\n");
  expect(engine.filter("./t", data).text).toBe(data);
  // A number inside a path or a word names a row of data, not a count.
  const paths = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `    ├ /products/${n}`).join("\n");
  expect(engine.filter("./t", paths).text).toBe(paths);
  // A failure-looking row stays each time it is printed.
  const failing = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `attempt ${n} failed: connection refused`)
    .join("\n");
  expect(engine.filter("./t", failing).text).toBe(failing);
  // A short numbered list (fewer than six rows) is read row by row: it stays.
  const list = [1, 2, 3, 4, 5].map((n) => `item ${n} ok`).join("\n");
  expect(engine.filter("./t", list).text).toBe(list);
  expect(engine.filter("./t", `${list}\nitem 6 ok`).text).toBe("item 1 ok (x6, numbered 1 to 6)");
});

Deno.test("a progress-looking line that carries a failure stays", () => {
  expect(isProgress("[####......] 40% error: checksum mismatch")).toBe(false);
  expect(isProgress("████████░░ 80%")).toBe(true);
  // A markdown underline or a percentage on its own is not progress.
  expect(isProgress("=========")).toBe(false);
  expect(isProgress("Coverage: 85%")).toBe(false);
});

const generic = (name: string) =>
  Deno.readTextFile(new URL(`../fixtures/generic/${name}`, import.meta.url));

Deno.test("a message printed after a progress bar without a newline stays", async () => {
  // curl -# redraws its bar with `\r` and prints its error right after the last frame.
  expect(
    isProgress("######      16.0%curl: (18) transfer closed with 42000000 bytes remaining to read"),
  )
    .toBe(false);
  const raw = await generic("progress_curl_bar_closed.txt");
  const out = engine.filter("curl -# -o /dev/null http://127.0.0.1:18765/big.bin", raw, {
    failed: true,
  });
  expect(out.text).toContain("curl: (18) transfer closed with 42000000 bytes remaining to read");
});

Deno.test("a failed run's finished transfer bar goes; the failure stays", async () => {
  // pip's bar has no percentage: its amounts (`30.0/30.0 MB`, `258.7 MB/s`) say it is one.
  expect(
    isProgress("     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 30.0/30.0 MB 258.7 MB/s 0:00:00"),
  )
    .toBe(true);
  expect(isProgress("abc123: Downloading [=====>     ] 12.3MB/45.6MB")).toBe(false);
  const raw = await generic("progress_pip_download_invalid.txt");
  const out = engine.filter("pip download -d dl bigpkg", raw, { failed: true }).text.split("\n");
  expect(out.filter((line) => line.includes("━━━━"))).toEqual([]);
  expect(out).toContain(raw.split("\n").find((line) => line.startsWith("ERROR: Wheel 'bigpkg'")));
  expect(out).toContain(
    "  Downloading http://127.0.0.1:18766/bigpkg/bigpkg-1.0-py3-none-any.whl (30.0 MB)",
  );
});

Deno.test("a very long line is cut in the middle; the text around a failure signal stays", () => {
  const plain = "x".repeat(5000);
  const cut = cutMiddle(plain);
  expect(cut.length).toBeLessThan(LONG_LINE);
  expect(cut).toBe(`${"x".repeat(500)} …[4250 chars cut]… ${"x".repeat(250)}`);
  const signal = "a".repeat(3000) + " FATAL: disk full at /var/lib " + "b".repeat(3000);
  const kept = cutMiddle(signal);
  expect(kept).toContain("FATAL: disk full at /var/lib");
  expect(kept.length).toBeLessThan(1400);
  expect(engine.filter("mytool", `ok\n${plain}\nend`).text).toBe(`ok\n${cut}\nend`);
});

Deno.test("a long output keeps head, tail and every failure-signal line, wherever it is", () => {
  // Each step's own time: no counter run (those collapse before any cut); seven verbs in turn, so
  // that no run of lines of one shape folds before the cut either.
  const verbs = ["step", "check", "build", "copy", "link", "test", "pack"];
  const line = (i: number) => `${verbs[i % verbs.length]} ${i} fine in ${(i * 37) % 101}ms`;
  const lines = Array.from({ length: 2000 }, (_, i) => line(i));
  const signals = [160, 700, 701, 1500, 1849];
  for (const i of signals) lines[i] = `step ${i} error: unit ${i} failed`;
  const out = engine.filter("mytool run", lines.join("\n"), { failed: true });
  const kept = out.text.split("\n");
  for (const i of signals) expect(kept).toContain(`step ${i} error: unit ${i} failed`);
  expect(kept.slice(0, 150)).toEqual(lines.slice(0, 150));
  expect(kept.slice(-150)).toEqual(lines.slice(-150));
  expect(kept).toContain("... (10 lines omitted) ...");
  expect(kept.length).toBeLessThan(320);
});

Deno.test("programs that print content are left alone", () => {
  const input = "a\na\na\na\n" + "y".repeat(3000);
  for (const command of ["cat notes.txt", "cd /p && sed -n 1,40p x", "/usr/bin/head -50 f"]) {
    expect(engine.filter(command, input).text).toBe(input);
  }
  const off = new FilterEngine([], { security: false, generic: false });
  expect(off.filter("mytool", input).text).toBe(input);
});

Deno.test("JSON output with no rule goes through the json strategy's defaults", () => {
  const input = JSON.stringify(
    [
      { file: "a.py", errors: [] },
      { file: "b.py", errors: [{ line: 3, message: "undefined name 'x'" }] },
    ],
    null,
    2,
  );
  // Printed over several lines: its lines as printed.
  expect(engine.filter("mylint --json", input).text).toBe(
    [
      '    "file": "b.py",',
      '    "errors": [',
      '        "line": 3,',
      '        "message": "undefined name \'x\'"',
      "(1 passing items not shown)",
    ].join("\n"),
  );
  // On one line: rendered.
  expect(engine.filter("mylint --json", JSON.stringify(JSON.parse(input))).text).toBe(
    '{"file":"b.py","errors":[{"line":3,"message":"undefined name \'x\'"}]}\n(1 passing items not shown)',
  );
});

Deno.test("output that only starts with a JSON log record is read as text: its stack folds", async () => {
  // A service logs one JSON record, then crashes: Node 20 on a route registered twice in a
  // package under node_modules, Python 3.11 on a JSON file that does not parse.
  const read = (name: string) =>
    Deno.readTextFile(new URL(`../fixtures/generic/${name}.txt`, import.meta.url));
  const node = await read("json_log_then_node_crash");
  expect(lines(engine.filter("node src/server.js", node, { failed: true }).text)).toEqual([
    '{"level":30,"time":1732700000000,"service":"billing","msg":"loading routes"}',
    "/tmp/r20a-json/node/node_modules/tiny-router/index.js:4",
    '  if (table.has(key)) throw new RouteError(`Route ${key} already registered`, "ERR_DUP_ROUTE");',
    "                      ^",
    "",
    "RouteError: Route GET /health already registered",
    "    at addRoute (/tmp/r20a-json/node/node_modules/tiny-router/index.js:4:29)",
    "    … 3 frames in tiny-router folded …",
    "    at legacy (/tmp/r20a-json/node/src/server.js:5:24)",
    "    … 2 frames in tiny-router folded …",
    "    at Object.<anonymous> (/tmp/r20a-json/node/src/server.js:7:8)",
    "    … 2 frames in node internals folded … {",
    "  code: 'ERR_DUP_ROUTE',",
    "  status: 500",
    "}",
    "",
    "Node.js v20.20.2",
  ]);
  const python = await read("json_log_then_python_traceback");
  expect(lines(engine.filter("python3 worker.py", python, { failed: true }).text)).toEqual([
    '{"level": "INFO", "logger": "sync", "msg": "starting sync worker"}',
    "Traceback (most recent call last):",
    '  File "/tmp/r20a-json/py/worker.py", line 22, in <module>',
    "    main()",
    '  File "/tmp/r20a-json/py/worker.py", line 19, in main',
    '    batch = load_batch("batch.json")',
    '  File "/tmp/r20a-json/py/worker.py", line 15, in load_batch',
    "    return json.load(fh)",
    "  … 3 frames in stdlib folded …",
    '  File "/root/.pyenv/versions/3.11.7/lib/python3.11/json/decoder.py", line 355, in raw_decode',
    '    raise JSONDecodeError("Expecting value", s, err.value) from None',
    "json.decoder.JSONDecodeError: Expecting value: line 1 column 18 (char 17)",
  ]);
  // Records that are most of the lines stay a JSON-lines output, read by the json strategy.
  const records = [
    '{"Action":"run","Test":"TestA"}',
    '{"Action":"pass","Test":"TestA"}',
    '{"Action":"run","Test":"TestB"}',
    '{"Action":"output","Test":"TestB","Output":"b_test.go:9: got 2, want 3\\n"}',
    '{"Action":"fail","Test":"TestB"}',
    "FAIL",
  ];
  // TestA's passing records go; TestB's failure stays, its output record as the text it carries.
  expect(lines(engine.filter("mytool -json", records.join("\n"), { failed: true }).text)).toEqual([
    "b_test.go:9: got 2, want 3",
    '{"Action":"fail","Test":"TestB"}',
    "FAIL",
  ]);
});

Deno.test("a JSON document printed amid text: the text stays in place, the document is read", () => {
  const doc = JSON.stringify(
    {
      success: false,
      testResults: [
        { name: "a.test.js", status: "passed", message: "" },
        { name: "b.test.js", status: "passed", message: "" },
        { name: "c.test.js", status: "failed", message: 'Expected: {"a": 1}\nReceived: "}"' },
      ],
    },
    null,
    2,
  );
  const kept = [
    '  "success": false,',
    '  "testResults": [',
    '      "name": "c.test.js",',
    '      "status": "failed",',
    '      "message": "Expected: {\\"a\\": 1}\\nReceived: \\"}\\""',
    "(2 passing items not shown)",
  ];
  // `npm run` echoes its script before the document; npm's failure lines come after it.
  const before = ["", "> app@1.0.0 test:json", "> jest --json", ""];
  const after = ["npm ERR! Test failed.  See above for more details."];
  expect(lines(engine.filter("npm run test:json", [...before, doc].join("\n")).text)).toEqual([
    ...before,
    ...kept,
  ]);
  expect(lines(engine.filter("npm run test:json", [doc, ...after].join("\n")).text)).toEqual([
    ...kept,
    ...after,
  ]);
});

Deno.test("a JSON document printed amid text is parsed once", () => {
  const doc = JSON.stringify({ ok: false, failures: [{ test: "b", error: "boom" }] }, null, 2);
  const input = ["> app@1.0.0 report", "", doc, "npm ERR! Lifecycle script failed"].join("\n");
  const parse = JSON.parse;
  let parsed = 0;
  JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
    if (text === doc) parsed++;
    return parse(text, reviver);
  };
  try {
    expect(engine.filter("npm run report", input).text).toContain('"error": "boom"');
  } finally {
    JSON.parse = parse;
  }
  expect(parsed).toBe(1);
});

Deno.test("a JSON document nested 10,000 levels deep is still read, alone or amid text", () => {
  // One level a line (a pretty printer's indentation left out): 20,000 lines.
  const levels = 10_000;
  const documents = [
    ["[", ...Array(levels - 1).fill("["), "1", ...Array(levels).fill("]")],
    ["{", ...Array(levels - 1).fill('"a": {'), '"a": 1', ...Array(levels).fill("}")],
  ];
  const before = ["> app@1.0.0 report", ""];
  const after = ["npm ERR! Lifecycle script `report` failed"];
  for (const doc of documents) {
    for (const input of [doc, [...before, ...doc, ...after]]) {
      const out = engine.filter("npm run report", input.join("\n"));
      const kept = lines(out.text);
      expect(kept.length).toBeLessThan(input.length);
      expect(kept).toContain(doc[levels]);
      if (input.length > doc.length) {
        expect(kept.slice(0, 2)).toEqual(before);
        expect(kept.at(-1)).toBe(after[0]);
      }
    }
  }
});

Deno.test("the generic pass takes an array handed over whole as it takes its lines one by one", () => {
  const outputs = [
    // A JSON document after a blank line: the json strategy reads it either way.
    ["", '{"level": "info", "items": [1, 2, 3]}'],
    // A repeated line and a long run of one shape, before and after a rule.
    [...Array.from({ length: 500 }, (_, i) => `item ${i} ok`), "same", "same", "same", "done"],
  ];
  for (const lines of outputs) {
    for (const after of [false, true]) {
      const run = (give: (stage: ReturnType<typeof genericStage>) => void) => {
        const out: string[] = [];
        const stage = genericStage({ emit: (l) => out.push(l), failed: false }, undefined, {
          after,
        });
        give(stage);
        return { confidence: stage.finish(), out };
      };
      const one = run((stage) => lines.forEach((line) => stage.push(line)));
      const whole = run((stage) => stage.pushAll!([...lines]));
      // Lines pushed before an array: the array's lines follow them.
      const both = run((stage) => {
        stage.push(lines[0]);
        stage.pushAll!(lines.slice(1));
      });
      expect(whole).toEqual(one);
      expect(both).toEqual(one);
    }
  }
});
