/**
 * How a sandboxed command reaches zeph's network proxy: a bridge started inside the sandbox's
 * own network namespace listens on 127.0.0.1 and forwards to the proxy's unix socket, the
 * command waits until it listens, and the usual proxy variables point at it. The bridge is socat
 * when installed (the quickest to start), else the Deno binary running `_bridge.ts`; a compiled zeph
 * runs it as `zeph __sandbox-bridge`.
 */
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** The port the bridge listens on inside the sandbox (its network namespace is its own). */
export const BRIDGE_PORT = 3128;

/** How many times the launcher checks for the bridge, 1 ms apart, before it gives up. */
const BRIDGE_WAIT_TRIES = 5000;

/**
 * The variables a sandboxed command gets: HTTP(S)_PROXY in both cases and ALL_PROXY, all to the
 * bridge. Loopback stays direct: inside the sandbox it is the sandbox's own (a dev server the
 * command started), which the proxy could not reach anyway.
 */
export function proxyEnv(port = BRIDGE_PORT): [string, string][] {
  const url = `http://127.0.0.1:${port}`;
  const noProxy = "localhost,127.0.0.1,::1";
  return [
    ["HTTP_PROXY", url],
    ["HTTPS_PROXY", url],
    ["http_proxy", url],
    ["https_proxy", url],
    ["ALL_PROXY", url],
    ["all_proxy", url],
    ["NO_PROXY", noProxy],
    ["no_proxy", noProxy],
  ];
}

let socatPath: string | null | undefined;

/** socat's path on `PATH`, or null; looked up once. */
export function findSocat(
  env: Record<string, string | undefined> = Deno.env.toObject(),
): string | null {
  if (socatPath !== undefined) return socatPath;
  socatPath = null;
  for (const dir of (env.PATH ?? "").split(":")) {
    if (!dir) continue;
    const candidate = path.join(dir, "socat");
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && ((info.mode ?? 0) & 0o111) !== 0) {
        socatPath = candidate;
        break;
      }
    } catch {
      // Not there.
    }
  }
  return socatPath;
}

/** Which program forwards connections inside the sandbox. */
export type BridgeKind = "socat" | "deno" | "zeph";

/**
 * The bridge's command line: socat when `socat` is given, else the running executable (the
 * Deno binary running the script file, or a compiled zeph answering `__sandbox-bridge`).
 */
export function bridgeCommand(
  socketPath: string,
  options: { socat?: string | null; execPath?: string; port?: number } = {},
): { kind: BridgeKind; argv: string[]; env: [string, string][]; files: string[] } {
  const port = options.port ?? BRIDGE_PORT;
  if (options.socat) {
    return {
      kind: "socat",
      argv: [
        options.socat,
        `TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr`,
        `UNIX-CONNECT:${socketPath}`,
      ],
      env: [],
      files: [options.socat],
    };
  }
  const exe = options.execPath ?? Deno.execPath();
  if (!path.basename(exe).startsWith("deno")) {
    return {
      kind: "zeph",
      argv: [exe, "__sandbox-bridge", String(port), socketPath],
      env: [],
      files: [exe],
    };
  }
  const script = fileURLToPath(import.meta.resolve("./_bridge.ts"));
  return {
    kind: "deno",
    argv: [
      exe,
      "run",
      "--quiet",
      "--no-config",
      "--no-lock",
      "--no-prompt",
      `--allow-net=127.0.0.1:${port},unix:${socketPath}`,
      `--allow-read=${socketPath}`,
      `--allow-write=${socketPath}`,
      script,
      String(port),
      socketPath,
    ],
    // The root file system is read-only inside: Deno's cache goes to the private /tmp.
    env: [["DENO_DIR", "/tmp/.zeph-bridge-deno"], ["DENO_NO_UPDATE_CHECK", "1"]],
    files: [exe, script],
  };
}

/**
 * The program and arguments that start the bridge in the background, wait until it listens
 * (its socket appears in /proc/net/tcp of the sandbox's namespace) and then become the command
 * given after them. Ends with exit code 125 and a message when the bridge never listens.
 */
export function launcherArgs(
  bridge: { argv: string[]; env: [string, string][] },
  port = BRIDGE_PORT,
): string[] {
  const listening = ` 0100007F:${
    port.toString(16).toUpperCase().padStart(4, "0")
  } 00000000:0000 0A `;
  const start = [...bridge.env.map(([k, v]) => `${k}=${quote(v)}`), ...bridge.argv.map(quote)]
    .join(" ");
  const script = [
    `${start} </dev/null >/dev/null &`,
    "i=0",
    `while ! grep -q ${quote(listening)} /proc/net/tcp 2>/dev/null; do`,
    `  i=$((i+1)); if [ "$i" -ge ${BRIDGE_WAIT_TRIES} ]; then`,
    `    echo "zeph: the sandbox's network bridge did not start (${
      path.basename(bridge.argv[0])
    })" >&2; exit 125`,
    "  fi",
    "  sleep 0.001",
    "done",
    'exec "$@"',
  ].join("\n");
  return ["/bin/sh", "-c", script, "zeph-sandbox"];
}

function quote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}
