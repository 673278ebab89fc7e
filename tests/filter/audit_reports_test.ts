/**
 * Security linters' reports: each finding keeps its issue, severity, location and the code line
 * the location names; documentation URLs, code context, separators and zero counts go.
 */
import { expect } from "expect";
import { corpus, filter, lines } from "./_builtin.ts";

Deno.test("bandit -r: every finding keeps issue, severity, location and its flagged line", async () => {
  const raw = await corpus("lint/bandit_findings.txt");
  const kept = lines(filter("bandit -r app", raw, true));
  const issues = lines(raw).filter((line) => line.startsWith(">> Issue: "));
  expect(issues.length).toBe(9);
  for (const issue of issues) {
    const at = kept.indexOf(issue);
    expect(at).toBeGreaterThanOrEqual(0);
    const location = /:(\d+)$/.exec(kept[at + 2])![1];
    expect(kept[at + 1]).toMatch(/^ {3}Severity: (Low|Medium|High) {3}Confidence: High$/);
    expect(kept[at + 2]).toMatch(/^ {3}Location: app\/\w+\.py:\d+$/);
    expect(kept[at + 3].startsWith(`${location}\t`)).toBe(true);
  }
  expect(kept.slice(0, 5)).toEqual([
    "Test results:",
    ">> Issue: [B404:blacklist] Consider possible security implications associated with subprocess module.",
    "   Severity: Low   Confidence: High",
    "   Location: app/db.py:2",
    "2\timport subprocess",
  ]);
  expect(kept.slice(-7)).toEqual([
    "Run metrics:",
    "\tTotal issues (by severity):",
    "\t\tLow: 3.0",
    "\t\tMedium: 4.0",
    "\t\tHigh: 2.0",
    "\tTotal issues (by confidence):",
    "\t\tHigh: 9.0",
  ]);
  expect(kept.length).toBe(1 + 9 * 4 + 7);
});

Deno.test("bandit 1.7's finding: the CWE stays, More Info goes, the column-led location names its line", () => {
  // bandit 1.7 adds a CWE line and the column to the location.
  const raw = [
    "Run started:2026-11-27 19:25:32.012383",
    "",
    "Test results:",
    ">> Issue: [B602:subprocess_popen_with_shell_equals_true] subprocess call with shell=True identified, security issue.",
    "   Severity: High   Confidence: High",
    "   CWE: CWE-78 (https://cwe.mitre.org/data/definitions/78.html)",
    "   More Info: https://bandit.readthedocs.io/en/1.7.5/plugins/b602_subprocess_popen_with_shell_equals_true.html",
    "   Location: ./app/db.py:12:4",
    "11\tdef backup(path):",
    '12\t    subprocess.call("tar czf backup.tgz " + path, shell=True)',
    "13\t",
    "",
    "--------------------------------------------------",
    "",
    "Code scanned:",
    "\tTotal lines of code: 24",
    "\tTotal lines skipped (#nosec): 0",
    "\tTotal potential issues skipped due to specifically being disabled (e.g., #nosec BXXX): 0",
  ];
  expect(lines(filter("bandit -r app", raw.join("\n"), true))).toEqual([
    "Test results:",
    ">> Issue: [B602:subprocess_popen_with_shell_equals_true] subprocess call with shell=True identified, security issue.",
    "   Severity: High   Confidence: High",
    "   CWE: CWE-78 (https://cwe.mitre.org/data/definitions/78.html)",
    "   Location: ./app/db.py:12:4",
    '12\t    subprocess.call("tar czf backup.tgz " + path, shell=True)',
  ]);
});

Deno.test("bandit: a location whose path holds spaces still names its flagged line", () => {
  const raw = [
    "Test results:",
    ">> Issue: [B307:blacklist] Use of possibly insecure function - consider using safer ast.literal_eval.",
    "   Severity: Medium   Confidence: High",
    "   Location: ./my project/app/calc.py:7:11",
    "6\tdef run(code):",
    "7\t    return eval(code)",
    "8\t",
  ];
  expect(lines(filter("bandit -r 'my project'", raw.join("\n"), true))).toEqual([
    ...raw.slice(0, 4),
    "7\t    return eval(code)",
  ]);
});
