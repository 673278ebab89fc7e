/**
 * syscall_trace: a system-call trace (strace, plain or with `-f`, `-e`, `-tt`, `-T`, `-y`) with
 * each process's start-up folded into one line counting it. A process starts up from a
 * successful `execve` to its first system call that `startup` does not name (a process strace
 * attached to, `-p`, is past its start-up): the dynamic loader and the C library setting themselves up (`brk`, `mmap`,
 * `mprotect`, `arch_prctl`, `rseq` …). Wherever they are, the files named by `startup_files`
 * (`ld.so.cache`, shared objects, locale and gconv files: paths, matched against a call's first
 * quoted argument) fold with every call on the descriptor their open returned, up to its close,
 * and so do the calls `always` names (the C library's own housekeeping). A process's folded
 * calls become one line where the first of them was: `[pid N] … 41 start-up syscalls (loader,
 * libc, locale) folded …`.
 *
 * What stays as printed: every `execve` (what ran, with its arguments and result), the calls of
 * the program's own work, signals, `+++ exited with N +++`, strace's own messages and whatever
 * the program printed into the trace. A shared object that failed to open and never opened in
 * that process (the loader's `cannot open shared object file`) is the failure, not a probe: its
 * failed opens stay. A call split by `-f` (`read(3, <unfinished ...>` … `<... read resumed>…`)
 * folds or stays as a whole.
 *
 * In a compound command's output the other commands' lines need no part of their own: a line that
 * is no system call of a trace stays as printed.
 */
import { z } from "zod";
import type { RegexEngine } from "../regex.ts";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";
import { anyMatcher, patternList } from "./_shared.ts";

export const SyscallTraceConfig = z.object({
  type: z.literal("syscall_trace"),
  startup: z.array(z.string()).min(1).describe(
    "Regexes (RE2 syntax) of the calls, from their name on, that fold while a process starts up (from its execve to its first other call)",
  ),
  startup_files: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of paths whose opens fold wherever they are, with every call on the descriptor they return up to its close",
  ),
  always: z.array(z.string()).default([]).describe(
    "Regexes (RE2 syntax) of calls, from their name on, that fold wherever they are",
  ),
  fold: z.string().max(200).default("… {n} start-up syscalls (loader, libc, locale) folded …")
    .describe("The line a process's folded calls become; {n} is their count"),
}).strict();
export type SyscallTraceConfig = z.infer<typeof SyscallTraceConfig>;

/**
 * A trace line: `[pid N] ` (or `N ` with `-o`), a time (`-t`, `-tt`, `-ttt`, `-r`), then the call
 * (`name(` or `<... name resumed>`).
 */
const TRACE_LINE =
  /^(\[pid {1,7}(\d{1,10})\] |(\d{1,10}) {1,7})?( {0,12}\d{1,12}(?:[:.]\d{1,9}){0,3} )?(<\.\.\. (\w{1,40}) resumed>|(\w{1,40})\()/;
/**
 * A call's result, read from the line's last ` = `: ` = 3`, ` = -1 ENOENT (…)`, `-y`'s
 * ` = 3</etc/ld.so.cache>` (a `-T` time may follow). Anchored there, so a line costs one pass.
 */
const RESULT = /^ = (-?\d{1,20}|0x[0-9a-f]{1,16}|\?)(?:<[^>\n]{0,4096}>)?(?: (E[A-Z0-9]{1,20}))?/;
/** The descriptor a call acts on: its first argument (`read(3, …`, `close(3</a/b>)`). */
const FD_ARG = /^\w{1,40}\((\d{1,6})(?:<[^>\n]{0,4096}>)?(?:[,)]| <unfinished)/;
/** mmap's descriptor: its fifth argument (`mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 3, 0)`). */
const MMAP_FD = /^mmap\([^,\n]{1,40}, [^,\n]{1,40}, [^,\n]{1,100}, [^,\n]{1,200}, (\d{1,6})[,<]/;
const OPENS = new Set(["open", "openat", "openat2", "creat"]);
/** A shared object's file name: `libc.so.6`, `ld-linux-x86-64.so.2`, `_json.cpython-311….so`. */
const SHARED_OBJECT = /\.so(?:\.\d{1,6}){0,4}$/;
const UNFINISHED = " <unfinished ...>";

/** One parsed call; a split call's two lines share it. */
interface Call {
  process: string;
  name: string;
  /** The text from the call's name on (the head of a split call). */
  text: string;
  path: string | null;
  fd: number | null;
  /** The result's number and error, once known. */
  result: string | null;
  error: string | null;
}

export function compileSyscallTrace(
  config: SyscallTraceConfig,
  engine: RegexEngine,
): CompiledStrategy {
  const isStartup = anyMatcher(patternList(config.startup, "strategy.startup", engine));
  const isStartupFile = anyMatcher(
    patternList(config.startup_files, "strategy.startup_files", engine),
  );
  const isAlways = anyMatcher(patternList(config.always, "strategy.always", engine));
  return {
    type: "syscall_trace",
    createStage(ctx: StageContext): Stage {
      const lines: string[] = [];
      return {
        push(line) {
          lines.push(line);
        },
        finish() {
          const folded = foldTrace(lines, { isStartup, isStartupFile, isAlways });
          if (folded.count === 0) {
            for (const line of lines) ctx.emit(line);
            return "fallback";
          }
          lines.forEach((line, i) => {
            const key = folded.lines.get(i);
            // A process's one folded call stays as printed, both lines of a split one.
            if (key === undefined || folded.perProcess.get(key) === 1) ctx.emit(line);
            else if (folded.marker.has(i)) {
              const pid = /^\[pid {1,7}\d{1,10}\] /.exec(line)?.[0] ?? "";
              ctx.emit(pid + config.fold.replaceAll("{n}", String(folded.perProcess.get(key))));
            }
          });
          return "full";
        },
      };
    },
  };
}

interface Tests {
  isStartup(text: string): boolean;
  isStartupFile(path: string): boolean;
  isAlways(text: string): boolean;
}

/**
 * Which lines fold (`lines`, each to its process's key), each process's count (`perProcess`,
 * keyed by process and the execve it is in) and where its fold line goes (`marker`: the line
 * index of its first folded call).
 */
function foldTrace(lines: readonly string[], tests: Tests): {
  lines: Map<number, string>;
  perProcess: Map<string, number>;
  marker: Set<number>;
  count: number;
} {
  const calls: (Call | null)[] = [];
  // First pass: parse, join split calls, and learn which shared objects each process opened.
  const pending = new Map<string, Call>();
  const generation = new Map<string, number>();
  const opened = new Set<string>();
  const keyOf = (pid: string) => `${pid}#${generation.get(pid) ?? 0}`;
  for (const line of lines) {
    const m = line.length <= 8192 ? TRACE_LINE.exec(line) : null;
    if (!m) {
      calls.push(null);
      continue;
    }
    const pid = m[2] ?? m[3] ?? "";
    const rest = line.slice(m[0].length - (m[7] ? m[7].length + 1 : m[5].length));
    let call: Call;
    if (m[6] !== undefined) {
      const head = pending.get(pid);
      pending.delete(pid);
      call = head && head.name === m[6] ? head : {
        process: keyOf(pid),
        name: m[6],
        text: rest,
        path: null,
        fd: null,
        result: null,
        error: null,
      };
    } else {
      const name = m[7];
      call = {
        process: keyOf(pid),
        name,
        text: rest,
        path: firstQuoted(rest),
        fd: Number(FD_ARG.exec(rest)?.[1] ?? (name === "mmap" ? MMAP_FD.exec(rest)?.[1] : NaN)),
        result: null,
        error: null,
      };
      if (Number.isNaN(call.fd)) call.fd = null;
    }
    if (line.endsWith(UNFINISHED)) pending.set(pid, call);
    else {
      const at = line.lastIndexOf(" = ");
      const r = at < 0 ? null : RESULT.exec(line.slice(at));
      if (r) {
        call.result = r[1];
        call.error = r[2] ?? null;
      }
      if (call.name === "execve" && call.result === "0") {
        generation.set(pid, (generation.get(pid) ?? 0) + 1);
        call.process = keyOf(pid);
      }
      if (OPENS.has(call.name) && call.path && call.error === null && call.result !== null) {
        opened.add(`${call.process} ${baseName(call.path)}`);
      }
    }
    calls.push(call);
  }
  // Second pass: decide, per process, what folds.
  const starting = new Set<string>();
  const loaderFds = new Map<string, Set<number>>();
  const decided = new Map<Call, boolean>();
  const folded = new Map<number, string>();
  const perProcess = new Map<string, number>();
  const marker = new Set<number>();
  const counted = new Set<Call>();
  calls.forEach((call, i) => {
    if (call === null) return;
    let fold = decided.get(call);
    if (fold === undefined) {
      fold = decide(call, tests, { starting, loaderFds, opened });
      decided.set(call, fold);
    }
    if (call.name === "execve" && call.result === "0") starting.add(call.process);
    if (!fold) return;
    folded.set(i, call.process);
    // A split call's second line is the same call: it is counted once.
    if (counted.has(call)) return;
    counted.add(call);
    const n = perProcess.get(call.process) ?? 0;
    if (n === 0) marker.add(i);
    perProcess.set(call.process, n + 1);
  });
  return { lines: folded, perProcess, marker, count: folded.size };
}

/** Whether a call folds, updating the process's state (start-up, loader descriptors). */
function decide(
  call: Call,
  tests: Tests,
  state: {
    starting: Set<string>;
    loaderFds: Map<string, Set<number>>;
    opened: Set<string>;
  },
): boolean {
  if (call.name === "execve") return false;
  let fds = state.loaderFds.get(call.process);
  if (!fds) state.loaderFds.set(call.process, fds = new Set());
  const missingLibrary = call.path !== null && OPENS.has(call.name) && call.error !== null &&
    SHARED_OBJECT.test(call.path) &&
    !state.opened.has(`${call.process} ${baseName(call.path)}`);
  if (missingLibrary) return false;
  let fold = false;
  if (call.path !== null && tests.isStartupFile(call.path)) {
    fold = true;
    if (OPENS.has(call.name) && call.error === null && call.result !== null) {
      fds.add(Number(call.result));
    }
  } else if (call.fd !== null && fds.has(call.fd)) {
    fold = true;
    if (call.name === "close") fds.delete(call.fd);
  } else if (tests.isAlways(call.text)) fold = true;
  else if (state.starting.has(call.process) && tests.isStartup(call.text)) fold = true;
  if (!fold) state.starting.delete(call.process);
  return fold;
}

/**
 * The first quoted argument of a call (a path), as strace prints it (`\"` inside), or null:
 * one pass from the first quote.
 */
function firstQuoted(text: string): string | null {
  const open = text.indexOf('"');
  if (open < 0) return null;
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return text.slice(open + 1, i);
  }
  return null;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
