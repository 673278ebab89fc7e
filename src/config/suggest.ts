/** "Did you mean" for unknown names: zod-free, so the config loader uses it without the schema. */

/** Edit distance counting an adjacent swap as one edit (optimal string alignment), for typos. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from(
    { length: a.length + 1 },
    (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** Keys longer than this get no suggestion: no known key is, and the distance costs length². */
export const MAX_SUGGEST_KEY_LENGTH = 64;

/** The closest known key when it is near enough to be a typo, else null. */
export function suggestKey(unknown: string, known: readonly string[]): string | null {
  if (unknown.length > MAX_SUGGEST_KEY_LENGTH) return null;
  const limit = Math.max(1, Math.min(3, Math.floor(unknown.length / 3)));
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(unknown.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= limit ? best : null;
}
