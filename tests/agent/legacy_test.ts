import { expect } from "expect";
import { extractLegacyCalls, formatLegacyResults } from "../../src/agent/legacy.ts";
import { echoTool, scrapeTool, shellTool } from "./_harness.ts";

const tools = [shellTool, echoTool, scrapeTool];

Deno.test("extractLegacyCalls: mixed fences and tags, in order of appearance", () => {
  const text = [
    '<tool_call>{"name": "echo", "input": {"text": "first"}}</tool_call>',
    "```bash",
    "ls -la && echo 'a'",
    "```",
    "```bashrc",
    "not a call",
    "```",
    "```scrape",
    '{"url": "https://a.example", "select": "h1"}',
    "```",
    "```bash echo same-line",
    "```",
    '<tool_call>{"tool_id": "echo", "params": {"text": "zeph-style"}}</tool_call>',
  ].join("\n");
  expect(extractLegacyCalls(text, tools, { idPrefix: "t" })).toEqual([
    { id: "t_1", name: "echo", input: { text: "first" } },
    { id: "t_2", name: "bash", input: { command: "ls -la && echo 'a'" } },
    { id: "t_3", name: "web_scrape", input: { url: "https://a.example", select: "h1" } },
    { id: "t_4", name: "bash", input: { command: "echo same-line" } },
    { id: "t_5", name: "echo", input: { text: "zeph-style" } },
  ]);
});

Deno.test("extractLegacyCalls: unclosed fences, examples inside fences, bad bodies", () => {
  expect(extractLegacyCalls("```bash\nls\n(no closing fence)", tools)).toEqual([]);
  expect(
    extractLegacyCalls(
      '```text\n<tool_call>{"name": "echo", "input": {"text": "x"}}</tool_call>\n```',
      tools,
    ),
  ).toEqual([]);
  expect(extractLegacyCalls("```scrape\nnot json\n```", tools)).toEqual([{
    id: "legacy_1",
    name: "web_scrape",
    input: "not json",
    parseError: expect.stringContaining("The ```scrape block is not a JSON object"),
  }]);
  expect(extractLegacyCalls('<tool_call>{"input": {}}</tool_call>', tools)).toEqual([{
    id: "legacy_1",
    name: "(unknown)",
    input: { input: {} },
    parseError: 'The <tool_call> body needs a "name" string and an "input" object',
  }]);
  expect(extractLegacyCalls("no calls at all", tools)).toEqual([]);
});

Deno.test("extractLegacyCalls: fences of tools that are not visible are plain text", () => {
  expect(extractLegacyCalls("```bash\nls\n```", [echoTool])).toEqual([]);
});

Deno.test("extractLegacyCalls: a fence inside a <tool_call> body is part of its arguments, not a call", () => {
  // A structured call whose argument text holds a markdown example (a README being written).
  const body = JSON.stringify({
    name: "echo",
    input: { text: "Install:\n```bash\nrm -rf build\n```\nthen ```scrape\n{}\n``` x ```" },
  });
  const text = `<tool_call>${body}</tool_call>\n` +
    '<tool_call>{"name": "echo", "input": {"text": "second"}}</tool_call>';
  expect(extractLegacyCalls(text, tools, { idPrefix: "t" })).toEqual([
    {
      id: "t_1",
      name: "echo",
      input: { text: "Install:\n```bash\nrm -rf build\n```\nthen ```scrape\n{}\n``` x ```" },
    },
    { id: "t_2", name: "echo", input: { text: "second" } },
  ]);
});

Deno.test("formatLegacyResults: one labelled block per result", () => {
  expect(formatLegacyResults([
    { callId: "a", tool: "bash", ok: true, text: "out", outcome: "success", durationMs: 1 },
    {
      callId: "b",
      tool: "echo",
      ok: false,
      text: "[tool_error]",
      outcome: "blocked",
      durationMs: 0,
    },
  ])).toBe(
    '<tool_result name="bash" call="a" status="ok">\nout\n</tool_result>\n\n' +
      '<tool_result name="echo" call="b" status="blocked">\n[tool_error]\n</tool_result>',
  );
});
