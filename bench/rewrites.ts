/**
 * Rewrites audit: the lines a rule emits that are neither a line of its input as printed nor a
 * line the engine adds about what it removed (a marker or a summary). A kept line must stay as
 * the command printed it — an agent (or a grader) looks for facts copied verbatim from the raw
 * output — so every line listed here is a candidate for a lost fact.
 *
 *   deno task bench:rewrites              table: rule → rewritten lines, cases, 2 examples
 *   deno task bench:rewrites --all        every rewritten line, per rule
 *   deno task bench:rewrites --rule NAME  only that rule, every line
 *   deno task bench:rewrites --guard      per case (corpus, goldens, held-out): where the guard
 *                                         shows the input as it came, and where it put lines back
 *
 * It runs every built-in rule's cases: bench/corpus and the goldens under tests/fixtures/filters.
 * What a case's chain finally emits (`FilterEngine.trace`, the engine's guard included) is
 * compared with the lines the rules received, and a line neither kept nor a marker is charged to
 * the first stage that emitted it. The classification is the engine's own (src/filter/verbatim.ts):
 * input lines are compared with ANSI escapes removed and surrounding spaces trimmed; markers
 * (`isMarker`) are the engine's own lines, and every other line is kept, cut or rewritten
 * (`kindOf`). What is left are lines the guard found no single source for (joins, summaries) and
 * the output of rules that declare it a rendering (`rendered = true`) or read JSON.
 *
 * A `json` stage reads a JSON reporter: its input has no lines "as printed" to keep, so its lines
 * are counted apart, as rendered from JSON, when they carry a string of the JSON verbatim (a
 * finding's message, a record's rendered text); one that carries none is a rewrite.
 */
import { defaultConfig } from "../src/config/schema.ts";
import {
  isMarker,
  type Kind,
  kindOf,
  loadFilterEngine,
  normalLine as normal,
} from "../src/filter/mod.ts";
import { readCorpus } from "./filters_bench.ts";

const FIXTURES = new URL("../tests/fixtures/filters/", import.meta.url);

interface AuditCase {
  source: string;
  command: string;
  text: string;
  failed: boolean;
}

/** The goldens' inputs: `<rule>/<case>.in.txt` with its command in `<case>.cmd`. */
async function readGoldens(): Promise<AuditCase[]> {
  const cases: AuditCase[] = [];
  const rules = [];
  for await (const e of Deno.readDir(FIXTURES)) if (e.isDirectory) rules.push(e.name);
  for (const rule of rules.sort()) {
    const dir = new URL(`${rule}/`, FIXTURES);
    const names = [];
    for await (const e of Deno.readDir(dir)) {
      if (e.name.endsWith(".in.txt")) names.push(e.name.slice(0, -".in.txt".length));
    }
    for (const name of names.sort()) {
      const [command, exitLine = ""] = (await Deno.readTextFile(new URL(`${name}.cmd`, dir)))
        .split("\n");
      cases.push({
        source: `golden ${rule}/${name}`,
        command,
        text: await Deno.readTextFile(new URL(`${name}.in.txt`, dir)),
        failed: /^exit [1-9-]/.test(exitLine),
      });
    }
  }
  return cases;
}

interface Finding {
  rule: string;
  source: string;
  line: string;
  kind: Exclude<AuditKind, "kept">;
}

/** A line's kind in the audit: the engine's, or rendered from JSON. */
type AuditKind = Kind | "json";

/**
 * Every line of every string in the JSON of `lines` (a document or JSON lines), trimmed, blank
 * ones left out: what a rendering of that JSON can copy verbatim.
 */
export function jsonStrings(lines: string[]): Set<string> {
  const strings = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === "string") {
      for (const part of value.split(/\r?\n/)) if (part.trim()) strings.add(part.trim());
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  const parse = (text: string) => {
    try {
      walk(JSON.parse(text));
      return true;
    } catch {
      return false;
    }
  };
  if (!parse(lines.join("\n"))) { for (const line of lines) parse(line); }
  return strings;
}

/** A line a `json` stage emits: rendered from JSON when it carries one of `strings` whole. */
function jsonKindOf(line: string, strings: Set<string>): AuditKind {
  const t = normal(line);
  for (const s of strings) if (t.includes(s)) return "json";
  return "rewritten";
}

/** The held-out proxy set's cases, read only to count what the guard does on them. */
const HELDOUT = new URL("./heldout/", import.meta.url);

interface GuardCase {
  source: string;
  /** The rules' names that ran. */
  rules: string[];
  /** Emitted lines the guard put back as printed. */
  restored: number;
  /** The guard's lines outgrew the input: the input is shown as it came. */
  asInput: boolean;
}

/**
 * What the guard does on every case: the cases whose input it shows as it came (`asInput`, the
 * rules' saving lost) and those where it put emitted lines back as printed (a rule rewrote them).
 */
export async function guardAudit(): Promise<GuardCase[]> {
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
  const cases = [
    ...(await readCorpus()).map((c) => ({ ...c, source: `corpus ${c.family}/${c.name}` })),
    ...await readGoldens(),
    ...(await readCorpus(HELDOUT)).map((c) => ({ ...c, source: `heldout ${c.family}/${c.name}` })),
  ];
  const out: GuardCase[] = [];
  for (const c of cases) {
    const stages = engine.trace(c.command, c.text, { failed: c.failed });
    const guard = stages.find((s) => s.type === "guard");
    if (!guard?.restored?.length) continue;
    out.push({
      source: c.source,
      rules: stages.filter((s) => !["sanitize", "cut", "guard"].includes(s.type)).map((s) =>
        s.name
      ),
      restored: guard.restored.length,
      asInput: guard.asInput ?? false,
    });
  }
  return out;
}

export async function audit(): Promise<{ findings: Finding[]; runs: Map<string, number> }> {
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
  const corpus = (await readCorpus()).map((c) => ({
    source: `corpus ${c.family}/${c.name}`,
    command: c.command,
    text: c.text,
    failed: c.failed,
  }));
  const cases = [...corpus, ...await readGoldens()];
  const findings: Finding[] = [];
  const runs = new Map<string, number>();
  for (const c of cases) {
    const stages = engine.trace(c.command, c.text, { failed: c.failed });
    // What the rules received (after the sanitising step, or the huge-line cut) against what the
    // chain finally emits (after the guard): each line neither kept nor a marker is charged to the
    // first stage that emitted it.
    const rules = stages.filter((s) => s.type !== "sanitize" && s.type !== "cut");
    const steps = rules.filter((s) => s.type !== "guard");
    if (!steps.length) continue;
    for (const stage of steps) runs.set(stage.name, (runs.get(stage.name) ?? 0) + 1);
    const inputs = new Set(steps[0].input.map(normal));
    const long = [...inputs].filter((l) => l.length >= 8);
    const emitted = steps.map((s) => new Set(s.output));
    const markers = engine.match(c.command).flatMap((rule) => rule.markers ?? []);
    const strings = steps.some((s) => s.type === "json") ? jsonStrings(steps[0].input) : null;
    const seen = new Set<string>();
    for (const line of rules.at(-1)!.output) {
      if (seen.has(line) || isMarker(line) || markers.some((m) => m.test(normal(line)))) continue;
      seen.add(line);
      let kind: AuditKind = kindOf(line, inputs, long);
      if (kind !== "kept" && strings) kind = jsonKindOf(line, strings);
      if (kind === "kept") continue;
      const by = steps[emitted.findIndex((lines) => lines.has(line))] ?? steps.at(-1)!;
      findings.push({ rule: by.name, source: c.source, line, kind });
    }
  }
  return { findings, runs };
}

if (import.meta.main && Deno.args.includes("--guard")) {
  const cases = await guardAudit();
  console.log("| case | rules | lines put back | input shown as it came |");
  console.log("|---|---|---:|---|");
  for (const c of cases) {
    console.log(
      `| ${c.source} | ${c.rules.join(", ")} | ${c.restored} | ${c.asInput ? "yes" : ""} |`,
    );
  }
  const fallbacks = cases.filter((c) => c.asInput).length;
  const lines = cases.reduce((n, c) => n + c.restored, 0);
  console.log(
    `\ninput shown as it came ${fallbacks}, lines put back ${lines} in ${cases.length} cases`,
  );
} else if (import.meta.main) {
  const args = Deno.args;
  const only = args.includes("--rule") ? args[args.indexOf("--rule") + 1] : null;
  const all = args.includes("--all") || only !== null;
  const { findings, runs } = await audit();
  const byRule = new Map<string, Finding[]>();
  for (const f of findings) {
    if (only && f.rule !== only) continue;
    byRule.set(f.rule, [...byRule.get(f.rule) ?? [], f]);
  }
  const count = (fs: Finding[], kind: AuditKind) => fs.filter((f) => f.kind === kind).length;
  const rows = [...byRule].sort((a, b) =>
    count(b[1], "rewritten") - count(a[1], "rewritten") || b[1].length - a[1].length
  );
  const clip = (s: string) => s.length > 70 ? `${s.slice(0, 67)}...` : s;
  console.log(
    "| rule | runs | rewritten lines | cut lines | rendered from JSON | cases | examples (rewritten first) |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---|");
  for (const [rule, fs] of rows) {
    const cases = new Set(fs.map((f) => f.source)).size;
    const first = [
      ...fs.filter((f) => f.kind === "rewritten"),
      ...fs.filter((f) => f.kind === "cut"),
      ...fs.filter((f) => f.kind === "json"),
    ];
    const examples = first.slice(0, 2).map((f) => `\`${clip(f.line).replaceAll("|", "\\|")}\``);
    console.log(
      `| ${rule} | ${runs.get(rule)} | ${count(fs, "rewritten")} | ${count(fs, "cut")} | ${
        count(fs, "json")
      } | ${cases} | ${examples.join(" ")} |`,
    );
  }
  const total = (kind: AuditKind) => rows.reduce((n, [, fs]) => n + count(fs, kind), 0);
  console.log(
    `\nrewritten lines ${total("rewritten")}, cut lines ${total("cut")}, rendered from JSON ${
      total("json")
    }, by ${rows.length} of ${runs.size} stages run`,
  );
  if (all) {
    for (const [rule, fs] of rows) {
      console.log(`\n## ${rule}`);
      for (const f of fs) console.log(`  ${f.kind} ${f.source}: ${f.line}`);
    }
  }
}
