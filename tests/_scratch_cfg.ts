import { parseConfig } from "../src/config/load.ts";
for (
  const t of [
    "[tools.tafc]\ncomplexity_threshold = nan",
    "[tools.tafc]\ncomplexity_threshold = inf",
    "[tools.tafc]\ncomplexity_threshold = 1.7",
    "[tools.tafc]\ncomplexity_threshold = -2",
    '[tools.schema_filter]\nranking = "embedding"',
    '[tools.dependencies.rules.a]\nrequires = ["b"]\n[tools.dependencies.rules.b]\nrequires = ["c"]\n[tools.dependencies.rules.c]\nrequires = ["a"]',
    '[tools.dependencies.rules.a]\nrequires = ["a"]',
  ]
) {
  try {
    const r = await parseConfig(t, { source: "x.toml" });
    console.log(r.config.tools.tafc, r.warnings);
  } catch (e) {
    console.log(String(e.message));
  }
}
