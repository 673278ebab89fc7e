// Unit tests of chat_cmd.ts helpers (the end-to-end chat runs are in chat_test.ts).
import { expect } from "expect";
import * as path from "node:path";
import { HELP, saveHistory } from "../../src/cli/chat_cmd.ts";
import { displayWidth } from "../../src/cli/line_width.ts";
import { withWorkspace, zeph } from "./_run.ts";

Deno.test({
  name: "the prompt history file is the owner's only, and an older 0644 file is tightened",
  ignore: Deno.build.os === "windows",
  fn() {
    const dir = Deno.makeTempDirSync({ prefix: "zeph-history-" });
    try {
      const fresh = path.join(dir, "zeph", "history");
      saveHistory(fresh, "my token is s3cret");
      expect(Deno.statSync(fresh).mode! & 0o777).toBe(0o600);
      expect(Deno.readTextFileSync(fresh)).toBe("my token is s3cret\n");

      const old = path.join(dir, "old_history");
      Deno.writeTextFileSync(old, "earlier\n", { mode: 0o644 });
      Deno.chmodSync(old, 0o644);
      saveHistory(old, "next");
      expect(Deno.statSync(old).mode! & 0o777).toBe(0o600);
      expect(Deno.readTextFileSync(old)).toBe("earlier\nnext\n");
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});

Deno.test("a provider error is one message in sentences, with the URL's password masked and no Ollama advice for another provider", async () => {
  await withWorkspace(async (ws, home) => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = listener.addr.port;
    listener.close(); // nothing listens there now
    const config = path.join(home, "config.toml");
    await Deno.writeTextFile(
      config,
      `[llm]\nprovider = "openai"\n[llm.openai]\nbase_url = "http://me:hunter2@127.0.0.1:${port}/v1"\n` +
        `[tools.retry]\nmax_attempts = 0\n`,
    );
    const r = await zeph(["-p", "hi", "--config", config], {
      cwd: ws,
      home,
      env: { OPENAI_API_KEY: "sk-test" },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("hunter2");
    expect(r.stderr.split("\n")[0]).toBe(
      `[provider_error] openai (gpt-4.1): Cannot reach OpenAI at http://me:[REDACTED]@127.0.0.1:${port}/v1: ` +
        "connection refused. Check that the server at [llm.openai] base_url is running, or fix the URL in config.toml.",
    );
    expect(r.stderr).not.toContain("Ollama");
    const check = await zeph(["config", "check", "--config", config], { cwd: ws, home });
    expect(check.stdout).toContain(`base_url = "http://me:[REDACTED]@127.0.0.1:${port}/v1"`);
    expect(check.stdout + check.stderr).not.toContain("hunter2");
  });
});

Deno.test("a scripted network error is reported once, without advice to install Ollama", async () => {
  await withWorkspace(async (ws, home) => {
    const script = path.join(home, "s.jsonl");
    await Deno.writeTextFile(script, '{"error":{"status":0,"message":"connection refused"}}\n');
    const r = await zeph(["-p", "hi", "--script", script], { cwd: ws, home });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("Ollama");
    expect(r.stderr.match(/connection refused/g)).toEqual(["connection refused"]);
  });
});

Deno.test("/help fits an 80-column terminal and keeps its columns aligned", () => {
  const lines = HELP.split("\n").filter((l) => l !== "");
  expect(lines.filter((l) => displayWidth(l) > 80)).toEqual([]);
  const commands = lines.filter((l) => l.startsWith("/"));
  expect(new Set(commands.map((l) => /^\/\S+(?: \S+)?\s+/.exec(l)![0].length))).toEqual(
    new Set([18]),
  );
});
