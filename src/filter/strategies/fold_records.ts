/**
 * fold_records: a record (a line matching `start` and the lines after it matching `within`) that
 * repeats an earlier one once every `mask` match is set aside goes, and the like records that went
 * one after another are counted on one `summary` line where they were. memcheck reports one loop's
 * `Invalid read of size 4` once per instruction, each record differing from the first only in
 * its addresses and how far past the block it read: one stays. Only what `mask` matches is
 * ignored, so records whose frames (a function, a `file:line`) differ all stay; a line matching
 * `unmasked` (a frame with no symbol: its address is its only location) is compared as printed.
 * The first `max_like` records of a kind stay (a dump's first rows of a table show its data), and
 * with `show_last` the last record of a folded run stays under its count (a table's last row).
 * Streaming:
 * memory is the open record and the distinct records seen, at most `max_records` of them.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { patternField } from "./_shared.ts";
import { combineNormalizers } from "./dedup.ts";

export const FoldRecordsConfig = z.object({
  type: z.literal("fold_records"),
  start: z.string().describe("Regex (RE2 syntax) of a record's first line"),
  within: z.string().describe("Regex (RE2 syntax) of the lines that continue a record"),
  mask: z.array(z.string()).min(1).describe(
    "Regexes (RE2 syntax) of the parts that may differ between records that fold (addresses)",
  ),
  unmasked: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of record lines compared as printed, masks not applied (a frame whose address is its only location)",
  ),
  summary: z.string().max(200).default(
    '… {n} more "{first}" like a record above, at other addresses',
  )
    .describe(
      "The line standing for like records that went one after another; {n} is their count, {first} the first line of one",
    ),
  max_like: z.number().int().min(1).max(1000).default(1).describe(
    "Records of one kind (alike once masked) shown before the further ones fold",
  ),
  show_last: z.boolean().default(false).describe(
    "Show the last record of each folded run under its count line (a table's last row)",
  ),
  max_records: z.number().int().min(1).max(100_000).default(10_000).describe(
    "Distinct records remembered at most (bounds memory); past it new records all stay",
  ),
}).strict();
export type FoldRecordsConfig = z.infer<typeof FoldRecordsConfig>;

export function compileFoldRecords(
  config: FoldRecordsConfig,
  engine: RegexEngine,
): CompiledStrategy {
  const start = patternField(config.start, "strategy.start", engine);
  const within = patternField(config.within, "strategy.within", engine);
  const mask = combineNormalizers(config.mask.map((source, i) => ({
    pattern: patternField(source, `strategy.mask[${i}]`, engine),
    replacement: "\u0000",
  })));
  const unmasked = config.unmasked.map((source, i) =>
    patternField(source, `strategy.unmasked[${i}]`, engine)
  );
  const keyOf = (line: string) => unmasked.some((p) => p.test(line)) ? line : mask(line);
  return {
    type: "fold_records",
    createStage(ctx: StageContext): Stage {
      /** Per distinct record: how many of its kind were shown. */
      const seen = new Map<string, number>();
      let record: string[] | null = null;
      // The records folded since the last line shown: how many, their key and first line.
      let folded = 0;
      let foldedKey = "";
      let foldedFirst = "";
      /** With show_last: the last record folded, shown under the count. */
      let foldedLast: string[] = [];
      let changed = false;
      const count = () => {
        const counted = config.show_last ? folded - 1 : folded;
        if (counted > 0) {
          ctx.emit(
            config.summary.replaceAll("{n}", String(counted)).replaceAll("{first}", foldedFirst),
          );
        }
        if (folded && config.show_last) { for (const line of foldedLast) ctx.emit(line); }
        folded = 0;
      };
      const show = (line: string) => {
        count();
        ctx.emit(line);
      };
      const close = () => {
        if (record === null) return;
        const key = record.map(keyOf).join("\n");
        const shown = seen.get(key);
        if (shown !== undefined && shown < config.max_like) {
          seen.set(key, shown + 1);
          for (const line of record) show(line);
        } else if (shown !== undefined) {
          if (key !== foldedKey) count();
          foldedKey = key;
          foldedFirst = record[0].trim();
          if (config.show_last) foldedLast = record;
          folded++;
          changed = true;
        } else {
          if (seen.size < config.max_records) seen.set(key, 1);
          for (const line of record) show(line);
        }
        record = null;
      };
      return {
        push(line) {
          if (start.test(line)) {
            close();
            record = [line];
          } else if (record !== null && within.test(line)) record.push(line);
          else {
            close();
            show(line);
          }
        },
        finish() {
          close();
          count();
          return changed ? "full" : "fallback";
        },
      };
    },
  };
}
