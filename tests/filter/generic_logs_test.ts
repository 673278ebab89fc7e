/**
 * Routine log lines before a failure (src/filter/generic_logs.ts), on real outputs of a python
 * logging script that dies with a traceback, a logback/slf4j worker that dies with a
 * NullPointerException, a Go program logging with levels that panics and a winston script that
 * throws: the INFO/DEBUG runs fold into a count with their levels and time span; every WARN line,
 * the failure with its trace and the routine lines right before each stay. A passing run, and a
 * short log, are left alone. An HTTP server's access log (morgan's `tiny` format over an express
 * app, python's http.server in the common log format) folds its 2xx and 3xx requests and keeps
 * each 4xx and 5xx one.
 */
import { expect } from "expect";
import { FilterEngine } from "../../src/filter/mod.ts";
import { foldRoutineLogs, parseLogLine } from "../../src/filter/generic_logs.ts";

const FIXTURES = new URL("../fixtures/generic/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, FIXTURES));
const engine = new FilterEngine([], { security: false });
const FOLD = /^… \d+ log lines folded \((\d+ [A-Z]+(, )?)+(, \S.*)?\) …$/;

const CASES: { file: string; command: string; kept: string[] }[] = [
  {
    file: "log_python_etl.txt",
    command: "python3 etl.py",
    kept: [
      "WARNING [etl.pipeline] record 11 has no price; defaulting to 0",
      "DEBUG [etl.db] upserting row id=29 sku=SKU-0029",
      "Traceback (most recent call last):",
      'File "/tmp/gen3/logs/etl.py", line 8, in load',
      "ValueError: invalid literal for int() with base 10: 'two'",
    ],
  },
  {
    file: "log_logback_worker.txt",
    command: "java -cp lib/*:. Worker",
    kept: [
      "WARN  com.acme.queue.Worker - job 17 took 1.2s, over the 1s budget",
      "INFO  com.acme.queue.Worker - processing job 23 for null",
      'Exception in thread "main" java.lang.NullPointerException',
      "at Worker.handle(Worker.java:13)",
    ],
  },
  {
    file: "log_go_migrate.txt",
    command: "go run .",
    kept: [
      "WARN shard 4 has 3 keys with no TTL",
      "DEBUG shard 5 copied keys 1500..1999",
      "panic: runtime error: invalid memory address or nil pointer dereference",
      "main.go:12 +0x3f",
      "exit status 2",
    ],
  },
  {
    file: "log_winston_sync.txt",
    command: "node sync.js",
    kept: [
      "warn: [sync] user 1011 has no display name; using email",
      "debug: [sync] mapping user 1019",
      "TypeError: Cannot read properties of undefined (reading 'split')",
      "at Object.<anonymous> (/tmp/gen3/npm/sync.js:13:26)",
    ],
  },
];

for (const { file, command, kept } of CASES) {
  Deno.test(`generic logs: ${file} folds its routine lines and keeps the failure`, () => {
    const raw = read(file);
    const { text } = engine.filter(command, raw, { failed: true });
    const lines = text.split("\n");
    expect(lines.filter((line) => FOLD.test(line)).length).toBeGreaterThanOrEqual(2);
    for (const line of kept) expect(text).toContain(line);
    // Every line at WARN or above stays.
    for (const line of raw.split("\n")) {
      const log = parseLogLine(line);
      if (log && !log.routine) expect(lines).toContain(line);
    }
    // The folded counts add up to the routine lines that went.
    const folded = lines.map((line) => FOLD.exec(line) ? Number(/\d+/.exec(line)![0]) : 0)
      .reduce((a, b) => a + b, 0);
    const gone = raw.split("\n").filter((line) => parseLogLine(line)?.routine).length -
      lines.filter((line) => parseLogLine(line)?.routine).length;
    expect(folded).toBe(gone);
    expect(text.length).toBeLessThan(raw.length * 0.6);
  });

  Deno.test(`generic logs: ${file} in a passing run is left alone`, () => {
    const raw = read(file).split("\n").filter((line) => parseLogLine(line)?.routine);
    expect(foldRoutineLogs(raw, false)).toEqual(raw);
  });
}

Deno.test("generic logs: the fold line names levels and the time span", () => {
  const lines = read("log_logback_worker.txt").split("\n");
  const out = foldRoutineLogs(lines, true);
  expect(out[0]).toBe("… 49 log lines folded (18 INFO, 31 DEBUG, 21:48:07.148 to 21:48:07.169) …");
  const go = foldRoutineLogs(read("log_go_migrate.txt").split("\n"), true);
  // The date both ends share is named once.
  expect(go[0]).toMatch(/, 2026\/11\/26 21:48:11\.\d{6} to 21:48:11\.\d{6}\) …$/);
});

Deno.test("generic logs: a passing run whose log reports an error folds too", () => {
  const lines = [
    ...Array.from(
      { length: 24 },
      (_, i) => `2026-11-26 10:00:${String(i).padStart(2, "0")} INFO [app] tick ${i}`,
    ),
    "2026-11-26 10:00:30 ERROR [app] upstream refused the connection",
    "2026-11-26 10:00:31 INFO [app] shutting down",
  ];
  const out = foldRoutineLogs(lines, false);
  expect(out).toEqual([
    "… 21 log lines folded (21 INFO, 2026-11-26 10:00:00 to 10:00:20) …",
    ...lines.slice(21),
  ]);
});

Deno.test("generic logs: fewer than 20 routine lines, or lines naming a failure, never fold", () => {
  const short = Array.from(
    { length: 19 },
    (_, i) => `12:00:${String(i).padStart(2, "0")}.000 [main] DEBUG a.B - step ${i}`,
  );
  expect(foldRoutineLogs(short, true)).toEqual(short);
  const named = Array.from(
    { length: 30 },
    (_, i) =>
      `12:00:${String(i).padStart(2, "0")}.000 [main] INFO  a.B - retry ${i} after timeout error`,
  );
  expect(foldRoutineLogs(named, true)).toEqual(named);
});

Deno.test("generic logs: the level is read from the usual formats", () => {
  const table: [string, string | null, boolean | null][] = [
    ["2026-11-26 21:47:19,304 INFO [etl.pipeline] starting", "INFO", true],
    ["INFO:root:starting", "INFO", true],
    ["21:48:07.148 [main] WARN  com.acme.Worker - slow", "WARN", false],
    ["[2026-11-26T21:48:11Z DEBUG app::db] pool ready", "DEBUG", true],
    ["2026-11-26T21:48:11.400393Z  INFO app::db: pool ready", "INFO", true],
    ["2026-11-26T21:48:11.400393Z ERROR app::db: pool gone", "ERROR", false],
    ["I1126 21:48:11.400393   12345 controller.go:120] synced", "INFO", true],
    ["E1126 21:48:11.400393   12345 controller.go:120] lost lease", "E", false],
    ['time="2026-11-26T21:48:11Z" level=info msg="listening"', "INFO", true],
    ["[21:48:11.400] INFO (4242): listening on 127.0.0.1:3000", "INFO", true],
    ["2026-11-26T21:49:19.535Z debug: [sync] mapping user 1010", "DEBUG", true],
    ["GET /books/117 404 24 - 0.355 ms", "4xx", false],
    ["POST /orders/12/ship 202 15 - 2.392 ms", "2xx", true],
    ['127.0.0.1 - - [28/Nov/2026 14:13:47] "GET /docs/ HTTP/1.1" 200 -', "2xx", true],
    ['::1 - - [28/Nov/2026:14:13:47 +0000] "GET /stats HTTP/1.1" 500 1179', "5xx", false],
    ["GET the 200 books", null, null],
    ["2026/11/26 21:48:11 server started", null, null],
    ["Traceback (most recent call last):", null, null],
    ['  File "a.py", line 3, in <module>', null, null],
  ];
  for (const [line, level, routine] of table) {
    const log = parseLogLine(line);
    expect([line, log?.level ?? null, log?.routine ?? null]).toEqual([line, level, routine]);
  }
});

/** `n` routine lines of one format, numbered from 0. */
const routineLines = (n: number, line: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => line(i));
const sec = (i: number) => String(i % 60).padStart(2, "0");

Deno.test("generic logs: a format that prints file:line on every line still folds", () => {
  const formats: ((i: number) => string)[] = [
    // klog
    (i) => `I1126 21:48:${sec(i)}.400393   12345 controller.go:${100 + i}] synced item ${i}`,
    // python logging with %(filename)s:%(lineno)d
    (i) => `2026-11-26 10:00:${sec(i)},001 INFO etl.py:${40 + i} loaded batch ${i}`,
    // Go's log with Lshortfile and a level word
    (i) => `2026/11/26 21:48:${sec(i)} worker.go:88: DEBUG shard ${i} copied`,
    // Rust tracing with file and line
    (i) => `2026-11-26T21:48:${sec(i)}.400393Z  INFO app::db: src/db.rs:${30 + i}: pool tick ${i}`,
  ];
  for (const format of formats) {
    const lines = [...routineLines(30, format), "panic: boom"];
    const out = foldRoutineLogs(lines, true);
    expect([format(0), out.length]).toEqual([format(0), 5]);
    expect(out[0]).toMatch(/^… 27 log lines folded \(/);
    expect(out.at(-1)).toBe("panic: boom");
  }
});

Deno.test("generic logs: a routine line naming a location amid routine lines that do not stays", () => {
  const tick = (i: number) => `2026-11-26 10:00:${sec(i)},001 INFO [app] tick ${i}`;
  const lines = [
    ...routineLines(12, tick),
    "2026-11-26 10:00:12,001 INFO [app] loading rules from conf/auth.py:42",
    ...routineLines(12, (i) => tick(i + 13)),
    "2026-11-26 10:00:30,001 DEBUG [app] handler registered at src/routes.ts:17:3",
    ...routineLines(12, (i) => tick(i + 31)),
    "Traceback (most recent call last):",
  ];
  const out = foldRoutineLogs(lines, true);
  expect(out).toContain("2026-11-26 10:00:12,001 INFO [app] loading rules from conf/auth.py:42");
  expect(out).toContain(
    "2026-11-26 10:00:30,001 DEBUG [app] handler registered at src/routes.ts:17:3",
  );
  // The routine lines around them still fold, each run on its own.
  expect(out.filter((line) => FOLD.test(line)).length).toBe(3);
  expect(out.at(-1)).toBe("Traceback (most recent call last):");
});

Deno.test("the last INFO line before the failure stays when DEBUG lines came after it", () => {
  // python logging at DEBUG (captured): an INFO count every 40 rows among the DEBUG rows, then
  // an ERROR. The last count says how far the run got.
  const python = read("log_python_ingest_debug.txt").trimEnd().split("\n");
  const out = foldRoutineLogs(python, true);
  expect(out).toContain(python.findLast((l) => / INFO ingest: \d+ records/.test(l)));
  expect(out.filter((l) => / INFO /.test(l))).toHaveLength(1);
  expect(out.at(-1)).toBe(python.at(-1));
  // env_logger's format, the same shape: DEBUG lines fold whatever follows them, the last INFO
  // stays before the panic.
  const rust = [
    "[2026-11-27T22:14:19Z INFO  ingest] starting",
    ...Array.from({ length: 60 }, (_, i) => [
      `[2026-11-27T22:14:19Z DEBUG ingest::parse] row ${i} ok`,
      ...(i % 20 === 19 ? [`[2026-11-27T22:14:19Z INFO  ingest] ${i + 1} records`] : []),
    ]).flat(),
    ...Array.from({ length: 5 }, (_, i) => `[2026-11-27T22:14:19Z DEBUG ingest::db] flush ${i}`),
    "thread 'main' panicked at src/main.rs:40:9:",
    "unknown sku",
  ];
  const folded = foldRoutineLogs(rust, true);
  expect(folded).toContain("[2026-11-27T22:14:19Z INFO  ingest] 60 records");
  expect(folded).not.toContain("[2026-11-27T22:14:19Z INFO  ingest] 40 records");
  expect(folded).not.toContain("[2026-11-27T22:14:19Z DEBUG ingest::parse] row 30 ok");
});

// Captured: an express app logging with morgan's `tiny` format, 90 requests with five 404s, then
// a crash in a timer (exit 1); python3 -m http.server serving 70 requests with three 404s, then
// `curl -f` of a missing file (exit 22).
const ACCESS_LOGS = [
  {
    file: "log_express_morgan_tiny.txt",
    command: "bash -c 'node server.js & s=$!; sleep 1; node traffic.js; wait $s'",
  },
  { file: "log_http_server_common.txt", command: "bash fetch.sh" },
];
for (const { file, command } of ACCESS_LOGS) {
  Deno.test(`generic logs: an access log (${file}) keeps each 4xx and 5xx request and folds the rest`, () => {
    const raw = read(file).trimEnd().split("\n");
    const out = engine.filter(command, raw.join("\n"), { failed: true }).text.split("\n");
    const requests = raw.filter((line) => parseLogLine(line)?.level.endsWith("xx"));
    const errors = requests.filter((line) => !parseLogLine(line)!.routine);
    expect(errors.length).toBeGreaterThanOrEqual(4);
    for (const line of errors) expect(out).toContain(line);
    // Of the requests answered 2xx or 3xx, few stay: the three right before a line that is no
    // request (http.server's `code 404, message File not found`, the crash).
    const kept = requests.filter((line) => parseLogLine(line)!.routine && out.includes(line));
    expect(kept.length).toBeLessThan(requests.length / 3);
    expect(out.filter((line) => /^… \d+ log lines folded \(\d+ [2-5]xx/.test(line)).length)
      .toBeGreaterThanOrEqual(3);
    for (const line of raw.filter((l) => /^(SyntaxError|curl): /.test(l))) {
      expect(out).toContain(line);
    }
  });
}

Deno.test("generic logs: an access log in a passing run is left alone, whatever its statuses", () => {
  const raw = read("log_http_server_common.txt").trimEnd().split("\n");
  expect(foldRoutineLogs(raw, false)).toEqual(raw);
  const served = raw.map((line) => line.replace('" 404 -', '" 500 -'));
  expect(foldRoutineLogs(served, false)).toEqual(served);
});
