/**
 * The engine: picks the rules matching a command, runs them in sequence over the sanitised
 * output line by line, appends the security pass, and reports stats and confidence.
 */
import { earlierSegmentsPrint, lastCommand, matchCandidates, segments } from "./command.ts";
import { cutMiddle, genericApplies, genericStage } from "./generic.ts";
import { FAILURE_SIGNAL, sharedStage } from "./strategies/mod.ts";
import type { CompiledRule } from "./rule.ts";
import {
  BlankCollapser,
  countLines,
  isBlank,
  sanitize,
  sanitizeLine,
  splitLines,
} from "./sanitize.ts";
import { SecurityScanner } from "./security.ts";
import { mergeCutNotes, recountCutNotes } from "./notes.ts";
import type { Pattern } from "./regex.ts";
import { JSON_START, keepAsPrinted, KeptLines, type Restore } from "./verbatim.ts";
import {
  type Confidence,
  type FilterStats,
  type Stage,
  type StageContext,
  worstConfidence,
} from "./types.ts";

export interface EngineOptions {
  /** Master switch (`[tools.filters] enabled`). @default true */
  enabled?: boolean;
  /** `[tools.filters.security] enabled`. @default true */
  security?: boolean;
  /** Compiled `[tools.filters.security] extra_patterns`. */
  extraPatterns?: Pattern[];
  /** The label of the stats line. @default "shell" */
  label?: string;
  /** Run the generic pass on outputs no rule matches (`[tools.filters] generic`). @default true */
  generic?: boolean;
  /**
   * Put every emitted line a rule rewrote or cut back as printed (the guard). Off only where a
   * strategy's own stage is under test. @default true
   */
  guard?: boolean;
}

/** One step of `FilterEngine.trace`. */
export interface StageTrace {
  /** The rule's name, `generic`, or `sanitize`. */
  name: string;
  /** The strategy type. */
  type: string;
  input: string[];
  output: string[];
  confidence: Confidence;
  /** The guard's step: the emitted lines it put back as printed. */
  restored?: Restore[];
  /** The guard's lines outgrew the input, so the input is shown as it came (as `filter` does). */
  asInput?: boolean;
}

export interface FilterOutcome {
  /** What the model reads. */
  text: string;
  stats: FilterStats;
  /** Names of the rules that ran, in order (empty when none matched). */
  rules: string[];
}

/**
 * A chain's confidence: the worst of the stages that did something. A later rule that finds
 * nothing of its shape (a tidy-up after a test summary) passes its input on unchanged and does
 * not make the run a Fallback; the run is one only when every stage passed its input on.
 */
function chainConfidence(results: Confidence[]): Confidence {
  const acted = results.filter((c) => c !== "fallback");
  return acted.length ? acted.reduce(worstConfidence, "full") : "fallback";
}

/**
 * The name of the step in a trace that merges cut notes one after another and makes each count
 * the gap it stands in.
 */
const CUT_NOTES_MERGED = "cut notes merged, each counting its gap";

/** The name of the guard's step in a trace. */
const GUARD = "guard (kept lines as printed)";

/**
 * Whether the guard runs after the rules: not when one of them declares its output a rendering,
 * nor on JSON or JSON lines (a renderer's text has no printed line to go back to; the input's
 * raw JSON would come back). `first` is a line of the input's start.
 */
function guards(rules: CompiledRule[], first: string): boolean {
  return !rules.some((rule) => rule.rendered) && !JSON_START.test(sanitizeLine(first).trim());
}

/** The first non-blank line of a text (cheap: it reads only the start). */
function firstLine(body: string): string {
  const start = body.search(/\S/);
  if (start < 0) return "";
  const end = body.indexOf("\n", start);
  return body.slice(start, end < 0 ? body.length : end);
}

const markersOf = (rules: CompiledRule[]) => rules.flatMap((rule) => rule.markers ?? []);

/** The name of the generic folds' stage after the rules in a trace. */
const AFTER_RULES = "generic (after rules)";

/** Notices the bash tool appends (`[exit code 2]`, timeouts); kept out of the rules' reach. */
const NOTICE =
  /^\[(exit code -?\d+|exit status -?\d+|timeout|timed out|cancelled|killed by [^\]]+|background|truncated|output truncated)\]/;
const STDERR_PREFIX = "[stderr] ";
/** Two or more blank lines in a row: whitespace-only as `trim()` sees it (`\s` but newline). */
const BLANK_RUNS =
  /\n(?:[ \t\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*\n){2,}/g;

/** F/P/B counters and token savings over the outputs filtered (the CLI and ACP read them). */
export class FilterCounters {
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
  readonly generic: boolean;
  readonly guard: boolean;
  /** The counters `filterToolOutput` records into by default. */
  readonly counters = new FilterCounters();
  #extra: Pattern[];
  #label: string;

  constructor(rules: CompiledRule[], options: EngineOptions = {}) {
    this.rules = rules;
    this.enabled = options.enabled ?? true;
    this.securityEnabled = options.security ?? true;
    this.generic = options.generic ?? true;
    this.guard = options.guard ?? true;
    this.#extra = options.extraPatterns ?? [];
    this.#label = options.label ?? "shell";
  }

  /** Every rule matching the command (whole, or its normalised last segment), in order. */
  match(command: string): CompiledRule[] {
    const candidates = matchCandidates(command);
    return this.rules.filter((rule) => candidates.some((c) => rule.matches(c)));
  }

  /**
   * The first line of the output a matched rule knows as a failure record (`failure_records`, a
   * test runner's `--- FAIL:`), or null. `| tee`, `|| true` and a go that exits 0 after a failed
   * benchmark hide the exit code, not the failure: an output holding one is filtered as a failed
   * run's.
   */
  failureRecord(command: string, raw: string): string | null {
    return this.#failureRecord(splitNotices(raw).body, this.match(command));
  }

  /** Filters one command's output. Never throws for any input. */
  filter(command: string, raw: string, options: { failed?: boolean } = {}): FilterOutcome {
    if (!this.enabled) return this.#outcome(raw, raw, [], "full", { removed: 0, elided: false });
    const { body, notices } = splitNotices(raw);
    const rules = this.match(command);
    const failed = options.failed || this.#failureRecord(body, rules) !== null;
    let text: string;
    let confidence: Confidence = "full";
    // The characters of the sanitised lines the stages received (null: only sanitising ran).
    let fed: number | null = null;
    let failure: string | undefined;
    try {
      ({ text, confidence, fed } = this.#stages(command, body, rules, failed));
    } catch (error) {
      // A stage that throws (a bug, or memory) must not cost the caller the output: it is shown as
      // it came, sanitised, and the outcome names the failure.
      text = sanitize(body);
      confidence = "fallback";
      fed = null;
      failure = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    const removed = fed === null ? 0 : Math.max(0, fed - contentChars(text));
    const elided = fed !== null && showsElision(text, body);
    if (this.securityEnabled) {
      const scanner = new SecurityScanner({ extraPatterns: this.#extra });
      scanner.scan(body);
      // A program may print a last line that reads as a notice: it is shown, so a key on it
      // must be reported.
      if (notices.length) scanner.scanCredentials(notices.join("\n"));
      const appendix = scanner.appendix(text);
      if (appendix.length) text += (text ? "\n" : "") + appendix.join("\n").replace(/^\n/, "");
    }
    if (notices.length) text += (text ? "\n" : "") + notices.join("\n");
    // The rules changed what they kept without keeping fewer lines: a rendering (a JSON report
    // read into lines, a rule that declares it) or lines reshaped.
    const reshaped = fed !== null && rules.length > 0 && contentChars(text) !== fed
      ? guards(rules, firstLine(body)) ? "reshaped" : "rendered"
      : undefined;
    return this.#outcome(raw, text, rules.map((r) => r.name), confidence, {
      removed,
      elided,
      failure,
      reshaped,
    });
  }

  /** The first line of `body` that is a failure record one of `rules` knows, or null. */
  #failureRecord(body: string, rules: CompiledRule[]): string | null {
    const records = rules.flatMap((rule) => rule.recordsFailure ?? []);
    if (!records.length) return null;
    let found: string | null = null;
    walkLines(body, (line) => {
      // A huge line is read cut in the middle, as the rules read it after an overflow.
      const read = line.length > HUGE_LINE ? cutMiddle(line) : line;
      if (records.some((records) => records(read))) found = line;
      return found !== null;
    });
    return found;
  }

  /** The rules' stages (or the generic pass, or only sanitising) over one output's body. */
  #stages(
    command: string,
    body: string,
    rules: CompiledRule[],
    failed: boolean,
  ): { text: string; confidence: Confidence; fed: number | null } {
    let text: string;
    let confidence: Confidence = "full";
    let fed: number | null = null;
    if (rules.length === 0 && this.generic && genericApplies(lastCommand(command))) {
      const output = new Output();
      const stage = genericStage({ emit: output.push, failed }, undefined, { command });
      fed = walkLines(body, (line) => stage.push(line));
      // No rule claimed the output: unchanged is what it always was (Full), changed is Partial.
      confidence = stage.finish() === "fallback" ? "full" : "partial";
      return {
        text: output.length > body.length ? sanitize(body) : output.text(),
        confidence,
        fed,
      };
    } else if (rules.length === 0) {
      text = body.includes("\x1b") || body.includes("\r")
        ? sanitize(body)
        : body.replace(BLANK_RUNS, "\n\n").replace(/\n+$/, "");
    } else {
      try {
        ({ text, confidence, fed } = runRules(rules, body, {
          failed,
          after: this.#after(command, rules),
          command,
          guard: this.guard,
        }));
      } catch (error) {
        // V8 throws RangeError when a built-in pattern's backtracking outgrows its stack on a
        // line of millions of characters: the rules run again with such lines cut in the middle
        // (their failure signals kept, as the generic pass cuts), and only when that fails too is
        // the output shown as it came (Fallback).
        if (!(error instanceof RangeError)) throw error;
        try {
          // Cut lines are a change the rules did not make: at best Partial.
          ({ text, fed } = runRules(rules, cutHugeLines(body), {
            failed,
            after: this.#after(command, rules),
            command,
            guard: this.guard,
          }));
          confidence = "partial";
        } catch (again) {
          if (!(again instanceof RangeError)) throw again;
          text = sanitize(body);
          confidence = "fallback";
          fed = null;
        }
      }
    }
    return { text, confidence, fed };
  }

  /**
   * The stages that would run on an output, each with the lines it received and emitted, run one
   * after the other (the same result as the streaming chain): what `zeph filter --explain`
   * prints. The first entry is the sanitising step.
   */
  trace(command: string, raw: string, options: { failed?: boolean } = {}): StageTrace[] {
    const { body } = splitNotices(raw);
    const rawLines: string[] = [];
    for (let start = 0; start < body.length;) {
      let end = body.indexOf("\n", start);
      if (end < 0) end = body.length;
      rawLines.push(body.slice(start, end));
      start = end + 1;
    }
    const lines: string[] = [];
    walkLines(body, (line) => void lines.push(line));
    const traces: StageTrace[] = [{
      name: "sanitize",
      type: "sanitize",
      input: rawLines,
      output: lines,
      confidence: "full",
    }];
    const rules = this.match(command);
    const failed = options.failed || this.#failureRecord(body, rules) !== null;
    const shared = sharedOutput(command, rules);
    const stages: { name: string; type: string; create: (ctx: StageContext) => Stage }[] = rules
      .map((rule) => ({
        name: rule.name,
        type: rule.strategy.type,
        create: (ctx) => {
          const others = shared.get(rule);
          return sharedStage(rule.strategy, others ? { ...ctx, shared: others } : ctx);
        },
      }));
    if (!rules.length && this.generic && genericApplies(lastCommand(command))) {
      stages.push({
        name: "generic",
        type: "generic",
        create: (ctx) => genericStage(ctx, undefined, { command }),
      });
    } else if (rules.length && this.#after(command, rules)) {
      stages.push({
        name: AFTER_RULES,
        type: "generic",
        create: (ctx) => genericStage(ctx, undefined, { after: true, command }),
      });
    }
    // As in filter(): when a pattern's backtracking outgrows V8's stack on a huge line (a
    // RangeError), the stages run again on the lines with such lines cut, and when that fails too
    // the output stays as it came (the sanitised lines) and no later stage runs; so does a stage
    // that throws anything else (a bug), at once, as filter() shows the output as it came. A run
    // that fails says which stage did (by its place in the chain: a stage that changed nothing
    // is left out of the trace) and whether a retry on cut lines may help.
    const run = (first: string[], out: StageTrace[]): { at: number; overflow: boolean } | null => {
      let input = first;
      for (const [at, { name, type, create }] of stages.entries()) {
        const output: string[] = [];
        try {
          const stage = create({ emit: (line) => output.push(line), failed });
          for (const line of input) stage.push(line);
          const confidence = stage.finish();
          // The folds after the rules show only when they changed something.
          if (name === AFTER_RULES && confidence === "fallback") continue;
          out.push({ name, type, input, output, confidence });
        } catch (error) {
          return { at, overflow: error instanceof RangeError };
        }
        input = output;
      }
      return null;
    };
    // The guard puts every kept line back as printed, over the whole chain (as filter() does),
    // and shows the input as it came when that outgrows `limit`: the length of the text
    // filter() compares with (the output as it came, or with its huge lines cut).
    const guarded = (input: string[], out: StageTrace[], limit: number): StageTrace[] => {
      const first = input.find((l) => l.trim() !== "") ?? "";
      if (!this.guard || !rules.length || !out.length || !guards(rules, first)) return out;
      const last = out.at(-1)!.output;
      const { lines, restored } = keepAsPrinted(input, last, { markers: markersOf(rules) });
      if (!restored.length) return out;
      const asInput = lines.join("\n").length > limit;
      return [...out, {
        name: GUARD,
        type: "guard",
        input: last,
        output: asInput ? input : lines,
        confidence: out.at(-1)!.confidence,
        restored,
        ...(asInput ? { asInput } : {}),
      }];
    };
    // As runRules does last: cut notes one after another become one, each counting its gap.
    const merged = (out: StageTrace[], input: string[]): StageTrace[] => {
      const last = out.at(-1);
      if (!rules.length || last === undefined) return out;
      const text = last.output.join("\n");
      const after = withCutsRecounted(withCutNotesMerged(text), (fn) => input.forEach(fn));
      if (after === text) return out;
      return [...out, {
        name: CUT_NOTES_MERGED,
        type: "notes",
        input: last.output,
        output: after.split("\n"),
        confidence: last.confidence,
      }];
    };
    const firstTry: StageTrace[] = [];
    let failure = run(lines, firstTry);
    if (failure === null) {
      return [...traces, ...merged(guarded(lines, firstTry, body.length), lines)];
    }
    // filter() retries only the rules: the generic pass alone cuts huge lines itself.
    if (failure.overflow && rules.length) {
      const cut = lines.map((line) => line.length > HUGE_LINE ? cutMiddle(line) : line);
      const cutTrace: StageTrace = {
        name: "huge lines",
        type: "cut",
        input: lines,
        output: cut,
        confidence: "partial",
      };
      const secondTry: StageTrace[] = [];
      failure = run(cut, secondTry);
      if (failure === null) {
        return [
          ...traces,
          cutTrace,
          ...merged(guarded(cut, secondTry, cutHugeLines(body).length), cut),
        ];
      }
    }
    const failedAt = stages[failure.at];
    traces.push({
      name: failedAt.name,
      type: failedAt.type,
      input: lines,
      output: traces[0].output,
      confidence: "fallback",
    });
    return traces;
  }

  /**
   * Whether the generic folds run after the rules: the generic pass is on, the command prints a
   * report (not content) and no matched rule opted out with `generic = false`.
   */
  #after(command: string, rules: CompiledRule[]): boolean {
    return this.generic && rules.every((rule) => rule.generic !== false) &&
      genericApplies(lastCommand(command));
  }

  #outcome(
    raw: string,
    text: string,
    rules: string[],
    confidence: Confidence,
    { removed, elided, failure, reshaped }: {
      removed: number;
      elided: boolean;
      failure?: string;
      reshaped?: "reshaped" | "rendered";
    },
  ): FilterOutcome {
    const rawLines = countLines(raw);
    const filteredLines = countLines(text);
    const pct = rawLines === 0 ? 0 : (1 - filteredLines / rawLines) * 100;
    const counts = `[${this.#label}] ${rawLines} lines -> ${filteredLines} lines`;
    // No fewer lines, but not the lines that came: the line says what the rules did instead.
    const inline = filteredLines < rawLines
      ? `${counts}, ${pct.toFixed(1)}% filtered`
      : reshaped
      ? `${counts}, ${reshaped}`
      : "";
    return {
      text,
      rules,
      stats: {
        rawLines,
        filteredLines,
        rawChars: raw.length,
        filteredChars: text.length,
        removedChars: removed,
        elided,
        confidence,
        rules,
        inline,
        ...(failure === undefined ? {} : { failure }),
      },
    };
  }
}

type SharedOutput = NonNullable<StageContext["shared"]>;

/**
 * Which rules share the output with other commands of a compound command (`go test ./...; go
 * tool cover -func=c.out`): a rule the last segment does not match is for an earlier command,
 * and the later ones print after it; a rule for the last command shares it with the earlier
 * commands that print, whether a rule knows them or not (`./seed.sh && pytest`: the script's
 * `not found` is no test's line to drop); one that prints nothing when it works (`cd`, `export`)
 * shares nothing, unless `;`, `||` or a newline follows it (its failure, printed before the next
 * runs). Each hears which lines the last command's rules own (`lastOwns`).
 */
function sharedOutput(command: string, rules: CompiledRule[]): Map<CompiledRule, SharedOutput> {
  const shared = new Map<CompiledRule, SharedOutput>();
  const parts = segments(command.trim());
  if (parts.length < 2) return shared;
  const forms = matchCandidates(parts.at(-1)!);
  const last = new Set(rules.filter((rule) => forms.some((form) => rule.matches(form))));
  const earlier = rules.some((rule) => !last.has(rule)) || earlierSegmentsPrint(command.trim());
  const owners = [...last].flatMap((rule) => rule.strategy.owns ?? []);
  const lastOwns = owners.length ? (line: string) => owners.some((owns) => owns(line)) : undefined;
  const side = (before: boolean): SharedOutput =>
    lastOwns ? { before, after: !before, lastOwns } : { before, after: !before };
  for (const rule of rules) {
    if (!last.has(rule)) shared.set(rule, side(false));
    else if (earlier) shared.set(rule, side(true));
  }
  return shared;
}

/**
 * One stage per rule, wired so that each emits into the next and the last into `sink`. The last
 * few non-blank lines each stage but the last passed on go into `passed[i]`.
 */
function chain(
  rules: CompiledRule[],
  failed: boolean,
  sink: Pick<Stage, "push" | "pushAll">,
  passed: string[][],
  shared: Map<CompiledRule, SharedOutput>,
): Stage[] {
  const stages: Stage[] = [];
  let emit = sink.push;
  // The last rule hands what it held to the folds after the rules whole (no copy of a huge
  // output); between rules lines go one at a time, as `passed` records them.
  const pushAll = sink.pushAll;
  const emitAll = pushAll ? (lines: string[]) => pushAll.call(sink, lines) : undefined;
  for (let i = rules.length - 1; i >= 0; i--) {
    const last = i === rules.length - 1;
    const ctx: StageContext = last && emitAll ? { emit, emitAll, failed } : { emit, failed };
    const others = shared.get(rules[i]);
    if (others) ctx.shared = others;
    const stage = sharedStage(rules[i].strategy, ctx);
    stages.unshift(stage);
    const kept = i > 0 ? passed[i - 1] : null;
    emit = kept
      ? (line) => {
        if (!isBlank(line)) {
          kept.push(line);
          if (kept.length > LAST_LINES) kept.shift();
        }
        stage.push(line);
      }
      : (line) => stage.push(line);
  }
  return stages;
}

/**
 * The lines the first stage receives: sanitised (only when the text has something to sanitise),
 * `[stderr] ` prefixes dropped, blank runs collapsed. `fn` returning `true` ends the walk (the
 * guard's passes stop once nothing they look for is left); the characters fed so far are returned.
 */
function walkLines(body: string, fn: (line: string) => boolean | void): number {
  let fed = 0;
  const blanks = new BlankCollapser();
  const dirty = body.includes("\x1b") || body.includes("\r");
  for (let start = 0; start < body.length;) {
    let end = body.indexOf("\n", start);
    if (end < 0) end = body.length;
    let line = body.slice(start, end);
    start = end + 1;
    if (dirty) line = sanitizeLine(line);
    // A status a redraw overwrote comes back as a line of its own before the redraw.
    if (dirty && line.includes("\n")) {
      for (const part of line.split("\n")) {
        const kept = blanks.accept(withoutStderrPrefix(part));
        if (kept === null) continue;
        fed += kept.length;
        if (fn(kept) === true) return fed;
      }
      continue;
    }
    // One line: no array of its parts (this loop runs once per input line, several times).
    const kept = blanks.accept(withoutStderrPrefix(line));
    if (kept === null) continue;
    fed += kept.length;
    if (fn(kept) === true) return fed;
  }
  return fed;
}

const withoutStderrPrefix = (line: string) =>
  line.startsWith(STDERR_PREFIX) ? line.slice(STDERR_PREFIX.length) : line;

/** A line that says lines were left out: a fold, a cut, `(+N more)`, `… not shown`. */
const ELISION = /…|\.\.\.|\b(?:folded|omitted|elided|not shown|not listed)\b|\(\+?\d+ more\b/;
/**
 * Lines that read as an elision, are no input line as printed and may still be part of one (a
 * line a rule reshaped), checked against the input at most.
 */
const ELISION_CHECKS = 16;

/**
 * Whether `text` holds a line that says lines were left out and is not the input's own. A line
 * the input printed (a line of it with the same text, whitespace aside) is its own; any other is
 * searched for in the input as read by the stages (escapes inside a coloured line, `foo ...
 * \x1b[32mok`, split the words the raw text holds) — each such search reads the whole input, so
 * only the first few are made. An elision line is looked for in the input as a whole line where
 * it occurs; only when those searches have read a few times the input is a set of its lines built
 * (a set of millions of lines costs more than the few lines a filtered output holds).
 */
function showsElision(text: string, body: string): boolean {
  let checks = 0;
  let lines: Set<string> | null = null;
  let input: string | null = null;
  let read = 0;
  for (const line of splitLines(text)) {
    if (!ELISION.test(line)) continue;
    const own = line.trim();
    input ??= body.includes("\x1b") || body.includes("\r") ? sanitize(body) : body;
    if (lines === null && read > WHOLE_LINE_READS * input.length) {
      lines = new Set();
      for (const l of splitLines(input)) lines.add(l.trim());
    }
    if (lines !== null ? lines.has(own) : isWholeLine(input, own, (n) => read += n)) continue;
    if (!body.includes(own) && !input.includes(own)) return true;
    if (++checks >= ELISION_CHECKS) return false;
  }
  return false;
}

/** Input lengths the whole-line searches of {@link showsElision} read before it builds a set. */
const WHOLE_LINE_READS = 4;
const SPACE = /\s/;

/**
 * Whether some line of `text` is `own` with only whitespace (`trim()`'s) around it; `read` hears
 * how many characters the search went over.
 */
function isWholeLine(text: string, own: string, read: (n: number) => void): boolean {
  let from = 0;
  for (let at = text.indexOf(own); at >= 0; at = text.indexOf(own, from)) {
    read(at + own.length - from);
    from = at + 1;
    let before = at - 1;
    while (before >= 0 && text[before] !== "\n" && SPACE.test(text[before])) before--;
    if (before >= 0 && text[before] !== "\n") continue;
    let after = at + own.length;
    while (after < text.length && text[after] !== "\n" && SPACE.test(text[after])) after++;
    if (after === text.length || text[after] === "\n") return true;
  }
  read(text.length - from);
  return false;
}

/**
 * The characters of a text's non-blank lines, newlines not counted: what {@link walkLines}
 * returns for the same lines, so the two subtract to what the stages removed.
 */
function contentChars(text: string): number {
  let chars = 0;
  for (const line of splitLines(text)) if (!isBlank(line)) chars += line.length;
  return chars;
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

/** Lines of a failure shown back when the rules removed every one of them. */
const MAX_EVIDENCE = 20;
/** Lines of a non-empty output shown when the rules removed everything. */
const LAST_LINES = 5;

/**
 * What the rules left, never emptier than the output's evidence: when they removed every line,
 * the last few stay (a `make` that only echoed `gcc …` lines did something) — the last ones an
 * earlier rule passed on (`gcc …` without make's `Entering directory`), else the input's — and a failed
 * command whose rules left at most two lines and no failure-looking one gets the input's
 * failure-looking lines back (the first 20).
 */
/** Lines longer than this are cut in the middle when a rule's pattern overflowed on them. */
const HUGE_LINE = 100_000;

/** `body` with every line longer than HUGE_LINE cut in the middle (failure signals kept). */
function cutHugeLines(body: string): string {
  if (body.length <= HUGE_LINE) return body;
  return body.split("\n").map((line) => line.length > HUGE_LINE ? cutMiddle(line) : line)
    .join("\n");
}

/** The rule chain over `body`: its text (evidence kept, never longer than `body`) and confidence. */
function runRules(
  rules: CompiledRule[],
  body: string,
  options: { failed: boolean; after: boolean; command: string; guard: boolean },
): { text: string; confidence: Confidence; fed: number } {
  const { failed } = options;
  const output = new Output();
  const guard = options.guard && guards(rules, firstLine(body))
    ? new KeptLines({ markers: markersOf(rules) })
    : null;
  const sink = guard
    ? (line: string) => {
      guard.emitted(line);
      output.push(line);
    }
    : output.push;
  const passed: string[][] = rules.map(() => []);
  // The generic folds after the rules change no rule's verdict (only a Fallback, below).
  let confidence: Confidence | null = null;
  const after = options.after
    ? genericStage({ emit: sink, failed }, undefined, {
      after: true,
      command: options.command,
      rulesPassedOn: () => confidence === "fallback",
    })
    : null;
  const stages = chain(
    rules,
    failed,
    after ?? { push: sink },
    passed,
    sharedOutput(options.command, rules),
  );
  const fed = walkLines(body, (line) => {
    guard?.input(line);
    stages[0].push(line);
  });
  confidence = chainConfidence(stages.map((stage) => stage.finish()));
  // Rules that all passed their input on leave a Fallback; folds after them make it Partial.
  if (after?.finish() === "partial" && confidence === "fallback") confidence = "partial";
  // A filter must never make the output bigger than what it replaces.
  let text = output.length > body.length ? sanitize(body) : output.text();
  if (guard && output.length <= body.length) {
    text = guard.restore(text, (fn) => walkLines(body, fn)).text;
    if (text.length > body.length) text = sanitize(body);
  }
  text = withCutsRecounted(withCutNotesMerged(text), (fn) => walkLines(body, fn));
  return {
    text: keepEvidence(body, text, failed, passed.findLast((lines) => lines.length)),
    confidence,
    fed,
  };
}

function keepEvidence(body: string, text: string, failed: boolean, passed?: string[]): string {
  if (text.trim() === "" && body.trim() !== "") {
    if (passed?.length) return passed.join("\n");
    const lines = sanitize(body).split("\n").filter((l) => !isBlank(l));
    return lines.slice(-LAST_LINES).join("\n");
  }
  // Rules that summarise (group_by_rule's `TS2322 (3): …`) keep the failure in their words.
  if (!failed || FAILURE_SIGNAL.test(text) || countLines(text) > 2) return text;
  const evidence: string[] = [];
  walkLines(body, (line) => {
    if (evidence.length < MAX_EVIDENCE && FAILURE_SIGNAL.test(line)) evidence.push(line);
  });
  return evidence.length ? `${text}${text ? "\n" : ""}${evidence.join("\n")}` : text;
}

/**
 * Cut notes one after another (`... (2 more lines)` over `... (38 more lines)`, left side by side
 * when a later stage dropped the line between them) made one: they stand for one gap of the
 * output as printed. Only a text with two such lines in a row is split into lines.
 */
function withCutNotesMerged(text: string): string {
  if (!ADJACENT_CUT_NOTES.test(text)) return text;
  return mergeCutNotes(text.split("\n")).join("\n");
}

/**
 * `text` with each run of notes holding a cut note made to count the input lines of the gap it
 * stands in (`recountCutNotes`): a line a stage dropped without a note beside another stage's cut
 * is counted by that cut. `walk` hands over the input's lines as the stages read them.
 */
function withCutsRecounted(
  text: string,
  walk: (fn: (line: string) => void) => void,
): string {
  if (!CUT_NOTE.test(text)) return text;
  const lines = text.split("\n");
  const after = recountCutNotes(lines, walk);
  return after === lines ? text : after.join("\n");
}

/** A line that may be a cut note (`cutNote` reads it). */
const CUT_NOTE = /^\.\.\. \(\d/m;

/** Two lines in a row that may be cut notes (`mergeCutNotes` reads them). */
const ADJACENT_CUT_NOTES = /^\.\.\. \(\d[^\n]*\n\.\.\. \(\d/m;

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
