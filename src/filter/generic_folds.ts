/**
 * Folds the generic pass applies to a whole output before it collapses repeats (generic.ts):
 *
 * - stack traces (Python, JavaScript, Java, Ruby, Go, native ones as gdb and the sanitizers print
 *   them, the native stack Node prints under a fatal error such as running out of heap, whose
 *   frames in Node's own binary are its internals, and CMake's call stacks): runs of frames inside
 *   a runtime, a standard library or installed packages (node_modules, site-packages, gems, the
 *   JDK, GOROOT, the C library, a sanitizer's runtime, shared objects under /lib, CMake's modules)
 *   become one line with their count and libraries (the C runtime's entry frames that end a native
 *   trace below `main` go without one, and so does a sanitizer's interceptor standing in for the
 *   allocation, free or thread creation its stack's heading names); every frame in the user's code
 *   stays, and so does the innermost frame (where the error was raised; in a Java chain of causes
 *   only the root cause's, as a wrapper's is where a library wrapped it; CMake's error line names
 *   its own) and every line that is not a frame (the error, `Caused by:` with its message,
 *   Java's `... N more` — one short line saying the rest is the enclosing trace's — and the
 *   messages between chained tracebacks); Python's `^^^^` marks under a frame's source line go, and
 *   so does Node's echo of the line of its own source that threw (`node:fs:448`, the line, its
 *   caret) — the echo of a user's file stays; a crashed installed tool's trace with no frame in
 *   the user's code keeps the tool's frames nearest its call into the library that raised
 *   (`toolCall`);
 * - long listings of paths (tar -v, unzip, dpkg -L, pip show -f), bare or as the last column of
 *   rows of data (`npm notice 1.2kB lib/a.js` of a tarball's contents, `tar -tv`'s mode, owner,
 *   size and date, `du`, `sha256sum`): the biggest directories fold, each to its first and last
 *   entries around a count, until the listing fits a budget; small directories stay whole, every
 *   line that is not a path stays where it was;
 * - long tree drawings (npm ls, tree, cargo tree): the biggest subtrees fold the same way;
 * - runs of data lines (hex dumps of keys and signatures, base64 blocks): the first line stays
 *   with a count of the rest.
 *
 * Each fold is a pure function of the lines; a line is tested only when it is shorter than
 * `MAX_TESTED`, and every pattern here is linear in the line.
 */

import { appendAll, FoldedLines, type LineSink } from "./arrays.ts";
import { FAILURE_SIGNAL } from "./signals.ts";
import { indentOf, isBlank, MAX_TESTED } from "./sanitize.ts";
import { oddLines } from "./generic_outliers.ts";
import { MAX_SHAPED_LINES } from "./generic_shapes.ts";

export { MAX_TESTED };
/** Runs of foldable lines shorter than this stay as they are (`runFolder`). */
const MIN_FOLDED_RUN = 2;

/**
 * Collects runs of foldable lines into `out`: `flush` puts a run of at least `min` lines
 * (MIN_FOLDED_RUN unless given) as its fold line (`fold(count, first line)`) and clears it,
 * unless that line is no shorter than what it replaces (then the run stays as it is).
 */
export function runFolder(
  out: LineSink<string>,
  fold: (count: number, first: string) => string,
  options: { min?: number } = {},
): { add(line: string): void; flush(): void } {
  const min = options.min ?? MIN_FOLDED_RUN;
  let run: string[] = [];
  return {
    add(line: string): void {
      run.push(line);
    },
    flush(): void {
      const line = fold(run.length, run[0] ?? "");
      if (run.length >= min && line.length < run.join("\n").length) out.push(line);
      else appendAll(out, run);
      run = [];
    },
  };
}
/** Library frames folded when a run has at least this many (fewer stay as they are). */
const MIN_FOLDED_FRAMES = 2;
/** Libraries named on a fold line, at most. */
const MAX_NAMED = 3;

type FrameKind = "python" | "at" | "ruby" | "go" | "native" | "runtime" | "cmake";

interface Frame {
  kind: FrameKind;
  /** Index after the frame's last line. */
  end: number;
  /** The library the frame is in, or null for the user's code. */
  library: string | null;
  indent: string;
}

/**
 * A Python frame; its indent holds the `| ` gutter of an exception group's sub-traceback (`  |
 * File …` under `+ Exception Group Traceback`, `    | File …` under `+---- 1 ----`).
 */
const PY_FRAME = /^(\s*(?:\| {0,40})?)File "([^"]{1,1000})", line \d{1,7}(?:, in .{0,500})?$/;
/** A line's indent with an exception group's `| ` gutter in it. */
const PY_INDENT = /^\s*(?:\|\s*)?/;
const AT_FRAME = /^(\s+)at (?:async )?(\S.{0,1500})$/;
const RUBY_FRAME = /^(\s+)from (\S{1,1000}):\d{1,7}:in /;
/**
 * A Ruby frame alone on its line, as rake and `e.backtrace.join("\n")` print them:
 * `/usr/lib/ruby/3.1.0/json/common.rb:216:in `parse'` (Ruby 3.4 quotes `'Kernel#load'`). The
 * line ends with the method: an uncaught exception's first line, which goes on with the
 * message, is not one.
 */
const RUBY_BARE_FRAME = /^()(\S{1,1000}):\d{1,7}:in [`'][^`']{1,300}'$/;
const GO_LOCATION = /^\t(\S{1,1000}\.(?:go|s)):\d{1,7}(?: \+0x[0-9a-f]{1,16})?$/;
const GO_FUNCTION = /^(?:created by )?[\w./*()[\]{}$-]{1,300}/;
/**
 * A native frame as gdb, AddressSanitizer and the other sanitizers print it: `#3  0x7f… in
 * qsort_r (…) at ./stdlib/msort.c:296`, `#1 0x55… in main src/main.c:10`, `#3  msort (…) at …`, and
 * ThreadSanitizer's `#1 main /app/race.c:11 (race+0x126d)`.
 */
const NATIVE_FRAME =
  /^(\s*)#\d{1,4} {1,2}(0x[0-9a-f]{1,16} .{1,1500}|[\w:~<>$.]{1,300} \(.{0,1500}|[\w:~<>$.]{1,300} \S{1,1000} \([^()\s]{1,300}\+0x[0-9a-f]{1,16}\))$/;

/**
 * A frame of the native stack Node prints under a fatal error (` 5: 0x1113088
 * v8::internal::Heap::CollectGarbage(…) [node]`): the binary it is in ends the line.
 */
const RUNTIME_FRAME = /^(\s{0,3})\d{1,4}: 0x[0-9a-f]{1,16} .{0,1500}\[([^\]]{1,300})\]$/;
/** JavaScript runtimes whose own binary a native frame may be in. */
const RUNTIME_BINARY = /(?:^|\/)(node|nodejs|deno|bun)$/;

/**
 * A frame of CMake's `Call Stack (most recent call first):` (`  CMakeLists.txt:4 (find_package)`,
 * `  /usr/share/cmake-3.25/Modules/FindCURL.cmake:182 (find_package_handle_standard_args)`): a
 * listfile, its line and the command called there.
 */
const CMAKE_FRAME = /^(\s{1,8})(\S{0,1000}(?:\.cmake|CMakeLists\.txt)):\d{1,7} \([\w.-]{1,200}\)$/;
/** CMake's own modules, as installed (`/usr/share/cmake-3.25/Modules/`, `…/cmake/Modules/`). */
const CMAKE_MODULES = /\/share\/cmake(?:-\d[\d.]{0,10})?\/Modules\//;

/** The library a Python frame's file is in (site-packages → its package; the stdlib), or null. */
export function pythonLibrary(path: string): string | null {
  const pkg = /[/\\](?:site|dist)-packages[/\\]([^/\\]{1,200})/.exec(path);
  if (pkg) return pkg[1].replace(/\.py$/, "");
  if (/[/\\]lib[/\\]python\d[\d.]{0,5}[/\\]/.test(path) || path.startsWith("<frozen ")) {
    return "stdlib";
  }
  return null;
}

/**
 * Java classes of the platform, of the usual frameworks (dependency injection, persistence,
 * serialization, servers, logging, drivers) and of the test runners: a project's own classes are
 * under its own package, so its frames stay.
 */
const JAVA_LIBRARY =
  /^(java|javax|jakarta|jdk|sun|com\.sun|kotlin|kotlinx|scala|groovy|org\.junit|junit|org\.testng|org\.mockito|org\.assertj|org\.apache|org\.gradle|org\.springframework|com\.google|org\.hibernate|com\.fasterxml|io\.netty|org\.eclipse|org\.glassfish|org\.jboss|io\.micronaut|io\.quarkus|io\.dropwizard|io\.grpc|io\.reactivex|reactor|akka|com\.zaxxer|org\.postgresql|com\.mysql|org\.h2|org\.flywaydb|liquibase|ch\.qos\.logback|org\.slf4j|org\.aspectj|net\.bytebuddy|org\.yaml|okhttp3|retrofit2|picocli)\./;

/**
 * The package whose code a path (or a frame's text) is in, by its innermost `node_modules/`
 * segment: `node_modules/a/node_modules/b/x.js` is b's code (the copy of b that a depends on),
 * and a scoped package keeps its scope (`@babel/core`). Null when no `node_modules/` is in it;
 * `node_modules` when no name follows.
 */
export function nodePackage(path: string): string | null {
  const modules = path.lastIndexOf("node_modules/");
  if (modules < 0) return null;
  const name = /^(@[^/\s]{1,100}\/[^/\s)]{1,100}|[^/\s)]{1,100})/.exec(
    path.slice(modules + "node_modules/".length),
  );
  return name ? name[1] : "node_modules";
}

/** The library of an `at …` frame (JavaScript or Java), or null for the user's code. */
function atLibrary(rest: string): string | null {
  if (/\(node:|^node:|\(internal\/|^internal\//.test(rest)) return "node internals";
  const modules = nodePackage(rest);
  if (modules !== null) return modules;
  if (/\((?:<anonymous>|native)\)$|^<anonymous>$|^native$/.test(rest)) return "native";
  if (/^ext:/.test(rest) || /\(ext:/.test(rest)) return "deno internals";
  return javaLibrary(rest);
}

/**
 * The library of a Java frame (`java.base/java.lang.Thread.run(…)`), read by its class: a class
 * loader's and a module's names may come first (`app//org.x.Y.z(…)`, `loader/mod@1.2/org.x…`),
 * and the module, when there is one, names the library.
 */
function javaLibrary(rest: string): string | null {
  const open = rest.indexOf("(");
  const head = open > 0 ? rest.slice(0, open) : rest;
  if (head.includes(" ") || head.includes(":")) return null;
  const slash = head.lastIndexOf("/");
  const java = JAVA_LIBRARY.exec(slash >= 0 ? head.slice(slash + 1) : head);
  if (!java) return null;
  const prefix = slash > 0 ? head.slice(0, slash) : "";
  const module = prefix.slice(prefix.lastIndexOf("/") + 1).replace(/@.{0,100}$/, "");
  return module || java[1];
}

export function rubyLibrary(path: string): string | null {
  const gem = /\/gems\/([A-Za-z][\w-]{0,100}?)-\d[\w.]{0,30}\//.exec(path);
  if (gem) return gem[1];
  if (/\/lib\/ruby\/|\/rubygems\/|^<internal:/.test(path)) return "ruby stdlib";
  return null;
}

function goLibrary(path: string): string | null {
  const mod = /\/pkg\/mod\/([^@]{1,200})@/.exec(path);
  if (mod) return mod[1];
  const root = /\/(?:go|go-\d[\d.]{0,10}|libexec)\/src\/([\w/]{1,200})\/[^/]{1,200}$/.exec(path);
  return root ? root[1] : null;
}

/** The C library's own sources, as glibc's debug info names them (`./stdlib/msort.c`). */
const LIBC_SOURCE =
  /(?:^|[\s(])\.{1,2}\/(?:sysdeps|csu|stdlib|nptl|libio|string|posix|malloc|elf|stdio-common|signal|misc|io|dlfcn|assert)\/|\b__libc_start|\/libc\.so/;
const SANITIZER_RUNTIME =
  /libsanitizer\/|compiler-rt\/|\b__(?:interceptor|asan|sanitizer|tsan|ubsan|lsan|msan)_/;
/** A native frame of the C runtime's entry, below `main`. */
const STARTUP_FRAME =
  /^\s*#\d{1,4} {1,2}(?:0x[0-9a-f]{1,16} in )?(?:__libc_start_call_main|__libc_start_main(?:_impl|_alias_\d{1,3})?|_start)\b/;
/** A shared object's path in a frame: `(/usr/lib/x86_64-linux-gnu/libstdc++.so.6+0x1a)`. */
const SHARED_OBJECT = /\((\/(?:usr\/)?lib(?:64)?\/[^\s()]{0,200}?)\+0x/;
/** A shared object's file name, its version aside: `libstdc++.so` of `libstdc++.so.6`. */
const SO_NAME = /^([\w.+-]{1,100}?\.so)[.\d]{0,20}$/;

/** The library a native frame in a sanitizer's runtime is in. */
const SANITIZER = "sanitizer runtime";
/**
 * A sanitizer's heading over a stack of where memory was allocated or freed or a thread created
 * (`freed by thread T0 here:`, `previously allocated by thread T0 here:`, `Direct leak of 8
 * byte(s) in 1 object(s) allocated from:`, `Thread T1 (tid=9, running) created by main thread at:`,
 * `Location is heap block of size 8 at 0x7b04… allocated by main thread:`).
 */
const SANITIZED_ACTION =
  /\b(?:allocated|freed|created)(?: by [\w ]{1,40}?)?(?: (?:here|from|at))?:$/;

/** The library of a native frame (the C library, a sanitizer's runtime, a shared object), or null. */
function nativeLibrary(rest: string): string | null {
  if (SANITIZER_RUNTIME.test(rest)) return SANITIZER;
  if (LIBC_SOURCE.test(rest)) return "libc";
  // The path, then its last part: one pattern for both would try every start of the name in it.
  const path = SHARED_OBJECT.exec(rest)?.[1];
  const so = path && SO_NAME.exec(path.slice(path.lastIndexOf("/") + 1));
  if (so) return so[1];
  return / in _start \(|^_start \(/.test(rest) ? "startup" : null;
}

/** The frame starting at `lines[i]`, or null. */
function frameAt(lines: readonly string[], i: number): Frame | null {
  const line = lines[i];
  if (line === undefined || line.length > MAX_TESTED) return null;
  // Cheap tests first: most lines of most outputs are no frame.
  const at = indentOf(line);
  const next = lines[i + 1];
  if (
    !line.startsWith('File "', at) && !line.startsWith("at ", at) &&
    !(line[at] === "|" && line.includes('File "')) &&
    !line.startsWith("from ", at) && !line.startsWith("#", at) && !next?.startsWith("\t") &&
    !(at === 0 && line.includes(":in ")) && !(isDigitAt(line, at) && line.includes(": 0x")) &&
    !(line.endsWith(")") && (line.includes(".cmake:") || line.includes("CMakeLists.txt:")))
  ) return null;
  let m = PY_FRAME.exec(line);
  if (m) {
    // The source line and Python 3.11's caret line below it are deeper indented.
    let end = i + 1;
    while (
      end < lines.length && end < i + 4 && lines[end].length <= MAX_TESTED &&
      /^\s/.test(lines[end]) && PY_INDENT.exec(lines[end])![0].length > m[1].length &&
      !PY_FRAME.test(lines[end])
    ) end++;
    return { kind: "python", end, library: pythonLibrary(m[2]), indent: m[1] };
  }
  m = AT_FRAME.exec(line);
  if (m) return { kind: "at", end: i + 1, library: atLibrary(m[2]), indent: m[1] };
  m = RUBY_FRAME.exec(line) ?? RUBY_BARE_FRAME.exec(line);
  if (m) return { kind: "ruby", end: i + 1, library: rubyLibrary(m[2]), indent: m[1] };
  m = NATIVE_FRAME.exec(line);
  if (m) return { kind: "native", end: i + 1, library: nativeLibrary(m[2]), indent: m[1] };
  m = RUNTIME_FRAME.exec(line);
  if (m) {
    // A frame in the runtime's own binary is its internals; one in an addon (`[/app/x.node]`) is
    // the program's.
    const runtime = RUNTIME_BINARY.exec(m[2]);
    return { kind: "runtime", end: i + 1, library: runtime ? runtime[1] : null, indent: m[1] };
  }
  m = CMAKE_FRAME.exec(line);
  if (m) {
    const library = CMAKE_MODULES.test(m[2]) ? "cmake modules" : null;
    return { kind: "cmake", end: i + 1, library, indent: m[1] };
  }
  if (next !== undefined && next.length <= MAX_TESTED && GO_FUNCTION.test(line)) {
    const loc = GO_LOCATION.exec(next);
    if (loc) return { kind: "go", end: i + 2, library: goLibrary(loc[1]), indent: "" };
  }
  return null;
}

/**
 * Whose code a stack frame of one line is in: `"own"` for the user's, with its place (a file in no
 * library, runtime or package: `at Object.require (__tests__/a.test.js:1:1)`, `File "app/cart.py",
 * line 3, in total`, `from app/models/cart.rb:9:in 'total'`, `at com.shop.Cart.total(Cart.java:12)`),
 * `"library"` for a library's, a runtime's or a package's; null for a line that is no such frame.
 */
export function frameOwner(line: string): "own" | "library" | null {
  const frame = frameAt([line], 0);
  if (frame === null || frame.kind === "go" || frame.kind === "cmake") return null;
  if (frame.library !== null) return "library";
  if (frame.kind === "at") return /:\d{1,7}\)?$/.test(line) ? "own" : null;
  return frame.kind === "runtime" ? null : "own";
}

const isDigitAt = (line: string, at: number) => line[at] >= "0" && line[at] <= "9";

/** A line of only position marks (`^^^^`, `~~~^^^~~`). */
const MARKS = /^\s*(?:\|\s*)?[~^]+\s*$/;
const CARETS = { test: (line: string) => MARKS.test(line) && line.includes("^") };

/** Whether `line` has a non-blank character at or after `from`. */
const NON_BLANK = /\S/g;
function nonBlankFrom(line: string, from: number): boolean {
  NON_BLANK.lastIndex = from;
  return NON_BLANK.test(line);
}

function foldLine(indent: string, frames: Frame[]): string {
  const libraries = [...new Set(frames.map((f) => f.library!))];
  const named = libraries.slice(0, MAX_NAMED).join(", ") +
    (libraries.length > MAX_NAMED ? `, +${libraries.length - MAX_NAMED} more` : "");
  return `${indent}… ${frames.length} frames in ${named} folded …`;
}

/**
 * Where Node prints the line that threw when it is in Node's own source: `node:fs:448`,
 * `node:internal/modules/run_main:123`, `internal/fs/utils.js:347` (before Node 16).
 */
const NODE_ECHO_HEAD = /^(?:node:[\w/.-]{1,200}|internal\/[\w/.-]{1,200}\.js):\d{1,7}$/;
/** A caret line under an echoed source line: spaces, then carets. */
const ECHO_CARET = /^\s{0,400}\^{1,400}\s{0,10}$/;

/**
 * Node's echo of its own source above an uncaught error (`node:fs:448`, the source line, a caret
 * line, a blank line) removed: a line of Node's internals helps nobody, and the frame under the
 * error names the same place. An echo of the user's file (`/app/server.js:12`,
 * `file:///app/a.mjs:3`) is where the error was thrown: it stays.
 */
export function dropRuntimeEcho(lines: readonly string[]): readonly string[] {
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (
      line.length <= 220 && line.charCodeAt(0) !== 32 && NODE_ECHO_HEAD.test(line) &&
      i + 2 < lines.length && lines[i + 2].length <= MAX_TESTED && ECHO_CARET.test(lines[i + 2])
    ) {
      i += 2;
      if (i + 1 < lines.length && isBlank(lines[i + 1])) i++;
      continue;
    }
    out.push(line);
  }
  return out.lines();
}

/** Java's `... 13 more` (frames in common with the enclosing trace) and a chain's next cause. */
const MORE_FRAMES = /^\s{1,40}\.\.\. \d{1,9} more$/;
const CAUSED_BY = /^\s{0,40}Caused by: /;

/** Whether a `Caused by:` starts at `lines[j]`, after a `... N more` line at most. */
function causeFollows(lines: readonly string[], j: number): boolean {
  if (j < lines.length && lines[j].length <= MAX_TESTED && MORE_FRAMES.test(lines[j])) j++;
  return j < lines.length && lines[j].length <= MAX_TESTED && CAUSED_BY.test(lines[j]);
}

/**
 * A launcher's frame: a script in a `bin` directory (`/usr/bin/jekyll:25`, `File
 * "/usr/bin/sphinx-build", line 33`, `node_modules/.bin/x`) that loads an installed tool.
 */
const LAUNCHER = /\/(?:s?bin|\.bin)\/[\w.+-]{1,100}(?::\d|["'`)]|$)/;

/**
 * Whether a library is one of the installed tools a command runs (`tools`, by program name): the
 * package of that name (gem `jekyll` for `jekyll`, `eslint` under node_modules for `eslint`), a
 * scoped package of that scope (`@commitlint/cli` for `commitlint`), or the package a program's
 * name starts with (`sphinx` for `sphinx-build`).
 */
function toolLibrary(library: string, tools: readonly string[]): boolean {
  const scope = /^@([^/]{1,100})\//.exec(library)?.[1];
  return tools.some((tool) => tool === library || tool === scope || tool.startsWith(library + "-"));
}

/** Frame kinds whose library may be a tool the command runs (a gem, a package, a module). */
const TOOL_KINDS: ReadonlySet<FrameKind> = new Set(["python", "at", "ruby", "go"]);
/** Files of a crashed tool's frames kept above its call into a library: that call's, its caller's. */
const TOOL_FILES = 2;
/** The file a frame's line names (`…/renderer.rb:192:in`, `(…/config.js:100:16)`, `File "…"`). */
const FRAME_FILE = /([^\s("'`]{1,1000}\.\w{1,10})(?::\d|")/;

/**
 * The frames of a crashed installed tool that stay as the user's would (their indexes in
 * `frames`, innermost first or last as `innermost` says): in a trace with no frame in the user's
 * code (a launcher's in a `bin` directory aside) whose innermost frame is in another library than
 * the tool the command runs (`tools`, by program name: jekyll calling liquid, tailwind calling
 * postcss), the tool's frames nearest that call, in the file that made it and in its caller's
 * file. They say what the tool was doing when the library failed (jekyll's `render_layout`: a
 * layout, not a page), which a fold to the innermost frame and the launcher's loses; the tool's
 * outer frames (its command dispatch) still fold, and so do all of a tool's frames when it
 * raised the error itself.
 */
function toolCall(
  frames: readonly { frame: Frame; start: number }[],
  lines: readonly string[],
  innermost: number,
  tools: readonly string[],
): Set<number> {
  const kept = new Set<number>();
  if (tools.length === 0 || innermost < 0) return kept;
  const inner = frames[innermost].frame;
  const tool = (f: Frame) =>
    f.library !== null && TOOL_KINDS.has(f.kind) && toolLibrary(f.library, tools);
  if (inner.library === null || tool(inner)) return kept;
  if (!frames.every((f) => f.frame.library !== null || LAUNCHER.test(lines[f.start]))) return kept;
  // Frames run outward from the innermost: down the list, or up it for Python's.
  const step = innermost === 0 ? 1 : -1;
  let k = innermost;
  while (k >= 0 && k < frames.length && frames[k].frame.library === inner.library) k += step;
  const files = new Set<string>();
  for (; k >= 0 && k < frames.length && tool(frames[k].frame); k += step) {
    const file = FRAME_FILE.exec(lines[frames[k].start])?.[1] ?? "";
    if (!files.has(file) && files.size === TOOL_FILES) break;
    files.add(file);
    kept.add(k);
  }
  return kept;
}

/**
 * Each stack trace with its library frames folded: the user's frames and the innermost frame
 * (the first of JavaScript, Java, Ruby, Go and native traces, the last of Python's) stay, and a run of
 * at least two library frames between them becomes one line. In the trace of an installed tool
 * the command runs (`tools`, program names) that a library's error crashed, the tool's frames
 * nearest its call into that library stay too (`toolCall`).
 */
export function foldStackFrames(
  input: readonly string[],
  options: { tools?: readonly string[] } = {},
): readonly string[] {
  const tools = options.tools ?? [];
  const lines = dropRuntimeEcho(input);
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length;) {
    const first = frameAt(lines, i);
    if (!first) {
      out.push(lines[i++]);
      continue;
    }
    const frames: { frame: Frame; start: number }[] = [{ frame: first, start: i }];
    let j = first.end;
    for (let f = frameAt(lines, j); f && f.kind === first.kind; f = frameAt(lines, j)) {
      frames.push({ frame: f, start: j });
      j = f.end;
    }
    // The C runtime's entry frames under `main` (`__libc_start_call_main`, `_start`) end a native
    // trace: they go without a fold line, as every native program starts there.
    if (first.kind === "native") {
      let keep = frames.length;
      while (keep > 1 && STARTUP_FRAME.test(lines[frames[keep - 1].start])) keep--;
      frames.length = keep;
      // A sanitizer's interceptor on top of a stack its heading says allocated, freed or created
      // something (`freed by thread T0 here:`, `#0 … in __interceptor_free`) is the runtime's
      // stand-in for the call the heading names: it goes without a fold line, and the user's
      // frame under it, where that call was made, leads.
      if (
        frames.length > 1 && frames[0].frame.library === SANITIZER &&
        frames[1].frame.library === null &&
        i > 0 && lines[i - 1].length <= MAX_TESTED && SANITIZED_ACTION.test(lines[i - 1])
      ) frames.shift();
    }
    // A trace followed by `Caused by:` is a wrapper's: its innermost frame is where a library
    // wrapped the cause, whose own trace below shows where the error was raised. CMake names the
    // innermost place on its error's own line (`CMake Error at …/FindX.cmake:230 (message):`).
    const innermost = first.kind === "python"
      ? frames.length - 1
      : first.kind === "cmake" || causeFollows(lines, j)
      ? -1
      : 0;
    // Under a frame with no file (`at JSON.parse (<anonymous>)`), the first frame with one is
    // where the failing call was made, whatever library it is in: it stays too.
    const caller = innermost >= 0 && frames[innermost].frame.library === "native"
      ? frames.findIndex((f) => f.frame.library !== "native")
      : -1;
    const called = toolCall(frames, lines, innermost, tools);
    const library = (frame: Frame, k: number) => frame.library !== null && !called.has(k);
    let run: { frame: Frame; start: number }[] = [];
    const flush = () => {
      if (run.length >= MIN_FOLDED_FRAMES) {
        // Node opens an error's fields at its last frame's end (`at … {`): the fold line keeps
        // the brace that their closing `}` answers.
        const last = run[run.length - 1];
        const opens = lines[last.frame.end - 1].endsWith(" {") ? " {" : "";
        out.push(foldLine(run[0].frame.indent, run.map((r) => r.frame)) + opens);
      } else for (const r of run) appendAll(out, lines, r.start, r.frame.end);
      run = [];
    };
    frames.forEach((entry, k) => {
      if (library(entry.frame, k) && k !== innermost && k !== caller) {
        run.push(entry);
        return;
      }
      flush();
      const kept = lines.slice(entry.start, entry.frame.end);
      // Python's `^^^^` line under a frame's source repeats the source's span: it goes.
      appendAll(out, entry.frame.kind === "python" ? kept.filter((l) => !CARETS.test(l)) : kept);
    });
    flush();
    i = j;
  }
  return out.lines();
}

/** A path listing is folded when it has at least this many path lines … */
const MIN_LISTING = 60;
/** … making up at least this share of its non-blank lines; it is folded to about this many. */
const LISTING_SHARE = 0.8;
export const LISTING_BUDGET = 50;
/** Lines a closed directory of a path listing shows: its first entry, a count, its last entry. */
const FOLD_SHOWS = 3;

/** `path`, `./a/b`, `/usr/lib/x`, `inflating: out/a.txt` (a short verb, a colon, one path). */
const PATH_LINE = /^(\s*(?:[A-Za-z][A-Za-z ]{0,15}:\s{1,10})?)([^\s:]{1,1000})\s{0,10}$/;
const FILE_NAME = /^[\w.+-]{0,200}\.[A-Za-z]\w{0,9}$/;
const MAX_DEPTH = 64;

/** The path a line consists of (a trailing slash dropped), or null. */
function pathOf(line: string): string | null {
  if (line.length > MAX_TESTED) return null;
  // A path line holds one token, after a `verb:` at most: a space with no colon before it is
  // not one.
  const from = indentOf(line);
  const space = line.indexOf(" ", from);
  if (space >= 0 && line.lastIndexOf(":", space) < from && nonBlankFrom(line, space)) return null;
  const m = PATH_LINE.exec(line);
  return m ? pathToken(m[2]) : null;
}

/** A token as a path (a trailing slash dropped), or null when it is none. */
function pathToken(token: string): string | null {
  if (!token.includes("/") && !FILE_NAME.test(token)) return null;
  // A path is a few dozen directories deep at most; a longer chain of slashes is something else.
  let depth = 0;
  for (let at = token.indexOf("/"); at >= 0; at = token.indexOf("/", at + 1)) {
    if (++depth > MAX_DEPTH) return null;
  }
  return token.length > 1 && token.endsWith("/") ? token.slice(0, -1) : token;
}

/** A path as a listing row's last column: one token, no colon (a URL, `file:line`), no quotes. */
const LAST_PATH = /\s([^\s:'"`()[\]]{1,1000})\s{0,10}$/;
/** A column that counts progress (`[12/40]`, `3/8`, `45%`): such rows are a log, not a listing. */
const PROGRESS_CELL = /\d\s{0,2}\/\s{0,2}\d|\d%/;
/** A column with a digit in it (a size, a count, a date, a time, a mode in octal). */
const DIGIT = /\d/;
/** A file's mode as `ls -l` and `tar -tv` print it (`-rw-r--r--`, `drwxr-xr-x`, `lrwxrwxrwx`). */
const MODE = /^[-dlcbps][-rwxsStT]{9}[.+@]?$/;

/**
 * A row of data ending in a path (`npm notice 59B test/a.test.ts`, `-rw-r--r-- u/g 10 2026-11-20
 * 00:00 app/bin/app`, `4.0K ./docs`): its path and its columns' key (the columns with every one
 * that holds a digit or a file's mode masked, spaces collapsed), or null. Rows of a listing share their key; a
 * row with no digit in its columns, or with a column counting progress, is no listing's.
 */
function listingRow(line: string): { path: string; key: string } | null {
  if (line.length > MAX_TESTED) return null;
  const m = LAST_PATH.exec(line);
  if (!m) return null;
  const columns = line.slice(0, m.index);
  if (!DIGIT.test(columns) || PROGRESS_CELL.test(columns) || FAILURE_SIGNAL.test(columns)) {
    return null;
  }
  const path = pathToken(m[1]);
  if (path === null) return null;
  const key = columns.trim().split(/\s+/).map((c) => DIGIT.test(c) || MODE.test(c) ? "#" : c)
    .join(" ");
  return { path, key };
}

/**
 * The path of each line of a listing (null for a line that is none), or null when the lines are
 * no listing: bare paths (`pathOf`) and rows of data ending in one (`listingRow`) count, the
 * rows only with the columns most of them share.
 */
function listingPaths(lines: readonly string[]): (string | null)[] | null {
  if (lines.length < MIN_LISTING) return null;
  const keys = new Map<string, number>();
  let common = "";
  for (const line of lines) {
    if (pathOf(line) !== null) continue;
    const row = listingRow(line);
    if (row === null) continue;
    const n = (keys.get(row.key) ?? 0) + 1;
    keys.set(row.key, n);
    if (n > (keys.get(common) ?? 0)) common = row.key;
  }
  return mostly(lines, (line) => {
    const bare = pathOf(line);
    if (bare !== null || common === "") return bare;
    const row = listingRow(line);
    return row !== null && row.key === common ? row.path : null;
  }, (p) => p !== null);
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? (slash === 0 && path.length > 1 ? "/" : "") : path.slice(0, slash);
}

/**
 * A long listing of paths with its biggest directories folded: directories are opened smallest
 * first, from the top, while the lines shown stay within `budget`; a directory left closed shows
 * its own line, if listed, and its first and last entries around `dir/ … (N entries folded)`: a
 * count alone would not say what kind of entries it holds (tests, fixtures, build output). Lines
 * that are not paths stay in place, and so do failure-looking lines inside a folded directory.
 */
export function foldPathListing(
  lines: readonly string[],
  budget = LISTING_BUDGET,
): readonly string[] {
  const paths = listingPaths(lines);
  if (!paths) return lines;
  // Each directory's children, and the path lines right in it; a new directory links itself to
  // its parent once, so a line costs one step whatever its depth.
  const kids = new Map<string, Set<string>>();
  const direct = new Map<string, number>();
  const link = (dir: string, child: string) => {
    let set = kids.get(dir);
    if (!set) {
      kids.set(dir, set = new Set());
      if (dir !== "" && dir !== "/") link(parentOf(dir), dir);
    }
    set.add(child);
  };
  for (const path of paths) {
    if (path === null) continue;
    const dir = parentOf(path);
    direct.set(dir, (direct.get(dir) ?? 0) + 1);
    link(dir, path);
  }
  // The path lines anywhere below each directory.
  const below = new Map<string, number>();
  const total = (dir: string): number => {
    let n = below.get(dir);
    if (n === undefined) {
      n = direct.get(dir) ?? 0;
      for (const k of kids.get(dir)!) if (kids.has(k)) n += total(k);
      below.set(dir, n);
    }
    return n;
  };
  for (const dir of kids.keys()) total(dir);
  // A closed directory shows its first and last entries around a count: three lines at most.
  const open = openWithinBudget(
    kids.has("/") ? ["", "/"] : [""],
    (dir) => kids.get(dir),
    (dir) => below.get(dir) ?? 0,
    budget,
    (node) => kids.has(node) ? Math.min(below.get(node) ?? 0, FOLD_SHOWS) : 1,
  );
  // The outermost closed directory at or above each directory (null: none), computed once each.
  const closedAt = new Map<string, string | null>();
  const closedFrom = (dir: string): string | null => {
    if (dir === "" || dir === "/") return null;
    let closed = closedAt.get(dir);
    if (closed === undefined) {
      closed = closedFrom(parentOf(dir)) ?? (open.has(dir) ? null : dir);
      closedAt.set(dir, closed);
    }
    return closed;
  };
  // Rows of data whose columns stand out from the others' (an empty file among sized ones,
  // another owner), as the shape fold's outliers do: they stay. A listing longer than the shape
  // fold reads is not read for them either.
  const odd = lines.length > MAX_SHAPED_LINES ? new Set<number>() : oddLines(lines, [
    (line, at) => paths[at] === null ? null : listingRow(line)?.key ?? null,
  ]);
  // Each path line's closed directory (null: shown as printed; a closed directory's own line
  // stays, its entries fold under it) and its place among that directory's entries.
  const closedOf = paths.map((path) => path === null ? null : closedFrom(parentOf(path)));
  const place: number[] = [];
  const seen = new Map<string, number>();
  closedOf.forEach((closed, i) => {
    if (closed === null) return;
    const k = seen.get(closed) ?? 0;
    seen.set(closed, k + 1);
    place[i] = k;
  });
  // Its first and last entries show what kind of entries a closed directory holds; so do a
  // failure-looking line (`error: a/b`, a path named `failed_…`) and an odd row. A count stands
  // for the rest.
  const shown = (i: number, closed: string) => {
    const count = below.get(closed) ?? 0;
    const k = place[i];
    return count <= FOLD_SHOWS || k === 0 || k === count - 1 || odd.has(i) ||
      FAILURE_SIGNAL.test(lines[i]);
  };
  const hidden = new Map<string, number>();
  closedOf.forEach((closed, i) => {
    if (closed !== null && !shown(i, closed)) hidden.set(closed, (hidden.get(closed) ?? 0) + 1);
  });
  const out = new FoldedLines(lines);
  const noted = new Set<string>();
  lines.forEach((line, i) => {
    const closed = closedOf[i];
    if (closed === null || closed === undefined) return out.push(line);
    if (shown(i, closed)) return out.push(line);
    if (noted.has(closed)) return;
    noted.add(closed);
    out.push(`${/^\s*/.exec(line)![0]}${closed}/ … (${hidden.get(closed)} entries folded)`);
  });
  return out.lines();
}

/**
 * The nodes of a tree left open when nodes are opened smallest first (by `size`, what lies below
 * them), from the `roots` down, while the lines shown (the roots' children, then each opened
 * node's) stay within `budget`. A node is a line or a directory; `kids` lists a node's children
 * and is undefined for a leaf.
 */
function openWithinBudget<T>(
  roots: T[],
  kids: (node: T) => Iterable<T> | undefined,
  size: (node: T) => number,
  budget: number,
  cost: (node: T) => number = () => 1,
): Set<T> {
  const open = new Set<T>(roots);
  const heap = new MinHeap<T>(size);
  let shown = 0;
  for (const root of roots) {
    for (const k of kids(root) ?? []) {
      shown += cost(k);
      if (kids(k) && !open.has(k)) heap.push(k);
    }
  }
  for (let node = heap.pop(); node !== undefined; node = heap.pop()) {
    const children = [...kids(node)!];
    // Opened, a node shows its own line and its children where it showed what `cost` says.
    let more = 1 - cost(node);
    for (const k of children) more += cost(k);
    if (shown + more > budget) continue;
    open.add(node);
    shown += more;
    for (const k of children) if (kids(k) && !open.has(k)) heap.push(k);
  }
  return open;
}

/** What a tree drawing's line starts with (after spaces). */
const TREE_START = /^ {0,160}[│|┃├└┣┗╰`+\\]/;

/**
 * `read` of every line when at least `MIN_LISTING` of them, and `LISTING_SHARE` of the non-blank
 * ones, are what `counts` says; else null, found without reading all of them when it cannot be.
 */
function mostly<T>(
  lines: readonly string[],
  read: (line: string) => T,
  counts: (value: T) => boolean,
): T[] | null {
  if (lines.length < MIN_LISTING) return null;
  let nonBlank = 0;
  for (const line of lines) if (!isBlank(line)) nonBlank++;
  const allowed = nonBlank * (1 - LISTING_SHARE);
  const values: T[] = [];
  let listed = 0;
  let other = 0;
  for (const line of lines) {
    const value = read(line);
    values.push(value);
    if (counts(value)) listed++;
    else if (!isBlank(line) && ++other > allowed) return null;
  }
  return listed >= MIN_LISTING ? values : null;
}

/** A tree drawing's branch (`├── `, `└─┬ `, `|-- `, `` `-- ``, `+--- `) after its rails. */
const TREE_LINE = /^([│|┃ ]{0,160}(?:[├└┣┗╰]─{1,4}[┬─ ]?|[|`+\\]-{2,3}) ?)\S/;

/**
 * A long tree drawing (npm ls, tree, cargo tree, pstree) with its biggest subtrees folded into
 * their top line and a count, opened smallest first from the top while the lines shown stay
 * within `budget`. Lines that are not part of the drawing stay in place. An entry that reports a
 * problem after its name (npm's `invalid: "~1.20.5" from …`, `extraneous`, `UNMET DEPENDENCY`,
 * `missing`, or a failure word) stays with the entries that lead to it, so it is read in its
 * place: an entry the budget left folded opens for it, its other children folding in runs
 * (`│ … (40 entries folded)`); a failure word in an entry's name alone (`es-errors@1.3.0
 * deduped`) is a name.
 */
export function foldTreeListing(
  lines: readonly string[],
  budget = LISTING_BUDGET,
): readonly string[] {
  // Each line's depth (the column its text starts at; -1 outside the drawing) and parent.
  const depth = mostly(lines, (line) => {
    if (line.length > MAX_TESTED || isBlank(line)) return -1;
    if (!TREE_START.test(line)) return 0;
    const m = TREE_LINE.exec(line);
    return m ? m[1].length : 0;
  }, (d) => d > 0);
  if (!depth) return lines;
  const parent = new Array<number>(lines.length).fill(-1);
  const kids = new Map<number, number[]>();
  const below = new Array<number>(lines.length).fill(0);
  const stack: number[] = [];
  depth.forEach((d, i) => {
    if (d < 0) return;
    while (stack.length && depth[stack.at(-1)!] >= d) stack.pop();
    const p = stack.at(-1) ?? -1;
    parent[i] = p;
    if (!kids.has(p)) kids.set(p, []);
    kids.get(p)!.push(i);
    for (let a = p; a >= 0; a = parent[a]) below[a]++;
    stack.push(i);
  });
  const open = openWithinBudget([-1], (n) => kids.get(n), (n) => below[n], budget);
  // The problems and the entries above them; an entry the budget left closed opens for them
  // (forced), its children off that way folding in runs.
  const onPath = new Set<number>();
  const forced = new Set<number>();
  depth.forEach((d, i) => {
    if (d < 0 || !treeProblem(lines[i], d)) return;
    onPath.add(i);
    for (let a = parent[i]; a >= 0 && !onPath.has(a); a = parent[a]) {
      onPath.add(a);
      if (!open.has(a)) forced.add(a);
    }
  });
  for (const a of forced) open.add(a);
  const hidden = new Set<number>();
  const out = new FoldedLines(lines);
  // A run of folded children: its entries (with what is under them), its first line and how
  // many lines it spans; a run of one line stays as the budget shows it.
  let run = 0;
  let first = -1;
  let runLines = 0;
  const shown = (i: number) =>
    kids.has(i) && !open.has(i) ? `${lines[i].trimEnd()} (+${below[i]} entries folded)` : lines[i];
  const flush = () => {
    if (runLines === 1) out.push(shown(first));
    else if (runLines > 1) {
      const rails = lines[first].slice(0, depth[first]).replace(/(?:[├└┣┗╰]|[|`+\\]-).*$/, "");
      out.push(`${rails}… (${run} entries folded)`);
    }
    run = runLines = 0;
  };
  lines.forEach((line, i) => {
    if (depth[i] < 0) {
      flush();
      return out.push(line);
    }
    let closed = -1;
    for (let a = parent[i]; a >= 0; a = parent[a]) {
      if (!open.has(a) || hidden.has(a)) closed = a;
    }
    if (closed >= 0) return;
    if (forced.has(parent[i]) && !onPath.has(i)) {
      if (!runLines) first = i;
      run += 1 + below[i];
      runLines++;
      hidden.add(i);
      return;
    }
    flush();
    out.push(shown(i));
  });
  flush();
  return out.lines();
}

/** A problem npm ls (or a tree like it) reports after an entry's name. */
const TREE_PROBLEM =
  /\b(?:invalid|extraneous|UNMET (?:OPTIONAL |PEER )?DEPENDENCY|missing|overridden)\b/;

/** Whether a tree entry (its text from column `depth`) reports a problem after its name. */
function treeProblem(line: string, depth: number): boolean {
  const text = line.slice(depth);
  const rest = text.slice(text.search(/\s|$/));
  if (FAILURE_SIGNAL.test(rest) || TREE_PROBLEM.test(rest)) return true;
  // `UNMET DEPENDENCY ms@2.0.0`: the problem comes first.
  return /^UNMET /.test(text);
}

/** Hex bytes (`ab:cd:…` of keys and signatures, `ab cd …`) and base64 lines. */
const HEX_LINE = /^\s{0,40}(?:[0-9a-fA-F]{2}[: ]){8,64}[0-9a-fA-F]{0,2}\s{0,4}$/;
const BASE64_LINE = /^\s{0,40}[A-Za-z0-9+/]{40,200}={0,2}$/;
/** Runs of data lines shorter than this stay. */
const MIN_DATA_RUN = 4;

/** Runs of hex or base64 lines: the first line stays, the rest become a count. */
export function foldDataRuns(lines: readonly string[]): readonly string[] {
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length;) {
    const kind = dataKind(lines[i]);
    let j = i + 1;
    if (kind) { while (j < lines.length && dataKind(lines[j]) === kind) j++; }
    if (!kind || j - i < MIN_DATA_RUN) {
      appendAll(out, lines, i, j);
    } else {
      out.push(lines[i]);
      out.push(`${/^\s*/.exec(lines[i])![0]}… (${j - i - 1} more lines of ${kind}) …`);
    }
    i = j;
  }
  return out.lines();
}

function dataKind(line: string): "hex" | "base64" | null {
  if (line.length > MAX_TESTED || line.length < 23) return null;
  // Either kind starts (after spaces) with a digit, a letter, `+` or `/`.
  const c = line.charCodeAt(indentOf(line));
  if (
    !((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47)
  ) {
    return null;
  }
  if (HEX_LINE.test(line)) return "hex";
  // A base64 line has digits or both cases; a long plain word is not one.
  if (BASE64_LINE.test(line) && /\d|\+|\//.test(line) && /[a-z]/.test(line) && /[A-Z]/.test(line)) {
    return "base64";
  }
  return null;
}

/** A binary min-heap keyed by `key`. */
class MinHeap<T> {
  #items: T[] = [];
  constructor(private readonly key: (item: T) => number) {}

  push(item: T): void {
    const a = this.#items;
    a.push(item);
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (this.key(a[p]) <= this.key(a[i])) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }

  pop(): T | undefined {
    const a = this.#items;
    if (a.length === 0) return undefined;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      for (let i = 0;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && this.key(a[l]) < this.key(a[m])) m = l;
        if (r < a.length && this.key(a[r]) < this.key(a[m])) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}
