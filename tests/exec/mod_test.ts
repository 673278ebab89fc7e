import { expect } from "expect";
import {
  filteredEnv,
  killAllProcessGroups,
  LocalProcessRunner,
  processGroupMembers,
  type StreamName,
} from "../../src/exec/mod.ts";

const runner = new LocalProcessRunner();

Deno.test("stdout and stderr are captured separately and interleaved in arrival order", async () => {
  const result = await runner.run("bash", [
    "-c",
    "echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2; sleep 0.1; printf 'err2' >&2",
  ]);
  expect(result.stdout).toEqual({ text: "out1\nout2\n", totalBytes: 10, droppedBytes: 0 });
  expect(result.stderr).toEqual({ text: "err1\nerr2", totalBytes: 9, droppedBytes: 0 });
  expect(result.combined.text).toBe("out1\n[stderr] err1\nout2\n[stderr] err2\n");
  expect(result.exitCode).toBe(0);
  expect([result.timedOut, result.aborted, result.backgroundKilled]).toEqual([false, false, false]);
});

Deno.test("the interleaved view decodes invalid UTF-8 as U+FFFD and ends its last line", async () => {
  const result = await runner.run("bash", [
    "-c",
    "printf 'caf\\303\\251 \\342\\200\\230q\\342\\200\\231\\n'; printf 'bad \\377\\n' >&2; printf 'end'",
  ]);
  // An unterminated last line gets its newline in the interleaved view.
  expect(result.combined.text).toBe("café ‘q’\n[stderr] bad \uFFFD\nend\n");
});

Deno.test("exit code is reported; a signal death gives a null exit code", async () => {
  const failed = await runner.run("bash", ["-c", "exit 3"]);
  expect([failed.exitCode, failed.signal]).toEqual([3, null]);
  const killed = await runner.run("bash", ["-c", "kill -KILL $$"]);
  expect([killed.exitCode, killed.signal]).toEqual([null, "SIGKILL"]);
});

Deno.test("timeout kills the whole process group: no orphan survives", async () => {
  const result = await runner.run("bash", ["-c", "sleep 100 & sleep 100"], { timeoutMs: 1000 });
  expect(result.timedOut).toBe(true);
  expect(result.exitCode).toBe(null);
  expect(processGroupMembers(result.pid)).toEqual([]);
});

Deno.test("abort kills the whole process group: no orphan survives", async () => {
  const controller = new AbortController();
  const dir = await Deno.makeTempDir();
  const marker = `${dir}/started`;
  const running = runner.run(
    "bash",
    ["-c", `sleep 100 & touch ${marker}; sleep 100`],
    { signal: controller.signal, timeoutMs: 60_000 },
  );
  while (!(await exists(marker))) await new Promise((r) => setTimeout(r, 20));
  controller.abort();
  const result = await running;
  expect([result.aborted, result.timedOut, result.exitCode]).toEqual([true, false, null]);
  expect(processGroupMembers(result.pid)).toEqual([]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("an already aborted signal kills the process at once", async () => {
  const controller = new AbortController();
  controller.abort();
  const result = await runner.run("bash", ["-c", "sleep 100"], { signal: controller.signal });
  expect([result.aborted, result.exitCode]).toEqual([true, null]);
  expect(processGroupMembers(result.pid)).toEqual([]);
});

Deno.test("chunks stream to the callback before the process exits", async () => {
  // The command only finishes once the callback has seen its first line: without streaming
  // it would hang until the timeout.
  const dir = await Deno.makeTempDir();
  const go = `${dir}/go`;
  const seen: [StreamName, string][] = [];
  const result = await runner.run(
    "bash",
    ["-c", `echo ready; echo warn >&2; while [ ! -f ${go} ]; do sleep 0.02; done; echo done`],
    {
      timeoutMs: 20_000,
      onChunk: (stream, text) => {
        seen.push([stream, text]);
        if (text.includes("ready")) Deno.writeTextFileSync(go, "");
      },
    },
  );
  expect(result.timedOut).toBe(false);
  expect(result.stdout.text).toBe("ready\ndone\n");
  expect(seen.filter(([s]) => s === "stdout").map(([, t]) => t).join("")).toBe("ready\ndone\n");
  expect(seen.filter(([s]) => s === "stderr").map(([, t]) => t).join("")).toBe("warn\n");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("50 MB of output is kept as head and tail with the dropped bytes counted", async () => {
  const limit = 64 * 1024;
  const total = 50_000_000;
  const result = await runner.run(
    "bash",
    ["-c", `head -c ${total} /dev/zero | tr '\\0' 'a'; echo; echo END`],
    { maxOutputBytes: limit },
  );
  const expectedTotal = total + "\nEND\n".length;
  expect(result.stdout.totalBytes).toBe(expectedTotal);
  expect(result.stdout.droppedBytes).toBe(expectedTotal - 2 * limit);
  const marker = `\n[... ${expectedTotal - 2 * limit} bytes of output dropped ` +
    `(kept the first and last 64 KiB) ...]\n`;
  expect(result.stdout.text).toBe(
    "a".repeat(limit) + marker + "a".repeat(limit - 5) + "\nEND\n",
  );
  expect(result.combined.totalBytes).toBe(expectedTotal);
  expect(result.combined.text.endsWith("\nEND\n")).toBe(true);
  expect(result.combined.text.length).toBe(result.stdout.text.length);
});

Deno.test("a background process holding the pipe is killed after the drain period", async () => {
  const result = await runner.run("bash", ["-c", "echo hi; sleep 100 &"], { drainMs: 200 });
  expect([result.exitCode, result.backgroundKilled, result.stdout.text]).toEqual([0, true, "hi\n"]);
  expect(processGroupMembers(result.pid)).toEqual([]);
});

Deno.test("a background process with redirected output outlives the call until killAllProcessGroups", async () => {
  const result = await runner.run("bash", ["-c", "sleep 100 > /dev/null 2>&1 &"]);
  expect([result.exitCode, result.backgroundKilled]).toEqual([0, false]);
  expect(processGroupMembers(result.pid).length).toBe(1);
  expect(killAllProcessGroups()).toBeGreaterThanOrEqual(1);
  await waitFor(() => processGroupMembers(result.pid).length === 0);
  expect(processGroupMembers(result.pid)).toEqual([]);
});

Deno.test("a missing program rejects with NotFound", async () => {
  await expect(runner.run("zeph-no-such-program-xyz", [])).rejects.toBeInstanceOf(
    Deno.errors.NotFound,
  );
});

Deno.test("the child gets exactly the environment it is given", async () => {
  const result = await runner.run("bash", ["-c", "env | sort"], { env: { A: "1", B: "two" } });
  const names = result.stdout.text.split("\n").filter(Boolean).map((l) => l.split("=")[0]);
  // bash adds PWD, SHLVL and _ itself.
  expect(names.filter((n) => !["PWD", "SHLVL", "_"].includes(n))).toEqual(["A", "B"]);
});

Deno.test("filteredEnv drops names starting with a blocklisted prefix", () => {
  expect(
    filteredEnv(["ZEPH_", "AWS_"], {
      PATH: "/bin",
      ZEPH_SECRET: "s",
      AWS_X: "x",
      MY_AWS_X: "kept",
      zeph_lower: "kept",
    }),
  ).toEqual({ PATH: "/bin", MY_AWS_X: "kept", zeph_lower: "kept" });
});

async function exists(p: string): Promise<boolean> {
  try {
    await Deno.stat(p);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}
