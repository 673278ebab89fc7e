/**
 * Writing a filter rule as a newcomer does, with the real CLI: the README's worked example run as
 * written (its rule, its `--explain` and its output, on the real xmllint output it was made
 * from), its two further examples on their real outputs, and what the CLI says about a broken
 * rules file, the rules loaded and the strategies' options.
 */
import { expect } from "expect";
import * as path from "node:path";
import { withWorkspace, zeph } from "./_run.ts";

const ROOT = path.resolve(import.meta.dirname!, "..", "..");
const FIXTURES = path.join(ROOT, "tests", "fixtures", "filter_author");
const README = Deno.readTextFileSync(path.join(ROOT, "README.md"));

/** The fenced blocks of the README's "Writing a filter rule" section, list indent removed. */
function sectionBlocks(): string[] {
  const start = README.indexOf("### Writing a filter rule");
  const end = README.indexOf("\n### ", start + 1);
  const section = README.slice(start, end);
  return [...section.matchAll(/^( *)```\w*\n([\s\S]*?)^\1```$/gm)].map(([, indent, body]) =>
    body.split("\n").map((line) => line.slice(indent.length)).join("\n").trimEnd()
  );
}

const XMLLINT = "xmllint --noout --schema orders.xsd orders*.xml";

/** Writes `toml` as ~/.config/zeph/filters.toml of the isolated home. */
async function writeRules(home: string, toml: string): Promise<string> {
  const dir = path.join(home, ".config", "zeph");
  await Deno.mkdir(dir, { recursive: true });
  const file = path.join(dir, "filters.toml");
  await Deno.writeTextFile(file, toml);
  return file;
}

Deno.test("the README's worked example does what the README shows", async () => {
  const [, before, rule, after, output] = sectionBlocks();
  const saved = await Deno.readTextFile(path.join(FIXTURES, "xmllint.txt"));
  await withWorkspace(async (ws, home) => {
    const explain = ["filter", "--explain", "--command", XMLLINT, "--exit-code", "3"];
    const none = await zeph(explain, { cwd: ws, home, stdin: saved });
    expect([none.code, none.stdout.trimEnd(), none.stderr]).toEqual([0, before, ""]);

    const file = await writeRules(home, `${rule}\n`);
    const shown = (text: string) => text.replaceAll(file, "/home/me/.config/zeph/filters.toml");
    const check = await zeph(["config", "check"], { cwd: ws, home });
    const summary = check.stdout.split("\n")[2];
    expect([check.code, check.stderr, summary]).toEqual([
      0,
      "",
      expect.stringMatching(new RegExp(`^# Filter rules: \\d+ built-in, 1 from ${file}$`)),
    ]);
    expect(README).toContain(shown(summary.replace(/\d+ built-in/, "N built-in")));

    const explained = await zeph(explain, { cwd: ws, home, stdin: saved });
    expect(shown(explained.stdout.trimEnd())).toBe(after);

    const filtered = await zeph(["filter", "--command", XMLLINT, "--exit-code", "3"], {
      cwd: ws,
      home,
      stdin: saved,
    });
    expect([filtered.stdout.trimEnd(), filtered.stderr.trimEnd()]).toEqual([
      output,
      "[shell] 10 lines -> 6 lines, 40.0% filtered (xmllint; confidence full)",
    ]);
    expect(README).toContain(filtered.stderr.trimEnd().replace(/ \(xmllint.*$/, ""));
  });
});

Deno.test("the README's prove and stylelint rules load and keep every failure on their real outputs", async () => {
  const examples = sectionBlocks()[5];
  const prove = await Deno.readTextFile(path.join(FIXTURES, "prove.txt"));
  const stylelint = await Deno.readTextFile(path.join(FIXTURES, "stylelint.txt"));
  await withWorkspace(async (ws, home) => {
    await writeRules(home, `${examples}\n`);
    const tap = await zeph(["filter", "--command", "prove -v t/", "--exit-code", "1"], {
      cwd: ws,
      home,
      stdin: prove,
    });
    expect(tap.stderr).toBe(
      "[shell] 138 lines -> 28 lines, 79.7% filtered (tap; confidence full)\n",
    );
    expect(examples).toContain("138 lines -> 28");
    for (
      const line of [
        "#   Failed test 'fifteen percent off'",
        "#          got: '198.9'",
        "#     expected: '198'",
        "not ok 14 - fifteen percent off",
        "not ok 17 - unfinished feature",
        "Result: FAIL",
      ]
    ) expect(tap.stdout.split("\n")).toContain(line);
    expect(tap.stdout).not.toMatch(/^ok \d+ /m);

    const lint = await zeph(
      ["filter", "--command", 'npx stylelint "src/**/*.css"', "--exit-code", "2"],
      { cwd: ws, home, stdin: stylelint },
    );
    expect(lint.stderr).toBe(
      "[shell] 71 lines -> 45 lines, 36.6% filtered (stylelint; confidence full)\n",
    );
    expect(examples).toContain("71 lines -> 45");
    const out = lint.stdout.split("\n");
    // Every file line stays, and every finding: as printed, or by its position in a fold.
    for (const file of ["src/main.css", "src/components/button.css", "src/components/nav.css"]) {
      expect(out).toContain(file);
    }
    expect(out).toContain(
      "  … 7 more findings as above: 1:11, 2:10 declaration-block-single-line-max-declarations; " +
        "1:22 shorthand-property-no-redundant-values; 1:23, 1:27 length-zero-no-unit; " +
        "1:43 value-keyword-case; 2:17 color-hex-length",
    );
    expect(out).toContain("✖ 55 problems (55 errors, 0 warnings)");
  });
});

Deno.test("zeph config check reports a broken filters.toml by file, line, rule, key and fix", async () => {
  await withWorkspace(async (ws, home) => {
    const none = await zeph(["config", "check"], { cwd: ws, home });
    expect(none.stdout.split("\n")[2]).toMatch(
      new RegExp(
        `^# Filter rules: \\d+ built-in, none of yours \\(no file ${home}/\\.config/zeph/filters\\.toml\\)$`,
      ),
    );
    const file = await writeRules(
      home,
      `[[rules]]\nname = "prove"\nmatch = { prefix = "prove" }\nstrategy = { type = "strip_noise", paterns = ['^ok'] }\n\n` +
        `[[rules]]\nname = "hadolnt"\nenabled = false\n\n` +
        `[[rules]]\nname = "mine"\nmatch = { prefix = "mytool" }\nstrategy = { type = "keep_matching", patterns = ['^RESULT'] }\n`,
    );
    const r = await zeph(["config", "check"], { cwd: ws, home });
    // The skipped rule fails the check; the switch naming no rule is a warning.
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      `zeph: warning: ${file}:6: rule "hadolnt" has enabled = false but no rule has that name, so nothing was switched off (did you mean "hadolint"?); \`zeph filter --rules\` lists the names.`,
      `zeph: error: ${file}:4: rule "prove" skipped: strategy.paterns: unknown key "paterns"; did you mean "patterns"?`,
      "zeph: error: 1 filter rule error above: a skipped rule's commands are filtered by the built-in rules only. Fix it, or switch the rule off with enabled = false.",
    ]);
    expect(r.stdout.split("\n")[2]).toMatch(
      new RegExp(
        `^# Filter rules: \\d+ built-in, 1 from ${file}; 1 skipped \\(see the errors\\)$`,
      ),
    );
  });
});

Deno.test("zeph filter --rules lists the rules in run order; yours last, a replaced built-in said", async () => {
  await withWorkspace(async (ws, home) => {
    const file = await writeRules(
      home,
      `[[rules]]\nname = "ls"\nmatch = { regex = '^ls\\b' }\nstrategy = { type = "truncate", max_lines = 50 }\n\n` +
        `[[rules]]\nname = "xmllint"\nmatch = { regex = '^xmllint\\b' }\nstrategy = { type = "strip_noise", patterns = ['validates$'] }\n`,
    );
    const r = await zeph(["filter", "--rules"], { cwd: ws, home });
    const lines = r.stdout.trimEnd().split("\n");
    const builtin = Number(/^# (\d+) built-in rules, 2 from /.exec(lines[0])?.[1]);
    expect([r.code, r.stderr, lines[0], lines.length]).toEqual([
      0,
      "",
      `# ${builtin} built-in rules, 2 from ${file}; every rule whose matcher matches a command runs, in this order`,
      builtin + 3,
    ]);
    expect(lines.at(-1)).toMatch(
      new RegExp(`^xmllint +strip_noise +regex '\\^xmllint\\\\b'  \\(${file}:6\\)$`),
    );
    const ls = lines.find((l) => l.startsWith("ls "))!;
    expect(ls).toMatch(
      new RegExp(
        `^ls +truncate +regex '\\^ls\\\\b'  \\(${file}:1, replaces built-in filters/files\\.toml:\\d+\\)$`,
      ),
    );
  });
});

Deno.test("zeph filter --strategies lists the types and describes one; a mistyped one is an error", async () => {
  await withWorkspace(async (ws, home) => {
    const list = await zeph(["filter", "--strategies"], { cwd: ws, home });
    expect([list.code, list.stdout.split("\n")[0]]).toEqual([
      0,
      'Strategies (strategy = { type = "…", … } in a [[rules]] entry):',
    ]);
    const one = await zeph(["filter", "--strategies", "keep_matching"], { cwd: ws, home });
    expect(one.stdout).toBe(
      'keep_matching: strategy = { type = "keep_matching", … }\n  patterns (list of strings, required)\n      Regexes (RE2 syntax) of lines to keep\n',
    );
    const typo = await zeph(["filter", "--strategies", "strip_nois"], { cwd: ws, home });
    expect([typo.code, typo.stderr]).toEqual([
      2,
      expect.stringContaining(
        'No strategy "strip_nois" (did you mean "strip_noise"?); there are strip_noise, truncate,',
      ),
    ]);
  });
});

Deno.test("zeph filter --explain -- <command> runs it and explains its output; its exit code passes through", async () => {
  await withWorkspace(async (ws, home) => {
    for (let i = 0; i < 150; i++) await Deno.writeTextFile(path.join(ws, `f${1000 + i}.txt`), "");
    const r = await zeph(["-y", "filter", "--explain", "--", "ls"], { cwd: ws, home });
    const lines = r.stdout.trimEnd().split("\n");
    expect([r.code, lines[1], lines[2], lines.filter((l) => l.startsWith("  - ")).length]).toEqual([
      0,
      "rule ls (truncate): 150 lines in, 81 out, 70 removed, 1 added (confidence partial)",
      "  - f1070.txt",
      70,
    ]);

    const failed = await zeph(["-y", "filter", "--explain", "--", "ls", "f1000.txt", "nope"], {
      cwd: ws,
      home,
    });
    expect([failed.code, failed.stdout]).toEqual([
      2,
      expect.stringContaining("+ ls: cannot access 'nope': No such file or directory\nrule ls"),
    ]);
  });
});
