import { expect } from "expect";
import { join } from "node:path";
import { defaultProcessRunner } from "../../src/exec/mod.ts";
import { defaultToolDeps, diskFiles } from "../../src/tools/deps.ts";
import { textFileBackendSuite } from "../_support/text_files.ts";

textFileBackendSuite("disk", () => diskFiles);

Deno.test("disk text files: a directory and a FIFO open with their kind, not as files", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_disk_files_" }));
  try {
    await new Deno.Command("mkfifo", { args: [join(dir, "pipe")] }).output();
    const kinds = [
      (await diskFiles.open(dir)).kind,
      (await diskFiles.open(join(dir, "pipe"))).kind,
    ];
    expect(kinds).toEqual(["directory", "other"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("disk text files: a large file comes in chunks of at most 1 MiB", async () => {
  const dir = await Deno.makeTempDir({ prefix: "zeph_disk_files_" });
  try {
    const file = join(dir, "big.txt");
    await Deno.writeTextFile(file, "x".repeat(2.5 * 1024 * 1024));
    const sizes: number[] = [];
    for await (const chunk of (await diskFiles.open(file)).chunks()) sizes.push(chunk.length);
    expect(sizes).toEqual([1024 * 1024, 1024 * 1024, 512 * 1024]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("default tool deps: the disk, the shared runner, one web client, no overflow store", async () => {
  const a = defaultToolDeps();
  const b = defaultToolDeps();
  expect([a.files, a.runner, a.web, a.overflow]).toEqual([
    diskFiles,
    defaultProcessRunner(),
    b.web,
    null,
  ]);
  expect(a.web).toBe(b.web);
  // The real bash parser, loaded on first use.
  const analysis = await a.analyzeShell("ls -la src && cat x > out.txt");
  expect(analysis.commands.map((c) => [c.program, c.args, c.redirects])).toEqual([
    ["ls", ["-la", "src"], []],
    ["cat", ["x"], [{ op: ">", target: "out.txt" }]],
  ]);
});

Deno.test("disk text files: a file this user may not write stays refused (the rename does not bypass it)", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_disk_files_" }));
  try {
    const file = join(dir, "ro.txt");
    await Deno.writeTextFile(file, "old\n");
    await Deno.chmod(file, 0o444);
    let outcome: string;
    if (Deno.uid() !== 0) {
      outcome = await diskFiles.write(file, "new\n", new AbortController().signal)
        .then(() => "written", (e) => `refused ${e.name}`);
    } else {
      // Root may write anything: the check runs as "nobody", owning the file, in a writable
      // directory, so only the file's own mode bits stand in the way.
      await Deno.chmod(dir, 0o777);
      await Deno.chown(file, 65534, null);
      const deps = new URL("../../src/tools/deps.ts", import.meta.url).href;
      const script = `import { diskFiles } from ${JSON.stringify(deps)};
        await diskFiles.write(Deno.args[0], "new\\n", new AbortController().signal)
          .then(() => console.log("written"), (e) => console.log("refused " + e.name));`;
      const out = await new Deno.Command("setpriv", {
        args: [
          "--reuid=65534",
          "--regid=65534",
          "--clear-groups",
          Deno.execPath(),
          "eval",
          script,
          file,
        ],
        env: { DENO_DIR: join(dir, "deno_dir"), HOME: dir },
        stdout: "piped",
        stderr: "piped",
      }).output();
      outcome = new TextDecoder().decode(out.stdout).trim() ||
        new TextDecoder().decode(out.stderr);
    }
    expect([outcome, await Deno.readTextFile(file)]).toEqual(["refused PermissionDenied", "old\n"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("disk text files: a replaced file keeps its owner and group where the process may set them", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_disk_files_" }));
  try {
    const file = join(dir, "owned.txt");
    await Deno.writeTextFile(file, "old\n");
    // Only root can give a file away; another user checks that its own ownership stays.
    const [uid, gid] = Deno.uid() === 0 ? [65534, 65534] : [Deno.uid()!, Deno.gid()!];
    await Deno.chown(file, uid, gid);
    await Deno.chmod(file, 0o2755);
    await diskFiles.write(file, "new\n", new AbortController().signal);
    const info = await Deno.lstat(file);
    expect([info.uid, info.gid, info.mode! & 0o7777, await Deno.readTextFile(file)]).toEqual([
      uid,
      gid,
      0o2755,
      "new\n",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
