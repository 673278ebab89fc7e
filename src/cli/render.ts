/**
 * Live rendering of agent events in a terminal: streamed text on stdout; tool calls (title with
 * subject, the filtered output, the filter stats line) and notices on stderr. On a TTY one status
 * line is redrawn in place: a spinner with the elapsed time while waiting for the model
 * ("thinking", with the Ctrl-C hint) or while a tool runs (with its last output line). It is cut
 * to the terminal width, so it never wraps and each redraw replaces it. `--json` replaces all of
 * it (json_output.ts). Colour only on a TTY and never when NO_COLOR is set (https://no-color.org).
 */
import type { AgentEvent } from "../agent/mod.ts";
import type { ToolKind, ToolResult } from "../tools/mod.ts";
import { displayWidth, fitLine, flatten } from "./line_width.ts";
import { renderPlan } from "./plan_view.ts";

export interface Writer {
  write(text: string): void;
  isTerminal: boolean;
  /** The terminal's width in columns; absent or 0: 80. */
  columns?(): number;
}

export function stdWriter(file: typeof Deno.stdout | typeof Deno.stderr): Writer {
  const encoder = new TextEncoder();
  const isTerminal = file.isTerminal();
  return {
    columns() {
      if (!isTerminal) return 0;
      try {
        return Deno.consoleSize().columns;
      } catch {
        return 0;
      }
    },
    write(text) {
      const bytes = encoder.encode(text);
      let written = 0;
      while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
    },
    isTerminal,
  };
}

export interface RendererOptions {
  out: Writer;
  err: Writer;
  /** @default out is a TTY and NO_COLOR is unset or empty */
  color?: boolean;
  /** Lines of a tool's output shown before "… N more lines". @default 20 */
  maxOutputLines?: number;
  /** The clock of the elapsed times. @default Date.now */
  now?: () => number;
  /** Milliseconds between spinner frames. @default 80 */
  frameMs?: number;
  /** Show `debug` notices (hidden tools). @default ZEPH_LOG is "debug" */
  debug?: boolean;
}

/** The one status line on a TTY: what zeph waits for, since when. */
interface Status {
  kind: "thinking" | "tool";
  title: string;
  /** The call a tool's status belongs to. */
  callId?: string;
  /** The last line of live output, shown after the title. */
  detail: string;
  started: number;
  frame: number;
  timer?: ReturnType<typeof setInterval>;
}

const ICONS: Record<ToolKind, string> = {
  execute: "$",
  read: "›",
  edit: "✎",
  delete: "✗",
  move: "→",
  search: "⌕",
  fetch: "↓",
  switch_mode: "⇄",
  other: "•",
};

/**
 * What a call's title names after the tool: its permission subjects (command, paths, URL); a
 * search also shows its pattern when the subject is only where it looks.
 */
function callSubject(event: { kind: ToolKind; input: unknown; subjects: string[] }): string {
  const where = event.subjects.join(" ");
  const pattern = (event.input as { pattern?: unknown } | null)?.pattern;
  if (event.kind === "search" && typeof pattern === "string" && !event.subjects.includes(pattern)) {
    return ` "${pattern}"${where ? ` in ${where}` : ""}`;
  }
  return where ? ` ${where}` : "";
}

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export function colorEnabled(out: Writer, env: (k: string) => string | undefined): boolean {
  return out.isTerminal && !(env("NO_COLOR") ?? "");
}

/** Renders a stream of events for humans. */
export class Renderer {
  #out: Writer;
  #err: Writer;
  #color: boolean;
  #maxLines: number;
  #atLineStart = true;
  #now: () => number;
  #frameMs: number;
  #status: Status | null = null;
  /** The status a question interrupted (pause), redrawn by resume. */
  #paused: Status | null = null;
  /** Between thinking() and turn_end: a wait for the model shows the thinking spinner. */
  #inTurn = false;
  #titles = new Map<string, string>();
  #pausedAt: number | null = null;
  /** Per running call, the time its questions waited for an answer. */
  #waited = new Map<string, number>();
  #debug: boolean;

  constructor(options: RendererOptions) {
    this.#out = options.out;
    this.#err = options.err;
    this.#color = options.color ??
      colorEnabled(options.out, (k) => Deno.env.get(k));
    this.#maxLines = options.maxOutputLines ?? 20;
    this.#now = options.now ?? Date.now;
    this.#frameMs = options.frameMs ?? 80;
    this.#debug = options.debug ?? Deno.env.get("ZEPH_LOG") === "debug";
  }

  /** A turn starts: the thinking spinner runs until the model's first text or tool call. */
  thinking(): void {
    this.#inTurn = true;
    this.#startStatus("thinking", "thinking…");
  }

  /**
   * Clears the status line before a question; resume() redraws it. The time the question waits
   * for its answer is not the call's: it is left out of the elapsed time and the duration shown.
   */
  pause(): void {
    const status = this.#status;
    this.stopSpinner();
    this.#paused = status;
    this.#pausedAt = this.#now();
  }

  /** Redraws the status line a question interrupted. */
  resume(): void {
    const status = this.#paused;
    const waited = this.#pausedAt === null ? 0 : this.#now() - this.#pausedAt;
    this.#paused = null;
    this.#pausedAt = null;
    if (!status || this.#status) return;
    status.started += waited;
    if (status.callId) {
      this.#waited.set(status.callId, (this.#waited.get(status.callId) ?? 0) + waited);
    }
    this.#status = status;
    this.#tick(status);
  }

  render(event: AgentEvent): void {
    switch (event.type) {
      case "text":
        this.stopSpinner();
        this.#out.write(event.text);
        this.#atLineStart = event.text.endsWith("\n");
        break;
      case "tool_start": {
        this.#newline();
        const title = `${ICONS[event.kind]} ${event.tool}${oneLine(callSubject(event), 100)}`;
        this.#titles.set(event.callId, title);
        if (this.#err.isTerminal) this.#startStatus("tool", title, event.callId);
        else this.#err.write(this.#paint(cyan, title) + "\n");
        break;
      }
      case "tool_output":
        // Live chunks are raw (unfiltered): the spinner line shows their last line as
        // progress; the filtered output is printed once the call finished.
        {
          const status = this.#status ?? this.#paused;
          const last = event.chunk.split("\n").map((l) => flatten(l).trim()).filter(Boolean)
            .at(-1);
          if (status?.kind === "tool" && last) {
            status.detail = last;
            if (this.#status) this.#draw();
          }
        }
        break;
      case "tool_end":
        this.stopSpinner();
        this.#toolEnd(event.result);
        // The results go back to the model: wait for it (a next tool_start replaces this).
        if (this.#inTurn) this.#startStatus("thinking", "thinking…");
        break;
      case "notice": {
        if (event.level === "debug" && !this.#debug) break;
        this.stopSpinner();
        this.#newline();
        const paint = event.level === "error" ? red : event.level === "warn" ? yellow : dim;
        this.#err.write(this.#paint(paint, `[${event.code}] ${event.message}`) + "\n");
        // A notice mid-turn (a retry, a refused call) is followed by more waiting for the model.
        if (this.#inTurn) this.#startStatus("thinking", "thinking…");
        break;
      }
      case "plan":
        this.stopSpinner();
        this.#newline();
        this.showPlan(event.entries);
        if (this.#inTurn) this.#startStatus("thinking", "thinking…");
        break;
      case "usage":
        break;
      case "turn_end":
        this.#inTurn = false;
        this.stopSpinner();
        this.#newline();
        if (event.stopReason !== "end_turn") {
          this.#err.write(this.#paint(dim, `(turn ended: ${event.stopReason})`) + "\n");
        }
        break;
    }
  }

  /** Draws the plan checklist on stderr (after update_plan, and on --resume). */
  showPlan(entries: Parameters<typeof renderPlan>[0]): void {
    const width = this.#err.isTerminal ? terminalColumns() : 80;
    this.#err.write(
      renderPlan(entries, { unicode: this.#err.isTerminal, color: this.#color, width }),
    );
  }

  /** Clears the status line and stops its spinner. */
  stopSpinner(): void {
    this.#paused = null;
    const status = this.#status;
    if (!status) return;
    clearInterval(status.timer);
    this.#status = null;
    this.#err.write("\r\x1b[2K");
  }

  #startStatus(kind: Status["kind"], title: string, callId?: string): void {
    this.stopSpinner();
    if (!this.#err.isTerminal) return;
    const status: Status = {
      kind,
      callId,
      title: flatten(title),
      detail: "",
      started: this.#now(),
      frame: 0,
    };
    this.#status = status;
    this.#tick(status);
  }

  /** Draws `status` now and on every frame until it is stopped. */
  #tick(status: Status): void {
    status.timer = setInterval(() => {
      status.frame = (status.frame + 1) % SPINNER.length;
      this.#draw();
    }, this.#frameMs);
    this.#draw();
  }

  #draw(): void {
    const s = this.#status;
    if (!s) return;
    const elapsed = seconds(this.#now() - s.started);
    const tail = s.kind === "thinking"
      ? `  ${elapsed} · Ctrl-C to cancel`
      : `  ${elapsed}${s.detail ? `  ${s.detail}` : ""}`;
    // One column spare: a line that fills the last column wraps on some terminals.
    const width = (this.#err.columns?.() || 80) - 1;
    // A long title leaves room for the elapsed time and up to a third of the line of output.
    const room = elapsed.length + 2 +
      (s.detail ? Math.min(displayWidth(s.detail) + 2, Math.floor(width / 3)) : 0);
    const head = fitLine(`${SPINNER[s.frame]} ${s.title}`, Math.max(16, width - room));
    const line = fitLine(head + tail, width);
    const painted = line.length <= head.length
      ? this.#paint(cyan, line)
      : this.#paint(cyan, head) + this.#paint(dim, line.slice(head.length));
    this.#err.write(`\r\x1b[2K${painted}`);
  }

  #toolEnd(result: ToolResult): void {
    const title = this.#titles.get(result.callId) ?? result.tool;
    const waited = this.#waited.get(result.callId) ?? 0;
    this.#titles.delete(result.callId);
    this.#waited.delete(result.callId);
    if (this.#err.isTerminal) {
      const mark = result.ok ? this.#paint(green, "✓") : this.#paint(red, "✗");
      // Cut like the status line (one column spare), so it never wraps; the time stays whole.
      // Piped stderr and --json keep the full title.
      const time = ms(Math.max(0, result.durationMs - waited));
      const width = (this.#err.columns?.() || 80) - 1;
      const shown = fitLine(title, Math.max(8, width - 3 - time.length));
      this.#err.write(`${mark} ${this.#paint(cyan, shown)} ${this.#paint(dim, time)}\n`);
    }
    // The plan event that follows draws the checklist; the model's copy is not shown twice.
    if (result.ok && result.output?.plan) return;
    const lines = withoutUnfilteredNote(result).replace(/\n+$/, "").split("\n");
    const shown = lines.slice(0, this.#maxLines);
    const body = shown.map((l) => `  ${l}`).join("\n");
    if (body.trim()) this.#err.write(this.#paint(result.ok ? dim : red, body) + "\n");
    if (lines.length > shown.length) {
      const more = lines.length - shown.length;
      this.#err.write(this.#paint(dim, `  … ${more} more line${more === 1 ? "" : "s"}`) + "\n");
    }
    if (result.filterStats?.inline) {
      this.#err.write(this.#paint(dim, `  ${result.filterStats.inline}`) + "\n");
    }
    if (result.overflowId) {
      this.#err.write(
        this.#paint(dim, `  full output: zeph overflow show ${result.overflowId}`) + "\n",
      );
    }
  }

  #newline(): void {
    if (!this.#atLineStart) {
      this.#out.write("\n");
      this.#atLineStart = true;
    }
  }

  #paint(code: string, text: string): string {
    return this.#color ? `\x1b[${code}m${text}\x1b[0m` : text;
  }
}

function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}

const dim = "2";
const red = "31";
const green = "32";
const yellow = "33";
const cyan = "36";

/** Elapsed time on the status line: 0.4s, 12.0s, 2m05s. */
function seconds(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 60) return `${s.toFixed(1)}s`;
  return `${Math.floor(s / 60)}m${String(Math.floor(s % 60)).padStart(2, "0")}s`;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s*\n\s*/g, " ⏎ ");
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

function ms(d: number): string {
  return d >= 1000 ? `${(d / 1000).toFixed(1)}s` : `${Math.round(d)}ms`;
}

/**
 * The result's text without the model's note on the stored unfiltered output (`[filtered: 40 → 6
 * lines; unfiltered output: overflow:<id> (read_overflow)]`): the lines under the preview say the
 * same to a person (the filter stats and `full output: zeph overflow show <id>`).
 */
function withoutUnfilteredNote(result: ToolResult): string {
  const text = result.text;
  const id = result.overflowId;
  if (!id || !text.endsWith(`overflow:${id} (read_overflow)]`)) return text;
  const start = text.lastIndexOf("\n\n[filtered: ");
  return start < 0 || text.indexOf("\n", start + 2) >= 0 ? text : text.slice(0, start);
}
