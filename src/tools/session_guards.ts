/**
 * What the dispatch boundary keeps per agent session: the result cache and the anomaly
 * detector. A front-end's session creates one ({@link SessionGuards.fromConfig}) and passes it in
 * every call's scope; `/clear` empties the cache, `/unblock` lifts a block, and a new session
 * starts with neither. The registry also tells every live session's cache about each mutation,
 * because ACP sessions share one workspace.
 */
import type { Config } from "../config/mod.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import { type AnomalyAlert, AnomalyDetector, countedOutcome } from "./anomaly.ts";
import { type CachedResult, cacheKey, ResultCache, stampsOf } from "./result_cache.ts";
import type { AnyTool } from "./tool.ts";

export class SessionGuards {
  readonly cache: ResultCache;
  readonly anomaly: AnomalyDetector;

  constructor(cache: ResultCache, anomaly: AnomalyDetector) {
    this.cache = cache;
    this.anomaly = anomaly;
  }

  static fromConfig(config: Config, options: { now?: () => number } = {}): SessionGuards {
    const c = config.tools.result_cache;
    return new SessionGuards(
      new ResultCache({ enabled: c.enabled, ttlSecs: c.ttl_secs, now: options.now }),
      new AnomalyDetector(config.tools.anomaly),
    );
  }

  /** A new user turn: file entries go (the user may have changed files between turns). */
  beginTurn(): void {
    this.cache.invalidateFiles();
  }

  /** `/clear`: the cache is emptied; blocks stay until `/unblock` or a new session. */
  clear(): void {
    this.cache.clear();
  }

  /** Counts a finished call; returns the alert it raises, if any. */
  recordOutcome(
    tool: string,
    result: Parameters<typeof countedOutcome>[0],
  ): AnomalyAlert | null {
    return this.anomaly.record(tool, countedOutcome(result));
  }
}

/** Where a call stands with the cache: what to look up and store, or what it invalidates. */
export type CachePlan =
  | {
    kind: "cacheable";
    key: string;
    paths: string[] | null;
    stamps: string[];
    generation: number;
  }
  | { kind: "invalidates"; paths: string[] | null }
  | { kind: "uncached" };

/**
 * Plans a call before it runs: a `cacheable` tool's key, the absolute spellings of its paths and
 * what they look like now; any other tool (unknown ones included) invalidates, by path when it
 * names file paths, else every file entry.
 */
export async function planCache(
  tool: AnyTool | undefined,
  params: unknown,
  where: { sandbox: Sandbox; cwd: string; cache: ResultCache },
): Promise<CachePlan> {
  let paths: string[] | null = null;
  if (tool?.pathSubjects) {
    try {
      paths = await absoluteForms(tool.subjects(params), where);
    } catch {
      paths = null;
    }
  }
  if (!tool?.cacheable) return { kind: "invalidates", paths: paths?.length ? paths : null };
  // A file tool whose paths cannot be spelled out cannot be invalidated: it is not cached.
  if (tool.pathSubjects && !paths?.length) return { kind: "uncached" };
  const generation = where.cache.generation;
  return {
    kind: "cacheable",
    key: cacheKey(tool.name, params),
    paths,
    stamps: paths ? await stampsOf(paths) : [],
    generation,
  };
}

async function absoluteForms(
  subjects: string[],
  where: { sandbox: Sandbox; cwd: string },
): Promise<string[]> {
  const forms = await Promise.all(subjects.map((s) => where.sandbox.pathForms(s, where.cwd)));
  return [...new Set(forms.flat().filter((p) => p.startsWith("/")).map(globBase))];
}

/** A glob path stands for the directory above its first wildcard (`/ws/src/**\/*.ts` → `/ws/src`). */
function globBase(p: string): string {
  const parts = p.split("/");
  const first = parts.findIndex((part) => /[*?[{]/.test(part));
  return first < 0 ? p : parts.slice(0, first).join("/") || "/";
}

/** Applies a non-cacheable call's invalidation to a cache. */
export function invalidate(cache: ResultCache, plan: CachePlan): void {
  if (plan.kind !== "invalidates") return;
  if (plan.paths) cache.invalidatePaths(plan.paths);
  else cache.invalidateFiles();
}

export type { AnomalyAlert, CachedResult };
