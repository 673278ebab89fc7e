import { expect } from "expect";
import { ConfigError, formatIssue } from "../../src/config/errors.ts";
import { parseConfig } from "../../src/config/load.ts";
import { defaultConfig } from "../../src/config/schema.ts";
import { hostPatternError } from "../../src/config/sandbox_network.ts";

Deno.test("[tools.shell.sandbox] allowed_domains: default empty, good patterns kept", async () => {
  expect(defaultConfig().tools.shell.sandbox.allowed_domains).toEqual([]);
  const loaded = await parseConfig(
    '[tools.shell.sandbox]\nallowed_domains = ["registry.npmjs.org", "*.github.com", ' +
      '"10.0.0.5", "::1", "[fd00::1]", "my_host.lan"]\n',
    { source: "c.toml" },
  );
  expect(loaded.config.tools.shell.sandbox.allowed_domains).toEqual([
    "registry.npmjs.org",
    "*.github.com",
    "10.0.0.5",
    "::1",
    "[fd00::1]",
    "my_host.lan",
  ]);
});

Deno.test("hostPatternError names what is wrong with each bad pattern", () => {
  const cases: [string, string | null][] = [
    ["example.com", null],
    ["*.example.com", null],
    ["1.2.3.4", null],
    ["2001:db8::1", null],
    ["1.2.3.256", '"1.2.3.256" is not an IPv4 address (each part is 0 to 255)'],
    [
      "example.com:443",
      '"example.com:443" names a scheme, port or path: list the host only ("example.com"); ' +
      "every port is allowed",
    ],
    [
      "https://Example.com/",
      '"https://Example.com/" names a scheme, port or path: list the host only ' +
      '("example.com"); every port is allowed',
    ],
    ["1::2::3", '"1::2::3" is not an IPv6 address'],
    // Hex-looking names with a port are names and ports, not IPv6 addresses.
    [
      "cafe.de:8080",
      '"cafe.de:8080" names a scheme, port or path: list the host only ("cafe.de"); ' +
      "every port is allowed",
    ],
    [
      "bad.cafe:443",
      '"bad.cafe:443" names a scheme, port or path: list the host only ("bad.cafe"); ' +
      "every port is allowed",
    ],
    ["::ffff:10.0.0.1", null],
    ["1:2:3:4:5:6:7:8:9", '"1:2:3:4:5:6:7:8:9" is not an IPv6 address'],
  ];
  expect(cases.map(([p]) => [p, hostPatternError(p)])).toEqual(cases);
  for (const bad of ["*", "*.*.example.com", "exa mple.com", "", "ex*ample.com"]) {
    expect(hostPatternError(bad)).toContain("is not a host pattern: use");
  }
});

Deno.test("[tools.shell.sandbox]: bad patterns and allow_network with a list are errors naming the key", async () => {
  const error = await parseConfig(
    '[tools.shell.sandbox]\nallowed_domains = ["ok.com", "*.*.bad"]\n',
    { source: "c.toml" },
  ).then(() => null, (e) => e);
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).issues.map(formatIssue).sort()).toEqual([
    'c.toml: tools.shell.sandbox.allowed_domains[1]: "*.*.bad" is not a host pattern: use ' +
    '"example.com" or "*.example.com" (letters, digits, "-", "_" and ".", with "*." only at ' +
    'the start), or an IP address, found a string "*.*.bad"',
  ]);
  const both = await parseConfig(
    '[tools.shell.sandbox]\nallow_network = true\nallowed_domains = ["ok.com"]\n',
    { source: "c.toml" },
  ).then(() => null, (e) => e);
  expect((both as ConfigError).issues.map(formatIssue)).toEqual([
    "c.toml: tools.shell.sandbox.allowed_domains: allowed_domains has no effect while " +
    "allow_network = true gives commands every host: set allow_network = false to limit them " +
    'to the list, or remove allowed_domains, found an array ["ok.com"]',
  ]);
});
