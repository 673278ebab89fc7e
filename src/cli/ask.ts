/**
 * The terminal's answer to an `ask` decision: `y` (allow once), `n` (reject once, then an
 * optional line of reason the model reads) or `always` (allow and add a session rule for the
 * pattern shown). Ctrl-C or end of input cancels. The same prompt asks whether to go on with a
 * run of identical calls ([agent] repeat_threshold).
 */
import type { AskAnswer, AskReply, AskRequest } from "../tools/mod.ts";

/** Maps what the user typed; null when it is not an answer (the question is asked again). */
export function parseAnswer(text: string): AskAnswer | null {
  const t = text.trim().toLowerCase();
  if (t === "y" || t === "yes") return "allow_once";
  if (t === "n" || t === "no") return "reject_once";
  if (t === "a" || t === "always") return "allow_always";
  return null;
}

/**
 * Control characters (carriage return, ANSI escapes) and bidi overrides shown as escapes: a
 * subject could otherwise redraw the prompt to show something other than what is approved.
 */
export function visible(text: string): string {
  return text.replace(
    // deno-lint-ignore no-control-regex -- matching control characters is the point
    /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) =>
      c === "\n"
        ? "\\n"
        : c === "\r"
        ? "\\r"
        : c === "\t"
        ? "\\t"
        : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The question: tool, subject, why it asks, and what "always" would allow. The subject is shown
 * whole: a cut one would hide the part that is approved without being seen.
 */
export function askQuestion(request: AskRequest): string {
  const d = request.decision;
  const subject = d.subject ? `: ${visible(d.subject)}` : "";
  if (request.repeat) {
    const { count, limit } = request.repeat;
    return `Run ${request.tool.name} again${subject}\n` +
      `  The model made the same call ${count} times in a row ([agent] repeat_threshold = ${limit}).\n` +
      `  [y]es / [n]o, stop it / [a]lways (stop asking about this call this turn): `;
  }
  const why = d.reason
    ? ` (${visible(d.reason)})`
    : d.policyMatch
    ? ` (${visible(d.policyMatch)})`
    : "";
  const always = visible(d.alwaysPattern ?? d.subject ?? "*");
  return `Allow ${request.tool.name}${subject}${why}?\n` +
    `  [y]es once / [n]o / [a]lways (allow ${request.tool.name} "${always}" this session): `;
}

export interface TerminalAskOptions {
  /** Called before the question is printed (the renderer stops its spinner). */
  before?: () => void;
  /** Called once the question is answered (the renderer redraws its spinner). */
  after?: () => void;
  /** Text shown above the question: the diff of a write, a command's parts (ask_preview.ts). */
  preview?: (request: AskRequest) => Promise<string>;
  /** Reads one line; null at end of input or on Ctrl-C. */
  readLine: (prompt: string) => Promise<string | null>;
  write: (text: string) => void;
}

/** An ask handler for `CallScope.ask` that questions the user on the terminal. */
export function terminalAsk(
  options: TerminalAskOptions,
): (r: AskRequest) => Promise<AskAnswer | AskReply> {
  const ask = async (request: AskRequest): Promise<AskAnswer | AskReply> => {
    let prompt = askQuestion(request);
    while (true) {
      const line = await options.readLine(prompt);
      if (line === null) {
        options.write("\n");
        return "cancelled";
      }
      const answer = parseAnswer(line);
      if (answer === "reject_once") {
        const reason = await options.readLine(REASON_PROMPT);
        if (reason === null) {
          options.write("\n");
          return "cancelled";
        }
        return reason.trim() ? { answer, reason: reason.trim() } : answer;
      }
      if (answer) return answer;
      prompt = "  Please answer y, n or always: ";
    }
  };
  return async (request) => {
    options.before?.();
    try {
      if (options.preview) options.write(await options.preview(request));
      return await ask(request);
    } finally {
      options.after?.();
    }
  };
}

/** Asked after `n`: the line reaches the model with the rejection. */
export const REASON_PROMPT = "  Why not? (tell the model, or Enter to skip): ";

/**
 * `--yes`: every ask is allowed once, without a prompt — except one only a person may answer
 * (a protected path), which is refused.
 */
export function allowAll(request: AskRequest): Promise<AskAnswer> {
  return Promise.resolve(request.decision.humanOnly ? "reject_once" : "allow_once");
}
