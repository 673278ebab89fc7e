/**
 * json: reads JSON reporters, a whole document (`eslint -f json`, `npm audit --json`, `gh … --json`)
 * or JSON lines (`go test -json`, `cargo --message-format=json`, structured logs), and keeps what
 * a failure needs: items whose status says they passed go (counted), fields that only repeat
 * bookkeeping go (timestamps, durations, zero counts, empty values, a file's source text), and a
 * record that carries its own rendered text (`Output`, `message.rendered`) is shown as that text.
 * Lines that are not JSON (a build error printed before the reporter started) stay in place.
 * Output that is not JSON passes unchanged (Fallback). With `findings`, a document whose list
 * of findings is found (rubocop's `files.offenses`, golangci-lint's `Issues`) is shown as one line
 * per finding (`app/x.rb:3 Style/Foo message`) and a summary line instead. A rule renders: its
 * lines are shorter than the document's and say the same. Where no rule knows the format (the
 * generic pass), or a rule sets `printed`, a document printed over several lines (`| jq .`, `npm
 * audit --json`) is not rendered: the lines as printed of what a rendering shows stay (see
 * #printedLines), so a line copied from the report is found whole.
 *
 * In a compound command's output the other commands' lines need no part of their own: lines that
 * are not JSON stay in place.
 */
import { appendAll } from "../arrays.ts";
import { z } from "zod";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { carriesFailure } from "./_shared.ts";
import { MAX_SPAN_DEPTH, type Span, spansOf } from "./_json_spans.ts";

export const JsonConfig = z.object({
  type: z.literal("json"),
  item_fields: z.array(z.string()).default([]).describe(
    "JSON lines: fields (dotted paths) whose values name the item a record belongs to; an item's status is its last record's",
  ),
  status_fields: z.array(z.string()).default([
    "Action",
    "status",
    "outcome",
    "result",
    "conclusion",
    "reason",
  ]).describe("Fields read, in order, for a record's status"),
  pass_values: z.array(z.string()).default([
    "pass",
    "passed",
    "ok",
    "success",
    "succeeded",
    "skip",
    "skipped",
    "compiler-artifact",
    "build-script-executed",
  ]).describe("Statuses of items that passed: their records go"),
  skip_values: z.array(z.string()).default([]).describe(
    "Statuses of items that did not run: their text stays (the reason), counted as skipped",
  ),
  quiet_values: z.array(z.string()).default(["run", "start", "pause", "cont", "bench"]).describe(
    "Statuses of records that only mark progress: they go whatever the item's status",
  ),
  text_fields: z.array(z.string()).default(["Output", "message.rendered", "rendered"]).describe(
    "Fields holding a record's rendered text, shown instead of the record",
  ),
  drop_fields: z.array(z.string()).default([
    "Time",
    "time",
    "timestamp",
    "Elapsed",
    "elapsed",
    "duration",
    "source",
    "suppressedMessages",
    "suggestions",
    "usedDeprecatedRules",
    "nodeType",
    "messageId",
    "endLine",
    "endColumn",
  ]).describe("Field names dropped wherever they occur"),
  max_items: z.number().int().min(1).default(200).describe("Kept items shown; the rest counted"),
  printed: z.boolean().default(false).describe(
    "A document printed over several lines keeps its kept lines as printed instead of a rendering",
  ),
  findings: z.object({
    at: z.string().min(1).describe(
      "Dotted path of the findings through nested lists (`files.offenses`, `Issues`; `[]`: the document's own list)",
    ),
    format: z.string().min(1).max(300).describe(
      "One finding's line; {a.b} is the field of the finding, else of the objects holding it ({a.0}: a list's first element; {a.b+1}: a number plus one)",
    ),
    summary: z.string().max(300).optional().describe(
      "Line after the findings, its {a.b} read from the document; {#} is the findings' count",
    ),
    keep: z.array(z.string()).default([]).describe(
      "Document fields shown as they are when not empty (rspec's `messages`)",
    ),
    group: z.string().min(1).max(100).optional().describe(
      "A finding's key ({path}) that starts its line: two or more findings of one key are shown under it, each line without it",
    ),
  }).strict().optional().describe("A document shown as one line per finding, passing ones counted"),
}).strict();
export type JsonConfig = z.infer<typeof JsonConfig>;

/** A parsed JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A document above this size is not parsed: it passes unchanged. */
const MAX_DOCUMENT_CHARS = 16 * 1024 * 1024;

export function compileJson(config: JsonConfig): CompiledStrategy {
  return compileReader(new JsonReader(config));
}

/**
 * The json strategy's reading where no rule asked for it (the generic pass): a JSON line kept is
 * the line as printed, never the record re-written; records still go (passing, progress) or show
 * their rendered text as with a rule. Null when the lines do not read as JSON: no document parses
 * and JSON records are no more than the lines of text (a service's one log record before the
 * crash it prints as text), so that the text's folds read them. `found` is the document amid text
 * (documentAmid) of the lines, when the caller has already found it: it is read instead of
 * searching and parsing those lines again.
 */
export function readJsonAsPrinted(
  config: JsonConfig,
  lines: string[],
  { found }: { found?: DocumentAmid } = {},
): string[] | null {
  let chars = 0;
  for (const line of lines) chars += line.length + 1;
  if (chars > MAX_DOCUMENT_CHARS) return null;
  return new JsonReader(config, { asPrinted: true, found }).read(lines);
}

function compileReader(reader: JsonReader): CompiledStrategy {
  return {
    type: "json",
    createStage(ctx: StageContext): Stage {
      const lines: string[] = [];
      let chars = 0;
      return {
        push(line) {
          lines.push(line);
          chars += line.length + 1;
        },
        finish() {
          const out = chars <= MAX_DOCUMENT_CHARS ? reader.read(lines) : null;
          for (const line of out ?? lines) ctx.emit(line);
          return out ? "full" : "fallback";
        },
      };
    },
  };
}

/** Whether a text looks like JSON output (a document or JSON lines) at its first non-blank line. */
export function looksLikeJson(firstLine: string): boolean {
  const t = firstLine.trimStart();
  return t.startsWith("{") || (t.startsWith("[") && !/^\[[\w\s./:-]*\]/.test(t));
}

/** Lines of text around a document printed amid text, at most. */
const MAX_AROUND = 20;

/** A document printed amid text: its first and last lines and its value. */
export type DocumentAmid = { open: number; close: number; document: Json };

/**
 * A document printed over several lines amid text: its first line a bare `{` or `[` and its last
 * a bare `}` or `]`, at the line's start, with a few lines of text before or after it; null when
 * there is none or the lines between do not parse.
 */
export function documentAmid(lines: string[]): DocumentAmid | null {
  const open = lines.findIndex((line) => bare(line, OPENING));
  if (open < 0) return null;
  const closing = lines[open][0] === "{" ? CLOSING_OBJECT : CLOSING_ARRAY;
  let close = lines.length - 1;
  while (close > open && !bare(lines[close], closing)) close--;
  if (close <= open) return null;
  // A few lines around it (an echo, a failure's lines): a long log around a document is a log.
  let around = 0;
  for (let i = 0; i < lines.length && around <= MAX_AROUND; i++) {
    if ((i < open || i > close) && lines[i].trim() !== "") around++;
  }
  if (around === 0 || around > MAX_AROUND) return null;
  try {
    return { open, close, document: JSON.parse(lines.slice(open, close + 1).join("\n")) as Json };
  } catch {
    return null;
  }
}

const OPENING = [123, 91]; // `{`, `[`
const CLOSING_OBJECT = [125]; // `}`
const CLOSING_ARRAY = [93]; // `]`

/**
 * Whether a line is one of these brackets (char codes) at its start, blanks after it aside. The
 * first character is tested first: the generic pass asks this of every line no rule read, and
 * trimming each would allocate a string.
 */
function bare(line: string, codes: number[]): boolean {
  return codes.includes(line.charCodeAt(0)) && line.trimEnd().length === 1;
}

/** Whether lines that look like JSON records (`{…}` on one line) outnumber the other lines. */
function mostlyRecords(lines: string[]): boolean {
  let objects = 0;
  let text = 0;
  for (const line of lines) {
    const t = line.trim();
    if (t.startsWith("{") && t.endsWith("}")) objects++;
    else if (t !== "") text++;
  }
  return objects > text;
}

class JsonReader {
  #pass: Set<string>;
  #quiet: Set<string>;
  #skip: Set<string>;
  #drop: Set<string>;
  #asPrinted: boolean;
  #found: DocumentAmid | undefined;
  /**
   * The fields a finding's line shows, as a tree of their paths (`exception` → `class`, …) with a
   * status field: a printed finding keeps the lines of these (`drop_fields` or not), no others.
   */
  #shown: Shown;

  constructor(
    readonly config: JsonConfig,
    options: { asPrinted?: boolean; found?: DocumentAmid } = {},
  ) {
    this.#asPrinted = options.asPrinted ?? false;
    this.#found = options.found;
    this.#pass = new Set(config.pass_values.map((v) => v.toLowerCase()));
    this.#quiet = new Set(config.quiet_values.map((v) => v.toLowerCase()));
    this.#skip = new Set(config.skip_values.map((v) => v.toLowerCase()));
    this.#drop = new Set(config.drop_fields);
    this.#shown = new Map();
    const paths = [...(config.findings?.format ?? "").matchAll(/\{([\w.-]+)/g)].map((m) => m[1]);
    for (const path of [...paths, ...config.status_fields]) {
      let at = this.#shown;
      for (const key of path.split(".")) {
        const next: Shown = at.get(key) ?? new Map();
        at.set(key, next);
        at = next;
      }
    }
  }

  /** The kept lines, or null when the input is not JSON. */
  read(lines: string[]): string[] | null {
    const first = lines.findIndex((l) => l.trim() !== "");
    if (first < 0) return null;
    if (looksLikeJson(lines[first])) {
      const document = this.#document(lines);
      if (document !== undefined) {
        const printed = this.#asPrinted || this.config.printed
          ? this.#printedLines(lines, document)
          : null;
        return printed ?? this.#showFindings(document) ?? this.#showDocument(document);
      }
      const amid = this.#printedAmid(lines);
      if (amid !== null) return amid;
      // Where no rule asked for JSON, records must be most of the lines: a first record alone
      // (a log line before a crash) makes no JSON output.
      return !this.#asPrinted || mostlyRecords(lines) ? this.#jsonLines(lines) : null;
    }
    const amid = this.#printedAmid(lines);
    if (amid !== null) return amid;
    // JSON lines after a few plain ones (go vet's errors before `go test -json`'s records).
    return mostlyRecords(lines) ? this.#jsonLines(lines) : null;
  }

  /**
   * Where printed lines are kept (see #printedLines), a document printed over several lines amid
   * text (`npm run` echoing its script before it, `npm ERR!` lines after it): the text stays in
   * its place and the document's lines are read; null when there is no such document.
   */
  #printedAmid(lines: string[]): string[] | null {
    if (!this.#asPrinted && !this.config.printed) return null;
    const amid = this.#found ?? documentAmid(lines);
    if (amid === null) return null;
    const { open, close, document } = amid;
    const printed = this.#printedLines(lines.slice(open, close + 1), document);
    if (printed === null) return null;
    const out = lines.slice(0, open);
    appendAll(out, printed);
    appendAll(out, lines.slice(close + 1));
    return out;
  }

  /**
   * A document printed over several lines (`| jq .`, `npm audit --json`): the lines as printed
   * of what a rendering would show (the failing findings and the fields around them, the
   * summary), the passing elements' lines counted; null for a document on one line, where no
   * printed line could stay.
   */
  #printedLines(lines: string[], document: Json): string[] | null {
    let printed = 0;
    for (const line of lines) if (line.trim() !== "" && ++printed > 1) break;
    if (printed < 2) return null;
    const span = spansOf(lines.join("\n"));
    if (span === null) return null;
    const picked = new Picked(lines.length);
    if (!this.#pickFindings(span, document, picked)) this.#pickDocument(span, document, picked, 0);
    return picked.lines(lines);
  }

  /** The findings' lines picked; false when the document has no such list. */
  #pickFindings(span: Span, document: Json, picked: Picked): boolean {
    const spec = this.config.findings;
    if (!spec) return false;
    type At = { span: Span; value: Json; scopes: At[]; top: At | null };
    let items: At[] = [{ span, value: document, scopes: [], top: null }];
    const segments = spec.at.split(".");
    segments.forEach((segment, depth) => {
      let found = items.length === 0;
      const next: At[] = [];
      for (const at of items) {
        const child = segment === "[]"
          ? (Array.isArray(at.value) ? at : undefined)
          : childAt(at, segment);
        if (child === undefined || child.value === null) continue;
        found = true;
        const scopes = [at, ...at.scopes];
        const top = depth === 0 ? null : at.top ?? at;
        if (Array.isArray(child.value) && child.span.kind === "array") {
          const spans = child.span.elements;
          child.value.forEach((el, i) => next.push({ span: spans[i], value: el, scopes, top }));
        } else next.push({ span: child.span, value: child.value, scopes, top });
      }
      items = found ? next : [];
      if (!found) segments.length = 0;
    });
    if (segments.length === 0) return false;
    // The elements of the first list (rubocop's files) that hold no finding passed.
    const holders = new Set<At>();
    let shown = 0;
    let unshown = 0;
    for (const at of items) {
      if (at.top) holders.add(at.top);
      const status = this.#status(at.value);
      if (status !== null && this.#pass.has(status)) {
        picked.passed++;
        continue;
      }
      if (++shown > this.config.max_items && !carriesFailure(JSON.stringify(at.value))) {
        unshown++;
        continue;
      }
      this.#pickShown(at.span, at.value, this.#shown, picked);
      // The fields of the objects holding it that its line shows (a file's path).
      for (const scope of at.scopes.slice(0, -1)) {
        if (scope.span.kind !== "object" || !isObject(scope.value)) continue;
        for (const member of scope.span.members) {
          const value = scope.value[member.key];
          if (value !== null && typeof value === "object") continue;
          if (this.#shown.has(member.key) && !isEmpty(value)) {
            picked.add(member.line);
            this.#pick(member.value, value, picked);
          }
        }
      }
    }
    if (segments.length > 1 && span.kind === "object" && isObject(document)) {
      const first = childAt({ span, value: document }, segments[0]);
      if (first && Array.isArray(first.value)) {
        for (const el of first.value) if (isObject(el)) picked.passed++;
        picked.passed -= holders.size;
      }
    }
    if (unshown) picked.tail.push(`(${unshown} more findings not shown)`);
    // The document's fields a rendering shows: `keep`, the summary's and a `summary` object.
    const fields = new Set([...spec.keep, "summary"].map((f) => f.split(".")[0]));
    for (const m of (spec.summary ?? "").matchAll(/\{([\w-]+)/g)) fields.add(m[1]);
    if (span.kind === "object" && isObject(document)) {
      for (const member of span.members) {
        if (!fields.has(member.key)) continue;
        const value = document[member.key];
        if (this.#kept(member.key, value) === undefined) continue;
        picked.add(member.line);
        this.#pick(member.value, value, picked);
      }
    }
    return true;
  }

  /** As #keep, the lines of what it keeps picked. */
  #pickDocument(span: Span, value: Json, picked: Picked, depth: number): void {
    if (span.kind === "object" && isObject(value)) {
      this.#pickMembers(span, value, picked, depth + 1);
      return;
    }
    if (span.kind !== "array" || !Array.isArray(value)) {
      this.#pick(span, value, picked);
      return;
    }
    if (depth > 1 && value.every((el) => typeof el === "string")) {
      this.#pick(span, value, picked);
      return;
    }
    const pruned = value.map((el) => this.#prune(el));
    const containers = depth <= 1 && pruned.some((el) => hasNested(el));
    let shown = 0;
    let unshown = 0;
    value.forEach((el, i) => {
      const kept = pruned[i];
      if (kept === undefined) return;
      const status = this.#status(el);
      if (
        (status !== null && this.#pass.has(status)) ||
        (containers && isObject(kept) && !hasNested(kept))
      ) {
        picked.passed++;
        return;
      }
      if (
        depth <= 1 && ++shown > this.config.max_items && !carriesFailure(JSON.stringify(kept))
      ) {
        unshown++;
        return;
      }
      const at = span.elements[i];
      if (at.kind === "object" && isObject(el)) this.#pickMembers(at, el, picked, depth + 2);
      else this.#pick(at, el, picked);
    });
    if (unshown) picked.note(span.end, `(${unshown} more items not shown)`);
  }

  #pickMembers(
    span: Span & { kind: "object" },
    object: { [key: string]: Json },
    picked: Picked,
    depth: number,
  ): void {
    for (const member of span.members) {
      const value = object[member.key];
      if (this.#kept(member.key, value) === undefined) continue;
      picked.add(member.line);
      if (Array.isArray(value)) this.#pickDocument(member.value, value, picked, depth);
      else if (member.value.kind === "object" && isObject(value)) {
        this.#pickMembers(member.value, value, picked, depth);
      } else this.#pick(member.value, value, picked);
    }
  }

  /** A member's value as #prune keeps it (undefined: the member goes). */
  #kept(key: string, value: Json | undefined): Json | undefined {
    if (value === undefined || this.#drop.has(key)) return undefined;
    if (value === 0 && /count$/i.test(key)) return undefined;
    return this.#prune(value);
  }

  /**
   * The lines of a finding's fields its line shows; a list its line shows an element of (a
   * backtrace's first frame) is picked as #pick picks lists; a finding that is no object whole.
   */
  #pickShown(span: Span, value: Json, shown: Shown, picked: Picked): void {
    if (span.kind !== "object" || !isObject(value) || shown.size === 0) {
      this.#pick(span, value, picked);
      return;
    }
    for (const member of span.members) {
      const inner = shown.get(member.key);
      const child = value[member.key];
      if (inner === undefined || child === undefined || isEmpty(child)) continue;
      picked.add(member.line);
      if (Array.isArray(child)) this.#pick(member.value, child, picked);
      else this.#pickShown(member.value, child, inner, picked);
    }
  }

  /**
   * The lines of a value but its bookkeeping; a long list of strings (a backtrace) keeps its
   * first and the frames outside libraries, the rest counted.
   */
  #pick(span: Span, value: Json, picked: Picked): void {
    if (span.kind === "scalar") {
      if (!isEmpty(value)) picked.range(span.start, span.end);
    } else if (span.kind === "object" && isObject(value)) {
      for (const member of span.members) {
        const child = value[member.key];
        if (this.#kept(member.key, child) === undefined) continue;
        picked.add(member.line);
        this.#pick(member.value, child!, picked);
      }
    } else if (span.kind === "array" && Array.isArray(value)) {
      const frames = value.length > MAX_FRAMES && value.every((el) => typeof el === "string");
      let kept = 0;
      let folded = 0;
      value.forEach((el, i) => {
        if (frames && i > 0 && (kept >= MAX_FRAMES || LIBRARY_FRAME.test(el as string))) {
          folded++;
          return;
        }
        kept++;
        this.#pick(span.elements[i], el, picked);
      });
      if (folded) picked.note(span.end, `(${folded} more lines not shown)`);
    }
  }

  #document(lines: string[]): Json | undefined {
    try {
      return JSON.parse(lines.join("\n")) as Json;
    } catch {
      return undefined;
    }
  }

  #status(record: Json): string | null {
    for (const field of this.config.status_fields) {
      const value = pathOf(record, field);
      if (typeof value === "string") return value.toLowerCase();
      if (typeof value === "boolean" && field === "success") return value ? "success" : "fail";
    }
    return null;
  }

  /** JSON lines: records grouped by item; passing items and progress records go. */
  #jsonLines(lines: string[]): string[] | null {
    type Entry = { text: string } | { record: Json; item: string | null; line: string };
    const entries: Entry[] = [];
    const last = new Map<string, string | null>();
    let records = 0;
    for (const line of lines) {
      const t = line.trim();
      if (!t.startsWith("{") || !t.endsWith("}")) {
        entries.push({ text: line });
        continue;
      }
      let record: Json;
      try {
        record = JSON.parse(t) as Json;
      } catch {
        entries.push({ text: line });
        continue;
      }
      records++;
      const item = this.#itemOf(record);
      const status = this.#status(record);
      // An item that started and never reported (a test killed by a timeout) did not pass.
      if (item !== null && !last.has(item)) last.set(item, null);
      if (item !== null && status !== null && !this.#quiet.has(status)) last.set(item, status);
      entries.push({ record, item, line });
    }
    if (records === 0) return null;
    const out: string[] = [];
    const passed = new Set<string>();
    let dropped = 0;
    // The count goes right after the last record: the text after it (a later command's output
    // in a compound command's, `go test -json ./... ; ./seed.sh`) stays after it, in its place.
    const lastRecord = entries.findLastIndex((entry) => !("text" in entry));
    for (const entry of entries.slice(0, lastRecord + 1)) {
      if ("text" in entry) {
        out.push(entry.text);
        continue;
      }
      const { record, item, line } = entry;
      const status = this.#status(record);
      const itemStatus = item === null ? status : last.get(item) ?? status;
      if (
        (itemStatus !== null && this.#pass.has(itemStatus)) ||
        (status !== null && this.#quiet.has(status))
      ) {
        if (item !== null && itemStatus !== null && this.#pass.has(itemStatus)) passed.add(item);
        else dropped++;
        continue;
      }
      const text = this.#text(record);
      if (text !== null) {
        appendAll(out, text);
        continue;
      }
      // A record of an item whose text is shown adds only its status.
      if (item !== null && this.config.text_fields.length && status !== null) continue;
      const pruned = this.#prune(record);
      if (pruned !== undefined) out.push(this.#asPrinted ? line : JSON.stringify(pruned));
    }
    const summary = this.#summary(last);
    if (summary) out.push(summary);
    else if (passed.size) out.push(`(${passed.size} passing items not shown)`);
    else if (dropped && out.length === 0) out.push(`(${dropped} passing records not shown)`);
    for (const entry of entries.slice(lastRecord + 1)) if ("text" in entry) out.push(entry.text);
    return out;
  }

  /**
   * `[json] 41 passed, 1 failed: TestTotal` over the items every item field names (tests, not
   * their packages), failures named (at most 20); null without item fields or such items.
   */
  #summary(last: Map<string, string | null>): string | null {
    const fields = this.config.item_fields.length;
    if (!fields) return null;
    let passed = 0;
    let skipped = 0;
    const failed: string[] = [];
    for (const [item, status] of last) {
      const parts = JSON.parse(item) as (Json | undefined)[];
      if (parts.length !== fields || parts.some((p) => p === null || p === undefined)) continue;
      if (status !== null && this.#pass.has(status)) passed++;
      else if (status !== null && this.#skip.has(status)) skipped++;
      else failed.push(String(parts[fields - 1]));
    }
    if (passed + skipped + failed.length === 0) return null;
    const names = failed.slice(0, 20).join(", ") + (failed.length > 20 ? ", …" : "");
    const skips = skipped ? `, ${skipped} skipped` : "";
    return `[json] ${passed} passed, ${failed.length} failed${skips}${
      failed.length ? `: ${names}` : ""
    }`;
  }

  #itemOf(record: Json): string | null {
    if (!this.config.item_fields.length) return null;
    const parts = this.config.item_fields.map((f) => pathOf(record, f));
    if (parts.every((p) => p === undefined)) return null;
    return JSON.stringify(parts);
  }

  /** A record's rendered text, as lines (its final newline dropped), or null. */
  #text(record: Json): string[] | null {
    for (const field of this.config.text_fields) {
      const value = pathOf(record, field);
      if (typeof value === "string") {
        const text = value.replace(/\r?\n$/, "");
        return text === "" ? [] : text.split(/\r?\n/);
      }
    }
    return null;
  }

  /** The findings' lines, or null without `findings` or when the document has no such list. */
  #showFindings(document: Json): string[] | null {
    const spec = this.config.findings;
    if (!spec) return null;
    let items: { value: Json; scopes: Json[] }[] = [{ value: document, scopes: [] }];
    for (const segment of spec.at.split(".")) {
      // A path missing from every object on it is not this document's shape.
      let found = items.length === 0;
      const next: typeof items = [];
      for (const { value, scopes } of items) {
        // `[]` is the list itself (a document that is a list: `glab mr list -F json`).
        const child = segment === "[]"
          ? (Array.isArray(value) ? value : undefined)
          : isObject(value)
          ? value[segment]
          : undefined;
        if (child === undefined || child === null) continue;
        found = true;
        const inner = [value, ...scopes];
        for (const el of Array.isArray(child) ? child : [child]) {
          next.push({ value: el, scopes: inner });
        }
      }
      items = next;
      if (!found) return null;
    }
    const out: string[] = [];
    for (const field of spec.keep) {
      const value = pathOf(document, field);
      if (value === undefined || value === null || isEmpty(value)) continue;
      for (const el of Array.isArray(value) ? value : [value]) {
        out.push(
          ...(typeof el === "string"
            ? el.replace(/\r?\n$/, "").split(/\r?\n/)
            : [JSON.stringify(el)]),
        );
      }
    }
    let passed = 0;
    let shown = 0;
    const lines: { key: string; line: string }[] = [];
    let unshown = 0;
    for (const { value, scopes } of items) {
      const status = this.#status(value);
      if (status !== null && this.#pass.has(status)) {
        passed++;
        continue;
      }
      const line = fill(spec.format, [value, ...scopes]);
      // Past max_items a finding still shows when it names a failure or where one is.
      if (++shown > this.config.max_items && !carriesFailure(line)) {
        unshown++;
        continue;
      }
      const key = spec.group === undefined ? "" : fill(spec.group, [value, ...scopes]);
      lines.push({ key, line });
    }
    // A finding with a message of several lines shows each of its lines as the report holds it,
    // the lines after the first indented under it.
    out.push(
      ...groupFindings(lines).flatMap((line) =>
        line.split(/\r?\n/).map((part, i) => i === 0 || part === "" ? part : `  ${part}`)
      ),
    );
    if (unshown) out.push(`(${unshown} more findings not shown)`);
    // A summary whose fields the document lacks (rspec's `summary_line` of an empty run) falls
    // back to the count, so the output still says what was found.
    const summary = spec.summary && fill(spec.summary.replaceAll("{#}", String(shown)), [document]);
    if (summary) out.push(summary);
    else if (spec.summary) out.push(`${shown} findings`);
    else if (passed) out.push(`(${passed} passing items not shown)`);
    return out;
  }

  /** A whole document: passing elements of arrays go, the rest pruned, one element a line. */
  #showDocument(document: Json): string[] {
    const counter = { passed: 0 };
    const kept = this.#keep(document, counter, 0);
    const out: string[] = [];
    const max = this.config.max_items;
    if (Array.isArray(kept)) {
      // Past max_items an element still shows when it names a failure or where one is.
      let unshown = 0;
      kept.forEach((el, i) => {
        const line = JSON.stringify(el);
        if (i < max || carriesFailure(line)) out.push(line);
        else unshown++;
      });
      if (unshown) out.push(`(${unshown} more items not shown)`);
    } else if (kept !== null && typeof kept === "object") {
      for (const [key, value] of Object.entries(kept)) {
        out.push(`${JSON.stringify(key)}: ${JSON.stringify(value)}`);
      }
    } else if (kept !== undefined) {
      out.push(JSON.stringify(kept));
    }
    if (counter.passed) out.push(`(${counter.passed} passing items not shown)`);
    return out;
  }

  /**
   * The value pruned, arrays without their passing elements. `depth` is the nesting from the
   * document: the lists of items are the document itself or its top-level fields (eslint's
   * files, rubocop's `files`); deeper lists (a file's messages) are kept whole.
   */
  #keep(value: Json, counter: { passed: number }, depth: number): Json | undefined {
    if (depth >= MAX_SPAN_DEPTH) return this.#prune(value);
    if (Array.isArray(value)) {
      const pruned = value.map((el) => this.#prune(el));
      // In a list of containers, an element left with nothing nested (an eslint file without
      // messages) or with a passing status (a test case that passed) passed.
      const containers = depth <= 1 && pruned.some((el) => hasNested(el));
      const out: Json[] = [];
      pruned.forEach((el, i) => {
        if (el === undefined) return;
        const status = this.#status(value[i]);
        const passing = (status !== null && this.#pass.has(status)) ||
          (containers && isObject(el) && !hasNested(el));
        if (passing) counter.passed++;
        else out.push(isObject(el) ? this.#keepChildren(el, counter, depth + 2) : el);
      });
      return out;
    }
    const pruned = this.#prune(value);
    return isObject(pruned) ? this.#keepChildren(pruned, counter, depth + 1) : pruned;
  }

  #keepChildren(
    object: { [key: string]: Json },
    counter: { passed: number },
    depth: number,
  ): Json {
    const out: { [key: string]: Json } = {};
    for (const [key, value] of Object.entries(object)) {
      const kept = Array.isArray(value) ? this.#keep(value, counter, depth) : value;
      if (kept !== undefined && !isEmpty(kept)) out[key] = kept;
    }
    return out;
  }

  /**
   * Bookkeeping fields, empty values and zero counts removed; undefined when nothing is left. A
   * value nested deeper than MAX_SPAN_DEPTH below the one pruned is one opaque value, as its span
   * is: kept as it is unless empty.
   */
  #prune(value: Json, depth = 0): Json | undefined {
    if (depth >= MAX_SPAN_DEPTH) return isEmpty(value) ? undefined : value;
    if (Array.isArray(value)) {
      const out = value.map((el) => this.#prune(el, depth + 1)).filter((el) =>
        el !== undefined
      ) as Json[];
      return out.length ? out : undefined;
    }
    if (isObject(value)) {
      const out: { [key: string]: Json } = {};
      for (const [key, child] of Object.entries(value)) {
        if (this.#drop.has(key)) continue;
        if (child === 0 && /count$/i.test(key)) continue;
        const pruned = this.#prune(child, depth + 1);
        if (pruned !== undefined) out[key] = pruned;
      }
      return Object.keys(out).length ? out : undefined;
    }
    return isEmpty(value) ? undefined : value;
  }
}

/** Paths of fields as a tree: a key's fields under it (none: the whole value). */
type Shown = Map<string, Shown>;

/** A list of strings longer than this is a trace: its library frames are counted. */
const MAX_FRAMES = 8;

/** A frame in a library or the runtime, not the project's code. */
const LIBRARY_FRAME =
  /\/(gems|rubygems[\w-]*|site-packages|dist-packages|node_modules|vendor)\/|\(node:|^\s*at (java|jdk|sun|org\.junit)\./;

/** An object's member by key (the last of that name, as JSON.parse reads it), with its span. */
function childAt(
  at: { span: Span; value: Json },
  key: string,
): { span: Span; value: Json } | undefined {
  if (at.span.kind !== "object" || !isObject(at.value) || !(key in at.value)) return undefined;
  const member = at.span.members.findLast((m) => m.key === key);
  return member && { span: member.value, value: at.value[key] };
}

/** Lines of a printed document picked to stay, and the counts shown after them. */
class Picked {
  passed = 0;
  readonly tail: string[] = [];
  #kept: Uint8Array;
  #notes = new Map<number, string[]>();

  constructor(lines: number) {
    this.#kept = new Uint8Array(lines);
  }

  add(line: number): void {
    this.#kept[line] = 1;
  }

  range(start: number, end: number): void {
    for (let i = start; i <= end; i++) this.#kept[i] = 1;
  }

  /** A count shown after a line (kept or not). */
  note(line: number, text: string): void {
    const list = this.#notes.get(line) ?? [];
    list.push(text);
    this.#notes.set(line, list);
  }

  lines(input: string[]): string[] {
    const out: string[] = [];
    input.forEach((line, i) => {
      if (this.#kept[i]) out.push(line);
      const notes = this.#notes.get(i);
      if (notes) appendAll(out, notes);
    });
    appendAll(out, this.tail);
    if (this.passed > 0) out.push(`(${this.passed} passing items not shown)`);
    return out;
  }
}

/** `pathOf` where a numeric key also picks a list's element (`exception.backtrace.0`). */
function elementPath(value: Json, path: string): Json | undefined {
  let at: Json | undefined = value;
  for (const key of path.split(".")) {
    if (Array.isArray(at) && /^\d+$/.test(key)) at = at[Number(key)];
    else if (isObject(at)) at = at[key];
    else return undefined;
  }
  return at;
}

/**
 * Findings whose line starts with their group key (a file's path), two or more of one key: the
 * key once, in the place of its first finding, then each line without it, indented
 * (`app/x.rb` + `  :3 Style/Foo message`). A key of one finding keeps its line whole.
 */
function groupFindings(lines: { key: string; line: string }[]): string[] {
  // `g:` + the key for a line that starts with it, `u:` + its position for one shown whole.
  const byKey = new Map<string, string[]>();
  lines.forEach(({ key, line }, i) => {
    const id = key !== "" && line.startsWith(key) && line.length > key.length
      ? `g:${key}`
      : `u:${i}`;
    const list = byKey.get(id) ?? [];
    list.push(line);
    byKey.set(id, list);
  });
  const out: string[] = [];
  for (const [id, list] of byKey) {
    const key = id.slice(2);
    if (list.length < 2 || id.startsWith("u:")) appendAll(out, list);
    else {
      out.push(key);
      for (const line of list) out.push(`  ${line.slice(key.length).trimStart()}`);
    }
  }
  return out;
}

/**
 * A template's `{a.b}` filled from the first scope holding that path; absent or empty fields are
 * blank, and the blanks they leave in the template close up. A value is shown as the JSON string
 * holds it (a message is copied from the report, so its spaces stay); a value of several lines
 * keeps its line breaks (the finding's later lines are indented under its first).
 */
function fill(template: string, scopes: Json[]): string {
  const values: string[] = [];
  // Field names may hold a dash (pylint's `message-id`). `{a.b+1}` shows a number one higher, a
  // zero too: the 0-based lines and columns of an LSP range (pyright) read as editors count them.
  const shape = template.replace(/\{([\w.-]+)(\+1)?\}/g, (_, path: string, plusOne?: string) => {
    for (const scope of scopes) {
      const value = elementPath(scope, path);
      if (plusOne && typeof value === "number") values.push(String(value + 1));
      else if (value === undefined || isEmpty(value)) continue;
      else {values.push(
          typeof value === "string" ? value.replace(/\s+$/, "") : JSON.stringify(value),
        );}
      return `\0${values.length - 1}\0`;
    }
    return "";
  }).replace(/  +/g, " ").replace(/[ \t]+$/, "");
  return shape.replace(/\0(\d+)\0/g, (_, i: string) => values[Number(i)]);
}

/** A JSON object (not null, not a list). */
export function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isEmpty(value: Json): boolean {
  return value === null || value === "" || (Array.isArray(value) && value.length === 0) ||
    (isObject(value) && Object.keys(value).length === 0);
}

function hasNested(value: Json | undefined): boolean {
  return isObject(value) && Object.values(value).some((v) => typeof v === "object" && v !== null);
}

/** The value at a dotted path (`message.rendered`), or undefined. */
export function pathOf(value: Json, path: string): Json | undefined {
  let at: Json | undefined = value;
  for (const key of path.split(".")) {
    if (!isObject(at)) return undefined;
    at = at[key];
  }
  return at;
}
