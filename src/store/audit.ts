/**
 * The audit log: one JSONL line per tool call, which main.ts appends from a final hook of the
 * dispatch boundary for every tool. Lines are appended with one `write` each on an O_APPEND
 * descriptor, so a crash mid-write can cut only the last line; `readAuditLog` skips such a line.
 */
import { dirname, join } from "node:path";
import type { Config, PermissionAction } from "../config/mod.ts";
import type { ErrorCategory, Outcome } from "../errors/mod.ts";
import { MASK, maskUrlPasswords, SECRET_SHAPES } from "../secrets/mod.ts";
import { defaultDataDir } from "./db.ts";
import { cannotWrite } from "./errors.ts";

/** One line of the audit log. Every field is always present (null when unknown). */
export interface AuditEntry {
  /** ISO 8601, UTC. */
  timestamp: string;
  tool: string;
  /** The command, path(s) or URL the call was about, secrets redacted. */
  subject: string | null;
  decision: "allow" | "ask" | "deny" | null;
  /** The rule that decided, e.g. `tools.permissions.bash[0] deny "*sudo*"`. */
  policy_match: string | null;
  /** The invoking principal (ACP session); null in the CLI. */
  caller_id: string | null;
  result: Outcome;
  /** The error category when the call failed. */
  error_category: string | null;
  exit_code: number | null;
  /** The output was cut (head/tail capture, overflow threshold). */
  truncated: boolean;
  duration_ms: number;
  /** The MCP server whose tool was called; omitted for zeph's own tools. */
  mcp_server_id?: string;
}

/** `[tools.audit] path`, or `audit.jsonl` in the data directory when it is empty. */
export function resolveAuditPath(
  config: Config,
  env: (name: string) => string | undefined = (n) => Deno.env.get(n),
): string {
  const configured = config.tools.audit.path.trim();
  if (configured === "~" || configured.startsWith("~/")) {
    return join(env("HOME") ?? "", configured.slice(1));
  }
  return configured || join(defaultDataDir(env), "audit.jsonl");
}

/** What the audit reads of a finished call; the registry's ToolResult fits it. */
export interface AuditedResult {
  tool: string;
  outcome: Outcome;
  category?: ErrorCategory;
  durationMs: number;
  overflowId?: string;
  decision?: { action: PermissionAction; policyMatch: string | null; subject: string | null };
  output?: { exitCode?: number | null; truncated?: boolean };
}

/** Who made the call and with what; the registry's hook input fits it. */
export interface AuditedCall {
  /** Absent for an unknown tool. */
  tool?: { subjects(params: unknown): string[]; mcp?: { serverId: string } };
  params: unknown;
  scope: { callerId?: string | null };
}

/** The writer for `[tools.audit]`, or null when `enabled` is false. */
export function openAuditLog(config: Config, path?: string): AuditWriter | null {
  if (!config.tools.audit.enabled) return null;
  return new AuditWriter(path ?? resolveAuditPath(config));
}

/** The entry for one finished call. */
export function auditRecordOf(
  result: AuditedResult,
  call: AuditedCall,
  options: { at: Date },
): AuditEntry {
  const decision = result.decision;
  return {
    timestamp: options.at.toISOString(),
    tool: result.tool,
    subject: auditSubject(result, call),
    decision: decision?.action ?? null,
    policy_match: decision?.policyMatch ?? null,
    caller_id: call.scope.callerId ?? null,
    result: result.outcome,
    error_category: result.category ?? null,
    exit_code: result.output?.exitCode ?? null,
    truncated: Boolean(result.output?.truncated) || result.overflowId !== undefined,
    duration_ms: result.durationMs,
    ...(call.tool?.mcp ? { mcp_server_id: call.tool.mcp.serverId } : {}),
  };
}

function auditSubject(result: AuditedResult, call: AuditedCall): string | null {
  let subjects: string[] = [];
  try {
    if (call.tool && call.params !== undefined) subjects = call.tool.subjects(call.params);
  } catch {
    // Params that failed validation may not have the shape subjects() expects.
  }
  if (subjects.length === 0 && result.decision?.subject) subjects = [result.decision.subject];
  return subjects.length ? redactSecrets(subjects.join(", ")) : null;
}

const encoder = new TextEncoder();

/**
 * Appends whole lines to one file, each with a single write on an O_APPEND descriptor. A write
 * that fails propagates: the registry reports a failed final hook without failing the call.
 */
export class AuditWriter {
  readonly path: string;
  #ready: Promise<void> | null = null;
  #warned = false;

  constructor(path: string) {
    this.path = path;
  }

  async append(entry: AuditEntry): Promise<void> {
    await (this.#ready ??= this.#prepare());
    const line = encoder.encode(JSON.stringify(entry) + "\n");
    const file = await Deno.open(this.path, { append: true, create: true, mode: 0o600 });
    try {
      let written = await file.write(line);
      // A short write (disk full, signal) is finished rather than left as a cut line.
      while (written < line.length) written += await file.write(line.subarray(written));
    } finally {
      file.close();
    }
  }

  /**
   * Appends without failing: a log that cannot be written (a read-only data directory) must not
   * fail what it records, and the user is told once per writer, with the fix, not on every line.
   */
  async appendOrWarnOnce(entry: AuditEntry, warn: (message: string) => void): Promise<void> {
    try {
      await this.append(entry);
    } catch (error) {
      if (this.#warned) return;
      this.#warned = true;
      warn(`zeph: warning: ${cannotWrite("audit", this.path, error)}`);
    }
  }

  /**
   * Null when the log can be appended to, else the warning to print once at start-up: a log
   * found unwritable only at the first call would interrupt that call's output.
   */
  checkWritable(): string | null {
    try {
      Deno.mkdirSync(dirname(this.path), { recursive: true });
      Deno.openSync(this.path, { append: true, create: true, mode: 0o600 }).close();
      return null;
    } catch (error) {
      return cannotWrite("audit", this.path, error);
    }
  }

  /**
   * Creates the directory, and ends a line cut by an earlier crash with a newline so that the
   * next entry starts on a line of its own instead of being glued to the broken one.
   */
  async #prepare(): Promise<void> {
    await Deno.mkdir(dirname(this.path), { recursive: true });
    let file: Deno.FsFile;
    try {
      file = await Deno.open(this.path, { read: true, append: true });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    try {
      const size = (await file.stat()).size;
      if (size === 0) return;
      await file.seek(size - 1, Deno.SeekMode.Start);
      const last = new Uint8Array(1);
      await file.read(last);
      if (last[0] !== 0x0a) await file.write(encoder.encode("\n"));
    } finally {
      file.close();
    }
  }
}

export interface AuditLogRead {
  entries: AuditEntry[];
  /** 1-based numbers of lines that did not parse (a line cut by a crash). */
  skippedLines: number[];
}

/** Reads an audit log, skipping lines that are not complete JSON objects. */
export async function readAuditLog(path: string): Promise<AuditLogRead> {
  const text = await Deno.readTextFile(path);
  const entries: AuditEntry[] = [];
  const skippedLines: number[] = [];
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    try {
      const value = JSON.parse(line);
      if (value && typeof value === "object" && !Array.isArray(value)) {
        entries.push(value as AuditEntry);
        return;
      }
    } catch {
      // fall through: counted as skipped
    }
    skippedLines.push(i + 1);
  });
  return { entries, skippedLines };
}

/** Names whose value is a secret: `GITHUB_TOKEN`, `db_password`, `--api-key`, `DEPLOY_KEY`. */
const SECRET_NAME =
  /(?:secret|token|passw(?:or)?d|api[_-]?key|apikey|auth(?!or(?!ization))|credential|private[_-]?key|access[_-]?key|(?:^|[_-])key$)/i;

/**
 * Token formats that are secrets wherever they appear: the shared shapes, less the password in
 * a URL, which `redactSecrets` replaces alone (the scheme and user stay readable).
 */
const TOKEN_PATTERNS: RegExp[] = SECRET_SHAPES.filter((s) => s.kind !== "password in URL")
  .map((s) => new RegExp(s.pattern, "g"));

const REDACTED = MASK;

/**
 * Replaces secrets in a subject with `[REDACTED]`: passwords in URLs, `NAME=value` and
 * `--name value` for secret-looking names, `Bearer`/`Basic` credentials and known token formats.
 */
export function redactSecrets(text: string): string {
  let out = maskUrlPasswords(text);
  // Authorization: Bearer xyz / Basic xyz (auth schemes are case-insensitive)
  out = out.replace(/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`);
  // curl -u user:password / --user=user:password
  out = out.replace(
    /((?:^|\s)(?:-u|--user)(?:\s+|=)["']?[^\s:"']*:)[^\s"']+/g,
    `$1${REDACTED}`,
  );
  // ?name=value / &name=value in URLs, for secret-looking names.
  out = out.replace(
    /([?&])([A-Za-z0-9_.-]+)=([^\s&#'"]+)/g,
    (match, sep: string, name: string) =>
      SECRET_NAME.test(name) ? `${sep}${name}=${REDACTED}` : match,
  );
  // "name": "value" in JSON bodies, for secret-looking names.
  out = out.replace(
    /"([^"\\]*)"(\s*:\s*)"(?:[^"\\]|\\.)*"/g,
    (match, name: string, sep: string) =>
      SECRET_NAME.test(name) ? `"${name}"${sep}"${REDACTED}"` : match,
  );
  // NAME=value and --name=value, for secret-looking names (quoted values included).
  out = out.replace(
    /((?:--?)?[A-Za-z_][A-Za-z0-9_.-]*)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s;&|'"]+)/g,
    (match, name: string, sep: string, value: string) => {
      if (!SECRET_NAME.test(name) || value === REDACTED) return match;
      if (/^(?:Bearer|Basic|Token)$/i.test(value)) return match; // handled above
      // a:b (volume, image:tag), but not a header written without a space (X-Api-Key:v).
      if (sep.includes(":") && !/^--?/.test(name) && !/\s/.test(sep) && !/-/.test(name)) {
        return match;
      }
      return `${name}${sep}${REDACTED}`;
    },
  );
  // --password value, -p value is too ambiguous to touch.
  out = out.replace(
    /(--[A-Za-z0-9-]+)(\s+)("[^"]*"|'[^']*'|[^\s;&|'"-][^\s;&|'"]*)/g,
    (match, flag: string, space: string) =>
      SECRET_NAME.test(flag) ? `${flag}${space}${REDACTED}` : match,
  );
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}
