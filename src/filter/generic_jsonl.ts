/**
 * JSON-lines logs with no rule (python's logging with a JSON formatter, Go's zap, slog and logrus,
 * Node's pino and bunyan, Rust's tracing-subscriber, the logs of such programs through docker or
 * kubectl, hclog, `journalctl -o json`): each record is read for its level (`level`, `levelname`,
 * `severity`, `lvl`, `@l`, `@level`, `log.level`; pino's and bunyan's numbers 10 to 60; journald's
 * syslog `PRIORITY`) and its message (`msg`, `message`, `@m`, `@message`, `MESSAGE`, `event`,
 * tracing's `fields.message`). Runs of alike routine records — below warning, no error,
 * exception or stack field, no failure in their text, one logger and one message with its numbers,
 * paths and ids masked — fold around their outliers (generic_outliers.ts) to their first and last
 * records and one line saying how many records went and which fields differ among them.
 *
 * Every record that stays is the line as printed, byte for byte: records at warning or above,
 * records with an error field, the first and last record of the output and of each run, a record
 * whose message is not alike its neighbours', and the odd ones out of a run. Lines that are not
 * JSON (a traceback printed between records) stay in their places and end a run.
 */

import { FoldedLines } from "./arrays.ts";
import { carriesFailure, FAILURE_SIGNAL, isObject, type Json, pathOf } from "./strategies/mod.ts";
import { findOutliers, templateOf } from "./generic_outliers.ts";
import { MAX_SHAPED_LINES } from "./generic_shapes.ts";

type Record = { [key: string]: Json };

/** An output is a JSON-lines log with at least this many records. */
const MIN_RECORDS = 8;
/** Runs of fewer alike records stay as printed. */
const MIN_RUN = 5;
/** Stretches of fewer records between kept ones stay as printed (a fold line saves nothing). */
const MIN_FOLDED = 3;

const LEVEL_FIELDS = [
  "level",
  "levelname",
  "severity",
  "lvl",
  "@l",
  "@level",
  "log.level",
  "loglevel",
];
const MESSAGE_FIELDS = [
  "msg",
  "message",
  "@m",
  "@message",
  "event",
  "fields.message",
  "@mt",
  "MESSAGE",
];
/**
 * journald's level (`journalctl -o json`): a syslog priority as a string, `0` (emerg) to `7`
 * (debug); below warning (`4`) is routine.
 */
const PRIORITY_FIELD = "PRIORITY";
const SYSLOG_PRIORITY = /^[0-7]$/;
const SYSLOG_WARNING = 4;
/** Fields naming the logger: records of two loggers are not alike. */
const LOGGER_FIELDS = [
  "name",
  "logger",
  "logger_name",
  "target",
  "component",
  "module",
  "@module",
  "SYSLOG_IDENTIFIER",
];
/** Fields of a record that say when it was written: their values differ, and say nothing. */
const TIME_FIELDS = new Set([
  "asctime",
  "time",
  "timestamp",
  "ts",
  "@t",
  "@timestamp",
  "created",
  "msecs",
  "relativeCreated",
  "__CURSOR",
  "__REALTIME_TIMESTAMP",
  "__MONOTONIC_TIMESTAMP",
  "_SOURCE_REALTIME_TIMESTAMP",
  "_SOURCE_MONOTONIC_TIMESTAMP",
]);
/** A field holding an error, an exception or a stack: its record stays. */
const ERROR_FIELD =
  /^(?:err|error|errors|exception|exc_info|exc_text|stack|stacktrace|stack_trace|traceback|panic|error\.[\w.]+)$/i;
/**
 * Fields naming where in the source a record was written (zap's `caller`, python's `funcName`):
 * a function named `handle_error` says nothing of how things went.
 */
const SOURCE_FIELDS = new Set([
  "caller",
  "source",
  "pathname",
  "filename",
  "funcName",
  "func",
  "function",
  "file",
]);
/** Fields holding an HTTP response's status (pino-http's `res.statusCode`, ECS's nesting). */
const STATUS_FIELDS = [
  "status",
  "status_code",
  "statusCode",
  "http_status",
  "res.statusCode",
  "http.status_code",
  "http.response.status_code",
];
/** A server error's status: an access log logs it at info like every request. */
const SERVER_ERROR = /^5\d\d$/;
/** Level names below warning (slog's `DEBUG-4` is read without its offset). */
const ROUTINE = new Set([
  "trace",
  "trc",
  "debug",
  "dbg",
  "info",
  "inf",
  "information",
  "notice",
  "verbose",
  "fine",
  "finer",
  "finest",
  "config",
]);
/** pino's and bunyan's numeric levels: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal. */
const NUMERIC_WARN = 40;
const NUMERIC_TRACE = 10;

/** One line of the output: a record read, or null for a line that is not one. */
interface Read {
  record: Record | null;
  /** The record's level as printed (`INFO`, `30`), or "" without one. */
  level: string;
  /** Whether the record may fold: below warning, no error field, no failure in it. */
  routine: boolean;
  /** What records alike share: level, logger, masked message and field names. */
  key: string;
}

/**
 * The lines with runs of alike routine records folded (`lines` itself when nothing folds), or
 * null when they are no JSON-lines log (too few records, records without a level or message).
 */
export function foldJsonLogs(lines: readonly string[]): readonly string[] | null {
  if (lines.length < MIN_RECORDS || lines.length > MAX_SHAPED_LINES) return null;
  // Most outputs hold no JSON object line at all: they are not parsed.
  let objects = 0;
  for (const line of lines) if (line.trimStart().startsWith("{")) objects++;
  if (objects < MIN_RECORDS) return null;
  const reads = lines.map(readLine);
  let records = 0;
  let logLike = 0;
  let other = 0;
  for (let i = 0; i < lines.length; i++) {
    const record = reads[i].record;
    if (record === null) {
      if (lines[i].trim() !== "") other++;
      continue;
    }
    records++;
    if (reads[i].key !== "") logLike++;
  }
  // A log: most lines are records, and nearly all records have a level or a message (rows of
  // data printed as JSON lines, `docker ps --format json`, have neither and never fold).
  if (records < MIN_RECORDS || records < other || logLike < 0.8 * records) return null;
  // The first and last records of the output are the first and last of their runs: they stay.
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length;) {
    const read = reads[i];
    if (!foldable(read)) {
      out.push(lines[i++]);
      continue;
    }
    let end = i + 1;
    while (end < lines.length && foldable(reads[end])) {
      if (reads[end].key !== read.key) break;
      end++;
    }
    if (end - i >= MIN_RUN) foldRun(lines, reads, i, end, out);
    else for (let k = i; k < end; k++) out.push(lines[k]);
    i = end;
  }
  return out.lines();
}

function foldable(read: Read): boolean {
  return read.record !== null && read.routine && read.key !== "";
}

/**
 * The run `[from, to)` of alike records folded: its first and last records and its outliers stay;
 * each stretch between of at least MIN_FOLDED records becomes one line.
 */
function foldRun(
  lines: readonly string[],
  reads: readonly Read[],
  from: number,
  to: number,
  out: FoldedLines,
): void {
  const records = reads.slice(from, to).map((r) => r.record!);
  // Outliers are read on the record's values as words, its time fields aside.
  const { kept, counted } = findOutliers(records.map(valuesOf));
  const keep = new Set([0, records.length - 1, ...kept]);
  for (let u = 0; u < records.length;) {
    if (keep.has(u)) {
      out.push(lines[from + u++]);
      continue;
    }
    let end = u;
    while (end < records.length && !keep.has(end)) end++;
    if (end - u < MIN_FOLDED) {
      for (let k = u; k < end; k++) out.push(lines[from + k]);
    } else {
      const labels = new Map<string, number>();
      for (let k = u; k < end; k++) {
        const label = counted.get(k);
        if (label !== undefined) labels.set(label, (labels.get(label) ?? 0) + 1);
      }
      out.push(foldLine(records.slice(u, end), reads[from].level, labels));
    }
    u = end;
  }
}

/**
 * `… 21 records like these folded (level INFO; message differs) …`: the count, the level and the
 * fields whose values differ among the folded records, time fields aside (with the odd values
 * counted).
 */
function foldLine(records: Record[], level: string, labels: Map<string, number>): string {
  const differ: string[] = [];
  const firstValues = new Map<string, string>();
  const names: string[] = [];
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) {
      // When each record was written differs always, and says nothing.
      if (TIME_FIELDS.has(key)) continue;
      const text = JSON.stringify(value);
      if (!firstValues.has(key)) {
        firstValues.set(key, text);
        names.push(key);
      } else if (firstValues.get(key) !== text && !differ.includes(key)) differ.push(key);
    }
  }
  const notes: string[] = [];
  if (level !== "") notes.push(`level ${level}`);
  if (differ.length) {
    const ordered = names.filter((name) => differ.includes(name));
    notes.push(`${ordered.join(", ")} ${ordered.length === 1 ? "differs" : "differ"}`);
  }
  const odd = [...labels].map(([label, n]) => `${n} with ${unbracketed(label)}`);
  if (odd.length) notes.push(odd.join(", "));
  const note = notes.length ? ` (${notes.join("; ")})` : "";
  return `… ${records.length} records like these folded${note} …`;
}

/** An odd value as a word of the record holds it, without a bracket it does not close (`(480`). */
function unbracketed(label: string): string {
  if (label.startsWith("(") && !label.includes(")")) return label.slice(1);
  if (label.endsWith(")") && !label.includes("(")) return label.slice(0, -1);
  return label;
}

/** A record's values as words (strings as they are, the rest as JSON), time fields aside. */
function valuesOf(record: Record): string {
  const words: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (TIME_FIELDS.has(key)) continue;
    words.push(typeof value === "string" ? value : JSON.stringify(value));
  }
  return words.join(" ");
}

const NOT_A_RECORD: Read = { record: null, level: "", routine: false, key: "" };

/** A line read as a log record (its key "" when it has neither level nor message). */
function readLine(line: string): Read {
  const t = line.trim();
  if (!t.startsWith("{") || !t.endsWith("}")) return NOT_A_RECORD;
  let record: Json;
  try {
    record = JSON.parse(t) as Json;
  } catch {
    return NOT_A_RECORD;
  }
  if (!isObject(record)) return NOT_A_RECORD;
  const priority = record[PRIORITY_FIELD];
  const levelValue = firstOf(record, LEVEL_FIELDS) ??
    (typeof priority === "string" && SYSLOG_PRIORITY.test(priority) ? priority : undefined);
  const message = firstOf(record, MESSAGE_FIELDS);
  const level = typeof levelValue === "string" || typeof levelValue === "number"
    ? String(levelValue)
    : "";
  if (level === "" && typeof message !== "string") return { ...NOT_A_RECORD, record };
  const routine = isRoutine(levelValue) && !hasErrorField(record) &&
    !(typeof message === "string" && carriesFailure(message)) && !fieldFails(record) &&
    !serverError(record);
  const logger = firstOf(record, LOGGER_FIELDS);
  const key = [
    level,
    typeof logger === "string" ? logger : "",
    typeof message === "string" ? templateOf(message) : "",
    Object.keys(record).join(","),
  ].join("\0");
  return { record, level, routine, key };
}

/** Whether a level is below warning (a record without one is routine). */
function isRoutine(level: Json | undefined): boolean {
  if (level === undefined || level === null) return true;
  if (typeof level === "number") return level >= NUMERIC_TRACE && level < NUMERIC_WARN;
  if (typeof level !== "string") return false;
  if (SYSLOG_PRIORITY.test(level)) return Number(level) > SYSLOG_WARNING;
  return ROUTINE.has(level.trim().toLowerCase().replace(/[+-]\d+$/, ""));
}

/**
 * Whether a field's text names a failure (`"result": "failed"`, `"state": "aborted"`): an outcome
 * logged in a field of an alike message is no routine record. The logger's name, the time and
 * where in the source the record was written are no outcome.
 */
function fieldFails(record: Record): boolean {
  for (const [key, value] of Object.entries(record)) {
    if (typeof value !== "string" || TIME_FIELDS.has(key) || SOURCE_FIELDS.has(key)) continue;
    if (LOGGER_FIELDS.includes(key) || MESSAGE_FIELDS.includes(key)) continue;
    if (FAILURE_SIGNAL.test(value)) return true;
  }
  return false;
}

/** Whether a record logs a response with a server error's status (`"status": 503`). */
function serverError(record: Record): boolean {
  for (const field of STATUS_FIELDS) {
    const status = firstOf(record, [field]);
    if (
      (typeof status === "number" || typeof status === "string") && SERVER_ERROR.test(`${status}`)
    ) {
      return true;
    }
  }
  return false;
}

function hasErrorField(record: Record): boolean {
  for (const [key, value] of Object.entries(record)) {
    if (ERROR_FIELD.test(key) && !isEmpty(value)) return true;
  }
  return false;
}

/** The first of `fields` a record holds (a dotted name as one key, or as a path). */
function firstOf(record: Record, fields: readonly string[]): Json | undefined {
  for (const field of fields) {
    if (field in record) return record[field];
    if (!field.includes(".")) continue;
    const at = pathOf(record, field);
    if (at !== undefined) return at;
  }
  return undefined;
}

function isEmpty(value: Json): boolean {
  return value === null || value === "" || value === false ||
    (Array.isArray(value) && value.length === 0) ||
    (isObject(value) && Object.keys(value).length === 0);
}
