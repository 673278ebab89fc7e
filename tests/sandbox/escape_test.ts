// Table-driven escape attempts against the ten file tools, on both executors. Every attempt must
// come back as policy_blocked and leave the whole temp tree (workspace, outside dir, the prefix
// sibling `ws_evil`) exactly as it was.
import * as path from "node:path";
import { expect } from "expect";
import { fileTest, type Harness, snapshotTree } from "../_support/file_tools.ts";

async function setUp(h: Harness): Promise<void> {
  const o = h.outside;
  await Deno.writeTextFile(`${o}/secret.txt`, "TOP SECRET");
  await Deno.mkdir(`${o}/dir`);
  await Deno.writeTextFile(`${o}/dir/inner.txt`, "inner");
  await Deno.mkdir(`${h.base}/ws_evil`);
  await Deno.writeTextFile(`${h.base}/ws_evil/evil.txt`, "evil");
  await h.put({ "file.txt": "inside", "tree/ok.txt": "ok", ".env": "KEY=1" });
  await Deno.symlink(`${o}/secret.txt`, `${h.ws}/link_out`);
  await Deno.symlink(o, `${h.ws}/dir_out`);
  await Deno.symlink(`${o}/dir`, `${h.ws}/tree/escape`);
  await Deno.symlink(`${h.ws}/.env`, `${h.ws}/env_link`);
  // Dangling links: their targets outside do not exist (yet).
  await Deno.symlink(`${o}/created.txt`, `${h.ws}/dangling_out`);
  await Deno.symlink(`${o}/newdir`, `${h.ws}/dangling_dir`);
}

type Input = (h: Harness) => Record<string, unknown>;

const OUT = (h: Harness, rel = "") => path.join(h.outside, rel);

const CASES: [string, string, Input][] = [
  // `..` and absolute paths
  ["read ../outside", "read", () => ({ path: "../outside/secret.txt" })],
  ["read ./././../outside", "read", () => ({ path: "./././../outside/secret.txt" })],
  ["read absolute outside", "read", (h) => ({ path: OUT(h, "secret.txt") })],
  ["read absolute ws/../outside", "read", (h) => ({ path: `${h.ws}/../outside/secret.txt` })],
  ["read /etc/passwd", "read", () => ({ path: "/etc/passwd" })],
  ["write ../outside", "write", () => ({ path: "../outside/new.txt", content: "x" })],
  ["write absolute outside", "write", (h) => ({ path: OUT(h, "new.txt"), content: "x" })],
  ["edit ../outside", "edit", () => ({
    path: "../outside/secret.txt",
    old_string: "TOP",
    new_string: "NO",
  })],
  ["create_directory ../outside/new", "create_directory", () => ({ path: "../outside/new" })],
  ["list_directory ..", "list_directory", () => ({ path: ".." })],
  ["list_directory /", "list_directory", () => ({ path: "/" })],
  // symlinks inside pointing out
  ["read symlink to outside file", "read", () => ({ path: "link_out" })],
  ["write through symlink to outside file", "write", () => ({ path: "link_out", content: "x" })],
  ["edit through symlink to outside file", "edit", () => ({
    path: "link_out",
    old_string: "TOP",
    new_string: "NO",
  })],
  ["read under symlinked dir", "read", () => ({ path: "dir_out/secret.txt" })],
  ["edit under symlinked dir", "edit", () => ({
    path: "dir_out/secret.txt",
    old_string: "TOP",
    new_string: "NO",
  })],
  ["list symlinked dir", "list_directory", () => ({ path: "dir_out" })],
  // symlinked parent of a new file
  ["write new file under symlinked dir", "write", () => ({
    path: "dir_out/new.txt",
    content: "x",
  })],
  ["write new nested file under symlinked dir", "write", () => ({
    path: "dir_out/a/b/new.txt",
    content: "x",
  })],
  ["create_directory under symlinked dir", "create_directory", () => ({ path: "dir_out/newdir" })],
  ["write via symlink then ..", "write", () => ({ path: "dir_out/../../x.txt", content: "x" })],
  // dangling symlinks whose targets lie outside
  ["write through a dangling symlink", "write", () => ({ path: "dangling_out", content: "x" })],
  ["write under a dangling dir symlink", "write", () => ({
    path: "dangling_dir/x.txt",
    content: "x",
  })],
  ["create_directory through a dangling symlink", "create_directory", () => ({
    path: "dangling_dir",
  })],
  ["create_directory under a dangling symlink", "create_directory", () => ({
    path: "dangling_dir/a/b",
  })],
  ["copy file onto a dangling symlink", "copy_path", () => ({
    source: "file.txt",
    destination: "dangling_out",
  })],
  ["copy file under a dangling dir symlink", "copy_path", () => ({
    source: "file.txt",
    destination: "dangling_dir/x.txt",
  })],
  ["move file under a dangling dir symlink", "move_path", () => ({
    source: "file.txt",
    destination: "dangling_dir/x.txt",
  })],
  // prefix sibling
  ["read prefix sibling ws_evil", "read", () => ({ path: "../ws_evil/evil.txt" })],
  ["write absolute prefix sibling", "write", (h) => ({
    path: `${h.ws}_evil/x.txt`,
    content: "x",
  })],
  ["list prefix sibling", "list_directory", (h) => ({ path: `${h.ws}_evil` })],
  // delete of root / parent
  ["delete the root .", "delete_path", () => ({ path: ".", recursive: true })],
  ["delete the root absolute", "delete_path", (h) => ({ path: h.ws, recursive: true })],
  ["delete the root via tree/..", "delete_path", () => ({ path: "tree/..", recursive: true })],
  ["delete the root with a trailing slash", "delete_path", (h) => ({
    path: `${h.ws}/`,
    recursive: true,
  })],
  ["delete the parent ..", "delete_path", () => ({ path: "..", recursive: true })],
  ["delete /", "delete_path", () => ({ path: "/", recursive: true })],
  ["delete outside file", "delete_path", () => ({ path: "../outside/secret.txt" })],
  ["delete under symlinked dir", "delete_path", () => ({ path: "dir_out/secret.txt" })],
  // move out / in / of the root
  ["move file out", "move_path", () => ({
    source: "file.txt",
    destination: "../outside/moved.txt",
  })],
  ["move file into symlinked dir", "move_path", () => ({
    source: "file.txt",
    destination: "dir_out/moved.txt",
  })],
  ["move outside file in", "move_path", () => ({
    source: "../outside/secret.txt",
    destination: "stolen.txt",
  })],
  ["move the root", "move_path", () => ({ source: ".", destination: "tree/root" })],
  ["move under symlinked dir in", "move_path", () => ({
    source: "dir_out/secret.txt",
    destination: "stolen.txt",
  })],
  // copy in / out
  ["copy outside file in", "copy_path", () => ({
    source: "../outside/secret.txt",
    destination: "copy.txt",
  })],
  ["copy symlink source resolving outside", "copy_path", () => ({
    source: "link_out",
    destination: "copy.txt",
  })],
  ["copy symlinked dir source", "copy_path", () => ({ source: "dir_out", destination: "stolen" })],
  ["copy file out", "copy_path", () => ({
    source: "file.txt",
    destination: "../outside/copy.txt",
  })],
  ["copy file into symlinked dir", "copy_path", () => ({
    source: "file.txt",
    destination: "dir_out/copy.txt",
  })],
  // find_path patterns reaching out
  ["find_path ../ pattern", "find_path", () => ({ pattern: "../outside/*" })],
  ["find_path **/.. pattern", "find_path", () => ({ pattern: "**/../../outside/**" })],
  ["find_path absolute outside pattern", "find_path", (h) => ({ pattern: `${h.outside}/**` })],
  ["find_path path ..", "find_path", () => ({ pattern: "**/*", path: ".." })],
  ["find_path through symlinked dir", "find_path", () => ({ pattern: "dir_out/**" })],
  ["find_path NUL pattern", "find_path", () => ({ pattern: "*\0/../../etc" })],
  // grep outside
  ["grep path ..", "grep", () => ({ pattern: "SECRET", path: ".." })],
  ["grep absolute outside", "grep", (h) => ({ pattern: "SECRET", path: h.outside })],
  ["grep symlinked dir", "grep", () => ({ pattern: "SECRET", path: "dir_out" })],
  ["grep symlinked file", "grep", () => ({ pattern: "SECRET", path: "link_out" })],
  // deny_read, directly and through a symlink
  ["read denied .env", "read", () => ({ path: ".env" })],
  ["read denied .env through a symlink", "read", () => ({ path: "env_link" })],
  ["grep denied .env through a symlink", "grep", () => ({ pattern: "KEY", path: "env_link" })],
  ["edit denied .env (its diff and matches would show the content)", "edit", () => ({
    path: ".env",
    old_string: "KEY",
    new_string: "K",
  })],
  ["move denied .env to a readable name", "move_path", () => ({
    source: ".env",
    destination: "env.txt",
  })],
  ["copy denied .env through a symlink", "copy_path", () => ({
    source: "env_link",
    destination: "leak.txt",
  })],
  // NUL bytes, very long paths
  ["read NUL byte", "read", () => ({ path: "file.txt\0../../outside/secret.txt" })],
  ["write NUL byte", "write", () => ({ path: "x\0y", content: "x" })],
  ["write very long path", "write", () => ({ path: "a/".repeat(2100) + "x", content: "x" })],
  ["read very long .. path", "read", () => ({
    path: "../".repeat(1400) + "etc/passwd",
  })],
  // unicode look-alikes of `.` and `/`
  ["read two-dot leader", "read", () => ({ path: "\u2025/outside/secret.txt" })],
  ["read fullwidth dots", "read", () => ({ path: "\uFF0E\uFF0E/outside/secret.txt" })],
  ["read division slash", "read", () => ({ path: "..\u2215outside\u2215secret.txt" })],
  ["write fullwidth solidus", "write", () => ({ path: "..\uFF0Foutside\uFF0Fx", content: "x" })],
  // home directory
  ["read ~", "list_directory", () => ({ path: "~" })],
  ["write ~/file", "write", () => ({ path: "~/zeph_escape_test.txt", content: "x" })],
];

for (const [name, tool, input] of CASES) {
  fileTest(`escape: ${name}`, async (h) => {
    await setUp(h);
    const before = await snapshotTree(h.base);
    const r = await h.dispatch(tool, input(h));
    if (Deno.env.get("ZEPH_SHOW_ESCAPES")) console.log(`${h.executorName} ${name}: ${r.error}`);
    expect({ ok: r.ok, category: r.category, outcome: r.outcome }).toEqual({
      ok: false,
      category: "policy_blocked",
      outcome: "blocked",
    });
    expect(await snapshotTree(h.base)).toEqual(before);
  }, { denyRead: ["**/.env"] });
}

Deno.test("escape: the table has at least 40 attempts", () => {
  expect(CASES.length).toBeGreaterThanOrEqual(40);
});

fileTest("escape: copying a tree that holds an outward symlink copies no link", async (h) => {
  await setUp(h);
  const outsideBefore = await snapshotTree(h.outside);
  const r = await h.dispatch("copy_path", { source: "tree", destination: "copied" });
  expect(r.text).toBe(
    'Copied directory: "tree" -> "copied" (1 files, 1 directories)\n' +
      "Skipped 1 symlink(s): tree/escape",
  );
  expect(await snapshotTree(`${h.ws}/copied`)).toEqual({ "ok.txt": "file:ok" });
  expect(await snapshotTree(h.outside)).toEqual(outsideBefore);
});

fileTest("escape: grep of the workspace does not follow links out", async (h) => {
  await setUp(h);
  const r = await h.dispatch("grep", { pattern: "SECRET|inner|KEY" });
  expect(r.text).toBe('No matches for "SECRET|inner|KEY" in ".".');
}, { denyRead: ["**/.env"] });

fileTest("escape: find_path of the workspace leaves out links pointing out", async (h) => {
  await setUp(h);
  const r = await h.dispatch("find_path", { pattern: "**/*" });
  expect(r.text).toBe(
    [".env", "env_link", "file.txt", "tree/", "tree/ok.txt"].join("\n"),
  );
});

fileTest("escape: replacing a deny_read file does not show its old content", async (h) => {
  await setUp(h);
  const replaced = await h.dispatch("write", { path: ".env", content: "KEY=2\n" });
  const same = await h.dispatch("write", { path: ".env", content: "KEY=2\n" });
  expect([replaced.text, same.text]).toEqual([
    'Replaced ".env" (6 bytes, was 5 bytes).',
    'Replaced ".env" (6 bytes, was 6 bytes).',
  ]);
  expect([replaced.output?.diff?.oldText, same.output?.diff?.oldText]).toEqual([null, null]);
  expect(await h.readWs(".env")).toBe("KEY=2\n");
}, { denyRead: ["**/.env"] });

fileTest("escape: moving a directory that holds deny_read files is refused", async (h) => {
  await h.put({ "private/keys/key.pem": "PRIVATE", "public/ok.txt": "ok" });
  const before = await snapshotTree(h.ws);
  const r = await h.dispatch("move_path", { source: "private", destination: "public/p" });
  expect({ ok: r.ok, category: r.category, error: r.error }).toEqual({
    ok: false,
    category: "policy_blocked",
    error: 'Cannot access "private": holds files denied by [tools.file] deny_read ' +
      "(private/keys/key.pem); moving them would make them readable",
  });
  expect(await snapshotTree(h.ws)).toEqual(before);
  const ok = await h.dispatch("move_path", { source: "public", destination: "pub" });
  expect(ok.ok).toBe(true);
}, { denyRead: ["**/*.pem"] });
