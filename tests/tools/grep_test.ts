import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { setSearchThreads } from "../../src/search/mod.ts";
import { LocalExecutor } from "../../src/tools/executors/mod.ts";
import { FILE_TOOLS } from "../../src/tools/file_tools.ts";
import { ToolRegistry } from "../../src/tools/registry.ts";
import { allowAllPolicy, fileTest, type Harness, okText } from "../_support/file_tools.ts";

const TREE = {
  "src/a.ts": "const alpha = 1;\nfunction load() {}\nconst beta = 2;\n",
  "src/b.ts": "// LOAD everything\nexport {};\n",
  "src/deep/c.md": "load the docs\n",
  "ignored/x.ts": "function load() {}\n",
  "notes.log": "load log\n",
  ".gitignore": "ignored/\n*.log\n",
  ".git/config": "load git\n",
  ".hidden/h.ts": "load hidden\n",
};

fileTest("grep: path:line: text, relative paths, .gitignore and .git skipped", async (h) => {
  await h.put(TREE);
  const r = await h.dispatch("grep", { pattern: "load" });
  expect(okText(r)).toBe(
    [
      ".hidden/h.ts:1: load hidden",
      "src/a.ts:2: function load() {}",
      "src/deep/c.md:1: load the docs",
    ]
      .join("\n"),
  );
  expect(r.output?.locations).toEqual([
    { path: `${h.ws}/.hidden/h.ts`, line: 1 },
    { path: `${h.ws}/src/a.ts`, line: 2 },
    { path: `${h.ws}/src/deep/c.md`, line: 1 },
  ]);
});

fileTest("grep: case_sensitive false, regex syntax, glob filter", async (h) => {
  await h.put(TREE);
  expect(
    okText(
      await h.dispatch("grep", { pattern: "^(//\\s*)?load", case_sensitive: false, path: "src" }),
    ),
  ).toBe("src/b.ts:1: // LOAD everything\nsrc/deep/c.md:1: load the docs");
  expect(okText(await h.dispatch("grep", { pattern: "lo+ad", glob: "**/*.md" }))).toBe(
    "src/deep/c.md:1: load the docs",
  );
  // As in ripgrep: a glob without "/" matches the file name at any depth; with "/" the path.
  expect(okText(await h.dispatch("grep", { pattern: "lo+ad", glob: "*.md" }))).toBe(
    "src/deep/c.md:1: load the docs",
  );
  expect(okText(await h.dispatch("grep", { pattern: "lo+ad", glob: "deep/*.md" }))).toBe(
    `No matches for "lo+ad" in ".".`,
  );
  expect(okText(await h.dispatch("grep", { pattern: "\\b(alpha|beta)\\b" }))).toBe(
    "src/a.ts:1: const alpha = 1;\nsrc/a.ts:3: const beta = 2;",
  );
});

fileTest("grep: context lines with -, : and -- separators", async (h) => {
  const body = Array.from(
    { length: 12 },
    (_, i) => (i === 2 || i === 9 ? `hit ${i + 1}` : `l${i + 1}`),
  );
  await h.put({ "f.txt": body.join("\n") + "\n" });
  expect(okText(await h.dispatch("grep", { pattern: "hit", context: 1 }))).toBe(
    [
      "f.txt-2- l2",
      "f.txt:3: hit 3",
      "f.txt-4- l4",
      "--",
      "f.txt-9- l9",
      "f.txt:10: hit 10",
      "f.txt-11- l11",
    ].join("\n"),
  );
});

fileTest("grep: the match cap says when it cut", async (h) => {
  await h.put({ "f.txt": "m\n".repeat(5), "g.txt": "m\n" });
  const r = await h.dispatch("grep", { pattern: "m" });
  expect(okText(r)).toBe(
    "f.txt:1: m\nf.txt:2: m\nf.txt:3: m\n\n" +
      "[Stopped after 3 matching lines; there are more. Narrow the pattern, path or glob to see the rest.]",
  );
  expect(r.output?.truncated).toBe(true);
}, { file: { grep_max_matches: 3 } });

fileTest("grep: exactly the cap is not reported as cut", async (h) => {
  await h.put({ "f.txt": "m\nm\nm\n" });
  const r = await h.dispatch("grep", { pattern: "m" });
  expect(okText(r)).toBe("f.txt:1: m\nf.txt:2: m\nf.txt:3: m");
}, { file: { grep_max_matches: 3 } });

fileTest(
  "grep: binary and non-UTF-8 files are skipped; a single file can be searched",
  async (h) => {
    await h.put({
      "bin.dat": new Uint8Array([...new TextEncoder().encode("needle"), 0, 1]),
      "latin.txt": new Uint8Array([...new TextEncoder().encode("needle "), 0xe9]),
      "ok.txt": "a needle\n",
    });
    expect(okText(await h.dispatch("grep", { pattern: "needle" }))).toBe("ok.txt:1: a needle");
    expect(okText(await h.dispatch("grep", { pattern: "needle", path: "ok.txt" }))).toBe(
      "ok.txt:1: a needle",
    );
  },
);

fileTest("grep: no matches, invalid and catastrophic patterns", async (h) => {
  await h.put({ "f.txt": "a".repeat(5000) + "!\n" });
  expect(okText(await h.dispatch("grep", { pattern: "zzz" }))).toBe('No matches for "zzz" in ".".');
  const bad = await h.dispatch("grep", { pattern: "(a" });
  expect(bad.category).toBe("invalid_parameters");
  expect(bad.error).toMatch(/^Cannot search for "\(a": invalid regular expression \(/);
  const backref = await h.dispatch("grep", { pattern: "(a)\\1" });
  expect(backref.category).toBe("invalid_parameters");
  // Exponential for a backtracking engine; linear for RE2.
  expect(okText(await h.dispatch("grep", { pattern: "^(a+)+$" }))).toBe(
    'No matches for "^(a+)+$" in ".".',
  );
});

fileTest("grep: symlinked files inside are searched, pointing outside are not", async (h) => {
  await h.put({ "real.txt": "token inside\n" });
  await Deno.writeTextFile(`${h.outside}/secret.txt`, "token outside\n");
  await Deno.symlink(`${h.ws}/real.txt`, `${h.ws}/link.txt`);
  await Deno.symlink(`${h.outside}/secret.txt`, `${h.ws}/out.txt`);
  await Deno.symlink(h.outside, `${h.ws}/outdir`);
  expect(okText(await h.dispatch("grep", { pattern: "token" }))).toBe(
    "link.txt:1: token inside\nreal.txt:1: token inside",
  );
});

fileTest(
  "grep: deny_read files are skipped; a denied file named directly is refused",
  async (h) => {
    await h.put({ "a.env": "token=1\n", "b.txt": "token=2\n" });
    expect(okText(await h.dispatch("grep", { pattern: "token" }))).toBe("b.txt:1: token=2");
    const r = await h.dispatch("grep", { pattern: "token", path: "a.env" });
    expect(r.category).toBe("policy_blocked");
  },
  { denyRead: ["**/*.env"] },
);

fileTest("grep: a nested .gitignore and a negation re-include", async (h) => {
  await h.put({
    ".gitignore": "*.gen\n",
    "pkg/.gitignore": "!keep.gen\n",
    "pkg/keep.gen": "word\n",
    "pkg/drop.gen": "word\n",
    "other.gen": "word\n",
  });
  expect(okText(await h.dispatch("grep", { pattern: "word" }))).toBe("pkg/keep.gen:1: word");
});

fileTest("grep: gitignore dir-only, anchored and ** patterns", async (h) => {
  await h.put({
    ".gitignore": "out/\n/rootonly.txt\ndocs/**/*.md\n",
    "out/a.txt": "word\n",
    "src/out": "word\n", // a file named like the dir-only pattern stays
    "rootonly.txt": "word\n",
    "src/rootonly.txt": "word\n",
    "docs/x/y.md": "word\n",
    "docs/x/y.txt": "word\n",
  });
  expect(okText(await h.dispatch("grep", { pattern: "word" }))).toBe(
    "docs/x/y.txt:1: word\nsrc/out:1: word\nsrc/rootonly.txt:1: word",
  );
});

fileTest("grep: a directory named explicitly is searched even if ignored", async (h) => {
  await h.put({ ".gitignore": "vendor/\n", "vendor/lib.ts": "word\n", "a.ts": "word\n" });
  expect(okText(await h.dispatch("grep", { pattern: "word", path: "vendor" }))).toBe(
    "vendor/lib.ts:1: word",
  );
});

fileTest("grep: files larger than the read buffer are searched whole", async (h) => {
  const big = "filler line\n".repeat(20_000) + "the end marker\n"; // ~240 KB
  await h.put({ "big.txt": big, "small.txt": "end marker too\n" });
  expect(okText(await h.dispatch("grep", { pattern: "end marker" }))).toBe(
    "big.txt:20001: the end marker\nsmall.txt:1: end marker too",
  );
});

fileTest("grep: a large binary file is skipped", async (h) => {
  const bytes = new Uint8Array(300_000).fill(110); // "nnn…"
  bytes[10] = 0;
  await h.put({ "big.bin": bytes, "t.txt": "nnn\n" });
  expect(okText(await h.dispatch("grep", { pattern: "nnn" }))).toBe("t.txt:1: nnn");
});

fileTest("grep: multi-byte text, literal fast path and invalid UTF-8", async (h) => {
  await h.put({
    "jp.txt": "\u65e5\u672c\u8a9e\u306e\u884c\nplain\n\u65e5 \u672c\n",
    "emoji.txt": "x\u{1F600}y caf\u00e9\n",
    "fffd.txt": "real \uFFFD here \u65e5\u672c\n",
    "bad.txt": new Uint8Array([...new TextEncoder().encode("\u65e5\u672c "), 0xff, 0x0a]),
  });
  expect(okText(await h.dispatch("grep", { pattern: "\u65e5\u672c" }))).toBe(
    "fffd.txt:1: real \uFFFD here \u65e5\u672c\njp.txt:1: \u65e5\u672c\u8a9e\u306e\u884c",
  );
  expect(okText(await h.dispatch("grep", { pattern: "x.y caf\u00e9$" }))).toBe(
    "emoji.txt:1: x\u{1F600}y caf\u00e9",
  );
  expect(okText(await h.dispatch("grep", { pattern: "CAF\u00c9", case_sensitive: false })))
    .toBe("emoji.txt:1: x\u{1F600}y caf\u00e9");
});

fileTest("grep: case-insensitive literals match RE2's K and S folds", async (h) => {
  await h.put({
    "a.txt": "the \u212Aey\nKEY\nnothing\n",
    "b.txt": "\u017Fecret\nSECRET\n",
  });
  expect(okText(await h.dispatch("grep", { pattern: "key", case_sensitive: false }))).toBe(
    "a.txt:1: the \u212Aey\na.txt:2: KEY",
  );
  expect(okText(await h.dispatch("grep", { pattern: "secret", case_sensitive: false }))).toBe(
    "b.txt:1: \u017Fecret\nb.txt:2: SECRET",
  );
});

fileTest("grep: V8 and re2js patterns give the same lines, CRLF files included", async (h) => {
  await h.put({
    "crlf.txt": "alpha 1\r\nbeta 22\r\ngamma\r\n",
    "lf.txt": "beta 3\nTODO x\n",
  });
  // `\d{1,2}$` runs on V8, `\d+$` on re2js (unanchored unbounded repeat).
  const expected = "crlf.txt:1: alpha 1\ncrlf.txt:2: beta 22\nlf.txt:1: beta 3";
  expect(okText(await h.dispatch("grep", { pattern: "\\d{1,2}$" }))).toBe(expected);
  expect(okText(await h.dispatch("grep", { pattern: "\\d+$" }))).toBe(expected);
  expect(okText(await h.dispatch("grep", { pattern: "TODO|gamma" }))).toBe(
    "crlf.txt:3: gamma\nlf.txt:2: TODO x",
  );
});

fileTest("grep: files of exactly the read buffer size and one byte more", async (h) => {
  const line = "0123456789abcde\n"; // 16 bytes
  const exact = line.repeat(4095) + "last line here\n!"; // 65,536 bytes
  await h.put({ "exact.txt": exact, "plus.txt": exact + "tail needle\n" });
  expect(new TextEncoder().encode(exact).length).toBe(65_536);
  expect(okText(await h.dispatch("grep", { pattern: "last line|tail needle" }))).toBe(
    "exact.txt:4096: last line here\nplus.txt:4096: last line here\nplus.txt:4097: !tail needle",
  );
});

fileTest(
  "grep: a 2,400-file tree: the first 100 matches in walk order, deny_read, .gitignore",
  async (h) => {
    const files: Record<string, string> = { ".gitignore": "skip/\n" };
    for (let d = 0; d < 40; d++) {
      for (let f = 0; f < 60; f++) {
        files[`d${String(d).padStart(2, "0")}/f${String(f).padStart(2, "0")}.txt`] = f % 20 === 7
          ? `line one\nneedle ${d}-${f}\n`
          : "nothing here\n";
      }
    }
    files["d39/secret.txt"] = "needle secret\n";
    files["skip/x.txt"] = "needle ignored\n";
    await h.put(files);
    const r = await h.dispatch("grep", { pattern: "needle \\d+-\\d+" });
    const expected = [];
    for (let d = 0; d < 40; d++) {
      for (const f of ["07", "27", "47"]) {
        expected.push(`d${String(d).padStart(2, "0")}/f${f}.txt:2: needle ${d}-${Number(f)}`);
      }
    }
    // 120 matching lines, cap 100: exactly the first 100 in walk order.
    expect(okText(r)).toBe(
      expected.slice(0, 100).join("\n") + "\n\n[Stopped after 100 matching lines; there are " +
        "more. Narrow the pattern, path or glob to see the rest.]",
    );
    expect(r.output?.raw).toMatchObject({ matches: 100, truncated: true });
    // The deny_read file and the .gitignored one hold "needle" too: neither is searched.
    const late = await h.dispatch("grep", { pattern: "needle (3\\d-47|secret|ignored)" });
    expect(okText(late)).toBe(expected.filter((l) => / needle 3\d-47$/.test(l)).join("\n"));
  },
  { denyRead: ["**/secret.txt"] },
);

fileTest("grep: a pattern with no literal, V8 piece checks before re2js", async (h) => {
  await h.put({
    "a.txt": "Sentinel12 here\nSentinel1 no\nsentinel34 lower\n",
    "b.txt": "Ab12\r\nAb1\r\n",
    "c.txt": "nothing to see\n",
  });
  expect(okText(await h.dispatch("grep", { pattern: "[A-Z][a-z]+[0-9]{2}\\b" }))).toBe(
    "a.txt:1: Sentinel12 here\nb.txt:1: Ab12",
  );
});

/**
 * 2,300+ files: more than the calling thread walks alone (SPLIT_AFTER_ENTRIES), so the rest is
 * searched by it and the grep pool together. Every rule is placed both before and after the
 * split point: nested .gitignore with negation, hidden files, .git, binary and invalid UTF-8
 * files, CRLF, deny_read, file symlinks in and out of the sandbox, a directory symlink.
 */
async function putVariedTree(h: Harness): Promise<void> {
  const files: Record<string, string | Uint8Array> = {
    ".gitignore": "build/\n*.tmp\n!keep.tmp\n",
    ".hidden/h.txt": "needle hidden early\n",
  };
  for (let d = 0; d < 30; d++) {
    const dd = String(d).padStart(2, "0");
    for (let f = 0; f < 70; f++) {
      const ff = String(f).padStart(2, "0");
      const hit = (d * 70 + f) % 20 === 3;
      const eol = f % 2 ? "\r\n" : "\n";
      files[`a${dd}/f${ff}.txt`] = ["one", "two", hit ? `needle ${d}-${f}` : "three", "four"]
        .join(eol) + eol;
    }
    files[`a${dd}/sub/deep/g.md`] = `Needle md ${d}\nafter\n`;
    files[`a${dd}/build/b.txt`] = `needle build ${d}\n`;
  }
  Object.assign(files, {
    "m/.gitignore": "*.log\n!important.log\n",
    "m/x.log": "needle special ignored log\n",
    "m/important.log": "needle special important\n",
    "m/keep.tmp": "needle special kept tmp\n",
    "m/drop.tmp": "needle special dropped tmp\n",
    "m/build/b.txt": "needle special build\n",
    "z/.hid/h.txt": "needle special hidden\n",
    "z/.git/config": "needle special git\n",
    "z/bin.dat": new Uint8Array([...new TextEncoder().encode("needle special bin\n"), 0, 1]),
    "z/latin1.txt": new Uint8Array([...new TextEncoder().encode("needle special caf"), 0xe9]),
    "z/secret.txt": "needle special secret\n",
    "z/crlf.txt": "x\r\nneedle special crlf\r\n",
    "z/target.txt": "needle special target\n",
  });
  await h.put(files);
  await Deno.writeTextFile(`${h.outside}/o.txt`, "needle special outside\n");
  await Deno.symlink(`${h.ws}/z/target.txt`, `${h.ws}/z/link.txt`);
  await Deno.symlink(`${h.outside}/o.txt`, `${h.ws}/z/out.txt`);
  await Deno.symlink(`${h.ws}/a00`, `${h.ws}/z/linkdir`);
}

fileTest(
  "grep: a large tree searched with the grep pool gives the one-thread output, byte for byte",
  async (h) => {
    await putVariedTree(h);
    // The reference: the same search on the calling thread alone.
    const config = defaultConfig();
    config.tools.file = { ...config.tools.file, grep_max_matches: 100 };
    const oneThread = new ToolRegistry({
      tools: FILE_TOOLS,
      executor: new LocalExecutor(),
      policy: allowAllPolicy(),
      config,
    });
    const reference = async (input: Record<string, unknown>) => {
      setSearchThreads(0);
      try {
        return okText(
          await oneThread.dispatch({ id: "ref", name: "grep", input }, {
            cwd: h.ws,
            sandbox: h.sandbox,
          }),
        );
      } finally {
        setSearchThreads();
      }
    };
    const inputs = [
      { pattern: "needle" }, // 100+ matches: the cap cuts after the split point
      { pattern: "needle \\d+-\\d+", context: 1 },
      { pattern: "NEEDLE md", case_sensitive: false, glob: "*.md" },
      { pattern: "needle", glob: "z/**" },
      { pattern: "needle special" },
      { pattern: "no such text anywhere" },
    ];
    for (const input of inputs) {
      expect({ input, text: okText(await h.dispatch("grep", input)) }).toEqual({
        input,
        text: await reference(input),
      });
    }
    // And what the rules say, so that a bug shared by both paths fails too.
    expect(await reference({ pattern: "needle special" })).toBe([
      "m/important.log:1: needle special important",
      "m/keep.tmp:1: needle special kept tmp",
      "z/.hid/h.txt:1: needle special hidden",
      "z/crlf.txt:2: needle special crlf",
      "z/link.txt:1: needle special target",
      "z/target.txt:1: needle special target",
    ].join("\n"));
    const capped = await reference({ pattern: "needle" });
    expect(capped.split("\n").slice(0, 3)).toEqual([
      ".hidden/h.txt:1: needle hidden early",
      "a00/f03.txt:3: needle 0-3",
      "a00/f23.txt:3: needle 0-23",
    ]);
    expect(capped.split("\n").length).toBe(102); // 100 lines, a blank line, the note
    expect(capped).toContain("\n\n[Stopped after 100 matching lines; there are more.");
  },
  { denyRead: ["**/secret.txt"] },
);
