// Per-family table of ../shared/bench/rtk/compare.py runs: RTK, zeph at a baseline and zeph now.
// Usage: python3 ../shared/bench/rtk/compare.py --json after.json   (and the same at the baseline)
//        deno run --allow-read bench/rtk_families.ts before.json after.json
// A family is the command's first word; rows are sorted by the family's input tokens.

interface Row {
  command: string;
  tokens: number;
  rtk: number;
  zeph: number;
  signals: number;
  rtk_kept: number;
  zeph_kept: number;
}

const [beforePath, afterPath] = Deno.args;
if (!beforePath || !afterPath) {
  console.error(
    "usage: rtk_families.ts <before.json> <after.json> (both written by compare.py --json)",
  );
  Deno.exit(2);
}
const load = (p: string): Map<string, Row> => {
  const rows = JSON.parse(Deno.readTextFileSync(p)) as (Row & { id: string })[];
  return new Map(rows.map((r) => [r.id, r]));
};
const before = load(beforePath);
const after = load(afterPath);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const pct = (x: number) => `${x.toFixed(1)}%`;

const families = new Map<string, string[]>();
for (const [id, r] of after) {
  const family = r.command.trim().split(/\s+/)[0];
  families.set(family, [...(families.get(family) ?? []), id]);
}
const tokens = (ids: string[]) => ids.reduce((n, id) => n + after.get(id)!.tokens, 0);
const rows = [...families].sort((a, b) => tokens(b[1]) - tokens(a[1]));

console.log(
  "| family | cases | tokens in | median RTK | median zeph before | median zeph after | signals RTK / before / after / of |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
for (const [family, ids] of rows) {
  const a = ids.map((id) => after.get(id)!);
  const b = ids.map((id) => before.get(id)).filter((r): r is Row => r !== undefined);
  const of = a.reduce((n, r) => n + r.signals, 0);
  const signals = of === 0 ? "" : [
    a.reduce((n, r) => n + r.rtk_kept, 0),
    b.reduce((n, r) => n + r.zeph_kept, 0),
    a.reduce((n, r) => n + r.zeph_kept, 0),
    of,
  ].join(" / ");
  console.log(
    `| ${family} | ${ids.length} | ${Math.round(tokens(ids))} | ${
      pct(median(a.map((r) => r.rtk)))
    } | ${b.length ? pct(median(b.map((r) => r.zeph))) : "–"} | ${
      pct(median(a.map((r) => r.zeph)))
    } | ${signals} |`,
  );
}
