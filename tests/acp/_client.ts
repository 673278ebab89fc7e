/**
 * A test ACP client on the SDK's client API, driving `zeph acp` over real stdio. It records the
 * raw traffic in both directions, validates every message the agent sends against the
 * protocol's JSON Schema (the SDK does not check outgoing messages), and implements fs/* and
 * terminal/* on a real file system and real processes.
 */
import * as acp from "@agentclientprotocol/sdk";
import Ajv2020 from "ajv/dist/2020.js";
import * as path from "node:path";
import { TASK_FLAGS } from "../_support/zeph_flags.ts";

const ROOT = path.resolve(import.meta.dirname!, "../..");
const DENO = Deno.execPath();

export interface Traffic {
  /** Lines the agent wrote to stdout, parsed. */
  fromAgent: Record<string, unknown>[];
  /** Messages the client sent. */
  toAgent: Record<string, unknown>[];
  /** Raw stdout lines that were not JSON (must stay empty). */
  garbage: string[];
}

// deno-lint-ignore no-explicit-any
type AnyFn = ((...a: any[]) => any) & { errors?: unknown };
let schemaCache: { forDef(name: string): AnyFn } | null = null;

/** Validators for the protocol's $defs (compiled once per test process). */
export function schemas(): { forDef(name: string): AnyFn } {
  if (schemaCache) return schemaCache;
  const schema = JSON.parse(
    Deno.readTextFileSync(
      path.join(ROOT, "node_modules/@agentclientprotocol/sdk/schema/v1/schema.json"),
    ),
  );
  // deno-lint-ignore no-explicit-any
  const ajv = new (Ajv2020 as any)({ strict: false, allErrors: true, logger: false });
  ajv.addSchema(schema, "acp.json");
  const compiled = new Map<string, AnyFn>();
  schemaCache = {
    forDef(name: string) {
      let v = compiled.get(name);
      if (!v) {
        v = ajv.compile({ $ref: `acp.json#/$defs/${name}` }) as AnyFn;
        compiled.set(name, v);
      }
      return v;
    },
  };
  return schemaCache;
}

const RESPONSE_DEFS: Record<string, string> = {
  initialize: "InitializeResponse",
  authenticate: "AuthenticateResponse",
  "session/new": "NewSessionResponse",
  "session/load": "LoadSessionResponse",
  "session/list": "ListSessionsResponse",
  "session/prompt": "PromptResponse",
  "session/set_mode": "SetSessionModeResponse",
};
const REQUEST_DEFS: Record<string, string> = {
  "session/update": "SessionNotification",
  "session/request_permission": "RequestPermissionRequest",
  "fs/read_text_file": "ReadTextFileRequest",
  "fs/write_text_file": "WriteTextFileRequest",
  "terminal/create": "CreateTerminalRequest",
  "terminal/output": "TerminalOutputRequest",
  "terminal/wait_for_exit": "WaitForTerminalExitRequest",
  "terminal/kill": "KillTerminalRequest",
  "terminal/release": "ReleaseTerminalRequest",
};

/** Every agent message checked against the schema; returns the problems found. */
export function validateTraffic(traffic: Traffic): string[] {
  const problems: string[] = [];
  const requestMethods = new Map<string, string>();
  for (const m of traffic.toAgent) {
    if (m.method && m.id !== undefined) requestMethods.set(String(m.id), String(m.method));
  }
  for (const m of traffic.fromAgent) {
    if (m.jsonrpc !== "2.0") problems.push(`not JSON-RPC 2.0: ${JSON.stringify(m)}`);
    if (typeof m.method === "string") {
      const def = REQUEST_DEFS[m.method];
      if (!def) {
        problems.push(`unexpected method from agent: ${m.method}`);
        continue;
      }
      const v = schemas().forDef(def);
      if (!v(m.params)) {
        problems.push(`${m.method} invalid: ${JSON.stringify(v.errors).slice(0, 400)}`);
      }
    } else if ("result" in m) {
      const method = requestMethods.get(String(m.id));
      const def = method ? RESPONSE_DEFS[method] : undefined;
      if (!def) continue; // a response to something outside this table (none expected)
      const v = schemas().forDef(def);
      if (!v(m.result)) {
        problems.push(`${method} response invalid: ${JSON.stringify(v.errors).slice(0, 400)}`);
      }
    } else if (!("error" in m)) {
      problems.push(`neither request, notification, result nor error: ${JSON.stringify(m)}`);
    }
  }
  return problems;
}

export interface Workspace {
  dir: string;
  home: string;
  script: string;
  config: string;
}

/** Workspaces made by this test file, removed when its tests are done (each holds a store). */
const made: string[] = [];
addEventListener("unload", () => {
  for (const dir of made) {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch {
      // Gone already, or held open by a process a test left running: nothing to keep.
    }
  }
});

/**
 * A temp workspace, HOME (store, audit, history land there) and a script + config file, removed
 * when the test file's tests are done.
 */
export async function workspace(
  script: unknown[],
  configToml = "",
): Promise<Workspace> {
  const base = await Deno.makeTempDir({ prefix: "zeph_acp_" });
  made.push(base);
  const dir = path.join(base, "ws");
  const home = path.join(base, "home");
  await Deno.mkdir(dir);
  await Deno.mkdir(home);
  const scriptPath = path.join(base, "script.jsonl");
  await Deno.writeTextFile(scriptPath, script.map((t) => JSON.stringify(t)).join("\n") + "\n");
  const config = path.join(base, "config.toml");
  await Deno.writeTextFile(config, configToml);
  return { dir: await Deno.realPath(dir), home, script: scriptPath, config };
}

export interface ClientOptions {
  ws: Workspace;
  fs?: boolean;
  terminal?: boolean;
  /** Answers permission requests with this option id (or "cancelled"). */
  permission?: (params: acp.RequestPermissionRequest) => string;
  /** Editor buffers: reads see these before the disk, and writes land in them. */
  buffers?: Map<string, string>;
  extraArgs?: string[];
  /** Start without `--script` (`--provider script` alone). @default false */
  noScript?: boolean;
}

export interface Terminal {
  id: string;
  command: string;
  args: string[];
  output: string;
  exit: Promise<{ exitCode: number | null; signal: string | null }>;
  child: Deno.ChildProcess;
  released: boolean;
}

export interface Session {
  traffic: Traffic;
  updates: acp.SessionNotification[];
  /** Ordered log of what happened: "update:<kind>", "permission", "terminal/create", … */
  events: string[];
  permissionRequests: acp.RequestPermissionRequest[];
  writes: { path: string; content: string }[];
  reads: string[];
  terminals: Map<string, Terminal>;
  stderr: () => string;
  agent: acp.ClientContext;
  close(): Promise<void>;
}

/**
 * `zeph acp` on the workspace's config and script, all three streams piped, with a home of its
 * own (no user config or data leaks in).
 */
export function spawnAcp(
  ws: Workspace,
  options: { extraArgs?: string[]; env?: Record<string, string>; noScript?: boolean } = {},
): Deno.ChildProcess {
  return new Deno.Command(DENO, {
    args: [
      "run",
      ...TASK_FLAGS,
      path.join(ROOT, "main.ts"),
      "acp",
      "--config",
      ws.config,
      "--provider",
      "script",
      ...(options.noScript ? [] : ["--script", ws.script]),
      ...(options.extraArgs ?? []),
    ],
    cwd: ws.dir,
    env: { HOME: ws.home, XDG_DATA_HOME: "", XDG_CONFIG_HOME: "", NO_COLOR: "1", ...options.env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Spawns `zeph acp` with the scripted provider and connects an SDK client to it. */
export async function connect(options: ClientOptions): Promise<Session> {
  const { ws } = options;
  const child = spawnAcp(ws, { extraArgs: options.extraArgs, noScript: options.noScript });

  const traffic: Traffic = { fromAgent: [], toAgent: [], garbage: [] };
  const updates: acp.SessionNotification[] = [];
  const events: string[] = [];
  const permissionRequests: acp.RequestPermissionRequest[] = [];
  const writes: { path: string; content: string }[] = [];
  const reads: string[] = [];
  const terminals = new Map<string, Terminal>();
  let stderrText = "";
  const stderrDone = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({ write: (t) => void (stderrText += t) }),
  );

  const [forSdk, forLog] = child.stdout.tee();
  const logDone = (async () => {
    let buf = "";
    for await (const text of forLog.pipeThrough(new TextDecoderStream())) {
      buf += text;
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (!line) continue;
        try {
          traffic.fromAgent.push(JSON.parse(line));
        } catch {
          traffic.garbage.push(line);
        }
      }
    }
    if (buf.trim()) traffic.garbage.push(buf.trim());
  })();

  const stdinWriter = child.stdin.getWriter();
  const decoder = new TextDecoder();
  const toAgent = new WritableStream<Uint8Array>({
    async write(chunk) {
      for (const line of decoder.decode(chunk).split("\n")) {
        if (line.trim()) traffic.toAgent.push(JSON.parse(line));
      }
      await stdinWriter.write(chunk);
    },
    async close() {
      await stdinWriter.close();
    },
  });

  let termSeq = 0;
  const app = acp.client({ name: "zeph-test-client" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push(params);
      events.push(`update:${params.update.sessionUpdate}`);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      permissionRequests.push(params);
      events.push("permission");
      const choice = options.permission?.(params) ?? "allow_once";
      if (choice === "cancelled") return { outcome: { outcome: "cancelled" } };
      return { outcome: { outcome: "selected", optionId: choice } };
    })
    .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
      events.push("fs/read_text_file");
      reads.push(params.path);
      const buffered = options.buffers?.get(params.path);
      if (buffered !== undefined) return { content: buffered };
      try {
        return { content: await Deno.readTextFile(params.path) };
      } catch {
        throw acp.RequestError.resourceNotFound(`file://${params.path}`);
      }
    })
    .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
      events.push("fs/write_text_file");
      writes.push({ path: params.path, content: params.content });
      // An editor's buffer holds what it was sent (unsaved: the disk is left alone).
      options.buffers?.set(params.path, params.content);
      return {};
    })
    .onRequest(acp.methods.client.terminal.create, ({ params }) => {
      const id = `term_${++termSeq}`;
      events.push("terminal/create");
      const proc = new Deno.Command(params.command, {
        args: params.args ?? [],
        cwd: params.cwd ?? ws.dir,
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const term: Terminal = {
        id,
        command: params.command,
        args: params.args ?? [],
        output: "",
        child: proc,
        released: false,
        exit: Promise.resolve({ exitCode: null, signal: null }),
      };
      const collect = (s: ReadableStream<Uint8Array>) =>
        s.pipeThrough(new TextDecoderStream()).pipeTo(
          new WritableStream({ write: (t) => void (term.output += t) }),
        );
      const pipes = Promise.all([collect(proc.stdout), collect(proc.stderr)]);
      term.exit = proc.status.then(async (s) => {
        await pipes;
        return { exitCode: s.signal ? null : s.code, signal: s.signal ?? null };
      });
      terminals.set(id, term);
      return { terminalId: id };
    })
    .onRequest(acp.methods.client.terminal.waitForExit, async ({ params }) => {
      events.push("terminal/wait_for_exit");
      return await terminals.get(params.terminalId)!.exit;
    })
    .onRequest(acp.methods.client.terminal.output, ({ params }) => {
      events.push("terminal/output");
      const t = terminals.get(params.terminalId);
      if (!t || t.released) throw acp.RequestError.invalidParams({}, "unknown terminal");
      return { output: t.output, truncated: false };
    })
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
      events.push("terminal/kill");
      try {
        terminals.get(params.terminalId)?.child.kill("SIGKILL");
      } catch { /* already exited */ }
      return {};
    })
    .onRequest(acp.methods.client.terminal.release, ({ params }) => {
      events.push("terminal/release");
      const t = terminals.get(params.terminalId);
      if (t) {
        t.released = true;
        try {
          t.child.kill("SIGKILL");
        } catch { /* already exited */ }
      }
      return {};
    });

  const conn = app.connect(acp.ndJsonStream(toAgent, forSdk));
  const agent = conn.agent;
  await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: {
      fs: { readTextFile: !!options.fs, writeTextFile: !!options.fs },
      terminal: !!options.terminal,
    },
  });
  return {
    traffic,
    updates,
    events,
    permissionRequests,
    writes,
    reads,
    terminals,
    stderr: () => stderrText,
    agent,
    async close() {
      await conn.close?.();
      try {
        await stdinWriter.close();
      } catch { /* closed */ }
      const status = await child.status;
      await logDone;
      await stderrDone;
      for (const t of terminals.values()) {
        try {
          t.child.kill("SIGKILL");
        } catch { /* done */ }
        await t.child.status;
      }
      if (!status.success) throw new Error(`zeph acp exited with ${status.code}: ${stderrText}`);
    },
  };
}

export async function newSession(s: Session, cwd: string): Promise<string> {
  const r = await s.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
  return r.sessionId;
}

export async function prompt(s: Session, sessionId: string, text: string): Promise<string> {
  const r = await s.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text }],
  });
  return r.stopReason;
}

/** Waits until an update of `kind` (e.g. "tool_call") has arrived. */
export async function untilUpdate(s: Session, kind: string): Promise<void> {
  while (!s.updates.some((u) => u.update.sessionUpdate === kind)) {
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The agent's streamed text so far, joined (of one session when `sessionId` is given). */
export function agentText(s: Session, sessionId?: string): string {
  return s.updates
    .filter((u) =>
      (sessionId === undefined || u.sessionId === sessionId) &&
      u.update.sessionUpdate === "agent_message_chunk"
    )
    .map((u) => (u.update as { content: { text: string } }).content.text)
    .join("");
}
