/**
 * Child process for the crash test: writes committed rows in a loop and prints a line after each
 * commit, until it is killed. Args: <db path> <conversation id> <round>.
 * Lines: `msg <text>` after a message commit, `ovf <id> <seq> <size>` after an overflow commit.
 */
import { openStore } from "../../src/store/mod.ts";

const [path, conversationId, round] = Deno.args;
const store = openStore(path);
const out = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(`${line}\n`));

/** The content of overflow entry `seq`: rebuilt by the parent to compare. */
function overflowContent(seq: string, size: number): string {
  return `${seq}:` + "0123456789abcdef\n".repeat(Math.ceil(size / 17)).slice(0, size);
}

let n = 0;
while (true) {
  if (n % 3 === 2) {
    const seq = `${round}-${n}`;
    const size = 1000 + Math.floor(Math.random() * 2_000_000);
    const { id } = store.saveOverflow(conversationId, overflowContent(seq, size));
    out(`ovf ${id} ${seq} ${size}`);
  } else {
    const batch = 1 + Math.floor(Math.random() * 4);
    const texts = Array.from({ length: batch }, (_, i) => `r${round}-m${n}-${i}`);
    store.appendMessages(
      conversationId,
      texts.map((text) => ({ role: "user" as const, parts: [{ type: "text" as const, text }] })),
    );
    for (const text of texts) out(`msg ${text}`);
  }
  n++;
}
