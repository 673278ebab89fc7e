/**
 * Django's test runner and tox: their setup goes (test-database creation and migrations, each
 * environment's installs), what failed stays as printed. Real captures are in bench/corpus.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const lines = (command: string, input: string[]) =>
  engine.filter(command, input.join("\n"), { failed: true }).text.split("\n");

Deno.test("manage.py test: database setup, migrations and passing tests go; failures and their verdicts stay", () => {
  const failure = [
    "FAIL: test_str (orders.tests.OrderTests.test_str)",
    '  File "/p/orders/tests.py", line 131, in test_str',
    '    self.assertEqual(str(o), "Order #%d" % o.pk)',
    "AssertionError: 'Order 1' != 'Order #1'",
  ];
  const input = [
    "Creating test database for alias 'default'...",
    "Operations to perform:",
    "  Synchronize unmigrated apps: messages, staticfiles",
    "  Apply all migrations: admin, auth, contenttypes, orders, sessions",
    "Synchronizing apps without migrations:",
    "  Creating tables...",
    "    Running deferred SQL...",
    "Running migrations:",
    ...Array.from({ length: 18 }, (_, i) => `  Applying auth.00${10 + i}_alter_user... OK`),
    "System check identified no issues (0 silenced).",
    "test_str (orders.tests.OrderTests.test_str) ... FAIL",
    ...Array.from(
      { length: 30 },
      (_, i) => `test_total_${i} (orders.tests.OrderTests.test_total_${i}) ... ok`,
    ),
    "",
    "======================================================================",
    ...failure.slice(0, 1),
    "----------------------------------------------------------------------",
    "Traceback (most recent call last):",
    ...failure.slice(1),
    "",
    "----------------------------------------------------------------------",
    "Ran 31 tests in 0.345s",
    "",
    "FAILED (failures=1)",
    "Destroying test database for alias 'default'...",
  ];
  for (const command of ["python manage.py test -v 2", "./manage.py test orders"]) {
    const out = lines(command, input);
    // A failed test's verdict line stays; passing ones go.
    expect(out.slice(0, 7)).toEqual([
      "test_str (orders.tests.OrderTests.test_str) ... FAIL",
      ...failure,
      "Ran 31 tests in 0.345s",
      "FAILED (failures=1)",
    ]);
    expect(out.length).toBe(8);
  }
});

Deno.test("tox: each environment's setup goes; what it ran, its failures and the summary stay", () => {
  const kept = [
    "py run-test: commands[0] | pytest -q tests",
    "FAILED tests/test_calc.py::test_div - ZeroDivisionError: division by zero",
    "1 failed, 20 passed in 0.36s",
    "ERROR: InvocationError for command /p/.tox/py/bin/pytest -q tests (exited with code 1)",
    "lint: commands[0]> flake8 calc.py",
    "calc.py:1:1: F401 'os' imported but unused",
    "  lint: FAIL code 1 (3.10=setup[2.90]+cmd[0.20] seconds)",
    "ERROR:   py: commands failed",
  ];
  const input = [
    "py create: /p/.tox/py",
    "py installdeps: pytest",
    "py installed: iniconfig==2.3.0,packaging==26.3,pluggy==1.6.0,pytest==9.1.1",
    "py run-test-pre: PYTHONHASHSEED='409107677'",
    kept[0],
    "....................F                                                    [100%]",
    ...kept.slice(1, 4),
    "lint: install_deps> python -I -m pip install flake8",
    ".pkg: _optional_hooks> python /usr/lib/python3/dist-packages/pyproject_api/_backend.py True",
    ".pkg: build_sdist> python /usr/lib/python3/dist-packages/pyproject_api/_backend.py True",
    ...kept.slice(4, 7),
    "",
    kept[7],
  ];
  const out = lines("tox -e py,lint", input);
  expect(out.slice(0, kept.length)).toEqual(kept);
  expect(out.length).toBe(kept.length + 1);
});
