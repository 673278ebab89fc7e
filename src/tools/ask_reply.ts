/**
 * What a front-end answers to an ask beyond the choice itself: the reason a user gave with a
 * rejection (the CLI asks for one line), or the mark that the reason, if any, comes as the
 * user's next message (ACP's permission answer carries no text). Both reach the model in the
 * rejected call's result.
 */
export type AskAnswer =
  | "allow_once"
  | "allow_always"
  | "reject_once"
  | "reject_always"
  | "cancelled";

export interface AskReply {
  answer: AskAnswer;
  /** The user's words with a rejection, one line; the model reads them in the tool result. */
  reason?: string;
  /**
   * The front-end cannot carry words with the answer: a rejection ends the turn, so the user's
   * next prompt follows the rejected call in the transcript.
   */
  reasonFollows?: boolean;
}

/** A bare answer as a reply, so callers handle one shape. */
export function askReply(reply: AskAnswer | AskReply): AskReply {
  return typeof reply === "string" ? { answer: reply } : reply;
}

/** True for an answer that refuses the call. */
export function isRejection(answer: AskAnswer): boolean {
  return answer === "reject_once" || answer === "reject_always" || answer === "cancelled";
}

/**
 * How a rejection ends the refusal message and the hint the model gets: the user's reason
 * quoted, or that their next message may say why, or nothing to add.
 */
export function rejectionWords(reply: AskReply): { said: string; hint: string } {
  const reason = reply.reason?.replace(/\s+/g, " ").trim();
  if (reason) {
    return {
      said: ` and said: ${JSON.stringify(reason)}`,
      hint: "Do what the user said instead; do not retry this call unchanged.",
    };
  }
  if (reply.reasonFollows) {
    return {
      said: "; their next message may say why",
      hint: "Do not retry this call; read the user's next message and follow it.",
    };
  }
  return { said: "", hint: "Do not retry this call; ask the user how to proceed." };
}
