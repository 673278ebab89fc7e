/**
 * Scopes a tool opens and closes around its work (make's `make[1]: Entering directory '…/app'`
 * and `Leaving directory`): the opening and closing lines stay only around a failure, where they
 * say which directory the failing file is in; around work that went well they are chatter.
 */
import { appendAll } from "../arrays.ts";
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
    // The lines it knows are the wrapped strategy's: a compound command's other lines pass by.
    owns: strategy.owns,
    recordsFailure: strategy.recordsFailure,
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
        }
      };
      // Places a kept line: in the innermost scope still holding, else on to the next stage. A
      // failure shows every scope it is in.
      const place = (line: string) => {
        const failure = FAILURE.test(line);
        if (failure) { for (const scope of stack) scope.failed = true; }
        const holder = stack.findLast((scope) => scope.held !== null);
        if (holder === undefined) return ctx.emit(line);
        holder.held!.push(line);
        if (failure) return release();
        if (holder.held!.length > MAX_HELD) passOn(holder);
      };
      // A scope that went well (or holds too much): its kept lines go to the scope around it.
      const passOn = (scope: Scope) => {
        const lines = scope.held ?? [];
        scope.held = null;
        const outer = stack.at(stack.indexOf(scope) - 1);
        if (stack.indexOf(scope) > 0 && outer!.held !== null) appendAll(outer!.held, lines);
        else for (const line of lines) ctx.emit(line);
      };
      // The strategy sees the scope lines too (its patterns may count them as dropped: make's
      // `on_empty` line); the ones it keeps are this wrapper's to show.
      const inner = strategy.createStage({
        ...ctx,
        emit: (line) => open.test(line) || close.test(line) ? undefined : place(line),
        // `emitAll` goes with `emit`: every line passes through `place`.
        emitAll: undefined,
      });
      return {
        push(line) {
          if (open.test(line)) {
            taken++;
            stack.push({ open: line, held: [], failed: false });
            return inner.push(line);
          }
          if (close.test(line) && stack.length > 0) {
            taken++;
            const scope = stack.at(-1)!;
            if (scope.failed) {
              // Lines the scope still holds came after its failure was shown.
              passOn(scope);
              stack.pop();
              place(line);
              return inner.push(line);
            }
            passOn(scope);
            stack.pop();
            return inner.push(line);
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
