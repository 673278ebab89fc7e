/**
 * The process runner: `Deno.Command` in its own process group, stdout and stderr read
 * concurrently as streams, chunks reported as they arrive, bounded memory whatever the command
 * prints, and timeout/abort that kill the whole group. This folder owns processes only: it knows
 * nothing of tools, permissions or the model, and it never throws for a non-zero exit.
 */
import { HeadTailBuffer, InterleavedCapture } from "./_capture.ts";
import { ShellSandbox } from "./_sandbox.ts";
import type { ProxySession } from "./_proxy.ts";
import {
  processGroupMembers,
  signalGroup,
  trackedGroups,
  trackGroup,
  untrackGroup,
} from "./_groups.ts";

export { formatBytes, HeadTailBuffer, InterleavedCapture } from "./_capture.ts";
export { processGroupMembers, signalGroup, trackGroup, untrackGroup } from "./_groups.ts";
export {
  bwrapArgs,
  HIDDEN_HOME_PATHS,
  HIDDEN_SYSTEM_PATHS,
  type PathKind,
  planSandbox,
  probeBwrap,
  PROTECTED_NAMES,
  protectedBelow,
  type SandboxMode,
  type SandboxPlan,
  type SandboxProbe,
  type SandboxSettings,
  sandboxSettingsOf,
  ShellSandbox,
} from "./_sandbox.ts";

export { runSandboxBridge } from "./_bridge.ts";
export { BRIDGE_PORT, bridgeCommand, findSocat, launcherArgs, proxyEnv } from "./_network.ts";
export {
  matchHost,
  NetworkProxy,
  type NetworkProxyOptions,
  type ProxyDecision,
  type ProxySession,
} from "./_proxy.ts";

export type StreamName = "stdout" | "stderr";

/** Options of one run. */
export interface RunOptions {
  /** Working directory of the child. @default the current directory */
  cwd?: string;
  /** The child's complete environment (nothing else is inherited). @default the parent's env */
  env?: Record<string, string>;
  /** Kill the group after this many milliseconds; 0 means no limit. @default 0 */
  timeoutMs?: number;
  /** Aborting kills the group; the result then has `aborted: true`. */
  signal?: AbortSignal;
  /** Bytes of head and of tail kept per stream and for the interleaved view. @default 8 MiB */
  maxOutputBytes?: number;
  /** Called with decoded text as each chunk arrives (before the process exits). */
  onChunk?: (stream: StreamName, text: string) => void;
  /** Between SIGTERM and SIGKILL to the group. @default 250 */
  killGraceMs?: number;
  /**
   * After the main process exits, how long background processes of its group may keep the
   * output pipes open before the group is killed (a `cmd &` that still writes to the pipe would
   * otherwise block the call forever). @default 1000
   */
  drainMs?: number;
}

/** One captured stream: head and tail kept, the middle counted. */
export interface CapturedText {
  text: string;
  totalBytes: number;
  droppedBytes: number;
}

export interface RunResult {
  stdout: CapturedText;
  stderr: CapturedText;
  /** Complete lines of both streams in arrival order, stderr lines prefixed `[stderr] `. */
  combined: CapturedText;
  /** The exit code; null when the process was killed by a signal. */
  exitCode: number | null;
  /** The signal that ended the main process, if any. */
  signal: Deno.Signal | null;
  timedOut: boolean;
  aborted: boolean;
  /** Background processes held the output open after the main process exited and were killed. */
  backgroundKilled: boolean;
  durationMs: number;
  pid: number;
  /** The OS sandbox the program ran in ("bwrap"); null or absent when it ran unconfined. */
  sandbox?: "bwrap" | null;
  /** The sandboxed program reached the network only through the allowed_domains proxy. */
  proxied?: boolean;
}

/** Runs a program to completion. Tools receive one as `ctx.runner`. */
export interface ProcessRunner {
  run(program: string, args: string[], options?: RunOptions): Promise<RunResult>;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
const READ_BUFFER_BYTES = 64 * 1024;

/** The real runner: `Deno.Command`, detached into its own process group. */
export class LocalProcessRunner implements ProcessRunner {
  async run(program: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
    const started = performance.now();
    const limit = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const grace = options.killGraceMs ?? 250;
    const drainMs = options.drainMs ?? 1000;
    const streams = {
      stdout: new HeadTailBuffer(limit),
      stderr: new HeadTailBuffer(limit),
    };
    const combined = new InterleavedCapture(limit);

    // Spawn errors (program not found, bad cwd) propagate: the caller knows what they mean.
    const child = new Deno.Command(program, {
      args,
      cwd: options.cwd,
      env: options.env,
      clearEnv: options.env !== undefined,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      // setsid(): the child leads a new process group, so -pid reaches every descendant.
      detached: true,
    }).spawn();
    const pgid = child.pid;
    trackGroup(pgid);

    const readers: ReadableStreamBYOBReader[] = [];
    const pump = async (name: StreamName, stream: ReadableStream<Uint8Array>) => {
      // A BYOB reader refilling one buffer: a command printing gigabytes allocates nothing per
      // read (the captures copy what they keep), which keeps the RSS flat.
      const reader = stream.getReader({ mode: "byob" });
      readers.push(reader);
      let buffer = new ArrayBuffer(READ_BUFFER_BYTES);
      const decoder = options.onChunk ? new TextDecoder() : null;
      try {
        while (true) {
          const { done, value } = await reader.read(new Uint8Array(buffer));
          if (done || !value) break;
          buffer = value.buffer as ArrayBuffer;
          streams[name].push(value);
          combined.push(name, value);
          if (decoder) {
            const text = decoder.decode(value, { stream: true });
            if (text) options.onChunk!(name, text);
          }
        }
        const rest = decoder?.decode();
        if (rest) options.onChunk!(name, rest);
      } catch {
        // Cancelled after a kill, or the pipe broke: what was read is kept.
      }
    };
    const pumping = Promise.all([pump("stdout", child.stdout), pump("stderr", child.stderr)]);

    let timedOut = false;
    let aborted = false;
    let killing: Promise<void> | null = null;
    const kill = () => killing ??= killGroup(pgid, grace);

    const timer = options.timeoutMs && options.timeoutMs > 0
      ? setTimeout(() => {
        timedOut = true;
        kill();
      }, options.timeoutMs)
      : undefined;
    const onAbort = () => {
      aborted = true;
      kill();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    let backgroundKilled = false;
    let status: Deno.CommandStatus;
    try {
      status = await child.status;
      clearTimeout(timer);
      // Do not wait on the pipes with an AbortSignal: grandchildren holding them would keep the
      // promise pending (deno-spike §4). Wait a bounded time, then kill the group and cancel.
      if (!await settlesWithin(pumping, killing ? 100 : drainMs)) {
        if (!killing) backgroundKilled = true;
        await kill();
        if (!await settlesWithin(pumping, 200)) {
          await Promise.all(readers.map((r) => r.cancel().catch(() => {})));
          await pumping;
        }
      }
      if (killing) await killing;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      // Processes that redirected their output (`server > log &`) may outlive the call: keep
      // their group tracked so killAllProcessGroups() ends them with the program.
      if (killing || processGroupMembers(pgid).length === 0) untrackGroup(pgid);
    }
    combined.finish();

    const capture = (b: HeadTailBuffer): CapturedText => ({
      text: b.text(),
      totalBytes: b.totalBytes,
      droppedBytes: b.droppedBytes,
    });
    return {
      stdout: capture(streams.stdout),
      stderr: capture(streams.stderr),
      combined: {
        text: new TextDecoder().decode(combined.buffer.bytes()),
        totalBytes: combined.buffer.totalBytes,
        droppedBytes: combined.buffer.droppedBytes,
      },
      exitCode: status.signal ? null : status.code,
      signal: status.signal,
      timedOut,
      aborted,
      backgroundKilled,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      pid: child.pid,
    };
  }
}

/** SIGTERM to the group, a grace period, then SIGKILL to the group. */
async function killGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, "SIGTERM");
  await delay(graceMs);
  signalGroup(pgid, "SIGKILL");
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Kills every process group this program started that may still be alive (on exit or SIGINT).
 * Synchronous so it can run in an `unload` handler. Returns how many groups were signalled.
 */
export function killAllProcessGroups(signal: Deno.Signal = "SIGKILL"): number {
  const groups = trackedGroups();
  for (const pgid of groups) {
    try {
      signalGroup(pgid, signal);
    } catch {
      // Best effort at exit: a group we may not signal is left alone.
    }
    untrackGroup(pgid);
  }
  return groups.length;
}

let defaultRunner: ProcessRunner | null = null;

/** The shared real runner: what `ctx.runner` is unless the caller passes another. */
export function defaultProcessRunner(): ProcessRunner {
  return defaultRunner ??= new LocalProcessRunner();
}

/**
 * The child environment: the parent's variables minus those whose name starts with a blocklisted
 * prefix (case-sensitive, as the reference implementation).
 */
export function filteredEnv(
  blocklist: readonly string[],
  base: Record<string, string> = Deno.env.toObject(),
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (!blocklist.some((prefix) => prefix !== "" && name.startsWith(prefix))) env[name] = value;
  }
  return env;
}

/** A runner that runs every program through a ShellSandbox; the result says whether it did. */
export class SandboxedRunner implements ProcessRunner {
  readonly inner: ProcessRunner;
  readonly sandbox: ShellSandbox;

  constructor(inner: ProcessRunner, sandbox: ShellSandbox) {
    this.inner = inner;
    this.sandbox = sandbox;
  }

  async run(program: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
    // The command's own proxy socket: closing it when the command ends (timeouts included)
    // ends every connection the command opened through it.
    const proxy = this.sandbox.network && this.sandbox.active()
      ? this.sandbox.network.open()
      : undefined;
    try {
      const wrapped = this.sandbox.wrap(program, args, { cwd: options.cwd, proxy });
      const result = await this.inner.run(wrapped.program, wrapped.args, options);
      return withRefusals({
        ...result,
        sandbox: wrapped.sandboxed ? "bwrap" : null,
        ...(wrapped.proxied ? { proxied: true } : {}),
      }, proxy);
    } finally {
      proxy?.close();
    }
  }
}

/**
 * The result with a stderr line per request the network proxy refused: a client reports a
 * refused CONNECT only as a failed tunnel, and the model needs the host and the config key.
 */
function withRefusals(result: RunResult, proxy: ProxySession | undefined): RunResult {
  if (!proxy || proxy.refusals.length === 0) return result;
  const lines = proxy.refusals.map((r) => `zeph: sandbox network proxy ${r}\n`).join("");
  const append = (c: CapturedText, text: string): CapturedText => ({
    ...c,
    text: c.text + (c.text === "" || c.text.endsWith("\n") ? "" : "\n") + text,
  });
  return {
    ...result,
    stderr: append(result.stderr, lines),
    combined: append(
      result.combined,
      proxy.refusals.map((r) => `[stderr] zeph: sandbox network proxy ${r}\n`).join(""),
    ),
  };
}

/**
 * `inner` wrapped in the sandbox of `like` when `like` is sandboxed, else `inner` itself: an
 * executor that swaps the runner (an editor's terminal) keeps the confinement of the one it
 * replaces.
 */
export function withSandboxOf(like: ProcessRunner, inner: ProcessRunner): ProcessRunner {
  return like instanceof SandboxedRunner ? new SandboxedRunner(inner, like.sandbox) : inner;
}
