/**
 * Scopes a tool opens and closes around its work (make's `make[1]: Entering directory '…/app'`
 * and `Leaving directory`): the opening and closing lines stay only around a failure, where they
 * say which directory the failing file is in; around work that went well they are chatter.
 */
import type { Pattern } from "../regex.ts";
import type { CompiledStrategy, Stage } from "../types.ts";

/** A kept line that reports a failure: an error, a fatal one, make's `***` line. */
const FAILURE = /\b(?:error|fatal|undefined reference)\b|\*\*\*/i;

/** Kept lines held per open scope; past this the scope's lines pass on without its opening line. */
const MAX_HELD = 2_000;

interface Scope {
  open: string;
  /** Kept lines inside the scope, held until the scope closes or fails (null once passed on). */
  held: string[] | null;
  failed: boolean;
}

/**
 * `strategy` whose input lines matching `open`/`close` are taken out of its input: each opening
 * line is held with the lines the strategy keeps after it, and is shown (with its closing line)
 * only when one of those lines reports a failure. Scopes nest (`make[2]` inside `make[1]`): a
 * failure shows every scope it is in.
 */
export function keepingFailedScopes(
  strategy: CompiledStrategy,
  open: Pattern,
  close: Pattern,
): CompiledStrategy {
  return {
    type: strategy.type,
    createStage(ctx): Stage {
      const stack: Scope[] = [];
      let taken = 0;
      // Passes on the held lines of every scope from the outermost one still holding, openings
      // first: called when a failure shows the scopes it is in.
      const release = () => {
        for (const scope of stack) {
          if (scope.held === null) continue;
          ctx.emit(scope.open);
          for (const line of scope.held) ctx.emit(line);
          scope.held = null;
          scope.failed = true;
        }
      };
      const emit = (line: string) => {
        const top = stack.at(-1);
        if (top === undefined || top.held === null) {
          if (top !== undefined && FAILURE.test(line)) release();
          if (top !== undefined) top.failed ||= FAILURE.test(line);
          return ctx.emit(line);
        }
        top.held.push(line);
        if (FAILURE.test(line)) return release();
        if (top.held.length > MAX_HELD) passOn(top);
      };
      // A scope that went well (or holds too much): its kept lines go to the scope around it.
      const passOn = (scope: Scope) => {
        const lines = scope.held ?? [];
        scope.held = null;
        const outer = stack.at(stack.indexOf(scope) - 1);
        if (stack.indexOf(scope) > 0 && outer!.held !== null) outer!.held.push(...lines);
        else for (const line of lines) ctx.emit(line);
      };
      const inner = strategy.createStage({ ...ctx, emit });
      return {
        push(line) {
          if (open.test(line)) {
            taken++;
            stack.push({ open: line, held: [], failed: false });
            return;
          }
          if (close.test(line) && stack.length > 0) {
            taken++;
            const scope = stack.at(-1)!;
            if (scope.failed) {
              // Lines the scope still holds came after its failure was shown.
              passOn(scope);
              stack.pop();
              return emit(line);
            }
            passOn(scope);
            stack.pop();
            return;
          }
          inner.push(line);
        },
        finish() {
          const confidence = inner.finish();
          // Scopes the output ends in (a build cut short) pass on what they hold.
          while (stack.length > 0) {
            passOn(stack.at(-1)!);
            stack.pop();
          }
          return taken > 0 && confidence === "fallback" ? "full" : confidence;
        },
      };
    },
  };
}
