/**
 * group_by_rule: groups diagnostics (clippy, rustc, eslint, deno lint, tsc) by their rule and
 * prints one block per rule: `rule (N warnings): first message`, then the locations. It never
 * rewrites a diagnostic's head: a one-line diagnostic keeps its line up to the message as printed
 * (`src/a.ts(7,44): error TS2345:`), the first of each message its whole line, and a diagnostic
 * alone in its group is shown as printed; locations stay as the tool wrote them. Errors are
 * kept verbatim (their code frames are what the model needs), unless `group_errors` is set
 * (linters whose every finding is an "error"); then an error alone in its group keeps the code
 * frames printed under it (`frame_pattern`), a flood of one code shows none. Improvement over
 * the reference: a warning without a rule line (rustc names the lint only once) is grouped by
 * its message with quoted names elided, errors no longer disable the grouping, and single-line
 * formats are supported through `line_pattern` (named groups `loc`, `rule`, `msg`, optional `sev`)
 * plus `file_pattern`; lines
 * matching `continuation_pattern` right after such a diagnostic (tsc's indented elaboration) belong
 * to it and are shown under its location, not left at the end. A start line may carry the
 * location (`loc` group) and leave the message to the next line matching `message_line_pattern`
 * (biome: `path:3:8 lint/x/y`, then `  × message`, lines indented under it continuing it).
 * A diagnostic's related information (a later line naming another location, deno's `    at …`
 * or rustc's `-->` under a `note:`, with the explanation before it) stays under its location.
 * Where the location is a line of its own (rustc's `  --> a.rs:3:9`), the first few messages of
 * one shape are shown whole though they differ only by their names, and a few other places
 * saying a message shown keep that line as printed under it.
 * With `file_layout`, findings under a file line (eslint's stylish) are not regrouped: the tool's
 * layout stays as printed and only repeats fold (_file_layout.ts).
 */
import { appendAll, HeldLines } from "../arrays.ts";
import { z } from "zod";
import type { Pattern, RegexEngine } from "../regex.ts";
import { indentOf } from "../sanitize.ts";
import {
  type CompiledStrategy,
  emitLines,
  RuleFieldError,
  type Stage,
  type StageContext,
} from "../types.ts";
import {
  anyMatcher,
  FAILURE_SIGNAL,
  keepFailuresPast,
  namedGroups,
  optionalPatternField,
  patternField,
  patternList,
  refuseUnknownGroups,
  requireNamedGroups,
} from "./_shared.ts";
import { keepFileLayout } from "./_file_layout.ts";
import { COMPILER_TRAILER } from "../signals.ts";

/**
 * cargo's progress. A registry or git dependency's `Compiling serde v1.0.197` is noise; a
 * workspace crate's, which names its path (`Compiling app v0.1.0 (/src/app)`), says what was
 * built and stays on a clean run (`CARGO_GROUPED_NOISE`).
 */
const CARGO_NOISE = [
  "^\\s*Compiling [\\w-]{1,100} v\\S{1,60}( \\((registry|sparse|git)?\\+?[a-z]{2,10}://[^)]{0,400}\\))?$",
  "^\\s*(Checking|Downloading|Downloaded|Updating|Fetching|Fresh|Packaging|Verifying|Archiving|Locking|Adding|Removing|Documenting|Blocking|Unpacking|Building|Locked) ",
  // rustc's pointers to the long explanations of error codes: each error keeps its code.
  "^For more information about (this|an) error, try `rustc --explain",
  "^Some errors have detailed explanations: [\\w, ]{1,300}\\.$",
];
/**
 * `quoted_source`: a quote of more lines than this is no quote of one finding's code (its lines
 * stay where they were), and the findings of one file line after this many are shown without it:
 * each copy is the quote again, so the output stays within a few times the input.
 */
const MAX_QUOTED_LINES = 8;
/**
 * The messages of one shape (`writing \`&String\` instead of \`&str\``, `\`&Vec\` … \`&[_]\``)
 * shown whole when the location is a line of its own (rustc's layout) before the others are said
 * by their names: a few differing messages read as printed, a long run of them (a dead-code
 * warning per item) stays one line of names.
 */
const SPELLED_MESSAGES = 3;
/**
 * The other places saying one such message whose location lines (`  --> a.rs:9:16`) are listed
 * under it as printed; more go on one line of locations (`… 9 more saying this at …`).
 */
const LISTED_PLACES = 3;
const MAX_QUOTE_COPIES = 8;
/**
 * The places saying one message from which its error lines are a flood: past the first in each
 * file they are counted with their locations. Fewer are each shown as printed.
 */
const FLOOD = 4;
/** Once warnings are grouped, the workspace crates' `Compiling` lines (the build's names them). */
const CARGO_GROUPED_NOISE = ["^\\s*Compiling [\\w-]{1,100} v\\S{1,60} \\([^)]{1,400}\\)$"];

export const GroupByRuleConfig = z.object({
  type: z.literal("group_by_rule"),
  location_pattern: z.string().default("^\\s*--> (\\S{1,400}:\\d{1,7}:\\d{1,7})").describe(
    "Regex whose group 1 is a diagnostic's location",
  ),
  rule_pattern: z.string().default(
    "#\\[(?:warn|deny|forbid)\\(([\\w:]{1,100})\\)\\]|rust-clippy/[\\w.-]{1,40}/index\\.html#(\\w{1,100})",
  ).describe("Regex whose first matching group is the rule name"),
  message_pattern: z.string().default("^(?:warning|error)(?:\\[(?P<rule>[\\w:/-]+)\\])?: \\S")
    .describe(
      "Regex of the line that starts a diagnostic (named groups `rule`, `msg` (the message) and `loc` (its location), optional)",
    ),
  message_line_pattern: z.string().optional().describe(
    "Regex of the line after the start that holds the message (group `msg`), when the start line has none (biome)",
  ),
  line_pattern: z.string().optional().describe(
    "Regex of a one-line diagnostic, with the named groups loc (its location; under a file_pattern line, the position), rule (the lint's id; with file_layout optional), msg (the message), optional sev (`error` keeps it ungrouped unless group_errors) and optional lineno (the line number where the tool prints it apart from the file, as puppet-lint's `a.pp - WARNING: … on line 4`: the location is `loc:lineno`)",
  ),
  file_pattern: z.string().optional().describe(
    "Regex whose group 1 names the file for the one-line diagnostics that follow",
  ),
  continuation_pattern: z.string().optional().describe(
    "Regex of the lines that continue the one-line diagnostic before them (shown under its location; with file_layout, part of the finding: shown and folded with it, its group `msg` continuing the message)",
  ),
  end_pattern: z.string().optional().describe(
    "Regex of a line that ends the diagnostic before it and stays (oxlint's `Found N warnings` summary)",
  ),
  frame_pattern: z.string().optional().describe(
    "Regex of the mark under a quoted code line (rubocop's `^^^^`): the mark and the code line above it are dropped, but under a one-line error alone in its group (shown as printed, frames and all)",
  ),
  error_frame_pattern: z.string().optional().describe(
    "Regex of a code frame's lines (gcc's `    5 |   return x;` and its caret line): right after a loose error line they stay with it, elsewhere (a warning's) they are dropped",
  ),
  failed_file_patterns: z.array(z.string()).default([]).describe(
    "Regexes whose group `file` names what failed (make's `*** [Makefile:9: src/a.o] Error 1`, an error's `src/a.c`): a grouped_noise line with that name as a word (its compile command) stays, leading with the failures",
  ),
  command_patterns: z.array(z.string()).default([]).describe(
    "Regexes of echoed commands (CMake's `/usr/bin/cc … -c src/a.c`) dropped, grouped or not, except those naming what failed (`failed_file_patterns`), which lead with the failures",
  ),
  noise_patterns: z.array(z.string()).default(CARGO_NOISE).describe(
    "Lines dropped outright (the default drops cargo's progress lines: set [] or your tool's own)",
  ),
  grouped_noise_patterns: z.array(z.string()).default(CARGO_GROUPED_NOISE).describe(
    "Lines dropped only when diagnostics were grouped (clippy's `Finished` timing line); a clean run keeps them",
  ),
  quoted_source: z.boolean().default(false).describe(
    "Under a file line (`file_pattern`), the lines before its first finding are the code it quotes (shellcheck): kept as printed under each finding of that line",
  ),
  drop_context: z.boolean().default(false).describe(
    "Drop the lines outside diagnostics (shellcheck's source echo and suggested fix) when grouped; loose failure lines stay",
  ),
  group_errors: z.boolean().default(false).describe("Group errors too instead of keeping them"),
  blank_ends: z.boolean().default(false).describe(
    "A blank line ends the diagnostic before it (rustc ends each with one): the lines after it up to the next diagnostic are the command's own (`cargo run -q`'s program output)",
  ),
  lead_patterns: z.array(z.string()).default([]).describe(
    "Lines that lead with the loose error lines, in their order, when grouped (make's directory lines around an error)",
  ),
  module_patterns: z.array(z.string()).default([]).describe(
    "Lines naming the module of the findings under them (pylint's `************* Module pkg.mod`): when grouped one stays right before the first of its findings kept as printed, and goes when they all grouped away",
  ),
  head_patterns: z.array(z.string()).default([]).describe(
    "Lines that head the line kept after them (gcc's `In file included from …` chain): when grouped they stay right before it, leading or trailing with it; with file_layout, lines between a file line and its findings (phpcs's `FOUND 3 ERRORS …`)",
  ),
  context_patterns: z.array(z.string()).default([]).describe(
    "Lines that say where the diagnostic right after them is (gcc's `In function …:`): noise before a finding that `line_pattern` reads (it is grouped, and names its file), a head (see head_patterns) before any other line (an error)",
  ),
  max_locations: z.number().int().min(1).default(20).describe("Locations listed per rule"),
  max_error_lines: z.number().int().min(1).default(40).describe("Lines kept per error"),
  file_layout: z.boolean().default(false).describe(
    "Findings under a file line (`file_pattern`) stay as printed, in the tool's order (eslint's stylish format); only findings of one rule and message past max_repeats fold, into one line per file of their positions and rules",
  ),
  per_file: z.boolean().default(false).describe(
    "A message's first finding in each file is shown as printed; only its findings within a file fold into `… more saying this`",
  ),
  max_repeats: z.number().int().min(1).default(3).describe(
    "With file_layout: findings of one rule saying one message shown as printed before the rest fold",
  ),
}).strict();
export type GroupByRuleConfig = z.infer<typeof GroupByRuleConfig>;

interface Diagnostic {
  lines: string[];
  message: string;
  error: boolean;
  rule?: string;
  location?: string;
  /** Lines continuing a one-line diagnostic (`continuation_pattern`), also in `lines`. */
  continuation?: string[];
  /**
   * The diagnostic's head as printed, its line up to the message (`src/a.ts(7,44): error
   * TS2345:`), when that line holds its location; grouped, each finding still shows it verbatim.
   */
  head?: string;
  /** Whether `lines[0]` is the whole diagnostic as printed (a one-line format). */
  oneLine?: boolean;
  /**
   * Its line number where the tool prints it apart from the file (`line_pattern`'s `lineno`
   * group): the location joins the two, so the line holds neither whole.
   */
  lineApart?: string;
  /** The module line (`module_patterns`) it stands under, as printed. */
  module?: string;
  /** The line its location was read from, when that is not the start line (rustc's `-->`). */
  locationLine?: string;
  /** The code lines the tool quoted above it (`quoted_source`), as printed. */
  quoted?: string[];
  /** Whether its location joins a file line's file and its own position (eslint's stylish). */
  joined?: boolean;
  /** The file line it stands under, as printed, when its location is joined from it. */
  fileLine?: string;
  /**
   * Its related information: each later line naming a location (deno's `    at a.ts:1:15` under
   * `The expected type comes from …`, rustc's `-->` under `note: …`) with the explanation lines
   * before it, source echoes and their marks dropped. Also in `lines`.
   */
  related?: string[];
  /**
   * The lines between its start and its location line that elaborate its message (deno's
   * `  Types of parameters 'x' and 'x' are incompatible.`), source echoes and marks dropped.
   */
  elaboration?: string[];
  /**
   * The code frames quoted under a one-line diagnostic (`frame_pattern`'s mark and the code line
   * above it), each with the index in `lines` it was printed before: shown when it is printed
   * alone, dropped when grouped.
   */
  frames?: { at: number; line: string; index: number }[];
}

interface Compiled {
  location: Pattern;
  rule: Pattern;
  message: Pattern;
  messageLine?: Pattern;
  line?: Pattern;
  file?: Pattern;
  continuation?: Pattern;
  end?: Pattern;
  frame?: Pattern;
  errorFrame?: Pattern;
  failedFiles: Pattern[];
  /** Whether `line` has a `sev` group: without one, no finding of it is an error. */
  lineSeverity: boolean;
  noise: (line: string) => boolean;
  groupedNoise: (line: string) => boolean;
  command: (line: string) => boolean;
  lead: (line: string) => boolean;
  head: (line: string) => boolean;
  module: (line: string) => boolean;
  context: (line: string) => boolean;
}

export function compileGroupByRule(
  config: GroupByRuleConfig,
  engine: RegexEngine,
): CompiledStrategy {
  const patterns: Compiled = {
    location: patternField(config.location_pattern, "strategy.location_pattern", engine),
    rule: patternField(config.rule_pattern, "strategy.rule_pattern", engine),
    message: patternField(config.message_pattern, "strategy.message_pattern", engine),
    messageLine: optionalPatternField(
      config.message_line_pattern,
      "strategy.message_line_pattern",
      engine,
    ),
    line: optionalPatternField(config.line_pattern, "strategy.line_pattern", engine),
    lineSeverity: /\(\?P?<sev>/.test(config.line_pattern ?? ""),
    file: optionalPatternField(config.file_pattern, "strategy.file_pattern", engine),
    end: optionalPatternField(config.end_pattern, "strategy.end_pattern", engine),
    frame: optionalPatternField(config.frame_pattern, "strategy.frame_pattern", engine),
    errorFrame: optionalPatternField(
      config.error_frame_pattern,
      "strategy.error_frame_pattern",
      engine,
    ),
    failedFiles: patternList(config.failed_file_patterns, "strategy.failed_file_patterns", engine),
    continuation: optionalPatternField(
      config.continuation_pattern,
      "strategy.continuation_pattern",
      engine,
    ),
    noise: anyMatcher(patternList(config.noise_patterns, "strategy.noise_patterns", engine)),
    groupedNoise: anyMatcher(
      patternList(config.grouped_noise_patterns, "strategy.grouped_noise_patterns", engine),
    ),
    command: anyMatcher(patternList(config.command_patterns, "strategy.command_patterns", engine)),
    lead: anyMatcher(patternList(config.lead_patterns, "strategy.lead_patterns", engine)),
    head: anyMatcher(patternList(config.head_patterns, "strategy.head_patterns", engine)),
    module: anyMatcher(patternList(config.module_patterns, "strategy.module_patterns", engine)),
    context: anyMatcher(
      patternList(config.context_patterns, "strategy.context_patterns", engine),
    ),
  };
  const { line, file } = patterns;
  if (config.file_layout && (!line || !file)) {
    throw new RuleFieldError(
      "strategy.file_layout",
      "needs line_pattern and file_pattern (the finding lines and the file lines they stand under); set both or remove file_layout",
    );
  }
  if (config.quoted_source && (!line || !file)) {
    throw new RuleFieldError(
      "strategy.quoted_source",
      "needs line_pattern and file_pattern (the code is quoted between a file line and its first finding line); set both or remove quoted_source",
    );
  }
  checkGroups(config);
  const layout = line && file && config.file_layout
    ? { ...patterns, line, file, keepErrors: !config.group_errors && patterns.lineSeverity }
    : null;
  // The lines that say a finding is this tool's: where its part of a shared output starts and ends.
  const ownLine = line ?? patterns.message;
  // Its echoed compile commands, noise, grouped noise (`cc -c a.c`), leads, heads and contexts
  // (`a.c: In function 'f':`) are its own too (a verbose build after a configure).
  const owns = (text: string) =>
    ownLine.test(text) || (file?.test(text) ?? false) ||
    (text.trim() !== "" &&
      (patterns.command(text) || patterns.noise(text) || patterns.groupedNoise(text) ||
        patterns.lead(text) || patterns.head(text) || patterns.context(text)));
  return {
    type: "group_by_rule",
    // In a compound command's output the other commands' lines pass as printed (`sharedStage`).
    owns,
    createStage(ctx: StageContext): Stage {
      const held = new HeldLines();
      return {
        push: (line) => held.push(line),
        finish() {
          let input = held.take();
          const kept = layout ? keepFileLayout(input, layout, config.max_repeats) : null;
          const result = kept
            ? { lines: kept, confidence: "full" as const }
            : group(input, patterns, config);
          const lines = result?.lines ?? input;
          // The input is let go before the next stage reads what this one emits.
          input = [];
          emitLines(ctx, lines);
          return result?.confidence ?? "fallback";
        },
      };
    },
  };
}

/**
 * The named groups each pattern field is read by: a group it does not read is a misspelt one,
 * and a one-line diagnostic needs its message, its rule and (unless a file line gives it) its
 * location, or the findings lose those parts silently.
 */
function checkGroups(config: GroupByRuleConfig): void {
  refuseUnknownGroups(config.message_pattern, "strategy.message_pattern", ["rule", "msg", "loc"]);
  config.failed_file_patterns.forEach((source, i) => {
    const field = `strategy.failed_file_patterns[${i}]`;
    refuseUnknownGroups(source, field, ["file"]);
    requireNamedGroups(source, field, ["file"], () => "the failed file (`src/a.o`)");
  });
  if (config.message_line_pattern !== undefined) {
    refuseUnknownGroups(config.message_line_pattern, "strategy.message_line_pattern", ["msg"]);
  }
  if (config.line_pattern === undefined) return;
  const field = "strategy.line_pattern";
  refuseUnknownGroups(config.line_pattern, field, ["loc", "rule", "msg", "sev", "lineno"]);
  // A file layout says a finding by its message when the tool prints no rule (phpcs's full
  // report without -s). A line number (`lineno`) is a location of its own: one file linted
  // (puppet-lint's `WARNING: … on line 4`) prints no path.
  const located = namedGroups(config.line_pattern).includes("lineno") ? [] : ["loc"];
  const needed = config.file_pattern === undefined
    ? [...located, "rule", "msg"]
    : config.file_layout
    ? ["msg"]
    : ["rule", "msg"];
  requireNamedGroups(config.line_pattern, field, needed, (name) => LINE_GROUPS[name]);
}

const LINE_GROUPS: Record<string, string> = {
  loc: "the location (`src/a.ts:3:5`; with a file_pattern, the position under the file line)",
  rule: "the rule's id (`no-unused-vars`)",
  msg: "the message",
};

/** A line that is one path and nothing else: one word naming a directory or with an extension. */
function barePath(line: string): boolean {
  const word = line.trim();
  return !/[\s:()]/.test(word) && (word.includes("/") || /\.[A-Za-z]\w{0,9}$/.test(word));
}

function firstGroup(match: { group(i: number | string): string | undefined }): string | undefined {
  for (let i = 1; i < 10; i++) {
    const g = match.group(i);
    if (g) return g;
  }
  return undefined;
}

function group(
  lines: string[],
  p: Compiled,
  config: GroupByRuleConfig,
): { lines: string[]; confidence: "full" | "partial" } | null {
  const diagnostics: Diagnostic[] = [];
  const other: string[] = [];
  let current: Diagnostic | null = null;
  // The last one-line diagnostic, while the lines after it continue it.
  let continued: Diagnostic | null = null;
  let file = "";
  let fileLine = "";
  // The code quoted under the last file line (`quoted_source`), and whether it is still being read.
  let source: string[] = [];
  let quoting = false;
  // The findings of the last file line that carry its quote.
  let copies = 0;
  let noise = 0;
  let awaiting = false;
  // The indent of the message line just read from `message_line_pattern`, else -1.
  let messageIndent = -1;
  // The lines of the current diagnostic since the last line naming a location.
  let sinceLocation: string[] = [];
  // The file of each finding read, with how many loose lines came before it (see `apart`).
  const findingFiles: { at: number; file: string }[] = [];
  const frames = codeFrames(lines, p);
  const inContext = contextKept(lines, p);
  // Which lines are noise, read once: the plain form at the end leaves them out without
  // matching every line again.
  const isNoise = new Uint8Array(lines.length);
  // The code frame lines kept under a loose error (`error_frame_pattern`): their `other`
  // indices; `framing` while the lines read since that error are its frame.
  const framedOther = new Set<number>();
  let framing = false;
  // The module line the findings now read stand under (`module_patterns`), and which lines are one.
  let module: string | undefined;
  const isModule = new Uint8Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (p.module(line)) {
      module = line;
      isModule[i] = 1;
      isNoise[i] = 1;
      noise++;
      continue;
    }
    if (p.errorFrame?.test(line)) {
      if (framing && !current) {
        framedOther.add(other.length);
        other.push(line);
      } else {
        isNoise[i] = 1;
        noise++;
      }
      continue;
    }
    framing = false;
    const context = p.context(line) && inContext[i] === 1;
    if (!context && (frames.has(i) || p.noise(line) || p.context(line) || allDuplicates(line))) {
      if (frames.has(i) && continued?.oneLine) {
        (continued.frames ??= []).push({ at: continued.lines.length, line, index: i });
      }
      isNoise[i] = 1;
      noise++;
      continue;
    }
    if (continued && p.continuation?.test(line)) {
      continued.lines.push(line);
      (continued.continuation ??= []).push(line);
      continue;
    }
    // A blank line inside a diagnostic (tsc --pretty sets its code frame and its related
    // information apart with them) does not end it; a blank line is never shown anyway.
    if (continued && line.trim() === "") continue;
    continued = null;
    const one = p.line?.exec(line);
    if (one) {
      current = null;
      const printedLoc = one.group("loc") ?? "";
      // A line number printed apart from the file (`a.pp - WARNING: … on line 4`) joins it: the
      // findings of one file are told apart by it. Without a file (one file linted) it is the
      // location alone.
      const lineNo = one.group("lineno");
      const loc = lineNo === undefined
        ? printedLoc
        : printedLoc
        ? `${printedLoc}:${lineNo}`
        : `line ${lineNo}`;
      // Under a file line (`file_pattern`) the line holds only a position: no head of its own.
      const underFile = file !== "" && !loc.includes(file);
      if (quoting && source.length > MAX_QUOTED_LINES) {
        appendAll(other, source);
        source = [];
      }
      quoting = false;
      findingFiles.push({ at: other.length, file: fileOf(loc) });
      const quotes = underFile && source.length > 0 && copies++ < MAX_QUOTE_COPIES;
      continued = {
        lines: [line],
        // Shared, not copied: a quote is read whole before its first finding.
        ...(quotes ? { quoted: source } : {}),
        message: (one.group("msg") ?? line).trim(),
        // A format that prints no severity (sqlfluff) has no errors to keep apart: only a
        // finding whose `sev` reads `error` stays ungrouped.
        error: !config.group_errors && p.lineSeverity &&
          (one.group("sev") ?? "error") === "error",
        rule: one.group("rule"),
        location: underFile ? `${file}:${loc}` : loc,
        joined: underFile,
        ...(underFile ? { fileLine } : {}),
        head: underFile ? undefined : headOf(line, printedLoc, one.group("msg")),
        ...(lineNo === undefined ? {} : { lineApart: lineNo }),
        oneLine: !underFile,
        module,
      };
      diagnostics.push(continued);
      continue;
    }
    const fileMatch = p.file?.exec(line);
    if (fileMatch) {
      file = fileMatch.group(1) ?? "";
      fileLine = line;
      current = null;
      // Code quoted under a file line without a finding stays where it was.
      if (quoting) appendAll(other, source);
      source = [];
      copies = 0;
      quoting = config.quoted_source;
      continue;
    }
    const start = p.message.exec(line);
    if (start) {
      const msg = start.group("msg");
      current = {
        lines: [line],
        message: (msg ?? line).trim(),
        error: !config.group_errors && line.startsWith("error"),
        rule: start.group("rule"),
        location: start.group("loc") || undefined,
        module,
      };
      if (current.location) {
        current.head = headOf(line, current.location, msg);
        findingFiles.push({ at: other.length, file: fileOf(current.location) });
      }
      // The message is on a later line (`message_line_pattern`) until one is found.
      awaiting = msg === undefined && p.messageLine !== undefined;
      messageIndent = -1;
      sinceLocation = [];
      diagnostics.push(current);
      continue;
    }
    if (p.end?.test(line) || (config.blank_ends && current?.location && line.trim() === "")) {
      current = null;
    }
    if (!current) {
      if (quoting && line.trim()) source.push(line);
      else if (line.trim()) {
        other.push(line);
        framing = FAILURE_SIGNAL.test(line);
      }
      continue;
    }
    current.lines.push(line);
    const detail = awaiting ? p.messageLine!.exec(line) : null;
    if (detail) {
      current.message = (detail.group("msg") ?? line).trim();
      awaiting = false;
      messageIndent = indentOf(line);
    } else if (messageIndent >= 0 && line.trim() && indentOf(line) > messageIndent) {
      // Lines indented under the message line continue it (biome wraps long messages).
      current.message += ` ${line.trim()}`;
    } else messageIndent = -1;
    const loc = p.location.exec(line);
    if (loc && !current.location) {
      current.location = loc.group(1);
      current.locationLine = line;
      const elaboration = explanation(sinceLocation);
      if (elaboration.length) current.elaboration = elaboration;
    } else if (loc && current.locationLine !== undefined) {
      appendAll(current.related ??= [], explanation(sinceLocation)).push(line);
    } else if (current.locationLine !== undefined || !current.location) sinceLocation.push(line);
    if (loc) sinceLocation = [];
    const rule = current.rule ? undefined : p.rule.exec(line);
    if (rule) current.rule = firstGroup(rule);
  }
  if (quoting) appendAll(other, source);
  const located = diagnostics.filter((d) => d.location);
  if (located.length === 0) {
    const failed = failedFiles(other, diagnostics, p);
    const commands = other.filter((line) => p.command(line) && !namesAny(line, failed)).length;
    if (noise + commands === 0) return null;
    const kept = commands
      ? other.filter((line) => !p.command(line) || namesAny(line, failed))
      : other;
    // Only echoed commands dropped (a clean verbose build) is a shape read in full.
    const confidence = noise ? "partial" : "full";
    // `kept` may be `other` itself: the diagnostics' lines go after it, with no copy of it.
    for (const d of diagnostics) appendAll(kept, d.lines);
    return { lines: kept, confidence };
  }

  // A message repeats (one warning in every file of a build): its shape is made once.
  const shapeByMessage = new Map<string, string>();
  const shapeOf = (message: string): string => {
    let shape = shapeByMessage.get(message);
    if (shape === undefined) shapeByMessage.set(message, shape = elideNames(message));
    return shape;
  };
  // rustc names a lint only on its first occurrence; later ones with the same message shape
  // inherit it.
  const ruleByShape = new Map<string, string>();
  for (const d of diagnostics) if (d.rule) ruleByShape.set(shapeOf(d.message), d.rule);
  for (const d of diagnostics) d.rule ??= ruleByShape.get(shapeOf(d.message));

  const out: string[] = [];
  const groups = new Map<string, Diagnostic[]>();
  let summaries: string[] = [];
  // The file line of the last error shown under one, while errors of that file follow.
  let errorFile: string | undefined;
  for (const d of diagnostics) {
    // Past the cap of lines per diagnostic, its failure lines and every location stay.
    const cut = { marker: (n: number) => `... (${n} more lines)`, everyLocation: true };
    if (!d.location) {
      appendAll(summaries, keepFailuresPast(trimBlank(d.lines), config.max_error_lines, cut));
      continue;
    }
    if (d.error) {
      // An error under a file line holds only its position: its file line stays above it, once
      // for the errors of that file that follow one another.
      if (d.fileLine !== undefined) {
        if (d.fileLine !== errorFile) out.push(d.fileLine);
        errorFile = d.fileLine;
        appendAll(out, keepFailuresPast(trimBlank(d.lines), config.max_error_lines, cut));
        continue;
      }
      if (errorFile !== undefined) out.push("");
      errorFile = undefined;
      const error = keepFailuresPast(trimBlank(d.lines), config.max_error_lines, cut);
      // A blank line sets an error of several lines (its code frame, its notes) apart from what
      // follows it; an error of one line is apart already, so the output grows by none.
      appendAll(out, error);
      if (error.length > 1) out.push("");
      continue;
    }
    const key = d.rule ?? shapeOf(d.message);
    const list = groups.get(key) ?? [];
    list.push(d);
    groups.set(key, list);
  }
  // Locations joined from a file line and a position were never printed whole: the absolute
  // directory they all share (eslint prints absolute paths) is said once. Printed ones stay whole.
  const joined = [...groups.values()].flat().filter((d) => d.joined);
  const base = commonDirectory(joined.map((d) => d.location!));
  if (/^(\/|[A-Za-z]:[\\/])/.test(base) && base.length >= 8 && joined.length >= 3) {
    out.push(`files under ${base}:`);
    for (const d of joined) d.location = d.location!.slice(base.length);
  }
  let findings = 0;
  const lastFinding = diagnostics.findLast((d) => d.location !== undefined && !d.error);
  for (const [key, list] of groups) {
    findings += list.length;
    const first = stripSeverity(list[0].message);
    const keyed = list[0].rule !== undefined;
    // A rule found once is said as the tool printed it: its line(s), or its start line and the
    // line naming its location; else its location first (`a.ts:3:1 no-var: message`).
    if (list.length === 1) {
      const single = printedAlone(list[0]);
      if (single) {
        appendAll(out, single);
        continue;
      }
      // One with the code it quotes: as printed, its file line, that code and its finding line.
      if (list[0].quoted) {
        out.push(list[0].location!);
        appendAll(out, list[0].quoted).push(list[0].lines[0]);
        continue;
      }
      if (underLocation(list[0]).length === 0) {
        out.push(`${list[0].location} ${keyed ? `${key}: ` : ""}${first}`);
        continue;
      }
    }
    // Findings whose line holds their location are listed as printed, those saying one message
    // together: the first whole, the others by their head (`  src/a.ts(9,3): error TS2345:`);
    // past max_locations only heads. The group line is then the rule and count. Else the rule and
    // message as the tool prints them (`eslint(eqeqeq): Expected …`), then the count.
    const headed = list.every(asPrinted);
    // Else the group's head is its first finding's line as printed (shellcheck's
    // `^--^ SC2045 (error): …` under the code it marks), then the count: a head rebuilt from the
    // rule and message would say the finding in other words, or cut it.
    const printed = keyed ? findingLine(list[0], key, first) : null;
    out.push(
      headed
        ? `${keyed ? key : stripSeverity(key)} (${list.length}):`
        : printed !== null
        ? `${printed} (${list.length})`
        : keyed
        ? `${key}: ${first} (${list.length})`
        : `${stripSeverity(key)} (${list.length})`,
    );
    // message → head → its first finding and how often it was printed (a repeated build).
    // Findings fold together only when their lines are equal in everything but their location:
    // a mark beside the message (rubocop's `[Corrected]` among `[Correctable]`, another
    // severity) keeps them apart (`sayingOf`).
    const byMessage = new Map<string, Map<string, { d: Diagnostic; n: number }>>();
    for (const d of list.filter(asPrinted)) {
      const saying = sayingOf(d);
      const same = byMessage.get(saying) ?? new Map<string, { d: Diagnostic; n: number }>();
      // A head without the line number (`a.pp - WARNING: `) is one per file: the location
      // tells its places apart.
      const at = d.lineApart === undefined ? d.head ?? d.location! : d.location!;
      const seen = same.get(at);
      if (seen) seen.n++;
      else same.set(at, { d, n: 1 });
      byMessage.set(saying, same);
    }
    // Each member stays as printed (indented under its header: the guard compares lines with
    // their indentation aside). The first finding of each message is shown whole, up to
    // max_locations of them; the others of that cap are counted in a marker with their
    // locations. A finding saying a message already shown is counted under it with its location
    // (nothing is lost but the message said again), unless lines continue it. A finding whose
    // line carries a failure signal (an error, a linter's `error` label) is never counted away.
    let shown = 0;
    /** The messages of the current shape shown whole with their location on a line of its own. */
    const spelled = new Set<string>();
    const counted: string[] = [];
    /** The findings of the current shape said by their location and names (`a.c:3:7 ‘b’`). */
    const like: string[] = [];
    const failure = (d: Diagnostic) => FAILURE_SIGNAL.test(d.lines[0]);
    // Messages of one shape (the same words but for quoted names: `unused variable ‘a’`, `‘b’`)
    // go together: the first in each file is shown, the others said again only by their names.
    const byShape = new Map<string, string[]>();
    /** The files of the current shape with a finding shown whole. */
    const files = new Set<string>();
    for (const saying of byMessage.keys()) {
      const shape = shapeOf(saying);
      const sayings = byShape.get(shape);
      if (sayings) sayings.push(saying);
      else byShape.set(shape, [saying]);
    }
    const messageOf = (saying: string) => byMessage.get(saying)!.values().next().value!.d.message;
    for (
      const [saying, members] of [...byShape.values()].flat().map((m) =>
        [m, byMessage.get(m)!] as const
      )
    ) {
      const message = messageOf(saying);
      const same: string[] = [];
      /** The files this message was found in so far. */
      const said = new Set<string>();
      /** The files where a finding saying this message was shown whole. */
      const wholeIn = new Set<string>();
      /** How many places say this message, a place printed twice counted twice. */
      const places = [...members.values()].reduce((n, m) => n + m.n, 0);
      const leading = byShape.get(shapeOf(saying))![0];
      // The shape's first message is said, whole or by its location, in each of its files.
      if (saying === leading) {
        for (const { d } of members.values()) files.add(fileOf(d.location!));
      }
      [...members.values()].forEach(({ d, n }, i) => {
        const under = underLocation(d);
        const file = fileOf(d.location!);
        // Its location on a line of its own (rustc's `  --> a.rs:3:9`), not in its start line.
        const ownLine = d.head === undefined;
        // A finding saying its shape's first message but for its names, in a file where that
        // shape was said, is that message's location and names (nothing is lost but the words
        // said again), unless lines continue it or it carries a failure signal. In another
        // file it is the first of its shape there, shown whole. With its location on a line of
        // its own, the shape's first few messages are shown whole all the same (SPELLED_MESSAGES):
        // said by its names, a finding would lose both its message's words and that line.
        const spells = ownLine && shown < config.max_locations &&
          (spelled.has(saying) || spelled.size < SPELLED_MESSAGES);
        if (
          saying !== leading && files.has(file) && under.length === 0 && !failure(d) && !spells
        ) {
          like.push(times(`${d.location} ${differing(spoken(saying), spoken(leading))}`, n));
          return;
        }
        // With `per_file`, a message's first finding in each file is shown too.
        const first = i === 0 || (config.per_file && !said.has(file));
        said.add(file);
        // A failure line holding its location and saying exactly a message shown whole in its
        // file, in a flood of that message (mypy's `Function is missing a type annotation
        // [no-untyped-def]` at each function), is that message again at another place: it is
        // counted with its location as printed. The output's last
        // finding stays whole: a failed run keeps its end.
        const repeat = !ownLine && wholeIn.has(file) && under.length === 0 &&
          d !== lastFinding && places >= FLOOD;
        const whole = (first ? shown++ < config.max_locations : under.length > 0) ||
          (failure(d) && !repeat);
        if (whole) wholeIn.add(file);
        files.add(file);
        if (!whole && ownLine && spelled.has(saying) && members.size <= LISTED_PLACES + 1) {
          // Another of a few places saying a message shown whole right above: its location
          // line as printed.
          out.push(`  ${times(d.locationLine!, n)}`);
          return;
        }
        if (!whole) {
          (i === 0 ? counted : same).push(times(d.location!, n));
          return;
        }
        out.push(`  ${times(d.lines[0].trim(), n)}`);
        if (ownLine) {
          spelled.add(saying);
          // rustc's layout: its start line, the lines elaborating it, the line naming its
          // location (`  --> a.rs:3:9`), its related information.
          appendAll(out, indented(d.elaboration ?? [])).push(`  ${d.locationLine}`);
          appendAll(out, indented(d.related ?? []));
          return;
        }
        if (!d.oneLine && !d.lines[0].includes(message)) appendAll(out, messageLines(d));
        appendAll(out, under);
      });
      if (same.length) {
        out.push(`  … ${same.length} more saying this at ${same.join(", ")}`);
      }
      const shape = byShape.get(shapeOf(saying))!;
      if (saying === shape.at(-1)) {
        if (like.length) out.push(`  … ${like.length} more like this at ${like.join(", ")}`);
        like.length = 0;
        files.clear();
        spelled.clear();
      }
    }
    if (counted.length) {
      const label = keyed ? key : stripSeverity(key);
      out.push(`  … ${counted.length} more ${label} at ${counted.join(", ")}`);
    }
    // Findings of one message shape (the same message but for quoted names) go together: the
    // ones saying exactly the shape's first message are bare locations, listed compactly
    // (`  a.ts: 12:5 34:1, b.ts:3:4`), the others a location with their names (`a.ts:7:9 'y'`),
    // several to a line. A shape other than the header's gets its own message line first.
    // Past max_locations only the locations stay.
    const shapes = new Map<string, { d: Diagnostic; i: number }[]>();
    list.forEach((d, i) => {
      if (asPrinted(d)) return;
      const shape = shapeOf(stripSeverity(d.message));
      const members = shapes.get(shape) ?? [];
      members.push({ d, i });
      shapes.set(shape, members);
    });
    for (const members of shapes.values()) {
      const lead = stripSeverity(members[0].d.message);
      const own = keyed && lead === first;
      if (
        !own && keyed && members.length === 1 && !members[0].d.quoted &&
        underLocation(members[0].d).length === 0
      ) {
        out.push(`  ${members[0].d.location} ${lead}`);
        continue;
      }
      if (!own && keyed) {
        // Another message under the rule: its first finding's line as printed (the rule and
        // severity with it), counted when it is said more than once.
        const line = findingLine(members[0].d, key, lead);
        out.push(
          line === null
            ? `  ${lead} (${members.length}):`
            : `  ${line}${members.length > 1 ? ` (${members.length}):` : ""}`,
        );
      }
      const bare: string[] = [];
      const named: { location: string; names: string }[] = [];
      // A diagnostic with continuation lines or related information keeps its own line, them
      // indented under it.
      const continued: string[] = [];
      // A finding with the code it quotes: its location, then that code as printed (its
      // indentation kept), one line each; the same place found twice is said once, counted.
      const quoted = new Map<string, number>();
      for (const { d, i } of members) {
        const message = stripSeverity(d.message);
        // Unkeyed, a message without quoted names is the group's line itself: the location says it.
        const same = keyed ? message === lead : shapeOf(message) === message;
        const under = underLocation(d);
        if (d.quoted) {
          const line = `  ${d.location}${same ? "" : `  ${differing(message, lead)}`} ${
            d.quoted.join(" ")
          }`;
          quoted.set(line, (quoted.get(line) ?? 0) + 1);
        } else if (under.length) {
          continued.push(`  ${d.location}${same ? "" : `  ${differing(message, lead)}`}`);
          appendAll(continued, under);
        } else if (i >= config.max_locations || same) bare.push(d.location!);
        else named.push({ location: d.location!, names: differing(message, lead) });
      }
      // Findings naming the same things (one message said at several places) share a line:
      // `  'string' … 'number' (8):` and their locations.
      const byNames = new Map<string, string[]>();
      for (const { location, names } of named) {
        byNames.set(names, [...byNames.get(names) ?? [], location]);
      }
      const singles: string[] = [];
      const shared: string[] = [];
      for (const [names, locations] of byNames) {
        if (new Set(locations).size === 1) {
          singles.push(times(`${locations[0]} ${names}`, locations.length));
        } else {
          shared.push(`  ${names} (${locations.length}):`);
          appendAll(shared, compactLocations(locations));
        }
      }
      out.push(
        ...compactLocations(bare),
        ...wrapItems(singles),
        ...shared,
        ...continued,
        ...[...quoted].map(([line, n]) => times(line, n)),
      );
    }
  }
  // What failed (`failed_file_patterns`): the grouped-noise lines naming it stay, leading.
  const failed = failedFiles(other, diagnostics, p);
  const namesFailed = (line: string) => namesAny(line, failed);
  const named = new Set<number>();
  // Indices into `other`, so a line's neighbours as printed are known.
  const rest = [...other.keys()].filter((k) => {
    // An echoed command goes, grouped or not, unless it is the one that failed.
    if (p.command(other[k])) {
      if (!namesFailed(other[k])) return false;
      named.add(k);
      return true;
    }
    if (!groups.size || framedOther.has(k)) return true;
    if (p.groupedNoise(other[k])) {
      if (!namesFailed(other[k])) return false;
      named.add(k);
      return true;
    }
    return !(config.drop_context && !FAILURE_SIGNAL.test(other[k]) && !IO_ERROR.test(other[k]));
  });
  const heading = (line: string) => p.head(line) || p.context(line);
  const orphans = apart(other, findingFiles, heading);
  // Within a diagnostic without a location too (cargo's `Compiling app …` under the warning
  // count before it), the grouped-noise line naming what failed stays.
  if (groups.size) {
    summaries = summaries.filter((line) => !p.groupedNoise(line) || namesFailed(line));
  }
  // Our total only when the tool printed none equal to it (cargo's `generated 17 warnings`), and
  // only for more than one finding (one is its own count).
  const total = new RegExp(`\\b${findings} (warning|error|problem|diagnostic|offense)s?\\b`);
  const counted = findings > 1 &&
    ![...rest.map((k) => other[k]), ...summaries].some((l) => total.test(l));
  if (counted) out.push(`(${findings} diagnostics in ${groups.size} groups)`);
  // Loose error lines (a linker error, make's `*** Error 2`) lead, with the lines that say where
  // they happened (`lead_patterns`); the rest trails. Lines that head the next one
  // (`head_patterns`: an include chain before a header's error) go where it goes, right before it;
  // a chain that headed only findings grouped away trails where it was.
  // A line that is only a path (tsc --listFiles' `src/errors.ts`) names a file, not a failure.
  const leads = (line: string) => (FAILURE_SIGNAL.test(line) && !barePath(line)) || p.lead(line);
  const leading: string[] = [];
  const trailing: string[] = [];
  let heads: string[] = [];
  // A code frame goes where the error above it went, and so does a compiler's trailer after it
  // (gcc's `compilation terminated.` under its `fatal error:`).
  let last = trailing;
  for (const k of rest) {
    const line = other[k];
    if (heading(line) && !orphans.has(k)) {
      heads.push(line);
      continue;
    }
    const after = framedOther.has(k) || COMPILER_TRAILER.test(line);
    const to = after ? last : leads(line) || named.has(k) ? leading : trailing;
    for (const head of heads) to.push(head);
    to.push(line);
    heads = [];
    last = to;
  }
  // Loops, not spreads: the lines outside the groups may be more than a call takes arguments.
  const ordered = leading;
  for (const list of [out, trailing, heads, summaries]) for (const line of list) ordered.push(line);
  out.length = 0;
  // A module line goes right before the first of its findings still printed as it was, also
  // where a group lists it indented.
  const moduleOf = new Map<string, string>();
  for (const d of diagnostics) if (d.module !== undefined) moduleOf.set(d.lines[0], d.module);
  const modulesShown = new Set<string>();
  for (const line of ordered) {
    const module = moduleOf.size === 0
      ? undefined
      : moduleOf.get(line) ?? (line.startsWith(" ") ? moduleOf.get(line.trimStart()) : undefined);
    if (module !== undefined && !modulesShown.has(module)) {
      modulesShown.add(module);
      out.push(module);
    }
    out.push(line);
  }
  // Grouping that saves nothing (each finding its own rule) is discarded whole by the engine,
  // noise and all: the findings as printed, without the noise lines, are then the shorter form.
  // So is grouping that prints more lines than it read (each group's line over findings shown
  // whole): an output never grows. Our total goes first, where it alone makes it grow.
  if (counted && out.length > lines.length) {
    out.splice(out.indexOf(`(${findings} diagnostics in ${groups.size} groups)`), 1);
  }
  const grows = out.length > lines.length;
  if (noise > 0) {
    // There too an error alone in its group keeps its code frames.
    for (const list of groups.values()) {
      if (list.length === 1 && framedError(list[0])) {
        for (const f of list[0].frames!) isNoise[f.index] = 0;
      }
    }
    let plainSize = 0;
    const plain = (line: string, i: number) =>
      isModule[i] === 1 || (!isNoise[i] && !(p.command(line) && !namesFailed(line)));
    for (let i = 0; i < lines.length; i++) {
      if (plain(lines[i], i)) plainSize += lines[i].length + 1;
    }
    if (grows || plainSize <= textSize(out)) {
      return { lines: lines.filter(plain), confidence: "full" };
    }
  }
  // Nothing grouped and nothing dropped: reordering alone would part a wrapped message (mypy
  // --pretty's) from its head, so the output stays as printed.
  if (
    grows ||
    (![...groups.values()].some((list) => list.length > 1) && textSize(out) >= textSize(lines))
  ) return null;
  return { lines: out, confidence: "full" };
}

/**
 * The context lines (`context_patterns`, gcc's `a.c: In function …:`) that stay: those with an
 * error of their file under them, before the next context line (a failure line starting with the
 * file that `line_pattern` does not read: it is kept apart, and the context says which function it
 * is in). One over grouped findings alone goes: each finding names its file.
 */
function contextKept(lines: readonly string[], p: Compiled): Uint8Array {
  const kept = new Uint8Array(lines.length);
  // The files of the failures read (backwards) since the last context line.
  let failed = new Set<string>();
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    const file = line.slice(0, Math.max(0, line.indexOf(":")));
    if (p.context(line)) {
      kept[i] = failed.has(file) ? 1 : 0;
      failed = new Set();
    } else if (file && FAILURE_SIGNAL.test(line) && !p.line?.test(line) && !p.noise(line)) {
      failed.add(file);
    }
  }
  return kept;
}

/**
 * The names of what failed: each `file` group of `failed_file_patterns` in the loose lines (make's
 * failed target, an error's source) and in a diagnostic's first line (cargo's `error: could not
 * compile \`app\``), and the file of each error kept apart.
 */
function failedFiles(other: string[], diagnostics: Diagnostic[], p: Compiled): Set<string> {
  const files = new Set<string>();
  if (p.failedFiles.length === 0) return files;
  const name = (line: string) => {
    for (const pattern of p.failedFiles) {
      const file = pattern.exec(line)?.group("file");
      if (file) files.add(file);
    }
  };
  for (const line of other) name(line);
  for (const d of diagnostics) {
    name(d.lines[0]);
    if (d.error && d.location) files.add(fileOf(d.location));
  }
  return files;
}

/** Whether one of the line's words (split at whitespace) is one of `names`. */
function namesAny(line: string, names: Set<string>): boolean {
  return names.size > 0 && line.split(/\s+/).some((word) => names.has(word));
}

/**
 * A finding's message with what its line says beside its location and message (`: C:
 * [Corrected] Style/X: `, eslint's `error`, a severity letter): findings alike in it say the same.
 */
function sayingOf(d: Diagnostic): string {
  const line = d.lines[0];
  const location = d.location ?? "";
  // A position joined to its file line (eslint's stylish) is printed without the file; a line
  // number printed apart from its file (`lineApart`) is cut out on its own, after the message.
  const at = d.joined
    ? location.slice(fileOf(location).length + 1)
    : d.lineApart !== undefined
    ? location.slice(0, location.length - d.lineApart.length - 1)
    : location;
  const where = at === "" ? -1 : line.indexOf(at);
  const rest = where < 0 ? line : line.slice(0, where) + line.slice(where + at.length);
  const m = rest.indexOf(d.message);
  const said = m < 0 ? rest : rest.slice(0, m) + rest.slice(m + d.message.length);
  return `${d.message}\u0000${d.lineApart === undefined ? said : withoutNumber(said, d.lineApart)}`;
}

/** `text` without the first whole number `n` in it (`on line 9` → `on line `). */
function withoutNumber(text: string, n: string): string {
  for (let at = text.indexOf(n); at >= 0; at = text.indexOf(n, at + 1)) {
    const end = at + n.length;
    if (!/\d/.test(text[at - 1] ?? "") && !/\d/.test(text[end] ?? "")) {
      return text.slice(0, at) + text.slice(end);
    }
  }
  return text;
}

/** A saying (`sayingOf`) as one text, for the names in it that differ from another's. */
function spoken(saying: string): string {
  return saying.replace("\u0000", " ");
}

/** The file of a finding's location (`util.h:1:32`, `src/a.ts(7,44)`: up to its position). */
function fileOf(location: string): string {
  const end = location.search(/[:(]/);
  return end < 0 ? location : location.slice(0, end);
}

/**
 * The lines of `other` (loose lines, in their order) heading (`head`) a line that is not the next
 * loose one: the findings read between the chain and that line name more than one file, or a
 * file the next line does not start with (gcc printed the chain over a header's warnings, and
 * the next loose line is another file's error or another compile).
 */
function apart(
  other: readonly string[],
  findingFiles: readonly { at: number; file: string }[],
  head: (line: string) => boolean,
): Set<number> {
  const orphans = new Set<number>();
  const filesAt = new Map<number, string[]>();
  for (const { at, file } of findingFiles) {
    const files = filesAt.get(at);
    if (files) files.push(file);
    else filesAt.set(at, [file]);
  }
  for (let k = 0; k < other.length; k++) {
    if (!head(other[k]) || (k + 1 < other.length && head(other[k + 1]))) continue;
    const files = filesAt.get(k + 1) ?? [];
    const next = other[k + 1];
    const orphan = files.length > 0 &&
      (files.some((file) => file !== files[0]) ||
        (next !== undefined && !next.startsWith(`${files[0]}:`)));
    for (let j = k; orphan && j >= 0 && head(other[j]); j--) orphans.add(j);
  }
  return orphans;
}

/**
 * A diagnostic's line up to its message (`msg`), right-trimmed; the whole line when the message
 * is not found after the location.
 */
function headOf(line: string, location: string, msg: string | undefined): string {
  if (!msg) return line.trim();
  const at = line.indexOf(msg, Math.max(0, line.indexOf(location) + location.length));
  return (at > 0 ? line.slice(0, at) : line).trim();
}

/**
 * A diagnostic alone in its group, as printed: a one-line format's line, its continuation lines
 * and the code frames quoted among them (tsc --pretty's); else its start line (with its rule after it when a later line named it: clippy's
 * `  [len_zero]`), and the line naming its location (rustc's `  --> a.rs:3:9`) with its related
 * information under it, or its message on a later line (biome). Null when neither line is known.
 */
function printedAlone(d: Diagnostic): string[] | null {
  if (d.oneLine) {
    if (!framedError(d)) return d.lines;
    // Its code frames back in their places: alone in its group, no flood of one error.
    const frames = d.frames!;
    const lines: string[] = [];
    let next = 0;
    d.lines.forEach((line, i) => {
      while (next < frames.length && frames[next].at === i) lines.push(frames[next++].line);
      lines.push(line);
    });
    while (next < frames.length) lines.push(frames[next++].line);
    return lines;
  }
  const start = d.lines[0];
  if (d.locationLine) {
    const rule = d.rule && !start.includes(d.rule) ? `  [${d.rule}]` : "";
    return [
      start + rule,
      ...indented(d.elaboration ?? []),
      d.locationLine,
      ...indented(d.related ?? []),
    ];
  }
  if (d.head === undefined) return null;
  return start.includes(d.message) ? [start] : [start, `  ${d.message}`];
}

/**
 * Whether a one-line finding is an error (its line carries a failure signal: tsc's `error TS…`)
 * with code frames quoted under it: alone in its group, they are shown with it.
 */
function framedError(d: Diagnostic): boolean {
  return d.frames !== undefined && FAILURE_SIGNAL.test(d.lines[0]);
}

/**
 * Whether a grouped finding is shown by its own lines as printed: its line holds its location
 * (`head`), or a line of its own names it (rustc's `-->`); not a location joined from a file line
 * and a position, nor one under quoted code.
 */
function asPrinted(d: Diagnostic): boolean {
  return d.head !== undefined || (d.locationLine !== undefined && !d.quoted && !d.joined);
}

/**
 * The lines after a diagnostic's start line that hold its message (`message_line_pattern`, and
 * the lines indented under it), as printed.
 */
function messageLines(d: Diagnostic): string[] {
  return d.lines.slice(1).filter((line) => {
    const t = line.trim();
    return t !== "" && d.message.includes(t.replace(/^[!×i] /, ""));
  }).map((line) => `  ${line.trim()}`);
}

/**
 * The positions of quoted code frames: each line matching `frame_pattern` (a mark such as
 * `^^^^`) and the code line above it, unless that line is itself a diagnostic.
 */
function codeFrames(lines: string[], p: Compiled): Set<number> {
  const frames = new Set<number>();
  if (!p.frame) return frames;
  for (let i = 1; i < lines.length; i++) {
    if (!p.frame.test(lines[i]) || frames.has(i - 1) || p.line?.test(lines[i - 1])) continue;
    frames.add(i - 1).add(i);
  }
  return frames;
}

/**
 * A finding's own line as printed (trimmed: a group's members are indented under it) when it
 * says its rule and message, else null (the line holds only a position or a start).
 */
function findingLine(d: Diagnostic, rule: string, message: string): string | null {
  const line = d.lines[0]?.trim();
  return line && line.includes(rule) && line.includes(message) ? line : null;
}

/** A line of marks under a quoted source line (deno's and tsc's `~~~`, `^`). */
const MARKS = /^\s*[~^]+[\s~^-]*$/;
/**
 * A line of rustc's code frame gutter (`  |`, `12 |     let x = 1;`). The spaces after the
 * number are tried only after one (`\s*\d*\s*` splits a run of spaces every way: quadratic).
 */
const GUTTER = /^\s*(?:\d+\s*)?\|/;

/**
 * The lines explaining a related location, as printed: without blank lines, code frame gutters,
 * mark lines and the source lines they mark.
 */
function explanation(lines: string[]): string[] {
  return lines.filter((line, i) =>
    line.trim() !== "" && !MARKS.test(line) && !GUTTER.test(line) &&
    !MARKS.test(lines[i + 1] ?? "")
  );
}

/**
 * The lines shown under a diagnostic's location: a one-line diagnostic's continuation as printed,
 * its message's elaboration and its related information indented by one step more.
 */
function underLocation(d: Diagnostic): string[] {
  return [
    ...(d.continuation ?? []).map((line) => `  ${line}`),
    ...indented(d.elaboration ?? []),
    ...indented(d.related ?? []),
  ];
}

/** Lines indented by four spaces, their own indentation below the least of them kept. */
function indented(lines: string[]): string[] {
  const indent = lines.reduce((least, line) => Math.min(least, indentOf(line)), Infinity);
  return lines.map((line) => `    ${line.slice(indent)}`);
}

/** A tool's own error about a file it could not read: `drop_context` keeps these lines. */
const IO_ERROR = /no such file|does not exist|is a directory|not readable/i;

/** Width the compact location lines wrap at. */
const LOCATION_LINE = 100;

/**
 * Locations, compactly: each as the tool printed it (`a.ts:12:5`, never merged into `a.ts: 12:5
 * 34:1`, so every location stays findable as printed), in first-seen order, a repeated one once
 * with its count, joined by `, ` on lines wrapped near 100 characters.
 */
export function compactLocations(locations: string[]): string[] {
  const counts = new Map<string, number>();
  for (const location of locations) counts.set(location, (counts.get(location) ?? 0) + 1);
  return wrapItems([...counts].map(([location, n]) => times(location, n)));
}

/** The longest directory (ending in `/`) that starts every location; "" when there is none. */
function commonDirectory(locations: string[]): string {
  if (locations.length === 0) return "";
  let prefix = locations[0];
  for (const location of locations) {
    let n = 0;
    while (n < prefix.length && n < location.length && prefix[n] === location[n]) n++;
    prefix = prefix.slice(0, n);
  }
  return prefix.slice(0, prefix.lastIndexOf("/") + 1);
}

/** `text`, with ` (xN)` when it came N > 1 times. */
function times(text: string, n: number): string {
  return n > 1 ? `${text} (x${n})` : text;
}

/** Items joined by `, ` on indented lines wrapped near 100 characters. */
function wrapItems(items: string[]): string[] {
  const lines: string[] = [];
  let line = "";
  for (const item of items) {
    if (line && line.length + item.length + 2 > LOCATION_LINE) {
      lines.push(`  ${line},`);
      line = "";
    }
    line += (line ? ", " : "") + item;
  }
  if (line) lines.push(`  ${line}`);
  return lines;
}

function textSize(lines: string[]): number {
  return lines.reduce((n, line) => n + line.length + 1, 0);
}

const DUPLICATES = /generated (\d+) warnings? \((\d+) duplicates?\)$/;

/**
 * cargo's `warning: \`x\` (lib test) generated 17 warnings (17 duplicates)`: every warning was
 * already reported for another target, so the line adds nothing. Partial duplicates stay.
 */
function allDuplicates(line: string): boolean {
  if (!line.includes(" duplicate")) return false;
  const m = DUPLICATES.exec(line);
  return m !== null && m[1] === m[2];
}

/** `warning: unused import` → `unused import` (the group line already says what it is). */
function stripSeverity(message: string): string {
  return message.replace(/^(warning|error)(\[[^\]]*\])?: /, "").replace(
    /^(error: )?TS\d+ \[(ERROR|WARNING)\]: /,
    "",
  );
}

function trimBlank(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1].trim() === "") end--;
  return lines.slice(0, end);
}

const QUOTED = /`[^`]*`|'[^']*'|‘[^’]*’|"[^"]*"/g;

/** `unused variable: \`x\`` and `unused variable: \`y\`` share one group. */
export function elideNames(message: string): string {
  return message.replace(/`[^`]*`/g, "`…`").replace(/'[^']*'/g, "'…'").replace(
    /‘[^’]*’/g,
    "‘…’",
  ).replace(/"[^"]*"/g, '"…"');
}

/**
 * What a location line shows of its message: only the quoted names when the message has the
 * group's first message's shape (`unused variable ‘b’` under `unused variable ‘a’` → `‘b’`).
 * Several names are shown in the order of the message's slots, joined by ` … ` (the text
 * between them is the group's): `` writing `&Vec` instead of `&[_]` … `` → `` `&Vec` … `&[_]` ``.
 */
function differing(message: string, first: string): string {
  const names = message.match(QUOTED);
  if (!names || elideNames(message) !== elideNames(first)) return message;
  return names.join(" … ");
}
