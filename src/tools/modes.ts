/**
 * Modes (Roo-Code's): a session is in one mode at a time, and the mode says which tool groups
 * the model gets. Edits may be restricted to paths a regex matches. The registry enforces the
 * mode at its dispatch boundary (a tool the model invents is refused as well) and leaves tools
 * outside it out of what the model is sent. `[tools] enabled = false` is the mode with no tools.
 */
import type { Config, ModeConfig } from "../config/mod.ts";
import { compilePattern, type Pattern, PatternError } from "../filter/regex.ts";
import { ToolError } from "../errors/mod.ts";
import type { AnyTool, ModeControl, ToolGroup } from "./tool.ts";

/** A mode ready to enforce: its groups and its compiled edit restriction. */
export interface Mode {
  readonly slug: string;
  readonly name: string;
  readonly description: string;
  readonly groups: ReadonlySet<ToolGroup>;
  /** Paths an `edit` tool may touch (workspace-relative); null means any. */
  readonly fileRegex: Pattern | null;
  readonly fileRegexDescription: string;
}

/** Built-in modes, in the order pickers show them; a `[modes.<slug>]` of the same slug replaces one. */
export const BUILTIN_MODES: Readonly<Record<string, ModeConfig>> = {
  code: {
    name: "Code",
    description: "Reads, edits, runs commands and fetches: every tool",
    groups: ["read", "edit", "command", "web", "mcp"],
    file_regex: "",
    file_regex_description: "",
  },
  ask: {
    name: "Ask",
    description: "Answers questions: reads files and the web, changes nothing",
    groups: ["read", "web"],
    file_regex: "",
    file_regex_description: "",
  },
  architect: {
    name: "Architect",
    description: "Plans and designs: reads everything, edits only Markdown files",
    groups: ["read", "edit"],
    file_regex: "\\.md$",
    file_regex_description: "Markdown files only",
  },
};

/** A mode table or `default_mode` that cannot be used; `key` is the config key at fault. */
export class ModeConfigError extends Error {
  constructor(readonly key: string, message: string) {
    super(message);
    this.name = "ModeConfigError";
  }
}

/**
 * The built-in modes plus the config's `[modes.<slug>]`, compiled. File regexes run on the RE2
 * engine (linear in the path whatever the pattern), as every user pattern does.
 * Throws ModeConfigError naming the key for a bad pattern or an unknown `default_mode`.
 */
export function compileModes(config: Config): Mode[] {
  const table: Record<string, ModeConfig> = { ...BUILTIN_MODES, ...config.modes };
  const modes = Object.entries(table).map(([slug, m]) => {
    let fileRegex: Pattern | null = null;
    if (m.file_regex !== "") {
      try {
        fileRegex = compilePattern(m.file_regex, "re2");
      } catch (error) {
        const reason = error instanceof PatternError ? error.message : String(error);
        throw new ModeConfigError(
          `modes.${slug}.file_regex`,
          `Cannot use the file_regex ${JSON.stringify(m.file_regex)} of mode "${slug}": ` +
            `${reason}. Write an RE2 pattern (no lookaround or backreferences), e.g. '\\.md$'.`,
        );
      }
    }
    return {
      slug,
      name: m.name ?? slug,
      description: m.description,
      groups: new Set<ToolGroup>(m.groups),
      fileRegex,
      fileRegexDescription: m.file_regex_description,
    };
  });
  const wanted = config.agent.default_mode;
  if (!modes.some((m) => m.slug === wanted)) {
    throw new ModeConfigError(
      "agent.default_mode",
      `Cannot start in mode ${JSON.stringify(wanted)}: there is no such mode. ` +
        `Modes: ${modes.map((m) => m.slug).join(", ")} (add [modes.${wanted}] to define it).`,
    );
  }
  return modes;
}

/** Who changed the mode: the model through switch_mode, or the user (`/mode`, ACP set_mode). */
export type ModeChangeSource = "model" | "user";

export interface ModeStateOptions {
  /** The slug to start in. @default config.agent.default_mode */
  initial?: string;
}

/**
 * One session's mode: which one is current, whether the model gets tools at all, and the checks
 * the registry runs on every call of that session. Listeners hear every change (ACP sends
 * `current_mode_update`).
 */
export class ModeState implements ModeControl {
  readonly available: readonly Mode[];
  /** False when `[tools] enabled = false`: the model is sent no tools and every call is refused. */
  readonly toolsEnabled: boolean;
  #current: Mode;
  #listeners = new Set<(mode: Mode, by: ModeChangeSource) => void>();

  constructor(config: Config, options: ModeStateOptions = {}) {
    this.available = compileModes(config);
    this.toolsEnabled = config.tools.enabled;
    this.#current = this.#find(options.initial ?? config.agent.default_mode);
  }

  get current(): Mode {
    return this.#current;
  }

  /** Switches to `slug` and tells the listeners; an unknown slug throws a ToolError. */
  switchTo(slug: string, by: ModeChangeSource): void {
    const mode = this.#find(slug);
    this.#current = mode;
    for (const listener of this.#listeners) listener(mode, by);
  }

  /** Calls `listener` on every change; returns the function that stops it. */
  onChange(listener: (mode: Mode, by: ModeChangeSource) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Whether the current mode offers `tool` to the model. */
  allows(tool: AnyTool): boolean {
    if (!this.toolsEnabled) return false;
    return tool.group === "always" || this.#current.groups.has(tool.group);
  }

  /**
   * Refuses a tool the current mode does not offer (Roo's message: it names the mode and the
   * tools it offers, `offered`), or any tool when `[tools] enabled = false`.
   */
  checkTool(tool: AnyTool, offered: () => string[]): void {
    if (!this.toolsEnabled) {
      throw new ToolError(
        "policy_blocked",
        `Cannot run ${tool.name}: tools are turned off ([tools] enabled = false), so no tool runs`,
        { hint: "Answer the user in text, without calling tools." },
      );
    }
    if (this.allows(tool)) return;
    throw new ToolError(
      "policy_blocked",
      `Tool "${tool.name}" is not available in mode "${this.#current.slug}". ` +
        `Available tools: ${offered().join(", ") || "none"}`,
      { hint: "Use one of the available tools, or ask to switch modes with switch_mode." },
    );
  }

  /**
   * Refuses an edit of a path the mode's file regex does not match, naming the pattern and the
   * path (Roo's message), and a switch to a mode there is not. `relative` gives a path subject's workspace-relative form, which is
   * what the regex is matched against.
   */
  async checkPaths(
    tool: AnyTool,
    params: unknown,
    relative: (subject: string) => Promise<string>,
  ): Promise<void> {
    // A switch to a mode that does not exist fails here, before the user is asked about it.
    if (tool.kind === "switch_mode") { for (const slug of tool.subjects(params)) this.#find(slug); }
    const mode = this.#current;
    if (tool.group !== "edit" || !mode.fileRegex || !tool.pathSubjects) return;
    for (const subject of tool.subjects(params)) {
      const path = await relative(subject);
      if (mode.fileRegex.test(path)) continue;
      const what = mode.fileRegexDescription ? ` (${mode.fileRegexDescription})` : "";
      throw new ToolError(
        "policy_blocked",
        `Tool "${tool.name}" in mode "${mode.slug}" can only edit files matching pattern: ` +
          `${mode.fileRegex.source}${what}. Got: ${path}`,
        { hint: "Edit a file that matches, or ask to switch modes with switch_mode." },
      );
    }
  }

  #find(slug: string): Mode {
    const mode = this.available.find((m) => m.slug === slug);
    if (mode) return mode;
    throw new ToolError(
      "invalid_parameters",
      `Cannot switch to mode ${JSON.stringify(slug)}: there is no such mode. ` +
        `Modes: ${this.available.map((m) => m.slug).join(", ")}`,
    );
  }
}
