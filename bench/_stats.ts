/** Small statistics and memory readings shared by the benches. */

/** The upper median (the middle value; of an even count, the higher of the two). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The value at fraction `p` (0–1) of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** This process's peak resident set size (VmHWM) in bytes, or null off Linux. */
export function peakRssBytes(): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(Deno.readTextFileSync("/proc/self/status"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}
