// The sandbox's own POSIX path functions (os_path.ts) against node:path, on generated paths.
import { expect } from "expect";
import * as node from "node:path";
import * as own from "../../src/sandbox/os_path.ts";

/** Every path of up to `depth` pieces from a small alphabet (empty, dots, names, slashes). */
function paths(depth: number): string[] {
  const pieces = ["", "/", "//", ".", "..", "a", "b.txt", "./", "../", "a/"];
  let level = [""];
  const all = new Set(level);
  for (let d = 0; d < depth; d++) {
    level = level.flatMap((p) => pieces.map((piece) => p + piece));
    for (const p of level) all.add(p);
  }
  return [...all];
}

const SAMPLE = paths(4);

Deno.test("os_path: one-argument functions agree with node:path", () => {
  expect(SAMPLE.length).toBeGreaterThan(1000);
  for (const p of SAMPLE) {
    expect([p, own.normalize(p)]).toEqual([p, node.posix.normalize(p)]);
    expect([p, own.dirname(p)]).toEqual([p, node.posix.dirname(p)]);
    expect([p, own.basename(p)]).toEqual([p, node.posix.basename(p)]);
    expect([p, own.isAbsolute(p)]).toEqual([p, node.posix.isAbsolute(p)]);
    expect([p, own.resolve(p)]).toEqual([p, node.posix.resolve(p)]);
  }
});

Deno.test("os_path: join, resolve and relative agree with node:path", () => {
  const short = paths(2).concat(["/ws/a/b", "/ws/c", "/", "/ws", "x/../../y"]);
  for (const a of short) {
    for (const b of short) {
      expect([a, b, own.join(a, b)]).toEqual([a, b, node.posix.join(a, b)]);
      expect([a, b, own.resolve(a, b)]).toEqual([a, b, node.posix.resolve(a, b)]);
      expect([a, b, own.relative(a, b)]).toEqual([a, b, node.posix.relative(a, b)]);
    }
  }
  expect(own.join()).toBe(node.posix.join());
  expect(own.join("/ws", "a", "", "../b", "c/")).toBe(
    node.posix.join("/ws", "a", "", "../b", "c/"),
  );
  expect(own.resolve("/ws", "a", "/abs", "b")).toBe("/abs/b");
  expect(own.sep).toBe(node.posix.sep);
});
