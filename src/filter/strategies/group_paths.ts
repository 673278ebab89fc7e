/**
 * group_paths: a long listing of paths (find, fd, git ls-files) grouped by directory, as RTK
 * does for find. The first path of each directory stays verbatim (it can still be copied); the
 * other entries of that directory follow as bare names, at most `max_items`, then a count; an
 * entry of a kind none of those shown has (`core.dump` among hundreds of `file_N.o`, a name
 * without an extension among `.ts` files) follows them by name too, the first of each kind.
 * Past `max_groups` directories the further entries are counted, except the first entry of each
 * kind no shown entry has (a `core` among `.py` modules), which stays as printed.
 * Lines that are not paths (errors such as `find: ‘x’: Permission denied`) stay, in order.
 * Memory is bounded by `max_groups` × `max_items` whatever the input size.
 */
import { z } from "zod";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { FAILURE_SIGNAL } from "./_shared.ts";

/** Lines that are not paths kept verbatim, at most; failure-looking ones up to the second bound. */
const MAX_LOOSE = 100;
const MAX_LOOSE_FAILURES = 10_000;
/** Kinds of entry (extensions) told apart per directory, at most: past them one is no odd one. */
const MAX_KINDS = 8;

export const GroupPathsConfig = z.object({
  type: z.literal("group_paths"),
  min_lines: z.number().int().min(0).default(40).describe("Outputs up to this many lines pass"),
  max_groups: z.number().int().min(1).default(40).describe("Directories or files shown"),
  max_items: z.number().int().min(0).default(8).describe("Entries shown per group after the first"),
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

export function compileGroupPaths(config: GroupPathsConfig): CompiledStrategy {
  const { min_lines: minLines, max_groups: maxGroups, max_items: maxItems } = config;
  return {
    type: "group_paths",
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

      const add = (line: string) => {
        total++;
        let key: string | null = null;
        let rest = "";
        // `find: ‘x’: Permission denied` and other messages are not paths.
        if (line.length > 0 && !line.includes(": ") && !line.endsWith(":")) {
          const slash = line.lastIndexOf("/", line.length - 2);
          key = slash < 0 ? "" : line.slice(0, slash + 1);
          rest = line.slice(slash + 1);
        }
        if (key === null) {
          // Errors and anything unexpected stay verbatim (bounded; failure lines always).
          if (line.trim() === "") return;
          if (loose < MAX_LOOSE || (loose < MAX_LOOSE_FAILURES && FAILURE_SIGNAL.test(line))) {
            loose++;
            order.push({ line });
          } else unshownLoose++;
          return;
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
          return "full";
        },
      };
    },
  };
}
