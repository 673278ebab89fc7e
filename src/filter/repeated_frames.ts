/**
 * A rule's `frames` option: the code frames of a diagnostic list (the quoted source line, its
 * caret or tilde marks, the `|`-gutter lines, a `help:` line restating the finding) are context;
 * each finding's header line (`app.py:3:8: F401 …`, `src/a.ts:4:9 - error TS2322: …`) is the
 * signal. When one code recurs, its first finding keeps its frame, so the model sees the shape
 * once, and the later findings of that code lose theirs: each header stays as printed, and one
 * line per code counts the frames folded (`… frames of 4 more F401 findings folded`). A list of
 * fewer than `min_findings` findings, and a code's only finding, keep their frames whole. A frame
 * line matching `keep` carries what the header lacks (a location, a label naming the types, an
 * elaborated message, mypy's revealed type) and stays. Runs on what the rule's strategy emitted.
 */
import { z } from "zod";
import type { Pattern, RegexEngine } from "./regex.ts";
import {
  anyMatcher,
  patternField,
  patternList,
  refuseUnknownGroups,
  requireNamedGroups,
} from "./strategies/mod.ts";
import { type CompiledStrategy, emitLines, type Stage, type StageContext } from "./types.ts";

export const FramesConfig = z.object({
  header: z.string().describe(
    "Regex of a finding's header line, with the named group `code` (its rule or error code) unless `code` is set",
  ),
  code: z.string().optional().describe(
    "Regex with the named group `code`, read on the header line or the lines continuing it (mypy --pretty wraps its message and puts `[code]` on the last line)",
  ),
  frame: z.array(z.string()).min(1).describe(
    "Regexes of a finding's frame lines after its header (quoted source, marks, gutter, help lines)",
  ),
  keep: z.array(z.string()).default([]).describe(
    "Regexes of lines inside a frame that carry information the header lacks: they stay",
  ),
  min_findings: z.number().int().min(2).default(6).describe(
    "Fewest findings in the output before any frame folds",
  ),
}).strict();
export type FramesConfig = z.infer<typeof FramesConfig>;

interface CompiledFrames {
  header: Pattern;
  code?: Pattern;
  frame: (line: string) => boolean;
  keep: (line: string) => boolean;
  minFindings: number;
}

/** Lines after a header read for its code (`code`): a wrapped message's. */
const MAX_HEADER_LINES = 4;

export function compileFrames(config: FramesConfig, engine: RegexEngine): CompiledFrames {
  const named = config.code === undefined ? "frames.header" : "frames.code";
  const source = config.code ?? config.header;
  refuseUnknownGroups(source, named, ["code"]);
  requireNamedGroups(source, named, ["code"], () => "the finding's code");
  return {
    header: patternField(config.header, "frames.header", engine),
    code: config.code === undefined ? undefined : patternField(config.code, "frames.code", engine),
    frame: anyMatcher(patternList(config.frame, "frames.frame", engine)),
    keep: anyMatcher(patternList(config.keep, "frames.keep", engine)),
    minFindings: config.min_findings,
  };
}

/** The line counting the frames folded for one code. */
function foldLine(n: number, code: string): string {
  return `… frames of ${n} more ${code} finding${n === 1 ? "" : "s"} folded`;
}

/**
 * Drops the frames of the later findings of each recurring code; `lines` unchanged (the same
 * array) when nothing folds.
 */
export function foldFrames(lines: string[], frames: CompiledFrames): string[] {
  // A first pass finds the findings: each header line's code, and the lines continuing it.
  const codes: (string | null)[] = new Array(lines.length).fill(null);
  const continued = new Set<number>();
  const count = new Map<string, number>();
  let findings = 0;
  for (let i = 0; i < lines.length; i++) {
    const match = frames.header.exec(lines[i]);
    if (!match) continue;
    let code = frames.code ? undefined : match.group("code");
    if (frames.code) {
      let end = i + 1;
      while (
        end < lines.length && end <= i + MAX_HEADER_LINES && lines[end].trim() !== "" &&
        !frames.frame(lines[end]) && !frames.keep(lines[end]) && !frames.header.test(lines[end])
      ) end++;
      for (let j = i; j < end && !code; j++) {
        code = frames.code.exec(lines[j])?.group("code");
        if (code) { for (let k = i + 1; k <= j; k++) continued.add(k); }
      }
    }
    if (!code) continue;
    codes[i] = code;
    count.set(code, (count.get(code) ?? 0) + 1);
    findings++;
  }
  if (findings < frames.minFindings) return lines;
  if (![...count.values()].some((n) => n > 1)) return lines;

  const out: string[] = [];
  const seen = new Set<string>();
  const folded = new Map<string, number>();
  /** Where each code's count line goes: after the last of its folded findings. */
  const last = new Map<string, number>();
  let folding: string | null = null;
  let dropped = 0;
  const close = () => {
    if (folding !== null && dropped > 0) {
      folded.set(folding, (folded.get(folding) ?? 0) + 1);
      last.set(folding, out.length);
    }
    folding = null;
    dropped = 0;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const code = codes[i];
    if (code !== null) {
      close();
      out.push(line);
      if (seen.has(code)) folding = code;
      else seen.add(code);
      continue;
    }
    if (folding === null) {
      out.push(line);
      continue;
    }
    if (continued.has(i)) {
      out.push(line);
    } else if (line.trim() === "") {
      dropped++;
    } else if (frames.keep(line)) {
      out.push(line);
    } else if (frames.frame(line)) {
      dropped++;
    } else {
      // The frame ended: a summary or another tool's line stays.
      close();
      out.push(line);
    }
  }
  close();
  if (folded.size === 0) return lines;
  // The count lines go in from the end, so earlier positions stay right.
  const at = [...last.entries()].sort((a, b) => b[1] - a[1]);
  for (const [code, index] of at) out.splice(index, 0, foldLine(folded.get(code)!, code));
  return out;
}

/** The rule's strategy with the frames of its output folded after it ran. */
export function withFrames(
  strategy: CompiledStrategy,
  frames: CompiledFrames,
): CompiledStrategy {
  const owns = strategy.owns;
  return {
    type: strategy.type,
    // The lines it knows are the wrapped strategy's and its findings' headers, frames and kept
    // lines (`help: …` under a frame): a compound command's other lines pass by.
    owns: owns &&
      ((line) => owns(line) || frames.header.test(line) || frames.frame(line) || frames.keep(line)),
    recordsFailure: strategy.recordsFailure,
    createStage(ctx: StageContext): Stage {
      let held: string[] = [];
      const inner = strategy.createStage({
        ...ctx,
        emit: (line) => held.push(line),
        emitAll: (lines) => {
          if (held.length === 0) held = lines;
          else for (const line of lines) held.push(line);
        },
      });
      return {
        push: (line) => inner.push(line),
        pushAll: inner.pushAll && ((lines) => inner.pushAll!(lines)),
        finish() {
          const confidence = inner.finish();
          const lines = foldFrames(held, frames);
          const folded = lines !== held;
          held = [];
          emitLines(ctx, lines);
          // A strategy that passed its input on did something once frames folded.
          return folded && confidence === "fallback" ? "full" : confidence;
        },
      };
    },
  };
}
