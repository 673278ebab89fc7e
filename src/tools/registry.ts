/**
 * The tool registry and the one dispatch boundary every call passes (CLI, agent loop, ACP):
 * unknown tool → mode → validate → mode's file regex → permission (ask resolved by the caller) →
 * execute → output hooks (filter, overflow) → final hooks (audit). Tools never do any of these steps themselves.
 */
import type { z } from "zod";
import type { Config } from "../config/mod.ts";
import type { FilterStats } from "../filter/mod.ts";
import type { Decision, PermissionPolicy } from "../permission/mod.ts";
import type { ToolDefinitionForModel } from "../provider/mod.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import {
  type ErrorCategory,
  formatToolError,
  type Outcome,
  outcomeOf,
  ToolError,
  toToolError,
} from "../errors/mod.ts";
import { type AskAnswer, type AskReply, askReply, rejectionWords } from "./ask_reply.ts";
import type { ToolExecutor } from "./executors/mod.ts";
import { defaultToolDeps } from "./deps.ts";
import { paramNames, unknownParamLines } from "./_params.ts";
import type { ModeState } from "./modes.ts";
import { commandPathWords, PolicyEnforcer } from "./policy_rules.ts";
import type { ResultCache } from "./result_cache.ts";
import type { AnomalyAlert } from "./anomaly.ts";
import { type CachePlan, invalidate, planCache, type SessionGuards } from "./session_guards.ts";
import {
  type AnyTool,
  type ToolContext,
  type ToolDeps,
  type ToolEvent,
  toolJsonSchema,
  type ToolOutput,
} from "./tool.ts";

export type { ToolDefinitionForModel };

export interface ToolCall {
  /** The provider's call id (or a generated one); results are paired by it. */
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResult {
  callId: string;
  tool: string;
  ok: boolean;
  /** What the model reads: the processed output, or the `[tool_error]` block. */
  text: string;
  category?: ErrorCategory;
  error?: string;
  retryable?: boolean;
  /** The tool's own output before the hooks (envelope, diff, locations). */
  output?: ToolOutput;
  decision?: Decision;
  /** `blocked` when refused by policy or the user, `timeout`/`cancelled` as classified. */
  outcome: Outcome;
  durationMs: number;
  filterStats?: FilterStats;
  overflowId?: string;
  /** Answered from the session's result cache: the tool did not run again. */
  cached?: boolean;
  /** The anomaly detector's alert this call raised; the front-end shows it to the user. */
  alert?: AnomalyAlert;
}

export interface AskRequest {
  callId: string;
  tool: AnyTool;
  params: unknown;
  decision: Decision;
  /** Set when the loop asks whether to go on with a run of identical calls, not permission. */
  repeat?: { count: number; limit: number };
}

/** Everything a caller (CLI command, agent session, ACP session) supplies per dispatch. */
export interface CallScope {
  cwd: string;
  sandbox: Sandbox;
  signal?: AbortSignal;
  conversationId?: string | null;
  callerId?: string | null;
  emit?: (event: ToolEvent) => void;
  /** Resolves `ask` decisions; absent means non-interactive: refuse with confirmation_required. */
  ask?: (request: AskRequest) => Promise<AskAnswer | AskReply>;
  /** Overrides the registry's executor for this caller (ACP's editor-backed composite). */
  executor?: ToolExecutor;
  /** Overrides the registry's policy for this caller (an agent session's "always" rules). */
  policy?: PermissionPolicy;
  /** The caller's modes: calls outside the current mode are refused. Absent: no mode applies. */
  modes?: ModeState;
  /**
   * Summarises an output over the overflow threshold (`[tools] summarize_output`): an agent
   * session's model. Absent: such outputs are cut to head + tail.
   */
  summarize?: OutputSummarizer;
  /** The session's result cache and anomaly detector; absent for one-off calls (`zeph tool`). */
  guards?: SessionGuards;
}

/** Asks a model for a short summary of a tool's long output; rejects when it cannot. */
export type OutputSummarizer = (
  output: string,
  options: { tool: string; signal: AbortSignal },
) => Promise<string>;

export interface HookInput {
  call: ToolCall;
  tool: AnyTool | undefined;
  params: unknown;
  scope: CallScope;
  config: Config;
}

/** Runs on successful executions, in `order` (filter 10, overflow 20). May rewrite `text`. */
export interface OutputHook {
  name: string;
  order: number;
  apply(result: ToolResult, input: HookInput): Promise<void> | void;
}

/**
 * Runs around the execution of a permitted call, whatever executor runs it (undo): `before`
 * sees the call first; the function it returns runs after the call with its output (null when
 * the call failed). Errors of either are reported, never turned into a failure of the call.
 */
export interface ExecuteHook {
  name: string;
  before(
    tool: AnyTool,
    params: unknown,
    ctx: ToolContext,
  ): Promise<((output: ToolOutput | null) => Promise<void>) | null>;
}

/** Runs after every call, failed or not (audit). Must not throw. */
export interface FinalHook {
  name: string;
  record(result: ToolResult, input: HookInput): Promise<void> | void;
}

export interface RegistryOptions {
  tools: AnyTool[];
  executor: ToolExecutor;
  policy: PermissionPolicy;
  config: Config;
  /** What tools reach the world through; each member left out is the real one. */
  deps?: Partial<ToolDeps>;
  now?: () => number;
  /** The environment `[tools.policy]` rules' `env` conditions read. @default Deno.env.get */
  env?: (name: string) => string | undefined;
}

export class ToolRegistry {
  readonly config: Config;
  readonly policy: PermissionPolicy;
  executor: ToolExecutor;
  #tools = new Map<string, AnyTool>();
  #outputHooks: OutputHook[] = [];
  #finalHooks: FinalHook[] = [];
  #executeHooks: ExecuteHook[] = [];
  #deps: ToolDeps;
  #now: () => number;
  #enforcer: PolicyEnforcer | null;
  /** Every live session's cache: a mutation in one ACP session is seen by the others. */
  #caches = new Set<WeakRef<ResultCache>>();
  #cacheSeen = new WeakSet<ResultCache>();

  constructor(options: RegistryOptions) {
    for (const tool of options.tools) this.register(tool);
    this.executor = options.executor;
    this.policy = options.policy;
    this.config = options.config;
    this.#deps = { ...defaultToolDeps(), ...options.deps };
    this.#now = options.now ?? (() => performance.now());
    this.#enforcer = PolicyEnforcer.fromConfig(options.config, options.env);
  }

  register(tool: AnyTool): void {
    if (this.#tools.has(tool.name)) throw new Error(`Tool "${tool.name}" is registered twice`);
    this.#tools.set(tool.name, tool);
  }

  /** Removes a tool (an MCP server's tool that is gone); true when it was registered. */
  unregister(name: string): boolean {
    return this.#tools.delete(name);
  }

  /**
   * A registry with the same executor, policy, hooks and deps and a copy of the tools: an ACP
   * session adds its editor's MCP tools there without other sessions seeing them.
   */
  fork(): ToolRegistry {
    const child = new ToolRegistry({
      tools: this.all(),
      executor: this.executor,
      policy: this.policy,
      config: this.config,
      deps: this.#deps,
      now: this.#now,
    });
    for (const hook of this.#outputHooks) child.addOutputHook(hook);
    for (const hook of this.#finalHooks) child.addFinalHook(hook);
    return child;
  }

  addOutputHook(hook: OutputHook): void {
    this.#outputHooks.push(hook);
    this.#outputHooks.sort((a, b) => a.order - b.order);
  }

  addFinalHook(hook: FinalHook): void {
    this.#finalHooks.push(hook);
  }

  addExecuteHook(hook: ExecuteHook): void {
    this.#executeHooks.push(hook);
  }

  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  /** Every registered tool, in registration order. */
  all(): AnyTool[] {
    return [...this.#tools.values()];
  }

  /**
   * The tools the model may see: tools the permissions or `[tools.policy]` fully deny are hidden
   * (spec), and so are tools outside the current mode of `modes` (all of them when
   * `[tools] enabled = false`) and the tools the session's anomaly detector blocked.
   */
  visible(
    policy: PermissionPolicy = this.policy,
    modes?: ModeState,
    guards?: SessionGuards,
  ): AnyTool[] {
    return this.all().filter((t) =>
      !policy.isFullyDenied(t.name, t.mutates) && !this.#enforcer?.deniesAll(t.name) &&
      (modes?.allows(t) ?? true) && !guards?.anomaly.isBlocked(t.name)
    );
  }

  definitions(
    policy: PermissionPolicy = this.policy,
    modes?: ModeState,
    guards?: SessionGuards,
  ): ToolDefinitionForModel[] {
    return this.visible(policy, modes, guards).map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: toolJsonSchema(t),
    }));
  }

  /** The `<tools>` catalog for the system prompt, with each tool's invocation hint. */
  renderCatalog(
    policy: PermissionPolicy = this.policy,
    modes?: ModeState,
    guards?: SessionGuards,
  ): string {
    const parts = this.visible(policy, modes, guards).map((t) => {
      const schema = JSON.stringify(toolJsonSchema(t));
      const how = t.invocation.type === "fenced"
        ? `Invoke with a fenced block: \`\`\`${t.invocation.fence}\n${
          t.invocation.fence === "bash" ? "<command>" : "<JSON object matching the parameters>"
        }\n\`\`\``
        : `Invoke with a structured tool call: <tool_call>{"name": "${t.name}", "input": {…}}</tool_call>`;
      return `<tool name="${t.name}">\n${t.description}\nParameters (JSON Schema): ${schema}\n${how}\n</tool>`;
    });
    return `<tools>\n${parts.join("\n")}\n</tools>`;
  }

  /** The one dispatch boundary. Never throws for tool-level failures: they become results. */
  async dispatch(call: ToolCall, scope: CallScope): Promise<ToolResult> {
    const started = this.#now();
    const tool = this.#tools.get(call.name);
    const policy = scope.policy ?? this.policy;
    let params: unknown = call.input;
    let result: ToolResult;
    let decision: Decision | undefined;
    let plan: CachePlan | null = null;
    let ran = false;
    try {
      if (!tool) {
        const available = this.visible(policy, scope.modes, scope.guards).map((t) => t.name)
          .join(", ");
        throw new ToolError(
          "tool_not_found",
          `Unknown tool "${call.name}". Available tools: ${available}`,
        );
      }
      scope.modes?.checkTool(tool, () => this.visible(policy, scope.modes).map((t) => t.name));
      params = validateParams(tool, call.input);
      await scope.modes?.checkPaths(
        tool,
        params,
        async (subject) => (await scope.sandbox.pathForms(subject, scope.cwd))[0] ?? subject,
      );
      refuseBlocked(tool, scope.guards);
      const ruled = await this.#checkPolicyRules(tool, params, scope);
      decision = await policy.decide(tool, params, {
        pathForms: (subject) => scope.sandbox.pathForms(subject, scope.cwd),
      });
      if (ruled) decision = { ...decision, policyMatch: joinMatches(ruled, decision.policyMatch) };
      await this.#resolvePermission(tool, params, decision, call, scope, policy);
      // With `[tools.result_cache] enabled = false` (a setting every session shares) nothing is
      // planned: no stamps taken, no invalidation walked.
      const cache = scope.guards?.cache.enabled ? scope.guards.cache : undefined;
      if (cache) this.#track(cache);
      plan = cache ? await planCache(tool, params, { ...scope, cache }) : null;
      const hit = plan?.kind === "cacheable" ? await cache!.get(plan.key) : undefined;
      if (hit) {
        result = {
          ...hit,
          callId: call.id,
          tool: call.name,
          ok: true,
          decision,
          outcome: "success",
          durationMs: 0,
          cached: true,
        };
      } else {
        ran = true;
        result = await this.#run(tool, params, call, scope, decision);
        if (plan?.kind === "cacheable") {
          const value = { text: result.text, overflowId: result.overflowId };
          scope.guards!.cache.set(plan.key, value, plan);
        }
      }
    } catch (error) {
      result = failure(call, error);
      // A call that failed after its permission decision still reports it (audit policy_match).
      result.decision ??= decision;
    }
    if (ran && plan?.kind === "invalidates") this.#invalidate(plan);
    result.durationMs = Math.round((this.#now() - started) * 1000) / 1000;
    if (tool && scope.guards && !result.cached) {
      const alert = scope.guards.recordOutcome(tool.name, result);
      if (alert) result.alert = alert;
    }
    await this.#final(result, { call, tool, params, scope, config: this.config });
    return result;
  }

  /**
   * A call the caller answered without dispatching it (the session's quota is used up, a
   * repeated identical call, arguments that are not JSON, a call not started after a cancel):
   * it passes the final hooks all the same, so the audit log holds every call the model made.
   */
  async record(call: ToolCall, result: ToolResult, scope: CallScope): Promise<void> {
    const tool = this.#tools.get(call.name);
    await this.#final(result, { call, tool, params: call.input, scope, config: this.config });
  }

  /** Executes an admitted call and runs the output hooks over its result. */
  async #run(
    tool: AnyTool,
    params: unknown,
    call: ToolCall,
    scope: CallScope,
    decision: Decision,
  ): Promise<ToolResult> {
    const output = await this.#execute(tool, params, call, scope);
    const result: ToolResult = {
      callId: call.id,
      tool: call.name,
      ok: true,
      text: output.text,
      output,
      decision,
      outcome: "success",
      durationMs: 0,
    };
    const input: HookInput = { call, tool, params, scope, config: this.config };
    for (const hook of this.#outputHooks) await hook.apply(result, input);
    return result;
  }

  /**
   * `[tools.policy]`/`[tools.authorization]`: a deny refuses the call (the trace goes to the
   * audit); an allow returns its trace and leaves the decision to the permission rules.
   */
  async #checkPolicyRules(
    tool: AnyTool,
    params: unknown,
    scope: CallScope,
  ): Promise<string | null> {
    if (!this.#enforcer) return null;
    const subjects = tool.subjects(params);
    const words = tool.pathSubjects
      ? subjects
      : tool.kind === "execute"
      ? subjects.flatMap(commandPathWords)
      : [];
    const forms = await Promise.all(words.map((w) => scope.sandbox.pathForms(w, scope.cwd)));
    const paths = [...new Set(forms.flat().filter((p) => p.startsWith("/")))];
    const verdict = this.#enforcer.evaluate({ tool: tool.name, paths, params });
    if (verdict.effect === "allow") return verdict.trace;
    const subject = subjects[0] ?? null;
    const shown = subject ? ` ${JSON.stringify(subject)}` : "";
    throw new DecidedError(
      { action: "deny", policyMatch: verdict.trace, subject },
      new ToolError(
        "policy_blocked",
        `Cannot run ${tool.name}${shown}: denied by ${verdict.trace}`,
        {
          hint: "Do not retry this call: the policy refuses it. Try an approach the policy allows.",
        },
      ),
    );
  }

  /** Remembers a session's cache (weakly) so that every session's mutations reach it. */
  #track(cache: ResultCache): void {
    if (this.#cacheSeen.has(cache)) return;
    this.#cacheSeen.add(cache);
    this.#caches.add(new WeakRef(cache));
  }

  /** A mutation (or a tool the cache cannot reason about) invalidates every live session cache. */
  #invalidate(plan: CachePlan): void {
    for (const ref of this.#caches) {
      const cache = ref.deref();
      if (cache) invalidate(cache, plan);
      else this.#caches.delete(ref);
    }
  }

  async #final(result: ToolResult, input: HookInput): Promise<void> {
    for (const hook of this.#finalHooks) {
      try {
        await hook.record(result, input);
      } catch (error) {
        // A broken audit sink must not turn a finished call into a failure; it is reported.
        console.error(`zeph: ${hook.name} failed: ${(error as Error).message}`);
      }
    }
  }

  async #resolvePermission(
    tool: AnyTool,
    params: unknown,
    decision: Decision,
    call: ToolCall,
    scope: CallScope,
    policy: PermissionPolicy,
  ): Promise<void> {
    const subject = decision.subject ? ` ${JSON.stringify(decision.subject)}` : "";
    const why = decision.reason ? ` (${decision.reason})` : "";
    if (decision.action === "deny") {
      throw new DecidedError(
        decision,
        new ToolError(
          "policy_blocked",
          `Cannot run ${tool.name}${subject}: denied by policy${why}`,
        ),
      );
    }
    if (decision.action === "allow") return;
    // A path the sandbox refuses anyway is refused now: nobody is asked to approve it, or told
    // to run with --yes, for a call that cannot run.
    if (tool.pathSubjects) {
      for (const path of tool.subjects(params)) await scope.sandbox.resolveEntry(path, scope.cwd);
    }
    if (!scope.ask) {
      throw new DecidedError(
        decision,
        new ToolError(
          "confirmation_required",
          `Cannot run ${tool.name}${subject} without confirmation${why}`,
          {
            hint: decision.humanOnly
              ? "Only a person can approve this: run zeph interactively, or make the change yourself."
              : "Run with --yes to allow, or add an allow rule to [tools.permissions].",
          },
        ),
      );
    }
    const reply = askReply(await scope.ask({ callId: call.id, tool, params, decision }));
    const answer = reply.answer;
    if (answer === "allow_once") return;
    if (answer === "allow_always") {
      policy.addSessionRule(tool.name, decision.alwaysPattern ?? decision.subject ?? "*", "allow");
      return;
    }
    if (answer === "reject_always") {
      policy.addSessionRule(tool.name, decision.alwaysPattern ?? decision.subject ?? "*", "deny");
    }
    const words = rejectionWords(reply);
    const message = answer === "cancelled"
      ? `Cannot run ${tool.name}${subject}: the permission request was cancelled`
      : decision.humanOnly && !reply.reason
      ? `Cannot run ${tool.name}${subject}: only a person can approve it${why}, and no one did`
      : `Cannot run ${tool.name}${subject}: the user rejected it${words.said}`;
    throw new DecidedError(
      decision,
      new ToolError("policy_blocked", message, {
        hint: answer === "cancelled" ? rejectionWords({ answer }).hint : words.hint,
      }),
    );
  }

  async #execute(
    tool: AnyTool,
    params: unknown,
    call: ToolCall,
    scope: CallScope,
  ): Promise<ToolOutput> {
    const signal = scope.signal ?? new AbortController().signal;
    if (signal.aborted) throw new ToolError("cancelled", `Cannot run ${tool.name}: cancelled`);
    const ctx: ToolContext = {
      cwd: scope.cwd,
      sandbox: scope.sandbox,
      signal,
      config: this.config,
      callId: call.id,
      conversationId: scope.conversationId ?? null,
      callerId: scope.callerId ?? null,
      now: () => Date.now(),
      emit: scope.emit ?? (() => {}),
      modes: scope.modes,
      ...this.#deps,
    };
    const executor = scope.executor ?? this.executor;
    if (this.#executeHooks.length === 0) return await executor.execute(tool, params, ctx);
    const afters: [string, (output: ToolOutput | null) => Promise<void>][] = [];
    const report = (name: string) => (error: unknown) => {
      console.error(`zeph: ${name} failed: ${(error as Error).message}`);
      return null;
    };
    for (const hook of this.#executeHooks) {
      const after = await hook.before(tool, params, ctx).catch(report(hook.name));
      if (after) afters.push([hook.name, after]);
    }
    let output: ToolOutput | null = null;
    try {
      output = await executor.execute(tool, params, ctx);
      return output;
    } finally {
      for (const [name, after] of afters) await after(output).catch(report(name));
    }
  }
}

/** A tool the session's anomaly detector blocked is refused before anything else runs. */
function refuseBlocked(tool: AnyTool, guards: SessionGuards | undefined): void {
  if (!guards?.anomaly.isBlocked(tool.name)) return;
  throw new DecidedError(
    { action: "deny", policyMatch: "tools.anomaly auto_block", subject: null },
    new ToolError(
      "policy_blocked",
      `Cannot run ${tool.name}: it is blocked for this session after repeated failures ` +
        "([tools.anomaly] auto_block)",
      {
        hint:
          `Do not call ${tool.name} again; the user can lift the block with /unblock ${tool.name}.`,
      },
    ),
  );
}

function joinMatches(policyRule: string, permission: string | null): string {
  return permission ? `${policyRule}; then ${permission}` : policyRule;
}

/** Carries the permission decision along a refusal so the audit sees the policy match. */
class DecidedError extends Error {
  constructor(readonly decision: Decision, readonly error: ToolError) {
    super(error.message);
  }
}

function failure(call: ToolCall, thrown: unknown): ToolResult {
  const decided = thrown instanceof DecidedError ? thrown : null;
  const error = toToolError(decided ? decided.error : thrown);
  const outcome = decided ? "blocked" : outcomeOf(error.category);
  const carried = (error as ToolError & { output?: ToolOutput }).output;
  return {
    callId: call.id,
    tool: call.name,
    ok: false,
    // A failure that carries output (a timed-out command's partial output) shows it first.
    text: carried?.text ? `${carried.text}\n\n${formatToolError(error)}` : formatToolError(error),
    category: error.category,
    error: error.message,
    retryable: error.retryable,
    decision: decided?.decision,
    outcome,
    durationMs: 0,
    output: carried,
  };
}

/**
 * zod validation; every issue listed with its path. Missing or extra-shaped input is invalid,
 * and so is a parameter the tool does not have (for every tool, strict schema or not).
 */
export function validateParams(tool: AnyTool, input: unknown): unknown {
  const known = paramNames(tool.params);
  const unknown = known ? unknownParamLines(input, known) : [];
  const parsed = (tool.params as z.ZodType).safeParse(input ?? {});
  if (parsed.success && unknown.length === 0) return parsed.data;
  // zod's own "Unrecognized key" issues are replaced by the lines with a suggestion.
  const issues = parsed.success
    ? []
    : parsed.error.issues.filter((i) => !(known && i.code === "unrecognized_keys"));
  const typeOnly = unknown.length === 0 &&
    issues.every((i) => i.code === "invalid_type" && !/received undefined/.test(i.message));
  const lines = issues.map((i) => {
    const at = i.path.length ? i.path.join(".") : "(root)";
    return `- ${at}: ${i.message}`;
  });
  lines.push(...unknown);
  const names = unknown.length && known ? ` Parameters of ${tool.name}: ${known.join(", ")}.` : "";
  throw new ToolError(
    typeOnly ? "type_mismatch" : "invalid_parameters",
    `Invalid parameters for tool "${tool.name}":\n${lines.join("\n")}`,
    { hint: `Call the tool again with input that matches its parameter schema.${names}` },
  );
}
