/**
 * The runtime's floor under a one-shot grep (bench/oneshot_bench.ts): walk a tree and read the
 * first 64 KiB of every file through node:fs descriptors, as the search does, on this thread and
 * one Worker fenced to read the tree (the pool thread's fence), split by top-level directory;
 * no matching, no output. Run it with `--allow-read=<tree>,<this file>` (every open is checked
 * against the grant, as in zeph's fenced threads) or with `-A` and a last argument `unchecked`
 * (the Worker inherits: no check): the difference is what Deno's per-path check costs.
 * Prints the number of files read.
 */
/// <reference lib="deno.worker" />
import { closeSync, openSync, readSync } from "node:fs";

function walkRead(dirs: string[]): number {
  const buffer = new Uint8Array(65536);
  let files = 0;
  const stack = [...dirs];
  while (stack.length) {
    const dir = stack.pop()!;
    for (const entry of Deno.readDirSync(dir)) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory) stack.push(file);
      else if (entry.isFile) {
        const fd = openSync(file, "r");
        readSync(fd, buffer, 0, buffer.length, 0);
        closeSync(fd);
        files++;
      }
    }
  }
  return files;
}

if ("WorkerGlobalScope" in globalThis) {
  self.onmessage = (event: MessageEvent<string[]>) => {
    self.postMessage(walkRead(event.data));
    self.close();
  };
} else {
  const root = Deno.realPathSync(Deno.args[0]);
  const fence = Deno.args[1] === "unchecked" ? "inherit" : {
    read: [root],
    write: false,
    net: false,
    run: false,
    env: false,
    ffi: false,
    sys: false,
    import: false,
  };
  const tops = [...Deno.readDirSync(root)].filter((e) => e.isDirectory).map((e) =>
    `${root}/${e.name}`
  ).sort();
  const worker = new Worker(import.meta.url, {
    type: "module",
    deno: { permissions: fence },
  } as WorkerOptions);
  const theirs = new Promise<number>((resolve) => worker.onmessage = (e) => resolve(e.data));
  worker.postMessage(tops.filter((_, i) => i % 2 === 1));
  const mine = walkRead(tops.filter((_, i) => i % 2 === 0));
  console.log(mine + await theirs);
}
