import { expect } from "expect";
import type { PermissionAction } from "../../src/config/schema.ts";
import { flagSpellings, permissionRuleWarnings } from "../../src/permission/rule_warnings.ts";
import { globCovers } from "../../src/permission/glob.ts";

Deno.test("globCovers: an earlier glob shadows a later one when it matches all it matches (table)", () => {
  const table: [string, string, boolean][] = [
    ["*", "anything*", true],
    ["git *", "git push*", true],
    ["git *", "git", false],
    ["git push*", "git *", false],
    ["*sudo*", "sudo *", true],
    ["sudo *", "*sudo*", false],
    ["rm -?f*", "rm -rf*", true],
    ["rm -rf*", "rm -?f*", false],
    ["[a-c]*", "b*", true],
    ["b*", "[a-c]*", false],
    ["LS *", "ls -la", true],
    ["src/*", "src/a/b.ts", true],
    ["*.ts", "*.tsx", false],
  ];
  expect(table.map(([o, i]) => [o, i, globCovers(o, i)])).toEqual(table);
});

Deno.test("flagSpellings: combined clusters and flags with another spelling (table)", () => {
  const table: [string, string[]][] = [
    ["rm -rf*", ["rm -fr*", "rm -r -f*", "rm --recursive --force*"]],
    ["rm -rf /", ["rm -fr /", "rm -r -f /", "rm --recursive --force /"]],
    ["git push --force*", ["git push -f*"]],
    ["git push -f*", ["git push --force*"]],
    ["git clean -fd*", ["git clean -df*", "git clean -f -d*"]],
    ["rm -r*", ["rm --recursive*"]],
    ["ls *", []],
    ["*sudo*", []],
    ["cargo publish*", []],
  ];
  expect(table.map(([p]) => [p, flagSpellings(p)])).toEqual(table);
});

Deno.test("permissionRuleWarnings: shadowed rules and sidestepped deny globs, nothing else", () => {
  const rules = (list: [string, PermissionAction][]) =>
    list.map(([pattern, action]) => ({ pattern, action }));
  expect(permissionRuleWarnings({
    bash: rules([["git *", "allow"], ["git push*", "deny"], ["rm -rf*", "deny"]]),
    write: rules([["src/*", "allow"], ["*", "ask"]]),
  })).toEqual([
    '[tools.permissions.bash][1] deny "git push*" never applies: the earlier ' +
    '[tools.permissions.bash][0] allow "git *" matches everything it does and the first ' +
    "matching rule wins. Move it above rule 0 or remove it.",
    '[tools.permissions.bash][2] deny "rm -rf*" can be sidestepped by other spellings of the ' +
    'same flags: "rm -fr*", "rm -r -f*", "rm --recursive --force*". Add one deny rule per ' +
    'spelling, or a broader glob (e.g. "rm *").',
  ]);
  // A good order, and flag rules that allow rather than deny, warn about nothing.
  expect(permissionRuleWarnings({
    bash: rules([["git push*", "deny"], ["git *", "allow"], ["rm -rf build", "allow"]]),
  })).toEqual([]);
});
