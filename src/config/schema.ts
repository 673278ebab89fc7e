/**
 * The one zod schema of config.toml. The `Config` type, the defaults and the validation errors
 * all come from here; config.example.toml is tested to load and to equal `defaultConfig()`.
 */
import { z } from "zod";
import { McpConfig } from "./mcp.ts";
import { ModesConfig } from "./modes.ts";
import { PROVIDER_NAMES } from "./providers.ts";
import {
  AnomalyConfig,
  AuthorizationConfig,
  PolicyConfig,
  ResultCacheConfig,
} from "./tool_guards.ts";
import { DependenciesConfig, SchemaFilterConfig, TafcConfig } from "./tool_selection.ts";
import { UndoConfig } from "./undo.ts";
import { FileSandboxConfig } from "./file_sandbox.ts";
import { checkSandboxNetwork, SandboxNetworkKeys } from "./sandbox_network.ts";
import {
  DEFAULT_BLOCKED_COMMANDS,
  DEFAULT_CONFIRM_PATTERNS,
  DEFAULT_ENV_BLOCKLIST,
  DEFAULT_PROTECTED_PATHS,
  MAX_BUFFER_BYTES,
  MAX_TIMEOUT_SECS,
  PERMISSION_SETTINGS,
  permissionRules,
} from "./consts.ts";

// The zod-free constants live in consts.ts, which loads without zod; exported here too.
export {
  DEFAULT_BLOCKED_COMMANDS,
  DEFAULT_CONFIRM_PATTERNS,
  DEFAULT_ENV_BLOCKLIST,
  DEFAULT_PROTECTED_PATHS,
  MAX_BUFFER_BYTES,
  MAX_TIMEOUT_SECS,
  PERMISSION_SETTINGS,
  permissionRules,
};

/** An integer number of seconds, at most 24 h. */
function seconds(min: number) {
  return z.number().int().min(min).max(MAX_TIMEOUT_SECS, {
    message: `expected at most ${MAX_TIMEOUT_SECS} seconds (24 h), the longest timer zeph sets`,
  });
}

/** An integer number of milliseconds, at most 24 h. */
function millis() {
  return z.number().int().min(0).max(MAX_TIMEOUT_SECS * 1000, {
    message: `expected at most ${MAX_TIMEOUT_SECS * 1000} ms (24 h), the longest timer zeph sets`,
  });
}

/** An integer byte count held in memory, at most MAX_BUFFER_BYTES. */
function bufferBytes(min: number) {
  return z.number().int().min(min).max(MAX_BUFFER_BYTES, {
    message: `expected at most ${MAX_BUFFER_BYTES} bytes (256 MiB), the most zeph holds in memory`,
  });
}

export const PermissionAction = z.enum(["allow", "ask", "deny"]);
export type PermissionAction = z.infer<typeof PermissionAction>;

export const PermissionRuleConfig = z.object({
  pattern: z.string().min(1).describe("Glob matched case-insensitively against the tool's subject"),
  action: PermissionAction,
}).strict();
export type PermissionRuleConfig = z.infer<typeof PermissionRuleConfig>;

/** How much the agent may do unasked: nothing that changes files, the rules, or everything. */
export const Autonomy = z.enum(["readonly", "supervised", "full"]);
export type Autonomy = z.infer<typeof Autonomy>;

/**
 * `[tools.permissions]`: the autonomy level, the protected paths, and per tool id an ordered
 * rule list (`[[tools.permissions.bash]]`).
 */
export const PermissionsConfig = z.object({
  autonomy: Autonomy.default("supervised"),
  protected_paths: z.array(z.string().min(1)).default([...DEFAULT_PROTECTED_PATHS]),
}).catchall(z.array(PermissionRuleConfig));
export type PermissionsConfig = z.infer<typeof PermissionsConfig>;

const AgentConfig = z.object({
  max_tool_iterations: z.number().int().min(1).max(1000).default(10),
  context_budget_tokens: z.number().int().min(1000).default(128_000),
  /** Stop when the estimated context exceeds this fraction of the budget. */
  context_budget_ratio: z.number().gt(0).max(1).default(0.8),
  doom_loop_threshold: z.number().int().min(2).default(3),
  /**
   * Roo's repetition rule under Zeph's name: this many consecutive identical calls run, the next
   * one asks the user whether to go on; 0 turns the check off.
   */
  repeat_threshold: z.number().int().min(0).max(1000).default(3),
  system_prompt: z.string().default(""),
  /** The mode a session starts in: a built-in (code, ask, architect) or a [modes.<slug>]. */
  default_mode: z.string().min(1).default("code"),
}).strict();

const LlmProviderName = z.enum(PROVIDER_NAMES);

const ClaudeConfig = z.object({
  model: z.string().default("claude-sonnet-4-6"),
  base_url: z.string().default(""),
  max_tokens: z.number().int().min(1).default(8192),
  prompt_cache: z.boolean().default(true),
}).strict();

const OpenAiConfig = z.object({
  model: z.string().default("gpt-4.1"),
  base_url: z.string().default(""),
  max_tokens: z.number().int().min(1).default(8192),
}).strict();

const OllamaConfig = z.object({
  model: z.string().default("qwen3:8b"),
  base_url: z.string().default("http://127.0.0.1:11434"),
  tool_use: z.boolean().default(true),
  /** Context window requested from Ollama (`options.num_ctx`); 0 = the server's default. */
  num_ctx: z.number().int().min(0).default(0),
}).strict();

const LlmConfig = z.object({
  provider: LlmProviderName.default("ollama"),
  /** Per-request timeout in seconds. */
  timeout: seconds(1).default(120),
  claude: ClaudeConfig.prefault({}),
  openai: OpenAiConfig.prefault({}),
  ollama: OllamaConfig.prefault({}),
}).strict();

const MemoryConfig = z.object({
  /** SQLite file; empty means $XDG_DATA_HOME/zeph/zeph.db. */
  sqlite_path: z.string().default(""),
}).strict();

const ShellSandboxConfig = z.object({
  /** auto: bubblewrap when it works here; bwrap: refuse commands without it; off: unconfined. */
  mode: z.enum(["auto", "bwrap", "off"]).default("auto"),
  /** Without it a sandboxed command has no network at all (its own empty network namespace). */
  allow_network: z.boolean().default(false),
  /** More paths kept read-only inside the writable roots. */
  read_only_paths: z.array(z.string()).default([]),
  /** More paths made invisible to commands. */
  hidden_paths: z.array(z.string()).default([]),
  ...SandboxNetworkKeys,
}).strict().superRefine(checkSandboxNetwork);

const ShellConfig = z.object({
  timeout: seconds(1).default(30),
  blocked_commands: z.array(z.string()).default([]),
  allowed_commands: z.array(z.string()).default([]),
  allowed_paths: z.array(z.string()).default([]),
  allow_network: z.boolean().default(true),
  confirm_patterns: z.array(z.string()).default(DEFAULT_CONFIRM_PATTERNS),
  env_blocklist: z.array(z.string()).default(DEFAULT_ENV_BLOCKLIST),
  /** Commands longer than this are refused, never analysed by a weaker check. */
  max_command_length: z.number().int().min(1).default(10_000),
  /** Commands with more simple commands than this are refused. */
  max_subcommands: z.number().int().min(1).default(200),
  /** Bytes of head and of tail kept in memory for very large outputs. */
  max_output_bytes: bufferBytes(1024).default(8 * 1024 * 1024),
  sandbox: ShellSandboxConfig.prefault({}),
}).strict();

const FileConfig = z.object({
  allowed_paths: z.array(z.string()).default([]),
  deny_read: z.array(z.string()).default([]),
  allow_read: z.array(z.string()).default([]),
  max_read_lines: z.number().int().min(1).default(2000),
  max_line_chars: z.number().int().min(1).default(2000),
  grep_max_matches: z.number().int().min(1).default(100),
  find_max_results: z.number().int().min(1).default(200),
  sandbox: FileSandboxConfig.prefault({}),
}).strict();

const OverflowConfig = z.object({
  threshold: bufferBytes(1).default(50_000),
  retention_days: z.number().int().min(0).default(7),
  max_overflow_bytes: bufferBytes(0).default(10 * 1024 * 1024),
}).strict();

const FilterSecurityConfig = z.object({
  enabled: z.boolean().default(true),
  extra_patterns: z.array(z.string()).default([]),
}).strict();

const FiltersConfig = z.object({
  enabled: z.boolean().default(true),
  filters_path: z.string().default(""),
  // Outputs no rule matches: repeats collapsed, progress dropped, long lines and outputs cut.
  generic: z.boolean().default(true),
  // Which commands' unfiltered output is stored for read_overflow when the filter hid lines
  // (RTK's tee mode): every command's, only failed ones', or none.
  keep_unfiltered: z.enum(["always", "failures", "never"]).default("always"),
  security: FilterSecurityConfig.prefault({}),
}).strict();

const ScrapeConfig = z.object({
  timeout: seconds(1).default(15),
  max_body_bytes: bufferBytes(1).default(1024 * 1024),
  allowed_domains: z.array(z.string()).default([]),
  denied_domains: z.array(z.string()).default([]),
}).strict();

const DiagnosticsConfig = z.object({
  max_diagnostics: z.number().int().min(1).default(50),
}).strict();

const AuditConfig = z.object({
  enabled: z.boolean().default(true),
  /** JSONL file; empty means $XDG_DATA_HOME/zeph/audit.jsonl. */
  path: z.string().default(""),
}).strict();

const RetryConfig = z.object({
  max_attempts: z.number().int().min(0).default(2),
  base_ms: millis().default(500),
  max_ms: millis().default(5000),
  budget_secs: seconds(0).default(30),
}).strict();

const ToolsConfig = z.object({
  enabled: z.boolean().default(true),
  summarize_output: z.boolean().default(false),
  /** Unset (0) means unlimited. */
  max_tool_calls_per_session: z.number().int().min(0).default(0),
  shell: ShellConfig.prefault({}),
  file: FileConfig.prefault({}),
  /** Without rule lists the legacy [tools.shell] blocked_commands/confirm_patterns apply. */
  permissions: PermissionsConfig.prefault({}),
  overflow: OverflowConfig.prefault({}),
  filters: FiltersConfig.prefault({}),
  scrape: ScrapeConfig.prefault({}),
  diagnostics: DiagnosticsConfig.prefault({}),
  audit: AuditConfig.prefault({}),
  retry: RetryConfig.prefault({}),
  // Session guards around dispatch (tool_guards.ts).
  result_cache: ResultCacheConfig.prefault({}),
  anomaly: AnomalyConfig.prefault({}),
  policy: PolicyConfig.prefault({}),
  authorization: AuthorizationConfig.prefault({}),
  tafc: TafcConfig.prefault({}),
  schema_filter: SchemaFilterConfig.prefault({}),
  dependencies: DependenciesConfig.prefault({}),
  undo: UndoConfig.prefault({}),
}).strict();

export const Config = z.object({
  agent: AgentConfig.prefault({}),
  llm: LlmConfig.prefault({}),
  memory: MemoryConfig.prefault({}),
  tools: ToolsConfig.prefault({}),
  mcp: McpConfig.prefault({}),
  modes: ModesConfig.default({}),
}).strict();

export type Config = z.infer<typeof Config>;
export type ShellConfig = z.infer<typeof ShellConfig>;
export type ShellSandboxConfig = z.infer<typeof ShellSandboxConfig>;
export type FileConfig = z.infer<typeof FileConfig>;
export type FiltersConfig = z.infer<typeof FiltersConfig>;
export type OverflowConfig = z.infer<typeof OverflowConfig>;
export type LlmConfig = z.infer<typeof LlmConfig>;
export type AgentConfig = z.infer<typeof AgentConfig>;
export type RetryConfig = z.infer<typeof RetryConfig>;
export type { UndoConfig } from "./undo.ts";
export type { FileSandboxConfig } from "./file_sandbox.ts";

export function defaultConfig(): Config {
  return Config.parse({});
}
