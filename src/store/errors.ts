/** The store's one error class: what failed, on which file, and what the user can do. */
export class StoreError extends Error {
  readonly hint?: string;
  /** Set when the file cannot be written: the start-up warning of a zeph that runs without it. */
  readonly warning?: string;

  constructor(
    message: string,
    options: { hint?: string; cause?: unknown; warning?: string } = {},
  ) {
    super(options.hint ? `${message}. ${sentence(options.hint)}` : message, {
      cause: options.cause,
    });
    this.name = "StoreError";
    this.hint = options.hint;
    this.warning = options.warning;
  }
}

/** What zeph goes without when a file of its own cannot be written, and the setting that moves it. */
const UNWRITABLE = {
  store: {
    what: "the store",
    lost: "conversations and large tool outputs are not saved",
    fix: "set [memory] sqlite_path (or ZEPH_MEMORY_SQLITE_PATH) to a writable file",
  },
  audit: {
    what: "the audit log",
    lost: "tool calls are not audited",
    fix: "set [tools.audit] path (or ZEPH_TOOLS_AUDIT_PATH) to a writable file, " +
      "or turn the log off with ZEPH_TOOLS_AUDIT_ENABLED=false",
  },
} as const;

/**
 * The one sentence that says a file cannot be written: which file, why, what is lost and which
 * key or variable to change. Said once, at start-up, before any output it would interrupt.
 */
export function cannotWrite(file: keyof typeof UNWRITABLE, path: string, error: unknown): string {
  const { what, lost, fix } = UNWRITABLE[file];
  return `Cannot write ${what} ${JSON.stringify(path)} (${osReason(error)}), so ${lost}; ${fix}.`;
}

/** "Read-only file system (os error 30): open '/x'" → "read-only file system". */
function osReason(error: unknown): string {
  const message = (error as Error)?.message ?? String(error);
  // A recursive mkdir that meets a file says only "File exists", naming the file last.
  const blocker = /^File exists \(os error \d+\): mkdir '(.+)'$/s.exec(message);
  if (blocker) return `${JSON.stringify(blocker[1])} is a file, not a directory`;
  const reason = message.replace(/ \(os error \d+\).*$/s, "").trim();
  return reason.charAt(0).toLowerCase() + reason.slice(1);
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
