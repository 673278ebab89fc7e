import { expect } from "expect";
import { corpusTexts } from "./_corpus.ts";
import { prng } from "../_support/random.ts";
import { compileExtraPatterns, FilterEngine, SecurityScanner } from "../../src/filter/mod.ts";
import { CHUNK, MAX_ENCODED } from "../../src/filter/chunks.ts";

// Assembled at run time so the repository holds no credential-shaped literal.
const fake = (prefix: string, body: string) => prefix + body;
const CREDENTIALS: [string, string][] = [
  ["AWS access key ID", `key=${fake("AKIA", "ABCDEFGHIJKLMNOP")}`],
  ["GitHub token", `token ${fake("ghp_", "a".repeat(36))}`],
  ["GitHub fine-grained token", fake("github_pat_", "11ABCDEFG0" + "x".repeat(30))],
  ["GitLab token", fake("glpat-", "abcdefghij0123456789")],
  ["Slack token", fake("xoxb-", "1234567890-abcdefghij")],
  ["Anthropic API key", fake("sk-ant-", "api03-" + "b".repeat(40))],
  ["OpenAI API key", fake("sk-proj-", "c".repeat(40))],
  ["Google API key", fake("AIza", "S".repeat(35))],
  ["Stripe key", fake("sk_live_", "d".repeat(24))],
  ["npm token", fake("npm_", "e".repeat(36))],
  ["Hugging Face token", fake("hf_", "f".repeat(34))],
  ["private key", "-----BEGIN RSA PRIVATE KEY-----"],
  ["JWT", `${fake("eyJ", "hbGciOiJIUzI1NiJ9")}.${fake("eyJ", "zdWIiOiIxMjM0In0")}.sig_nature_123`],
  ["password in URL", "postgres://admin:" + "hunter2" + "@db.internal:5432/app"],
];

Deno.test("every credential kind is named in the warning, never its value", () => {
  const engine = new FilterEngine([]);
  for (const [kind, line] of CREDENTIALS) {
    const out = engine.filter("cat env", `before\n${line}\nafter`);
    const warning = out.text.split("\n").at(-1)!;
    expect([kind, warning]).toEqual([
      kind,
      `[security] The output contains credential-shaped strings (${kind}). They were not removed: do not repeat, store or send them anywhere.`,
    ]);
    // The value itself appears only where the command printed it, not in the warning.
    expect(warning.includes(line)).toBe(false);
  }
});

Deno.test("an Anthropic key is not also reported as an OpenAI key; counts add up", () => {
  const scanner = new SecurityScanner();
  scanner.scan(`${fake("sk-ant-", "x".repeat(30))}\n${fake("sk-ant-", "y".repeat(30))}`);
  expect([...scanner.found]).toEqual([["Anthropic API key", 2]]);
});

Deno.test("ordinary output raises no credential warning", () => {
  const engine = new FilterEngine([]);
  const text = "skip-lint\ndesk-top\nhttps://example.com/path\nuser@example.com\nghost_town";
  expect(engine.filter("ls", text).text).toBe(text);
});

Deno.test("extra_patterns extend the scan; invalid ones are skipped with a warning", () => {
  const { patterns, warnings } = compileExtraPatterns(["ACME-[0-9]{6}", "(a)\\1"]);
  expect(patterns.length).toBe(1);
  expect(warnings).toEqual([
    "[tools.filters.security] extra_patterns[1] skipped: invalid RE2 regex: error parsing regexp: invalid escape sequence: `\\1`. Fix or remove the pattern.",
  ]);
  const engine = new FilterEngine([], { extraPatterns: patterns });
  expect(engine.filter("x", "id ACME-123456").text).toContain("(extra pattern #1)");
});

Deno.test("security signals removed by a filter are appended, kept ones are not repeated", () => {
  const rule = {
    name: "t",
    source: "test",
    matches: () => true,
    strategy: {
      type: "keep_matching",
      createStage: (ctx: { emit(l: string): void }) => ({
        push: (line: string) => line.startsWith("keep") && ctx.emit(line),
        finish: () => "full" as const,
      }),
    },
  };
  const engine = new FilterEngine([rule]);
  const out = engine.filter(
    "cmd",
    "keep 1\nthread 'main' panicked at src/main.rs:3:5\nnoise\nkeep: Permission denied\nRUSTSEC-2024-0001 advisory",
  );
  expect(out.text).toBe(
    "keep 1\nkeep: Permission denied\n--- Security-relevant lines (preserved) ---\nthread 'main' panicked at src/main.rs:3:5\nRUSTSEC-2024-0001 advisory",
  );
});

Deno.test("the security pass can be switched off", () => {
  const engine = new FilterEngine([], { security: false });
  const line = `key=${fake("AKIA", "ABCDEFGHIJKLMNOP")}`;
  expect(engine.filter("cat", line).text).toBe(line);
});

Deno.test("the prefiltered scan reports exactly what the whole-text scan reported", async () => {
  const { SecurityScanner: Reference } = await import("./_security_reference.ts");
  const texts = await corpusTexts();
  const all = CREDENTIALS.map(([, line]) => line);
  texts.push(
    all.join("\n"),
    all.join(" "),
    all.join(""),
    all.map((line) => `x${line}x`).join("\n"),
    all.map((line) => `${line} ${line}\n${line}`).join("\n"),
    // Past the per-line limit: the whole-text fallback.
    Array.from({ length: 2500 }, (_, i) => `${i} https://u${i}:p@h ${i % 7 ? "" : all[i % 14]}`)
      .join("\n"),
    `${fake("sk-ant-", "z".repeat(25))} ${fake("sk-", "q".repeat(25))} sk-ant-short gh_ ghp_x`,
    ...SCAN_EDGES,
  );
  expect(texts.length).toBeGreaterThan(100);
  // Lines of millions of characters are shown by their ends (a diff of them takes forever).
  const short = (line: string) =>
    line.length > 200 ? `${line.slice(0, 60)}…(${line.length})…${line.slice(-60)}` : line;
  for (const text of texts) {
    const [a, b] = [new Reference(), new SecurityScanner()];
    a.scan(text);
    b.scan(text);
    expect([[...b.found], b.signalLines.map(short), b.signalCount])
      .toEqual([[...a.found], a.signalLines.map(short), a.signalCount]);
  }
});

/** Every signal alternative in each case form, with neighbours that are and are not signals. */
const SIGNALS = [
  "thread 'x' panicked at src/a.rs:1:2",
  "panic: runtime error",
  "  panic: not at line start",
  "Segmentation fault (core dumped)",
  "segmentation fault",
  "SIGSEGV: segmentation violation",
  "Core dumped",
  "Stack overflow",
  "stack overflow in thread",
  "Authentication failed for 'x'",
  "remote: AUTHENTICATION FAILED",
  "401 Unauthorized",
  "UNAUTHORIZED",
  "Permission denied (publickey)",
  "PERMISSION DENIED",
  "Access denied for user",
  "ACCESS DENIED",
  "403 Forbidden",
  "FORBIDDEN",
  "Invalid credentials",
  "RUSTSEC-2024-0001 yanked",
  "RUSTSEC-20x4-0001 not one",
  "GHSA-abcd-efgh-ijkl",
  "CVE-2024-12345",
  "Security advisory",
  "found 3 vulnerabilities",
  "found 0 vulnerabilities",
  "VULNERABILITY",
  "Weak cipher suite",
  "Insecure hash md5",
  "certificate verify failed",
  "SQL injection",
  "[stderr] \x1b[31mPermission denied\x1b[0m",
  "progress 10%\rpanic: after a carriage return",
];

/**
 * Texts for the byte scan's edges: non-ASCII lines (Latin-1, BMP, astral), a lone surrogate
 * (the string path), no trailing newline, lines across the 1 MiB encoding chunks, a trigger
 * pair without its literal, literals at a line's first and last bytes, a line too long to
 * encode.
 */
const SCAN_EDGES: string[] = (() => {
  const all = CREDENTIALS.map(([, line]) => line);
  const out = [
    SIGNALS.join("\n"),
    SIGNALS.map((line, i) => `${i % 2 ? "é" : "‘’"} ${line} ${all[i % all.length]} 😀`).join("\n"),
    `lone \ud800 surrogate ${all[0]}\nPermission denied\n${all[3]}`,
    `${all[1]}\n${all[2]}`,
    "",
    "\n\n",
    "AK KI ic c: :/ k- hp yJ GH VE only pairs, no literal\n".repeat(50),
    all.map((line) => `${line}\n`).join("") + SIGNALS[0],
    // A U+FEFF opening a non-ASCII line is part of the line, not a byte-order mark to drop.
    `\uFEFF${SIGNALS[0]} é\nok\n\uFEFFé ${SIGNALS[1]}\n\uFEFF\uFEFF${SIGNALS[3]} 😀`,
  ];
  // ~2.6 M characters: lines of varying length so that chunk ends fall inside and at the ends
  // of lines holding credentials and signals, once as ASCII and once with "é" in every line.
  for (const accent of ["", "é"]) {
    const lines: string[] = [];
    let size = 0;
    for (let i = 0; size < 2_600_000; i++) {
      const line = i % 997 === 0
        ? `${accent}${all[i % all.length]} ${SIGNALS[i % SIGNALS.length]}`
        : `${accent}plain line ${i} ${"x".repeat(i % 300)}`;
      lines.push(line);
      size += line.length + 1;
    }
    // Credentials and signals at both ends of the lines around each 1 MiB boundary.
    let at = 0;
    for (let k = 0; k < lines.length; k++) {
      const before = at;
      at += lines[k].length + 1;
      for (const boundary of [1 << 20, 2 << 20]) {
        if (before <= boundary + 3000 && at >= boundary - 3000) {
          lines[k] = `${all[k % all.length]} ${SIGNALS[k % SIGNALS.length]} ${lines[k]} ${
            all[k % 7]
          }`;
        }
      }
    }
    out.push(lines.join("\n"));
  }
  // One line of 4.3 M characters (too long to encode whole: encoded a window at a time),
  // between ordinary lines.
  const filler = "y".repeat(1_400_000);
  out.push(
    [
      `${SIGNALS[5]} ${all[2]}`,
      `${all[0]}${filler}é${all[4]} ${SIGNALS[13]}${filler}‘${all[6]}${filler}${all[13]}`,
      `${SIGNALS[1]}`,
      "Permission denied ‘’ " + all[9],
    ].join("\n"),
  );
  // Lines too long to encode whole are encoded in windows of CHUNK characters that overlap by
  // the longest literal less one: a literal across the end of the first window (1 to all but
  // one of its characters before it) is the line's only one of its kind, after a lone
  // surrogate or astral or Latin-1 characters, with and without a newline after the line.
  const across: [string, string][] = [
    [all[0], "AKIA"],
    [all[11], "PRIVATE KEY"],
    ["Permission denied (publickey)", "ermission denied"],
    ["x509: certificate verify failed", "ertificate verify failed"],
  ];
  const lead = ["😀", "\ud800", "é", ""];
  for (const [i, [text, literal]] of across.entries()) {
    for (const before of [1, literal.length >> 1, literal.length - 1]) {
      const start = CHUNK - before - text.indexOf(literal);
      const head = lead[i] + " ".repeat(start - lead[i].length);
      const line = head + text + " " + "y".repeat(MAX_ENCODED + 1000 - start);
      out.push(`ok\n${line}${before === 1 ? "" : "\nok"}`);
    }
  }
  return out;
})();

Deno.test("the scan finds every literal at every alignment, next to others and at line edges", async () => {
  // The byte scan reads pairs at even offsets only: literals at odd and even offsets, two on
  // one line in either order, at the start and end of lines, with multi-byte characters before
  // them, must give what the whole-text reference scanner gives.
  const { SecurityScanner: Reference } = await import("./_security_reference.ts");
  const random = prng(17);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  const pieces = [
    ...CREDENTIALS.map(([, line]) => line),
    ...SIGNALS,
    "x",
    "é",
    "😀",
    " ",
    "ic",
    "nic",
    "sk",
    "k-",
    "panic",
    ": ",
  ];
  const texts = Array.from(
    { length: 300 },
    () =>
      Array.from(
        { length: 1 + Math.floor(random() * 40) },
        () =>
          Array.from({ length: Math.floor(random() * 5) }, () => pick(pieces)).join(
            pick(["", " "]),
          ),
      )
        .join("\n"),
  );
  for (const text of texts) {
    const [a, b] = [new Reference(), new SecurityScanner()];
    a.scan(text);
    b.scan(text);
    expect({ text, found: [...b.found], lines: b.signalLines, count: b.signalCount })
      .toEqual({ text, found: [...a.found], lines: a.signalLines, count: a.signalCount });
  }
});

Deno.test("the scan tells whether the text holds what V8 and RE2 read otherwise (astral, lone surrogates, ſ, K)", () => {
  const exotic = /[\uD800-\uDFFF\u017F\u212A]/;
  const random = prng(31);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  // The exotic characters, and neighbours sharing their first UTF-8 bytes: ł and Ÿ (C5 …),
  // ℹ (E2 84 B9), ‘ (E2 80 98).
  const rare = ["😀", "\ud800", "\udc00", "\u017F", "\u212A", "𝔸"];
  const near = ["ł", "Ÿ", "ℹ", "‘", "é", "x", "ab", " "];
  const hot = [...CREDENTIALS.map(([, line]) => line), "panicked at", "Permission denied"];
  const texts: string[] = [];
  for (let n = 0; n < 3000; n++) {
    const lines = Array.from(
      { length: 1 + Math.floor(random() * 6) },
      () =>
        Array.from({ length: Math.floor(random() * 7) }, () => {
          const r = random();
          return r < 0.04 ? pick(rare) : r < 0.25 ? pick(hot) : pick(near);
        }).join(""),
    );
    texts.push(lines.join("\n"));
  }
  // Past the first 1 MiB chunk: the character in a later chunk only, on a trigger line or not.
  const filler = ("‘plain line’ ł\n").repeat(90_000);
  for (const tail of ["😀", "panicked at 😀", "x\u212A", "Permission denied \u017F", "ℹ"]) {
    texts.push(filler + tail, filler + "panicked at\n" + tail + "\nok");
  }
  let held = 0;
  for (const text of texts) {
    const scanner = new SecurityScanner();
    scanner.scan(text);
    const want = exotic.test(text);
    if (want) held++;
    if (scanner.exotic !== want) {
      expect({ text: text.length > 200 ? text.slice(-200) : text, exotic: scanner.exotic })
        .toEqual({ text: text.length > 200 ? text.slice(-200) : text, exotic: want });
    }
  }
  expect(held).toBeGreaterThan(500);
  expect(texts.length - held).toBeGreaterThan(500);
});

/**
 * scanBytes against scan of the text the bytes decode to: the same warnings and preserved lines;
 * `exotic` yes whenever the text holds one of those characters, and no more often than the text
 * scan says so unless the bytes are not valid UTF-8 or hold a line too long to read whole.
 */
function expectSameFromBytes(bytes: Uint8Array, label: string): void {
  const text = new TextDecoder().decode(bytes);
  const [fromText, fromBytes] = [new SecurityScanner(), new SecurityScanner()];
  fromText.scan(text);
  fromBytes.scanBytes(bytes);
  const short = (line: string) =>
    line.length > 200 ? `${line.slice(0, 60)}…(${line.length})…${line.slice(-60)}` : line;
  expect({
    label,
    found: [...fromBytes.found],
    lines: fromBytes.signalLines.map(short),
    count: fromBytes.signalCount,
  }).toEqual({
    label,
    found: [...fromText.found],
    lines: fromText.signalLines.map(short),
    count: fromText.signalCount,
  });
  const exotic = /[\uD800-\uDFFF\u017F\u212A]/.test(text);
  if (exotic) expect({ label, exotic: fromBytes.exotic }).toEqual({ label, exotic: true });
  const valid = (() => {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      return true;
    } catch {
      return false;
    }
  })();
  const huge = text.split("\n").some((line) => line.length > MAX_ENCODED / 3);
  if (valid && !huge) {
    expect({ label, exotic: fromBytes.exotic }).toEqual({ label, exotic: fromText.exotic });
  }
}

Deno.test("the scan of the caller's UTF-8 reports what the scan of the decoded text reports", async () => {
  const encoder = new TextEncoder();
  const texts = [...await corpusTexts(), ...SCAN_EDGES];
  for (const [i, text] of texts.entries()) expectSameFromBytes(encoder.encode(text), `text ${i}`);
  // Invalid UTF-8 (stray continuation bytes, cut sequences, encoded surrogates, 0xFF, an F0–F4
  // lead without its sequence), BOMs at the start and inside, no newline at the end.
  const random = prng(43);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  const all = CREDENTIALS.map(([, line]) => line);
  const pieces: number[][] = [
    ...[...all, ...SIGNALS, "x", " ", "ok", "\n", "\n", "é", "😀", "\u017F", "\u212A", "‘’"]
      .map((s) => [...encoder.encode(s)]),
    [0x80],
    [0xbf, 0x80],
    [0xc3],
    [0xe2, 0x84],
    [0xf0, 0x9f],
    [0xf0, 0x9f, 0x98],
    [0xf4, 0x90, 0x80, 0x80],
    [0xed, 0xa0, 0x80],
    [0xff],
    [0xc5],
    [0xef, 0xbb, 0xbf],
  ];
  for (let n = 0; n < 2000; n++) {
    const bytes: number[] = random() < 0.2 ? [0xef, 0xbb, 0xbf] : [];
    for (let k = Math.floor(random() * 30); k > 0; k--) bytes.push(...pick(pieces));
    expectSameFromBytes(new Uint8Array(bytes), `random ${n}: ${bytes.join(",")}`);
  }
  // A line too long to read whole: an astral character in it, with and without a literal.
  for (const literal of ["", SIGNALS[0]]) {
    const line = `😀 ${literal}${"y".repeat(MAX_ENCODED + 10)}`;
    expectSameFromBytes(encoder.encode(`ok\n${line}\nok`), `huge line ${literal}`);
  }
  // Literals across the 1 MiB windows of the bytes, after invalid bytes and two-byte
  // characters that put byte and character offsets apart.
  for (const lead of [[0x80], [0xc3, 0xa9], []]) {
    for (const shift of [1, 3, 6]) {
      const head = new Uint8Array(CHUNK - shift - lead.length);
      head.fill(0x79); // y
      for (let at = 4096; at < head.length; at += 4096) head[at] = 10;
      const tail = encoder.encode(`${all[3]} ${SIGNALS[13]} ${all[0]}\nok ${SIGNALS[0]}`);
      expectSameFromBytes(
        new Uint8Array([...lead, ...head, ...tail]),
        `window edge ${lead.length}/${shift}`,
      );
    }
  }
});

Deno.test("the engine given the output's UTF-8 gives what it gives without it", async () => {
  const { loadFilterEngine } = await import("../../src/filter/mod.ts");
  const { defaultConfig } = await import("../../src/config/schema.ts");
  const { engine: builtin } = await loadFilterEngine(defaultConfig(), { configDir: null });
  const extra = compileExtraPatterns(["internal-token-[0-9]{4}"]).patterns;
  const rules = new FilterEngine([...builtin.rules], { extraPatterns: extra });
  const engine = new FilterEngine([], { extraPatterns: extra });
  // `.` between literals reads an astral character as one (RE2) or two (V8 without `u`): the
  // engine must know the text holds one before the lines reach the rule.
  const astral = await stripNoiseEngine("^x.y$");
  const all = CREDENTIALS.map(([, line]) => line);
  const commands = ["cargo test", "make", "docker logs api", "git status", "some-tool"];
  const random = prng(7);
  const texts = [...SCAN_EDGES.slice(0, 9), ...(await corpusTexts()).slice(0, 60)];
  texts.push(
    `\uFEFF${SIGNALS[0]}\nmake[1]: Entering directory '/x'\n${all[5]} 😀\n‘x’ ${SIGNALS[12]}\n`,
    "test a ... FAILED\n" + "ok \u212A\n".repeat(50) + `${all[9]}\n`,
    "x😀y\nxy\nkeep internal-token-1234\nx.y\n",
    // Last lines the program printed that read as the tool's notices.
    "a\n[exit code 0] Permission denied",
    `ok\n[background] token ${all[1]}\n\n`,
    `ok\n  [timeout] ${all[6]}\n[killed by SIGSEGV]\n`,
    `[truncated] ${SIGNALS[0]}`,
    `ok\n${" ".repeat(300)}[background] ${all[1]}\n`,
    // Blanks that trim() drops and UTF-8 spells in several bytes, across the first 256 bytes.
    `build ok\n  ${"\u3000".repeat(85)}[background] ${all[1]}\n`,
    `build ok\n\uFEFF\u00a0[exit code 0] ${all[1]}`,
    `build ok\n\u0085[exit code 0] ${all[1]}`,
    `[${"x".repeat(300)}] ${all[1]}\n[killed by ${"\u3000".repeat(200)}] ${all[1]}\n`,
  );
  expect(
    astral.filter("some-tool", "x😀y\nkeep\n", { utf8: new TextEncoder().encode("x😀y\nkeep\n") })
      .text,
  )
    .toBe("keep");
  for (const [i, text] of texts.entries()) {
    const bytes = new TextEncoder().encode(text);
    const decoded = new TextDecoder().decode(bytes);
    // As the bash tool hands it on: trailing newline dropped, a notice appended.
    const raw = decoded.replace(/\n$/, "") + (random() < 0.5 ? "\n[exit code 1]" : "");
    const command = commands[i % commands.length];
    for (const [e, as] of [[rules, command], [engine, command], [astral, "some-tool"]] as const) {
      const want = e.filter(as, raw, { failed: raw.endsWith("]") });
      const got = e.filter(as, raw, { failed: raw.endsWith("]"), utf8: bytes });
      expect({ i, as, text: got.text, stats: got.stats })
        .toEqual({ i, as, text: want.text, stats: want.stats });
    }
  }
});

Deno.test("notices are scanned for credentials only: a key on a program's notice-looking last line is reported, signals and extra patterns leave them alone", async () => {
  const key = CREDENTIALS[1][1];
  for (const utf8 of [false, true]) {
    const engine = new FilterEngine([]);
    const printed = `build ok\n[background] ${key}\n`;
    const raw = printed.replace(/\n$/, "") + "\n[exit code 1]";
    const out = engine.filter("some-tool", raw, {
      failed: true,
      utf8: utf8 ? new TextEncoder().encode(printed) : undefined,
    });
    expect(out.text).toContain("GitHub token");
  }
  // A removed signal line is preserved even when a notice says the same thing.
  const strip = await stripNoiseEngine("^SIGSEGV$", {
    extraPatterns: compileExtraPatterns(["(?i)timed? ?out"]).patterns,
  });
  expect(strip.filter("some-tool", "SIGSEGV\nok\n[killed by SIGSEGV]").text).toBe(
    "ok\n--- Security-relevant lines (preserved) ---\nSIGSEGV\n[killed by SIGSEGV]",
  );
  // The tool's own wording does not trip a user's pattern; a notice is shown sanitised.
  expect(strip.filter("some-tool", "ok\n[timeout] command timed out after 1s\x1b[0m").text).toBe(
    "ok\n[timeout] command timed out after 1s",
  );
});

/** An engine with one strip_noise rule for `some-tool` dropping lines that match `pattern`. */
async function stripNoiseEngine(
  pattern: string,
  options: ConstructorParameters<typeof FilterEngine>[1] = {},
): Promise<FilterEngine> {
  const { parseRuleFile } = await import("../../src/filter/mod.ts");
  const warnings: string[] = [];
  const rules = parseRuleFile(
    `[[rules]]\nname = "strip"\nmatch = { prefix = "some-tool" }\nstrategy = { type = "strip_noise", patterns = ['${pattern}'] }\n`,
    "test",
    warnings,
  );
  expect(warnings).toEqual([]);
  return new FilterEngine(rules.map((r) => r.compiled!), options);
}
