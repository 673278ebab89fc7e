/**
 * Executors run a validated, permitted call. A composite tries its executors in order and the
 * first that handles the tool runs it; an ACP session puts editor-backed executors in front of
 * the local ones without the loop or the registry knowing (the spec's DynExecutor idea).
 */
import type { AnyTool, ToolContext, ToolOutput } from "../tool.ts";

export interface ToolExecutor {
  readonly name: string;
  /** Whether this executor runs the given tool (decided per call, e.g. per client capability). */
  handles(tool: AnyTool, ctx: ToolContext): boolean;
  execute(tool: AnyTool, params: unknown, ctx: ToolContext): Promise<ToolOutput>;
  /** Releases workers, processes and handles. */
  close?(): Promise<void> | void;
}

/** Runs the tool's own `execute` in this thread. */
export class LocalExecutor implements ToolExecutor {
  readonly name = "local";
  handles(): boolean {
    return true;
  }
  execute(tool: AnyTool, params: unknown, ctx: ToolContext): Promise<ToolOutput> {
    return tool.execute(params, ctx);
  }
}

export class CompositeExecutor implements ToolExecutor {
  readonly name = "composite";
  #executors: ToolExecutor[];

  constructor(executors: ToolExecutor[]) {
    this.#executors = [...executors];
  }

  get executors(): readonly ToolExecutor[] {
    return this.#executors;
  }

  /** Puts an executor in front of the others (editor-backed ones go first). */
  prepend(executor: ToolExecutor): void {
    this.#executors.unshift(executor);
  }

  /** Swaps the executor with the same name at runtime; returns whether one was replaced. */
  replace(executor: ToolExecutor): boolean {
    const i = this.#executors.findIndex((e) => e.name === executor.name);
    if (i < 0) return false;
    this.#executors[i] = executor;
    return true;
  }

  handles(tool: AnyTool, ctx: ToolContext): boolean {
    return this.#executors.some((e) => e.handles(tool, ctx));
  }

  // async: a missing executor rejects like any other failure instead of throwing synchronously.
  async execute(tool: AnyTool, params: unknown, ctx: ToolContext): Promise<ToolOutput> {
    const executor = this.#executors.find((e) => e.handles(tool, ctx));
    if (!executor) throw new Error(`No executor handles tool "${tool.name}"`);
    return await executor.execute(tool, params, ctx);
  }

  async close(): Promise<void> {
    for (const e of this.#executors) await e.close?.();
  }
}
