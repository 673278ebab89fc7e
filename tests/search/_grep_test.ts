// The entry point: a file matched whole, a tree searched with the pool giving the one-thread
// answer, and the one-thread rerun (with a notice) when the pool's threads fail.
import { expect } from "expect";
import { Sandbox } from "../../src/sandbox/path.ts";
import { grep, type GrepRequest } from "../../src/search/_grep.ts";
import {
  GrepPool,
  localGrepPool,
  runJob,
  setGrepPoolProvider,
  setPoolThreads,
} from "../../src/search/_pool.ts";

/** 12 directories of 100 files (over 1,000 entries: the walk is split and the pool gets a job). */
async function bigTree(): Promise<string> {
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph-grep-" }));
  for (let d = 0; d < 12; d++) {
    await Deno.mkdir(`${ws}/d${d}`);
    for (let f = 0; f < 100; f++) {
      await Deno.writeTextFile(`${ws}/d${d}/f${f}.txt`, `line ${d}-${f}\nneedle ${d}-${f}\n`);
    }
  }
  return ws;
}

async function request(ws: string, extra: Partial<GrepRequest> = {}): Promise<GrepRequest> {
  return {
    path: ws,
    isFile: false,
    pattern: "needle 1[01]-9\\d",
    caseSensitive: true,
    max: 100,
    sandbox: await Sandbox.create(ws),
    signal: new AbortController().signal,
    ...extra,
  };
}

/** Walked path (relative) and the matching lines, as the output shows them. */
function shown(ws: string, hits: Awaited<ReturnType<typeof grep>>): string[] {
  return hits.flatMap((h) =>
    h.matched.map((n) => `${h.walked.slice(ws.length + 1)}:${n + 1}: ${h.lines[n]}`)
  );
}

Deno.test("grep: a file is matched whole; an unreadable one throws the runtime's error", async () => {
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph-grep-" }));
  try {
    await Deno.writeTextFile(`${ws}/a.txt`, "one\nNeedle two\nneedle three\n");
    const base = await request(ws, { isFile: true, pattern: "needle", caseSensitive: false });
    const hits = await grep({ ...base, path: `${ws}/a.txt` });
    expect(hits).toEqual([{
      file: `${ws}/a.txt`,
      walked: `${ws}/a.txt`,
      lines: ["one", "Needle two", "needle three"],
      matched: [1, 2],
    }]);
    const error = await grep({ ...base, path: `${ws}/gone.txt` }).catch((e) => e);
    expect(error).toBeInstanceOf(Deno.errors.NotFound);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("grep: a large tree goes to the pool and gives the one-thread answer", async () => {
  const ws = await bigTree();
  try {
    setPoolThreads(0);
    let alone: string[];
    try {
      alone = shown(ws, await grep(await request(ws)));
    } finally {
      setPoolThreads();
    }
    expect(alone.length).toBe(20);
    const pool = localGrepPool();
    if (pool === null) return; // one CPU: no pool to compare with
    const before = pool.dispatched;
    expect(shown(ws, await grep(await request(ws)))).toEqual(alone);
    expect(pool.dispatched - before).toBe(1);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("grep: when the pool's threads fail, the search runs again on one thread and says so", async () => {
  const ws = await bigTree();
  // A thread that cannot run the job (a pattern it cannot compile) answers with an error.
  let jobs = 0;
  const broken = new GrepPool((onResult) => [{
    post: (message) => {
      jobs++;
      const job = { ...message.job, spec: { ...message.job.spec, pattern: "(" } };
      const result = runJob(job, message.thread, new Map());
      queueMicrotask(() => onResult(result));
    },
    hold: () => {},
    terminate: () => {},
  }]);
  const run = async (pool: GrepPool | null) => {
    const notices: string[] = [];
    const previous = setGrepPoolProvider(() => pool);
    try {
      const hits = await grep(await request(ws, { onNotice: (m) => void notices.push(m) }));
      return { text: shown(ws, hits), notices };
    } finally {
      setGrepPoolProvider(previous);
    }
  };
  try {
    const alone = await run(null);
    expect([alone.text.length, alone.notices]).toEqual([20, []]);
    const retried = await run(broken);
    expect(jobs).toBe(1);
    expect(retried).toEqual({
      text: alone.text,
      notices: ["A grep thread failed: the search was stopped; searched on one thread instead"],
    });
  } finally {
    broken.close();
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("grep: a tree under the split point never asks for the pool's threads", async () => {
  const ws = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph-grep-" }));
  let asks = 0;
  const previous = setGrepPoolProvider(() => {
    asks++;
    return null;
  });
  try {
    for (let f = 0; f < 50; f++) {
      await Deno.writeTextFile(`${ws}/f${f}.txt`, `needle 1${f % 2}-9${f}\n`);
    }
    expect(shown(ws, await grep(await request(ws))).length).toBe(50);
    expect(asks).toBe(0);
  } finally {
    setGrepPoolProvider(previous);
    await Deno.remove(ws, { recursive: true });
  }
  // A large one asks once.
  const big = await bigTree();
  try {
    const again = setGrepPoolProvider(() => {
      asks++;
      return null;
    });
    try {
      expect(shown(big, await grep(await request(big))).length).toBe(20);
    } finally {
      setGrepPoolProvider(again);
    }
    expect(asks).toBe(1);
  } finally {
    await Deno.remove(big, { recursive: true });
  }
});
