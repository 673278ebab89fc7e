/**
 * A tool started by path or through a runner matches the rules its bare name matches: every
 * form in a row selects the same rules as the row's first, and at least one.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";
import { helpHint } from "../../src/filter/generic_usage.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const names = (command: string) => engine.match(command).map((rule) => rule.name);

const FORMS: string[][] = [
  [
    "npx jest",
    "./node_modules/.bin/jest",
    "node_modules/.bin/jest --ci",
    "/tmp/p/node_modules/.bin/jest",
    "cd /tmp/p && ./node_modules/.bin/jest 2>&1 | tail -40",
    "env CI=1 ./node_modules/.bin/jest",
    "pnpm exec ./node_modules/.bin/jest",
    "npx -y jest",
  ],
  ["vitest run", "/tmp/p/node_modules/.bin/vitest run", "time node_modules/.bin/vitest run"],
  ["tsc --noEmit", "./node_modules/.bin/tsc --noEmit", "bunx tsc --noEmit"],
  ["eslint src", "node_modules/.bin/eslint src", "pnpm exec eslint src"],
  [
    "pytest -q",
    ".venv/bin/pytest -q",
    "/home/u/p/.venv/bin/pytest -q",
    "poetry run pytest -q",
    "uv run .venv/bin/pytest -q",
    ".venv/bin/python -m pytest -q",
    "nice -n 5 .venv/bin/pytest -q",
    "pipenv run pytest -q",
    "python3.11 -m pytest -q",
    "/usr/bin/python3.12 -m pytest -q",
    ".venv/bin/python3.11 -m pytest -q",
    "xvfb-run -a pytest -q",
  ],
  ["ruff check .", ".venv/bin/ruff check .", "pdm run ruff check ."],
  ["mypy src", "~/.local/bin/mypy src", "hatch run mypy src", "python3.12 -m mypy src"],
  ["pip install -r r.txt", "pip3.11 install -r r.txt", ".venv/bin/pip3.12 install -r r.txt"],
  ["node --test", "nodejs --test", "/usr/bin/nodejs --test"],
  [
    "cargo test",
    "/usr/local/bin/cargo test",
    "~/.cargo/bin/cargo test",
    '"$HOME/.cargo/bin/cargo" test',
    "/usr/bin/time -v ~/.cargo/bin/cargo test",
    "/usr/bin/env RUST_BACKTRACE=1 cargo test",
  ],
  ["golangci-lint run", "~/go/bin/golangci-lint run", "$GOPATH/bin/golangci-lint run"],
  [
    "go test ./...",
    "/usr/local/go/bin/go test ./...",
    "timeout 60 go test ./...",
    "go1.22.5 test ./...",
    "taskset -c 0 go test ./...",
  ],
  ["rspec", "bundle exec rspec", "bin/rspec", "bundle exec bin/rspec"],
  [
    "make",
    "/usr/bin/make",
    "time make",
    "chrt -b 0 make",
    "flock -w 10 /tmp/build.lock make",
    "flock /tmp/build.lock -c 'make'",
    "setsid make",
    "unbuffer make",
    "sh -c 'cd /p && make'",
    'bash -lc "make 2>&1"',
  ],
  [
    "sqlite3 t.db < seed.sql",
    "env X=1 /opt/bin/sqlite3 t.db < seed.sql",
    "cd /p && sqlite3 t.db < seed.sql",
    "time sqlite3 t.db < seed.sql 2>&1 | tail",
  ],
  [
    "pg_dump shop",
    "su postgres -c 'pg_dump shop'",
    'su - postgres -c "pg_dump shop"',
    "runuser -u postgres -- pg_dump shop",
    "runuser -l postgres -c 'pg_dump shop'",
    "docker exec db pg_dump shop",
    "docker exec -i -u postgres -e PGPASSWORD=x db pg_dump shop",
    "podman exec db pg_dump shop",
  ],
  ["gcc -c a.c", "ccache gcc -c a.c"],
  ["ruby -Itest test/a_test.rb", "ruby3.1 -Itest test/a_test.rb"],
];

for (const [bare, ...forms] of FORMS) {
  Deno.test(`a program by path or runner matches what \`${bare}\` matches`, () => {
    const expected = names(bare);
    expect(expected.length).toBeGreaterThan(0);
    expect(forms.map((form) => [form, names(form)])).toEqual(
      forms.map((form) => [form, expected]),
    );
  });
}

Deno.test("rules that match a path on purpose still do", () => {
  expect(names("./configure --prefix=/usr")).toContain("autoconf-configure");
  expect(names("./gradlew build")[0]).toBe(names("gradle build")[0]);
  expect(names("./mvnw -q verify")[0]).toBe(names("mvn -q verify")[0]);
  expect(names("gcc-12 -c a.c")).toEqual(names("gcc -c a.c"));
  expect(names("pytest-3 -q")).toEqual(names("pytest -q"));
});

Deno.test("a name ending in digits that are not a version keeps them", () => {
  // `sqlite3` is not version 3 of `sqlite`, nor `base64` of `base`.
  expect(names("sqlite3 t.db .tables")).toContain("sqlite3");
  expect(names("x264 in.y4m")).toEqual(names("cat x"));
});

Deno.test("a program's base name does not match a rule its path's directory names", () => {
  // `jest/` is a folder here: the program is `run.sh`.
  expect(names("./jest/run.sh")).toEqual([]);
  expect(names("cat node_modules/.bin/jest")).toEqual(names("cat x"));
});

Deno.test("a --help hint keeps the program as written", () => {
  expect(helpHint("./node_modules/.bin/jest --wat")).toBe(
    "run `./node_modules/.bin/jest --help`",
  );
  expect(helpHint("npx jest --wat")).toBe("run `npx jest --help`");
});

Deno.test("a script started by path is not the tool its file name starts with", () => {
  // `task.sh`, `turbo.js`, `mypy-check.sh` are the project's scripts, not go-task, turbo or mypy;
  // as a bare name `task.sh` still reads as `task` to a rule's `\b`.
  for (const script of ["./task.sh build", "./scripts/task.py", "./turbo.js run build"]) {
    expect([script, names(script)]).toEqual([script, names("./scripts/run.sh")]);
  }
  expect(names("./scripts/nx-build.sh")).toEqual([]);
  expect(names("./scripts/mypy-check.sh")).toEqual([]);
  expect(names("uv run ./tools/just.py")).toEqual([]);
});

Deno.test("a program by path keeps the rules that read its redirections", () => {
  // sqlite3-script reads `< file.sql`, which the normalised segment no longer holds.
  expect(names("/usr/bin/sqlite3 shop.db < seed.sql")).toEqual(names("sqlite3 shop.db < seed.sql"));
  expect(names("cd /srv && ~/bin/sqlite3 -bail t.db < audit.sql")).toEqual(
    names("sqlite3 -bail t.db < audit.sql"),
  );
});
