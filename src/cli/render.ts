/**
 * Live rendering of agent events in a terminal: streamed text on stdout; tool calls (title with
 * subject, a spinner while running on a TTY, the filtered output, the filter stats line) and
 * notices on stderr. `--json` replaces all of it with one JSON object per event on stdout.
 * Colour only on a TTY and never when NO_COLOR is set (https://no-color.org).
 */
import type { AgentEvent } from "../agent/mod.ts";
import type { ToolKind, ToolResult } from "../tools/mod.ts";
import { renderPlan } from "./plan_view.ts";

export interface Writer {
  write(text: string): void;
  isTerminal: boolean;
}

export function stdWriter(file: typeof Deno.stdout | typeof Deno.stderr): Writer {
  const encoder = new TextEncoder();
  return {
    write(text) {
      const bytes = encoder.encode(text);
      let written = 0;
      while (written < bytes.length) written += file.writeSync(bytes.subarray(written));
    },
    isTerminal: file.isTerminal(),
  };
}

export interface RendererOptions {
  out: Writer;
  err: Writer;
  /** @default out is a TTY and NO_COLOR is unset or empty */
  color?: boolean;
  /** Lines of a tool's output shown before "… N more lines". @default 20 */
  maxOutputLines?: number;
  /** Show `debug` notices (hidden tools). @default ZEPH_LOG is "debug" */
  debug?: boolean;
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
  #spinner: {
    timer: ReturnType<typeof setInterval>;
    frame: number;
    title: string;
    /** The last line of live output, shown after the title. */
    detail: string;
  } | null = null;
  #titles = new Map<string, string>();
  #debug: boolean;

  constructor(options: RendererOptions) {
    this.#out = options.out;
    this.#err = options.err;
    this.#color = options.color ??
      colorEnabled(options.out, (k) => Deno.env.get(k));
    this.#maxLines = options.maxOutputLines ?? 20;
    this.#debug = options.debug ?? Deno.env.get("ZEPH_LOG") === "debug";
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
        const subject = event.subjects.length ? ` ${event.subjects.join(" ")}` : "";
        const title = `${ICONS[event.kind]} ${event.tool}${oneLine(subject, 100)}`;
        this.#titles.set(event.callId, title);
        this.#startSpinner(title);
        break;
      }
      case "tool_output":
        // Live chunks are raw (unfiltered): the spinner line shows their last line as
        // progress; the filtered output is printed once the call finished.
        if (this.#spinner) {
          const last = event.chunk.split("\n").map((l) => l.trim()).filter(Boolean).at(-1);
          // deno-lint-ignore no-control-regex
          if (last) this.#spinner.detail = oneLine(last.replace(/[\x00-\x1f\x7f]/g, ""), 60);
        }
        break;
      case "tool_end":
        this.stopSpinner();
        this.#toolEnd(event.result);
        break;
      case "notice": {
        if (event.level === "debug" && !this.#debug) break;
        this.stopSpinner();
        this.#newline();
        const paint = event.level === "error" ? red : event.level === "warn" ? yellow : dim;
        this.#err.write(this.#paint(paint, `[${event.code}] ${event.message}`) + "\n");
        break;
      }
      case "plan":
        this.stopSpinner();
        this.#newline();
        this.showPlan(event.entries);
        break;
      case "usage":
        break;
      case "turn_end":
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

  /** Clears the spinner line (before a prompt is shown). */
  stopSpinner(): void {
    if (!this.#spinner) return;
    clearInterval(this.#spinner.timer);
    this.#spinner = null;
    this.#err.write("\r\x1b[2K");
  }

  #startSpinner(title: string): void {
    if (!this.#err.isTerminal) {
      this.#err.write(this.#paint(cyan, title) + "\n");
      return;
    }
    this.stopSpinner();
    const spinner = {
      frame: 0,
      title,
      detail: "",
      timer: setInterval(() => {
        spinner.frame = (spinner.frame + 1) % SPINNER.length;
        this.#drawSpinner();
      }, 80),
    };
    this.#spinner = spinner;
    this.#drawSpinner();
  }

  #drawSpinner(): void {
    const s = this.#spinner;
    if (!s) return;
    const detail = s.detail ? this.#paint(dim, `  ${s.detail}`) : "";
    this.#err.write(`\r\x1b[2K${this.#paint(cyan, `${SPINNER[s.frame]} ${s.title}`)}${detail}`);
  }

  #toolEnd(result: ToolResult): void {
    const title = this.#titles.get(result.callId) ?? result.tool;
    this.#titles.delete(result.callId);
    if (this.#err.isTerminal) {
      const mark = result.ok ? this.#paint(green, "✓") : this.#paint(red, "✗");
      this.#err.write(`${mark} ${this.#paint(cyan, title)} ${this.#paint(dim, ms(result))}\n`);
    }
    // The plan event that follows draws the checklist; the model's copy is not shown twice.
    if (result.ok && result.output?.plan) return;
    const lines = result.text.replace(/\n+$/, "").split("\n");
    const shown = lines.slice(0, this.#maxLines);
    const body = shown.map((l) => `  ${l}`).join("\n");
    if (body.trim()) this.#err.write(this.#paint(result.ok ? dim : red, body) + "\n");
    if (lines.length > shown.length) {
      this.#err.write(this.#paint(dim, `  … ${lines.length - shown.length} more lines`) + "\n");
    }
    if (result.filterStats?.inline) {
      this.#err.write(this.#paint(dim, `  ${result.filterStats.inline}`) + "\n");
    }
    if (result.overflowId) {
      this.#err.write(this.#paint(dim, `  full output: overflow:${result.overflowId}`) + "\n");
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

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s*\n\s*/g, " ⏎ ");
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

function ms(result: ToolResult): string {
  const d = result.durationMs;
  return d >= 1000 ? `${(d / 1000).toFixed(1)}s` : `${Math.round(d)}ms`;
}

/** `--json`: every event as one line of JSON on stdout. */
export function jsonSink(out: Writer): (event: AgentEvent) => void {
  return (event) => out.write(JSON.stringify(event) + "\n");
}
