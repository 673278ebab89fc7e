/**
 * The generic permission engine: per-tool ordered `{pattern, action}` rules, the first match wins
 * (a deny included: order is the user's), no match asks. Session rules ("always" answers) are
 * consulted before configured ones. A tool can register an analyser (bash does) that evaluates
 * its params in a smarter way. The autonomy level (readonly, supervised, full) applies on top.
 */
import {
  type Autonomy,
  type Config,
  DEFAULT_PROTECTED_PATHS,
  type PermissionAction,
  type PermissionRuleConfig,
  permissionRules,
} from "../config/lite.ts";
import { type CompiledProtected, compileProtected, protectedMatch } from "./_command_tables.ts";
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
  /**
   * An ask only a person may answer (a write to a protected path): full autonomy leaves it an
   * ask, and a front-end that approves asks by itself (`--yes`) must refuse it.
   */
  humanOnly?: boolean;
  /** Each simple command of a bash call with its effect (`permissions check`, readonly mode). */
  commands?: { command: string; effect: CommandEffect; context?: string[] }[];
}

/** What a simple command does: the shell analysis classifies, the autonomy level decides. */
export interface CommandEffect {
  effect: "read_only" | "destructive" | "other";
  /** Why, in words ("git clean deletes untracked files"). */
  reason: string;
}

export interface PolicyOptions {
  /** `[tools.permissions] autonomy`; `--yes` runs one invocation as `full`. */
  autonomy?: Autonomy;
  /** Workspace-relative globs the mutating file tools ask before writing, even when allowed. */
  protectedPaths?: readonly string[];
  /**
   * Shell commands run inside an OS sandbox: in supervised mode without bash rules, commands
   * that are neither read-only nor destructive then run unasked (the confinement is the guard)
   * instead of following the legacy confirm patterns. Set by whoever provides the sandbox; a
   * function is asked only when a decision needs it (probing the sandbox spawns a process).
   */
  unaskedInSandbox?: boolean | (() => boolean);
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
   * tools with `pathSubjects`; the registry supplies it from the caller's sandbox.
   */
  pathForms?: (subject: string) => Promise<string[]>;
}

/**
 * Whether a path (as a command names it) exists, through `pathForms`: a redirect into a file
 * that does not exist yet creates it rather than overwriting it. Without `pathForms`, or when
 * the path cannot be resolved, the answer is "exists" (fail closed).
 */
export async function pathExists(options: DecideOptions, target: string): Promise<boolean> {
  if (!options.pathForms) return true;
  const forms = await options.pathForms(target);
  const absolute = forms.filter((f) => f.startsWith("/"));
  if (absolute.length === 0) return true;
  for (const f of absolute) {
    try {
      await Deno.lstat(f);
      return true;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) return true;
    }
  }
  return false;
}

/** Evaluates one tool's params against the policy (the shell analyser implements this). */
export type PermissionAnalyzer = (
  params: unknown,
  policy: PermissionPolicy,
  options: DecideOptions,
) => Decision | Promise<Decision>;

const RANK: Record<PermissionAction, number> = { allow: 0, ask: 1, deny: 2 };

/** deny > ask > allow. */
export function mostRestrictive(decisions: Decision[]): Decision | null {
  let worst: Decision | null = null;
  for (const d of decisions) if (!worst || RANK[d.action] > RANK[worst.action]) worst = d;
  // An ask that only a person may answer keeps that mark whichever ask is shown.
  if (worst?.action === "ask" && !worst.humanOnly) {
    if (decisions.some((d) => d.action === "ask" && d.humanOnly)) {
      worst = { ...worst, humanOnly: true };
    }
  }
  return worst;
}

export class PermissionPolicy {
  #rules = new Map<string, CompiledRule[]>();
  #session = new Map<string, CompiledRule[]>();
  #analyzers = new Map<string, PermissionAnalyzer>();
  #protected: CompiledProtected[];
  readonly autonomy: Autonomy;
  #unaskedInSandbox: () => boolean;

  constructor(rules: Record<string, PermissionRuleConfig[]> = {}, options: PolicyOptions = {}) {
    this.autonomy = options.autonomy ?? "supervised";
    const sandboxed = options.unaskedInSandbox ?? false;
    this.#unaskedInSandbox = typeof sandboxed === "function" ? sandboxed : () => sandboxed;
    this.#protected = compileProtected(options.protectedPaths ?? DEFAULT_PROTECTED_PATHS);
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

  /** Whether commands no rule decides run unasked, inside the OS sandbox (PolicyOptions). */
  get unaskedInSandbox(): boolean {
    return this.#unaskedInSandbox();
  }

  /**
   * `[tools.permissions]` rule lists when there are any, else the legacy shell lists converted
   * (spec); `overrides` win over the config's settings (`--yes` sets autonomy "full").
   */
  static fromConfig(config: Config, overrides: PolicyOptions = {}): PermissionPolicy {
    const rules = permissionRules(config.tools.permissions) ?? { bash: legacyShellRules(config) };
    return new PermissionPolicy(rules, {
      autonomy: config.tools.permissions.autonomy,
      protectedPaths: config.tools.permissions.protected_paths,
      ...overrides,
    });
  }

  setAnalyzer(tool: string, analyzer: PermissionAnalyzer): void {
    this.#analyzers.set(tool, analyzer);
  }

  hasRules(tool: string): boolean {
    return (this.#rules.get(tool)?.length ?? 0) > 0;
  }

  /**
   * A tool all of whose rules deny is hidden from the catalog; so is, at autonomy "readonly", a
   * mutating tool without an analyser (bash stays: its read-only commands run).
   */
  isFullyDenied(tool: string, mutates = false): boolean {
    if (this.autonomy === "readonly" && mutates && !this.#analyzers.has(tool)) return true;
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
    const configured = (this.#rules.get(tool) ?? []).find(matches);
    // The first matching configured rule wins (spec). Session "always" rules are consulted before
    // it, except that a session allow never lifts a configured deny.
    if (configured?.action === "deny") {
      return { action: "deny", policyMatch: configured.label, subject, alwaysPattern };
    }
    const rule = (this.#session.get(tool) ?? []).find(matches) ?? configured;
    if (rule) return { action: rule.action, policyMatch: rule.label, subject, alwaysPattern };
    return { action: fallback ?? "ask", policyMatch: null, subject, alwaysPattern };
  }

  /**
   * The decision for a call: the analyser when the tool has one, else every subject's rule (a
   * protected path lifts a mutating file tool's allow to ask); then the autonomy level.
   */
  async decide(tool: PolicyTool, params: unknown, options: DecideOptions = {}): Promise<Decision> {
    const analyzer = this.#analyzers.get(tool.name);
    const decision = analyzer
      ? await analyzer(params, this, options)
      : await this.#decideSubjects(tool, params, options);
    return this.#applyAutonomy(tool, decision);
  }

  async #decideSubjects(
    tool: PolicyTool,
    params: unknown,
    options: DecideOptions,
  ): Promise<Decision> {
    const fallback = this.defaultAction(tool);
    const subjects = tool.subjects(params);
    if (subjects.length === 0) {
      return { action: fallback, policyMatch: null, subject: null };
    }
    const decisions: Decision[] = [];
    for (const s of subjects) {
      const found = tool.pathSubjects && options.pathForms ? await options.pathForms(s) : [s];
      const forms = found.length ? found : [s];
      let d = this.evaluateForms(tool.name, forms, fallback);
      const guarded = tool.mutates && tool.pathSubjects ? this.protectedPath(forms) : null;
      if (guarded && d.action !== "deny") {
        const reason = `"${d.subject}" is a protected path ("${guarded}"): a program may run or ` +
          `trust what is written there`;
        d = d.action === "allow"
          ? {
            ...d,
            action: "ask",
            policyMatch: `tools.permissions.protected_paths "${guarded}"`,
            reason,
            humanOnly: true,
          }
          : { ...d, reason: d.reason ?? reason, humanOnly: true };
      }
      decisions.push(d);
    }
    return mostRestrictive(decisions)!;
  }

  /**
   * The protected-path glob any of a path's spellings matches, or null. A glob holds at any depth
   * (a nested repository's `.git/hooks`, a subdirectory's `.envrc`: every tail of a relative
   * spelling is tried; an absolute one is matched whole, so a workspace that itself lies under a
   * `.zeph` directory is not protected as a whole) and for a directory that holds what it names
   * (moving `.git` away or a directory onto it, `.vscode` for `.vscode/settings.json`).
   */
  protectedPath(forms: string[]): string | null {
    // Globs hold at any depth of the workspace-relative spelling; an absolute spelling is read
    // only when there is no relative one (a path outside the workspace), so a workspace that
    // itself lies under `.zeph/` is not protected as a whole.
    const relative = forms.filter((f) => !f.startsWith("/"));
    for (const f of relative.length ? relative : forms) {
      const hit = protectedMatch(f, this.#protected);
      if (hit) return hit;
    }
    // A directory that holds what a glob names (moving `.vscode` away, or another directory onto
    // it), at any depth of the workspace-relative path.
    const tails = forms.flatMap((f) => {
      if (f.startsWith("/")) return [];
      const parts = f.replace(/^\.\//, "").split("/");
      return parts.map((_, i) => parts.slice(i).join("/")).filter((t) => t !== "");
    });
    const held = this.#protected.find((g) => tails.some((t) => holds(t, g.source.toLowerCase())));
    return held?.source ?? null;
  }

  #applyAutonomy(tool: PolicyTool, d: Decision): Decision {
    if (this.autonomy === "full") {
      if (d.action !== "ask" || d.humanOnly) return d;
      return {
        ...d,
        action: "allow",
        policyMatch: `tools.permissions.autonomy = "full" (over ${d.policyMatch ?? "no rule"})`,
      };
    }
    if (this.autonomy !== "readonly" || d.action === "deny" || !tool.mutates) return d;
    const policyMatch = `tools.permissions.autonomy = "readonly"`;
    if (!this.#analyzers.has(tool.name)) {
      return {
        ...d,
        action: "deny",
        policyMatch,
        reason: `${tool.name} changes files and autonomy is "readonly"; only reading tools run`,
      };
    }
    // An analysed tool (bash) runs when every command it found is read-only.
    const writer = d.commands?.find((c) => c.effect.effect !== "read_only");
    if (d.commands?.length && !writer) return d;
    return {
      ...d,
      action: "deny",
      policyMatch,
      reason: writer
        ? `"${writer.command}" is not read-only (${writer.effect.reason}) and autonomy is ` +
          `"readonly"; run only commands that read`
        : `the command was not proven read-only and autonomy is "readonly"`,
    };
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

/** Whether directory `dir` holds what a glob names: the glob's literal head starts with `dir/`. */
function holds(dir: string, glob: string): boolean {
  const head = glob.slice(0, glob.search(/[*?[\\]|$/));
  return head.startsWith(`${dir.toLowerCase().replace(/\/+$/, "")}/`);
}
