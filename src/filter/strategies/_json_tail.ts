/**
 * A JSON object that ends a report line (`fatal: [web]: FAILED! => {"rc": 1, …}`), printed again
 * without some of its fields, in the `"key": value, …` spacing such tools print.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Longest line read as a JSON tail: longer ones pass as they are, keeping the work per line bounded. */
const MAX_TAIL_CHARS = 200_000;
/**
 * Deepest nesting pruned and printed (both recurse): a deeper tail passes as it is, rather than
 * overflowing the stack and sending the whole output through unfiltered.
 */
const MAX_DEPTH = 200;

/**
 * The line with `fields` removed from the JSON object it ends with (at any depth), or null when
 * it does not end with one or none of the fields is there.
 */
export function dropJsonTailFields(line: string, fields: ReadonlySet<string>): string | null {
  if (!line.endsWith("}") || line.length > MAX_TAIL_CHARS) return null;
  const start = line.indexOf(" => {");
  if (start < 0) return null;
  let value: Json;
  try {
    value = JSON.parse(line.slice(start + 4));
  } catch {
    return null;
  }
  let dropped = 0;
  let tooDeep = false;
  const prune = (v: Json, depth: number): Json => {
    if (v === null || typeof v !== "object") return v;
    if (depth > MAX_DEPTH) {
      tooDeep = true;
      return null;
    }
    if (Array.isArray(v)) return v.map((inner) => prune(inner, depth + 1));
    const out: { [key: string]: Json } = {};
    for (const [key, inner] of Object.entries(v)) {
      if (fields.has(key)) dropped++;
      else out[key] = prune(inner, depth + 1);
    }
    return out;
  };
  const pruned = prune(value, 0);
  if (tooDeep) return null;
  return dropped ? `${line.slice(0, start + 4)}${printJson(pruned)}` : null;
}

/** JSON with `", "` and `": "` separators, as Python's `json.dumps` (Ansible) prints it. */
function printJson(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(printJson).join(", ")}]`;
  if (v !== null && typeof v === "object") {
    return `{${
      Object.entries(v).map(([k, inner]) => `${JSON.stringify(k)}: ${printJson(inner)}`).join(", ")
    }}`;
  }
  return JSON.stringify(v);
}
