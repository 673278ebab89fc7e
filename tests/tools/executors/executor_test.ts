import { expect } from "expect";
import {
  CompositeExecutor,
  LocalExecutor,
  type ToolExecutor,
} from "../../../src/tools/executors/mod.ts";
import type { AnyTool, ToolContext } from "../../../src/tools/tool.ts";
import { bashLikeTool, echoTool, makeRegistry } from "../_fixtures.ts";

/** An executor that handles the named tools and says who ran them. */
function named(name: string, tools: string[] | "all", closed: string[] = []): ToolExecutor {
  return {
    name,
    handles: (tool: AnyTool) => tools === "all" || tools.includes(tool.name),
    execute: (tool: AnyTool) => Promise.resolve({ text: `${name}:${tool.name}` }),
    close: () => {
      closed.push(name);
    },
  };
}

const ctx = {} as ToolContext;

Deno.test("composite: the first executor that handles the tool runs it", async () => {
  const composite = new CompositeExecutor([named("worker", ["echo"]), named("local", "all")]);
  expect((await composite.execute(echoTool(), {}, ctx)).text).toBe("worker:echo");
  expect((await composite.execute(bashLikeTool, {}, ctx)).text).toBe("local:bash");
  expect(composite.handles(bashLikeTool, ctx)).toBe(true);
});

Deno.test("composite: prepend puts an editor-backed executor in front", async () => {
  const composite = new CompositeExecutor([named("worker", ["echo"]), named("local", "all")]);
  composite.prepend(named("editor", ["bash"]));
  expect(composite.executors.map((e) => e.name)).toEqual(["editor", "worker", "local"]);
  expect((await composite.execute(bashLikeTool, {}, ctx)).text).toBe("editor:bash");
  expect((await composite.execute(echoTool(), {}, ctx)).text).toBe("worker:echo");
});

Deno.test("composite: replace swaps the executor with the same name, at runtime", async () => {
  const composite = new CompositeExecutor([named("worker", ["echo"]), named("local", "all")]);
  expect(composite.replace(named("worker", []))).toBe(true);
  expect((await composite.execute(echoTool(), {}, ctx)).text).toBe("local:echo");
  expect(composite.replace(named("absent", "all"))).toBe(false);
  expect(composite.executors.map((e) => e.name)).toEqual(["worker", "local"]);
});

Deno.test("composite: no executor handles the tool → a clear error; close closes all", async () => {
  const closed: string[] = [];
  const composite = new CompositeExecutor([named("a", [], closed), named("b", ["x"], closed)]);
  expect(composite.handles(echoTool(), ctx)).toBe(false);
  await expect(composite.execute(echoTool(), {}, ctx)).rejects.toThrow(
    'No executor handles tool "echo"',
  );
  await composite.close();
  expect(closed).toEqual(["a", "b"]);
});

Deno.test("composite behind the registry: swapping an executor changes the next dispatch", async () => {
  const composite = new CompositeExecutor([new LocalExecutor()]);
  const { registry, scope } = await makeRegistry([echoTool()], { executor: composite });
  const first = await registry.dispatch({ id: "1", name: "echo", input: { path: "p" } }, scope);
  composite.prepend(named("editor", ["echo"]));
  const second = await registry.dispatch({ id: "2", name: "echo", input: { path: "p" } }, scope);
  expect([first.text, second.text]).toEqual(["p", "editor:echo"]);
});
