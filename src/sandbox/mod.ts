/**
 * The sandbox: path policy. It resolves a path the model names against the workspace,
 * canonicalises it (symbolic links followed) and checks it against the allowed roots and the
 * read deny/allow globs, throwing the taxonomy's `SandboxViolation`. It runs nothing, reads no
 * file content and must not import tools, executors or the permission policy. landlock.ts
 * holds the one OS mechanism it owns: confining a thread's file system changes to the roots.
 */
export {
  canonicalize,
  expandHome,
  isInside,
  Sandbox,
  type SandboxOptions,
  type SandboxSnapshot,
} from "./path.ts";
export * as osPath from "./os_path.ts";
export { landlockBlocker, type LandlockState, probeLandlock, restrictThread } from "./landlock.ts";
