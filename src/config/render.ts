/** Rendering a resolved config for people: secrets masked, TOML or JSON. */
import { maskUrlPasswords } from "../secrets/mod.ts";
import type { Config } from "./schema.ts";

const SECRET_KEY = /key|token|secret|password/i;
export const MASK = "********";

/** A value that only references environment variables (`${GITHUB_TOKEN}`) holds no secret. */
const ONLY_REFERENCES = /^(\$\{[A-Za-z_][A-Za-z0-9_]*\})+$/;

/**
 * Any non-empty string under a key naming a key/token/secret/password is masked, and so is every
 * value of an MCP server's `env` and `headers` (an `Authorization` header names no secret) that
 * is not only `${VAR}` references; the password of a URL anywhere is masked too
 * (`https://me:[REDACTED]@host`).
 */
export function maskSecrets<T>(value: T, key = ""): T {
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, key)) as T;
  if ((key === "env" || key === "headers") && value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map((
        [k, v],
      ) => [k, typeof v === "string" && v !== "" && !ONLY_REFERENCES.test(v) ? MASK : v]),
    ) as T;
  }
  if (value && typeof value === "object") {
    // fromEntries defines own properties: a key named "__proto__" stays a key.
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, maskSecrets(v, k)]),
    ) as T;
  }
  if (typeof value === "string" && value !== "" && SECRET_KEY.test(key)) return MASK as T;
  if (typeof value === "string") return maskUrlPasswords(value) as T;
  return value;
}

/** Drops undefined entries (TOML has no null); optional sections simply disappear. */
function defined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(defined);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, defined(v)]),
    );
  }
  return value;
}

export async function renderConfig(config: Config, format: "toml" | "json"): Promise<string> {
  const masked = defined(maskSecrets(config)) as Record<string, unknown>;
  if (format === "json") return JSON.stringify(masked, null, 2);
  const { stringify } = await import("smol-toml");
  return stringify(masked);
}
