import { expect } from "expect";
import { parse } from "smol-toml";
import { MASK, maskSecrets, renderConfig } from "../../src/config/render.ts";
import { defaultConfig } from "../../src/config/schema.ts";

Deno.test("maskSecrets masks non-empty strings under key/token/secret/password keys only", () => {
  const input = {
    api_key: "sk-123",
    nested: { Auth_Token: "t", client_secret: "s", password: "p", empty_key: "" },
    max_tokens: 8192,
    model: "m",
    keys: ["a", "b"],
  };
  expect(maskSecrets(input)).toEqual({
    api_key: MASK,
    nested: { Auth_Token: MASK, client_secret: MASK, password: MASK, empty_key: "" },
    max_tokens: 8192,
    model: "m",
    keys: [MASK, MASK],
  });
});

Deno.test("renderConfig round-trips through TOML and JSON, dropping absent optional sections", async () => {
  const config = defaultConfig();
  const toml = await renderConfig(config, "toml");
  expect(parse(toml)).toEqual(JSON.parse(JSON.stringify(config)));
  const withRules = defaultConfig();
  Object.assign(withRules.tools.permissions, {
    bash: [{ pattern: "*", action: "ask" }],
  });
  expect(JSON.parse(await renderConfig(withRules, "json"))).toEqual(
    JSON.parse(JSON.stringify(withRules)),
  );
});

Deno.test("renderConfig masks the password of a URL under any key, as the audit log does", async () => {
  const config = defaultConfig();
  config.llm.openai.base_url = "https://me:hunter2@llm.example/v1";
  for (const format of ["toml", "json"] as const) {
    const text = await renderConfig(config, format);
    expect(text).not.toContain("hunter2");
    expect(text).toContain("https://me:[REDACTED]@llm.example/v1");
  }
});
