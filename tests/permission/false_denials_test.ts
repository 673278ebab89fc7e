/**
 * Analysis-level false denials of issue 16: commands made only of allowed programs must be
 * allowed and really run (through the registry, real bash), under the same read-only policy as
 * the bypass classes; and the per-command effect classification autonomy levels read.
 */
import { expect } from "expect";
import { type Config, Config as ConfigSchema, defaultConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import {
  analyzeShell,
  decideShell,
  fileWords,
  shellPermissionSettings,
} from "../../src/permission/shell.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { bashRegistry } from "./_bash_registry.ts";
import { READ_ONLY_RULES } from "./_read_only_rules.ts";

async function runAll(
  rows: [string, RegExp][],
  config: Config,
): Promise<string[]> {
  const { policy, registry } = bashRegistry(config);
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_falsedeny_" }));
  const git = (...args: string[]) =>
    new Deno.Command("git", {
      args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
      cwd: dir,
      stdout: "null",
    }).output();
  await git("init", "-q", "-b", "main");
  await Deno.writeTextFile(`${dir}/f.txt`, "alpha 1\nbeta 2\n");
  await git("add", "f.txt");
  await git("commit", "-qm", "first commit");
  const failures: string[] = [];
  try {
    for (const [command, output] of rows) {
      const decision = await decideShell(command, policy, shellPermissionSettings(config));
      const result = await registry.dispatch(
        { id: "c1", name: "bash", input: { command } },
        { cwd: dir, sandbox: await Sandbox.create(dir) },
      );
      if (decision.action !== "allow" || !result.ok || !output.test(result.text)) {
        failures.push(
          `${JSON.stringify(command)}: ${decision.action} (${decision.reason}), ` +
            `${JSON.stringify(result.text.slice(0, 120))}`,
        );
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  return failures;
}

function readOnlyConfig(): Config {
  const config = defaultConfig();
  Object.assign(config.tools.permissions, { bash: READ_ONLY_RULES });
  return config;
}

Deno.test("false denials: shells whose whole script is allowed decide on the inner script", async () => {
  const rows: [string, RegExp][] = [
    ["bash -lc 'ls && git status --short'", /f\.txt/],
    ["bash -c 'cat f.txt | wc -l'", /^2$/],
    ["sh -c 'grep -n beta f.txt'", /^2:beta 2$/],
    ['bash -lc "git log --oneline -1 | head -n 1"', /first commit/],
    ["bash -e -o pipefail -c 'echo one; echo two'", /one\ntwo/],
    ["bash --noprofile --norc -c 'head -n 1 f.txt'", /^alpha 1$/],
  ];
  expect(await runAll(rows, readOnlyConfig())).toEqual([]);
});

Deno.test("false denials: words that only look like paths are not checked where nothing opens them", async () => {
  const rows: [string, RegExp][] = [
    ["echo /usr/local/bin", /^\/usr\/local\/bin$/],
    ["echo ../elsewhere /etc/passwd", /^\.\.\/elsewhere \/etc\/passwd$/],
    ["v=/a/old/b; echo ${v/old/new}", /^\/a\/new\/b$/],
    ["echo {a,b}/c", /^a\/c b\/c$/],
  ];
  expect(await runAll(rows, readOnlyConfig())).toEqual([]);
});

Deno.test("false denials: harmless git global options are normalised away for matching", async () => {
  const rows: [string, RegExp][] = [
    ["git -C . branch", /main/],
    ["git -C ./ status --short", /^\(no output\)$|^$/],
    ["git --no-pager log --oneline -1", /first commit/],
    ["git -P diff --stat", /.*/],
    ["git --no-optional-locks -C . status --short", /.*/],
  ];
  expect(await runAll(rows, readOnlyConfig())).toEqual([]);
});

Deno.test("legit read-only commands stay allowed next to the danger tables", async () => {
  const rows: [string, RegExp][] = [
    ["sed -n '1,1p' f.txt", /^alpha 1$/],
    ["sed 's/alpha/omega/g' f.txt | head -n 1", /^omega 1$/],
    ["sed -n -e '/beta/p' -e '$=' f.txt", /beta 2\n2/],
    ["sed -E 's|([a-z]+) ([0-9])|\\2 \\1|' f.txt", /1 alpha/],
    ["awk '{ print $1 }' f.txt", /alpha\nbeta/],
    ["awk '$2 > 1 { print $1 }' f.txt", /^beta$/],
    ["awk -F' ' -v n=2 'NR == n { print $2 }' f.txt", /^2$/],
    ["grep -e beta -e alpha f.txt | wc -l", /^2$/],
    ["grep --regexp=beta f.txt", /^beta 2$/],
    ["rg -e beta f.txt || grep beta f.txt", /beta 2/],
    ["find . -name '*.txt' -type f", /\.\/f\.txt/],
    ["echo $((1 + 2)) $[3 * 4]", /^3 12$/],
    ["[[ 2 -gt 1 ]] && echo yes", /^yes$/],
    ["s=abc; echo $(( ${#s} + $# + $? ))", /^3$/],
    ["ls {f,g}.txt 2>/dev/null; echo done", /f\.txt\ndone/],
    ["git log --oneline -1 && git diff --stat && git branch -a", /first commit/],
    ["cat .git/HEAD", /refs\/heads\/main/],
  ];
  expect(await runAll(rows, readOnlyConfig())).toEqual([]);
});

Deno.test("fileWords: operands and file options, never option-carried patterns or echo words", () => {
  const table: [string, string[]][] = [
    ["grep -e /usr/x f", ["f"]],
    ["grep --regexp=/usr/x f", ["f"]],
    ["grep /usr/x f", ["f"]],
    ["grep -f pats f", ["pats", "f"]],
    ["sed -n -e /a/p f", ["f"]],
    ["awk -v x=1 '{print}' f", ["f"]],
    ["perl -ne 'print if /\/etc/' f", ["f"]],
    ["echo /usr/local/bin", []],
    ["cat a b", ["a", "b"]],
  ];
  const failures = table.filter(([line, expected]) => {
    const [program, ...args] = line.match(/'[^']*'|\S+/g)!.map((w) => w.replace(/^'|'$/g, ""));
    return JSON.stringify(fileWords({ program, args })) !== JSON.stringify(expected);
  });
  expect(failures).toEqual([]);
});

Deno.test("effect: read_only, destructive or other per simple command, with a reason", async () => {
  const table: [string, string][] = [
    ["cat f.txt", "read_only"],
    ["ls -la && git status", "read_only read_only"],
    ["grep -rn x . | head", "read_only read_only"],
    ["sed -n 1p f.txt", "read_only"],
    ["sed -i s/a/b/ f.txt", "other"],
    ["awk '{ print > \"o\" }' f", "other"],
    ["git log --output=x", "other"],
    ["git -C . branch", "read_only"],
    ["git branch new-branch", "other"],
    ["git branch -D old", "destructive"],
    ["rm x", "destructive"],
    ["rm -fr x", "destructive"],
    ["git clean -fdx", "destructive"],
    ["git clean --force", "destructive"],
    ["git reset --hard HEAD~1", "destructive"],
    ["git checkout -- f.txt", "destructive"],
    ["git restore f.txt", "destructive"],
    ["git push --force origin main", "destructive"],
    ["git push origin +main", "destructive"],
    ["git stash drop", "destructive"],
    ["git stash clear", "destructive"],
    ["git stash list", "other"],
    ["find . -name '*.o' -delete", "destructive"],
    ["truncate -s 0 f", "destructive"],
    ["dd if=/dev/zero of=f count=1", "destructive"],
    ["shred f", "destructive"],
    ["echo x > f.txt", "destructive"],
    ["echo x >> f.txt", "other"],
    ["echo x > /dev/null 2>&1", "read_only"],
    ["npm test", "other"],
    ["bash -lc 'cat f.txt'", "read_only read_only"],
    ["bash -lc 'rm x'", "read_only destructive"],
    ["bash -i -c 'cat f.txt'", "other read_only"],
    ["$cmd x", "other"],
  ];
  const failures: string[] = [];
  for (const [command, expected] of table) {
    const a = await analyzeShell(command);
    const got = a.commands.map((c) => c.effect).join(" ");
    if (got !== expected || a.commands.some((c) => c.effectReason === "")) {
      failures.push(`${command}: ${got} (${a.commands.map((c) => c.effectReason).join("; ")})`);
    }
  }
  expect(failures).toEqual([]);
});

Deno.test("protected_paths: the configured list replaces the default and leaves legacy mode on", async () => {
  const config = ConfigSchema.parse({
    tools: { permissions: { protected_paths: ["build/keep/**"] } },
  });
  const policy = PermissionPolicy.fromConfig(config);
  const settings = shellPermissionSettings(config);
  expect(settings.confirm).not.toBeNull(); // legacy: no tool rules were given
  const guarded = await decideShell("echo x > build/keep/a", policy, settings);
  expect([guarded.action, guarded.policyMatch]).toEqual([
    "ask",
    'tools.permissions.protected_paths "build/keep/**"',
  ]);
  // `>>` appends (not destructive), so only a protected path can make it ask.
  expect((await decideShell("echo x >> .envrc", policy, settings)).action).toBe("allow");
  // The default list applies when the key is absent.
  const plain = defaultConfig();
  expect(
    (await decideShell(
      "echo x >> .envrc",
      PermissionPolicy.fromConfig(plain),
      shellPermissionSettings(plain),
    ))
      .action,
  ).toBe("ask");
});
