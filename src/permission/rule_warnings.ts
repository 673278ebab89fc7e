/**
 * `zeph config check` warnings about `[tools.permissions]` rule lists: a rule that an earlier
 * one shadows (the first match wins, so it never decides), and a bash deny glob that another
 * spelling of the same flags sidesteps (`deny "rm -rf*"` does not match `rm -fr`, `rm -r -f`,
 * `rm --recursive --force`). Both read the rule text alone.
 */
import type { PermissionRuleConfig } from "../config/mod.ts";
import { globCovers } from "./glob.ts";

/** Long spellings of short flags, per program, for the commands deny rules usually guard. */
const LONG_FLAGS: Record<string, Record<string, string>> = {
  rm: { r: "--recursive", R: "--recursive", f: "--force", d: "--dir", v: "--verbose" },
  cp: { r: "--recursive", R: "--recursive", f: "--force" },
  mv: { f: "--force" },
  chmod: { R: "--recursive" },
  chown: { R: "--recursive" },
  "git push": { f: "--force", d: "--delete" },
  "git clean": { f: "--force", d: "", x: "", n: "--dry-run" },
  "git branch": { D: "", d: "--delete", f: "--force", M: "", m: "--move" },
  "git checkout": { f: "--force", b: "" },
  "git reset": { q: "--quiet" },
};

const SHORT_OF_LONG: Record<string, Record<string, string>> = Object.fromEntries(
  Object.entries(LONG_FLAGS).map(([p, flags]) => [
    p,
    Object.fromEntries(
      Object.entries(flags).filter(([, l]) => l).map(([s, l]) => [l, `-${s}`]),
    ),
  ]),
);

function permutations(letters: string[]): string[][] {
  if (letters.length <= 1) return [letters];
  return letters.flatMap((l, i) =>
    permutations([...letters.slice(0, i), ...letters.slice(i + 1)]).map((rest) => [l, ...rest])
  );
}

/** Other spellings of the flags in a deny glob, or [] when it has none worth a warning. */
export function flagSpellings(pattern: string): string[] {
  const words = pattern.trim().split(/\s+/);
  const program = words[0] === "git" && words[1] ? `git ${words[1]}` : words[0];
  const start = program.includes(" ") ? 2 : 1;
  const longs = LONG_FLAGS[program.replace(/^\*/, "")] ?? {};
  const shorts = SHORT_OF_LONG[program.replace(/^\*/, "")] ?? {};
  const out = new Set<string>();
  const prefix = words.slice(0, start).join(" ");
  for (let k = start; k < words.length; k++) {
    const word = words[k];
    const before = words.slice(start, k);
    const after = words.slice(k + 1);
    const spell = (replacement: string[]) =>
      [prefix, ...before, ...replacement, ...after].join(" ");
    const cluster = /^-([a-zA-Z]{2,})(\*?)$/.exec(word);
    if (cluster) {
      const letters = [...cluster[1]];
      const star = cluster[2];
      for (const p of permutations(letters).slice(1, 6)) out.add(spell([`-${p.join("")}${star}`]));
      out.add(spell([...letters.map((l) => `-${l}`).slice(0, -1), `-${letters.at(-1)}${star}`]));
      if (letters.every((l) => longs[l])) {
        const long = [...new Set(letters.map((l) => longs[l]))];
        out.add(spell([...long.slice(0, -1), `${long.at(-1)}${star}`]));
      }
      continue;
    }
    const bare = word.replace(/\*$/, "");
    const star = word.endsWith("*") ? "*" : "";
    const single = /^-([a-zA-Z])$/.exec(bare);
    if (single && longs[single[1]]) out.add(spell([`${longs[single[1]]}${star}`]));
    if (shorts[bare]) out.add(spell([`${shorts[bare]}${star}`]));
  }
  out.delete(pattern.trim());
  return [...out];
}

/** Every warning for the rule lists, each naming the rule and what to do. */
export function permissionRuleWarnings(
  rules: Record<string, PermissionRuleConfig[]>,
): string[] {
  const warnings: string[] = [];
  for (const [tool, list] of Object.entries(rules)) {
    const label = (i: number) =>
      `[tools.permissions.${tool}][${i}] ${list[i].action} "${list[i].pattern}"`;
    for (let j = 1; j < list.length; j++) {
      const i = list.slice(0, j).findIndex((r) => globCovers(r.pattern, list[j].pattern));
      if (i >= 0) {
        warnings.push(
          `${label(j)} never applies: the earlier ${label(i)} matches everything it does and ` +
            `the first matching rule wins. Move it above rule ${i} or remove it.`,
        );
      }
    }
    if (tool !== "bash") continue;
    list.forEach((rule, i) => {
      if (rule.action !== "deny") return;
      const others = flagSpellings(rule.pattern);
      if (others.length === 0) return;
      warnings.push(
        `${label(i)} can be sidestepped by other spellings of the same flags: ` +
          `${others.map((o) => `"${o}"`).join(", ")}. Add one deny rule per spelling, or a ` +
          `broader glob (e.g. "${rule.pattern.trim().split(/\s+/)[0]} *").`,
      );
    });
  }
  return warnings;
}
