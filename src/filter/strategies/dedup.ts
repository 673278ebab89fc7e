/**
 * dedup: normalises the parts of log lines that change on every line (timestamps, UUIDs, IPs
 * and ports, pids, hex ids, durations), then prints each distinct line once, in first-seen
 * order, with `(xN)` when it repeated. Deduplication is global, as in the reference, so memory
 * is bounded by `max_unique_patterns`, not by the input.
 */
import { z } from "zod";
import { mayDiffer, type Pattern } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { patternField } from "./_shared.ts";
import { encodeLine, maxKeyLength, normalizeUtf8 } from "./dedup_normalize.ts";

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
  { pattern: "[0-9a-f]{12,64}\\b", replacement: "<ID>" },
  { pattern: "\\b\\d{1,9}(\\.\\d{1,9})?(ms|µs|us|ns|s)\\b", replacement: "<DUR>" },
];

export const DedupConfig = z.object({
  type: z.literal("dedup"),
  normalize_patterns: z.array(NormalizePattern).default(DEFAULT_NORMALIZERS).describe(
    "Regex → replacement pairs, one alternation over each line: left to right, at each position the first pattern that matches there is replaced",
  ),
  max_unique_patterns: z.number().int().min(1).default(10_000),
}).strict();
export type DedupConfig = z.infer<typeof DedupConfig>;

export interface Normalizer {
  pattern: Pattern;
  replacement: string;
}

export function compileDedup(config: DedupConfig): CompiledStrategy {
  const normalizers: Normalizer[] = config.normalize_patterns.map((n, i) => ({
    pattern: patternField(n.pattern, `strategy.normalize_patterns[${i}].pattern`),
    replacement: n.replacement,
  }));
  const max = config.max_unique_patterns;
  // The defaults run on a hand-written scanner over the lines' UTF-8 with the same result
  // (dedup_normalize.ts), keyed by bytes; user-configured patterns on the regex alternation.
  const defaults = isDefault(config.normalize_patterns);
  const normalize = defaults ? null : combineNormalizers(normalizers);
  return {
    type: "dedup",
    createStage(ctx: StageContext): Stage {
      const seen = normalize ? new StringKeyed<Entry>(normalize) : new ByteKeyed<Entry>();
      let total = 0;
      let dropped = 0;
      return {
        utf8: defaults,
        push(line, utf8, from, to) {
          total++;
          const entry = seen.get(line, utf8, from, to);
          if (entry) entry.count++;
          else if (seen.size < max) seen.add({ example: line, count: 1 });
          else dropped++;
        },
        finish() {
          const collapsed = total >= 3 && (seen.size + dropped < total || dropped > 0);
          if (!collapsed && seen.size < total) {
            // Too few lines to collapse, but some were merged: Fallback means the input as it
            // was, so it is walked again rather than shown with its repeats dropped.
            if (ctx.replay) ctx.replay(ctx.emit);
            else {for (const { example, count } of seen.values()) {
                for (let i = 0; i < count; i++) ctx.emit(example);
              }}
            return "fallback";
          }
          for (const { example, count } of seen.values()) {
            ctx.emit(collapsed && count > 1 ? `${example} (x${count})` : example);
          }
          if (!collapsed) return "fallback";
          const cap = dropped ? ` (capped at ${max}; ${dropped} later lines not shown)` : "";
          ctx.emit(`${seen.size} unique lines (${total} total)${cap}`);
          return "full";
        },
      };
    },
  };
}

interface Entry {
  example: string;
  count: number;
}

/**
 * Values by normalised line, in first-seen order: `get` looks a line up (remembering its key),
 * `add` files a value under the key of the line `get` last looked up.
 */
interface Keyed<V> {
  readonly size: number;
  get(line: string, utf8?: Uint8Array, from?: number, to?: number): V | undefined;
  add(value: V): void;
  values(): Iterable<V>;
}

/** Keys are the configured normalisers' result. */
class StringKeyed<V> implements Keyed<V> {
  #map = new Map<string, V>();
  #key = "";
  constructor(readonly normalize: (line: string) => string) {}
  get size(): number {
    return this.#map.size;
  }
  get(line: string): V | undefined {
    this.#key = this.normalize(line);
    return this.#map.get(this.#key);
  }
  add(value: V): void {
    this.#map.set(this.#key, value);
  }
  values(): Iterable<V> {
    return this.#map.values();
  }
}

interface Slot<V> {
  /** The key's bytes as 32-bit words, the last one padded with zeros. */
  key: Int32Array;
  length: number;
  value: V;
  next: Slot<V> | undefined;
}

/**
 * Keys are the default normalisers' result as bytes (`normalizeUtf8`), found by a hash of their
 * 32-bit words and compared word for word: no string is built per line. A line without its
 * bytes (a later stage, sanitised output) is encoded here.
 */
class ByteKeyed<V> implements Keyed<V> {
  #byHash = new Map<number, Slot<V>>();
  #order: V[] = [];
  #line: Uint8Array = new Uint8Array(256);
  #key: Uint8Array = new Uint8Array(0);
  #key32: Int32Array = new Int32Array(0);
  #keyLength = 0;
  #hash = 0;
  get size(): number {
    return this.#order.length;
  }
  get(line: string, utf8?: Uint8Array, from = 0, to = 0): V | undefined {
    if (utf8 === undefined) {
      const encoded = encodeLine(line, this.#line);
      this.#line = utf8 = encoded.buf;
      from = 0;
      to = encoded.length;
    }
    if (this.#key.length < maxKeyLength(to - from) + 4) {
      // Grown to what this line needs (doubling, so a run of longer lines grows it rarely).
      const size = Math.max(maxKeyLength(to - from) + 4, this.#key.length * 2);
      const words = new Int32Array((size + 3) >> 2);
      this.#key32 = words;
      this.#key = new Uint8Array(words.buffer);
    }
    const key = this.#key;
    const n = this.#keyLength = normalizeUtf8(utf8, from, to, key);
    const words = (n + 3) >> 2;
    for (let i = n; i < words << 2; i++) key[i] = 0;
    const key32 = this.#key32;
    let h = n;
    for (let i = 0; i < words; i++) h = Math.imul(h ^ key32[i], 0x01000193) ^ (h >>> 15);
    this.#hash = h;
    for (let slot = this.#byHash.get(h); slot !== undefined; slot = slot.next) {
      if (slot.length !== n) continue;
      const k = slot.key;
      let i = 0;
      while (i < words && k[i] === key32[i]) i++;
      if (i === words) return slot.value;
    }
    return undefined;
  }
  add(value: V): void {
    const slot = {
      key: this.#key32.slice(0, (this.#keyLength + 3) >> 2),
      length: this.#keyLength,
      value,
      next: this.#byHash.get(this.#hash),
    };
    this.#byHash.set(this.#hash, slot);
    this.#order.push(value);
  }
  values(): Iterable<V> {
    return this.#order;
  }
}

/** The config's normalisers are exactly the defaults, in order. */
function isDefault(list: z.infer<typeof NormalizePattern>[]): boolean {
  return list.length === DEFAULT_NORMALIZERS.length &&
    list.every((n, i) =>
      n.pattern === DEFAULT_NORMALIZERS[i].pattern &&
      n.replacement === DEFAULT_NORMALIZERS[i].replacement
    );
}

/**
 * The normalisers over one line, as one alternation: left to right, at each position the first
 * normaliser (in list order) that matches there replaces its match, and the scan goes on after
 * it. One V8 regex when every pattern runs natively with the same flags (one scan per line
 * instead of ten); otherwise, and for a line the translations may read otherwise than RE2,
 * each pattern's next match, the leftmost winning — the same answer either way.
 */
export function combineNormalizers(normalizers: Normalizer[]): (line: string) => string {
  const natives = normalizers.map((n) => n.pattern.native);
  if (normalizers.length === 0) return (line) => line;
  const scan = (line: string): string => alternation(normalizers, line);
  if (natives.some((n) => !n || n.flags !== natives[0]!.flags)) return scan;
  const groupIndex: number[] = [];
  let next = 1;
  for (const n of natives) {
    groupIndex.push(next);
    next += 1 + (new RegExp(`${n!.body}|`, n!.flags).exec("")!.length - 1);
  }
  const combined = new RegExp(
    natives.map((n) => `(${n!.body})`).join("|"),
    natives[0]!.flags + "g",
  );
  const replacements = normalizers.map((n) => n.replacement);
  const groups = groupIndex.length;
  const exact = natives.every((n) => n!.exact);
  // An exec loop instead of `replace` with a rest-argument callback: no argument array per match.
  return (line) => {
    if (!exact && mayDiffer(line)) return scan(line);
    combined.lastIndex = 0;
    let m = combined.exec(line);
    if (m === null) return line;
    let out = "";
    let last = 0;
    do {
      let k = 0;
      while (k < groups && m[groupIndex[k]] === undefined) k++;
      out += line.slice(last, m.index) + (k < groups ? replacements[k] : m[0]);
      last = m.index + m[0].length;
      if (m[0].length === 0) combined.lastIndex++;
    } while ((m = combined.exec(line)) !== null);
    return out + line.slice(last);
  };
}

/** combineNormalizers' alternation from each pattern's next match (see there). */
function alternation(normalizers: Normalizer[], line: string): string {
  let out = "";
  let last = 0;
  let pos = 0;
  while (pos <= line.length) {
    let best = -1;
    let start = Infinity;
    let end = 0;
    for (let k = 0; k < normalizers.length; k++) {
      const m = normalizers[k].pattern.search(line, pos);
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
    const pair = line.charCodeAt(end) >= 0xd800 && line.charCodeAt(end) < 0xdc00 &&
      line.charCodeAt(end + 1) >= 0xdc00 && line.charCodeAt(end + 1) < 0xe000;
    pos = end > start ? end : end + (pair ? 2 : 1);
  }
  return out + line.slice(last);
}
