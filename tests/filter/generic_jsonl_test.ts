/**
 * JSON-lines logs with no rule (src/filter/generic_jsonl.ts), on real outputs of a python script
 * logging through a JSON formatter and of a pino worker that then dies with a plain stack trace,
 * and on records of the other loggers' shapes: every record kept is the line as printed, runs of
 * alike routine records fold to one line with their count, records at warning or above and
 * records with an error field stay, and lines that are not JSON stay in place.
 */
import { expect } from "expect";
import { FilterEngine } from "../../src/filter/mod.ts";
import { foldJsonLogs } from "../../src/filter/generic_jsonl.ts";

const FIXTURES = new URL("../fixtures/generic/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, FIXTURES));
const engine = new FilterEngine([], { security: false });
const FOLD = /^… (\d+) records like these folded \(level \w+; [\w, ]+ differs?(; .*)?\) …$/;

const CASES = [
  { file: "jsonl_python_sync.txt", command: "python3 sync.py", level: "levelname" },
  { file: "jsonl_pino_worker.txt", command: "node worker.js", level: "level" },
];

for (const { file, command } of CASES) {
  Deno.test(`generic jsonl: ${file} keeps every record it shows as printed`, () => {
    const raw = read(file);
    const input = raw.split("\n");
    const { text } = engine.filter(command, raw, { failed: true });
    const lines = text.split("\n");
    // Every line shown is an input line byte for byte, or a fold line.
    for (const line of lines) {
      if (!FOLD.test(line)) expect(input).toContain(line);
    }
    // The folded counts add up to the records that went.
    const folded = lines.map((line) => Number(FOLD.exec(line)?.[1] ?? 0))
      .reduce((a, b) => a + b, 0);
    const records = (ls: string[]) => ls.filter((line) => line.startsWith("{")).length;
    expect(folded).toBeGreaterThanOrEqual(20);
    expect(folded).toBe(records(input) - records(lines));
    expect(text.length).toBeLessThan(raw.length * 0.5);
  });
}

Deno.test("generic jsonl: python's WARNING and ERROR records stay whole, with the first and last", () => {
  const raw = read("jsonl_python_sync.txt");
  const input = raw.split("\n").filter((line) => line !== "");
  const lines = engine.filter("python3 sync.py", raw, { failed: true }).text.split("\n");
  for (const line of input) {
    if (/"levelname": "(WARNING|ERROR)"/.test(line)) expect(lines).toContain(line);
  }
  expect(lines[0]).toBe(input[0]);
  expect(lines.at(-1)).toBe(input.at(-1));
  // The odd value among the folded records is counted, as the record prints it.
  expect(lines).toContain(
    "… 13 records like these folded (level INFO; message differs; 1 with 480) …",
  );
  // The ERROR record carries its exception field.
  expect(lines.some((line) => line.includes('"exc_info": "Traceback'))).toBe(true);
});

Deno.test("generic jsonl: pino's numeric levels 40 and 50 stay, and the plain trace after", () => {
  const raw = read("jsonl_pino_worker.txt");
  const input = raw.split("\n");
  const lines = engine.filter("node worker.js", raw, { failed: true }).text.split("\n");
  for (const line of input) {
    if (/^\{"level":[456]0,/.test(line)) expect(lines).toContain(line);
    // Lines that are not JSON stay, in order.
    if (line !== "" && !line.startsWith("{")) expect(lines).toContain(line);
  }
  expect(lines.filter((line) => FOLD.test(line)).length).toBeGreaterThanOrEqual(2);
  expect(lines.join("\n")).toContain(
    "TypeError: Cannot read properties of undefined (reading 'flush')",
  );
});

/** `n` records of one logger's shape, `at` giving each one's fields. */
function records(n: number, at: (i: number) => Record<string, unknown>): string[] {
  return Array.from({ length: n }, (_, i) => JSON.stringify(at(i)));
}

Deno.test("generic jsonl: the level and message fields of each logger are read", () => {
  const table: { name: string; routine: (i: number) => Record<string, unknown>; loud: string }[] = [
    {
      name: "zap",
      routine: (i) => ({ level: "info", ts: 1.7e9 + i, msg: `cached key ${i}` }),
      loud: JSON.stringify({ level: "error", ts: 1.8e9, msg: "cannot reach redis" }),
    },
    {
      name: "slog",
      routine: (i) => ({ time: `2026-11-27T10:00:${i}Z`, level: "DEBUG-4", msg: "copied", n: i }),
      loud: JSON.stringify({ time: "2026-11-27T10:01:00Z", level: "WARN", msg: "no TTL" }),
    },
    {
      name: "tracing",
      routine: (i) => ({ timestamp: "t", level: "INFO", fields: { message: `row ${i}` } }),
      loud: JSON.stringify({ timestamp: "t", level: "WARN", fields: { message: "slow" } }),
    },
    {
      name: "serilog",
      routine: (i) => ({ "@t": "t", "@l": "Information", "@m": `tick ${i}` }),
      loud: JSON.stringify({ "@t": "t", "@l": "Fatal", "@m": "host stopped" }),
    },
    {
      name: "ecs",
      routine: (i) => ({ "@timestamp": "t", "log.level": "info", message: `GET /a/${i}` }),
      loud: JSON.stringify({ "@timestamp": "t", "log.level": "error", message: "GET /b" }),
    },
    {
      name: "hclog",
      routine: (i) => ({ "@level": "debug", "@message": `plugin ${i} started`, "@module": "core" }),
      loud: JSON.stringify({ "@level": "error", "@message": "backend refused", "@module": "core" }),
    },
    {
      // journalctl -o json: every value a string, the level a syslog priority (0 emerg … 7 debug).
      name: "journald",
      routine: (i) => ({
        __CURSOR: `s=ab;i=${i}`,
        __REALTIME_TIMESTAMP: `${1.7e15 + i}`,
        PRIORITY: "6",
        SYSLOG_IDENTIFIER: "web",
        MESSAGE: `served /page/${i}`,
      }),
      loud: JSON.stringify({
        __CURSOR: "s=ab;i=99",
        __REALTIME_TIMESTAMP: "1800000000000000",
        PRIORITY: "3",
        SYSLOG_IDENTIFIER: "web",
        MESSAGE: "cannot bind port 80",
      }),
    },
    {
      name: "bunyan",
      routine: (i) => ({ name: "api", level: 20, msg: `query ${i} done`, v: 0 }),
      loud: JSON.stringify({ name: "api", level: 60, msg: "out of memory", v: 0 }),
    },
  ];
  for (const { name, routine, loud } of table) {
    const before = records(20, routine);
    const after = records(20, (i) => routine(i + 20));
    const lines = [...before, loud, ...after];
    const out = foldJsonLogs(lines);
    expect({ name, out: out?.length }).toEqual({ name, out: 7 });
    expect(out).toEqual([
      before[0],
      expect.stringMatching(/^… 18 records like these folded \(level [\w-]+; .* differs?\) …$/),
      before[19],
      loud,
      after[0],
      expect.stringMatching(/^… 18 records like these folded/),
      after[19],
    ]);
  }
});

Deno.test("generic jsonl: records with an error field, or naming a failure, never fold", () => {
  const lines = records(30, (i) => ({
    level: "info",
    msg: `retrying job ${i}`,
    ...(i === 12 ? { error: "connection reset" } : {}),
    ...(i === 20 ? { stack: "Error: x\n    at y" } : {}),
  }));
  lines[25] = JSON.stringify({
    level: "info",
    msg: "job 25 failed: Traceback (most recent call last)",
  });
  const out = foldJsonLogs(lines)!;
  for (const at of [0, 12, 20, 25, 29]) expect(out).toContain(lines[at]);
  expect(out.filter((line) => line.startsWith("…")).length).toBeGreaterThanOrEqual(2);
});

Deno.test("generic jsonl: a record unlike its neighbours stays, between two folds", () => {
  const batch = (i: number) => ({ level: "info", logger: "sync", msg: `synced batch ${i}` });
  const lines = [
    ...records(10, batch),
    JSON.stringify({ level: "info", logger: "sync", msg: "switched to the replica" }),
    ...records(10, (i) => batch(i + 10)),
  ];
  const out = foldJsonLogs(lines)!;
  expect(out).toEqual([
    lines[0],
    "… 8 records like these folded (level info; msg differs) …",
    lines[9],
    lines[10],
    lines[11],
    "… 8 records like these folded (level info; msg differs) …",
    lines[20],
  ]);
});

Deno.test("generic jsonl: rows of data as JSON lines, and short logs, are no log to fold", () => {
  const rows = records(30, (i) => ({ ID: `c${i}`, Image: "nginx", State: "running" }));
  expect(foldJsonLogs(rows)).toBeNull();
  const short = records(6, (i) => ({ level: "info", msg: `step ${i}` }));
  expect(foldJsonLogs(short)).toBeNull();
  // Through the engine, rows a command printed as JSON lines stay as printed.
  const text = engine.filter("docker ps --format json", rows.join("\n")).text;
  expect(text.split("\n")).toEqual(rows);
});

Deno.test("generic jsonl: JSON lines with no rule that are no log are kept as printed", () => {
  // Spaces after the colons, as python's json.dumps prints them: a kept record is not re-written.
  const lines = [
    '{"id": 1, "status": "failed", "detail": "quota exceeded", "elapsed": 0.2}',
    '{"id": 2, "status": "failed", "detail": "bad token", "elapsed": 0.1}',
  ];
  expect(engine.filter("mytool --jsonl", lines.join("\n")).text).toBe(lines.join("\n"));
});

Deno.test("generic jsonl: a log after a plain first line is read as a log too", () => {
  const lines = [
    "starting worker (pid 4242)",
    ...records(30, (i) => ({ level: 30, time: 1000 + i, msg: `resized ${i}.jpg` })),
  ];
  const { text } = engine.filter("node worker.js", lines.join("\n"));
  const out = text.split("\n");
  expect(out[0]).toBe(lines[0]);
  expect(out[1]).toBe(lines[1]);
  expect(out).toContain("… 28 records like these folded (level 30; msg differs) …");
  expect(out.at(-1)).toBe(lines.at(-1));
});

Deno.test("generic jsonl: an info record whose field says it failed stays (not in a fold)", () => {
  // zap, slog and pino log a job's outcome in a field: the message alone is alike.
  const lines = records(30, (i) => ({
    level: "info",
    ts: 1700000000 + i,
    msg: "job finished",
    job: `build-${i}`,
    result: i >= 5 && i < 17 ? "failed" : "ok",
  }));
  const out = engine.filter("node scheduler.js", lines.join("\n")).text.split("\n");
  for (const line of lines) if (line.includes('"failed"')) expect(out).toContain(line);
  // The ok records still fold.
  expect(out.length).toBeLessThan(lines.length);
});

Deno.test("generic jsonl: an info access record answering 5xx stays (not in a fold)", () => {
  // An access log logs every request at info: a server error is told by its status alone,
  // at the top (zap, slog) or under `res` (pino-http).
  const top = records(30, (i) => ({
    level: "info",
    time: 1000 + i,
    msg: "request completed",
    path: `/api/items/${i}`,
    status: i >= 8 && i < 20 ? 503 : 200,
  }));
  const pino = records(30, (i) => ({
    level: 30,
    time: 1000 + i,
    msg: "request completed",
    res: { statusCode: i >= 8 && i < 20 ? 500 : 200 },
  }));
  for (const lines of [top, pino]) {
    const out = engine.filter("node server.js", lines.join("\n")).text.split("\n");
    for (const line of lines) {
      if (/"(?:status|statusCode)":50\d/.test(line)) expect(out).toContain(line);
    }
    expect(out.length).toBeLessThan(lines.length);
  }
});
