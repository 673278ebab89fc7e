/**
 * dedup: normalises the parts of log lines that change on every line (timestamps, UUIDs, IPs
 * and ports, pids, hex ids, durations), then prints each distinct line once, in first-seen
 * order, with `(xN)` when it repeated. Deduplication is global, as in the reference, so memory
 * is bounded by `max_unique_patterns`, not by the input. What a normaliser masks can be what
 * tells lines apart (`[503]` among `[200]`s, where `[<N>]` is meant for a pid): the lines of one
 * key whose field takes another value than most of them do (generic_outliers.ts) are counted
 * apart, each value under its own first line. They are read in windows of MAX_SHAPED_LINES lines
 * (memory stays bounded), each window seeded with a few lines its keys held in common before, so
 * a lone odd line of a later window is odd against them, and a window whose lines all turned to
 * another value (a service that fails half way through) counts them apart from the earlier ones.
 *
 * In a compound command's output the other commands' lines are read with its own: a line goes only
 * as a repeat of one shown, counted under it, so no command's line is lost unsaid.
 */
import { z } from "zod";
import type { Pattern, RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { findOutliers } from "../generic_outliers.ts";
import { MAX_SHAPED_LINES } from "../generic_shapes.ts";
import { FAILURE_SIGNAL, patternField } from "./_shared.ts";

/** Failure-looking lines kept past `max_unique_patterns`, at most (memory stays bounded). */
const MAX_LATE_SIGNALS = 10_000;
/** Lines of a key's common value carried into the next window: enough for a majority to show. */
const SEEDS_PER_KEY = 16;
/** Seed lines kept over all keys, at most (memory stays bounded). */
const MAX_SEED_LINES = 4_096;

const NormalizePattern = z.object({
  pattern: z.string().describe("Regex (RE2 syntax) of a varying part"),
  replacement: z.string().describe("Literal text put in its place"),
}).strict();

/** The default normalisers, in order (see combineNormalizers for how a list applies). */
export const DEFAULT_NORMALIZERS: z.infer<typeof NormalizePattern>[] = [
  {
    pattern: "\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:\\d{2}[.,]?\\d{0,9}(Z|[+-]\\d{2}:?\\d{2})?",
    replacement: "<TS>",
  },
  {
    pattern: "\\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \\d]\\d \\d{2}:\\d{2}:\\d{2}",
    replacement: "<TS>",
  },
  { pattern: "\\b\\d{2}:\\d{2}:\\d{2}([.,]\\d{1,9})?\\b", replacement: "<TIME>" },
  {
    pattern: "\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b",
    replacement: "<UUID>",
  },
  { pattern: "\\b\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}(:\\d{1,5})?\\b", replacement: "<IP>" },
  { pattern: "\\bport[=: ]{1,3}\\d{1,10}", replacement: "port=<N>" },
  { pattern: "\\b(pid|PID|tid)[=: ]{1,3}\\d{1,10}", replacement: "pid=<N>" },
  { pattern: "\\[\\d{1,10}\\]", replacement: "[<N>]" },
  { pattern: "\\b0x[0-9a-fA-F]{4,16}\\b", replacement: "<HEX>" },
  { pattern: "(\\b|_)[0-9a-f]{12,64}\\b", replacement: "<ID>" },
  { pattern: "\\b\\d{1,9}(\\.\\d{1,9})?(ms|µs|us|ns|s)\\b", replacement: "<DUR>" },
];

export const DedupConfig = z.object({
  type: z.literal("dedup"),
  normalize_patterns: z.array(NormalizePattern).default(DEFAULT_NORMALIZERS).describe(
    "Regex → replacement pairs, one alternation over each line: left to right, at each position the first pattern that matches there is replaced",
  ),
  max_unique_patterns: z.number().int().min(1).default(10_000).describe(
    "Distinct lines counted at most (bounds memory); past it only failure-looking lines stay",
  ),
}).strict();
export type DedupConfig = z.infer<typeof DedupConfig>;

export interface Normalizer {
  pattern: Pattern;
  replacement: string;
}

export function compileDedup(config: DedupConfig, engine: RegexEngine): CompiledStrategy {
  const normalize = combineNormalizers(config.normalize_patterns.map((n, i) => ({
    pattern: patternField(n.pattern, `strategy.normalize_patterns[${i}].pattern`, engine),
    replacement: n.replacement,
  })));
  const max = config.max_unique_patterns;
  return {
    type: "dedup",
    createStage(ctx: StageContext): Stage {
      // Each distinct key's index into `examples` and `counts` (no object per line).
      const seen = new Map<string, number>();
      const examples: string[] = [];
      const counts: number[] = [];
      // Failure-looking lines past the cap: not collapsed, but never dropped.
      const late: string[] = [];
      // The first lines, for the unchanged pass-through of an output too short to collapse.
      const first: string[] = [];
      let total = 0;
      let dropped = 0;
      // The counts by key and odd value, read window by window.
      const windows = new WindowedGroups();
      return {
        push(line) {
          if (total++ < 2) first.push(line);
          const key = normalize(line);
          let at = seen.get(key);
          if (at !== undefined) counts[at]++;
          else if (seen.size < max) {
            at = examples.length;
            seen.set(key, at);
            examples.push(line);
            counts.push(1);
          }
          if (at !== undefined) windows.push(line, at);
          if (at === undefined) {
            dropped++;
            if (late.length < MAX_LATE_SIGNALS && FAILURE_SIGNAL.test(line)) late.push(line);
          }
        },
        finish() {
          const collapsed = total >= 3 && (seen.size + dropped < total || dropped > 0);
          if (!collapsed && seen.size < total) {
            // Too few lines to collapse, but some were merged: Fallback means the input as it
            // was, not the repeats dropped.
            for (const line of first) ctx.emit(line);
            return "fallback";
          }
          const groups = collapsed
            ? windows.groups()
            : examples.map((example, i) => ({ example, count: counts[i] }));
          for (const { example, count } of groups) {
            ctx.emit(collapsed && count > 1 ? `${example} (x${count})` : example);
          }
          if (!collapsed) return "fallback";
          for (const line of late) ctx.emit(line);
          const cap = dropped
            ? `; capped at ${max}, ${dropped - late.length} later lines not shown`
            : "";
          ctx.emit(`(${groups.length} unique lines of ${total}${cap})`);
          return "full";
        },
      };
    },
  };
}

/**
 * Lines counted by key (their key's index) and by the value that makes some of a key's lines odd
 * (generic_outliers.ts): groups in first-seen order, each shown by its first line. Lines are read
 * in windows of MAX_SHAPED_LINES. A key's first line in a window brings in, uncounted, up to
 * SEEDS_PER_KEY lines the key held in common in earlier windows: against them a lone odd line of
 * the window is odd, and when they are the odd ones (the key's lines turned to another value) the
 * window's common lines are counted apart, as "not the seeds' value".
 */
class WindowedGroups {
  #lines: string[] = [];
  #keys: number[] = [];
  #seed: boolean[] = [];
  /** The window's lines that count (not seeds). */
  #counted = 0;
  #inWindow = new Set<number>();
  #seeds = new Map<number, string[]>();
  #seedLines = 0;
  #groups = new Map<string, { example: string; count: number }>();
  /** Each key's group of its common lines (the one labelled by the key alone), by key. */
  #common: ({ example: string; count: number } | undefined)[] = [];

  push(line: string, key: number): void {
    if (!this.#inWindow.has(key)) {
      this.#inWindow.add(key);
      for (const seed of this.#seeds.get(key) ?? []) this.#add(seed, key, true);
    }
    this.#add(line, key, false);
    if (this.#counted >= MAX_SHAPED_LINES) this.#flush();
  }

  groups(): { example: string; count: number }[] {
    this.#flush();
    return [...this.#groups.values()];
  }

  #add(line: string, key: number, seed: boolean): void {
    this.#lines.push(line);
    this.#keys.push(key);
    this.#seed.push(seed);
    if (!seed) this.#counted++;
  }

  #flush(): void {
    if (this.#lines.length === 0) return;
    const lines = this.#lines;
    const keys = this.#keys;
    const byKey = new Map<number, number[]>();
    keys.forEach((at, k) => {
      const ks = byKey.get(at);
      if (ks) ks.push(k);
      else byKey.set(at, [k]);
    });
    // The odd value of each line that has one.
    const oddValue = new Map<number, string>();
    // Per key, the value its seeds (its earlier common lines) are odd by, if they are.
    const seedsOdd = new Map<number, string>();
    for (const [at, ks] of byKey) {
      if (ks.length < 2) continue;
      const { odd } = findOutliers(ks.map((k) => lines[k]), { kinds: true });
      for (const [i, value] of odd) oddValue.set(ks[i], value);
      const seed = ks.find((k) => this.#seed[k]);
      const value = seed === undefined ? undefined : oddValue.get(seed);
      if (value !== undefined) seedsOdd.set(at, value);
    }
    lines.forEach((line, k) => {
      if (this.#seed[k]) return;
      const at = keys[k];
      const value = oddValue.get(k);
      const turned = seedsOdd.get(at);
      // The key's common lines are labelled by the key alone; with the seeds odd, the lines of
      // the seeds' value are those, and the window's own common ones are "not that value".
      const label = turned === undefined
        ? value === undefined ? null : `${at}\n${value}`
        : value === turned
        ? null
        : value === undefined
        ? `${at}\n!${turned}`
        : `${at}\n${value}`;
      if (label === null) {
        const group = this.#common[at];
        if (group) group.count++;
        else this.#groups.set(`${at}`, this.#common[at] = { example: line, count: 1 });
      } else {
        const group = this.#groups.get(label);
        if (group) group.count++;
        else this.#groups.set(label, { example: line, count: 1 });
      }
      if (label !== null || this.#seedLines >= MAX_SEED_LINES) return;
      const seeds = this.#seeds.get(at);
      if (seeds && seeds.length >= SEEDS_PER_KEY) return;
      if (seeds) seeds.push(line);
      else this.#seeds.set(at, [line]);
      this.#seedLines++;
    });
    this.#lines = [];
    this.#keys = [];
    this.#seed = [];
    this.#counted = 0;
    this.#inWindow.clear();
  }
}

/**
 * The normalisers over one line, as one alternation: left to right, at each position the first
 * normaliser (in list order) that matches there replaces its match, and the scan goes on after
 * it. One V8 regex when every pattern runs on V8 with the same flags, else each pattern's next
 * match, the leftmost winning: the same answer either way.
 */
export function combineNormalizers(normalizers: Normalizer[]): (line: string) => string {
  if (normalizers.length === 0) return (line) => line;
  const forms = normalizers.map((n) => n.pattern.v8);
  if (!forms.every((f) => f && f.flags === forms[0]!.flags)) {
    return (line) => alternation(normalizers, line);
  }
  // Found without `exec`, whose result (an array, the match's strings) costs more than the match
  // on a log line: `skip` (sticky) runs up to where the alternation first matches, then the first
  // normaliser whose own sticky regex matches there is the one the alternation took (nothing
  // follows the alternation), and where that one ends is where the match ends.
  const flags = forms[0]!.flags + "y";
  const any = forms.map((f) => `(?:${f!.bare})`).join("|");
  const starts = forms.every((f) => f!.starts !== null) ? forms.map((f) => f!.starts).join("") : "";
  // When the characters a match can start with are known, `skip` steps over the others without
  // trying the alternation there, and over each of them where the alternation fails; the steps are
  // taken once (a lookahead's capture, matched again by `\1`: nothing is retried).
  const lazy = new RegExp(`[^]*?(?=${any})`, flags);
  const stepping = starts
    ? new RegExp(`(?=((?:[^${starts}]|(?!${any})[^])*))\\1(?=${any})`, flags)
    : lazy;
  const each = forms.map((f) => new RegExp(f!.bare, flags));
  return (line) => {
    // V8 keeps a backtracking entry per step of `stepping`: a very long line takes the lazy scan.
    const skip = line.length <= MAX_STEPPED ? stepping : lazy;
    let out = "";
    let last = 0;
    for (let from = 0; from <= line.length;) {
      skip.lastIndex = from;
      if (!skip.test(line)) break;
      const start = skip.lastIndex;
      let k = 0;
      let end = start;
      for (; k < each.length; k++) {
        each[k].lastIndex = start;
        if (each[k].test(line)) {
          end = each[k].lastIndex;
          break;
        }
      }
      out += line.slice(last, start) + normalizers[Math.min(k, each.length - 1)].replacement;
      last = end;
      from = end > start ? end : end + 1;
    }
    return last === 0 && out === "" ? line : out + line.slice(last);
  };
}

/** Longest line combineNormalizers steps through by its start characters (see there). */
const MAX_STEPPED = 1 << 18;

/** combineNormalizers' alternation from each pattern's next match (see there). */
function alternation(normalizers: Normalizer[], line: string): string {
  let out = "";
  let last = 0;
  let pos = 0;
  // Each pattern's next match at or after `pos`, searched again only once `pos` passed its start
  // (a pattern that lost to an earlier one keeps its answer): one search per match per pattern.
  const next: ({ start: number; end: number } | null | undefined)[] = normalizers.map(() =>
    undefined
  );
  while (pos <= line.length) {
    let best = -1;
    let start = Infinity;
    let end = 0;
    for (let k = 0; k < normalizers.length; k++) {
      let m = next[k];
      if (m === undefined || (m !== null && m.start < pos)) {
        m = next[k] = normalizers[k].pattern.search(line, pos);
      }
      if (m !== null && m.start < start) {
        best = k;
        start = m.start;
        end = m.end;
      }
    }
    if (best < 0) break;
    out += line.slice(last, start) + normalizers[best].replacement;
    last = end;
    // After an empty match, on past the character there (a whole surrogate pair).
    const pair = /^[\ud800-\udbff][\udc00-\udfff]/.test(line.slice(end, end + 2));
    pos = end > start ? end : end + (pair ? 2 : 1);
  }
  return out + line.slice(last);
}
