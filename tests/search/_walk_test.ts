import { expect } from "expect";
import * as path from "node:path";
import { walk } from "../../src/search/_walk.ts";

async function tree(files: Record<string, string>): Promise<string> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "zeph_walk_" }));
  for (const [rel, content] of Object.entries(files)) {
    await Deno.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await Deno.writeTextFile(path.join(root, rel), content);
  }
  return root;
}

function walked(root: string): string[] {
  return [...walk(root, { gitignore: true, top: root })].map((e) => e.path.slice(root.length + 1));
}

Deno.test("walk: name-only .gitignore verdicts are per name, per kind and per .gitignore", async () => {
  // Every rule here looks at names only, so verdicts are kept per name: the same name as a file
  // and as a directory, at several depths, and re-included by a nested .gitignore, must still
  // get each its own answer.
  const root = await tree({
    ".gitignore": "*.log\n!keep.log\nbuild/\ntmp\n",
    "a.log": "",
    "keep.log": "",
    "x.txt": "",
    "build/x": "",
    "other/build": "", // a file: "build/" ignores directories only
    "other/tmp": "",
    "sub/a.log": "",
    "sub/keep.log": "",
    "sub/build/x": "",
    "sub/tmp/y": "",
    "sub/x.txt": "",
    "sub2/.gitignore": "!a.log\n",
    "sub2/a.log": "",
    "sub2/deep/a.log": "",
    "sub3/a.log": "",
  });
  try {
    // Twice: the second walk answers from the kept verdicts.
    for (let i = 0; i < 2; i++) {
      expect(walked(root)).toEqual([
        ".gitignore",
        "keep.log",
        "other/build",
        "sub/keep.log",
        "sub/x.txt",
        "sub2/.gitignore",
        "sub2/a.log",
        "sub2/deep/a.log",
        "x.txt",
      ]);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walk: .gitignore rules with a path are matched on the path, not the name", async () => {
  const root = await tree({
    ".gitignore": "docs/*.md\n**/gen/*.ts\n",
    "docs/a.md": "",
    "docs/b.txt": "",
    "sub/docs/a.md": "",
    "gen/x.ts": "",
    "sub/gen/x.ts": "",
    "sub/x.ts": "",
  });
  try {
    for (let i = 0; i < 2; i++) {
      expect(walked(root)).toEqual([".gitignore", "docs/b.txt", "sub/docs/a.md", "sub/x.ts"]);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("walk: a .gitignore line with a space before '#' is a path rule, not a comment", async () => {
  // git strips no leading whitespace: " #a/b" is the pattern " #a/b" (a path: only that "b"),
  // so its verdict must not be kept for every file named "b".
  const root = await tree({
    ".gitignore": " #a/b\n",
    " #a/b": "",
    " #a/c": "",
    "d/b": "",
    "b": "",
  });
  try {
    expect(walked(root)).toEqual([" #a/c", ".gitignore", "b", "d/b"]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
