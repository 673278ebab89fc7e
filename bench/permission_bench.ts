/**
 * Shell permission analysis cost: `decideShell` (parse with mvdan/sh, extract every simple
 * command, evaluate the rules) for typical commands, a 200-char compound command (target
 * ≤ 1 ms p50) and a 10,000-char command; plus the first call of a fresh process (parser import
 * and initialisation) measured in child processes; and the command shapes of issue 16 (six peers'
 * test suites: arithmetic, git config/output, sed/awk, braces, option-carried patterns, wrappers,
 * flag spellings, `bash -lc`), pooled, p50/p99 (target ≤ 1 ms each).
 * Run: `deno task bench:permission`.
 */
import * as path from "node:path";
import process from "node:process";
import { defaultConfig } from "../src/config/schema.ts";
import { PermissionPolicy } from "../src/permission/policy.ts";
import { analyzeShell, decideShell, shellPermissionSettings } from "../src/permission/shell.ts";
import { percentile } from "./_stats.ts";

const TARGET_MS = 1;
const FIRST_CALL_RUNS = 5;

const config = defaultConfig();
Object.assign(config.tools.permissions, {
  bash: [
    { pattern: "sudo*", action: "deny" },
    { pattern: "ls*", action: "allow" },
    { pattern: "git status*", action: "allow" },
    { pattern: "cargo *", action: "allow" },
    { pattern: "grep *", action: "allow" },
    { pattern: "wc *", action: "allow" },
    { pattern: "cd *", action: "allow" },
    { pattern: "npm *", action: "allow" },
    { pattern: "*", action: "ask" },
  ],
});
const policy = PermissionPolicy.fromConfig(config);
const settings = shellPermissionSettings(config);

const COMPOUND_200 =
  'cd src && FOO=1 cargo test --workspace -- --nocapture 2>&1 | grep -v "^running" | tail -n 40; ' +
  'if [ -f Cargo.lock ]; then git status --short | wc -l; else echo "no lock file yet: $(date +%s)"; fi' +
  " && ls";

function longCommand(chars: number): string {
  // ~10,000 chars of realistic compound text: many short pipelines joined by &&.
  const unit = 'grep -rn "TODO" src/module_name | wc -l && ';
  let s = "";
  while (s.length + unit.length < chars - 10) s += unit;
  return `${s}ls -la`.padEnd(chars, " ");
}

const CASES: [string, string][] = [
  ["ls -la", "ls -la"],
  ["git status --short", "git status --short"],
  ["cargo test piped to tail", "cargo test --workspace 2>&1 | tail -n 20"],
  ["npm run build && npm test", "npm run build && npm test"],
  ['bash -c "…" (nested)', "bash -c 'cd src && ls -la | wc -l'"],
  [`compound (${COMPOUND_200.length} chars)`, COMPOUND_200],
  ["10,000-char echo (one command)", `echo ${"a".repeat(9_995)}`],
  ["10,000-char compound (refused past 200)", longCommand(10_000)],
];

/** One command per bypass class and false denial of issue 16, as the peers' suites wrote them. */
const PEER_SHAPES = [
  "x=$(<payload.txt); echo $((x))",
  "x=$(cat payload.txt); [[ $x -eq 0 ]]; echo done",
  "echo ${a[$(<f)]}",
  "echo '[core] fsmonitor = x' >> .git/config; git status",
  "git log -1 --output=.git/config; git status",
  "git status > .git/hooks/pre-commit",
  "git -c core.fsmonitor=x status",
  "sed -n '1e touch p' f.txt",
  "sed 's/x/y/w out' f.txt",
  "sed --expression=p ../out/s",
  `awk '{ print > "f" }' f.txt`,
  `awk 'BEGIN { system("id") }'`,
  "cat {..,.}/out/secret.txt",
  "echo x > {../out/x,}",
  "grep --regexp=x ../out/s",
  "setpriv --no-new-privs touch p",
  "runuser -u u -- touch p",
  "echo p | xargs touch",
  "dd i{f,f}=/dev/zero of=p",
  "rm --recursive --force victim",
  "bash -lc 'ls -la && git status --short'",
  "echo /usr/local/bin",
  "git -C . branch",
  "find . -name '*.ts' -exec grep -l TODO {} +",
];

async function firstCallChild(): Promise<void> {
  const t0 = performance.now();
  await analyzeShell("ls -la && git status");
  const t1 = performance.now();
  await analyzeShell("ls -la && git status");
  const t2 = performance.now();
  console.log(JSON.stringify({ first: t1 - t0, second: t2 - t1 }));
}

async function firstCalls(): Promise<{ first: number; second: number }[]> {
  const deno = path.join(import.meta.dirname!, "..", "node_modules", "deno", "deno");
  const runs: { first: number; second: number }[] = [];
  for (let i = 0; i < FIRST_CALL_RUNS; i++) {
    const out = await new Deno.Command(deno, {
      args: ["run", "-A", import.meta.filename!, "--first-call"],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!out.success) throw new Error("first-call child failed");
    runs.push(JSON.parse(new TextDecoder().decode(out.stdout).trim()));
  }
  return runs;
}

async function main(): Promise<void> {
  const first = await firstCalls();
  const firsts = first.map((r) => r.first).sort((a, b) => a - b);
  console.log(
    `first call in a fresh process (import + parser init + parse), ${FIRST_CALL_RUNS} runs: ` +
      `median ${percentile(firsts, 0.5).toFixed(1)} ms, ` +
      `min ${firsts[0].toFixed(1)} ms, max ${firsts.at(-1)!.toFixed(1)} ms; ` +
      `second call median ${
        percentile(first.map((r) => r.second).sort((a, b) => a - b), 0.5).toFixed(2)
      } ms\n`,
  );

  console.log("| command | chars | simple cmds | decision | p50 ms | p95 ms | max ms |");
  console.log("|---|---:|---:|---|---:|---:|---:|");
  let compoundP50 = Infinity;
  for (const [label, command] of CASES) {
    const iterations = command.length > 1000 ? 100 : 2000;
    for (let i = 0; i < Math.min(iterations, 300); i++) {
      await decideShell(command, policy, settings); // warm-up (JIT)
    }
    const times: number[] = [];
    let action = "";
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now();
      const d = await decideShell(command, policy, settings);
      times.push(performance.now() - t0);
      action = d.action;
    }
    times.sort((a, b) => a - b);
    const simple = (await analyzeShell(command)).commands.length;
    const p50 = percentile(times, 0.5);
    if (label.startsWith("compound")) compoundP50 = p50;
    console.log(
      `| ${label} | ${command.length} | ${simple} | ${action} | ${p50.toFixed(3)} | ` +
        `${percentile(times, 0.95).toFixed(3)} | ${times.at(-1)!.toFixed(3)} |`,
    );
  }
  // Issue 16's shapes, each warmed up, then interleaved rounds so load spikes hit all alike.
  for (const command of PEER_SHAPES) {
    for (let i = 0; i < 200; i++) await decideShell(command, policy, settings);
  }
  // Wall time, and the process's CPU time (getrusage), which other processes on a loaded shared
  // machine do not inflate: descheduling shows in wall time only.
  const pooled: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < 300; round++) {
    for (const command of PEER_SHAPES) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await decideShell(command, policy, settings);
      pooled.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
  }
  pooled.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const peerP99 = percentile(cpu, 0.99);
  console.log(
    `\nissue 16 peer shapes (${PEER_SHAPES.length} commands × 300 rounds): ` +
      `wall p50 ${percentile(pooled, 0.5).toFixed(3)} ms, p99 ${
        percentile(pooled, 0.99).toFixed(3)
      } ms; CPU p50 ${percentile(cpu, 0.5).toFixed(3)} ms, p99 ${peerP99.toFixed(3)} ms ` +
      `(target ≤ ${TARGET_MS} ms: ${peerP99 <= TARGET_MS ? "met" : "MISSED"}); load ${
        Deno.loadavg()[0].toFixed(1)
      }`,
  );
  const verdict = compoundP50 <= TARGET_MS ? "meets" : "MISSES";
  console.log(
    `\n200-char compound p50 ${compoundP50.toFixed(3)} ms ${verdict} the ≤ ${TARGET_MS} ms target`,
  );
}

if (Deno.args.includes("--first-call")) await firstCallChild();
else await main();
