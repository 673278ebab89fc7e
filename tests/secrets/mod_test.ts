import { expect } from "expect";
import { RE2JS } from "re2js";
import { maskUrlPasswords, SECRET_SHAPES } from "../../src/secrets/mod.ts";
import { NOT_SECRETS, SECRET_EXAMPLES, WIDE_SECRETS } from "./_examples.ts";

Deno.test("every shape reads the same in RE2 and V8 and finds its example whole", () => {
  expect(SECRET_SHAPES.map((s) => s.kind)).toEqual(SECRET_EXAMPLES.map(([kind]) => kind));
  for (const [k, shape] of SECRET_SHAPES.entries()) {
    const [kind, line, secret] = SECRET_EXAMPLES[k];
    const re2 = RE2JS.compile(shape.pattern).matcher(line);
    const v8 = new RegExp(shape.pattern).exec(line);
    expect({ kind, re2: re2.find() ? re2.group(0) : null, v8: v8?.[0] ?? null })
      .toEqual({ kind, re2: secret, v8: secret });
    // Every match holds one of the hints.
    expect({ kind, hinted: shape.hints.some((hint) => secret.includes(hint)) })
      .toEqual({ kind, hinted: true });
  }
});

Deno.test("near misses match no shape", () => {
  const hits = NOT_SECRETS.flatMap((text) =>
    SECRET_SHAPES.filter((s) => new RegExp(s.pattern).test(text)).map((s) => [text, s.kind])
  );
  expect(hits).toEqual([]);
});

Deno.test("shorter and older tokens of a vendor's prefix still match their kind", () => {
  const kinds = WIDE_SECRETS.map(([kind, secret]) => [
    kind,
    SECRET_SHAPES.find((s) => new RegExp(s.pattern).exec(secret)?.[0] === secret)?.kind,
  ]);
  expect(kinds).toEqual(WIDE_SECRETS.map(([kind]) => [kind, kind]));
});

Deno.test("maskUrlPasswords hides the password of every URL and keeps scheme, user and host", () => {
  const cases: [string, string][] = [
    ["https://me:hunter2@example.com/v1", "https://me:[REDACTED]@example.com/v1"],
    // A raw '@' in the password: masked up to the last '@' before the path.
    ["git+ssh://bot:p@ss@host:22/repo", "git+ssh://bot:[REDACTED]@host:22/repo"],
    [
      "a http://u:p@h and postgres://db:s3cret@127.0.0.1:5432/x",
      "a http://u:[REDACTED]@h and postgres://db:[REDACTED]@127.0.0.1:5432/x",
    ],
    // No password: nothing to hide.
    ["https://user@example.com/", "https://user@example.com/"],
    ["https://example.com:8443/a@b", "https://example.com:8443/a@b"],
    ["plain text", "plain text"],
  ];
  for (const [input, expected] of cases) expect(maskUrlPasswords(input)).toBe(expected);
});
