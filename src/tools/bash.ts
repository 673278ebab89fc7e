/**
 * The `bash` tool: `bash -c <command>` in the workspace, in its own process group, through the
 * injected process runner. Path arguments and redirect targets outside `[tools.shell]
 * allowed_paths` are refused before anything runs; permission rules are the registry's job.
 */
import * as path from "node:path";
import { z } from "zod";
import { filteredEnv, type RunResult } from "../exec/mod.ts";
import { fileWords, type ShellAnalysis, type SimpleCommand } from "../permission/mod.ts";
import { canonicalize, expandHome, isInside } from "../sandbox/mod.ts";
import { SandboxViolation, ToolError } from "../errors/mod.ts";
import { defineTool, type ToolOutput } from "./tool.ts";

export const BashParams = z.object({
  command: z.string().trim().min(1, "must not be empty")
    .describe("The shell command to run with `bash -c` in the workspace directory"),
}).strict();
export type BashParams = z.infer<typeof BashParams>;

const DESCRIPTION = `Execute a shell command with \`bash -c\` in the workspace directory.

Parameters: command (string, required) - the command line; pipes, redirects, && and ; work as in bash.
Returns: stdout and stderr interleaved in arrival order (stderr lines prefixed "[stderr] "), then "[exit code N]" when the exit code is not 0; "(no output)" when nothing was printed. Very long output keeps its beginning and end.
Errors: policy_blocked when the command or a path it names is not allowed; timeout after [tools.shell] timeout seconds (the whole process group is killed, partial output is shown); cancelled when the user stops it. A non-zero exit is not an error: read the output.
Example: {"command": "ls -la src && git status --short"}`;

/** The envelope of the spec, in `ToolOutput.raw` for ACP and audit consumers. */
export interface ShellOutputEnvelope {
  stdout: string;
  stderr: string;
  exit_code: number | null;
  truncated: boolean;
  /** Whether the command ran inside the OS sandbox ([tools.shell.sandbox]). */
  sandboxed: boolean;
}

export const bashTool = defineTool({
  name: "bash",
  description: DESCRIPTION,
  params: BashParams,
  mutates: true,
  kind: "execute",
  group: "command",
  invocation: { type: "fenced", fence: "bash" },
  subjects: (p) => [p.command],
  async execute(params, ctx) {
    const shell = ctx.config.tools.shell;
    await checkShellPaths(params.command, {
      analyze: ctx.analyzeShell,
      cwd: ctx.cwd,
      allowedPaths: shell.allowed_paths,
    });

    let result: RunResult;
    try {
      result = await ctx.runner.run("bash", ["-c", params.command], {
        cwd: ctx.cwd,
        env: filteredEnv(shell.env_blocklist),
        timeoutMs: shell.timeout * 1000,
        signal: ctx.signal,
        maxOutputBytes: shell.max_output_bytes,
        onChunk: (stream, chunk) =>
          ctx.emit({ type: "output", callId: ctx.callId, tool: "bash", stream, chunk }),
      });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound && !(await isDirectory(ctx.cwd))) {
        throw new ToolError(
          "permanent_failure",
          `Cannot run the command: the working directory ${JSON.stringify(ctx.cwd)} does not exist`,
          { hint: "Start zeph in an existing directory (-C <dir>).", cause: error },
        );
      }
      if (error instanceof Deno.errors.NotFound) {
        throw new ToolError("permanent_failure", "Cannot run bash: it is not installed", {
          hint: "Install bash, or use the file tools instead.",
          cause: error,
        });
      }
      throw error;
    }
    const output = shellOutput(params.command, result, { timeoutSecs: shell.timeout });
    if (result.timedOut) {
      throw withOutput(
        new ToolError(
          "timeout",
          `Command timed out after ${shell.timeout}s and its process group was killed`,
          { hint: "Run a shorter command, or raise [tools.shell] timeout." },
        ),
        output,
      );
    }
    if (result.aborted || ctx.signal.aborted) {
      throw withOutput(
        new ToolError("cancelled", "Command cancelled; its process group was killed"),
        output,
      );
    }
    return output;
  },
});

/** The spec's id-style export name. */
export const BASH_TOOL = bashTool;

/** What the model reads, the envelope and the flags, from a finished run. */
export function shellOutput(
  command: string,
  result: RunResult,
  options: { timeoutSecs?: number } = {},
): ToolOutput {
  const truncated = result.stdout.droppedBytes > 0 || result.stderr.droppedBytes > 0 ||
    result.combined.droppedBytes > 0;
  const lines: string[] = [];
  const body = result.combined.text.replace(/\n$/, "");
  lines.push(body === "" ? "(no output)" : body);
  if (result.backgroundKilled) {
    lines.push(
      "[background] processes still writing to the output after the command finished were " +
        "stopped; redirect their output (cmd > file 2>&1 &) to keep them running",
    );
  }
  if (result.timedOut) {
    lines.push(
      `[timeout] command timed out after ${
        options.timeoutSecs ?? Math.round(result.durationMs / 1000)
      }s; partial output above`,
    );
  } else if (result.aborted) {
    lines.push("[cancelled] command stopped by the user; partial output above");
  } else if (result.exitCode === null) {
    lines.push(`[killed by ${result.signal ?? "a signal"}]`);
  } else if (result.exitCode !== 0) {
    lines.push(`[exit code ${result.exitCode}]`);
  }
  const sandboxNote = sandboxFailureNote(result);
  if (sandboxNote) lines.push(sandboxNote);
  const envelope: ShellOutputEnvelope = {
    stdout: result.stdout.text,
    stderr: result.stderr.text,
    exit_code: result.exitCode,
    truncated,
    sandboxed: result.sandbox === "bwrap",
  };
  return {
    text: lines.join("\n"),
    raw: envelope,
    exitCode: result.exitCode,
    truncated,
    failed: result.exitCode !== 0,
    filterCommand: command,
  };
}

/** Output of a command that met a wall of the OS sandbox: a read-only mount, or no network. */
const SANDBOX_WALLS: readonly [RegExp, (result: RunResult) => string][] = [
  [
    /Read-only file system|\bEROFS\b/,
    () => "only the workspace and [tools.shell] allowed_paths are writable",
  ],
  [
    /Network is unreachable|ENETUNREACH|Could not resolve host|Temporary failure in name resolution|Name or service not known|EAI_AGAIN|getaddrinfo|sandbox network proxy refused/,
    (result) =>
      result.proxied
        ? "it reaches only the hosts in [tools.shell.sandbox] allowed_domains, over HTTP(S) " +
          "through the proxy that HTTPS_PROXY names"
        : "it has no network unless [tools.shell.sandbox] allow_network = true",
  ],
];

/**
 * A line telling the model why a command that ran in the OS sandbox failed the way it did, so
 * it does not retry the same thing; null when it ran unconfined, succeeded, or hit no wall.
 */
export function sandboxFailureNote(result: RunResult): string | null {
  if (result.sandbox !== "bwrap" || result.exitCode === 0) return null;
  const text = result.combined.text;
  const walls = SANDBOX_WALLS.filter(([pattern]) => pattern.test(text)).map(([, why]) =>
    why(result)
  );
  if (walls.length === 0) return null;
  return `[sandbox] this command ran in the OS sandbox: ${walls.join("; ")}. Work inside the ` +
    "workspace, or ask the user to change the configuration";
}

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await Deno.stat(p)).isDirectory;
  } catch {
    return false;
  }
}

function withOutput(error: ToolError, output: ToolOutput): ToolError {
  // The registry keeps a failed call's output (partial text, envelope) on the result.
  (error as ToolError & { output?: ToolOutput }).output = output;
  return error;
}

// ---------------------------------------------------------------------------------------------
// allowed_paths

export interface ShellPathCheckOptions {
  analyze: (command: string) => Promise<ShellAnalysis>;
  /** The working directory the command runs in (relative paths resolve against it). */
  cwd: string;
  /** `[tools.shell] allowed_paths`; empty means the working directory. */
  allowedPaths: readonly string[];
}

const SHELL_PATH_HINT =
  "Commands may only name paths inside the workspace (or [tools.shell] allowed_paths); " +
  "use relative paths inside the workspace.";

/** A path argument or redirect target of a command outside the allowed roots. */
export class ShellPathViolation extends SandboxViolation {
  constructor(path: string, reason?: string) {
    super(path, reason, SHELL_PATH_HINT);
  }
}

/** Device files a command may name: the standard streams and harmless sources. */
const SAFE_DEVICES = new Set([
  "/dev/null",
  "/dev/zero",
  "/dev/random",
  "/dev/urandom",
  "/dev/stdin",
  "/dev/stdout",
  "/dev/stderr",
  "/dev/tty",
]);

/**
 * Refuses (SandboxViolation) a command whose path arguments or redirect targets resolve outside
 * the allowed roots. Tokens are the analyser's normalised words of every simple command, so
 * quoting, `$(…)` and `bash -c '…'` nesting cannot hide a path. A command the parser cannot
 * parse is refused: its paths cannot be checked.
 */
export async function checkShellPaths(
  command: string,
  options: ShellPathCheckOptions,
): Promise<void> {
  const analysis = await options.analyze(command);
  if (analysis.parseError) {
    throw new ToolError(
      "policy_blocked",
      `Cannot check the paths of this command: it does not parse (${analysis.parseError})`,
      { hint: "Fix the shell syntax and run it again." },
    );
  }
  const cwd = await canonicalize(path.resolve(options.cwd));
  const roots = options.allowedPaths.length
    ? await Promise.all(
      options.allowedPaths.map((p) => canonicalize(path.resolve(cwd, expandHome(p)))),
    )
    : [cwd];
  const check = async (candidate: string) => {
    if (SAFE_DEVICES.has(candidate) || /^\/dev\/fd\/\d+$/.test(candidate)) return;
    if (/^\/dev\/(tcp|udp)\//.test(candidate)) {
      throw new ShellPathViolation(candidate, "is a network pseudo-device");
    }
    if (/[$`]/.test(candidate)) {
      throw new ShellPathViolation(
        candidate,
        "is built from a variable or command substitution, so it cannot be checked",
      );
    }
    if (candidate.split("/").some((segment) => /^\.[*?[]/.test(segment))) {
      // Bash before 5.2 (and zsh, sh) match `.*` and `.?` against `..`.
      throw new ShellPathViolation(
        candidate,
        'has a glob segment that can match ".."; name the directory without a pattern',
      );
    }
    if (/^~[^/]/.test(candidate)) {
      throw new ShellPathViolation(candidate, "names another user's home directory");
    }
    const resolved = await canonicalize(path.resolve(cwd, expandHome(candidate)));
    if (!roots.some((root) => isInside(resolved, root))) throw new ShellPathViolation(candidate);
  };

  for (const cmd of analysis.commands) {
    for (const arg of pathArguments(cmd)) await check(arg);
    for (const redirect of cmd.redirects) {
      const target = redirectPath(redirect);
      if (target !== null) await check(target);
    }
    const program = path.basename(cmd.program);
    if (program === "cd" || program === "pushd") {
      // A later relative path is checked against the start directory, which is only sound
      // while every `cd` provably stays inside: its target must be a literal, checked path.
      const target = cmd.args.find((a) => a !== "-P" && a !== "-L" && a !== "--");
      if (target === undefined) {
        throw new ShellPathViolation("~", "is outside the allowed paths (cd without a directory)");
      }
      if (target === "-" || /[$`]/.test(target)) {
        throw new ShellPathViolation(
          target,
          "is a directory that cannot be checked before running",
        );
      }
      if (pathCandidate(target) === null) await check(target);
    }
  }
}

/**
 * The arguments of one simple command that name files: the analysis' file words (operands and
 * file-carrying option values; a pattern given by `-e`/`--regexp=`/`--expression=` never hides
 * an operand, echo/printf arguments are not files) that look like paths.
 */
export function pathArguments(cmd: Pick<SimpleCommand, "program" | "args">): string[] {
  const out: string[] = [];
  for (const word of fileWords({ program: path.basename(cmd.program), args: cmd.args })) {
    const candidate = pathCandidate(word);
    if (candidate !== null) out.push(candidate);
  }
  return out;
}

/** The path a token names, or null when it does not look like one. `--out=/x` names `/x`. */
export function pathCandidate(token: string): string | null {
  if (token === "") return null;
  const eq = /^(--?[A-Za-z0-9][\w-]*|[A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(token);
  if (eq) return pathCandidate(eq[2]);
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(token)) return null; // a URL
  if (token === "~" || token.startsWith("~")) return token;
  if (token === ".." || token.startsWith("/") || token.startsWith("./")) return token;
  if (token.startsWith("../") || token.includes("/")) return token;
  return null;
}

/** A redirect's file target, or null for fd duplications, here-docs and here-strings. */
function redirectPath(redirect: { op: string; target: string }): string | null {
  const { op, target } = redirect;
  if (op.includes("<<")) return null; // here-doc delimiter or here-string text
  if (op.includes("&") && /^(\d+|-)$/.test(target)) return null; // 2>&1, >&-
  return target;
}
