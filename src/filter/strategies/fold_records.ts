/**
 * fold_records: a record (a line matching `start` and the lines after it matching `within`) that
 * repeats an earlier one once every `mask` match is set aside goes, wherever it recurs; each kind
 * of record that went is counted on one `summary` line, in the order the kinds first came, before
 * the next record shown, the first line matching `counts_before` (the end of a record section) or
 * the end (records A, B, A, B… are two records and two counts, not a count per recurrence).
 * memcheck reports one loop's `Invalid read of size 4` once per instruction, each record differing
 * from the first only in its addresses and how far past the block it read: one stays. Only what
 * `mask` matches is ignored, so records whose frames (a function, a `file:line`) differ all stay; a
 * line matching `unmasked` (a frame with no symbol: its address is its only location) is compared
 * as printed. The first `max_like` records of a kind stay (a dump's first rows of a table show its
 * data), and with `show_last` the last record of a folded kind stays under its count (a table's
 * last row), the counts then coming before any line that is no record. With `section`, records are
 * read only between an `open` line and the next `close` line (rspec's `Pending:` list, not its
 * `Failures:`); lines outside pass as printed, and the counts come before the `close` line. With
 * `ends`, a record goes on until a line matching it (a row whose quoted text spans lines ends at
 * its `;`). With `places`, records whose frames differ only in where (a loop's `file:line`s in one
 * function) fold too, and the count names the places the folded records had that the record shown
 * did not; with `name`, the count names the record it counts (its top frame), so two kinds that
 * share a first line get counts that tell them apart; where two kinds shown share their top frame
 * too, the count names its record's first frame the other's lacks at that place (the caller). Streaming: memory is the open record, the
 * distinct records seen (at most `max_records` of them) and the last record and places of each kind
 * folded.
 *
 * In a compound command's output the other commands' lines need no part of their own: only a record
 * `start` opens folds, and only as a repeat of one shown; any other line passes as printed.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { optionalPatternField, patternField } from "./_shared.ts";
import { combineNormalizers } from "./dedup.ts";

/** Places one count lists at most (an ellipsis stands for the rest). */
const MAX_PLACES = 8;

export const FoldRecordsConfig = z.object({
  type: z.literal("fold_records"),
  start: z.string().describe("Regex (RE2 syntax) of a record's first line"),
  within: z.string().describe("Regex (RE2 syntax) of the lines that continue a record"),
  ends: z.string().optional().describe(
    "Regex (RE2 syntax) of a record's last line: until a line matches it, every line continues the record (a SQL row whose text value spans lines)",
  ),
  mask: z.array(z.string()).min(1).describe(
    "Regexes (RE2 syntax) of the parts that may differ between records that fold (addresses)",
  ),
  unmasked: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of record lines compared as printed, masks not applied (a frame whose address is its only location)",
  ),
  places: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of the parts of a record's lines that may differ between records that fold though they say where (a frame's `file:line`: one loop's lines); the count lists the ones the record shown did not have as {places}, each the pattern's `place` group or its whole match",
  ),
  name: z.string().optional().describe(
    "Regex (RE2 syntax) with a `name` group, read from the first line of the record shown that matches it (its top frame), or the first matching line no other kind shown with that first line and top frame has at its place: {name} on the count line",
  ),
  summary: z.string().max(200).default(
    '… {n} more "{first}" like a record above, at other addresses',
  )
    .describe(
      "The line standing for the like records of a kind that went; {n} is their count, {first} the first line of one, {like} the first line of the first record of the kind shown, {name} what `name` read from that record, {places} ` (also at A, B)` for the places of `places` only the folded records had (empty when none)",
    ),
  counts_before: z.string().optional().describe(
    "Regex (RE2 syntax) of a line before which the counts of the records folded so far are shown (the end of a record section); without it they come at the end",
  ),
  max_like: z.number().int().min(1).max(1000).default(1).describe(
    "Records of one kind (alike once masked) shown before the further ones fold",
  ),
  show_last: z.boolean().default(false).describe(
    "Show the last record of each folded kind under its count line (a table's last row)",
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
  const ends = optionalPatternField(config.ends, "strategy.ends", engine);
  const places = config.places.map((source, i) =>
    patternField(source, `strategy.places[${i}]`, engine)
  );
  const name = optionalPatternField(config.name, "strategy.name", engine);
  const mask = combineNormalizers([
    ...config.mask.map((source, i) => ({
      pattern: patternField(source, `strategy.mask[${i}]`, engine),
      replacement: "\u0000",
    })),
    ...places.map((pattern) => ({ pattern, replacement: "\u0001" })),
  ]);
  const unmasked = config.unmasked.map((source, i) =>
    patternField(source, `strategy.unmasked[${i}]`, engine)
  );
  const countsBefore = optionalPatternField(
    config.counts_before,
    "strategy.counts_before",
    engine,
  );
  const section = config.section
    ? {
      open: patternField(config.section.open, "strategy.section.open", engine),
      close: patternField(config.section.close, "strategy.section.close", engine),
    }
    : null;
  const keyOf = (line: string) => unmasked.some((p) => p.test(line)) ? line : mask(line);
  /** The places a record's lines name (a line's first match of each `places` pattern). */
  const placesOf = (record: string[]): string[] => {
    const found: string[] = [];
    if (places.length === 0) return found;
    for (const line of record) {
      if (unmasked.some((p) => p.test(line))) continue;
      for (const pattern of places) {
        const m = pattern.exec(line);
        if (m) found.push(m.group("place") ?? m.group(0) ?? "");
      }
    }
    return found;
  };
  /** What `name` reads from each line of a record it matches (its frames), in order. */
  const namesOf = (record: string[]): string[] => {
    const found: string[] = [];
    if (name === undefined) return found;
    for (const line of record) {
      const m = name.exec(line);
      if (m) found.push(m.group("name") ?? m.group(0) ?? "");
    }
    return found;
  };
  return {
    type: "fold_records",
    createStage(ctx: StageContext): Stage {
      /** Per distinct record: how many of its kind were shown. */
      const seen = new Map<string, number>();
      /** Per distinct record: the first line of the first one shown (`{like}`) and its `{name}`. */
      const likeOf = new Map<string, string>();
      const namedOf = new Map<string, string[]>();
      /**
       * The name of the record `key` stands for: its first frame, or where another kind shown
       * has that first line and frame too, its first frame no such kind has at that place.
       */
      const nameFor = (key: string): string => {
        const names = namedOf.get(key) ?? [];
        const twins = [...namedOf].filter(([other, theirs]) =>
          other !== key && theirs[0] === names[0] && likeOf.get(other) === likeOf.get(key)
        ).map(([, theirs]) => theirs);
        if (twins.length === 0) return names[0] ?? "";
        return names.find((n, i) => twins.every((theirs) => theirs[i] !== n)) ?? names[0] ?? "";
      };
      /** Per distinct record, with `places`: the places the first one shown names. */
      const placesShown = new Map<string, Set<string>>();
      let record: string[] | null = null;
      // Per kind folded and not counted yet (in the order the kinds first came): how many, the
      // first line of one and, with show_last, the last record. Its keys are among `seen`, so it
      // is bounded by `max_records`.
      const folded = new Map<
        string,
        { n: number; first: string; last: string[]; places: Set<string>; more: boolean }
      >();
      let changed = false;
      const count = () => {
        for (const [key, { n, first, last, places, more }] of folded) {
          const counted = config.show_last ? n - 1 : n;
          if (counted > 0) {
            const also = places.size === 0
              ? ""
              : ` (also at ${[...places].join(", ")}${more ? ", …" : ""})`;
            ctx.emit(
              config.summary.replaceAll("{n}", String(counted)).replaceAll("{first}", first)
                .replaceAll("{like}", likeOf.get(key) ?? first)
                .replaceAll("{name}", nameFor(key)).replaceAll("{places}", also),
            );
          }
          if (config.show_last) { for (const line of last) ctx.emit(line); }
        }
        folded.clear();
      };
      const close = () => {
        if (record === null) return;
        const key = record.map(keyOf).join("\n");
        const shown = seen.get(key);
        if (shown !== undefined && shown < config.max_like) {
          seen.set(key, shown + 1);
          count();
          for (const line of record) ctx.emit(line);
        } else if (shown !== undefined) {
          let kind = folded.get(key);
          if (kind) {
            kind.n++;
            kind.last = record;
          } else {
            kind = { n: 1, first: record[0].trim(), last: record, places: new Set(), more: false };
            folded.set(key, kind);
          }
          const shownPlaces = placesShown.get(key);
          for (const place of placesOf(record)) {
            if (shownPlaces?.has(place) || kind.places.has(place)) continue;
            if (kind.places.size < MAX_PLACES) kind.places.add(place);
            else kind.more = true;
          }
          changed = true;
        } else {
          if (seen.size < config.max_records) {
            seen.set(key, 1);
            likeOf.set(key, record[0].trim());
            if (name !== undefined) namedOf.set(key, namesOf(record));
            if (places.length > 0) placesShown.set(key, new Set(placesOf(record)));
          }
          count();
          for (const line of record) ctx.emit(line);
        }
        record = null;
      };
      let inSection = section === null;
      return {
        push(line) {
          // Outside the section lines pass; its opening and closing lines stay.
          if (section !== null && !inSection) {
            inSection = section.open.test(line);
            return ctx.emit(line);
          }
          if (section !== null && section.close.test(line)) {
            close();
            count();
            inSection = false;
            return ctx.emit(line);
          }
          if (record !== null && ends !== undefined && !ends.test(record[record.length - 1])) {
            record.push(line);
          } else if (start.test(line)) {
            close();
            record = [line];
          } else if (record !== null && within.test(line)) record.push(line);
          else {
            close();
            // A last record shown stays above the lines printed after it.
            if (config.show_last || countsBefore?.test(line)) count();
            ctx.emit(line);
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
