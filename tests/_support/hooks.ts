// The registry's hooks exactly as main.ts wires them (src/tools/hooks.ts), for tests that run
// whole dispatches through them.
export { auditHook, filterHook, overflowHook } from "../../src/tools/hooks.ts";
