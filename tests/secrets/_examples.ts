/**
 * One table of credential examples, one per kind of src/secrets/mod.ts, in the vendors' real
 * formats, and near misses that are not credentials. Both users of the shapes are tested
 * against it: the audit log's redaction and the output filters' security pass. Assembled at run
 * time so the repository holds no credential-shaped literal.
 */
const fake = (prefix: string, body: string) => prefix + body;

/** [kind, a line holding one credential of that kind, the credential itself]. */
export const SECRET_EXAMPLES: [kind: string, line: string, secret: string][] = [
  ["AWS access key ID", "key=%s", fake("AKIA", "ABCDEFGHIJKLMNOP")],
  ["GitHub token", "token %s", fake("ghp_", "aB3".repeat(12))],
  ["GitHub fine-grained token", "%s", fake("github_pat_", "11ABCDEFG0" + "x".repeat(12) + "_y")],
  ["GitLab token", "%s", fake("glpat-", "abcdefghij0123456789")],
  ["Slack token", "%s", fake("xoxb-", "1234567890-abcdefghij")],
  ["Anthropic API key", "%s", fake("sk-ant-", "api03-" + "b".repeat(40))],
  ["OpenAI API key", "%s", fake("sk-proj-", "c".repeat(40))],
  ["Google API key", "%s", fake("AIza", "S".repeat(35))],
  ["Stripe key", "%s", fake("sk_live_", "d".repeat(24))],
  ["npm token", "%s", fake("npm_", "e".repeat(36))],
  ["Hugging Face token", "%s", fake("hf_", "fG".repeat(17))],
  ["private key", "%s", "-----BEGIN RSA PRIVATE KEY-----"],
  [
    "JWT",
    "%s",
    `${fake("eyJ", "hbGciOiJIUzI1NiJ9")}.${fake("eyJ", "zdWIiOiIxMjM0In0")}.sig_nature_123`,
  ],
  [
    "HTTP Authorization credential",
    "> %s",
    "Authorization: Bearer " + fake("zk_", "q7".repeat(12)),
  ],
  ["password in URL", "%sdb.internal:5432/app", "postgres://admin:" + "hunter2" + "@"],
].map(([kind, line, secret]) => [kind, line.replace("%s", secret), secret]);

/**
 * Shorter or older tokens of a vendor's prefix: still secrets (a truncated paste, a legacy
 * format), so the shapes are wider than today's formats and the audit log redacts these too.
 */
export const WIDE_SECRETS: [kind: string, secret: string][] = [
  ["GitHub token", fake("ghp_", "a".repeat(20))],
  ["Hugging Face token", fake("hf_", "a".repeat(30))],
  ["Hugging Face token", fake("hf_", "a1".repeat(17))],
  ["OpenAI API key", fake("sk-", "q".repeat(16))],
];

/** Strings of a credential's look that are not one (too short, wrong alphabet or boundary). */
export const NOT_SECRETS: string[] = [
  fake("ghp_", "a".repeat(19)),
  fake("hf_", "a".repeat(29)),
  fake("npm_", "e".repeat(35)),
  fake("AKIA", "ABCDEFGHIJKLMNO"),
  "sk-short",
  "skip-lint desk-top ghost_town",
  "https://example.com/path user@example.com",
  // Documentation's placeholders for a header.
  "Authorization: Bearer $TOKEN",
  "Authorization: Bearer <token>",
];
