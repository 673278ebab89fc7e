/**
 * `switch_mode`: the model asks to change the session's mode (Roo-Code's tool). It mutates the
 * session, so the permission rules ask the user by default; once it ran, the next model request
 * carries the new mode's tools.
 */
import { z } from "zod";
import { ToolError } from "../errors/mod.ts";
import { defineTool } from "./tool.ts";

export const SwitchModeParams = z.object({
  mode_slug: z.string().min(1).describe(
    'The mode to switch to, by slug: "code" (every tool), "ask" (read and web only), ' +
      '"architect" (read, and edit Markdown files only), or a mode the user configured',
  ),
  reason: z.string().optional().describe("Why the switch is needed, shown to the user"),
}).strict();

const DESCRIPTION =
  `Ask to switch the session to another mode when the task needs tools the current mode does not offer (for example from "ask" to "code" to edit files).

Parameters: mode_slug (the mode's slug); reason (optional, shown to the user).
Returns: which mode is now active. The user may be asked to approve the switch; the new mode's tools are offered from your next request on.
Errors: invalid_parameters when no mode has that slug (the message lists the modes); policy_blocked when the user rejects the switch.
Example: {"mode_slug": "code", "reason": "The fix needs an edit to src/app.ts"}`;

export const switchModeTool = defineTool({
  name: "switch_mode",
  description: DESCRIPTION,
  params: SwitchModeParams,
  mutates: true,
  kind: "switch_mode",
  group: "always",
  invocation: { type: "call" },
  subjects: (p) => [p.mode_slug],
  execute(params, ctx) {
    const modes = ctx.modes;
    if (!modes) {
      throw new ToolError(
        "permanent_failure",
        "Cannot switch modes: this call does not belong to an agent session",
        { hint: "Do not retry; switch_mode works only in a chat or ACP session." },
      );
    }
    const before = modes.current.slug;
    modes.switchTo(params.mode_slug, "model");
    const now = modes.current;
    const text = before === now.slug
      ? `Already in mode "${now.slug}" (${now.name}); nothing changed.`
      : `Switched from mode "${before}" to "${now.slug}" (${now.name}). ` +
        "Your next request offers this mode's tools.";
    return Promise.resolve({ text });
  },
});
