// Shared by the chunked-grep tests: a temp directory and a match set as grep shows it.

/** A temp directory under its real path (the sandbox compares real paths). */
export async function tempDir(prefix: string): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix }));
}

/** Each match with its context lines, as grep shows them. */
export function view(m: { lines: string[]; matched: number[] } | null, context: number): string[] {
  if (!m) return [];
  return m.matched.flatMap((n) => {
    const out: string[] = [];
    const to = Math.min(m.lines.length - 1, n + context);
    for (let k = Math.max(0, n - context); k <= to; k++) out.push(`${k}:${m.lines[k]}`);
    return out;
  });
}
