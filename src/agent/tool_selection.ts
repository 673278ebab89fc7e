/**
 * Which tools one model request offers, after the permission (and mode) filters chose the
 * candidates: `[tools.dependencies]` hides tools whose `requires` have not all completed
 * successfully in this session, then `[tools.schema_filter]` keeps the always-on tools, the tools
 * the user's message names, tools too tersely described to rank, and the best-ranked rest (BM25
 * over names and descriptions, plus the capped `prefers` boost). Pure: the loop, `zeph tools
 * --explain` and the bench call the same function.
 */
import type { Config, DependenciesConfig, TafcConfig } from "../config/mod.ts";
import type { ToolDefinitionForModel } from "../provider/mod.ts";
import { type AnyTool, stripTafc, tafcSchema, ToolError, type ToolRegistry } from "../tools/mod.ts";

/** Why a tool is offered. */
export type OfferReason =
  | "always_on"
  | "named"
  | "short_description"
  | "ranked"
  /** Schema filtering is off: every tool not hidden by a dependency is offered. */
  | "unfiltered"
  /** No word of the query occurs in any candidate: there is nothing to rank by, all are sent. */
  | "no_signal";

export interface OfferedTool {
  tool: AnyTool;
  reason: OfferReason;
  /** Normalised BM25 in [0, 1] plus the prefers boost; absent when not ranked. */
  score?: number;
  boost?: number;
}

export interface ExcludedTool {
  tool: AnyTool;
  reason: "requires" | "relevance";
  /** The `requires` entries not yet completed (reason "requires"). */
  missing?: string[];
  score?: number;
  boost?: number;
}

export interface ToolSelection {
  /** In candidate order (stable across requests, which keeps provider prompt caches warm). */
  offered: OfferedTool[];
  excluded: ExcludedTool[];
  /** There were candidates, and every one of them is hidden by an unmet `requires`. */
  allBlocked: boolean;
}

export interface SelectOptions {
  /** The user's message of this turn. */
  query: string;
  /** Tools that completed successfully in this session. */
  completed: ReadonlySet<string>;
  config: Pick<Config["tools"], "schema_filter" | "dependencies">;
}

/** The part of a session one request's tool offer depends on. */
export interface OfferSession {
  readonly registry: ToolRegistry;
  readonly config: Config;
  readonly completedTools: ReadonlySet<string>;
}

export interface OfferOptions {
  /** The user's message of this turn: what relevance is measured against. */
  query: string;
  /** The legacy text path sends no tool list (its catalog is in the system prompt). */
  legacy: boolean;
  notice(level: "debug" | "error", code: string, message: string): void;
  /** Exclusions already reported this turn (each is reported once per turn). */
  reported: Set<string>;
}

export interface Offer {
  tools: ToolDefinitionForModel[];
  /** Removes the TAFC field from a call to a tool whose schema carried it. */
  strip(name: string, input: unknown): unknown;
}

/**
 * The tool list of one request of the loop: {@link selectTools} over `candidates`, the tools
 * the earlier filters (permissions, then a mode) left. Hidden tools are reported at debug level;
 * null (after an error notice) when every candidate is hidden, so the loop stops instead of
 * sending an empty list.
 */
export function offerTools(
  session: OfferSession,
  candidates: readonly AnyTool[],
  options: OfferOptions,
): Offer | null {
  const tools = session.config.tools;
  const strip = (name: string, input: unknown) =>
    stripTafc(session.registry.get(name), input, tools.tafc);
  if (options.legacy) return { tools: [], strip };
  const selection = selectTools(candidates, {
    query: options.query,
    completed: session.completedTools,
    config: tools,
  });
  for (const e of selection.excluded) {
    if (e.reason !== "requires") continue;
    const key = `${e.tool.name}\0${e.missing!.join(",")}`;
    if (options.reported.has(key)) continue;
    options.reported.add(key);
    options.notice(
      "debug",
      "tool_hidden",
      `${e.tool.name} is hidden: it requires ${e.missing!.join(", ")} to complete first`,
    );
  }
  if (selection.allBlocked) {
    options.notice("error", "tools_blocked", allBlockedMessage(selection));
    return null;
  }
  return { tools: definitionsFor(selection.offered.map((o) => o.tool), tools.tafc), strip };
}

/** The `requires` of `tool` not yet in `completed` (empty when dependencies are off). */
export function unmetRequires(
  tool: string,
  dependencies: DependenciesConfig,
  completed: ReadonlySet<string>,
): string[] {
  if (!dependencies.enabled || !Object.hasOwn(dependencies.rules, tool)) return [];
  return dependencies.rules[tool].requires.filter((r) => !completed.has(r));
}

/** The capped `prefers` boost of `tool`: `boost_per_dep` per completed entry, at most the cap. */
export function prefersBoost(
  tool: string,
  dependencies: DependenciesConfig,
  completed: ReadonlySet<string>,
): number {
  if (!dependencies.enabled || !Object.hasOwn(dependencies.rules, tool)) return 0;
  const met = dependencies.rules[tool].prefers.filter((p) => completed.has(p)).length;
  return Math.min(met * dependencies.boost_per_dep, dependencies.max_total_boost);
}

/**
 * The refusal of a call to a tool still hidden by its `requires` (a model that remembers the
 * tool from an earlier request, or a legacy catalog that lists it), or null when it may run.
 */
export function dependencyRefusal(
  tool: string,
  dependencies: DependenciesConfig,
  completed: ReadonlySet<string>,
): ToolError | null {
  const missing = unmetRequires(tool, dependencies, completed);
  if (missing.length === 0) return null;
  return new ToolError(
    "policy_blocked",
    `Cannot run ${tool}: it requires ${
      missing.join(" and ")
    } to complete successfully first in this session ([tools.dependencies.rules.${tool}])`,
    { hint: `Call ${firstToCall(missing[0], dependencies, completed)} first.` },
  );
}

/** Where a chain of unmet `requires` starts: the tool to call before `tool` can be. */
function firstToCall(
  tool: string,
  dependencies: DependenciesConfig,
  completed: ReadonlySet<string>,
): string {
  const seen = new Set<string>();
  let current = tool;
  while (!seen.has(current)) {
    seen.add(current);
    const next = unmetRequires(current, dependencies, completed)[0];
    if (next === undefined) return current;
    current = next;
  }
  return current;
}

/** Selects the tools of one request from `candidates`. */
export function selectTools(candidates: readonly AnyTool[], options: SelectOptions): ToolSelection {
  const { dependencies, schema_filter: filter } = options.config;
  const excluded: ExcludedTool[] = [];
  const open: AnyTool[] = [];
  for (const tool of candidates) {
    const missing = unmetRequires(tool.name, dependencies, options.completed);
    if (missing.length) excluded.push({ tool, reason: "requires", missing });
    else open.push(tool);
  }
  const allBlocked = candidates.length > 0 && open.length === 0;
  if (!filter.enabled) {
    return { offered: open.map((tool) => ({ tool, reason: "unfiltered" })), excluded, allBlocked };
  }

  const reasons = new Map<AnyTool, OfferReason>();
  const alwaysOn = new Set(filter.always_on);
  const named = namedTools(options.query, open);
  const ranked: AnyTool[] = [];
  for (const tool of open) {
    if (alwaysOn.has(tool.name)) reasons.set(tool, "always_on");
    else if (named.has(tool.name)) reasons.set(tool, "named");
    else if (wordCount(tool.description) < filter.min_description_words) {
      reasons.set(tool, "short_description");
    } else ranked.push(tool);
  }

  const scores = new Map<AnyTool, { score: number; boost: number }>();
  const relevance = bm25(options.query, ranked);
  const best = Math.max(0, ...relevance);
  if (best === 0) {
    for (const tool of ranked) reasons.set(tool, "no_signal");
  } else {
    ranked.forEach((tool, i) => {
      const boost = prefersBoost(tool.name, dependencies, options.completed);
      scores.set(tool, { score: round(relevance[i] / best + boost), boost });
    });
    const order = [...ranked].sort((a, b) => scores.get(b)!.score - scores.get(a)!.score);
    const limit = filter.top_k === 0 ? order.length : filter.top_k;
    order.forEach((tool, i) => {
      const { score, boost } = scores.get(tool)!;
      // A tool no word of the message matches (and no prefers boost lifts) is not relevant,
      // so top_k is a ceiling, not a quota filled with arbitrary tools.
      if (i < limit && score > 0 && score >= filter.min_score) reasons.set(tool, "ranked");
      else excluded.push({ tool, reason: "relevance", score, boost });
    });
  }

  const offered: OfferedTool[] = [];
  for (const tool of open) {
    const reason = reasons.get(tool);
    if (reason) offered.push({ tool, reason, ...scores.get(tool) });
  }
  return { offered, excluded, allBlocked };
}

/** What the model receives for the offered tools: name, description, schema (TAFC applied). */
export function definitionsFor(
  tools: readonly AnyTool[],
  tafc: TafcConfig,
): ToolDefinitionForModel[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: tafcSchema(t, tafc),
  }));
}

/** The user-facing sentence for a turn in which every candidate tool is hidden. */
export function allBlockedMessage(selection: ToolSelection): string {
  const which = selection.excluded.filter((e) => e.reason === "requires")
    .map((e) => `${e.tool.name} needs ${e.missing!.join(", ")}`).join("; ");
  return `Cannot ask the model: every available tool is hidden by [tools.dependencies] requires ` +
    `(${which}), and none of those prerequisites is available to complete. Fix the rules so a ` +
    "chain starts at a tool without requires, or set [tools.dependencies] enabled = false.";
}

/**
 * Tool ids the query names, case-insensitively, as whole words: the characters around the id
 * are not `[A-Za-z0-9_]` (so "reading" does not name `read`, "find_path" names only find_path).
 */
function namedTools(query: string, tools: readonly AnyTool[]): Set<string> {
  const lower = query.toLowerCase();
  const named = new Set<string>();
  for (const tool of tools) {
    const id = tool.name.toLowerCase();
    let at = lower.indexOf(id);
    while (at !== -1) {
      const before = at === 0 ? "" : lower[at - 1];
      const after = lower[at + id.length] ?? "";
      if (!/[a-z0-9_]/.test(before) && !/[a-z0-9_]/.test(after)) {
        named.add(tool.name);
        break;
      }
      at = lower.indexOf(id, at + 1);
    }
  }
  return named;
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

// ---- BM25 over names and descriptions ------------------------------------------------------

const K1 = 1.2;
const B = 0.75;

const STOP_WORDS = new Set(
  ("a an and are as at be by can do does for from has have how i in into is it its me my of on " +
    "or please that the their then there these this to use using was we what when where which " +
    "with you your").split(" "),
);

/** Lowercased words (letters and digits), stop words removed, light suffix stemming. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

/** Strips the commonest English suffixes so "files"/"file", "reading"/"read" meet. */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith("es") && /(?:ch|sh|ss|x)es$/.test(word)) {
    return word.slice(0, -2);
  }
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

interface Doc {
  terms: Map<string, number>;
  length: number;
}

/** Tool definitions do not change: each is tokenized once. The name counts twice. */
const docs = new WeakMap<AnyTool, Doc>();

function docOf(tool: AnyTool): Doc {
  let doc = docs.get(tool);
  if (!doc) {
    const name = tokenize(tool.name.replace(/_/g, " "));
    const words = [...name, ...name, ...tokenize(tool.description)];
    const terms = new Map<string, number>();
    for (const w of words) terms.set(w, (terms.get(w) ?? 0) + 1);
    doc = { terms, length: words.length };
    docs.set(tool, doc);
  }
  return doc;
}

/** Okapi BM25 of `query` against each tool (k1 = 1.2, b = 0.75), in the tools' order. */
export function bm25(query: string, tools: readonly AnyTool[]): number[] {
  const terms = [...new Set(tokenize(query))];
  const corpus = tools.map(docOf);
  if (terms.length === 0 || corpus.length === 0) return corpus.map(() => 0);
  const avg = corpus.reduce((sum, d) => sum + d.length, 0) / corpus.length;
  const idf = terms.map((term) => {
    const df = corpus.reduce((n, d) => n + (d.terms.has(term) ? 1 : 0), 0);
    return Math.log(1 + (corpus.length - df + 0.5) / (df + 0.5));
  });
  return corpus.map((doc) => {
    let score = 0;
    terms.forEach((term, i) => {
      const tf = doc.terms.get(term);
      if (!tf) return;
      score += idf[i] * (tf * (K1 + 1)) / (tf + K1 * (1 - B + B * doc.length / avg));
    });
    return score;
  });
}
