// Tool names in the selection tables that name no tool are warnings with a did-you-mean.
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { toolSelectionWarnings } from "../../src/config/tool_selection_warnings.ts";

const NAMES = ["bash", "read", "edit", "grep"];

Deno.test("typos in always_on, rule names, requires and prefers are each reported", () => {
  const tools = defaultConfig().tools;
  tools.schema_filter.enabled = true;
  tools.schema_filter.always_on = ["bahs", "read"];
  tools.dependencies.enabled = true;
  tools.dependencies.rules = {
    edit: { requires: ["raed"], prefers: ["grpe", "grep"] },
    deploy: { requires: [], prefers: [] },
  };
  expect(toolSelectionWarnings(tools, NAMES)).toEqual([
    '[tools.schema_filter] always_on names "bahs", which is no tool: it is ignored (did you mean "bash"?).',
    '[tools.dependencies.rules.edit] requires names "raed", which is no tool: edit stays hidden for the whole session (did you mean "read"?).',
    '[tools.dependencies.rules.edit] prefers names "grpe", which is no tool: it never boosts (did you mean "grep"?).',
    '[tools.dependencies.rules.deploy] names "deploy", which is no tool: the rule applies to nothing.',
  ]);
});

Deno.test("tables that are off are not checked; the defaults name real tools", () => {
  const tools = defaultConfig().tools;
  tools.dependencies.rules = { edit: { requires: ["raed"], prefers: [] } };
  tools.schema_filter.always_on = ["bahs"];
  expect(toolSelectionWarnings(tools, NAMES)).toEqual([]);
  tools.schema_filter.enabled = true;
  tools.schema_filter.always_on = defaultConfig().tools.schema_filter.always_on;
  expect(toolSelectionWarnings(tools, NAMES)).toEqual([]);
});
