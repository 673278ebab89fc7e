/**
 * `zeph filter --explain`: which rule and stage removed (or added) which lines, for people
 * writing rules. Each stage's input and output are compared as multisets of lines, so a stage
 * that rewrites a line shows it removed and its new form added.
 */
import type { FilterEngine, StageTrace } from "./engine.ts";
import type { Restore } from "./verbatim.ts";

/** Lines listed per stage and direction; the rest are counted. */
const MAX_LISTED = 200;

/** The explanation of one output, as lines of text. */
export function explainFilter(
  engine: FilterEngine,
  command: string,
  raw: string,
  options: { failed?: boolean } = {},
): string[] {
  const traces = engine.trace(command, raw, options);
  const out: string[] = [];
  if (traces.length === 1) out.push(`no rule matches "${command}" and the generic pass is off`);
  for (const trace of traces) out.push(...explainStage(trace));
  return out;
}

function explainStage(trace: StageTrace): string[] {
  if (trace.restored) return explainGuard(trace.restored);
  const { removed, added } = difference(trace.input, trace.output);
  // The generic pass and its folds after the rules are named as they are; a rule with its type.
  const what = trace.name === trace.type || trace.type === "generic"
    ? trace.name
    : `rule ${trace.name} (${trace.type})`;
  const out = [
    `${what}: ${trace.input.length} lines in, ${trace.output.length} out, ${removed.length} removed, ${added.length} added (confidence ${trace.confidence})`,
  ];
  const list = (sign: string, lines: string[]) => {
    for (const line of lines.slice(0, MAX_LISTED)) out.push(`  ${sign} ${line}`);
    if (lines.length > MAX_LISTED) out.push(`  ${sign} … ${lines.length - MAX_LISTED} more`);
  };
  list("-", removed);
  list("+", added);
  return out;
}

/** The guard's step: each emitted line it put back as printed, or dropped as already shown. */
function explainGuard(restored: Restore[]): string[] {
  const out = [
    `guard: ${restored.length} emitted line${
      restored.length === 1 ? "" : "s"
    } put back as printed (a rule rewrote or cut them)`,
  ];
  for (const { emitted, restored: line } of restored.slice(0, MAX_LISTED)) {
    out.push(`  ~ ${emitted}`);
    out.push(
      line === null ? `    dropped: its input line is already in the output` : `  = ${line}`,
    );
  }
  if (restored.length > MAX_LISTED) out.push(`  … ${restored.length - MAX_LISTED} more`);
  return out;
}

/** Lines of `before` missing from `after` and lines of `after` not in `before`, counted. */
function difference(before: string[], after: string[]): { removed: string[]; added: string[] } {
  const counts = new Map<string, number>();
  for (const line of after) counts.set(line, (counts.get(line) ?? 0) + 1);
  const removed: string[] = [];
  for (const line of before) {
    const n = counts.get(line) ?? 0;
    if (n > 0) counts.set(line, n - 1);
    else removed.push(line);
  }
  const left = new Map<string, number>();
  for (const line of before) left.set(line, (left.get(line) ?? 0) + 1);
  const added: string[] = [];
  for (const line of after) {
    const n = left.get(line) ?? 0;
    if (n > 0) left.set(line, n - 1);
    else added.push(line);
  }
  return { removed, added };
}
