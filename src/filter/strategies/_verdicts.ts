/**
 * A verbose test run that prefixes each test's lines with its id and ends each test with a verdict
 * line (`ctest -V`: `3: Test command: …`, `3: case 0 of scale: ok`, then `3/10 Test #3: scale …
 * Passed`): a test's lines are held until its verdict; a passing test's go with it, counted, a
 * failing test's (or one never given a verdict: the run ended inside it) are handed on whole.
 */
import type { Pattern } from "../regex.ts";
import type { CompiledStrategy, Stage } from "../types.ts";

/** Lines held across all open tests; past this every held line is handed on and holding stops. */
const MAX_HELD = 10_000;

export interface Verdicts {
  /** A line of one test, its `id` group naming the test. */
  line: Pattern;
  /** A test's verdict line, its `id` group naming the test. */
  verdict: Pattern;
  /** A verdict line that says the test passed. */
  passed: Pattern;
  /** The line saying how many lines went ({n}); none when empty. */
  summary: string;
}

/** `strategy` fed a verbose test run with each passing test's own lines taken out. */
export function droppingPassedTests(strategy: CompiledStrategy, v: Verdicts): CompiledStrategy {
  return {
    type: strategy.type,
    // The lines it knows are the wrapped strategy's: a compound command's other lines pass by.
    owns: strategy.owns,
    recordsFailure: strategy.recordsFailure,
    createStage(ctx): Stage {
      const inner = strategy.createStage(ctx);
      /** Per open test, its lines in order; null once holding stopped. */
      let open: Map<string, string[]> | null = new Map();
      let held = 0;
      let dropped = 0;
      const handOn = (lines: string[]) => {
        for (const line of lines) inner.push(line);
      };
      return {
        push(line) {
          if (open === null) return inner.push(line);
          const verdict = v.verdict.exec(line)?.group("id");
          if (verdict !== undefined) {
            const lines = open.get(verdict) ?? [];
            open.delete(verdict);
            held -= lines.length;
            if (v.passed.test(line)) dropped += lines.length;
            else handOn(lines);
            return inner.push(line);
          }
          const id = v.line.exec(line)?.group("id");
          if (id === undefined) return inner.push(line);
          const lines = open.get(id);
          if (lines === undefined) open.set(id, [line]);
          else lines.push(line);
          if (++held > MAX_HELD) {
            for (const lines of open.values()) handOn(lines);
            open = null;
          }
        },
        finish() {
          for (const lines of open?.values() ?? []) handOn(lines);
          const confidence = inner.finish();
          if (dropped > 0 && v.summary) ctx.emit(v.summary.replaceAll("{n}", String(dropped)));
          return dropped > 0 && confidence === "fallback" ? "full" : confidence;
        },
      };
    },
  };
}
