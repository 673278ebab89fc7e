import picomatch from "picomatch";
import { RE2JS } from "re2js";
import { z } from "zod";
import { clipLine, fileError, q, throwIfAborted } from "./_file.ts";
import { fileMatcher, type GrepSpec, readSmallFile } from "./_grep_core.ts";
import {
  CANCEL,
  DONE,
  FOUND,
  type GrepItem,
  type HelperHit,
  type HelperRequest,
} from "./_grep_helper.ts";
import { gitignoreTop, walk } from "./_walk.ts";
import { ToolError } from "./errors.ts";
import { defineTool } from "./tool.ts";

export const GrepParams = z.object({
  pattern: z.string().min(1).describe(
    "Regular expression (RE2 syntax: no backreferences or lookaround) matched against each line",
  ),
  path: z.string().default(".").describe(
    "File or directory to search, relative to the workspace or absolute inside it (default: the workspace)",
  ),
  case_sensitive: z.boolean().default(true).describe("Match letter case exactly (default true)"),
  glob: z.string().min(1).optional().describe(
    'Only search files whose path relative to `path` matches this glob, e.g. "**/*.ts"',
  ),
  context: z.number().int().min(0).max(20).default(0).describe(
    "Lines of context to show before and after each matching line (default 0)",
  ),
});
export type GrepParams = z.infer<typeof GrepParams>;

const DESCRIPTION = `Search file contents for a regular expression.

Parameters:
- pattern: a regular expression in RE2 syntax (like JavaScript, without backreferences or
  lookaround), matched against each line separately.
- path: the file or directory to search (default: the workspace). Directories are searched
  recursively, skipping files excluded by .gitignore, the .git directory, binary files and
  unreadable files.
- case_sensitive: false to ignore letter case (default true).
- glob: only search files whose path (relative to \`path\`) matches this glob, e.g. "**/*.ts".
- context: lines to show before and after each match (default 0).

Returns: matching lines as "<path>:<line>: <text>", with paths relative to the workspace and
1-based line numbers; context lines as "<path>-<line>- <text>" with "--" between groups. At most 100
matching lines are returned; a note says when the search stopped early.

Errors: invalid regular expression (invalid_parameters); path outside the workspace or denied by
[tools.file] deny_read (policy_blocked); path does not exist (permanent_failure).

Example: {"pattern": "function\\\\s+load\\\\w*", "path": "src", "glob": "**/*.ts", "context": 2}`;

function compile(pattern: string, flags: number): RE2JS {
  try {
    return RE2JS.compile(pattern, flags);
  } catch (error) {
    throw new ToolError(
      "invalid_parameters",
      `Cannot search for ${q(pattern)}: invalid regular expression (${(error as Error).message})`,
      {
        hint: "Use RE2 syntax: escape special characters with \\ and avoid backreferences " +
          "and lookaround.",
      },
    );
  }
}

export const grepTool = defineTool({
  name: "grep",
  description: DESCRIPTION,
  params: GrepParams,
  mutates: false,
  kind: "search",
  invocation: { type: "call" },
  subjects: (p) => [p.path],
  async execute(params, ctx) {
    // re2js validates (its errors name the problem); V8 runs the pattern when provably linear.
    compile(params.pattern, params.case_sensitive ? 0 : RE2JS.CASE_INSENSITIVE);
    const start = await ctx.sandbox.resolve(params.path, ctx.cwd);
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(start);
    } catch (error) {
      throw fileError(error, "search", params.path);
    }
    if (info.isFile) ctx.sandbox.assertReadable(start, params.path);

    const max = ctx.config.tools.file.grep_max_matches;
    const maxChars = ctx.config.tools.file.max_line_chars;
    const contextLines = params.context;
    const sandbox = ctx.sandbox;
    const isGlobMatch = params.glob ? picomatch(params.glob, { dot: true }) : null;
    const prefix = start.length + 1;
    const spec: GrepSpec = { pattern: params.pattern, caseSensitive: params.case_sensitive, max };
    const matchBytes = fileMatcher(spec);

    type FileHits = HelperHit;
    let hits: FileHits[] = [];
    /** Batches the helper thread searched (reported in raw, for tests and diagnostics). */
    let helperBatches = 0;

    if (info.isFile) {
      const bytes = await Deno.readFile(start).catch((error) => {
        throw fileError(error, "search", params.path);
      });
      const m = matchBytes(bytes);
      if (m) {
        hits.push({ seq: 0, file: start, walked: start, ...m });
      }
    } else {
      // Synchronous reads into one reused buffer: measured faster than readFileSync and than
      // overlapping async reads with the walk (Deno's per-op cost dominates on 100k files).
      // Past HELPER_AFTER files a second thread takes batches while it keeps up (2 CPUs: 30%
      // less wall time on 100k files); the walk, glob, symlink and deny_read checks stay here.
      const shared = new Int32Array(new SharedArrayBuffer(12));
      let helper: GrepHelper | null = null;
      let walked = 0;
      let seq = 0;
      let batch: GrepItem[] = [];
      const runLocally = (items: GrepItem[], stopAtCap = true) => {
        for (const item of items) {
          if ((stopAtCap && Atomics.load(shared, FOUND) > max) || ctx.signal.aborted) return;
          const bytes = readSmallFile(item.file);
          if (!bytes) continue; // unreadable files are skipped, as the description says
          const m = matchBytes(bytes);
          if (m) {
            hits.push({ ...item, ...m });
            Atomics.add(shared, FOUND, m.matched.length);
          }
        }
      };
      const flush = () => {
        if (helper && helper.posted - Atomics.load(shared, DONE) < HELPER_QUEUE) {
          helper.post(batch);
        } else {
          runLocally(batch);
        }
        batch = [];
      };
      const entries = walk(start, {
        gitignore: true,
        top: gitignoreTop(start, sandbox.workspace, sandbox.roots),
        signal: ctx.signal,
      });
      try {
        for (const entry of entries) {
          if (Atomics.load(shared, FOUND) > max || ctx.signal.aborted) break;
          if (isGlobMatch && !isGlobMatch(entry.path.slice(prefix))) continue;
          let file = entry.path;
          if (entry.isSymlink) {
            // Follow a file symlink only to a readable target inside the sandbox.
            try {
              file = Deno.realPathSync(entry.path);
              if (!sandbox.contains(file) || !Deno.statSync(file).isFile) continue;
            } catch {
              continue;
            }
          }
          if (!sandbox.canRead(file)) continue;
          batch.push({ seq: seq++, file, walked: entry.path });
          if (batch.length === BATCH_FILES) {
            if (++walked === HELPER_AFTER_BATCHES && helperThreads > 0) {
              helper = GrepHelper.start(spec, shared);
            }
            flush();
          }
        }
        if (!ctx.signal.aborted) runLocally(batch);
        if (helper && !ctx.signal.aborted) {
          const extra = await helper.finish();
          // A helper that failed hands its batches back: they are searched here.
          if (extra.failed) {
            for (const items of extra.failed) runLocally(items, false);
          } else {
            helperBatches = Atomics.load(shared, DONE);
          }
          hits = hits.concat(extra.hits);
        }
      } finally {
        Atomics.store(shared, CANCEL, 1);
        helper?.stop();
      }
    }
    throwIfAborted(ctx.signal, "search");

    // Walk order, then the first `max` matching lines; anything beyond means the cap cut.
    hits.sort((a, b) => a.seq - b.seq);
    const out: string[] = [];
    const locations: { path: string; line: number }[] = [];
    let matches = 0;
    let cut = false;
    let filesWithMatches = 0;
    const strip = (s: string) => (s.endsWith("\r") ? s.slice(0, -1) : s);
    for (const h of hits) {
      if (matches >= max) {
        cut = true;
        break;
      }
      let matched = h.matched;
      if (matches + matched.length > max) {
        matched = matched.slice(0, max - matches);
        cut = true;
      }
      matches += matched.length;
      filesWithMatches++;
      const shown = sandbox.display(h.walked);
      const isMatch = new Set(matched);
      let lastShown = -2;
      for (const n of matched) {
        locations.push({ path: h.file, line: n + 1 });
        if (contextLines === 0) {
          out.push(`${shown}:${n + 1}: ${clipLine(strip(h.lines[n]), maxChars)}`);
          continue;
        }
        const from = Math.max(0, n - contextLines, lastShown + 1);
        const to = Math.min(h.lines.length - 1, n + contextLines);
        if (from > lastShown + 1 && out.length) out.push("--");
        for (let k = from; k <= to; k++) {
          const sep = isMatch.has(k) ? ":" : "-";
          out.push(`${shown}${sep}${k + 1}${sep} ${clipLine(strip(h.lines[k]), maxChars)}`);
        }
        lastShown = Math.max(lastShown, to);
      }
      if (cut) break;
    }

    if (matches === 0) {
      return { text: `No matches for ${q(params.pattern)} in ${q(params.path)}.` };
    }
    const summary = cut
      ? `\n\n[Stopped after ${matches} matching lines; there are more. Narrow the pattern, ` +
        `path or glob to see the rest.]`
      : "";
    return {
      text: out.join("\n") + summary,
      locations,
      truncated: cut,
      raw: { matches, files: filesWithMatches, truncated: cut, helper_batches: helperBatches },
    };
  },
});

/** Files per batch handed to the helper thread. */
const BATCH_FILES = 32;
/** The helper starts after this many batches (small searches never pay for a thread). */
const HELPER_AFTER_BATCHES = 32;
/** Batches the helper may have queued before this thread searches the next one itself. */
const HELPER_QUEUE = 2;

let helperThreads = (navigator.hardwareConcurrency ?? 1) > 1 ? 1 : 0;

/** Tests force or forbid the helper thread; returns the previous setting. */
export function setGrepHelperThreads(n: 0 | 1): 0 | 1 {
  const previous = helperThreads as 0 | 1;
  helperThreads = n;
  return previous;
}

/** One search's helper thread (src/tools/_grep_helper.ts), with the batches it was given. */
class GrepHelper {
  posted = 0;
  #worker: Worker;
  #batches: GrepItem[][] = [];
  #failed: Promise<void>;
  #fail!: () => void;
  #broken = false;

  private constructor(worker: Worker) {
    this.#worker = worker;
    this.#failed = new Promise((resolve) => (this.#fail = resolve));
    worker.onerror = (event) => {
      event.preventDefault();
      this.#broken = true;
      this.#fail();
    };
  }

  /** A started helper, or null when a Worker cannot be created here. */
  static start(spec: GrepSpec, shared: Int32Array): GrepHelper | null {
    const url = new URL("./_grep_helper.ts", import.meta.url);
    let worker: Worker;
    try {
      // The permission-fenced file worker may read its roots only, not zeph's own modules.
      if (url.protocol === "file:") {
        const query = { name: "read", path: url } as const;
        if (Deno.permissions.querySync(query).state !== "granted") return null;
      }
      worker = new Worker(url.href, {
        type: "module",
        // The caller's own permissions: in the file worker, read/write on the roots only.
        deno: { permissions: "inherit" },
      } as WorkerOptions);
    } catch {
      return null;
    }
    const helper = new GrepHelper(worker);
    helper.#send({ type: "start", spec, shared });
    return helper;
  }

  #send(request: HelperRequest): void {
    this.#worker.postMessage(request);
  }

  post(items: GrepItem[]): void {
    this.#batches.push(items);
    this.posted++;
    this.#send({ type: "batch", items });
  }

  /** The helper's hits, or its batches back (failed) when it crashed. */
  async finish(): Promise<{ hits: HelperHit[]; failed?: GrepItem[][] }> {
    if (!this.#broken) {
      const reply = new Promise<HelperHit[]>((resolve) => {
        this.#worker.onmessage = (event: MessageEvent<HelperHit[]>) => resolve(event.data);
      });
      this.#send({ type: "finish" });
      const hits = await Promise.race([reply, this.#failed.then(() => null)]);
      if (hits) return { hits };
    }
    return { hits: [], failed: this.#batches };
  }

  stop(): void {
    this.#worker.terminate();
  }
}
