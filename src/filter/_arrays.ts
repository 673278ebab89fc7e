/** Array helpers the filter engine's stages share. */

/**
 * Appends `items[start..end)` to `target` one by one and returns `target`. A spread into `push`
 * passes every item as an argument, and a call takes ~100k at most: past that it throws, and
 * the engine shows the input as it came.
 */
export function appendAll<T>(
  target: T[],
  items: readonly T[],
  start = 0,
  end: number = items.length,
): T[] {
  for (let i = start; i < end; i++) target.push(items[i]);
  return target;
}
