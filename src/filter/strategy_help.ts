/**
 * `zeph filter --strategies [type]`: every strategy's options with their types, defaults and
 * meaning, read from the zod schemas the loader validates with — so the reference a rule writer
 * reads is the one the loader holds them to, and a new option documents itself.
 */
import { z } from "zod";
import { STRATEGY_TYPES, StrategyConfig } from "./strategies/mod.ts";

interface JsonProperty {
  type?: string;
  items?: { type?: string; properties?: Record<string, unknown> };
  default?: unknown;
  description?: string;
  const?: unknown;
  minimum?: number;
  maximum?: number;
}

interface JsonObject {
  properties: Record<string, JsonProperty>;
  required?: string[];
}

/** Each strategy's options as JSON Schema, by type (built once, on first use). */
let byType: Map<string, JsonObject> | null = null;

function schemas(): Map<string, JsonObject> {
  if (byType) return byType;
  const root = z.toJSONSchema(StrategyConfig, { io: "input", unrepresentable: "any" }) as {
    oneOf?: JsonObject[];
    anyOf?: JsonObject[];
  };
  byType = new Map();
  for (const option of root.oneOf ?? root.anyOf ?? []) {
    byType.set(String(option.properties.type.const), option);
  }
  return byType;
}

/** The list of strategy types with their required options: `zeph filter --strategies`. */
export function listStrategies(): string[] {
  const width = Math.max(...STRATEGY_TYPES.map((t) => t.length));
  const out = ['Strategies (strategy = { type = "…", … } in a [[rules]] entry):'];
  for (const type of STRATEGY_TYPES) {
    const schema = schemas().get(type)!;
    const required = (schema.required ?? []).filter((k) => k !== "type");
    const optional = Object.keys(schema.properties).length - 1 - required.length;
    out.push(
      `  ${type.padEnd(width)}  ${
        required.length ? `needs ${required.join(", ")}; ` : ""
      }${optional} optional`,
    );
  }
  out.push("", "zeph filter --strategies <type> describes one type's options.");
  return out;
}

/** One strategy's options, or null for no such type: `zeph filter --strategies strip_noise`. */
export function describeStrategy(type: string): string[] | null {
  const schema = schemas().get(type);
  if (!schema) return null;
  const required = new Set(schema.required ?? []);
  const out = [`${type}: strategy = { type = "${type}", … }`];
  for (const [key, prop] of Object.entries(schema.properties)) {
    if (key === "type") continue;
    const kind = kindOf(prop);
    const when = required.has(key) ? "required" : defaultOf(prop);
    out.push(`  ${key} (${kind}${when ? `, ${when}` : ""})`);
    if (prop.description) out.push(`      ${prop.description}`);
  }
  return out;
}

function kindOf(prop: JsonProperty): string {
  if (prop.type === "array") {
    const item = prop.items?.type === "object"
      ? `tables {${Object.keys(prop.items.properties ?? {}).join(", ")}}`
      : `${prop.items?.type ?? "value"}s`;
    return `list of ${item}`;
  }
  if (prop.type === "integer" || prop.type === "number") {
    const bounded = prop.maximum !== undefined && prop.maximum < Number.MAX_SAFE_INTEGER;
    const range = prop.minimum !== undefined && bounded
      ? ` ${prop.minimum}-${prop.maximum}`
      : prop.minimum !== undefined
      ? ` ≥ ${prop.minimum}`
      : "";
    return `${prop.type}${range}`;
  }
  return prop.type ?? "value";
}

/** `default 100`, `default []`, `default: 4 patterns`; nothing when it has none (optional). */
function defaultOf(prop: JsonProperty): string {
  if (!("default" in prop)) return "optional";
  const value = prop.default;
  const text = typeof value === "string"
    ? `'${value}'`
    : Array.isArray(value)
    ? `[${value.map((v) => typeof v === "string" ? `'${v}'` : JSON.stringify(v)).join(", ")}]`
    : JSON.stringify(value);
  if (text.length <= 80) return `default ${text}`;
  return Array.isArray(value) ? `default: ${value.length} built-in entries` : "default: built in";
}
