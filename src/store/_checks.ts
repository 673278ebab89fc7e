/** Input checks both store implementations share, so bad input fails the same way in each. */
import type { ContentPart, Message } from "../provider/mod.ts";
import { StoreError } from "./errors.ts";
import type { SliceOptions, SliceUnit } from "./store.ts";

const PART_TYPES = new Set<ContentPart["type"]>(["text", "tool_call", "tool_result"]);

export function checkMessages(conversationId: string, messages: Message[]): void {
  if (!Array.isArray(messages)) {
    throw new StoreError(
      `Cannot append messages to ${JSON.stringify(conversationId)}: not an array`,
    );
  }
  messages.forEach((m, i) => {
    const where = `Cannot append message ${i} to conversation ${JSON.stringify(conversationId)}`;
    if (m === null || typeof m !== "object") throw new StoreError(`${where}: not an object`);
    if (m.role !== "user" && m.role !== "assistant") {
      throw new StoreError(`${where}: role ${JSON.stringify(m.role)} is not "user" or "assistant"`);
    }
    if (!Array.isArray(m.parts)) throw new StoreError(`${where}: parts is not an array`);
    for (const part of m.parts) {
      if (part === null || typeof part !== "object" || !PART_TYPES.has(part.type)) {
        throw new StoreError(
          `${where}: part type ${JSON.stringify(part?.type)} is not text, tool_call or tool_result`,
        );
      }
    }
  });
}

export interface Slice {
  offset: number;
  limit: number | undefined;
  unit: SliceUnit;
}

export function checkSlice(options: SliceOptions = {}): Slice {
  const offset = options.offset ?? 0;
  const unit = options.unit ?? "chars";
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new StoreError(`Cannot read overflow: offset ${offset} is not a non-negative integer`);
  }
  if (options.limit !== undefined && (!Number.isSafeInteger(options.limit) || options.limit < 0)) {
    throw new StoreError(
      `Cannot read overflow: limit ${options.limit} is not a non-negative integer`,
    );
  }
  if (unit !== "chars" && unit !== "lines") {
    throw new StoreError(
      `Cannot read overflow: unit ${JSON.stringify(unit)} is not "chars" or "lines"`,
    );
  }
  return { offset, limit: options.limit, unit };
}

export function checkRetention(days: number): void {
  if (!Number.isFinite(days) || days < 0) {
    throw new StoreError(
      `Cannot clean up overflow: retention of ${days} days is not a number >= 0`,
    );
  }
}

export const DAY_MS = 86_400_000;
