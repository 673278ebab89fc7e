/**
 * The plan as a terminal checklist: one line per entry (wrapped under its text, never wider
 * than 80 columns), a mark per status, the priority when it is not medium. Unicode marks on a
 * terminal, ASCII ones in a pipe or log; colour only when the renderer has colour (NO_COLOR).
 */
import type { PlanEntry } from "../store/mod.ts";

export interface PlanViewOptions {
  /** ☐ ◐ ☑ instead of [ ] [~] [x]. */
  unicode: boolean;
  color: boolean;
  /** @default 80 */
  width?: number;
}

const UNICODE: Record<PlanEntry["status"], string> = {
  pending: "☐",
  in_progress: "◐",
  completed: "☑",
};
const ASCII: Record<PlanEntry["status"], string> = {
  pending: "[ ]",
  in_progress: "[~]",
  completed: "[x]",
};
const PAINT: Record<PlanEntry["status"], string> = {
  pending: "0",
  in_progress: "1;33",
  completed: "2",
};

/** The checklist, a heading line first, each line ending in "\n". */
export function renderPlan(entries: readonly PlanEntry[], options: PlanViewOptions): string {
  const width = Math.max(20, Math.min(options.width ?? 80, 80));
  const paint = (code: string, text: string) =>
    options.color && code !== "0" ? `\x1b[${code}m${text}\x1b[0m` : text;
  if (entries.length === 0) return paint("2", "Plan: (cleared)") + "\n";
  const done = entries.filter((e) => e.status === "completed").length;
  const lines = [paint("1", `Plan (${done}/${entries.length} done)`)];
  for (const e of entries) {
    const mark = (options.unicode ? UNICODE : ASCII)[e.status];
    const lead = `  ${mark} `;
    const indent = " ".repeat(lead.length);
    const text = e.priority === "medium" ? e.content : `${e.content} (${e.priority})`;
    const wrapped = wrap(flatten(text), width - lead.length);
    lines.push(
      ...wrapped.map((l, i) => paint(PAINT[e.status], (i === 0 ? lead : indent) + l)),
    );
  }
  return lines.join("\n") + "\n";
}

/** One line: control characters and newlines become spaces. */
function flatten(text: string): string {
  // deno-lint-ignore no-control-regex -- a plan line must not move the cursor
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g, " ").trim();
}

/** Word wrap at `width` columns; a word longer than a line is cut. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (let word of text.split(/ +/)) {
    while ([...word].length > width) {
      if (line) lines.push(line);
      line = "";
      const chars = [...word];
      lines.push(chars.slice(0, width).join(""));
      word = chars.slice(width).join("");
    }
    if (!line) line = word;
    else if ([...line].length + 1 + [...word].length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}
