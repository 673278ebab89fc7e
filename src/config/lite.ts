/**
 * The config without the zod schema at load time: the loader (which builds the schema only when a
 * file or a `ZEPH_*` variable sets keys), the constants and helpers the permission layer and the
 * tools use, and the types. What validates or walks the schema stays in mod.ts.
 */
export * from "./bounded_file.ts";
export * from "./consts.ts";
export * from "./describe_value.ts";
export * from "./errors.ts";
export * from "./load.ts";
export * from "./providers.ts";
export * from "./suggest.ts";
export * from "./tool_selection_warnings.ts";
export type * from "./schema.ts";
