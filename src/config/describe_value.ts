/**
 * A value found in a TOML file (or an environment variable), as an error message quotes it:
 * its TOML type and the value, clipped — `an integer 3`, `an array ["a"]`, `a string "30s"`.
 * A string holding a backslash is quoted in TOML's literal form (`'^\s*$'`) so a regex reads as
 * it was written rather than with its backslashes doubled.
 */
export function describeTomlValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return `an array ${clip(JSON.stringify(value))}`;
  if (value instanceof Date) return `a date ${value.toISOString()}`;
  if (value !== null && typeof value === "object") return "a table";
  if (typeof value === "number") {
    return `${Number.isInteger(value) ? "an integer" : "a float"} ${value}`;
  }
  if (typeof value === "string" && value.includes("\\") && !/['\n]/.test(value)) {
    return `a string '${clip(value)}'`;
  }
  return `a ${typeof value} ${clip(JSON.stringify(value))}`;
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
