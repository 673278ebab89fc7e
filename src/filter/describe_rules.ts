/**
 * `zeph filter --rules`: the rules as loaded, in the order they run — which a rule writer needs
 * to pick a name that replaces a built-in (or one that does not), to switch one off, and to see
 * that their own rules loaded and where they stand.
 */
import type { CompiledRule } from "./rule.ts";

/** One line per rule: name, strategy, matcher, where it was written (and what it replaced). */
export function describeRules(rules: readonly CompiledRule[]): string[] {
  const builtin = rules.filter((r) => r.source.startsWith("built-in")).length;
  const files = [...new Set(rules.map((r) => r.source).filter((s) => !s.startsWith("built-in")))];
  const nameWidth = Math.min(32, Math.max(4, ...rules.map((r) => r.name.length)));
  const typeWidth = Math.max(...rules.map((r) => r.strategy.type.length), 4);
  const out = [
    `# ${builtin} built-in rule${builtin === 1 ? "" : "s"}${
      files.length
        ? `, ${rules.length - builtin} from ${files.join(", ")}`
        : " (no rules of yours loaded)"
    }; every rule whose matcher matches a command runs, in this order`,
  ];
  for (const rule of rules) {
    const at = rule.at ?? rule.source;
    const replaced = rule.replaces ? `, replaces ${rule.replaces}` : "";
    out.push(
      `${rule.name.padEnd(nameWidth)}  ${rule.strategy.type.padEnd(typeWidth)}  ${
        rule.matchText ?? "?"
      }  (${at}${replaced})`,
    );
  }
  return out;
}
