import { expect } from "expect";
import { compileExtraPatterns, FilterEngine, SecurityScanner } from "../../src/filter/mod.ts";

// Assembled at run time so the repository holds no credential-shaped literal.
const fake = (prefix: string, body: string) => prefix + body;
const CREDENTIALS: [string, string][] = [
  ["AWS access key ID", `key=${fake("AKIA", "ABCDEFGHIJKLMNOP")}`],
  ["GitHub token", `token ${fake("ghp_", "a".repeat(36))}`],
  ["GitHub fine-grained token", fake("github_pat_", "11ABCDEFG0" + "x".repeat(30))],
  ["GitLab token", fake("glpat-", "abcdefghij0123456789")],
  ["Slack token", fake("xoxb-", "1234567890-abcdefghij")],
  ["Anthropic API key", fake("sk-ant-", "api03-" + "b".repeat(40))],
  ["OpenAI API key", fake("sk-proj-", "c".repeat(40))],
  ["Google API key", fake("AIza", "S".repeat(35))],
  ["Stripe key", fake("sk_live_", "d".repeat(24))],
  ["npm token", fake("npm_", "e".repeat(36))],
  ["Hugging Face token", fake("hf_", "f".repeat(34))],
  ["private key", "-----BEGIN RSA PRIVATE KEY-----"],
  ["JWT", `${fake("eyJ", "hbGciOiJIUzI1NiJ9")}.${fake("eyJ", "zdWIiOiIxMjM0In0")}.sig_nature_123`],
  ["password in URL", "postgres://admin:" + "hunter2" + "@db.internal:5432/app"],
];

Deno.test("every credential kind is named in the warning, never its value", () => {
  const engine = new FilterEngine([]);
  for (const [kind, line] of CREDENTIALS) {
    const out = engine.filter("cat env", `before\n${line}\nafter`);
    const warning = out.text.split("\n").at(-1)!;
    expect([kind, warning]).toEqual([
      kind,
      `[security] The output contains credential-shaped strings (${kind}). They were not removed: do not repeat, store or send them anywhere.`,
    ]);
    // The value itself appears only where the command printed it, not in the warning.
    expect(warning.includes(line)).toBe(false);
  }
});

Deno.test("an Anthropic key is not also reported as an OpenAI key; counts add up", () => {
  const scanner = new SecurityScanner();
  scanner.scan(`${fake("sk-ant-", "x".repeat(30))}\n${fake("sk-ant-", "y".repeat(30))}`);
  expect([...scanner.found]).toEqual([["Anthropic API key", 2]]);
});

Deno.test("ordinary output raises no credential warning", () => {
  const engine = new FilterEngine([]);
  const text = "skip-lint\ndesk-top\nhttps://example.com/path\nuser@example.com\nghost_town";
  expect(engine.filter("ls", text).text).toBe(text);
});

Deno.test("extra_patterns extend the scan; invalid ones are skipped with a warning", () => {
  const { patterns, warnings } = compileExtraPatterns(["ACME-[0-9]{6}", "(a)\\1"]);
  expect(patterns.length).toBe(1);
  expect(warnings).toEqual([
    "[tools.filters.security] extra_patterns[1] skipped: invalid RE2 regex: error parsing regexp: invalid escape sequence: `\\1`. Fix or remove the pattern.",
  ]);
  const engine = new FilterEngine([], { extraPatterns: patterns });
  expect(engine.filter("x", "id ACME-123456").text).toContain("(extra pattern #1)");
});

Deno.test("security signals removed by a filter are appended, kept ones are not repeated", () => {
  const rule = {
    name: "t",
    source: "test",
    matches: () => true,
    strategy: {
      type: "keep_matching",
      createStage: (ctx: { emit(l: string): void }) => ({
        push: (line: string) => line.startsWith("keep") && ctx.emit(line),
        finish: () => "full" as const,
      }),
    },
  };
  const engine = new FilterEngine([rule]);
  const out = engine.filter(
    "cmd",
    "keep 1\nthread 'main' panicked at src/main.rs:3:5\nnoise\nkeep: Permission denied\nRUSTSEC-2024-0001 advisory",
  );
  expect(out.text).toBe(
    "keep 1\nkeep: Permission denied\n--- Security-relevant lines (preserved) ---\nthread 'main' panicked at src/main.rs:3:5\nRUSTSEC-2024-0001 advisory",
  );
});

Deno.test("the security pass can be switched off", () => {
  const engine = new FilterEngine([], { security: false });
  const line = `key=${fake("AKIA", "ABCDEFGHIJKLMNOP")}`;
  expect(engine.filter("cat", line).text).toBe(line);
});
