/** The store's one error class: what failed, on which file, and what the user can do. */
export class StoreError extends Error {
  readonly hint?: string;

  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(options.hint ? `${message}. ${sentence(options.hint)}` : message, {
      cause: options.cause,
    });
    this.name = "StoreError";
    this.hint = options.hint;
  }
}

/** The hint as a sentence: it ends the message, so it gets its full stop. */
function sentence(hint: string): string {
  return /[.!?]$/.test(hint) ? hint : `${hint}.`;
}

/** A conversation id that is not in the store. */
export function missing(action: string, conversationId: string): StoreError {
  return new StoreError(
    `Cannot ${action} conversation ${JSON.stringify(conversationId)}: it does not exist`,
    { hint: "Create the conversation first, or resume one listed by `zeph sessions`" },
  );
}
