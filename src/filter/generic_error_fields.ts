/**
 * The fields Node prints after an uncaught error's stack (`at … {`, then `  errno: -2,`, `  code:
 * 'ENOENT',`, `  syscall: 'open',`, `  path: './a.json'`, `}`) when every one of them repeats its
 * message (`Error: ENOENT: no such file or directory, open './a.json'`): the block goes, and the
 * frame keeps its text without the brace. `errno` is the number of the `code` beside it. A block
 * with a field the message does not hold (`code: 'MODULE_NOT_FOUND'`, a `[cause]`, an object)
 * stays whole: it says something the message does not.
 */

import { FoldedLines } from "./arrays.ts";
import { MAX_TESTED } from "./sanitize.ts";

/** A JavaScript stack frame whose error has fields: Node opens them at the frame's end. */
const FRAME_OPENING = /^\s+at \S.{0,1500} \{$/;
/** Any JavaScript stack frame. */
const FRAME = /^\s+at \S/;
/** An error's first line: `Error: …`, `TypeError: …`, `SystemError [ERR_X]: …`. */
const HEADER = /^(?:Uncaught )?[A-Z]?[\w$.]{0,80}(?:Error|Exception)(?: \[[\w.-]{1,60}\])?: \S/;
/** One field of the block: two spaces, a name, a value, a comma unless it is the last. */
const FIELD = /^ {2}([A-Za-z_$][\w$]{0,40}): (.{1,400}?),?$/;
/** A quoted string value. */
const QUOTED = /^'([^']{0,400})'$|^"([^"]{0,400})"$/;
/** An array of quoted strings (`[ '/app/a.js', '/app/b.js' ]`). */
const QUOTED_LIST = /^\[ ((?:'[^']{0,400}'(?:, )?){1,20}) \]$/;
/** A number. */
const NUMBER = /^-?\d{1,12}$/;
/** Fields a block holds at most. */
const MAX_FIELDS = 12;
/** Lines above the frames searched for the error's first line. */
const MAX_HEAD = 60;

/** The message an error's frames at `frame` belong to (its first line and what follows it), or null. */
function messageAbove(lines: readonly string[], frame: number): string | null {
  let first = frame;
  while (first > 0 && lines[first - 1].length <= MAX_TESTED && FRAME.test(lines[first - 1])) {
    first--;
  }
  for (let i = first - 1; i >= 0 && i >= first - MAX_HEAD; i--) {
    const line = lines[i];
    if (line.trim() === "" || line.length > MAX_TESTED) return null;
    if (HEADER.test(line)) return lines.slice(i, first).join("\n");
  }
  return null;
}

/** Whether one field's value is said in `message` (`errno` counts when `code` is said). */
function said(name: string, value: string, message: string, fields: Map<string, string>): boolean {
  if (NUMBER.test(value)) {
    if (name === "errno") return fields.has("code");
    return new RegExp(`(?<![\\w.-])${value}(?![\\w.])`).test(message);
  }
  const quoted = QUOTED.exec(value);
  if (quoted) {
    const text = quoted[1] ?? quoted[2];
    return text !== "" && saysWhole(message, text);
  }
  const list = QUOTED_LIST.exec(value);
  if (list) {
    return list[1].split(/, (?=')/).every((item) => saysWhole(message, item.slice(1, -1)));
  }
  return false;
}

/** A letter, digit or underscore. */
const WORD = /\w/;

/**
 * Whether `text` stands in `message` as a whole: a word character it starts or ends with does not
 * go on into the message's text around it (`code: 'EN'` is not said by `ENOENT`, `'ENOENT'` is by
 * `ENOENT:`).
 */
function saysWhole(message: string, text: string): boolean {
  const open = WORD.test(text[0]);
  const close = WORD.test(text[text.length - 1]);
  for (let at = message.indexOf(text); at >= 0; at = message.indexOf(text, at + 1)) {
    const end = at + text.length;
    if (open && at > 0 && WORD.test(message[at - 1])) continue;
    if (close && end < message.length && WORD.test(message[end])) continue;
    return true;
  }
  return false;
}

/**
 * The block of fields opened by the frame at `at`: its end (the index of the closing `}`) when
 * every field repeats the message, else -1.
 */
function echoedBlockEnd(lines: readonly string[], at: number): number {
  const fields = new Map<string, string>();
  let end = at + 1;
  for (; end < lines.length && lines[end] !== "}"; end++) {
    const field = lines[end].length <= MAX_TESTED ? FIELD.exec(lines[end]) : null;
    if (field === null || fields.size >= MAX_FIELDS) return -1;
    fields.set(field[1], field[2]);
  }
  if (end >= lines.length || fields.size === 0) return -1;
  const message = messageAbove(lines, at);
  if (message === null) return -1;
  for (const [name, value] of fields) {
    if (!said(name, value, message, fields)) return -1;
  }
  return end;
}

/** The lines with each block of error fields that repeats its message removed. */
export function foldEchoedErrorFields(lines: readonly string[]): readonly string[] {
  const out = new FoldedLines(lines);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.length <= MAX_TESTED && line.endsWith(" {") && FRAME_OPENING.test(line)) {
      const end = echoedBlockEnd(lines, i);
      if (end >= 0) {
        out.push(line.slice(0, -2));
        i = end;
        continue;
      }
    }
    out.push(line);
  }
  return out.lines();
}
