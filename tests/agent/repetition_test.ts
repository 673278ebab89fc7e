import { expect } from "expect";
import { harness, ofType, runs } from "./_harness.ts";
import type { AskRequest } from "../../src/tools/registry.ts";
import type { AskAnswer, AskReply } from "../../src/tools/ask_reply.ts";
import type { Config } from "../../src/config/schema.ts";

// The echo results are identical, which the doom-loop limit (3 iterations) would stop first: it
// is raised here so the runs reach the repetition rule (a polled build's output changes).
const noDoom = (c: Config) => (c.agent.doom_loop_threshold = 100);

const call = (id: string, name: string, input: unknown) => ({ id, name, input });
const same = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({
    tool_calls: [call(`c${from + i}`, "echo", { text: "x" })],
  }));

/** The result text the model got for `callId`, from the last request. */
function resultFor(h: Awaited<ReturnType<typeof harness>>, callId: string): string {
  for (const req of h.provider.requests.toReversed()) {
    for (const m of req.messages) {
      for (const p of m.parts) if (p.type === "tool_result" && p.callId === callId) return p.text;
    }
  }
  throw new Error(`no result for ${callId}`);
}

Deno.test("repetition: three identical calls in a row run unasked, the fourth asks; yes runs it", async () => {
  const asked: AskRequest[] = [];
  await using h = await harness({
    config: noDoom,
    turns: [...same(4), { text: "done" }],
    session: {
      ask: (r) => {
        asked.push(r);
        return Promise.resolve("allow_once");
      },
    },
  });
  expect(await h.session.prompt("poll", { sink: (e) => h.events.push(e) })).toBe("end_turn");
  expect(runs.echo).toBe(4);
  expect(asked.map((r) => [r.callId, r.repeat, r.decision.reason, r.decision.subject])).toEqual([
    ["c4", { count: 4, limit: 3 }, "the same call 4 times in a row", "x"],
  ]);
  expect(resultFor(h, "c4")).toBe("echo: x");
});

Deno.test("repetition: key order does not matter; a different call in between starts the count again", async () => {
  await using h = await harness({
    turns: [
      { tool_calls: [call("c1", "note", { name: "a", text: "t" })] },
      { tool_calls: [call("c2", "note", { text: "t", name: "a" })] },
      { tool_calls: [call("c3", "echo", { text: "between" })] },
      { tool_calls: [call("c4", "note", { name: "a", text: "t" })] },
      { tool_calls: [call("c5", "note", { name: "a", text: "t" })] },
      { tool_calls: [call("c6", "note", { name: "a", text: "t" })] },
      { tool_calls: [call("c7", "note", { text: "t", name: "a" })] },
      { text: "done" },
    ],
    config: (c) => {
      noDoom(c);
      c.tools.permissions.note = [{ pattern: "*", action: "allow" }];
    },
  });
  expect(await h.session.prompt("go", { sink: (e) => h.events.push(e) })).toBe("end_turn");
  // c1, c2 run; c3 breaks the run; c4-c6 run; c7 is the fourth in a row and no one is asked.
  expect(runs).toEqual({ note: 5, echo: 1 });
  expect(resultFor(h, "c7")).toBe(
    "[tool_error]\ncategory: policy_blocked\n" +
      "error: Cannot run note: the same call (same tool, same arguments) 4 times in a row, " +
      "over [agent] repeat_threshold = 3, and no one is here to approve more\n" +
      "suggestion: Use the earlier result, different arguments or a different approach.\n" +
      "retryable: false",
  );
  expect(ofType(h.events, "notice").map((e) => [e.code, e.message])).toEqual([
    [
      "repetition",
      "note not run: 4 identical calls in a row (repeat_threshold = 3).",
    ],
  ]);
});

Deno.test("repetition: no, with a reason, reaches the model; the run is counted across batches", async () => {
  await using h = await harness({
    config: noDoom,
    turns: [
      { tool_calls: [call("c1", "echo", { text: "x" }), call("c2", "echo", { text: "x" })] },
      { tool_calls: [call("c3", "echo", { text: "x" }), call("c4", "echo", { text: "x" })] },
      { text: "ok, stopping" },
    ],
    session: {
      ask: (r) =>
        Promise.resolve<AskAnswer | AskReply>(
          r.repeat
            ? { answer: "reject_once", reason: "it will not change, read the log" }
            : "allow_once",
        ),
    },
  });
  expect(await h.session.prompt("go", { sink: (e) => h.events.push(e) })).toBe("end_turn");
  expect(runs.echo).toBe(3);
  expect(resultFor(h, "c4")).toBe(
    "[tool_error]\ncategory: policy_blocked\n" +
      "error: Cannot run echo: the same call (same tool, same arguments) 4 times in a row; " +
      'the user stopped it and said: "it will not change, read the log"\n' +
      "suggestion: Do what the user said instead; do not retry this call unchanged.\n" +
      "retryable: false",
  );
});

Deno.test("repetition: always stops the questions for that call this turn; threshold 0 turns the rule off", async () => {
  let asked = 0;
  {
    await using h = await harness({
      config: noDoom,
      turns: [...same(7), { text: "done" }],
      session: {
        ask: () => {
          asked++;
          return Promise.resolve("allow_always");
        },
      },
    });
    expect(await h.session.prompt("go", { sink: () => {} })).toBe("end_turn");
    expect([runs.echo, asked]).toEqual([7, 1]);
  }
  {
    await using h = await harness({
      config: (c) => {
        noDoom(c);
        c.agent.repeat_threshold = 0;
      },
      turns: [...same(6), { text: "done" }],
    });
    expect(await h.session.prompt("go", { sink: () => {} })).toBe("end_turn");
    expect(runs.echo).toBe(6);
  }
});

Deno.test("repetition: after yes, three more identical calls run before the next question", async () => {
  let asked = 0;
  await using h = await harness({
    config: noDoom,
    turns: [...same(8), { text: "done" }],
    session: {
      ask: () => Promise.resolve(++asked === 1 ? "allow_once" : "reject_once"),
    },
  });
  expect(await h.session.prompt("go", { sink: () => {} })).toBe("end_turn");
  // c1-c3 free, c4 asked (yes), c5-c7 free, c8 asked (no).
  expect([runs.echo, asked]).toEqual([7, 2]);
  expect(resultFor(h, "c8")).toContain("the user stopped it\n");
});

Deno.test("repetition: a stop from a front-end without words (ACP) ends the turn like a rejection", async () => {
  await using h = await harness({
    config: noDoom,
    turns: [...same(4), { text: "What should I do instead?" }],
    session: { ask: () => Promise.resolve({ answer: "reject_once", reasonFollows: true }) },
  });
  const sink = (e: (typeof h.events)[number]) => h.events.push(e);
  expect(await h.session.prompt("poll", { sink })).toBe("end_turn");
  expect([runs.echo, h.provider.requests.length]).toEqual([3, 4]);
  expect(ofType(h.events, "notice").map((e) => e.code)).toEqual(["rejected"]);
  expect(await h.session.prompt("read build.log instead", { sink })).toBe("end_turn");
  const sent = h.provider.requests[4].messages;
  expect(sent.at(-1)).toEqual({
    role: "user",
    parts: [{ type: "text", text: "read build.log instead" }],
  });
  expect((sent.at(-2)!.parts[0] as { text: string }).text).toContain(
    "4 times in a row; the user stopped it; their next message may say why\n",
  );
});
