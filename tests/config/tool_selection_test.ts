// [tools.tafc], [tools.schema_filter] and [tools.dependencies]: clamping, refusals and cycles,
// each error naming its key and the fix.
import { expect } from "expect";
import { ConfigError, type ConfigIssue } from "../../src/config/errors.ts";
import { parseConfig } from "../../src/config/load.ts";
import { requiresCycle } from "../../src/config/tool_selection.ts";

async function issuesOf(toml: string): Promise<ConfigIssue[]> {
  try {
    await parseConfig(toml, { source: "c.toml" });
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

for (
  const [written, threshold] of [
    ["0.3", 0.3],
    ["1.7", 1],
    ["-2", 0],
    ["nan", 0.6],
    ["inf", 0.6],
    ["-inf", 0.6],
    ["1", 1],
  ] as const
) {
  Deno.test(`tafc complexity_threshold = ${written} loads as ${threshold}`, async () => {
    const { config, warnings } = await parseConfig(
      `[tools.tafc]\nenabled = true\ncomplexity_threshold = ${written}\n`,
      { source: "c.toml" },
    );
    expect([config.tools.tafc, warnings]).toEqual([
      { enabled: true, complexity_threshold: threshold },
      [],
    ]);
  });
}

Deno.test("tafc complexity_threshold that is not a number names the key", async () => {
  expect(await issuesOf('[tools.tafc]\ncomplexity_threshold = "high"\n')).toEqual([{
    source: "c.toml",
    key: "tools.tafc.complexity_threshold",
    message: 'expected a number, found a string "high"',
  }]);
});

Deno.test("schema_filter ranking = embedding is refused: no provider offers embeddings", async () => {
  expect(await issuesOf('[tools.schema_filter]\nranking = "embedding"\n')).toEqual([{
    source: "c.toml",
    key: "tools.schema_filter.ranking",
    message: '"embedding" is not available: no zeph provider offers embeddings, so tools are ' +
      'ranked lexically (BM25). Set ranking = "lexical" or remove the key, found a string ' +
      '"embedding"',
  }]);
  expect(await issuesOf('[tools.schema_filter]\nranking = "bm25"\n')).toEqual([{
    source: "c.toml",
    key: "tools.schema_filter.ranking",
    message: 'expected "lexical", the only ranking zeph has, found a string "bm25"',
  }]);
});

Deno.test("schema_filter numbers out of range name the key", async () => {
  const issues = await issuesOf("[tools.schema_filter]\ntop_k = -1\nmin_score = 2\n");
  expect(issues.map((i) => i.key)).toEqual([
    "tools.schema_filter.top_k",
    "tools.schema_filter.min_score",
  ]);
});

Deno.test("a requires cycle is a config error that spells the cycle", async () => {
  const issues = await issuesOf(
    '[tools.dependencies.rules.deploy]\nrequires = ["build"]\n' +
      '[tools.dependencies.rules.build]\nrequires = ["test"]\n' +
      '[tools.dependencies.rules.test]\nrequires = ["deploy"]\n',
  );
  expect(issues).toEqual([{
    source: "c.toml",
    key: "tools.dependencies.rules.deploy.requires",
    message: "the requires rules form a cycle (deploy → build → test → deploy), so none of " +
      'these tools could ever be offered. Remove one of the edges, found an array ["build"]',
  }]);
});

Deno.test("a tool that requires itself is a config error", async () => {
  expect(await issuesOf('[tools.dependencies.rules.edit]\nrequires = ["edit", "read"]\n'))
    .toEqual([{
      source: "c.toml",
      key: "tools.dependencies.rules.edit.requires",
      message: '"edit" requires itself, so it could never be offered. Remove it from the list, ' +
        'found an array ["edit","read"]',
    }]);
});

Deno.test("an unknown key in a dependency rule is a warning with a suggestion", async () => {
  const { config, warnings } = await parseConfig(
    '[tools.dependencies.rules.edit]\nrequire = ["read"]\n',
    { source: "c.toml" },
  );
  expect(config.tools.dependencies.rules).toEqual({ edit: { requires: [], prefers: [] } });
  expect(warnings).toEqual([
    'c.toml: unknown key "tools.dependencies.rules.edit.require" ignored (did you mean ' +
    '"tools.dependencies.rules.edit.requires"?)',
  ]);
});

Deno.test("requiresCycle: chains and diamonds are fine, the first cycle is returned", () => {
  const r = (requires: string[]) => ({ requires });
  expect(requiresCycle({ edit: r(["read"]), write: r(["read", "edit"]) })).toBe(null);
  expect(requiresCycle({ a: r(["b", "c"]), b: r(["d"]), c: r(["d"]), d: r([]) })).toBe(null);
  expect(requiresCycle({ x: r(["y"]), y: r(["z"]), z: r(["y"]) })).toEqual(["y", "z", "y"]);
});
