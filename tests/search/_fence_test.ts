// The pool of a fenced thread: threads started on the unfenced side with read permission on the
// roots only, handed over a link; a thread that cannot start leaves the search on one thread.
import { expect } from "expect";
import { Sandbox } from "../../src/sandbox/path.ts";
import { useSearchLink } from "../../src/search/_fence.ts";
import { isLargeTree, openSearchLink } from "../../src/search/link.ts";
import { grep, type GrepRequest } from "../../src/search/_grep.ts";
import { poolThreads, setGrepPoolProvider, setPoolThreadModule } from "../../src/search/_pool.ts";

/** A workspace of 12 × 100 files (the walk is split) and a file outside it. */
async function dirs(): Promise<{ base: string; ws: string }> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph-fence-" }));
  const ws = `${base}/ws`;
  for (let d = 0; d < 12; d++) {
    await Deno.mkdir(`${ws}/d${d}`, { recursive: true });
    for (let f = 0; f < 100; f++) {
      await Deno.writeTextFile(`${ws}/d${d}/f${f}.txt`, `line ${d}-${f}\nneedle ${d}-${f}\n`);
    }
  }
  await Deno.writeTextFile(`${base}/outside.txt`, "needle outside\n");
  return { base, ws };
}

/** Runs `fn` with this thread's searches on the link's threads, as the file worker's are. */
async function overLink<T>(
  roots: string[],
  fn: () => Promise<T>,
  eager = false,
): Promise<T> {
  const link = openSearchLink(roots, eager ? { eagerFor: roots[0] } : {});
  const previous = setGrepPoolProvider(() => null);
  useSearchLink(link.port);
  try {
    return await fn();
  } finally {
    setGrepPoolProvider(previous);
    link.port.close();
    link.close();
  }
}

async function request(ws: string, extra: Partial<GrepRequest> = {}): Promise<GrepRequest> {
  return {
    path: ws,
    isFile: false,
    pattern: "needle",
    caseSensitive: true,
    max: 10_000,
    sandbox: await Sandbox.create(ws),
    signal: new AbortController().signal,
    ...extra,
  };
}

const count = (hits: { matched: number[] }[]) => hits.reduce((n, h) => n + h.matched.length, 0);

Deno.test("search link: the fenced side's threads search the roots and give the one-thread hits", async () => {
  const { base, ws } = await dirs();
  try {
    const previous = setGrepPoolProvider(() => null);
    const alone = await grep(await request(ws)).finally(() => setGrepPoolProvider(previous));
    expect(count(alone)).toBe(1200);
    const notices: string[] = [];
    const linked = await overLink(
      [ws],
      async () => await grep(await request(ws, { onNotice: (m) => void notices.push(m) })),
    );
    expect([linked, notices]).toEqual([alone, []]);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

for (const eager of [false, true]) {
  Deno.test(`search link: a pool thread that cannot start leaves the search on one thread (${eager ? "started early" : "started at the ask"})`, async () => {
    const { base, ws } = await dirs();
    setPoolThreadModule(new URL("./_crashing_pool_thread.ts", import.meta.url));
    try {
      const previous = setGrepPoolProvider(() => null);
      const alone = await grep(await request(ws)).finally(() => setGrepPoolProvider(previous));
      await overLink([ws], async () => {
        // The first search may start before the thread's failure is known, or after: either way
        // the answer is the whole one, and so is every search after it.
        for (let i = 0; i < 3; i++) {
          expect(await grep(await request(ws))).toEqual(alone);
          await new Promise((r) => setTimeout(r, 50));
        }
      }, eager);
    } finally {
      setPoolThreadModule();
      await Deno.remove(base, { recursive: true });
    }
  });
}

Deno.test("search link: threads for a large tree start before the first ask and search as the late ones do", async () => {
  const { base, ws } = await dirs();
  try {
    const previous = setGrepPoolProvider(() => null);
    const alone = await grep(await request(ws)).finally(() => setGrepPoolProvider(previous));
    // 1,212 entries: large. One directory of 100 files, or a file: no thread starts early.
    expect([isLargeTree(ws), isLargeTree(`${ws}/d0`), isLargeTree(`${ws}/d0/f0.txt`)]).toEqual([
      true,
      false,
      false,
    ]);
    const lazy = openSearchLink([ws]);
    const small = openSearchLink([ws], { eagerFor: `${ws}/d0` });
    const eager = openSearchLink([ws], { eagerFor: ws });
    expect([lazy.threads, small.threads, eager.threads]).toEqual([0, 0, poolThreads()]);
    for (const link of [lazy, small, eager]) link.close();
    const linked = await overLink([ws], async () => await grep(await request(ws)), true);
    expect(linked).toEqual(alone);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
