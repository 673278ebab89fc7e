/**
 * The `[modes.<slug>]` tables: user modes, each a set of tool groups, with edits optionally
 * restricted to paths a regex matches (Roo-Code's custom modes). The built-in modes and the
 * regex compilation live with the tools (src/tools/modes.ts); this is only the file's shape.
 */
import { z } from "zod";

/** The tool groups a mode may list; every tool belongs to one (src/tools/tool.ts `group`). */
export const MODE_GROUPS = ["read", "edit", "command", "web", "mcp"] as const;

export const ModeConfig = z.object({
  /** Shown in the editor's mode picker and by `/mode`; defaults to the slug. */
  name: z.string().min(1).optional(),
  description: z.string().default(""),
  groups: z.array(z.enum(MODE_GROUPS)).min(1, {
    message: `list at least one tool group (${MODE_GROUPS.join(", ")})`,
  }),
  /** RE2 pattern an edited path (workspace-relative) must match; empty means any path. */
  file_regex: z.string().default(""),
  /** Says what `file_regex` allows, in the error the model reads. */
  file_regex_description: z.string().default(""),
}).strict();

/** `[modes.<slug>]`: a slug is lowercase letters, digits, `-` and `_`. */
export const ModesConfig = z.record(
  z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, {
    message: "a mode slug is lowercase letters, digits, '-' and '_' (e.g. [modes.docs])",
  }),
  ModeConfig,
);

export type ModeConfig = z.infer<typeof ModeConfig>;
export type ModesConfig = z.infer<typeof ModesConfig>;
