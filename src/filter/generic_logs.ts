/**
 * Application logs before a failure: in an output whose run failed (or whose log reports an error),
 * runs of routine log lines — a time stamp, then a level of TRACE, DEBUG, INFO, NOTICE or Java's
 * FINE/CONFIG before the message (python logging, logback/slf4j, Go's log with a level word,
 * winston and pino-pretty text, Rust env_logger and tracing, klog, logfmt) — fold into one line
 * with their count, their levels and their time span. Every line at WARN or above stays, so does
 * every line that is not such a log line (a traceback, a stack trace, a panic, a plain print), every
 * routine line that names a failure or trouble (a refused connection, a killed process) or holds
 * a higher level word too (`[config] WARN …`), the few routine lines right before each line
 * that stays (what the program did just before the warning or the failure) and, before it, the
 * last line of each routine level above DEBUG (an INFO line saying how far the run got, when
 * DEBUG lines came after it).
 *
 * An HTTP server's access log (morgan's `GET /orders/2 200 64 - 0.866 ms`, the common log format
 * of Apache, nginx and python's http.server: `127.0.0.1 - - [27/Nov/2026 05:14:30] "GET / HTTP/1.1"
 * 200 -`) is a log too, its status class its level: the 2xx and 3xx requests are routine and fold,
 * each 4xx and 5xx request stays, alone (the requests before it are other clients', no context of
 * it). A request's status is no error the log reports: a passing run's access log is left to the
 * shape folds (generic_shapes.ts), which keep its odd statuses.
 *
 * A routine line that names a source location (`loaded rules from conf/auth.py:42`) stays when
 * few routine lines do: the place may be the failure's. When most of them do, the location is the
 * logger's format (klog's `controller.go:120]`, python's `%(filename)s:%(lineno)d`, Go's
 * `Lshortfile`) and says nothing of its own: those lines fold as the others.
 *
 * A routine line that differs from the other routine lines of its kind where those agree (a
 * `status=500` among `status=200`, a count of 0 among counts) stays too (generic_outliers.ts).
 *
 * A passing run's log is left alone: there the log lines are what the command was run to see. An
 * output with fewer than MIN_ROUTINE routine lines is left alone too: folding would save little.
 */

import { appendAll, FoldedLines } from "./arrays.ts";
import { FAILURE_SIGNAL, LOCATION } from "./strategies/mod.ts";
import { MAX_TESTED, runFolder } from "./generic_folds.ts";
import { oddLines, templateOf } from "./generic_outliers.ts";

/** An output folds only with at least this many routine log lines. */
const MIN_ROUTINE = 20;
/** Routine lines right before a line that stays stay with it. */
const CONTEXT = 3;

const TIME = String
  .raw`(?:\d{4}[-/]\d\d[-/]\d\d[T ])?\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?`;
/**
 * A log line's time stamp at its start (`2026-11-26 21:47:19,304`, `2026/11/26 21:48:11.400379`,
 * `21:48:07.148`, `[2026-11-26T21:48:11Z`, klog's `I1126 21:48:11.400`, logfmt's `time=…`).
 */
const STAMP = new RegExp(
  String.raw`^(?:\[|(?:time|ts|t)="?|[IWEFD](?=\d{4} ))?(` + TIME +
    String.raw`|\d{4} \d\d:\d\d:\d\d\.\d{1,9})"?\]?\s`,
);
/** The first level word after the time stamp (its case ignored). */
const LEVEL =
  /(?:^|[\s[(|:=<])(trace|debug|info|notice|fine|finer|finest|config|verbose|warn|warning|error|err|fatal|critical|crit|severe|panic|alert|emerg)(?=[\s\]):|>,]|$)/i;
/** A level word above the routine ones, anywhere in the window (`LEVEL`'s delimiters). */
const ABOVE_ROUTINE =
  /(?:^|[\s[(|:=<])(?:warn|warning|error|err|fatal|critical|crit|severe|panic|alert|emerg)(?=[\s\]):|>,]|$)/i;
/**
 * Trouble a routine log line reports in words the failure signal lacks (a refused connection, a
 * killed process, a timeout, a non-zero exit): such a line stays.
 */
const TROUBLE =
  /\b(?:refused|killed|timed out|unreachable|reset by peer|exit(?:ed)?(?: with)? (?:status|code) [1-9]|signal \d)/i;
/** A level-first line without a time stamp (python's default `INFO:name:message`). */
const LEVEL_FIRST = /^(TRACE|DEBUG|INFO):[\w.]{1,200}:/;
const ROUTINE = new Set([
  "trace",
  "debug",
  "info",
  "notice",
  "fine",
  "finer",
  "finest",
  "config",
  "verbose",
]);
/**
 * The levels of detail below INFO, and an access log's status classes: their lines fold whatever
 * comes after them.
 */
const DETAIL = /^(?:TRACE|DEBUG|FINE|FINER|FINEST|VERBOSE|\dxx)$/;
const METHOD = "(?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)";
/**
 * An access log's request line: morgan's `dev`/`tiny` (`GET /orders/2 200 64 - 0.866 ms`), or the
 * common log format (`host ident user [time] "GET /path HTTP/1.1" 200 size`), morgan's
 * `common`/`combined` among them. The groups: the time (common format), then the status.
 */
const ACCESS = new RegExp(
  String.raw`^(?:` + METHOD +
    String.raw` /\S{0,2000} ([1-5]\d\d) |\S{1,200} \S{1,100} \S{1,200} \[([^\]]{1,60})\] "` +
    METHOD + String.raw` \S{1,2000} HTTP/[\d.]{1,4}" ([1-5]\d\d) )`,
);
/** klog's level letters (`I1126 …`). */
const KLOG_ROUTINE = /^[ID]\d{4} /;
/** How far after the time stamp the level may be (past a thread name or a process id). */
const LEVEL_WINDOW = 80;

interface LogLine {
  /** The level's word in upper case. */
  level: string;
  time: string;
  routine: boolean;
}

/** The line as a log line (its level and time stamp), or null when it is none. */
export function parseLogLine(line: string): LogLine | null {
  if (line.length > MAX_TESTED) return null;
  const first = LEVEL_FIRST.exec(line);
  if (first) return { level: first[1], time: "", routine: true };
  const stamp = STAMP.exec(line);
  if (!stamp) return accessLine(line);
  if (KLOG_ROUTINE.test(line)) {
    return { level: line[0] === "I" ? "INFO" : "DEBUG", time: stamp[1], routine: true };
  }
  if (/^[WEF]\d{4} /.test(line)) return { level: line[0], time: stamp[1], routine: false };
  const window = line.slice(stamp[0].length, stamp[0].length + LEVEL_WINDOW);
  const level = LEVEL.exec(window);
  if (!level) return null;
  // A logger or thread named like a level (`[config] WARN …`, `INFO [main] ERR …`): a higher
  // level word anywhere in the window makes the line no routine one.
  const routine = ROUTINE.has(level[1].toLowerCase()) && !ABOVE_ROUTINE.test(window);
  return { level: level[1].toUpperCase(), time: stamp[1], routine };
}

/** Whether a log line is an access log's request (its level a status class). */
function isRequest(log: LogLine): boolean {
  return /^\dxx$/.test(log.level);
}

/** An access log's request line as a log line: its status class is its level. */
function accessLine(line: string): LogLine | null {
  const c = line.charCodeAt(0);
  // A method or a host (a letter, a digit, `:` of `::1`) starts one.
  if (!(c >= 65 && c <= 90) && !(c >= 48 && c <= 58) && !(c >= 97 && c <= 122)) return null;
  const access = ACCESS.exec(line);
  if (access === null) return null;
  const status = access[1] ?? access[3];
  return { level: `${status[0]}xx`, time: access[2] ?? "", routine: status < "400" };
}

/** The lines with runs of routine log lines folded, when the run failed or the log has an error. */
export function foldRoutineLogs(lines: readonly string[], failed: boolean): readonly string[] {
  // A first pass without an array of the parsed lines says whether the log reports an error and
  // how many lines are routine (a routine line that names a failure or trouble never folds): an
  // output that does not fold (most are no log) holds no parsed line per line.
  let errors = failed;
  let routine = 0;
  for (let i = 0; i < lines.length; i++) {
    const log = parseLogLine(lines[i]);
    if (log === null) continue;
    if (!errors && reportsError(log)) errors = true;
    if (log.routine && !FAILURE_SIGNAL.test(lines[i]) && !TROUBLE.test(lines[i])) routine++;
  }
  if (!errors || routine < MIN_ROUTINE) return lines;
  // The routine lines, parsed, in place of the lines (one array over a huge output).
  const logs = lines.map(parseLogLine);
  for (let i = 0; i < lines.length; i++) {
    if (!logs[i]?.routine || FAILURE_SIGNAL.test(lines[i]) || TROUBLE.test(lines[i])) {
      logs[i] = null;
    }
  }
  // Locations on under half of the routine lines are the lines' own: those lines stay.
  const located = (i: number) => logs[i] !== null && LOCATION.test(lines[i]);
  let named = 0;
  for (let i = 0; i < lines.length; i++) if (located(i)) named++;
  if (named * 2 < routine) {
    for (let i = 0; i < lines.length; i++) if (located(i)) logs[i] = null;
  }
  // A routine line that differs from the others saying the same thing where those agree (a
  // `status=500` among `status=200`, a count of 0) stays. An access log's request is read by its
  // status alone: another path or size is another request, not an odd one.
  const odd = oddLines(lines, [
    (line, i) => logs[i] && !isRequest(logs[i]) ? templateOf(line) : null,
  ]);
  const out = new FoldedLines(lines);
  let levels = new Map<string, number>();
  let first: string | undefined;
  let last: string | undefined;
  const run = runFolder(out, (count) => foldLine(count, levels, first, last));
  for (let i = 0; i < lines.length;) {
    if (!logs[i]) {
      out.push(lines[i++]);
      continue;
    }
    let end = i;
    while (end < lines.length && logs[end]) end++;
    // The last routine lines before a line that stays stay too (the end of the output is the
    // failure's place when the program died without a log line), unless that line is a request
    // of an access log, which other clients' requests before it say nothing of.
    const after = end < lines.length ? parseLogLine(lines[end]) : null;
    const request = after !== null && isRequest(after);
    const foldEnd = request ? end : Math.max(i, end - CONTEXT);
    // The last line of each level above DEBUG (INFO, NOTICE) stays: how far the run got.
    const lastOfLevel = new Set<number>();
    const seen = new Set<string>();
    for (let j = end - 1; j >= i; j--) {
      const level = logs[j]!.level;
      if (seen.has(level) || DETAIL.test(level)) continue;
      seen.add(level);
      if (j < foldEnd) lastOfLevel.add(j);
    }
    levels = new Map();
    first = last = undefined;
    for (let j = i; j < foldEnd; j++) {
      const log = logs[j]!;
      // An odd one out of its kind of line stays, between the folds of the lines around it.
      if (odd.has(j) || lastOfLevel.has(j)) {
        run.flush();
        out.push(lines[j]);
        levels = new Map();
        first = last = undefined;
        continue;
      }
      levels.set(log.level, (levels.get(log.level) ?? 0) + 1);
      if (log.time) {
        first ??= log.time;
        last = log.time;
      }
      run.add(lines[j]);
    }
    run.flush();
    appendAll(out, lines, foldEnd, end);
    i = end;
  }
  return out.lines();
}

/** Whether a parsed line is a log line at ERROR level or above. */
function reportsError(log: LogLine | null): boolean {
  return log !== null && !log.routine && !/^WARN/.test(log.level) && log.level !== "W" &&
    !isRequest(log);
}

function foldLine(
  count: number,
  levels: Map<string, number>,
  first: string | undefined,
  last: string | undefined,
): string {
  const byLevel = [...levels].map(([level, n]) => `${n} ${level}`).join(", ");
  // The last time without the date both share.
  const date = first === undefined ? null : /^\d{4}[-/]\d\d[-/]\d\d[T ]/.exec(first);
  const span = first === undefined || last === undefined
    ? ""
    : `, ${first} to ${date && last.startsWith(date[0]) ? last.slice(date[0].length) : last}`;
  return `… ${count} log lines folded (${byLevel}${span}) …`;
}
