/**
 * The path functions the sandbox and the file tools use: own POSIX ones with node:path's results
 * (a test compares them on generated paths), and node:path's win32 ones on Windows only. node:path
 * would load part of Deno's Node compatibility layer into the fenced file worker, which otherwise
 * loads none of it.
 */

const win32 = Deno.build.os === "windows" ? (await import("node:path")).win32 : null;

export const sep = win32?.sep ?? "/";

export function isAbsolute(p: string): boolean {
  return win32 ? win32.isAbsolute(p) : p.startsWith("/");
}

/** Resolves `.` and `..` segments; leading `..` stay when the path is relative. */
function normalizeSegments(p: string, absolute: boolean): string {
  const out: string[] = [];
  for (const segment of p.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
    } else out.push(segment);
  }
  return out.join("/");
}

export function normalize(p: string): string {
  if (win32) return win32.normalize(p);
  if (p === "") return ".";
  const absolute = isAbsolute(p);
  const trailing = p.endsWith("/");
  let body = normalizeSegments(p, absolute);
  if (body === "" && !absolute) body = ".";
  if (body !== "" && trailing) body += "/";
  return absolute ? `/${body}` : body;
}

export function join(...parts: string[]): string {
  if (win32) return win32.join(...parts);
  const joined = parts.filter((p) => p !== "").join("/");
  return joined === "" ? "." : normalize(joined);
}

/** The absolute path of `parts` applied right to left (from the working directory if none is). */
export function resolve(...parts: string[]): string {
  if (win32) return win32.resolve(...parts);
  let resolved = "";
  for (let i = parts.length - 1; i >= 0 && !isAbsolute(resolved); i--) {
    if (parts[i] === "") continue;
    resolved = resolved === "" ? parts[i] : `${parts[i]}/${resolved}`;
  }
  if (!isAbsolute(resolved)) resolved = `${Deno.cwd()}/${resolved}`;
  return `/${normalizeSegments(resolved, true)}`;
}

export function dirname(p: string): string {
  if (win32) return win32.dirname(p);
  if (p === "") return ".";
  const hasRoot = p.startsWith("/");
  let end = -1;
  let matchedSlash = true;
  for (let i = p.length - 1; i >= 1; i--) {
    if (p[i] === "/") {
      if (!matchedSlash) {
        end = i;
        break;
      }
    } else matchedSlash = false;
  }
  if (end === -1) return hasRoot ? "/" : ".";
  if (hasRoot && end === 1) return "//";
  return p.slice(0, end);
}

export function basename(p: string): string {
  if (win32) return win32.basename(p);
  let end = p.length;
  while (end > 0 && p[end - 1] === "/") end--;
  return p.slice(p.lastIndexOf("/", end - 1) + 1, end);
}

export function relative(from: string, to: string): string {
  if (win32) return win32.relative(from, to);
  const a = resolve(from).split("/").filter(Boolean);
  const b = resolve(to).split("/").filter(Boolean);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return [...a.slice(common).map(() => ".."), ...b.slice(common)].join("/");
}
