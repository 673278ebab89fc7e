/**
 * The `diagnostics` tool: detects the project in the workspace (Cargo.toml, deno.json,
 * tsconfig.json), runs its checker through the process runner and returns a structured list of
 * `{severity, message, file, line, col}`. A missing checker gives an empty list and a warning.
 */
import * as path from "node:path";
import { z } from "zod";
import { filteredEnv, type RunResult } from "../exec/mod.ts";
import { defineTool, type ToolContext } from "./tool.ts";

export const DiagnosticsParams = z.object({
  kind: z.enum(["check", "clippy", "lint"]).default("check").describe(
    "check: type/compile errors (cargo check, deno check, tsc --noEmit); clippy: Rust lints " +
      "(cargo clippy); lint: Deno lints (deno lint)",
  ),
  max_diagnostics: z.number().int().min(1).max(1000).optional().describe(
    "Maximum number of diagnostics returned, errors first (default [tools.diagnostics] " +
      "max_diagnostics, 50)",
  ),
  project: z.enum(["rust", "deno", "typescript"]).optional().describe(
    "Which project to check when the workspace has several (default: the first found of " +
      "Cargo.toml, deno.json(c), tsconfig.json)",
  ),
}).strict();
export type DiagnosticsParams = z.infer<typeof DiagnosticsParams>;

const DESCRIPTION = `Run the project's checker and return structured diagnostics.

Parameters: kind ("check" | "clippy" | "lint", default "check"), max_diagnostics (integer, default 50), project ("rust" | "deno" | "typescript", optional: which project when there are several).
Returns: one line per diagnostic "file:line:col: severity[code]: message", errors first, then a count; the structured list {severity, message, file, line, col} is in the raw result. Rust uses cargo check/clippy --message-format=json; Deno uses deno check / deno lint --json; TypeScript uses tsc --noEmit.
Errors: an empty list with a warning when no project is found or the checker is not installed; invalid_parameters for an unknown kind.
Example: {"kind": "clippy", "max_diagnostics": 20}`;

export interface Diagnostic {
  severity: "error" | "warning" | "info";
  message: string;
  file: string;
  line: number;
  col: number;
  /** Compiler or lint code (`E0308`, `clippy::needless_return`, `TS2322`, `no-unused-vars`). */
  code?: string;
}

export interface DiagnosticsReport {
  project: "rust" | "deno" | "typescript" | null;
  command: string | null;
  diagnostics: Diagnostic[];
  /** Diagnostics found before the cap. */
  total: number;
  warnings: string[];
}

type Project = NonNullable<DiagnosticsReport["project"]>;

const MARKERS: [Project, string[]][] = [
  ["rust", ["Cargo.toml"]],
  ["deno", ["deno.json", "deno.jsonc"]],
  ["typescript", ["tsconfig.json"]],
];

export const diagnosticsTool = defineTool({
  name: "diagnostics",
  description: DESCRIPTION,
  params: DiagnosticsParams,
  // Not read-only: cargo runs the workspace's build scripts and proc macros (code the model may
  // have just written) and writes target/, so it asks like bash unless a rule allows it.
  mutates: true,
  kind: "execute",
  group: "command",
  invocation: { type: "call" },
  subjects: (p) => [p.kind],
  async execute(params, ctx) {
    const report = await runDiagnostics(params, ctx);
    return { text: renderReport(report), raw: report };
  },
});

/** Detects the project, runs its checker and parses the output. Never throws for a checker. */
export async function runDiagnostics(
  params: DiagnosticsParams,
  ctx: ToolContext,
): Promise<DiagnosticsReport> {
  const max = params.max_diagnostics ?? ctx.config.tools.diagnostics.max_diagnostics;
  const found = await detectProjects(ctx.cwd);
  const report: DiagnosticsReport = {
    project: null,
    command: null,
    diagnostics: [],
    total: 0,
    warnings: [],
  };
  const wanted: Project[] = params.project
    ? [params.project]
    : params.kind === "clippy"
    ? ["rust"]
    : params.kind === "lint"
    ? ["deno"]
    : found;
  const project = wanted.find((p) => found.includes(p));
  if (!project) {
    const need = wanted.length === 1 ? describeMarkers(wanted[0]) : describeMarkers();
    report.warnings.push(
      `No ${wanted.length === 1 ? wanted[0] + " " : ""}project found in ${ctx.cwd} ` +
        `(looked for ${need}); nothing to check`,
    );
    return report;
  }
  if (params.kind === "clippy" && project !== "rust") {
    report.warnings.push(`kind "clippy" applies to Rust projects only; this is a ${project} one`);
    return report;
  }
  if (params.kind === "lint" && project !== "deno") {
    report.warnings.push(
      `kind "lint" applies to Deno projects only; use kind "check" for this ${project} project`,
    );
    return report;
  }
  report.project = project;

  const plan = await planCommand(project, params.kind, ctx.cwd);
  report.command = [plan.display, ...plan.args].join(" ");
  const shell = ctx.config.tools.shell;
  let result: RunResult;
  try {
    result = await ctx.runner.run(plan.program, plan.args, {
      cwd: ctx.cwd,
      env: { ...filteredEnv(shell.env_blocklist), NO_COLOR: "1", CARGO_TERM_COLOR: "never" },
      timeoutMs: shell.timeout * 1000,
      signal: ctx.signal,
      maxOutputBytes: shell.max_output_bytes,
    });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      report.warnings.push(`${plan.display} is not installed (or not on PATH); no diagnostics`);
    } else {
      report.warnings.push(`Cannot run ${plan.display}: ${(error as Error).message}`);
    }
    return report;
  }

  const parsed = plan.parse(result, ctx.cwd);
  if (result.timedOut) {
    report.warnings.push(
      `${plan.display} timed out after ${shell.timeout}s; the list may be incomplete`,
    );
  }
  if (result.aborted) {
    report.warnings.push(`${plan.display} was cancelled; the list may be partial`);
  }
  if (result.stdout.droppedBytes > 0) {
    report.warnings.push(`${plan.display} printed more than the output cap; the list is partial`);
  }
  if (parsed.length === 0 && result.exitCode !== 0 && !result.timedOut && !result.aborted) {
    const tail = (result.stderr.text || result.stdout.text).trim().split("\n").slice(-5);
    report.warnings.push(
      `${plan.display} exited with ${result.exitCode ?? result.signal} without diagnostics: ${
        tail.join(" | ")
      }`,
    );
  }
  const unique = dedupe(parsed);
  // Errors first so the cap never hides an error behind warnings; stable otherwise.
  const rank = { error: 0, warning: 1, info: 2 };
  unique.sort((a, b) => rank[a.severity] - rank[b.severity]);
  report.total = unique.length;
  report.diagnostics = unique.slice(0, max);
  return report;
}

/** The text the model reads. */
export function renderReport(report: DiagnosticsReport): string {
  const lines = report.diagnostics.map((d) =>
    `${d.file}:${d.line}:${d.col}: ${d.severity}${d.code ? `[${d.code}]` : ""}: ${d.message}`
  );
  const errors = report.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = report.diagnostics.filter((d) => d.severity === "warning").length;
  if (report.command) {
    const shown = report.total > report.diagnostics.length
      ? ` (showing ${report.diagnostics.length} of ${report.total}; raise max_diagnostics for more)`
      : "";
    lines.push(
      report.total === 0
        ? `No diagnostics from ${report.command}`
        : `${report.total} diagnostics (${errors} errors, ${warnings} warnings shown) from ${report.command}${shown}`,
    );
  }
  for (const w of report.warnings) lines.push(`[warning] ${w}`);
  return lines.join("\n");
}

async function detectProjects(cwd: string): Promise<Project[]> {
  const found: Project[] = [];
  for (const [project, files] of MARKERS) {
    for (const f of files) {
      if (await isFile(path.join(cwd, f))) {
        found.push(project);
        break;
      }
    }
  }
  return found;
}

function describeMarkers(project?: Project): string {
  return MARKERS.filter(([p]) => !project || p === project).flatMap(([, f]) => f).join(", ");
}

interface CommandPlan {
  program: string;
  /** How the program is named in messages. */
  display: string;
  args: string[];
  parse(result: RunResult, cwd: string): Diagnostic[];
}

async function planCommand(
  project: Project,
  kind: DiagnosticsParams["kind"],
  cwd: string,
): Promise<CommandPlan> {
  if (project === "rust") {
    return {
      program: "cargo",
      display: "cargo",
      args: [kind === "clippy" ? "clippy" : "check", "--message-format=json", "--all-targets"],
      parse: (r) => parseCargoJson(r.stdout.text),
    };
  }
  if (project === "deno") {
    const deno = await findDeno(cwd);
    return kind === "lint"
      ? {
        program: deno,
        display: "deno",
        args: ["lint", "--json"],
        parse: (r, dir) => parseDenoLintJson(r.stdout.text, dir),
      }
      : {
        program: deno,
        display: "deno",
        args: ["check"],
        parse: (r, dir) => parseDenoCheck(r.stderr.text + "\n" + r.stdout.text, dir),
      };
  }
  const local = path.join(cwd, "node_modules", ".bin", "tsc");
  return {
    program: await isFile(local) ? local : "tsc",
    display: "tsc",
    args: ["--noEmit", "--pretty", "false"],
    parse: (r, dir) => parseTsc(r.stdout.text + "\n" + r.stderr.text, dir),
  };
}

/**
 * The running deno when zeph runs under deno (not a compiled zeph binary), else the workspace's
 * node_modules deno, else `deno` on PATH.
 */
async function findDeno(cwd: string): Promise<string> {
  const exec = Deno.execPath();
  if (/^deno(\.exe)?$/.test(path.basename(exec))) return exec;
  for (const candidate of ["node_modules/deno/deno", "node_modules/.bin/deno"]) {
    const p = path.join(cwd, candidate);
    if (await isFile(p)) return p;
  }
  return "deno";
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await Deno.stat(p)).isFile;
  } catch {
    return false;
  }
}

function severityOf(level: string): Diagnostic["severity"] | null {
  const l = level.toLowerCase();
  if (l.startsWith("error")) return "error";
  if (l === "warning") return "warning";
  if (l === "note" || l === "help") return "info";
  return null;
}

interface CargoSpan {
  file_name: string;
  line_start: number;
  column_start: number;
  is_primary: boolean;
}

/** `cargo … --message-format=json`: one JSON object per line, `compiler-message` ones kept. */
export function parseCargoJson(stdout: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    let value: {
      reason?: string;
      message?: {
        level?: string;
        message?: string;
        code?: { code?: string } | null;
        spans?: CargoSpan[];
      };
    };
    try {
      value = JSON.parse(line);
    } catch {
      continue; // a line cut by the output cap
    }
    if (value.reason !== "compiler-message" || !value.message) continue;
    const msg = value.message;
    const severity = severityOf(msg.level ?? "");
    const span = msg.spans?.find((s) => s.is_primary) ?? msg.spans?.[0];
    // Span-less messages are summaries ("aborting due to 1 previous error").
    if (!severity || !span) continue;
    out.push({
      severity,
      message: msg.message ?? "",
      file: span.file_name,
      line: span.line_start,
      col: span.column_start,
      ...(msg.code?.code ? { code: msg.code.code } : {}),
    });
  }
  return out;
}

/** `deno lint --json`: 1-based lines, 0-based columns. */
export function parseDenoLintJson(stdout: string, cwd: string): Diagnostic[] {
  const start = stdout.indexOf("{");
  if (start < 0) return [];
  let value: {
    diagnostics?: {
      filename: string;
      range: { start: { line: number; col: number } };
      message: string;
      code?: string;
      hint?: string;
    }[];
    errors?: { file_path: string; error: string }[];
  };
  try {
    value = JSON.parse(stdout.slice(start));
  } catch {
    return [];
  }
  const out: Diagnostic[] = (value.diagnostics ?? []).map((d) => ({
    severity: "warning" as const,
    message: d.hint ? `${d.message} (${d.hint})` : d.message,
    file: displayPath(d.filename, cwd),
    line: d.range.start.line,
    col: d.range.start.col + 1,
    ...(d.code ? { code: d.code } : {}),
  }));
  for (const e of value.errors ?? []) {
    const at = /:(\d+):(\d+)/.exec(e.error);
    out.push({
      severity: "error",
      message: e.error.split("\n")[0],
      file: displayPath(e.file_path, cwd),
      line: at ? Number(at[1]) : 1,
      col: at ? Number(at[2]) : 1,
    });
  }
  return out;
}

/**
 * `deno check` text: `TS2322 [ERROR]: message` then the source excerpt and
 * `    at file:///path:line:col`.
 */
export function parseDenoCheck(text: string, cwd: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  let pending: { code: string; severity: Diagnostic["severity"]; message: string } | null = null;
  for (const line of text.split("\n")) {
    const head = /^(TS\d+) \[(ERROR|WARNING)\]: (.*)$/.exec(line);
    if (head) {
      pending = {
        code: head[1],
        severity: head[2] === "ERROR" ? "error" : "warning",
        message: head[3].trim(),
      };
      continue;
    }
    const at = /^\s+at (.+):(\d+):(\d+)\s*$/.exec(line);
    if (at && pending) {
      out.push({
        severity: pending.severity,
        message: pending.message,
        file: displayPath(at[1], cwd),
        line: Number(at[2]),
        col: Number(at[3]),
        code: pending.code,
      });
      pending = null;
    }
  }
  return out;
}

/** `tsc --pretty false`: `file(line,col): error TS2322: message`. */
export function parseTsc(text: string, cwd: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const line of text.split("\n")) {
    const m = /^(.+)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/.exec(line);
    if (!m) continue;
    out.push({
      severity: m[4] === "error" ? "error" : m[4] === "warning" ? "warning" : "info",
      message: m[6].trim(),
      file: displayPath(m[1], cwd),
      line: Number(m[2]),
      col: Number(m[3]),
      code: m[5],
    });
  }
  return out;
}

/** Workspace-relative when inside it; `file://` URLs become paths. */
function displayPath(file: string, cwd: string): string {
  let p = file;
  if (p.startsWith("file://")) {
    try {
      p = decodeURIComponent(new URL(p).pathname);
    } catch {
      // keep as is
    }
  }
  if (path.isAbsolute(p)) {
    const rel = path.relative(cwd, p);
    if (rel && !rel.startsWith("..") && !path.isAbsolute(rel)) return rel;
  }
  return p;
}

function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.severity}|${d.file}|${d.line}|${d.col}|${d.code ?? ""}|${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
