/**
 * Walks the config schema by key path: the known keys at a path (for "did you mean" on typos)
 * and the list of every leaf key (config.example.toml is tested to list them all).
 */
import type { z } from "zod";
import { Config } from "./schema.ts";

export { editDistance, MAX_SUGGEST_KEY_LENGTH, suggestKey } from "./suggest.ts";

type Def = { type: string; [k: string]: unknown };

function defOf(schema: unknown): Def {
  return (schema as { _zod: { def: Def } })._zod.def;
}

/** Strips wrappers (default, prefault, optional, …) down to the schema that holds the value. */
export function unwrapSchema(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    if (Object.hasOwn(def, "innerType")) current = def.innerType as z.ZodType;
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
      const rest = def.catchall as z.ZodType | undefined;
      if (typeof segment === "string" && Object.hasOwn(shape, segment)) current = shape[segment];
      else if (rest && defOf(rest).type !== "never") current = rest;
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
 * Every leaf key path of the schema (`tools.shell.timeout`). A record or array of tables, or the
 * user-named entries of a table with fixed keys too (`tools.permissions`), is one leaf.
 */
export function configKeyPaths(root: z.ZodType = Config): string[] {
  const out: string[] = [];
  const walk = (schema: z.ZodType, prefix: string[]) => {
    const def = defOf(unwrapSchema(schema));
    if (def.type === "object") {
      const rest = def.catchall as z.ZodType | undefined;
      if (rest && defOf(rest).type !== "never") out.push(prefix.join("."));
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        walk(v, [...prefix, k]);
      }
    } else out.push(prefix.join("."));
  };
  walk(root, []);
  return out;
}
