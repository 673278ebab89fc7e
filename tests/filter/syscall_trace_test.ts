/**
 * The strace rule (syscall_trace strategy) and the generic fold of Node's echo of its own source
 * (issue 22): what folds — each process's loader and libc start-up, opens of shared objects and
 * locale files with the calls on their descriptors — and, above all, what must stay: every
 * execve (a missing binary's too), the program's own calls and failures after its start-up, a
 * library that never loaded, split `-f` calls, and the user's own source echo in a Node crash.
 * The trace lines are excerpts of real strace 6.1 runs on Debian 12.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { compileRule, loadFilterEngine } from "../../src/filter/mod.ts";
import { dropRuntimeEcho } from "../../src/filter/generic_folds.ts";
import { threadCpuMs } from "../_support/timing.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const filter = (command: string, lines: string[], failed = true) =>
  engine.filter(command, lines.join("\n"), { failed });

const FOLD = /^(\[pid +\d+\] )?… (\d+) start-up syscalls \(loader, libc, locale\) folded …$/;

/** A real start-up of a small C program (after its execve), as strace prints it. */
const STARTUP = [
  "brk(NULL)                               = 0x55b2776c4000",
  "mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f4a73ea6000",
  'access("/etc/ld.so.preload", R_OK)      = -1 ENOENT (No such file or directory)',
  'openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3',
  'newfstatat(3, "", {st_mode=S_IFREG|0644, st_size=37403, ...}, AT_EMPTY_PATH) = 0',
  "mmap(NULL, 37403, PROT_READ, MAP_PRIVATE, 3, 0) = 0x7f4a73e9c000",
  "close(3)                                = 0",
  'openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libc.so.6", O_RDONLY|O_CLOEXEC) = 3',
  'read(3, "\\177ELF\\2\\1\\1\\3\\0\\0\\0\\0\\0\\0\\0\\0\\3\\0>\\0\\1\\0\\0\\0\\20t\\2\\0\\0\\0\\0\\0"..., 832) = 832',
  "mmap(NULL, 1974096, PROT_READ, MAP_PRIVATE|MAP_DENYWRITE, 3, 0) = 0x7f4a73cba000",
  "close(3)                                = 0",
  "arch_prctl(ARCH_SET_FS, 0x7f4a73cb7740) = 0",
  "set_tid_address(0x7f4a73cb7a10)         = 1846",
  "set_robust_list(0x7f4a73cb7a20, 24)     = 0",
  "rseq(0x7f4a73cb8060, 0x20, 0, 0x53053053) = 0",
  "mprotect(0x7f4a73e89000, 16384, PROT_READ) = 0",
  "prlimit64(0, RLIMIT_STACK, NULL, {rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}) = 0",
  "munmap(0x7f4a73e9c000, 37403)           = 0",
  'getrandom("\\x3f\\x4b\\x2c\\xcf\\x5b\\x71\\x61\\x40", 8, GRND_NONBLOCK) = 8',
  "brk(NULL)                               = 0x55b2776c4000",
];

Deno.test("strace: a program's start-up folds into one count; its own failing open, its message and its exit stay", () => {
  const work = [
    'openat(AT_FDCWD, "etc/app.conf", O_RDONLY) = -1 ENOENT (No such file or directory)',
    'write(2, "app: cannot open config etc/app."..., 64app: cannot open config etc/app.conf: No such file or directory',
    ")                        = 64",
    "exit_group(1)                           = ?",
    "+++ exited with 1 +++",
  ];
  const exec = 'execve("./app", ["./app", "config"], 0x7ffd12a079d8 /* 39 vars */) = 0';
  const out = filter("strace ./app config", [exec, ...STARTUP, ...work]);
  expect(out.rules).toEqual(["strace"]);
  expect(out.text.split("\n")).toEqual([
    exec,
    `… ${STARTUP.length} start-up syscalls (loader, libc, locale) folded …`,
    ...work,
  ]);
});

Deno.test("strace: the start-up ends at the program's first call of its own; later memory calls stay", () => {
  const exec = 'execve("./app", ["./app", "net"], 0x7ffd15a76028 /* 39 vars */) = 0';
  const work = [
    "socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 3",
    "mmap(NULL, 1048576, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f848c065000",
    'connect(3, {sa_family=AF_INET, sin_port=htons(39917), sin_addr=inet_addr("127.0.0.1")}, 16) = -1 ECONNREFUSED (Connection refused)',
    "+++ exited with 3 +++",
  ];
  const lines = filter("strace -e trace=all ./app net", [exec, ...STARTUP, ...work]).text
    .split("\n");
  expect(lines.slice(2)).toEqual(work);
  // With nothing to fold (`-e trace=network`), the trace passes as it came.
  const network = [
    "socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 3",
    work[2],
    "app: connect 127.0.0.1:39917: Connection refused",
    "+++ exited with 3 +++",
  ];
  expect(filter("strace -e trace=network ./app net", network).text).toBe(network.join("\n"));
});

Deno.test("strace: failed opens of a library that never loaded stay; the probes of one that loaded fold", () => {
  const exec = 'execve("./usegreet", ["./usegreet"], 0x7ffe1cfda9c0 /* 39 vars */) = 0';
  const missing = [
    'openat(AT_FDCWD, "/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3/libgreet.so.1", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)',
    'openat(AT_FDCWD, "/usr/lib/libgreet.so.1", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)',
  ];
  const probes = [
    'openat(AT_FDCWD, "/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3/libc.so.6", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)',
    'newfstatat(AT_FDCWD, "/lib/x86_64-linux-gnu/glibc-hwcaps/x86-64-v3", 0x7fff670b3320, 0) = -1 ENOENT (No such file or directory)',
    'openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libc.so.6", O_RDONLY|O_CLOEXEC) = 3',
    "close(3)                                = 0",
  ];
  const end = [
    'writev(2, [{iov_base="./usegreet", iov_len=10}, {iov_base=": ", iov_len=2}], 10./usegreet: error while loading shared libraries: libgreet.so.1: cannot open shared object file: No such file or directory',
    ") = 123",
    "exit_group(127)                         = ?",
    "+++ exited with 127 +++",
  ];
  const out = filter("strace ./usegreet", [
    exec,
    ...probes,
    missing[0],
    ...missing.slice(1),
    ...end,
  ])
    .text.split("\n");
  expect(out[1]).toMatch(FOLD);
  expect(out.slice(2)).toEqual([...missing, ...end]);
});

Deno.test("strace: an exec of a missing binary stays, every path tried", () => {
  const execs = [
    'execve("/usr/local/bin/nosuchtool", ["nosuchtool", "--version"], 0x7ffd0c4bb1f8 /* 39 vars */) = -1 ENOENT (No such file or directory)',
    'execve("/usr/bin/nosuchtool", ["nosuchtool", "--version"], 0x7ffd0c4bb1f8 /* 39 vars */) = -1 ENOENT (No such file or directory)',
  ];
  const exec =
    'execve("/usr/bin/env", ["env", "nosuchtool", "--version"], 0x7ffed287c1b8 /* 39 vars */) = 0';
  const out = filter("strace -f env nosuchtool --version", [
    exec,
    ...STARTUP,
    ...execs,
    'openat(AT_FDCWD, "/usr/share/locale/C.UTF-8/LC_MESSAGES/coreutils.mo", O_RDONLY) = -1 ENOENT (No such file or directory)',
    "+++ exited with 127 +++",
  ]).text.split("\n");
  // The locale probe after the failed execs is the C library's: it folds with the start-up.
  expect(out).toEqual([
    exec,
    `… ${STARTUP.length + 1} start-up syscalls (loader, libc, locale) folded …`,
    ...execs,
    "+++ exited with 127 +++",
  ]);
});

Deno.test("strace -f: split calls fold or stay whole; each child's start-up is counted under its pid", () => {
  const lines = [
    'execve("./build.sh", ["./build.sh"], 0x7ffeeadcba68 /* 39 vars */) = 0',
    "brk(NULL)                               = 0x55ea11cf3000",
    "vfork(strace: Process 2046 attached",
    " <unfinished ...>",
    '[pid  2046] execve("/usr/bin/ls", ["ls", "app.conf"], 0x555dd6579bb8 /* 39 vars */ <unfinished ...>',
    "[pid  2045] <... vfork resumed>)        = 2046",
    "[pid  2045] wait4(-1,  <unfinished ...>",
    "[pid  2046] <... execve resumed>)       = 0",
    "[pid  2046] brk(NULL)                   = 0x56554a75d000",
    '[pid  2046] openat(AT_FDCWD, "/lib/x86_64-linux-gnu/libc.so.6", O_RDONLY|O_CLOEXEC <unfinished ...>',
    "[pid  2046] <... openat resumed>)       = 3",
    "[pid  2046] close(3 <unfinished ...>",
    "[pid  2046] <... close resumed>)        = 0",
    "[pid  2046] rseq(0x7f813285a120, 0x20, 0, 0x53053053) = 0",
    '[pid  2046] statx(AT_FDCWD, "app.conf", AT_STATX_SYNC_AS_STAT|AT_NO_AUTOMOUNT, STATX_MODE, {stx_mask=STATX_TYPE, stx_mode=S_IFREG|0644, stx_size=20, ...}) = 0',
    "[pid  2046] close(3 <unfinished ...>",
    "[pid  2046] <... close resumed>)        = -1 EBADF (Bad file descriptor)",
    "[pid  2046] +++ exited with 0 +++",
    "<... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 2046",
    "+++ exited with 0 +++",
  ];
  const out = filter("strace -f ./build.sh", lines, false).text.split("\n");
  expect(out).toEqual([
    lines[0],
    lines[1],
    ...lines.slice(2, 8),
    "[pid  2046] … 4 start-up syscalls (loader, libc, locale) folded …",
    ...lines.slice(14),
  ]);
});

Deno.test("strace -y and -tt -T: descriptors with their paths and times around the call", () => {
  const exec =
    '05:00:17.401632 execve("./app", ["./app", "perm"], 0x7ffd49795050 /* 39 vars */) = 0 <0.000167>';
  const startup = [
    '05:00:17.401700 openat(AT_FDCWD</tmp/s>, "/lib/x86_64-linux-gnu/libc.so.6", O_RDONLY|O_CLOEXEC) = 3</usr/lib/x86_64-linux-gnu/libc.so.6> <0.000010>',
    '05:00:17.401720 read(3</usr/lib/x86_64-linux-gnu/libc.so.6>, "\\177ELF\\2\\1\\1\\3\\0\\0\\0"..., 832) = 832 <0.000006>',
    "05:00:17.401740 mmap(NULL, 1974096, PROT_READ, MAP_PRIVATE|MAP_DENYWRITE, 3</usr/lib/x86_64-linux-gnu/libc.so.6>, 0) = 0x7f36ac5a1000 <0.000009>",
    "05:00:17.401760 close(3</usr/lib/x86_64-linux-gnu/libc.so.6>) = 0 <0.000005>",
    "05:00:17.401780 arch_prctl(ARCH_SET_FS, 0x7f36ac59e740) = 0 <0.000005>",
  ];
  const work = [
    '05:00:17.402000 openat(AT_FDCWD</tmp/s>, "secret.txt", O_RDONLY) = -1 EACCES (Permission denied) <0.000010>',
    "05:00:17.402100 close(3</dev/pts/0>) = 0 <0.000005>",
    "05:00:17.402200 +++ exited with 1 +++",
  ];
  const out = filter("strace -f -y -tt -T ./app perm", [exec, ...startup, ...work]).text;
  expect(out.split("\n")).toEqual([
    exec,
    "… 5 start-up syscalls (loader, libc, locale) folded …",
    ...work,
  ]);
});

Deno.test("syscall_trace: a fold of one call is the call as printed; bad patterns are refused by name", () => {
  const rule = compileRule({
    name: "t",
    match: { prefix: "strace" },
    strategy: { type: "syscall_trace", startup: ["^brk\\("] },
  }, "test");
  const stage = rule.strategy.createStage({ emit: (l: string) => out.push(l), failed: false });
  const out: string[] = [];
  for (
    const l of [
      'execve("./a", ["./a"], 0x1 /* 1 vars */) = 0',
      "brk(NULL) = 0x1",
      "+++ exited with 0 +++",
    ]
  ) stage.push(l);
  expect(stage.finish()).toBe("full");
  expect(out).toEqual([
    'execve("./a", ["./a"], 0x1 /* 1 vars */) = 0',
    "brk(NULL) = 0x1",
    "+++ exited with 0 +++",
  ]);
  expect(() =>
    compileRule({
      name: "t",
      match: { prefix: "strace" },
      strategy: { type: "syscall_trace", startup: ["^brk\\("], startup_files: ["("] },
    }, "test")
  ).toThrow(/strategy\.startup_files\[0\]/);
});

Deno.test("node crash: the echo of Node's own source goes, the user's file's echo stays, with or without a rule", () => {
  const internal = [
    "node:fs:448",
    "    return binding.readFileUtf8(path, stringToFlags(options.flag));",
    "                   ^",
    "",
    "Error: ENOENT: no such file or directory, open './templates/index.html'",
    "    at Object.readFileSync (node:fs:448:20)",
    "    at loadTemplates (/tmp/zeph-corpus/nodecrash/server.js:5:20)",
  ];
  expect(dropRuntimeEcho(internal)).toEqual(internal.slice(4));
  const runMain = [
    "invoice lines: 3",
    "node:internal/modules/run_main:123",
    "    triggerUncaughtException(",
    "    ^",
    "",
    "AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:",
  ];
  expect(dropRuntimeEcho(runMain)).toEqual([runMain[0], runMain[5]]);
  const user = [
    "/tmp/zeph-corpus/nodecrash/migrate.js:6",
    "    throw new RangeError(`backfill totals: order 1042 has a negative total (-12.50)`);",
    "    ^",
    "",
    "RangeError: backfill totals: order 1042 has a negative total (-12.50)",
    "    at apply (/tmp/zeph-corpus/nodecrash/migrate.js:6:11)",
  ];
  expect(dropRuntimeEcho(user)).toEqual(user);
  const esm = ["file:///tmp/app/a.mjs:3", "  JSON.parse(text);", "       ^", "", "SyntaxError: x"];
  expect(dropRuntimeEcho(esm)).toEqual(esm);
  // Through the engine: no rule for `node server.js`, and the npm-run rule before the generic
  // folds.
  for (const command of ["node server.js", "npm run start"]) {
    const text = filter(command, internal).text;
    expect(text).not.toContain("binding.readFileUtf8");
    expect(text).toContain(
      "Error: ENOENT: no such file or directory, open './templates/index.html'",
    );
    expect(text).toContain("server.js:5:20");
    expect(filter(command, user).text).toContain(user[1]);
  }
});

Deno.test("node crash: under JSON.parse (no file), the dependency's frame that called it stays", () => {
  const lines = [
    "SyntaxError: Expected double-quoted property name in JSON at position 34",
    "    at JSON.parse (<anonymous>)",
    "    at readLayer (/tmp/zeph-corpus/nodecrash/node_modules/confy/index.js:7:15)",
    "    at /tmp/zeph-corpus/nodecrash/node_modules/confy/index.js:11:57",
    "    at Array.reduce (<anonymous>)",
    "    at Object.load (/tmp/zeph-corpus/nodecrash/node_modules/confy/index.js:11:16)",
    "    at Object.<anonymous> (/tmp/zeph-corpus/nodecrash/start.js:7:22)",
    "    at Module._compile (node:internal/modules/cjs/loader:1521:14)",
    "    at Module.load (node:internal/modules/cjs/loader:1266:32)",
  ];
  const text = filter("node start.js", lines).text;
  expect(text.split("\n")).toEqual([
    ...lines.slice(0, 3),
    "    … 3 frames in confy, native folded …",
    lines[6],
    "    … 2 frames in node internals folded …",
  ]);
});

Deno.test("strace -p: a process strace attached to is past its start-up; its memory calls stay", () => {
  const lines = [
    "strace: Process 2573 attached",
    "brk(0x55ea11d14000)                     = 0x55ea11d14000",
    "mmap(NULL, 1048576, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f848c065000",
    'openat(AT_FDCWD, "/var/lib/app/state.db", O_RDWR) = -1 EACCES (Permission denied)',
    'openat(AT_FDCWD, "/usr/lib/x86_64-linux-gnu/libnss_files.so.2", O_RDONLY|O_CLOEXEC) = 3',
    "close(3)                                = 0",
  ];
  // brk is the C library's housekeeping wherever it is (`always`); mmap of memory is the
  // program's own after its start-up; a shared object's open and its descriptor fold.
  expect(filter("strace -p 2573", lines).text.split("\n")).toEqual([
    lines[0],
    "… 3 start-up syscalls (loader, libc, locale) folded …",
    lines[2],
    lines[3],
  ]);
});

Deno.test("strace: adversarial trace lines stay linear (results, quotes, descriptors)", () => {
  const shapes = [" = 1<", '"\\', 'read(3, "', " = -1 E", 'openat(AT_FDCWD, "/a.so', "[pid 1] "];
  for (const shape of shapes) {
    // Lines just under the parser's limit, many of them: a quadratic step per line shows.
    const line = ("openat(" + shape.repeat(8000)).slice(0, 8000);
    const input = Array.from({ length: 400 }, () => line).join("\n");
    const start = threadCpuMs();
    filter("strace -f ./x", [input]);
    expect(threadCpuMs() - start).toBeLessThan(2000);
  }
});

Deno.test("strace -f: a process's one folded call, split, stays whole — its result line too", () => {
  const lines = [
    'execve("./build.sh", ["./build.sh"], 0x7ffeeadcba68 /* 39 vars */) = 0',
    "brk(NULL)                               = 0x55ea11cf3000",
    "getpid()                                = 2045",
    '[pid  2047] openat(AT_FDCWD, "/usr/lib/locale/C.utf8/LC_CTYPE", O_RDONLY|O_CLOEXEC <unfinished ...>',
    "[pid  2045] wait4(-1,  <unfinished ...>",
    "[pid  2047] <... openat resumed>)       = -1 ENOENT (No such file or directory)",
    '[pid  2047] write(2, "no locale\\n", 10) = 10',
    "[pid  2047] +++ exited with 1 +++",
    "<... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 1}], 0, NULL) = 2047",
    "+++ exited with 1 +++",
  ];
  expect(filter("strace -f ./build.sh", lines).text.split("\n")).toEqual(lines);
});
