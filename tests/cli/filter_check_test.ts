/** What `zeph config check` says of the filter rules: where it looked, what loaded, what replaced a built-in. */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { filterRulesCheck } from "../../src/cli/filter_check.ts";

async function withConfigDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "zeph-filter-check-" });
  try {
    await Deno.writeTextFile(`${dir}/config.toml`, "");
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("config check names the filters.toml it looked for when none of your rules loaded", async () => {
  await withConfigDir(async (dir) => {
    const config = `${dir}/config.toml`;
    const absent = await filterRulesCheck(defaultConfig(), config);
    expect(absent.summary).toMatch(
      new RegExp(
        `^Filter rules: \\d+ built-in, none of yours \\(no file ${dir}/filters\\.toml\\)$`,
      ),
    );
    await Deno.writeTextFile(`${dir}/filters.toml`, "# rules to come\n");
    expect((await filterRulesCheck(defaultConfig(), config)).summary).toMatch(
      /, none of yours \(.*\/filters\.toml has no rules\)$/,
    );
    // A file that is not TOML loads no rule: the summary says so, not that there are none.
    await Deno.writeTextFile(`${dir}/filters.toml`, '[[rules]]\nname = "x\n');
    const broken = await filterRulesCheck(defaultConfig(), config);
    expect(broken.errors[0]).toMatch(/^Cannot load .*filters\.toml: invalid TOML at line 2/);
    expect(broken.summary).toMatch(
      new RegExp(`, none of yours \\(${dir}/filters\\.toml did not load: see the error\\)$`),
    );
  });
});

Deno.test("config check says which built-in a rule of yours replaced by its name", async () => {
  await withConfigDir(async (dir) => {
    // A cppcheck rule that happens to be named like the built-in gcc rule takes its place.
    await Deno.writeTextFile(
      `${dir}/filters.toml`,
      `[[rules]]\nname = "gcc"\nmatch = { prefix = "cppcheck" }\nstrategy = { type = "truncate" }\n`,
    );
    const { summary, warnings } = await filterRulesCheck(defaultConfig(), `${dir}/config.toml`);
    expect(warnings).toEqual([]);
    expect(summary).toMatch(
      new RegExp(`, 1 from ${dir}/filters\\.toml \\(replacing the built-in "gcc"\\)$`),
    );
  });
});
