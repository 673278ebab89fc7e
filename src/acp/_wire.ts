/**
 * The stdio wire under the SDK: one serialized writer for stdout (the SDK's messages and our
 * own protocol errors share it), and an input guard that answers an oversized line with a
 * JSON-RPC error and keeps serving instead of letting the SDK close the connection.
 */

const NEWLINE = 0x0a;

/** Serializes whole-line writes to a byte sink; nothing else may touch the sink. */
export class LineWriter {
  #chain: Promise<void> = Promise.resolve();
  #write: (bytes: Uint8Array) => Promise<void>;

  constructor(write: (bytes: Uint8Array) => Promise<void>) {
    this.#write = write;
  }

  write(bytes: Uint8Array): Promise<void> {
    const next = this.#chain.then(() => this.#write(bytes));
    this.#chain = next.catch(() => {});
    return next;
  }

  /** A WritableStream view for the SDK's ndJsonStream. */
  writable(): WritableStream<Uint8Array> {
    return new WritableStream({ write: (chunk) => this.write(chunk) });
  }
}

/**
 * Passes complete lines through; a line longer than `maxLineBytes` is dropped and
 * `onOversized(bytes)` is called once for it.
 */
export function guardLines(
  input: ReadableStream<Uint8Array>,
  maxLineBytes: number,
  onOversized: (bytes: number) => void,
): ReadableStream<Uint8Array> {
  let parts: Uint8Array[] = [];
  let length = 0;
  let dropping = false;
  const flushLine = (controller: TransformStreamDefaultController<Uint8Array>) => {
    if (dropping) {
      onOversized(length);
    } else if (length > 0) {
      const line = new Uint8Array(length + 1);
      let at = 0;
      for (const p of parts) {
        line.set(p, at);
        at += p.byteLength;
      }
      line[at] = NEWLINE;
      controller.enqueue(line);
    }
    parts = [];
    length = 0;
    dropping = false;
  };
  return input.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        let start = 0;
        while (start < chunk.byteLength) {
          const nl = chunk.indexOf(NEWLINE, start);
          const end = nl < 0 ? chunk.byteLength : nl;
          const piece = chunk.subarray(start, end);
          length += piece.byteLength;
          if (!dropping) {
            if (length > maxLineBytes) {
              dropping = true;
              parts = [];
            } else if (piece.byteLength) parts.push(piece.slice());
          }
          if (nl < 0) break;
          flushLine(controller);
          start = nl + 1;
        }
      },
      flush(controller) {
        if (length > 0) flushLine(controller);
      },
    }),
  );
}

export function encodeLine(message: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(message) + "\n");
}
