/**
 * Permissions that understand shell syntax. `analyzeShell` parses a command with a real bash
 * parser and lists every simple command it would run, normalised; `installShellAnalyzer` makes
 * the `bash` tool's permission decision from that list: every simple command is evaluated, the
 * most restrictive answer wins (deny > ask > allow), the spec's blocked commands are always
 * enforced, and anything that cannot be analysed statically is never auto-allowed (fail closed).
 *
 * Parser: npm `mvdan-sh` (mvdan/sh, the parser of shfmt, compiled to JS), imported lazily on the
 * first analysis; why this parser is in _shell_parse.ts. It rejects exactly the invalid inputs of
 * the attack corpus. `deno compile` needs nothing extra: it is plain JS reached by a literal
 * `import("mvdan-sh")`, embedded with the other npm packages; no data file is read at run time.
 */
import {
  type Config,
  DEFAULT_BLOCKED_COMMANDS,
  DEFAULT_CONFIRM_PATTERNS,
  permissionRules,
} from "../config/lite.ts";
import {
  commandEffect,
  type CompiledProtected,
  compileProtected,
  type EffectKind,
  fileWords,
  flagSpellings,
  parseGit,
  programDanger,
  protectedMatch,
} from "./_command_tables.ts";
import {
  type ExtractResult,
  INTERPRETERS,
  loadSyntax,
  newExtractor,
  type ParsedCommand,
  quoteArg,
  rootCtx,
} from "./_shell_parse.ts";
import { escapeGlob } from "./glob.ts";
import {
  type CommandEffect,
  type DecideOptions,
  type Decision,
  mostRestrictive,
  pathExists,
  type PermissionPolicy,
} from "./policy.ts";

export { decodeAnsiC } from "./_shell_parse.ts";
export { type EffectKind, fileWords };

/** One simple command the shell would run, after normalisation. */
export interface SimpleCommand {
  /** Basename of the program, quotes and escapes resolved (`/usr/bin/s\udo` → `sudo`). */
  program: string;
  /** Arguments with quotes and escapes resolved; expansions kept as their source text. */
  args: string[];
  /** `program arg1 arg2`: what the permission rules are matched against. */
  raw: string;
  redirects: { op: string; target: string }[];
  /** False when the program word is an expansion (`$x`, `$(…)`) or a glob/brace pattern. */
  programIsLiteral: boolean;
  /** Where it was found, outermost first, e.g. `["$(…)", "bash -c"]`. */
  context: string[];
  /** Every argument is static text (no `$x`, `$(…)`, xargs input). */
  argsLiteral?: boolean;
  /** Transparent wrappers stripped in front of it (`env`, `nice`, `timeout`, …). */
  wrappers?: string[];
  /** Where stdin comes from when the command line says so. */
  stdin?: "pipe" | "heredoc" | "herestring" | "file" | null;
  /** The program as written when it was a path (`./gradlew`, `/tmp/x/ls`). */
  path?: string;
  /**
   * Other spellings the rules are matched against as well: harmless git global options removed
   * (`git -C . branch` → `git branch`), destructive commands' flags in canonical forms
   * (`rm -fr x`, `rm -r -f x`, `rm --recursive --force x` → `rm -rf x`, …).
   */
  forms?: string[];
  /**
   * What the command does, for autonomy levels: `read_only` — a built-in known-safe program
   * (cat, grep, ls, git status/log/diff/show/branch listing, sed/awk/find without their
   * dangerous forms, …) with no dangerous flag and no output redirect; `destructive` — it
   * deletes or overwrites (rm, shred, truncate, dd of=, find -delete, git clean -f, reset --hard,
   * checkout --, restore, push --force, branch -D, stash drop/clear, `>` onto a file that may
   * exist: the permission decision judges `>` again knowing which targets do not exist yet);
   * `other` — anything else. `effectReason` says why in words.
   */
  effect: EffectKind;
  effectReason: string;
  /** A shell with harmless options (`bash -lc '…'`) whose script was analysed in full. */
  scriptAnalysed?: boolean;
}

/** Everything the analyser found in one command line. */
export interface ShellAnalysis {
  commands: SimpleCommand[];
  /** Set when the command cannot be parsed; `commands` is then empty. */
  parseError?: string;
  /** Reasons the command is not fully static (each one forces at least `ask`). */
  dynamic: string[];
  /** Shell features present (`$(`, backtick, `<(`, `>(`, `<<<`) for the legacy confirm list. */
  features?: string[];
  /** Literal words anywhere in the command (lowercased basenames), for hidden program names. */
  words?: string[];
}

export interface AnalyzeOptions {
  /** Stop collecting after this many simple commands (the caller refuses the command). */
  maxCommands?: number;
}

/** Parses a command line and extracts every simple command it would run. */
export async function analyzeShell(
  command: string,
  options: AnalyzeOptions = {},
): Promise<ShellAnalysis> {
  const syntax = await loadSyntax();
  const extractor = newExtractor(syntax, options.maxCommands ?? 100_000);
  let parseError: string | undefined;
  try {
    parseError = extractor.script(command, rootCtx());
  } catch (error) {
    // A pathologically nested command can exhaust the stack while walking: fail closed.
    parseError = `cannot analyse the command: ${(error as Error).message}`;
  }
  return toAnalysis(extractor, parseError);
}

function toAnalysis(x: ExtractResult, parseError: string | undefined): ShellAnalysis {
  if (parseError !== undefined) {
    return {
      commands: [],
      parseError,
      dynamic: [`cannot parse the command: ${parseError}`],
      features: [...x.features],
      words: [...x.words],
    };
  }
  return {
    commands: x.commands.map(toSimple),
    dynamic: [...x.dynamic],
    features: [...x.features],
    words: [...x.words],
  };
}

function toSimple(c: ParsedCommand): SimpleCommand {
  const simple: SimpleCommand = {
    program: c.program,
    args: c.args,
    raw: c.raw,
    redirects: c.redirects,
    programIsLiteral: c.programIsLiteral,
    context: c.context,
    argsLiteral: c.argsLiteral,
    wrappers: c.wrappers,
    stdin: c.stdin,
    effect: "other",
    effectReason: "",
    ...(c.path ? { path: c.path } : {}),
    ...(c.scriptAnalysed ? { scriptAnalysed: true } : {}),
  };
  const forms = spellings(simple);
  if (forms.length > 0) simple.forms = forms;
  const effect = effectOf(simple);
  simple.effect = effect.effect;
  simple.effectReason = effect.reason;
  return simple;
}

/** The other spellings of one command the rules see (see `SimpleCommand.forms`). */
function spellings(cmd: SimpleCommand): string[] {
  if (!cmd.programIsLiteral) return [];
  const out = new Set<string>();
  const join = (words: string[]) => words.map((w, i) => (i === 0 ? w : quoteArg(w))).join(" ");
  let words = [cmd.program, ...cmd.args];
  if (cmd.program === "git") {
    const g = parseGit(cmd.args);
    if (!g.danger && g.normalised.length !== words.length) {
      words = g.normalised;
      out.add(join(words));
    }
  }
  for (const form of flagSpellings({ program: words[0], args: words.slice(1) })) {
    out.add(join(form));
  }
  out.delete(cmd.raw);
  return [...out];
}

/** A redirect that writes a file (not a duplication, not /dev/null). */
function writtenFile(r: { op: string; target: string }): "truncate" | "append" | null {
  const op = r.op.replace(/^\d+/, "");
  if (!/>/.test(op) || op.startsWith("<<")) return null;
  if (/&$/.test(op) && /^(\d+|-)$/.test(r.target)) return null;
  if (/^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/.test(r.target)) return null;
  return op.includes(">>") ? "append" : "truncate";
}

/**
 * What one command does (see `SimpleCommand.effect`). `newFiles` are redirect targets known not
 * to exist yet: a `>` into one creates a file rather than overwriting one, so it is not
 * destructive. Without that knowledge (the analysis reads no file) every `>` may overwrite.
 */
function effectOf(
  cmd: SimpleCommand,
  newFiles: ReadonlySet<string> = new Set(),
): { effect: EffectKind; reason: string } {
  const writes = cmd.redirects.filter((r) => writtenFile(r) !== null);
  if (cmd.scriptAnalysed && writes.length === 0) {
    return {
      effect: "read_only",
      reason: `${cmd.program} only runs its script, whose commands are classified one by one`,
    };
  }
  const danger = commandDanger(cmd);
  const base = commandEffect(cmd, danger);
  if (base.effect === "destructive") return base;
  const overwrites = writes.find((r) => writtenFile(r) === "truncate" && !newFiles.has(r.target));
  if (overwrites) {
    return {
      effect: "destructive",
      reason: `"${overwrites.op}" overwrites "${overwrites.target}" if it exists`,
    };
  }
  if (writes.length > 0 && base.effect === "read_only") {
    const r = writes[0];
    const verb = writtenFile(r) === "append" ? "appends to" : "creates";
    return { effect: "other", reason: `"${r.op}" ${verb} "${r.target}"` };
  }
  if (!cmd.programIsLiteral) return { effect: "other", reason: "the program is not static" };
  if (base.effect !== "read_only") return base;
  // Read-only is never a guess: a program named by a path outside the system directories, or
  // arguments or wrappers the analysis cannot see through, make the command `other`.
  if (cmd.path && !isSystemPath(cmd.path)) {
    return { effect: "other", reason: `"${cmd.path}" is not a system program` };
  }
  if (cmd.argsLiteral === false) {
    return { effect: "other", reason: `the arguments of ${cmd.program} are not static` };
  }
  if (cmd.wrappers?.length) {
    return { effect: "other", reason: `${cmd.program} runs under ${cmd.wrappers.join(", ")}` };
  }
  return base;
}

/** The command with its effect judged again, knowing which redirect targets do not exist yet. */
function withNewFiles(cmd: SimpleCommand, newFiles: ReadonlySet<string>): SimpleCommand {
  if (!cmd.redirects.some((r) => newFiles.has(r.target))) return cmd;
  const effect = effectOf(cmd, newFiles);
  return { ...cmd, effect: effect.effect, effectReason: effect.reason };
}

// ---------------------------------------------------------------------------------------------
// Command patterns (blocked commands, legacy confirm patterns)

/** Commands re-added to the blocklist when `allow_network = false` (spec list plus peers'). */
const NETWORK_COMMANDS = [
  "curl",
  "wget",
  "nc ",
  "ncat",
  "netcat",
  "socat",
  "telnet",
  "ssh",
  "scp",
  "sftp",
  "ftp",
];

/** Shell-syntax confirm patterns of the spec, mapped to the feature the analyser reports. */
const FEATURE_PATTERNS = new Set(["$(", "`", "<(", ">(", "<<<"]);

/** Clients whose string arguments are SQL (the `drop table` confirm patterns). */
const SQL_CLIENTS = new Set([
  "psql",
  "mysql",
  "mariadb",
  "sqlite3",
  "sqlcmd",
  "duckdb",
  "clickhouse",
  "clickhouse-client",
  "cockroach",
  "mongosh",
  "usql",
]);

/**
 * Matches a command pattern of `[tools.shell]` (`"sudo"`, `"rm -rf /"`, `"dd if="`,
 * `"git push --force"`) against one simple command, by tokens rather than substrings: the first
 * word is the program (`mkfs` also matches `mkfs.ext4`); every further word must be one of the
 * arguments, a word ending in `=` is a prefix (`if=`), short-flag bundles compare by letters
 * (`-rf` matches `-fr`, `-r -f`, `--recursive --force` for rm), and `/` matches `//`, `/*`, `/.`.
 * So `sudoku`, `grep -rm` and `echo "rm "` do not match `sudo`/`rm `.
 */
export function matchCommandPattern(pattern: string, cmd: SimpleCommand): boolean {
  const tokens = pattern.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return false;
  const program = cmd.program.toLowerCase();
  const [head, ...rest] = tokens;
  if (program === head || program.startsWith(`${head}.`)) {
    return rest.every((t) => argsContain(cmd, t));
  }
  if (rest.length > 0 && SQL_CLIENTS.has(program)) {
    const phrase = tokens.join(" ");
    return cmd.args.some((a) => a.toLowerCase().replace(/\s+/g, " ").includes(phrase));
  }
  return false;
}

function argsContain(cmd: SimpleCommand, token: string): boolean {
  const args = cmd.args.map((a) => a.toLowerCase());
  if (token.endsWith("=")) return args.some((a) => a.startsWith(token));
  if (args.includes(token)) return true;
  // `--force` also covers `--force-with-lease`, `--force=…`.
  if (token.startsWith("--")) {
    if (args.some((a) => a.startsWith(`${token}-`) || a.startsWith(`${token}=`))) return true;
  }
  // `git push origin +main` is a force push too.
  if (
    cmd.program === "git" && (token === "--force" || token === "-f") && args.includes("push") &&
    args.some((a) => /^\+[^+]/.test(a))
  ) return true;
  if (/^-[a-z]+$/.test(token)) {
    const letters = shortFlags(cmd);
    return [...token.slice(1)].every((l) => letters.has(l));
  }
  if (token.startsWith("/")) return args.some((a) => normalisePathArg(a) === token);
  return false;
}

function shortFlags(cmd: SimpleCommand): Set<string> {
  const letters = new Set<string>();
  for (const a of cmd.args) {
    if (a === "--") break;
    if (/^-[a-zA-Z]+$/.test(a)) { for (const l of a.slice(1).toLowerCase()) letters.add(l); }
    if (cmd.program === "rm" && a === "--recursive") letters.add("r");
    if (cmd.program === "rm" && a === "--force") letters.add("f");
  }
  return letters;
}

function normalisePathArg(a: string): string {
  let p = a.replace(/\/+/g, "/");
  while (/\/(\.|\*)$/.test(p)) p = p.slice(0, -2) || "/";
  if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p || "/";
}

// ---------------------------------------------------------------------------------------------
// Per-command danger table (fail closed: ask at least)

const CODE_FLAGS: Record<string, RegExp> = {
  python: /^-[a-zA-Z]*c/,
  node: /^(-e|-p|--eval|--print|-pe)$|^--eval=|^--print=/,
  deno: /^(eval|-e)$/,
  bun: /^(-e|--eval|-p|--print)$/,
  perl: /^-[a-zA-Z]*[eE]/,
  ruby: /^-[a-zA-Z]*e/,
  php: /^-[a-zA-Z]*r/,
  lua: /^-e/,
  luajit: /^-e/,
  osascript: /^-e/,
  pwsh: /^-(c|command|encodedcommand|e|ec)$/i,
  powershell: /^-(c|command|encodedcommand|e|ec)$/i,
  rscript: /^-e/,
  r: /^-e/,
  julia: /^-e|^--eval/,
  tclsh: /^-c/,
  jshell: /./,
  vim: /^(-c|--cmd|-S)$|^\+/,
  nvim: /^(-c|--cmd|-S)$|^\+/,
  vi: /^(-c|--cmd|-S)$|^\+/,
  ex: /^(-c|--cmd|-S)$|^\+/,
  expect: /^-c$/,
  gdb: /^(-ex|--eval-command|-x|--command|-ix|-iex)(=|$)/,
};

/** Builtins that take variable names: a subscript in a name is evaluated (`a[$(cmd)]`). */
const NAME_BUILTINS = new Set([
  "test",
  "[",
  "printf",
  "read",
  "unset",
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
  "let",
  "mapfile",
  "readarray",
  "getopts",
  "wait",
  "printf",
]);

/** Why one simple command must not be auto-allowed even when a rule allows it. */
export function commandDanger(cmd: SimpleCommand): string | null {
  if (!cmd.programIsLiteral) return `the program name "${cmd.program}" is not static`;
  const p = cmd.program.toLowerCase();
  const base = p.replace(/[0-9.]+$/, "");
  const args = cmd.args;
  const codeFlag = CODE_FLAGS[p] ?? CODE_FLAGS[base];
  if (codeFlag && args.some((a) => codeFlag.test(a))) return `${cmd.program} runs inline code`;
  const table = programDanger(cmd);
  if (table) return table;
  if (p === "xargs" || p === "parallel") {
    return `${cmd.program} runs a command built from its input`;
  }
  if (NAME_BUILTINS.has(p)) {
    // A name with a subscript evaluates it as arithmetic: `read 'a[x]'` runs what x holds.
    const names = p === "test" || p === "[" || p === "printf"
      ? args.filter((_, i) => args[i - 1] === "-v")
      : args.filter((a) => !a.startsWith("-"));
    const sub = names.find((a) => /^[A-Za-z_][A-Za-z0-9_]*\[(?!(\d+|@|\*)\])/.test(a));
    if (sub) return `${cmd.program} evaluates the array subscript in "${sub}" as code`;
  }
  const feeder = cmd.wrappers?.find((w) => w === "xargs" || w === "parallel");
  if (feeder && INTERPRETERS.has(p)) {
    return `${feeder} runs the interpreter "${cmd.program}" on its input`;
  }
  if ((p === "mapfile" || p === "readarray") && args.some((a) => /^-[a-zA-Z]*C/.test(a))) {
    return `${cmd.program} -C runs a callback as code`;
  }
  if (p === "tmux" || p === "screen" || p === "crontab" || p === "at" || p === "batch") {
    return `${cmd.program} runs commands outside this call`;
  }
  if (p === "alias" || p === "enable" || p === "fc" || p === "hash" && args.includes("-p")) {
    return `${cmd.program} changes what later commands run`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The analyser registered for the bash tool

export interface ShellPermissionSettings {
  /** The effective blocklist (command patterns), always enforced. */
  blocked: string[];
  /** Legacy `[tools.shell] confirm_patterns` when `[tools.permissions]` is absent. */
  confirm: string[] | null;
  maxCommandLength: number;
  maxSubcommands: number;
  allowNetwork: boolean;
  /** `[tools.permissions] protected_paths`, compiled: writes there are never auto-allowed. */
  protectedPaths?: CompiledProtected[];
}

/** Defaults minus `allowed_commands`, plus `blocked_commands`, network re-added when off (spec). */
export function shellPermissionSettings(config: Config): ShellPermissionSettings {
  const shell = config.tools.shell;
  const allowed = new Set(shell.allowed_commands.map((c) => c.trim().toLowerCase()));
  const blocked = DEFAULT_BLOCKED_COMMANDS.filter((c) => !allowed.has(c.trim().toLowerCase()));
  blocked.push(...shell.blocked_commands.map((c) => c.toLowerCase()));
  if (!shell.allow_network) blocked.push(...NETWORK_COMMANDS);
  const unique = [...new Set(blocked.map((c) => c.trim()).filter(Boolean))].sort();
  const legacy = !permissionRules(config.tools.permissions);
  return {
    protectedPaths: compileProtected(config.tools.permissions.protected_paths),
    blocked: unique,
    confirm: legacy
      ? shell.confirm_patterns.filter((p) => !allowed.has(p.trim().toLowerCase()))
      : null,
    maxCommandLength: shell.max_command_length,
    maxSubcommands: shell.max_subcommands,
    allowNetwork: shell.allow_network,
  };
}

/** Registers the shell-aware analyser as the `bash` tool's permission evaluator. */
export function installShellAnalyzer(policy: PermissionPolicy, config: Config): void {
  const settings = shellPermissionSettings(config);
  policy.setAnalyzer("bash", (params, p, options) => {
    const command = (params as { command?: unknown })?.command;
    if (typeof command !== "string") {
      return {
        action: "deny",
        policyMatch: "bash analysis",
        subject: null,
        reason: "the call has no command string to analyse",
      };
    }
    return decideShell(command, p, settings, options);
  });
}

export { escapeGlob };

/** The whole decision for one bash command line. */
export async function decideShell(
  command: string,
  policy: PermissionPolicy,
  settings: ShellPermissionSettings,
  options: DecideOptions = {},
): Promise<Decision> {
  const subject = command;
  if (command.length > settings.maxCommandLength) {
    return {
      action: "deny",
      policyMatch: "tools.shell.max_command_length",
      subject: `${command.slice(0, 200)}…`,
      reason: `the command is ${command.length} characters long, over [tools.shell] ` +
        `max_command_length = ${settings.maxCommandLength}; split it into shorter commands`,
    };
  }
  const analysis = await analyzeShell(command, { maxCommands: settings.maxSubcommands });
  if (analysis.commands.length > settings.maxSubcommands) {
    return {
      action: "deny",
      policyMatch: "tools.shell.max_subcommands",
      subject,
      reason: `the command has more than ${settings.maxSubcommands} simple commands ` +
        `([tools.shell] max_subcommands); split it into smaller commands`,
    };
  }
  const decisions: Decision[] = [];
  const exact = escapeGlob(command);

  // Defence in depth: deny rules also see the original text.
  const whole = policy.evaluateSession("bash", command);
  if (whole?.action === "deny") decisions.push({ ...whole, subject });
  if (!settings.confirm) {
    const d = policy.evaluate("bash", command, "ask");
    if (d.action === "deny") {
      decisions.push({ ...d, subject, reason: "deny rule matches the command text" });
    }
  }

  // Asks that come from a rule on one simple command (not from the analysis' fail-closed checks).
  const ruleAsks = new Set<Decision>();
  const commands: { command: string; effect: CommandEffect; context?: string[] }[] = [];
  const newFiles = await newRedirectTargets(analysis.commands, options);
  for (const found of analysis.commands) {
    const cmd = newFiles.size > 0 ? withNewFiles(found, newFiles) : found;
    commands.push({
      command: cmd.raw,
      effect: { effect: cmd.effect, reason: cmd.effectReason },
      ...(cmd.context.length ? { context: cmd.context } : {}),
    });
    const d = decideCommand(cmd, policy, settings);
    const guarded = protectedWrite(cmd, settings);
    if (guarded && d?.action !== "deny") decisions.push(guarded);
    if (d === null) continue;
    if (d.action === "ask" && !d.danger) ruleAsks.add(d);
    delete d.danger;
    decisions.push(d);
  }

  // Hidden program names: `c=sudo; $c x`, `eval "$x"` next to a literal "sudo", parse errors.
  const blockedWords = settings.blocked.filter((b) => !/\s/.test(b.trim()));
  const hiddenScan = analysis.parseError !== undefined ||
    analysis.commands.some((c) => !c.programIsLiteral) ||
    analysis.dynamic.length > 0;
  if (hiddenScan) {
    const words = new Set(analysis.words ?? []);
    if (analysis.parseError !== undefined) {
      for (const w of command.toLowerCase().split(/[^a-z0-9_.\-]+/)) words.add(w);
    }
    const hit = blockedWords.find((b) =>
      [...words].some((w) => w === b.trim() || w.startsWith(`${b.trim()}.`))
    );
    if (hit) {
      decisions.push({
        action: "deny",
        policyMatch: `tools.shell blocked "${hit.trim()}"`,
        subject,
        reason: `the blocked command "${hit.trim()}" appears in a command that cannot be ` +
          `analysed statically`,
      });
    }
  }

  if (settings.confirm) {
    for (const p of settings.confirm) {
      const t = p.trim();
      if (FEATURE_PATTERNS.has(t) && analysis.features?.includes(t)) {
        decisions.push({
          action: "ask",
          policyMatch: `tools.shell.confirm_patterns "${p}"`,
          subject,
          reason: `the command uses "${t}"`,
        });
      }
    }
  }

  if (analysis.dynamic.length > 0) {
    const network = analysis.dynamic.find((d) => d.includes("/dev/tcp") || d.includes("/dev/udp"));
    decisions.push({
      action: network && !settings.allowNetwork ? "deny" : "ask",
      policyMatch: network && !settings.allowNetwork
        ? "tools.shell.allow_network = false"
        : "bash analysis: fail closed",
      subject,
      reason: analysis.dynamic.join("; "),
    });
  }

  if (decisions.length === 0) {
    // Nothing runs (comments, plain assignments).
    return { action: "allow", policyMatch: null, subject, alwaysPattern: exact, commands };
  }
  const worst = mostRestrictive(decisions)!;
  if (worst.action === "ask") {
    // An "always" answer to this exact command line lifts a fail-closed ask (never a deny).
    const session = policy.evaluateSession("bash", command);
    if (session?.action === "allow") {
      return { ...session, subject, alwaysPattern: exact, commands };
    }
  }
  const same = decisions.filter((d) => d.action === worst.action);
  const reasons = [...new Set(same.map((d) => d.reason).filter((r): r is string => !!r))];
  const result: Decision = { ...worst, subject, alwaysPattern: exact, commands };
  if (reasons.length > 0) {
    const shown = reasons.slice(0, 5).join("; ");
    result.reason = reasons.length > 5 ? `${shown}; and ${reasons.length - 5} more` : shown;
  }
  // "Always" is keyed on the normalised command: when the only asks come from rules on one
  // simple command, that command is stored exactly (glob-escaped); otherwise the exact line.
  const asks = decisions.filter((d) => d.action === "ask");
  const byRule = asks.every((d) => ruleAsks.has(d));
  const subjects = new Set(asks.map((d) => d.subject));
  if (worst.action === "ask" && byRule && subjects.size === 1) {
    result.alwaysPattern = escapeGlob([...subjects][0] ?? command);
  }
  return result;
}

/** A confirm pattern the user added (not one of the defaults) that `cmd` matches. */
function addedConfirm(cmd: SimpleCommand, settings: ShellPermissionSettings): string | undefined {
  return settings.confirm?.find((p) =>
    !DEFAULT_CONFIRM_PATTERNS.includes(p) && !FEATURE_PATTERNS.has(p.trim()) &&
    matchCommandPattern(p, cmd)
  );
}

/** Static `>` redirect targets that do not exist yet: writing them creates, not overwrites. */
async function newRedirectTargets(
  commands: SimpleCommand[],
  options: DecideOptions,
): Promise<Set<string>> {
  const fresh = new Set<string>();
  // A `cd` in the line moves where a relative target lands: then every `>` may overwrite.
  if (!options.pathForms || commands.some((c) => /^(cd|pushd|popd)$/.test(c.program))) {
    return fresh;
  }
  for (const c of commands) {
    for (const r of c.redirects) {
      if (!r.op.includes(">") || /[$`*?[{~]/.test(r.target)) continue;
      if (!(await pathExists(options, r.target))) fresh.add(r.target);
    }
  }
  return fresh;
}

const SYSTEM_DIRS = [
  "/bin/",
  "/sbin/",
  "/usr/bin/",
  "/usr/sbin/",
  "/usr/local/bin/",
  "/usr/local/sbin/",
  "/opt/homebrew/bin/",
];

function isSystemPath(path: string): boolean {
  return SYSTEM_DIRS.some((d) => path.startsWith(d) && !path.slice(d.length).includes("/"));
}

/**
 * A write to a protected path (`.git/hooks/…`, `.gitattributes`, `.envrc`, …): by an output
 * redirect, or by an argument of a command that is not read-only. Reads are fine.
 */
function protectedWrite(cmd: SimpleCommand, settings: ShellPermissionSettings): Decision | null {
  const patterns = settings.protectedPaths ?? [];
  if (patterns.length === 0) return null;
  const candidates: string[] = [];
  for (const r of cmd.redirects) if (writtenFile(r)) candidates.push(r.target);
  if (cmd.effect !== "read_only") {
    for (const a of cmd.args) {
      candidates.push(a);
      const eq = /^[^=]*=(.*)$/s.exec(a);
      if (eq) candidates.push(eq[1]);
    }
  }
  for (const c of candidates) {
    const hit = protectedMatch(c, patterns);
    if (hit) {
      return {
        action: "ask",
        policyMatch: `tools.permissions.protected_paths "${hit}"`,
        subject: cmd.raw,
        reason: `"${cmd.raw}" writes "${c}", a protected path (${hit}) where a change can run ` +
          "code later, so only the user can approve it",
        humanOnly: true,
      };
    }
  }
  return null;
}

/** Whether a blocklist entry's program is this command's, whatever its unknown arguments are. */
function blockedProgram(pattern: string, cmd: SimpleCommand): boolean {
  const head = pattern.trim().toLowerCase().split(/\s+/)[0] ?? "";
  const p = cmd.program.toLowerCase();
  return head !== "" && (p === head || p.startsWith(`${head}.`));
}

function decideCommand(
  cmd: SimpleCommand,
  policy: PermissionPolicy,
  settings: ShellPermissionSettings,
): (Decision & { danger?: boolean }) | null {
  const subject = cmd.raw;
  const where = cmd.context.length ? ` (inside ${cmd.context.join(" → ")})` : "";
  for (const b of settings.blocked) {
    if (cmd.programIsLiteral && matchCommandPattern(b, cmd)) {
      return {
        action: "deny",
        policyMatch: `tools.shell blocked "${b.trim()}"`,
        subject,
        reason: `"${cmd.raw}"${where} matches the blocked command "${b.trim()}"`,
      };
    }
  }
  if (cmd.scriptAnalysed) {
    // `bash -lc '…'`: its inner commands are decided one by one; only a deny rule on the
    // shell line itself still counts.
    const d = settings.confirm ? null : policy.evaluate("bash", subject, "ask");
    return d?.action === "deny" ? { ...d, subject } : null;
  }
  let d: Decision;
  // Supervised without bash rules: the effect decides before the legacy lists (README).
  const unruled = !policy.hasRules("bash") || settings.confirm !== null;
  const session = unruled ? policy.evaluateSession("bash", subject) : null;
  if (unruled && !session && cmd.effect === "destructive") {
    return {
      action: "ask",
      policyMatch: "bash analysis: destructive",
      subject,
      reason: `${cmd.effectReason}${where}`,
      // What it destroys lies in the redirects and operands: "always" keys on the exact line.
      danger: true,
    };
  }
  if (unruled && !session && cmd.effect === "read_only") {
    d = { action: "allow", policyMatch: "bash analysis: read-only", subject };
  } else if (unruled && !session && policy.unaskedInSandbox && !addedConfirm(cmd, settings)) {
    // The sandbox stands in for the default confirm patterns; one the user added still asks.
    d = { action: "allow", policyMatch: "bash analysis: inside the OS sandbox", subject };
  } else if (settings.confirm) {
    const confirm = settings.confirm.find((p) =>
      !FEATURE_PATTERNS.has(p.trim()) && matchCommandPattern(p, cmd)
    );
    // Session "always" rules first (deny or allow), then the confirm patterns, then allow.
    if (session) d = session;
    else if (confirm) {
      d = {
        action: "ask",
        policyMatch: `tools.shell.confirm_patterns "${confirm}"`,
        subject,
        reason: `"${cmd.raw}"${where} matches the confirm pattern "${confirm.trim()}"`,
      };
    } else d = { action: "allow", policyMatch: "tools.shell (no confirm pattern)", subject };
  } else {
    // A program named by a path outside the system directories is matched as written: a rule
    // allowing `ls*` does not allow `/tmp/evil/ls` (deny rules see both forms).
    const pathRaw = cmd.path && !isSystemPath(cmd.path) ? [cmd.path, ...cmd.args].join(" ") : null;
    d = policy.evaluate("bash", pathRaw ?? subject, "ask");
    if (pathRaw && d.action !== "deny") {
      const byName = policy.evaluate("bash", subject, "ask");
      if (byName.action === "deny") d = byName;
    }
    // Other spellings (canonical flags, harmless git options removed): among the spellings a
    // rule matches, the most restrictive answer wins, so no spelling sidesteps a deny rule.
    if (cmd.forms && !pathRaw) {
      const matched = [d, ...cmd.forms.map((f) => policy.evaluate("bash", f, "ask"))]
        .filter((x) => x.policyMatch !== null);
      if (matched.length > 0) d = { ...mostRestrictive(matched)!, subject };
    }
    if (d.action !== "allow" && !d.reason) {
      d = {
        ...d,
        reason: d.policyMatch
          ? `"${cmd.raw}"${where} matches ${d.policyMatch}`
          : `no rule allows "${cmd.raw}"${where}`,
      };
    }
  }
  if (d.action === "allow") {
    const danger = commandDanger(cmd) ?? blockedDanger(cmd, settings);
    if (danger) {
      return {
        ...d,
        action: "ask",
        policyMatch: `bash analysis (over ${d.policyMatch ?? "no rule"})`,
        reason: `${danger}${where}`,
        subject,
        danger: true,
      };
    }
  }
  return { ...d, subject };
}

/** Programs that never run an argument as a command (a blocked name there is just text). */
const NON_RUNNING = new Set(["git", "man", "apropos", "whatis", "info", "help", "command"]);

/**
 * The blocklist seen through what the analysis cannot resolve: a blocked program whose
 * arguments are not static (xargs input, `$x`), or a blocked program name given as an argument
 * to a program that may run it (an unknown wrapper).
 */
function blockedDanger(cmd: SimpleCommand, settings: ShellPermissionSettings): string | null {
  if (!cmd.programIsLiteral) return null;
  if (cmd.argsLiteral === false) {
    const hit = settings.blocked.find((b) => /\s/.test(b.trim()) && blockedProgram(b, cmd));
    if (hit) {
      return `the arguments of "${cmd.program}" are not static, so the blocked command ` +
        `"${hit.trim()}" cannot be ruled out; run it with literal arguments`;
    }
  }
  if (cmd.effect === "read_only" || NON_RUNNING.has(cmd.program.toLowerCase())) return null;
  const names = settings.blocked.map((b) => b.trim().toLowerCase()).filter((b) => !/\s/.test(b));
  const arg = cmd.args.find((a) => names.includes(a.toLowerCase().replace(/^.*\//, "")));
  if (arg) {
    return `"${cmd.program}" may run its argument "${arg}", a blocked command; ` +
      `run the command without ${cmd.program}`;
  }
  return null;
}
