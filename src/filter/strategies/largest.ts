/**
 * largest: a listing of sized rows (`du`'s `2.8M<TAB>node_modules/zod`) read by size, as
 * `du | sort -h | tail` would be: outputs of at most `min_lines` lines pass; longer ones keep the
 * `keep` largest rows and the `keep` largest roots (rows whose parent directory is not listed:
 * an operand's total, `total`), in their order, and one line saying what went
 * (`… (54 more entries, each at most 1.4M)`) after the listing's last row. Lines that are not rows (`du: cannot read
 * directory …`) all stay, in place; blank lines go. Sizes compare across units (`K` < `M`, `1.5G`, plain block
 * counts); a row whose size cannot be read stays. With `entries`, the rows it names stay whatever
 * their size, the first `keep` of them, besides the largest: a build's entry documents
 * (`dist/index.html`, the page the site is loaded from) are what it built, not one size among many.
 *
 * In a compound command's output the other commands' lines need no part of their own: a line that
 * is no row stays in place (only blank lines go), and only rows compete for the kept places.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { patternField, requireNamedGroups } from "./_shared.ts";

export const LargestConfig = z.object({
  type: z.literal("largest"),
  row_pattern: z.string().describe(
    "Regex of a sized row with the named groups `size` (`8.0K`, `2.8M`, `4096`) and `path`",
  ),
  keep: z.number().int().min(1).default(10).describe("Largest rows kept (and largest roots)"),
  min_lines: z.number().int().min(0).default(20).describe("Outputs up to this many lines pass"),
  entries: z.string().optional().describe(
    "Regex of rows that stay whatever their size, the first `keep` of them (a build's entry documents: `dist/index.html`)",
  ),
}).strict();
export type LargestConfig = z.infer<typeof LargestConfig>;

/** `8.0K`, `2.8M`, `1,5G`, `512`, `4.0KiB`, `12kB`, esbuild's `1.2kb`, `477 bytes`: a number and an optional unit. */
const SIZE = /^(\d+(?:[.,]\d+)?)\s?([kmgtpezy]?)(?:i?b|bytes)?$/i;
const UNITS = "KMGTPEZY";

/** The size in bytes-ish units (every row of one output uses the same base), or null. */
export function parseSize(text: string): number | null {
  const m = SIZE.exec(text.trim());
  if (!m) return null;
  const value = Number(m[1].replace(",", "."));
  const power = m[2] ? UNITS.indexOf(m[2].toUpperCase()) + 1 : 0;
  return value * 1024 ** power;
}

interface Row {
  index: number;
  line: string;
  size: number;
  sizeText: string;
  path: string;
}

export function compileLargest(config: LargestConfig, engine: RegexEngine): CompiledStrategy {
  requireNamedGroups(
    config.row_pattern,
    "strategy.row_pattern",
    ["size", "path"],
    (name) => `the row's ${name}`,
  );
  const pattern = patternField(config.row_pattern, "strategy.row_pattern", engine);
  const entries = config.entries === undefined
    ? null
    : patternField(config.entries, "strategy.entries", engine);
  const { keep, min_lines: minLines } = config;
  return {
    type: "largest",
    createStage(ctx: StageContext): Stage {
      // Every line in order: a row, or a line that is not one (kept whatever happens).
      const lines: (Row | string)[] = [];
      const rows: Row[] = [];
      let blanks = 0;
      return {
        push(line) {
          if (line.trim() === "") {
            blanks++;
            return;
          }
          const m = pattern.exec(line);
          const sizeText = m?.group("size");
          const path = m?.group("path");
          const size = sizeText === undefined ? null : parseSize(sizeText);
          if (size === null || sizeText === undefined || !path) {
            lines.push(line);
            return;
          }
          const row = { index: lines.length, line, size, sizeText, path };
          lines.push(row);
          rows.push(row);
        },
        finish() {
          if (lines.length <= minLines || rows.length <= keep) {
            for (const l of lines) ctx.emit(typeof l === "string" ? l : l.line);
            return blanks ? "full" : "fallback";
          }
          const paths = new Set(rows.map((r) => r.path.replace(/\/+$/, "")));
          const isRoot = (r: Row) => {
            const p = r.path.replace(/\/+$/, "");
            const slash = p.lastIndexOf("/");
            return slash <= 0 || !paths.has(p.slice(0, slash));
          };
          const bySize = rows.toSorted((a, b) => b.size - a.size || a.index - b.index);
          const kept = new Set(bySize.slice(0, keep));
          for (const r of bySize.filter(isRoot).slice(0, keep)) kept.add(r);
          if (entries) {
            for (const r of rows.filter((r) => entries.test(r.line)).slice(0, keep)) kept.add(r);
          }
          let left = 0;
          let largestLeft: Row | null = null;
          for (const r of rows) {
            if (kept.has(r)) continue;
            left++;
            if (!largestLeft || r.size > largestLeft.size) largestLeft = r;
          }
          // The count of what went stands right after the listing's last row.
          const last = rows.at(-1)!;
          for (const l of lines) {
            if (typeof l === "string") ctx.emit(l);
            else if (kept.has(l)) ctx.emit(l.line);
            if (l === last && largestLeft) {
              ctx.emit(
                `… (${left} more entr${
                  left === 1 ? "y" : "ies"
                }, each at most ${largestLeft.sizeText})`,
              );
            }
          }
          return "full";
        },
      };
    },
  };
}
