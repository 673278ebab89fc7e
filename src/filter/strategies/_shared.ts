/** Helpers the strategy files share: pattern fields with named errors, failure signals. */
import { compilePattern, type Pattern, PatternError, type RegexEngine } from "../regex.ts";
import { type CompiledStrategy, RuleFieldError, type Stage, type StageContext } from "../types.ts";
import { FAILURE_SIGNAL, LOCATION } from "../signals.ts";
import { indentOf } from "../sanitize.ts";
import { linesStoodFor } from "../notes.ts";

export { carriesFailure, FAILURE_SIGNAL, LOCATION } from "../signals.ts";

/**
 * Refuses, naming `field`, a pattern that lacks one of the named groups a strategy reads (RE2
 * spells a name `(?P<x>…)` or `(?<x>…)`); `around(name)` says what the group goes around.
 */
export function requireNamedGroups(
  source: string,
  field: string,
  names: readonly string[],
  around: (name: string) => string,
): void {
  for (const name of names) {
    if (!source.includes(`(?P<${name}>`) && !source.includes(`(?<${name}>`)) {
      throw new RuleFieldError(
        field,
        `has no named group "${name}"; add (?P<${name}>…) around ${around(name)}`,
      );
    }
  }
}

/** The names of a pattern's named groups (`(?P<x>…)` or `(?<x>…)`), in order. */
export function namedGroups(source: string): string[] {
  return [...source.matchAll(/\(\?P?<([A-Za-z_]\w*)>/g)].map((m) => m[1]);
}

/**
 * Refuses, naming `field`, a named group the strategy does not read: a group it ignores is a
 * misspelt one (`(?P<message>…)` for `msg`), and the finding would silently lose its part.
 */
export function refuseUnknownGroups(
  source: string,
  field: string,
  known: readonly string[],
): void {
  for (const name of namedGroups(source)) {
    if (known.includes(name)) continue;
    throw new RuleFieldError(
      field,
      `has a named group "${name}" it does not read; the groups it reads are ${
        known.map((k) => `"${k}"`).join(", ")
      } (rename or drop "${name}")`,
    );
  }
}

/** Compiles one pattern field; a bad pattern becomes a `RuleFieldError` naming the field. */
export function patternField(source: string, field: string, engine: RegexEngine): Pattern {
  try {
    return compilePattern(source, engine);
  } catch (error) {
    if (error instanceof PatternError) throw new RuleFieldError(field, error.reason);
    throw error;
  }
}

/** `patternField` for a field a rule may leave out: undefined stays undefined. */
export function optionalPatternField(
  source: string | undefined,
  field: string,
  engine: RegexEngine,
): Pattern | undefined {
  return source === undefined ? undefined : patternField(source, field, engine);
}

export function patternList(sources: string[], field: string, engine: RegexEngine): Pattern[] {
  return sources.map((source, i) => patternField(source, `${field}[${i}]`, engine));
}

/**
 * A tester for "does any pattern match": one V8 alternation when every pattern runs on V8 with
 * the same flags (an alternation of linear patterns stays linear), else the patterns one by one.
 */
export function anyMatcher(patterns: Pattern[]): (line: string) => boolean {
  if (patterns.length === 0) return () => false;
  if (patterns.length === 1) return (line) => patterns[0].test(line);
  const forms = patterns.map((p) => p.v8);
  if (forms.every((f) => f && f.flags === forms[0]!.flags)) {
    const re = new RegExp(forms.map((f) => `(?:${f!.bare})`).join("|"), forms[0]!.flags);
    return (line) => re.test(line);
  }
  return (line) => patterns.some((p) => p.test(line));
}

/**
 * A holding stage's own part of a compound command's output (`ruff check . ; mypy .`): with
 * `shared.before`, the lines before the first one `owns` matches are an earlier command's; with
 * `shared.after`, those after the last one `owns` matches and the indented lines right under it
 * (its location, its frame) are a later command's. A stage reads `own` and passes `before` and `after` on
 * as printed, in their places, for those commands' rules. Without `shared` everything is its own;
 * when no line is its own, all of it passes.
 */
export function ownPart(
  lines: string[],
  shared: StageContext["shared"],
  owns: (line: string) => boolean,
): { before: string[]; own: string[]; after: string[] } {
  if (!shared || (!shared.before && !shared.after)) return { before: [], own: lines, after: [] };
  let first = 0;
  if (shared.before) {
    first = lines.findIndex(owns);
    if (first < 0) return { before: lines, own: [], after: [] };
  }
  let end = lines.length;
  if (shared.after) {
    let last = lines.length - 1;
    while (last >= first && !owns(lines[last])) last--;
    if (last < first) return { before: lines, own: [], after: [] };
    end = last + 1;
    while (end < lines.length && /^\s+\S/.test(lines[end])) end++;
  }
  if (first === 0 && end === lines.length) return { before: [], own: lines, after: [] };
  return { before: lines.slice(0, first), own: lines.slice(first, end), after: lines.slice(end) };
}

/**
 * The stage of `strategy` for one output: in a compound command's output (`ctx.shared`) of a
 * strategy that declares `owns`, its stage reads only its own part (`ownPart`) and the other
 * commands' lines pass as printed, in their places, for their own rules. The lines are held
 * until the own part's end is known (the first own line with `shared.before` alone: then the
 * stage streams); without `shared` or `owns` the stage is the strategy's own.
 */
export function sharedStage(strategy: CompiledStrategy, ctx: StageContext): Stage {
  const declared = strategy.owns;
  const shared = ctx.shared;
  if (!declared || !shared || (!shared.before && !shared.after)) return strategy.createStage(ctx);
  // A blank line says nothing of whose it is.
  const owns = (line: string) => line.trim() !== "" && declared(line);
  const { emit, emitAll, failed } = ctx;
  if (!shared.after) {
    // Only earlier commands' lines come first: they pass until the first own line, then the
    // stage reads the rest as it comes.
    let inner: Stage | null = null;
    return {
      push(line) {
        if (inner) inner.push(line);
        else if (owns(line)) {
          inner = strategy.createStage(emitAll ? { emit, emitAll, failed } : { emit, failed });
          inner.push(line);
        } else emit(line);
      },
      finish: () => inner?.finish() ?? "fallback",
    };
  }
  const held: string[] = [];
  return {
    push: (line) => void held.push(line),
    finish() {
      const { before, own, after } = ownPart(held.splice(0), shared, owns);
      for (const line of before) emit(line);
      let confidence: ReturnType<Stage["finish"]> = "fallback";
      if (own.length > 0) {
        // The own part's stage hands its lines on whole when the receiver takes arrays (the
        // last rule's, into the folds after the rules), as without `shared`.
        const inner = strategy.createStage(emitAll ? { emit, emitAll, failed } : { emit, failed });
        for (const line of own) inner.push(line);
        confidence = inner.finish();
      }
      for (const line of after) emit(line);
      return confidence;
    },
  };
}

/** Lines after a failure-looking line whose locations belong to it (its `--> a.rs:3:5`). */
const LOCATION_WINDOW = 5;

/** Lines after a failure-looking line whose compared values belong to it (`  left: 3`). */
const VALUE_WINDOW = 8;
/**
 * A line that continues an assertion with a value it compared: cargo's `  left: 3` / ` right: 4`,
 * go's `got:` / `want:`, jest's `Expected:` / `Received:`, TAP's `expected:` / `actual:`, and
 * pytest's `E   ` lines under its assertion.
 */
const ASSERTION_VALUE =
  /^(?:\s{0,40}(?:left|right|got|want|wanted|expected|actual|received|diff)\s{0,8}:|E\s)/i;

/** Lines before a failure-looking line searched for the line that names what failed. */
export const SUBJECT_WINDOW = 5;
/** A step line naming what a tool works on next: `Checking rules/a.yml`, `Validating x.json`. */
const STEP = /^\s*(?:Checking|Testing|Validating|Verifying|Processing|Linting)\s+\S/;
/** A command a shell trace echoes before it runs it (`bash -x`, `sh -x`: `+ cc -c a.c`, `++ date`). */
const TRACED = /^\+{1,20} \S/;

/** The file a failure's location starts with (`src/a.c` of `src/a.c:5:3: error: …`). */
const FAILED_FILE = /^([^\s:]{1,300}\.[A-Za-z0-9]{1,10}):\d{1,9}[:(,]/;

/**
 * Decides, line by line in order, which lines a cut must keep: every failure-looking line, the
 * compared values right under one (an assertion's `left:` and `right:`), and a line with a
 * location among the few after one (where the failure happened). `observe` the lines a cut keeps
 * anyway (a head), so a failure there lends its window to the cut after it. A failure-looking
 * line also brings its `subject`, the line above it that names what failed, for the cut to keep.
 */
export class FailureKeeper {
  #since = Infinity;
  #everyLocation: boolean;
  /** The last SUBJECT_WINDOW lines read before the current one, oldest first. */
  #recent: string[] = [];
  #subject: { line: string; back: number } | undefined;

  /** `everyLocation`: keep every line with a location (the lines are one failure's). */
  constructor(options: { everyLocation?: boolean } = {}) {
    this.#everyLocation = options.everyLocation ?? false;
  }

  /** Whether `line`, in the cut, must stay. */
  keep(line: string): boolean {
    const kept = this.#read(line);
    this.#recent.push(line);
    if (this.#recent.length > SUBJECT_WINDOW) this.#recent.shift();
    return kept;
  }

  /**
   * After `keep` kept a failure-looking line: the line that names what failed and how many lines
   * above it that is (1: right above), else undefined. It is the nearest line above that is less
   * indented (promtool's `Checking rules/a.yml` over its indented `  FAILED:`) or a step line
   * (`Checking x`, `Testing x`) as indented or less, among the SUBJECT_WINDOW lines above; in a
   * shell trace, else, the command echoed last above it (`+ cc -c src/a.c`), which ran and failed;
   * else a command above that takes the failing location's file as an argument (`cc -c src/a.c`).
   * The cut keeps it unless it shows already (the subject of an earlier failure, a head line).
   */
  get subject(): { line: string; back: number } | undefined {
    return this.#subject;
  }

  /** A line shown anyway: only moves the window. */
  observe(line: string): void {
    this.keep(line);
  }

  #read(line: string): boolean {
    this.#subject = undefined;
    if (FAILURE_SIGNAL.test(line)) {
      this.#since = 0;
      this.#subject = this.#subjectOf(line);
      return true;
    }
    const since = ++this.#since;
    if (since <= VALUE_WINDOW && ASSERTION_VALUE.test(line)) return true;
    return (this.#everyLocation || since <= LOCATION_WINDOW) && LOCATION.test(line);
  }

  #subjectOf(line: string): { line: string; back: number } | undefined {
    // A step line that fails names its own subject.
    if (STEP.test(line)) return undefined;
    const indent = indentOf(line);
    const recent = this.#recent;
    for (let i = recent.length - 1; i >= 0; i--) {
      const above = recent[i];
      if (above.trim() === "") continue;
      const at = indentOf(above);
      if (at < indent || (at <= indent && STEP.test(above))) {
        return { line: above, back: recent.length - i };
      }
    }
    if (TRACED.test(line)) return undefined;
    for (let i = recent.length - 1; i >= 0; i--) {
      if (TRACED.test(recent[i])) return { line: recent[i], back: recent.length - i };
    }
    // A command echoed above that takes the failing file as an argument (make's `cc -c src/a.c
    // -o src/a.o` over `src/a.c:5:3: error: …`).
    const file = FAILED_FILE.exec(line)?.[1];
    if (file === undefined) return undefined;
    for (let i = recent.length - 1; i >= 0; i--) {
      const above = recent[i];
      const at = above.indexOf(` ${file}`);
      if (at <= 0 || above.startsWith(file)) continue;
      const after = above.charCodeAt(at + 1 + file.length);
      if (Number.isNaN(after) || after === 32 || after === 9) {
        return { line: above, back: recent.length - i };
      }
    }
    return undefined;
  }
}

/**
 * The lines past a cap, cut: every one a `FailureKeeper` keeps (after the lines before the cap,
 * observed), in place, with `marker(n)` for each run of lines that went, n the lines they stand
 * for (an earlier fold's note counts as the lines it folded).
 * @default marker omitted
 */
export function keepFailuresPast(
  lines: readonly string[],
  cap: number,
  options: {
    marker?: (n: number) => string;
    everyLocation?: boolean;
    /** Lines that stay besides the ones a `FailureKeeper` keeps. */
    keep?: (line: string) => boolean;
  } = {},
): string[] {
  const marker = options.marker ?? omitted;
  const keeper = new FailureKeeper(options);
  const out = lines.slice(0, cap);
  for (const line of out) keeper.observe(line);
  const gap = new CutGap(marker);
  for (let i = cap; i < lines.length; i++) {
    if (keeper.keep(lines[i]) || options.keep?.(lines[i])) {
      gap.flush(out, keeper.subject);
      out.push(lines[i]);
    } else gap.add(lines[i]);
  }
  gap.flush(out);
  return out;
}

/**
 * The lines a cut dropped since the line it kept last: the lines they stand for (an earlier fold's
 * note counts as the lines it folded), and the last SUBJECT_WINDOW of them, so that a kept
 * failure's `subject` (`FailureKeeper`) among them comes back in its place.
 * @default marker omitted
 */
export class CutGap {
  #stood = 0;
  #recent: { line: string; stood: number }[] = [];

  constructor(readonly marker: (n: number) => string = omitted) {}

  /** A line the cut dropped. */
  add(line: string): void {
    const stood = linesStoodFor(line);
    this.#stood += stood;
    this.#recent.push({ line, stood });
    if (this.#recent.length > SUBJECT_WINDOW) this.#recent.shift();
  }

  /**
   * A line kept without ending the gap (a listing's kept rows, told together): the count goes on
   * past it, and no line dropped before it comes back as a later line's subject.
   */
  pass(): void {
    this.#recent = [];
  }

  /** Whether the line `back` lines above the next one is among the dropped lines. */
  holds(back: number): boolean {
    return back <= this.#recent.length;
  }

  /**
   * Before a kept line (or at the end): a marker for the dropped lines, and the kept line's
   * `subject` when it is among them, in its place between two markers. The gap is empty after.
   */
  flush(out: { push(line: string): void }, subject?: { line: string; back: number }): void {
    if (subject !== undefined && this.holds(subject.back)) {
      const at = this.#recent.length - subject.back;
      const after = this.#recent.slice(at + 1).reduce((n, r) => n + r.stood, 0);
      const above = this.#stood - after - this.#recent[at].stood;
      if (above > 0) out.push(this.marker(above));
      out.push(subject.line);
      this.#stood = after;
    }
    if (this.#stood > 0) out.push(this.marker(this.#stood));
    this.#stood = 0;
    this.#recent = [];
  }
}

/** `"... (12 lines omitted) ..."` */
export function omitted(n: number): string {
  return `... (${n} line${n === 1 ? "" : "s"} omitted) ...`;
}
