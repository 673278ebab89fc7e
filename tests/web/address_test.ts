// The address and domain-pattern rules of src/web/address.ts, table-driven on their own (the
// same rules driven through fetch against a real TLS server are in page_test.ts).
import { expect } from "expect";
import {
  blockedAddressReason,
  domainMatches,
  domainPatternError,
  parseIPv6,
} from "../../src/web/address.ts";

Deno.test("addresses: range boundaries", () => {
  const cases: [string, string | null][] = [
    ["8.8.8.8", null],
    ["93.184.216.34", null],
    ["9.255.255.255", null],
    ["10.255.255.255", "a private address (10.0.0.0/8)"],
    ["11.0.0.0", null],
    ["100.63.255.255", null],
    ["100.64.0.0", "a shared (carrier-grade NAT) address (100.64.0.0/10)"],
    ["100.127.255.255", "a shared (carrier-grade NAT) address (100.64.0.0/10)"],
    ["100.128.0.0", null],
    ["172.15.255.255", null],
    ["172.32.0.0", null],
    ["192.167.255.255", null],
    ["192.169.0.0", null],
    ["169.253.255.255", null],
    ["198.17.255.255", null],
    ["198.19.255.255", "a benchmarking address (198.18.0.0/15)"],
    ["223.255.255.255", null],
    ["2606:4700::1111", null],
    ["2001:4860:4860::8888", null],
    ["::ffff:8.8.8.8", null],
    ["64:ff9b::808:808", null],
    ["2002:808:808::1", null],
    ["fbff::1", null],
    ["fec0::1", "a site-local address (fec0::/10)"],
    ["2001::1", "a reserved address (2001::/23, Teredo included)"],
    ["fe80::1%eth0", "a link-local address (fe80::/10)"],
    ["not-an-ip", "not an IP address"],
    ["1.2.3", "not an IP address"],
  ];
  expect(cases.map(([a]) => [a, blockedAddressReason(a)])).toEqual(cases);
});

Deno.test("addresses: IPv6 text forms", () => {
  expect(parseIPv6("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
  expect(parseIPv6("[::1]")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
  expect(parseIPv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(parseIPv6("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
  expect(parseIPv6("fe80::1:2")).toEqual([0xfe80, 0, 0, 0, 0, 0, 1, 2]);
  for (const bad of ["1:2:3", "1::2::3", "12345::", "::g", "1:2:3:4:5:6:7:8:9", "1.2.3.4"]) {
    expect([bad, parseIPv6(bad)]).toEqual([bad, null]);
  }
});

Deno.test("domains: pattern matching and validation", () => {
  const cases: [string, string, boolean][] = [
    ["example.com", "example.com", true],
    ["example.com", "a.example.com", false],
    ["*.example.com", "a.example.com", true],
    ["*.example.com", "a.b.example.com", true],
    ["*.example.com", "example.com", false],
    ["*.example.com", "badexample.com", false],
    ["*.Example.COM", "a.example.com", true],
  ];
  expect(cases.map(([p, h]) => [p, h, domainMatches(p, h)])).toEqual(cases);
  expect(["example.com", "*.example.com", "a-b.c1.io", "1.2.3.4"].map(domainPatternError))
    .toEqual([null, null, null, null]);
  for (
    const bad of ["", "*", "a.*.com", "ex ample.com", "*example.com", "https://x.com", "x.com/"]
  ) {
    expect([bad, domainPatternError(bad) !== null]).toEqual([bad, true]);
  }
});
