/**
 * Built-in rules of the toolchain families (cargo, git log, stat, maven, gradle, bundle, tofu,
 * gcc, xcodebuild/swift, docker compose, rspec json): what each keeps and what goes, failures
 * kept whole. The golden fixtures hold real captures; these cases pin one behaviour each.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });

interface Case {
  name: string;
  command: string;
  exit?: number;
  input: string[];
  output: string[];
}

const CASES: Case[] = [
  {
    name:
      "JUnit 5's console launcher: passing rows of the tree fold, failing and skipped rows, the failures' project frames and the non-zero counts stay",
    command: "java -jar junit-platform-console-standalone.jar -cp out --select-class CalcTest",
    exit: 1,
    input: [
      "",
      "Thanks for using JUnit! Support its development at https://junit.org/sponsoring",
      "",
      "\x1b[36m╷\x1b[0m",
      "\x1b[36m└─\x1b[0m \x1b[36mJUnit Jupiter\x1b[0m \x1b[32m✔\x1b[0m",
      "\x1b[36m   └─\x1b[0m \x1b[36mCalcTest\x1b[0m \x1b[32m✔\x1b[0m",
      "\x1b[36m      ├─\x1b[0m \x1b[31mwrongSum()\x1b[0m \x1b[31m✘\x1b[0m \x1b[31msum ==> expected: <5> but was: <4>\x1b[0m",
      ...[1, 2, 3, 4, 5].map((n) =>
        `\x1b[36m      ├─\x1b[0m \x1b[34madds${n}()\x1b[0m \x1b[32m✔\x1b[0m`
      ),
      "\x1b[36m      └─\x1b[0m \x1b[35mskipped()\x1b[0m \x1b[35m↷\x1b[0m \x1b[35mflaky\x1b[0m",
      "",
      "Failures (1):",
      "  JUnit Jupiter:CalcTest:wrongSum()",
      "    => org.opentest4j.AssertionFailedError: sum ==> expected: <5> but was: <4>",
      "       org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)",
      "       CalcTest.wrongSum(CalcTest.java:9)",
      "       java.base/java.lang.reflect.Method.invoke(Method.java:569)",
      "       [...]",
      "",
      "[         0 tests aborted         ]",
      "[         6 tests successful      ]",
      "[         1 tests failed          ]",
    ],
    output: [
      "└─ JUnit Jupiter ✔",
      "   └─ CalcTest ✔",
      "      ├─ wrongSum() ✘ sum ==> expected: <5> but was: <4>",
      "… 5 passing rows of the test tree folded …",
      "      └─ skipped() ↷ flaky",
      "Failures (1):",
      "  JUnit Jupiter:CalcTest:wrongSum()",
      "    => org.opentest4j.AssertionFailedError: sum ==> expected: <5> but was: <4>",
      "       CalcTest.wrongSum(CalcTest.java:9)",
      "       [...]",
      "[         6 tests successful      ]",
      "[         1 tests failed          ]",
    ],
  },
  {
    name: "cargo test: a passing run keeps its workspace crate and its one result line as printed",
    command: "cargo test",
    input: [
      "   Compiling calc v0.1.0 (/p)",
      "     Running unittests src/lib.rs (target/debug/deps/calc-1)",
      "",
      "running 3 tests",
      "test a ... ok",
      "test b ... ok",
      "test c ... ignored",
      "",
      "test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s",
    ],
    // A passing run: the workspace crate it built and its one result line, as printed.
    output: [
      "   Compiling calc v0.1.0 (/p)",
      "test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s",
    ],
  },
  {
    name:
      "cargo test that does not compile: errors stay, progress, --explain hints and empty gutter lines go",
    command: "cargo test",
    exit: 101,
    input: [
      "   Compiling calc v0.1.0 (/p)",
      "error[E0425]: cannot find value `x` in this scope",
      " --> tests/t.rs:3:13",
      "  |",
      "3 |     let _ = x;",
      "  |             ^ not found in this scope",
      "  |             |",
      "  |             ^^^",
      "",
      "Some errors have detailed explanations: E0308, E0425.",
      "For more information about an error, try `rustc --explain E0308`.",
      'error: could not compile `calc` (test "t") due to 2 previous errors',
      "warning: build failed, waiting for other jobs to finish...",
    ],
    output: [
      "error[E0425]: cannot find value `x` in this scope",
      " --> tests/t.rs:3:13",
      // The source line and its labelled mark stay as printed; connectors and bare marks go.
      "3 |     let _ = x;",
      "  |             ^ not found in this scope",
      "",
      // The crate that could not compile: its Compiling line comes back right before that line.
      "   Compiling calc v0.1.0 (/p)",
      'error: could not compile `calc` (test "t") due to 2 previous errors',
    ],
  },
  {
    name: "cargo nextest: FAIL and Summary stay as printed, stderr headers and cancel notes go",
    command: "cargo nextest run",
    exit: 100,
    input: [
      "    Starting 2 tests across 1 binary",
      "        PASS [   0.004s] (1/2) calc tests::ok",
      "        FAIL [   0.006s] (2/2) calc tests::bad",
      "",
      "  stderr ───",
      "",
      "    thread 'tests::bad' panicked at src/lib.rs:9:5:",
      "    assertion `left == right` failed",
      "  Cancelling due to test failure: 1 test still running",
      "────────────",
      "     Summary [   0.010s] 2 tests run: 1 passed, 1 failed",
      "error: test run failed",
    ],
    output: [
      "        FAIL [   0.006s] (2/2) calc tests::bad",
      "    thread 'tests::bad' panicked at src/lib.rs:9:5:",
      "    assertion `left == right` failed",
      "     Summary [   0.010s] 2 tests run: 1 passed, 1 failed",
      "error: test run failed",
    ],
  },
  {
    name:
      "cargo clippy: a lint without quoted names shows its first finding as printed, the others' location lines under it",
    command: "cargo clippy",
    input: [
      "    Checking calc v0.1.0",
      "warning: this function has too many arguments [clippy::too_many_arguments]",
      " --> src/git.rs:16:1",
      "  |",
      "16| pub fn run(a: i32, b: i32, c: i32, d: i32, e: i32, f: i32, g: i32, h: i32) {}",
      "  |",
      "",
      "warning: this function has too many arguments [clippy::too_many_arguments]",
      " --> src/main.rs:4:1",
      "",
      "warning: `calc` (bin) generated 2 warnings",
      "    Finished dev [unoptimized + debuginfo] target(s) in 1.53s",
    ],
    output: [
      "this function has too many arguments [clippy::too_many_arguments] (2):",
      "  warning: this function has too many arguments [clippy::too_many_arguments]",
      "   --> src/git.rs:16:1",
      "   --> src/main.rs:4:1",
      "warning: `calc` (bin) generated 2 warnings",
    ],
  },
  {
    name: "cargo install: what was installed stays, Installing, progress and Finished go",
    command: "cargo install ripgrep",
    input: [
      "    Updating crates.io index",
      "  Installing ripgrep v14.1.1",
      "   Compiling memchr v2.7.4",
      "    Finished `release` profile [optimized] target(s) in 41.87s",
      "  Installing /home/dev/.cargo/bin/rg",
      "   Installed package `ripgrep v14.1.1` (executable `rg`)",
    ],
    output: ["   Installed package `ripgrep v14.1.1` (executable `rg`)"],
  },
  {
    name: "cargo install: a run whose every line went says ok",
    command: "cargo install ripgrep",
    input: ["  Installing ripgrep v14.1.1", "   Compiling memchr v2.7.4"],
    output: ["cargo install: ok"],
  },
  {
    name: "cargo test: an older result line without its timing stays as printed too",
    command: "cargo test",
    exit: 101,
    input: [
      "test a ... FAILED",
      "",
      "failures:",
      "",
      "---- a stdout ----",
      "thread 'a' panicked at 'boom'",
      "",
      "failures:",
      "    a",
      "",
      "test result: FAILED. 4 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out",
    ],
    output: [
      "test a ... FAILED",
      "---- a stdout ----",
      "thread 'a' panicked at 'boom'",
      "failures:",
      "    a",
      "test result: FAILED. 4 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out",
    ],
  },
  {
    name: "brew install of an installed formula: one line, as printed",
    command: "brew install jq",
    input: [
      "Warning: jq 1.7.1 is already installed and up-to-date.",
      "To reinstall 1.7.1, run:",
      "  brew reinstall jq",
    ],
    output: ["Warning: jq 1.7.1 is already installed and up-to-date."],
  },
  {
    name:
      "stat: name, size, mode, owner and modification time lines as printed; the rest goes with one line saying so",
    command: "stat main.rs",
    input: [
      "  File: main.rs",
      "  Size: 12345     \tBlocks: 24         IO Block: 4096   regular file",
      "Device: 801h/2049d\tInode: 1234567     Links: 1",
      "Access: (0644/-rw-r--r--)  Uid: ( 1000/     ann)   Gid: ( 1000/     ann)",
      "Access: 2026-03-10 12:00:00.123456789 +0100",
      "Modify: 2026-03-10 11:00:00.000000000 +0100",
      "Change: 2026-03-10 11:00:00.000000000 +0100",
      " Birth: -",
    ],
    output: [
      "  File: main.rs",
      "  Size: 12345     \tBlocks: 24         IO Block: 4096   regular file",
      "Access: (0644/-rw-r--r--)  Uid: ( 1000/     ann)   Gid: ( 1000/     ann)",
      "Modify: 2026-03-10 11:00:00.000000000 +0100",
      "(4 more lines: device, other times)",
    ],
  },
  {
    name: "mvn: the verdict stays, its timing lines go",
    command: "mvn package",
    input: [
      "[INFO] Building app 1.0-SNAPSHOT",
      "[INFO] BUILD SUCCESS",
      "[INFO] ------------------------------------------------------------------------",
      "[INFO] Total time:  4.123 s",
      "[INFO] Finished at: 2026-01-15T10:30:00Z",
    ],
    output: ["[INFO] Building app 1.0-SNAPSHOT", "[INFO] BUILD SUCCESS"],
  },
  {
    name: "gradle: a run of only configure lines says ok",
    command: "./gradlew build",
    input: ["> Configure project :app", "> Task :app:compileJava UP-TO-DATE"],
    output: ["gradle: ok"],
  },
  {
    name: "gradle: a failed run of only configure lines keeps them",
    command: "./gradlew build",
    exit: 1,
    input: ["> Configure project :app"],
    output: ["> Configure project :app"],
  },
  {
    name: "bundle install: an upgrade shows once, the bundle info hint goes",
    command: "bundle install",
    input: [
      "Fetching gem metadata from https://rubygems.org/.........",
      "Resolving dependencies...",
      "Using rake 13.1.0",
      "Fetching rspec 3.14.0 (was 3.13.0)",
      "Installing rspec 3.14.0 (was 3.13.0)",
      "Bundle complete! 5 Gemfile dependencies, 20 gems now installed.",
      "Use `bundle info [gemname]` to see where a bundled gem is installed.",
    ],
    output: [
      "Installing rspec 3.14.0 (was 3.13.0)",
      "Bundle complete! 5 Gemfile dependencies, 20 gems now installed.",
    ],
  },
  {
    name: "tofu validate: success as printed, errors whole",
    command: "tofu validate",
    input: ["Success! The configuration is valid."],
    output: ["Success! The configuration is valid."],
  },
  {
    name: "tofu init: the verdict without a count line",
    command: "tofu init",
    input: [
      "Initializing the backend...",
      "Initializing provider plugins...",
      "- Installing hashicorp/aws 5.0.0...",
      "",
      "OpenTofu has been successfully initialized!",
    ],
    output: ["OpenTofu has been successfully initialized!"],
  },
  {
    name:
      "gcc: errors, warnings, include chains and an error's In function header stay, echo, carets and a warning's header go",
    command: "gcc -Wall -c main.c",
    exit: 1,
    input: [
      "In file included from main.c:3:",
      "util.h: In function ‘clamp’:",
      "util.h:4:38: warning: unused variable ‘tmp’ [-Wunused-variable]",
      "    4 | static inline int clamp(int v) { int tmp; return v; }",
      "      |                                      ^~~",
      "main.c: In function ‘main’:",
      "main.c:20:5: error: ‘total’ undeclared (first use in this function)",
      "   20 |     total += 1;",
      "      |     ^~~~~",
      "main.c:20:5: note: each undeclared identifier is reported only once for each function it appears in",
    ],
    // The lines stay as gcc printed them, in order: the chain before the header's warning.
    output: [
      "In file included from main.c:3:",
      "util.h:4:38: warning: unused variable ‘tmp’ [-Wunused-variable]",
      "main.c: In function ‘main’:",
      "main.c:20:5: error: ‘total’ undeclared (first use in this function)",
    ],
  },
  {
    name:
      "gcc: a function's header stays over a warning when an error follows under it, and goes when none does",
    command: "gcc -Wall -Wextra -c m.c",
    exit: 1,
    // gcc 12, as printed (source echo and carets cut).
    input: [
      "m.c: In function ‘helper’:",
      "m.c:3:7: warning: unused variable ‘unused’ [-Wunused-variable]",
      "m.c: In function ‘main’:",
      "m.c:8:13: warning: initialization of ‘char *’ from ‘int’ makes pointer from integer without a cast [-Wint-conversion]",
      "m.c:10:3: warning: implicit declaration of function ‘undefined_fn’ [-Wimplicit-function-declaration]",
      "m.c:11:10: error: ‘y’ undeclared (first use in this function)",
      "m.c:8:9: warning: unused variable ‘p’ [-Wunused-variable]",
      "m.c: In function ‘tail’:",
      "m.c:14:7: warning: unused variable ‘z’ [-Wunused-variable]",
    ],
    output: [
      "m.c:3:7: warning: unused variable ‘unused’ [-Wunused-variable]",
      "m.c: In function ‘main’:",
      "m.c:8:13: warning: initialization of ‘char *’ from ‘int’ makes pointer from integer without a cast [-Wint-conversion]",
      "m.c:10:3: warning: implicit declaration of function ‘undefined_fn’ [-Wimplicit-function-declaration]",
      "m.c:11:10: error: ‘y’ undeclared (first use in this function)",
      "m.c:8:9: warning: unused variable ‘p’ [-Wunused-variable]",
      "m.c:14:7: warning: unused variable ‘z’ [-Wunused-variable]",
    ],
  },
  {
    name: "xcodebuild test: the failing case and the counts stay, passing cases and suites go",
    command: "xcodebuild test",
    exit: 65,
    input: [
      "Test Suite 'All tests' started at 2026-03-10 12:00:00.000",
      "Test Case '-[AppTests testOk]' started.",
      "Test Case '-[AppTests testOk]' passed (0.001 seconds).",
      "Test Case '-[AppTests testBad]' started.",
      "/p/AppTests.swift:12: error: -[AppTests testBad] : XCTAssertEqual failed: (1) is not equal to (2)",
      "Test Case '-[AppTests testBad]' failed (0.002 seconds).",
      "Test Suite 'All tests' failed at 2026-03-10 12:00:01.000",
      "Executed 2 tests, with 1 failure (0 unexpected) in 0.003 (0.004) seconds",
      "** TEST FAILED **",
    ],
    output: [
      "/p/AppTests.swift:12: error: -[AppTests testBad] : XCTAssertEqual failed: (1) is not equal to (2)",
      "Test Case '-[AppTests testBad]' failed (0.002 seconds).",
      "Test Suite 'All tests' failed at 2026-03-10 12:00:01.000",
      "Executed 2 tests, with 1 failure (0 unexpected) in 0.003 (0.004) seconds",
      "** TEST FAILED **",
    ],
  },
  {
    name: "docker compose build: step lines stay as printed, the cached ones go",
    command: "docker compose build",
    input: [
      "[+] Building 12.3s (3/3) FINISHED",
      " => [web 1/2] FROM docker.io/library/node:20                      0.0s",
      " => [web 2/2] RUN npm install                                      8.5s",
      " => => naming to docker.io/library/app-web                         0.0s",
    ],
    output: [
      "[+] Building 12.3s (3/3) FINISHED",
      " => [web 2/2] RUN npm install                                      8.5s",
      " => => naming to docker.io/library/app-web                         0.0s",
    ],
  },
  {
    name: "rspec json without a summary line: the count of findings",
    command: "rspec --format json",
    input: [
      '{"version": "3.12.0", "examples": [], "summary": {"duration": 0.001, "example_count": 0}}',
    ],
    output: ["0 findings"],
  },
  {
    name:
      "cargo run: a panic's runtime frames go counted; the message, notes and the crate's frames stay",
    command: "cargo run -- app.toml",
    exit: 101,
    input: [
      "     Running `target/debug/app app.toml`",
      "thread 'main' (7) panicked at src/config.rs:7:52:",
      "called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }",
      "stack backtrace:",
      "   0:     0x55d0 - std[e282]::backtrace_rs::backtrace::libunwind::trace",
      "                               at /rustc/5980761/library/std/src/../../backtrace/src/backtrace/libunwind.rs:117:9",
      "   3:     0x55d1 - <<std[e282]::sys::backtrace::BacktraceLock>::print::DisplayBacktrace as core[c1f1]::fmt::Display>::fmt",
      "   5:     0x55d2 - core[c1f1]::fmt::write",
      "  17: core::result::Result<T,E>::unwrap",
      "             at /rustc/5980761/library/core/src/result.rs:1233:23",
      "  18: app::config::parse_port",
      "             at ./src/config.rs:7:52",
      "  19:     0x55d3 - <app::Port as core::str::FromStr>::from_str",
      "                               at /p/app/src/main.rs:5:15",
      "  24:     0x55d4 - <&dyn core[c1f1]::ops::function::Fn<(), Output = i32> as core[c1f1]::ops::function::FnOnce<()>>::call_once",
      "  33: std::rt::lang_start",
      "  34:     0x55d5 - main",
      "  35:     0x7f95 - __libc_start_call_main",
      "                               at ./csu/../sysdeps/nptl/libc_start_call_main.h:58:16",
      "  37:     0x55d6 - _start",
      "  38:                0x0 - <unknown>",
      "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
    ],
    // The note goes as advice (generic_advice), after the rules.
    output: [
      "     Running `target/debug/app app.toml`",
      "thread 'main' (7) panicked at src/config.rs:7:52:",
      "called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }",
      "stack backtrace:",
      "  18: app::config::parse_port",
      "             at ./src/config.rs:7:52",
      "  19:     0x55d3 - <app::Port as core::str::FromStr>::from_str",
      "                               at /p/app/src/main.rs:5:15",
      "(13 lines of Rust runtime frames not shown)",
    ],
  },
  {
    name:
      "rake --trace: the task graph's trace lines go counted; the failing task, the error and its frames stay",
    command: "rake --trace db:seed",
    exit: 1,
    input: [
      "** Invoke db:seed (first_time)",
      "** Invoke db:migrate (first_time, not_needed)",
      "** Execute db:migrate",
      "** Invoke db:migrate ",
      "** Execute db:seed",
      "rake aborted!",
      'KeyError: key not found: "users"',
      "/srv/app/lib/seeds.rb:9:in `fetch'",
      "/srv/app/lib/seeds.rb:9:in `apply'",
      "/usr/lib/ruby/gems/3.1.0/gems/rake-13.0.6/lib/rake/task.rb:281:in `block in execute'",
      "/usr/lib/ruby/gems/3.1.0/gems/rake-13.0.6/lib/rake/task.rb:281:in `each'",
      "/usr/lib/ruby/gems/3.1.0/gems/rake-13.0.6/lib/rake/task.rb:281:in `execute'",
      "/usr/bin/rake:25:in `<main>'",
      "Tasks: TOP => db:seed",
    ],
    output: [
      "** Execute db:seed",
      "rake aborted!",
      'KeyError: key not found: "users"',
      "/srv/app/lib/seeds.rb:9:in `fetch'",
      "/srv/app/lib/seeds.rb:9:in `apply'",
      "… 3 frames in rake folded …",
      "/usr/bin/rake:25:in `<main>'",
      "Tasks: TOP => db:seed",
      "(4 rake --trace lines of invoked and executed tasks not shown)",
    ],
  },
  {
    name:
      "git rebase stopping on conflicts: each CONFLICT line names its file; the Auto-merging before it and hint prose go, the closing repeat stays",
    command: "git rebase main",
    exit: 1,
    input: [
      "Rebasing (1/1)",
      "Auto-merging app.py",
      "CONFLICT (content): Merge conflict in app.py",
      "Auto-merging README.md",
      "Auto-merging util.py",
      "CONFLICT (content): Merge conflict in util.py",
      "error: could not apply 76d8706... feat",
      "hint: Resolve all conflicts manually, mark them as resolved with",
      'hint: "git add/rm <conflicted_files>", then run "git rebase --continue".',
      'hint: You can instead skip this commit: run "git rebase --skip".',
      'hint: To abort and get back to the state before "git rebase", run "git rebase --abort".',
      "Could not apply 76d8706... feat",
    ],
    // README.md merged cleanly: its Auto-merging line is all that says it was merged. The
    // hints quoting the commands to run next stay; the closing `Could not apply` says the error
    // line again, once: a reader may quote either.
    output: [
      "Rebasing (1/1)",
      "CONFLICT (content): Merge conflict in app.py",
      "Auto-merging README.md",
      "CONFLICT (content): Merge conflict in util.py",
      "error: could not apply 76d8706... feat",
      'hint: "git add/rm <conflicted_files>", then run "git rebase --continue".',
      'hint: You can instead skip this commit: run "git rebase --skip".',
      'hint: To abort and get back to the state before "git rebase", run "git rebase --abort".',
      "Could not apply 76d8706... feat",
    ],
  },
  {
    name: "git stash pop with a conflict: the status's advice lines go, its paths stay",
    command: "git stash pop",
    exit: 1,
    input: [
      "Auto-merging app.py",
      "CONFLICT (content): Merge conflict in app.py",
      "On branch main",
      "Changes to be committed:",
      '  (use "git restore --staged <file>..." to unstage)',
      "\tmodified:   util.py",
      "",
      "Unmerged paths:",
      '  (use "git restore --staged <file>..." to unstage)',
      '  (use "git add <file>..." to mark resolution)',
      "\tboth modified:   app.py",
      "",
      "The stash entry is kept in case you need it again.",
    ],
    output: [
      "CONFLICT (content): Merge conflict in app.py",
      "On branch main",
      "Changes to be committed:",
      "\tmodified:   util.py",
      "",
      "Unmerged paths:",
      "\tboth modified:   app.py",
      "",
      "The stash entry is kept in case you need it again.",
    ],
  },
  {
    name:
      "cargo clippy -D warnings: a lint's page address, a source line shown already and a suggestion's copy of it go",
    command: "cargo clippy -- -D warnings",
    exit: 101,
    input: [
      "error: unneeded `return` statement",
      " --> src/geo.rs:6:5",
      "  |",
      "6 |     return n;",
      "  |     ^^^^^^^^",
      "  |",
      "  = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#needless_return",
      "  = note: `-D clippy::needless-return` implied by `-D warnings`",
      "  = help: to override `-D warnings` add `#[allow(clippy::needless_return)]`",
      "help: remove `return`",
      "  |",
      "6 -     return n;",
      "6 +     n",
      "  |",
      "",
      "error: the loop variable `i` is only used to index `v`",
      "  --> src/geo.rs:13:14",
      "   |",
      "13 |     for i in 0..v.len() { t = t + v[i]; }",
      "   |              ^^^^^^^^^^",
      "   |",
      "   = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#needless_range_loop",
      "   = note: `-D clippy::needless-range-loop` implied by `-D warnings`",
      "   = help: to override `-D warnings` add `#[allow(clippy::needless_range_loop)]`",
      "",
      "error: manual implementation of an assign operation",
      "  --> src/geo.rs:13:27",
      "   |",
      "13 |     for i in 0..v.len() { t = t + v[i]; }",
      "   |                           ^^^^^^^^^^^^ help: replace it with: `t += v[i]`",
      "   |",
      "   = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#assign_op_pattern",
      "",
      "error: unneeded `return` statement",
      "  --> src/geo.rs:14:5",
      "   |",
      "14 |     return t;",
      "   |     ^^^^^^^^",
      "   |",
      "   = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#needless_return",
      "help: remove `return`",
      "   |",
      "14 -     return t;",
      "14 +     t",
      "   |",
      "",
      "error: could not compile `shapes` (lib) due to 4 previous errors",
    ],
    output: [
      "error: unneeded `return` statement",
      " --> src/geo.rs:6:5",
      "6 |     return n;",
      "  = note: `-D clippy::needless-return` implied by `-D warnings`",
      "  = help: to override `-D warnings` add `#[allow(clippy::needless_return)]`",
      "help: remove `return`",
      "6 +     n",
      "",
      "error: the loop variable `i` is only used to index `v`",
      "  --> src/geo.rs:13:14",
      "13 |     for i in 0..v.len() { t = t + v[i]; }",
      "   = note: `-D clippy::needless-range-loop` implied by `-D warnings`",
      "   = help: to override `-D warnings` add `#[allow(clippy::needless_range_loop)]`",
      "",
      "error: manual implementation of an assign operation",
      "  --> src/geo.rs:13:27",
      "   |                           ^^^^^^^^^^^^ help: replace it with: `t += v[i]`",
      "",
      "error: unneeded `return` statement",
      "  --> src/geo.rs:14:5",
      "14 |     return t;",
      "help: remove `return`",
      "14 +     t",
      "",
      "error: could not compile `shapes` (lib) due to 4 previous errors",
    ],
  },
  {
    name: "cargo build: two trait-bound errors at one place show its source line once",
    command: "cargo build",
    exit: 101,
    input: [
      "error[E0277]: the trait bound `Sku: Eq` is not satisfied",
      " --> src/main.rs:7:26",
      "  |",
      "7 |     for o in orders { *m.entry(o.sku.clone()).or_insert(0) += o.qty; }",
      "  |                          ^^^^^ the trait `Eq` is not implemented for `Sku`",
      "  |",
      "",
      "error[E0277]: the trait bound `Sku: Hash` is not satisfied",
      " --> src/main.rs:7:26",
      "  |",
      "7 |     for o in orders { *m.entry(o.sku.clone()).or_insert(0) += o.qty; }",
      "  |                          ^^^^^ the trait `Hash` is not implemented for `Sku`",
      "  |",
      "",
      'error: could not compile `traits` (bin "traits") due to 2 previous errors',
    ],
    output: [
      "error[E0277]: the trait bound `Sku: Eq` is not satisfied",
      " --> src/main.rs:7:26",
      "7 |     for o in orders { *m.entry(o.sku.clone()).or_insert(0) += o.qty; }",
      "  |                          ^^^^^ the trait `Eq` is not implemented for `Sku`",
      "",
      "error[E0277]: the trait bound `Sku: Hash` is not satisfied",
      " --> src/main.rs:7:26",
      "  |                          ^^^^^ the trait `Hash` is not implemented for `Sku`",
      "",
      'error: could not compile `traits` (bin "traits") due to 2 previous errors',
    ],
  },
  {
    name:
      "cargo build: a note's location in the standard library goes; the note and the crate's locations stay",
    command: "cargo build",
    exit: 101,
    input: [
      "error[E0277]: the trait bound `Sku: Eq` is not satisfied",
      " --> src/main.rs:7:26",
      "  |",
      "7 |     for o in orders { *m.entry(o.sku.clone()).or_insert(0) += o.qty; }",
      "  |                          ^^^^^ the trait `Eq` is not implemented for `Sku`",
      "  |",
      "note: required by a bound in `HashMap::<K, V, S, A>::entry`",
      " --> /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/collections/hash/map.rs:975:4",
      "help: consider annotating `Sku` with `#[derive(Eq)]`",
      " --> src/model.rs:2:1",
      "  |",
      "2 + #[derive(Eq)]",
      "3 | pub struct Sku(pub u32);",
      "  |",
      "",
      "error[E0277]: a value of type `u64` cannot be made by summing an iterator over elements of type `u32`",
      "  --> src/main.rs:19:57",
      "   |",
      "   = help: the trait `Sum<u32>` is not implemented for `u64`",
      "help: the following other types implement trait `Sum<A>`",
      "  --> /home/u/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/lib/rustlib/src/rust/library/core/src/iter/traits/accum.rs:48:8",
      "   |",
      "   = note: `u64` implements `Sum`",
      "  ::: /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/core/src/iter/traits/accum.rs:70:8",
      "   |",
      "   = note: `u64` implements `Sum<&u64>`",
      "",
      'error: could not compile `traits` (bin "traits") due to 2 previous errors',
    ],
    output: [
      "error[E0277]: the trait bound `Sku: Eq` is not satisfied",
      " --> src/main.rs:7:26",
      "7 |     for o in orders { *m.entry(o.sku.clone()).or_insert(0) += o.qty; }",
      "  |                          ^^^^^ the trait `Eq` is not implemented for `Sku`",
      "note: required by a bound in `HashMap::<K, V, S, A>::entry`",
      "help: consider annotating `Sku` with `#[derive(Eq)]`",
      " --> src/model.rs:2:1",
      "2 + #[derive(Eq)]",
      "3 | pub struct Sku(pub u32);",
      "",
      "error[E0277]: a value of type `u64` cannot be made by summing an iterator over elements of type `u32`",
      "  --> src/main.rs:19:57",
      "   = help: the trait `Sum<u32>` is not implemented for `u64`",
      "help: the following other types implement trait `Sum<A>`",
      "   = note: `u64` implements `Sum`",
      "   = note: `u64` implements `Sum<&u64>`",
      "",
      'error: could not compile `traits` (bin "traits") due to 2 previous errors',
    ],
  },
  {
    name: "cargo test: a location in the standard library goes as in cargo build",
    command: "cargo test",
    exit: 101,
    input: [
      "error[E0277]: the trait bound `Order: Ord` is not satisfied",
      "  --> tests/t.rs:18:62",
      "18 |     v.sort();",
      "   |       ^^^^ unsatisfied trait bound",
      "note: required by a bound in `slice::<impl [T]>::sort`",
      "  --> /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/alloc/src/slice.rs:131:4",
      "",
      'error: could not compile `calc` (test "t") due to 1 previous error',
    ],
    output: [
      "error[E0277]: the trait bound `Order: Ord` is not satisfied",
      "  --> tests/t.rs:18:62",
      "18 |     v.sort();",
      "   |       ^^^^ unsatisfied trait bound",
      "note: required by a bound in `slice::<impl [T]>::sort`",
      "",
      'error: could not compile `calc` (test "t") due to 1 previous error',
    ],
  },
  {
    name: "cargo clippy: a location in the standard library goes as in cargo build",
    command: "cargo clippy -- -D warnings",
    exit: 101,
    input: [
      "error: the trait bound `Order: Ord` is not satisfied",
      "  --> src/lib.rs:18:62",
      "18 |     v.sort();",
      "   |       ^^^^ unsatisfied trait bound",
      "note: required by a bound in `slice::<impl [T]>::sort`",
      "  --> /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/alloc/src/slice.rs:131:4",
      "",
      "error: could not compile `calc` (lib) due to 1 previous error",
    ],
    output: [
      "error: the trait bound `Order: Ord` is not satisfied",
      "  --> src/lib.rs:18:62",
      "18 |     v.sort();",
      "   |       ^^^^ unsatisfied trait bound",
      "note: required by a bound in `slice::<impl [T]>::sort`",
      "",
      "error: could not compile `calc` (lib) due to 1 previous error",
    ],
  },
  {
    name:
      "ruff: a frame line an earlier finding of another code showed stays with each finding, in either file",
    command: "ruff check inv",
    exit: 1,
    input: [
      "E401 [*] Multiple imports on one line",
      " --> inv/models.py:3:1",
      "  |",
      "1 | from dataclasses import dataclass",
      "2 | from typing import Optional",
      "3 | import os, sys, json",
      "  | ^^^^^^^^^^^^^^^^^^^^",
      "help: Split imports",
      "  |",
      "2 | from typing import Optional",
      "  - import os, sys, json",
      "3 + import os",
      "4 + import sys",
      "5 + import json",
      "6 |",
      "  |",
      "",
      "F401 [*] `os` imported but unused",
      " --> inv/models.py:3:8",
      "  |",
      "1 | from dataclasses import dataclass",
      "2 | from typing import Optional",
      "3 | import os, sys, json",
      "  |        ^^",
      "help: Remove unused import",
      "  |",
      "2 | from typing import Optional",
      "  - import os, sys, json",
      "3 |",
      "  |",
      "",
      "F401 [*] `os` imported but unused",
      " --> inv/store.py:3:8",
      "  |",
      "1 | from dataclasses import dataclass",
      "2 | from typing import Optional",
      "3 | import os, sys, json",
      "  |        ^^",
      "help: Remove unused import",
      "",
      "Found 3 errors.",
    ],
    output: [
      "E401 [*] Multiple imports on one line",
      " --> inv/models.py:3:1",
      "1 | from dataclasses import dataclass",
      "2 | from typing import Optional",
      "3 | import os, sys, json",
      "  | ^^^^^^^^^^^^^^^^^^^^",
      "help: Split imports",
      "3 + import os",
      "4 + import sys",
      "5 + import json",
      "F401 [*] `os` imported but unused",
      " --> inv/models.py:3:8",
      "1 | from dataclasses import dataclass",
      "2 | from typing import Optional",
      "3 | import os, sys, json",
      "  |        ^^",
      "help: Remove unused import",
      "F401 [*] `os` imported but unused",
      " --> inv/store.py:3:8",
      "1 | from dataclasses import dataclass",
      "2 | from typing import Optional",
      "3 | import os, sys, json",
      "  |        ^^",
      "help: Remove unused import",
      "Found 3 errors.",
    ],
  },
  {
    name:
      "go test: a data race's testing and runtime frames go with their file lines; the test's stay",
    command: "go test -race ./...",
    exit: 1,
    input: [
      "==================",
      "WARNING: DATA RACE",
      "Read at 0x00c0000b2198 by goroutine 9:",
      "  example.com/gorace/counter.(*Counter).Inc()",
      "      /tmp/gorace/counter/counter.go:5 +0x3c",
      "",
      "Goroutine 9 (running) created at:",
      "  example.com/gorace/counter.TestIncMany()",
      "      /tmp/gorace/counter/counter_test.go:15 +0x52",
      "  testing.example.com/helpers.Run()",
      "      /tmp/helpers/run.go:4 +0x1d",
      "  testing.tRunner()",
      "      /usr/lib/go-1.19/src/testing/testing.go:1446 +0x216",
      "  testing.(*T).Run.func1()",
      "      /usr/lib/go-1.19/src/testing/testing.go:1493 +0x47",
      "==================",
      "--- FAIL: TestIncMany (0.00s)",
      "    testing.go:1319: race detected during execution of test",
      "FAIL\texample.com/gorace/counter\t0.025s",
    ],
    // What the run printed before the failing test's line stands over it as printed; blank and
    // rule lines go.
    output: [
      "WARNING: DATA RACE",
      "Read at 0x00c0000b2198 by goroutine 9:",
      "  example.com/gorace/counter.(*Counter).Inc()",
      "      /tmp/gorace/counter/counter.go:5 +0x3c",
      "Goroutine 9 (running) created at:",
      "  example.com/gorace/counter.TestIncMany()",
      "      /tmp/gorace/counter/counter_test.go:15 +0x52",
      // A module whose path starts with `testing.` is no standard package: its frame stays.
      "  testing.example.com/helpers.Run()",
      "      /tmp/helpers/run.go:4 +0x1d",
      "--- FAIL: TestIncMany (0.00s)",
      "    testing.go:1319: race detected during execution of test",
      "FAIL\texample.com/gorace/counter\t0.025s",
    ],
  },
  {
    name:
      "cargo build: a source line of another file with the same number and text stays in its frame",
    command: "cargo build",
    exit: 101,
    input: [
      "error[E0308]: mismatched types",
      " --> src/a.rs:3:5",
      "  |",
      "2 | fn a() -> u32 {",
      "  |           --- expected `u32` because of return type",
      '3 |     "x"',
      "  |     ^^^ expected `u32`, found `&str`",
      "",
      "error[E0308]: mismatched types",
      " --> src/b.rs:3:5",
      "  |",
      "2 | fn a() -> u32 {",
      "  |           --- expected `u32` because of return type",
      '3 |     "x"',
      "  |     ^^^ expected `u32`, found `&str`",
      "",
      'error: could not compile `app` (bin "app") due to 2 previous errors',
    ],
    output: [
      "error[E0308]: mismatched types",
      " --> src/a.rs:3:5",
      "2 | fn a() -> u32 {",
      "  |           --- expected `u32` because of return type",
      '3 |     "x"',
      "  |     ^^^ expected `u32`, found `&str`",
      "",
      "error[E0308]: mismatched types",
      " --> src/b.rs:3:5",
      "2 | fn a() -> u32 {",
      "  |           --- expected `u32` because of return type",
      '3 |     "x"',
      "  |     ^^^ expected `u32`, found `&str`",
      "",
      'error: could not compile `app` (bin "app") due to 2 previous errors',
    ],
  },
  {
    name: "cargo run: the program's own table rows stay as printed, repeated or not",
    command: "cargo run",
    input: [
      "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.41s",
      "     Running `target/debug/tally`",
      "before:",
      "  1 | apples  | 3",
      "  2 | pears   | 0",
      "after:",
      "  1 | apples  | 3",
      "  2 | pears   | 5",
    ],
    output: [
      "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.41s",
      "     Running `target/debug/tally`",
      "before:",
      "  1 | apples  | 3",
      "  2 | pears   | 0",
      "after:",
      "  1 | apples  | 3",
      "  2 | pears   | 5",
    ],
  },
  {
    name: "cargo run: after a warning's frame, the program's rows after Running are its own",
    command: "cargo run",
    input: [
      "warning: unused variable: `x`",
      " --> src/main.rs:2:9",
      "  |",
      "2 |     let x = 1;",
      "  |         ^ help: if this is intentional, prefix it with an underscore: `_x`",
      "  |",
      "  = note: `#[warn(unused_variables)]` on by default",
      "",
      'warning: `tally` (bin "tally") generated 1 warning',
      "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.41s",
      "     Running `target/debug/tally`",
      "2 |     let x = 1;",
      "before:",
      "  1 | apples  | 3",
      "after:",
      "  1 | apples  | 3",
    ],
    output: [
      "warning: unused variable: `x`  [unused_variables]",
      " --> src/main.rs:2:9",
      'warning: `tally` (bin "tally") generated 1 warning',
      "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.41s",
      "     Running `target/debug/tally`",
      "2 |     let x = 1;",
      "before:",
      "  1 | apples  | 3",
      "after:",
      "  1 | apples  | 3",
    ],
  },
  {
    name:
      "ruff check: a fix's diff loses the lines its frame already shows; the removed line's help and added lines stay",
    command: "ruff check inv",
    exit: 1,
    input: [
      "F401 [*] `nosuchmod_b` imported but unused",
      " --> inv/extra.py:2:8",
      "  |",
      "1 | import nosuchmod_a",
      "2 | import nosuchmod_b",
      "  |        ^^^^^^^^^^^",
      "3 | from nosuchmod_c import thing",
      "  |",
      "help: Remove unused import: `nosuchmod_b`",
      "  |",
      "1 | import nosuchmod_a",
      "  - import nosuchmod_b",
      "2 | from nosuchmod_c import thing",
      "  |",
      "",
      "UP045 [*] Use `X | None` for type annotations",
      "  --> inv/models.py:22:14",
      "   |",
      "20 |             return i",
      "21 |",
      "22 | def label(i: Optional[Item]) -> str:",
      "   |              ^^^^^^^^^^^^^^",
      "23 |     return i.sku.upper()",
      "   |",
      "help: Convert to `X | None`",
      "   |",
      "21 |",
      "   - def label(i: Optional[Item]) -> str:",
      "22 + def label(i: Item | None) -> str:",
      "23 |     return i.sku.upper()",
      "   |",
      "",
      "Found 2 errors.",
    ],
    output: [
      "F401 [*] `nosuchmod_b` imported but unused",
      " --> inv/extra.py:2:8",
      "1 | import nosuchmod_a",
      "2 | import nosuchmod_b",
      "  |        ^^^^^^^^^^^",
      "3 | from nosuchmod_c import thing",
      "help: Remove unused import: `nosuchmod_b`",
      // Renumbered below the removed line: not the frame's line 2.
      "2 | from nosuchmod_c import thing",
      "UP045 [*] Use `X | None` for type annotations",
      "  --> inv/models.py:22:14",
      // An empty source line shows nothing, in the frame or in the diff: it goes.
      "20 |             return i",
      "22 | def label(i: Optional[Item]) -> str:",
      "   |              ^^^^^^^^^^^^^^",
      "23 |     return i.sku.upper()",
      "help: Convert to `X | None`",
      "22 + def label(i: Item | None) -> str:",
      "Found 2 errors.",
    ],
  },
];

for (const c of CASES) {
  Deno.test(c.name, () => {
    const failed = (c.exit ?? 0) !== 0;
    const out = engine.filter(c.command, c.input.join("\n"), { failed });
    expect(out.text.split("\n")).toEqual(c.output);
  });
}

Deno.test("mvn: a passing build keeps the artifact each module made, as printed", async () => {
  // Real `mvn -o -B package` runs (Maven 3.8, Debian's repository): a two-module reactor and a
  // single module with passing JUnit 4 tests.
  const dir = new URL("../fixtures/filters/maven/", import.meta.url);
  const command = "mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo package";
  for (
    const [file, jars] of [["package_multi_module.in.txt", 2], [
      "package_junit4_pass.in.txt",
      1,
    ]] as const
  ) {
    const input = (await Deno.readTextFile(new URL(file, dir))).split("\n");
    const out = engine.filter(command, input.join("\n"), { failed: false }).text.split("\n");
    const built = input.filter((l) => l.startsWith("[INFO] Building jar: "));
    expect(built).toHaveLength(jars);
    expect(out.filter((l) => l.startsWith("[INFO] Building jar: "))).toEqual(built);
    expect(out.at(-1)).toBe("[INFO] BUILD SUCCESS");
    expect(out.some((l) => /Total time|Compiling \d+ source/.test(l))).toBe(false);
  }
});

Deno.test("gradle --info: the lifecycle log and passing rows of parameterised tests go; failures, counts and the verdict stay", async () => {
  // Real Debian gradle 4.4 runs with --info of a JUnit 4 parameterised test (`parses[3: 3.5 N
  // deg] PASSED`): one failing, then passing with every task re-run or up to date.
  const dir = new URL("../fixtures/filters/gradle/", import.meta.url);
  const read = async (file: string) => (await Deno.readTextFile(new URL(file, dir))).split("\n");
  const failed = await read("test_info_parameterised.in.txt");
  const out = engine.filter("gradle --offline --no-daemon test --info", failed.join("\n"), {
    failed: true,
  }).text.split("\n");
  expect(failed.filter((l) => / PASSED$/.test(l) && l.includes(" deg]"))).toHaveLength(40);
  expect(out.filter((l) => / PASSED$/.test(l))).toEqual([]);
  for (
    const kept of [
      "geo.CoordTest > parses[40: 12.5 s deg] FAILED",
      '    java.lang.NumberFormatException: For input string: "12.5 s"',
      "        at geo.Coord.parse(Coord.java:7)",
      "41 tests completed, 1 failed",
      ":test FAILED",
      "BUILD FAILED in 13s",
    ]
  ) expect(out).toContain(kept);
  const passed = await read("build_info_pass.in.txt");
  expect(
    engine.filter("gradle --offline --no-daemon build --info", passed.join("\n"), {
      failed: false,
    }).text.split("\n"),
  ).toEqual(["BUILD SUCCESSFUL in 17s", "4 actionable tasks: 2 executed, 2 up-to-date"]);
});

Deno.test("cargo -v: each crate's rustc command line goes; a failing crate's error, location, could-not-compile and Caused-by command stay", () => {
  // Real `cargo build --offline -v` runs (cargo 1.9x) of a one-file crate, passing and failing.
  const pass = [
    "   Compiling ringbuf v0.1.0 (/tmp/lead-cv/ringbuf)",
    "     Running `/root/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/rustc --crate-name ringbuf --edition=2024 src/lib.rs --error-format=json --json=diagnostic-rendered-ansi,artifacts,future-incompat --crate-type lib --emit=dep-info,metadata,link -C embed-bitcode=no -C debuginfo=2 --check-cfg 'cfg(docsrs,test)' --check-cfg 'cfg(feature, values())' -C metadata=0625378c0679b035 -C extra-filename=-cfb1ebba4b3a59e8 --out-dir /tmp/lead-cv/ringbuf/target/debug/deps -C incremental=/tmp/lead-cv/ringbuf/target/debug/incremental -L dependency=/tmp/lead-cv/ringbuf/target/debug/deps`",
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.34s",
  ];
  const fail = [
    "       Dirty ringbuf v0.1.0 (/tmp/lead-cv/ringbuf): the file `src/lib.rs` has changed (1795855210.152322639s, 92000006ns after last build at 1795855210.060322633s)",
    "   Compiling ringbuf v0.1.0 (/tmp/lead-cv/ringbuf)",
    "     Running `/root/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/rustc --crate-name ringbuf --edition=2024 src/lib.rs --error-format=json --json=diagnostic-rendered-ansi,artifacts,future-incompat --crate-type lib --emit=dep-info,metadata,link -C embed-bitcode=no -C debuginfo=2 --check-cfg 'cfg(docsrs,test)' --check-cfg 'cfg(feature, values())' -C metadata=0625378c0679b035 -C extra-filename=-cfb1ebba4b3a59e8 --out-dir /tmp/lead-cv/ringbuf/target/debug/deps -C incremental=/tmp/lead-cv/ringbuf/target/debug/incremental -L dependency=/tmp/lead-cv/ringbuf/target/debug/deps`",
    "error[E0308]: mismatched types",
    " --> src/lib.rs:1:21",
    "  |",
    '1 | pub fn f() -> u32 { "x" }',
    "  |               ---   ^^^ expected `u32`, found `&str`",
    "  |               |",
    "  |               expected `u32` because of return type",
    "",
    "For more information about this error, try `rustc --explain E0308`.",
    "error: could not compile `ringbuf` (lib) due to 1 previous error",
    "",
    "Caused by:",
    "  process didn't exit successfully: `/root/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/rustc --crate-name ringbuf --edition=2024 src/lib.rs --error-format=json --json=diagnostic-rendered-ansi,artifacts,future-incompat --crate-type lib --emit=dep-info,metadata,link -C embed-bitcode=no -C debuginfo=2 --check-cfg 'cfg(docsrs,test)' --check-cfg 'cfg(feature, values())' -C metadata=0625378c0679b035 -C extra-filename=-cfb1ebba4b3a59e8 --out-dir /tmp/lead-cv/ringbuf/target/debug/deps -C incremental=/tmp/lead-cv/ringbuf/target/debug/incremental -L dependency=/tmp/lead-cv/ringbuf/target/debug/deps` (exit status: 1)",
  ];
  const passed = engine.filter("cargo build --offline -v", pass.join("\n"), { failed: false });
  expect(passed.text.split("\n").filter((l) => l.includes("--crate-name"))).toEqual([]);
  expect(passed.text).toContain(pass[2]);
  const failed = engine.filter("cargo build --offline -v", fail.join("\n"), { failed: true });
  const kept = failed.text.split("\n");
  for (const line of fail.filter((l) => /^error|-->|Caused by:|process didn't exit/.test(l))) {
    expect(kept).toContain(line);
  }
  expect(kept.filter((l) => l.trimStart().startsWith("Running `"))).toEqual([]);
  // The same build before a test run: its rustc line goes there too.
  const both = engine.filter(
    "cargo build -v && cargo test -q",
    [
      ...pass,
      "",
      "running 0 tests",
      "",
      "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s",
    ].join("\n"),
    { failed: false },
  );
  expect(both.text).not.toContain("--crate-name");
});

/** `git log` of `n` commits, one author, the same day, each with a one-line body. */
function gitLog(n: number): string {
  const lines: string[] = [];
  for (let i = n; i >= 1; i--) {
    const hash = i.toString(16).padStart(8, "0").repeat(5);
    lines.push(`commit ${hash}`, "Author: Ann Dev <ann@example.com>");
    lines.push(`Date:   Tue Mar 10 10:${String(i).padStart(2, "0")}:00 2026 +0000`, "");
    lines.push(`    feat: step ${i}`, "", `    Body of step ${i}.`, "");
  }
  return lines.join("\n");
}

Deno.test("git log: every commit's hash and subject stay as printed; bodies of the newest 10 only", () => {
  const out = engine.filter("git log", gitLog(12)).text.split("\n");
  expect(out.slice(0, 5)).toEqual([
    "commit 0000000c0000000c0000000c0000000c0000000c",
    "Author: Ann Dev <ann@example.com>",
    "Date:   Tue Mar 10 10:12:00 2026 +0000",
    "    feat: step 12",
    "    Body of step 12.",
  ]);
  // The same day and author: the commit line and its message alone.
  expect(out.slice(5, 8)).toEqual([
    "commit 0000000b0000000b0000000b0000000b0000000b",
    "    feat: step 11",
    "    Body of step 11.",
  ]);
  for (let i = 1; i <= 12; i++) expect(out).toContain(`    feat: step ${i}`);
  for (let i = 3; i <= 12; i++) expect(out).toContain(`    Body of step ${i}.`);
  expect(out).not.toContain("    Body of step 2.");
  expect(out.at(-1)).toBe("(message bodies of 2 older commits not shown)");
});

Deno.test("git log: a new day shows its Date line", () => {
  const log = gitLog(2).replace("Tue Mar 10 10:01:00", "Mon Mar  9 18:01:00");
  const out = engine.filter("git log", log).text.split("\n");
  expect(out.filter((l) => /^(commit|Date:)/.test(l))).toEqual([
    "commit 0000000200000002000000020000000200000002",
    "Date:   Tue Mar 10 10:02:00 2026 +0000",
    "commit 0000000100000001000000010000000100000001",
    "Date:   Mon Mar  9 18:01:00 2026 +0000",
  ]);
});

Deno.test("rules run for their own commands: bundle exec is not an install, cargo install compiles", () => {
  const table: [string, string[]][] = [
    ["bundle", ["bundle-install"]],
    ["bundle install --local", ["bundle-install"]],
    ["bundle --jobs 4", ["bundle-install"]],
    ["bundle exec rspec", ["rspec-pending", "rspec"]],
    ["bundle exec rubocop lib", ["rubocop"]],
    ["bundle exec rake test", ["minitest"]],
    ["cargo install --path .", [
      "cargo-install",
      "cargo-build",
      "cargo-build-tidy",
    ]],
    ["ps aux", ["ps"]],
    ["df -h", ["system-tables"]],
    ["git fetch --all --prune", ["git-fetch-pull", "git-transfer"]],
  ];
  const matched = table.map(([command]) => {
    const out = engine.filter(command, "x\ny\nz", { failed: false });
    return [command, out.rules] as [string, string[]];
  });
  expect(matched).toEqual(table);
});

Deno.test("ps aux rows and header stay as printed, kernel threads go counted; ps -ef rows stay", () => {
  const rows = [
    "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND",
    "root           3  2.8  0.0  25684 18728 ?        R    14:14   0:00 /usr/bin/python3 -m http.server 8765",
    "root           4  0.0  0.0      0     0 ?        I<   06:02   0:00 [kworker/R-rcu_gp]",
    "app          412 101  12.5 728236 40288 pts/0    Sl+  Nov25  12:03 node server.js --port 3000",
    "root          27  0.0  0.0      0     0 ?        S    06:02   0:00 [ksoftirqd/0]",
    "app          413  0.0  0.0      0     0 ?        Z    06:02   0:00 [node] <defunct>",
  ];
  expect(engine.filter("ps aux", rows.join("\n")).text.split("\n")).toEqual([
    rows[0],
    rows[1],
    rows[3],
    // A zombie has no memory either, but its command is not only the bracketed name: it stays.
    rows[5],
    "(2 kernel threads not shown)",
  ]);
  const ef =
    "UID          PID    PPID  C STIME TTY          TIME CMD\nroot           1       0  0 14:05 ?        00:00:00 bash";
  expect(engine.filter("ps -ef", ef).text).toBe(ef);
});

Deno.test("cargo run -q: the program's output after a warning is its own, not the warning's", async () => {
  // A real `cargo run -q`: no Finished or Running line between rustc's warning (ended by its
  // blank line) and the program's table, printed twice with `again:` between.
  const input = await Deno.readTextFile(
    new URL("../fixtures/filters/cargo-build/run_quiet_table.in.txt", import.meta.url),
  );
  const out = engine.filter("cargo run -q", input, { failed: false }).text.split("\n");
  expect(out.slice(0, 2)).toEqual([
    "warning: unused variable: `unused`  [unused_variables]",
    " --> src/main.rs:8:9",
  ]);
  for (const line of ["  1 | apples", "  2 | pears", "  3 | total", "again:"]) {
    expect({ line, kept: out.includes(line) }).toEqual({ line, kept: true });
  }
});

Deno.test("flake8 groups findings by code with every location; its syntax error, statistics and count stay", async () => {
  const text = await Deno.readTextFile(
    new URL("../../bench/corpus/python/flake8_statistics.txt", import.meta.url),
  );
  const command = "flake8 --max-complexity 8 --statistics --count inventory";
  const result = engine.filter(command, text, { failed: true });
  expect(result.stats.rules).toEqual(["flake8"]);
  const input = text.trimEnd().split("\n");
  const out = result.text.split("\n");
  expect(out.length).toBeLessThan(input.length * 0.7);
  const findings = input.filter((line) => /^\S+:\d+:\d+: [A-Z]\d+ /.test(line));
  const rest = input.filter((line) => !findings.includes(line));
  // Every line that is no finding (statistics, the count) stays as printed.
  expect(rest.filter((line) => !out.includes(line))).toEqual([]);
  // Each code's first finding stays whole, every other finding by its location.
  const shown = out.join("\n");
  for (const line of findings) {
    const [location, code] = line.split(/: | /);
    const first = findings.find((f) => f.includes(`: ${code} `));
    expect(first === line ? out.includes(`  ${line}`) || out.includes(line) : true).toBe(true);
    expect(shown.includes(location)).toBe(true);
  }
  expect(out).toContain("inventory/syntax.py:1:13: E999 SyntaxError: invalid syntax");
});

Deno.test("tsc --explainFiles: lib files grouped by directory, the project's files with their reasons, every diagnostic", async () => {
  const text = await Deno.readTextFile(
    new URL("../../bench/corpus/node/tsc_explain_files.txt", import.meta.url),
  );
  const result = engine.filter("npx tsc -p . --explainFiles", text, { failed: true });
  expect(result.stats.rules).toContain("tsc-files");
  const input = text.trimEnd().split("\n");
  const shown = result.text;
  expect(result.text.split("\n").length).toBeLessThan(input.length / 3);
  // Every diagnostic's location and message, and each of the project's files, stay.
  for (const line of input.filter((l) => / error TS\d+: /.test(l) || l.startsWith("src/"))) {
    expect({ line, kept: shown.includes(line) }).toEqual({ line, kept: true });
  }
  expect(shown).toContain("\n  Matched by include pattern 'src' in 'tsconfig.json'\n");
  expect(shown).toContain(
    "node_modules/typescript/lib/lib.es2022.full.d.ts\n  Default library for target 'es2022'\n",
  );
  // One line for the lib directory, its reasons (each naming a file under node_modules) counted.
  expect(shown.match(/^node_modules\/typescript\/lib\/lib\.[^\n]*, … \(\+\d+ more\)$/gm)?.length)
    .toBe(1);
  expect(shown).not.toContain("Library referenced via");
  expect(shown).toMatch(/… \(\+\d+ lines about grouped paths not shown\)/);
});

Deno.test("tsc --listEmittedFiles: TSFILE lines grouped by directory, the diagnostics as printed", () => {
  const input = [
    "src/a.ts(2,14): error TS2322: Type 'string' is not assignable to type 'number'.",
    ...Array.from({ length: 60 }, (_, i) => `TSFILE: /p/dist/m${i}.js`),
    ...Array.from({ length: 12 }, (_, i) => `TSFILE: /p/dist/lib/w${i}.js`),
  ];
  const out = engine.filter("npx tsc --listEmittedFiles", input.join("\n"), { failed: true }).text
    .split("\n");
  expect(out).toContain(input[0]);
  expect(out).toContain(
    "TSFILE: /p/dist/m0.js, m1.js, m2.js, m3.js, m4.js, m5.js, m6.js, m7.js, m8.js, … (+51 more)",
  );
  expect(out).toContain(
    "TSFILE: /p/dist/lib/w0.js, w1.js, w2.js, w3.js, w4.js, w5.js, w6.js, w7.js, w8.js, … (+3 more)",
  );
  expect(out.length).toBeLessThan(10);
});

Deno.test("archive listings (unzip -l, unzip -v, zipinfo) group their rows by directory; header, totals and messages stay", async () => {
  const text = await Deno.readTextFile(
    new URL("../../bench/corpus/files/unzip_list.txt", import.meta.url),
  );
  const input = text.trimEnd().split("\n");
  const out = engine.filter("unzip -l ts-lib.zip", text, { failed: false }).text.split("\n");
  expect(out.length).toBeLessThan(input.length / 4);
  // Every line that is no entry row stays as printed, and each directory's first row whole.
  for (const line of input.filter((l) => !/ \d\d:\d\d {3}\S/.test(l))) expect(out).toContain(line);
  expect(out).toContain(
    "   295909  2026-11-27 22:17   node_modules/typescript/lib/zh-cn/diagnosticMessages.generated.json",
  );
  // unzip -v's and zipinfo's rows, with a message among them.
  const rows = (row: (i: number) => string) => Array.from({ length: 50 }, (_, i) => row(i));
  const verbose = [
    "Archive:  a.zip",
    " Length   Method    Size  Cmpr    Date    Time   CRC-32   Name",
    "--------  ------  ------- ---- ---------- ----- --------  ----",
    ...rows((i) =>
      `    ${1000 + i}  Defl:N      ${500 + i}  50% 2026-11-27 22:13 0badc0de  lib/f${i}.js`
    ),
    "--------          -------  ---                            -------",
    "   51225            25725  50%                            50 files",
  ];
  const v = engine.filter("unzip -v a.zip", verbose.join("\n"), { failed: false }).text.split("\n");
  expect(v).toEqual([
    "(50 paths grouped by directory: names after the first path are in its directory)",
    ...verbose.slice(0, 3),
    `${verbose[3]}, f1.js, f2.js, f3.js, f4.js, f5.js, f6.js, f7.js, f8.js, … (+41 more)`,
    ...verbose.slice(-2),
  ]);
  const zipinfo = [
    "Archive:  a.zip",
    "Zip file size: 9000 bytes, number of entries: 50",
    ...rows((i) => `-rw-r--r--  3.0 unx     ${1000 + i} tx defN 26-Nov-27 22:13 lib/f${i}.js`),
    "error:  expected central file header signature not found (file #51).",
    "50 files, 51225 bytes uncompressed, 25725 bytes compressed:  49.8%",
  ];
  const z = engine.filter("zipinfo a.zip", zipinfo.join("\n"), { failed: true }).text.split("\n");
  expect(z.length).toBe(6);
  for (const line of [...zipinfo.slice(0, 3), ...zipinfo.slice(-2)]) {
    expect(z.some((l) => l.startsWith(line))).toBe(true);
  }
});

Deno.test("python -m cProfile: the program's output, the header and the top 30 rows stay; the tail is counted", async () => {
  const text = await Deno.readTextFile(
    new URL("../../bench/corpus/python/cprofile_cumulative.txt", import.meta.url),
  );
  const input = text.trimEnd().split("\n");
  const result = engine.filter("python3 -m cProfile -s cumulative work.py", text, {
    failed: false,
  });
  expect(result.stats.rules).toEqual(["python-profile"]);
  const out = result.text.split("\n");
  const rows = input.filter((l) => /^\s*\d+(\/\d+)?(\s+\d+\.\d{3}){4} \S/.test(l));
  expect(out).toEqual([
    ...input.slice(0, input.indexOf(rows[0])).filter((l) => l.trim() !== ""),
    ...rows.slice(0, 30),
    `… ${rows.length - 30} more rows of the profile (the smallest by its sort key)`,
  ]);
  // A crash under the profiler (no table) passes as printed.
  const crash = [
    "Traceback (most recent call last):",
    '  File "work.py", line 3, in <module>',
    "ZeroDivisionError: division by zero",
  ];
  expect(engine.filter("python -m cProfile work.py", crash.join("\n"), { failed: true }).text)
    .toBe(crash.join("\n"));
});

Deno.test("python -m cProfile -s name: a table in name order keeps every row that took time (the top rows are no top)", async () => {
  // Captured with `python3 -m cProfile -s name prof.py` (3.11): the hot function sorts last.
  const text = await Deno.readTextFile(
    new URL("../fixtures/filters/python-profile-by-name/cprofile_by_name.in.txt", import.meta.url),
  );
  const out = engine.filter("python3 -m cProfile -s name prof.py", text, { failed: false }).text;
  expect(out).toContain("        1    0.029    0.029    0.029    0.029 prof2.py:2(zzz_hot)");
  expect(out).not.toContain("the smallest by its sort key");
  const timed = text.split("\n").filter((l) =>
    /^\s*\d+(\/\d+)?(\s+\d+\.\d{3}){4} \S/.test(l) && !/(\s+0\.000){4} /.test(l)
  );
  for (const row of timed) expect(out).toContain(row);
  expect(out.split("\n").length).toBeLessThan(text.split("\n").length / 2);
});

Deno.test("tsc --listFiles: node_modules files grouped by directory, the project's own files whole", () => {
  const lib = Array.from(
    { length: 60 },
    (_, i) => `/p/node_modules/typescript/lib/lib.es${i}.d.ts`,
  );
  const own = Array.from({ length: 12 }, (_, i) => `/p/src/m${i}.ts`);
  // Many errors before the list: the project's files stay whole all the same.
  const errors = Array.from(
    { length: 150 },
    (_, i) =>
      `src/m1.ts(${i + 1},14): error TS2322: Type 'string' is not assignable to type 'number'.`,
  );
  const input = [...errors, ...lib, ...own];
  const out = engine.filter("npx tsc --listFiles", input.join("\n"), { failed: true }).text.split(
    "\n",
  );
  for (const line of own) expect(out).toContain(line);
  expect(out.join("\n")).toContain(errors[149]);
  expect(out.filter((l) => l.includes("node_modules")).length).toBe(1);
  expect(out.length).toBeLessThan(200);
});
