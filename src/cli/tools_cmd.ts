/**
 * `zeph tools [--json] [--mode <name>]`: the tools the model is sent in a mode (default:
 * `[agent] default_mode`), each with its parameter table (`--json`: the JSON Schemas as the model
 * sees them, TAFC field included). `zeph tools --explain "<query>"`: which tools a request for that
 * message would offer and why each other tool is left out.
 */
import { definitionsFor, selectTools } from "../agent/mod.ts";
import type { Config } from "../config/mod.ts";
import {
  type AnyTool,
  type ModeState,
  schemaComplexity,
  tafcApplies,
  toolJsonSchema,
  type ToolRegistry,
} from "../tools/mod.ts";
import type { CommandDeps } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";
import { formatTool } from "./tool_help.ts";

export function register(program: CliProgram, deps: CommandDeps): void {
  program
    .command("tools")
    .description(
      "list the tools the model can use and their parameters (details: zeph tool <id> --help)",
    )
    .option("--json", "print a JSON array of {name, description, inputSchema, origin}")
    .option(
      "--explain <query>",
      "show which tools a request for this message offers, and why the others are left out",
    )
    .option(
      "--after <tools>",
      "with --explain: tools (comma-separated) taken as completed earlier in the session",
    )
    .option("--mode <name>", "the tools of this mode (default: [agent] default_mode)")
    .action(async (opts, command) => {
      const globals = globalsOf(command);
      const runtime = await deps.buildRuntime(globals);
      try {
        const config = runtime.loaded.config;
        const { chatModes } = await import("./modes.ts");
        const modes = chatModes(config, {
          // The chat's own --mode sits on the root command and may take the value first.
          flag: opts.mode ?? (command.optsWithGlobals() as { mode?: string }).mode,
          source: runtime.loaded.path ?? "built-in defaults",
        });
        const visible = runtime.registry.visible(runtime.policy, modes);
        if (opts.explain !== undefined) {
          const completed = new Set(
            (opts.after ?? "").split(",").map((s) => s.trim()).filter(Boolean),
          );
          const rows = explain(runtime.registry, visible, config, opts.explain, completed, modes);
          if (globals.json) console.log(JSON.stringify(rows, null, 2));
          else console.log(renderExplanation(rows, config, opts.explain, completed, modes));
          return;
        }
        // Each tool's origin: zeph's own, or the MCP server it comes from.
        const defs = definitionsFor(visible, config.tools.tafc).map((d) => {
          const mcp = runtime.registry.get(d.name)?.mcp;
          return { ...d, origin: mcp ? `mcp:${mcp.serverId}` : "builtin" };
        });
        if (globals.json) {
          console.log(JSON.stringify(defs, null, 2));
          return;
        }
        if (defs.length === 0) {
          console.log(
            modes.toolsEnabled
              ? "No tools are available (all are denied by [tools.permissions])."
              : "No tools are available ([tools] enabled = false).",
          );
          return;
        }
        console.log(
          defs.map((d) => {
            const from = d.origin === "builtin" ? "" : `  (${d.origin.replace(":", " server ")})`;
            return formatTool({ ...d, name: d.name + from });
          }).join("\n\n"),
        );
        console.log("\nRun one: zeph tool <id> '<json>'; details: zeph tool <id> --help");
      } finally {
        await runtime.close();
      }
    });
}

/** One registered tool's fate for a query. */
export interface ExplainRow {
  tool: string;
  offered: boolean;
  /**
   * always_on, named, short_description, ranked, unfiltered, no_signal; requires, relevance,
   * denied, mode (outside the mode, or [tools] enabled = false).
   */
  reason: string;
  score?: number;
  boost?: number;
  /** Unmet `requires` (reason "requires"). */
  missing?: string[];
  /** TAFC complexity of the schema, and whether it gets the thinking field. */
  complexity: number;
  thinking: boolean;
}

/** `visible`: the tools neither denied nor outside the mode. */
function explain(
  registry: ToolRegistry,
  visible: AnyTool[],
  config: Config,
  query: string,
  completed: ReadonlySet<string>,
  modes: ModeState,
): ExplainRow[] {
  const selection = selectTools(visible, { query, completed, config: config.tools });
  const fate = new Map<AnyTool, Omit<ExplainRow, "tool" | "complexity" | "thinking">>();
  for (const o of selection.offered) {
    fate.set(o.tool, { offered: true, reason: o.reason, score: o.score, boost: o.boost });
  }
  for (const e of selection.excluded) {
    fate.set(e.tool, {
      offered: false,
      reason: e.reason,
      score: e.score,
      boost: e.boost,
      missing: e.missing,
    });
  }
  return registry.all().map((tool) => ({
    tool: tool.name,
    ...(fate.get(tool) ?? { offered: false, reason: modes.allows(tool) ? "denied" : "mode" }),
    complexity: schemaComplexity(toolJsonSchema(tool)),
    thinking: tafcApplies(tool, config.tools.tafc),
  }));
}

const REASONS: Record<string, string> = {
  always_on: "always on ([tools.schema_filter] always_on)",
  named: "named in the message",
  short_description: "description too short to rank (min_description_words)",
  ranked: "ranked",
  unfiltered: "schema filtering is off",
  no_signal: "no word of the message matches any tool: all are offered",
  denied: "denied by [tools.permissions]",
};

function modeReason(modes: ModeState): string {
  return modes.toolsEnabled
    ? `not in mode "${modes.current.slug}"`
    : "tools are turned off ([tools] enabled = false)";
}

function renderExplanation(
  rows: ExplainRow[],
  config: Config,
  query: string,
  completed: ReadonlySet<string>,
  modes: ModeState,
): string {
  const { schema_filter: filter, dependencies, tafc } = config.tools;
  const lines = [
    `Tools for ${JSON.stringify(query)}` +
    (completed.size ? ` after ${[...completed].join(", ")}` : " at the start of a session") +
    ":",
    `  schema filter: ${
      filter.enabled
        ? `on (${filter.ranking}, top_k ${filter.top_k}, min_score ${filter.min_score})`
        : "off"
    }; dependencies: ${dependencies.enabled ? "on" : "off"}; TAFC: ${
      tafc.enabled ? `on (threshold ${tafc.complexity_threshold})` : "off"
    }`,
    "",
  ];
  const width = Math.max(...rows.map((r) => r.tool.length));
  for (const r of rows) {
    const score = r.score === undefined
      ? ""
      : `, score ${r.score.toFixed(3)}${r.boost ? ` (prefers boost ${r.boost.toFixed(2)})` : ""}`;
    const why = r.reason === "requires"
      ? `hidden: requires ${r.missing!.join(", ")} (not completed yet)`
      : r.reason === "relevance"
      ? r.score === 0
        ? "no word of the message matches it"
        : r.score! < filter.min_score
        ? `below min_score ${filter.min_score}`
        : `not in the top ${filter.top_k}`
      : r.reason === "mode"
      ? modeReason(modes)
      : REASONS[r.reason] ?? r.reason;
    const thinking = r.thinking ? `; thinking field (complexity ${r.complexity})` : "";
    lines.push(
      `  ${r.offered ? "offered " : "left out"}  ${
        r.tool.padEnd(width)
      }  ${why}${score}${thinking}`,
    );
  }
  const offered = rows.filter((r) => r.offered).length;
  lines.push("", `${offered} of ${rows.length} tools offered.`);
  const candidates = rows.filter((r) => r.reason !== "denied" && r.reason !== "mode");
  if (candidates.length && candidates.every((r) => r.reason === "requires")) {
    lines.push(
      "Every tool is hidden by [tools.dependencies] requires: a turn would stop with an error.",
    );
  }
  return lines.join("\n");
}
