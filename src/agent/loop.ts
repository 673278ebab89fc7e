/**
 * The tool loop of one user turn: ask the model, run the tool calls it made through the
 * registry's dispatch boundary (in order), hand the results back paired with their call ids,
 * and repeat until the model answers without a call or a limit stops the turn.
 *
 * Iteration accounting (documented in README "## Agent loop"):
 * - one iteration = one model round trip that asked for tools; the turn stops with
 *   `max_iterations` when `[agent] max_tool_iterations` such iterations ran;
 * - an iteration whose results include an `invalid_parameters`/`type_mismatch` error is the
 *   model's one reformat attempt per turn: it does not count against the cap (the model is
 *   asked again with the validation errors; a second one counts normally);
 * - retries of infrastructure failures happen inside an iteration and count nowhere.
 */
import type { Config } from "../config/mod.ts";
import { formatToolError, needsParameterReformat, outcomeOf, ToolError } from "../errors/mod.ts";
import type { PermissionPolicy } from "../permission/mod.ts";
import {
  backoffDelay,
  INVALID_TOOL_INPUT,
  type InvalidToolInput,
  type Message,
  type Provider,
  ProviderError,
  providerLabel,
} from "../provider/mod.ts";
import type { Sandbox } from "../sandbox/mod.ts";
import {
  type AnyTool,
  askReply,
  type CallScope,
  isRejection,
  type ModeState,
  type OutputSummarizer,
  type SessionGuards,
  type ToolCall,
  type ToolExecutor,
  type ToolRegistry,
  type ToolResult,
  validateParams,
} from "../tools/mod.ts";
import type { AgentEvent, EventSink, StopReason } from "./events.ts";
import { extractLegacyCalls, formatLegacyResults, type RequestedCall } from "./legacy.ts";
import { ContextBudget, DoomLoopDetector, type ToolQuota } from "./limits.ts";
import { askToRepeat, RepetitionDetector } from "./repetition.ts";
import type { PlanEntry } from "../store/mod.ts";
import { dependencyRefusal, offerTools } from "./tool_selection.ts";

/** What a turn reads and updates: an agent session (session.ts) as the loop sees it. */
export interface TurnSession {
  readonly provider: Provider;
  readonly registry: ToolRegistry;
  readonly config: Config;
  readonly cwd: string;
  readonly sandbox: Sandbox;
  readonly policy: PermissionPolicy;
  readonly executor?: ToolExecutor;
  readonly quota: ToolQuota;
  readonly guards?: SessionGuards;
  readonly callerId: string | null;
  readonly isRetryableTool: (tool: AnyTool) => boolean;
  readonly random: () => number;
  readonly cancelGraceMs: number;
  /** Which tools the model is sent and may run ([tools] enabled, the current mode). */
  readonly modes?: ModeState;
  readonly summarize?: OutputSummarizer;
  readonly ask?: CallScope["ask"];
  readonly conversationId: string | null;
  readonly messages: readonly Message[];
  /** Tools that completed successfully in this session (`[tools.dependencies]` requires). */
  readonly completedTools: Set<string>;
  /** Creates the stored conversation on first use and returns its id. */
  ensureConversation(title: string): Promise<string>;
  /** Appends a message to the transcript and persists it. */
  append(message: Message): Promise<void>;
  /** Keeps the plan an update_plan call set, with the conversation. */
  setPlan(entries: PlanEntry[]): Promise<void>;
  systemPrompt(): string;
}

export interface PromptOptions {
  sink: EventSink;
  signal?: AbortSignal;
}

/** Runs one user turn of `session`; events go to `options.sink`. */
export async function runTurn(
  session: TurnSession,
  input: string,
  options: PromptOptions,
): Promise<StopReason> {
  const sink = options.sink;
  const signal = options.signal ?? new AbortController().signal;
  const config = session.config;
  const notice = (level: "debug" | "info" | "warn" | "error", code: string, message: string) =>
    sink({ type: "notice", level, code, message });
  const stop = (stopReason: StopReason): StopReason => {
    sink({ type: "turn_end", stopReason });
    return stopReason;
  };

  if (input.trim() === "") {
    // An empty user message would stay in the transcript, and some providers (Claude) reject
    // every later request of a conversation that holds one.
    notice("warn", "empty_prompt", "Nothing to do: the prompt is empty.");
    return stop("end_turn");
  }
  await session.ensureConversation(input);
  // A transcript that ends with calls but no results (zeph was killed mid-tool, then resumed)
  // is one every provider rejects: the calls get their one result first, and it is persisted.
  const unanswered = unansweredCalls(session.messages);
  if (unanswered.length) {
    await session.append({
      role: "user",
      parts: unanswered.map((c) => ({
        type: "tool_result" as const,
        callId: c.id,
        text: synthetic(
          c,
          new ToolError(
            "cancelled",
            `Cannot run ${c.name}: zeph stopped before this call finished (the session ended mid-turn)`,
          ),
        ).text,
        isError: true,
      })),
    });
  }
  await session.append({ role: "user", parts: [{ type: "text", text: input }] });
  session.guards?.beginTurn();

  const legacy = !session.provider.supportsToolUse;
  const max = config.agent.max_tool_iterations;
  const doom = new DoomLoopDetector(config.agent.doom_loop_threshold);
  const repetition = new RepetitionDetector(config.agent.repeat_threshold);
  const budget = new ContextBudget(
    config.agent.context_budget_tokens,
    config.agent.context_budget_ratio,
  );
  let counted = 0;
  let reformatUsed = false;
  let quotaBlockedBefore = false;
  let round = 0;
  const reported = new Set<string>();

  while (true) {
    if (signal.aborted) return stop("cancelled");
    if (counted >= max) {
      notice(
        "warn",
        "max_iterations",
        `Stopped after ${max} tool iterations ([agent] max_tool_iterations = ${max}). ` +
          'Say "continue" to go on, or raise the limit (env ZEPH_AGENT_MAX_TOOL_ITERATIONS).',
      );
      return stop("max_iterations");
    }
    round++;
    // Read every round: a switch_mode in the last batch changes what this request carries.
    const candidates = session.registry.visible(session.policy, session.modes, session.guards);
    const offer = offerTools(session, candidates, { query: input, legacy, notice, reported });
    if (!offer) return stop("error");
    const tools = offer.tools;
    const system = session.systemPrompt();
    const messages = [...session.messages];
    const tokens = budget.estimate({ system, messages, tools });
    if (budget.exceeded(tokens)) {
      notice(
        "warn",
        "context_budget",
        `Stopping: the context is nearly full (about ${tokens} tokens of ` +
          `${config.agent.context_budget_tokens}, limit ${budget.limit} = ` +
          `${config.agent.context_budget_ratio * 100}%). Run /clear to start a fresh conversation.`,
      );
      return stop("context_budget");
    }

    let streamed = false;
    let response;
    try {
      response = await session.provider.chat({
        system,
        messages,
        tools,
        signal,
        onText: (text) => {
          streamed = true;
          sink({ type: "text", text });
        },
        onRetry: (r) =>
          notice(
            "info",
            "provider_retry",
            `Retrying the model request in ${r.delayMs} ms after ${r.error.category} ` +
              `(retry ${r.attempt} of ${r.maxAttempts}): ${r.error.message}`,
          ),
      });
    } catch (error) {
      if (signal.aborted) return stop("cancelled");
      if (error instanceof ProviderError) {
        // Message and hint are two sentences: "…: connection refused. Start Ollama …".
        const message = error.hint ? `${asSentence(error.message)} ${error.hint}` : error.message;
        sink({
          type: "notice",
          level: "error",
          code: "provider_error",
          message: `${providerLabel(session.provider)}: ${message}`,
          category: error.category,
        });
        return stop("error");
      }
      throw error;
    }
    if (!streamed && response.text) sink({ type: "text", text: response.text });
    if (response.usage) {
      sink({ type: "usage", usage: response.usage });
      budget.recordUsage(
        response.usage.inputTokens + response.usage.outputTokens,
        messages.length,
      );
    }

    const calls: RequestedCall[] = legacy
      ? extractLegacyCalls(
        response.text,
        session.registry.visible(session.policy, session.modes, session.guards),
        { idPrefix: `legacy_${round}` },
      )
      : response.toolCalls.map((c) => nativeCall(c, offer.strip));

    const parts: Message["parts"] = [];
    if (response.text) parts.push({ type: "text", text: response.text });
    if (!legacy) {
      for (const c of calls) {
        parts.push({ type: "tool_call", id: c.id, name: c.name, input: c.input });
      }
    }
    if (parts.length === 0) {
      notice("warn", "empty_response", "The model returned an empty answer.");
      return stop("end_turn");
    }
    await session.append({ role: "assistant", parts });
    if (calls.length === 0) return stop("end_turn");
    counted++;

    const batch = await runBatch(session, calls, { sink, signal, repetition });
    await session.append(
      legacy
        ? { role: "user", parts: [{ type: "text", text: formatLegacyResults(batch.results) }] }
        : {
          role: "user",
          parts: batch.results.map((r) => ({
            type: "tool_result" as const,
            callId: r.callId,
            text: r.text,
            isError: !r.ok,
          })),
        },
    );
    if (batch.cancelled || signal.aborted) return stop("cancelled");
    if (batch.reasonFollows) {
      // The front-end's rejection carried no words: the turn ends here, so the user's next
      // prompt comes right after the rejected call and the model reads the two together.
      notice(
        "info",
        "rejected",
        "The call was rejected; zeph waits for your next message (it may say why).",
      );
      return stop("end_turn");
    }

    if (batch.quotaBlocked) {
      if (quotaBlockedBefore) return stop("quota");
      quotaBlockedBefore = true;
    } else quotaBlockedBefore = false;

    const reformat = batch.results.some((r) => r.category && needsParameterReformat(r.category));
    if (reformat && !reformatUsed) {
      reformatUsed = true;
      counted--;
      notice(
        "info",
        "reformat_attempt",
        "The model sent invalid tool parameters; it gets one attempt to correct them " +
          "(not counted against max_tool_iterations).",
      );
    }

    if (doom.record(batch.results)) {
      notice(
        "warn",
        "doom_loop",
        `Stopping: ${doom.threshold} consecutive tool iterations produced identical output.`,
      );
      return stop("doom_loop");
    }
  }
}

interface BatchOptions {
  sink: EventSink;
  signal: AbortSignal;
  repetition: RepetitionDetector;
}

interface BatchResult {
  results: ToolResult[];
  cancelled: boolean;
  quotaBlocked: boolean;
  /** A call was rejected by a front-end whose answer carries no words (ACP). */
  reasonFollows?: boolean;
}

/** Runs one model answer's calls in order; every call gets exactly one result. */
async function runBatch(
  session: TurnSession,
  calls: RequestedCall[],
  options: BatchOptions,
): Promise<BatchResult> {
  const { sink, signal, repetition } = options;
  const results: ToolResult[] = [];
  let reasonFollows = false;
  const ask: CallScope["ask"] = session.ask && (async (request) => {
    const reply = askReply(await session.ask!(request));
    if (reply.reasonFollows && isRejection(reply.answer)) reasonFollows = true;
    return reply;
  });
  const scope: CallScope = {
    cwd: session.cwd,
    sandbox: session.sandbox,
    signal,
    conversationId: session.conversationId,
    callerId: session.callerId,
    emit: (event) => {
      if (event.type === "output") {
        sink({
          type: "tool_output",
          callId: event.callId,
          tool: event.tool,
          stream: event.stream,
          chunk: event.chunk,
        });
      } else {
        sink({
          type: "notice",
          level: "info",
          code: "tool_notice",
          message: `${event.tool}: ${event.message}`,
        });
      }
    },
    ask,
    executor: session.executor,
    policy: session.policy,
    modes: session.modes,
    summarize: session.summarize,
    guards: session.guards,
  };

  if (!session.quota.admit(calls.length)) {
    const max = session.quota.max;
    sink({
      type: "notice",
      level: "warn",
      code: "quota",
      message: `Tool call quota reached ([tools] max_tool_calls_per_session = ${max}); ` +
        `${calls.length} call(s) refused. Run /clear to reset it.`,
    });
    for (const call of calls) {
      sink(startEvent(session, call));
      const result = synthetic(
        call,
        new ToolError(
          "policy_blocked",
          `Cannot run ${call.name}: quota_blocked, the session's tool call quota ` +
            `(${max}) is used up`,
          { hint: "Do not call tools again; answer the user with what you have." },
        ),
      );
      await session.registry.record(call, result, scope);
      sink({ type: "tool_end", result });
      results.push(result);
    }
    return { results, cancelled: false, quotaBlocked: true };
  }

  let cancelled = false;
  for (const call of calls) {
    if (signal.aborted) {
      cancelled = true;
      const result = cancelledResult(call, "it was not started");
      await session.registry.record(call, result, scope);
      results.push(result);
      continue;
    }
    if (reasonFollows) {
      const result = synthetic(
        call,
        new ToolError(
          "policy_blocked",
          `Cannot run ${call.name}: not started, the user rejected an earlier call of this answer`,
          { hint: "Read the user's next message and follow it." },
        ),
      );
      await session.registry.record(call, result, scope);
      results.push(result);
      continue;
    }
    sink(startEvent(session, call));
    let result: ToolResult;
    const hidden = dependencyRefusal(
      call.name,
      session.config.tools.dependencies,
      session.completedTools,
    );
    if (hidden) {
      result = synthetic(call, hidden);
      await session.registry.record(call, result, scope);
    } else if (call.parseError) {
      result = synthetic(
        call,
        new ToolError("invalid_parameters", `Cannot run ${call.name}: ${call.parseError}`, {
          hint: "Call the tool again with arguments that are one valid JSON object.",
        }),
      );
      await session.registry.record(call, result, scope);
    } else {
      const count = repetition.record(call.name, call.input);
      const tool = session.registry.get(call.name);
      const refused = count && tool
        ? await askToRepeat(call, { tool, count, detector: repetition, ask })
        : null;
      if (refused) {
        // A user who said stop knows; a run refused with no one to ask is worth a notice.
        if (!ask) {
          sink({
            type: "notice",
            level: "warn",
            code: "repetition",
            message: `${call.name} not run: ${count} identical calls in a row ` +
              `(repeat_threshold = ${repetition.limit}).`,
          });
        }
        result = synthetic(call, refused);
        await session.registry.record(call, result, scope);
      } else {
        result = await dispatchWithRetry(session, call, scope, sink);
        if (result.ok) session.completedTools.add(call.name);
      }
    }
    if (result.outcome === "cancelled" || signal.aborted) cancelled = true;
    sink({ type: "tool_end", result });
    if (result.alert) {
      const level = result.alert.severity === "critical" ? "error" : "warn";
      sink({ type: "notice", level, code: "anomaly", message: result.alert.message });
    }
    results.push(result);
    const plan = result.ok ? result.output?.plan : undefined;
    if (plan) {
      await session.setPlan(plan);
      sink({ type: "plan", entries: plan });
    }
  }
  return { results, cancelled, quotaBlocked: false, reasonFollows };
}

/** The calls of a final assistant message: nothing answered them. */
function unansweredCalls(messages: readonly Message[]): RequestedCall[] {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return [];
  return last.parts.flatMap((p) =>
    p.type === "tool_call" ? [{ id: p.id, name: p.name, input: p.input }] : []
  );
}

/**
 * A call whose arguments were not valid JSON (the adapter marks it) is reported, not run; the
 * TAFC `thinking` field leaves the call here, before the transcript, audit or display see it.
 */
function nativeCall(
  c: { id: string; name: string; input: unknown },
  strip: (name: string, input: unknown) => unknown,
): RequestedCall {
  const input = c.input as Record<string, unknown> | null;
  const bad = input && typeof input === "object" && INVALID_TOOL_INPUT in input
    ? input[INVALID_TOOL_INPUT] as InvalidToolInput
    : null;
  if (!bad) return { id: c.id, name: c.name, input: strip(c.name, c.input) };
  return {
    id: c.id,
    name: c.name,
    input: c.input,
    parseError: `the arguments are not valid JSON (${bad.error})`,
  };
}

function startEvent(session: TurnSession, call: RequestedCall): AgentEvent {
  const tool = session.registry.get(call.name);
  let subjects: string[] = [];
  if (tool) {
    try {
      subjects = tool.subjects(validateParams(tool, call.input));
    } catch {
      // Invalid params: the dispatch reports them; the title just has no subject.
    }
  }
  return {
    type: "tool_start",
    callId: call.id,
    tool: call.name,
    kind: tool?.kind ?? "other",
    input: call.input,
    subjects,
  };
}

/**
 * Dispatches once, then retries infrastructure failures (retryable categories) of retryable
 * tools with full-jitter backoff under `[tools.retry]`. The sleep ends early on cancel.
 */
async function dispatchWithRetry(
  session: TurnSession,
  call: ToolCall,
  scope: CallScope,
  sink: EventSink,
): Promise<ToolResult> {
  const signal = scope.signal!;
  const retry = session.config.tools.retry;
  const tool = session.registry.get(call.name);
  const started = Date.now();
  let result = await dispatchCancellable(session, call, scope);
  for (let attempt = 0; attempt < retry.max_attempts; attempt++) {
    if (result.ok || !result.retryable || !tool || !session.isRetryableTool(tool)) break;
    if (signal.aborted) break;
    if (retry.budget_secs > 0 && Date.now() - started >= retry.budget_secs * 1000) break;
    const delay = backoffDelay(attempt, retry, session.random);
    sink({
      type: "notice",
      level: "info",
      code: "tool_retry",
      message: `Retrying ${call.name} in ${delay} ms after ${result.category} ` +
        `(attempt ${attempt + 2} of ${retry.max_attempts + 1})`,
    });
    await abortableSleep(delay, signal);
    if (signal.aborted) break;
    result = await dispatchCancellable(session, call, scope);
  }
  return result;
}

/**
 * The registry call, raced against cancellation: a tool that honours the signal returns its
 * own cancelled result; one that does not gets `session.cancelGraceMs` before the loop synthesises
 * the cancelled result and moves on.
 */
function dispatchCancellable(
  session: TurnSession,
  call: ToolCall,
  scope: CallScope,
): Promise<ToolResult> {
  const signal = scope.signal!;
  const running = session.registry.dispatch(call, scope);
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      timer = setTimeout(
        () =>
          resolve(
            cancelledResult(
              call,
              `it did not stop within ${session.cancelGraceMs} ms of the cancel`,
            ),
          ),
        session.cancelGraceMs,
      );
    };
    const cleanup = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    running.then(
      (r) => {
        cleanup();
        resolve(r);
      },
      (e) => {
        cleanup();
        reject(e);
      },
    );
  });
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

function synthetic(call: RequestedCall, error: ToolError): ToolResult {
  const outcome = outcomeOf(error.category);
  return {
    callId: call.id,
    tool: call.name,
    ok: false,
    text: formatToolError(error),
    category: error.category,
    error: error.message,
    retryable: error.retryable,
    outcome,
    durationMs: 0,
  };
}

function cancelledResult(call: RequestedCall, why: string): ToolResult {
  return synthetic(
    call,
    new ToolError("cancelled", `Cannot run ${call.name}: the turn was cancelled and ${why}`),
  );
}

/** `text` ending in a full stop (unless it ends in one already, or in ! or ?). */
function asSentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
