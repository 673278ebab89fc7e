// TAFC: the complexity score from its four signals, the schema the model sees, and stripping.
import { expect } from "expect";
import { z } from "zod";
import { schemaComplexity, stripTafc, tafcApplies, tafcSchema } from "../../src/tools/tafc.ts";
import { builtinTools } from "../../src/tools/catalog.ts";
import { type AnyTool, defineTool, toolJsonSchema } from "../../src/tools/tool.ts";

const scalar = { type: "string" };
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
});

Deno.test("schemaComplexity weighs depth, combinators, enum size and required parameters", () => {
  const cases: [string, Record<string, unknown>, number][] = [
    // 0.3·2/8 = 0.075
    ["flat, nothing required", obj({ a: scalar }), 0.075],
    // + 0.2·3/8 = 0.075
    ["three required", obj({ a: scalar, b: scalar, c: scalar }, ["a", "b", "c"]), 0.15],
    // depth 4 (object → array → object → scalar): 0.3·4/8 = 0.15
    ["nested", obj({ xs: { type: "array", items: obj({ y: scalar }) } }), 0.15],
    // + 0.3·10/10 (enum capped at 10)
    ["big enum", obj({ e: { type: "string", enum: [...Array(14).keys()] } }), 0.375],
    // + 0.4 for a combinator anywhere
    ["combinator", obj({ u: { anyOf: [scalar, { type: "number" }] } }), 0.475],
    ["type list", obj({ u: { type: ["string", "number"] } }), 0.475],
    // required capped at 8, depth capped at 8
    [
      "everything",
      obj(
        Object.fromEntries([...Array(10).keys()].map((i) => [`p${i}`, {
          oneOf: [{ enum: [...Array(12).keys()] }, scalar],
        }])),
        [...Array(10).keys()].map((i) => `p${i}`),
      ),
      0.975,
    ],
  ];
  for (const [name, schema, score] of cases) {
    expect([name, schemaComplexity(schema)]).toEqual([name, score]);
  }
});

Deno.test("no built-in tool reaches the default threshold 0.6", () => {
  const scores = builtinTools().map((t) => schemaComplexity(toolJsonSchema(t)));
  expect(scores.filter((s) => s >= 0.6)).toEqual([]);
});

const pick = defineTool({
  name: "pick",
  description: "Picks.",
  params: z.object({
    mode: z.enum(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]).describe("mode"),
    target: z.union([z.string(), z.number()]).describe("target"),
  }).strict(),
  mutates: false,
  kind: "other",
  group: "read",
  invocation: { type: "call" },
  subjects: () => [],
  execute: () => Promise.resolve({ text: "" }),
});

const withThinking: AnyTool = defineTool({
  ...pick,
  name: "own_thinking",
  params: z.object({
    thinking: z.string().describe("the tool's own parameter"),
    mode: z.enum(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]).describe("mode"),
    target: z.union([z.string(), z.number()]).describe("target"),
  }).strict(),
});

const on = { enabled: true, complexity_threshold: 0.6 };

Deno.test("tafcSchema puts an optional thinking property first, only when TAFC applies", () => {
  expect(schemaComplexity(toolJsonSchema(pick))).toBe(0.825);
  const schema = tafcSchema(pick, on);
  expect(Object.keys(schema.properties as object)).toEqual(["thinking", "mode", "target"]);
  expect(schema.required).toEqual(["mode", "target"]);
  expect(tafcSchema(pick, { enabled: false, complexity_threshold: 0.6 })).toEqual(
    toolJsonSchema(pick),
  );
  expect(tafcSchema(pick, { enabled: true, complexity_threshold: 0.9 })).toEqual(
    toolJsonSchema(pick),
  );
  // A tool with a real `thinking` parameter keeps its own schema and its own value.
  expect(tafcApplies(withThinking, on)).toBe(false);
  expect(tafcSchema(withThinking, on)).toEqual(toolJsonSchema(withThinking));
  expect(stripTafc(withThinking, { thinking: "mine", mode: "a", target: 1 }, on)).toEqual({
    thinking: "mine",
    mode: "a",
    target: 1,
  });
});

Deno.test("stripTafc removes the field of augmented tools only, and leaves other input alone", () => {
  expect(stripTafc(pick, { thinking: "t", mode: "a", target: 1 }, on)).toEqual({
    mode: "a",
    target: 1,
  });
  expect(stripTafc(pick, { thinking: "t" }, on)).toEqual({});
  expect(stripTafc(pick, { thinking: "t", mode: "a" }, { ...on, enabled: false })).toEqual({
    thinking: "t",
    mode: "a",
  });
  expect(stripTafc(undefined, { thinking: "t" }, on)).toEqual({ thinking: "t" });
  expect(stripTafc(pick, "not an object", on)).toBe("not an object");
  expect(stripTafc(pick, ["thinking"], on)).toEqual(["thinking"]);
});
