/**
 * cmake --build -v (real runs, Makefile and Ninja generators): the helper commands CMake runs
 * (`cmake -E …`, `cmake -P …`, the `--check-build-system` call, the sub-makes over CMakeFiles/),
 * its dependency-scan lines and ninja's echo of each step's command go, on success and on
 * failure; the failed object's compiler command and its error stay.
 */
import { expect } from "expect";
import { filter, fixture, lines } from "./_builtin.ts";

const HELPER = [
  /cmake -E /,
  /cmake -P /,
  /--check-build-system /,
  /^\S*g?make\s+-f CMakeFiles\//,
  /^Dependencies file ".*" is newer than depends file/,
  /^\[\d+\/\d+\] /,
];
const FAILED_COMMAND =
  "/usr/bin/cc    -MD -MT CMakeFiles/util.dir/src/strs.c.o -MF CMakeFiles/util.dir/src/strs.c.o.d -o CMakeFiles/util.dir/src/strs.c.o -c /tmp/lo4/cm/src/strs.c";
const ERROR = "/tmp/lo4/cm/src/strs.c:2:47: error: expected ‘;’ before ‘}’ token";

const CASES: [string, string, boolean][] = [
  ["verbose_make_ok", "cmake --build build -v", false],
  ["verbose_make_error", "cmake --build build -v", true],
  ["verbose_ninja_ok", "cmake --build bn -v", false],
  ["verbose_ninja_error", "cmake --build bn -v", true],
];

for (const [name, command, failed] of CASES) {
  Deno.test(`cmake --build -v drops CMake's helper lines: ${name}`, async () => {
    const input = await fixture(`cmake-build/${name}.in.txt`);
    const out = lines(filter(command, input, failed));
    expect(lines(input).some((line) => HELPER.some((re) => re.test(line)))).toBe(true);
    expect(out.filter((line) => HELPER.some((re) => re.test(line)))).toEqual([]);
    if (failed) {
      expect(out).toContain(FAILED_COMMAND);
      expect(out).toContain(ERROR);
    }
  });
}

Deno.test("cmake --build -v keeps a failed custom command (cmake -E copy) with its error", async () => {
  // A custom command runs through `cmake -E`: ninja prints it again under its FAILED: line, make
  // before its error; it is what failed, no helper of CMake's.
  for (const [name, command] of [["ninja", "bn"], ["make", "bm"]]) {
    const out = lines(
      filter(
        `cmake --build ${command} -v`,
        await fixture(`cmake-build/verbose_${name}_custom_error.in.txt`),
        true,
      ),
    );
    expect(out.some((line) => line.includes("cmake -E copy /home/dev/cm/missing.h gen.h"))).toBe(
      true,
    );
    expect(out).toContain('Error copying file "/home/dev/cm/missing.h" to "gen.h".');
    expect(out.some((line) => /cmake -E cmake_(depends|progress_start)/.test(line))).toBe(false);
  }
});
