/**
 * group_paths: a long listing of paths (find, fd, git ls-files) grouped by directory, as RTK
 * does for find. The first path of each directory stays verbatim (it can still be copied); the
 * other entries of that directory follow as bare names, at most `max_items`, then a count; an
 * entry of a kind none of those shown has (`core.dump` among hundreds of `file_N.o`, a name
 * without an extension among `.ts` files) follows them by name too, the first of each kind.
 * Past `max_groups` directories the further entries are counted, except the first entry of each
 * kind no shown entry has (a `core` among `.py` modules), which stays as printed.
 * Lines that are not paths (errors such as `find: ‘x’: Permission denied`) stay, in order.
 * With `entry`, a path is a line it matches, its `path` group the path (tsc's `TSFILE: dist/a.js`,
 * an archive listing's row: size, date and time, then the path), and every other line is not. Lines
 * `details` matches say something about the path above them (tsc --explainFiles' indented reasons
 * a file is in the program): those `quiet_details` also matches go, counted, and a path keeping
 * one stays whole in its place with its kept details under it, rather than grouped.
 * With `grouped`, only the paths it matches are grouped (a program's node_modules files), the
 * others stay whole in their place (the project's own files), up to a bound of their own. A path
 * with kept details and those details have a bound of their own too.
 * Memory is bounded by `max_groups` × `max_items` whatever the input size. In a compound
 * command's output (`find src -type f && npm test`) its own lines are entries, or without `entry`
 * lines that read as paths for sure (`owns`): the other commands' lines pass as printed.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { FAILURE_SIGNAL, optionalPatternField, requireNamedGroups } from "./_shared.ts";

/** Lines that are not paths kept verbatim, at most; failure-looking ones up to the second bound. */
const MAX_LOOSE = 100;
const MAX_LOOSE_FAILURES = 10_000;
/** Paths `grouped` leaves whole, at most (their own bound: many errors do not use it up). */
const MAX_WHOLE = 200;
/**
 * Kept details and the paths over them, at most: their own bound, so that many errors or other
 * lines that are not paths do not use up what the reasons a file is in the program are shown by.
 */
const MAX_DETAILS = 2000;
/** Kinds of entry (extensions) told apart per directory, at most: past them one is no odd one. */
const MAX_KINDS = 8;

export const GroupPathsConfig = z.object({
  type: z.literal("group_paths"),
  min_lines: z.number().int().min(0).default(40).describe("Outputs up to this many lines pass"),
  max_groups: z.number().int().min(1).default(40).describe("Directories or files shown"),
  max_items: z.number().int().min(0).default(8).describe("Entries shown per group after the first"),
  entry: z.string().optional().describe(
    "Regex (RE2 syntax) of the lines that are paths, the path in its `path` group; others are not",
  ),
  grouped: z.string().optional().describe(
    "Regex (RE2 syntax) of the path lines grouped; other paths stay whole in their place (while few)",
  ),
  details: z.string().optional().describe(
    "Regex (RE2 syntax) of lines about the path above them (indented reasons); they follow it",
  ),
  quiet_details: z.string().optional().describe(
    "Regex (RE2 syntax) of detail lines that go, counted; a path with only these is grouped",
  ),
}).strict();
export type GroupPathsConfig = z.infer<typeof GroupPathsConfig>;

interface Group {
  first: string;
  items: string[];
  more: number;
  /** Per kind (`kindOf`): null when an entry shown has it, else its first entry's name. */
  kinds: Map<string, string | null>;
}

/** An entry's kind: its extension with digits masked (`.o`, `.d.ts` is `.ts`), "" for none. */
function kindOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).replace(/\d+/g, "0") : "";
}

/** Notes `name` under its kind: shown, or the first of a kind not shown yet. */
function noteKind(group: Group, name: string, shown: boolean): void {
  const kind = kindOf(name);
  const known = group.kinds.get(kind);
  if (shown) {
    if (known !== null && (known !== undefined || group.kinds.size < MAX_KINDS)) {
      group.kinds.set(kind, null);
    }
  } else if (known === undefined && group.kinds.size < MAX_KINDS) group.kinds.set(kind, name);
}

export function compileGroupPaths(
  config: GroupPathsConfig,
  engine: RegexEngine,
): CompiledStrategy {
  const { min_lines: minLines, max_groups: maxGroups, max_items: maxItems } = config;
  const entryPattern = optionalPatternField(config.entry, "strategy.entry", engine);
  if (config.entry !== undefined) {
    requireNamedGroups(config.entry, "strategy.entry", ["path"], () => "the path");
  }
  const grouped = optionalPatternField(config.grouped, "strategy.grouped", engine);
  const details = optionalPatternField(config.details, "strategy.details", engine);
  const quiet = optionalPatternField(config.quiet_details, "strategy.quiet_details", engine);
  // `find: ‘x’: Permission denied` and other messages are not paths.
  const pathOf = (line: string): string | undefined => {
    if (entryPattern) return entryPattern.exec(line)?.group("path") || undefined;
    return line.length > 0 && !line.includes(": ") && !line.endsWith(":") ? line : undefined;
  };
  return {
    type: "group_paths",
    // Its own lines in a compound command's output: an entry, or without `entry` a line that
    // reads as a path for sure (a `/` in it, or a file name with an extension), not any line
    // without `: ` (`> app@1.0.0 test`, `TAP version 13`, `1..2` of a later test run).
    owns: (line) =>
      entryPattern
        ? entryPattern.test(line)
        : pathOf(line) !== undefined && !/^[\s>#]/.test(line) &&
          (line.includes("/") || /^[\w~@+-][\w.~@+-]*\.[A-Za-z]\w{0,9}$/.test(line)),
    createStage(ctx: StageContext): Stage {
      let held: string[] | null = [];
      const groups = new Map<string, Group>();
      /** Output order: a group key, or a loose line. */
      const order: ({ key: string } | { line: string })[] = [];
      let loose = 0;
      let total = 0;
      let unshown = 0;
      /** Kinds of the entries shown in any group (bounded by `max_groups` × `max_items`). */
      const shownKinds = new Set<string>();
      /** Per kind no shown entry had when it came, the first further-directory path of it. */
      const further = new Map<string, string>();
      let unshownLoose = 0;
      let quieted = 0;
      let whole = 0;
      /** With `details`: the last path read, until the line after it says whether details follow. */
      let pending: string | null = null;
      /** The details being read are shown by their own bound, and how many lines it showed. */
      let underOwn = false;
      let detailLines = 0;

      const keepLoose = (line: string) => {
        if (loose < MAX_LOOSE || (loose < MAX_LOOSE_FAILURES && FAILURE_SIGNAL.test(line))) {
          loose++;
          order.push({ line });
        } else unshownLoose++;
      };

      const isPath = (line: string) => pathOf(line) !== undefined;

      const add = (line: string) => {
        if (!details) return addLine(line);
        if (details.test(line)) {
          if (quiet?.test(line)) {
            quieted++;
            return;
          }
          // A detail kept: its path stays whole above it, both by their own bound (then while
          // loose lines may still be shown).
          if (pending !== null) {
            underOwn = detailLines < MAX_DETAILS;
            if (underOwn) {
              detailLines++;
              total++;
              order.push({ line: pending });
            } else if (loose < MAX_LOOSE) {
              total++;
              keepLoose(pending);
            } else addLine(pending);
            pending = null;
          }
          if (underOwn && detailLines < MAX_DETAILS) {
            detailLines++;
            order.push({ line });
            return;
          }
          return keepLoose(line);
        }
        if (pending !== null) addLine(pending);
        pending = null;
        underOwn = false;
        if (isPath(line)) pending = line;
        else addLine(line);
      };

      const addLine = (line: string) => {
        let key: string | null = null;
        let rest = "";
        const path = pathOf(line);
        // With `entry`, only its lines are counted as paths: a listing's header and totals are not.
        if (path !== undefined || !entryPattern) total++;
        if (path !== undefined && grouped && !grouped.test(line) && whole < MAX_WHOLE) {
          whole++;
          order.push({ line });
          return;
        }
        if (path !== undefined) {
          const slash = path.lastIndexOf("/", path.length - 2);
          key = slash < 0 ? "" : path.slice(0, slash + 1);
          rest = path.slice(slash + 1);
        }
        if (key === null) {
          // Errors and anything unexpected stay verbatim (bounded; failure lines always).
          if (line.trim() === "") return;
          return keepLoose(line);
        }
        const group = groups.get(key);
        if (group) {
          const shown = group.items.length < maxItems;
          if (shown) {
            group.items.push(rest);
            shownKinds.add(kindOf(rest));
          } else group.more++;
          noteKind(group, rest, shown);
          return;
        }
        if (groups.size >= maxGroups) {
          unshown++;
          const kind = kindOf(rest);
          if (!shownKinds.has(kind) && !further.has(kind) && further.size < MAX_KINDS) {
            further.set(kind, line);
          }
          return;
        }
        const created: Group = { first: line, items: [], more: 0, kinds: new Map() };
        noteKind(created, rest, true);
        shownKinds.add(kindOf(rest));
        groups.set(key, created);
        order.push({ key });
      };

      return {
        push(line) {
          if (held === null) return add(line);
          held.push(line);
          if (held.length > minLines) {
            const lines = held;
            held = null;
            for (const l of lines) add(l);
          }
        },
        finish() {
          if (pending !== null) addLine(pending);
          pending = null;
          if (held !== null) {
            for (const line of held) ctx.emit(line);
            return "fallback";
          }
          const sep = ", ";
          ctx.emit(
            `(${total} paths grouped by directory: names after the first path are in its directory)`,
          );
          for (const entry of order) {
            if ("line" in entry) {
              ctx.emit(entry.line);
              continue;
            }
            const g = groups.get(entry.key)!;
            const odd = [...g.kinds.values()].filter((name) => name !== null);
            const more = g.more - odd.length;
            let text = g.first;
            if (g.items.length) text += sep + g.items.join(sep);
            if (odd.length) text += sep + odd.join(sep);
            if (more) text += `${sep}… (+${more} more)`;
            ctx.emit(text);
          }
          // A kind shown (or named in a group) after its further entry came is no odd one any more.
          for (const g of groups.values()) {
            for (const [kind, name] of g.kinds) if (name !== null) shownKinds.add(kind);
          }
          const odd = [...further].filter(([kind]) => !shownKinds.has(kind));
          for (const [, path] of odd) ctx.emit(path);
          if (unshown > odd.length) {
            ctx.emit(`… (+${unshown - odd.length} more paths in further directories)`);
          }
          if (unshownLoose) ctx.emit(`… (+${unshownLoose} more lines that are not paths)`);
          if (quieted) ctx.emit(`… (+${quieted} lines about grouped paths not shown)`);
          return "full";
        },
      };
    },
  };
}
