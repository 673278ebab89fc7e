/**
 * Modes in the CLI: `--mode <slug>` picks the mode a chat starts in, `/mode` lists the modes and
 * `/mode <slug>` switches. A mode table the config cannot compile is reported with its key.
 */
import type { Config } from "../config/mod.ts";
import { ConfigError } from "../config/errors.ts";
import { ModeConfigError, ModeState, ToolError } from "../tools/mod.ts";
import { CliError } from "./errors.ts";

/**
 * The chat's modes: the config's, starting in `flag`, else in `resumed` (the mode a resumed
 * conversation was in, when the config still has it), else in `[agent] default_mode`.
 */
export function chatModes(
  config: Config,
  options: { flag?: string; resumed?: string | null; source: string },
): ModeState {
  try {
    const modes = new ModeState(config, { initial: options.flag });
    const resumed = options.resumed;
    if (!options.flag && resumed && modes.available.some((m) => m.slug === resumed)) {
      modes.switchTo(resumed, "user");
    }
    return modes;
  } catch (error) {
    if (error instanceof ModeConfigError) {
      throw new ConfigError([{ source: options.source, key: error.key, message: error.message }]);
    }
    if (error instanceof ToolError) {
      throw new CliError(`--mode: ${error.message}`);
    }
    throw error;
  }
}

/** The config's mode problems for `zeph config check` (empty when the modes compile). */
export function modeConfigIssues(config: Config, source: string): ConfigError | null {
  try {
    new ModeState(config);
    return null;
  } catch (error) {
    if (error instanceof ModeConfigError) {
      return new ConfigError([{ source, key: error.key, message: error.message }]);
    }
    throw error;
  }
}

/** What `/mode [slug]` prints: the list (current one marked), or the switch it made. */
export function modeCommand(modes: ModeState, slug: string | undefined): string {
  if (!slug) {
    const width = Math.max(...modes.available.map((m) => m.slug.length));
    const rows = modes.available.map((m) => {
      const mark = m.slug === modes.current.slug ? "*" : " ";
      const groups = [...m.groups].join(", ");
      const only = m.fileRegex ? `; edits only ${m.fileRegex.source}` : "";
      return `${mark} ${m.slug.padEnd(width)}  ${m.name} (${groups}${only})`;
    });
    const off = modes.toolsEnabled ? "" : "\n([tools] enabled = false: no mode offers tools)";
    return `Modes (* current; /mode <name> to switch):\n${rows.join("\n")}${off}\n`;
  }
  try {
    modes.switchTo(slug, "user");
  } catch (error) {
    if (error instanceof ToolError) return `${error.message}\n`;
    throw error;
  }
  return `(mode: ${modes.current.slug}, ${modes.current.name})\n`;
}
