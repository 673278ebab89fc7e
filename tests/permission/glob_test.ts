import { expect } from "expect";
import { compileGlob } from "../../src/permission/glob.ts";

Deno.test("permission globs: whole string, case-insensitive, `*` crosses `/`", () => {
  const cases: [string, string, boolean][] = [
    ["*", "", true],
    ["*", "anything/at/all", true],
    ["cargo *", "cargo build --release", true],
    ["cargo *", "CARGO TEST", true],
    ["cargo *", "xcargo build", false], // whole string, not a substring
    ["cargo *", "cargo", false],
    ["*sudo*", "echo hi && sudo rm x", true],
    ["*.env", "src/config/.ENV", true],
    ["src/*", "src/a/b/c.ts", true], // `*` crosses `/`
    ["src/*.ts", "src/a/b/c.ts", true],
    ["src/*.ts", "lib/a.ts", false],
    ["?.md", "a.md", true],
    ["?.md", "ab.md", false],
    ["file[0-9].txt", "file7.txt", true],
    ["file[0-9].txt", "filex.txt", false],
    ["file[!0-9].txt", "filex.txt", true],
    ["file[!0-9].txt", "file7.txt", false],
    ["a\\*b", "a*b", true],
    ["a\\*b", "axb", false],
    ["[abc", "[abc", true], // an unclosed class is a literal
    ["**/secret/**", "x/secret/y", true],
    ["git push*", "git push --force origin", true],
    ["*a*a*a*a*a*b", "a".repeat(200), false], // backtracking stays linear-ish and correct
  ];
  const got = cases.map(([p, s]) => [p, s, compileGlob(p).test(s)]);
  expect(got).toEqual(cases);
});

Deno.test("compileGlob keeps its source", () => {
  expect(compileGlob("Cargo *").source).toBe("Cargo *");
});
