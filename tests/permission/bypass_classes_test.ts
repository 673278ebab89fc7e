/**
 * The eight bypass classes of issue 16 (found in six peers' test suites), one table per class,
 * each row run through the real dispatch path (`ToolRegistry` + the bash tool + real bash) in a
 * fresh workspace whose policy allows only read-only programs. A row passes when the command
 * was not auto-allowed (asked or denied, with a one-line reason the model sees) and nothing it
 * tried happened: no marker file, the file outside the workspace unread and unchanged, git's
 * config, attributes and hooks untouched.
 */
import { expect } from "expect";
import { type Config, defaultConfig } from "../../src/config/schema.ts";
import { decideShell, shellPermissionSettings } from "../../src/permission/shell.ts";
import { Sandbox } from "../../src/sandbox/path.ts";
import { bashRegistry } from "./_bash_registry.ts";
import { READ_ONLY_RULES } from "./_read_only_rules.ts";

const PAYLOAD = "a[$(touch MARK)]";
const SECRET = "SECRET-OUTSIDE";

interface Workspace {
  root: string;
  ws: string;
  /** Every effect a row could have had, as text (empty when nothing happened). */
  effects(output: string): Promise<string[]>;
  reset(): Promise<void>;
  cleanup(): Promise<void>;
}

async function run(cmd: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command(cmd[0], { args: cmd.slice(1), cwd, stdout: "null" }).output();
  if (!out.success) throw new Error(`setup failed: ${cmd.join(" ")}`);
}

const exists = (p: string) => Deno.lstat(p).then(() => true, () => false);

async function workspace(): Promise<Workspace> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_bypass_" }));
  const ws = `${root}/ws`;
  await Deno.mkdir(ws);
  await Deno.mkdir(`${root}/out`);
  await run(["git", "init", "-q"], ws);
  const git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"];
  await Deno.writeTextFile(`${ws}/f.txt`, "hello\nx\n");
  await run([...git, "add", "f.txt"], ws);
  await run([...git, "commit", "-qm", "init"], ws);
  await Deno.writeTextFile(`${ws}/f.txt`, "hello\nx\nchanged\n");
  const gitConfig = await Deno.readTextFile(`${ws}/.git/config`);
  const reset = async () => {
    await Deno.writeTextFile(`${root}/out/secret.txt`, SECRET);
    await Deno.writeTextFile(`${ws}/payload.txt`, PAYLOAD);
    await Deno.writeTextFile(`${ws}/victim.txt`, "keep me");
    await Deno.mkdir(`${ws}/victim`, { recursive: true });
    await Deno.writeTextFile(`${ws}/.git/config`, gitConfig);
    for (
      const p of [
        `${ws}/MARK`,
        `${root}/out/x`,
        `${ws}/.gitattributes`,
        `${ws}/.git/hooks/pre-commit`,
      ]
    ) {
      await Deno.remove(p).catch(() => {});
    }
  };
  await reset();
  return {
    root,
    ws,
    reset,
    async effects(output: string) {
      const found: string[] = [];
      if (await exists(`${ws}/MARK`)) found.push("marker MARK created");
      if (await exists(`${root}/out/x`)) found.push("file outside the workspace written");
      if ((await Deno.readTextFile(`${root}/out/secret.txt`)) !== SECRET) {
        found.push("file outside the workspace changed");
      }
      if (output.includes(SECRET)) found.push("file outside the workspace read");
      if (!(await exists(`${ws}/victim.txt`)) || !(await exists(`${ws}/victim`))) {
        found.push("victim deleted");
      }
      if ((await Deno.readTextFile(`${ws}/.git/config`)) !== gitConfig) {
        found.push(".git/config changed");
      }
      if (await exists(`${ws}/.gitattributes`)) found.push(".gitattributes written");
      if (await exists(`${ws}/.git/hooks/pre-commit`)) found.push("hook written");
      return found;
    },
    cleanup: () => Deno.remove(root, { recursive: true }),
  };
}

function readOnlyConfig(): Config {
  const config = defaultConfig();
  Object.assign(config.tools.permissions, { bash: READ_ONLY_RULES });
  return config;
}

/**
 * Runs every row through the registry; returns the rows that were auto-allowed, had an effect,
 * or were refused without a one-line reason. `expected` "deny" also requires a deny.
 */
async function attack(
  rows: string[],
  options: { config?: Config; expected?: "deny" | "not-allow" } = {},
): Promise<string[]> {
  const config = options.config ?? readOnlyConfig();
  const { policy, registry } = bashRegistry(config);
  const w = await workspace();
  // Non-interactive: an ask is refused with the reason in the text the model reads.
  const session = { cwd: w.ws, sandbox: await Sandbox.create(w.ws) };
  const failures: string[] = [];
  try {
    // Control: the harness sees a command that does run.
    const control = await registry.dispatch(
      { id: "c0", name: "bash", input: { command: "echo ok > MARK" } },
      session,
    );
    expect([control.ok, await w.effects("")]).toEqual([true, ["marker MARK created"]]);
    await w.reset();
    for (const command of rows) {
      const decision = await decideShell(command, policy, shellPermissionSettings(config));
      const result = await registry.dispatch(
        { id: "c1", name: "bash", input: { command } },
        session,
      );
      const effects = await w.effects(result.text);
      await w.reset();
      const problems: string[] = [...effects];
      if (result.ok) problems.push(`ran (${JSON.stringify(result.text.slice(0, 80))})`);
      if (options.expected === "deny" && decision.action !== "deny") {
        problems.push(`expected deny, got ${decision.action}`);
      }
      const pathRefusal = decision.action === "allow" &&
        /outside the allowed paths|cannot be checked|can match/
          .test(result.text);
      if (decision.action === "allow" && !pathRefusal) problems.push("auto-allowed");
      if (decision.action !== "allow") {
        const reason = decision.reason ?? "";
        if (reason === "" || reason.includes("\n")) problems.push(`reason not one line: ${reason}`);
        if (!result.text.includes(reason.slice(0, 40))) {
          problems.push("model does not see the reason");
        }
        const refusal = decision.action === "ask" ? "without confirmation" : "denied by policy";
        if (!result.text.includes(refusal)) problems.push(`not refused as ${decision.action}`);
      }
      if (problems.length > 0) {
        failures.push(
          `${JSON.stringify(command)}: ${decision.action} (${decision.reason}) → ${
            problems.join(", ")
          }`,
        );
      }
    }
  } finally {
    await w.cleanup();
  }
  return failures;
}

Deno.test("bypass class 1: arithmetic contexts that may read data are never auto-allowed", async () => {
  const rows = [
    "x=$(<payload.txt); echo $((x))",
    "x=$(<payload.txt); echo $((x + 1))",
    "x=$(<payload.txt); echo $(( ${#x} + x ))",
    "a=($(<payload.txt)); echo $(( ${#a[x]} ))",
    "x=$(cat payload.txt); [[ $x -eq 0 ]]; echo done",
    'x=$(cat payload.txt); [[ "$x" -gt 1 ]] || echo done',
    "x=$(<payload.txt); (( x )); echo done",
    "x=$(<payload.txt); let y=x; echo done",
    "x=$(<payload.txt); echo $[x]",
    "echo ${a[$(<payload.txt)]}",
    "x=$(<payload.txt); echo ${a[x]}",
    "x=$(<payload.txt); s=abc; echo ${s:x}",
    "x=$(<payload.txt); s=abc; echo ${s:0:x}",
    "read x < payload.txt; echo $((x))",
    "mapfile -t l < payload.txt; echo $(( l[0] ))",
    "x=$(<payload.txt); for ((i=x; i<1; i++)); do echo; done",
    "declare -i n; n=$(<payload.txt); echo $n",
    "x=$(<payload.txt); a[x]=1; echo done",
    "x=$(<payload.txt); read 'b[x]' <<< 1; echo done",
    "x=$(<payload.txt); [[ -v b[x] ]]; echo done",
  ];
  expect(await attack(rows)).toEqual([]);
});

Deno.test("bypass class 2: git config, attributes and hooks are protected; config-running options refused", async () => {
  const rows = [
    `echo '[core] fsmonitor = "touch MARK; false"' >> .git/config; git status`,
    `printf '[diff]\\n external = "sh -c \\\\"touch MARK\\\\""\\n' >> .git/config; git diff`,
    "echo '* diff=x' > .gitattributes; git diff",
    "echo '* diff=x' > ./sub/../.gitattributes; git diff",
    "git log -1 --format='[core] fsmonitor = touch MARK' --output=.git/config; git status",
    "cat f.txt > .git/config",
    "echo x > .git//config",
    "echo x >> .git/info/attributes",
    "echo x > .GIT/config",
    "git status > .git/hooks/pre-commit",
    "bash -c 'git status' > .git/hooks/pre-commit",
    "bash -lc 'cat f.txt > .git/config'",
    "git -c core.fsmonitor='touch MARK; false' status",
    "git --config-env=core.fsmonitor=HOME status",
    "git -c diff.external='touch MARK' diff",
    "git --exec-path=. status",
    "git -C ../out status",
    "git --git-dir=../out/.git log",
    "git diff --ext-diff",
    "git log -p --textconv",
    "find . -name f.txt -fprint .git/config",
    "dd if=f.txt of=.git/config",
    "uniq f.txt .git/config",
    "sort -o .git/config f.txt",
    "tree -o .git/config",
    "sed -n 'w .git/config' f.txt",
  ];
  expect(await attack(rows)).toEqual([]);
  // Without any [tools.permissions] rule (everything else runs), protected paths still ask.
  const legacy = [
    "echo '[core] fsmonitor = \"touch MARK; false\"' >> .git/config; git status",
    "git status > .git/hooks/pre-commit",
    "cp f.txt .gitattributes",
    "uniq f.txt .git/config",
    "sort -o .git/config f.txt",
    "tee -a .git/config < f.txt",
    "mv f.txt .git/hooks/pre-commit",
    "cp f.txt .gi?/hooks/pre-commit",
    "cp f.txt .git/h*/pre-commit",
    "cp f.txt ./.gitattr*",
    "cp f.txt .[g]it/config",
  ];
  expect(await attack(legacy, { config: defaultConfig() })).toEqual([]);
});

Deno.test("bypass class 3: git log/diff/show --output (any spelling) never writes", async () => {
  const rows = [
    "git log --output=MARK",
    "git log --output=../out/x",
    "git diff HEAD --output=MARK",
    "git show --output=MARK",
    "git log --outp=MARK",
    "git log --out=MARK",
    "git diff --output MARK",
    "git log -1 --output=../out/secret.txt",
  ];
  expect(await attack(rows)).toEqual([]);
});

Deno.test("bypass class 4: sed's executing, writing and reading commands", async () => {
  const rows = [
    "sed -n '1e touch MARK' f.txt",
    "sed '/hello/e touch MARK' f.txt",
    "sed '$e touch MARK' f.txt",
    "sed '0~1e touch MARK' f.txt",
    "sed -n '1etouch MARK' f.txt",
    "sed '1!e touch MARK' f.txt",
    "sed -n '1{\ne touch MARK\n}' f.txt",
    "sed 's/hello/touch MARK/e' f.txt",
    "sed 's|hello|touch MARK|e' f.txt",
    "sed 's/x/y/gew MARK' f.txt",
    "sed -n 'w MARK' f.txt",
    "sed -n 'W MARK' f.txt",
    "sed -n 's/x/y/w MARK' f.txt",
    "sed -n '1r ../out/secret.txt' f.txt",
    "echo '1e touch MARK' > s.sed; sed -f s.sed f.txt",
    "sed --expression='1e touch MARK' f.txt",
    "sed --expr='1e touch MARK' f.txt",
    "sed -e p -e '1e touch MARK' f.txt",
    "sed -ne '1e touch MARK' f.txt",
    "sed $'1e touch MARK' f.txt",
    "sed -i 's/keep/lost/' victim.txt; rm -f victim.txt",
    "sed --in-place=.bak 1d victim.txt",
  ];
  expect(await attack(rows)).toEqual([]);
});

Deno.test("bypass class 5: awk writing, piping, running commands or program files", async () => {
  const rows = [
    `awk 'BEGIN { print "x" > "MARK" }'`,
    `awk '{ f = "MA" "RK"; print > f }' f.txt`,
    `awk '{ printf "x" >> "MARK" }' f.txt`,
    `awk 'BEGIN { system("touch MARK") }'`,
    `awk 'BEGIN { print "touch MARK" | "sh" }'`,
    `awk 'BEGIN { "touch MARK" | getline }'`,
    `awk 'BEGIN { while ((getline l < "../out/secret.txt") > 0) print l }'`,
    `echo 'BEGIN { system("touch MARK") }' > p.awk; awk -f p.awk`,
    `echo 'BEGIN { system("touch MARK") }' > p.awk; awk --file=p.awk`,
    `awk -e 'BEGIN { system("touch MARK") }'`,
    `awk -vx=1 'BEGIN { system("touch MARK") }'`,
    `awk 'BEGIN { cmd = "touch MARK"; cmd | getline; close(cmd) }'`,
  ];
  expect(await attack(rows)).toEqual([]);
});

Deno.test("bypass class 6: brace words are expanded and option-carried patterns hide no operand", async () => {
  const rows = [
    "cat {..,.}/out/secret.txt",
    "cat {.,..}/out/secret.txt",
    "cat ..{/out,}/secret.txt",
    "echo x > {../out/x,}",
    "head -n1 .{.,}/out/secret.txt",
    "cat .*/out/secret.txt",
    "cat .?/out/secret.txt",
    "cat ./.[.]/out/secret.txt",
    "sed --expression=p ../out/secret.txt",
    "sed -e p ../out/secret.txt",
    "sed -ne p ../out/secret.txt",
    "grep --regexp=S ../out/secret.txt",
    "grep --regexp S ../out/secret.txt",
    "grep --reg=S ../out/secret.txt",
    "grep -eS ../out/secret.txt",
    "grep -ie S ../out/secret.txt",
    "grep -f f.txt ../out/secret.txt",
    "echo S > p; grep -fp ../out/secret.txt",
    "grep -f ../out/secret.txt f.txt",
    "rg --regexp=S ../out/secret.txt",
    "rg -e S ../out/secret.txt",
    "awk -e 1 ../out/secret.txt",
    "awk --source=1 ../out/secret.txt",
    "awk -v x=1 1 ../out/secret.txt",
  ];
  expect(await attack(rows)).toEqual([]);
});

Deno.test("bypass class 7: the blocklist sees through wrappers, coproc, xargs and braces", async () => {
  // The legacy configuration (no [tools.permissions]): everything runs unless blocked.
  const config = defaultConfig();
  config.tools.shell.blocked_commands = ["touch"];
  const deny = [
    "setpriv touch MARK",
    "setpriv --no-new-privs touch MARK",
    "prlimit --nofile=64 touch MARK",
    "sg $(id -gn) -c 'touch MARK'",
    "sg $(id -gn) touch MARK",
    "runuser -u $(id -un) -- touch MARK",
    "su -c 'touch MARK'",
    "doas -u root touch MARK",
    "nsenter --preserve-credentials touch MARK",
    "flock /tmp/zeph_bypass_lock touch MARK",
    "flock -c 'touch MARK' /tmp/zeph_bypass_lock",
    "coproc touch MARK",
    "coproc W { touch MARK; }",
    "echo MARK | xargs touch",
    "echo MARK | xargs -I{} touch {}",
    "{touch,MARK}",
    "t{ouch,} MARK 2>/dev/null; {to,}uch MARK",
    "dd i{f,f}=/dev/zero of=MARK count=1",
    "ionice -c 3 touch MARK",
    "chrt -o 0 touch MARK",
    "taskset 1 touch MARK",
    "stdbuf -o0 touch MARK",
    "timeout 5 touch MARK",
    "nice -n 1 touch MARK",
    "nohup touch MARK",
    "unshare touch MARK",
  ];
  expect(await attack(deny, { config, expected: "deny" })).toEqual([]);
  const notAllowed = [
    "setpriv --not-an-option x touch MARK",
    "echo if=/dev/zero | xargs dd of=MARK count=1",
    "firejail touch MARK",
  ];
  expect(await attack(notAllowed, { config })).toEqual([]);
});

Deno.test("bypass class 8: every spelling of rm's flags meets the `rm -rf*` deny rule", async () => {
  const rows = [
    "rm -rf victim victim.txt",
    "rm -fr victim victim.txt",
    "rm -r -f victim victim.txt",
    "rm -f -r victim victim.txt",
    "rm -R -f victim victim.txt",
    "rm -Rf victim victim.txt",
    "rm --recursive --force victim victim.txt",
    "rm --force --recursive victim victim.txt",
    "rm --recur --forc victim victim.txt",
    "rm -rvf victim victim.txt",
    "rm -r --force victim victim.txt",
    "bash -c 'rm -fr victim victim.txt'",
  ];
  expect(await attack(rows, { expected: "deny" })).toEqual([]);
});
