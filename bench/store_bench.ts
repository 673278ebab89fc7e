/**
 * Store and overflow benchmarks: 10 MB overflow write and read back (target ≤ 50 ms each), the
 * cost of one page, message append/load for 1,000 messages, and peak RSS while a 100 MB tool
 * output goes through the overflow hook. Run: `deno task bench:store` (prints a markdown table).
 */
import { join } from "node:path";
import { z } from "zod";
import { defaultConfig } from "../src/config/schema.ts";
import type { Message } from "../src/provider/types.ts";
import { PermissionPolicy } from "../src/permission/policy.ts";
import { Sandbox } from "../src/sandbox/path.ts";
import { openStore } from "../src/store/mod.ts";
import { overflowHook } from "../src/tools/hooks.ts";
import { LocalExecutor } from "../src/tools/executors/mod.ts";
import { ToolRegistry } from "../src/tools/registry.ts";
import { defineTool } from "../src/tools/tool.ts";
import { median, peakRssBytes } from "./_stats.ts";

const MB = 1024 * 1024;
const RUNS = 15;

/**
 * Median/min/max of `fn`, with one event-loop turn between runs outside the timing, as in the
 * agent (a tool call is followed by an awaited model request): the store's deferred WAL
 * checkpoint runs there and is measured on its own row.
 */
async function time(
  fn: () => void,
  runs = RUNS,
): Promise<{ median: number; min: number; max: number }> {
  fn(); // warm-up
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const t = performance.now();
    fn();
    xs.push(performance.now() - t);
  }
  await new Promise((resolve) => setTimeout(resolve, 0));
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
}

function text(bytes: number, unicode: boolean): string {
  const line = unicode
    ? "überprüfe die Ausgabe — 日本語のログ 🦕 0123456789\n"
    : "src/module/file.ts:120:5 warning: unused variable 'x' 0123456789\n";
  const one = new TextEncoder().encode(line).length;
  return line.repeat(Math.ceil(bytes / one));
}

/** Child mode: one 100 MB output through dispatch + overflow hook; prints peak RSS (VmHWM). */
async function rssChild(dir: string): Promise<void> {
  const store = openStore(join(dir, "rss.db"));
  const conv = store.createConversation();
  const config = defaultConfig();
  const bigTool = defineTool({
    name: "big",
    description: "Prints 100 MB.",
    params: z.object({}).strict(),
    mutates: false,
    kind: "execute",
    group: "command",
    invocation: { type: "call" },
    subjects: () => [],
    execute: () => Promise.resolve({ text: text(100 * MB, false) }),
  });
  const registry = new ToolRegistry({
    tools: [bigTool],
    executor: new LocalExecutor(),
    policy: new PermissionPolicy(),
    config,
  });
  registry.addOutputHook(overflowHook(store, config));
  const before = peakRssBytes();
  const t = performance.now();
  const result = await registry.dispatch({ id: "c", name: "big", input: {} }, {
    cwd: dir,
    sandbox: await Sandbox.create(dir),
    conversationId: conv,
  });
  const ms = performance.now() - t;
  console.log(JSON.stringify({ before, peak: peakRssBytes(), ms, chars: result.text.length }));
  store.close();
}

async function main(): Promise<void> {
  if (Deno.args[0] === "--rss-child") return await rssChild(Deno.args[1]);
  const dir = Deno.makeTempDirSync({ prefix: "zeph-bench-store-" });
  try {
    const rows: [string, string, string][] = [];
    const add = (what: string, r: { median: number; min: number; max: number }, target = "") =>
      rows.push([
        what,
        `${r.median.toFixed(1)} ms (${r.min.toFixed(1)}–${r.max.toFixed(1)})`,
        target,
      ]);

    const store = openStore(join(dir, "zeph.db"));
    const conv = store.createConversation();
    const ascii = text(10 * MB, false);
    const unicode = text(10 * MB, true);
    const hundred = text(100 * MB, false);

    let lastAscii = "";
    add(
      "saveOverflow 10 MB (ASCII)",
      await time(() => {
        lastAscii = store.saveOverflow(conv, ascii, { maxBytes: 0 }).id;
      }),
      "≤ 50 ms",
    );
    let lastUnicode = "";
    add(
      "saveOverflow 10 MB (mixed UTF-8, emoji)",
      await time(() => {
        lastUnicode = store.saveOverflow(conv, unicode, { maxBytes: 0 }).id;
      }),
      "≤ 50 ms",
    );
    const checkpoints: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      store.saveOverflow(conv, i % 2 ? unicode : ascii, { maxBytes: 0 });
      const t = performance.now();
      store.checkpoint();
      checkpoints.push(performance.now() - t);
    }
    add(
      "WAL checkpoint of one 10 MB save (deferred: runs on the next event-loop turn)",
      {
        median: median(checkpoints),
        min: Math.min(...checkpoints),
        max: Math.max(...checkpoints),
      },
    );
    add(
      "saveOverflow 100 MB cut to max_overflow_bytes (10 MiB)",
      await time(() => {
        store.saveOverflow(conv, hundred, { maxBytes: 10 * MB });
      }, 5),
    );
    add(
      "loadOverflow 10 MB (whole entry into JS)",
      await time(() => {
        store.loadOverflow(lastAscii, conv);
      }),
      "≤ 50 ms",
    );
    add(
      "loadOverflow 10 MB mixed UTF-8",
      await time(() => {
        store.loadOverflow(lastUnicode, conv);
      }),
      "≤ 50 ms",
    );
    add(
      "overflowSlice first 50,000 chars",
      await time(() => {
        store.overflowSlice(lastAscii, conv, { offset: 0, limit: 50_000 });
      }),
    );
    add(
      "overflowSlice last 50,000 chars (SQL substr)",
      await time(() => {
        store.overflowSlice(lastAscii, conv, { offset: 10 * MB - 50_000, limit: 50_000 });
      }),
    );
    add(
      "same page by loading the whole entry and slicing in JS",
      await time(() => {
        store.loadOverflow(lastAscii, conv)!.slice(10 * MB - 50_000);
      }),
    );
    const unicodeChars = store.overflowInfo(lastUnicode, conv)!.chars;
    add(
      "overflowSlice last 50,000 chars, mixed UTF-8",
      await time(() => {
        store.overflowSlice(lastUnicode, conv, { offset: unicodeChars - 50_000, limit: 50_000 });
      }),
    );
    const lines = store.overflowInfo(lastAscii, conv)!.lines;
    add(
      `overflowSlice 1,000 lines at the end (${lines} lines)`,
      await time(() => {
        store.overflowSlice(lastAscii, conv, { offset: lines - 1000, limit: 1000, unit: "lines" });
      }),
    );
    const pageAll = await time(() => {
      for (let o = 0; o < 10 * MB; o += 50_000) {
        store.overflowSlice(lastAscii, conv, { offset: o, limit: 50_000 });
      }
    }, 3);
    add("page through all 10 MB in 50,000-char pages (210 calls)", pageAll);

    const messages: Message[] = Array.from({ length: 1000 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      parts: i % 2
        ? [
          { type: "text", text: `Let me look at file ${i}.` },
          { type: "tool_call", id: `call_${i}`, name: "read", input: { path: `src/f${i}.ts` } },
        ]
        : [{
          type: "tool_result",
          callId: `call_${i - 1}`,
          text: "x".repeat(2000),
          isError: false,
        }],
    }));
    let target = "";
    add(
      "appendMessages 1,000 messages (one call, one transaction)",
      await time(() => {
        target = store.createConversation();
        store.appendMessages(target, messages);
      }, 5),
    );
    add(
      "appendMessages 1,000 times one message",
      await time(() => {
        const c = store.createConversation();
        for (const m of messages) store.appendMessages(c, [m]);
      }, 3),
    );
    add(
      "loadMessages 1,000 messages",
      await time(() => {
        store.loadMessages(target);
      }),
    );
    add(
      "cleanupOverflow (nothing to delete)",
      await time(() => {
        store.cleanupOverflow(7);
      }),
    );
    store.close();

    const child = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", import.meta.filename!, "--rss-child", dir],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    const rss = JSON.parse(new TextDecoder().decode(child.stdout));
    rows.push([
      "100 MB tool output through dispatch + overflow hook (10 MiB stored)",
      `${rss.ms.toFixed(0)} ms, peak RSS ${(rss.peak / MB).toFixed(0)} MB (${
        (rss.before / MB).toFixed(0)
      } MB before)`,
      "",
    ]);

    console.log("| operation | median (min–max) | target |\n|---|---|---|");
    for (const [what, result, goal] of rows) console.log(`| ${what} | ${result} | ${goal} |`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

if (import.meta.main) await main();
