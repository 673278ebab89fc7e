/**
 * Tools described for people: `zeph tools` and `zeph tool <id> --help` print each parameter as
 * a row (name, type, required, default, description) read from the JSON Schema the model sees.
 */
import type { ToolDefinitionForModel } from "../provider/mod.ts";

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  items?: PropertySchema;
  anyOf?: PropertySchema[];
  default?: unknown;
  description?: string;
}

/** One parameter as a row. */
export interface ParamRow {
  name: string;
  type: string;
  required: boolean;
  default?: string;
  description: string;
}

/** The parameter rows of a tool's input schema, in schema order. */
export function paramRows(inputSchema: Record<string, unknown>): ParamRow[] {
  const props = (inputSchema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set((inputSchema.required ?? []) as string[]);
  return Object.entries(props).map(([name, p]) => ({
    name,
    type: typeName(p),
    required: required.has(name),
    ...(p.default !== undefined ? { default: JSON.stringify(p.default) } : {}),
    description: (p.description ?? "").replace(/\s+/g, " ").trim(),
  }));
}

function typeName(p: PropertySchema): string {
  if (p.enum) return p.enum.map((v) => JSON.stringify(v)).join("|");
  if (p.anyOf) return p.anyOf.map(typeName).join("|");
  if (p.type === "array") return `${p.items ? typeName(p.items) : "any"}[]`;
  if (Array.isArray(p.type)) return p.type.join("|");
  return p.type ?? "any";
}

/** A tool's name, first description line and its parameter table. */
export function formatTool(def: ToolDefinitionForModel, options: { full?: boolean } = {}): string {
  const description = options.full ? def.description.trim() : def.description.split("\n")[0].trim();
  const rows = paramRows(def.inputSchema as Record<string, unknown>);
  const lines = [def.name, ...description.split("\n").map((l) => `  ${l}`)];
  if (rows.length === 0) return [...lines, "  (no parameters)"].join("\n");
  const width = (f: (r: ParamRow) => string) => Math.max(...rows.map((r) => f(r).length));
  const nameW = width((r) => r.name);
  const typeW = width((r) => r.type);
  lines.push(options.full ? "\n  Parameters:" : "  Parameters:");
  for (const r of rows) {
    const flags = [r.required ? "required" : "optional", r.default ? `default ${r.default}` : ""]
      .filter(Boolean).join(", ");
    lines.push(
      `    ${r.name.padEnd(nameW)}  ${r.type.padEnd(typeW)}  ${flags}` +
        (r.description ? `\n    ${" ".repeat(nameW + 2)}${r.description}` : ""),
    );
  }
  return lines.join("\n");
}
