/**
 * The composition root: argv → config → real dependencies → CLI or ACP front-end.
 * `--version` answers before anything heavy is imported, so start-up stays fast.
 */
import { VERSION } from "./src/version.ts";

if (import.meta.main) {
  const args = Deno.args;
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
    console.log(`zeph ${VERSION}`);
    Deno.exit(0);
  }
  const { runCli } = await import("./src/cli/mod.ts");
  Deno.exit(await runCli(args));
}
