/**
 * The engine: picks the rules matching a command, runs them in sequence over the sanitised
 * output line by line, appends the security pass, and reports stats and confidence.
 */
import type { FilterStats } from "../tools/registry.ts";
import { matchCandidates } from "./command.ts";
import type { CompiledRule } from "./rule.ts";
import {
  BlankCollapser,
  countLines,
  isBlank,
  isVisibleAscii,
  sanitize,
  sanitizeLine,
} from "./sanitize.ts";
import { SecurityScanner } from "./security.ts";
import { type ChunkSink, forEachChunk, MAX_ENCODED, textStart } from "./chunks.ts";
import { onText, type Pattern, progressively } from "./regex.ts";
import { type Confidence, type Stage, worstConfidence } from "./types.ts";

export interface EngineOptions {
  /** Master switch (`[tools.filters] enabled`). @default true */
  enabled?: boolean;
  /** `[tools.filters.security] enabled`. @default true */
  security?: boolean;
  /** Compiled `[tools.filters.security] extra_patterns`. */
  extraPatterns?: Pattern[];
  /** The label of the stats line. @default "shell" */
  label?: string;
}

export interface FilterOutcome {
  /** What the model reads. */
  text: string;
  stats: FilterStats;
  /** Names of the rules that ran, in order (empty when none matched). */
  rules: string[];
}

/** Notices the bash tool appends (`[exit code 2]`, timeouts); kept out of the rules' reach. */
const NOTICE =
  /^\[(exit code -?\d+|exit status -?\d+|timeout|timed out|cancelled|killed by [^\]]+|background|truncated|output truncated)\]/;
const STDERR_PREFIX = "[stderr] ";
/**
 * Two or more blank lines in a row: whitespace-only as `trim()` sees it (every `\s` character
 * but the newline, written out: V8 runs a listed class faster than `[^\S\n]`).
 */
const BLANK_RUNS =
  /\n(?:[ \t\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*\n){2,}/g;

/** F/P/B counters and token savings for one session (the CLI and ACP read them). */
export class FilterSession {
  readonly counts: Record<Confidence, number> = { full: 0, partial: 0, fallback: 0 };
  commands = 0;
  filtered = 0;
  rawChars = 0;
  filteredChars = 0;

  record(outcome: FilterOutcome): void {
    this.commands++;
    this.rawChars += outcome.stats.rawChars;
    this.filteredChars += outcome.stats.filteredChars;
    if (outcome.rules.length === 0) return;
    this.filtered++;
    this.counts[outcome.stats.confidence]++;
  }

  /** Estimated tokens saved (chars / 4, as the reference and RTK count). */
  get tokensSaved(): number {
    return Math.max(0, Math.round((this.rawChars - this.filteredChars) / 4));
  }

  /** `F/P/B 12/3/1` */
  summary(): string {
    const { full, partial, fallback } = this.counts;
    return `F/P/B ${full}/${partial}/${fallback}`;
  }
}

export class FilterEngine {
  readonly rules: readonly CompiledRule[];
  readonly enabled: boolean;
  readonly securityEnabled: boolean;
  /** The default session the hook records into. */
  readonly session = new FilterSession();
  #extra: Pattern[];
  #label: string;

  constructor(rules: CompiledRule[], options: EngineOptions = {}) {
    this.rules = rules;
    this.enabled = options.enabled ?? true;
    this.securityEnabled = options.security ?? true;
    this.#extra = options.extraPatterns ?? [];
    this.#label = options.label ?? "shell";
  }

  /** Every rule matching the command (whole, or its normalised last segment), in order. */
  match(command: string): CompiledRule[] {
    const candidates = matchCandidates(command);
    return this.rules.filter((rule) => candidates.some((c) => rule.matches(c)));
  }

  /**
   * Filters one command's output. Never throws for any input. `utf8`, when the caller still
   * holds it: the bytes `raw` was decoded from (`new TextDecoder().decode`), `raw` being that
   * text with trailing newlines perhaps removed and notice lines (`[exit code 2]`) perhaps
   * appended. The security pass and a first stage that reads bytes may then read those bytes
   * instead of the text encoded again (see #run); not when the bytes' own last line reads as a
   * notice (the body is not all of them then).
   */
  filter(
    command: string,
    raw: string,
    options: { failed?: boolean; utf8?: Uint8Array } = {},
  ): FilterOutcome {
    const failed = options.failed ?? false;
    if (!this.enabled) return this.#outcome(raw, raw, [], "full");
    const { body, notices } = splitNotices(raw);
    const rules = this.match(command);
    // The caller's bytes are the body's unless the program's own last lines read as notices
    // (they went to `notices` with the caller's): then the text is scanned instead.
    const utf8 = options.utf8 && !endsWithNotice(options.utf8) ? options.utf8 : undefined;
    if (rules.length === 0) return this.#passThrough(raw, body, notices, utf8);
    const scanner = this.securityEnabled
      ? new SecurityScanner({ extraPatterns: this.#extra })
      : null;
    // Whether the text holds what the V8 translations of patterns read otherwise than RE2
    // (regex.ts): the security scan finds out in the bytes it reads anyway (see #run); without
    // the scan, one look at the whole text.
    return scanner
      ? progressively((plain) =>
        this.#run(rules, failed, raw, body, notices, utf8, { scanner, plain })
      )
      : onText(raw, () => this.#run(rules, failed, raw, body, notices, utf8, null));
  }

  /**
   * The matching rules' chain over the body, the security pass beside it. A first stage that
   * reads bytes gets the caller's bytes (`utf8`) where they serve better (`mappedBytes`), else
   * the walk's encoding, a chunk at a time. The security pass reads the caller's bytes before
   * the walk, unless the walk encodes the text anyway for the first stage or there are none:
   * then each encoded chunk before the chunk's lines go on.
   */
  #run(
    rules: CompiledRule[],
    failed: boolean,
    raw: string,
    body: string,
    notices: string[],
    utf8: Uint8Array | undefined,
    security: { scanner: SecurityScanner; plain: (yes: boolean) => void } | null,
  ): FilterOutcome {
    const output = new Output();
    const confidences: Confidence[] = [];
    // Build the chain back to front: each stage emits into the next one's push.
    const { stages, first } = chain(rules, rules.length, failed, body, utf8, output.push, []);
    const firstReadsBytes = stages[0]?.utf8 === true;
    const source = firstReadsBytes ? mappedBytes(utf8, body) : undefined;
    const scanner = security?.scanner ?? null;
    let onChunk: ChunkSink | undefined;
    if (security && utf8 && (!firstReadsBytes || source)) {
      security.scanner.scanBytes(utf8);
      security.plain(!security.scanner.exotic);
    } else if (security) {
      const { scanner, plain } = security;
      onChunk = (chunk, offset, bytes, length) => {
        // The chunk's own lines holding a trigger are looked at one by one.
        plain(false);
        scanner.scanChunk(chunk, offset, bytes, length);
        plain(!scanner.exotic);
      };
    }
    // The walk encodes the output once, for the security pass and the first stage, unless the
    // caller's bytes serve both.
    const walked = walkLines(body, first, firstReadsBytes, onChunk, source);
    if (scanner) scanRest(scanner, body, notices);
    // The stats' raw line count, from the walk instead of another pass over the text: the
    // body's newlines (a last line without one was walked too) plus those of the notices.
    const newlines = walked - (body.length > 0 && !body.endsWith("\n") ? 1 : 0) +
      countNewlines(raw, body.length);
    const rawLines = raw.length === 0 ? 0 : newlines + (raw.endsWith("\n") ? 0 : 1);
    for (const stage of stages) confidences.push(stage.finish());
    const confidence = confidences.reduce(worstConfidence, "full" as Confidence);
    // A filter must never make the output bigger than what it replaces.
    let text = output.length > body.length ? sanitize(body) : output.text();
    const appendix = scanner?.appendix(text) ?? [];
    if (appendix.length) text += (text ? "\n" : "") + appendix.join("\n").replace(/^\n/, "");
    if (notices.length) text += (text ? "\n" : "") + notices.join("\n");
    return this.#outcome(raw, text, rules.map((r) => r.name), confidence, rawLines);
  }

  /** No rule matched: sanitised text plus the security pass. */
  #passThrough(
    raw: string,
    body: string,
    notices: string[],
    utf8: Uint8Array | undefined,
  ): FilterOutcome {
    let text = body.includes("\x1b") || body.includes("\r")
      ? sanitize(body)
      : trimTrailingNewlines(body.replace(BLANK_RUNS, "\n\n"));
    if (this.securityEnabled) {
      const scanner = new SecurityScanner({ extraPatterns: this.#extra });
      if (utf8) scanner.scanBytes(utf8);
      else forEachChunk(body, true, scanner.scanChunk);
      scanRest(scanner, body, notices);
      const appendix = scanner.appendix(text);
      if (appendix.length) text += (text ? "\n" : "") + appendix.join("\n").replace(/^\n/, "");
    }
    if (notices.length) text += (text ? "\n" : "") + notices.join("\n");
    return this.#outcome(raw, text, [], "full");
  }

  #outcome(
    raw: string,
    text: string,
    rules: string[],
    confidence: Confidence,
    rawLines = countLines(raw),
  ): FilterOutcome {
    const filteredLines = countLines(text);
    const pct = rawLines === 0 ? 0 : (1 - filteredLines / rawLines) * 100;
    const inline = filteredLines < rawLines
      ? `[${this.#label}] ${rawLines} lines -> ${filteredLines} lines, ${pct.toFixed(1)}% filtered`
      : "";
    return {
      text,
      rules,
      stats: {
        rawLines,
        filteredLines,
        rawChars: raw.length,
        filteredChars: text.length,
        confidence,
        rules,
        inline,
      },
    };
  }
}

/**
 * Stages `0..end-1` of `rules`, wired so that each emits into the next and the last into
 * `sink`. Every stage gets a `replay` that walks its input again by re-running fresh instances
 * of the stages before it over the body (stages are deterministic functions of their input),
 * so no stage has to hold its input for a Fallback pass-through. A stage that passed its input
 * through (Fallback after replaying into its own output) is left out of later replays, its
 * output being its input: re-running it would replay the stages before it again, 2^n walks for
 * n such stages instead of n.
 */
function chain(
  rules: CompiledRule[],
  end: number,
  failed: boolean,
  body: string,
  utf8: Uint8Array | undefined,
  sink: (line: string) => void,
  passedThrough: boolean[],
): { stages: Stage[]; first: LineSink } {
  const stages: Stage[] = [];
  let next: LineSink = sink;
  let nextUtf8 = false;
  for (let i = end - 1; i >= 0; i--) {
    if (passedThrough[i]) continue;
    const emit = next;
    let replayedIntoEmit = false;
    const stage = rules[i].strategy.createStage({
      emit,
      nextUtf8,
      failed,
      replay: (fn) => {
        const before = chain(rules, i, failed, body, utf8, fn, passedThrough);
        const readsBytes = before.stages[0]?.utf8 === true;
        const source = readsBytes ? mappedBytes(utf8, body) : undefined;
        walkLines(body, before.first, readsBytes, undefined, source);
        for (const s of before.stages) s.finish();
        if (fn === emit) replayedIntoEmit = true;
      },
    });
    stages.unshift({
      utf8: stage.utf8,
      push: stage.push,
      finish: () => {
        const confidence = stage.finish();
        // Fallback after replaying its input into its output: a pass-through (see Stage).
        if (confidence === "fallback" && replayedIntoEmit) passedThrough[i] = true;
        return confidence;
      },
    });
    next = stage.push;
    nextUtf8 = stage.utf8 === true;
  }
  return { stages, first: next };
}

/**
 * The caller's bytes when the walk should map the lines onto them rather than encode the text
 * again (see walkLines): when the text has multi-byte characters to speak of, more than one
 * extra byte in 1,024 characters. Encoding such a text (a two-byte string) costs more than
 * searching the end of each line that is not ASCII: make's gcc warnings take 0.7× the time.
 * Plain ASCII encodes fast, and its encoded chunks, read while they are fresh, serve the first
 * stage and the security pass: mapping took cargo test's 1.05× the time.
 *
 * Not when the text holds U+FFFD: the bytes may then be invalid UTF-8 the decoding replaced,
 * and a stage must get a line's own encoding (`Stage.push`). Valid bytes are exactly that.
 */
function mappedBytes(utf8: Uint8Array | undefined, body: string): Uint8Array | undefined {
  if (!utf8 || utf8.length - body.length <= body.length >> 10) return undefined;
  return body.includes("\uFFFD") ? undefined : utf8;
}

/** What receives the walked lines: `Stage.push`'s shape. */
type LineSink = (line: string, utf8?: Uint8Array, from?: number, to?: number) => void;

/**
 * The lines the first stage receives: sanitised (only when the text has something to sanitise,
 * which keeps the common path to one indexOf scan), `[stderr] ` prefixes dropped, blank runs
 * collapsed. Deterministic, so a stage can walk them again (`StageContext.replay`). The text
 * is walked a chunk of lines at a time (chunks.ts), encoded to UTF-8 when `onChunk` (the
 * security pass) wants it, or when `utf8` (the first stage reads bytes), the text needs no
 * sanitising and the caller has no `source` bytes; a line reaches `fn` with its bytes when it
 * is exactly those bytes (not sanitised, not a whitespace line passed on as "").
 *
 * `source`: the bytes the body was decoded from (see `filter`). Each body line is then the
 * next line of their decoding, as a newline byte never belongs to another character and the
 * decoder only drops a leading BOM: a line's bytes run to the next newline byte. Mapping
 * lines onto them costs one search per line, against encoding the text again.
 */
function walkLines(
  body: string,
  fn: LineSink,
  utf8: boolean,
  onChunk?: ChunkSink,
  source?: Uint8Array,
): number {
  const blanks = new BlankCollapser();
  const dirty = body.includes("\x1b") || body.includes("\r");
  const lineBytes = utf8 && !dirty;
  const mapped = lineBytes && source !== undefined;
  // Where the next line's bytes start in `source` (after a BOM the decoding dropped).
  let next = mapped ? textStart(source) : 0;
  let walked = 0;
  const encode = (lineBytes && !mapped) || onChunk !== undefined;
  forEachChunk(body, encode, (chunk, offset, bytes, length) => {
    onChunk?.(chunk, offset, bytes, length);
    const own = mapped ? source : bytes;
    const withBytes = lineBytes && own !== null;
    const ascii = !mapped && length === chunk.length;
    const n = chunk.length;
    let start = 0;
    let from = 0;
    while (start < n) {
      let end = chunk.indexOf("\n", start);
      if (end < 0) end = n;
      let line = chunk.slice(start, end);
      start = end + 1;
      walked++;
      if (dirty) line = sanitizeLine(line);
      // The line's bytes: [lineFrom, to) of `own` (only tracked when they are handed on; a
      // negative `to`: this line has none).
      let lineFrom = from;
      let to = -1;
      if (mapped) {
        // A line has at least as many bytes as characters, so its newline is at or after
        // `next + line.length`: right there for ASCII, a few bytes on for a line with a few
        // multi-byte characters (a search from there, not a native call from the start).
        lineFrom = next;
        const size = source.length;
        to = next + line.length;
        while (to < size && source[to] !== 10) to++;
        if (to >= size) to = -1;
        next = to < 0 ? size : to + 1;
        // A line too long to be encoded whole goes without, as it does from the chunks.
        if (line.length > MAX_ENCODED) to = -1;
      } else if (withBytes) {
        to = ascii ? end : bytes!.indexOf(10, from);
        from = to + 1;
      }
      const has = withBytes && to >= 0;
      // The first character from the bytes when they are the line's: string reads slow down
      // once a process has read strings of many kinds (measured: cargo test 1.4× slower with
      // test_summary reading its lines' first characters from the strings).
      let lead = has ? own![lineFrom] : line.charCodeAt(0);
      if (lead === 91 && line.startsWith(STDERR_PREFIX)) {
        line = line.slice(STDERR_PREFIX.length);
        lineFrom += STDERR_PREFIX.length;
        lead = has ? own![lineFrom] : line.charCodeAt(0);
      }
      // A line led by a visible ASCII character is not blank (a byte at `to` is its newline).
      const kept = blanks.accept(line, isVisibleAscii(lead));
      if (kept === null) continue;
      if (has && kept === line) fn(line, own!, lineFrom, to);
      else fn(kept);
    }
  });
  return walked;
}

/**
 * What the security pass reads besides the body's bytes: the extra patterns over the body, and
 * the credential kinds over the notices (a program may print a last line that reads as one: it
 * is shown, so a key on it must be reported).
 */
function scanRest(scanner: SecurityScanner, body: string, notices: string[]): void {
  scanner.scanExtras(body);
  if (notices.length) scanner.scanCredentials(notices.join("\n"));
}

/** Drops a BOM opening what it decodes, as the decoding of the whole text did. */
const fromUtf8 = new TextDecoder();

/**
 * Whether the last line of `utf8` (trailing newlines aside) reads as a notice: NOTICE on the
 * line's `trim()`. NOTICE is anchored at the start only and every match ends at the line's first
 * `]`, so the line is decoded from its first non-blank byte to that `]` only; ASCII blanks are
 * skipped as bytes, other blanks `trim()` drops (U+3000, U+FEFF …) by `trimStart` after decoding.
 */
function endsWithNotice(utf8: Uint8Array): boolean {
  let end = utf8.length;
  while (end > 0 && utf8[end - 1] === 10) end--;
  if (end === 0) return false;
  let p = utf8.lastIndexOf(10, end - 1) + 1;
  while (p < end && (utf8[p] === 32 || (utf8[p] >= 9 && utf8[p] <= 13))) p++;
  if (p === end || (utf8[p] < 0x80 && utf8[p] !== 91)) return false;
  const close = utf8.indexOf(93, p);
  if (close < 0 || close >= end) return false;
  return NOTICE.test(fromUtf8.decode(utf8.subarray(p, close + 1)).trimStart());
}

/** Newlines in `text` from `from` on. */
function countNewlines(text: string, from: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** `text.replace(/\n+$/, "")` without a regex scan over the whole text. */
function trimTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** Lines joined into one piece of the output at a time. */
const BATCH = 4096;

/**
 * The chain's output lines, joined with newlines, without the blank (whitespace-only) lines at
 * the end. Held compactly: every `BATCH` lines are joined into a piece of text, so an output as
 * big as its input (a Fallback pass-through of millions of short lines) is not also held as one
 * string object per line. Blank lines wait until a non-blank one follows them.
 */
class Output {
  #pieces: string[] = [];
  #batch: string[] = [];
  #blanks: string[] = [];
  #chars = 0;

  readonly push = (line: string): void => {
    if (isBlank(line)) {
      this.#blanks.push(line);
      return;
    }
    if (this.#blanks.length) {
      for (const blank of this.#blanks) this.#add(blank);
      this.#blanks.length = 0;
    }
    this.#add(line);
  };

  #add(line: string): void {
    this.#batch.push(line);
    this.#chars += line.length + 1;
    if (this.#batch.length === BATCH) {
      this.#pieces.push(this.#batch.join("\n"));
      this.#batch.length = 0;
    }
  }

  /** The text's length so far (the blank lines at the end left out). */
  get length(): number {
    return this.#chars - 1;
  }

  text(): string {
    if (this.#batch.length) this.#pieces.push(this.#batch.join("\n"));
    this.#batch.length = 0;
    return this.#pieces.join("\n");
  }
}

/** Splits trailing tool notices (`[exit code 1]`) off the output. */
function splitNotices(text: string): { body: string; notices: string[] } {
  const notices: string[] = [];
  let end = text.length;
  while (end > 0 && text[end - 1] === "\n") end--;
  for (;;) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    const line = text.slice(start, end);
    if (!NOTICE.test(line.trim())) break;
    // A program's own notice-looking line may carry escapes: shown sanitised, as the body is.
    notices.unshift(sanitizeLine(line).trim());
    end = start > 0 ? start - 1 : 0;
    if (end === 0) break;
  }
  return { body: text.slice(0, end), notices };
}
