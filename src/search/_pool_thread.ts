/**
 * A grep pool thread (_pool.ts): searches the units of a job it claims and posts the hits back.
 * Started as a `node:worker_threads` worker by an unfenced thread's pool (jobs come from the
 * parent), or as a Web Worker with a read-only permission fence for a fenced thread (_fence.ts:
 * jobs come from the fenced thread over a MessagePort it is given first).
 */
/// <reference lib="deno.worker" />
import { parentPort } from "node:worker_threads";
import { type PoolMessage, runJob } from "./_pool.ts";
import type { Matcher } from "./_walk.ts";

/** .gitignore matchers rebuilt from text, kept across jobs (each is checked against its text). */
const cache = new Map<string, Matcher>();

function serve(message: PoolMessage, reply: (answer: unknown) => void): void {
  if (message.type === "job") reply(runJob(message.job, message.thread, cache));
}

if (parentPort) {
  const port = parentPort;
  port.on("message", (message: PoolMessage) => serve(message, (a) => port.postMessage(a)));
} else {
  self.onmessage = (event: MessageEvent<{ type: "port"; port: MessagePort }>) => {
    if (event.data?.type !== "port") return;
    const port = event.data.port;
    port.onmessage = (e: MessageEvent<PoolMessage>) => serve(e.data, (a) => port.postMessage(a));
  };
}
