/**
 * Think-Augmented Function Calling: complex tool schemas get a `thinking` string property the
 * model fills before the real parameters; the agent loop removes it from the call before
 * anything else sees the call (validation, permission, execution, transcript, audit, display).
 */
import type { TafcConfig } from "../config/mod.ts";
import { type AnyTool, toolJsonSchema } from "./tool.ts";

/** The property added to complex schemas, first in `properties` so the model fills it first. */
export const TAFC_FIELD = "thinking";

const TAFC_DESCRIPTION = "Think step by step about what this call must achieve and which value " +
  "each parameter needs, before filling them in. Discarded before the tool runs.";

type Schema = Record<string, unknown>;

function isSchema(v: unknown): v is Schema {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The sub-schemas a schema holds: properties, items, additionalProperties and combinator arms. */
function children(schema: Schema): Schema[] {
  const out: Schema[] = [];
  if (isSchema(schema.properties)) out.push(...Object.values(schema.properties).filter(isSchema));
  if (isSchema(schema.items)) out.push(schema.items);
  if (Array.isArray(schema.items)) out.push(...schema.items.filter(isSchema));
  if (Array.isArray(schema.prefixItems)) out.push(...schema.prefixItems.filter(isSchema));
  if (isSchema(schema.additionalProperties)) out.push(schema.additionalProperties);
  for (const k of ["anyOf", "oneOf", "allOf"]) {
    const arms = schema[k];
    if (Array.isArray(arms)) out.push(...arms.filter(isSchema));
  }
  return out;
}

/** Nesting depth: a scalar is 1, an object or array one more than its deepest member. */
function depthOf(schema: Schema, guard = 0): number {
  const kids = children(schema);
  if (kids.length === 0 || guard > 32) return 1;
  // Combinator arms are alternatives at the same level, not one level deeper.
  const nests = schema.type === "object" || schema.type === "array" || isSchema(schema.items) ||
    isSchema(schema.properties);
  return (nests ? 1 : 0) + Math.max(...kids.map((k) => depthOf(k, guard + 1)));
}

function walk(schema: Schema, visit: (s: Schema) => void, guard = 0): void {
  visit(schema);
  if (guard > 32) return;
  for (const k of children(schema)) walk(k, visit, guard + 1);
}

/**
 * Complexity in [0, 1] from the four signals the issue names:
 * `0.3·depth + 0.4·combinator + 0.3·enum + 0.2·required`, capped at 1, where depth is
 * min(depth, 8)/8, combinator is 1 when anyOf/oneOf/allOf or a list of types appears anywhere,
 * enum is
 * min(largest enum, 10)/10 and required is min(top-level required parameters, 8)/8. The
 * reference counts all top-level properties; required ones are what the model must choose.
 */
export function schemaComplexity(schema: Schema): number {
  let combinator = 0;
  let largestEnum = 0;
  walk(schema, (s) => {
    if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf) || Array.isArray(s.allOf)) combinator = 1;
    // zod writes a union of scalars as a type list: the same choice between alternatives.
    if (Array.isArray(s.type) && s.type.length > 1) combinator = 1;
    if (Array.isArray(s.enum)) largestEnum = Math.max(largestEnum, s.enum.length);
  });
  const required = Array.isArray(schema.required) ? schema.required.length : 0;
  const score = 0.3 * (Math.min(depthOf(schema), 8) / 8) + 0.4 * combinator +
    0.3 * (Math.min(largestEnum, 10) / 10) + 0.2 * (Math.min(required, 8) / 8);
  return Math.min(1, Math.round(score * 1000) / 1000);
}

/**
 * Whether the tool's schema gets the `thinking` field: TAFC is on, the schema is an object
 * schema that has no parameter of that name already, and its complexity reaches the threshold.
 */
export function tafcApplies(tool: AnyTool, tafc: TafcConfig): boolean {
  if (!tafc.enabled) return false;
  const schema = toolJsonSchema(tool);
  if (!isSchema(schema.properties) || Object.hasOwn(schema.properties, TAFC_FIELD)) return false;
  return schemaComplexity(schema) >= tafc.complexity_threshold;
}

/** The schema the model sees: with the optional `thinking` property first when TAFC applies. */
export function tafcSchema(tool: AnyTool, tafc: TafcConfig): Schema {
  const schema = toolJsonSchema(tool);
  if (!tafcApplies(tool, tafc)) return schema;
  return {
    ...schema,
    properties: {
      [TAFC_FIELD]: { type: "string", description: TAFC_DESCRIPTION },
      ...(schema.properties as Schema),
    },
  };
}

/**
 * The call's input without the `thinking` field when the tool's schema carried it; any other
 * input is returned as it is (a `thinking` the schema did not offer stays, and validation
 * reports it as the unknown parameter it is).
 */
export function stripTafc(tool: AnyTool | undefined, input: unknown, tafc: TafcConfig): unknown {
  if (!tool || !isSchema(input) || !Object.hasOwn(input, TAFC_FIELD)) return input;
  if (!tafcApplies(tool, tafc)) return input;
  const { [TAFC_FIELD]: _discarded, ...rest } = input;
  return rest;
}
