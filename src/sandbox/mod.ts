/**
 * The sandbox: path policy only. It resolves a path the model names against the workspace,
 * canonicalises it (symbolic links followed) and checks it against the allowed roots and the
 * read deny/allow globs, throwing the taxonomy's `SandboxViolation`. It runs nothing, reads no
 * file content and must not import tools, executors or the permission policy.
 */
export {
  canonicalize,
  expandHome,
  isInside,
  Sandbox,
  type SandboxOptions,
  type SandboxSnapshot,
} from "./path.ts";
