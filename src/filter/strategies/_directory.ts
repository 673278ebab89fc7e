/**
 * The absolute directory that a tool repeats in every location (minitest's
 * `[/home/me/app/test/a_test.rb:12]`, its frames), said once: `files under /home/me/app/:` first,
 * then the paths under it relative. Paths elsewhere (a frame in the Ruby install) stay whole.
 */
import type { CompiledStrategy, Stage } from "../types.ts";

/** An absolute path: at the line's start or after a space or one of `[("'=`. */
const ABSOLUTE = /(?<=^|[\s\[("'=])\/[\w.@+-]+(?:\/[\w.@+-]+)+/g;

/** Paths that must share the directory before it is factored out. */
const MIN_PATHS = 3;

/**
 * Paths longer than PATH_MAX are not paths a tool printed for a file, and counting every
 * directory of one would cost the square of its length (a line of `/a/a/a…`); directories deeper
 * than MAX_DEPTH are not counted either, which bounds the work per path.
 */
const MAX_PATH = 4096;
const MAX_DEPTH = 32;
/**
 * Lines longer than this are not searched for paths: ABSOLUTE's repeated group costs V8 a
 * backtracking entry per directory, which a line of millions of `/a` overflows.
 */
const MAX_LINE = 100_000;

/**
 * `lines` with the absolute directory said once that saves the most (the longest shared by the
 * most paths, three at least, two levels at least: `/usr/` says nothing about the project), or
 * null when there is none.
 */
export function sayDirectoryOnce(lines: readonly string[]): string[] | null {
  // Each directory of two levels or more that holds a path, with how many paths it holds.
  const held = new Map<string, number>();
  for (const line of lines) {
    if (line.length > MAX_LINE) continue;
    for (const [path] of line.matchAll(ABSOLUTE)) {
      if (path.length > MAX_PATH) continue;
      let end = path.indexOf("/", path.indexOf("/", 1) + 1);
      for (let depth = 2; end > 0 && depth <= MAX_DEPTH; depth++) {
        const dir = path.slice(0, end + 1);
        held.set(dir, (held.get(dir) ?? 0) + 1);
        end = path.indexOf("/", end + 1);
      }
    }
  }
  let base = "";
  let saved = 0;
  for (const [dir, n] of held) {
    if (n >= MIN_PATHS && n * dir.length > saved) [base, saved] = [dir, n * dir.length];
  }
  if (!base) return null;
  const at = new RegExp(`(?<=^|[\\s\\[("'=])${escape(base)}(?=[\\w.@+-])`, "g");
  return [`files under ${base}:`, ...lines.map((line) => line.replace(at, ""))];
}

/** `strategy` with what its stage emits passed through `sayDirectoryOnce` at the end. */
export function sayingDirectoryOnce(strategy: CompiledStrategy): CompiledStrategy {
  return {
    type: strategy.type,
    // The lines it knows are the wrapped strategy's: a compound command's other lines pass by.
    owns: strategy.owns,
    recordsFailure: strategy.recordsFailure,
    createStage(ctx): Stage {
      const lines: string[] = [];
      // `emitAll` goes with `emit`: the inner stage's lines are this wrapper's to read first.
      const inner = strategy.createStage({
        ...ctx,
        emit: (line) => void lines.push(line),
        emitAll: undefined,
      });
      return {
        push: (line) => inner.push(line),
        finish() {
          const confidence = inner.finish();
          const shared = sayDirectoryOnce(lines);
          for (const line of shared ?? lines) ctx.emit(line);
          // A stage that changed its input is no Fallback.
          return shared && confidence === "fallback" ? "full" : confidence;
        },
      };
    },
  };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");
}
