/** The release version, printed by `zeph --version` and sent as ACP agentInfo. */
export const VERSION = "0.1.0";
