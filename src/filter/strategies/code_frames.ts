/**
 * code_frames: rustc-style source frames (a gutter `12 |` source line, then `   |` lines of marks
 * and labels under it) become one line per label, naming the code the label points at:
 *
 *     12 |     let n: i32 = "four";                  |  `"four"`: expected `i32`, found `&str`
 *        |            ---   ^^^^^^ expected `i32`…   →  `i32`: expected due to this
 *        |            expected due to this
 *
 * The source line is a copy of the line the diagnostic's `-->` location names; the labels carry
 * what the diagnostic says about it (the types, the borrow), so they stay, each with the text its
 * mark spans. Marks without a label go with their source line. A frame this cannot read (a
 * multi-line span drawn with `_` and `/`, a suggestion marked with `+` or `~`, a label that
 * stands under no mark) passes unchanged.
 *
 * In a compound command's output the other commands' lines need no part of their own: only a
 * rustc-style frame it reads whole folds, and any other line passes as printed.
 */
import { z } from "zod";
import type { CompiledStrategy, Stage, StageContext } from "../types.ts";

export const CodeFramesConfig = z.object({
  type: z.literal("code_frames"),
  max_span: z.number().int().min(8).max(400).default(60).describe(
    "Longest code text quoted for a label; longer spans are cut in the middle",
  ),
}).strict();
export type CodeFramesConfig = z.infer<typeof CodeFramesConfig>;

/** `12 |     let x`: the gutter's line number and bar, then the code after one space. */
const SOURCE = /^( {0,12}\d{1,7} )\|(?: (.*))?$/;
const MARK_RUN = /[\^-]+/g;
const MAX_SPANS = 64;

interface Span {
  start: number;
  end: number;
  labels: string[];
}

interface Frame {
  /** The raw lines, shown unchanged when the frame cannot be read. */
  lines: string[];
  /** Index of the gutter bar. */
  bar: number;
  code: string;
  spans: Span[];
  readable: boolean;
}

/** Reads one line under a source line into the frame's spans; false when it cannot. */
function readMarks(frame: Frame, body: string): boolean {
  const first = body.search(/[^\s|]/);
  if (first < 0) return true; // connectors only
  if (/[\^-]/.test(body[first]) && /^[\^-]+(\s|$)/.test(body.slice(first))) {
    // A line of marks: each run is a span; text after the last run is that span's label.
    let last: Span | null = null;
    let rest = first;
    for (const m of body.matchAll(MARK_RUN)) {
      const between = body.slice(rest, m.index);
      if (/[^\s|]/.test(between)) break; // the label began: a `-` inside it is text
      last = { start: m.index, end: m.index + m[0].length, labels: [] };
      frame.spans.push(last);
      rest = last.end;
    }
    const label = body.slice(rest).trim();
    if (label && last) last.labels.push(label);
    return last !== null;
  }
  if (/^[_/\\+~]/.test(body[first])) return false;
  // A label on its own line starts under the mark it belongs to.
  const span = frame.spans.find((s) => first >= s.start && first < s.end);
  if (!span) return false;
  span.labels.push(body.slice(first).trim());
  return true;
}

function quote(text: string, max: number): string {
  const t = text.trim();
  const cut = t.length > max ? `${t.slice(0, max / 2 - 1)}…${t.slice(t.length - max / 2)}` : t;
  return "`" + cut + "`";
}

export function compileCodeFrames(config: CodeFramesConfig): CompiledStrategy {
  const max = config.max_span;
  return {
    type: "code_frames",
    createStage(ctx: StageContext): Stage {
      let frame: Frame | null = null;
      let changed = false;
      const flush = () => {
        if (frame === null) return;
        const f = frame;
        frame = null;
        if (!f.readable || f.lines.length === 1) {
          for (const line of f.lines) ctx.emit(line);
          return;
        }
        changed = true;
        const pad = " ".repeat(f.bar);
        for (const span of [...f.spans].sort((a, b) => a.start - b.start)) {
          if (!span.labels.length) continue;
          const text = quote(f.code.slice(span.start, span.end), max);
          ctx.emit(`${pad}| ${text}: ${span.labels.join("; ")}`);
        }
      };
      return {
        push(line) {
          const source = SOURCE.exec(line);
          if (source) {
            flush();
            frame = {
              lines: [line],
              bar: source[1].length,
              code: source[2] ?? "",
              spans: [],
              readable: true,
            };
            return;
          }
          const f: Frame | null = frame;
          if (f && line.length > f.bar && line[f.bar] === "|" && !line.slice(0, f.bar).trim()) {
            f.lines.push(line);
            // A frame has a handful of marks; past MAX_SPANS it is not one (and stays linear).
            if (f.readable) {
              f.readable = readMarks(f, line.slice(f.bar + 2)) && f.spans.length <= MAX_SPANS;
            }
            return;
          }
          flush();
          ctx.emit(line);
        },
        finish() {
          flush();
          return changed ? "full" : "fallback";
        },
      };
    },
  };
}
