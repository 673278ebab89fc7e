/**
 * What one simple command does to the workspace, for the autonomy levels: `read_only` (provably
 * reads only), `destructive` (deletes or overwrites: asks in supervised mode) or `other`. The
 * shell analysis fills `SimpleCommand.effect` from here. Unknown programs, programs with flags
 * that write or run code, and anything not fully static are `other`: read-only is never a guess.
 */
import type { CommandEffect } from "./policy.ts";

/** The parts of a simple command the classification reads. */
export interface EffectInput {
  program: string;
  args: string[];
  redirects: { op: string; target: string }[];
  programIsLiteral: boolean;
  argsLiteral?: boolean;
  wrappers?: string[];
  /** The program as written when it was a path (`./ls`, `/usr/bin/ls`). */
  path?: string;
}

/** Programs that only read, given no flag of `WRITING_FLAGS` (and the danger tables agree). */
const READ_ONLY = new Set([
  "cat",
  "head",
  "tail",
  "ls",
  "pwd",
  "echo",
  "printf",
  "wc",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "find",
  "sed",
  "sort",
  "uniq",
  "cut",
  "tr",
  "diff",
  "cmp",
  "file",
  "stat",
  "du",
  "df",
  "which",
  "true",
  "false",
  "date",
  "whoami",
  "id",
  "uname",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "nl",
  "tac",
  "rev",
  "comm",
  "column",
  "seq",
  "sha256sum",
  "sha1sum",
  "md5sum",
  "jq",
  "test",
  "[",
]);

/** Flags that make an otherwise read-only program write or run something. */
const WRITING_FLAGS: Record<string, RegExp> = {
  sed: /^(-[a-zA-Z]*[if]|--in-place|--file|--expression)/,
  sort: /^(-[a-zA-Z]*o|--output|--compress-program)/,
  find: /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/,
  rg: /^--pre(=|$)/,
};

const GIT_READ_ONLY = new Set([
  "status",
  "log",
  "diff",
  "show",
  "rev-parse",
  "ls-files",
  "blame",
  "describe",
  "shortlog",
  "grep",
]);

/** Short flags bundled or apart (`-fdx`, `-f -d`) and long ones: does `letter`/`long` occur? */
function hasFlag(args: string[], letter: string, long?: string): boolean {
  return args.some((a) =>
    (/^-[a-zA-Z]+$/.test(a) && a.slice(1).includes(letter)) ||
    (long !== undefined && (a === long || a.startsWith(`${long}=`)))
  );
}

function gitEffect(args: string[]): CommandEffect | null {
  // Global options before the subcommand (`-C`, `-c`, `--git-dir`) are not classified here.
  if (args.length === 0 || args[0].startsWith("-")) return null;
  const [sub, ...rest] = args;
  const destructive = (why: string): CommandEffect => ({
    effect: "destructive",
    reason: `git ${sub} ${why}`,
  });
  switch (sub) {
    case "clean":
      if (hasFlag(rest, "f", "--force")) return destructive("deletes untracked files");
      break;
    case "reset":
      if (rest.some((a) => a === "--hard" || a === "--merge" || a === "--keep")) {
        return destructive("discards uncommitted changes");
      }
      break;
    case "checkout":
      if (rest.includes("--") || rest.includes(".") || hasFlag(rest, "f", "--force")) {
        return destructive("overwrites files in the working tree");
      }
      break;
    case "restore":
      return destructive("overwrites files in the working tree");
    case "push":
      if (hasFlag(rest, "f", "--force") || rest.some((a) => /^--force-with-lease|^\+/.test(a))) {
        return destructive("rewrites the remote branch");
      }
      if (rest.some((a) => a === "--delete" || a === "-d" || a.startsWith(":"))) {
        return destructive("deletes a remote ref");
      }
      break;
    case "branch":
      if (hasFlag(rest, "D") || hasFlag(rest, "M") || hasFlag(rest, "C")) {
        return destructive("deletes or overwrites a branch");
      }
      if (rest.length === 0 || rest.every((a) => /^(-[avrl]+|--list|--all|--remotes)$/.test(a))) {
        return { effect: "read_only", reason: "git branch lists branches" };
      }
      break;
    case "stash":
      if (rest[0] === "drop" || rest[0] === "clear") return destructive(`${rest[0]} loses stashes`);
      break;
    case "rm":
      return destructive("deletes files");
  }
  if (GIT_READ_ONLY.has(sub) && !rest.some((a) => /^--(output|ext-diff|textconv)/.test(a))) {
    return { effect: "read_only", reason: `git ${sub} only reads the repository` };
  }
  return null;
}

const QUIET_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr"]);

/**
 * Classifies one simple command. `danger` is the shell analysis' reason the command must not be
 * auto-allowed (runs code, writes through a flag); a command with one is never `read_only`.
 * `newFiles` are redirect targets known not to exist: `>` into one creates a file (`other`).
 */
export function classifyEffect(
  cmd: EffectInput,
  danger: string | null,
  newFiles: ReadonlySet<string> = new Set(),
): CommandEffect {
  const p = cmd.program.toLowerCase();
  const other = (reason: string): CommandEffect => ({ effect: "other", reason });
  for (const r of cmd.redirects) {
    if (QUIET_TARGETS.has(r.target) || /^\d*<$|^<<|^&?\d*>&/.test(r.op)) continue;
    if (/^(\d*>|\d*>\||&>)$/.test(r.op) && !newFiles.has(r.target)) {
      return {
        effect: "destructive",
        reason: `the redirect "${r.op} ${r.target}" may overwrite a file`,
      };
    }
    if (r.op.includes(">")) return other(`the redirect "${r.op} ${r.target}" writes a file`);
  }
  if (!cmd.programIsLiteral) return other(`the program "${cmd.program}" is not static`);
  if (cmd.path && !/^\/(usr\/)?s?bin\/[^/]+$/.test(cmd.path)) {
    return other(`"${cmd.path}" is not a system program`);
  }
  if (cmd.path && !/^\/(usr\/)?s?bin\/[^/]+$/.test(cmd.path)) {
    return other(`"${cmd.path}" is not a system program`);
  }
  if (["rm", "rmdir", "shred", "unlink", "truncate"].includes(p)) {
    return { effect: "destructive", reason: `${p} deletes or truncates files` };
  }
  if (p === "find" && cmd.args.includes("-delete")) {
    return { effect: "destructive", reason: "find -delete deletes files" };
  }
  if ((p === "sed" || p === "gsed") && hasFlag(cmd.args, "i", "--in-place")) {
    return { effect: "destructive", reason: "sed -i rewrites files in place" };
  }
  if (p === "git") {
    const git = gitEffect(cmd.args);
    if (git?.effect === "destructive") return git;
    if (git && !danger && cmd.argsLiteral !== false && !cmd.wrappers?.length) return git;
    return other("git command not known to be read-only");
  }
  if (danger) return other(danger);
  if (!READ_ONLY.has(p)) return other(`${cmd.program} is not on the read-only list`);
  if (cmd.argsLiteral === false) return other("its arguments are not static");
  if (cmd.wrappers?.length) return other(`it runs under ${cmd.wrappers.join(", ")}`);
  const writing = WRITING_FLAGS[p];
  if (writing && cmd.args.some((a) => writing.test(a))) {
    return other(`${cmd.program} has an option that writes or runs something`);
  }
  if (p === "uniq" && cmd.args.filter((a) => !a.startsWith("-")).length > 1) {
    return other("uniq with two operands writes its output file");
  }
  return { effect: "read_only", reason: `${cmd.program} only reads` };
}
