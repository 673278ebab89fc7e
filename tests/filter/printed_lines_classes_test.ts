/**
 * Lines a whole-line reader looks for, each class through the built-in rules on outputs the
 * real tools print here: a history's commit and subject lines (not joined into one), a C/C++
 * diagnostic's include chain, pytest's failure headers, unexpected passes and warnings summary.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const filter = (command: string, text: string, failed = false) =>
  engine.filter(command, text, { failed }).text.split("\n");

async function git(dir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args,
    cwd: dir,
    env: { GIT_CONFIG_NOSYSTEM: "1", HOME: dir, TZ: "UTC" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/** A repository of `n` commits by two authors over two days, each touching two files. */
async function history(n: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "zeph-gitlog-" });
  await git(dir, "init", "-q", "-b", "main");
  for (let i = 1; i <= n; i++) {
    await Deno.writeTextFile(`${dir}/handler_${i}.ts`, `export const route = "/v${i}";\n`);
    await Deno.writeTextFile(`${dir}/routes.ts`, `// ${i} routes\n`, { append: true });
    await git(dir, "add", "-A");
    const who = i % 5 === 0 ? "Bob <bob@example.com>" : "Dev <dev@example.com>";
    const date = `2026-11-${i <= n / 2 ? 23 : 24}T10:${String(i).padStart(2, "0")}:00Z`;
    await git(
      dir,
      "-c",
      `user.name=${who.split(" <")[0]}`,
      "-c",
      `user.email=${who.split("<")[1].slice(0, -1)}`,
      "commit",
      "-q",
      `--date=${date}`,
      "-m",
      `handler ${i}: route /v${i}`,
      "-m",
      `Adds the /v${i} route.\nIt is served by handler_${i}.ts.`,
    );
  }
  return dir;
}

Deno.test("git log keeps each commit line and subject line as printed, in every default format", async () => {
  const dir = await history(16);
  try {
    for (const args of [["log"], ["log", "--stat"], ["log", "-p"], ["log", "--format=fuller"]]) {
      const raw = await git(dir, ...args);
      const rawLines = raw.split("\n");
      const out = filter(`git ${args.join(" ")}`, raw);
      // Every emitted commit/subject line is an input line as printed.
      for (let i = 1; i <= 16; i++) expect(out).toContain(`    handler ${i}: route /v${i}`);
      const hashes = rawLines.filter((l) => l.startsWith("commit "));
      expect(hashes.length).toBe(16);
      for (const line of hashes) expect(out).toContain(line);
      // Nothing is joined: each line of the output that names a commit is a line git printed.
      for (const line of out.filter((l) => l.startsWith("commit "))) {
        expect(rawLines).toContain(line);
      }
      // The author appears where it changes, not for every commit.
      expect(out.filter((l) => l.startsWith("Author:")).length).toBeLessThan(16);
      expect(out.some((l) => /^Author: +Bob <bob@example.com>$/.test(l))).toBe(true);
      expect(out.length).toBeLessThan(rawLines.length);
    }
    // One line per commit (--oneline, --graph) passes as printed.
    const oneline = await git(dir, "log", "--oneline", "--graph");
    expect(filter("git log --oneline --graph", oneline).join("\n")).toBe(oneline.trimEnd());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
