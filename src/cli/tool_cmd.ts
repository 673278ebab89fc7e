/**
 * `zeph tool <id> '<json>'`: one call through the dispatch boundary (validation, permission,
 * executor, hooks), exactly as the agent would make it. Exit 0 ok, 1 tool error, 2 bad usage.
 */
import { CliError } from "./errors.ts";
import type { CliDeps, CliProgram } from "./mod.ts";
import { globalsOf } from "./mod.ts";

export function register(program: CliProgram, deps: CliDeps): void {
  program
    .command("tool")
    .description("run one tool call and print its result")
    .argument("<id>", "tool id, e.g. read")
    .argument("[input]", "JSON object with the tool's parameters", "{}")
    .option("--json", 'print {"tool","ok","output","category","error"}')
    .action(async (id, inputText, _opts, command) => {
      const globals = globalsOf(command);
      let input: unknown;
      try {
        input = JSON.parse(inputText);
      } catch (error) {
        throw new CliError(
          `Cannot parse the tool input as JSON: ${(error as Error).message}. ` +
            `Pass one JSON object, e.g. zeph tool read '{"path": "README.md"}'.`,
        );
      }
      if (typeof input !== "object" || input === null || Array.isArray(input)) {
        throw new CliError(
          `The tool input must be a JSON object, not ${
            Array.isArray(input) ? "an array" : String(input === null ? "null" : typeof input)
          }. ` +
            `Example: zeph tool read '{"path": "README.md"}'.`,
        );
      }
      const runtime = await deps.buildRuntime(globals);
      try {
        const controller = new AbortController();
        const onSignal = () => controller.abort();
        Deno.addSignalListener("SIGINT", onSignal);
        let result;
        try {
          result = await runtime.registry.dispatch(
            { id: `cli-${crypto.randomUUID()}`, name: id, input },
            runtime.session({ signal: controller.signal }),
          );
        } finally {
          Deno.removeSignalListener("SIGINT", onSignal);
        }
        if (globals.json) {
          console.log(JSON.stringify({
            tool: id,
            ok: result.ok,
            output: result.text,
            category: result.category ?? null,
            error: result.error ?? null,
          }));
        } else if (result.ok) {
          console.log(result.text);
        } else {
          console.error(result.text);
        }
        deps.status.exitCode = result.ok ? 0 : 1;
      } finally {
        await runtime.close();
      }
    });
}
