/**
 * The built-in rules' engine, as the filter tests that run real captures through it use it, and
 * readers of those captures (bench/corpus, tests/fixtures/filters).
 */
import { defaultConfig } from "../../src/config/schema.ts";
import { loadFilterEngine } from "../../src/filter/mod.ts";

const { engine } = await loadFilterEngine(defaultConfig(), { configDir: null });

/** The engine with the built-in rules (for a stage's own output: `trace`). */
export const builtinEngine = engine;

/** What the built-in rules make of `text` as the output of `command`. */
export const filter = (command: string, text: string, failed = false): string =>
  engine.filter(command, text, { failed }).text;
/** A case of bench/corpus, by its path under it. */
export const corpus = (path: string): Promise<string> =>
  Deno.readTextFile(new URL(`../../bench/corpus/${path}`, import.meta.url));
/** A file of tests/fixtures/filters, by its path under it. */
export const fixture = (path: string): Promise<string> =>
  Deno.readTextFile(new URL(`../fixtures/filters/${path}`, import.meta.url));
export const lines = (text: string): string[] => text.split("\n");
