/**
 * fold_records: a record (a line matching `start` and the lines after it matching `within`) that
 * repeats an earlier one once every `mask` match is set aside goes, and the like records that went
 * one after another are counted on one `summary` line where they were. memcheck reports one loop's
 * `Invalid read of size 4` once per instruction, each record differing from the first only in
 * its addresses and how far past the block it read: one stays. Only what `mask` matches is
 * ignored, so records whose frames (a function, a `file:line`) differ all stay; a line matching
 * `unmasked` (a frame with no symbol: its address is its only location) is compared as printed.
 * With `section`, records are read only between an `open` line and the next `close` line (rspec's
 * `Pending:` list, not its `Failures:`); lines outside pass as printed. Streaming:
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
  section: z.object({
    open: z.string().describe(
      "Regex (RE2 syntax) of the line opening the section records are read in",
    ),
    close: z.string().describe("Regex (RE2 syntax) of the line closing it"),
  }).strict().optional().describe(
    "Where records are read (rspec's `Pending:` list up to `Failures:`); unset: everywhere",
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
  const section = config.section
    ? {
      open: patternField(config.section.open, "strategy.section.open", engine),
      close: patternField(config.section.close, "strategy.section.close", engine),
    }
    : null;
  const keyOf = (line: string) => unmasked.some((p) => p.test(line)) ? line : mask(line);
  return {
    type: "fold_records",
    createStage(ctx: StageContext): Stage {
      const seen = new Set<string>();
      let record: string[] | null = null;
      // The records folded since the last line shown: how many, their key and first line.
      let folded = 0;
      let foldedKey = "";
      let foldedFirst = "";
      let changed = false;
      const count = () => {
        if (folded) {
          ctx.emit(
            config.summary.replaceAll("{n}", String(folded)).replaceAll("{first}", foldedFirst),
          );
        }
        folded = 0;
      };
      const show = (line: string) => {
        count();
        ctx.emit(line);
      };
      const close = () => {
        if (record === null) return;
        const key = record.map(keyOf).join("\n");
        if (seen.has(key)) {
          if (key !== foldedKey) count();
          foldedKey = key;
          foldedFirst = record[0].trim();
          folded++;
          changed = true;
        } else {
          if (seen.size < config.max_records) seen.add(key);
          for (const line of record) show(line);
        }
        record = null;
      };
      let inSection = section === null;
      return {
        push(line) {
          // Outside the section lines pass; its opening and closing lines stay.
          if (section !== null && !inSection) {
            inSection = section.open.test(line);
            return show(line);
          }
          if (section !== null && section.close.test(line)) {
            close();
            inSection = false;
            return show(line);
          }
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
