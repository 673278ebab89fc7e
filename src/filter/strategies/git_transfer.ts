/**
 * git_transfer: what `git fetch`, `pull`, `push` and `clone` print after the progress is gone.
 * - Ref updates (` * [new branch]      feature/x -> origin/feature/x`, padded for a terminal):
 *   a run of them says each kind once with its refs, `[new branch] origin/a, origin/b`; a ref
 *   whose remote name repeats the local one (`x -> origin/x`) is named once, by where it landed.
 *   Updates with their own facts stay one a line as printed: a range
 *   (`efecb60..52a26b2  main -> origin/main`), a reason (`(forced update)`), a rejection (`!`).
 * - A pull's diffstat lines stay as printed (an agent copies ` src/a.ts | 3 ++-` whole), past
 *   `max_stat_files` one count line; the totals line stays as printed.
 * - A run of ` create mode 100644 a` lines says the kind and mode once: `create mode 100644 a, b`.
 * Anything else passes unchanged. At most `max_names` names a group, then a count. Output without
 * any of these shapes is a Fallback.
 *
 * In a compound command's output the other commands' lines need no part of their own: anything but
 * the shapes above passes unchanged.
 */
import { z } from "zod";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";

export const GitTransferConfig = z.object({
  type: z.literal("git_transfer"),
  max_stat_files: z.number().int().min(1).default(50).describe(
    "Diffstat file lines shown (the totals line always stays)",
  ),
  max_names: z.number().int().min(1).default(50).describe("Refs or files named per group"),
}).strict();
export type GitTransferConfig = z.infer<typeof GitTransferConfig>;

/** ` <flag> <summary> <from> -> <to> (<reason>)`; a push's deletion has no `-> <to>`. */
const REF =
  /^ ([*+!=t -]) (\[[^\]]{1,40}\]|[0-9a-f]{4,64}\.{2,3}[0-9a-f]{4,64}|branch|tag) +(\S+)(?: +-> (\S+))?(?: {1,10}\((.+)\))?$/;
/** What follows a diffstat line's `|`: ` 12 ++++----` (a bar) or ` Bin 0 -> 12 bytes`. */
const STAT_COUNT = /^ +(\d+)(?: [+-]*)?$|^ +(Bin .*)$/;
const MODE = /^ (create|delete) mode (\d{6}) (.+)$/;

interface Group {
  key: string;
  names: string[];
  more: number;
}

export function compileGitTransfer(config: GitTransferConfig): CompiledStrategy {
  const { max_stat_files: maxStat, max_names: maxNames } = config;
  return {
    type: "git_transfer",
    createStage(ctx: StageContext): Stage {
      let changed = false;
      // The run being read: its kind and its groups (or ungrouped lines) in first-seen order.
      let run: "ref" | "mode" | null = null;
      let entries: (Group | string)[] = [];
      const groups = new Map<string, Group>();
      let statFiles = 0;
      let statHidden = 0;

      const flush = () => {
        for (const e of entries) {
          if (typeof e === "string") ctx.emit(e);
          else {
            const more = e.more ? `, … (+${e.more} more)` : "";
            ctx.emit(`${e.key} ${e.names.join(", ")}${more}`);
          }
        }
        entries = [];
        groups.clear();
        run = null;
      };
      const add = (kind: "ref" | "mode", key: string, name: string) => {
        if (run !== kind) flush();
        run = kind;
        const group = groups.get(key);
        if (!group) {
          const g = { key, names: [name], more: 0 };
          groups.set(key, g);
          entries.push(g);
        } else if (group.names.length < maxNames) group.names.push(name);
        else group.more++;
      };
      const endStat = () => {
        if (statHidden) ctx.emit(` … (${statHidden} more files)`);
        statHidden = 0;
      };

      return {
        push(line) {
          const ref = REF.exec(line);
          if (ref) {
            changed = true;
            const [, flag, summary, from, to, reason] = ref;
            if (flag === "!" || reason !== undefined || !summary.startsWith("[")) {
              // A line of its own stays as git printed it, padding and all, so it reads (and
              // greps) as in the terminal: a range, a rejection or a forced update names what
              // was pushed where.
              if (run !== "ref") flush();
              run = "ref";
              entries.push(line);
            } else {
              // In a group, `x -> origin/x` and `v1 -> v1` name the ref once, by where it landed.
              const name = to === undefined
                ? from
                : from === "(none)" || to === from || to.endsWith(`/${from}`)
                ? to
                : `${from} -> ${to}`;
              add("ref", summary, name);
            }
            return;
          }
          const mode = MODE.exec(line);
          if (mode) {
            changed = true;
            add("mode", `${mode[1]} mode ${mode[2]}`, mode[3]);
            return;
          }
          flush();
          if (isStatLine(line)) {
            changed = true;
            if (statFiles++ < maxStat) ctx.emit(line);
            else statHidden++;
            return;
          }
          endStat();
          ctx.emit(line);
        },
        finish() {
          flush();
          endStat();
          return changed ? "full" : "fallback";
        },
      };
    },
  };
}

/**
 * Whether `line` is a diffstat file line (` path   |  12 ++++----`, ` a.png | Bin 0 -> 12 bytes`).
 * Read with `lastIndexOf`, not a regex, so a long line of spaces costs one pass.
 */
function isStatLine(line: string): boolean {
  if (line[0] !== " " || line[1] === " " || line[1] === undefined) return false;
  const bar = line.lastIndexOf("|");
  if (bar < 2 || line[bar - 1] !== " ") return false;
  return STAT_COUNT.test(line.slice(bar + 1));
}
