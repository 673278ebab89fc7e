/**
 * `[tools.file.sandbox]`: the kernel sandbox (Landlock) of the file tools' worker thread. Its own
 * file so the schema's other tables stay untouched by it.
 */
import { z } from "zod";

export const FileSandboxConfig = z.object({
  /**
   * auto: the file worker confines itself with Landlock when the kernel has it; landlock: file
   * tools refuse to run without it; off: path checks and Deno permissions only.
   */
  mode: z.enum(["auto", "landlock", "off"]).default("auto"),
}).strict();
export type FileSandboxConfig = z.infer<typeof FileSandboxConfig>;
