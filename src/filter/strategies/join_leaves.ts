/**
 * join_leaves: an indented listing (`tree`, with its connector art or after it was turned into
 * spaces) says a directory's files on one line: consecutive entries at one depth with nothing
 * under them are joined with `, ` after the first one's indentation, `per_line` names a line; a
 * directory (an entry the next line is deeper than) keeps its own line. Every name stays, in
 * order. The depth is the length of the line's indentation (spaces and tree's connectors).
 * Streams: the current run of names and one line are held. In a compound command's output
 * (`tree src && npm test`) its own lines are those with a connector (`├── `, `` `-- ``): the
 * other commands' lines pass as printed, not joined as leaves at depth 0.
 */
import { z } from "zod";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";

export const JoinLeavesConfig = z.object({
  type: z.literal("join_leaves"),
  per_line: z.number().int().min(2).default(20).describe("Names joined on one line at most"),
}).strict();
export type JoinLeavesConfig = z.infer<typeof JoinLeavesConfig>;

/**
 * The indentation: spaces and tree's connectors, UTF-8 (`│   ├── `) or ASCII (`|   |-- `, what
 * tree prints under LANG=C), a unit at a time so that a name starting with `-` keeps it.
 */
const INDENT = /^(?:[│|][ \u00a0]{3}|[├└|`](?:──|--)[ \u00a0]|[ \u00a0])*/;

interface Entry {
  prefix: string;
  name: string;
  line: string;
}

/**
 * Indentation read at most this far: INDENT's repeated group costs V8 a backtracking entry per
 * unit, which a line of millions of spaces overflows.
 */
const MAX_INDENT = 4096;

/** A line with tree's connector art before its name: the listing's own. */
const CONNECTED = /^[\s│|\u00a0]{0,400}[├└|`](?:──|--)[ \u00a0]/;

function entry(line: string): Entry {
  const prefix = INDENT.exec(line.slice(0, MAX_INDENT))![0];
  return { prefix, name: line.slice(prefix.length), line };
}

export function compileJoinLeaves(config: JoinLeavesConfig): CompiledStrategy {
  const perLine = config.per_line;
  return {
    type: "join_leaves",
    owns: (line) => CONNECTED.test(line),
    createStage(ctx: StageContext): Stage {
      let joined = false;
      // The line read last (a leaf or a directory: the next line decides) and the leaf run.
      let pending: Entry | null = null;
      let run: Entry[] = [];
      const flush = () => {
        for (let i = 0; i < run.length; i += perLine) {
          const part = run.slice(i, i + perLine);
          if (part.length > 1) joined = true;
          ctx.emit(
            part.length === 1 ? part[0].line : part[0].prefix + part.map((e) => e.name).join(", "),
          );
        }
        run = [];
      };
      const leaf = (e: Entry) => {
        if (run.length && run[0].prefix.length !== e.prefix.length) flush();
        run.push(e);
      };
      return {
        push(line) {
          const e = entry(line);
          if (pending) {
            if (e.prefix.length > pending.prefix.length && e.name !== "") {
              flush();
              ctx.emit(pending.line);
            } else leaf(pending);
          }
          // A blank line ends a listing (`tree` prints one before its counts).
          if (line.trim() === "") {
            flush();
            ctx.emit(line);
            pending = null;
            return;
          }
          pending = e;
        },
        finish() {
          if (pending) leaf(pending);
          flush();
          return joined ? "full" : "fallback";
        },
      };
    },
  };
}
