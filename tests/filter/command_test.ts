import { expect } from "expect";
import { filter, fixture } from "./_builtin.ts";
import {
  earlierSegmentsPrint,
  lastSegment,
  matchCandidates,
  normalizeSegment,
  printsOutput,
  programNames,
  quieted,
  segments,
} from "../../src/filter/command.ts";
import { cpuMs } from "../../bench/_fuzz_inputs.ts";

Deno.test("matchCandidates: whole command, normalised last segment, then each earlier one", () => {
  const table: [string, string[]][] = [
    ["cargo test", ["cargo test"]],
    [
      "cd /p && cargo clippy --workspace -- -D warnings 2>&1 | tail -80",
      [
        "cd /p && cargo clippy --workspace -- -D warnings 2>&1 | tail -80",
        "cargo clippy --workspace -- -D warnings",
      ],
    ],
    ["git status 2>&1", ["git status 2>&1", "git status"]],
    ["make || echo failed; make test", [
      "make || echo failed; make test",
      "make test",
      "make",
      "echo failed",
    ]],
    ["a || b", ["a || b", "b", "a"]],
    ["FOO=1 BAR=2 cargo test --lib", ["FOO=1 BAR=2 cargo test --lib", "cargo test --lib"]],
    ["env RUST_LOG=debug time cargo test", ["env RUST_LOG=debug time cargo test", "cargo test"]],
    ["timeout 300 cargo test", ["timeout 300 cargo test", "cargo test"]],
    [
      "cd /p && timeout -s KILL -k 5 10m npm test 2>&1",
      ["cd /p && timeout -s KILL -k 5 10m npm test 2>&1", "npm test"],
    ],
    ["nice -n 10 make -j4", ["nice -n 10 make -j4", "make -j4"]],
    ["sudo -u ci -E pytest -q", ["sudo -u ci -E pytest -q", "pytest -q"]],
    ["stdbuf -oL go test ./...", ["stdbuf -oL go test ./...", "go test ./..."]],
    ["env -u CI FOO=1 time -p cargo build", ["env -u CI FOO=1 time -p cargo build", "cargo build"]],
    ["echo 'a && b; c'", ["echo 'a && b; c'"]],
    ['echo "x; y" && git diff > out.txt', [
      'echo "x; y" && git diff > out.txt',
      "git diff",
      "git diff > out.txt",
      'echo "x; y"',
    ]],
    ["pytest -q 2> err.log < /dev/null", ["pytest -q 2> err.log < /dev/null", "pytest -q"]],
    ["npm test |& tee log", ["npm test |& tee log", "npm test"]],
    ["  ls -la  ", ["ls -la"]],
    [
      "env X=1 /opt/bin/sqlite3 t.db < s.sql",
      [
        "env X=1 /opt/bin/sqlite3 t.db < s.sql",
        "/opt/bin/sqlite3 t.db",
        "sqlite3 t.db",
        "/opt/bin/sqlite3 t.db < s.sql",
        "sqlite3 t.db < s.sql",
      ],
    ],
    [
      "python3.11 -m pytest -q",
      ["python3.11 -m pytest -q", "python3 -m pytest -q", "python -m pytest -q"],
    ],
    ["gcc-12 -c a.c", ["gcc-12 -c a.c", "gcc -c a.c"]],
    [
      "bash -lc 'cd /p && make -j2 2>&1'",
      ["bash -lc 'cd /p && make -j2 2>&1'", "cd /p && make -j2 2>&1", "make -j2"],
    ],
    ["env", ["env"]],
    ["ccache -s", ["ccache -s"]],
    ["time", ["time"]],
    // Coverage and environment wrappers around a test run; their own subcommands are the program.
    ["c8 -r text --all npm test", ["c8 -r text --all npm test", "npm test"]],
    ["nyc --reporter=lcov mocha", ["nyc --reporter=lcov mocha", "mocha"]],
    ["cross-env CI=1 NODE_ENV=test jest", ["cross-env CI=1 NODE_ENV=test jest", "jest"]],
    ["dotenv -e .env.test -- npm test", ["dotenv -e .env.test -- npm test", "npm test"]],
    ["npx c8 vitest run", ["npx c8 vitest run", "c8 vitest run", "vitest run"]],
    ["c8 report", ["c8 report"]],
    ["nyc check-coverage --lines 90", ["nyc check-coverage --lines 90"]],
  ];
  expect(table.map(([c]) => [c, matchCandidates(c)])).toEqual(table);
});

Deno.test("matchCandidates: env-file wrappers, alone or started by a package manager, leave the command they run", () => {
  // The last candidate is the command run; dotenv-cli reads its options as minimist does (`-c`
  // takes an environment only when one follows it), python-dotenv and dotenvx have a `run` verb.
  const table: [string, string][] = [
    ["dotenv -c -- jest --ci", "jest --ci"],
    ["dotenv -c test -- jest --ci", "jest --ci"],
    ["dotenv -c -e .env.ci -- jest", "jest"],
    ["dotenv -e .env -e .env.local -v CI=1 -- vitest run", "vitest run"],
    ["dotenv -e .env.test npm test", "npm test"],
    ["npx dotenv -c -- jest", "jest"],
    ["npx -y dotenv -e .env.test -- vitest run", "vitest run"],
    ["pnpm exec dotenv -e .env -- eslint src", "eslint src"],
    ["yarn dotenv -c -- jest", "jest"],
    ["pnpm dotenv -e .env -- tsc --noEmit", "tsc --noEmit"],
    ["yarn exec dotenv -e .env -- jest", "jest"],
    ["bunx dotenv -c -- vitest run", "vitest run"],
    ["yarn cross-env CI=1 jest", "jest"],
    ["npx cross-env CI=1 dotenv -c -- jest", "jest"],
    ["dotenvx run -f .env.ci -- go test ./...", "go test ./..."],
    ["dotenv -f .env run pytest -x", "pytest -x"],
    ["dotenv run -- pytest -x", "pytest -x"],
  ];
  expect(table.map(([c]) => [c, matchCandidates(c).at(-1)])).toEqual(table);
  // A package manager's own commands are no wrapper's.
  expect(matchCandidates("yarn install")).toEqual(["yarn install"]);
  expect(matchCandidates("pnpm test")).toEqual(["pnpm test"]);
});

Deno.test("programNames: the bare names of the programs a command runs, through runners and paths", () => {
  expect(programNames("cd site && bundle exec jekyll build --trace")).toContain("jekyll");
  expect(programNames("NODE_OPTIONS=--stack-trace-limit=40 npx eslint a.js")).toContain("eslint");
  expect(programNames(".venv/bin/sphinx-build -b html docs out")).toContain("sphinx-build");
  expect(programNames("ruby build.rb")).not.toContain("jekyll");
});

Deno.test("matchCandidates: a package a runner fetches with a pinned version is also tried without it", () => {
  // npx, bunx, pnpm dlx, yarn dlx and uvx take `name@version` and `@scope/name@version`; the
  // forms after the command as written are the ones rules are written for.
  const table: [string, string[]][] = [
    ["npx @redocly/cli@latest lint openapi.yaml", [
      "npx @redocly/cli lint openapi.yaml",
      "@redocly/cli lint openapi.yaml",
      "cli lint openapi.yaml",
    ]],
    ["pnpm dlx prettier@3.3.2 --check .", ["pnpm dlx prettier --check .", "prettier --check ."]],
    ["yarn dlx @biomejs/biome@1.9.4 check .", [
      "yarn dlx @biomejs/biome check .",
      "@biomejs/biome check .",
      "biome check .",
    ]],
    ["bunx eslint@9 src", ["bunx eslint src", "eslint src"]],
    ["npx -y jest@29 --ci", ["npx -y jest --ci", "jest --ci"]],
    ["uvx ruff@0.5.0 check .", ["uvx ruff check .", "ruff check ."]],
    // No version pinned: a scope's `@` is no version's; a path is no package spec.
    ["npx @redocly/cli lint x.yaml", ["cli lint x.yaml"]],
    ["npx ./scripts/a@b.sh", ["./scripts/a@b.sh"]],
  ];
  expect(table.map(([c]) => [c, matchCandidates(c).slice(1)])).toEqual(table);
  // A version outside a runner's package spec is the command's own argument.
  expect(matchCandidates("git checkout v1@2")).toEqual(["git checkout v1@2"]);
});

Deno.test("lastSegment ignores separators inside quotes and escapes", () => {
  expect(lastSegment(`a && echo "1 && 2"`)).toBe(`echo "1 && 2"`);
  expect(lastSegment("a \\; b")).toBe("a \\; b");
  expect(lastSegment("a; b\nc")).toBe("c");
  expect(normalizeSegment("cd /x")).toBe("cd /x");
});

Deno.test("segments splits at top-level separators only", () => {
  expect(segments(`a && echo "1 && 2"; b || c\nd`)).toEqual([
    "a",
    `echo "1 && 2"`,
    "b",
    "c",
    "d",
  ]);
  expect(segments("a \\; b ;")).toEqual(["a \\; b"]);
  expect(segments("make | tail -5")).toEqual(["make | tail -5"]);
});

Deno.test("printsOutput: a segment that prints nothing when it works shares no output", () => {
  const table: [string, boolean][] = [
    ["./seed.sh", true],
    ["npm run build", true],
    ["echo done", true],
    ["cd build", false],
    ["export CI=1", false],
    ["source .venv/bin/activate", false],
    ["mkdir -p out", false],
    ["CI=1", false],
    ["make clean >/dev/null", false],
    ["make clean > clean.log 2>&1", false],
    ["make clean 2>/dev/null", true],
    ["make 2>&1", true],
    ["cargo clean -q", false],
  ];
  expect(table.map(([s]) => [s, printsOutput(s)])).toEqual(table);
});

Deno.test("quieted: the streams a segment's options and redirections keep off the screen, in the shell's order", () => {
  const table: [string, string][] = [
    ["make", "none"],
    ["make 2>/dev/null", "none"],
    ["make 2>&1", "none"],
    ["make >/dev/null", "stdout"],
    ["make > build.log", "stdout"],
    ["make 1>>build.log", "stdout"],
    ["cargo clean -q", "stdout"],
    ["make 2>&1 >/dev/null", "stdout"],
    ["make >&2", "none"],
    ["make >/dev/null 2>&1", "all"],
    ["make > build.log 2> err.log", "all"],
    ["make &>/dev/null", "all"],
    ["make &>> build.log", "all"],
    ["make >& build.log", "all"],
    ["cargo build -q 2>/dev/null >/dev/null", "all"],
    ["make >/dev/null 2>&1 | cat", "none"],
    ["make 2>&1 | tail -5", "none"],
    ["make > >(tee build.log)", "none"],
    ["make 2> >(tee err.log) >/dev/null", "stdout"],
    ["diff a.txt >(sort)", "none"],
  ];
  expect(table.map(([s]) => [s, quieted(s)])).toEqual(table);
});

Deno.test("earlierSegmentsPrint: a quiet command that `;` follows may print its failure", () => {
  const table: [string, boolean][] = [
    ["cd build && pytest", false],
    ["cd build; pytest", true],
    ["cd build || exit 1\npytest", true],
    ["export CI=1 && cd x && pytest", false],
    ["./seed.sh && pytest", true],
    // A quieted command's errors still show: its standard error is not sent anywhere.
    ["make clean >/dev/null; make", true],
    ["./run.sh >/dev/null && make", true],
    ["cargo clean -q; cargo build", true],
    ["cd build >/dev/null && pytest", false],
    ["make clean > clean.log 2>&1; make", false],
    ["./run.sh &>/dev/null; make", false],
    ["pytest", false],
  ];
  expect(table.map(([s]) => [s, earlierSegmentsPrint(s)])).toEqual(table);
});

Deno.test("matchCandidates: a long run of wrappers costs about as much as its length", () => {
  // Each wrapper was read on a copy of the command's words: `nice nice … make` was quadratic.
  const cpu = (n: number) => {
    const command = "nice ".repeat(n) + "make";
    let best = Infinity;
    for (let run = 0; run < 3; run++) {
      const start = cpuMs();
      expect(matchCandidates(command)).toContain("make");
      best = Math.min(best, cpuMs() - start);
    }
    return Math.max(best, 5);
  };
  cpu(1000);
  // Linear: 4 times the words take about 4 times as long; quadratic: 16.
  expect(cpu(16_000) / cpu(4_000)).toBeLessThan(10);
});

Deno.test("a real output under an env-file wrapper is filtered by the wrapped tool's rules", async () => {
  // jest 29 and go 1.19 captures (tests/fixtures/filters): the same text as without the wrapper.
  const cases: [string, string, string][] = [
    ["jest-vitest/console_noise_cut.in.txt", "npx jest", "yarn dotenv -c -- jest"],
    ["jest-vitest/console_noise_cut.in.txt", "npx jest", "npx dotenv -e .env.test -- jest"],
    ["go-test/cgo_clang_error_limit.in.txt", "go test ./...", "dotenvx run -- go test ./..."],
  ];
  for (const [name, bare, wrapped] of cases) {
    const input = await fixture(name);
    expect([wrapped, filter(wrapped, input, true)]).toEqual([wrapped, filter(bare, input, true)]);
    expect(filter(wrapped, input, true).length).toBeLessThan(input.length / 2);
  }
});
