/**
 * Pathological whole outputs for the filter engine, by class: the shapes that make an algorithm
 * over many lines quadratic (many distinct lines, many identical ones, the same words in other
 * orders, many indentations, many numbers, thousands of CRs in one line, thousands of files, a
 * group of many members, one huge line, many one-character lines). Each class is built from a
 * rule's own golden inputs (tests/fixtures/filters/<rule>/), so the lines are near misses of the
 * rule's shapes, and grown to a size in bytes. Shared by bench/fuzz_filters.ts and
 * tests/filter/fuzz_linear_test.ts.
 */
import { prng } from "../tests/_support/random.ts";
import type { FilterEngine } from "../src/filter/mod.ts";

const FIXTURES = new URL("../tests/fixtures/filters/", import.meta.url);

/** A command path through the engine: the rules it matches (none: the no-rule paths). */
export interface Target {
  /** The rules' names joined with `+`, or `(no rule)`/`(no rule, content)`. */
  label: string;
  command: string;
  /** Lines of the rules' golden inputs (of a generic output for the no-rule paths). */
  lines: string[];
}

/** A made-up tool's output for the no-rule paths: a build log with a failure. */
const NO_RULE_LINES = [
  "Starting build of project alpha",
  "[1/40] compiling src/main.c",
  "  warning: unused variable 'x' at src/main.c:12:5",
  "Progress: 45% (900/2000)",
  "ERROR: failed to link target alpha: undefined reference to `beta'",
  "    at Module.load (internal/modules/cjs/loader.js:1032:32)",
  "Traceback (most recent call last):",
  '  File "/srv/app/main.py", line 7, in <module>',
  "ValueError: bad value 42",
  "ok 3 - parses the header",
  "src/lib/util.ts:10:3 - error TS2322: Type 'string' is not assignable to type 'number'.",
  "==1234== Invalid read of size 4",
  "Shadow bytes around the buggy address:",
  "  0x0c047fff8000: fa fa 00 00 00 00 fa fa fa fa fd fd fd fd fa fa",
  "",
  "Done in 12.3s",
];

/**
 * One target per distinct chain of built-in rules (each rule's first golden command that matches
 * it), then the two no-rule paths: an unknown tool (the generic pass) and `cat` (content, passed
 * through).
 */
export async function targets(engine: FilterEngine): Promise<Target[]> {
  const byLabel = new Map<string, Target>();
  for (const rule of engine.rules) {
    const dir = new URL(`${rule.name}/`, FIXTURES);
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      continue;
    }
    let command: string | undefined;
    const lines: string[] = [];
    for (const e of entries) {
      if (e.name.endsWith(".cmd") && command === undefined) {
        const first = (await Deno.readTextFile(new URL(e.name, dir))).split("\n")[0];
        if (engine.match(first).includes(rule)) command = first;
      }
      if (e.name.endsWith(".in.txt")) {
        lines.push(...(await Deno.readTextFile(new URL(e.name, dir))).split("\n"));
      }
    }
    if (command === undefined) continue;
    const label = engine.match(command).map((r) => r.name).join("+");
    const known = byLabel.get(label);
    if (known) known.lines.push(...lines);
    else byLabel.set(label, { label, command, lines });
  }
  return [
    ...byLabel.values(),
    { label: "(no rule)", command: "fuzz-unknown-tool --all", lines: NO_RULE_LINES },
    { label: "(no rule, content)", command: "cat notes.txt", lines: NO_RULE_LINES },
  ];
}

/** Builds an input of about `bytes` characters from a target's lines. */
export type Build = (lines: string[], bytes: number) => string;

/** Lines from `next(i)` until `bytes` characters. */
function grow(bytes: number, next: (i: number) => string): string {
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = next(i);
    out.push(line);
    size += line.length + 1;
  }
  return out.join("\n");
}

/** The non-blank lines, or one placeholder. */
const nonBlank = (lines: string[]) => {
  const kept = lines.filter((l) => l.trim() !== "");
  return kept.length ? kept : ["x"];
};

/** Words of a line shuffled, its indentation kept. */
function shuffle(line: string, random: () => number): string {
  const lead = line.slice(0, line.length - line.trimStart().length);
  const words = line.trim().split(/\s+/);
  for (let i = words.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [words[i], words[j]] = [words[j], words[i]];
  }
  return lead + words.join(" ");
}

/** Lines of a rule's input followed by a long line in `long_lines`. */
const LONG_LINE_SLOTS = 32;
/** What the long lines repeat: symbols and near misses of gutters, locations and lists. */
const LONG_SHAPES = [" ", "1", ":", "a", " 1", "-", "/", "|", "\t", "a:", "1 ", ". ", "= "];

/** The pathological classes, by name. */
export const CLASSES: Record<string, Build> = {
  /** The golden inputs repeated: every line printed many times. */
  identical: (lines, bytes) => grow(bytes, (i) => lines[i % lines.length]),
  /** Every line made distinct: a counter at its end. */
  distinct: (lines, bytes) => grow(bytes, (i) => `${lines[i % lines.length]} ${i}`),
  /** Every number of every line replaced by a counter: the same shapes at new locations. */
  renumbered: (lines, bytes) => {
    const all = nonBlank(lines);
    return grow(bytes, (i) => {
      let n = i;
      return all[i % all.length].replace(/\d+/g, () => String(n++ % 100_000));
    });
  },
  /** The same words in other orders, each line many times over. */
  shuffled: (lines, bytes) => {
    const random = prng(7);
    const all = nonBlank(lines);
    return grow(bytes, (i) => shuffle(all[i % all.length], random));
  },
  /** Every line at a new indentation (up to 2,000 columns). */
  indents: (lines, bytes) => {
    const all = nonBlank(lines);
    return grow(bytes, (i) => " ".repeat(i % 2000) + all[i % all.length].trimStart());
  },
  /** Lines of many numbers: a line's own followed by a hundred more. */
  numbers: (lines, bytes) => {
    const all = nonBlank(lines);
    return grow(bytes, (i) => {
      const tail = Array.from({ length: 100 }, (_, k) => (i * 7 + k * 13) % 1000).join(" ");
      return `${all[i % all.length]} ${tail}`;
    });
  },
  /** Lines of thousands of CR redraws, statuses, plain and a real message last. */
  crs: (lines, bytes) => {
    const all = nonBlank(lines);
    return grow(bytes, (i) => {
      const redraws = Array.from({ length: 4000 }, (_, k) => `${k % 100}%`).join("\r");
      return i % 2 ? `${redraws}\r${all[i % all.length]}` : `${all[i % all.length]}\r`.repeat(50);
    });
  },
  /** grep/compiler output over thousands of files, each line a near miss of the rule's lines. */
  files: (lines, bytes) => {
    const all = nonBlank(lines);
    return grow(
      bytes,
      (i) => `src/pkg${i % 997}/file${i}.ts:${(i % 500) + 1}:${all[i % all.length].trim()}`,
    );
  },
  /** One message said at many locations: a group of as many members as there are lines. */
  group: (lines, bytes) => {
    const all = nonBlank(lines);
    const message = all.reduce((a, b) => (b.length > a.length && b.length < 200 ? b : a), "");
    return grow(bytes, (i) => {
      const at = `src/f${i % 5000}.ts:${i + 1}:${(i % 80) + 1}`;
      return i % 3 === 0
        ? `${at}: error: ${message.trim()}`
        : i % 3 === 1
        ? `  ${at}  error  ${message.trim()}  rule-${i % 3}`
        : `${at} - error TS2322: ${message.trim()}`;
    });
  },
  /**
   * The rule's own lines with a long line after each of the first 32, of one symbol or a short
   * shape, its length growing with the size: a pattern that backtracks quadratically on a line
   * where the rule's state (a diagnostic open, a failure being read) makes it run.
   */
  long_lines: (lines, bytes) => {
    const all = nonBlank(lines).slice(0, LONG_LINE_SLOTS);
    const length = Math.floor(bytes / all.length);
    return all.flatMap((line, i) => {
      const shape = LONG_SHAPES[i % LONG_SHAPES.length];
      // Ended by another character: a run that fails only at its end makes a pattern retry.
      return [line, `${shape.repeat(Math.ceil(length / shape.length)).slice(0, length)}x`];
    }).join("\n");
  },
  /** The lines joined into one line of the whole size. */
  huge_line: (lines, bytes) => {
    const all = nonBlank(lines).join(" ");
    return all.repeat(Math.ceil(bytes / (all.length + 1))).slice(0, bytes);
  },
  /** Hundreds of thousands of one-character lines. */
  one_char: (_lines, bytes) => {
    const chars = ["a", "-", "}", " ", ".", "1", "|", "#"];
    return grow(bytes, (i) => chars[Math.floor(i / 1000) % chars.length]);
  },
};

/** CPU time of this thread in ms (Linux: /proc/thread-self/schedstat), else wall time. */
export function cpuMs(): number {
  try {
    return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1e6;
  } catch {
    return performance.now();
  }
}

/** CPU ms of the fastest of `runs` filter runs of one input. */
export function filterCpuMs(
  engine: FilterEngine,
  target: Target,
  input: string,
  options: { failed: boolean; runs?: number },
): number {
  let best = Infinity;
  for (let run = 0; run < (options.runs ?? 1); run++) {
    const start = cpuMs();
    engine.filter(target.command, input, { failed: options.failed });
    best = Math.min(best, cpuMs() - start);
  }
  return best;
}
