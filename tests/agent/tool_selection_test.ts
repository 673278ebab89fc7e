// selectTools and BM25 on their own: inclusion order, top_k/min_score, the no-signal rule,
// the capped prefers boost, and requires beating every other reason.
import { expect } from "expect";
import { z } from "zod";
import {
  bm25,
  dependencyRefusal,
  prefersBoost,
  selectTools,
  tokenize,
} from "../../src/agent/tool_selection.ts";
import { type Config, defaultConfig } from "../../src/config/schema.ts";
import { type AnyTool, defineTool } from "../../src/tools/tool.ts";

function tool(name: string, description: string): AnyTool {
  return defineTool({
    name,
    description,
    params: z.object({}).strict(),
    mutates: false,
    kind: "other",
    group: "read",
    invocation: { type: "call" },
    subjects: () => [],
    execute: () => Promise.resolve({ text: "" }),
  });
}

const TOOLS = [
  tool("read", "Reads a text file and returns numbered lines."),
  tool("grep", "Searches file contents for a regular expression pattern."),
  tool("find_path", "Finds files whose path matches a glob pattern."),
  tool("fetch", "Downloads a URL over HTTP and returns the response body."),
  tool("web_scrape", "Extracts elements from a web page with a CSS selector."),
  tool("diagnostics", "Runs the type checker."),
];

function config(edit: (c: Config["tools"]) => void): Config["tools"] {
  const c = defaultConfig().tools;
  c.schema_filter.enabled = true;
  c.schema_filter.always_on = [];
  edit(c);
  return c;
}

function offered(query: string, c: Config["tools"], completed: string[] = []) {
  const s = selectTools(TOOLS, { query, completed: new Set(completed), config: c });
  return s.offered.map((o) => [o.tool.name, o.reason]);
}

Deno.test("tokenize lowercases, drops stop words and one-letter words, stems common suffixes", () => {
  expect(tokenize("Searching the FILES for patterns, a x matched")).toEqual([
    "search",
    "file",
    "pattern",
    "match",
  ]);
});

Deno.test("bm25 ranks the tool whose words the query uses, rarer words weighing more", () => {
  const scores = bm25("search file contents", TOOLS);
  const best = TOOLS[scores.indexOf(Math.max(...scores))].name;
  expect(best).toBe("grep");
  expect(scores[3]).toBe(0); // fetch shares no word
  expect(bm25("", TOOLS)).toEqual([0, 0, 0, 0, 0, 0]);
});

Deno.test("inclusion: always-on, named, short descriptions, then the top_k ranked", () => {
  const c = config((c) => {
    c.schema_filter.always_on = ["read"];
    c.schema_filter.top_k = 1;
    c.schema_filter.min_description_words = 5;
  });
  // diagnostics' description has four words; grep and find_path both match "pattern", grep's
  // shorter document ranks it first.
  expect(offered("download the url with fetch, then look for the pattern", c)).toEqual([
    ["read", "always_on"],
    ["grep", "ranked"],
    ["fetch", "named"],
    ["diagnostics", "short_description"],
  ]);
});

Deno.test("top_k caps the ranked tools; min_score drops weak matches; zero scores never fill", () => {
  const q = "search files matching a glob pattern";
  expect(offered(q, config((c) => c.schema_filter.top_k = 0))).toEqual([
    ["read", "ranked"],
    ["grep", "ranked"],
    ["find_path", "ranked"],
  ]);
  expect(offered(q, config((c) => c.schema_filter.top_k = 1))).toEqual([["find_path", "ranked"]]);
  expect(offered(q, config((c) => c.schema_filter.min_score = 0.5))).toEqual([
    ["grep", "ranked"],
    ["find_path", "ranked"],
  ]);
});

Deno.test("a message no tool's words match offers every tool (nothing to rank by)", () => {
  expect(offered("hello there", config(() => {}))).toEqual(
    TOOLS.map((t) => [t.name, "no_signal"]),
  );
});

Deno.test("names match whole ids only: 'reading' does not name read, find_path does", () => {
  const c = config((c) => c.schema_filter.top_k = 0);
  expect(offered("try find_path, then reading", c).filter(([, r]) => r === "named")).toEqual([
    ["find_path", "named"],
  ]);
});

Deno.test("prefers: boost_per_dep per completed tool, capped at max_total_boost", () => {
  const deps = {
    ...defaultConfig().tools.dependencies,
    enabled: true,
    rules: { fetch: { requires: [], prefers: ["read", "grep", "find_path"] } },
  };
  expect(prefersBoost("fetch", deps, new Set())).toBe(0);
  expect(prefersBoost("fetch", deps, new Set(["read"]))).toBe(0.15);
  expect(prefersBoost("fetch", deps, new Set(["read", "grep", "find_path"]))).toBe(0.2);
  expect(prefersBoost("fetch", { ...deps, enabled: false }, new Set(["read"]))).toBe(0);
});

Deno.test("requires beats always-on and naming; the exclusion lists what is missing", () => {
  const c = config((c) => {
    c.schema_filter.always_on = ["grep"];
    c.dependencies.enabled = true;
    c.dependencies.rules = { grep: { requires: ["read", "find_path"], prefers: [] } };
  });
  const s = selectTools(TOOLS, { query: "grep it", completed: new Set(["read"]), config: c });
  expect(s.offered.map((o) => o.tool.name)).not.toContain("grep");
  expect(s.excluded.filter((e) => e.reason === "requires").map((e) => [e.tool.name, e.missing]))
    .toEqual([["grep", ["find_path"]]]);
  expect(s.allBlocked).toBe(false);
  expect(dependencyRefusal("grep", c.dependencies, new Set(["read"]))?.message).toBe(
    "Cannot run grep: it requires find_path to complete successfully first in this session " +
      "([tools.dependencies.rules.grep])",
  );
  expect(dependencyRefusal("grep", c.dependencies, new Set(["read", "find_path"]))).toBe(null);
  // The hint names where the chain of unmet requires starts.
  c.dependencies.rules.find_path = { requires: ["fetch"], prefers: [] };
  expect(dependencyRefusal("grep", c.dependencies, new Set(["read"]))?.hint).toBe(
    "Call fetch first.",
  );
});

Deno.test("filtering off: every tool not hidden by requires, in registry order", () => {
  const c = defaultConfig().tools;
  const s = selectTools(TOOLS, { query: "anything", completed: new Set(), config: c });
  expect(s.offered.map((o) => [o.tool.name, o.reason])).toEqual(
    TOOLS.map((t) => [t.name, "unfiltered"]),
  );
  expect(selectTools([], { query: "x", completed: new Set(), config: c }).allBlocked).toBe(false);
});
