/**
 * The config of what the model is offered per request: `[tools.tafc]` (a `thinking` field on
 * complex schemas), `[tools.schema_filter]` (relevance-filtered tool lists) and
 * `[tools.dependencies]` (requires/prefers between tools). Kept apart from schema.ts so the
 * tables of one feature stay in one place.
 */
import { z } from "zod";

/** The spec's default threshold; NaN and ±Infinity are reset to it. */
export const DEFAULT_TAFC_THRESHOLD = 0.6;

/** The spec's rule: clamp into [0, 1]; a non-finite value is reset to the default. */
export function clampTafcThreshold(value: number): number {
  if (!Number.isFinite(value)) return DEFAULT_TAFC_THRESHOLD;
  return Math.min(1, Math.max(0, value));
}

export const TafcConfig = z.object({
  enabled: z.boolean().default(false),
  /** Tools whose complexity score is at least this get the `thinking` field. */
  complexity_threshold: z.preprocess(
    (v) => typeof v === "number" ? clampTafcThreshold(v) : v,
    z.number(),
  ).default(DEFAULT_TAFC_THRESHOLD),
}).strict();
export type TafcConfig = z.infer<typeof TafcConfig>;

export const SchemaFilterConfig = z.object({
  enabled: z.boolean().default(false),
  /** Only `lexical` (BM25 over names and descriptions) exists: no provider offers embeddings. */
  ranking: z.string().default("lexical").superRefine((value, ctx) => {
    if (value === "lexical") return;
    ctx.addIssue({
      code: "custom",
      message: value === "embedding"
        ? `"embedding" is not available: no zeph provider offers embeddings, so tools are ranked lexically (BM25). Set ranking = "lexical" or remove the key`
        : 'expected "lexical", the only ranking zeph has',
    });
  }),
  /** Tools sent on every request, whatever the query. */
  always_on: z.array(z.string().min(1)).default(["read", "bash"]),
  /** Ranked tools sent besides the always-on and the named ones; 0 sends every ranked tool. */
  top_k: z.number().int().min(0).default(6),
  /** Ranked tools scoring below this fraction of the best score are left out. */
  min_score: z.number().min(0).max(1).default(0),
  /** Tools whose description has fewer words cannot be ranked fairly and are always sent. */
  min_description_words: z.number().int().min(0).default(3),
}).strict();
export type SchemaFilterConfig = z.infer<typeof SchemaFilterConfig>;

export const DependencyRuleConfig = z.object({
  /** Hidden until every one of these completed successfully in this session. */
  requires: z.array(z.string().min(1)).default([]),
  /** Each of these that completed raises the tool's relevance by `boost_per_dep`. */
  prefers: z.array(z.string().min(1)).default([]),
}).strict();
export type DependencyRuleConfig = z.infer<typeof DependencyRuleConfig>;

export const DependenciesConfig = z.object({
  enabled: z.boolean().default(false),
  boost_per_dep: z.number().min(0).max(1).default(0.15),
  max_total_boost: z.number().min(0).max(1).default(0.2),
  rules: z.record(z.string(), DependencyRuleConfig).default({}),
}).strict().superRefine((deps, ctx) => {
  for (const [tool, rule] of Object.entries(deps.rules)) {
    if (rule.requires.includes(tool)) {
      ctx.addIssue({
        code: "custom",
        path: ["rules", tool, "requires"],
        message: `"${tool}" requires itself, so it could never be offered. Remove it from the list`,
      });
    }
  }
  const cycle = requiresCycle(deps.rules);
  if (cycle) {
    ctx.addIssue({
      code: "custom",
      path: ["rules", cycle[0], "requires"],
      message: `the requires rules form a cycle (${
        cycle.join(" → ")
      }), so none of these tools could ever be offered. Remove one of the edges`,
    });
  }
});
export type DependenciesConfig = z.infer<typeof DependenciesConfig>;

/**
 * The first cycle of `requires` edges, as the path that closes it (`a → b → a`), or null. Self
 * edges are reported separately. Iterative DFS: a rule table can be large.
 */
export function requiresCycle(
  rules: Readonly<Record<string, { requires: readonly string[] }>>,
): string[] | null {
  const state = new Map<string, "open" | "done">();
  const edges = (tool: string) =>
    Object.hasOwn(rules, tool) ? rules[tool].requires.filter((r) => r !== tool) : [];
  for (const start of Object.keys(rules)) {
    if (state.has(start)) continue;
    const path: string[] = [start];
    const next: number[] = [0];
    state.set(start, "open");
    while (path.length) {
      const tool = path.at(-1)!;
      const out = edges(tool);
      const i = next[next.length - 1]++;
      if (i >= out.length) {
        state.set(tool, "done");
        path.pop();
        next.pop();
        continue;
      }
      const to = out[i];
      if (state.get(to) === "open") return [...path.slice(path.indexOf(to)), to];
      if (state.has(to)) continue;
      state.set(to, "open");
      path.push(to);
      next.push(0);
    }
  }
  return null;
}
