/**
 * Shell command extraction on the mvdan/sh AST (npm `mvdan-sh`, the shfmt parser compiled to JS
 * with GopherJS). Turns a command string into every simple command it would run, normalised
 * (quotes/escapes resolved, assignments and transparent wrappers stripped, program basename),
 * plus the reasons it cannot be analysed statically. Private to src/permission/.
 *
 * Parser choice: mvdan-sh, the real shfmt parser. It fails with a real error on invalid input,
 * gives a full typed AST (heredocs, `$'…'`, `$[…]`, `${x@P}`, process substitution) and is pure JS,
 * so `deno compile` embeds it like any other npm package. It is imported lazily, on the first
 * analysis. The alternatives lose on correctness: sh-syntax (the same parser as Go WASM) drops
 * every command node from its JSON AST and starts a Go runtime per call; tree-sitter-bash is an
 * error-recovering grammar that rejects valid bash (`exec 3<>/dev/tcp/h/80`), attaches
 * `a && b > f`'s redirect to the whole list, and needs two .wasm files located at run time.
 * Import and parse times are in bench/README.md ("Permission analysis").
 */

// deno-lint-ignore no-explicit-any
type Node = any;

interface Syntax {
  NewParser(): { Parse(src: string, name: string): Node };
}

let syntaxPromise: Promise<Syntax> | null = null;

// The extractor reads GopherJS's raw Go values (`__internal_object__`) instead of the JS
// wrappers, which cost an order of magnitude more per command (bench/README.md). Raw representation: a pointer is an object whose `constructor.string` is
// its Go type ("*syntax.CallExpr"), a nil pointer is its type's `nil` object, a nil interface is
// `{}`, a slice is `{$array, $offset, $length}` (mvdan/sh allocates parts in shared batches, so
// `$offset` matters), a Go string is a JS string of UTF-8 bytes.

/** Go type name without the package ("CallExpr"), "" for nil. */
export function typeOf(n: Node): string {
  if (isNil(n)) return "";
  const s = n.constructor.string as string;
  return s.startsWith("*syntax.") ? s.slice(8) : s;
}

function isNil(n: Node): boolean {
  return n === null || n === undefined || typeof n !== "object" ||
    typeof n.constructor?.string !== "string" || n === n.constructor.nil;
}

/** A Go slice as a JS array. */
function list(slice: Node): Node[] {
  if (!slice || !slice.$array) return [];
  const out: Node[] = [];
  for (let i = 0; i < slice.$length; i++) out.push(slice.$array[slice.$offset + i]);
  return out;
}

const utf8 = new TextDecoder();

/** A Go string (UTF-8 bytes as chars) as a JS string. */
function goStr(s: unknown): string {
  if (typeof s !== "string") return "";
  if (!/[\x80-\xff]/.test(s)) return s;
  return utf8.decode(Uint8Array.from(s, (c) => c.charCodeAt(0)));
}

const fieldCache = new Map<unknown, { prop: string; slice: boolean }[]>();

/** The node-typed fields of a struct pointer (cached per type). */
function nodeFields(n: Node): { prop: string; slice: boolean }[] {
  const ctor = n.constructor;
  let fields = fieldCache.get(ctor);
  if (!fields) {
    fields = [];
    for (const f of ctor.elem?.fields ?? []) {
      const t: string = f.typ?.string ?? "";
      if (/Pos$|Comment/.test(t)) continue;
      const slice = t.startsWith("[]");
      if (/syntax\./.test(t)) fields.push({ prop: f.prop, slice });
    }
    fieldCache.set(ctor, fields);
  }
  return fields;
}

/** Direct child nodes, in field order. */
function childNodes(n: Node): Node[] {
  const out: Node[] = [];
  for (const f of nodeFields(n)) {
    const v = n[f.prop];
    if (f.slice) {
      for (const c of list(v)) if (!isNil(c) && typeOf(c) !== "Comment") out.push(c);
    } else if (!isNil(v) && typeof v === "object" && v.constructor.string.startsWith("*syntax.")) {
      out.push(v);
    }
  }
  return out;
}

/** Loads the parser once (first analysis pays ~100 ms; `bench:permission` measures it). */
export function loadSyntax(): Promise<Syntax> {
  syntaxPromise ??= import("mvdan-sh").then((m) => {
    const mod = (m.default ?? m) as { syntax: Syntax };
    return mod.syntax;
  });
  return syntaxPromise;
}

export interface RedirectInfo {
  op: string;
  target: string;
}

export interface ParsedCommand {
  program: string;
  args: string[];
  raw: string;
  redirects: RedirectInfo[];
  programIsLiteral: boolean;
  context: string[];
  /** Every argument word was fully static (no `$x`, `$(…)`, …). */
  argsLiteral: boolean;
  /** The command reads stdin from a pipe, a here-doc, a here-string or a `<` redirect. */
  stdin: "pipe" | "heredoc" | "herestring" | "file" | null;
  /** Literal text fed on stdin (here-string/here-doc without expansions), for `bash <<< '…'`. */
  stdinText: string | null;
  /** The words before wrapper stripping, for the messages. */
  wrappers: string[];
  /** The program as written when it is a path (`./gradlew`, `/tmp/x/ls`), slashes collapsed. */
  path?: string;
  /**
   * A shell (`bash -lc '…'`) with harmless options whose whole script was analysed: its inner
   * commands are what the rules decide on.
   */
  scriptAnalysed?: boolean;
}

export interface ExtractResult {
  commands: ParsedCommand[];
  dynamic: string[];
  parseError?: string;
  /** Literal words seen anywhere (program names hidden in variables: `c=sudo; $c`). */
  words: Set<string>;
  /** Shell features present, for the legacy confirm patterns (`$(`, backtick, `<(`, `<<<`). */
  features: Set<string>;
}

/** Variables whose assignment changes what later commands run (or how). */
const RISKY_VARS = new Set([
  "PATH",
  "IFS",
  "BASH_ENV",
  "ENV",
  "PROMPT_COMMAND",
  "PAGER",
  "GIT_PAGER",
  "MANPAGER",
  "EDITOR",
  "VISUAL",
  "GIT_EDITOR",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "GIT_EXTERNAL_DIFF",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "GIT_CONFIG",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_PARAMETERS",
  "GIT_EXEC_PATH",
  "GIT_DIR",
  "GIT_WORK_TREE",
  "LESSOPEN",
  "LESSCLOSE",
  "PYTHONSTARTUP",
  "PYTHONPATH",
  "NODE_OPTIONS",
  "PERL5OPT",
  "PERL5LIB",
  "RUBYOPT",
  "SHELLOPTS",
  "BASHOPTS",
  "PS4",
  "CDPATH",
  "HOME",
  "ZDOTDIR",
  "TMPDIR",
]);

function isRiskyVar(name: string): boolean {
  return RISKY_VARS.has(name) || /^LD_|^DYLD_|^GIT_CONFIG_(KEY|VALUE|COUNT)/.test(name) ||
    name.startsWith("BASH_FUNC_");
}

/** Shells whose `-c` string is itself a script we analyse. */
export const SHELLS = new Set([
  "sh",
  "bash",
  "rbash",
  "zsh",
  "dash",
  "ash",
  "ksh",
  "mksh",
  "pdksh",
  "yash",
  "fish",
  "csh",
  "tcsh",
  "posh",
]);

/** Programs that run code they are given (stdin, a string, a file). */
export const INTERPRETERS = new Set([
  ...SHELLS,
  "python",
  "python2",
  "python3",
  "pypy",
  "pypy3",
  "node",
  "nodejs",
  "deno",
  "bun",
  "perl",
  "ruby",
  "irb",
  "php",
  "lua",
  "luajit",
  "tclsh",
  "wish",
  "rscript",
  "r",
  "osascript",
  "pwsh",
  "powershell",
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "busybox",
  "expect",
  "jshell",
  "groovy",
  "scala",
  "julia",
  "ghci",
  "sqlite3",
  "gdb",
  "vim",
  "vi",
  "nvim",
  "ed",
  "ex",
]);

const MAX_DEPTH = 6;

interface WordValue {
  text: string;
  /** No expansion of any kind: the text is exactly what the program receives. */
  literal: boolean;
  /** Unquoted glob or brace characters (`*`, `?`, `[`, `{a,b}`): the word may expand. */
  pattern: boolean;
  /** The text with unquoted braces marked, when it has any (for brace expansion). */
  marked?: string;
}

interface Ctx {
  context: string[];
  piped: boolean;
  stdin?: ParsedCommand["stdin"];
  stdinText?: string | null;
  inheritedRedirects: RedirectInfo[];
  depth: number;
}

/** Byte-offset slicing (mvdan positions are UTF-8 byte offsets). */
class Source {
  readonly bytes: Uint8Array;
  constructor(readonly text: string) {
    this.bytes = new TextEncoder().encode(text);
  }
  slice(start: number, end: number): string {
    if (this.bytes.length === this.text.length) return this.text.slice(start, end);
    return new TextDecoder().decode(this.bytes.subarray(start, end));
  }
  of(node: Node): string {
    return this.slice(node.Pos().Offset(), node.End().Offset());
  }
}

export class Extractor {
  readonly commands: ParsedCommand[] = [];
  readonly dynamic: string[] = [];
  readonly words = new Set<string>();
  readonly features = new Set<string>();

  constructor(private readonly syntax: Syntax, private readonly limit: number) {}

  addDynamic(reason: string): void {
    if (!this.dynamic.includes(reason)) this.dynamic.push(reason);
  }

  /** Parses and walks one script (the top-level command or a nested `bash -c` string). */
  script(text: string, ctx: Ctx): string | undefined {
    if (ctx.depth > MAX_DEPTH) {
      this.addDynamic(`nesting deeper than ${MAX_DEPTH} levels of shell strings`);
      return;
    }
    let file: Node;
    try {
      file = this.syntax.NewParser().Parse(text, "").__internal_object__;
    } catch (error) {
      const e = error as { Error?: () => string; message?: string };
      const message = typeof e?.Error === "function" ? e.Error() : String(e?.message ?? error);
      if (ctx.depth > 0) this.addDynamic(`cannot parse nested script (${message})`);
      return message;
    }
    const src = new Source(text);
    for (const stmt of list(file.Stmts)) this.stmt(stmt, src, ctx);
  }

  #over(): boolean {
    return this.commands.length > this.limit;
  }

  stmt(stmt: Node, src: Source, ctx: Ctx): void {
    if (isNil(stmt) || this.#over()) return;
    const redirects: RedirectInfo[] = [];
    let stdin: ParsedCommand["stdin"] = null;
    let stdinText: string | null = null;
    for (const r of list(stmt.Redirs)) {
      const { info, literal } = this.redirect(r, src, ctx);
      redirects.push(info);
      const op = info.op.replace(/^\d+/, "");
      if (op === "<<<") {
        stdin = "herestring";
        stdinText = literal ? info.target : null;
      } else if (op === "<<" || op === "<<-") {
        stdin = "heredoc";
        stdinText = isNil(r.Hdoc) ? "" : this.heredocText(r.Hdoc, src, ctx);
      } else if (op === "<") stdin = "file";
    }
    const cmd = stmt.Cmd;
    if (isNil(cmd)) return;
    const type = typeOf(cmd);
    if (type === "CallExpr") {
      this.call(cmd, src, ctx, redirects, stdin, stdinText);
      return;
    }
    const inner: Ctx = {
      ...ctx,
      inheritedRedirects: [...ctx.inheritedRedirects, ...redirects],
      // `{ bash; } <<< 'cmd'`: commands inside a group read the group's stdin.
      stdin: stdin ?? ctx.stdin,
      stdinText: stdin ? stdinText : ctx.stdinText,
    };
    if (type === "DeclClause") {
      this.decl(cmd, src, inner);
      return;
    }
    this.compound(cmd, type, src, inner);
  }

  redirect(r: Node, src: Source, ctx: Ctx): { info: RedirectInfo; literal: boolean } {
    const opStart = r.OpPos.Offset();
    const hasWord = !isNil(r.Word);
    const wordStart = hasWord ? r.Word.Pos().Offset() : opStart + 1;
    const fd = isNil(r.N) ? "" : goStr(r.N.Value);
    const op = `${fd}${src.slice(opStart, wordStart).trim()}`;
    let target: WordValue = hasWord
      ? this.word(r.Word, src, ctx)
      : { text: "", literal: true, pattern: false };
    if (op.endsWith("<<<")) this.features.add("<<<");
    const heredoc = op.endsWith("<<") || op.endsWith("<<-") || op.endsWith("<<<");
    if (!heredoc && target.marked !== undefined) {
      const expanded = expandBraces(target.marked);
      if (expanded?.length === 1) target = { ...target, text: expanded[0], marked: undefined };
      else {
        this.addDynamic(
          `redirect target "${target.text}" is a brace pattern; name one file without braces`,
        );
      }
    }
    if (!heredoc && target.literal && target.pattern && /[*?[]/.test(target.text)) {
      this.addDynamic(
        `redirect target "${target.text}" is a glob pattern bash may expand; name the file exactly`,
      );
    }
    const t = target.text;
    if (/^\/dev\/(tcp|udp)\//.test(t)) this.addDynamic(`redirect to network device "${t}"`);
    else if (!target.literal && !/^\d*[<>]&$/.test(op) && !/^[0-9-]*$/.test(t)) {
      if (!op.endsWith("<<") && !op.endsWith("<<-")) {
        this.addDynamic(`redirect target "${t}" is not static`);
      }
    }
    return { info: { op, target: t }, literal: target.literal };
  }

  heredocText(hdoc: Node, src: Source, ctx: Ctx): string | null {
    const w = this.word(hdoc, src, { ...ctx, context: [...ctx.context, "heredoc"] });
    return w.literal ? w.text : null;
  }

  compound(node: Node, type: string, src: Source, ctx: Ctx): void {
    let next = ctx;
    switch (type) {
      case "FuncDecl": {
        const name = isNil(node.Name) ? "?" : goStr(node.Name.Value);
        next = { ...ctx, context: [...ctx.context, `function ${name}`] };
        break;
      }
      case "Subshell":
        next = { ...ctx, context: [...ctx.context, "(…)"] };
        break;
      case "BinaryCmd": {
        const op = src.slice(node.OpPos.Offset(), node.OpPos.Offset() + 2);
        this.stmt(node.X, src, ctx);
        const piped = op.startsWith("|") && op !== "||";
        this.stmt(node.Y, src, piped ? { ...ctx, piped: true } : ctx);
        return;
      }
      case "ArithmCmd":
      case "LetClause":
        this.arith(node, src, ctx);
        break;
      case "TestClause":
        this.testClause(node, src, ctx);
        break;
      case "CoprocClause":
        next = { ...ctx, context: [...ctx.context, "coproc"] };
        break;
      case "ForClause":
        if (typeOf(node.Loop) === "CStyleLoop") {
          this.arith(node.Loop, src, ctx);
        }
        break;
    }
    this.children(node, src, next);
  }

  /**
   * Arithmetic (`$(( ))`, `$[ ]`, `(( ))`, `let`, `for ((…))`, subscripts, `${s:off:len}`)
   * evaluates the text of every variable it names as arithmetic again, and a subscript in that
   * text runs commands (`x='a[$(cmd)]'; echo $((x))`). Only literal numbers are safe operands.
   */
  arith(node: Node, src: Source, _ctx: Ctx, label = "arithmetic"): void {
    if (isLiteralArith(node)) return;
    const text = src.of(node).trim();
    const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
    this.addDynamic(
      `${label} "${shown}" evaluates the text of its operands as code; ` +
        "run the arithmetic on literal numbers",
    );
  }

  /** `[[ ]]`: `-eq`-style comparisons are arithmetic; `-v name[sub]` evaluates the subscript. */
  testClause(node: Node, src: Source, ctx: Ctx): void {
    const visit = (n: Node): void => {
      const t = typeOf(n);
      if (t === "BinaryTest") {
        const op = src.slice(n.X.End().Offset(), n.Y.Pos().Offset()).trim();
        if (/^-(eq|ne|lt|le|gt|ge)$/.test(op)) {
          if (!isLiteralArith(n.X) || !isLiteralArith(n.Y)) {
            this.arith(n, src, ctx, "[[ … ]] comparison");
          }
          return;
        }
      }
      if (t === "UnaryTest" && /\[/.test(src.of(n))) {
        const op = src.of(n).trim().split(/\s+/)[0];
        if (op === "-v" || op === "-R") {
          const sub = /\[(.*)\]/.exec(src.of(n))?.[1] ?? "";
          if (!/^(\d+|@|\*)$/.test(sub)) {
            this.addDynamic(`[[ ${op} ]] evaluates the subscript "${sub}" as code`);
          }
        }
      }
      for (const c of childNodes(n)) visit(c);
    };
    visit(node);
  }

  /** Visits the direct children of a node with the generic walker (unknown node types too). */
  children(node: Node, src: Source, ctx: Ctx): void {
    for (const c of childNodes(node)) this.any(c, src, ctx);
  }

  /** Dispatch for a node found by the generic walk. */
  any(node: Node, src: Source, ctx: Ctx): void {
    if (this.#over()) return;
    const type = typeOf(node);
    switch (type) {
      case "Stmt":
        this.stmt(node, src, ctx);
        return;
      case "Word":
        this.word(node, src, ctx);
        return;
      case "Redirect":
        this.redirect(node, src, ctx);
        return;
      case "Assign":
        this.assign(node, src, ctx);
        return;
      case "CallExpr":
        this.call(node, src, ctx, [], null, null);
        return;
      case "DeclClause":
        this.decl(node, src, ctx);
        return;
      case "CmdSubst":
      case "ProcSubst":
      case "ParamExp":
      case "ArithmExp":
      case "DblQuoted":
        this.part(node, type, src, ctx);
        return;
      default:
        this.compound(node, type, src, ctx);
    }
  }

  assign(a: Node, src: Source, ctx: Ctx): void {
    const name = isNil(a.Name) ? "" : goStr(a.Name.Value);
    if (isRiskyVar(name)) this.addDynamic(`assigns ${name}, which changes what later commands run`);
    if (!isNil(a.Index)) {
      this.arith(a.Index, src, ctx, "array subscript");
      this.any(a.Index, src, ctx);
    }
    if (!isNil(a.Value)) {
      const v = this.word(a.Value, src, ctx);
      if (v.literal) this.words.add(v.text.toLowerCase());
      // `x='a[$(cmd)]'; echo $((x))` or `[[ $x -eq 1 ]]` runs cmd: arithmetic re-evaluates it.
      if (v.literal && /\$\(|`|\$\{/.test(v.text)) {
        this.addDynamic(`assigns command text to ${name || "a variable"}, which bash can evaluate`);
      }
    }
    if (!isNil(a.Array)) this.children(a.Array, src, ctx);
  }

  /** Resolves a word to its static text, walking into every expansion it contains. */
  word(word: Node, src: Source, ctx: Ctx): WordValue {
    let text = "";
    let marked = "";
    let braces = false;
    let literal = true;
    let pattern = false;
    const parts: Node[] = isNil(word) ? [] : list(word.Parts);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      const type = typeOf(part);
      let piece: string;
      if (type === "Lit") {
        const r = unescapeUnquoted(goStr(part.Value), i === 0);
        if (parts.length > 1) this.words.add(basename(r.text).toLowerCase());
        text += r.text;
        marked += r.marked;
        if (r.braces) braces = true;
        if (r.pattern) pattern = true;
        continue;
      } else if (type === "SglQuoted") {
        const value = goStr(part.Value);
        piece = part.Dollar ? decodeAnsiC(value) : value;
      } else if (type === "DblQuoted") {
        const r = this.dblQuoted(part, src, ctx);
        piece = r.text;
        if (!r.literal) literal = false;
      } else if (type === "ExtGlob") {
        piece = src.of(part);
        pattern = true;
      } else {
        piece = src.of(part);
        literal = false;
        this.part(part, type, src, ctx);
      }
      text += piece;
      marked += piece;
    }
    return braces ? { text, literal, pattern, marked } : { text, literal, pattern };
  }

  dblQuoted(node: Node, src: Source, ctx: Ctx): { text: string; literal: boolean } {
    let text = "";
    let literal = true;
    for (const part of list(node.Parts)) {
      const type = typeOf(part);
      if (type === "Lit") text += unescapeDouble(goStr(part.Value));
      else {
        text += src.of(part);
        literal = false;
        this.part(part, type, src, ctx);
      }
    }
    return { text, literal };
  }

  part(node: Node, type: string, src: Source, ctx: Ctx): void {
    switch (type) {
      case "CmdSubst": {
        const label = node.Backquotes ? "`…`" : "$(…)";
        this.features.add(node.Backquotes ? "`" : "$(");
        const inner = { ...ctx, piped: false, stdin: null, context: [...ctx.context, label] };
        for (const s of list(node.Stmts)) this.stmt(s, src, inner);
        return;
      }
      case "ProcSubst": {
        const text = src.of(node);
        const label = text.startsWith(">") ? ">(…)" : "<(…)";
        this.features.add(label.slice(0, 2));
        const inner = { ...ctx, piped: false, stdin: null, context: [...ctx.context, label] };
        for (const s of list(node.Stmts)) this.stmt(s, src, inner);
        return;
      }
      case "ParamExp": {
        const text = src.of(node);
        if (node.Excl) this.addDynamic(`indirect expansion "${text}"`);
        if (/@[PEAKaQUuLk]\}$/.test(text)) this.addDynamic(`transforming expansion "${text}"`);
        if (!isNil(node.Index) && !isLiteralArith(node.Index)) {
          this.arith(node.Index, src, ctx, "array subscript");
        }
        if (!isNil(node.Slice)) {
          for (const w of [node.Slice.Offset, node.Slice.Length]) {
            if (!isNil(w)) this.arith(w, src, ctx, "substring offset");
          }
        }
        this.children(node, src, ctx);
        return;
      }
      case "ArithmExp":
        this.arith(node, src, ctx);
        this.children(node, src, ctx);
        return;
      case "DblQuoted":
        this.dblQuoted(node, src, ctx);
        return;
      default:
        this.children(node, src, ctx);
    }
  }

  /** The words bash's brace expansion makes of one word (`cat {..,.}/x` → two paths). */
  braceWords(w: WordValue): WordValue[] {
    if (w.marked === undefined) return [w];
    const expanded = expandBraces(w.marked);
    if (expanded === null) {
      this.addDynamic(`brace expansion of "${w.text}" makes over ${MAX_BRACE_WORDS} words`);
      return [w];
    }
    if (expanded.length === 1 && expanded[0] === w.text) return [{ ...w, marked: undefined }];
    return expanded.map((text) => ({
      text,
      literal: w.literal,
      pattern: /[*?[]/.test(text) && w.pattern,
    }));
  }

  decl(node: Node, src: Source, ctx: Ctx): void {
    const variant = isNil(node.Variant) ? "declare" : goStr(node.Variant.Value);
    const args: string[] = [];
    const values: WordValue[] = [];
    let literal = true;
    for (const a of list(node.Args)) {
      // `declare -x` flags come as Naked assigns with a Value word; names as Naked with Name.
      if (a.Naked && !isNil(a.Value) && isNil(a.Name)) {
        const w = this.word(a.Value, src, ctx);
        args.push(w.text);
        values.push(w);
        if (!w.literal) literal = false;
        continue;
      }
      this.assign(a, src, ctx);
      // Assignments are shown as written (`A=$(a)`), not re-quoted.
      args.push(src.of(a));
      values.push({ text: src.of(a), literal: false, pattern: false });
    }
    if (variant === "declare" || variant === "typeset" || variant === "local") {
      if (args.some((a) => /^-\w*f/.test(a))) this.addDynamic(`${variant} -f changes functions`);
    }
    if (args.some((a) => /^-\w*i/.test(a))) {
      this.addDynamic(
        `${variant} -i makes later assignments evaluate their text as arithmetic code; ` +
          "assign literal numbers without -i",
      );
    }
    this.push({
      program: variant,
      args,
      redirects: [...ctx.inheritedRedirects],
      programIsLiteral: true,
      argsLiteral: literal,
      context: ctx.context,
      stdin: ctx.piped ? "pipe" : null,
      stdinText: null,
      wrappers: [],
    }, values);
  }

  call(
    node: Node,
    src: Source,
    ctx: Ctx,
    redirects: RedirectInfo[],
    stdin: ParsedCommand["stdin"],
    stdinText: string | null,
  ): void {
    for (const a of list(node.Assigns)) this.assign(a, src, ctx);
    const words: WordValue[] = [];
    for (const w of list(node.Args)) words.push(...this.braceWords(this.word(w, src, ctx)));
    for (const w of words) {
      if (!w.literal) continue;
      this.words.add(basename(w.text).toLowerCase());
      // `{sudo,x}` expands to program names too: remember the alternatives.
      if (w.pattern) {
        for (const alt of w.text.split(/[{},]/)) {
          if (alt) this.words.add(basename(alt).toLowerCase());
        }
      }
    }
    if (words.length === 0) return;
    this.build(words, {
      ctx,
      redirects: [...ctx.inheritedRedirects, ...redirects],
      stdin: stdin ?? ctx.stdin ?? (ctx.piped ? "pipe" : null),
      stdinText: stdin ? stdinText : ctx.stdinText ?? null,
      wrappers: [],
    });
  }

  /** Strips wrappers off a word list, records the command, recurses into nested scripts. */
  build(
    words: WordValue[],
    o: {
      ctx: Ctx;
      redirects: RedirectInfo[];
      stdin: ParsedCommand["stdin"];
      stdinText: string | null;
      wrappers: string[];
      placeholder?: string;
    },
  ): void {
    let ws = words;
    const wrappers = [...o.wrappers];
    let context = o.ctx.context;
    let placeholder = o.placeholder;
    for (let guard = 0; guard < 32 && ws.length > 0; guard++) {
      const first = ws[0];
      if (!first.literal || first.pattern) break;
      const name = basename(first.text);
      const stripped = stripWrapper(name, ws);
      if (stripped?.unknownOption !== undefined) {
        this.addDynamic(
          `${name} option "${stripped.unknownOption}" is not known to the analysis, so the ` +
            `command it runs cannot be found; run the command without ${name}`,
        );
        break;
      }
      if (!stripped || (stripped.script === undefined && stripped.rest.length === 0)) break;
      if (stripped.script !== undefined) {
        // `env -S "…"` / `watch …`: the rest is a shell string.
        this.nested(stripped.script, `${name}`, o.ctx, context, o);
        return;
      }
      if (name === "chroot" || name === "unshare") {
        // Not transparent: they change what "the program" is. Rules see them and what they run.
        this.push({
          program: name,
          args: ws.slice(1).map((w) => w.text),
          redirects: o.redirects,
          programIsLiteral: true,
          argsLiteral: ws.every((w) => w.literal),
          context,
          stdin: o.stdin,
          stdinText: o.stdinText,
          wrappers: [...wrappers],
        }, ws.slice(1));
        context = [...context, name];
      } else wrappers.push(name);
      if (name === "xargs" || name === "parallel") {
        context = [...context, name];
        placeholder = stripped.placeholder ?? "";
      }
      ws = stripped.rest;
    }
    const programWord = ws[0];
    const programIsLiteral = programWord.literal && !programWord.pattern &&
      !(placeholder !== undefined && placeholder !== "" && programWord.text.includes(placeholder));
    const program = programIsLiteral ? basename(programWord.text) : programWord.text;
    const args = ws.slice(1).map((w) => w.text);
    let argsLiteral = ws.slice(1).every((w) => w.literal);
    if (placeholder) {
      if (args.some((a) => a.includes(placeholder!))) argsLiteral = false;
    }
    if (!programIsLiteral) {
      this.addDynamic(`the program name "${programWord.text}" is not static`);
    } else if (/\s/.test(program)) {
      // A wrapper we do not know may hand it to a shell: its words count as program names.
      for (const w of program.split(/\s+/)) if (w) this.words.add(basename(w).toLowerCase());
      this.addDynamic(`the program name "${program}" contains blanks`);
    }
    if ((context.includes("xargs") || context.includes("parallel")) && placeholder === "") {
      // xargs appends its input: the final argument list is unknown.
      argsLiteral = false;
    }
    const cmd: ParsedCommand = {
      program,
      args,
      raw: "",
      redirects: o.redirects,
      programIsLiteral,
      argsLiteral,
      context,
      stdin: o.stdin,
      stdinText: o.stdinText,
      wrappers,
    };
    if (programIsLiteral && programWord.text.includes("/")) {
      cmd.path = programWord.text.replace(/\/+/g, "/");
    }
    this.push(cmd, ws.slice(1));
    const pushed = this.commands[this.commands.length - 1];
    if (!programIsLiteral) return;
    const lower = program.toLowerCase();

    // Privilege wrappers: the program itself is what rules see, but the command they run is
    // analysed too so its own deny rules apply.
    if (["sudo", "doas", "pkexec", "run0", "runuser", "su"].includes(lower)) {
      const inner = privilegedCommand(lower, ws.slice(1));
      if (inner.script !== undefined) this.nested(inner.script, lower, o.ctx, context, o);
      else if (inner.rest.length > 0) {
        this.build(inner.rest, { ...o, ctx: { ...o.ctx, context: [...context, lower] }, wrappers });
      }
      return;
    }
    if (SHELLS.has(lower) || lower === "busybox") {
      const s = shellScript(ws.slice(1));
      if (s.script !== undefined) {
        if (!s.literal || (placeholder && s.script.includes(placeholder))) {
          this.addDynamic(`${program} -c with a script that is not static`);
        } else {
          const before = this.dynamic.length;
          this.nested(s.script, `${program} -c`, o.ctx, context, o);
          if (s.harmless && this.dynamic.length === before && SHELLS.has(lower)) {
            pushed.scriptAnalysed = true;
          }
        }
      } else if (s.readsStdin) {
        if (o.stdin === "herestring" || o.stdin === "heredoc") {
          if (o.stdinText !== null) {
            this.nested(o.stdinText, `${program} <<<`, o.ctx, context, null);
          } else this.addDynamic(`${program} reads a script from a here-document with expansions`);
        } else if (o.stdin === "pipe") {
          this.addDynamic(`a pipe into the interpreter "${program}"`);
        } else if (o.stdin === "file") {
          this.addDynamic(`${program} reads its script from a redirected file`);
        }
      }
      return;
    }
    if (lower === "eval") {
      const all = ws.slice(1);
      if (all.every((w) => w.literal)) {
        this.nested(all.map((w) => w.text).join(" "), "eval", o.ctx, context, o);
      }
      this.addDynamic("eval runs a string as code");
      return;
    }
    if (lower === "source" || lower === ".") {
      this.addDynamic(`${program} runs another file's code`);
      return;
    }
    if (lower === "trap" && ws.length > 2) {
      const action = ws[1];
      if (action.literal) this.nested(action.text, "trap", o.ctx, context, o);
      this.addDynamic("trap stores code to run later");
      return;
    }
    if (lower === "find") {
      this.findExec(ws.slice(1), o, context);
      return;
    }
    if (INTERPRETERS.has(lower) && o.stdin && !hasScriptOperand(lower, args)) {
      this.addDynamic(
        o.stdin === "pipe"
          ? `a pipe into the interpreter "${program}"`
          : `the interpreter "${program}" reads code from stdin (${o.stdin})`,
      );
    }
  }

  findExec(
    words: WordValue[],
    o: { ctx: Ctx; redirects: RedirectInfo[]; wrappers: string[] },
    context: string[],
  ): void {
    for (let i = 0; i < words.length; i++) {
      const t = words[i].text;
      if (t === "-exec" || t === "-execdir" || t === "-ok" || t === "-okdir") {
        let j = i + 1;
        const sub: WordValue[] = [];
        while (j < words.length && words[j].text !== ";" && words[j].text !== "+") {
          sub.push(words[j]);
          j++;
        }
        if (sub.length > 0) {
          this.build(sub, {
            ctx: { ...o.ctx, context: [...context, `find ${t}`] },
            redirects: [],
            stdin: null,
            stdinText: null,
            wrappers: [],
            placeholder: "{}",
          });
        }
        i = j;
      }
    }
  }

  /**
   * Analyses a shell string (`bash -c`, `eval`, …). Its commands read the outer command's stdin
   * (`echo x | bash -c 'sh'` pipes into sh), except when the stdin was the script itself.
   */
  nested(
    script: string,
    label: string,
    ctx: Ctx,
    context: string[],
    stdin: { stdin: ParsedCommand["stdin"]; stdinText: string | null } | null,
  ): void {
    const error = this.script(script, {
      ...ctx,
      piped: stdin?.stdin === "pipe",
      stdin: stdin?.stdin === "pipe" ? null : stdin?.stdin ?? null,
      stdinText: stdin?.stdinText ?? null,
      depth: ctx.depth + 1,
      context: [...context, label],
    });
    if (error) this.addDynamic(`cannot parse the ${label} script: ${error}`);
  }

  /** `words` (when known) says which arguments are literal text, quoted in `raw` if needed. */
  push(c: Omit<ParsedCommand, "raw">, words?: WordValue[]): void {
    const args = c.args.map((a, i) => (words?.[i]?.literal === false ? a : quoteArg(a)));
    const raw = [c.program, ...args].join(" ");
    this.commands.push({ ...c, raw });
  }
}

/**
 * An argument as it appears in `raw`: plain when it is a simple word, single-quoted when it holds
 * blanks or shell syntax, so `rm "a b"` and `rm a b` have different normalised forms (an "always"
 * for one must not approve the other).
 */
export function quoteArg(arg: string): string {
  if (arg !== "" && !/[\s;&|<>()'"`\\$]/.test(arg)) return arg;
  return `'${arg.replace(/'/g, "'\\''")}'`;
}

function basename(path: string): string {
  const i = path.lastIndexOf("/");
  return i >= 0 && i < path.length - 1 ? path.slice(i + 1) : path;
}

/**
 * Unquoted literal: backslash escapes removed, line continuations dropped, patterns flagged;
 * `marked` is the text with the unescaped `{`, `,`, `}` marked for brace expansion.
 */
function unescapeUnquoted(
  value: string,
  first: boolean,
): { text: string; pattern: boolean; marked: string; braces: boolean } {
  let text = "";
  let marked = "";
  let pattern = false;
  let braces = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "\\") {
      const n = value[i + 1];
      if (n === "\n") i++;
      else if (n !== undefined) {
        text += n;
        marked += n;
        i++;
      }
      continue;
    }
    if (c === "*" || c === "?" || (c === "[" && value.indexOf("]", i + 1) > i)) pattern = true;
    if (c === "{" && /\{[^{}]*(,|\.\.)[^{}]*\}/.test(value.slice(i))) pattern = true;
    if (c === "~" && first && i === 0) pattern = pattern || false;
    text += c;
    if (c === "{" || c === "}" || c === ",") braces = true;
    marked += c === "{" ? BRACE_OPEN : c === "}" ? BRACE_CLOSE : c === "," ? BRACE_COMMA : c;
  }
  return { text, pattern, marked, braces };
}

function unescapeDouble(value: string): string {
  return value.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c));
}

/** `$'…'` (ANSI-C quoting) as bash decodes it. */
export function decodeAnsiC(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c !== "\\" || i + 1 >= value.length) {
      out += c;
      continue;
    }
    const n = value[++i];
    const simple: Record<string, string> = {
      a: "\x07",
      b: "\b",
      e: "\x1b",
      E: "\x1b",
      f: "\f",
      n: "\n",
      r: "\r",
      t: "\t",
      v: "\v",
      "\\": "\\",
      "'": "'",
      '"': '"',
      "?": "?",
    };
    if (n in simple) {
      out += simple[n];
      continue;
    }
    const take = (re: RegExp, max: number): string => {
      let s = "";
      while (s.length < max && i + 1 < value.length && re.test(value[i + 1])) s += value[++i];
      return s;
    };
    if (n >= "0" && n <= "7") {
      i--;
      const digits = take(/[0-7]/, 3);
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
    } else if (n === "x") {
      const h = take(/[0-9a-fA-F]/, 2);
      out += h ? String.fromCharCode(parseInt(h, 16)) : "\\x";
    } else if (n === "u" || n === "U") {
      const h = take(/[0-9a-fA-F]/, n === "u" ? 4 : 8);
      out += h ? String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)) : `\\${n}`;
    } else if (n === "c" && i + 1 < value.length) {
      out += String.fromCharCode(value[++i].toUpperCase().charCodeAt(0) & 0x1f);
    } else out += `\\${n}`;
  }
  return out;
}

interface Stripped {
  rest: WordValue[];
  script?: string;
  placeholder?: string;
  /** An option of a strict wrapper the analysis does not know (the command is refused). */
  unknownOption?: string;
}

/** Option specs: which short/long options take a value, per wrapper. */
const WRAPPERS: Record<
  string,
  { withValue: string[]; positional?: number; flags?: RegExp }
> = {
  env: { withValue: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"] },
  command: { withValue: [] },
  builtin: { withValue: [] },
  exec: { withValue: ["-a"] },
  nice: { withValue: ["-n", "--adjustment"] },
  nohup: { withValue: [] },
  time: { withValue: ["-f", "--format", "-o", "--output"] },
  timeout: { withValue: ["-s", "--signal", "-k", "--kill-after"], positional: 1 },
  stdbuf: { withValue: ["-i", "-o", "-e", "--input", "--output", "--error"] },
  setsid: { withValue: [] },
  ionice: { withValue: ["-c", "--class", "-n", "--classdata", "-p", "--pid"] },
  chrt: { withValue: [], positional: 1 },
  taskset: { withValue: [], positional: 1 },
  xargs: {
    withValue: [
      "-I",
      "-L",
      "-n",
      "-P",
      "-s",
      "-d",
      "-E",
      "-a",
      "--arg-file",
      "--delimiter",
      "--max-args",
      "--max-procs",
      "--max-lines",
      "--max-chars",
      "--replace",
      "--eof",
      "--process-slot-var",
    ],
  },
  busybox: { withValue: [] },
  unbuffer: { withValue: [] },
  caffeinate: { withValue: [] },
  flock: { withValue: ["-w", "--timeout", "-E", "--conflict-exit-code"], positional: 1 },
  watch: { withValue: ["-n", "--interval", "-d", "--differences", "-q", "--equexit"] },
  chroot: { withValue: ["--userspec", "--groups"], positional: 1 },
  strace: { withValue: ["-o", "-e", "-p", "-s", "-u", "-P", "-E", "-a", "-b", "-I", "-X"] },
  ltrace: { withValue: ["-o", "-e", "-p", "-s", "-u", "-a", "-n"] },
  valgrind: { withValue: [] },
  unshare: { withValue: ["-S", "-G", "--setuid", "--setgid", "-R", "--root", "-w", "--wd"] },
  fakeroot: { withValue: ["-l", "--lib", "--faked", "-s", "-i"] },
  proxychains: { withValue: ["-f"] },
  proxychains4: { withValue: ["-f"] },
  torsocks: { withValue: ["-u", "-p", "-a", "-P"] },
  faketime: { withValue: ["-m", "-f"], positional: 1 },
  catchsegv: { withValue: [] },
  "dbus-launch": { withValue: [] },
  script: { withValue: ["-c", "--command", "-E", "--echo", "-T", "--log-timing"] },
  parallel: { withValue: ["-j", "--jobs", "-S", "--sshlogin", "--joblog", "-a", "--arg-file"] },
  setpriv: {
    withValue: [
      "--reuid",
      "--euid",
      "--ruid",
      "--regid",
      "--egid",
      "--rgid",
      "--groups",
      "--inh-caps",
      "--ambient-caps",
      "--bounding-set",
      "--securebits",
      "--pdeathsig",
      "--selinux-label",
      "--apparmor-profile",
      "--landlock-access",
      "--landlock-rule",
      "--seccomp-filter",
    ],
    flags:
      /^(-d|--dump|--clear-groups|--keep-groups|--init-groups|--no-new-privs|--reset-env|--(reuid|euid|ruid|regid|egid|rgid|groups|inh-caps|ambient-caps|bounding-set|securebits|pdeathsig|selinux-label|apparmor-profile|landlock-access|landlock-rule|seccomp-filter)=.*)$/,
  },
  prlimit: {
    withValue: ["-p", "--pid", "-o", "--output"],
    flags:
      /^(-[ACcdefilmnqrstuvxy][0-9:unlimted]*|--(as|core|cpu|data|fsize|locks|memlock|msgqueue|nice|nofile|nproc|rss|rtprio|rttime|sigpending|stack)(=.*)?|--noheadings|--raw|--verbose|--(pid|output)=.*)$/,
  },
  nsenter: {
    withValue: ["-t", "--target", "-S", "--setuid", "-G", "--setgid", "-N", "--net-socket"],
    flags:
      /^(-[muinpUCTFZar]+|-[mutinpUCTrw]\/\S*|--(mount|uts|ipc|net|pid|user|cgroup|time|root|wd)(=.*)?|--preserve-credentials|--no-fork|--follow-context|--all|--(target|setuid|setgid)=.*)$/,
  },
};

/** Wrappers that change privileges or namespaces: an option we do not know is refused. */
const STRICT_WRAPPERS = new Set(["setpriv", "prlimit", "nsenter"]);

function stripWrapper(name: string, words: WordValue[]): Stripped | null {
  if (name === "sg") {
    // `sg [-] group [-c] command`: sg hands the command to /bin/sh -c.
    let i = 1;
    if (words[i]?.text === "-") i++;
    i++; // the group
    if (words[i]?.text === "-c") i++;
    if (i >= words.length) return null;
    const rest = words.slice(i);
    return { rest: [], script: rest.map((w) => w.text).join(" ") };
  }
  const spec = WRAPPERS[name];
  if (!spec) return null;
  if (name === "command" || name === "type" || name === "builtin") {
    // `command -v x` / `-V` only looks x up.
    if (words[1]?.text === "-v" || words[1]?.text === "-V") return null;
  }
  let i = 1;
  let placeholder: string | undefined;
  let positional = spec.positional ?? 0;
  while (i < words.length) {
    const t = words[i].text;
    if (!words[i].literal) break;
    if (t === "--") {
      i++;
      break;
    }
    if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) {
      i++;
      continue;
    }
    if (name === "env" && (t === "-S" || t === "--split-string" || t.startsWith("-S"))) {
      const value = t === "-S" || t === "--split-string" ? words[i + 1]?.text ?? "" : t.slice(2);
      const after = words.slice(t === "-S" || t === "--split-string" ? i + 2 : i + 1);
      return { rest: [], script: [value, ...after.map((w) => w.text)].join(" ") };
    }
    if (t.startsWith("--split-string=")) {
      return { rest: [], script: t.slice("--split-string=".length) };
    }
    if (
      (name === "script" || name === "flock") &&
      (t === "-c" || t === "--command" || (name === "script" && /^-[a-zA-Z]*c$/.test(t)))
    ) {
      return { rest: [], script: words[i + 1]?.text ?? "" };
    }
    if (name === "xargs") {
      if (t === "-I" || t === "--replace") placeholder = words[i + 1]?.text ?? "{}";
      else if (t.startsWith("-I")) placeholder = t.slice(2);
      else if (t === "-i" || t.startsWith("--replace=")) {
        placeholder = t.startsWith("--replace=") ? t.slice(10) || "{}" : "{}";
      } else if (t.startsWith("-i")) placeholder = t.slice(2);
    }
    if (t.startsWith("-") && t.length > 1) {
      if (spec.withValue.includes(t)) i += 2;
      else if (STRICT_WRAPPERS.has(name) && !spec.flags?.test(t)) {
        return { rest: [], unknownOption: t };
      } else i++;
      continue;
    }
    if (name === "nice" && /^-\d+$/.test(t)) {
      i++;
      continue;
    }
    if (positional > 0) {
      positional--;
      i++;
      continue;
    }
    break;
  }
  const rest = words.slice(i);
  if (name === "script") return { rest: [] };
  if (name === "parallel" && rest[0] && /\s/.test(rest[0].text)) {
    // `parallel 'cmd {}' ::: a b`: the command is a shell string.
    const end = rest.findIndex((w) => /^:::+$/.test(w.text));
    return { rest: [], script: rest.slice(0, end < 0 ? 1 : end).map((w) => w.text).join(" ") };
  }
  if (name === "parallel") {
    const end = rest.findIndex((w) => /^:::+$/.test(w.text));
    return { rest: end < 0 ? rest : rest.slice(0, end), placeholder: "{}" };
  }
  if (name === "watch") {
    return { rest: [], script: rest.map((w) => w.text).join(" ") };
  }
  return { rest, placeholder };
}

function privilegedCommand(name: string, words: WordValue[]): Stripped {
  if (name === "su" || name === "runuser") {
    for (let k = 0; k < words.length; k++) {
      const t = words[k].text;
      if (t === "-c" || t === "--command" || t === "--session-command") {
        return words[k + 1] ? { rest: [], script: words[k + 1].text } : { rest: [] };
      }
      if (/^--(session-)?command=/.test(t)) return { rest: [], script: t.replace(/^[^=]*=/, "") };
      if (/^-[a-zA-Z]*c$/.test(t) && words[k + 1]) return { rest: [], script: words[k + 1].text };
    }
    // `runuser -u user [--] command…` runs the command directly.
    const u = words.findIndex((w) => w.text === "-u" || w.text === "--user");
    if (name === "runuser" && u >= 0) {
      let i = u + 2;
      while (i < words.length && words[i].text.startsWith("-") && words[i].text !== "--") i++;
      if (words[i]?.text === "--") i++;
      return { rest: words.slice(i) };
    }
    return { rest: [] };
  }
  const withValue = new Set([
    "-u",
    "-g",
    "-p",
    "-C",
    "-h",
    "-r",
    "-t",
    "-U",
    "-D",
    "-a",
    "--user",
    "--group",
    "--prompt",
    "--close-from",
    "--host",
    "--role",
    "--type",
    "--other-user",
    "--chdir",
    "--chroot",
  ]);
  let i = 0;
  while (i < words.length) {
    const t = words[i].text;
    if (t === "--") {
      i++;
      break;
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) {
      i++;
      continue;
    }
    if (t.startsWith("-")) {
      i += withValue.has(t) ? 2 : 1;
      continue;
    }
    break;
  }
  return { rest: words.slice(i) };
}

/** `bash [opts] -c SCRIPT` → the script; `bash` with no script operand reads stdin. */
function shellScript(
  words: WordValue[],
): { script?: string; literal: boolean; readsStdin: boolean; harmless?: boolean } {
  let hasC = false;
  // Options that change nothing but tracing, login profile and error handling.
  let harmless = true;
  let i = 0;
  for (; i < words.length; i++) {
    const t = words[i].text;
    if (t === "--") {
      i++;
      break;
    }
    if (
      t === "-o" || t === "+o" || t === "-O" || t === "+O" || t === "--rcfile" ||
      t === "--init-file"
    ) {
      if (!(t === "-o" && /^(pipefail|errexit|nounset|xtrace)$/.test(words[i + 1]?.text ?? ""))) {
        harmless = false;
      }
      i++;
      continue;
    }
    if (/^-[a-zA-Z]+$/.test(t)) {
      if (t.includes("c")) hasC = true;
      if (t.includes("s")) return { literal: true, readsStdin: true };
      if (!/^-[lceuxv]+$/.test(t)) harmless = false;
      continue;
    }
    if (t.startsWith("--")) {
      if (!/^--(login|noprofile|norc|posix)$/.test(t)) harmless = false;
      continue;
    }
    if (t.startsWith("+")) {
      harmless = false;
      continue;
    }
    break;
  }
  if (hasC) {
    const w = words[i];
    if (!w) return { literal: true, readsStdin: false, script: "" };
    // Extra words become $0, $1…: the script's expansions of them are not analysed.
    return {
      script: w.text,
      literal: w.literal,
      readsStdin: false,
      harmless: harmless && i === words.length - 1,
    };
  }
  const operand = words[i];
  if (!operand || operand.text === "-" || operand.text === "/dev/stdin") {
    return { literal: true, readsStdin: true };
  }
  return { literal: true, readsStdin: false };
}

function hasScriptOperand(program: string, args: string[]): boolean {
  const operands = args.filter((a) => !a.startsWith("-"));
  if (operands.length === 0) return false;
  if (operands[0] === "/dev/stdin") return false;
  if (program === "awk" || program === "gawk" || program === "mawk" || program === "nawk") {
    return true;
  }
  return true;
}

export function newExtractor(syntax: Syntax, limit: number): Extractor {
  return new Extractor(syntax, limit);
}

export function rootCtx(): Ctx {
  return { context: [], piped: false, inheritedRedirects: [], depth: 0 };
}

/** Every operand of an arithmetic expression is a literal number (no variable, no expansion). */
function isLiteralArith(node: Node): boolean {
  if (isNil(node)) return true;
  if (typeOf(node) === "Word") {
    const parts = list(node.Parts);
    if (parts.length !== 1) return false;
    if (typeOf(parts[0]) === "ParamExp") return isNumericParam(parts[0]);
    if (typeOf(parts[0]) !== "Lit") return false;
    return /^(0[xX][0-9a-fA-F]+|[0-9]+(#[0-9a-zA-Z@_]+)?|@|\*)$/.test(goStr(parts[0].Value));
  }
  return childNodes(node).every(isLiteralArith);
}

/** `$#`, `$?`, `$$`, `$!`, `${#x}`: always a number, never text bash would evaluate again. */
function isNumericParam(p: Node): boolean {
  if (!isNil(p.Slice) || !isNil(p.Repl) || !isNil(p.Exp) || p.Excl) return false;
  if (p.Length) return true;
  const name = isNil(p.Param) ? "" : goStr(p.Param.Value);
  return isNil(p.Index) && /^[#?$!]$/.test(name);
}

// Brace expansion: unquoted `{`, `,`, `}` are marked while a word is resolved, so quoted and
// escaped ones stay literal; `expandBraces` then produces bash's words.
const BRACE_OPEN = "\uE000";
const BRACE_CLOSE = "\uE001";
const BRACE_COMMA = "\uE002";
const MAX_BRACE_WORDS = 1024;

function unmarkBraces(s: string): string {
  return s.replaceAll(BRACE_OPEN, "{").replaceAll(BRACE_CLOSE, "}").replaceAll(BRACE_COMMA, ",");
}

/** The words bash's brace expansion makes of a marked word (in order), or null past the limit. */
export function expandBraces(marked: string): string[] | null {
  const out: string[] = [];
  const walk = (s: string, from: number): boolean => {
    for (let i = from; i < s.length; i++) {
      if (s[i] !== BRACE_OPEN) continue;
      let depth = 0;
      let end = -1;
      const commas: number[] = [];
      for (let j = i; j < s.length; j++) {
        if (s[j] === BRACE_OPEN) depth++;
        else if (s[j] === BRACE_CLOSE && --depth === 0) {
          end = j;
          break;
        } else if (s[j] === BRACE_COMMA && depth === 1) commas.push(j);
      }
      if (end < 0) return walk(s, i + 1);
      const pre = s.slice(0, i);
      const post = s.slice(end + 1);
      let alternatives: string[] | null = null;
      if (commas.length > 0) {
        alternatives = [];
        let start = i + 1;
        for (const c of [...commas, end]) {
          alternatives.push(s.slice(start, c));
          start = c + 1;
        }
      } else alternatives = sequence(unmarkBraces(s.slice(i + 1, end)));
      if (alternatives === null) continue; // `{x}`: literal braces, look further
      if (alternatives.length > MAX_BRACE_WORDS) return false;
      for (const alt of alternatives) {
        if (!walk(pre + alt + post, 0)) return false;
      }
      return true;
    }
    const word = unmarkBraces(s);
    if (word !== "") out.push(word);
    return out.length <= MAX_BRACE_WORDS;
  };
  return walk(marked, 0) ? out : null;
}

/** `{1..5}`, `{01..10..3}`, `{a..e}`: the sequence, or null when it is not one. */
function sequence(inner: string): string[] | null {
  const num = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  const chr = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/.exec(inner);
  const m = num ?? chr;
  if (!m) return null;
  const step = Math.abs(parseInt(m[3] ?? "1", 10)) || 1;
  const from = num ? parseInt(m[1], 10) : m[1].charCodeAt(0);
  const to = num ? parseInt(m[2], 10) : m[2].charCodeAt(0);
  const count = Math.floor(Math.abs(to - from) / step) + 1;
  if (count > MAX_BRACE_WORDS) return new Array(MAX_BRACE_WORDS + 1).fill("");
  const width = num && (/^-?0\d/.test(m[1]) || /^-?0\d/.test(m[2]))
    ? Math.max(m[1].length, m[2].length)
    : 0;
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const v = from + (to >= from ? k * step : -k * step);
    if (!num) out.push(String.fromCharCode(v));
    else {
      const digits = String(Math.abs(v)).padStart(width - (v < 0 ? 1 : 0), "0");
      out.push(v < 0 ? `-${digits}` : digits);
    }
  }
  return out;
}
