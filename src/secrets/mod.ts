/**
 * The shapes of credentials: one list, read by the audit log's redaction (store/audit.ts) and
 * the output filters' security pass (filter/security.ts), so the two cannot drift. A leaf: it
 * imports nothing from src/. Patterns are written in the syntax RE2 and V8 read alike, with
 * bounded repeats (the security pass runs them on V8 and checks they are linear).
 */

/** One kind of credential. */
export interface SecretShape {
  /** Named in the security pass's warning (`GitHub token x2`). */
  readonly kind: string;
  /** RE2 syntax that V8 reads the same way. */
  readonly pattern: string;
  /** Substrings one of which every match contains: a cheap test before the pattern runs. */
  readonly hints: readonly string[];
  /**
   * Regex (V8) of a match's last word that is documentation's placeholder, not a credential
   * (`Bearer YOUR_API_TOKEN`): the security pass does not warn of it; the audit log, which errs
   * towards redacting, still redacts it. @default none
   */
  readonly placeholder?: string;
}

/**
 * The vendors' published formats, widened where a shorter or older token of the same prefix is
 * still a secret (a truncated paste, a legacy format): the audit log must err towards redacting.
 * GitHub `gh?_` + 36 characters today (up to 255 in all, GitHub says; 20 accepted), fine-grained
 * `github_pat_`; Hugging Face `hf_` + 34 letters today (30 or more letters and digits accepted);
 * npm `npm_` + 36; Google `AIza` + 35; AWS key ids `AKIA`/`ASIA` + 16; OpenAI and Anthropic keys
 * from 16 characters after the prefix. Every `sk-ant-` key also has the OpenAI shape: the security
 * pass counts it once, as Anthropic.
 */
export const SECRET_SHAPES: readonly SecretShape[] = [
  { kind: "AWS access key ID", hints: ["AKIA", "ASIA"], pattern: "\\b(AKIA|ASIA)[0-9A-Z]{16}\\b" },
  {
    kind: "GitHub token",
    hints: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    pattern: "\\bgh[pousr]_[A-Za-z0-9]{20,251}",
  },
  {
    kind: "GitHub fine-grained token",
    hints: ["github_pat_"],
    pattern: "\\bgithub_pat_[A-Za-z0-9_]{20,255}",
  },
  { kind: "GitLab token", hints: ["glpat-"], pattern: "\\bglpat-[A-Za-z0-9_-]{20,64}" },
  { kind: "Slack token", hints: ["xox"], pattern: "\\bxox[abposr]-[A-Za-z0-9-]{10,250}" },
  { kind: "Anthropic API key", hints: ["sk-ant-"], pattern: "\\bsk-ant-[A-Za-z0-9_-]{16,300}" },
  {
    kind: "OpenAI API key",
    hints: ["sk-"],
    pattern: "\\bsk-(proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,300}",
    // OpenSSH's security-key algorithm names (`sk-ecdsa-sha2-nistp256@openssh.com`), which every
    // `ssh -v` prints in the server's signature algorithms, have the shape and are not keys.
    placeholder: "^sk-(ssh-ed25519|ecdsa-sha2-nistp(256|384|521))(-cert-v01)?$",
  },
  { kind: "Google API key", hints: ["AIza"], pattern: "\\bAIza[0-9A-Za-z_-]{35}\\b" },
  {
    kind: "Stripe key",
    hints: ["k_live_", "k_test_"],
    pattern: "\\b(sk|rk|pk)_(live|test)_[0-9A-Za-z]{16,247}",
  },
  { kind: "npm token", hints: ["npm_"], pattern: "\\bnpm_[A-Za-z0-9]{36}\\b" },
  { kind: "Hugging Face token", hints: ["hf_"], pattern: "\\bhf_[A-Za-z0-9]{30,64}" },
  {
    kind: "private key",
    hints: ["PRIVATE KEY"],
    pattern: "-----BEGIN [A-Z ]{0,30}PRIVATE KEY( BLOCK)?-----",
  },
  {
    kind: "JWT",
    hints: ["eyJ"],
    pattern: "\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}",
  },
  {
    // What `curl -v`, HTTP client debug logs and proxies print of a request: any vendor's token.
    kind: "HTTP Authorization credential",
    hints: ["uthorization: "],
    pattern:
      "\\b(Proxy-)?[Aa]uthorization: ([Bb]earer|[Bb]asic|[Tt]oken) [A-Za-z0-9._~+/=-]{8,500}",
    // No digit and one letter case: YOUR_API_TOKEN, your-token-here, xxxxxxxx.
    placeholder: "^(?:[^0-9a-z]*|[^0-9A-Z]*)$",
  },
  {
    kind: "password in URL",
    hints: ["://"],
    pattern: "\\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^/\\s:@]{1,256}:[^/\\s@]{1,256}@",
  },
];

/** What a masked secret is replaced with. */
export const MASK = "[REDACTED]";

/**
 * Replaces the password of every `scheme://user:password@host` in `text` with `[REDACTED]`,
 * keeping the scheme, user and host readable. The password runs up to the last '@' before the
 * path, so a raw '@' inside it is masked too. The audit log, `zeph config check`, config errors
 * and provider errors all mask through this one function.
 */
export function maskUrlPasswords(text: string): string {
  if (!text.includes("://")) return text;
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s/]+)@/gi, `$1${MASK}@`);
}
