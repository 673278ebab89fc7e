/**
 * One line on the file tools' kernel sandbox for `zeph config check`: whether the file worker
 * will confine itself with Landlock here, and why not.
 */
import { probeLandlock } from "../sandbox/mod.ts";

export function fileSandboxStatus(mode: "auto" | "landlock" | "off"): string {
  if (mode === "off") return 'File tools: Landlock off ([tools.file.sandbox] mode = "off")';
  const probe = probeLandlock();
  if ("abi" in probe) return `File tools: Landlock on (ABI ${probe.abi})`;
  return mode === "landlock"
    ? `File tools: refused, Landlock unavailable (${probe.reason})`
    : `File tools: Landlock unavailable (${probe.reason}); path checks and Deno permissions only`;
}
