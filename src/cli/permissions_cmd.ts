/**
 * `zeph permissions check '<command>'`: what the permission policy decides for a bash command
 * (or, with `--tool`, for a file tool's path) without running anything: the decision, the rule
 * or reason that made it, and every simple command the shell analysis found, normalised, with
 * its effect. Exit 0 whatever the decision; 2 for bad usage or config.
 */
import type { Decision } from "../permission/mod.ts";
import { CliError } from "./errors.ts";
import type { CommandDeps } from "./deps.ts";
import { type CliProgram, globalsOf } from "./program.ts";

export function register(program: CliProgram, deps: CommandDeps): void {
  const permissions = program.command("permissions").description(
    "inspect permission decisions",
  );
  permissions
    .command("check")
    .description("show what the policy decides for a command (or a path with --tool), and why")
    .argument("<subject>", "a bash command line, or a path with --tool")
    .option("--tool <id>", "the tool to check (default: bash); file tools take a path", "bash")
    .option("--json", 'print {"tool","subject","decision","rule","reason","commands"}')
    .action(async (subject, opts, command) => {
      const globals = globalsOf(command);
      const runtime = await deps.buildRuntime(globals);
      try {
        const tool = runtime.registry.get(opts.tool);
        if (!tool) {
          const known = runtime.registry.all().map((t) => t.name).join(", ");
          throw new CliError(`Unknown tool "${opts.tool}". Tools: ${known}.`);
        }
        // The subject stands for the call's params: bash's command, a file tool's path.
        const decision = await runtime.policy.decide(
          { ...tool, subjects: () => [subject] },
          tool.name === "bash" ? { command: subject } : { path: subject },
          { pathForms: (s) => runtime.sandbox.pathForms(s, globals.cwd) },
        );
        console.log(
          globals.json ? JSON.stringify(toJson(tool.name, subject, decision)) : render(
            tool.name,
            subject,
            decision,
          ),
        );
      } finally {
        await runtime.close();
      }
    });
}

function toJson(tool: string, subject: string, d: Decision) {
  return {
    tool,
    subject,
    decision: d.action,
    rule: d.policyMatch,
    reason: d.reason ?? null,
    commands: d.commands?.map((c) => ({
      command: c.command,
      effect: c.effect.effect,
      why: c.effect.reason,
      context: c.context ?? [],
    })) ?? null,
  };
}

const WIDTH = 80;

/** Word-wraps `text` to WIDTH columns: `first` starts line one, `indent` the ones after. */
function wrap(first: string, text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(" ")) {
    const sep = line === first || line === indent ? "" : " ";
    if (line.length + sep.length + word.length > WIDTH && line !== first && line !== indent) {
      lines.push(line);
      line = indent + word;
    } else line += sep + word;
  }
  lines.push(line);
  return lines;
}

function render(tool: string, subject: string, d: Decision): string {
  const lines = [
    ...wrap(`${d.action.toUpperCase()}  `, `${tool} ${JSON.stringify(subject)}`, "      "),
    ...wrap("  rule:   ", d.policyMatch ?? "no rule matched", "          "),
  ];
  if (d.reason) {
    for (const [i, part] of d.reason.split("; ").entries()) {
      lines.push(...wrap(i === 0 ? "  reason: " : "          ", part, "          "));
    }
  }
  if (d.commands) {
    lines.push(`  simple commands (${d.commands.length}):`);
    for (const c of d.commands) {
      const where = c.context?.length ? `  [inside ${c.context.join(" → ")}]` : "";
      lines.push(
        ...wrap("    ", `${c.command}${where}`, "        "),
        ...wrap(`      ${c.effect.effect}: `, c.effect.reason, "        "),
      );
    }
  }
  return lines.join("\n");
}
