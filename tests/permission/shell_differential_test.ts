/**
 * The analyser against real bash: every program bash actually starts must be among the simple
 * commands `analyzeShell` extracted, unless the analysis reports the command as not static (then
 * the decision asks anyway). Programs are logging stubs on PATH, so nothing real runs.
 */
import { expect } from "expect";
import { analyzeShell } from "../../src/permission/shell.ts";

const STUBS = ["qa", "qb", "qc", "qd", "qe", "qf", "qg", "qh", "qi", "qj", "qk", "ql", "qm"];

const COMMANDS = [
  "qa; qb && qc || qd | qe & wait",
  "(qa); { qb; }; ! qc",
  "if qa; then qb; elif qc; then :; else qd; fi",
  "for i in 1; do qa; done; while qb; false; do :; done; until qc || true; do :; done",
  "case x in x) qa;; y) qb;; esac",
  "f(){ qa; }; f; function g { qb; }; g",
  "echo $(qa) `qb` $(( $(qc) + 0 )) ${unset:-$(qd)} > /dev/null",
  "cat <(qa) > /dev/null; echo x > >(qb); wait",
  "cat <<EOF > /dev/null\n$(qa)\nEOF",
  "cat <<'EOF'\n$(qb)\nEOF",
  "x=$(qa) qb; y=`qc`",
  "bash -c 'qa; sh -c \"qb\"'",
  "bash <<< 'qa'",
  "eval 'qa; qb'",
  "env -i PATH=$PATH qa; nice -n 5 qb; timeout 5 qc; nohup qd > /dev/null 2>&1; stdbuf -o0 qe",
  "command qa; time qb; setsid -w qc",
  "echo 1 | xargs qa; echo 2 | xargs -I{} qb {}",
  "find . -maxdepth 0 -exec qa {} \\; -execdir qb \\;",
  "s\\qa 2>/dev/null; q\\a; 'q'b; \"q\"c; $'\\x71d'; $'\\161e'",
  "trap 'qa' EXIT; qb",
  "echo qa | bash",
  "c=qa; $c",
  "$(echo qb)",
  "echo 'qc' > s.sh; . ./s.sh; source ./s.sh",
  "{ bash; } <<< 'qd'",
  "qa | qb | qc",
  "qa &>/dev/null && qb 2>&1 | qc",
  "coproc qa; wait",
  "[[ $(qa) == x ]] || (( $(qb) + 1 ))",
  "declare -a arr=($(qa)); export V=$(qb); local_x=1 qc",
];

Deno.test("analyzeShell covers every program real bash starts (logging stubs)", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_shelldiff_" }));
  const bin = `${dir}/bin`;
  const log = `${dir}/log`;
  await Deno.mkdir(bin);
  for (const name of STUBS) {
    await Deno.writeTextFile(`${bin}/${name}`, `#!/bin/sh\necho "${name}" >> "$LOG"\n`, {
      mode: 0o755,
    });
  }
  const path = `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`;
  const problems: string[] = [];
  /** Commands whose hidden programs are covered only by the fail-closed "not static" answer. */
  const exempt: string[] = [];
  let sawAny = 0;
  try {
    for (const command of COMMANDS) {
      await Deno.writeTextFile(log, "");
      const out = await new Deno.Command("bash", {
        args: ["-c", command],
        cwd: dir,
        env: { PATH: path, LOG: log, HOME: dir },
        clearEnv: true,
        stdout: "null",
        stderr: "null",
        stdin: "null",
      }).output();
      void out;
      const ran = new Set((await Deno.readTextFile(log)).split("\n").filter(Boolean));
      sawAny += ran.size;
      const analysis = await analyzeShell(command);
      const extracted = new Set(analysis.commands.map((c) => c.program));
      const missed = [...ran].filter((p) => !extracted.has(p));
      if (missed.length > 0 && analysis.dynamic.length === 0) {
        problems.push(`${JSON.stringify(command)}: bash ran ${missed.join(", ")} unseen`);
      } else if (missed.length > 0) exempt.push(command);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  expect(problems).toEqual([]);
  expect(exempt).toEqual([
    "echo qa | bash",
    "c=qa; $c",
    "$(echo qb)",
    "echo 'qc' > s.sh; . ./s.sh; source ./s.sh",
  ]);
  // The harness works: the stubs did run (a broken PATH would make the test vacuous).
  expect(sawAny).toBeGreaterThan(60);
});
