/**
 * Where each value of a JSON document is printed: the lines a value starts and ends on and, for
 * an object's member, the line of its key. The json strategy reads a pretty-printed document
 * (`rspec --format json | jq .`, `npm audit --json`) through these spans to keep the lines as
 * printed instead of rendering new ones.
 */

/** One value's place in the text: 0-based lines. */
export type Span =
  | { kind: "scalar"; start: number; end: number }
  | { kind: "array"; start: number; end: number; elements: Span[] }
  | { kind: "object"; start: number; end: number; members: Member[] };

/** An object's member: its key, the line the key is on and the value's span. */
export type Member = { key: string; line: number; value: Span };

/**
 * Nesting past which an array or object is one opaque value (a scalar span over its lines): the
 * scan recurses once per level, and a document nested thousands of levels deep would overflow
 * the stack. The readers of spans recurse with them, so they stop at this depth too.
 */
export const MAX_SPAN_DEPTH = 128;

/**
 * The spans of a document the caller has already parsed (so the text is valid JSON), or null
 * when the scan finds something else (it then reads no further).
 */
export function spansOf(text: string): Span | null {
  const scanner = new Scanner(text);
  try {
    const span = scanner.value();
    scanner.space();
    return scanner.at === text.length ? span : null;
  } catch {
    return null;
  }
}

class Scanner {
  at = 0;
  line = 0;
  depth = 0;

  constructor(readonly text: string) {}

  space(): void {
    const text = this.text;
    while (this.at < text.length) {
      const c = text.charCodeAt(this.at);
      if (c === 10) this.line++;
      else if (c !== 32 && c !== 9 && c !== 13) return;
      this.at++;
    }
  }

  value(): Span {
    this.space();
    const start = this.line;
    const c = this.text[this.at];
    if ((c === "{" || c === "[") && this.depth >= MAX_SPAN_DEPTH) this.#skipContainer();
    else if (c === "{" || c === "[") {
      this.depth++;
      const span = c === "{" ? this.#object(start) : this.#array(start);
      this.depth--;
      return span;
    } else if (c === '"') this.#string();
    else {
      // A number, true, false or null: it ends at a delimiter.
      const m = /[^\s,\]}]+/y;
      m.lastIndex = this.at;
      if (!m.exec(this.text)) throw new Error("value");
      this.at = m.lastIndex;
    }
    return { kind: "scalar", start, end: this.line };
  }

  /**
   * Past an array or object without reading its values (the text is valid JSON: brackets outside
   * strings balance), counting its lines.
   */
  #skipContainer(): void {
    const text = this.text;
    let depth = 0;
    for (;;) {
      const c = text.charCodeAt(this.at);
      if (Number.isNaN(c)) throw new Error("container");
      if (c === 34) {
        this.#string();
        continue;
      }
      this.at++;
      if (c === 10) this.line++;
      else if (c === 123 || c === 91) depth++;
      else if ((c === 125 || c === 93) && --depth === 0) return;
    }
  }

  /** Past a string; its text (escapes read). */
  #string(): string {
    const text = this.text;
    const from = this.at;
    let at = from + 1;
    for (;;) {
      const quote = text.indexOf('"', at);
      if (quote < 0) throw new Error("string");
      let slashes = 0;
      for (let i = quote - 1; text.charCodeAt(i) === 92; i--) slashes++;
      at = quote + 1;
      if (slashes % 2 === 0) break;
    }
    this.at = at;
    const raw = text.slice(from, at);
    return raw.includes("\\") ? JSON.parse(raw) as string : raw.slice(1, -1);
  }

  #array(start: number): Span {
    this.at++;
    const elements: Span[] = [];
    this.space();
    if (this.text[this.at] === "]") {
      this.at++;
      return { kind: "array", start, end: this.line, elements };
    }
    for (;;) {
      elements.push(this.value());
      this.space();
      const c = this.text[this.at++];
      if (c === "]") return { kind: "array", start, end: this.line, elements };
      if (c !== ",") throw new Error("array");
    }
  }

  #object(start: number): Span {
    this.at++;
    const members: Member[] = [];
    this.space();
    if (this.text[this.at] === "}") {
      this.at++;
      return { kind: "object", start, end: this.line, members };
    }
    for (;;) {
      this.space();
      const line = this.line;
      if (this.text[this.at] !== '"') throw new Error("key");
      const key = this.#string();
      this.space();
      if (this.text[this.at++] !== ":") throw new Error("colon");
      members.push({ key, line, value: this.value() });
      this.space();
      const c = this.text[this.at++];
      if (c === "}") return { kind: "object", start, end: this.line, members };
      if (c !== ",") throw new Error("object");
    }
  }
}
