/**
 * The filter engine of another checkout with its built-in rules only, for the benches that run two
 * engines side by side (`HELDOUT_BEFORE`, `bench/filters_same.ts`).
 */
export async function engineOf<E>(root: string): Promise<E> {
  const schema = await import(`${root}/src/config/schema.ts`);
  const filter = await import(`${root}/src/filter/mod.ts`);
  const { engine } = await filter.loadFilterEngine(schema.defaultConfig(), {
    configDir: "/nonexistent",
  });
  return engine;
}
