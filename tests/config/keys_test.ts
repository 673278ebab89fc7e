import { expect } from "expect";
import { editDistance, knownKeys, schemaAt, suggestKey } from "../../src/config/keys.ts";

Deno.test("editDistance: Levenshtein with adjacent swaps counted as one edit", () => {
  const cases: [string, string, number][] = [
    ["", "", 0],
    ["abc", "abc", 0],
    ["timeout", "timout", 1],
    ["shel", "shell", 1],
    ["kitten", "sitting", 3],
    ["", "abc", 3],
    ["raed", "read", 1],
    ["timeuot", "timeout", 1],
    ["ab", "ba", 1],
  ];
  expect(cases.map(([a, b]) => editDistance(a, b))).toEqual(cases.map((c) => c[2]));
});

Deno.test("suggestKey proposes near typos only", () => {
  const known = ["timeout", "allowed_paths", "allow_network", "blocked_commands"];
  expect(suggestKey("timout", known)).toBe("timeout");
  expect(suggestKey("TIMEOUT", known)).toBe("timeout");
  expect(suggestKey("allowed_path", known)).toBe("allowed_paths");
  expect(suggestKey("colour", known)).toBe(null);
  expect(suggestKey("x", known)).toBe(null);
});

Deno.test("knownKeys and schemaAt step through wrappers, records and arrays", () => {
  expect(knownKeys(["tools", "filters", "security"])).toEqual(["enabled", "extra_patterns"]);
  expect(knownKeys(["tools", "permissions", "bash", 0])).toEqual(["pattern", "action"]);
  expect(knownKeys(["agent", "max_tool_iterations"])).toEqual([]);
  expect(schemaAt(["tools", "nope"])).toBe(null);
  expect(schemaAt(["llm", "claude", "model"])).not.toBe(null);
});
