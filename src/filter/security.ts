/**
 * The security pass, over the output before any rule ran. Two jobs:
 * 1. Credential-shaped strings (cloud keys, tokens, private keys, JWTs, passwords in URLs) add a
 *    warning naming the kind and count, never the value. Nothing is redacted here.
 * 2. Lines carrying security signals (panics, auth failures, permission denied, advisories,
 *    segfaults) that the filters removed are appended, so no rule can hide them.
 * Every credential pattern has a literal hint checked with `includes` first; the patterns
 * themselves only use bounded repeats, so they run on V8 in linear time (see regex.ts).
 */
import { compilePattern, type Pattern, PatternError } from "./regex.ts";
import { sanitizeLine } from "./sanitize.ts";

interface CredentialKind {
  kind: string;
  /** Substrings one of which every match contains (cheap pre-check). */
  hints: string[];
  pattern: Pattern;
}

const CREDENTIALS: [string, string[], string][] = [
  ["AWS access key ID", ["AKIA", "ASIA"], "\\b(AKIA|ASIA)[0-9A-Z]{16}\\b"],
  ["GitHub token", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], "\\bgh[pousr]_[A-Za-z0-9]{36,251}\\b"],
  ["GitHub fine-grained token", ["github_pat_"], "\\bgithub_pat_[A-Za-z0-9_]{22,255}"],
  ["GitLab token", ["glpat-"], "\\bglpat-[A-Za-z0-9_-]{20,64}"],
  ["Slack token", ["xox"], "\\bxox[abposr]-[A-Za-z0-9-]{10,250}"],
  ["Anthropic API key", ["sk-ant-"], "\\bsk-ant-[A-Za-z0-9_-]{20,300}"],
  ["OpenAI API key", ["sk-"], "\\bsk-(proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,300}"],
  ["Google API key", ["AIza"], "\\bAIza[0-9A-Za-z_-]{35}\\b"],
  ["Stripe key", ["_live_", "_test_"], "\\b(sk|rk|pk)_(live|test)_[0-9A-Za-z]{16,247}"],
  ["npm token", ["npm_"], "\\bnpm_[A-Za-z0-9]{36}\\b"],
  ["Hugging Face token", ["hf_"], "\\bhf_[A-Za-z]{34}\\b"],
  ["private key", ["PRIVATE KEY"], "-----BEGIN [A-Z ]{0,30}PRIVATE KEY( BLOCK)?-----"],
  ["JWT", ["eyJ"], "\\beyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}"],
  [
    "password in URL",
    ["://"],
    "\\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^/\\s:@]{1,256}:[^/\\s@]{1,256}@",
  ],
];

const MAX_PRESERVED = 20;

/** Hint → a part of it that starts with a less frequent character, searched first. */
const PROBES: Record<string, string> = {
  "github_pat_": "_pat_",
  "sk-ant-": "k-ant-",
  "sk-": "k-",
  "eyJ": "yJ",
  "ghp_": "gh",
  "gho_": "gh",
  "ghu_": "gh",
  "ghs_": "gh",
  "ghr_": "gh",
};

/** Past this many hint occurrences one regex scan of the whole text is cheaper than per line. */
const MAX_LINE_CHECKS = 2000;

/**
 * Counts `pattern`'s matches in `text`, running it only on the lines holding one of `hints`.
 * The same count as over the whole text: no credential pattern matches across a newline (every
 * class excludes it) and a line boundary is a word boundary either way.
 */
function countNearHints(text: string, hints: string[], pattern: Pattern): number {
  const starts: number[] = [];
  for (const hint of hints) {
    let at = text.indexOf(hint);
    while (at >= 0) {
      if (starts.length >= MAX_LINE_CHECKS) return pattern.countMatches(text);
      const start = text.lastIndexOf("\n", at) + 1;
      starts.push(start);
      const end = text.indexOf("\n", at);
      if (end < 0) break;
      at = text.indexOf(hint, end + 1);
    }
  }
  if (hints.length > 1) starts.sort((a, b) => a - b);
  let n = 0;
  let previous = -1;
  for (const start of starts) {
    if (start === previous) continue;
    previous = start;
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    n += pattern.countMatches(text.slice(start, end));
  }
  return n;
}

export interface SecurityOptions {
  /** Extra credential regexes (RE2 syntax) from `[tools.filters.security] extra_patterns`. */
  extraPatterns?: Pattern[];
}

/** Compiles user extra patterns; invalid ones are skipped with a warning each. */
export function compileExtraPatterns(
  sources: string[],
): { patterns: Pattern[]; warnings: string[] } {
  const patterns: Pattern[] = [];
  const warnings: string[] = [];
  sources.forEach((source, i) => {
    try {
      patterns.push(compilePattern(source));
    } catch (error) {
      const reason = error instanceof PatternError ? error.reason : String(error);
      warnings.push(
        `[tools.filters.security] extra_patterns[${i}] skipped: ${reason}. Fix or remove the pattern.`,
      );
    }
  });
  return { patterns, warnings };
}

const CREDENTIAL_KINDS: CredentialKind[] = CREDENTIALS.map(([kind, hints, source]) => ({
  kind,
  hints,
  pattern: compilePattern(source),
}));

const SIGNALS_GLOBAL = new RegExp(
  "panicked at|^panic: |[Ss]egmentation fault|SIGSEGV|[Cc]ore dumped|[Ss]tack overflow|" +
    "[Aa]uthentication failed|AUTHENTICATION FAILED|[Uu]nauthorized|UNAUTHORIZED|" +
    "[Pp]ermission denied|PERMISSION DENIED|[Aa]ccess denied|ACCESS DENIED|[Ff]orbidden|FORBIDDEN|" +
    "[Ii]nvalid credentials|RUSTSEC-\\d{4}-\\d{4}|GHSA-[0-9a-z]{4}-|CVE-\\d{4}-\\d{4}|" +
    "[Ss]ecurity advisory|[Vv]ulnerabilit|VULNERABILIT|[Ww]eak cipher|[Ii]nsecure hash|" +
    "[Cc]ertificate verify failed|SQL injection",
  "gm",
);

/**
 * Scans a whole output once per pattern (V8 searches a text far faster than it runs a regex per
 * line) and reports what it saw. Memory is bounded: at most 20 signal lines are kept.
 */
export class SecurityScanner {
  readonly found = new Map<string, number>();
  readonly signalLines: string[] = [];
  signalCount = 0;
  #extra: Pattern[];

  constructor(options: SecurityOptions = {}) {
    this.#extra = options.extraPatterns ?? [];
  }

  /** Scans one text (a whole output, or one line). */
  scan(text: string): void {
    // One literal search per distinct probe (V8's `includes` is far faster than any regex);
    // the credential regexes then run only on the lines that hold a hint occurrence.
    const seen = new Map<string, boolean>();
    const has = (hint: string): boolean => {
      let found = seen.get(hint);
      if (found === undefined) {
        // A search for a substring starting with a rarer character rules most texts out faster
        // (V8 looks for the first character, then compares).
        const probe = PROBES[hint];
        found = (probe === undefined || has(probe)) && text.includes(hint);
        seen.set(hint, found);
      }
      return found;
    };
    let anthropic: number | undefined;
    for (const { kind, hints, pattern } of CREDENTIAL_KINDS) {
      if (!hints.some(has)) continue;
      let n = countNearHints(text, hints.filter(has), pattern);
      if (n && kind === "OpenAI API key") {
        // Every "sk-ant-" key also matches the OpenAI shape; count it once, as Anthropic.
        anthropic ??= has("sk-ant-")
          ? countNearHints(text, ["sk-ant-"], CREDENTIAL_KINDS[5].pattern)
          : 0;
        n -= anthropic;
      }
      if (n > 0) this.found.set(kind, (this.found.get(kind) ?? 0) + n);
    }
    this.#extra.forEach((pattern, i) => {
      const n = pattern.countMatches(text);
      if (n > 0) {
        const kind = `extra pattern #${i + 1}`;
        this.found.set(kind, (this.found.get(kind) ?? 0) + n);
      }
    });
    SIGNALS_GLOBAL.lastIndex = 0;
    let m: RegExpExecArray | null;
    let lastLineEnd = -1;
    while ((m = SIGNALS_GLOBAL.exec(text)) !== null) {
      if (m.index < lastLineEnd) continue;
      const start = text.lastIndexOf("\n", m.index) + 1;
      let end = text.indexOf("\n", m.index);
      if (end < 0) end = text.length;
      lastLineEnd = end;
      SIGNALS_GLOBAL.lastIndex = end;
      // "found 0 vulnerabilities" (npm audit after every install) reports the absence of one.
      if (/\b0 vulnerabilit/i.test(text.slice(start, end))) continue;
      this.signalCount++;
      if (this.signalLines.length >= MAX_PRESERVED) continue;
      const line = sanitizeLine(text.slice(start, end)).replace(/^\[stderr\] /, "");
      if (!this.signalLines.includes(line)) this.signalLines.push(line);
    }
  }

  /** What to append to the filtered text: removed signal lines, then the credential warning. */
  appendix(filtered: string): string[] {
    const out: string[] = [];
    const missing = this.signalLines.filter((line) => !filtered.includes(line.trim()));
    if (missing.length) {
      out.push("", "--- Security-relevant lines (preserved) ---", ...missing);
      const more = this.signalCount - this.signalLines.length;
      if (more > 0) out.push(`... (${more} more)`);
    }
    if (this.found.size) {
      const kinds = [...this.found].map(([kind, n]) => (n > 1 ? `${kind} x${n}` : kind));
      out.push(
        "",
        `[security] The output contains credential-shaped strings (${
          kinds.join(", ")
        }). They were not removed: do not repeat, store or send them anywhere.`,
      );
    }
    return out;
  }
}
