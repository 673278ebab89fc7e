/** The conversation and tool catalog every provider test sends. */
import type { Message, ToolDefinitionForModel } from "../../src/provider/types.ts";

export const SYSTEM = "You are zeph, a coding agent.";

export const TOOLS: ToolDefinitionForModel[] = [
  {
    name: "read",
    description: "Read a file.",
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { path: { type: "string", description: "File path" } },
      required: ["path"],
      additionalProperties: false,
    },
  },
  {
    name: "grep",
    description: "Search file contents.",
    inputSchema: {
      type: "object",
      properties: { pattern: { type: "string" }, path: { type: "string" } },
      required: ["pattern"],
    },
  },
];

/**
 * TOOLS as OpenAI-style function tools, as the OpenAI and Ollama adapters must send them: the
 * `$schema` key dropped, everything else as given.
 */
export const FUNCTION_TOOLS = [
  {
    type: "function",
    function: {
      name: "read",
      description: "Read a file.",
      parameters: {
        type: "object",
        properties: { path: { type: "string", description: "File path" } },
        required: ["path"],
        additionalProperties: false,
      },
    },
  },
  {
    type: "function",
    function: {
      name: "grep",
      description: "Search file contents.",
      parameters: {
        type: "object",
        properties: { pattern: { type: "string" }, path: { type: "string" } },
        required: ["pattern"],
      },
    },
  },
];

/** A user question, an assistant turn with text and two calls, and both results. */
export const HISTORY: Message[] = [
  { role: "user", parts: [{ type: "text", text: "What does a.ts do?" }] },
  {
    role: "assistant",
    parts: [
      { type: "text", text: "Let me look." },
      { type: "tool_call", id: "call_1", name: "read", input: { path: "a.ts" } },
      { type: "tool_call", id: "call_2", name: "grep", input: { pattern: "TODO" } },
    ],
  },
  {
    role: "user",
    parts: [
      { type: "tool_result", callId: "call_1", text: "export const a = 1;", isError: false },
      {
        type: "tool_result",
        callId: "call_2",
        text: "[tool_error]\ncategory: permanent_failure",
        isError: true,
      },
    ],
  },
];
