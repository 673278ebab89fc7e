/**
 * What the analysis knows about individual programs: which of their options run code or write
 * files (the dangerous-command tables), which of their arguments name files, how their flags are
 * spelled canonically, and whether a command is provably read-only or destructive. Pure
 * functions over a program name and its resolved arguments; private to src/permission/.
 */

/** The part of a simple command these tables read. */
export interface CommandWords {
  program: string;
  args: string[];
}

// ---------------------------------------------------------------------------------------------
// Options: short clusters and long options with abbreviations

interface OptionSpec {
  /** Short letters that take a value (the rest of the cluster, or the next word). */
  valueShort: string;
  /** Long names that take a value (`--name=v` or `--name v`). */
  valueLong: string[];
  /** Options whose value is the pattern or script (so no pattern operand follows). */
  pattern: { short: string; long: string[] };
  /** Options whose value is a file the program reads (a path to check). */
  file: { short: string; long: string[] };
}

/** Programs whose first operand is a pattern or a script unless an option carried it. */
const PATTERN_PROGRAMS: Record<string, OptionSpec> = {
  grep: {
    valueShort: "efmABCdD",
    valueLong: [
      "regexp",
      "file",
      "max-count",
      "after-context",
      "before-context",
      "context",
      "directories",
      "devices",
      "label",
      "binary-files",
      "include",
      "exclude",
      "exclude-from",
      "exclude-dir",
      "group-separator",
    ],
    pattern: { short: "e", long: ["regexp"] },
    file: { short: "f", long: ["file", "exclude-from"] },
  },
  rg: {
    valueShort: "efgtTmABCjMErd",
    valueLong: [
      "regexp",
      "file",
      "glob",
      "iglob",
      "type",
      "type-not",
      "max-count",
      "after-context",
      "before-context",
      "context",
      "threads",
      "max-columns",
      "encoding",
      "replace",
      "max-depth",
      "ignore-file",
      "type-add",
      "sort",
      "sortr",
      "color",
      "colors",
      "pre",
      "pre-glob",
      "path-separator",
      "context-separator",
      "field-match-separator",
      "field-context-separator",
      "max-filesize",
      "engine",
      "dfa-size-limit",
      "regex-size-limit",
    ],
    pattern: { short: "e", long: ["regexp"] },
    file: { short: "f", long: ["file", "ignore-file"] },
  },
  sed: {
    valueShort: "efl",
    valueLong: ["expression", "file", "line-length"],
    pattern: { short: "e", long: ["expression"] },
    file: { short: "f", long: ["file"] },
  },
  awk: {
    valueShort: "fvFeiElW",
    valueLong: ["file", "assign", "field-separator", "source", "include", "exec", "load"],
    pattern: { short: "e", long: ["source"] },
    file: { short: "fiE", long: ["file", "include", "exec"] },
  },
  jq: {
    valueShort: "fL",
    valueLong: ["from-file", "indent"],
    pattern: { short: "f", long: ["from-file"] },
    file: { short: "f", long: ["from-file"] },
  },
};
// perl: `-e`/`-E` carry the code; otherwise the first operand is the script file.
PATTERN_PROGRAMS.perl = {
  valueShort: "eEIM",
  valueLong: [],
  pattern: { short: "eE", long: [] },
  file: { short: "", long: [] },
};
for (const alias of ["egrep", "fgrep"]) PATTERN_PROGRAMS[alias] = PATTERN_PROGRAMS.grep;
for (const alias of ["gsed"]) PATTERN_PROGRAMS[alias] = PATTERN_PROGRAMS.sed;
for (const alias of ["gawk", "mawk", "nawk"]) PATTERN_PROGRAMS[alias] = PATTERN_PROGRAMS.awk;

/** Programs that never open their arguments as files (`echo /usr/local/bin` names nothing). */
const NO_FILE_ARGS = new Set(["echo", "printf", "true", "false", ":", "basename", "dirname"]);

/** A long option's full name: the one `--abbrev` uniquely abbreviates, or itself. */
function longName(given: string, known: string[]): string | null {
  if (known.includes(given)) return given;
  const hits = known.filter((k) => k.startsWith(given));
  // Ambiguous abbreviations are refused by the program; treat them as the first hit (fail closed).
  return given.length >= 2 && hits.length > 0 ? hits[0] : null;
}

interface ParsedOptions {
  /** Values of pattern/script-carrying options. */
  patterns: string[];
  /** Values of file-carrying options (the program reads them). */
  files: string[];
  /** Operands, in order (after `--` too). */
  operands: string[];
  /** Every option as written (`-n`, `--expression=…`). */
  options: string[];
}

/** Splits arguments into options (with their values) and operands, per a spec. */
function parseOptions(args: string[], spec: OptionSpec): ParsedOptions {
  const out: ParsedOptions = { patterns: [], files: [], operands: [], options: [] };
  const take = (kind: "pattern" | "file" | "value", value: string) => {
    if (kind === "pattern") out.patterns.push(value);
    else if (kind === "file") out.files.push(value);
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      out.operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith("--")) {
      out.options.push(a);
      const eq = a.indexOf("=");
      const given = a.slice(2, eq < 0 ? undefined : eq);
      const name = longName(given, spec.valueLong);
      if (!name) continue;
      const kind = spec.pattern.long.includes(name)
        ? "pattern"
        : spec.file.long.includes(name)
        ? "file"
        : "value";
      if (eq >= 0) take(kind, a.slice(eq + 1));
      else if (i + 1 < args.length) take(kind, args[++i]);
      continue;
    }
    if (a.startsWith("-") && a.length > 1) {
      out.options.push(a);
      for (let j = 1; j < a.length; j++) {
        const letter = a[j];
        if (!spec.valueShort.includes(letter)) continue;
        const kind = spec.pattern.short.includes(letter)
          ? "pattern"
          : spec.file.short.includes(letter)
          ? "file"
          : "value";
        const rest = a.slice(j + 1);
        if (rest) take(kind, rest);
        else if (i + 1 < args.length) take(kind, args[++i]);
        break;
      }
      continue;
    }
    out.operands.push(a);
  }
  return out;
}

/**
 * The arguments of one simple command that may name files: operands and file-carrying option
 * values. A pattern carried by an option (`-e`, `--regexp=`, `--expression=`, `-f`, in any
 * spelling) never hides a file operand; echo/printf arguments are not files.
 */
export function fileWords(cmd: CommandWords): string[] {
  const program = cmd.program.toLowerCase();
  if (NO_FILE_ARGS.has(program)) return [];
  const spec = PATTERN_PROGRAMS[program];
  if (!spec) return cmd.args;
  const parsed = parseOptions(cmd.args, spec);
  const hasPatternOption = parsed.patterns.length > 0 || parsed.files.length > 0 &&
      (spec.file.short.includes("f") || program === "jq");
  const operands = hasPatternOption ? parsed.operands : parsed.operands.slice(1);
  // Option words stay candidates too (`--exclude-from=/x`, `--file=/x`).
  const valued = parsed.options.filter((o) => {
    if (!o.startsWith("--") || !o.includes("=")) return false;
    const name = longName(o.slice(2, o.indexOf("=")), spec.valueLong);
    return !name || !spec.pattern.long.includes(name);
  });
  return [...parsed.files, ...operands, ...valued];
}

// ---------------------------------------------------------------------------------------------
// sed

const SED_SAFE_COMMANDS = new Set([..."pPdDnNgGhHxlL=zFqQ"]);

/** Why a sed script may run commands, write or read other files; null when it cannot. */
export function sedScriptDanger(script: string): string | null {
  const s = script;
  let i = 0;
  const skipBlank = () => {
    while (i < s.length && /[ \t]/.test(s[i])) i++;
  };
  const toEol = () => {
    while (i < s.length && s[i] !== "\n") i++;
  };
  const delimited = (delim: string): boolean => {
    // Reads up to the unescaped delimiter; false when it is missing.
    while (i < s.length) {
      if (s[i] === "\\") i += 2;
      else if (s[i] === delim) {
        i++;
        return true;
      } else if (s[i] === "\n" && delim !== "\n") return false;
      else i++;
    }
    return false;
  };
  const address = (): boolean => {
    if (/[0-9]/.test(s[i] ?? "")) {
      while (/[0-9]/.test(s[i] ?? "")) i++;
      if (s[i] === "~") {
        i++;
        while (/[0-9]/.test(s[i] ?? "")) i++;
      }
      return true;
    }
    if (s[i] === "$") {
      i++;
      return true;
    }
    if (s[i] === "/" || s[i] === "\\") {
      const delim = s[i] === "\\" ? s[i + 1] : "/";
      i += s[i] === "\\" ? 2 : 1;
      if (!delimited(delim)) return false;
      while (s[i] === "I" || s[i] === "M") i++;
      return true;
    }
    return true;
  };
  while (i < s.length) {
    while (i < s.length && /[\s;]/.test(s[i])) i++;
    if (i >= s.length) break;
    if (s[i] === "#") {
      toEol();
      continue;
    }
    if (s[i] === "}") {
      i++;
      continue;
    }
    if (!address()) return "sed script has an unterminated address";
    skipBlank();
    if (s[i] === ",") {
      i++;
      skipBlank();
      if (s[i] === "+" || s[i] === "~") {
        i++;
        while (/[0-9]/.test(s[i] ?? "")) i++;
      } else if (!address()) return "sed script has an unterminated address";
    }
    skipBlank();
    while (s[i] === "!") {
      i++;
      skipBlank();
    }
    const c = s[i++];
    if (c === undefined) return null;
    if (c === "{") continue;
    if (c === "}") continue;
    if (SED_SAFE_COMMANDS.has(c)) {
      while (/[0-9 \t]/.test(s[i] ?? "")) i++;
      continue;
    }
    if (c === ":" || c === "b" || c === "t" || c === "T" || c === "v") {
      while (i < s.length && s[i] !== "\n" && s[i] !== ";") i++;
      continue;
    }
    if (c === "a" || c === "i" || c === "c") {
      // Text to the end of the line; a backslash-newline continues it.
      while (i < s.length && s[i] !== "\n") i += s[i] === "\\" ? 2 : 1;
      continue;
    }
    if (c === "s" || c === "y") {
      const delim = s[i++];
      if (!delim || delim === "\n" || delim === "\\") return "sed script has a malformed s command";
      if (!delimited(delim) || !delimited(delim)) {
        return `sed script has an unterminated ${c} command`;
      }
      if (c === "y") continue;
      while (i < s.length && !/[\n;}]/.test(s[i])) {
        const f = s[i];
        if (f === "e") return "sed s///e runs the pattern space as a command";
        if (f === "w" || f === "W") return "sed s///w writes a file";
        if (!/[gpiImM0-9 \t]/.test(f)) return `sed s/// has the unknown flag "${f}"`;
        i++;
      }
      continue;
    }
    if (c === "e") return "sed e runs a command";
    if (c === "w" || c === "W") return `sed ${c} writes a file`;
    if (c === "r" || c === "R") return `sed ${c} reads a file the path checks do not see`;
    return `sed script has the command "${c}" the analysis does not know`;
  }
  return null;
}

const SED_FLAGS_OK = new Set([..."nErsuzb"]);
const SED_LONG_OK = [
  "quiet",
  "silent",
  "regexp-extended",
  "separate",
  "unbuffered",
  "null-data",
  "zero-terminated",
  "posix",
  "debug",
  "sandbox",
  "binary",
  "follow-symlinks",
  "line-length",
  "expression",
  "file",
  "in-place",
  "help",
  "version",
];

function sedDanger(args: string[]): string | null {
  const spec = PATTERN_PROGRAMS.sed;
  const parsed = parseOptions(args, spec);
  for (const o of parsed.options) {
    if (o.startsWith("--")) {
      const name = longName(o.slice(2).split("=")[0], SED_LONG_OK);
      if (!name) return `sed option "${o}" is not known to the analysis`;
      if (name === "in-place") return "sed --in-place rewrites files (use the edit tool)";
      if (name === "file") return "sed --file runs a script file the analysis cannot see";
      continue;
    }
    for (const letter of o.slice(1)) {
      if (letter === "i") return "sed -i rewrites files (use the edit tool)";
      if (letter === "f") return "sed -f runs a script file the analysis cannot see";
      if (letter === "e" || letter === "l") break;
      if (!SED_FLAGS_OK.has(letter)) return `sed option "-${letter}" is not known to the analysis`;
    }
  }
  const scripts = parsed.patterns.length ? parsed.patterns : parsed.operands.slice(0, 1);
  for (const script of scripts) {
    const d = sedScriptDanger(script);
    if (d) return d;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// awk

/** An awk program with string and regex literals blanked out (what is left is code). */
function awkCode(program: string): string {
  let out = "";
  let prevSignificant = "";
  for (let i = 0; i < program.length; i++) {
    const c = program[i];
    if (c === '"') {
      i++;
      while (i < program.length && program[i] !== '"') i += program[i] === "\\" ? 2 : 1;
      out += '""';
      prevSignificant = '"';
      continue;
    }
    // A `/` starts a regex where an operand cannot end (after an operator, `(`, `,`, start).
    if (c === "/" && /^$|[(,~!&|{};\n=]/.test(prevSignificant)) {
      i++;
      while (i < program.length && program[i] !== "/") i += program[i] === "\\" ? 2 : 1;
      out += "//";
      prevSignificant = "/";
      continue;
    }
    if (c === "#") {
      while (i < program.length && program[i] !== "\n") i++;
      continue;
    }
    out += c;
    if (!/\s/.test(c)) prevSignificant = c;
  }
  return out;
}

function awkDanger(args: string[]): string | null {
  const parsed = parseOptions(args, PATTERN_PROGRAMS.awk);
  for (const o of parsed.options) {
    if (o.startsWith("--")) {
      const name = o.slice(2).split("=")[0];
      if (
        /^(f|fi|fil|file|i|in|inc|incl|inclu|includ|include|e|ex|exe|exec|l|lo|loa|load)$/.test(
          name,
        )
      ) {
        return `awk ${o} runs code from a file`;
      }
      continue;
    }
    if (/^-[^v]*[fiEl]/.test(o) && !/^-v/.test(o)) return `awk ${o} runs code from a file`;
  }
  const programs = parsed.patterns.length ? parsed.patterns : parsed.operands.slice(0, 1);
  for (const p of programs) {
    const code = awkCode(p);
    if (/\bsystem\s*\(/.test(code)) return "awk program calls system()";
    if (/\bgetline\b/.test(code)) return "awk getline can run a command or read another file";
    if (/\|&?/.test(code.replace(/\|\|/g, ""))) return "awk program pipes into a command";
    // `print > f`, `printf … >> f`: a redirect inside a print statement.
    if (/\bprintf?\b[^;{}\n]*>/.test(code)) return "awk print redirects to a file";
    if (/\b(close|fflush)\s*\(/.test(code) && /[>|]/.test(code)) {
      return "awk program redirects output";
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// git

/** Long options (any subcommand) that write a file or pick a program git runs. */
const GIT_DANGEROUS_LONG = [
  "output",
  "output-directory",
  "ext-diff",
  "textconv",
  "exec-path",
  "upload-pack",
  "receive-pack",
  "config-env",
  "exec",
  "extcmd",
  "tool",
  "git-dir",
  "work-tree",
  "namespace",
  "super-prefix",
  "open-files-in-pager",
  "run",
  "template",
  "separate-git-dir",
  "gpg-program",
];

/** Global options that change nothing about what runs or where it writes. */
const GIT_HARMLESS_GLOBAL = new Set([
  "--no-pager",
  "-P",
  "--no-optional-locks",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--no-replace-objects",
  "--no-advice",
]);

export interface GitCommand {
  /** The subcommand (`status`), "" when there is none. */
  sub: string;
  /** Arguments after the subcommand. */
  rest: string[];
  /** The command without harmless global options (`git -C . branch` → `git branch`). */
  normalised: string[];
  /** Why the global options are not harmless; null when they are. */
  danger: string | null;
}

/** A `-C` directory that stays in the working directory (relative, no `..`, static). */
function harmlessDir(dir: string): boolean {
  if (dir === "" || dir.startsWith("/") || dir.startsWith("~") || /[$`*?[{]/.test(dir)) {
    return false;
  }
  return !dir.split("/").includes("..");
}

/** Splits `git [global options] sub args` and judges the global options. */
export function parseGit(args: string[]): GitCommand {
  let i = 0;
  let danger: string | null = null;
  while (i < args.length && args[i].startsWith("-")) {
    const a = args[i];
    if (a === "-C") {
      const dir = args[i + 1] ?? "";
      if (!harmlessDir(dir)) danger ??= `git -C "${dir}" runs git in another directory`;
      i += 2;
      continue;
    }
    if (a === "-c" || a.startsWith("-c")) {
      danger ??= "git -c sets configuration that can run programs (core.pager, core.fsmonitor)";
      i += a === "-c" ? 2 : 1;
      continue;
    }
    if (GIT_HARMLESS_GLOBAL.has(a)) {
      i++;
      continue;
    }
    danger ??= `git global option "${a}" can change which repository, config or program is used`;
    i += a === "--namespace" || a === "--git-dir" || a === "--work-tree" ||
        a === "--exec-path" || a === "--config-env" || a === "--super-prefix"
      ? 2
      : 1;
  }
  const sub = args[i] ?? "";
  const rest = args.slice(i + 1);
  return { sub, rest, normalised: ["git", ...args.slice(i)], danger };
}

/** Keys whose value git later runs (or that redirect where git reads its config). */
const GIT_EXEC_KEYS =
  /^(core\.(pager|sshcommand|editor|hookspath|fsmonitor|askpass|gitproxy|worktree|attributesfile|excludesfile)|alias\.|pager\.|sequence\.editor|credential\.|gpg\.|filter\.|diff\.|merge\.|uploadpack\.|receive\.|remote\.|url\.|include\.|includeif\.|interactive\.|instaweb\.|web\.|man\.|browser\.|difftool\.|mergetool\.|protocol\.|http\.|sendemail\.)/i;

function gitDanger(args: string[]): string | null {
  const g = parseGit(args);
  if (g.danger) return g.danger;
  for (const a of g.rest) {
    if (!a.startsWith("--")) continue;
    if (a === "--") break;
    const given = a.slice(2).split("=")[0];
    if (given.startsWith("no-")) continue;
    const name = GIT_DANGEROUS_LONG.find((k) =>
      k === given || (given.length >= 2 && k.startsWith(given))
    );
    if (name) return `git --${name} writes a file or runs a program`;
  }
  const sub = g.sub;
  if (sub === "config" && g.rest.some((a) => GIT_EXEC_KEYS.test(a))) {
    return "git config sets a key whose value git runs later";
  }
  if (sub === "config" && g.rest.some((a) => /^(--file|-f|--blob|--global|--system)/.test(a))) {
    return "git config writes a config file";
  }
  if (
    (sub === "submodule" && g.rest.includes("foreach")) ||
    (sub === "bisect" && g.rest[0] === "run") ||
    (sub === "rebase" && g.rest.some((a) => /^(-x|--exec)(=|$)|^-[a-zA-Z]*x$/.test(a))) ||
    sub === "filter-branch" || sub === "difftool" || sub === "mergetool" || sub === "daemon" ||
    sub === "instaweb" || sub === "web--browse" || sub === "archimport" || sub === "cvsserver" ||
    sub === "shell" || sub === "upload-pack" || sub === "receive-pack" || sub === "remote-ext"
  ) {
    return `git ${sub} runs a shell command`;
  }
  if (
    (sub === "log" || sub === "diff" || sub === "show" || sub === "format-patch") &&
    g.rest.some((a) => a === "-o" || /^-o./.test(a) && sub === "format-patch")
  ) {
    return `git ${sub} -o writes files`;
  }
  if (sub === "grep" && g.rest.some((a) => /^(-O|--open-files-in-pager)/.test(a))) {
    return "git grep -O runs a pager program";
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Other allowed-looking programs with powers

function findDanger(args: string[]): string | null {
  const bad = args.find((a) =>
    /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/.test(a)
  );
  return bad ? `find ${bad} runs commands or changes files` : null;
}

function tarDanger(args: string[]): string | null {
  for (const a of args) {
    if (
      /^--(to-command|checkpoint-action|use-compress-program|info-script|new-volume-script|rsh-command|rmt-command|index-file|volno-file)/
        .test(a)
    ) return `tar ${a.split("=")[0]} runs a program or writes a file`;
    if (/^-[a-zA-Z]*[IF]/.test(a) || /^[a-zA-Z]*[IF]/.test(a) && a === args[0]) {
      return "tar -I/-F runs a program";
    }
  }
  return null;
}

function lessDanger(program: string, args: string[]): string | null {
  // less/more/man: `!cmd` from the prompt, LESSOPEN, `+cmd`; never auto-allowed with options.
  if (program === "man" && args.some((a) => /^(-P|--pager|-H|--html|-R|--recode|-l)/.test(a))) {
    return "man option runs a program";
  }
  if ((program === "less" || program === "more") && args.some((a) => /^[+-]/.test(a))) {
    return `${program} options can run commands (use the read tool)`;
  }
  return null;
}

/**
 * Dangerous-command tables: why one command of an otherwise allowed program may run code,
 * write files or read files the path checks cannot see. Null when none of that applies.
 */
export function programDanger(cmd: CommandWords): string | null {
  const reason = tableDanger(cmd);
  if (reason === null || /\(use the /.test(reason)) return reason;
  return `${reason}; ${HINTS[cmd.program.toLowerCase()] ?? "run it without that option"}`;
}

/** What to do instead, per program, appended to a danger reason the model reads. */
const HINTS: Record<string, string> = {
  sed: "use sed only to print (sed -n '1,5p', s/a/b/g to stdout) and the edit tool to change files",
  awk: "let awk print to stdout and use the write tool for files",
  git: "run the git command without that option, in the workspace",
  find: "list the files with find and act on them in a separate command",
};
for (const alias of ["gsed"]) HINTS[alias] = HINTS.sed;
for (const alias of ["gawk", "mawk", "nawk"]) HINTS[alias] = HINTS.awk;

function tableDanger(cmd: CommandWords): string | null {
  const p = cmd.program.toLowerCase();
  const args = cmd.args;
  if (p === "sed" || p === "gsed") return sedDanger(args);
  if (p === "awk" || p === "gawk" || p === "mawk" || p === "nawk") return awkDanger(args);
  if (p === "git") return gitDanger(args);
  if (p === "find") return findDanger(args);
  if (p === "tar" || p === "gtar" || p === "bsdtar") return tarDanger(args);
  if (p === "less" || p === "more" || p === "man") return lessDanger(p, args);
  if (
    p === "rg" && args.some((a) => /^--(pre|hostname-bin)(=|$)|^--search-zip$|^-[a-zA-Z]*z/.test(a))
  ) {
    return "rg --pre/--search-zip runs a program";
  }
  if (
    p === "sort" && args.some((a) => /^--compress-program|^(-o|--output)(=|$)|^-[a-zA-Z]*o/.test(a))
  ) {
    return "sort -o writes a file, --compress-program runs a program";
  }
  if (p === "tree" && args.some((a) => /^-[a-zA-Z]*o|^--output/.test(a))) {
    return "tree -o writes a file";
  }
  if (p === "uniq" && args.filter((a) => !a.startsWith("-") || a === "-").length > 1) {
    return "uniq writes its second operand";
  }
  if (p === "date" && args.some((a) => /^(-s|--set)(=|$)|^-[a-zA-Z]*s/.test(a))) {
    return "date -s sets the clock";
  }
  if (p === "rsync" && args.some((a) => /^(-e|--rsh)(=|$)|^-[a-zA-Z]*e$/.test(a))) {
    return "rsync -e runs a program";
  }
  if (p === "ssh" && args.some((a) => /proxycommand|localcommand|permitlocalcommand/i.test(a))) {
    return "ssh option runs a local command";
  }
  if (p === "zip" && args.some((a) => /^(-TT|--unzip-command)/.test(a))) {
    return "zip option runs a program";
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Canonical flag spellings of destructive commands

interface FlagTable {
  /** Long option → short letter. */
  long: Record<string, string>;
  /** Letters in this order first, the others sorted after them. */
  order: string;
  /** Letters that are the same flag (`R` ≡ `r`). */
  same?: Record<string, string>;
}

const FLAG_TABLES: Record<string, FlagTable> = {
  rm: {
    long: { recursive: "r", force: "f", dir: "d", verbose: "v", interactive: "i" },
    order: "rf",
    same: { R: "r" },
  },
  cp: { long: { recursive: "r", force: "f", verbose: "v" }, order: "rf", same: { R: "r" } },
  mv: { long: { force: "f", verbose: "v" }, order: "f" },
  chmod: { long: { recursive: "R", verbose: "v" }, order: "R" },
  chown: { long: { recursive: "R", verbose: "v" }, order: "R" },
  chgrp: { long: { recursive: "R", verbose: "v" }, order: "R" },
  shred: { long: { remove: "u", zero: "z", force: "f", verbose: "v" }, order: "fuz" },
};

/**
 * Other spellings of a destructive command with its flags in one canonical form: for
 * `rm -r -f x`, `rm --recursive --force x`, `rm -fr x` it gives `rm -rf x` (and
 * `rm -r -f x`, `rm --recursive --force x`), so a deny rule written in any common spelling
 * sees every spelling. Empty when the command has no such table or nothing to normalise.
 */
export function flagSpellings(cmd: CommandWords): string[][] {
  const table = FLAG_TABLES[cmd.program.toLowerCase()];
  if (!table) return [];
  const letters = new Set<string>();
  const longs: string[] = [];
  const operands: string[] = [];
  let ended = false;
  for (const a of cmd.args) {
    if (ended) operands.push(a);
    else if (a === "--") {
      ended = true;
      operands.push(a);
    } else if (a.startsWith("--")) {
      const name = longName(a.slice(2), Object.keys(table.long));
      if (name && !a.includes("=")) letters.add(table.long[name]);
      else longs.push(a);
    } else if (/^-[a-zA-Z]+$/.test(a)) {
      for (const l of a.slice(1)) letters.add(table.same?.[l] ?? l);
    } else operands.push(a);
  }
  if (letters.size === 0) return [];
  const ordered = [
    ...[...table.order].filter((l) => letters.has(l)),
    ...[...letters].filter((l) => !table.order.includes(l)).sort(),
  ];
  const longOf = Object.fromEntries(Object.entries(table.long).map(([k, v]) => [v, k]));
  const separate = ordered.map((l) => `-${l}`);
  const spelled = ordered.map((l) => (longOf[l] ? `--${longOf[l]}` : `-${l}`));
  return [
    [cmd.program, `-${ordered.join("")}`, ...longs, ...operands],
    [cmd.program, ...separate, ...longs, ...operands],
    [cmd.program, ...spelled, ...longs, ...operands],
  ];
}

// ---------------------------------------------------------------------------------------------
// Effect classification

export type EffectKind = "read_only" | "destructive" | "other";

/** Programs that only read (in the spirit of Codex's known-safe commands), given no danger. */
const READ_ONLY_PROGRAMS = new Set([
  "cat",
  "cd",
  "pwd",
  "echo",
  "printf",
  "true",
  "false",
  ":",
  "ls",
  "head",
  "tail",
  "wc",
  "nl",
  "cut",
  "paste",
  "rev",
  "seq",
  "tr",
  "uniq",
  "sort",
  "stat",
  "file",
  "du",
  "df",
  "date",
  "uname",
  "id",
  "whoami",
  "which",
  "type",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "find",
  "sed",
  "awk",
  "gawk",
  "mawk",
  "diff",
  "cmp",
  "comm",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "cksum",
  "tree",
  "jq",
  "column",
  "fold",
  "fmt",
  "od",
  "hexdump",
  "strings",
  "test",
  "[",
  "expr",
]);

const GIT_READ_ONLY = new Set([
  "status",
  "log",
  "diff",
  "show",
  "branch",
  "rev-parse",
  "ls-files",
  "blame",
  "describe",
  "shortlog",
  "grep",
  "cat-file",
  "ls-tree",
]);

/** Git subcommand forms that destroy work or history. */
function gitDestructive(g: GitCommand): string | null {
  const r = g.rest;
  const has = (re: RegExp) => r.some((a) => re.test(a));
  switch (g.sub) {
    case "clean":
      if (has(/^--force$|^-[a-zA-Z]*f/)) return "git clean -f deletes untracked files";
      return null;
    case "reset":
      return has(/^--(hard|merge|keep)$/) ? "git reset --hard discards changes" : null;
    case "checkout":
      return r.includes("--") || has(/^(-f|--force)$|^-[a-zA-Z]*f/) || r.includes(".")
        ? "git checkout -- / -f overwrites working-tree changes"
        : null;
    case "restore":
      return "git restore overwrites working-tree changes";
    case "push":
      return has(
          /^(-f|--force|--force-with-lease|--force-if-includes|--mirror|-d|--delete|--prune)(=|$)|^\+/,
        ) ||
          has(/^-[a-zA-Z]*f/) || has(/^:./)
        ? "git push --force/--delete rewrites the remote"
        : null;
    case "branch":
      if (has(/^-[a-zA-Z]*[MC]/)) return "git branch -M/-C overwrites an existing branch";
      return has(/^-[a-zA-Z]*D|^(-d|--delete)$/) && (has(/^-[a-zA-Z]*D/) || has(/^(-f|--force)$/))
        ? "git branch -D deletes an unmerged branch"
        : null;
    case "stash":
      return r[0] === "drop" || r[0] === "clear" ? `git stash ${r[0]} deletes stashed work` : null;
    case "rm":
      return "git rm deletes files";
    case "switch":
      return has(/^(-f|--force|--discard-changes)$/) ? "git switch --discard-changes" : null;
    case "gc":
    case "prune":
    case "reflog":
      return has(/^--prune|^expire$|^delete$/) || g.sub === "prune"
        ? `git ${g.sub} deletes objects`
        : null;
    case "update-ref":
      return has(/^-d$/) ? "git update-ref -d deletes a ref" : null;
    case "worktree":
      return r[0] === "remove" || r[0] === "prune" ? `git worktree ${r[0]}` : null;
  }
  return null;
}

/** `git branch` that only lists (no create, delete, move, copy or upstream change). */
function gitBranchListsOnly(rest: string[]): boolean {
  const changes = rest.some((a) =>
    /^-[a-zA-Z]*[dDmMcCfu]|^--(delete|move|copy|force|set-upstream|unset-upstream|edit-description|track|no-track|create-reflog|recurse-submodules)/
      .test(a)
  );
  const lists = rest.some((a) =>
    /^(-l|--list|--contains|--no-contains|--merged|--no-merged|--points-at)/.test(a)
  );
  return !changes && (lists || rest.every((a) => a.startsWith("-")));
}

/** Effect of one command by program and arguments (redirects are judged by the caller). */
export function commandEffect(
  cmd: CommandWords,
  danger: string | null,
): { effect: EffectKind; reason: string } {
  const p = cmd.program.toLowerCase();
  const args = cmd.args;
  if (
    p === "rm" || p === "rmdir" || p === "shred" || p === "truncate" || p === "unlink" ||
    p === "srm"
  ) {
    return { effect: "destructive", reason: `${p} deletes or destroys data` };
  }
  if (p === "dd" && args.some((a) => a.startsWith("of="))) {
    return { effect: "destructive", reason: "dd of= overwrites its output" };
  }
  if (p === "find" && args.includes("-delete")) {
    return { effect: "destructive", reason: "find -delete deletes files" };
  }
  if ((p === "mv" || p === "cp") && flagSpellings(cmd)[0]?.[1]?.includes("f")) {
    return { effect: "destructive", reason: `${p} -f overwrites existing files` };
  }
  if (p === "git") {
    const g = parseGit(args);
    const d = gitDestructive(g);
    if (d) return { effect: "destructive", reason: d };
    if (danger) return { effect: "other", reason: danger };
    if (g.danger === null && GIT_READ_ONLY.has(g.sub)) {
      if (g.sub !== "branch" || gitBranchListsOnly(g.rest)) {
        return { effect: "read_only", reason: `git ${g.sub} only reads the repository` };
      }
    }
    return {
      effect: "other",
      reason: `git ${g.sub || "(no subcommand)"} may change the repository`,
    };
  }
  if (danger) return { effect: "other", reason: danger };
  if (READ_ONLY_PROGRAMS.has(p)) return { effect: "read_only", reason: `${p} only reads` };
  return { effect: "other", reason: `${p} is not on the read-only list` };
}

// ---------------------------------------------------------------------------------------------
// Protected paths

export interface CompiledProtected {
  source: string;
  re: RegExp;
}

/**
 * Compiles protected-path globs: `*` within a segment, `**` across segments, `dir/**` also
 * matches `dir` itself; a pattern matches at any depth (`.git/**` covers `sub/.git/config`),
 * case-insensitively (so `.GIT/config` on a case-insensitive file system is covered too).
 */
export function compileProtected(patterns: readonly string[]): CompiledProtected[] {
  return patterns.map((source) => {
    let body = source.replace(/^\.?\/+/, "").replace(/\/+$/, "");
    const dirOnly = body.endsWith("/**");
    if (dirOnly) body = body.slice(0, -3);
    let re = "";
    for (let i = 0; i < body.length; i++) {
      const c = body[i];
      if (c === "*" && body[i + 1] === "*") {
        re += ".*";
        i++;
      } else if (c === "*") re += "[^/]*";
      else if (c === "?") re += "[^/]";
      else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
    return { source, re: new RegExp(`(^|/)${re}${dirOnly ? "(/.*)?" : ""}$`, "i") };
  });
}

/** The protected pattern a path (as written in a command) falls under, or null. */
export function protectedMatch(
  word: string,
  patterns: readonly CompiledProtected[],
): string | null {
  if (word === "" || /^[a-z][a-z0-9+.-]*:\/\//i.test(word)) return null;
  const segments: string[] = [];
  for (const s of word.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") segments.pop();
    else segments.push(s);
  }
  const normal = segments.join("/");
  if (normal === "") return null;
  const direct = patterns.find((p) => p.re.test(normal))?.source;
  if (direct) return direct;
  if (!/[*?[]/.test(normal)) return null;
  // A glob (`.gi?/hooks/*`) is protected when it can match a protected path.
  for (let i = 0; i < segments.length; i++) {
    const re = globRegExp(segments.slice(i));
    for (const p of patterns) {
      if (representatives(p.source).some((r) => re.test(r))) return p.source;
    }
  }
  return null;
}

/** Concrete paths a protected pattern covers, to test globs against. */
function representatives(source: string): string[] {
  const base = source.replace(/^\.?\/+/, "").replace(/\/\*\*$/, "");
  const concrete = base.replace(/\*\*|\*|\?/g, "x");
  const out = [concrete];
  if (source.endsWith("/**")) {
    out.push(`${concrete}/x`, `${concrete}/config`, `${concrete}/hooks/pre-commit`);
    out.push(`${concrete}/info/attributes`, `${concrete}/settings.json`);
  }
  return out;
}

/** A shell glob over path segments as a RegExp (a leading `.` is never matched by a wildcard). */
function globRegExp(segments: string[]): RegExp {
  const parts = segments.map((seg) => {
    let re = "";
    for (let i = 0; i < seg.length; i++) {
      const c = seg[i];
      const lead = i === 0 ? "(?!\\.)" : "";
      if (c === "*") re += `${lead}[^/]*`;
      else if (c === "?") re += `${lead}[^/]`;
      else if (c === "[" && seg.indexOf("]", i + 2) > i) {
        const end = seg.indexOf("]", i + 2);
        const body = seg.slice(i + 1, end).replace(/^[!^]/, "^").replace(/\\/g, "\\\\");
        re += `${lead}[${body}]`;
        i = end;
      } else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
    return re;
  });
  try {
    return new RegExp(`^${parts.join("/")}$`, "i");
  } catch {
    return /[^]*/; // a pattern we cannot read: assume it can match (fail closed)
  }
}
