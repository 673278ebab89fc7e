/**
 * The plain forms of `zeph tool <id> [input]` read without commander: commander is CommonJS,
 * and loading CommonJS loads Deno's Node compatibility layer, a large part of a one-shot call's
 * start. The reader knows only the options commander registers from the same lists (GLOBAL_OPTIONS,
 * TOOL_OPTIONS) and declines everything else — help, `--`, unknown or repeated options, options
 * after `tool` other than the tool's own, a value that starts with a dash, more than two operands —
 * which commander then parses as always, so the grammar and the messages stay commander's.
 */
import { GLOBAL_SPELLINGS, type OptionSpelling, spellingsOf } from "./program.ts";
import { TOOL_OPTIONS } from "./tool_cmd.ts";

/** A `zeph tool` line: the option record as commander's `optsWithGlobals()` has it, id, input. */
export interface OneShotCall {
  options: Record<string, unknown>;
  id: string;
  input?: string;
}

const TOOL_SPELLINGS = spellingsOf(TOOL_OPTIONS);

/** The call `args` makes when it is a plain `zeph tool` line; null for commander to parse. */
export function oneShotToolCall(args: readonly string[]): OneShotCall | null {
  const options: Record<string, unknown> = {};
  const set = (spelling: OptionSpelling | undefined, value: unknown) => {
    if (!spelling || spelling.key in options) return false;
    options[spelling.key] = value;
    return true;
  };
  let i = 0;
  for (; i < args.length && args[i] !== "tool"; i++) {
    const eq = args[i].startsWith("--") ? args[i].indexOf("=") : -1;
    const name = eq === -1 ? args[i] : args[i].slice(0, eq);
    const spelling = GLOBAL_SPELLINGS.find((o) => o.names.includes(name));
    if (!spelling?.takesValue) {
      if (eq !== -1 || !set(spelling, true)) return null;
      continue;
    }
    const value = eq === -1 ? args[++i] : args[i].slice(eq + 1);
    if (!value || value.startsWith("-") || !set(spelling, value)) return null;
  }
  if (args[i] !== "tool") return null;
  const operands: string[] = [];
  for (const arg of args.slice(i + 1)) {
    if (arg === "-" || !arg.startsWith("-")) operands.push(arg);
    else if (!set(TOOL_SPELLINGS.find((o) => !o.takesValue && o.names.includes(arg)), true)) {
      return null;
    }
  }
  if (operands.length === 0 || operands.length > 2) return null;
  if (operands.includes("help") || operands[0] === "-") return null;
  return { options, id: operands[0], ...(operands.length === 2 ? { input: operands[1] } : {}) };
}
