/**
 * Strategy options that act only beside another: set alone they would be accepted and do
 * nothing, so the rule is refused at load naming the option, what it needs and the fix. Read
 * from the rule as written (before defaults fill in), since a default is never "set alone".
 */
import { RuleFieldError } from "./types.ts";

interface Need {
  type: string;
  key: string;
  /** The option it needs, set and not empty (a list with an entry, `true`, a pattern). */
  needs: string;
  /** What the needed option holds, for the message. */
  what: string;
}

const NEEDS: readonly Need[] = [
  {
    type: "strip_noise",
    key: "max_results",
    needs: "results",
    what: "the regexes of per-item result lines",
  },
  {
    type: "strip_noise",
    key: "results_fold",
    needs: "results",
    what: "the regexes of per-item result lines",
  },
  {
    type: "strip_noise",
    key: "results_head",
    needs: "results",
    what: "the regexes of per-item result lines",
  },
  {
    type: "strip_noise",
    key: "results_apart",
    needs: "results",
    what: "the regexes of per-item result lines",
  },
  {
    type: "strip_noise",
    key: "frame_marks_kept",
    needs: "frame_marks",
    what: "the regexes of mark-only lines under a source line",
  },
  {
    type: "group_paths",
    key: "quiet_details",
    needs: "details",
    what: "the regex of the lines about the path above them",
  },
  {
    type: "strip_noise",
    key: "results_trusted",
    needs: "results",
    what: "the regexes of per-item result lines",
  },
  {
    type: "strip_noise",
    key: "results_evidence",
    needs: "results",
    what: "the regexes of per-item result lines",
  },
  {
    type: "strip_noise",
    key: "results_on_failure",
    needs: "results",
    what: "the regexes of per-item result lines",
  },
  {
    type: "strip_noise",
    key: "results_outline",
    needs: "results",
    what: "the regexes of per-item result lines",
  },
  {
    type: "strip_noise",
    key: "results_until",
    needs: "results",
    what: "the regexes of per-item result lines",
  },
  {
    type: "strip_noise",
    key: "results_after",
    needs: "results",
    what: "the regexes of per-item result lines",
  },
  {
    type: "strip_noise",
    key: "results_not_under",
    needs: "results",
    what: "the regexes of per-item result lines",
  },
  {
    type: "truncate",
    key: "keep_pattern_lines",
    needs: "keep_patterns",
    what: "the regexes of lines kept from the cut",
  },
  {
    type: "truncate",
    key: "keep_pattern_unit",
    needs: "keep_patterns",
    what: "the regexes of lines kept from the cut",
  },
  {
    type: "group_by_rule",
    key: "max_repeats",
    needs: "file_layout",
    what: "true: findings stay under their file line",
  },
  {
    type: "group_by_rule",
    key: "continuation_pattern",
    needs: "line_pattern",
    what: "the regex of a one-line diagnostic the continued lines follow",
  },
];

/** Throws `RuleFieldError` when `strategy` (a rule's table as written) sets an option alone. */
export function checkOptionNeeds(strategy: unknown): void {
  if (strategy === null || typeof strategy !== "object") return;
  const s = strategy as Record<string, unknown>;
  for (const { type, key, needs, what } of NEEDS) {
    if (s.type !== type || !(key in s) || isSet(s[needs])) continue;
    throw new RuleFieldError(
      `strategy.${key}`,
      `acts only with ${needs} (${what}), which is not set; set ${needs} or remove ${key}`,
    );
  }
}

function isSet(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== undefined && value !== false && value !== "";
}
