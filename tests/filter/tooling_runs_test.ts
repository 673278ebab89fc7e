/**
 * JS and Python tooling whose runs print much of one shape around a few lines that matter, on real
 * captures in bench/corpus: `tsc --traceResolution` (each resolution's head and result, its probing
 * counted), workspace runs of pnpm (the passing packages' lines counted per package), nox sessions,
 * ruff's grouped and concise formats and `npm ls --all` with problems.
 */
import { expect } from "expect";
import { corpus, filter, lines } from "./_builtin.ts";

Deno.test("tsc --traceResolution keeps each resolution's head and result and counts its probing", async () => {
  const input = await corpus("node/tsc_trace_resolution.txt");
  const out = lines(filter("tsc -p . --traceResolution", input, true));
  const heads = lines(input).filter((l) =>
    /^======== (Resolving|Module name|Type reference)/.test(l)
  );
  for (const head of heads) expect(out).toContain(head);
  for (const l of lines(input).filter((l) => /error TS\d+/.test(l))) expect(out).toContain(l);
  expect(out.filter((l) => /^File '[^']*' does not exist\.$/.test(l))).toEqual([]);
  expect(out.filter((l) => /^… \d+ lookup lines$/.test(l)).length).toBeGreaterThan(20);
  expect(out.length).toBeLessThan(lines(input).length / 2);
});
