/**
 * dedup: normalises the parts of log lines that change on every line (timestamps, UUIDs, IPs
 * and ports, pids, hex ids, durations), then prints each distinct line once, in first-seen
 * order, with `(xN)` when it repeated. Deduplication is global, as in the reference, so memory
 * is bounded by `max_unique_patterns`, not by the input.
 */
import { z } from "zod";
import type { Pattern } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { patternField } from "./_shared.ts";
import { normalizeDefault } from "./dedup_normalize.ts";

const NormalizePattern = z.object({
  pattern: z.string().describe("Regex (RE2 syntax) of a varying part"),
  replacement: z.string().describe("Literal text put in its place"),
}).strict();

/** The default normalisers, applied in order. */
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
  normalize_patterns: z.array(NormalizePattern).default(DEFAULT_NORMALIZERS),
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
  // The defaults run on a hand-written scanner with the same result (dedup_normalize.ts);
  // user-configured patterns on the regex alternation.
  const normalize = isDefault(config.normalize_patterns)
    ? normalizeDefault
    : combineNormalizers(normalizers);
  return {
    type: "dedup",
    createStage(ctx: StageContext): Stage {
      const seen = new Map<string, { example: string; count: number }>();
      let total = 0;
      let dropped = 0;
      return {
        push(line) {
          total++;
          const key = normalize(line);
          const entry = seen.get(key);
          if (entry) entry.count++;
          else if (seen.size < max) seen.set(key, { example: line, count: 1 });
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

/** The config's normalisers are exactly the defaults, in order. */
function isDefault(list: z.infer<typeof NormalizePattern>[]): boolean {
  return list.length === DEFAULT_NORMALIZERS.length &&
    list.every((n, i) =>
      n.pattern === DEFAULT_NORMALIZERS[i].pattern &&
      n.replacement === DEFAULT_NORMALIZERS[i].replacement
    );
}

/**
 * All normalisers as one V8 alternation when every pattern runs natively (one scan per line
 * instead of ten); otherwise applied one after the other.
 */
export function combineNormalizers(normalizers: Normalizer[]): (line: string) => string {
  const natives = normalizers.map((n) => n.pattern.native);
  if (normalizers.length === 0) return (line) => line;
  if (natives.some((n) => !n || n.flags !== natives[0]!.flags)) {
    return (line) => {
      let key = line;
      for (const { pattern, replacement } of normalizers) {
        key = pattern.replaceAll(key, replacement);
      }
      return key;
    };
  }
  const groupIndex: number[] = [];
  let next = 1;
  for (const n of natives) {
    groupIndex.push(next);
    next += 1 + (new RegExp(`${n!.body}|`).exec("")!.length - 1);
  }
  const combined = new RegExp(
    natives.map((n) => `(${n!.body})`).join("|"),
    natives[0]!.flags + "g",
  );
  const replacements = normalizers.map((n) => n.replacement);
  const groups = groupIndex.length;
  // An exec loop instead of `replace` with a rest-argument callback: no argument array per match.
  return (line) => {
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
