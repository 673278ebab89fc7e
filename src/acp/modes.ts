/**
 * Modes as ACP session modes: the state sent in session/new and session/load, and the
 * `current_mode_update` sent whenever the mode changes (the model's switch_mode, or the
 * client's own session/set_mode, which some clients wait to see confirmed).
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ModeState } from "../tools/mod.ts";

/** `modes` of a session/new or session/load response. */
export function sessionModes(modes: ModeState): acp.SessionModeState {
  return {
    currentModeId: modes.current.slug,
    availableModes: modes.available.map((m) => ({
      id: m.slug,
      name: m.name,
      ...(m.description ? { description: m.description } : {}),
    })),
  };
}

/** Sends `current_mode_update` through `send` on every change; returns the unsubscribe. */
export function forwardModeChanges(
  modes: ModeState,
  send: (update: acp.SessionUpdate) => Promise<void>,
): () => void {
  return modes.onChange((mode) => {
    void send({ sessionUpdate: "current_mode_update", currentModeId: mode.slug }).catch(() => {});
  });
}
