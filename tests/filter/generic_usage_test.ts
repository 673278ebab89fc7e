/**
 * Usage listings printed by failed commands (src/filter/generic_usage.ts), on real outputs of
 * npm ci (`npm error ` prefixed EUSAGE), commander, yargs, Go's flag package, git, argparse,
 * clap (cargo) and click: a long listing under an error that is not about the caller's input
 * folds into one line naming the `--help` call; under an unknown or invalid option its entries
 * stay and only their descriptions fold, or, when the error names a word some entries are near
 * (git's ``unknown option `ammend'``), those entries alone stay; short usage, the error lines,
 * the usage line and the synopsis always stay; nothing changes when the command did not fail.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";
import { foldUsage, helpHint, MIN_FOLDED_USAGE } from "../../src/filter/generic_usage.ts";

const GENERIC = new URL("../fixtures/generic/", import.meta.url);
const CORPUS = new URL("../../bench/corpus/usage/", import.meta.url);
const lines = (url: URL) => Deno.readTextFileSync(url).replace(/\n$/, "").split("\n");
const FOLD = /… (\d+) lines of usage folded; run `([^`]+)` to see them …$/;
const DESCRIPTIONS = /… (\d+) lines of option descriptions folded; run `([^`]+)` to see them …$/;

const CASES: {
  name: string;
  file: URL;
  command: string;
  /** What the fold line says: usage folded whole, descriptions folded, or nothing. */
  fold: "usage" | "descriptions" | "none";
  /** Lines that stay as printed. */
  kept: string[];
  /** Lines that go. */
  gone: string[];
}[] = [
  {
    name: "npm ci without a lock file (npm error prefix, usage after the error)",
    file: new URL("npm_ci_no_lockfile.txt", CORPUS),
    command: "npm ci",
    fold: "usage",
    kept: [
      "npm error code EUSAGE",
      "npm error The `npm ci` command can only install with an existing package-lock.json or",
      "npm error Usage:",
      "npm error npm ci",
      "npm error aliases: clean-install, ic, install-clean, isntall-clean",
      'npm error Run "npm help ci" for more info',
    ],
    gone: [
      "npm error   --install-strategy",
      "npm error [--workspaces] [--include-workspace-root] [--install-links]",
    ],
  },
  {
    name: "npm ci out of sync with its lock file",
    file: new URL("usage_npm_ci_out_of_sync.txt", GENERIC),
    command: "cd web && npm ci",
    fold: "usage",
    kept: ["npm error Missing: ms@2.1.3 from lock file", "npm error npm ci"],
    gone: ["npm error     Limits the ability for npm to fetch dependencies from urls."],
  },
  {
    name: "commander, a required option missing",
    file: new URL("commander_missing_option.txt", CORPUS),
    command: "node deploy.js push api --tag v2",
    fold: "usage",
    kept: [
      "error: required option '-e, --env <name>' not specified",
      "Usage: deploy push [options] <service>",
      "build and push a service image, then roll it out",
    ],
    gone: ["Options:", "  -e, --env <name>       target environment (staging, production)"],
  },
  {
    name: "yargs, a positional missing (error after the listing)",
    file: new URL("yargs_missing_argument.txt", CORPUS),
    command: "node jobs.js run",
    fold: "usage",
    kept: [
      "jobs run <job>",
      "run a job now",
      "Not enough non-option arguments: got 0, need at least 1",
    ],
    gone: [
      "Positionals:",
      '  -q, --queue     queue to put the job on                   [default: "default"]',
    ],
  },
  {
    name: "Go flag, an unknown flag: entries stay, descriptions fold",
    file: new URL("go_flag_unknown.txt", CORPUS),
    command: "./srv -port 9000",
    fold: "descriptions",
    kept: [
      "flag provided but not defined: -port",
      "Usage of ./srv:",
      "  -addr string",
      "  -workers int",
    ],
    gone: ['    \tlisten address (default ":8080")'],
  },
  {
    name: "Go flag, an invalid value",
    file: new URL("usage_goflag_invalid.txt", GENERIC),
    command: "./srv -workers many",
    fold: "descriptions",
    kept: ['invalid value "many" for flag -workers: parse error', "  -workers int"],
    gone: ["    \tnumber of background workers (default 4)"],
  },
  {
    name: "git, a mistyped option: the entry near it stays, the rest of the listing folds",
    file: new URL("git_commit_unknown_option.txt", CORPUS),
    command: "git commit --ammend",
    fold: "usage",
    kept: [
      "error: unknown option `ammend'",
      "                  [--] [<pathspec>...]",
      "    --amend               amend previous commit",
    ],
    gone: [
      "    -q, --quiet           suppress summary after successful commit",
      "Commit message options",
    ],
  },
  {
    name: "git branch, a mistyped option under two headed sections",
    file: new URL("usage_git_branch_unknown.txt", GENERIC),
    command: "git branch --lst",
    fold: "usage",
    kept: [
      "error: unknown option `lst'",
      "   or: git branch [<options>] [-r | -a] [--format]",
      "    -l, --list            list branch names",
    ],
    gone: [
      "Generic options",
      "    -a, --all             list both remote-tracking and local branches",
      "    --column[=<style>]    list branches in columns",
    ],
  },
  {
    name: "git checkout, an unknown option",
    file: new URL("usage_git_checkout_badflag.txt", GENERIC),
    command: "git checkout --bogus",
    fold: "none",
    kept: [
      "error: unknown option `bogus'",
      "   or: git checkout [<options>] [<branch>] -- <file>...",
    ],
    gone: [],
  },
  {
    name: "yargs, an unknown argument: the entry it abbreviates stays",
    file: new URL("usage_yargs_unknown.txt", GENERIC),
    command: "node jobs.js run nightly --prio 3",
    fold: "usage",
    kept: [
      "Unknown argument: prio",
      "  -p, --priority  job priority (0-9)                       [number] [default: 5]",
    ],
    gone: ['  -q, --queue     queue to put the job on                   [default: "default"]'],
  },
  {
    name: "commander, an unknown option",
    file: new URL("usage_commander_unknown.txt", GENERIC),
    command: "node deploy.js push api -e prod --colour",
    fold: "none",
    kept: ["error: unknown option '--colour'"],
    gone: [],
  },
  {
    name: "argparse: the synopsis and the error",
    file: new URL("usage_argparse_invalid.txt", GENERIC),
    command: "python3 etl.py run nightly --batch-size lots",
    fold: "none",
    kept: ["etl run: error: argument --batch-size: invalid int value: 'lots'"],
    gone: [],
  },
  {
    name: "clap (cargo): a short usage",
    file: new URL("usage_cargo_badflag.txt", GENERIC),
    command: "cargo build --relase",
    fold: "none",
    kept: ["error: unexpected argument '--relase' found", "Usage: cargo build --release"],
    gone: [],
  },
  {
    name: "click: a short usage",
    file: new URL("usage_click_unknown.txt", GENERIC),
    command: "python3 tool_click.py publish 1.2.0 --chanel beta",
    fold: "none",
    kept: ["Usage: tool_click.py publish [OPTIONS] VERSION"],
    gone: [],
  },
];

for (const c of CASES) {
  Deno.test(`foldUsage: ${c.name}`, () => {
    const input = lines(c.file);
    const out = foldUsage(input, { failed: true, command: c.command });
    for (const line of c.kept) expect(out).toContain(line);
    for (const line of c.gone) expect(out).not.toContain(line);
    const usage = out.map((l) => FOLD.exec(l)).filter((m) => m !== null);
    const descriptions = out.map((l) => DESCRIPTIONS.exec(l)).filter((m) => m !== null);
    if (c.fold === "none") {
      expect(out).toEqual(input);
      return;
    }
    const folds = c.fold === "usage" ? usage : descriptions;
    expect(folds.length).toBe(1);
    expect(c.fold === "usage" ? descriptions : usage).toEqual([]);
    // The count is what went: the output plus the folded lines, less the fold line, is the input.
    expect(out.length - 1 + Number(folds[0]![1])).toBe(input.length);
    expect(folds[0]![2]).toBe(helpHint(c.command).replace(/^run `|`$/g, ""));
  });
}

Deno.test("foldUsage: the same output of a command that did not fail stays whole", () => {
  const input = lines(new URL("npm_ci_no_lockfile.txt", CORPUS));
  expect(foldUsage(input, { failed: false, command: "npm ci" })).toEqual(input);
});

Deno.test("foldUsage: a listing one line short of the minimum stays, one at it folds", () => {
  // A listing of n lines: the heading and n - 1 options, after a blank line.
  const listing = (n: number) => [
    "error: missing required argument 'file'",
    "Usage: tool [options] <file>",
    "",
    "Options:",
    ...Array.from({ length: n - 1 }, (_, i) => `  --opt-${i} <v>   option number ${i}`),
  ];
  const short = listing(MIN_FOLDED_USAGE - 1);
  expect(foldUsage(short, { failed: true })).toEqual(short);
  const long = listing(MIN_FOLDED_USAGE);
  expect(foldUsage(long, { failed: true })).toEqual([
    "error: missing required argument 'file'",
    "Usage: tool [options] <file>",
    "",
    `… ${MIN_FOLDED_USAGE} lines of usage folded; run the command with --help to see them …`,
  ]);
});

Deno.test("foldUsage: indented lines under a heading that are no option listing stay", () => {
  const input = [
    "Error: 3 checks failed",
    "Failed commands:",
    ...Array.from(
      { length: 30 },
      (_, i) => `  check-${i}: exit status 1 (see logs/check-${i}.log)`,
    ),
    "memory usage: 41 MB",
    ...Array.from({ length: 30 }, (_, i) => `  worker ${i} peak 1.${i} MB`),
  ];
  expect(foldUsage(input, { failed: true })).toEqual(input);
});

Deno.test("helpHint: the command's words before its first flag, from its last segment", () => {
  expect(helpHint("npm ci --frozen-lockfile")).toBe("run `npm ci --help`");
  expect(helpHint("cd web && NODE_ENV=ci npm ci 2>&1 | tail -50")).toBe("run `npm ci --help`");
  expect(helpHint("git commit --ammend -m x")).toBe("run `git commit --help`");
  expect(helpHint("node tools/deploy.js push api --tag v2")).toBe(
    "run `node tools/deploy.js push api --help`",
  );
  expect(helpHint("a b c d e f")).toBe("run `a b c d --help`");
  expect(helpHint("--weird")).toBe("run the command with --help");
  expect(helpHint("")).toBe("run the command with --help");
});

Deno.test("the engine folds usage after a rule (npm ci) and with no rule (commander)", async () => {
  const { engine } = await loadFilterEngine(defaultConfig(), { configDir: "/nonexistent" });
  const npm = Deno.readTextFileSync(new URL("npm_ci_no_lockfile.txt", CORPUS));
  const after = engine.filter("npm ci", npm, { failed: true });
  expect(after.rules).toContain("npm-install");
  expect(after.text).toMatch(
    /^npm error … \d+ lines of usage folded; run `npm ci --help` to see them …$/m,
  );
  expect(after.text).toContain("npm error code EUSAGE");
  const cli = Deno.readTextFileSync(new URL("commander_missing_option.txt", CORPUS));
  const none = engine.filter("node deploy.js push api --tag v2", cli, { failed: true });
  expect(none.rules).toEqual([]);
  expect(none.text).toBe(
    [
      "error: required option '-e, --env <name>' not specified",
      "",
      "Usage: deploy push [options] <service>",
      "",
      "build and push a service image, then roll it out",
      "",
      "… 24 lines of usage folded; run `node deploy.js push api --help` to see them …",
    ].join("\n"),
  );
  // A `--help` that succeeds prints the same listing, without npm's `npm error` prefix (a line
  // of npm's failure record: an output holding one is a failed run's whatever its exit code): it
  // is the answer and stays.
  const help = npm.replaceAll(/^npm error ?/gm, "");
  expect(engine.filter("npm ci --help", help, { failed: false }).text).toContain(
    "  --install-strategy",
  );
});

Deno.test("foldUsage: under an unknown command, the commands stay and their descriptions fold", () => {
  const commands = ["build", "deploy", "logs", "rollback", "status", "scale"];
  const input = [
    'Error: unknown command "deploi" for "app"',
    "Usage:",
    "  app [command]",
    "",
    "Available Commands:",
    ...commands.flatMap((
      c,
    ) => [
      `  ${c}`,
      `      ${c} the services of the current project,`,
      "      as the config file says",
    ]),
    "",
    "Flags:",
    "  -h, --help   help for app",
    "  -v, --verbose   print every step",
    "  --config string   config file",
  ];
  const out = foldUsage(input, { failed: true, command: "app deploi --env prod" });
  expect(out).toEqual([
    'Error: unknown command "deploi" for "app"',
    "Usage:",
    "  app [command]",
    "",
    "Available Commands:",
    ...commands.map((c) => `  ${c}`),
    "Flags:",
    "  -h, --help   help for app",
    "  -v, --verbose   print every step",
    "  --config string   config file",
    "… 13 lines of option descriptions folded; run `app deploi --help` to see them …",
  ]);
});

Deno.test("a usage listing between more lines than a call takes arguments folds, not throws", () => {
  const usage = lines(new URL("npm_ci_no_lockfile.txt", CORPUS));
  const logs: string[] = [];
  for (let i = 0; i < 200_000; i++) logs.push(`log line ${i}`);
  const folded = foldUsage(usage, { failed: true, command: "npm ci" });
  expect(folded.length).toBeLessThan(usage.length);
  // The lines before and after the listing were spread into one call each: 200,000 arguments
  // threw a RangeError.
  const out = foldUsage([...logs, ...usage, ...logs], { failed: true, command: "npm ci" });
  expect(out.join("\n")).toBe([...logs, ...folded, ...logs].join("\n"));
});
