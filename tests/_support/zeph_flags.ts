// The Deno flags users run zeph with, for tests that spawn main.ts.
import * as path from "node:path";

const ROOT = path.resolve(import.meta.dirname!, "..", "..");

/**
 * The flags of deno.json's `zeph` task, as bin/zeph.mjs passes them (its --config, its permission
 * and unstable flags; --no-prompt left to the caller): tests run the CLI and the ACP agent with the
 * permissions users have, so code that works only under `-A` (a path under /dev, say) fails here.
 */
export const TASK_FLAGS: string[] = (() => {
  const words = String(
    JSON.parse(Deno.readTextFileSync(path.join(ROOT, "deno.json"))).tasks.zeph,
  ).split(/\s+/);
  const flags = words.slice(2, words.indexOf("main.ts")).filter((w) => w !== "--no-prompt");
  return ["--config", path.join(ROOT, "deno.json"), ...flags];
})();
