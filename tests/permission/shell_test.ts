import { expect } from "expect";
import { type Config, defaultConfig, type PermissionRuleConfig } from "../../src/config/schema.ts";
import { PermissionPolicy } from "../../src/permission/policy.ts";
import {
  analyzeShell,
  decideShell,
  matchCommandPattern,
  shellPermissionSettings,
  type SimpleCommand,
} from "../../src/permission/shell.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { bashRegistry } from "./_bash_registry.ts";

/** The policy of the issue: a naive string match would let every attack below through. */
const ATTACK_RULES: PermissionRuleConfig[] = [
  { pattern: "sudo*", action: "deny" },
  { pattern: "ls*", action: "allow" },
  { pattern: "echo *", action: "allow" },
  { pattern: "git *", action: "allow" },
  { pattern: "cat *", action: "allow" },
  { pattern: "*", action: "ask" },
];

function configWith(bash: PermissionRuleConfig[] | null, edit?: (c: Config) => void): Config {
  const config = defaultConfig();
  if (bash) Object.assign(config.tools.permissions, { bash });
  edit?.(config);
  return config;
}

function decide(command: string, config: Config, policy = PermissionPolicy.fromConfig(config)) {
  return decideShell(command, policy, shellPermissionSettings(config));
}

/** `raw [context]` per simple command, in extraction order. */
async function rawOf(command: string): Promise<string[]> {
  const a = await analyzeShell(command);
  return a.commands.map((c) => c.context.length ? `${c.raw} [${c.context.join(" > ")}]` : c.raw);
}

Deno.test("analyzeShell: normalised simple commands, everywhere bash would find them", async () => {
  const table: [string, string[]][] = [
    ["ls -la", ["ls -la"]],
    ["ls; sudo x", ["ls", "sudo x", "x [sudo]"]],
    ["a && b || c | d & e", ["a", "b", "c", "d", "e"]],
    ["s\\udo x", ["sudo x", "x [sudo]"]],
    ['"su""do" x', ["sudo x", "x [sudo]"]],
    ["'su'do x", ["sudo x", "x [sudo]"]],
    ["$'\\x73udo' x", ["sudo x", "x [sudo]"]],
    ["$'\\163udo' x", ["sudo x", "x [sudo]"]],
    ["/usr/bin/sudo x", ["sudo x", "x [sudo]"]],
    ["FOO=1 BAR=2 make -j4", ["make -j4"]],
    ["env -i FOO=bar nice -n 5 timeout -s KILL 5 stdbuf -o0 nohup setsid ls", ["ls"]],
    ["command exec time ls", ["ls"]],
    ["echo $(sudo x)", ["sudo x [$(…)]", "x [$(…) > sudo]", "echo $(sudo x)"]],
    ["echo `id`", ["id [`…`]", "echo `id`"]],
    ["diff <(a) >(b)", ["a [<(…)]", "b [>(…)]", "diff <(a) >(b)"]],
    ["(a); { b; }", ["a [(…)]", "b"]],
    ["if a; then b; elif c; then d; else e; fi", ["a", "b", "c", "d", "e"]],
    ["for i in 1; do a; done; while b; do c; done; until d; do e; done", [
      "a",
      "b",
      "c",
      "d",
      "e",
    ]],
    ["case $x in y) a;; *) b;; esac", ["a", "b"]],
    ["f() { a; }; f", ["a [function f]", "f"]],
    ["echo ${x:-$(a)}", ["a [$(…)]", "echo ${x:-$(a)}"]],
    ["echo $(( $(a) + 1 ))", ["a [$(…)]", "echo $(( $(a) + 1 ))"]],
    ["cat <<EOF\n$(a)\nEOF", ["a [heredoc > $(…)]", "cat"]],
    ["cat <<'EOF'\n$(a)\nEOF", ["cat"]],
    ["bash -c 'a; b'", ["bash -c 'a; b'", "a [bash -c]", "b [bash -c]"]],
    ["sh -c 'bash -c \"a\"'", [`sh -c 'bash -c "a"'`, "bash -c a [sh -c]", "a [sh -c > bash -c]"]],
    ["bash <<< 'a'", ["bash", "a [bash <<<]"]],
    ["eval 'a b'", ["eval 'a b'", "a b [eval]"]],
    ["find . -exec rm {} \\;", ["find . -exec rm {} ';'", "rm {} [find -exec]"]],
    ["echo x | xargs -n1 rm -f", ["echo x", "rm -f [xargs]"]],
    ["x=$(a) y", ["a [$(…)]", "y"]],
    ["export A=$(a)", ["a [$(…)]", "export A=$(a)"]],
    ["ls \\\n-la", ["ls -la"]],
    ["echo hi # ; sudo x", ["echo hi"]],
    ["! a", ["a"]],
    ["coproc a", ["a [coproc]"]],
    ["watch -n 1 'ls -la'", ["ls -la [watch]"]],
    ["env -S 'a b'", ["a b [env]"]],
    ["busybox rm x", ["rm x"]],
    ["chroot / strace -f -o log sudo x", [
      "chroot / strace -f -o log sudo x",
      "sudo x [chroot]",
      "x [chroot > sudo]",
    ]],
    ["script -qc 'a b' /dev/null", ["a b [script]"]],
    ["parallel 'a {}' ::: 1 2", ["a {} [parallel]"]],
    ["echo 'é' > ö.txt; ls \"ünï\"", ["echo é", "ls ünï"]],
  ];
  const got: [string, string[]][] = [];
  for (const [command] of table) got.push([command, await rawOf(command)]);
  expect(got).toEqual(table);
});

Deno.test("analyzeShell: the public shape, redirects and dynamic reasons", async () => {
  const a = await analyzeShell("cd /tmp && ls -la 2>&1 > out.txt");
  expect(a.parseError).toBeUndefined();
  expect(a.dynamic).toEqual([]);
  expect(a.commands.map((c): Partial<SimpleCommand> => ({
    program: c.program,
    args: c.args,
    raw: c.raw,
    redirects: c.redirects,
    programIsLiteral: c.programIsLiteral,
    context: c.context,
  }))).toEqual([
    {
      program: "cd",
      args: ["/tmp"],
      raw: "cd /tmp",
      redirects: [],
      programIsLiteral: true,
      context: [],
    },
    {
      program: "ls",
      args: ["-la"],
      raw: "ls -la",
      redirects: [{ op: "2>&", target: "1" }, { op: ">", target: "out.txt" }],
      programIsLiteral: true,
      context: [],
    },
  ]);
  const dyn = await analyzeShell("c=sudo; $c x > /dev/tcp/h/80");
  expect(dyn.commands.map((c) => [c.program, c.programIsLiteral])).toEqual([["$c", false]]);
  expect(dyn.dynamic).toEqual([
    'redirect to network device "/dev/tcp/h/80"',
    'the program name "$c" is not static',
  ]);
  const bad = await analyzeShell("ls )");
  expect(bad.commands).toEqual([]);
  expect(bad.parseError).toBe(
    "1:4: a command can only contain words and redirects; encountered )",
  );
});

/**
 * Bypass attempts. `MARK` is created if any part of the command runs; `deny` rows must be
 * denied (a blocked program is in there), the others must at least ask.
 */
const ATTACKS: [string, "deny" | "ask"][] = [
  // separators and grouping
  ["ls; touch MARK", "ask"],
  ["ls && touch MARK", "ask"],
  ["ls /nonexistent || touch MARK", "ask"],
  ["ls | touch MARK", "ask"],
  ["ls & touch MARK", "ask"],
  ["ls\ntouch MARK", "ask"],
  ["ls;touch MARK", "ask"],
  ["echo x # comment\ntouch MARK", "ask"],
  ["echo x;\ttouch MARK", "ask"],
  ["(touch MARK)", "ask"],
  ["{ ls; touch MARK; }", "ask"],
  ["(echo x; touch MARK) &", "ask"],
  ["echo x | (touch MARK)", "ask"],
  ["! touch MARK", "ask"],
  ["coproc touch MARK", "ask"],
  // control flow and functions
  ["if ls; then touch MARK; fi", "ask"],
  ["if touch MARK; then ls; fi", "ask"],
  ["for f in a; do touch MARK; done", "ask"],
  ["until touch MARK; do ls; done", "ask"],
  ["case x in x) touch MARK;; esac", "ask"],
  ["f(){ touch MARK; }; f", "ask"],
  ["function g { touch MARK; }; g", "ask"],
  // substitutions and expansions
  ["echo $(touch MARK)", "ask"],
  ["echo `touch MARK`", "ask"],
  ['echo "$(touch MARK)"', "ask"],
  ["ls <(touch MARK)", "ask"],
  ["echo x > >(touch MARK)", "ask"],
  ["echo ${x:-$(touch MARK)}", "ask"],
  ["echo $(( $(touch MARK) + 1 ))", "ask"],
  ["echo $[ x='a[$(touch MARK)]', x ]", "ask"],
  ["x='$(touch MARK)'; echo ${x@P}", "ask"],
  ["FOO=$(touch MARK) ls", "ask"],
  ['ls "$(touch MARK)"', "ask"],
  ["echo x; y=$(touch MARK)", "ask"],
  ["echo x; declare -a a=($(touch MARK))", "ask"],
  ["cat <<EOF\n$(touch MARK)\nEOF", "ask"],
  ['cat <<< "$(touch MARK)"', "ask"],
  // nested shells, eval, source
  ['bash -c "touch MARK"', "ask"],
  ["sh -c 'touch MARK'", "ask"],
  ["bash -lc 'touch MARK'", "ask"],
  ["echo hi; sh -c 'bash -c \"touch MARK\"'", "ask"],
  ["bash <<< 'touch MARK'", "ask"],
  ["bash <<EOF\ntouch MARK\nEOF", "ask"],
  ["sh -s <<< 'touch MARK'", "ask"],
  ["echo 'touch MARK' | bash", "ask"],
  ["echo 'touch MARK' | sh -s", "ask"],
  ["echo dG91Y2ggTUFSSwo= | base64 -d | sh", "ask"],
  ["eval 'touch MARK'", "ask"],
  ['eval "$(echo touch MARK)"', "ask"],
  ["echo 'touch MARK' > s.sh; . ./s.sh", "ask"],
  ["ls; source /dev/stdin <<< 'touch MARK'", "ask"],
  ["echo x; trap 'touch MARK' EXIT", "ask"],
  ["echo x; builtin eval 'touch MARK'", "ask"],
  ["env -S 'touch MARK'", "ask"],
  // non-literal program names
  ["c=touch; $c MARK", "ask"],
  ["ls; $(echo touch) MARK", "ask"],
  ['echo x; "$(printf touch)" MARK', "ask"],
  ["echo x; ${CMD:-touch} MARK", "ask"],
  ["echo x; /usr/bin/tou?h MARK", "ask"],
  // quoting and escapes
  ["echo x; t\\ouch MARK", "ask"],
  ['echo x; "tou""ch" MARK', "ask"],
  ["echo x; 'to'uch MARK", "ask"],
  ["echo x; $'\\x74ouch' MARK", "ask"],
  ["echo x; $'\\164ouch' MARK", "ask"],
  ["echo x; t\"o\"u'c'h MARK", "ask"],
  ["echo x; \\touch MARK", "ask"],
  ["echo x; tou\\\nch MARK", "ask"],
  ["ls \\\n; touch MARK", "ask"],
  // wrappers
  ["echo x; /usr/bin/touch MARK", "ask"],
  ["echo x; env touch MARK", "ask"],
  ["echo x; env -i FOO=1 touch MARK", "ask"],
  ["echo x; command touch MARK", "ask"],
  ["echo x; command -p touch MARK", "ask"],
  ["echo x; exec touch MARK", "ask"],
  ["echo x; nice -n 5 touch MARK", "ask"],
  ["echo x; nohup touch MARK", "ask"],
  ["echo x; time touch MARK", "ask"],
  ["echo x; timeout 5 touch MARK", "ask"],
  ["echo x; stdbuf -o0 touch MARK", "ask"],
  ["echo x; busybox touch MARK", "ask"],
  ["echo MARK | xargs touch", "ask"],
  ["echo MARK | xargs -I{} touch {}", "ask"],
  ["ls | xargs -n1 sh -c 'touch MARK'", "ask"],
  ["echo 'touch MARK' | xargs -I{} sh -c {}", "ask"],
  ["watch -n 1 touch MARK", "ask"],
  // allowed programs with dangerous options
  ["find . -maxdepth 0 -exec touch MARK \\;", "ask"],
  ["find . -maxdepth 0 -execdir sh -c 'touch MARK' \\;", "ask"],
  ["git -c core.pager='touch MARK' log", "ask"],
  ["git -c alias.st='!touch MARK' st", "ask"],
  ["git -c core.sshCommand='touch MARK' fetch", "ask"],
  ["echo x; python3 -c \"open('MARK','w')\"", "ask"],
  ["echo x; perl -e 'open(F,\">MARK\")'", "ask"],
  ["echo x; node -e \"require('fs').writeFileSync('MARK','')\"", "ask"],
  ["echo x; awk 'BEGIN{system(\"touch MARK\")}'", "ask"],
  ["echo x; PATH=/tmp/evil:$PATH ls > MARK", "ask"],
  ["PAGER='touch MARK' git log", "ask"],
  ["ls > /dev/tcp/127.0.0.1/9; ls > MARK", "ask"],
  ["exec 3<>/dev/tcp/127.0.0.1/9; ls > MARK", "ask"],
  // the blocked program, hidden every way
  ["ls; sudo touch MARK", "deny"],
  ["ls && sudo touch MARK", "deny"],
  ["sudo touch MARK", "deny"],
  ["s\\udo touch MARK", "deny"],
  ["'su'do touch MARK", "deny"],
  ['"su""do" touch MARK', "deny"],
  ["$'\\x73udo' touch MARK", "deny"],
  ["/usr/bin/sudo touch MARK", "deny"],
  ["echo $(sudo touch MARK)", "deny"],
  ["echo `sudo touch MARK`", "deny"],
  ['bash -c "sudo touch MARK"', "deny"],
  ["sh -c 'bash -c \"sudo touch MARK\"'", "deny"],
  ["env sudo touch MARK", "deny"],
  ["command sudo touch MARK", "deny"],
  ["nice -n 5 sudo touch MARK", "deny"],
  ["timeout 5 sudo touch MARK", "deny"],
  ["echo MARK | xargs sudo touch", "deny"],
  ["(sudo touch MARK)", "deny"],
  ["{ sudo touch MARK; }", "deny"],
  ["f(){ sudo touch MARK; }; f", "deny"],
  ["case a in a) sudo touch MARK;; esac", "deny"],
  ["diff <(sudo touch MARK) /dev/null", "deny"],
  ["c=sudo; $c touch MARK", "deny"],
  ["echo x; {sudo,touch} MARK", "deny"],
  ["find . -maxdepth 0 -exec sudo touch MARK \\;", "deny"],
  ["eval 'sudo touch MARK'", "deny"],
  ["bash <<< 'sudo touch MARK'", "deny"],
  ["echo x; curl -o MARK file:///dev/null", "deny"],
  ["echo x; wget -O MARK http://127.0.0.1:9/", "deny"],
  ["ls; sudo touch MARK )", "deny"],
  ["echo x;sudo${IFS}touch${IFS}MARK", "deny"],
  ["echo x; chroot / sudo touch MARK", "deny"],
  ["echo x; script -qc 'sudo touch MARK' /dev/null", "deny"],
  ["echo x; parallel 'sudo touch {}' ::: MARK", "deny"],
  ["echo x; strace -f -o /dev/null sudo touch MARK", "deny"],
  ["flock -n /tmp/zeph_lock -c 'sudo touch MARK'", "deny"],
  ["ls; vim -c '!touch MARK' -c q", "ask"],
  ["ls; mapfile -C 'touch MARK' -c 1 < /dev/null", "ask"],
  ["echo 'touch MARK' | at now", "ask"],
  ["echo x; nice 'sudo touch MARK'", "deny"],
  ["echo x; sudo -u root -- sh -c 'touch MARK'", "deny"],
  ["python3 - <<'EOF'\nopen('MARK','w')\nEOF", "ask"],
  ["echo \"open('MARK','w')\" | python3", "ask"],
  ["ls; script -qc 'touch MARK' /dev/null", "ask"],
  ["ls; parallel touch ::: MARK", "ask"],
  ["ls; chroot / touch MARK", "ask"],
  ["printf '#!/bin/sh\\ntouch MARK\\n' > ls; chmod +x ls; ./ls", "ask"],
  ["echo x; /tmp/zeph_no_such_dir/ls -la > MARK", "ask"],
  ["a[$(touch MARK)]=1; ls", "ask"],
  ["ls; test -v 'a[$(touch MARK)]'", "ask"],
  ["ls; [[ -v 'a[$(touch MARK)]' ]]", "ask"],
  ["ls; (( x[$(touch MARK)] ))", "ask"],
  ["x='a[$(touch MARK)]'; echo $((x))", "ask"],
  ["echo $(( '$(touch MARK)' ))", "ask"],
  ["{ bash; } <<< 'touch MARK'", "ask"],
  ["echo 'touch MARK' | bash -c 'cat | sh'", "ask"],
  ["echo 'touch MARK' | env -i sh", "ask"],
  ['cat <<< "$(touch MARK)" | wc -l', "ask"],
  ["ls; [[ 'a[$(touch MARK)]' -eq 1 ]]", "ask"],
  ["x='a[$(touch MARK)]'; [[ $x -eq 1 ]]; ls", "ask"],
  ["ls; printf -v 'a[$(touch MARK)]' x", "ask"],
  ["git config core.pager 'touch MARK'; git log", "ask"],
  ["git config alias.st '!touch MARK'", "ask"],
  ["git submodule foreach 'touch MARK'", "ask"],
  ["git rebase --exec 'touch MARK' HEAD", "ask"],
  ["ls(){ touch MARK; }; ls", "ask"],
  ["sh -c 'ls\ntouch MARK'", "ask"],
  ["cat <<EOF\nEOF; touch MARK\nEOF\ntouch MARK", "ask"],
  [`echo ${"$(echo ".repeat(1200)}x${")".repeat(1200)}`, "ask"],
];

Deno.test("bash permissions: bypass attempts are never allowed, and nothing runs", async () => {
  expect(ATTACKS.length).toBeGreaterThanOrEqual(60);
  const config = configWith(ATTACK_RULES);
  const { policy, registry } = bashRegistry(config);
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_shellperm_" }));
  const session = { cwd: dir, sandbox: await Sandbox.create(dir) };
  const marker = `${dir}/MARK`;
  const exists = () => Deno.stat(marker).then(() => true, () => false);
  try {
    // Control: the harness can create the marker when a command is allowed.
    const control = await registry.dispatch(
      { id: "c0", name: "bash", input: { command: "echo made > MARK" } },
      session,
    );
    expect([control.outcome, await exists()]).toEqual(["success", true]);
    await Deno.remove(marker);

    const failures: string[] = [];
    for (const [command, expected] of ATTACKS) {
      const decision = await decideShell(command, policy, shellPermissionSettings(config));
      const result = await registry.dispatch(
        { id: "c1", name: "bash", input: { command } },
        session,
      );
      const made = await exists();
      if (made) await Deno.remove(marker);
      if (decision.action !== expected || result.ok || made || result.outcome !== "blocked") {
        failures.push(
          `${JSON.stringify(command.slice(0, 120))}: ${decision.action} (${decision.reason}), ` +
            `outcome ${result.outcome}, marker ${made}`,
        );
      }
    }
    expect(failures).toEqual([]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const BENIGN_RULES: PermissionRuleConfig[] = [
  { pattern: "sudo*", action: "deny" },
  ...[
    "ls*",
    "git status*",
    "git diff *",
    "cargo test*",
    "cargo build*",
    "echo *",
    "grep *",
    "cat *",
    "wc *",
    "head *",
    "tail *",
    "sort*",
    "uniq*",
    "npm run *",
    "npm test*",
    "make*",
    "cd *",
    "find *",
    "date",
    "deno task *",
    "test *",
    "\\[ *",
    "pwd",
    "./gradlew *",
  ].map((pattern): PermissionRuleConfig => ({ pattern, action: "allow" })),
  { pattern: "*", action: "ask" },
];

const BENIGN = [
  "ls -la",
  "git status",
  "git status --short | wc -l",
  "cargo test --workspace",
  'echo "rm -rf /"',
  "grep -rn sudo src/",
  "grep -rm 1 x .",
  "cat a | grep b | wc -l",
  "npm run build && npm test",
  "FOO=1 make",
  "cd src && ls",
  "ls -la | head -n 5",
  'find . -name "*.ts" -type f',
  "cat README.md | sort | uniq -c",
  'echo "\\"; touch MARK; echo \\""',
  "echo $HOME",
  'ls "$PWD"',
  "echo 'a && sudo x'",
  "cargo build --release 2>&1 | tail -n 20",
  "make -j4 test",
  "ls src/*.ts",
  "for f in *.ts; do echo $f; done",
  "if [ -f x ]; then echo yes; fi",
  "test -f x && echo yes || echo no",
  "deno task test",
  "git diff HEAD~1 -- src/",
  "echo done # sudo in a comment",
  "wc -l < README.md",
  "ls > listing.txt",
  "echo $(date)",
  "pwd; ls",
  "echo sudoku",
  '[[ "$HOME" == "/root" ]] && echo root',
  "echo $(( 1 + 2 ))",
  "/usr/bin/ls -la",
  "./gradlew build",
];

Deno.test("bash permissions: benign commands stay allowed under allow rules", async () => {
  expect(BENIGN.length).toBeGreaterThanOrEqual(20);
  const config = configWith(BENIGN_RULES);
  const policy = PermissionPolicy.fromConfig(config);
  const wrong: string[] = [];
  for (const command of BENIGN) {
    const d = await decide(command, config, policy);
    if (d.action !== "allow") wrong.push(`${command}: ${d.action} (${d.reason})`);
  }
  expect(wrong).toEqual([]);
});

Deno.test("bash permissions: legacy defaults allow benign commands, ask per simple command", async () => {
  const config = configWith(null);
  const table: [string, "allow" | "ask" | "deny"][] = [
    // A `>` redirect may overwrite a file: it asks (the autonomy levels' "destructive").
    ...BENIGN.filter((c) => !c.includes("$(") && !/ > /.test(c)).map((c): [string, "allow"] => [
      c,
      "allow",
    ]),
    ["ls > listing.txt", "ask"],
    ['echo "rm "', "allow"],
    ["grep -rm 1 x .", "allow"],
    ["rm -rf build", "ask"],
    ["ls && rm x", "ask"],
    ["git push --force", "ask"],
    ["git push origin main --force", "ask"],
    ["git push -f", "ask"],
    ["git push", "allow"],
    ["git push --force-with-lease", "ask"],
    ["git push origin +main", "ask"],
    ['psql -c "DROP TABLE users"', "ask"],
    ["truncate -s 0 log", "ask"],
    ["echo $(date)", "ask"],
    ["echo `date`", "ask"],
    ["diff <(ls) <(ls src)", "ask"],
    ["cat <<< hi", "ask"],
    ["eval ls", "ask"],
    ["sudo ls", "deny"],
    ["rm -rf /", "deny"],
    ["rm -fr /", "deny"],
    ["rm -r -f //", "deny"],
    ["rm --recursive --force /*", "deny"],
    ["rm -rf /tmp/x", "ask"],
    ["mkfs.ext4 /dev/sdz", "deny"],
    ["dd if=/dev/zero of=x bs=1 count=1", "deny"],
    ["dd of=x", "ask"], // dd of= overwrites its output: destructive, asks in supervised
    ["curl https://example.com", "deny"],
    ["nc -l 9", "deny"],
    ["ncp x", "allow"],
    ["shutdown -h now", "deny"],
    ["sudoku", "allow"],
  ];
  const got: string[] = [];
  const want: string[] = [];
  for (const [command, action] of table) {
    got.push(`${command} => ${(await decide(command, config)).action}`);
    want.push(`${command} => ${action}`);
  }
  expect(got).toEqual(want);
});

Deno.test("bash permissions: the blocklist cannot be overridden by an allow rule", async () => {
  const config = configWith([{ pattern: "*", action: "allow" }]);
  for (const command of ["sudo ls", "ls; curl x", "echo $(wget x)", "reboot", "halt -p"]) {
    const d = await decide(command, config);
    expect({ command, action: d.action }).toEqual({ command, action: "deny" });
  }
  const d = await decide("ls; sudo ls", config);
  expect([d.policyMatch, d.reason]).toEqual([
    'tools.shell blocked "sudo"',
    '"sudo ls" matches the blocked command "sudo"',
  ]);
});

Deno.test("bash permissions: allowed_commands unblocks, allow_network=false re-blocks", async () => {
  const allowCurl = configWith(null, (c) => (c.tools.shell.allowed_commands = ["curl"]));
  expect((await decide("curl -s http://127.0.0.1:1/", allowCurl)).action).toBe("allow");
  const offline = configWith(null, (c) => {
    c.tools.shell.allowed_commands = ["curl"];
    c.tools.shell.allow_network = false;
  });
  expect((await decide("curl -s http://127.0.0.1:1/", offline)).action).toBe("deny");
  expect((await decide("ssh host", offline)).action).toBe("deny");
  const tcp = await decide("echo hi > /dev/tcp/127.0.0.1/9", offline);
  expect([tcp.action, tcp.policyMatch]).toEqual(["deny", "tools.shell.allow_network = false"]);
  const online = await decide("echo hi > /dev/tcp/127.0.0.1/9", configWith(null));
  expect(online.action).toBe("ask");
  const custom = configWith(null, (c) => (c.tools.shell.blocked_commands = ["terraform destroy"]));
  expect((await decide("cd infra && terraform destroy -auto-approve", custom)).action).toBe("deny");
  expect((await decide("terraform plan", custom)).action).toBe("allow");
});

Deno.test("bash permissions: limits refuse, they never downgrade to a weaker check", async () => {
  const config = configWith([{ pattern: "*", action: "allow" }]);
  const long = `echo ${"a".repeat(10_000)}`;
  const d = await decide(long, config);
  expect([d.action, d.policyMatch]).toEqual(["deny", "tools.shell.max_command_length"]);
  expect(d.reason).toBe(
    "the command is 10005 characters long, over [tools.shell] max_command_length = 10000; " +
      "split it into shorter commands",
  );
  const many = `${"true && ".repeat(200)}curl x`;
  const m = await decide(many, config);
  expect([m.action, m.policyMatch]).toEqual(["deny", "tools.shell.max_subcommands"]);
  const atLimit = `${"true && ".repeat(199)}true`;
  expect((await decide(atLimit, config)).action).toBe("allow");
});

Deno.test("bash permissions: parse errors ask, or deny when a blocked program is visible", async () => {
  const config = configWith([{ pattern: "*", action: "allow" }]);
  const d = await decide("ls )", config);
  expect([d.action, d.policyMatch, d.reason]).toEqual([
    "ask",
    "bash analysis: fail closed",
    "cannot parse the command: 1:4: a command can only contain words and redirects; " +
    "encountered )",
  ]);
  expect((await decide("echo 'unterminated; sudo x", config)).action).toBe("deny");
});

Deno.test("bash permissions: deny rules also see the original command text", async () => {
  const config = configWith([
    { pattern: "*--no-verify*", action: "deny" },
    { pattern: "*", action: "allow" },
  ]);
  const d = await decide('git commit -m "x" --no-verify', config);
  expect(d.action).toBe("deny");
  expect((await decide("git commit -m x", config)).action).toBe("allow");
});

Deno.test("bash permissions: 'always' is keyed on the normalised command, not on everything", async () => {
  const config = configWith([{ pattern: "ls*", action: "allow" }, { pattern: "*", action: "ask" }]);
  const policy = PermissionPolicy.fromConfig(config);
  const first = await decide("ls && npm   publish", config, policy);
  expect([first.action, first.alwaysPattern]).toEqual(["ask", "npm publish"]);
  policy.addSessionRule("bash", first.alwaysPattern!, "allow");
  expect((await decide("npm publish", config, policy)).action).toBe("allow");
  expect((await decide("ls; npm publish", config, policy)).action).toBe("allow");
  expect((await decide("npm publish --tag evil", config, policy)).action).toBe("ask");
  expect((await decide("npm publish; rm -rf src", config, policy)).action).toBe("ask");

  // Glob characters in an approved command are literal in the stored rule.
  const star = await decide("rm *.tmp", config, policy);
  expect(star.alwaysPattern).toBe("rm \\*.tmp");
  policy.addSessionRule("bash", star.alwaysPattern!, "allow");
  expect((await decide("rm *.tmp", config, policy)).action).toBe("allow");
  expect((await decide("rm important.txt", config, policy)).action).toBe("ask");

  // Argument boundaries are part of the key: one file named "a b" is not the files a and b.
  const spaced = await decide('rm "a b"', config, policy);
  expect(spaced.alwaysPattern).toBe("rm 'a b'");
  policy.addSessionRule("bash", spaced.alwaysPattern!, "allow");
  expect((await decide("rm 'a b'", config, policy)).action).toBe("allow");
  expect((await decide("rm a b", config, policy)).action).toBe("ask");

  // A fail-closed ask is keyed on the exact command line.
  const dyn = await decide('eval "$X"', config, policy);
  expect([dyn.action, dyn.alwaysPattern]).toEqual(["ask", 'eval "$X"']);
  policy.addSessionRule("bash", dyn.alwaysPattern!, "allow");
  expect((await decide('eval "$X"', config, policy)).action).toBe("allow");
  expect((await decide('eval "$Y"', config, policy)).action).toBe("ask");
  // An "always" never lifts a deny.
  policy.addSessionRule("bash", "sudo ls", "allow");
  expect((await decide("sudo ls", config, policy)).action).toBe("deny");
});

Deno.test("matchCommandPattern: token semantics, not substrings", () => {
  const cmd = (program: string, ...args: string[]): SimpleCommand => ({
    program,
    args,
    raw: [program, ...args].join(" "),
    redirects: [],
    programIsLiteral: true,
    effect: "other",
    effectReason: "",
    context: [],
  });
  const table: [string, SimpleCommand, boolean][] = [
    ["sudo", cmd("sudo", "ls"), true],
    ["sudo", cmd("sudoku"), false],
    ["rm ", cmd("rm", "x"), true],
    ["rm ", cmd("grep", "-rm", "x"), false],
    ["rm ", cmd("echo", "rm "), false],
    ["mkfs", cmd("mkfs.ext4", "/dev/sdz"), true],
    ["dd if=", cmd("dd", "bs=1", "if=/dev/zero"), true],
    ["dd if=", cmd("dd", "of=x"), false],
    ["rm -rf /", cmd("rm", "-f", "-r", "/"), true],
    ["rm -rf /", cmd("rm", "-rf", "/tmp"), false],
    ["git push --force", cmd("git", "push", "origin", "--force"), true],
    ["git push --force", cmd("git", "pull", "--force"), false],
    ["drop table", cmd("psql", "-c", "DROP  TABLE x"), true],
    ["drop table", cmd("echo", "drop table"), false],
  ];
  for (const [pattern, c, expected] of table) {
    expect({ pattern, raw: c.raw, hit: matchCommandPattern(pattern, c) })
      .toEqual({ pattern, raw: c.raw, hit: expected });
  }
});

Deno.test("bash permissions: the dispatch result carries the rule and the reason", async () => {
  const config = configWith(ATTACK_RULES);
  const { registry } = bashRegistry(config);
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_shellperm_" }));
  try {
    const session = { cwd: dir, sandbox: await Sandbox.create(dir) };
    const denied = await registry.dispatch(
      { id: "d1", name: "bash", input: { command: "ls; bash -c 'sudo id'" } },
      session,
    );
    expect([denied.outcome, denied.category, denied.decision?.policyMatch]).toEqual([
      "blocked",
      "policy_blocked",
      'tools.shell blocked "sudo"',
    ]);
    expect(denied.error).toBe(
      `Cannot run bash "ls; bash -c 'sudo id'": denied by policy ("sudo id" (inside bash -c) ` +
        `matches the blocked command "sudo")`,
    );
    const asked = await registry.dispatch(
      { id: "d2", name: "bash", input: { command: "echo hi | sh" } },
      session,
    );
    expect([asked.outcome, asked.category, asked.decision?.action]).toEqual([
      "blocked",
      "confirmation_required",
      "ask",
    ]);
    expect(asked.decision?.reason).toBe(
      '"sh" matches tools.permissions.bash[5] ask "*"; a pipe into the interpreter "sh"',
    );
    const allowed = await registry.dispatch(
      { id: "d3", name: "bash", input: { command: "echo hi && ls" } },
      session,
    );
    expect([allowed.outcome, allowed.text, allowed.decision?.policyMatch]).toEqual([
      "success",
      "hi",
      'tools.permissions.bash[2] allow "echo *"',
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bash permissions: fail-closed checks hold even under an allow-everything rule", async () => {
  const config = configWith([{ pattern: "*", action: "allow" }]);
  const table: [string, "allow" | "ask"][] = [
    ["python3 -c 'print(1)'", "ask"],
    ["python3 script.py", "allow"],
    ["perl -ne 'print' f", "ask"],
    ["node -e 'x()'", "ask"],
    ["node app.js", "allow"],
    ["awk 'BEGIN{system(\"id\")}'", "ask"],
    ["awk '{print $1}' f", "allow"],
    ["sed -n 1p f", "allow"],
    ["sed 's/a/b/e' f", "ask"],
    ["find . -name x", "allow"],
    ["find . -name x -delete", "ask"],
    ["find . -exec ls {} +", "ask"],
    ["git log --oneline", "allow"],
    ["git -c core.pager=less log", "ask"],
    ["git config user.name x", "allow"],
    ["git config core.sshCommand x", "ask"],
    ["git submodule foreach ls", "ask"],
    ["rg --pre cat x", "ask"],
    ["tar --to-command=sh -xf a.tar", "ask"],
    ["vim -c q f", "ask"],
    ["mapfile -C cb -c 1 arr < f", "ask"],
    ["tmux new -d ls", "ask"],
    ["ls | xargs sh", "ask"],
    ["echo x | python3", "ask"],
    ['bash -c "$X"', "ask"],
    ["eval ls", "ask"],
    [". ./env.sh", "ask"],
    ["ls > /dev/tcp/127.0.0.1/9", "ask"],
    ["PATH=/tmp:$PATH ls", "ask"],
    ["LD_PRELOAD=x.so ls", "ask"],
    ["c=ls; $c", "ask"],
    ["FOO=1 ls", "allow"],
  ];
  const got: string[] = [];
  for (const [command] of table) {
    got.push(`${command} => ${(await decide(command, config)).action}`);
  }
  expect(got).toEqual(table.map(([c, a]) => `${c} => ${a}`));
});

Deno.test("analyzeShell: brace words expand as bash expands them, quoted braces stay", async () => {
  const table: [string, string[]][] = [
    ["echo {a,b}{1,2}", ["echo a1 a2 b1 b2"]],
    ["echo x{a,{b,c}}y", ["echo xay xby xcy"]],
    ["echo {1..3} {03..1} {a..e..2}", ["echo 1 2 3 03 02 01 a c e"]],
    ["echo {a,}", ["echo a"]],
    ["echo '{a,b}' \\{a,b} {a} {a,b", ["echo {a,b} {a,b} {a} {a,b"]],
    ['echo "{a,b}"x{c,d}', ["echo {a,b}xc {a,b}xd"]],
    ["{rm,-rf,x}", ["rm -rf x"]],
    ["dd i{f,f}=/dev/zero", ["dd if=/dev/zero if=/dev/zero"]],
    ["cat {..,.}/s", ["cat ../s ./s"]],
    ["find . -exec wc {} +", ["find . -exec wc {} +", "wc {} [find -exec]"]],
  ];
  const failures: string[] = [];
  for (const [command, expected] of table) {
    const got = await rawOf(command);
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      failures.push(`${command}: ${JSON.stringify(got)}`);
    }
  }
  expect(failures).toEqual([]);
  const huge = await analyzeShell("echo {1..100000}");
  expect(huge.dynamic.some((d) => d.includes("brace expansion"))).toBe(true);
  const redirect = await analyzeShell("echo x > {a,b}");
  expect(redirect.dynamic.some((d) => d.includes("brace pattern"))).toBe(true);
});

Deno.test("analyzeShell: other spellings the rules see (canonical flags, harmless git options)", async () => {
  const table: [string, string[]][] = [
    ["rm -fr x", ["rm -rf x", "rm -r -f x", "rm --recursive --force x"]],
    ["rm --force --recursive x", ["rm -rf x", "rm -r -f x", "rm --recursive --force x"]],
    ["rm -rf x", ["rm -r -f x", "rm --recursive --force x"]],
    ["git -C . branch -a", ["git branch -a"]],
    ["git --no-pager -P log", ["git log"]],
    ["git -C ../x status", []],
    ["ls -la", []],
  ];
  const failures: string[] = [];
  for (const [command, expected] of table) {
    const got = (await analyzeShell(command)).commands[0].forms ?? [];
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      failures.push(`${command}: ${JSON.stringify(got)}`);
    }
  }
  expect(failures).toEqual([]);
});
