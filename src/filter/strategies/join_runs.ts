/**
 * join_runs: a run of consecutive lines that say the same thing about different items (ansible's
 * `changed: [web] => (item=logs)` once per loop item) becomes one line listing the items:
 * `pattern`'s `item` group is each line's item, and `to` renders the run, `{items}` standing for
 * the items joined with ", " and `{name}` for the first line's groups. Lines join only when `to`
 * renders them the same but for `{items}`; a run of one line stays as printed. A run is cut at
 * `max_items` (memory stays bounded) and the next one starts.
 *
 * In a compound command's output the other commands' lines need no part of their own: only a run of
 * lines `pattern` matches and `to` renders alike joins; any other line stays as printed.
 */
import { z } from "zod";
import type { PatternMatch, RegexEngine } from "../regex.ts";
import { type CompiledStrategy, RuleFieldError, type Stage, type StageContext } from "../types.ts";
import { patternField, requireNamedGroups } from "./_shared.ts";

export const JoinRunsConfig = z.object({
  type: z.literal("join_runs"),
  pattern: z.string().describe(
    "Regex (RE2 syntax) of the lines to join; its `item` group is the item",
  ),
  to: z.string().max(200).describe(
    'The joined line: {items} is the items joined with ", ", {name} the first line\'s group',
  ),
  max_items: z.number().int().min(2).max(10_000).default(100).describe(
    "Items in one joined line at most",
  ),
}).strict();
export type JoinRunsConfig = z.infer<typeof JoinRunsConfig>;

export function compileJoinRuns(config: JoinRunsConfig, engine: RegexEngine): CompiledStrategy {
  const pattern = patternField(config.pattern, "strategy.pattern", engine);
  requireNamedGroups(config.pattern, "strategy.pattern", ["item"], () => "the line's item");
  if (!config.to.includes("{items}")) {
    throw new RuleFieldError("strategy.to", 'needs "{items}", where the joined items go');
  }
  // The joined line's template with every group but `item` filled in: the run's key.
  const render = (match: PatternMatch) =>
    config.to.replace(/\{(\w+)\}/g, (whole, g: string) => {
      if (g === "items") return whole;
      return match.group(/^\d+$/.test(g) ? Number(g) : g) ?? "";
    });
  return {
    type: "join_runs",
    createStage(ctx: StageContext): Stage {
      let run: { key: string; first: string; items: string[] } | null = null;
      let joined = 0;
      const close = () => {
        if (run === null) return;
        if (run.items.length === 1) ctx.emit(run.first);
        else {
          ctx.emit(run.key.replaceAll("{items}", run.items.join(", ")));
          joined += run.items.length - 1;
        }
        run = null;
      };
      return {
        push(line) {
          const match = pattern.exec(line);
          const item = match?.group("item");
          if (!match || item === undefined) {
            close();
            return ctx.emit(line);
          }
          const key = render(match);
          if (run !== null && (run.key !== key || run.items.length >= config.max_items)) close();
          if (run === null) run = { key, first: line, items: [] };
          run.items.push(item);
        },
        finish() {
          close();
          return joined > 0 ? "full" : "fallback";
        },
      };
    },
  };
}
