/**
 * Milliseconds `work` takes, judged against a budget on a shared machine: a superlinear pattern
 * is slow on every run, a busy machine only on some, so when a run is over the budget up to two
 * more are made and the fastest counts.
 */
export function fastestMs(work: () => void, budgetMs: number): number {
  const run = () => {
    const start = performance.now();
    work();
    return performance.now() - start;
  };
  let ms = run();
  for (let again = 0; again < 2 && ms > budgetMs; again++) ms = Math.min(ms, run());
  return ms;
}
