/**
 * A small line-based unified diff for `edit` and `write` results: common prefix and suffix are
 * trimmed, the middle is aligned by longest common subsequence, and hunks carry 3 lines of
 * context. A middle too large for the LCS table is shown as one replaced block (still a correct
 * diff, just not a minimal one).
 */

type Op = { kind: " " | "-" | "+"; line: string; a: number; b: number };

/** Largest middle (old × new lines) aligned by LCS; beyond it the block is replaced whole. */
const MAX_LCS_CELLS = 4_000_000;

interface Lines {
  lines: string[];
  /** False when the text does not end with a newline (shown as `\ No newline at end of file`). */
  finalNewline: boolean;
}

function toLines(text: string): Lines {
  if (text === "") return { lines: [], finalNewline: true };
  const lines = text.split("\n");
  const finalNewline = lines[lines.length - 1] === "";
  if (finalNewline) lines.pop();
  return { lines, finalNewline };
}

function alignMiddle(a: string[], b: string[], aStart: number, bStart: number): Op[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || n * m > MAX_LCS_CELLS) {
    return [
      ...a.map((line, i): Op => ({ kind: "-", line, a: aStart + i, b: bStart })),
      ...b.map((line, j): Op => ({ kind: "+", line, a: aStart + n, b: bStart + j })),
    ];
  }
  // lcs[i][j] = LCS length of a[i..] and b[j..], stored flat.
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j]
        ? lcs[(i + 1) * width + j + 1] + 1
        : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i], a: aStart + i, b: bStart + j });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) {
      ops.push({ kind: "-", line: a[i], a: aStart + i, b: bStart + j });
      i++;
    } else {
      ops.push({ kind: "+", line: b[j], a: aStart + i, b: bStart + j });
      j++;
    }
  }
  for (; i < n; i++) ops.push({ kind: "-", line: a[i], a: aStart + i, b: bStart + m });
  for (; j < m; j++) ops.push({ kind: "+", line: b[j], a: aStart + n, b: bStart + j });
  return ops;
}

function diffOps(a: string[], b: string[]): Op[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix && suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) suffix++;
  const ops: Op[] = [];
  for (let i = 0; i < prefix; i++) ops.push({ kind: " ", line: a[i], a: i, b: i });
  ops.push(
    ...alignMiddle(
      a.slice(prefix, a.length - suffix),
      b.slice(prefix, b.length - suffix),
      prefix,
      prefix,
    ),
  );
  for (let k = suffix; k > 0; k--) {
    ops.push({ kind: " ", line: a[a.length - k], a: a.length - k, b: b.length - k });
  }
  return ops;
}

function range(start: number, count: number): string {
  // Unified diff convention: an empty range names the line before it.
  const first = count === 0 ? start : start + 1;
  return count === 1 ? `${first}` : `${first},${count}`;
}

export interface UnifiedDiffOptions {
  /** Lines of context around each change. @default 3 */
  context?: number;
}

/**
 * `--- a/<path>` / `+++ b/<path>` and `@@ -l,s +l,s @@` hunks; empty string when nothing changed.
 */
export function unifiedDiff(
  oldText: string,
  newText: string,
  options: UnifiedDiffOptions & { path: string },
): string {
  if (oldText === newText) return "";
  const context = options.context ?? 3;
  const a = toLines(oldText);
  const b = toLines(newText);
  // A final-newline change must show up as a change to the last line.
  if (a.finalNewline !== b.finalNewline && a.lines.length && b.lines.length) {
    a.lines[a.lines.length - 1] += a.finalNewline ? "" : "\u0000";
    b.lines[b.lines.length - 1] += b.finalNewline ? "" : "\u0000";
  }
  const ops = diffOps(a.lines, b.lines);
  const changed = ops.map((op, k) => op.kind !== " " ? k : -1).filter((k) => k >= 0);
  const out = [`--- a/${options.path}`, `+++ b/${options.path}`];
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - context);
    let end = Math.min(ops.length - 1, changed[k] + context);
    while (k + 1 < changed.length && changed[k + 1] - context <= end + 1) {
      k++;
      end = Math.min(ops.length - 1, changed[k] + context);
    }
    k++;
    const hunk = ops.slice(start, end + 1);
    const aCount = hunk.filter((op) => op.kind !== "+").length;
    const bCount = hunk.filter((op) => op.kind !== "-").length;
    out.push(`@@ -${range(hunk[0].a, aCount)} +${range(hunk[0].b, bCount)} @@`);
    for (const op of hunk) {
      const noEol = op.line.endsWith("\u0000");
      const line = noEol ? op.line.slice(0, -1) : op.line;
      out.push(`${op.kind}${line}`);
      const lastOfA = op.kind !== "+" && op.a === a.lines.length - 1 && !a.finalNewline;
      const lastOfB = op.kind !== "-" && op.b === b.lines.length - 1 && !b.finalNewline;
      if (noEol || lastOfA || lastOfB) out.push("\\ No newline at end of file");
    }
  }
  return out.join("\n");
}
