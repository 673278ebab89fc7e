/**
 * The exit codes of every zeph command, one table for `--help`, README and the code: scripts
 * tell a failed run (1) from a usage mistake (2) and from a run a limit cut short (3).
 */
import type { StopReason } from "../agent/mod.ts";

export const EXIT = {
  ok: 0,
  /** A failed run: provider error, a failed turn, a tool error, a command that exited non-zero. */
  failed: 1,
  /** A usage or configuration error (bad option, bad config, bad script). */
  usage: 2,
  /** A turn a limit cut short: max_tool_iterations, doom loop, context budget, tool quota. */
  limit: 3,
  /** Cancelled by Ctrl-C (SIGINT). */
  cancelled: 130,
  /** stdout was closed by its reader (`zeph … | head`): 128 + SIGPIPE, as a shell reports it. */
  brokenPipe: 141,
} as const;

/** The exit code a turn's stop reason maps to. */
export function exitCodeOf(stop: StopReason): number {
  switch (stop) {
    case "end_turn":
      return EXIT.ok;
    case "error":
      return EXIT.failed;
    case "cancelled":
      return EXIT.cancelled;
    case "max_iterations":
    case "doom_loop":
    case "context_budget":
    case "quota":
      return EXIT.limit;
  }
}

/** The table as `--help` prints it. */
export const EXIT_CODES_HELP = [
  "Exit codes:",
  "  0    success",
  "  1    the run failed: provider error, a failed turn, a tool error, a command that failed",
  "  2    usage or configuration error",
  "  3    a limit cut the turn short (tool iterations, doom loop, context budget, quota)",
  "  130  cancelled (Ctrl-C)",
  "  141  stdout was closed early (zeph … | head)",
].join("\n");
