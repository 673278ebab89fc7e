/** Writes all of `text` to stdout: one `Deno.stdout.write` may take only part of a large text. */
export async function writeStdout(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length;) at += await Deno.stdout.write(bytes.subarray(at));
}
