// Unit tests of chat_cmd.ts helpers (the end-to-end chat runs are in chat_test.ts).
import { expect } from "expect";
import * as path from "node:path";
import { saveHistory } from "../../src/cli/chat_cmd.ts";

Deno.test({
  name: "the prompt history file is the owner's only, and an older 0644 file is tightened",
  ignore: Deno.build.os === "windows",
  fn() {
    const dir = Deno.makeTempDirSync({ prefix: "zeph-history-" });
    try {
      const fresh = path.join(dir, "zeph", "history");
      saveHistory(fresh, "my token is s3cret");
      expect(Deno.statSync(fresh).mode! & 0o777).toBe(0o600);
      expect(Deno.readTextFileSync(fresh)).toBe("my token is s3cret\n");

      const old = path.join(dir, "old_history");
      Deno.writeTextFileSync(old, "earlier\n", { mode: 0o644 });
      Deno.chmodSync(old, 0o644);
      saveHistory(old, "next");
      expect(Deno.statSync(old).mode! & 0o777).toBe(0o600);
      expect(Deno.readTextFileSync(old)).toBe("earlier\nnext\n");
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
});
