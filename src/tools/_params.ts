/**
 * Parameter names a tool accepts, read from its zod schema, and the check that rejects any other
 * name. It runs in the registry for every tool, so a tool whose schema is not `.strict()` still
 * refuses a typo (`"lmit": 1` would otherwise read the whole file) and every tool answers one
 * way, with a "did you mean".
 */
import { suggestKey } from "../config/lite.ts";

interface ZodInternals {
  _zod?: {
    def: {
      type: string;
      shape?: Record<string, unknown>;
      in?: unknown;
      innerType?: unknown;
      catchall?: { _zod?: { def: { type: string } } };
    };
  };
}

/**
 * The top-level parameter names of `schema`; null when it is not an object schema or it takes
 * any key (a catchall other than `never`).
 */
export function paramNames(schema: unknown): string[] | null {
  let s = schema as ZodInternals;
  for (let depth = 0; depth < 8 && s?._zod; depth++) {
    const def = s._zod.def;
    if (def.type === "object") {
      const catchall = def.catchall?._zod?.def.type;
      if (catchall && catchall !== "never") return null;
      return Object.keys(def.shape ?? {});
    }
    if (def.type === "pipe") s = def.in as ZodInternals;
    else if (def.innerType) s = def.innerType as ZodInternals;
    else return null;
  }
  return null;
}

/** One line per key of `input` the schema does not know, with the closest known name. */
export function unknownParamLines(input: unknown, known: readonly string[]): string[] {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return [];
  return Object.keys(input).filter((k) => !known.includes(k)).map((k) => {
    const guess = suggestKey(k, known);
    return `- ${k}: Unknown parameter${guess ? ` (did you mean "${guess}"?)` : ""}`;
  });
}
