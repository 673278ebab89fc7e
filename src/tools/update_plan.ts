/**
 * `update_plan`: the model keeps a short checklist of its work (Claude Code's TodoWrite, Codex's
 * update_plan, Gemini's write_todos). Each call sends the whole list; the loop stores it with
 * the conversation and the front-ends show it (ACP `plan` updates, the CLI checklist). Like
 * Codex and Gemini, at most one entry is in progress. It touches nothing outside the session,
 * so it needs no permission and is in the `always` group: every mode may plan.
 */
import { z } from "zod";
import { ToolError } from "../errors/mod.ts";
import type { PlanEntry } from "../store/mod.ts";
import { defineTool } from "./tool.ts";

/** Entries in one plan: enough for any task a turn can hold, small enough to show. */
export const MAX_PLAN_ENTRIES = 50;

export const PlanEntryParams = z.object({
  content: z.string().trim().min(1).max(500).describe(
    'What this step does, in a few words (e.g. "Run the tests")',
  ),
  status: z.enum(["pending", "in_progress", "completed"]).describe(
    "pending, in_progress (at most one entry) or completed",
  ),
  priority: z.enum(["high", "medium", "low"]).default("medium").describe(
    "high, medium (the default) or low",
  ),
}).strict();

export const UpdatePlanParams = z.object({
  entries: z.array(PlanEntryParams).max(MAX_PLAN_ENTRIES).describe(
    "The whole plan, in order; it replaces the previous one (an empty list clears it)",
  ),
  explanation: z.string().max(2000).optional().describe(
    "Optional: why the plan changed, one sentence",
  ),
}).strict();

const DESCRIPTION =
  `Keep a short plan of the current task that the user sees as a checklist. Use it for work with several steps: write the plan first, then call it again as steps start and finish (mark a step in_progress before working on it, completed when done). Skip it for one-step requests.

Parameters: entries (the whole plan, in order: content, status pending|in_progress|completed, priority high|medium|low, default medium); explanation (optional).
Returns: the plan as stored.
Errors: invalid_parameters when more than one entry is in_progress or an entry is empty.
Example: {"entries": [{"content": "Find the failing test", "status": "completed"}, {"content": "Fix the parser", "status": "in_progress", "priority": "high"}, {"content": "Run the tests", "status": "pending"}]}`;

const MARK: Record<PlanEntry["status"], string> = {
  pending: "[ ]",
  in_progress: "[~]",
  completed: "[x]",
};

export const updatePlanTool = defineTool({
  name: "update_plan",
  description: DESCRIPTION,
  params: UpdatePlanParams,
  mutates: false,
  kind: "other",
  group: "always",
  invocation: { type: "call" },
  subjects: () => [],
  execute(params) {
    const entries: PlanEntry[] = params.entries.map((e) => ({
      content: e.content,
      status: e.status,
      priority: e.priority,
    }));
    const active = entries.filter((e) => e.status === "in_progress");
    if (active.length > 1) {
      throw new ToolError(
        "invalid_parameters",
        `Cannot update the plan: ${active.length} entries are in_progress ` +
          `(${active.map((e) => JSON.stringify(e.content)).join(", ")}); at most one may be`,
        { hint: "Keep one entry in_progress and mark the others pending or completed." },
      );
    }
    return Promise.resolve({ text: describePlan(entries), raw: { entries }, plan: entries });
  },
});

/** What the model reads back: the counts and the list as stored. */
export function describePlan(entries: PlanEntry[]): string {
  if (entries.length === 0) return "Plan cleared.";
  const count = (s: PlanEntry["status"]) => entries.filter((e) => e.status === s).length;
  const head = `Plan updated: ${entries.length} entries (${count("completed")} completed, ` +
    `${count("in_progress")} in progress, ${count("pending")} pending).`;
  const lines = entries.map((e) =>
    `${MARK[e.status]} ${e.content}${e.priority === "medium" ? "" : ` (${e.priority})`}`
  );
  return [head, ...lines].join("\n");
}
