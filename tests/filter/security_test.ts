import { expect } from "expect";
import { compileExtraPatterns, FilterEngine, SecurityScanner } from "../../src/filter/mod.ts";
import { NOT_SECRETS, SECRET_EXAMPLES } from "../secrets/_examples.ts";

const fake = (prefix: string, body: string) => prefix + body;
const CREDENTIALS = SECRET_EXAMPLES.map(([kind, line]) => [kind, line]);

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

Deno.test("every credential kind is found beside the others, overlapping hints included, on any line", () => {
  // One scan finds which hints occur: a hint inside another's match ("sk-" in "sk-ant-") and
  // the same hint on many lines must all count.
  const text = [
    ...CREDENTIALS.map(([, line]) => `noise ${line} noise`),
    fake("sk-ant-", "z".repeat(30)),
    fake("sk-", "proj" + "Q".repeat(40)),
  ].join("\n");
  const alone = new Map<string, number>();
  for (const [, line] of CREDENTIALS) {
    const one = new SecurityScanner();
    one.scan(`noise ${line} noise`);
    for (const [kind, n] of one.found) alone.set(kind, (alone.get(kind) ?? 0) + n);
  }
  const both = new SecurityScanner();
  both.scan(fake("sk-ant-", "z".repeat(30)) + "\n" + fake("sk-", "proj" + "Q".repeat(40)));
  for (const [kind, n] of both.found) alone.set(kind, (alone.get(kind) ?? 0) + n);
  const scanner = new SecurityScanner();
  scanner.scan(text);
  expect(new Map(scanner.found)).toEqual(alone);
  expect(both.found.get("Anthropic API key")).toBe(1);
  expect(both.found.get("OpenAI API key")).toBe(1);
});

Deno.test("forbidden: HTTP 403 and RBAC wordings are signals, a lint rule's name is not", () => {
  const lines = [
    'Error from server (Forbidden): pods is forbidden: User "x" cannot list',
    "Forbidden",
    "Error: Forbidden",
    "HTTP 403 Forbidden",
    "Forbidden (403)",
    "Forbidden non-null assertion.",
    "  Forbidden",
    "error: forbidden by policy",
  ];
  const scanner = new SecurityScanner();
  scanner.scan(lines.join("\n"));
  expect(scanner.signalLines).toEqual(lines.slice(0, 5));
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
    "[tools.filters.security] extra_patterns[1] skipped: invalid RE2 regex: error parsing regexp: invalid escape sequence: `\\1`; RE2 has no backreferences (`\\1`): match the repeated text with its own pattern. Fix or remove the pattern.",
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

/** Every signal alternative in each case form, with neighbours that are and are not signals. */
const SIGNALS = [
  "thread 'x' panicked at src/a.rs:1:2",
  "panic: runtime error",
  "  panic: not at line start",
  "Segmentation fault (core dumped)",
  "segmentation fault",
  "SIGSEGV: segmentation violation",
  "Core dumped",
  "Stack overflow",
  "stack overflow in thread",
  "Authentication failed for 'x'",
  "remote: AUTHENTICATION FAILED",
  "401 Unauthorized",
  "UNAUTHORIZED",
  "Permission denied (publickey)",
  "PERMISSION DENIED",
  "Access denied for user",
  "ACCESS DENIED",
  "403 Forbidden",
  "FORBIDDEN",
  "Invalid credentials",
  "RUSTSEC-2024-0001 yanked",
  "RUSTSEC-20x4-0001 not one",
  "GHSA-abcd-efgh-ijkl",
  "CVE-2024-12345",
  "Security advisory",
  "found 3 vulnerabilities",
  "found 0 vulnerabilities",
  "VULNERABILITY",
  "Weak cipher suite",
  "Insecure hash md5",
  "certificate verify failed",
  "SQL injection",
  "[stderr] \x1b[31mPermission denied\x1b[0m",
  "progress 10%\rpanic: after a carriage return",
];

Deno.test('every signal line is kept or preserved; "found 0 vulnerabilities" and near misses are not signals', () => {
  const scanner = new SecurityScanner();
  scanner.scan(SIGNALS.join("\n"));
  const not = [
    "  panic: not at line start",
    "RUSTSEC-20x4-0001 not one",
    "found 0 vulnerabilities",
  ];
  expect(scanner.signalLines).toEqual(
    SIGNALS.filter((line) => !not.includes(line)).slice(0, 20).map((line) =>
      line === "[stderr] \x1b[31mPermission denied\x1b[0m"
        ? "Permission denied"
        : line === "progress 10%\rpanic: after a carriage return"
        ? "panic: after a carriage return"
        : line
    ),
  );
  expect(scanner.signalCount).toBe(SIGNALS.length - not.length);
});

Deno.test("a crash or an advisory quoted in a JSON listing's prose (title, body, description) is not a signal; elsewhere in the line it is", () => {
  const scanner = new SecurityScanner();
  const prose = [
    `    "description": "Running \`rtk read x\` panics with:\\n\`\`\`\\nthread 'main' panicked at 'unwrap'\\n\`\`\`"`,
    `{"number":7,"title":"Segmentation fault in \\"parser\\"","body":"Permission denied (publickey) when CVE-2024-12345 \\\\"}`,
    `  "messageBody": "fix: stack overflow on deep input",`,
  ];
  const events = [
    `{"Action":"output","Output":"thread 'main' panicked at src/lib.rs:3:5:\\n"}`,
    `{"title":"ok","state":"open","advisory":"GHSA-abcd-efgh-ijkl"}`,
    `  "description": "unterminated value, Permission denied`,
  ];
  scanner.scan([...prose, ...events].join("\n"));
  expect(scanner.signalLines).toEqual(events);
  // Through the engine: the listing gets no preserved-lines appendix.
  const engine = new FilterEngine([]);
  expect(engine.filter("glab issue list -F json", prose.join("\n")).text).not.toContain(
    "Security-relevant",
  );
});

Deno.test("a JSON prose value of millions of characters or escapes is emptied without overflowing V8's regex stack", () => {
  const long = "x ".repeat(4 << 20);
  const escapes = "\\n".repeat(4 << 20);
  const scanner = new SecurityScanner();
  scanner.scan(
    [
      `{"title": "${long}Segmentation fault"}`,
      `{"body": "${escapes}panicked at"}`,
      `{"body": "${long}", "Output": "Segmentation fault"}`,
    ].join("\n"),
  );
  expect(scanner.signalCount).toBe(1);
  expect(scanner.signalLines[0].endsWith('"Output": "Segmentation fault"}')).toBe(true);
});

Deno.test("a signal line a filter shows without its `path:` prefix (said once above it) is kept; a bare signal word elsewhere is not", () => {
  const scanner = new SecurityScanner();
  const raw = [
    "logs/a.log:3:thread 'main' panicked at src/main.rs:4:5:",
    "logs/a.log:9:ssh: Permission denied (publickey)",
  ];
  scanner.scan(raw.join("\n"));
  const grouped =
    "logs/a.log:\n3:thread 'main' panicked at src/main.rs:4:5:\n9:ssh: Permission denied (publickey)";
  expect(scanner.appendix(grouped)).toEqual([]);
  // Only the rest after a colon before the signal, as a whole line, counts.
  expect(
    scanner.appendix("logs/a.log:\nPermission denied (publickey)\npanicked at src/main.rs:4:5:"),
  )
    .toEqual(["", "--- Security-relevant lines (preserved) ---", ...raw]);
});

Deno.test("credentials are counted on every line of a long output, and past the per-line limit", () => {
  const all = CREDENTIALS.map(([, line]) => line);
  const scanner = new SecurityScanner();
  // 2,500 URLs with a password (more hint lines than are looked at one by one), and every kind
  // on every 7th line.
  scanner.scan(
    Array.from({ length: 2500 }, (_, i) => `${i} https://u${i}:p@h ${i % 7 ? "" : all[i % 14]}`)
      .join("\n"),
  );
  const every7th = Math.ceil(2500 / 7);
  const per = (k: number) =>
    Array.from({ length: every7th }, (_, j) => j * 7).filter((i) => i % 14 === k).length;
  expect([...scanner.found]).toEqual(
    CREDENTIALS.map(([kind], k) => [kind, kind === "password in URL" ? 2500 + per(k) : per(k)])
      .filter(([, n]) => (n as number) > 0),
  );
});

Deno.test("near misses of the credential shapes raise no warning", () => {
  const scanner = new SecurityScanner();
  scanner.scan(NOT_SECRETS.join("\n"));
  expect([...scanner.found]).toEqual([]);
});

Deno.test("an Authorization header holding documentation's placeholder raises no warning; a credential beside it does", () => {
  const docs = [
    'curl -H "Authorization: Bearer YOUR_API_TOKEN" https://api.example.com',
    "Authorization: Bearer your-token-here",
    "Authorization: Token xxxxxxxxxxxx",
    "Proxy-Authorization: Basic USERNAME_PASSWORD",
  ];
  const quiet = new SecurityScanner();
  quiet.scan(docs.join("\n"));
  expect([...quiet.found]).toEqual([]);
  // A real-looking credential (digits, or both cases) is counted, also on a placeholder's line.
  const loud = new SecurityScanner();
  loud.scan(
    [
      "Authorization: Basic dXNlcjpwYXNz",
      "Authorization: Bearer YOUR_TOKEN then Authorization: Bearer q7q7q7q7q7q7",
    ].join("\n"),
  );
  expect([...loud.found]).toEqual([["HTTP Authorization credential", 2]]);
});

Deno.test("notices are scanned for credentials only: a key on a program's notice-looking last line is reported, signals and extra patterns leave them alone", async () => {
  const key = CREDENTIALS[1][1];
  const engine = new FilterEngine([]);
  const out = engine.filter("some-tool", `build ok\n[background] ${key}\n[exit code 1]`, {
    failed: true,
  });
  expect(out.text).toContain("GitHub token");
  // A removed signal line is preserved even when a notice says the same thing.
  const strip = await stripNoiseEngine("^SIGSEGV$", {
    extraPatterns: compileExtraPatterns(["(?i)timed? ?out"]).patterns,
  });
  expect(strip.filter("some-tool", "SIGSEGV\nok\n[killed by SIGSEGV]").text).toBe(
    "ok\n--- Security-relevant lines (preserved) ---\nSIGSEGV\n[killed by SIGSEGV]",
  );
  // The tool's own wording does not trip a user's pattern; a notice is shown sanitised.
  expect(strip.filter("some-tool", "ok\n[timeout] command timed out after 1s\x1b[0m").text).toBe(
    "ok\n[timeout] command timed out after 1s",
  );
});

/** An engine with one strip_noise rule for `some-tool` dropping lines that match `pattern`. */
async function stripNoiseEngine(
  pattern: string,
  options: ConstructorParameters<typeof FilterEngine>[1] = {},
): Promise<FilterEngine> {
  const { parseRuleFile } = await import("../../src/filter/mod.ts");
  const warnings: string[] = [];
  const rules = parseRuleFile(
    `[[rules]]\nname = "strip"\nmatch = { prefix = "some-tool" }\nstrategy = { type = "strip_noise", patterns = ['${pattern}'] }\n`,
    "test",
    warnings,
  );
  expect(warnings).toEqual([]);
  return new FilterEngine(rules.map((r) => r.compiled!), options);
}

Deno.test("OpenSSH's security-key algorithm names in ssh -v output raise no warning; a key beside them does", () => {
  const line =
    "debug1: kex_input_ext_info: server-sig-algs=<ssh-ed25519,sk-ssh-ed25519@openssh.com,ecdsa-sha2-nistp256,sk-ecdsa-sha2-nistp256@openssh.com,sk-ecdsa-sha2-nistp256-cert-v01@openssh.com>";
  const quiet = new SecurityScanner();
  quiet.scan(line);
  expect([...quiet.found]).toEqual([]);
  const key = new SecurityScanner();
  key.scan(`${line}\nOPENAI_API_KEY=${fake("sk-", "Zx81kQ2mN4pR7tV9wY3bC6dF")}`);
  expect([...key.found]).toEqual([["OpenAI API key", 1]]);
});

Deno.test("a key beside or glued to an OpenSSH security-key algorithm name on one line is still found", () => {
  const body = fake("Zx81kQ2mN4pR7tV9", "wY3bC6dFaB12cD34eF56gH78");
  for (
    const line of [
      `server-sig-algs=<sk-ecdsa-sha2-nistp256@openssh.com,${fake("sk-proj-", body)}>`,
      `sk-ssh-ed25519-cert-v01@openssh.com ${fake("sk-", body)}`,
      `OPENAI_API_KEY=${fake("sk-ecdsa-sha2-nistp256", body)}`,
    ]
  ) {
    const scanner = new SecurityScanner();
    scanner.scan(line);
    expect({ line, found: [...scanner.found] }).toEqual({ line, found: [["OpenAI API key", 1]] });
  }
});
