/**
 * autoconf's configure (filters/native.toml `autoconf-configure`) on real runs of five small
 * projects (tests/fixtures/filters/autoconf-configure): a library that is missing, a passing run
 * with warnings, a version check that passes its probe and then errors, pkg-config modules not
 * found and a C compiler that cannot build. Every check answered `no`, what was found of the
 * external libraries, every warning and error, everything that is not a check and the check an
 * error ends stay; the probes of the toolchain, headers and functions that passed go.
 */
import { expect } from "expect";
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

const DIR = new URL("../fixtures/filters/autoconf-configure/", import.meta.url);
const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });
const CASES = [...Deno.readDirSync(DIR)].filter((e) => e.name.endsWith(".in.txt"))
  .map((e) => e.name.slice(0, -".in.txt".length)).sort();
/** Probes of the toolchain, headers and functions that passed. */
const PASSED =
  /^checking (whether|if|how|that) .+\.\.\. (yes|done|none needed)$|^checking for \S+\.\.\. (\(cached\) )?yes$/;
/** What was found of the external dependencies: a library, a pkg-config module. */
const DEPENDENCY = / in -l\S+\.\.\. yes$|^checking for library containing |^checking for \S+ >= /;

Deno.test("configure: the rule matches the usual ways to run it", () => {
  for (
    const command of [
      "./configure",
      "../configure --prefix=/usr",
      "sh ./configure",
      "bash configure -q",
    ]
  ) {
    expect([command, engine.filter(command, "checking for gcc... gcc\n").rules]).toEqual([command, [
      "autoconf-configure",
    ]]);
  }
  for (const command of ["dpkg-reconfigure tzdata", "git config --list", "./configure.sh"]) {
    expect(engine.filter(command, "checking for gcc... gcc\n").rules).not.toContain(
      "autoconf-configure",
    );
  }
});

for (const name of CASES) {
  Deno.test(`configure: ${name} keeps every failed check, warning and error`, () => {
    const input = Deno.readTextFileSync(new URL(`${name}.in.txt`, DIR));
    const exit = /exit (\d+)/.exec(Deno.readTextFileSync(new URL(`${name}.cmd`, DIR)));
    const { text, rules } = engine.filter("./configure", input, { failed: exit !== null });
    expect(rules).toEqual(["autoconf-configure"]);
    const out = text.split("\n");
    const lines = input.split("\n").filter((line) => line !== "");
    for (const [i, line] of lines.entries()) {
      const failedCheck = /\.\.\. (\(cached\) )?(no|not found|unknown)$/.test(line);
      if (failedCheck || DEPENDENCY.test(line) || !line.startsWith("checking ")) {
        expect(out).toContain(line);
      }
      if (PASSED.test(line) && !lines[i + 1]?.startsWith("configure: error: ")) {
        expect(out).not.toContain(line);
      }
      // The check an error ends stays, whatever its answer.
      if (line.startsWith("configure: error: ") && lines[i - 1].startsWith("checking ")) {
        expect(out).toContain(lines[i - 1]);
      }
    }
    const count = Number(/^\(configure: (\d+) passing checks not listed\)$/.exec(out.at(-1)!)![1]);
    expect(count).toBe(input.trimEnd().split("\n").length - (out.length - 1));
    expect(out.length).toBeLessThan(lines.length * 0.6);
  });
}
