/**
 * curl without -s prints its progress table (a header of two lines and a row it rewrites with
 * `\r`) on stderr: on real captures against a local server, the header goes and the row's final
 * state stays (the size and speed of a transfer that succeeded; how far a failed one got, above
 * curl's error line).
 */
import { expect } from "expect";
import { filter, fixture, lines } from "./_builtin.ts";

const HEADER = /^ {0,2}% Total {1,10}% Received|^ {10,40}Dload {1,10}Upload/;

Deno.test("curl: a transfer that succeeded keeps its row's final state, not the header", async () => {
  const raw = await fixture("curl-progress/ok.in.txt");
  expect(lines(raw).some((line) => HEADER.test(line))).toBe(true);
  expect(filter("curl -o out.bin http://127.0.0.1:18765/big.bin", raw)).toBe(
    "100 2929k  100 2929k    0     0  98.1M      0 --:--:-- --:--:-- --:--:-- 98.6M",
  );
});

Deno.test("curl: a failed transfer keeps its error line and the table's last row", async () => {
  const refused = await fixture("curl-progress/refused.in.txt");
  expect(lines(filter("curl -o o3 http://127.0.0.1:18799/x", refused, true))).toEqual([
    "  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0",
    "curl: (7) Failed to connect to 127.0.0.1 port 18799 after 0 ms: Couldn't connect to server",
  ]);
  const missing = await fixture("curl-progress/fail.in.txt");
  expect(lines(filter("curl -f -o o2 http://127.0.0.1:18765/missing", missing, true))).toEqual([
    "  0   335    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0",
    "curl: (22) The requested URL returned error: 404",
  ]);
});

Deno.test("curl: the body it prints stays as printed", () => {
  const body = ["  % Total    % Received % Xferd", "{", '  "status": "ok"', "}"];
  const out = lines(filter("curl http://127.0.0.1:8000/health", body.slice(1).join("\n")));
  expect(out).toEqual(body.slice(1));
});
