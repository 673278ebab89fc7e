/**
 * Folds of similar lines keep their odd ones out (src/filter/generic_outliers.ts), by class, on
 * real outputs: an HTTP access log whose 500s sit among 200s, `git branch -vv` whose branches are
 * gone upstream, ahead or behind among plainly tracked ones, a `tar -tv` listing with an empty file
 * and one of another owner, an application log whose ERROR sits among INFO lines, a failed run's
 * request log with a 503 and a count of 0 among its routine lines. The must-fold side: lines that
 * differ only in ids, paths, sizes and times still fold, and the odd lines of one value are
 * bounded, the rest counted on the fold line.
 */
import { expect } from "expect";
import { FilterEngine } from "../../src/filter/mod.ts";
import { findOutliers, foldAroundOutliers, oddLines } from "../../src/filter/generic_outliers.ts";
import { foldShapeRuns } from "../../src/filter/generic_shapes.ts";
import { foldRoutineLogs } from "../../src/filter/generic_logs.ts";

const CORPUS = new URL("../../bench/corpus/", import.meta.url);
const FIXTURES = new URL("../fixtures/generic/", import.meta.url);
const lines = (url: URL) => Deno.readTextFileSync(url).replace(/\n$/, "").split("\n");
const engine = new FilterEngine([], { security: false });
const FOLD = /^\s*… (\d+) lines like these folded(?: \((.*)\))? …$/;
/** A listing's directory folded to its first and last entries (generic_folds.ts). */
const DIRECTORY_FOLD = /^\s*\S+\/ … \(\d+ entries folded\)$/;

/** The engine's output for a saved run, as lines. */
function filtered(command: string, input: string[], failed = false): string[] {
  return engine.filter(command, input.join("\n"), { failed }).text.split("\n");
}

const CLASSES: {
  name: string;
  command: string;
  input: string[];
  odd: RegExp;
  also?: string[];
}[] = [
  {
    name: "an access log's 500s among 200s",
    command: "python3 -u serve.py",
    input: lines(new URL("system/http_server_access.txt", CORPUS)),
    odd: /" 500 -$/,
  },
  {
    name: "git branch -vv's gone, ahead and behind branches among tracked ones",
    command: "git branch -vv",
    input: lines(new URL("git/branch_vv_tracking.txt", CORPUS)),
    odd: /\[origin\/\S+: (?:gone|ahead \d+|behind \d+)\]/,
  },
  {
    name: "a tar listing's empty files and other owner",
    command: "tar -tvf pkg.tar",
    input: lines(new URL("files/tar_tv_listing.txt", CORPUS)),
    odd: /^-rw-r--r-- (?:root\/root|build\/build +0 )/,
  },
];

for (const { name, command, input, odd } of CLASSES) {
  Deno.test(`outliers: ${name} stay as printed while the run folds`, () => {
    const out = filtered(command, input);
    const wanted = input.filter((line) => odd.test(line));
    expect(wanted.length).toBeGreaterThan(0);
    // Each odd line stays, or is counted on a fold line with its value (bounded per value).
    const counted = out.reduce((n, line) => {
      const note = FOLD.exec(line)?.[2];
      return n +
        (note
          ? [...note.matchAll(/(\d+) (?:of them )?with/g)].reduce((a, m) => a + Number(m[1]), 0)
          : 0);
    }, 0);
    const kept = wanted.filter((line) => out.includes(line));
    expect(kept.length + counted).toBe(wanted.length);
    // Every distinct odd value shows at least once as printed.
    expect(kept.length).toBeGreaterThanOrEqual(Math.min(wanted.length, 3));
    // The run still folds: the output is well under the input.
    expect(out.some((line) => FOLD.test(line) || DIRECTORY_FOLD.test(line))).toBe(true);
    expect(out.length).toBeLessThan(input.length * 0.75);
  });
}

Deno.test("outliers: the access log keeps each 404 and 500 request line", () => {
  const input = lines(new URL("system/http_server_access.txt", CORPUS));
  const text = filtered("python3 -u serve.py", input).join("\n");
  for (const path of ["/boom/orders", "/boom/cart", "/api/missing-1.json", "/api/missing-3.json"]) {
    expect(text).toContain(`"GET ${path} HTTP/1.1"`);
  }
});

// A row's path takes a value per row, so a row that differs only by its directory or its
// extension still folds with its neighbours; its mode, size and link target are read.
Deno.test("outliers: a tar listing's symlink, much larger and other-mode rows stay among alike rows", () => {
  // Captured: `tar -tvf` (GNU tar 1.34) of 88 plugins of one size, among them a symlink, a much
  // larger one, one of another mode, one of another extension, and a file of another directory.
  const input = lines(new URL("tar_tv_plugins.txt", FIXTURES));
  const out = filtered("tar -tvf app.tar", input);
  for (const name of ["p45.so", "p50.so -> p49.so", "p70.so"]) {
    expect(out).toContain(input.find((line) => line.endsWith(name)));
  }
  expect(out.length).toBeLessThan(input.length / 2);
});

Deno.test("outliers: git branch -vv keeps every tracking state that is not plain", () => {
  const input = lines(new URL("git/branch_vv_tracking.txt", CORPUS));
  const out = filtered("git branch -vv", input);
  for (const line of input.filter((l) => /: (?:gone|ahead|behind)/.test(l))) {
    expect(out).toContain(line);
  }
  // Plain ones fold.
  expect(out.filter((line) => /\[origin\/feature\/task-\d+\] /.test(line)).length).toBeLessThan(6);
});

Deno.test("outliers: an ERROR line among INFO lines of a passing run stays", () => {
  const input = lines(new URL("outliers_app_log.txt", FIXTURES));
  const out = filtered("python3 sync.py", input);
  expect(out).toContain(input.find((line) => line.includes(" ERROR "))!);
  expect(out).toContain(input.find((line) => line.includes(" WARNING "))!);
});

Deno.test("outliers: a failed run's routine log keeps its 503s and its count of 0", () => {
  const input = lines(new URL("outliers_gateway_log.txt", FIXTURES));
  const out = foldRoutineLogs(input, true);
  for (const odd of input.filter((line) => / status=503 | rows=0$/.test(line))) {
    expect(out).toContain(odd);
  }
  // The 200s around them fold.
  expect(out.filter((line) => / status=200 /.test(line)).length).toBeLessThan(20);
  expect(out.filter((line) => /^… \d+ log lines folded/.test(line)).length).toBeGreaterThan(1);
  expect(out.at(-1)).toBe(input.at(-1));
  // The same through the engine.
  const text = filtered("python3 worker.py", input, true).join("\n");
  expect(text).toContain("status=503");
  expect(text).toContain("rows=0");
});

Deno.test("outliers: lines that differ only in ids, paths, sizes and times fold whole", () => {
  const run = Array.from(
    { length: 40 },
    (_, i) =>
      `127.0.0.1 - - [27/Nov/2026 05:${String(10 + (i >> 3)).padStart(2, "0")}:${
        String(i % 60).padStart(2, "0")
      }] "GET /api/orders/${1000 + i * 7} HTTP/1.1" 200 ${1200 + ((i * 37) % 500)}`,
  );
  expect(findOutliers(run).kept.size).toBe(0);
  const out = foldShapeRuns([...run, "done", "bye", "ok"], false);
  expect(out).toEqual([run[0], "… 38 lines like these folded …", run[39], "done", "bye", "ok"]);
  // A counter that passes through 0 (`tick 0`) is no odd count.
  const ticks = Array.from({ length: 20 }, (_, i) => `worker tick ${i} took ${3 + (i % 4)}ms`);
  expect(findOutliers(ticks).kept.size).toBe(0);
  // Sizes with units (17B, 18B) vary by degree: no size is odd but a zero.
  const sizes = Array.from({ length: 20 }, (_, i) => `npm notice ${i < 8 ? 17 : 18}B lib/m${i}.js`);
  expect(findOutliers(sizes).kept.size).toBe(0);
  sizes[11] = "npm notice 0B lib/m11.js";
  expect([...findOutliers(sizes).kept]).toEqual([11]);
});

Deno.test("outliers: the odd lines of one value are bounded and the rest counted", () => {
  const row = (i: number, status: number) =>
    `127.0.0.1 - - [27/Nov/2026 05:10:00] "GET /api/items/${i} HTTP/1.1" ${status} -`;
  // 12 of 60 requests fail: the first three and the last stay, eight are counted.
  const run = Array.from({ length: 60 }, (_, i) => row(i, i % 5 === 2 ? 500 : 200));
  const { kept, counted } = findOutliers(run);
  expect([...kept].sort((a, b) => a - b)).toEqual([2, 7, 12, 57]);
  expect([...counted.values()]).toEqual(Array(8).fill("500"));
  const out = foldAroundOutliers(
    run.map((line) => [line]),
    (n, note) => `… ${n} lines like these folded${note} …`,
  )!;
  expect(out).toContain(row(57, 500));
  expect(out).toContain("… 44 lines like these folded (8 of them with 500) …");
  // Fold lines count every line they replace.
  const shown = out.filter((line) => !FOLD.test(line)).length;
  const folded = out.reduce((n, line) => n + Number(FOLD.exec(line)?.[1] ?? 0), 0);
  expect(shown + folded).toBe(run.length);
});

Deno.test("outliers: a failure-looking line never folds, in any fold of similar lines", () => {
  const run = Array.from({ length: 30 }, (_, i) => `Fetching package-${i} from mirror`);
  run[14] = "Fetching package-14 from mirror: connection refused, error 111";
  expect(foldShapeRuns([...run, "a", "b", "c"], false)).toContain(run[14]);
  const logs = Array.from(
    { length: 30 },
    (_, i) => `2026-11-27 05:10:${String(i).padStart(2, "0")},000 INFO app: step ${i} fetched`,
  );
  logs[20] = "2026-11-27 05:10:20,000 INFO app: step 20 failed to fetch";
  expect(foldRoutineLogs([...logs, "Traceback (most recent call last):"], true)).toContain(
    logs[20],
  );
});

Deno.test("outliers: a failed run's long output keeps the odd lines of what it folds", () => {
  // A server's access log, then its crash: the log folds by its requests' statuses (the 2xx go,
  // generic_logs.ts), by shape (its last lines staying in a failed run) or is cut to its head and
  // tail, and the 500s in between stay with the failure.
  const input = lines(new URL("system/http_server_access.txt", CORPUS));
  const long = [
    ...input,
    ...input.slice(1).map((line) => line.replace("/api/", "/v2/")),
    ...input.slice(1).map((line) => line.replace("/api/", "/v3/")),
    ...input.slice(1).map((line) => line.replace("/api/", "/v4/")),
    "Traceback (most recent call last):",
    "OSError: [Errno 24] Too many open files",
  ];
  expect(long.length).toBeGreaterThan(400);
  const out = filtered("python3 -u serve.py", long, true);
  expect(out.some((line) => /lines omitted|lines like these folded|log lines folded/.test(line)))
    .toBe(true);
  // The 500s and 404s (their request lines) of what folds, fewer than the bound of one value
  // each: every one stays, in its place among the folded lines.
  const odd = long.map((line, i) => / (?:500|404) -$/.test(line) ? i : -1).filter((i) => i >= 0);
  expect(odd.filter((i) => i >= 150 && i < long.length - 150).length).toBeGreaterThan(10);
  expect(out.filter((line) => / (?:500|404) -$/.test(line)).length).toBe(odd.length);
  expect(out).toContain("OSError: [Errno 24] Too many open files");
});

Deno.test("outliers: a long access log with many kinds of status keeps each rare one", () => {
  const odd = [201, 204, 301, 302, 304, 400, 401, 403, 404, 500, 503];
  const run = Array.from({ length: 300 }, (_, i) => {
    const status = i % 25 === 7 ? odd[Math.floor(i / 25) % odd.length] : 200;
    return `127.0.0.1 - - [27/Nov/2026 05:${10 + (i >> 6)}:${
      String(i % 60).padStart(2, "0")
    }] "GET /api/orders/${i} HTTP/1.1" ${status} -`;
  });
  const out = foldShapeRuns([...run, "a", "b", "c"], false);
  for (const line of run.filter((l) => !l.endsWith(" 200 -"))) expect(out).toContain(line);
  expect(out.length).toBeLessThan(60);
});

Deno.test("outliers: odd values stay when the common one holds a bare majority of the run", () => {
  // 52% of the requests answer 200, 33% 404 and 15% 500: both minorities are odd.
  const statuses = [200, 404, 200, 500, 200, 404, 200, 404, 200, 500, 200, 404, 200, 404, 200, 200];
  const run = Array.from(
    { length: 200 },
    (_, i) =>
      `127.0.0.1 - - [27/Nov/2026 06:${10 + (i >> 6)}:${
        String(i % 60).padStart(2, "0")
      }] "GET /api/items/${i} HTTP/1.1" ${statuses[i % statuses.length]} -`,
  );
  const out = foldShapeRuns([...run, "a", "b", "c"], false);
  for (const status of [404, 500]) {
    const lines = run.filter((line) => line.endsWith(` ${status} -`));
    // The first lines and the last of each odd status stay as printed; the rest are counted.
    for (const line of [...lines.slice(0, 3), lines.at(-1)!]) expect(out).toContain(line);
    expect(out.join("\n")).toMatch(new RegExp(`\\d+ with ${status}|\\d+ of them with ${status}`));
  }
  expect(out.length).toBeLessThan(60);
});

Deno.test("outliers: an odd word in the middle of a long line (past eight words from each end) stays", () => {
  // 21 words: the state is the 11th word, the 11th from the end too.
  const run = Array.from(
    { length: 60 },
    (_, i) =>
      `worker ${i} tenant acme region us-east-1 shard alpha batch b${i} result ${
        i === 30 ? "degraded" : "healthy"
      } after retry none cache warm host h${i} pool p${i}`,
  );
  expect([...findOutliers(run).kept]).toEqual([30]);
  const out = foldShapeRuns([...run, "done", "bye", "ok"], false);
  expect(out).toContain(run[30]);
  expect(out.length).toBeLessThan(12);
});

Deno.test("outliers: an odd line of a code listing keeps the less indented line that says where it is", () => {
  // `git blame` of templated functions, one `return` line changed by another author: the fold
  // keeps that line and the `def` line just before it (which function the change is in).
  const input = lines(new URL("git_blame_templated.txt", FIXTURES));
  const odd = input.findIndex((line) => line.includes("# FIXME"));
  expect(input[odd - 1]).toMatch(/\) def step_13\(x\):$/);
  const out = filtered("git blame app.py", input);
  expect(out.some((line) => FOLD.test(line))).toBe(true);
  const at = out.indexOf(input[odd]);
  expect(at).toBeGreaterThan(0);
  expect(out[at - 1]).toBe(input[odd - 1]);
  // The `return` line after it says nothing of where the change is: it folds.
  expect(out).not.toContain(input[odd + 1]);
  // A line number's padding (`  99)`, ` 100)`) is how wide the number is, not another kind.
  expect(out.join("\n")).not.toMatch(/of them with/);
});

Deno.test("outliers: an odd line in a failed run's long output keeps the line that says where it is", () => {
  const input = lines(new URL("git_blame_templated_long.txt", FIXTURES));
  const odd = input.findIndex((line) => line.includes("# FIXME"));
  const out = filtered("git blame steps.py", input, true);
  expect(out.some((line) => /lines omitted|lines like these folded|log lines folded/.test(line)))
    .toBe(true);
  const at = out.indexOf(input[odd]);
  expect(at).toBeGreaterThan(0);
  expect(out[at - 1]).toBe(input[odd - 1]);
});

Deno.test("outliers: the lines kept for where odd lines are stay within the bound of one value", () => {
  // A blame of 200 functions where 40 `return` lines are by eight other authors, five each: every
  // odd line stays (few of each value), but no more `def` lines than one value's bound (20).
  const others = ["Bob Jones  ", "Carol King ", "Dan Brown  ", "Eve Adams  "];
  const authors = [...others, ...others.map((name) => name.toUpperCase())];
  const row = (author: string, n: number, code: string) =>
    `5281e9e9 (${author} 2026-02-11 10:01:00 +0000 ${String(n).padStart(4)}) ${code}`;
  const run = Array.from({ length: 400 }, (_, k) => {
    const i = k >> 1;
    if (k % 2 === 0) return row("Alice Smith", k + 1, `def step_${i}(x):`);
    return row(
      i % 5 === 3 ? authors[Math.floor(i / 5) % 8] : "Alice Smith",
      k + 1,
      `    return x * ${i}`,
    );
  });
  const out = foldAroundOutliers(
    run.map((line) => [line]),
    (n, note) => `… ${n} lines like these folded${note} …`,
  )!;
  const odd = (line: string) => !line.includes("Alice Smith") && !FOLD.test(line);
  expect(out.filter(odd).length).toBe(40);
  const headers = out.filter((line, k) => line.includes(") def ") && odd(out[k + 1] ?? ""));
  expect(headers.length).toBe(20);
});

Deno.test("findOutliers: a long run's fields are chosen on a sample, its odd lines found over the whole run", () => {
  // 3,000 requests, 7 of them 500s at places the sample (every 11th line) never reads.
  const errors = new Set([5, 436, 867, 1300, 1729, 2161, 2591]);
  const lines: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const status = errors.has(i) ? 500 : 200;
    lines.push(`127.0.0.1 - - "GET /api/items/${i} HTTP/1.1" ${status} ${100 + (i % 37)}`);
  }
  const odd = [...findOutliers(lines).kept].sort((a, b) => a - b);
  expect(odd.map((at) => lines[at].split(" ").at(-2))).toEqual(Array(7).fill("500"));
  expect(odd.every((at) => at % 11 !== 0)).toBe(true);
});

Deno.test("outliers: lines read by several kinds find the odd lines of each kind", () => {
  // A listing's rows: by their first word (the mode) the setuid row is a kind of its own; by
  // their layout it is odd among the others, and the other owner is odd by either.
  const rows = Array.from(
    { length: 30 },
    (_, i) =>
      `${i === 7 ? "-rwsr-xr-x" : "-rwxr-xr-x"} 1 ${i === 20 ? "alice" : "root"} root ${
        1000 + i
      } Nov 27 05:10 tool${i}`,
  );
  const byMode = (line: string) => line.split(" ")[0];
  const byLayout = (line: string) => String(line.split(" ").length);
  const each = [...oddLines(rows, [byMode]), ...oddLines(rows, [byLayout])];
  const both = oddLines(rows, [byMode, byLayout]);
  expect([...both].sort((a, b) => a - b)).toEqual([...new Set(each)].sort((a, b) => a - b));
  expect([...both].sort((a, b) => a - b)).toEqual([7, 20]);
  // Identical lines read as one: a run of one line repeated has no odd line.
  expect(oddLines(Array(40).fill(rows[0]), [byMode, byLayout]).size).toBe(0);
});

Deno.test("outliers: a listing's file of another folder or kind stays among paths of one template", () => {
  // `git clean -ndx`: 120 objects of obj/ and, among them, a folder and files of other kinds.
  const input = lines(new URL("git_clean_ndx.txt", FIXTURES));
  const out = filtered("git clean -ndx", input);
  for (
    const odd of ["Would remove coverage.xml", "Would remove dist/", "Would remove server.log"]
  ) {
    expect(input).toContain(odd);
    expect(out).toContain(odd);
  }
  expect(out.length).toBeLessThan(12);
  // Paths of one folder and kind that differ in their names fold whole.
  const objects = input.filter((line) => line.startsWith("Would remove obj/"));
  expect(findOutliers(objects).kept.size).toBe(0);
  // A numbered folder among numbered folders is alike; another folder is odd.
  const shards = Array.from({ length: 30 }, (_, i) => `removed shard_${i}/part_${i}.parquet`);
  expect(findOutliers(shards).kept.size).toBe(0);
  shards[17] = "removed shard_17/part_17.parquet.tmp";
  expect([...findOutliers(shards).kept]).toEqual([17]);
  // Names without an extension (a bin folder): a dot in one name makes no other kind.
  const bins = Array.from(
    { length: 30 },
    (_, i) => `-rwxr-xr-x 1 root root ${1000 + i * 37} tool${i}`,
  );
  bins[9] = "-rwxr-xr-x 1 root root 1333 vim.basic";
  expect(findOutliers(bins).kept.size).toBe(0);
});
