/**
 * The generic permission engine: per-tool ordered `{pattern, action}` rules, first match wins,
 * no match asks. Session rules ("always" answers) are consulted before configured ones. A tool
 * can register an analyser (bash does) that evaluates its params in a smarter way.
 */
import {
  type Config,
  type PermissionAction,
  type PermissionRuleConfig,
  permissionRules,
} from "../config/schema.ts";
import { type CompiledGlob, compileGlob, escapeGlob } from "./glob.ts";

export interface Decision {
  action: PermissionAction;
  /** Which rule decided, for the audit's `policy_match`; null when no rule matched. */
  policyMatch: string | null;
  /** The subject the decision is about (for the ask prompt and "always" rules). */
  subject: string | null;
  /** Why, in words, when the analyser has more to say than the rule. */
  reason?: string;
  /** The pattern an "always" answer stores (the normalised command or the path). */
  alwaysPattern?: string;
}

/** What the policy reads of a tool: the registry's tool definitions have this shape. */
export interface PolicyTool {
  name: string;
  mutates: boolean;
  /** The permission subjects (command, path(s), URL) of a call's params. */
  subjects(params: unknown): string[];
  /** The subjects are paths: rules match every spelling `pathForms` gives. */
  pathSubjects?: boolean;
}

interface CompiledRule {
  glob: CompiledGlob;
  action: PermissionAction;
  label: string;
}

export interface DecideOptions {
  /**
   * Every spelling of a path subject the rules should see (workspace-relative, canonical
   * absolute, …); the first is the one shown in prompts and stored by "always" answers. Used for
   * tools with `pathSubjects`; the registry supplies it from the session's sandbox.
   */
  pathForms?: (subject: string) => Promise<string[]>;
}

/** Evaluates one tool's params against the policy (the shell analyser implements this). */
export type PermissionAnalyzer = (
  params: unknown,
  policy: PermissionPolicy,
) => Decision | Promise<Decision>;

const RANK: Record<PermissionAction, number> = { allow: 0, ask: 1, deny: 2 };

/** deny > ask > allow. */
export function mostRestrictive(decisions: Decision[]): Decision | null {
  let worst: Decision | null = null;
  for (const d of decisions) if (!worst || RANK[d.action] > RANK[worst.action]) worst = d;
  return worst;
}

export class PermissionPolicy {
  #rules = new Map<string, CompiledRule[]>();
  #session = new Map<string, CompiledRule[]>();
  #analyzers = new Map<string, PermissionAnalyzer>();

  constructor(rules: Record<string, PermissionRuleConfig[]> = {}) {
    for (const [tool, list] of Object.entries(rules)) {
      this.#rules.set(
        tool,
        list.map((r, i) => ({
          glob: compileGlob(r.pattern),
          action: r.action,
          label: `tools.permissions.${tool}[${i}] ${r.action} "${r.pattern}"`,
        })),
      );
    }
  }

  /** `[tools.permissions]` when present, else the legacy shell lists converted (spec). */
  static fromConfig(config: Config): PermissionPolicy {
    const rules = permissionRules(config);
    if (rules) return new PermissionPolicy(rules);
    return new PermissionPolicy({ bash: legacyShellRules(config) });
  }

  setAnalyzer(tool: string, analyzer: PermissionAnalyzer): void {
    this.#analyzers.set(tool, analyzer);
  }

  hasRules(tool: string): boolean {
    return (this.#rules.get(tool)?.length ?? 0) > 0;
  }

  /** A tool all of whose rules deny is hidden from the catalog. */
  isFullyDenied(tool: string): boolean {
    const rules = this.#rules.get(tool);
    return !!rules && rules.length > 0 && rules.every((r) => r.action === "deny");
  }

  /** Adds an "always" rule for this session; it is consulted before the configured rules. */
  addSessionRule(tool: string, pattern: string, action: PermissionAction): void {
    const list = this.#session.get(tool) ?? [];
    list.unshift({ glob: compileGlob(pattern), action, label: `session ${action} "${pattern}"` });
    this.#session.set(tool, list);
  }

  clearSessionRules(): void {
    this.#session.clear();
  }

  /** The first session ("always") rule matching the subject, or null (the shell analyser). */
  evaluateSession(tool: string, subject: string): Decision | null {
    for (const rule of this.#session.get(tool) ?? []) {
      if (rule.glob.test(subject)) {
        return { action: rule.action, policyMatch: rule.label, subject, alwaysPattern: subject };
      }
    }
    return null;
  }

  /**
   * First matching rule for one subject. `fallback` applies when no rule matches: `ask` for a
   * tool that has rules (spec), the caller's choice otherwise.
   */
  evaluate(tool: string, subject: string, fallback?: PermissionAction): Decision {
    return this.evaluateForms(tool, [subject], fallback);
  }

  /**
   * Like `evaluate` for a subject that has several spellings (a path): a rule matches when it
   * matches any of them. The decision names the first form, and an "always" answer stores it
   * escaped, so it approves exactly that subject and not what its characters would glob.
   */
  evaluateForms(tool: string, forms: string[], fallback?: PermissionAction): Decision {
    const subject = forms[0];
    const alwaysPattern = escapeGlob(subject);
    const matches = (rule: CompiledRule) => forms.some((f) => rule.glob.test(f));
    const configured = this.#rules.get(tool) ?? [];
    // Session "allow" rules never override a configured deny: deny rules are checked first.
    for (const rule of configured) {
      if (rule.action === "deny" && matches(rule)) {
        return { action: "deny", policyMatch: rule.label, subject, alwaysPattern };
      }
    }
    for (const rule of [...(this.#session.get(tool) ?? []), ...configured]) {
      if (matches(rule)) {
        return { action: rule.action, policyMatch: rule.label, subject, alwaysPattern };
      }
    }
    return { action: fallback ?? "ask", policyMatch: null, subject, alwaysPattern };
  }

  /** The decision for a call: the analyser when the tool has one, else every subject's rule. */
  async decide(tool: PolicyTool, params: unknown, options: DecideOptions = {}): Promise<Decision> {
    const analyzer = this.#analyzers.get(tool.name);
    if (analyzer) return await analyzer(params, this);
    const fallback = this.defaultAction(tool);
    const subjects = tool.subjects(params);
    if (subjects.length === 0) {
      return { action: fallback, policyMatch: null, subject: null };
    }
    const decisions: Decision[] = [];
    for (const s of subjects) {
      const forms = tool.pathSubjects && options.pathForms ? await options.pathForms(s) : [s];
      decisions.push(this.evaluateForms(tool.name, forms.length ? forms : [s], fallback));
    }
    return mostRestrictive(decisions)!;
  }

  /** No match: `ask` when the tool has rules; without rules, read-only tools run, mutating ask. */
  defaultAction(tool: PolicyTool): PermissionAction {
    if (this.hasRules(tool.name)) return "ask";
    return tool.mutates ? "ask" : "allow";
  }
}

/** blocked_commands → `*c*` deny, confirm_patterns → `*p*` ask, then `*` allow (spec). */
export function legacyShellRules(config: Config): PermissionRuleConfig[] {
  const shell = config.tools.shell;
  const allowed = new Set(shell.allowed_commands.map((c) => c.toLowerCase()));
  const rules: PermissionRuleConfig[] = [];
  for (const c of shell.blocked_commands) rules.push({ pattern: `*${c}*`, action: "deny" });
  for (const p of shell.confirm_patterns) {
    if (!allowed.has(p.toLowerCase())) rules.push({ pattern: `*${p}*`, action: "ask" });
  }
  rules.push({ pattern: "*", action: "allow" });
  return rules;
}
