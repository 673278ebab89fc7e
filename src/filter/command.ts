/**
 * Which command a rule sees. LLMs write `cd /p && cargo clippy -- -D warnings 2>&1 | tail -80`;
 * rules are written for `cargo clippy …`. Matching therefore tries the whole command and its
 * normalised last segment: after the last `&&`, `||` or `;` outside quotes, cut at the first
 * pipe, redirections removed, leading `cd …`, `VAR=value`, `env`, `time` and `command` removed.
 * A program given by path (`./node_modules/.bin/jest`, `.venv/bin/pytest`, `~/go/bin/golangci-lint`)
 * or through a package runner (`pnpm exec`, `uv run`, `poetry run`, `bundle exec`) is also tried
 * by its bare name, so one rule written for `jest …` covers every way of starting it.
 */

/** The strings a rule's matcher is tried against, most literal first, without duplicates. */
export function matchCandidates(command: string): string[] {
  const whole = command.trim();
  const candidates = [whole];
  const last = lastCommand(whole);
  if (last) candidates.push(last);
  const program = programForm(last);
  if (program) {
    candidates.push(program);
    // The same with the segment's redirections (`/usr/bin/sqlite3 t.db < seed.sql`): a rule
    // may read them, and normalising drops them.
    const redirected = programForm(lastSegment(whole).trim());
    if (redirected) candidates.push(redirected);
  }
  return [...new Set(candidates)];
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
/** Runner options that take no value and may come before the tool (`npx -y jest`). */
const RUNNER_FLAGS = new Set(["-y", "--yes", "--no-install", "-q", "--quiet", "--silent", "--"]);

/**
 * The command with its program by base name and without a package runner in front
 * (`.venv/bin/pytest -q` → `pytest -q`, `pnpm exec ./node_modules/.bin/vitest` → `vitest`);
 * empty when that is the command as written.
 */
function programForm(command: string): string {
  const words = shellWords(command);
  let at = 0;
  const runner = RUNNERS.find((r) => r.every((w, k) => baseName(words[k] ?? "") === w));
  if (runner) {
    at = runner.length;
    while (at < words.length - 1 && RUNNER_FLAGS.has(words[at])) at++;
  }
  if (at >= words.length) return "";
  // A file with a script's extension (`./task.sh`, `scripts/turbo.js`) is the project's own
  // script, not the tool its name starts with: it stays as written.
  const program = baseName(words[at]);
  const rest = [SCRIPT_FILE.test(program) ? words[at] : program, ...words.slice(at + 1)];
  const form = rest.join(" ");
  return form === command ? "" : form;
}

/** A program's name without its directory or quotes (`"$HOME/.cargo/bin/cargo"` → `cargo`). */
function baseName(word: string): string {
  const bare = /^(["'])(.*)\1$/.exec(word)?.[2] ?? word;
  const slash = bare.lastIndexOf("/");
  return slash < 0 || slash === bare.length - 1 ? word : bare.slice(slash + 1);
}

/** The text after the last top-level `&&`, `||`, `;` or newline (quotes respected). */
export function lastSegment(command: string): string {
  let quote: string | null = null;
  let cut = 0;
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
    if (c === ";" || c === "\n") cut = i + 1;
    else if ((c === "&" || c === "|") && command[i + 1] === c) {
      cut = i + 2;
      i++;
    }
  }
  return command.slice(cut).trim();
}

const REDIRECT = /^(?:\d*|&)(?:>>?|<<?|>&|<&)(.*)$/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const WRAPPERS = new Set(["env", "time", "command", "exec", "nohup"]);
/**
 * Wrappers that run the command after their own options and operands: the options each takes
 * a value of (`timeout -s KILL`, `sudo -u ann`, `env -u VAR`) and how many operands come before
 * the command (`timeout 300 cargo test`: the duration).
 */
const ARG_WRAPPERS: Record<string, { valued: Set<string>; operands: number }> = {
  timeout: { valued: new Set(["-s", "--signal", "-k", "--kill-after"]), operands: 1 },
  nice: { valued: new Set(["-n", "--adjustment"]), operands: 0 },
  ionice: { valued: new Set(["-c", "--class", "-n", "--classdata", "-p", "--pid"]), operands: 0 },
  stdbuf: { valued: new Set(["-i", "-o", "-e"]), operands: 0 },
  sudo: { valued: new Set(["-u", "--user", "-g", "--group", "-C", "-D", "--chdir"]), operands: 0 },
  env: { valued: new Set(["-u", "--unset", "-C", "--chdir"]), operands: 0 },
  time: { valued: new Set(["-f", "--format", "-o", "--output"]), operands: 0 },
};

/** The index of the word after a wrapper's options and operands (`timeout -s KILL 60 make` → make). */
function afterWrapper(words: string[], at: number): number {
  const spec = ARG_WRAPPERS[words[at]];
  let i = at + 1;
  if (!spec) return i;
  for (; i < words.length && words[i].startsWith("-") && words[i] !== "--"; i++) {
    if (spec.valued.has(words[i])) i++;
  }
  if (words[i] === "--") i++;
  return i + spec.operands;
}

/** One segment: cut at the first pipe, redirections and leading wrappers removed. */
export function normalizeSegment(segment: string): string {
  const words = shellWords(segment);
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "|" || word === "|&") break;
    const redirect = REDIRECT.exec(word);
    if (redirect) {
      // `> file` names its target in the next word; `>file` and `2>&1` carry it.
      if (redirect[1] === "") i++;
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
      // `/usr/bin/time -v make` is `time -v make`.
      kept[start] = base;
      start = afterWrapper(kept, start);
    } else if (word === "cd" && kept.length > start + 2) start += 2;
    else break;
  }
  return kept.slice(start).join(" ");
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
