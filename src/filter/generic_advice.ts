/**
 * Boilerplate that tools print around a failure and that tells the reader nothing about it: how
 * to get more output or help (gradle's `* Try:` block, Maven's `Re-run Maven using the -X
 * switch`, rustc's `try \`rustc --explain E0308\`` and `Some errors have detailed explanations: E0382, E0502.`, `RUST_BACKTRACE=1`, `Try 'ls --help' for more
 * information.`, `See 'docker run --help'.`, rake's `--trace`, valgrind's `rerun with: -s`), where
 * a log or a help page is (npm's `A complete log of this run can be found in:`, Maven's `[Help 1]
 * http://cwiki…`, `Get more help at …`), upgrade notices (pip's `[notice] A new release of pip is
 * available`, `npm notice New major version of npm available!`), and decoration-only lines
 * (`-----`, `=====`, `────`, maven's `[INFO] ----…`), but for a run of `~` or `^` marking a
 * place in the code line above it.
 *
 * Such a line goes whole and without a marker: a marker would cost about as much as the line.
 * A line is advice only when all of its text, after a tool's prefix (`[ERROR] `, `npm error `,
 * `note: `, `hint: `, `> `, `==123== `), is made of advice sentences: a line that says anything
 * else (`error: test failed, to rerun pass \`--lib\``, rustc's `help: consider …`, an error
 * ending in `-> [Help 1]`) stays as printed. A prefix-only line (`[ERROR]`, `npm notice`) next to
 * folded advice goes with it. An output made of nothing but advice and decoration stays whole:
 * a failed command never comes out emptier than what it printed.
 */

import { FoldedLines } from "./arrays.ts";
import { MAX_TESTED } from "./generic_folds.ts";
import { indentOf } from "./sanitize.ts";

/**
 * A tool's line prefix: a bracketed level, npm's, a note/hint label, a quote mark, valgrind's, a
 * program's name (`curl: `).
 */
const PREFIX =
  /^\s*(?:\[(?:ERROR|INFO|WARN|WARNING|notice|NOTICE)\]\s*|npm (?:ERR!|error|notice|warn|WARN)(?:\s+|$)|(?:note|hint|info|tip|Hint|Note|NOTE)\s*:\s*|info\s+|[*>]\s+|==\d{1,9}==\s*|E\s{2,}|[a-z][\w.+-]{0,30}:\s+)?/;

/** A flag, an environment setting or a quoted command naming one. */
const FLAG = String
  .raw`(?:[\x60'"]?(?:--?[\w][\w:=.-]{0,40}|[A-Z][A-Z0-9_]{1,40}=\w{1,20})[\x60'"]?)`;
/** What re-running with a flag gives: more or fuller output. */
const MORE_OUTPUT = String
  .raw`(?:the |a |more |full |verbose |complete |detailed |further |extra )*(?:stack ?traces?|back ?traces?|traces?|log output|output|debug(?:ging)? (?:logging|output|info(?:rmation)?)|logging|details(?: of [\w ]{1,40})?|insights|information|info|diff|copyright info)`;
/** `re-run Maven with the -e switch`, `run with --info or --debug option`, `rerun with: -s`. */
const RERUN = String
  .raw`(?:re-?run|run|recompile)(?: \w{1,20}){0,2} (?:with|using)(?::|\s+the)?\s+${FLAG}(?:(?:,\s*|\s+(?:or|and)\s+|\s+)${FLAG}){0,4}(?: (?:option|switch|flag|environment variable)s?)?`;
/** A quoted or bare command whose words name a help call. */
const HELP_CALL = String
  .raw`[\x60'"]?[\w./ <>-]{0,60}?(?:--help|-h|\bhelp\b[\w ]{0,30}|--explain \w{1,20})[\x60'"]?`;

/** Sentences that point to a help call (the first two of SENTENCES). */
const HELP_POINTERS = 2;

/** One whole sentence of advice (tested against a sentence with its end mark taken off). */
const SENTENCES: RegExp[] = [
  // Try 'ls --help' for more information / Try 'tar --help' or 'tar --usage' for more information /
  // See 'kubectl get --help' for usage / Run 'docker run --help' for more information
  new RegExp(
    String
      .raw`^(?:try|run|see|use|type)\s+${HELP_CALL}(?:\s+or\s+[\x60'"][^\x60'"]{1,60}[\x60'"])?(?:\s+(?:for|to see|to get|to list)\b[\w ,()'".-]{0,100})?$`,
    "i",
  ),
  // For more information, try '--help' / For more information about this error, try `rustc --explain E0308`
  new RegExp(
    String
      .raw`^for more (?:information|info|details|help)(?: about [\w ]{1,40})?,?\s*(?:try|run|see|use)\s+${HELP_CALL}$`,
    "i",
  ),
  // Run with --stacktrace option to get the stack trace / re-run Maven with the -e switch /
  // For lists of detected and suppressed errors, rerun with: -s (what it gives is said before or
  // after: a bare `Run with --force` is advice on what to do, and stays)
  new RegExp(
    String.raw`^(?:to see|to get|for) [\w ]{1,60},\s*${RERUN}$`,
    "i",
  ),
  new RegExp(
    String
      .raw`^(?:some details are omitted,\s*)?${RERUN}\s+(?:to|for) (?:get |see |display |enable |view |show |print )?${MORE_OUTPUT}$`,
    "i",
  ),
  // (See full trace by running task with --trace) / Use --trace to view backtrace
  new RegExp(
    String
      .raw`^\(?(?:see (?:the )?full (?:stack ?)?trace by running [\w ]{1,30} with ${FLAG}|use ${FLAG} to (?:view|see|get|show) ${MORE_OUTPUT})\)?$`,
    "i",
  ),
  // rustc: Some errors have detailed explanations: E0382, E0502. (beside its pointer to
  // `rustc --explain`; the codes are in the errors' own lines)
  /^some errors have detailed explanations: [A-Z]{1,3}\d{1,5}(?:, [A-Z]{1,3}\d{1,5}){0,100}$/i,
  // A complete log of this run can be found in: /root/.npm/_logs/…-debug-0.log
  /^a complete log of this run can be found in:?(?:\s+\S{1,500})?$/i,
  // …and older npm's path on the line below it.
  /^\S{0,300}[/\\]_logs[/\\]\S{1,200}-debug(?:-\d{1,3})?\.log$/,
  // Get more help at https://help.gradle.org / For more info visit https://…
  /^(?:get more help at|for more (?:info|information|help),? (?:visit|see|read|at)|visit) \S{1,300}(?: for (?:more information|documentation|details)[\w ]{0,40})?$/i,
  // For more information about the errors and possible solutions, please read the following articles:
  /^for more information about the errors and possible solutions, please read the following articles:?$/i,
  // [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/…
  /^\[help \d{1,3}\] https?:\/\/\S{1,300}$/i,
  // Upgrade notices: pip, npm and others.
  /^(?:\[notice\] )?a new (?:release|version) of [\w@./-]{1,60} is available(?::? \S{1,40} -> \S{1,40})?$/i,
  /^(?:\[notice\] )?to update,? run:? \S.{0,120}$/i,
  /^new (?:major|minor|patch) version of [\w@./-]{1,60} available!? \S{1,40} -> \S{1,40}$/i,
  /^changelog: https?:\/\/\S{1,300}\/releases\/\S{1,100}$/i,
  /^you are using pip version [\w.]{1,20}(?:,|;) however,? version [\w.]{1,20} is available$/i,
  /^you should consider upgrading via the .{1,300} command$/i,
  // git: hint: Disable this message with "git config advice.x false"
  /^disable this message with "git config [\w.]{1,80} false"$/i,
];

/** How an advice sentence starts (read where the prefix ends): other lines are not read further. */
const LEAD =
  /\s*(?:try|run|see|use|type|for|to|some|re-?run|recompile|\(|a |get|visit|\[help|new|changelog|you|disable|\/|~)/iy;
/** The characters a decoration line is made of. */
const DECORATION_CHARS = "-=*_~#+─━═•·";

/** gradle's `* Try:` heading: advice only when the line under it is. */
const TRY_HEADING = /^\s*\* Try:\s*$/;
/** A decoration-only line: one character repeated (after a prefix), `* * *`. */
const DECORATION = /^([-=*_~#+─━═•·])(?: ?\1){2,}$/;

/**
 * The sentences of a line's text: split after `.`, `!` or `?` followed by a space and a capital
 * (`available! 10.2.4 -> 11.0.0` is one sentence).
 */
function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[A-Z(\[>*])/).map((s) => s.replace(/[.!?]+$/, "").trim());
}

/** The line's text after a tool prefix (null when the line is too long to read). */
function body(line: string): string | null {
  if (line.length > MAX_TESTED) return null;
  const prefix = PREFIX.exec(line)![0];
  return line.slice(prefix.length).trim();
}

/**
 * Whether a line is advice on getting more output or help, whole (see the module comment);
 * with `keepHelp`, a pointer to a help call is not.
 */
export function isAdvice(line: string, options: { keepHelp?: boolean } = {}): boolean {
  if (line.length > MAX_TESTED) return false;
  // Every advice sentence starts with one of a few words: most lines stop here, read at one place.
  LEAD.lastIndex = PREFIX.exec(line)![0].length;
  if (!LEAD.test(line)) return false;
  const text = body(line);
  if (!text) return false;
  const patterns = options.keepHelp ? SENTENCES.slice(HELP_POINTERS) : SENTENCES;
  return sentences(text).every((s) => s !== "" && patterns.some((re) => re.test(s)));
}

/** Whether a line is decoration only (a rule of dashes, equals signs, box lines). */
export function isDecoration(line: string): boolean {
  const end = line.trimEnd();
  if (end.length < 4 || !DECORATION_CHARS.includes(end[end.length - 1])) return false;
  const text = body(line);
  return text !== null && text.length >= 4 && DECORATION.test(text);
}

/** One run of position marks after an indent: `             ~~~~`. */
const MARK_RUN = /^(\s+)([~^])\2*\s*$/;

/**
 * Whether a decoration-like line is a position mark under the code line above it (tsc --pretty's
 * `~~~~` under the name it points at): one run of `~` or `^` starting past that line's indent and
 * before its end. An underline starts where its heading does.
 */
function marksCode(line: string, above: string | undefined): boolean {
  if (above === undefined || above.length > MAX_TESTED || above.trim() === "") return false;
  const m = MARK_RUN.exec(line);
  if (!m) return false;
  const from = m[1].length;
  return from > indentOf(above) && from < above.trimEnd().length;
}

/** Whether a line is a tool's prefix and nothing else (`[ERROR]`, `npm notice`). */
function prefixOnly(line: string): boolean {
  return line.trim() !== "" && body(line) === "";
}

/**
 * The lines without advice and decoration (see the module comment); unchanged when nothing else
 * is left. With `keepHelp` (a usage listing was folded), pointers to a help call stay.
 */
export function foldAdvice(
  lines: readonly string[],
  options: { keepHelp?: boolean } = {},
): readonly string[] {
  const gone = new Uint8Array(lines.length);
  let any = false;
  for (let i = 0; i < lines.length; i++) {
    if (
      isAdvice(lines[i], options) || (isDecoration(lines[i]) && !marksCode(lines[i], lines[i - 1]))
    ) gone[i] = 1, any = true;
  }
  if (!any) return lines;
  for (let i = 0; i < lines.length; i++) {
    // A `* Try:` heading whose next line goes goes with it.
    if (!gone[i] && TRY_HEADING.test(lines[i])) {
      let j = i + 1;
      while (j < lines.length && lines[j].trim() === "") j++;
      if (gone[j] && !isDecoration(lines[j])) gone[i] = 1;
    }
  }
  // Prefix-only lines in a stretch that otherwise all goes (Maven's `[ERROR] ` between advice).
  for (let i = 0; i < lines.length; i++) {
    if (gone[i] || !prefixOnly(lines[i])) continue;
    const before = i > 0 && gone[i - 1] === 1;
    let j = i + 1;
    while (j < lines.length && prefixOnly(lines[j])) j++;
    if (before || (j < lines.length && gone[j] && !isDecoration(lines[j]))) {
      for (let k = i; k < j; k++) gone[k] = 1;
    }
    i = j - 1;
  }
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length; i++) {
    if (gone[i]) {
      // A blank line between two that go goes too.
      continue;
    }
    out.push(lines[i]);
  }
  const kept = out.lines();
  if (!kept.some((line) => line.trim() !== "")) return lines;
  return dropStrandedBlanks(kept);
}

/** Runs of blank lines left at the start or end, or doubled where a fold was, become none or one. */
export function dropStrandedBlanks(lines: readonly string[]): readonly string[] {
  let start = 0;
  while (start < lines.length && lines[start].trim() === "") start++;
  let end = lines.length;
  while (end > start && lines[end - 1].trim() === "") end--;
  const out = new FoldedLines(lines);
  let last: string | undefined;
  for (let i = start; i < end; i++) {
    if (lines[i].trim() === "" && last !== undefined && last.trim() === "") continue;
    out.push(last = lines[i]);
  }
  return out.lines();
}
