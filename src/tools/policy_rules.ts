/**
 * The policy enforcer (spec `[tools.policy]` and `[tools.authorization]`): declarative allow/deny
 * rules over the tool id, the call's canonical paths, its string arguments and the environment,
 * checked at the dispatch boundary before `[tools.permissions]`. The rules of `[tools.policy]`
 * come first and those of `[tools.authorization]` after them; the first matching rule wins (the
 * spec's word; the reference implementation checked every deny before any allow, which makes the
 * order of rules meaningless). A deny refuses the call whatever the permissions say. An allow
 * only lets the call go on to the permission rules: it never skips an ask or a protected path.
 */
import type { PolicyRuleConfig } from "../config/mod.ts";
import { type Config, suggestKey } from "../config/lite.ts";
import { compilePattern, type Pattern } from "../filter/regex.ts";
import { type CompiledGlob, compileGlob } from "../permission/mod.ts";

export interface PolicyVerdict {
  effect: "allow" | "deny";
  /** Which rule decided and on what, for the audit's `policy_match`. */
  trace: string;
}

/** What a rule is matched against. */
export interface PolicySubject {
  tool: string;
  /** Absolute (lexical and canonical) spellings of every path the call names. */
  paths: string[];
  params: unknown;
}

interface CompiledPolicyRule {
  label: string;
  effect: "allow" | "deny";
  tool: CompiledGlob;
  paths: CompiledGlob[];
  args: Pattern | null;
  env: string[];
}

export class PolicyEnforcer {
  #rules: CompiledPolicyRule[];
  #default: "allow" | "deny";
  #defaultLabel: string;
  #env: (name: string) => string | undefined;

  constructor(
    rules: { label: string; rule: PolicyRuleConfig }[],
    options: {
      defaultEffect: "allow" | "deny";
      defaultLabel: string;
      env: (name: string) => string | undefined;
    },
  ) {
    this.#rules = rules.map(({ label, rule }) => ({
      label,
      effect: rule.effect,
      tool: compileGlob(rule.tool.trim()),
      paths: rule.paths.map(compileGlob),
      // Validated when the config loaded; RE2 runs in time linear in the argument.
      args: rule.args_match ? compilePattern(rule.args_match, "re2") : null,
      env: rule.env,
    }));
    this.#default = options.defaultEffect;
    this.#defaultLabel = options.defaultLabel;
    this.#env = options.env;
  }

  /**
   * The enforcer for `config`, or null when neither section is enabled. With only
   * `[tools.authorization]` enabled, a call no rule matches is allowed: that section adds rules
   * to a policy, it does not turn every other tool off.
   */
  static fromConfig(
    config: Config,
    env: (name: string) => string | undefined = (n) => Deno.env.get(n),
  ): PolicyEnforcer | null {
    const { policy, authorization } = config.tools;
    if (!policy.enabled && !authorization.enabled) return null;
    const fromFile = policy.policy_file.trim() !== "";
    const rules = [
      ...(policy.enabled ? policy.rules : []).map((rule, i) => ({
        label: fromFile ? `tools.policy.policy_file rules[${i}]` : `tools.policy.rules[${i}]`,
        rule,
      })),
      ...(authorization.enabled ? authorization.rules : []).map((rule, i) => ({
        label: `tools.authorization.rules[${i}]`,
        rule,
      })),
    ];
    return new PolicyEnforcer(rules, {
      defaultEffect: policy.enabled ? policy.default_effect : "allow",
      defaultLabel: policy.enabled
        ? "tools.policy.default_effect"
        : "tools.authorization (no rule matched)",
      env,
    });
  }

  /** The first matching rule's effect, else the default. */
  evaluate(subject: PolicySubject): PolicyVerdict {
    const names = namesOf(subject.tool);
    let strings: string[] | null = null;
    for (const rule of this.#rules) {
      if (!names.some((n) => rule.tool.test(n))) continue;
      if (!rule.env.every((name) => this.#env(name) !== undefined)) continue;
      let pathHit = "";
      if (rule.paths.length) {
        const hit = findPath(rule.paths, subject.paths);
        if (!hit) continue;
        pathHit = ` path "${hit.path}" ~ "${hit.glob}"`;
      }
      if (rule.args) {
        strings ??= stringsOf(subject.params);
        if (!strings.some((s) => rule.args!.test(s))) continue;
      }
      const args = rule.args ? ` args_match "${rule.args.source}"` : "";
      const env = rule.env.length ? ` env ${rule.env.join(",")}` : "";
      return {
        effect: rule.effect,
        trace: `${rule.label} ${rule.effect}: tool "${rule.tool.source}"${pathHit}${args}${env}`,
      };
    }
    return {
      effect: this.#default,
      trace: `${this.#defaultLabel} ${this.#default} (no rule matched ${subject.tool})`,
    };
  }

  /**
   * True when every call of `tool` is denied whatever its arguments: the first rule for it that
   * has no path or argument condition denies, and no conditional allow comes before it. Such a
   * tool is hidden from the model, as a tool the permissions fully deny is.
   */
  deniesAll(tool: string): boolean {
    const names = namesOf(tool);
    for (const rule of this.#rules) {
      if (!names.some((n) => rule.tool.test(n))) continue;
      if (!rule.env.every((name) => this.#env(name) !== undefined)) continue;
      const conditional = rule.paths.length > 0 || rule.args !== null;
      if (!conditional) return rule.effect === "deny";
      if (rule.effect === "allow") return false;
    }
    return this.#default === "deny";
  }
}

/** The names a rule's tool glob is tried on: the id, and for bash the spec's `shell` and `sh`. */
function namesOf(tool: string): string[] {
  const id = tool.trim().toLowerCase();
  return id === "bash" ? [id, "shell", "sh"] : [id];
}

function findPath(
  globs: CompiledGlob[],
  paths: readonly string[],
): { path: string; glob: string } | null {
  for (const p of paths) {
    for (const g of globs) if (g.test(p)) return { path: p, glob: g.source };
  }
  return null;
}

/** Every string value in the arguments, nested ones included. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) { for (const v of value) stringsOf(v, out); }
  else if (value && typeof value === "object") {
    for (const v of Object.values(value)) stringsOf(v, out);
  }
  return out;
}

/**
 * Path-like words of a command line (absolute, home-relative, or holding a `/`), for the rules'
 * `paths` globs. A word that is not a path at all cannot match an absolute glob anyway.
 */
export function commandPathWords(command: string): string[] {
  return command.split(/[\s;|&<>()'"`]+/).filter((w) =>
    w.startsWith("/") || w.startsWith("~") || w.includes("/")
  ).map((w) => w.replace(/^[A-Za-z_][A-Za-z0-9_]*=/, ""));
}

/**
 * `zeph config check` and start-up warnings: a rule whose tool id (no wildcard) names no
 * registered tool (a typo leaves the intended tool unguarded), and a policy that denies every tool.
 */
export function policyRuleWarnings(config: Config, toolNames: readonly string[]): string[] {
  const { policy, authorization } = config.tools;
  const sections = [
    ...(policy.enabled ? [{ key: "tools.policy.rules", rules: policy.rules }] : []),
    ...(authorization.enabled
      ? [{ key: "tools.authorization.rules", rules: authorization.rules }]
      : []),
  ];
  const names = toolNames.flatMap(namesOf);
  const warnings = sections.flatMap(({ key, rules }) =>
    rules.flatMap((rule, i) => {
      // A wildcard may be meant for tools registered later (MCP servers): only exact ids warn.
      if (/[*?[]/.test(rule.tool)) return [];
      const glob = compileGlob(rule.tool.trim());
      if (names.some((n) => glob.test(n))) return [];
      const guess = suggestKey(rule.tool.trim(), names);
      return [
        `${key}[${i}]: tool "${rule.tool}" names no tool, the rule applies to nothing${
          guess ? ` (did you mean "${guess}"?)` : ""
        }`,
      ];
    })
  );
  const enforcer = PolicyEnforcer.fromConfig(config);
  if (enforcer && toolNames.length && toolNames.every((t) => enforcer.deniesAll(t))) {
    warnings.push(
      '[tools.policy] denies every tool (default_effect = "deny" and no rule allows one): the ' +
        'model gets no tools. Add allow rules, or set default_effect = "allow".',
    );
  }
  return warnings;
}
