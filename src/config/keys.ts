/**
 * Walks the config schema by key path: the known keys at a path (for "did you mean" on typos)
 * and the list of every leaf key (config.example.toml is tested to list them all).
 */
import type { z } from "zod";
import { Config } from "./schema.ts";

type Def = { type: string; [k: string]: unknown };

function defOf(schema: unknown): Def {
  return (schema as { _zod: { def: Def } })._zod.def;
}

/** Strips wrappers (default, prefault, optional, …) down to the schema that holds the value. */
export function unwrapSchema(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    if ("innerType" in def) current = def.innerType as z.ZodType;
    else if (def.type === "pipe") current = def.in as z.ZodType;
    else return current;
  }
  return current;
}

/** The schema at a key path (array indexes and record keys step into the element), or null. */
export function schemaAt(
  path: readonly (string | number)[],
  root: z.ZodType = Config,
): z.ZodType | null {
  let current: z.ZodType = unwrapSchema(root);
  for (const segment of path) {
    const def = defOf(current);
    if (def.type === "object") {
      const shape = def.shape as Record<string, z.ZodType>;
      const catchall = def.catchall as z.ZodType | undefined;
      if (typeof segment === "string" && segment in shape) current = shape[segment];
      else if (catchall && defOf(catchall).type !== "never") current = catchall;
      else return null;
    } else if (def.type === "record") current = def.valueType as z.ZodType;
    else if (def.type === "array") current = def.element as z.ZodType;
    else return null;
    current = unwrapSchema(current);
  }
  return current;
}

/** Known keys of the table at `path` (empty when it is not a fixed-shape table). */
export function knownKeys(path: readonly (string | number)[], root: z.ZodType = Config): string[] {
  const schema = schemaAt(path, root);
  if (!schema) return [];
  const def = defOf(schema);
  return def.type === "object" ? Object.keys(def.shape as object) : [];
}

/**
 * Every leaf key path of the schema (`tools.shell.timeout`). A record or array of tables
 * (`tools.permissions`) is one leaf: its entries are user-named; a table with fixed keys and
 * user-named ones (`tools.permissions` with `protected_paths`) is a leaf and has its keys.
 */
export function configKeyPaths(root: z.ZodType = Config): string[] {
  const out: string[] = [];
  const walk = (schema: z.ZodType, prefix: string[]) => {
    const def = defOf(unwrapSchema(schema));
    if (def.type === "object") {
      const catchall = def.catchall as z.ZodType | undefined;
      if (catchall && defOf(catchall).type !== "never") out.push(prefix.join("."));
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        walk(v, [...prefix, k]);
      }
    } else out.push(prefix.join("."));
  };
  walk(root, []);
  return out;
}

/** Edit distance counting an adjacent swap as one edit (optimal string alignment), for typos. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from(
    { length: a.length + 1 },
    (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** The closest known key when it is near enough to be a typo, else null. */
export function suggestKey(unknown: string, known: readonly string[]): string | null {
  const limit = Math.max(1, Math.min(3, Math.floor(unknown.length / 3)));
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(unknown.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= limit ? best : null;
}
