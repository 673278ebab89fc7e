import { expect } from "expect";
import { fileTest, okText } from "../_support/file_tools.ts";

const TREE = {
  "src/a.ts": "",
  "src/b.js": "",
  "src/lib/c.ts": "",
  "src/lib/deep/d.ts": "",
  ".github/ci.ts": "",
  "top.ts": "",
  "node_modules/pkg/index.ts": "",
  "build/out.ts": "",
  ".gitignore": "node_modules/\nbuild\n",
};

fileTest("find_path: ** matches across levels, sorted, relative to the workspace", async (h) => {
  await h.put(TREE);
  expect(okText(await h.dispatch("find_path", { pattern: "**/*.ts" }))).toBe(
    [".github/ci.ts", "src/a.ts", "src/lib/c.ts", "src/lib/deep/d.ts", "top.ts"].join("\n"),
  );
});

fileTest("find_path: a static head narrows the walk; directories end with /", async (h) => {
  await h.put(TREE);
  expect(okText(await h.dispatch("find_path", { pattern: "src/lib/*" }))).toBe(
    "src/lib/c.ts\nsrc/lib/deep/",
  );
  expect(okText(await h.dispatch("find_path", { pattern: "*.ts", path: "src/lib" }))).toBe(
    "src/lib/c.ts",
  );
});

fileTest("find_path: include_ignored searches .gitignored paths (never .git)", async (h) => {
  await h.put({ ...TREE, ".git/HEAD.ts": "" });
  expect(
    okText(await h.dispatch("find_path", { pattern: "{node_modules,build,.git}/**/*.ts" })),
  ).toBe('No files matching "{node_modules,build,.git}/**/*.ts" in ".".');
  expect(
    okText(
      await h.dispatch("find_path", {
        pattern: "{node_modules,build,.git}/**/*.ts",
        include_ignored: true,
      }),
    ),
  ).toBe("build/out.ts\nnode_modules/pkg/index.ts");
});

fileTest("find_path: cap with a note", async (h) => {
  await h.put(TREE);
  const r = await h.dispatch("find_path", { pattern: "**/*.ts", max_results: 2 });
  expect(okText(r)).toBe(
    ".github/ci.ts\nsrc/a.ts\n\n[Showing the first 2 of 5 matches. Narrow the pattern or raise max_results.]",
  );
  expect(r.output?.truncated).toBe(true);
});

fileTest("find_path: default cap comes from [tools.file] find_max_results", async (h) => {
  await h.put(TREE);
  const r = okText(await h.dispatch("find_path", { pattern: "**/*.ts" }));
  expect(r).toBe(
    ".github/ci.ts\n\n[Showing the first 1 of 5 matches. Narrow the pattern or raise max_results.]",
  );
}, { file: { find_max_results: 1 } });

fileTest("find_path: no match explains top-level patterns", async (h) => {
  await h.put(TREE);
  expect(okText(await h.dispatch("find_path", { pattern: "*.rs" }))).toBe(
    'No files matching "*.rs" in ".". Patterns without "/" only match at the top level; ' +
      'use "**/*.rs" to search subdirectories.',
  );
});

fileTest("find_path: a literal path reports itself; absolute patterns inside work", async (h) => {
  await h.put(TREE);
  expect(okText(await h.dispatch("find_path", { pattern: "src/a.ts" }))).toBe("src/a.ts");
  expect(okText(await h.dispatch("find_path", { pattern: `${h.ws}/src/*.js` }))).toBe("src/b.js");
});

fileTest("find_path: symlinks are kept only when their target is inside", async (h) => {
  await h.put({ "in.ts": "" });
  await Deno.writeTextFile(`${h.outside}/secret.ts`, "");
  await Deno.symlink(`${h.ws}/in.ts`, `${h.ws}/good.ts`);
  await Deno.symlink(`${h.outside}/secret.ts`, `${h.ws}/bad.ts`);
  await Deno.symlink(h.outside, `${h.ws}/outdir`);
  expect(okText(await h.dispatch("find_path", { pattern: "**/*.ts" }))).toBe("good.ts\nin.ts");
});

fileTest("find_path: missing directory", async (h) => {
  const r = await h.dispatch("find_path", { pattern: "*.ts", path: "nope" });
  expect([r.category, r.error]).toEqual([
    "permanent_failure",
    'Cannot search "nope": no such file or directory',
  ]);
});
