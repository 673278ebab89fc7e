#!/usr/bin/env node
/**
 * The `zeph` command of an npm install (`npm link`, `npx zeph`, `npm install -g`): runs main.ts
 * with the npm-installed Deno and the flags of the `zeph` task in deno.json, so the launcher and
 * `deno task zeph` cannot drift apart. stdin, stdout and stderr are the child's own (ACP speaks
 * over them); termination signals are passed on and the child's exit code is returned.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const config = join(root, "deno.json");
const deno = join(root, "node_modules", "deno", process.platform === "win32" ? "deno.exe" : "deno");

function fail(message) {
  process.stderr.write(`zeph: ${message}\n`);
  process.exit(2);
}

if (!existsSync(deno)) {
  fail(`Deno is not installed at ${deno}. Run "npm ci" (or "npm install") in ${root} first.`);
}
const words = String(JSON.parse(readFileSync(config, "utf8")).tasks.zeph).split(/\s+/);
const main = words.indexOf("main.ts");
if (words[1] !== "run" || main < 0) {
  fail(`The "zeph" task of ${config} is not "deno run … main.ts".`);
}

// --config: always zeph's deno.json (its unstable features, its node_modules), wherever zeph runs.
const args = ["run", "--config", config, ...words.slice(2, main), join(root, "main.ts")];
const child = spawn(deno, [...args, ...process.argv.slice(2)], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (error) => fail(`Cannot start ${deno}: ${error.message}`));
child.on("exit", (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  process.exit(code ?? 1);
});
