/**
 * Which command a rule sees. LLMs write `cd /p && cargo clippy -- -D warnings 2>&1 | tail -80`;
 * rules are written for `cargo clippy …`. Matching therefore tries the whole command, its
 * normalised last segment (after the last `&&`, `||` or `;` outside quotes), then each earlier
 * segment the same way; a segment is normalised by cutting it at the first
 * pipe, redirections removed, leading `cd …`, `VAR=value` and wrappers that run the command
 * they are given (`env`, `time`, `timeout 60`, `nice -n 5`, `sudo`, `xvfb-run -a`, coverage's
 * `c8` and `nyc`, `cross-env CI=1`, `dotenv -e .env --`, `dotenv -c --`, `dotenvx run --`, …)
 * removed, also when a package manager starts them (`yarn dotenv -c -- jest`);
 * the same with its redirections kept, for the rules that read them (`sqlite3 t.db < seed.sql`).
 * A program given by path (`./node_modules/.bin/jest`, `.venv/bin/pytest`, `~/go/bin/golangci-lint`),
 * through a package runner (`pnpm exec`, `uv run`, `poetry run`, `bundle exec`) or by a versioned
 * name (`python3.11`, `pip3.12`, `gcc-12`, `go1.22.5`) is also tried by its bare name, and a
 * script handed to a shell (`bash -c "make 2>&1"`), to another user (`su postgres -c "pg_dump
 * shop"`, `runuser -u postgres -- pg_dump shop`) or to a container (`docker exec db pg_dump shop`)
 * by its own candidates, so one rule written for `jest …` covers every way of starting it.
 */

/** The strings a rule's matcher is tried against, most literal first, without duplicates. */
export function matchCandidates(command: string): string[] {
  const whole = command.trim();
  const candidates = [whole];
  const segment = lastSegment(whole);
  const plain = normalizeSegment(segment);
  // The same with the segment's redirections (`env X=1 /usr/bin/sqlite3 t.db < seed.sql`): a
  // rule may read them, and normalising drops them. A segment without `<` or `>` has none.
  const redirected = /[<>]/.test(segment)
    ? normalizeSegment(segment, { redirections: true })
    : plain;
  for (const form of redirected === plain ? [plain] : [plain, redirected]) {
    if (form) candidates.push(form, ...runForms(form));
  }
  const script = shellScript(plain);
  if (script) candidates.push(...matchCandidates(script));
  // Every earlier command prints into the same output (`cd app && cmake -S . -B b && cmake
  // --build b && ctest`): each is tried by its own forms, after the last's; one that prints
  // nothing when it works (`cd app`, `export CI=1`) is no tool's.
  for (const earlier of segments(whole).slice(0, -1)) {
    if (silentProgram(earlier)) continue;
    const form = normalizeSegment(earlier);
    if (form) candidates.push(form, ...runForms(form));
  }
  return [...new Set(candidates)];
}

/**
 * A normalised command's program forms (`programForms`), and for one that a runner started with a
 * wrapper (`npx c8 vitest`, `npx cross-env CI=1 jest`), that form normalised and its own forms.
 */
function runForms(form: string): string[] {
  const forms = programForms(form);
  for (const program of [...forms]) {
    const unwrapped = normalizeSegment(program);
    if (unwrapped && unwrapped !== program) forms.push(unwrapped, ...programForms(unwrapped));
  }
  return forms;
}

/**
 * The programs a command runs, by their bare names (`jekyll` of `bundle exec jekyll build`,
 * `eslint` of `npx eslint .`, `sphinx-build` of `.venv/bin/sphinx-build`): each match candidate's
 * first word.
 */
export function programNames(command: string): string[] {
  const names = matchCandidates(command).map((form) => baseName(shellWords(form)[0] ?? ""));
  return [...new Set(names.filter((name) => name !== ""))];
}

/** The command's normalised last segment: what it runs, as written (for `--help` hints). */
export function lastCommand(command: string): string {
  return normalizeSegment(lastSegment(command.trim()));
}

/**
 * Runners that start a project's own tool, by their words before it (`pnpm exec jest`,
 * `uv run pytest`): the tool's rule is written for its bare name.
 */
const RUNNERS: readonly string[][] = [
  ["npx"],
  ["bunx"],
  ["uvx"],
  ["npm", "exec"],
  ["pnpm", "exec"],
  ["pnpm", "dlx"],
  ["yarn", "exec"],
  ["yarn", "dlx"],
  ["uv", "run"],
  ["poetry", "run"],
  ["pdm", "run"],
  ["pipenv", "run"],
  ["hatch", "run"],
  ["bundle", "exec"],
];
/** A file name ending in an extension (`run.sh`, `build.py`); `python3.12`'s digits are a version. */
const SCRIPT_FILE = /\.[A-Za-z]\w*$/;
/** A package spec with a pinned version (`prettier@3.3.2`, `@redocly/cli@latest`): the package. */
const PINNED = /^((?:@[^\s@/]+\/)?[^\s@/]+)@\S*$/;
/** Runner options that take no value and may come before the tool (`npx -y jest`). */
const RUNNER_FLAGS = new Set(["-y", "--yes", "--no-install", "-q", "--quiet", "--silent", "--"]);

/**
 * A name's version suffix: `-12` (`gcc-12`, `clang-tidy-15`, `pytest-3`) or a dotted version
 * (`python3.11`, `pip3.12`, `ruby3.1`, `go1.22.5`). Digits alone are part of the name
 * (`sqlite3`, `base64`, `x264`).
 */
const VERSIONED = /^([A-Za-z][\w+.-]*?[A-Za-z+])(?:-\d+(?:\.\d+)*|(\d+)(?:\.\d+)+)$/;
/** Programs installed under another name for the same tool. */
const ALIASES: Record<string, string> = { nodejs: "node" };

/**
 * The command with its program by base name and without a package runner in front
 * (`.venv/bin/pytest -q` → `pytest -q`, `pnpm exec ./node_modules/.bin/vitest` → `vitest`),
 * then by its name without a version (`python3.11 -m pytest` → `python3 -m pytest`,
 * `python -m pytest`); none that is the command as written.
 */
function programForms(command: string): string[] {
  const words = shellWords(command);
  let at = 0;
  const runner = RUNNERS.find((r) => r.every((w, k) => baseName(words[k] ?? "") === w));
  if (runner) {
    at = runner.length;
    while (at < words.length - 1 && RUNNER_FLAGS.has(words[at])) at++;
  } else if (BARE_RUNNERS.has(baseName(words[0] ?? "")) && PACKAGE_WRAPPERS.has(words[1])) {
    at = 1;
  }
  if (at >= words.length) return [];
  const rest = words.slice(at + 1);
  // A runner fetches a package by its spec, with a version pinned after `@` (`npx
  // @redocly/cli@latest lint`, `pnpm dlx prettier@3.3.2`, `uvx ruff@0.5.0`): rules name the
  // package, so the command is also tried as if none were pinned.
  const spec = runner ? PINNED.exec(words[at])?.[1] : undefined;
  const unpinned = spec === undefined
    ? []
    : [[...words.slice(0, at), spec, ...rest].join(" "), [spec, ...rest].join(" ")];
  // A file with a script's extension (`./task.sh`, `scripts/turbo.js`) is the project's own
  // script, not the tool its name starts with: it stays as written.
  const program = baseName(spec ?? words[at]);
  if (SCRIPT_FILE.test(program)) return without([words[at], ...rest].join(" "), command);
  const names = [program];
  const version = VERSIONED.exec(program);
  if (version) names.push(...(version[2] ? [version[1] + version[2]] : []), version[1]);
  if (program in ALIASES) names.push(ALIASES[program]);
  return without([...unpinned, ...names.map((name) => [name, ...rest].join(" "))], command);
}

function without(forms: string | string[], command: string): string[] {
  return [forms].flat().filter((form) => form !== command);
}

/** Shells that run the script after `-c` (`bash -lc "cd /p && make"`). */
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh"]);

/** The script a shell (or flock) is handed with `-c`, unquoted; empty when the command is not that. */
function shellScript(command: string): string {
  const words = shellWords(command);
  // `flock /tmp/l -c "make test"`: past the lock file, flock leaves its own -c script.
  if ((words[0] === "-c" || words[0] === "--command") && words.length === 2) {
    return unquote(words[1]);
  }
  const program = baseName(words[0] ?? "");
  if (program === "su" || program === "runuser") return userCommand(words);
  if (program === "docker" || program === "podman") return containerCommand(words);
  if (!SHELLS.has(program)) return "";
  for (let i = 1; i < words.length - 1; i++) {
    const word = words[i];
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(word)) return unquote(words[i + 1]);
    if (word === "-o" || word === "+o" || word === "-O" || word === "+O") i++;
    else if (!/^[-+]/.test(word)) return "";
  }
  return "";
}

/**
 * What `su` or `runuser` runs as another user: its `-c` script (`su postgres -c 'pg_dump shop'`,
 * `runuser -l postgres -c "psql -f x.sql"`) or the command after `--` (`runuser -u postgres --
 * pg_dump shop`).
 */
function userCommand(words: string[]): string {
  for (let i = 1; i < words.length - 1; i++) {
    if (words[i] === "-c" || words[i] === "--command") return unquote(words[i + 1]);
    if (words[i] === "--") return words.slice(i + 1).join(" ");
  }
  return "";
}

/** `docker exec`'s options that take a value (`-u postgres`, `-w /app`, `-e K=V`). */
const EXEC_VALUED = new Set([
  "-u",
  "--user",
  "-w",
  "--workdir",
  "-e",
  "--env",
  "--env-file",
  "--detach-keys",
]);

/**
 * What `docker exec` or `podman exec` runs in a container: the words after its options and the
 * container's name (`docker exec -i -u postgres db pg_dump shop` → `pg_dump shop`).
 */
function containerCommand(words: string[]): string {
  if (words[1] !== "exec") return "";
  let i = 2;
  for (; i < words.length && words[i].startsWith("-"); i++) {
    if (EXEC_VALUED.has(words[i])) i++;
  }
  return words.slice(i + 1).join(" ");
}

/** A shell word's text: single quotes verbatim, double quotes with their escapes undone. */
function unquote(word: string): string {
  if (/^'.*'$/s.test(word)) return word.slice(1, -1);
  if (/^".*"$/s.test(word)) return word.slice(1, -1).replace(/\\([\\"$`])/g, "$1");
  return word;
}

/** A program's name without its directory or quotes (`"$HOME/.cargo/bin/cargo"` → `cargo`). */
function baseName(word: string): string {
  const bare = /^(["'])(.*)\1$/.exec(word)?.[2] ?? word;
  const slash = bare.lastIndexOf("/");
  return slash < 0 || slash === bare.length - 1 ? word : bare.slice(slash + 1);
}

/** The text after the last top-level `&&`, `||`, `;` or newline (quotes respected). */
export function lastSegment(command: string): string {
  const [start, end] = segmentBounds(command).at(-1)!;
  return command.slice(start, end).trim();
}

/** The command's segments: the texts between top-level `&&`, `||`, `;` and newlines, trimmed. */
export function segments(command: string): string[] {
  return segmentBounds(command).map(([start, end]) => command.slice(start, end).trim())
    .filter((segment) => segment !== "");
}

/**
 * Commands that print nothing when they succeed (`cd build`, `export CI=1`, `source .venv/bin/activate`,
 * `mkdir -p out`): a segment of them shares no output with the others.
 */
const SILENT = new Set([
  "cd",
  "export",
  "set",
  "unset",
  "source",
  ".",
  "true",
  ":",
  "mkdir",
  "rm",
  "cp",
  "mv",
  "touch",
  "ln",
  "chmod",
  "chown",
  "sleep",
  "umask",
  "shopt",
  "ulimit",
  "trap",
  "alias",
  "unalias",
  "declare",
  "local",
  "readonly",
]);

/** A redirection (`>log`, `2>>err.log`, `&>/dev/null`, `2>&1`, `>&2`): its stream, operator, target. */
const REDIRECTION = /^(&|\d*)(>>?)(&?)(.*)$/;
/** Options that quiet a command (`cargo clean -q`, `npm ci --silent`). */
const QUIET = new Set(["-q", "-qq", "--quiet", "--silent"]);

/**
 * How much of what a segment prints its options and redirections keep off the screen: `none`;
 * `stdout`, its standard output (quieted, `-q`, or sent to a file, `make clean >/dev/null`), while
 * its standard error still shows (its failure, a warning); `all`, both streams sent to files
 * (`make clean > clean.log 2>&1`, `&>/dev/null`). Redirections are read in order, as the shell
 * applies them: `2>&1 >/dev/null` leaves the errors on the screen; one into a process substitution
 * (`> >(tee log)`) leaves its stream there. A pipe starts over (what the
 * pipeline's last command prints shows).
 */
export function quieted(segment: string): "none" | "stdout" | "all" {
  const words = shellWords(segment);
  let out = true;
  let err = true;
  let quiet = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "|") {
      out = err = true;
      quiet = false;
      continue;
    }
    if (QUIET.has(word)) quiet = true;
    // `>(tee log)` is a process substitution: a file argument, or a redirection's target, whose
    // command still prints to the screen.
    if (word.startsWith(">(")) continue;
    const redirection = REDIRECTION.exec(word);
    if (!redirection) continue;
    const [, fd, , dup, rest] = redirection;
    const target = rest === "" ? words[++i] ?? "" : rest;
    if (target.startsWith(">(")) continue;
    if (dup && /^\d$/.test(target)) {
      // A duplication: the stream goes where the other one goes now.
      const to: boolean = target === "1" ? out : target === "2" ? err : true;
      if (fd === "2") err = to;
      else if (fd === "" || fd === "1") out = to;
    } else if (fd === "&" || (dup && fd === "" && target !== "-")) out = err = false;
    else if (fd === "" || fd === "1") out = false;
    else if (fd === "2") err = false;
  }
  if (!out && !err) return "all";
  return !out || quiet ? "stdout" : "none";
}

/** The program a segment runs prints nothing when it works (`cd`, `cp`, `export`, `A=1` alone). */
function silentProgram(segment: string): boolean {
  const first = shellWords(normalizeSegment(segment))[0];
  return first === undefined || SILENT.has(baseName(first));
}

/**
 * Whether a segment runs a command that may print: not one that prints nothing when it works
 * (`cd x`, `export A=1`, `A=1` alone), is told to be quiet (`cargo clean -q`) or sends what it
 * prints to a file (`make clean >/dev/null`).
 */
export function printsOutput(segment: string): boolean {
  return quieted(segment) === "none" && !silentProgram(segment);
}

/**
 * Whether a compound command's segments before its last may print before it runs: one that
 * prints when it works (`printsOutput`); one quieted (`quieted`) whose standard error still shows,
 * since a program prints there what went wrong whether or not it then stops (a script's failed
 * step, a warning: `./run.sh >/dev/null; make`); or one that prints nothing when it works (`cd`,
 * `cp`) that `;`, `||` or a newline follows, since the next command runs after it failed and it
 * prints its failure (`cd build; pytest`: `cd: can't cd to build`); after `&&` a failure ends the
 * command. A segment with both streams sent to files (`make clean >log 2>&1; make`) shares nothing.
 */
export function earlierSegmentsPrint(command: string): boolean {
  const bounds = segmentBounds(command).filter(([start, end]) =>
    command.slice(start, end).trim() !== ""
  );
  return bounds.slice(0, -1).some(([start, end]) => {
    const segment = command.slice(start, end).trim();
    if (quieted(segment) === "all") return false;
    if (!silentProgram(segment)) return true;
    return command[end] !== "&";
  });
}

/** Where each top-level segment of the command starts and ends (quotes respected). */
function segmentBounds(command: string): [number, number][] {
  const bounds: [number, number][] = [];
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === "\\" && quote !== "'") {
      i++;
      continue;
    }
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"' || c === "`") {
      quote = c;
      continue;
    }
    if (c === ";" || c === "\n") {
      bounds.push([start, i]);
      start = i + 1;
    } else if ((c === "&" || c === "|") && command[i + 1] === c) {
      bounds.push([start, i]);
      start = i + 2;
      i++;
    }
  }
  bounds.push([start, command.length]);
  return bounds;
}

const REDIRECT = /^(?:\d*|&)(?:>>?|<<?|>&|<&)(.*)$/;
const DUPLICATION = /^\d*[<>]&(\d+|-)$/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const WRAPPERS = new Set(["env", "time", "command", "exec", "nohup"]);
/**
 * Wrappers that run the command after their own options and operands: the options each takes
 * a value of (`timeout -s KILL`, `sudo -u ann`, `env -u VAR`) and how many operands come before
 * the command (`timeout 300 cargo test`: the duration).
 */
const ARG_WRAPPERS: Record<
  string,
  {
    valued: Set<string>;
    operands: number;
    commands?: Set<string>;
    /** A valued option takes the next word only when it is no option (`dotenv -c -- jest`). */
    optional?: boolean;
    /** Its own verb before the command, options after it too (`dotenvx run -f .env -- jest`). */
    verbs?: Set<string>;
  }
> = {
  timeout: { valued: new Set(["-s", "--signal", "-k", "--kill-after"]), operands: 1 },
  nice: { valued: new Set(["-n", "--adjustment"]), operands: 0 },
  ionice: { valued: new Set(["-c", "--class", "-n", "--classdata", "-p", "--pid"]), operands: 0 },
  stdbuf: { valued: new Set(["-i", "-o", "-e"]), operands: 0 },
  sudo: { valued: new Set(["-u", "--user", "-g", "--group", "-C", "-D", "--chdir"]), operands: 0 },
  env: { valued: new Set(["-u", "--unset", "-C", "--chdir"]), operands: 0 },
  time: { valued: new Set(["-f", "--format", "-o", "--output"]), operands: 0 },
  doas: { valued: new Set(["-u", "-C"]), operands: 0 },
  "xvfb-run": {
    valued: new Set(["-n", "--server-num", "-s", "--server-args", "-e", "--error-file"]),
    operands: 0,
  },
  // `chrt -b 0 make`: the priority; `taskset -c 0-3 make`: the CPU list; `flock /tmp/l make`:
  // the lock file.
  chrt: { valued: new Set(["-T", "-P", "-D"]), operands: 1 },
  taskset: { valued: new Set(), operands: 1 },
  flock: { valued: new Set(["-w", "--timeout", "-E", "--conflict-exit-code"]), operands: 1 },
  setsid: { valued: new Set(), operands: 0 },
  unbuffer: { valued: new Set(), operands: 0 },
  ccache: { valued: new Set(), operands: 0 },
  sccache: { valued: new Set(), operands: 0 },
  // Coverage around a test run (`c8 -r text npm test`, `nyc --reporter=lcov mocha`); their own
  // subcommands (`c8 report`, `nyc check-coverage`) are the program.
  c8: {
    valued: new Set([
      "-r",
      "--reporter",
      "-o",
      "--reports-dir",
      "--report-dir",
      "--temp-directory",
      "-x",
      "--exclude",
      "-n",
      "--include",
      "-e",
      "--extension",
      "--src",
      "-c",
      "--config",
      "--branches",
      "--functions",
      "--lines",
      "--statements",
    ]),
    operands: 0,
    commands: new Set(["report", "check-coverage"]),
  },
  nyc: {
    valued: new Set([
      "-r",
      "--reporter",
      "--report-dir",
      "-t",
      "--temp-dir",
      "-x",
      "--exclude",
      "-n",
      "--include",
      "-e",
      "--extension",
      "-i",
      "--require",
      "--cwd",
      "--nycrc-path",
      "--branches",
      "--functions",
      "--lines",
      "--statements",
    ]),
    operands: 0,
    commands: new Set(["report", "check-coverage", "instrument", "merge"]),
  },
  // Environment set before the command: `cross-env CI=1 jest` (the assignments go as `VAR=value`
  // does), dotenv-cli's `dotenv -e .env.test -- npm test` and `dotenv -c -- jest` (its options
  // read as minimist does: `-c` takes an environment only when one follows), python-dotenv's
  // `dotenv -f .env run pytest` and dotenvx's `dotenvx run -f .env.ci -- jest`.
  "cross-env": { valued: new Set(), operands: 0 },
  dotenv: {
    valued: new Set(["-e", "-v", "-p", "-c", "-f", "--file"]),
    operands: 0,
    optional: true,
    verbs: new Set(["run"]),
  },
  dotenvx: {
    valued: new Set(["-f", "--env-file", "-fv", "--env-vault-file", "-e", "--env", "--convention"]),
    operands: 0,
    verbs: new Set(["run"]),
  },
};

/**
 * Wrappers a package manager starts by their bare name as it does any binary of the project
 * (`yarn dotenv -e .env -- jest`, `pnpm cross-env CI=1 vitest`).
 */
const PACKAGE_WRAPPERS = new Set(["dotenv", "dotenvx", "cross-env", "c8", "nyc"]);
/** Package managers that run a project's binary by its bare name (`yarn jest`). */
const BARE_RUNNERS = new Set(["yarn", "pnpm", "bun"]);

/**
 * The index of the word after a wrapper's options and operands (`timeout -s KILL 60 make` → make);
 * `name` is the wrapper's base name (`/usr/bin/timeout` is `timeout`).
 */
function afterWrapper(words: string[], at: number, name = words[at]): number {
  const spec = ARG_WRAPPERS[name];
  let i = at + 1;
  if (!spec) return i;
  const options = () => {
    for (; i < words.length && words[i].startsWith("-") && words[i] !== "--"; i++) {
      const value = words[i + 1];
      if (spec.valued.has(words[i]) && !(spec.optional && value?.startsWith("-"))) i++;
    }
  };
  options();
  if (spec.verbs?.has(words[i])) {
    i++;
    options();
  }
  if (words[i] === "--") i++;
  // `c8 report`: the wrapper's own subcommand, nothing it runs.
  if (spec.commands?.has(words[i])) return words.length;
  return i + spec.operands;
}

/**
 * One segment: cut at the first pipe, redirections removed (kept with `redirections`) and
 * leading wrappers removed. A wrapper left with nothing to run is the program (`env`, `ccache -s`).
 */
export function normalizeSegment(
  segment: string,
  options: { redirections?: boolean } = {},
): string {
  const words = shellWords(segment);
  const kept: string[] = [];
  // The redirections that name a file, each with the index in `kept` of the word after it.
  const redirections: [number, string][] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "|" || word === "|&") break;
    const redirect = REDIRECT.exec(word);
    if (redirect) {
      // `> file` names its target in the next word; `>file` and `2>&1` carry it.
      const target = redirect[1] === "" && i + 1 < words.length ? ` ${words[++i]}` : "";
      // `2>&1` joins two streams the filter reads as one: it names no file a rule could read.
      if (!DUPLICATION.test(word)) redirections.push([kept.length, word + target]);
      continue;
    }
    kept.push(word);
  }
  let start = 0;
  for (;;) {
    const word = kept[start];
    if (word === undefined) break;
    const base = baseName(word);
    if (ASSIGNMENT.test(word)) start++;
    else if (WRAPPERS.has(base) || base in ARG_WRAPPERS) {
      const next = afterWrapper(kept, start, base);
      if (next >= kept.length) break;
      // `/usr/bin/time -v make` is `time -v make`.
      kept[start] = base;
      start = next;
    } else if (word === "cd" && kept.length > start + 2) start += 2;
    else break;
  }
  if (!options.redirections) return kept.slice(start).join(" ");
  const out: string[] = [];
  let r = 0;
  for (let k = 0; k <= kept.length; k++) {
    for (; r < redirections.length && redirections[r][0] === k; r++) {
      if (k > start) out.push(redirections[r][1]);
    }
    if (k >= start && k < kept.length) out.push(kept[k]);
  }
  return out.join(" ");
}

/** Splits on unquoted whitespace and pipes, keeping each word's quotes as written. */
function shellWords(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: string | null = null;
  const flush = () => {
    if (word) words.push(word);
    word = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      word += c;
      if (c === "\\" && quote === '"' && i + 1 < text.length) word += text[++i];
      else if (c === quote) quote = null;
      continue;
    }
    if (c === "\\" && i + 1 < text.length) {
      word += c + text[++i];
    } else if (c === "'" || c === '"' || c === "`") {
      quote = c;
      word += c;
    } else if (c === " " || c === "\t") {
      flush();
    } else if (c === "|") {
      flush();
      if (text[i + 1] === "&") i++;
      words.push("|");
    } else {
      word += c;
    }
  }
  flush();
  return words;
}
