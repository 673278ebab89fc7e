/**
 * The fields Node prints after an uncaught error's stack (src/filter/generic_error_fields.ts):
 * they go when the message says every one of them, and stay whole when one says more. Outputs
 * are Node 20's, captured from scripts that read a missing file, connect to a closed port and
 * require a missing module.
 */
import { expect } from "expect";
import { FilterEngine } from "../../src/filter/mod.ts";
import { foldEchoedErrorFields } from "../../src/filter/generic_error_fields.ts";

const engine = new FilterEngine([], { security: false });
const generic = (command: string, input: string) =>
  engine.filter(command, input, { failed: true }).text;

const ENOENT = [
  "loading config",
  "Error: ENOENT: no such file or directory, open './config/app.yaml'",
  "    at async open (node:internal/fs/promises:637:25)",
  "    at async readFile (node:internal/fs/promises:1249:14)",
  "    at async file:///srv/app/prom.mjs:3:13 {",
  "  errno: -2,",
  "  code: 'ENOENT',",
  "  syscall: 'open',",
  "  path: './config/app.yaml'",
  "}",
  "",
  "Node.js v20.20.2",
];

const ECONNREFUSED = [
  "connecting to db",
  "node:events:502",
  "      throw er; // Unhandled 'error' event",
  "      ^",
  "",
  "Error: connect ECONNREFUSED 127.0.0.1:5999",
  "    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1611:16)",
  "Emitted 'error' event on Socket instance at:",
  "    at emitErrorNT (node:internal/streams/destroy:169:8)",
  "    at emitErrorCloseNT (node:internal/streams/destroy:128:3)",
  "    at process.processTicksAndRejections (node:internal/process/task_queues:82:21) {",
  "  errno: -111,",
  "  code: 'ECONNREFUSED',",
  "  syscall: 'connect',",
  "  address: '127.0.0.1',",
  "  port: 5999",
  "}",
  "",
  "Node.js v20.20.2",
];

const MODULE_NOT_FOUND = [
  "node:internal/modules/cjs/loader:1210",
  "  throw err;",
  "  ^",
  "",
  "Error: Cannot find module './lib/missing-helper'",
  "Require stack:",
  "- /srv/app/mod.js",
  "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)",
  "    at Module._load (node:internal/modules/cjs/loader:1038:27)",
  "    at Module.require (node:internal/modules/cjs/loader:1289:19)",
  "    at require (node:internal/modules/helpers:182:18)",
  "    at Object.<anonymous> (/srv/app/mod.js:1:1)",
  "    at Module._compile (node:internal/modules/cjs/loader:1521:14)",
  "    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)",
  "    at Module.load (node:internal/modules/cjs/loader:1266:32)",
  "    at Module._load (node:internal/modules/cjs/loader:1091:12)",
  "    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12) {",
  "  code: 'MODULE_NOT_FOUND',",
  "  requireStack: [ '/srv/app/mod.js' ]",
  "}",
  "",
  "Node.js v20.20.2",
];

Deno.test("a system error's fields that its message says go with their braces; message and frames stay", () => {
  expect(foldEchoedErrorFields(ENOENT)).toEqual([
    ...ENOENT.slice(0, 4),
    "    at async file:///srv/app/prom.mjs:3:13",
    "",
    "Node.js v20.20.2",
  ]);
  expect(generic("node server.js", ECONNREFUSED.join("\n"))).toBe([
    "connecting to db",
    "Error: connect ECONNREFUSED 127.0.0.1:5999",
    "    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1611:16)",
    "Emitted 'error' event on Socket instance at:",
    "    at emitErrorNT (node:internal/streams/destroy:169:8)",
    "    … 2 frames in node internals folded …",
    "",
    "Node.js v20.20.2",
  ].join("\n"));
});

Deno.test("fields that say more than the message stay whole, and a folded last frame keeps their opening brace", () => {
  expect(foldEchoedErrorFields(MODULE_NOT_FOUND)).toBe(MODULE_NOT_FOUND);
  expect(generic("node mod.js", MODULE_NOT_FOUND.join("\n"))).toBe([
    "Error: Cannot find module './lib/missing-helper'",
    "Require stack:",
    "- /srv/app/mod.js",
    "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)",
    "    … 3 frames in node internals folded …",
    "    at Object.<anonymous> (/srv/app/mod.js:1:1)",
    "    … 5 frames in node internals folded … {",
    "  code: 'MODULE_NOT_FOUND',",
    "  requireStack: [ '/srv/app/mod.js' ]",
    "}",
    "",
    "Node.js v20.20.2",
  ].join("\n"));
  // One field the message does not hold keeps the block: here the path differs from the message's.
  const other = ENOENT.map((l) => l.replace("  path: './config/app.yaml'", "  path: './b.yaml'"));
  expect(foldEchoedErrorFields(other)).toBe(other);
  // An errno with no code beside it says a number the message does not.
  const bare = [ENOENT[1], "    at open (/srv/app/a.js:1:1) {", "  errno: -2", "}"];
  expect(foldEchoedErrorFields(bare)).toBe(bare);
  // Fields with no error line above them are no error's.
  const noHeader = ["    at open (/srv/app/a.js:1:1) {", "  code: 'x'", "}"];
  expect(foldEchoedErrorFields(noHeader)).toBe(noHeader);
});

// node 20.20: errors thrown with fields set by hand, one whose value is a word's part in the
// message (`EN` in `ENOENT`, `open` in `reopen`), one whose values all stand whole in it.
const PART_OF_WORD = [
  "/tmp/mend3-node/en.js:4",
  "throw e;",
  "^",
  "",
  "Error: ENOENT: no such file or directory, open 'a.json'",
  "    at Object.<anonymous> (/tmp/mend3-node/en.js:1:11)",
  "    at Module._compile (node:internal/modules/cjs/loader:1521:14)",
  "    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)",
  "    at Module.load (node:internal/modules/cjs/loader:1266:32)",
  "    at Module._load (node:internal/modules/cjs/loader:1091:12)",
  "    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)",
  "    at node:internal/main/run_main_module:28:49 {",
  "  code: 'EN',",
  "  path: 'a.json'",
  "}",
  "",
  "Node.js v20.20.2",
];
const WORD_INSIDE = [
  "/tmp/mend3-node/reopen.js:4",
  "throw e;",
  "^",
  "",
  "Error: reopen failed for config.yaml",
  "    at Object.<anonymous> (/tmp/mend3-node/reopen.js:1:11)",
  "    at Module._compile (node:internal/modules/cjs/loader:1521:14)",
  "    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)",
  "    at Module.load (node:internal/modules/cjs/loader:1266:32)",
  "    at Module._load (node:internal/modules/cjs/loader:1091:12)",
  "    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)",
  "    at node:internal/main/run_main_module:28:49 {",
  "  syscall: 'open',",
  "  path: 'config.yaml'",
  "}",
  "",
  "Node.js v20.20.2",
];
const WHOLE_WORDS = [
  "/tmp/mend3-node/whole.js:5",
  "throw e;",
  "^",
  "",
  "Error: open failed for config.yaml: EBUSY",
  "    at Object.<anonymous> (/tmp/mend3-node/whole.js:1:11)",
  "    at Module._compile (node:internal/modules/cjs/loader:1521:14)",
  "    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)",
  "    at Module.load (node:internal/modules/cjs/loader:1266:32)",
  "    at Module._load (node:internal/modules/cjs/loader:1091:12)",
  "    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)",
  "    at node:internal/main/run_main_module:28:49 {",
  "  code: 'EBUSY',",
  "  syscall: 'open',",
  "  path: 'config.yaml'",
  "}",
  "",
  "Node.js v20.20.2",
];

Deno.test("a field is said only by the message's whole word: part of a longer word keeps the block", () => {
  expect(foldEchoedErrorFields(PART_OF_WORD)).toBe(PART_OF_WORD);
  expect(foldEchoedErrorFields(WORD_INSIDE)).toBe(WORD_INSIDE);
  const end = WHOLE_WORDS.indexOf("}");
  expect(foldEchoedErrorFields(WHOLE_WORDS)).toEqual([
    ...WHOLE_WORDS.slice(0, end - 4),
    WHOLE_WORDS[end - 4].slice(0, -2),
    ...WHOLE_WORDS.slice(end + 1),
  ]);
});
