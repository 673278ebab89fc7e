import * as path from "node:path";
import { expect } from "expect";
import { canonicalize, expandHome, isInside, Sandbox } from "../../src/sandbox/path.ts";
import { SandboxViolation } from "../../src/errors/mod.ts";

async function tree() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_path_" }));
  const ws = path.join(base, "ws");
  await Deno.mkdir(path.join(ws, "sub"), { recursive: true });
  await Deno.mkdir(path.join(base, "outside"));
  await Deno.writeTextFile(path.join(ws, "f.txt"), "x");
  await Deno.symlink(path.join(base, "outside"), path.join(ws, "out"));
  await Deno.symlink(path.join(ws, "f.txt"), path.join(ws, "in_link"));
  return { base, ws, cleanup: () => Deno.remove(base, { recursive: true }) };
}

async function violation(p: Promise<unknown>): Promise<string> {
  const e = await p.then(() => null, (e) => e);
  expect(e).toBeInstanceOf(SandboxViolation);
  return (e as Error).message;
}

Deno.test("isInside is component-wise", () => {
  expect([
    isInside("/ws", "/ws"),
    isInside("/ws/a", "/ws"),
    isInside("/ws_evil", "/ws"),
    isInside("/ws_evil/a", "/ws"),
    isInside("/", "/ws"),
    isInside("/ws", "/"),
  ]).toEqual([true, true, false, false, false, true]);
});

Deno.test("canonicalize walks up to the deepest existing ancestor", async () => {
  const t = await tree();
  try {
    expect(await canonicalize(path.join(t.ws, "sub/new/deeper.txt"))).toBe(
      path.join(t.ws, "sub/new/deeper.txt"),
    );
    expect(await canonicalize(path.join(t.ws, "out/new.txt"))).toBe(
      path.join(t.base, "outside/new.txt"),
    );
    expect(await canonicalize(path.join(t.ws, "in_link"))).toBe(path.join(t.ws, "f.txt"));
  } finally {
    await t.cleanup();
  }
});

Deno.test("resolve follows symlinks; resolveEntry keeps the last component", async () => {
  const t = await tree();
  try {
    const sb = await Sandbox.create(t.ws);
    expect(await sb.resolve("in_link")).toBe(path.join(t.ws, "f.txt"));
    expect(await sb.resolveEntry("in_link")).toBe(path.join(t.ws, "in_link"));
    // The link itself is inside even though it points out; its target is not.
    expect(await sb.resolveEntry("out")).toBe(path.join(t.ws, "out"));
    expect(await violation(sb.resolve("out"))).toBe(
      'Cannot access "out": is outside the allowed paths',
    );
    // A new file whose parent is a symlink pointing out.
    expect(await violation(sb.resolveEntry("out/new.txt"))).toBe(
      'Cannot access "out/new.txt": is outside the allowed paths',
    );
    expect(await violation(sb.resolve("out/a/b/new.txt"))).toBe(
      'Cannot access "out/a/b/new.txt": is outside the allowed paths',
    );
    expect(await violation(sb.resolveEntry("/"))).toBe(
      'Cannot access "/": is outside the allowed paths',
    );
    expect(sb.isRootOrAbove(await sb.resolveEntry("sub/.."))).toBe(true);
  } finally {
    await t.cleanup();
  }
});

Deno.test("canonicalize follows dangling symlinks to where a write would land", async () => {
  const t = await tree();
  try {
    await Deno.symlink(path.join(t.base, "outside/new.txt"), path.join(t.ws, "dangle_out"));
    await Deno.symlink(path.join(t.ws, "sub/later.txt"), path.join(t.ws, "dangle_in"));
    await Deno.symlink("missing_dir", path.join(t.ws, "dangle_rel"));
    await Deno.symlink("loop_b", path.join(t.ws, "loop_a"));
    await Deno.symlink("loop_a", path.join(t.ws, "loop_b"));
    expect([
      await canonicalize(path.join(t.ws, "dangle_out")),
      await canonicalize(path.join(t.ws, "dangle_in")),
      await canonicalize(path.join(t.ws, "dangle_rel/a/b.txt")),
    ]).toEqual([
      path.join(t.base, "outside/new.txt"),
      path.join(t.ws, "sub/later.txt"),
      path.join(t.ws, "missing_dir/a/b.txt"),
    ]);
    const loop = await canonicalize(path.join(t.ws, "loop_a")).catch((e) => e);
    expect(loop).toBeInstanceOf(Deno.errors.FilesystemLoop);
    const sb = await Sandbox.create(t.ws);
    expect(await violation(sb.resolve("dangle_out"))).toBe(
      'Cannot access "dangle_out": is outside the allowed paths',
    );
    expect(await sb.resolve("dangle_in")).toBe(path.join(t.ws, "sub/later.txt"));
    // The entry itself (delete_path removes the link, not its target) stays resolvable.
    expect(await sb.resolveEntry("dangle_out")).toBe(path.join(t.ws, "dangle_out"));
  } finally {
    await t.cleanup();
  }
});

Deno.test("resolve refuses NUL, overlong, empty and look-alike paths", async () => {
  const t = await tree();
  try {
    const sb = await Sandbox.create(t.ws);
    expect(await violation(sb.resolve("a\0b"))).toBe(
      'Cannot access "a\\u0000b": contains a NUL byte',
    );
    expect(await violation(sb.resolve("x".repeat(5000)))).toBe(
      `Cannot access "${"x".repeat(80)}…": is longer than 4096 characters`,
    );
    expect(await violation(sb.resolve("  "))).toBe('Cannot access "  ": is empty');
    for (const p of ["\u2025/x", "a\uFF0Fb", "a\u2215b", "\uFF0E\uFF0E", "a\u2044b", "a\uFF3Cb"]) {
      expect(await violation(sb.resolve(p))).toBe(
        `Cannot access ${
          JSON.stringify(p)
        }: contains a character that looks like a path separator or dot but is not one`,
      );
    }
    // Ordinary non-ASCII names are fine.
    expect(await sb.resolve("café/日本.txt")).toBe(path.join(t.ws, "café/日本.txt"));
  } finally {
    await t.cleanup();
  }
});

Deno.test("relative deny_read/allow_read globs are anchored at the workspace", async () => {
  const t = await tree();
  try {
    const sb = await Sandbox.create(t.ws, {
      denyRead: [".env", "secrets/*", "**/*.pem"],
      allowRead: ["secrets/ok.txt"],
    });
    const copy = Sandbox.restore(structuredClone(sb.snapshot()));
    const paths = [".env", "secrets/a.txt", "secrets/ok.txt", "sub/.env", "sub/k.pem", "f.txt"];
    const expected = [false, false, true, true, false, true];
    expect(paths.map((p) => sb.canRead(path.join(t.ws, p)))).toEqual(expected);
    expect(paths.map((p) => copy.canRead(path.join(t.ws, p)))).toEqual(expected);
  } finally {
    await t.cleanup();
  }
});

Deno.test("snapshot/restore round-trips, including home and read globs", async () => {
  const t = await tree();
  try {
    const sb = await Sandbox.create(t.ws, { denyRead: ["**/*.env"], allowRead: ["**/ok.env"] });
    const copy = Sandbox.restore(structuredClone(sb.snapshot()));
    expect(copy.snapshot()).toEqual(sb.snapshot());
    expect([copy.canRead("/a/x.env"), copy.canRead("/a/ok.env"), copy.canRead("/a/x.txt")]).toEqual(
      [false, true, true],
    );
    const home = Sandbox.restore({ ...sb.snapshot(), home: t.ws });
    expect(await home.resolve("~/sub")).toBe(path.join(t.ws, "sub"));
    expect(expandHome("~/a", "/h")).toBe("/h/a");
    expect(expandHome("~user/a", "/h")).toBe("~user/a");
  } finally {
    await t.cleanup();
  }
});

Deno.test("allowed_paths replace the workspace as roots", async () => {
  const t = await tree();
  try {
    const sb = await Sandbox.create(t.ws, { allowedPaths: ["sub", path.join(t.base, "outside")] });
    expect(sb.roots).toEqual([path.join(t.ws, "sub"), path.join(t.base, "outside")]);
    expect(await sb.resolve("out/x")).toBe(path.join(t.base, "outside/x"));
    expect(await violation(sb.resolve("f.txt"))).toBe(
      'Cannot access "f.txt": is outside the allowed paths',
    );
    expect(sb.display(path.join(t.ws, "sub/a"))).toBe("sub/a");
    expect(sb.display(path.join(t.base, "outside/x"))).toBe(path.join(t.base, "outside/x"));
  } finally {
    await t.cleanup();
  }
});

Deno.test("a restored sandbox matches read globs as picomatch does, without picomatch", async () => {
  const { default: picomatch } = await import("picomatch");
  const t = await tree();
  try {
    const globs = ["**/*.{pem,key}", "**/.env*", "/etc/**", "**/secret[0-9]", "**/a?c/**"];
    const sb = await Sandbox.create(t.ws, { denyRead: globs });
    const copy = Sandbox.restore(structuredClone(sb.snapshot()));
    const reference = picomatch(globs, { dot: true });
    const paths = [
      "/w/k.pem",
      "/w/x/k.key",
      "/w/k.pem.txt",
      "/w/.env",
      "/w/.env.local",
      "/etc/passwd",
      "/etcetera",
      "/w/secret1",
      "/w/secret12",
      "/w/abc/d",
      "/w/abbc/d",
      "/w/.hidden/k.pem",
      "",
    ];
    for (const p of paths) expect([p, copy.canRead(p)]).toEqual([p, !reference(p)]);
    expect(paths.filter((p) => !copy.canRead(p)).length).toBe(8);
  } finally {
    await t.cleanup();
  }
});
