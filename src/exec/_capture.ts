/**
 * Bounded capture: keeps the first `limit` bytes and the last `limit` bytes of a byte stream and
 * counts what falls in between, so memory stays at most 2 × limit whatever a command prints.
 */

const encoder = new TextEncoder();

/**
 * Keeps a head and a tail of at most `limit` bytes each; the middle is counted, not stored. The
 * tail is a ring allocated once, when the head is full, so a flood of output allocates nothing
 * per chunk (every byte pushed is copied: callers may reuse their buffer).
 */
export class HeadTailBuffer {
  readonly limit: number;
  #head: Uint8Array[] = [];
  #headBytes = 0;
  #ring: Uint8Array | null = null;
  /** Next write position in the ring. */
  #ringPos = 0;
  #tailBytes = 0;
  #total = 0;

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`HeadTailBuffer limit must be a positive integer, got ${limit}`);
    }
    this.limit = limit;
  }

  /** Total bytes pushed so far (kept or dropped). */
  get totalBytes(): number {
    return this.#total;
  }

  /** Bytes pushed but no longer held (between head and tail). */
  get droppedBytes(): number {
    return this.#total - this.#headBytes - this.#tailBytes;
  }

  push(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.#total += bytes.length;
    let rest = bytes;
    if (this.#headBytes < this.limit) {
      const take = Math.min(this.limit - this.#headBytes, rest.length);
      this.#head.push(rest.slice(0, take));
      this.#headBytes += take;
      rest = rest.subarray(take);
      if (rest.length === 0) return;
    }
    const ring = this.#ring ??= new Uint8Array(this.limit);
    if (rest.length >= this.limit) {
      ring.set(rest.subarray(rest.length - this.limit));
      this.#ringPos = 0;
      this.#tailBytes = this.limit;
      return;
    }
    const first = Math.min(rest.length, this.limit - this.#ringPos);
    ring.set(rest.subarray(0, first), this.#ringPos);
    if (first < rest.length) ring.set(rest.subarray(first), 0);
    this.#ringPos = (this.#ringPos + rest.length) % this.limit;
    this.#tailBytes = Math.min(this.limit, this.#tailBytes + rest.length);
  }

  pushText(text: string): void {
    this.push(encoder.encode(text));
  }

  #tail(): Uint8Array {
    const ring = this.#ring;
    if (!ring || this.#tailBytes === 0) return new Uint8Array(0);
    if (this.#tailBytes < this.limit) return ring.subarray(0, this.#tailBytes);
    const out = new Uint8Array(this.limit);
    out.set(ring.subarray(this.#ringPos), 0);
    out.set(ring.subarray(0, this.#ringPos), this.limit - this.#ringPos);
    return out;
  }

  /**
   * The kept bytes. When bytes were dropped, a marker line naming their count sits between head
   * and tail (on a line of its own).
   */
  bytes(): Uint8Array {
    const head = concat(this.#head, this.#headBytes);
    const dropped = this.droppedBytes;
    if (dropped === 0 && this.#tailBytes === 0) return head;
    const tail = this.#tail();
    const marker = dropped === 0 ? new Uint8Array(0) : encoder.encode(
      `${
        head.length > 0 && head[head.length - 1] !== NEWLINE ? "\n" : ""
      }[... ${dropped} bytes of output dropped (kept the first and last ${
        formatBytes(this.limit)
      }) ...]\n`,
    );
    return concat([head, marker, tail], head.length + marker.length + tail.length);
  }

  /**
   * The kept text: `bytes()` decoded in one piece. Multi-byte characters cut where bytes were
   * dropped decode as U+FFFD; a character across the head's end when nothing was dropped is
   * whole, and a U+FEFF opening the tail is kept (it is content there, not a byte-order mark).
   */
  text(): string {
    return new TextDecoder().decode(this.bytes());
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

const NEWLINE = 0x0a;
/** A partial line longer than this is flushed to the interleaved view without waiting for `\n`. */
const MAX_PENDING_LINE = 64 * 1024;
const STDERR_PREFIX = encoder.encode("[stderr] ");

/**
 * The interleaved view the model reads: complete lines of both streams in arrival order, stderr
 * lines prefixed `[stderr] `. Partial lines wait for their newline (bounded) so a stdout line is
 * never split by a stderr line.
 */
export class InterleavedCapture {
  readonly buffer: HeadTailBuffer;
  #pending: Record<"stdout" | "stderr", Uint8Array[]> = { stdout: [], stderr: [] };
  #pendingBytes: Record<"stdout" | "stderr", number> = { stdout: 0, stderr: 0 };
  /** A long line was flushed before its newline: its continuation gets no second prefix. */
  #midLine: Record<"stdout" | "stderr", boolean> = { stdout: false, stderr: false };

  constructor(limit: number) {
    this.buffer = new HeadTailBuffer(limit);
  }

  /**
   * Appends a chunk: everything up to its last newline goes to the buffer in one piece (one
   * push per chunk, not per line, so a flood of short lines stays cheap); the rest waits.
   */
  push(stream: "stdout" | "stderr", bytes: Uint8Array): void {
    const last = bytes.lastIndexOf(NEWLINE);
    if (last < 0) {
      this.#hold(stream, bytes);
      return;
    }
    const complete = bytes.subarray(0, last + 1);
    const pending = this.#pendingBytes[stream];
    if (stream === "stdout") {
      if (pending > 0) this.buffer.push(this.#takePending(stream));
      this.buffer.push(complete);
    } else {
      let lines = 0;
      for (let i = complete.indexOf(NEWLINE); i >= 0; i = complete.indexOf(NEWLINE, i + 1)) {
        lines++;
      }
      const prefixes = lines - (this.#midLine.stderr ? 1 : 0);
      const out = new Uint8Array(pending + complete.length + prefixes * STDERR_PREFIX.length);
      let at = 0;
      if (!this.#midLine.stderr) {
        out.set(STDERR_PREFIX, at);
        at += STDERR_PREFIX.length;
      }
      if (pending > 0) {
        out.set(this.#takePending(stream), at);
        at += pending;
      }
      let from = 0;
      while (from < complete.length) {
        const nl = complete.indexOf(NEWLINE, from);
        out.set(complete.subarray(from, nl + 1), at);
        at += nl + 1 - from;
        from = nl + 1;
        if (from < complete.length) {
          out.set(STDERR_PREFIX, at);
          at += STDERR_PREFIX.length;
        }
      }
      this.buffer.push(out);
    }
    this.#midLine[stream] = false;
    if (last + 1 < bytes.length) this.#hold(stream, bytes.subarray(last + 1));
  }

  #hold(stream: "stdout" | "stderr", bytes: Uint8Array): void {
    this.#pending[stream].push(bytes.slice());
    this.#pendingBytes[stream] += bytes.length;
    if (this.#pendingBytes[stream] > MAX_PENDING_LINE) this.#flush(stream);
  }

  #takePending(stream: "stdout" | "stderr"): Uint8Array {
    const bytes = concat(this.#pending[stream], this.#pendingBytes[stream]);
    this.#pending[stream] = [];
    this.#pendingBytes[stream] = 0;
    return bytes;
  }

  /** Flushes unterminated last lines (stdout first), at the end of the run. */
  finish(): void {
    this.#flush("stdout", true);
    this.#flush("stderr", true);
  }

  #flush(stream: "stdout" | "stderr", terminate = false): void {
    if (this.#pendingBytes[stream] === 0) return;
    const bytes = this.#takePending(stream);
    if (stream === "stderr" && !this.#midLine[stream]) this.buffer.push(STDERR_PREFIX);
    this.buffer.push(bytes);
    this.#midLine[stream] = !terminate;
    if (terminate) this.buffer.push(new Uint8Array([NEWLINE]));
  }
}
