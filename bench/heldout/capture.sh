#!/usr/bin/env bash
# Captures the held-out proxy set (bench/heldout): real outputs of tools an agent runs, made
# without looking at filters/*.toml, to measure how the filter engine generalises. Each case:
# <family>/<case>.txt (stdout+stderr as a terminal-less run shows them), <case>.json (command,
# exit code, tool version, date). The .signals files are hand-written and never touched here.
# Usage: bash bench/heldout/capture.sh [family...]
set -u
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SET="$ROOT/bench/heldout"
WORK="${ZEPH_HELDOUT_WORK:-/tmp/zeph-heldout}"
mkdir -p "$WORK"
SELECTED="${*:-}"
sel() { [ -z "$SELECTED" ] || [[ " $SELECTED " == *" $1 "* ]]; }
json() { python3 -c 'import json,sys;print(json.dumps(sys.stdin.read()))'; }

# capture <family> <case> <dir> <command> [version]: runs the command in <dir> through bash -c.
capture() {
  local family="$1" name="$2" dir="$3" cmd="$4" version="${5:-}"
  mkdir -p "$SET/$family"
  (cd "$dir" && bash -c "$cmd") >"$SET/$family/$name.txt" 2>&1 </dev/null
  local code=$?
  printf '{\n  "command": %s,\n  "exit_code": %d,\n  "synthetic": false,\n  "tool": %s,\n  "captured": "%s"\n}\n' \
    "$(printf '%s' "$cmd" | json)" "$code" "$(printf '%s' "$version" | json)" \
    "$(date -u +%Y-%m-%d)" >"$SET/$family/$name.json"
  echo "$family/$name: exit $code, $(wc -l <"$SET/$family/$name.txt") lines"
}

# --- python: a script that dies deep in the stdlib, unittest, pytest with -x and long tracebacks -
if sel python; then
  P="$WORK/billing"
  rm -rf "$P" && mkdir -p "$P/billing" "$P/tests" "$P/data" "$P/scripts"
  cat >"$P/billing/__init__.py" <<'EOF'
EOF
  cat >"$P/billing/invoices.py" <<'EOF'
import json
from decimal import Decimal


def load_invoices(path):
    with open(path, encoding="utf-8") as fh:
        return [parse_invoice(line) for line in fh if line.strip()]


def parse_invoice(line):
    raw = json.loads(line)
    return {"id": raw["id"], "amount": Decimal(raw["amount"]), "currency": raw.get("currency", "EUR")}


def total(invoices, currency="EUR"):
    return sum(i["amount"] for i in invoices if i["currency"] == currency)


def apply_discount(amount, percent):
    if percent > 100:
        raise ValueError(f"discount {percent}% exceeds 100%")
    return amount - amount * Decimal(percent) / 100


def split(amount, parts):
    share = amount / parts
    return [round(share, 2)] * parts
EOF
  printf '%s\n' '{"id": 1, "amount": "12.50"}' '{"id": 2, "amount": "7.25", "currency": "USD"}' \
    '{"id": 3, "amount": "3.10",}' >"$P/data/march.jsonl"
  cat >"$P/scripts/monthly_report.py" <<'EOF'
import sys
sys.path.insert(0, ".")
from billing.invoices import load_invoices, total

invoices = load_invoices(sys.argv[1])
print("invoices:", len(invoices))
print("total EUR:", total(invoices))
EOF
  capture python script_traceback "$P" "python3 scripts/monthly_report.py data/march.jsonl" "$(python3 --version)"
  cat >"$P/tests/test_invoices.py" <<'EOF'
import unittest
from decimal import Decimal
from billing.invoices import apply_discount, parse_invoice, split, total


class InvoiceTests(unittest.TestCase):
    def test_parse_default_currency(self):
        self.assertEqual(parse_invoice('{"id": 1, "amount": "1.00"}')["currency"], "EUR")

    def test_parse_usd(self):
        self.assertEqual(parse_invoice('{"id": 1, "amount": "1.00", "currency": "USD"}')["currency"], "USD")

    def test_total_eur_only(self):
        inv = [{"amount": Decimal("1.5"), "currency": "EUR"}, {"amount": Decimal("2"), "currency": "USD"}]
        self.assertEqual(total(inv), Decimal("1.5"))

    def test_discount(self):
        self.assertEqual(apply_discount(Decimal("200"), 10), Decimal("180"))

    def test_discount_over_100(self):
        with self.assertRaises(ValueError):
            apply_discount(Decimal("1"), 150)

    def test_split_sums_to_amount(self):
        parts = split(Decimal("10.00"), 3)
        self.assertEqual(sum(parts), Decimal("10.00"), "shares must add up to the amount")

    def test_split_zero_parts(self):
        self.assertEqual(split(Decimal("5"), 0), [])

    def test_total_empty(self):
        self.assertEqual(total([]), 0)
EOF
  capture python unittest_verbose "$P" "python3 -m unittest -v tests.test_invoices" "$(python3 --version)"
  # pytest: a second, larger suite with parametrised cases and long tracebacks
  cat >"$P/tests/test_parametrized.py" <<'EOF'
import json
import pytest
from decimal import Decimal
from billing.invoices import apply_discount, parse_invoice, split


@pytest.mark.parametrize("amount,percent,expected", [
    (Decimal("100"), 0, Decimal("100")), (Decimal("100"), 5, Decimal("95")),
    (Decimal("100"), 10, Decimal("90")), (Decimal("100"), 25, Decimal("75")),
    (Decimal("100"), 50, Decimal("50")), (Decimal("100"), 99, Decimal("1")),
    (Decimal("100"), 100, Decimal("0")), (Decimal("80"), 12.5, Decimal("70")),
    (Decimal("19.99"), 15, Decimal("16.99")),
])
def test_discount_table(amount, percent, expected):
    assert apply_discount(amount, percent) == expected


@pytest.mark.parametrize("parts", range(1, 13))
def test_split_count(parts):
    assert len(split(Decimal("12"), parts)) == parts


@pytest.mark.parametrize("line", [
    '{"id": 1, "amount": "1"}', '{"id": 2, "amount": "2.5"}', '{"id": 3, "amount": "0"}',
    '{"id": 4, "amount": "1e3"}', '{"id": 5}',
])
def test_parse_lines(line):
    inv = parse_invoice(line)
    assert inv["amount"] >= 0


def test_roundtrip(tmp_path):
    f = tmp_path / "inv.jsonl"
    f.write_text(json.dumps({"id": 9, "amount": "4.20"}) + "\n")
    from billing.invoices import load_invoices
    assert load_invoices(str(f))[0]["amount"] == Decimal("4.20")
EOF
  capture python pytest_param_tblong "$P" "python3 -m pytest tests/test_parametrized.py --tb=long -p no:cacheprovider" "$(python3 -m pytest --version 2>&1)"
  capture python pytest_exitfirst "$P" "python3 -m pytest -x -p no:cacheprovider" "$(python3 -m pytest --version 2>&1)"
  capture python pip_show_files "$P" "pip show -f pip" "$(pip --version)"
  capture python pip_install_missing "$P" "pip install --no-index 'django-money-tools==2.1'" "$(pip --version)"
fi

# --- node: stack traces from a server and a minified bundle, node --test subtests, npm scripts ----
if sel node; then
  N="$WORK/orders-api"
  rm -rf "$N" && mkdir -p "$N/src" "$N/test" "$N/dist"
  cat >"$N/package.json" <<'EOF'
{
  "name": "orders-api",
  "version": "1.4.0",
  "private": true,
  "type": "module",
  "scripts": {
    "start": "node src/server.js",
    "build": "node src/build.js",
    "test": "node --test test/"
  },
  "engines": { "node": ">=18" }
}
EOF
  cat >"$N/src/config.js" <<'EOF'
import { readFileSync } from "node:fs";
export function loadConfig(path) {
  const raw = readFileSync(path, "utf8");
  return JSON.parse(raw);
}
EOF
  cat >"$N/src/server.js" <<'EOF'
import http from "node:http";
import { loadConfig } from "./config.js";
const config = loadConfig(process.env.ORDERS_CONFIG ?? "config/orders.json");
http.createServer((req, res) => res.end("ok")).listen(config.port);
EOF
  capture node server_missing_config "$N" "node src/server.js" "node $(node --version)"
  cat >"$N/src/build.js" <<'EOF'
import { mkdirSync, writeFileSync } from "node:fs";
const routes = ["orders", "customers", "invoices", "refunds"];
for (const r of routes) {
  console.log(`compiling route ${r} ...`);
}
const manifest = routes.map((r) => ({ route: r, handler: `handlers/${r}.js` }));
console.log("writing manifest");
Promise.resolve().then(() => {
  const schema = undefined;
  return schema.version;
}).then((v) => writeFileSync("dist/manifest.json", JSON.stringify({ v, manifest })));
EOF
  capture node npm_run_build_rejection "$N" "npm run build" "npm $(npm --version)"
  # a minified bundle that throws: the source line node prints is one very long line
  python3 - "$N/dist/bundle.min.js" <<'EOF'
import sys
parts = [f"function m{i}(a,b){{return a*{i}+b-{i % 7}}}" for i in range(400)]
body = ";".join(parts) + ";function render(o){return o.items.map(function(x){return x.name.toUpperCase()})}" \
    + ";var state={user:null,items:[{name:'a'},{name:null}]};render(state);" \
    + ";".join(p.replace("function m", "function n") for p in parts[:200])
open(sys.argv[1], "w").write(body + "\n")
EOF
  capture node minified_bundle_crash "$N" "node dist/bundle.min.js" "node $(node --version)"
  cat >"$N/test/orders.test.js" <<'EOF'
import { describe, it } from "node:test";
import assert from "node:assert/strict";

function priceOf(order) {
  return order.lines.reduce((s, l) => s + l.qty * l.unit, 0);
}
function parseCsv(text) {
  return text.split("\n").map((l) => l.split(","));
}

describe("orders", () => {
  describe("pricing", () => {
    it("sums lines", () => assert.equal(priceOf({ lines: [{ qty: 2, unit: 3 }] }), 6));
    it("empty order costs nothing", () => assert.equal(priceOf({ lines: [] }), 0));
    it("applies quantity discount", () => {
      assert.equal(priceOf({ lines: [{ qty: 10, unit: 1 }] }), 9, "10+ items get 10% off");
    });
  });
  describe("csv import", () => {
    it("splits rows", () => assert.deepEqual(parseCsv("a,b\nc,d"), [["a", "b"], ["c", "d"]]));
    it("trims windows line endings", () => {
      assert.deepEqual(parseCsv("sku,qty\r\nA1,3"), [["sku", "qty"], ["A1", "3"]]);
    });
    it("handles quoted commas", { skip: "not implemented" }, () => {});
  });
  it("rejects negative quantities", () => {
    assert.throws(() => priceOf({ lines: [{ qty: -1, unit: 5 }] }), /negative/);
  });
});
EOF
  capture node node_test_nested "$N" "node --test test/" "node $(node --version)"
  capture node npm_test_script "$N" "npm test" "npm $(npm --version)"
  capture node npm_install_dev "$N" "npm install --save-dev vitest@2" "npm $(npm --version)"
  capture node npm_ls_all "$N" "npm ls --all" "npm $(npm --version)"
  capture node npm_outdated_offline "$N" "npm outdated --offline" "npm $(npm --version)"
  capture node npm_audit_offline "$N" "npm audit --offline" "npm $(npm --version)"
  capture node npm_missing_script "$N" "npm run lint" "npm $(npm --version)"
fi

# --- c: linker errors, C++ template errors, make, cmake, valgrind, gdb ------------------------------
if sel c; then
  C="$WORK/ringbuf"
  rm -rf "$C" && mkdir -p "$C/src" "$C/include"
  cat >"$C/include/ring.h" <<'EOF'
#ifndef RING_H
#define RING_H
#include <stddef.h>
typedef struct { int *data; size_t cap, head, len; } ring_t;
ring_t *ring_new(size_t cap);
int ring_push(ring_t *r, int v);
int ring_pop(ring_t *r, int *out);
void ring_free(ring_t *r);
size_t ring_len(const ring_t *r);
int ring_peek(const ring_t *r, int *out);
#endif
EOF
  cat >"$C/src/ring.c" <<'EOF'
#include <stdlib.h>
#include "ring.h"
ring_t *ring_new(size_t cap) {
  ring_t *r = malloc(sizeof *r);
  r->data = malloc(cap * sizeof(int));
  r->cap = cap; r->head = 0; r->len = 0;
  return r;
}
int ring_push(ring_t *r, int v) {
  if (r->len == r->cap) return -1;
  r->data[(r->head + r->len) % r->cap] = v; r->len++;
  return 0;
}
int ring_pop(ring_t *r, int *out) {
  if (r->len == 0) return -1;
  *out = r->data[r->head]; r->head = (r->head + 1) % r->cap; r->len--;
  return 0;
}
void ring_free(ring_t *r) { free(r); }
EOF
  cat >"$C/src/main.c" <<'EOF'
#include <stdio.h>
#include "ring.h"
int main(void) {
  ring_t *r = ring_new(4);
  for (int i = 0; i < 6; i++) if (ring_push(r, i * 10) != 0) printf("full at %d\n", i);
  int v, first;
  ring_peek(r, &first);
  while (ring_pop(r, &v) == 0) printf("pop %d\n", v);
  printf("len %zu first %d\n", ring_len(r), first);
  ring_free(r);
  return 0;
}
EOF
  capture c gcc_undefined_reference "$C" "gcc -Wall -Iinclude -o ringdemo src/main.c src/ring.c" "$(gcc --version | head -1)"
  cat >"$C/Makefile" <<'EOF'
CC ?= gcc
CFLAGS ?= -Wall -Wextra -g -Iinclude
OBJS = build/main.o build/ring.o build/ring_extra.o
ringdemo: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $^
build/%.o: src/%.c | build
	$(CC) $(CFLAGS) -c -o $@ $<
build:
	mkdir -p build
clean:
	rm -rf build ringdemo
EOF
  capture c make_missing_source "$C" "make" "$(make --version | head -1)"
  cat >"$C/src/ring_extra.c" <<'EOF'
#include "ring.h"
size_t ring_len(const ring_t *r) { return r->len; }
int ring_peek(const ring_t *r, int *out) {
  if (r->len == 0) return -1;
  *out = r->data[r->head + r->cap];
  return 0;
}
EOF
  capture c make_build_ok "$C" "make clean && make" "$(make --version | head -1)"
  capture c valgrind_leak "$C" "valgrind --leak-check=full ./ringdemo" "$(valgrind --version)"
  cat >"$C/src/crash.c" <<'EOF'
#include <stdio.h>
#include <string.h>
struct node { char name[16]; struct node *next; };
static size_t count_names(struct node *n, const char *prefix) {
  size_t c = 0;
  for (; n; n = n->next) if (strncmp(n->name, prefix, strlen(prefix)) == 0) c++;
  return c;
}
static void report(struct node *head) { printf("matches: %zu\n", count_names(head, "srv")); }
int main(void) {
  struct node c = { "db1", (struct node *)0x10 };
  struct node b = { "srv2", &c };
  struct node a = { "srv1", &b };
  report(&a);
  return 0;
}
EOF
  gcc -g -O0 -o "$C/crash" "$C/src/crash.c"
  capture c gdb_batch_backtrace "$C" "gdb -batch -ex run -ex bt -ex 'info locals' ./crash" "$(gdb --version | head -1)"
  X="$WORK/geom"
  rm -rf "$X" && mkdir -p "$X"
  cat >"$X/shapes.cpp" <<'EOF'
#include <map>
#include <string>
#include <vector>
#include <algorithm>
#include <memory>
struct Shape { virtual double area() const = 0; virtual ~Shape() = default; };
struct Square : Shape { double s; explicit Square(double s) : s(s) {} double area() const override { return s * s; } };
int main() {
  std::map<std::string, std::vector<std::unique_ptr<Shape>>> groups;
  groups["squares"].push_back(std::make_unique<Square>(2.0));
  auto copy = groups;
  std::vector<std::unique_ptr<Shape>> flat;
  for (auto &g : groups) std::sort(g.second.begin(), g.second.end(), [](auto &a, auto &b) { return a.area() < b->area(); });
  std::string total = 0.0;
  return flat.size();
}
EOF
  capture c gpp_template_errors "$X" "g++ -std=c++17 -Wall -c shapes.cpp" "$(g++ --version | head -1)"
  K="$WORK/cmk"
  rm -rf "$K" && mkdir -p "$K/src"
  cat >"$K/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(telemetry C)
find_package(ZLIB REQUIRED)
find_package(CURL REQUIRED)
add_executable(telemetry src/main.c)
target_link_libraries(telemetry ZLIB::ZLIB CURL::libcurl)
EOF
  echo 'int main(void){return 0;}' >"$K/src/main.c"
  capture c cmake_configure_missing_pkg "$K" "cmake -S . -B build" "$(cmake --version | head -1)"
  K2="$WORK/cmk2"
  rm -rf "$K2" && mkdir -p "$K2/src"
  cat >"$K2/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(ringlib C)
add_library(ring STATIC src/ring.c src/ring_extra.c)
target_include_directories(ring PUBLIC include)
add_executable(ringdemo src/main.c)
target_link_libraries(ringdemo ring)
EOF
  cp -r "$C/src" "$C/include" "$K2/"
  rm -f "$K2/src/crash.c"
  capture c cmake_build_verbose "$K2" "cmake -S . -B build -DCMAKE_BUILD_TYPE=Debug && cmake --build build --verbose" "$(cmake --version | head -1)"
fi

# --- jvm: javac errors, a java exception with a cause chain, mvn test with surefire (offline) ------
if sel jvm; then
  J="$WORK/ledger-java"
  rm -rf "$J" && mkdir -p "$J/src/main/java/com/acme/ledger" "$J/src/test/java/com/acme/ledger"
  cat >"$J/src/main/java/com/acme/ledger/Ledger.java" <<'EOF'
package com.acme.ledger;

import java.util.ArrayList;
import java.util.List;

public class Ledger {
    private final List<Long> entries = new ArrayList<>();

    public void post(long cents) {
        if (cents == 0) throw new IllegalArgumentException("zero entry");
        entries.add(cents);
    }

    public long balance() {
        long b = 0;
        for (long e : entries) b += e;
        return b;
    }

    public long largest() {
        return entries.stream().mapToLong(Long::longValue).max().getAsLong();
    }

    public static Ledger parse(String csv) {
        Ledger l = new Ledger();
        for (String part : csv.split(",")) {
            try {
                l.post(Long.parseLong(part.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalStateException("bad ledger line: " + part, e);
            }
        }
        return l;
    }

    public static void main(String[] args) {
        Ledger l = parse(args.length > 0 ? args[0] : "100, 250, -40, 12x");
        System.out.println("balance " + l.balance());
    }
}
EOF
  mkdir -p "$J/out"
  capture jvm java_exception_cause "$J" "javac -d out src/main/java/com/acme/ledger/Ledger.java && java -cp out com.acme.ledger.Ledger" "$(java -version 2>&1 | head -1)"
  cp "$J/src/main/java/com/acme/ledger/Ledger.java" "$WORK/Ledger.java.ok"
  sed -e 's/long b = 0;/long b = "0";/' -e 's/entries.add(cents);/entries.append(cents);/' -e 's/getAsLong()/getAsLong(0)/' \
    "$WORK/Ledger.java.ok" >"$J/src/main/java/com/acme/ledger/Ledger.java"
  capture jvm javac_errors "$J" "javac -d out src/main/java/com/acme/ledger/Ledger.java" "$(javac -version 2>&1)"
  cp "$WORK/Ledger.java.ok" "$J/src/main/java/com/acme/ledger/Ledger.java"
  cat >"$J/pom.xml" <<'EOF'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>ledger</artifactId>
  <version>0.3.0</version>
  <properties>
    <maven.compiler.source>17</maven.compiler.source>
    <maven.compiler.target>17</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>junit</groupId>
      <artifactId>junit</artifactId>
      <version>4.13.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
EOF
  cat >"$J/src/test/java/com/acme/ledger/LedgerTest.java" <<'EOF'
package com.acme.ledger;

import static org.junit.Assert.*;
import org.junit.Test;

public class LedgerTest {
    @Test public void balanceSums() { assertEquals(310, Ledger.parse("100, 250, -40").balance()); }
    @Test public void largestOfEmpty() { assertEquals(0, new Ledger().largest()); }
    @Test public void parseRejectsJunk() { Ledger.parse("1, x"); }
    @Test public void zeroIsRejected() { new Ledger().post(0); }
    @Test public void largest() { assertEquals(250, Ledger.parse("100, 250, -40").largest()); }
}
EOF
  capture jvm mvn_test_offline "$J" "mvn -o test" "$(mvn --version 2>&1 | head -1)"
fi

# --- scripts: perl, ruby, php, elixir errors with their backtraces ---------------------------------
if sel scripts; then
  S="$WORK/scripts"
  rm -rf "$S" && mkdir -p "$S/lib"
  cat >"$S/lib/Inventory.pm" <<'EOF'
package Inventory;
use strict; use warnings; use Carp;
sub new { my ($c, %a) = @_; return bless { items => {}, %a }, $c }
sub add { my ($s, $sku, $n) = @_; croak "quantity for $sku must be positive" if $n <= 0; $s->{items}{$sku} += $n }
sub load { my ($s, $file) = @_; open(my $fh, '<', $file) or confess "cannot open $file: $!"; while (<$fh>) { chomp; my ($k, $v) = split /,/; $s->add($k, $v) } }
1;
EOF
  cat >"$S/restock.pl" <<'EOF'
use strict; use warnings; use lib 'lib'; use Inventory;
my $inv = Inventory->new(site => 'north');
$inv->load('stock/north.csv');
print "ok\n";
EOF
  capture scripts perl_confess "$S" "perl restock.pl" "$(perl -e 'print $^V')"
  cat >"$S/report.rb" <<'EOF'
require "json"
class Report
  def initialize(rows) = @rows = rows
  def totals = @rows.group_by { |r| r["team"] }.transform_values { |rs| rs.sum { |r| r["hours"] } }
  def render = totals.map { |team, h| format("%-10s %6.1f", team, h) }.join("\n")
end
rows = JSON.parse('[{"team":"core","hours":4.5},{"team":"web","hours":null},{"team":"core","hours":2}]')
puts Report.new(rows).render
EOF
  capture scripts ruby_nomethod "$S" "ruby report.rb" "$(ruby --version)"
  cat >"$S/index.php" <<'EOF'
<?php
declare(strict_types=1);
function money(float $v): string { return number_format($v, 2); }
class Cart {
    private array $lines = [];
    public function add(string $sku, int $qty, $price): void { $this->lines[] = [$sku, $qty, $price]; }
    public function total(): string { $t = 0; foreach ($this->lines as [$s, $q, $p]) { $t += $q * $p; } return money($t); }
    public function summary(): string { return implode(", ", array_map(fn($l) => $l[0] . " x" . $l[1], $this->lines)) . " = " . $this->total(); }
}
$cart = new Cart();
$cart->add("A1", 2, 3.5);
$cart->add("B7", 1, 4.2);
$cart->add("C3", "2x", 1.0);
echo $cart->summary(), "\n";
EOF
  capture scripts php_type_error "$S" "php index.php" "$(php --version | head -1)"
  cat >"$S/stats.exs" <<'EOF'
defmodule Stats do
  def mean(list), do: Enum.sum(list) / length(list)
  def summarize(%{name: name, samples: samples}), do: "#{name}: #{mean(samples)}"
end
IO.puts(Stats.summarize(%{name: "latency", samples: [12, 15, 11]}))
IO.puts(Stats.summarize(%{name: "errors", samples: []}))
EOF
  capture scripts elixir_arith_error "$S" "elixir stats.exs" "$(elixir --version 2>&1 | tail -1)"
  cat >"$S/deploy.sh" <<'EOF'
#!/usr/bin/env bash
set -euxo pipefail
APP=orders
RELEASE_DIR=/tmp/zeph-heldout/releases/$APP
mkdir -p "$RELEASE_DIR"
for f in config.json app.tar.gz; do
  echo "staging $f"
done
cp build/app.tar.gz "$RELEASE_DIR/"
echo "deployed"
EOF
  capture scripts bash_xtrace_fail "$S" "bash deploy.sh" "$(bash --version | head -1)"
fi

# --- net: curl -v against a local server, openssl ---------------------------------------------------
if sel net; then
  W="$WORK/www"
  rm -rf "$W" && mkdir -p "$W/static"
  head -c 3000000 /dev/urandom >"$W/static/bundle.bin"
  echo '{"status":"ok"}' >"$W/static/health.json"
  PORT=18791
  (cd "$W" && exec python3 -m http.server "$PORT" --bind 127.0.0.1 >/dev/null 2>&1) &
  SRV=$!
  sleep 1
  capture net curl_verbose_404 "$W" "curl -v -H 'Authorization: Bearer zk_live_51HxQ2eLkF9v0aTqP3nR8sW7yU4' http://127.0.0.1:$PORT/api/orders?limit=5" "$(curl --version | head -1)"
  capture net curl_download_progress "$W" "curl -o /tmp/zeph-heldout/bundle.bin http://127.0.0.1:$PORT/static/bundle.bin --limit-rate 1M" "$(curl --version | head -1)"
  kill "$SRV"
  capture net curl_refused "$W" "curl -sS --fail http://127.0.0.1:$PORT/static/health.json" "$(curl --version | head -1)"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$W/key.pem" -out "$W/cert.pem" -days 30 \
    -subj "/C=DE/O=Acme/CN=orders.internal" -addext "subjectAltName=DNS:orders.internal,DNS:localhost,IP:127.0.0.1" 2>/dev/null
  capture net openssl_x509_text "$W" "openssl x509 -in cert.pem -text -noout" "$(openssl version)"
  capture net openssl_verify_fail "$W" "openssl verify -CAfile /etc/ssl/certs/ca-certificates.crt cert.pem" "$(openssl version)"
fi

# --- archive: tar and unzip, verbose and failing ----------------------------------------------------
if sel archive; then
  A="$WORK/archive"
  rm -rf "$A" && mkdir -p "$A"
  cp -r "$WORK/orders-api" "$A/orders-api" 2>/dev/null || mkdir -p "$A/orders-api"
  capture archive tar_create_verbose "$A" "tar -czvf orders-api.tgz orders-api" "$(tar --version | head -1)"
  (cd "$A" && zip -qr site.zip orders-api/node_modules/vitest 2>/dev/null)
  mkdir -p "$A/out"
  capture archive unzip_verbose "$A" "unzip -o site.zip -d out" "$(unzip -v | head -1)"
  capture archive tar_extract_missing "$A" "tar -xzf release-2.3.tgz -C out" "$(tar --version | head -1)"
  head -c 20000 "$A/orders-api.tgz" >"$A/truncated.tgz"
  capture archive tar_truncated "$A" "tar -tzvf truncated.tgz" "$(tar --version | head -1)"
fi

# --- system: apt-get simulate, dpkg, systemd-analyze -----------------------------------------------
if sel system; then
  Y="$WORK/units"
  rm -rf "$Y" && mkdir -p "$Y"
  cat >"$Y/orders-worker.service" <<'EOF'
[Unit]
Description=Orders queue worker
After=network-online.target postgresql.servce

[Service]
Type=simpel
ExecStart=orders-worker --queue default
Restart=alwyas
RestartSec=5s
User=orders
Enviroment=NODE_ENV=production

[Install]
WantedBy=multi-user.target
EOF
  capture system systemd_analyze_verify "$Y" "systemd-analyze verify ./orders-worker.service" "$(systemd-analyze --version | head -1)"
  capture system apt_get_simulate "$Y" "apt-get install -s --no-install-recommends build-essential libssl-dev libpq-dev" "$(apt-get --version | head -1)"
  capture system apt_get_unknown "$Y" "apt-get install -s libfoo-nonexistent-dev" "$(apt-get --version | head -1)"
  capture system dpkg_listfiles "$Y" "dpkg -L libc6" "$(dpkg --version | head -1)"
fi

# --- db: sqlite3 migrations, psql against nothing ----------------------------------------------------
if sel db; then
  D="$WORK/db"
  rm -rf "$D" && mkdir -p "$D"
  cat >"$D/001_init.sql" <<'EOF'
CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, created_at TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total_cents INTEGER);
INSERT INTO customers (email) VALUES ('a@example.com'), ('b@example.com');
EOF
  cat >"$D/002_backfill.sql" <<'EOF'
INSERT INTO orders (customer_id, total_cents) VALUES (1, 1250), (2, 990);
ALTER TABLE orders ADD COLUMN status TEXT DEFAULT 'open';
UPDATE orders SET status = 'paid' WHERE total_cents > 1000;
INSERT INTO customers (email) VALUES ('a@example.com');
CREATE INDEX idx_orders_status ON orders(stauts);
SELEC count(*) FROM orders;
EOF
  sqlite3 "$D/app.db" <"$D/001_init.sql"
  capture db sqlite3_migration_errors "$D" "sqlite3 -bail app.db < 002_backfill.sql; sqlite3 app.db < 002_backfill.sql" "$(sqlite3 --version | cut -d' ' -f1)"
  capture db sqlite3_table "$D" "sqlite3 -header -column app.db 'SELECT o.id, c.email, o.total_cents, o.status FROM orders o JOIN customers c ON c.id = o.customer_id'" "$(sqlite3 --version | cut -d' ' -f1)"
  capture db psql_refused "$D" "psql -h 127.0.0.1 -p 5499 -U app -d orders -c 'select 1'" "$(psql --version)"
fi

# --- git: a merge conflict, a rejected push, a bad ref, a verbose graph log -------------------------
if sel git; then
  G="$WORK/gitrepo"
  rm -rf "$G" "$WORK/git-origin.git" && mkdir -p "$G"
  git init -q --bare -b main "$WORK/git-origin.git"
  (cd "$G" && git init -q -b main && git config user.email dev@example.com && git config user.name Dev &&
    git remote add origin "$WORK/git-origin.git" &&
    for i in $(seq 1 30); do printf 'line %s\n' $(seq 1 $i) >notes.txt; printf 'v%s\n' "$i" >VERSION;
      git add -A && git commit -qm "release notes: draft $i of the changelog for the orders service"; done &&
    printf 'timeout = 30\nretries = 3\n' >settings.ini && git add -A && git commit -qm "settings" &&
    git push -q origin main && git checkout -qb feature/retry && printf 'timeout = 45\nretries = 5\n' >settings.ini &&
    git commit -qam "retry: raise timeout and retries" && git checkout -q main &&
    printf 'timeout = 10\nretries = 3\nbackoff = exp\n' >settings.ini && git commit -qam "settings: shorter timeout, backoff")
  capture git merge_conflict "$G" "git merge feature/retry" "$(git --version)"
  (cd "$G" && git merge --abort)
  (cd "$WORK" && rm -rf gitother && git clone -q git-origin.git gitother && cd gitother &&
    git -c user.email=o@example.com -c user.name=O commit -q --allow-empty -m "hotfix" && git push -q origin main)
  capture git push_rejected "$G" "git push origin main" "$(git --version)"
  capture git checkout_unknown "$G" "git checkout feature/retyr" "$(git --version)"
  capture git log_graph_all "$G" "git log --graph --all --decorate --stat -n 25" "$(git --version)"
fi

# --- go: vet findings, a test that panics (goroutine trace) ------------------------------------------
if sel go; then
  O="$WORK/gocache-svc"
  rm -rf "$O" && mkdir -p "$O/cache" "$O/cmd/svc"
  (cd "$O" && go mod init example.com/cachesvc >/dev/null 2>&1)
  cat >"$O/cache/cache.go" <<'EOF'
package cache

import (
	"fmt"
	"sync"
)

type Cache struct {
	mu    sync.Mutex
	items map[string]string
}

func New() *Cache { return &Cache{} }

func (c Cache) Len() int { return len(c.items) }

func (c *Cache) Set(k, v string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = v
}

func (c *Cache) Get(k string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[k]
	return v, ok
}

func (c *Cache) Describe() string {
	return fmt.Sprintf("cache with %d items", c.Len(), c.items)
}
EOF
  cat >"$O/cache/cache_test.go" <<'EOF'
package cache

import "testing"

func TestGetMissing(t *testing.T) {
	c := &Cache{items: map[string]string{}}
	if _, ok := c.Get("x"); ok {
		t.Fatal("unexpected hit")
	}
}

func TestSetThenGet(t *testing.T) {
	c := New()
	c.Set("a", "1")
	if v, _ := c.Get("a"); v != "1" {
		t.Errorf("Get(a) = %q, want 1", v)
	}
}
EOF
  echo 'package main
import ("fmt"; "example.com/cachesvc/cache")
func main() { fmt.Println(cache.New().Describe()) }' >"$O/cmd/svc/main.go"
  capture go vet_findings "$O" "go vet ./..." "$(go version)"
  sed -i 's/return fmt.Sprintf("cache with %d items", c.Len(), c.items)/return fmt.Sprintf("cache with %d items", c.Len())/; s/func (c Cache) Len/func (c *Cache) Len/' "$O/cache/cache.go"
  capture go test_panic_nil_map "$O" "go test ./... -count=1" "$(go version)"
fi

# --- cargo: a borrow-check error, a test run with a should_panic and an overflow ---------------------
if sel cargo; then
  R="$WORK/tokenizer"
  rm -rf "$R" && mkdir -p "$R/src"
  printf '[package]\nname = "tokenizer"\nversion = "0.2.0"\nedition = "2021"\n\n[dependencies]\n' >"$R/Cargo.toml"
  cat >"$R/src/lib.rs" <<'EOF'
#[derive(Debug, PartialEq)]
pub enum Tok { Num(u8), Ident(String), Op(char) }

pub fn tokenize(src: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut chars = src.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_ascii_digit() {
            let mut n: u8 = 0;
            while let Some(&d) = chars.peek() {
                if !d.is_ascii_digit() { break; }
                n = n * 10 + d.to_digit(10).unwrap() as u8;
                chars.next();
            }
            out.push(Tok::Num(n));
        } else if c.is_alphabetic() {
            let mut s = String::new();
            while let Some(&d) = chars.peek() { if !d.is_alphanumeric() { break; } s.push(d); chars.next(); }
            out.push(Tok::Ident(s));
        } else if c.is_whitespace() { chars.next(); } else { out.push(Tok::Op(c)); chars.next(); }
    }
    out
}

pub fn longest_ident(toks: &[Tok]) -> &str {
    let mut best = "";
    for t in toks { if let Tok::Ident(s) = t { if s.len() > best.len() { best = s; } } }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test] fn numbers() { assert_eq!(tokenize("12 34"), vec![Tok::Num(12), Tok::Num(34)]); }
    #[test] fn idents() { assert_eq!(tokenize("ab c"), vec![Tok::Ident("ab".into()), Tok::Ident("c".into())]); }
    #[test] fn ops() { assert_eq!(tokenize("+-"), vec![Tok::Op('+'), Tok::Op('-')]); }
    #[test] fn big_number() { assert_eq!(tokenize("300"), vec![Tok::Num(44)]); }
    #[test] fn longest() { assert_eq!(longest_ident(&tokenize("a bcd ef")), "bcd"); }
    #[test] #[should_panic(expected = "empty input")] fn empty_panics() { tokenize(""); }
    #[test] fn mixed() { assert_eq!(tokenize("x1+2").len(), 3, "ident, op, number"); }
}
EOF
  capture cargo test_overflow_should_panic "$R" "CARGO_NET_OFFLINE=true RUST_BACKTRACE=0 cargo test" "$(cargo --version)"
  cat >"$R/src/main.rs" <<'EOF'
use tokenizer::{tokenize, longest_ident};
fn main() {
    let name;
    {
        let toks = tokenize("alpha beta gamma");
        name = longest_ident(&toks);
    }
    let mut words = vec!["x".to_string()];
    let first = &words[0];
    words.push(name.to_string());
    println!("{} {}", first, name);
}
EOF
  capture cargo build_borrow_errors "$R" "CARGO_NET_OFFLINE=true cargo build" "$(cargo --version)"
fi

# --- deep: tracebacks through site-packages and node_modules, a retry loop, tsc, mypy --strict ------
if sel deep; then
  E="$WORK/deep"
  rm -rf "$E" && mkdir -p "$E/config" "$E/src"
  cat >"$E/config/app.yaml" <<'EOF'
service: orders
database:
  host: db.internal
  port: 5432
  pool: 10
queues:
  - name: default
    workers: 4
  - name: mail
     workers: 2
EOF
  cat >"$E/load_config.py" <<'EOF'
import sys
import yaml


def read(path):
    with open(path) as fh:
        return yaml.safe_load(fh)


def main():
    cfg = read(sys.argv[1])
    print("queues:", [q["name"] for q in cfg["queues"]])


if __name__ == "__main__":
    main()
EOF
  capture deep python_yaml_sitepackages "$E" "python3 load_config.py config/app.yaml" "$(python3 --version)"
  cat >"$E/fetch_rates.py" <<'EOF'
import logging
import time
import requests

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("rates")


def fetch(url, attempts=12):
    for i in range(1, attempts + 1):
        try:
            return requests.get(url, timeout=0.2).json()
        except requests.ConnectionError:
            log.warning("connection refused by %s, retrying in 0.05s", url)
            time.sleep(0.05)
    raise SystemExit(f"giving up on {url} after {attempts} attempts")


print(fetch("http://127.0.0.1:18793/rates/EUR"))
EOF
  capture deep python_retry_loop "$E" "python3 fetch_rates.py" "$(python3 --version)"
  cat >"$E/fetch_once.py" <<'EOF'
import requests
resp = requests.get("http://127.0.0.1:18793/rates/EUR", timeout=1)
print(resp.json())
EOF
  capture deep python_requests_refused "$E" "python3 fetch_once.py" "$(python3 --version)"
  mkdir -p "$E/web/node_modules"
  cp -r "$ROOT/node_modules/yaml" "$E/web/node_modules/yaml"
  cat >"$E/web/start.mjs" <<'EOF'
import { readFileSync } from "node:fs";
import YAML from "yaml";
function loadRoutes(path) {
  const doc = YAML.parse(readFileSync(path, "utf8"), { strict: true });
  return doc.routes;
}
const routes = loadRoutes("../config/app.yaml");
console.log(routes.length);
EOF
  capture deep node_yaml_node_modules "$E/web" "node start.mjs" "node $(node --version)"
  T="$E/ts"
  mkdir -p "$T/src"
  cat >"$T/tsconfig.json" <<'EOF'
{ "compilerOptions": { "strict": true, "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "noEmit": true, "types": [] }, "include": ["src"] }
EOF
  cat >"$T/src/money.ts" <<'EOF'
export interface Money { cents: number; currency: "EUR" | "USD" }
export function add(a: Money, b: Money): Money {
  if (a.currency !== b.currency) throw new Error("currency mismatch");
  return { cents: a.cents + b.cents, currency: a.currency };
}
export function format(m: Money): string {
  return (m.cents / 100).toFixed(2) + " " + m.currency;
}
EOF
  cat >"$T/src/cart.ts" <<'EOF'
import { add, format, Money } from "./money.js";
interface Line { sku: string; qty: number; price: Money }
export class Cart {
  private lines: Line[] = [];
  addLine(sku: string, qty: number, price: Money) { this.lines.push({ sku, qty, price, note: "" }); }
  total(): Money {
    return this.lines.reduce((t, l) => add(t, { cents: l.price.cents * l.qty, currency: l.price.currency }), { cents: 0, currency: "GBP" });
  }
  describe(): string { return this.lines.map((l) => `${l.sku} x${l.qty}`).join(", ") + " = " + format(this.total); }
  find(sku: string): Line { return this.lines.find((l) => l.sku === sku); }
}
EOF
  capture deep tsc_noemit_errors "$T" "$ROOT/node_modules/.bin/tsc -p tsconfig.json" "tsc $("$ROOT/node_modules/.bin/tsc" --version)"
  M="$E/mypyproj"
  mkdir -p "$M/ledger"
  touch "$M/ledger/__init__.py"
  cat >"$M/ledger/accounts.py" <<'EOF'
from dataclasses import dataclass
from typing import Optional


@dataclass
class Account:
    name: str
    balance: int
    parent: Optional["Account"] = None


def path(acc):
    parts = [acc.name]
    while acc.parent:
        acc = acc.parent
        parts.append(acc.name)
    return "/".join(reversed(parts))


def transfer(src: Account, dst: Account, amount: int) -> bool:
    if src.balance < amount:
        return "insufficient funds"
    src.balance -= amount
    dst.balance += amount
    return True


def root_of(acc: Account) -> Account:
    return acc.parent.parent
EOF
  capture deep mypy_strict "$M" "mypy --strict ledger" "$(mypy --version)"
fi

# --- shell: what a wrong command line gives ----------------------------------------------------------
if sel shell; then
  capture shell docker_no_compose "$WORK" "docker compose ps"
  capture shell kubectl_refused "$WORK" "kubectl get pods -n orders" "$(bash --version | head -1)"
  capture shell grep_bad_flag "$WORK" "grep --recursive --include '*.py' --exclude-dirs node_modules TODO ." "$(grep --version | head -1)"
  capture shell ls_missing "$WORK" "ls -la config/secrets dist/" "$(ls --version | head -1)"
fi

# --- batch2: a second blind batch — runners, linters and VCS states the first 66 cases lack ----------
if sel batch2; then
  B="$WORK/batch2"
  rm -rf "$B" && mkdir -p "$B"
  # go: a compile error in a test file under `go test ./...`, then a verbose passing run
  G="$B/inventory"
  mkdir -p "$G/stock" "$G/orders"
  printf 'module example.com/inventory\n\ngo 1.19\n' >"$G/go.mod"
  cat >"$G/stock/stock.go" <<'EOF'
package stock

type Item struct {
	SKU   string
	Count int
}

func Reserve(it *Item, n int) bool {
	if it.Count < n {
		return false
	}
	it.Count -= n
	return true
}
EOF
  cat >"$G/stock/stock_test.go" <<'EOF'
package stock

import "testing"

func TestReserve(t *testing.T) {
	it := &Item{SKU: "A-1", Count: 3}
	if !Reserve(it, 2) {
		t.Fatal("reserve failed")
	}
	if it.Count != 1 {
		t.Errorf("Count = %d, want 1", it.Count)
	}
}

func TestReserveTooMany(t *testing.T) {
	it := &Item{SKU: "A-2", Quantity: 1}
	ok, err := Reserve(it, 5)
	if ok || err == nil {
		t.Fatal("expected failure")
	}
}
EOF
  cat >"$G/orders/orders.go" <<'EOF'
package orders

func Total(prices []int) int {
	sum := 0
	for _, p := range prices {
		sum += p
	}
	return sum
}
EOF
  for i in 1 2 3 4 5 6; do
    printf 'package orders\n\nimport "testing"\n\nfunc TestTotal%d(t *testing.T) {\n\tif Total([]int{%d, 1}) != %d {\n\t\tt.Fatal("bad total")\n\t}\n}\n' "$i" "$i" "$((i + 1))" >"$G/orders/total${i}_test.go"
  done
  capture batch2 go_test_compile_error "$G" "go test ./... -count=1" "$(go version)"
  sed -i 's/Quantity: 1/Count: 1/; s/ok, err := Reserve(it, 5)/ok := Reserve(it, 5)/; s/if ok || err == nil/if ok/' "$G/stock/stock_test.go"
  capture batch2 go_test_verbose_pass "$G" "go test -v ./... -count=1" "$(go version)"

  # cargo clippy with errors (deny-by-default lints) and warnings
  C="$B/ringbuf"
  mkdir -p "$C/src"
  printf '[package]\nname = "ringbuf"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >"$C/Cargo.toml"
  cat >"$C/src/lib.rs" <<'EOF'
pub struct Ring { buf: Vec<u32>, head: usize, len: usize }

impl Ring {
    pub fn new(cap: usize) -> Ring { Ring { buf: vec![0; cap], head: 0, len: 0 } }
    pub fn len(&self) -> usize { self.len }
    pub fn push(&mut self, v: u32) {
        let idx = (self.head + self.len) % self.buf.len();
        self.buf[idx] = v;
        if self.len == self.buf.len() { self.head = (self.head + 1) % self.buf.len(); } else { self.len = self.len + 1; }
    }
    pub fn is_full(&self) -> bool { if self.len == self.buf.len() { return true } else { return false } }
    pub fn sum(&self) -> u32 {
        let mut total = 0;
        for i in 0..self.len { total = total + self.buf[(self.head + i) % self.buf.len()]; }
        return total;
    }
    pub fn ratio(&self) -> f64 { let x = 3.14; x * self.len as f64 }
    pub fn check(&self) -> bool { self.len < 0 || self.head == self.head }
}
EOF
  capture batch2 cargo_clippy_errors "$C" "cargo clippy --offline" "$(cargo clippy --version)"

  # deno test with a failing assertion and a thrown error
  D="$B/slugs"
  mkdir -p "$D"
  cat >"$D/slug.ts" <<'EOF'
export function slugify(s: string): string {
  return s.toLowerCase().trim().replace(/\s+/g, "-");
}
export function parseVersion(v: string): [number, number, number] {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(v);
  if (!m) throw new RangeError(`invalid version: ${v}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}
EOF
  cat >"$D/slug_test.ts" <<'EOF'
import { parseVersion, slugify } from "./slug.ts";

function assertEquals(a: unknown, b: unknown, msg?: string) {
  if (JSON.stringify(a) !== JSON.stringify(b)) {
    throw new Error(msg ?? `Values are not equal: ${JSON.stringify(a)} !== ${JSON.stringify(b)}`);
  }
}

Deno.test("slugify lowercases", () => assertEquals(slugify("Hello"), "hello"));
Deno.test("slugify collapses spaces", () => assertEquals(slugify("a  b"), "a-b"));
Deno.test("slugify strips punctuation", () => assertEquals(slugify("Hi, there!"), "hi-there"));
Deno.test("parseVersion plain", () => assertEquals(parseVersion("1.2.3"), [1, 2, 3]));
Deno.test("parseVersion with v prefix", () => assertEquals(parseVersion("v2.0.1"), [2, 0, 1]));
Deno.test("parseVersion two parts", () => assertEquals(parseVersion("1.2"), [1, 2, 0]));
Deno.test("slugify unicode", () => assertEquals(slugify("Über Café"), "über-café"));
EOF
  capture batch2 deno_test_failures "$D" "$ROOT/node_modules/deno/deno test --no-check slug_test.ts" \
    "$("$ROOT/node_modules/deno/deno" --version | head -1)"

  # pylint and shellcheck on files with problems
  L="$B/lint"
  mkdir -p "$L"
  cat >"$L/report.py" <<'EOF'
import os, sys
import json
from collections import *


def build_report(rows, format = "text", verbose=False):
    total = 0
    for i in range(len(rows)):
        row = rows[i]
        total += row["amount"]
    if format == "json":
        return json.dumps({"total": total})
    elif format == "text":
        return "total: %s" % total
    else:
        print("unknown format " + format)


class report:
    def __init__(self, path):
        self.path = path
    def write(self, text):
        f = open(self.path, "w")
        f.write(text)
        unused_variable = 42


def main():
    try:
        rows = json.load(open(sys.argv[1]))
    except:
        return 1
    print(build_report(rows, fmt="json"))
    print(undefined_name)
EOF
  capture batch2 pylint_findings "$L" "pylint report.py" "$(pylint --version 2>/dev/null | sed -n 1p)"
  cat >"$L/deploy.sh" <<'EOF'
#!/bin/bash
TARGET=$1
files=$(ls $TARGET/*.tar.gz)
for f in $files; do
  echo Deploying $f
  cd /srv/releases
  tar -xzf $f
done
if [ $TARGET == "prod" ]; then
  echo "Restarting `hostname`"
  read name
  rm -rf /srv/cache/$name/*
fi
[ -z $RELEASE ] && echo "no release"
EOF
  capture batch2 shellcheck_findings "$L" "shellcheck deploy.sh" "$(shellcheck --version | sed -n 2p)"

  # git: a rebase that stops on a conflict, and `git status` in the middle of a merge
  V="$B/repo"
  mkdir -p "$V" && cd "$V" && git init -q -b main && git config user.email dev@example.com && git config user.name Dev
  printf 'timeout = 30\nretries = 3\nendpoint = "https://api.example.com"\n' >settings.toml
  printf '# Service\n\nRun it.\n' >README.md
  printf 'def handler(event):\n    return event\n' >handler.py
  git add -A && git commit -qm "initial service"
  git checkout -qb feature/retries
  sed -i 's/retries = 3/retries = 5/' settings.toml && git commit -qam "raise retries to 5"
  printf 'def handler(event):\n    event = dict(event)\n    return event\n' >handler.py && git commit -qam "copy the event"
  git checkout -q main
  sed -i 's/retries = 3/retries = 2/' settings.toml && printf 'def handler(event, ctx):\n    return event\n' >handler.py
  git commit -qam "fewer retries, pass context"
  cd - >/dev/null
  capture batch2 git_rebase_conflict "$V" "git rebase main feature/retries" "$(git --version)"
  (cd "$V" && git rebase --abort && git checkout -q main && git merge -q feature/retries >/dev/null 2>&1) || true
  printf 'scratch\n' >"$V/notes.txt"
  capture batch2 git_status_merge "$V" "git status" "$(git --version)"

  # npm ci with package.json and package-lock.json out of sync
  N="$B/webapp"
  mkdir -p "$N"
  printf '{\n  "name": "webapp",\n  "version": "1.0.0",\n  "lockfileVersion": 3,\n  "requires": true,\n  "packages": {\n    "": {\n      "name": "webapp",\n      "version": "1.0.0",\n      "dependencies": {\n        "left-pad": "^1.3.0"\n      }\n    },\n    "node_modules/left-pad": {\n      "version": "1.3.0",\n      "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",\n      "integrity": "sha512-XI5MPzVNApjAyhQzphX8BkmKsKUxD4LdyK24iZeQbX4KqYc31z4lIgaAnhk6HPGmAqpkUh4ivNskRkTLTR5lTg=="\n    }\n  }\n}\n' >"$N/package-lock.json"
  printf '{\n  "name": "webapp",\n  "version": "1.0.0",\n  "dependencies": {\n    "left-pad": "^1.3.0",\n    "is-odd": "^3.0.1"\n  }\n}\n' >"$N/package.json"
  capture batch2 npm_ci_out_of_sync "$N" "npm ci" "npm $(npm --version)"

  # pip install -e . of a project whose setup.py is broken
  S="$B/pkgsetup"
  mkdir -p "$S/geo"
  echo 'def area(w, h): return w * h' >"$S/geo/__init__.py"
  cat >"$S/setup.py" <<'EOF'
from setuptools import setup, find_packages
from geo.version import __version__

setup(
    name="geo",
    version=__version__,
    packages=find_packages(),
)
EOF
  capture batch2 pip_editable_broken "$S" "pip install --no-build-isolation --no-deps -e ." "$(pip --version)"

  # make -j with one translation unit failing in the middle of a parallel build, then a clean build with warnings
  M="$B/mathlib"
  mkdir -p "$M/src"
  for n in vec mat quat noise rng stats; do
    printf '#include "%s.h"\nint %s_version(void) { return 1; }\ndouble %s_scale(double x) { return x * 2.0; }\n' "$n" "$n" "$n" >"$M/src/$n.c"
    printf 'int %s_version(void);\ndouble %s_scale(double x);\n' "$n" "$n" >"$M/src/$n.h"
  done
  cat >"$M/src/quat.c" <<'EOF'
#include "quat.h"
#include <math.h>
typedef struct { double w, x, y, z; } quat;
int quat_version(void) { return 1; }
double quat_scale(double x) { return x * 2.0; }
double quat_norm(quat q) { return sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z) }
quat quat_mul(quat a, quat b) {
  quat r;
  r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
  r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.yy;
  return r;
}
EOF
  cat >"$M/Makefile" <<'EOF'
CC = gcc
CFLAGS = -O2 -Wall -Wextra -Isrc
SRCS = $(wildcard src/*.c)
OBJS = $(SRCS:src/%.c=build/%.o)

all: build/libmath.a

build/%.o: src/%.c | build
	$(CC) $(CFLAGS) -c $< -o $@

build:
	mkdir -p build

build/libmath.a: $(OBJS)
	ar rcs $@ $^

clean:
	rm -rf build
EOF
  capture batch2 make_parallel_error "$M" "make -j4 -k" "$(make --version | head -1)"
  cat >"$M/src/quat.c" <<'EOF'
#include "quat.h"
typedef struct { double w, x, y, z; } quat;
int quat_version(void) { int unused; return 1; }
double quat_scale(double x) { return x * 2.0; }
int quat_cmp(unsigned a, int b) { return a < b; }
double quat_dot(quat a, quat b, int flags) { return a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z; }
EOF
  (cd "$M" && make clean >/dev/null)
  capture batch2 make_warnings_pass "$M" "make -j2" "$(gcc --version | head -1)"

  # docker client without a daemon
  capture batch2 docker_no_daemon "$B" "docker ps -a" "$(docker --version 2>&1 | head -1)"

  # pytest -q with a fixture error, a failure and passing tests
  T="$B/shop"
  mkdir -p "$T/tests"
  cat >"$T/cart.py" <<'EOF'
class Cart:
    def __init__(self):
        self.items = {}

    def add(self, sku, qty=1):
        self.items[sku] = self.items.get(sku, 0) + qty

    def total(self, prices):
        return sum(prices[s] * q for s, q in self.items.items())
EOF
  cat >"$T/tests/conftest.py" <<'EOF'
import json
import pytest


@pytest.fixture
def prices():
    with open("tests/prices.json") as fh:
        return json.load(fh)


@pytest.fixture
def cart():
    from cart import Cart
    return Cart()
EOF
  cat >"$T/tests/test_cart.py" <<'EOF'
def test_add(cart):
    cart.add("apple")
    assert cart.items == {"apple": 1}


def test_add_twice(cart):
    cart.add("apple")
    cart.add("apple", 2)
    assert cart.items["apple"] == 3


def test_total(cart, prices):
    cart.add("apple", 2)
    assert cart.total(prices) == 1.0


def test_total_empty(cart, prices):
    assert cart.total(prices) == 0


def test_remove(cart):
    cart.add("pear")
    cart.items.pop("pear")
    assert cart.items == {"pear": 0}


def test_unknown_fixture(cart, discount):
    assert discount == 0
EOF
  capture batch2 pytest_fixture_error "$T" "python -m pytest -q" "$(python -m pytest --version 2>&1)"
  printf '{"apple": 0.5, "pear": 0.75}\n' >"$T/tests/prices.json"
  sed -i 's/assert cart.items == {"pear": 0}/assert cart.items == {}/; s/def test_unknown_fixture(cart, discount):/def test_unknown_fixture(cart):/; s/assert discount == 0/assert not cart.items/' "$T/tests/test_cart.py"
  for i in $(seq 1 40); do
    printf 'import warnings\n\n\ndef test_case_%d(cart):\n    warnings.warn("Cart.total rounding is deprecated", DeprecationWarning)\n    cart.add("s%d", %d)\n    assert cart.items["s%d"] == %d\n' "$i" "$i" "$i" "$i" "$i" >"$T/tests/test_bulk_$i.py"
  done
  capture batch2 pytest_pass_warnings "$T" "python -m pytest -q" "$(python -m pytest --version 2>&1)"

  # tsc --pretty false with many errors over six files
  TS="$B/tsapp"
  mkdir -p "$TS/src"
  printf '{\n  "compilerOptions": { "strict": true, "target": "es2020", "module": "commonjs", "noEmit": true },\n  "include": ["src"]\n}\n' >"$TS/tsconfig.json"
  cat >"$TS/src/user.ts" <<'EOF'
export interface User { id: number; name: string; email?: string }
export function greet(u: User): string { return "hi " + u.nam; }
export function mail(u: User): string { return u.email.toLowerCase(); }
export const admin: User = { id: "1", name: "root" };
EOF
  cat >"$TS/src/cart.ts" <<'EOF'
import { User } from "./user";
export function total(xs: number[]): number { return xs.reduce((a, b) => a + b, "0"); }
export function owner(u: User) { return u.id.toUpperCase(); }
export function add(xs: number[], x) { xs.push(x); return xs.lenght; }
EOF
  cat >"$TS/src/api.ts" <<'EOF'
import { greet, User } from "./user";
import { fetchJson } from "./http";
export async function load(id: number): Promise<User> { const r = await fetchJson(`/u/${id}`); return r; }
export function hello(): string { return greet({ id: 1 }); }
export function count(): number { return "3"; }
EOF
  cat >"$TS/src/config.ts" <<'EOF'
type Mode = "dev" | "prod";
export const mode: Mode = "test";
export const port: number = process.env.PORT;
export function read(k: string) { return settings[k]; }
EOF
  cat >"$TS/src/util.ts" <<'EOF'
export function first<T>(xs: T[]): T { return xs[0] ?? null; }
export function pick(o: object, k: string) { return o[k]; }
export function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }
export const n: number = parseInt(42);
EOF
  cat >"$TS/src/index.ts" <<'EOF'
import { total } from "./cart";
import { mode } from "./config";
import { missing } from "./util";
console.log(total([1, 2, "3"]), mode.toUpperCase(1));
const x: string = 5;
EOF
  capture batch2 tsc_many_errors "$TS" "$ROOT/node_modules/typescript/bin/tsc --pretty false -p ." \
    "tsc $("$ROOT/node_modules/typescript/bin/tsc" --version 2>&1)"

  # php -l of a file with a syntax error; a verbose cargo build that succeeds
  printf '<?php\nfunction total(array $xs): int {\n    $sum = 0;\n    foreach ($xs as $x) {\n        $sum += $x\n    }\n    return $sum;\n}\n' >"$B/total.php"
  capture batch2 php_lint_syntax "$B" "php -l total.php" "$(php --version | head -1)"
  sed -i 's/pub fn check(&self) -> bool { self.len < 0 || self.head == self.head }/pub fn check(\&self) -> bool { self.head < self.buf.len() }/; s/let x = 3.14; x \* self.len as f64/self.len as f64 \/ self.buf.len() as f64/' "$C/src/lib.rs"
  capture batch2 cargo_build_verbose_pass "$C" "cargo build --offline -v && cargo test --offline -q 2>&1" "$(cargo --version)"
fi

# --- batch3: a third blind batch (tools and situations the set lacked), captured and its signals
# written before any filter ran on it. npm tools come from a scratch install outside the repo. It ran
# with TERM=xterm, as an agent's shell has it: vitest and cargo fmt colour their output even without
# a terminal.
if sel batch3; then
  B="$WORK/batch3"
  rm -rf "$B" && mkdir -p "$B"
  NPMDIR="${ZEPH_HELDOUT_NPM:-/tmp/zeph-heldout-npm}"
  if [ ! -x "$NPMDIR/node_modules/.bin/vitest" ]; then
    mkdir -p "$NPMDIR" && (cd "$NPMDIR" && npm init -y >/dev/null &&
      npm install eslint@9 @eslint/js@9 prettier vitest vite esbuild >/dev/null 2>&1)
  fi

  # eslint (flat config, recommended rules plus a few) with errors over several files, then warnings only
  E="$B/dashboard"
  mkdir -p "$E/src/components" "$E/src/lib"
  ln -s "$NPMDIR/node_modules" "$E/node_modules"
  printf '{ "name": "dashboard", "version": "0.3.0", "private": true, "type": "module" }\n' >"$E/package.json"
  cat >"$E/eslint.config.js" <<'EOF'
import js from "@eslint/js";

export default [
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { window: "readonly", document: "readonly", console: "readonly", fetch: "readonly" },
    },
    rules: {
      eqeqeq: "error",
      "prefer-const": "error",
      "no-var": "error",
      "no-console": "warn",
      "no-unused-vars": ["error", { args: "after-used" }],
      curly: "warn",
    },
  },
];
EOF
  cat >"$E/src/lib/format.js" <<'EOF'
import { clamp } from "./math.js";

export function formatMoney(cents, currency) {
  var sign = cents < 0 ? "-" : "";
  let abs = Math.abs(cents);
  let whole = Math.floor(abs / 100);
  const frac = abs % 100;
  if (currency == "EUR") return `${sign}${whole},${String(frac).padStart(2, "0")} €`;
  return `${sign}$${whole}.${String(frac).padStart(2, "0")}`;
}

export function formatPercent(x, digits) {
  const unused = digits * 2;
  return (x * 100).toFixed(1) + "%";
}

export function truncate(s, n) {
  if (s.length <= n) return s
  return s.slice(0, n - 1) + "…";
}
EOF
  cat >"$E/src/lib/math.js" <<'EOF'
export function clamp(x, lo, hi) {
  if (x < lo) return lo;
  if (x > hi) return hi;
  return x;
}

export function mean(xs) {
  let sum = 0;
  for (var i = 0; i < xs.length; i++) sum += xs[i];
  return sum / xs.length;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  if (s.length % 2 == 0) return (s[mid - 1] + s[mid]) / 2;
  return s[mid];
}

export function percentile(xs, p) {
  const s = [...xs].sort();
  const idx = Math.ceil((p / 100) * s.length) - 1;
  return s[idx];
  console.log("unreachable");
}
EOF
  cat >"$E/src/components/chart.js" <<'EOF'
import { mean, median } from "../lib/math.js";
import { formatMoney, formatPercent } from "../lib/format.js";

export function renderChart(el, series) {
  let max = Math.max(...series.map((p) => p.value));
  const avg = mean(series.map((p) => p.value));
  for (const point of series) {
    const bar = document.createElement("div");
    bar.style.height = `${(point.value / max) * 100}%`;
    bar.title = formatMoney(point.value, point.currency);
    el.appendChild(bar);
  }
  console.log("rendered", series.length, "points");
  return avgerage;
}

export function legend(el, series) {
  const total = series.reduce((a, p) => a + p.value, 0);
  series.forEach(function (p, i) {
    const row = document.createElement("li");
    row.textContent = p.label + " " + formatPercent(p.value / total);
    if (i == 0) row.className = "first";
    el.appendChild(row);
  });
}
EOF
  cat >"$E/src/components/table.js" <<'EOF'
import { truncate } from "../lib/format.js";

export function renderTable(el, rows, columns) {
  const head = document.createElement("tr");
  for (let c of columns) {
    const th = document.createElement("th");
    th.textContent = c.title;
    head.appendChild(th);
  }
  el.appendChild(head);
  for (const row of rows) {
    const tr = document.createElement("tr");
    for (const c of columns) {
      const td = document.createElement("td");
      switch (c.type) {
        case "text":
          td.textContent = truncate(row[c.key], 40);
        case "number":
          td.textContent = String(row[c.key]);
          break;
        default:
          td.textContent = row[c.key];
      }
      tr.appendChild(td);
    }
    el.appendChild(tr);
  }
}

export async function loadRows(url) {
  try {
    const res = await fetch(url);
    if (res.status != 200) throw new Error("HTTP " + res.status);
    return await res.json();
  } catch (e) {
    throw e;
  }
}
EOF
  cat >"$E/src/main.js" <<'EOF'
import { renderChart, legend } from "./components/chart.js";
import { renderTable, loadRows } from "./components/table.js";

const app = document.getElementById("app");
let rows = await loadRows("/api/revenue");
if (!rows.length) console.warn("no data");
renderChart(app, rows);
renderTable(app, rows, [{ key: "label", title: "Label", type: "text" }, { key: "value", title: "Value", type: "number" }]);
if (typeof rows[0].value === "numbr") legend(app, rows);
EOF
  capture batch3 eslint_errors "$E" "npx eslint src" "eslint $("$NPMDIR/node_modules/.bin/eslint" --version)"

  # vitest: several failing tests (object diff, thrown error, async rejection) among passing ones
  V="$B/pricing"
  mkdir -p "$V/src" "$V/test"
  ln -s "$NPMDIR/node_modules" "$V/node_modules"
  printf '{ "name": "pricing", "version": "1.0.0", "private": true, "type": "module" }\n' >"$V/package.json"
  cat >"$V/src/pricing.js" <<'EOF'
export function lineTotal(line) {
  return line.qty * line.unitPrice;
}

export function applyCoupon(total, coupon) {
  if (coupon.kind === "percent") return total - (total * coupon.value) / 100;
  if (coupon.kind === "fixed") return total - coupon.value;
  throw new TypeError(`unknown coupon kind: ${coupon.kind}`);
}

export function summarize(lines, coupon) {
  const subtotal = lines.reduce((a, l) => a + lineTotal(l), 0);
  const total = coupon ? applyCoupon(subtotal, coupon) : subtotal;
  return { subtotal, total, items: lines.length, currency: "EUR" };
}

export async function fetchRates(base) {
  await new Promise((r) => setTimeout(r, 5));
  if (base !== "EUR") throw new Error(`no rates for ${base}`);
  return { USD: 1.08, GBP: 0.86 };
}
EOF
  cat >"$V/test/pricing.test.js" <<'EOF'
import { describe, expect, it } from "vitest";
import { applyCoupon, fetchRates, lineTotal, summarize } from "../src/pricing.js";

describe("lineTotal", () => {
  it("multiplies qty by unit price", () => expect(lineTotal({ qty: 3, unitPrice: 250 })).toBe(750));
  it("handles zero qty", () => expect(lineTotal({ qty: 0, unitPrice: 250 })).toBe(0));
  it("rounds fractional cents", () => expect(lineTotal({ qty: 3, unitPrice: 33.335 })).toBe(100));
});

describe("applyCoupon", () => {
  it("applies a percent coupon", () => expect(applyCoupon(1000, { kind: "percent", value: 10 })).toBe(900));
  it("applies a fixed coupon", () => expect(applyCoupon(1000, { kind: "fixed", value: 150 })).toBe(850));
  it("never goes below zero", () => expect(applyCoupon(100, { kind: "fixed", value: 150 })).toBe(0));
  it("supports free shipping coupons", () => expect(applyCoupon(1000, { kind: "shipping", value: 0 })).toBe(1000));
});

describe("summarize", () => {
  const lines = [{ qty: 2, unitPrice: 500 }, { qty: 1, unitPrice: 250 }];
  it("sums lines", () => expect(summarize(lines).subtotal).toBe(1250));
  it("reports the whole summary", () => {
    expect(summarize(lines, { kind: "percent", value: 20 })).toEqual({
      subtotal: 1250,
      total: 1000,
      items: 3,
      currency: "EUR",
      discount: 250,
    });
  });
});

describe("fetchRates", () => {
  it("returns EUR rates", async () => expect(await fetchRates("EUR")).toHaveProperty("USD", 1.08));
  it("returns USD rates", async () => expect((await fetchRates("USD")).EUR).toBeCloseTo(0.93));
});
EOF
  cat >"$V/test/format.test.js" <<'EOF'
import { expect, test } from "vitest";
import { summarize } from "../src/pricing.js";

test("empty cart", () => expect(summarize([])).toMatchObject({ subtotal: 0, items: 0 }));
test("currency is EUR", () => expect(summarize([]).currency).toBe("EUR"));
EOF
  capture batch3 vitest_failures "$V" "npx vitest run" "vitest $("$NPMDIR/node_modules/.bin/vitest" --version | cut -d' ' -f1)"

  # esbuild bundle with an unresolved import, a syntax error and a duplicate export
  S="$B/widget"
  mkdir -p "$S/src"
  ln -s "$NPMDIR/node_modules" "$S/node_modules"
  cat >"$S/src/index.ts" <<'EOF'
import { mount } from "./mount";
import { theme } from "./theme";
import { debounce } from "lodash-es";
import config from "./config.json";

export function start(el: HTMLElement) {
  mount(el, { theme, delay: config.delay });
  window.addEventListener("resize", debounce(() => mount(el, { theme }), 100));
}
EOF
  cat >"$S/src/mount.ts" <<'EOF'
export interface Options { theme: string; delay?: number }
export function mount(el: HTMLElement, opts: Options) {
  el.dataset.theme = opts.theme;
  const timer = setTimeout(() => el.classList.add("ready"), opts.delay ?? 0;
  return () => clearTimeout(timer);
}
EOF
  cat >"$S/src/theme.ts" <<'EOF'
export const theme = "dark";
export const accent = "#09f";
export const theme = "light";
EOF
  printf '{ "delay": 50 }\n' >"$S/src/config.json"
  capture batch3 esbuild_errors "$S" "npx esbuild src/index.ts --bundle --outfile=dist/widget.js --format=esm" \
    "esbuild $("$NPMDIR/node_modules/.bin/esbuild" --version)"

  # node ESM: an extensionless relative import
  M="$B/mailer"
  mkdir -p "$M/src/lib"
  printf '{ "name": "mailer", "version": "2.0.0", "type": "module", "main": "src/index.js" }\n' >"$M/package.json"
  printf 'export function render(tpl, vars) {\n  return tpl.replace(/{{(\\w+)}}/g, (_, k) => vars[k] ?? "");\n}\n' >"$M/src/lib/template.js"
  cat >"$M/src/index.js" <<'EOF'
import { render } from "./lib/template";

console.log(render("Hello {{name}}", { name: process.argv[2] ?? "world" }));
EOF
  capture batch3 node_esm_missing_extension "$M" "node src/index.js ada" "node $(node --version)"

  # vite production build that passes with a chunk-size warning
  W="$B/storefront"
  mkdir -p "$W/src/pages"
  ln -s "$NPMDIR/node_modules" "$W/node_modules"
  printf '{ "name": "storefront", "version": "0.9.0", "private": true, "type": "module" }\n' >"$W/package.json"
  printf '<!doctype html>\n<html><head><title>Store</title><link rel="stylesheet" href="/src/style.css"></head>\n<body><div id="app"></div><script type="module" src="/src/main.js"></script></body></html>\n' >"$W/index.html"
  printf 'body { font-family: sans-serif; margin: 0 }\n#app { display: grid; gap: 1rem }\n' >"$W/src/style.css"
  for p in home catalog product cart checkout account; do
    printf 'export default function %s(el) {\n  el.innerHTML = "<h1>%s</h1>";\n}\n' "$p" "$p" >"$W/src/pages/$p.js"
  done
  python3 -c '
import random
random.seed(7)
rows = ",\n".join("  { sku: \"SKU-%05d\", name: \"Product %d %s\", price: %d }" % (i, i, "".join(random.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(24)), random.randint(100, 99999)) for i in range(9000))
print("export const catalog = [\n" + rows + "\n];")' >"$W/src/catalog-data.js"
  cat >"$W/src/main.js" <<'EOF'
import home from "./pages/home.js";
import { catalog } from "./catalog-data.js";

const routes = {
  "/": home,
  "/catalog": () => import("./pages/catalog.js"),
  "/product": () => import("./pages/product.js"),
  "/cart": () => import("./pages/cart.js"),
  "/checkout": () => import("./pages/checkout.js"),
  "/account": () => import("./pages/account.js"),
};
const el = document.getElementById("app");
const route = routes[location.pathname] ?? home;
Promise.resolve(route === home ? { default: home } : route()).then((m) => m.default(el));
console.log(catalog.length, "products");
EOF
  capture batch3 vite_build_chunk_warning "$W" "npx vite build" "vite $("$NPMDIR/node_modules/.bin/vite" --version | cut -d' ' -f1)"

  # tsc --build --verbose of a three-project monorepo that builds cleanly
  T="$B/mono"
  for pkg in core utils api; do mkdir -p "$T/packages/$pkg/src"; done
  printf '{\n  "compilerOptions": { "composite": true, "declaration": true, "strict": true, "target": "es2020", "module": "commonjs", "rootDir": "src", "outDir": "dist" },\n  "include": ["src"]\n}\n' >"$T/packages/utils/tsconfig.json"
  printf '{\n  "compilerOptions": { "composite": true, "declaration": true, "strict": true, "target": "es2020", "module": "commonjs", "rootDir": "src", "outDir": "dist" },\n  "include": ["src"],\n  "references": [{ "path": "../utils" }]\n}\n' >"$T/packages/core/tsconfig.json"
  printf '{\n  "compilerOptions": { "composite": true, "declaration": true, "strict": true, "target": "es2020", "module": "commonjs", "rootDir": "src", "outDir": "dist" },\n  "include": ["src"],\n  "references": [{ "path": "../core" }, { "path": "../utils" }]\n}\n' >"$T/packages/api/tsconfig.json"
  printf '{\n  "files": [],\n  "references": [{ "path": "packages/utils" }, { "path": "packages/core" }, { "path": "packages/api" }]\n}\n' >"$T/tsconfig.json"
  printf 'export function slug(s: string): string {\n  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-");\n}\n' >"$T/packages/utils/src/index.ts"
  printf 'import { slug } from "../../utils/src/index";\nexport interface Post { title: string; slug: string }\nexport function post(title: string): Post {\n  return { title, slug: slug(title) };\n}\n' >"$T/packages/core/src/index.ts"
  printf 'import { post } from "../../core/src/index";\nexport function handle(title: string): string {\n  return JSON.stringify(post(title));\n}\n' >"$T/packages/api/src/index.ts"
  capture batch3 tsc_build_verbose_pass "$T" "$ROOT/node_modules/typescript/bin/tsc --build --verbose" \
    "tsc $("$ROOT/node_modules/typescript/bin/tsc" --version 2>&1)"

  # python: flake8 and black --check --diff over a small package, a long job log that crashes at the end
  Y="$B/etl"
  mkdir -p "$Y/etl" "$Y/jobs"
  : >"$Y/etl/__init__.py"
  cat >"$Y/etl/extract.py" <<'EOF'
import os, sys
import csv
from datetime import datetime
from typing import List,Dict


def read_rows(path:str)->List[Dict]:
    rows=[]
    with open(path) as fh:
        for row in csv.DictReader(fh):
            rows.append(row)
    return rows

def parse_date(value):
    try:
        return datetime.strptime(value, "%Y-%m-%d")
    except:
        return None
def normalize(row):
    return {k.strip().lower(): v.strip() for k,v in row.items() if v != None}
EOF
  cat >"$Y/etl/transform.py" <<'EOF'
import json
from collections import defaultdict


def group_by(rows, key):
    groups = defaultdict(list)
    for r in rows:
        groups[r[key]].append(r)
    return groups


def totals(groups, field = "amount"):
    result = {}
    for k, rows in groups.items():
        result[k] = sum(float(r[field]) for r in rows if r[field] != "" and r[field] is not None and not r[field].startswith("#"))
    return result


def to_json(data):
    l = json.dumps(data, indent=2)
    return l

def unused_helper(x):
    y = x * 2
    return undefined_total + x
EOF
  cat >"$Y/etl/load.py" <<'EOF'
import sqlite3


def write(db_path, table, rows):
    conn = sqlite3.connect(db_path)
    cur = conn.cursor()
    cur.execute("CREATE TABLE IF NOT EXISTS %s (key TEXT, total REAL)" % table)
    for key, total in rows.items():
        cur.execute("INSERT INTO %s VALUES (?, ?)" % table, (key, total))
    conn.commit()
    conn.close()
EOF
  capture batch3 flake8_findings "$Y" "flake8 etl/" "flake8 $(flake8 --version | head -1)"
  capture batch3 black_check_diff "$Y" "black --check --diff etl/" "$(black --version | head -1)"
  cat >"$Y/jobs/nightly.py" <<'EOF'
import logging
import random
import sys

logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                    format="%(asctime)s %(levelname)-7s %(name)s: %(message)s", datefmt="%H:%M:%S")
log = logging.getLogger("nightly")
random.seed(3)

REGIONS = ["eu-west", "eu-north", "us-east", "us-west", "ap-south", "ap-east"]
RATES = {"EUR": 1.0, "USD": 0.92, "GBP": 1.17, "SEK": 0.088, "JPY": 0.0061}


def convert(amount, currency):
    return amount * RATES[currency]


def process(region, batch):
    rows = []
    for i in range(40):
        currency = random.choice(list(RATES))
        if region == "ap-east" and batch == 3 and i == 17:
            currency = "INR"
        rows.append(convert(random.uniform(1, 500), currency))
    return sum(rows)


def main():
    log.info("starting nightly revenue job for %d regions", len(REGIONS))
    grand = 0.0
    for region in REGIONS:
        log.info("region %s: loading batches", region)
        for batch in range(1, 6):
            subtotal = process(region, batch)
            grand += subtotal
            log.info("region %s batch %d/5: 40 rows, subtotal %.2f EUR", region, batch, subtotal)
        if region in ("us-west", "ap-south"):
            log.warning("region %s: 3 rows skipped (missing customer id)", region)
        log.info("region %s done", region)
    log.info("grand total %.2f EUR", grand)


if __name__ == "__main__":
    main()
EOF
  capture batch3 python_job_log_crash "$Y" "python3 jobs/nightly.py" "$(python3 --version)"

  # ruby minitest: failures and an error, then a verbose passing run
  R="$B/ledger"
  mkdir -p "$R/lib" "$R/test"
  cat >"$R/lib/ledger.rb" <<'EOF'
class Ledger
  Entry = Struct.new(:account, :amount, :memo)

  def initialize
    @entries = []
  end

  def post(account, amount, memo = nil)
    raise ArgumentError, "amount must be non-zero" if amount.zero?
    @entries << Entry.new(account, amount, memo)
    self
  end

  def balance(account)
    @entries.select { |e| e.account == account }.sum(&:amount)
  end

  def accounts
    @entries.map(&:account).uniq
  end

  def transfer(from, to, amount)
    post(from, -amount, "transfer to #{to}")
    post(to, amount, "transfer from #{from}")
  end

  def statement(account)
    @entries.select { |e| e.account == account }.map { |e| format("%-20s %8.2f", e.memo, e.amount) }
  end
end
EOF
  cat >"$R/test/test_ledger.rb" <<'EOF'
require "minitest/autorun"
require "ledger"

class LedgerTest < Minitest::Test
  def setup
    @l = Ledger.new
  end

  def test_post_and_balance
    @l.post("cash", 100).post("cash", -30)
    assert_equal 70, @l.balance("cash")
  end

  def test_zero_amount_rejected
    assert_raises(ArgumentError) { @l.post("cash", 0) }
  end

  def test_accounts_sorted
    @l.post("rent", 5).post("cash", 10).post("bank", 1)
    assert_equal %w[bank cash rent], @l.accounts
  end

  def test_transfer
    @l.post("cash", 100)
    @l.transfer("cash", "bank", 40)
    assert_equal 60, @l.balance("cash")
    assert_equal 40, @l.balance("bank")
  end

  def test_transfer_overdraft
    @l.post("cash", 10)
    assert_raises(RuntimeError) { @l.transfer("cash", "bank", 40) }
  end

  def test_statement
    @l.post("cash", 12.5, "coffee")
    assert_equal ["coffee                  12.50"], @l.statement("cash")
  end

  def test_statement_without_memo
    @l.post("cash", 3)
    assert_match(/3\.00/, @l.statement("cash").first)
  end

  def test_balance_unknown_account
    assert_equal 0, @l.balance_of("nope")
  end
end
EOF
  capture batch3 minitest_failures "$R" "ruby -Ilib -Itest test/test_ledger.rb --seed 1234" "$(ruby --version)"
  sed -i 's/%w\[bank cash rent\]/%w[rent cash bank]/; s/assert_raises(RuntimeError) { @l.transfer("cash", "bank", 40) }/@l.transfer("cash", "bank", 40)/; s/balance_of/balance/' "$R/test/test_ledger.rb"
  capture batch3 minitest_verbose_pass "$R" "ruby -Ilib -Itest test/test_ledger.rb -v --seed 1234" "$(ruby --version)"

  # go build ./... with errors in two packages
  G="$B/shipping"
  mkdir -p "$G/rates" "$G/labels" "$G/cmd/shipctl"
  printf 'module example.com/shipping\n\ngo 1.19\n' >"$G/go.mod"
  cat >"$G/rates/rates.go" <<'EOF'
package rates

import (
	"errors"
	"fmt"
	"strings"
)

type Zone int

const (
	Domestic Zone = iota
	EU
	World
)

var ErrUnknownZone = errors.New("unknown zone")

func Price(z Zone, grams int) (float64, error) {
	switch z {
	case Domestic:
		return 4.5 + float64(grams)/1000*1.2, nil
	case EU:
		return 9 + grams/1000*2.5, nil
	case World:
		return 16 + float64(grams)/1000*4, nil
	}
	return 0, ErrUnknownZone
}

func ParseZone(s string) (Zone, error) {
	switch strings.ToLower(s) {
	case "domestic":
		return Domestic, nil
	case "eu":
		return EU
	}
	return World, nil
}
EOF
  cat >"$G/labels/labels.go" <<'EOF'
package labels

import (
	"fmt"
	"os"
)

type Label struct {
	To    string
	Zone  int
	Grams int
}

func estimate(grams int) (float64, error) {
	if grams <= 0 {
		return 0, fmt.Errorf("weight must be positive, got %d", grams)
	}
	return 4.5 + float64(grams)/1000, nil
}

func (l Label) Render() string {
	price, err := estimate(l.Grams)
	return fmt.Sprintf("%s (%d g): %.2f EUR", l.To, l.Grams, price)
}

func Save(l Label, path string) error {
	return os.WriteFile(path, l.Render(), 0o644)
}

func Batch(ls []Label) int {
	total := 0
	for _, l := range ls {
		total += l.Weight
	}
	return total
}
EOF
  cat >"$G/cmd/shipctl/main.go" <<'EOF'
package main

import (
	"fmt"
	"os"

	"example.com/shipping/labels"
	"example.com/shipping/rates"
)

func main() {
	z, err := rates.ParseZone(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(labels.Label{To: os.Args[2], Zone: int(z), Grams: 500}.Render())
}
EOF
  capture batch3 go_build_errors "$G" "go build ./..." "$(go version)"

  # cargo: several failing tests (assert_eq, a panic, a Result error), cargo fmt --check, a link error
  C="$B/tokenizer"
  mkdir -p "$C/src"
  printf '[package]\nname = "tokenizer"\nversion = "0.2.0"\nedition = "2021"\n\n[dependencies]\n' >"$C/Cargo.toml"
  cat >"$C/src/lib.rs" <<'EOF'
#[derive(Debug, PartialEq)]
pub enum Token { Num(i64), Ident(String), Op(char), LParen, RParen }

pub fn tokenize(src: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = src.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() { i += 1; }
            let s: String = chars[start..i].iter().collect();
            out.push(Token::Num(s.parse().map_err(|e| format!("bad number {s}: {e}"))?));
            continue;
        }
        if c.is_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_alphanumeric() { i += 1; }
            out.push(Token::Ident(chars[start..i].iter().collect()));
            continue;
        }
        match c {
            '+' | '-' | '*' | '/' => out.push(Token::Op(c)),
            '(' => out.push(Token::LParen),
            ')' => out.push(Token::RParen),
            ' ' => {}
            other => return Err(format!("unexpected character '{other}' at {i}")),
        }
        i += 1;
    }
    Ok(out)
}

pub fn eval(src: &str) -> i64 {
    let toks = tokenize(src).unwrap();
    let mut acc = 0;
    let mut op = '+';
    for t in toks {
        match t {
            Token::Num(n) => acc = match op { '+' => acc + n, '-' => acc - n, '*' => acc * n, _ => acc / n },
            Token::Op(o) => op = o,
            _ => {}
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() { assert_eq!(tokenize("12 34").unwrap(), vec![Token::Num(12), Token::Num(34)]); }
    #[test]
    fn identifiers() { assert_eq!(tokenize("x1 y").unwrap(), vec![Token::Ident("x1".into()), Token::Ident("y".into())]); }
    #[test]
    fn operators() { assert_eq!(tokenize("1+2").unwrap().len(), 3); }
    #[test]
    fn underscore_identifiers() { assert_eq!(tokenize("max_len").unwrap(), vec![Token::Ident("max_len".into())]); }
    #[test]
    fn huge_number() { assert!(tokenize("99999999999999999999").is_ok(), "huge literals should saturate"); }
    #[test]
    fn precedence() { assert_eq!(eval("2 + 3 * 4"), 14); }
    #[test]
    fn division_by_zero() { assert_eq!(eval("1 / 0"), 0); }
    #[test]
    fn parens() { assert_eq!(tokenize("(1)").unwrap(), vec![Token::LParen, Token::Num(1), Token::RParen]); }
    #[test]
    fn tabs() -> Result<(), String> { tokenize("1\t+\t2")?; Ok(()) }
    #[test]
    fn subtraction() { assert_eq!(eval("10 - 4 - 3"), 3); }
}
EOF
  # RUST_BACKTRACE=1, as many development shells set it: each panic prints its backtrace
  RUST_BACKTRACE=1 capture batch3 cargo_test_failures "$C" "cargo test --offline" "$(cargo --version)"
  capture batch3 cargo_fmt_check "$C" "cargo fmt --check" "$(cargo fmt --version)"
  L="$B/crcdemo"
  mkdir -p "$L/src"
  printf '[package]\nname = "crcdemo"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >"$L/Cargo.toml"
  cat >"$L/src/main.rs" <<'EOF'
use std::os::raw::{c_uchar, c_uint, c_ulong};

#[link(name = "fastcrc")]
extern "C" {
    fn fastcrc32(seed: c_ulong, data: *const c_uchar, len: c_uint) -> c_ulong;
}

fn main() {
    let data = b"hello world";
    let crc = unsafe { fastcrc32(0, data.as_ptr(), data.len() as c_uint) };
    println!("crc32 = {crc:08x}");
}
EOF
  capture batch3 rust_link_error "$L" "cargo build --offline" "$(cargo --version)"

  # clang-tidy with bugprone/readability findings (bugprone ones as errors)
  K="$B/ringlog"
  mkdir -p "$K/src" "$K/include"
  cat >"$K/include/ringlog.h" <<'EOF'
#ifndef RINGLOG_H
#define RINGLOG_H
#include <stddef.h>
typedef struct { char *buf; size_t cap; size_t head; size_t len; } ringlog;
int ringlog_init(ringlog *r, size_t cap);
int ringlog_write(ringlog *r, const char *msg);
size_t ringlog_copy(const ringlog *r, char *out, size_t n);
void ringlog_free(ringlog *r);
#endif
EOF
  cat >"$K/src/ringlog.c" <<'EOF'
#include "ringlog.h"
#include <stdlib.h>
#include <string.h>

int ringlog_init(ringlog *r, size_t cap) {
  r->buf = malloc(cap);
  r->cap = cap;
  r->head = 0;
  r->len = 0;
  return 0;
}

int ringlog_write(ringlog *r, const char *msg) {
  size_t n = strlen(msg);
  char *line = malloc(strlen(msg + 1));
  strcpy(line, msg);
  for (size_t i = 0; i < n; i++) {
    r->buf[(r->head + r->len) % r->cap] = line[i];
    if (r->len < r->cap) r->len++;
    else r->head = (r->head + 1) % r->cap;
  }
  return n;
}

size_t ringlog_copy(const ringlog *r, char *out, size_t n) {
  size_t i;
  for (i = 0; i < n && i < r->len; i++)
    out[i] = r->buf[(r->head + i) % r->cap];
  return i;
}

void ringlog_free(ringlog *r) {
  free(r->buf);
  if (r->buf != NULL) r->buf = NULL;
}
EOF
  cat >"$K/src/main.c" <<'EOF'
#include "ringlog.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  ringlog r;
  ringlog_init(&r, atoi(argv[1]));
  for (int i = 2; i < argc; i++) ringlog_write(&r, argv[i]);
  char out[64];
  size_t n = ringlog_copy(&r, out, sizeof out);
  out[n] = 0;
  printf("%s\n", out);
  if (n = 0) return 1;
  ringlog_free(&r);
  return 0;
}
EOF
  capture batch3 clang_tidy_findings "$K" \
    "clang-tidy --checks='-*,bugprone-*,readability-braces-around-statements,readability-else-after-return,clang-analyzer-*,cert-err34-c' --warnings-as-errors='bugprone-*' src/ringlog.c src/main.c -- -Iinclude" \
    "$(clang-tidy --version | sed -n 1p | sed 's/^ *//')"

  # cmake + ctest: a configure and build that pass, then two of five tests failing
  T="$B/geom"
  mkdir -p "$T/src" "$T/tests"
  cat >"$T/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(geom C)
enable_testing()
add_library(geom src/geom.c)
target_include_directories(geom PUBLIC src)
target_link_libraries(geom m)
foreach(t area distance clamp polygon bbox)
  add_executable(test_${t} tests/test_${t}.c)
  target_link_libraries(test_${t} geom)
  add_test(NAME ${t} COMMAND test_${t})
endforeach()
EOF
  printf 'typedef struct { double x, y; } pt;\ndouble geom_dist(pt a, pt b);\ndouble geom_area(const pt *p, int n);\ndouble geom_clamp(double x, double lo, double hi);\n' >"$T/src/geom.h"
  cat >"$T/src/geom.c" <<'EOF'
#include "geom.h"
#include <math.h>
double geom_dist(pt a, pt b) { return sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)); }
double geom_area(const pt *p, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += p[i].x * p[(i + 1) % n].y - p[(i + 1) % n].x * p[i].y;
  return s / 2;
}
double geom_clamp(double x, double lo, double hi) { return x < lo ? lo : x > hi ? lo : x; }
EOF
  printf '#include "geom.h"\n#include <stdio.h>\nint main(void) {\n  pt sq[] = {{0, 0}, {2, 0}, {2, 2}, {0, 2}};\n  double a = geom_area(sq, 4);\n  printf("area of 2x2 square = %%g\\n", a);\n  return a == 4 ? 0 : 1;\n}\n' >"$T/tests/test_area.c"
  printf '#include "geom.h"\n#include <stdio.h>\nint main(void) {\n  pt a = {0, 0}, b = {3, 4};\n  printf("dist = %%g\\n", geom_dist(a, b));\n  return geom_dist(a, b) == 5 ? 0 : 1;\n}\n' >"$T/tests/test_distance.c"
  printf '#include "geom.h"\n#include <assert.h>\n#include <stdio.h>\nint main(void) {\n  assert(geom_clamp(-1, 0, 10) == 0);\n  printf("clamp(5) = %%g\\n", geom_clamp(5, 0, 10));\n  printf("clamp(11) = %%g\\n", geom_clamp(11, 0, 10));\n  assert(geom_clamp(11, 0, 10) == 10);\n  return 0;\n}\n' >"$T/tests/test_clamp.c"
  printf '#include "geom.h"\n#include <stdio.h>\nint main(void) {\n  pt tri[] = {{0, 0}, {0, 3}, {4, 0}};\n  double a = geom_area(tri, 3);\n  if (a != 6) {\n    fprintf(stderr, "FAIL: clockwise triangle area: expected 6, got %%g\\n", a);\n    return 1;\n  }\n  return 0;\n}\n' >"$T/tests/test_polygon.c"
  printf '#include "geom.h"\n#include <stdio.h>\nint main(void) {\n  pt p[] = {{1, 1}, {4, 5}};\n  printf("bbox width %%g\\n", p[1].x - p[0].x);\n  return 0;\n}\n' >"$T/tests/test_bbox.c"
  capture batch3 ctest_failures "$T" \
    "cmake -S . -B build -DCMAKE_BUILD_TYPE=Debug && cmake --build build && ctest --test-dir build --output-on-failure" \
    "$(cmake --version | head -1)"

  # autoconf ./configure that stops on a missing library
  A="$B/tilemap"
  mkdir -p "$A/src"
  printf 'int main(void) { return 0; }\n' >"$A/src/tilemap.c"
  cat >"$A/configure.ac" <<'EOF'
AC_INIT([tilemap], [0.4.1], [dev@example.com])
AC_CONFIG_SRCDIR([src/tilemap.c])
AC_PROG_CC
AC_CHECK_HEADERS([stdint.h unistd.h fcntl.h sys/mman.h])
AC_CHECK_FUNCS([mmap strdup getline])
AC_CHECK_LIB([m], [cos])
AC_CHECK_LIB([z], [inflate], [], [AC_MSG_ERROR([zlib is required])])
AC_CHECK_LIB([sodium], [sodium_init], [],
  [AC_MSG_ERROR([libsodium not found: install libsodium-dev (Debian/Ubuntu) or libsodium-devel (Fedora), or configure --without-signing])])
AC_OUTPUT
EOF
  (cd "$A" && autoconf)
  capture batch3 configure_missing_lib "$A" "./configure --prefix=/usr/local" "$(autoconf --version | head -1)"

  # git: a cherry-pick that conflicts, a bisect run to the first bad commit, a diff --stat of a big change
  export GIT_AUTHOR_DATE="2026-03-02T10:00:00Z" GIT_COMMITTER_DATE="2026-03-02T10:00:00Z"
  Q="$B/gitrepo"
  mkdir -p "$Q/src" && cd "$Q" && git init -q -b main && git config user.email dev@example.com && git config user.name Dev
  printf 'import os\n\nPORT = int(os.environ.get("PORT", 8080))\nWORKERS = 2\n\n\ndef serve():\n    print("serving on", PORT)\n' >src/app.py
  printf 'flask==2.3.2\ngunicorn==21.2.0\n' >requirements.txt
  printf '# app\n' >CHANGELOG.md
  git add -A && git commit -qm "initial app"
  git checkout -qb release/1.2
  sed -i 's/WORKERS = 2/WORKERS = 4/' src/app.py && printf 'flask==2.3.3\ngunicorn==21.2.0\n' >requirements.txt && git commit -qam "release: more workers, flask 2.3.3"
  git checkout -q main
  sed -i 's/WORKERS = 2/WORKERS = int(os.environ.get("WORKERS", 2))/' src/app.py && printf 'flask==3.0.0\ngunicorn==21.2.0\nstructlog==23.2.0\n' >requirements.txt
  git commit -qam "workers from env, flask 3"
  git checkout -q release/1.2
  printf '# app\n\n## 1.2.1\n- fix: PORT parsing\n' >CHANGELOG.md
  sed -i 's/PORT = int(os.environ.get("PORT", 8080))/PORT = int(os.environ.get("PORT") or 8080)/' src/app.py
  git commit -qam "fix PORT parsing on empty env"
  git checkout -q main
  cd - >/dev/null
  capture batch3 git_cherry_pick_conflict "$Q" "git cherry-pick release/1.2~1" "$(git --version)"
  (cd "$Q" && git cherry-pick --abort)

  H="$B/bisect"
  mkdir -p "$H" && cd "$H" && git init -q -b main && git config user.email dev@example.com && git config user.name Dev
  printf '#!/bin/sh\ngrep -q "retries = 3" config.ini\n' >check.sh && chmod +x check.sh
  printf '[net]\nretries = 3\ntimeout = 10\n' >config.ini
  git add -A && git commit -qm "v1.0: config and check"
  for i in $(seq 1 36); do
    printf 'line %d\n' "$i" >>notes.txt
    if [ "$i" = 23 ]; then sed -i 's/retries = 3/retries = 0/' config.ini; fi
    git add -A && git commit -qm "notes: entry $i"
  done
  cd - >/dev/null
  capture batch3 git_bisect_run "$H" "git bisect start HEAD HEAD~36 && git bisect run ./check.sh" "$(git --version)"
  (cd "$H" && git bisect reset >/dev/null 2>&1)

  D="$B/bigchange"
  mkdir -p "$D" && cd "$D" && git init -q -b main && git config user.email dev@example.com && git config user.name Dev
  for m in auth billing catalog orders search users; do
    mkdir -p "src/$m" "tests/$m"
    for f in models views service serializers; do seq 1 40 | sed "s/^/# $m $f line /" >"src/$m/$f.py"; done
    seq 1 25 | sed "s/^/# test $m line /" >"tests/$m/test_$m.py"
  done
  git add -A && git commit -qm "baseline"
  git checkout -qb refactor/services
  for m in auth billing catalog orders search users; do
    sed -i '5,12d; 20s/line/LINE/' "src/$m/service.py"
    seq 1 18 | sed "s/^/# new $m helper /" >>"src/$m/service.py"
    sed -i '3s/line/Line/' "src/$m/models.py" "src/$m/views.py"
    seq 1 30 | sed "s/^/# $m repository /" >"src/$m/repository.py"
    seq 1 12 | sed "s/^/# more tests $m /" >>"tests/$m/test_$m.py"
  done
  git mv src/search/serializers.py src/search/schema.py
  git rm -q src/users/serializers.py
  git add -A && git commit -qm "refactor: services and repositories"
  cd - >/dev/null
  capture batch3 git_diff_stat "$D" "git diff --stat main...refactor/services" "$(git --version)"
  unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE

  # rsync -av of a site tree into an empty backup directory
  Z="$B/site"
  mkdir -p "$Z/public/css" "$Z/public/js" "$Z/public/img" "$Z/content/posts" "$Z/content/pages"
  for i in $(seq 1 60); do printf 'post %d\n' "$i" >"$Z/content/posts/2026-$(printf %02d $((i % 12 + 1)))-post-$i.md"; done
  for p in about contact privacy terms faq; do printf '%s\n' "$p" >"$Z/content/pages/$p.md"; done
  for i in $(seq 1 25); do head -c $((i * 700)) /dev/zero >"$Z/public/img/photo-$i.jpg"; done
  printf 'body{}\n' >"$Z/public/css/site.css"; printf 'x\n' >"$Z/public/js/app.js"
  capture batch3 rsync_verbose "$B" "rsync -av site/ site-backup/" "$(rsync --version | head -1)"
fi

# --- batch4: a fourth blind batch (tools and situations the set lacked), captured and its signals
# written before any filter ran on it and before any rule file, filter source or filter test was
# opened. npm tools come from a scratch install outside the repo; Debian tools from apt-get. It ran
# with TERM=xterm, as an agent's shell has it.
if sel batch4; then
  B="$WORK/batch4"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  NPM4="${ZEPH_HELDOUT_NPM4:-/tmp/zeph-heldout-npm4}"
  if [ ! -x "$NPM4/node_modules/.bin/jest" ]; then
    mkdir -p "$NPM4" && (cd "$NPM4" && npm init -y >/dev/null &&
      npm install jest@29 mocha prettier stylelint stylelint-config-standard markdownlint-cli @biomejs/biome pyright tsx typescript >/dev/null 2>&1)
  fi
  command -v luacheck >/dev/null || apt-get install -y lua5.4 lua-check libxml2-utils >/dev/null 2>&1

  # jest: a snapshot that no longer matches, a toEqual of objects and a thrown error; then the
  # same project passing through `npm test` with a coverage table
  J="$B/cart"
  mkdir -p "$J/src" "$J/__tests__/__snapshots__"
  ln -s "$NPM4/node_modules" "$J/node_modules"
  printf '{\n  "name": "cart",\n  "version": "1.4.0",\n  "private": true,\n  "scripts": { "test": "jest --coverage" }\n}\n' >"$J/package.json"
  cat >"$J/src/cart.js" <<'EOF'
function lineTotal(item) {
  return item.price * item.qty;
}

function summarize(items, { taxRate = 0.2, currency = "EUR" } = {}) {
  const subtotal = items.reduce((s, i) => s + lineTotal(i), 0);
  const tax = Math.round(subtotal * taxRate);
  return { currency, items: items.length, subtotal, tax, total: subtotal + tax };
}

function renderReceipt(items) {
  const lines = items.map((i) => `${i.sku.padEnd(10)} ${String(i.qty).padStart(3)} x ${i.price}`);
  const s = summarize(items);
  return [...lines, "-".repeat(24), `TOTAL ${s.total} ${s.currency}`].join("\n");
}

function applyVoucher(total, code) {
  const vouchers = { WELCOME10: 0.1, SPRING: 0.15 };
  if (!(code in vouchers)) throw new Error(`unknown voucher: ${code}`);
  return Math.round(total * (1 - vouchers[code]));
}

module.exports = { lineTotal, summarize, renderReceipt, applyVoucher };
EOF
  cat >"$J/__tests__/cart.test.js" <<'EOF'
const { lineTotal, summarize, renderReceipt, applyVoucher } = require("../src/cart");

const items = [
  { sku: "TEA-GREEN", qty: 2, price: 450 },
  { sku: "MUG-BLUE", qty: 1, price: 1200 },
  { sku: "SPOON", qty: 4, price: 150 },
];

describe("lineTotal", () => {
  test("multiplies price by quantity", () => {
    expect(lineTotal(items[0])).toBe(900);
  });
});

describe("summarize", () => {
  test("adds tax", () => {
    expect(summarize(items)).toEqual({ currency: "EUR", items: 3, subtotal: 2700, tax: 540, total: 3240 });
  });
  test("uses the given tax rate", () => {
    expect(summarize(items, { taxRate: 0.07 })).toEqual({
      currency: "EUR",
      items: 3,
      subtotal: 2700,
      tax: 189,
      total: 2889,
      discount: 0,
    });
  });
});

describe("renderReceipt", () => {
  test("matches the stored receipt", () => {
    expect(renderReceipt(items)).toMatchSnapshot();
  });
});

describe("applyVoucher", () => {
  test("takes 10% off", () => {
    expect(applyVoucher(3240, "WELCOME10")).toBe(2916);
  });
  test("accepts lower-case codes", () => {
    expect(applyVoucher(3240, "spring")).toBe(2754);
  });
});
EOF
  cat >"$J/__tests__/__snapshots__/cart.test.js.snap" <<'EOF'
// Jest Snapshot v1, https://goo.gl/fbAQLP

exports[`renderReceipt matches the stored receipt 1`] = `
"TEA-GREEN    2 x 450
MUG-BLUE     1 x 1200
SPOON        4 x 150
------------------------
TOTAL 32.40 EUR"
`;
EOF
  capture batch4 jest_snapshot_failures "$J" "npx jest --ci" "jest $("$NPM4/node_modules/.bin/jest" --version)"
  # fix the tests so the project passes, then run it with coverage through npm test
  python3 - "$J/__tests__/cart.test.js" <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read().replace("      discount: 0,\n", "").replace('"spring")).toBe(2754)', '"SPRING")).toBe(2754)')
open(p, "w").write(s)
EOF
  rm -f "$J/__tests__/__snapshots__/cart.test.js.snap"
  for m in stock shipping; do
    cat >"$J/src/$m.js" <<EOF
function ${m}Check(n) {
  if (n < 0) throw new Error("negative");
  if (n === 0) return "none";
  if (n < 10) return "low";
  return "ok";
}
module.exports = { ${m}Check };
EOF
    printf 'const { %sCheck } = require("../src/%s");\ntest("%s low", () => { expect(%sCheck(3)).toBe("low"); });\n' "$m" "$m" "$m" "$m" >"$J/__tests__/$m.test.js"
  done
  capture batch4 jest_coverage_pass "$J" "npm test" "jest $("$NPM4/node_modules/.bin/jest" --version)"

  # mocha with the spec reporter: nested suites, three failures (deep equal, a thrown error, a timeout)
  M="$B/slugger"
  mkdir -p "$M/lib" "$M/test"
  ln -s "$NPM4/node_modules" "$M/node_modules"
  printf '{ "name": "slugger", "version": "0.9.1", "private": true }\n' >"$M/package.json"
  cat >"$M/lib/slug.js" <<'EOF'
function slugify(s) {
  return s.toLowerCase().trim().replace(/[^a-z0-9]+/g, "-");
}
function parseTags(s) {
  return s.split(",").map((t) => t.trim());
}
function fetchTitle(url) {
  return new Promise((resolve) => {
    if (url.startsWith("https://")) setTimeout(() => resolve("ok"), 10);
  });
}
function parseDate(s) {
  const d = new Date(s);
  if (isNaN(d)) throw new RangeError(`invalid date: ${s}`);
  return d.toISOString().slice(0, 10);
}
module.exports = { slugify, parseTags, fetchTitle, parseDate };
EOF
  cat >"$M/test/slug.test.js" <<'EOF'
const assert = require("node:assert/strict");
const { slugify, parseTags, fetchTitle, parseDate } = require("../lib/slug");

describe("slug", function () {
  describe("slugify()", function () {
    it("lower-cases words", function () { assert.equal(slugify("Hello World"), "hello-world"); });
    it("drops leading and trailing dashes", function () { assert.equal(slugify("  ¡Hola, mundo!  "), "hola-mundo"); });
    it("keeps digits", function () { assert.equal(slugify("Top 10 Tips"), "top-10-tips"); });
  });
  describe("parseTags()", function () {
    it("splits on commas", function () { assert.deepEqual(parseTags("a, b,c"), ["a", "b", "c"]); });
    it("ignores empty tags", function () { assert.deepEqual(parseTags("news,, tech ,"), ["news", "tech"]); });
  });
  describe("fetchTitle()", function () {
    this.timeout(300);
    it("resolves for https", async function () { assert.equal(await fetchTitle("https://x.test"), "ok"); });
    it("rejects plain http", async function () { await assert.rejects(fetchTitle("http://x.test")); });
  });
  describe("parseDate()", function () {
    it("formats ISO dates", function () { assert.equal(parseDate("2026-03-01T10:00:00Z"), "2026-03-01"); });
    it("accepts day-first dates", function () { assert.equal(parseDate("31/12/2026"), "2026-12-31"); });
  });
});
EOF
  capture batch4 mocha_failures "$M" "npx mocha" "mocha $("$NPM4/node_modules/.bin/mocha" --version)"
  # the same suite once fixed, with more cases: a verbose passing run
  sed -i 's/.replace(\/\[^a-z0-9\]+\/g, "-");/.replace(\/[^a-z0-9]+\/g, "-").replace(\/^-|-$\/g, "");/; s/map((t) => t.trim());/map((t) => t.trim()).filter(Boolean);/' "$M/lib/slug.js"
  sed -i '/rejects plain http/d; /accepts day-first dates/d' "$M/test/slug.test.js"
  for t in html markdown csv; do
    cat >"$M/test/$t.test.js" <<EOF
const assert = require("node:assert/strict");
const { slugify, parseTags } = require("../lib/slug");
describe("$t input", function () {
  for (let i = 1; i <= 6; i++) {
    it(\`handles sample \${i}\`, function () { assert.equal(slugify("$t Sample " + i), "$t-sample-" + i); });
  }
  it("parses tag lists", function () { assert.deepEqual(parseTags("$t, x"), ["$t", "x"]); });
});
EOF
  done
  capture batch4 mocha_pass "$M" "npx mocha" "mocha $("$NPM4/node_modules/.bin/mocha" --version)"

  # prettier --check over a small web app with several unformatted files
  P="$B/webapp"
  mkdir -p "$P/src/components" "$P/src/styles" "$P/docs"
  ln -s "$NPM4/node_modules" "$P/node_modules"
  printf '{ "name": "webapp", "version": "2.0.0", "private": true }\n' >"$P/package.json"
  for c in Header Footer Sidebar Card Modal Button Avatar Badge Table Tabs; do
    printf 'export function %s(props) {\n  return props.children;\n}\n' "$c" >"$P/src/components/$c.js"
  done
  printf 'export function Modal (props){ return props.open?props.children:null }\n' >"$P/src/components/Modal.js"
  printf "const cols = [ 'id','name' , 'email' ]\nexport function Table({rows}){\n    return rows.map(r=>cols.map(c=>r[c]))\n}\n" >"$P/src/components/Table.js"
  printf '.card{color:red;margin:0 auto}\n' >"$P/src/styles/card.css"
  printf '# Docs\n\n* one\n* two\n' >"$P/docs/README.md"
  printf '{"compilerOptions":{"strict":true,\n"target":"es2022"}}\n' >"$P/tsconfig.json"
  printf '.base {\n  padding: 0;\n}\n' >"$P/src/styles/base.css"
  capture batch4 prettier_check "$P" "npx prettier --check ." "prettier $("$NPM4/node_modules/.bin/prettier" --version 2>/dev/null || echo '?')"

  # stylelint (standard config) and markdownlint-cli findings over a small site
  S="$B/site"
  mkdir -p "$S/styles" "$S/docs"
  ln -s "$NPM4/node_modules" "$S/node_modules"
  printf '{ "extends": "stylelint-config-standard" }\n' >"$S/.stylelintrc.json"
  cat >"$S/styles/main.css" <<'EOF'
@import url("base.css");
:root {
  --Brand-Color: #FFF;
}
.Header {
  color: #FFFFFF;
  margin: 0px;
  font-family: Helvetica, Arial;
}
.header .title {
  color: red;
  color: blue;
}
a { colr: red; }

.nav-item:hover{
  background: rgba(0,0,0,0.5);
}
EOF
  cat >"$S/styles/base.css" <<'EOF'
body {
  margin: 0;
  font-size: 16PX;
}
h1 {}
.btn {
  transition: all .3s;
}
EOF
  capture batch4 stylelint_findings "$S" "npx stylelint 'styles/**/*.css'" "stylelint $("$NPM4/node_modules/.bin/stylelint" --version)"
  cat >"$S/docs/guide.md" <<'EOF'
# Guide
## Install
Run the installer:
```
./install.sh --prefix /opt/site
```
### Configure
* first item
+ second item
- third item

Visit http://example.test/docs for more.   
#Troubleshooting
Some text that goes on for a long while without any break so that it runs past the usual eighty column limit of the linter.
## Install
EOF
  printf '# Changelog\n\n## 1.0.0\n\n- first release\n\n\n## 0.9.0\n- beta\n' >"$S/docs/CHANGELOG.md"
  capture batch4 markdownlint_findings "$S" "npx markdownlint docs" "markdownlint-cli $("$NPM4/node_modules/.bin/markdownlint" --version)"

  # tsc --pretty (colour, code frames) in a single project with type errors in three files
  T="$B/inventory"
  mkdir -p "$T/src"
  cat >"$T/tsconfig.json" <<'EOF'
{
  "compilerOptions": { "target": "ES2022", "module": "NodeNext", "strict": true, "outDir": "dist", "noEmit": true },
  "include": ["src"]
}
EOF
  cat >"$T/src/types.ts" <<'EOF'
export interface Item {
  sku: string;
  name: string;
  qty: number;
  location?: { aisle: number; shelf: string };
}
export type Movement = { sku: string; delta: number; reason: "sale" | "restock" | "loss" };
EOF
  cat >"$T/src/stock.ts" <<'EOF'
import type { Item, Movement } from "./types.js";

export function apply(items: Item[], m: Movement): Item[] {
  return items.map((i) => (i.sku === m.sku ? { ...i, qty: i.qty + m.delta } : i));
}

export function aisleOf(item: Item): number {
  return item.location.aisle;
}

export function restock(items: Item[], sku: string, qty: string): Item[] {
  return apply(items, { sku, delta: qty, reason: "restock" });
}
EOF
  cat >"$T/src/report.ts" <<'EOF'
import type { Item } from "./types.js";
import { aisleOf } from "./stock.js";

export function lowStock(items: Item[], limit = 5): string[] {
  return items.filter((i) => i.qty < limit).map((i) => i.nam);
}

export function byAisle(items: Item[]): Map<number, Item[]> {
  const out = new Map<number, Item[]>();
  for (const i of items) {
    const a = aisleOf(i);
    out.set(a, [...(out.get(a) ?? []), i.sku]);
  }
  return out;
}
EOF
  cat >"$T/src/main.ts" <<'EOF'
import { apply } from "./stock.js";
import { lowStock } from "./report.js";

const items = [{ sku: "A1", name: "bolt", qty: 3 }];
const next = apply(items, { sku: "A1", delta: -1, reason: "theft" });
console.log(lowStock(next, "5"));
EOF
  ln -s "$NPM4/node_modules" "$T/node_modules"
  capture batch4 tsc_pretty_errors "$T" "npx tsc -b --pretty" "tsc $("$NPM4/node_modules/.bin/tsc" --version)"

  # tsx running a TypeScript CLI that crashes on bad input (source-mapped stack through node_modules-free code)
  X="$B/csvtool"
  mkdir -p "$X/src"
  ln -s "$NPM4/node_modules" "$X/node_modules"
  printf '{ "name": "csvtool", "version": "0.2.0", "private": true, "type": "module" }\n' >"$X/package.json"
  cat >"$X/src/parse.ts" <<'EOF'
export interface Row { id: number; email: string; plan: string }

export function parseLine(line: string, n: number): Row {
  const [id, email, plan] = line.split(",");
  if (!email.includes("@")) throw new Error(`line ${n}: bad email ${JSON.stringify(email)}`);
  return { id: Number(id), email, plan: plan.trim() };
}
EOF
  cat >"$X/src/cli.ts" <<'EOF'
import { readFileSync } from "node:fs";
import { parseLine } from "./parse.ts";

function main(path: string) {
  const rows = readFileSync(path, "utf8").trim().split("\n").slice(1).map((l, i) => parseLine(l, i + 2));
  const plans = new Map<string, number>();
  for (const r of rows) plans.set(r.plan, (plans.get(r.plan) ?? 0) + 1);
  console.log(Object.fromEntries(plans));
}

main(process.argv[2]);
EOF
  printf 'id,email,plan\n1,ada@example.test,pro\n2,bob@example.test,free\n3,carol.example.test\n4,dan@example.test,pro\n' >"$X/users.csv"
  capture batch4 tsx_crash "$X" "npx tsx src/cli.ts users.csv" "tsx $("$NPM4/node_modules/.bin/tsx" --version | head -1)"

  # pyright (npm) and mypy (non-strict) over the same small Python package
  Y="$B/pyinv"
  mkdir -p "$Y/inv"
  ln -s "$NPM4/node_modules" "$Y/node_modules"
  : >"$Y/inv/__init__.py"
  cat >"$Y/inv/models.py" <<'EOF'
from dataclasses import dataclass, field
from typing import Optional


@dataclass
class Item:
    sku: str
    qty: int
    tags: list[str] = field(default_factory=list)
    price: Optional[float] = None


def value(item: Item) -> float:
    return item.qty * item.price


def find(items: list[Item], sku: str) -> Item:
    for i in items:
        if i.sku == sku:
            return i
EOF
  cat >"$Y/inv/service.py" <<'EOF'
from inv.models import Item, value, find


def total(items: list[Item]) -> int:
    return sum(value(i) for i in items)


def restock(items: list[Item], sku: str, qty: str) -> None:
    item = find(items, sku)
    item.qty += qty


def label(item: Item) -> str:
    return item.sku + ": " + item.qty


def tagged(items: list[Item], tag: str) -> list[str]:
    return [i for i in items if tag in i.tags]


def report(items):
    lines = [label(i) for i in items]
    return "\n".join(lines).uppercase()
EOF
  cat >"$Y/inv/cli.py" <<'EOF'
import sys
from inv.service import total, restock
from inv.models import Item

items = [Item("A1", 3, price=2.5), Item("B2", "7")]
restock(items, "A1", 4)
print(total(items, currency="EUR"))
print(sys.argv[1].lower)
EOF
  capture batch4 pyright_findings "$Y" "npx pyright inv" "pyright $("$NPM4/node_modules/.bin/pyright" --version 2>/dev/null | head -1)"
  capture batch4 mypy_findings "$Y" "mypy inv" "$(mypy --version)"

  # pytest -vv with a long dict-diff assertion and a nested-list one
  Q="$B/config_merge"
  mkdir -p "$Q/tests"
  cat >"$Q/merge.py" <<'EOF'
def deep_merge(a, b):
    out = dict(a)
    for k, v in b.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def normalize(cfg):
    cfg = dict(cfg)
    cfg["hosts"] = sorted(cfg.get("hosts", []))
    cfg["port"] = int(cfg.get("port", 80))
    return cfg
EOF
  cat >"$Q/tests/test_merge.py" <<'EOF'
import sys
sys.path.insert(0, ".")
from merge import deep_merge, normalize

BASE = {
    "name": "api",
    "port": 8080,
    "hosts": ["a.internal", "b.internal"],
    "db": {"host": "db.internal", "port": 5432, "pool": {"min": 2, "max": 10}, "ssl": True},
    "cache": {"ttl": 300, "backend": "redis", "prefix": "api:"},
    "features": {"search": True, "export": False, "beta": ["x", "y"]},
    "logging": {"level": "info", "format": "json", "sinks": ["stdout"]},
}


def test_override_nested():
    merged = deep_merge(BASE, {"db": {"pool": {"max": 20}}, "cache": {"ttl": 60}, "logging": {"sinks": ["file"]}})
    assert merged == {
        "name": "api",
        "port": 8080,
        "hosts": ["a.internal", "b.internal"],
        "db": {"host": "db.internal", "port": 5432, "pool": {"min": 2, "max": 20}, "ssl": True},
        "cache": {"ttl": 60, "backend": "redis", "prefix": "api:"},
        "features": {"search": True, "export": False, "beta": ["x", "y"]},
        "logging": {"level": "info", "format": "json", "sinks": ["stdout", "file"]},
    }


def test_merge_keeps_base():
    deep_merge(BASE, {"port": 9090})
    assert BASE["port"] == 8080


def test_normalize_sorts_hosts():
    cfg = normalize({"hosts": ["c", "a", "b"], "port": "8443"})
    assert cfg == {"hosts": ["a", "b", "c"], "port": 8443, "name": "default"}


def test_normalize_defaults():
    assert normalize({})["port"] == 80
EOF
  capture batch4 pytest_dict_diff "$Q" "python3 -m pytest -vv tests" "$(python3 -m pytest --version 2>&1 | head -1)"

  # python -m doctest -v of a module whose examples partly fail
  cat >"$Q/units.py" <<'EOF'
def to_bytes(s):
    """Parse a size with a unit.

    >>> to_bytes("512")
    512
    >>> to_bytes("2K")
    2048
    >>> to_bytes("1.5M")
    1572864
    >>> to_bytes("3G")
    3221225472
    >>> to_bytes("10X")
    Traceback (most recent call last):
        ...
    ValueError: unknown unit: X
    """
    units = {"K": 1024, "M": 1024 ** 2, "G": 1000 ** 3}
    if s[-1].isdigit():
        return int(s)
    return int(float(s[:-1]) * units[s[-1]])


def human(n):
    """Format a byte count.

    >>> human(2048)
    '2.0 KiB'
    >>> human(5)
    '5 B'
    """
    for unit in ["B", "KiB", "MiB", "GiB"]:
        if n < 1024:
            return f"{n:.1f} {unit}"
        n /= 1024
EOF
  capture batch4 python_doctest "$Q" "python3 -m doctest -v units.py" "$(python3 --version)"

  # biome check (lint + format) over a small TypeScript project
  BI="$B/widgets"
  mkdir -p "$BI/src"
  ln -s "$NPM4/node_modules" "$BI/node_modules"
  printf '{ "name": "widgets", "version": "0.1.0", "private": true }\n' >"$BI/package.json"
  cat >"$BI/src/store.ts" <<'EOF'
import { readFileSync } from "node:fs";
import path from "node:path";

export let cache: any = {};

export function get(key: string) {
  if (cache[key] == undefined) {
    return null
  }
  return cache[key];
}

export function load(file: string) {
  var text = readFileSync(file, "utf8");
  const data = JSON.parse(text);
  for (const k in data) {
    cache[k] = data[k];
  }
  debugger;
  return Object.keys(data).length;
}
EOF
  cat >"$BI/src/format.ts" <<'EOF'
export function pad(s: string, n: number): string {
    return s + " ".repeat(Math.max(0, n - s.length))
}
export const isEmpty = (xs: Array<unknown>) => xs.length == 0;
export function label(count: number) { return count + " item" + (count != 1 ? "s" : "") }
EOF
  capture batch4 biome_check "$BI" "npx biome check src" "biome $("$NPM4/node_modules/.bin/biome" --version)"

  # perl prove: a failing TAP suite, then the fixed suite passing with -v
  L="$B/perl_textutil"
  mkdir -p "$L/lib/Text" "$L/t"
  cat >"$L/lib/Text/Util.pm" <<'EOF'
package Text::Util;
use strict; use warnings;
use Exporter 'import';
our @EXPORT_OK = qw(trim wrap_words title_case count_words);
sub trim { my $s = shift; $s =~ s/^\s+|\s+$//g; return $s }
sub title_case { my $s = shift; $s =~ s/(\w+)/\u$1/g; return $s }
sub count_words { my $s = shift; my @w = split /\s+/, $s; return scalar @w }
sub wrap_words {
  my ($s, $width) = @_;
  my @out; my $line = "";
  for my $w (split / /, $s) {
    if (length($line) + length($w) > $width) { push @out, $line; $line = $w }
    else { $line = $line ? "$line $w" : $w }
  }
  push @out, $line;
  return @out;
}
1;
EOF
  cat >"$L/t/01-trim.t" <<'EOF'
use strict; use warnings;
use Test::More tests => 4;
use lib 'lib';
use Text::Util qw(trim);
is(trim("  a  "), "a", "both sides");
is(trim("a"), "a", "nothing to trim");
is(trim("\ta b\n"), "a b", "tabs and newlines");
is(trim(""), "", "empty string");
EOF
  cat >"$L/t/02-words.t" <<'EOF'
use strict; use warnings;
use Test::More;
use lib 'lib';
use Text::Util qw(title_case count_words wrap_words);
is(title_case("hello world"), "Hello World", "title case");
is(title_case("o'neil and mcdonald"), "O'Neil And McDonald", "names");
is(count_words("one two  three"), 3, "double spaces");
is(count_words("  leading space"), 2, "leading space");
is_deeply([wrap_words("the quick brown fox jumps", 10)], ["the quick", "brown fox", "jumps"], "wrap at 10");
is_deeply([wrap_words("a b", 0)], ["a", "b"], "width zero");
done_testing();
EOF
  cat >"$L/t/03-load.t" <<'EOF'
use strict; use warnings;
use Test::More tests => 3;
use lib 'lib';
use_ok('Text::Util');
can_ok('Text::Util', qw(trim wrap_words));
require_ok('Text::Missing');
EOF
  capture batch4 prove_failures "$L" "prove -l t/" "$(prove --version)"
  rm "$L/t/03-load.t"
  sed -i '/names/d; /leading space/d; /width zero/d' "$L/t/02-words.t"
  for i in 4 5 6 7; do
    printf 'use strict; use warnings;\nuse Test::More;\nuse lib q(lib);\nuse Text::Util qw(trim count_words);\n' >"$L/t/0$i-extra.t"
    for j in $(seq 1 6); do printf 'is(count_words("w " x %d), %d, "count %d words (suite %d)");\n' "$j" "$j" "$j" "$i" >>"$L/t/0$i-extra.t"; done
    printf 'done_testing();\n' >>"$L/t/0$i-extra.t"
  done
  capture batch4 prove_verbose_pass "$L" "prove -lv t/" "$(prove --version)"

  # bats: a shell tool's test suite with two failures
  K="$B/backup_sh"
  mkdir -p "$K/bin" "$K/test"
  cat >"$K/bin/backup.sh" <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
usage() { echo "usage: backup.sh SRC DEST [--keep N]" >&2; exit 2; }
[ $# -ge 2 ] || usage
src="$1"; dest="$2"; keep=5
[ "${3:-}" = "--keep" ] && keep="$4"
[ -d "$src" ] || { echo "backup.sh: source not found: $src" >&2; exit 1; }
mkdir -p "$dest"
name="backup-$(date +%Y%m%d).tar.gz"
tar -czf "$dest/$name" -C "$src" .
echo "wrote $dest/$name"
ls -1t "$dest"/backup-*.tar.gz | tail -n +$((keep + 1)) | xargs -r rm --
EOF
  chmod +x "$K/bin/backup.sh"
  cat >"$K/test/backup.bats" <<'EOF'
setup() {
  TMP="$(mktemp -d)"
  mkdir -p "$TMP/src" && echo hi >"$TMP/src/a.txt"
}
teardown() { rm -rf "$TMP"; }

@test "prints usage without arguments" {
  run bin/backup.sh
  [ "$status" -eq 2 ]
  [[ "$output" == usage:* ]]
}

@test "fails on a missing source" {
  run bin/backup.sh "$TMP/nope" "$TMP/out"
  [ "$status" -eq 1 ]
  [ "$output" = "backup.sh: source not found: $TMP/nope" ]
}

@test "writes an archive" {
  run bin/backup.sh "$TMP/src" "$TMP/out"
  [ "$status" -eq 0 ]
  [ -f "$TMP/out/backup-$(date +%Y%m%d).tar.gz" ]
}

@test "keeps only N archives" {
  mkdir -p "$TMP/out"
  for d in 01 02 03 04; do touch "$TMP/out/backup-202601$d.tar.gz"; done
  run bin/backup.sh "$TMP/src" "$TMP/out" --keep 2
  [ "$status" -eq 0 ]
  [ "$(ls "$TMP/out" | wc -l)" -eq 2 ]
}

@test "rejects a non-numeric keep" {
  run bin/backup.sh "$TMP/src" "$TMP/out" --keep many
  [ "$status" -eq 2 ]
}

@test "prints the archive path" {
  run bin/backup.sh "$TMP/src" "$TMP/out"
  [ "$output" = "wrote $TMP/out/backup.tar.gz" ]
}
EOF
  capture batch4 bats_failures "$K" "bats test" "$(bats --version)"

  # rspec (documentation format) with failures, and rubocop offenses on the same code
  R="$B/ledger_rb"
  mkdir -p "$R/lib" "$R/spec"
  cat >"$R/lib/ledger.rb" <<'EOF'
class Ledger
  attr_reader :entries
  def initialize
    @entries = []
  end
  def add(date, amount, memo = nil)
    raise ArgumentError, "amount must be numeric" unless amount.is_a? Numeric
    @entries << {date: date, amount: amount, memo: memo}
    self
  end
  def balance
    @entries.map { |e| e[:amount] }.sum
  end
  def by_month
    @entries.group_by { |e| e[:date][0,7] }.transform_values { |es| es.sum { |e| e[:amount] } }
  end
  def largest(n=1)
    @entries.sort_by { |e| e[:amount] }.first(n)
  end
  def to_csv
    @entries.map { |e| [e[:date], e[:amount], e[:memo]].join(',') }.join("\n")
  end
end
EOF
  cat >"$R/spec/ledger_spec.rb" <<'EOF'
require_relative '../lib/ledger'

RSpec.describe Ledger do
  subject(:ledger) do
    Ledger.new.add('2026-01-03', 120).add('2026-01-19', -40, 'fuel').add('2026-02-02', 300, 'invoice 7')
  end

  describe '#balance' do
    it 'sums all entries' do
      expect(ledger.balance).to eq(380)
    end
  end

  describe '#add' do
    it 'rejects strings' do
      expect { ledger.add('2026-03-01', '12') }.to raise_error(ArgumentError, /numeric/)
    end
    it 'accepts BigDecimal' do
      require 'bigdecimal'
      expect { ledger.add('2026-03-01', BigDecimal('1.5')) }.not_to raise_error
    end
  end

  describe '#by_month' do
    it 'groups by month' do
      expect(ledger.by_month).to eq('2026-01' => 80, '2026-02' => 300, '2026-03' => 0)
    end
  end

  describe '#largest' do
    it 'returns the biggest entry first' do
      expect(ledger.largest.first[:amount]).to eq(300)
    end
  end

  describe '#to_csv' do
    it 'quotes memos with commas' do
      ledger.add('2026-02-10', 5, 'coffee, cake')
      expect(ledger.to_csv.lines.last).to eq('2026-02-10,5,"coffee, cake"')
    end
    it 'leaves empty memos blank' do
      expect(ledger.to_csv.lines.first).to eq("2026-01-03,120,\n")
    end
  end
end
EOF
  capture batch4 rspec_failures "$R" "rspec --format documentation" "$(rspec --version | head -1)"
  capture batch4 rubocop_offenses "$R" "rubocop lib spec" "rubocop $(rubocop --version)"
  # the spec once the code is fixed: a passing documentation-format run
  sed -i "s/.sort_by { |e| e\[:amount\] }.first(n)/.sort_by { |e| -e[:amount] }.first(n)/" "$R/lib/ledger.rb"
  sed -i "s/, '2026-03' => 0)/)/; s/'2026-02-10,5,\"coffee, cake\"'/'2026-02-10,5,coffee, cake'/" "$R/spec/ledger_spec.rb"
  capture batch4 rspec_pass "$R" "rspec --format documentation" "$(rspec --version | head -1)"

  # luacheck over a small Lua module with unused and global variables
  LU="$B/lua_game"
  mkdir -p "$LU/src"
  cat >"$LU/src/player.lua" <<'EOF'
local Player = {}
Player.__index = Player

function Player.new(name, hp)
  local self = setmetatable({}, Player)
  self.name = name
  self.hp = hp or 100
  score = 0
  return self
end

function Player:hit(dmg, source)
  local old = self.hp
  self.hp = math.max(0, self.hp - dmg)
  if self.hp == 0 then
    print(self.name .. " died")
  end
end

function Player:heal(n)
  local n = n or 10
  self.hp = math.min(100, self.hp + n)
  return self.hp
end

return Player
EOF
  cat >"$LU/src/main.lua" <<'EOF'
local Player = require("src.player")
local json = require("json")

local p = Player.new("ada")
p:hit(30)
p:heal()
print(p.hp, scroe)
for i, v in ipairs({1, 2, 3}) do
  total = (total or 0) + v
end
EOF
  capture batch4 luacheck_findings "$LU" "luacheck src" "$(luacheck --version | head -1)"

  # go test -race: a counter shared by goroutines without a lock
  G="$B/gorace"
  mkdir -p "$G/counter"
  printf 'module example.test/gorace\n\ngo 1.19\n' >"$G/go.mod"
  cat >"$G/counter/counter.go" <<'EOF'
package counter

import "sync"

type Counter struct {
	mu    sync.Mutex
	hits  map[string]int
	total int
}

func New() *Counter { return &Counter{hits: map[string]int{}} }

func (c *Counter) Hit(path string) {
	c.total++
	c.mu.Lock()
	c.hits[path]++
	c.mu.Unlock()
}

func (c *Counter) Total() int { return c.total }
EOF
  cat >"$G/counter/counter_test.go" <<'EOF'
package counter

import (
	"sync"
	"testing"
)

func TestHitSerial(t *testing.T) {
	c := New()
	c.Hit("/a")
	c.Hit("/a")
	if c.hits["/a"] != 2 {
		t.Fatalf("hits = %d, want 2", c.hits["/a"])
	}
}

func TestHitConcurrent(t *testing.T) {
	c := New()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				c.Hit("/b")
			}
		}()
	}
	wg.Wait()
	if c.Total() != 800 {
		t.Errorf("total = %d, want 800", c.Total())
	}
}
EOF
  capture batch4 go_test_race "$G" "go test -race ./..." "$(go version)"

  # gcc -Wall -Wextra over a bigger C file: many warnings, the build still succeeds
  C="$B/cstats"
  mkdir -p "$C/src"
  cat >"$C/src/stats.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sample { const char *name; double value; int weight; };

static int compare(const void *a, const void *b) {
  const struct sample *x = a, *y = b;
  return x->value - y->value;
}

double mean(struct sample *s, int n) {
  double sum = 0; int i;
  for (i = 0; i < n; i++) sum += s[i].value;
  return sum / n;
}

double weighted(struct sample *s, unsigned n) {
  double sum = 0; int w = 0;
  for (int i = 0; i < n; i++) { sum += s[i].value * s[i].weight; w += s[i].weight; }
  return sum / w;
}

int median_index(int n, int flags) {
  return n / 2;
}

void print_report(struct sample *s, int n, FILE *out) {
  char buf[16];
  for (int i = 0; i < n; i++) {
    sprintf(buf, "%s=%f", s[i].name, s[i].value);
    fprintf(out, "%s %d\n", buf);
  }
}

int classify(double v) {
  int level;
  if (v > 10) level = 2;
  else if (v > 1) level = 1;
  return level;
}

const char *label(int level) {
  switch (level) {
  case 0: return "low";
  case 1: return "mid";
  case 2: return "high";
  }
}

int main(int argc, char **argv) {
  struct sample s[] = {{"a", 1.5, 2}, {"b", 12.0, 1}, {"c", 0.3}};
  int n = sizeof s / sizeof s[0];
  int unused_total;
  qsort(s, n, sizeof s[0], compare);
  if (n = 0) return 1;
  printf("mean %f weighted %f\n", mean(s, n), weighted(s, n));
  printf("median %s\n", s[median_index(n, 0)].name);
  for (int i = 0; i < n; i++) printf("%s %s\n", s[i].name, label(classify(s[i].value)));
  print_report(s, n, stdout);
  return 0;
}
EOF
  capture batch4 gcc_wall_warnings "$C" "gcc -Wall -Wextra -O2 -o stats src/stats.c" "$(gcc --version | head -1)"

  # make recursing into subdirectories, one of which fails to compile; then a program that segfaults under make run
  MK="$B/mkproj"
  mkdir -p "$MK/lib" "$MK/app" "$MK/tools"
  cat >"$MK/Makefile" <<'EOF'
SUBDIRS = lib tools app
.PHONY: all $(SUBDIRS) run
all: $(SUBDIRS)
$(SUBDIRS):
	$(MAKE) -C $@
app: lib
run: all
	./app/app
EOF
  cat >"$MK/lib/Makefile" <<'EOF'
CFLAGS = -Wall -O2
libutil.a: strbuf.o list.o
	ar rcs $@ $^
EOF
  printf '#include <stdlib.h>\nchar *strbuf_new(void) { return calloc(64, 1); }\n' >"$MK/lib/strbuf.c"
  printf '#include <stdlib.h>\nstruct node { int v; struct node *next; };\nint list_len(struct node *n) { int k = 0; while (n) { k++; n = n->next; } return k; }\n' >"$MK/lib/list.c"
  cat >"$MK/tools/Makefile" <<'EOF'
CFLAGS = -Wall -O2
gen: gen.o
	$(CC) -o $@ $^
EOF
  printf '#include <stdio.h>\nint main(void) { printf("ok\\n"); return 0; }\n' >"$MK/tools/gen.c"
  cat >"$MK/app/Makefile" <<'EOF'
CFLAGS = -Wall -O2 -I../lib
app: main.o config.o
	$(CC) -o $@ $^ ../lib/libutil.a
EOF
  cat >"$MK/app/main.c" <<'EOF'
#include <stdio.h>
struct node { int v; struct node *next; };
int list_len(struct node *n);
struct config *load_config(const char *path);
int main(void) {
  struct config *c = load_config("app.conf");
  printf("entries %d\n", list_len((struct node *)c));
  return 0;
}
EOF
  cat >"$MK/app/config.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
struct config { int entries; char *name; };
struct config *load_config(const char *path) {
  FILE *f = fopen(path, "r");
  struct config *c = malloc(sizeof *c);
  c->entries = 0
  c->name = path;
  return c;
}
EOF
  capture batch4 make_recursive_failure "$MK" "make" "$(make --version | head -1)"
  cat >"$MK/app/config.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
struct config { int entries; struct config *next; };
struct config *load_config(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  struct config *c = malloc(sizeof *c);
  c->entries = 0;
  c->next = (struct config *)0x10;
  fclose(f);
  return c;
}
EOF
  cat >"$MK/app/main.c" <<'EOF'
#include <stdio.h>
struct config *load_config(const char *path);
struct config { int entries; struct config *next; };
int main(void) {
  struct config *c = load_config("app.conf");
  printf("loading app.conf\n");
  fflush(stdout);
  printf("entries %d\n", c->entries);
  return 0;
}
EOF
  capture batch4 make_run_segfault "$MK" "make run" "$(make --version | head -1)"

  # git: stash pop onto a changed file (conflict), and git am of a patch that does not apply
  export GIT_AUTHOR_DATE="2026-11-20T10:00:00Z" GIT_COMMITTER_DATE="2026-11-20T10:00:00Z"
  GS="$B/notes_repo"
  mkdir -p "$GS" && cd "$GS" && git init -q -b main . && git config user.email dev@example.test && git config user.name Dev
  printf 'timeout = 30\nretries = 3\nendpoint = "https://api.example.test"\n' >settings.toml
  printf '# notes\n' >NOTES.md
  git add -A && git commit -qm "settings"
  printf 'timeout = 60\nretries = 3\nendpoint = "https://api.example.test"\n' >settings.toml
  printf '# notes\n- try longer timeout\n' >NOTES.md
  git stash push -q -m "wip: longer timeout"
  printf 'timeout = 10\nretries = 5\nendpoint = "https://api.example.test"\n' >settings.toml
  git commit -qam "tighter timeout, more retries"
  cd - >/dev/null
  capture batch4 git_stash_pop_conflict "$GS" "git stash pop" "$(git --version)"
  GA="$B/am_repo"
  mkdir -p "$GA" && cd "$GA" && git init -q -b main . && git config user.email dev@example.test && git config user.name Dev
  seq 1 30 | sed 's/^/line /' >parser.c
  printf 'all:\n\tcc parser.c\n' >Makefile
  git add -A && git commit -qm "base"
  git checkout -qb feature
  sed -i '10s/.*/line 10 changed by feature/; 20s/.*/line 20 changed by feature/' parser.c
  printf 'all:\n\tcc -O2 parser.c\n' >Makefile
  git commit -qam "parser: tweak lines 10 and 20"
  printf 'new file\n' >lexer.c && git add lexer.c && git commit -qm "lexer: add stub"
  git format-patch -q -2 -o "$B/patches"
  git checkout -q main
  sed -i '9,11d' parser.c && git commit -qam "parser: drop lines 9-11"
  cd - >/dev/null
  capture batch4 git_am_conflict "$GA" "git am $B/patches/*.patch" "$(git --version)"

  # git log --oneline --graph of a history with feature branches merged
  GL="$B/graph_repo"
  mkdir -p "$GL" && cd "$GL" && git init -q -b main . && git config user.email dev@example.test && git config user.name Dev
  n=0
  for f in auth billing search export reports; do
    for i in 1 2; do n=$((n + 1)); echo "$n" >>core.txt; git add -A; git commit -qm "core: step $n"; done
    git checkout -qb "feature/$f"
    for i in 1 2 3 4; do echo "$f $i" >>"$f.txt"; git add -A; git commit -qm "$f: part $i"; done
    git checkout -q main
    n=$((n + 1)); echo "$n" >>core.txt; git add -A; git commit -qm "core: step $n"
    git merge -q --no-ff "feature/$f" -m "Merge branch 'feature/$f'"
  done
  cd - >/dev/null
  capture batch4 git_log_graph_oneline "$GL" "git log --oneline --graph --decorate" "$(git --version)"
  unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE

  # xmllint on malformed XML
  JQ="$B/data"
  mkdir -p "$JQ"
  cat >"$JQ/feed.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>Release notes</title>
    <item>
      <title>1.2 & 1.3</title>
      <link>https://example.test/1.3</link>
    </item>
    <item>
      <title>1.4</title>
      <pubDate>Mon, 02 Nov 2026</pubdate>
    </item>
  </channel>
</rss>
EOF
  capture batch4 xmllint_errors "$JQ" "xmllint --noout feed.xml" "$(xmllint --version 2>&1 | head -1)"

  # npm pack --dry-run of a library (verbose success: the tarball's contents)
  NP="$B/textkit"
  mkdir -p "$NP/lib" "$NP/types" "$NP/test"
  printf '{\n  "name": "@acme/textkit",\n  "version": "3.2.1",\n  "main": "lib/index.js",\n  "types": "types/index.d.ts",\n  "license": "MIT"\n}\n' >"$NP/package.json"
  for m in index wrap slug trim pad case words truncate escape unescape; do
    seq 1 $((${#m} * 5 + 8)) | sed "s|^|// $m |" >"$NP/lib/$m.js"
    printf 'export declare function %s(s: string): string;\n' "$m" >"$NP/types/$m.d.ts"
  done
  printf '# textkit\n' >"$NP/README.md"; printf 'MIT\n' >"$NP/LICENSE"
  printf 'test\n' >"$NP/test/a.test.js"
  capture batch4 npm_pack_dry_run "$NP" "npm pack --dry-run" "npm $(npm --version)"

  # ansible-playbook against localhost: a verbose run where one task fails
  AN="$B/ansible_site"
  mkdir -p "$AN/templates"
  printf 'localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n' >"$AN/hosts"
  printf 'server_name={{ site_name }}\nport={{ port }}\n' >"$AN/templates/site.conf.j2"
  cat >"$AN/site.yml" <<EOF
- hosts: localhost
  gather_facts: false
  vars:
    site_name: demo
    port: 8080
    root: $B/ansible_out
  tasks:
    - name: create the site directory
      file: { path: "{{ root }}", state: directory, mode: "0755" }
    - name: write the config
      template: { src: templates/site.conf.j2, dest: "{{ root }}/site.conf" }
    - name: create log files
      copy: { content: "", dest: "{{ root }}/{{ item }}.log" }
      loop: [access, error, audit]
    - name: check the config
      command: grep -q "port=8080" "{{ root }}/site.conf"
      changed_when: false
    - name: install the service unit
      copy: { src: files/demo.service, dest: "{{ root }}/demo.service" }
    - name: never reached
      debug: { msg: "done" }
EOF
  capture batch4 ansible_playbook_failure "$AN" "ansible-playbook -i hosts site.yml" "$(ansible-playbook --version 2>/dev/null | head -1)"

fi

# --- batch5: a fifth blind batch (tools and situations the set lacked), captured and its signals
# written and committed before any filter ran on it and before any rule file, filter source,
# filter test, fixture or bench/corpus file was opened. npm tools come from a scratch install
# outside the repo. It ran with TERM=xterm, as an agent's shell has it.
if sel batch5; then
  B="$WORK/batch5"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  DENO="$ROOT/node_modules/deno/deno"
  NPM4="${ZEPH_HELDOUT_NPM4:-/tmp/zeph-heldout-npm4}"
  NPM5="${ZEPH_HELDOUT_NPM5:-/tmp/zeph-heldout-npm5}"
  if [ ! -x "$NPM5/node_modules/.bin/ava" ]; then
    mkdir -p "$NPM5" && (cd "$NPM5" && npm init -y >/dev/null && npm install ava rollup >/dev/null 2>&1)
  fi

  # deno fmt --check and deno lint over a small project with unformatted files and lint findings
  D="$B/deno_app"
  mkdir -p "$D/src/routes" "$D/src/lib"
  printf '{ "tasks": {} }\n' >"$D/deno.json"
  cat >"$D/src/lib/money.ts" <<'EOF'
export function cents(amount:number):number{
  return Math.round(amount*100)
}
export const format = (c: number, currency = "EUR") =>  `${(c/100).toFixed(2)} ${currency}`;
EOF
  cat >"$D/src/routes/orders.ts" <<'EOF'
import { cents, format } from "../lib/money.ts";
import { unused } from "../lib/money.ts";

export async function listOrders(db: any) {
  const rows = await db.query("select * from orders");
  let total = 0;
  for (var i = 0; i < rows.length; i++) {
    total += cents(rows[i].amount);
  }
  if (rows.length == 0) {
    return [];
  }
  return { rows, total: format(total) };
}

export function parseId(raw: string) {
  try {
    return parseInt(raw);
  } catch (e) {}
}
EOF
  cat >"$D/src/routes/users.ts" <<'EOF'
export function greet(name : string) { return 'hello ' + name }

export async function loadUser(id: string) {
  const res = fetch(`/users/${id}`);
  return res;
}
EOF
  cat >"$D/src/main.ts" <<'EOF'
import { listOrders } from "./routes/orders.ts";
const debug = true;
console.log(await listOrders({ query: async () => [] }));
EOF
  capture batch5 deno_fmt_check "$D" "$DENO fmt --check src" "$("$DENO" --version | head -1)"
  capture batch5 deno_lint_findings "$D" "$DENO lint src" "$("$DENO" --version | head -1)"

  # node --test with the TAP reporter: failures in two files, one skipped and one todo test
  N="$B/node_tap"
  mkdir -p "$N/test"
  cat >"$N/slug.js" <<'EOF'
export function slugify(s) {
  return s.toLowerCase().trim().replace(/\s+/g, "-");
}
export function truncate(s, n) {
  return s.length > n ? s.slice(0, n) + "..." : s;
}
EOF
  printf '{ "type": "module" }\n' >"$N/package.json"
  cat >"$N/test/slug.test.js" <<'EOF'
import { test } from "node:test";
import assert from "node:assert/strict";
import { slugify, truncate } from "../slug.js";

test("slugify lowercases", () => assert.equal(slugify("Hello World"), "hello-world"));
test("slugify strips punctuation", () => assert.equal(slugify("Hello, World!"), "hello-world"));
test("truncate keeps short strings", () => assert.equal(truncate("abc", 5), "abc"));
test("truncate adds an ellipsis within the limit", () => assert.equal(truncate("abcdefgh", 5), "ab..."));
test("unicode folding", { skip: "needs ICU data" }, () => {});
test("slugify collapses dashes", { todo: true }, () => assert.equal(slugify("a - b"), "a-b"));
EOF
  cat >"$N/test/config.test.js" <<'EOF'
import { test, describe } from "node:test";
import assert from "node:assert/strict";

describe("config", () => {
  test("parses ports", () => assert.deepEqual({ port: Number("80a") }, { port: 80 }));
  test("reads defaults", () => assert.ok(true));
  test("loads the file", async () => {
    const { readFile } = await import("node:fs/promises");
    await readFile("config/missing.json", "utf8");
  });
});
EOF
  capture batch5 node_test_tap "$N" "node --test --test-reporter=tap" "$(node --version)"

  # ava: two failing assertions and a thrown error among passing tests
  A="$B/ava_proj"
  mkdir -p "$A/test"
  ln -s "$NPM5/node_modules" "$A/node_modules"
  printf '{ "name": "queue", "type": "module", "scripts": { "test": "ava" } }\n' >"$A/package.json"
  cat >"$A/queue.js" <<'EOF'
export class Queue {
  constructor(limit) { this.items = []; this.limit = limit; }
  push(x) { if (this.items.length > this.limit) throw new RangeError(`queue full (${this.limit})`); this.items.push(x); }
  pop() { return this.items.pop(); }
  get size() { return this.items.length; }
}
EOF
  cat >"$A/test/queue.test.js" <<'EOF'
import test from "ava";
import { Queue } from "../queue.js";

test("push grows the queue", (t) => { const q = new Queue(3); q.push(1); t.is(q.size, 1); });
test("pop is FIFO", (t) => { const q = new Queue(3); q.push(1); q.push(2); t.is(q.pop(), 1); });
test("limit is enforced", (t) => {
  const q = new Queue(2); q.push(1); q.push(2);
  t.throws(() => q.push(3), { instanceOf: RangeError });
});
test("snapshot of items", (t) => { const q = new Queue(5); q.push("a"); q.push("b"); t.deepEqual(q.items, ["a", "b", "c"]); });
test("drain", (t) => { const q = new Queue(5); q.push(1); q.drain(); t.is(q.size, 0); });
test("empty pop", (t) => { const q = new Queue(1); t.is(q.pop(), undefined); });
EOF
  capture batch5 ava_failures "$A" "npx ava" "ava $("$NPM5/node_modules/.bin/ava" --version)"

  # rollup: an import of a file that does not exist (next to a named import the module lacks)
  R="$B/rollup_lib"
  mkdir -p "$R/src"
  ln -s "$NPM5/node_modules" "$R/node_modules"
  printf 'export function add(a, b) { return a + b; }\nexport const VERSION = "1.0.0";\n' >"$R/src/math.js"
  printf 'import { add, multiply } from "./math.js";\nimport { fmt } from "./format.js";\nexport const run = () => fmt(multiply(add(1, 2), 3));\n' >"$R/src/index.js"
  capture batch5 rollup_unresolved_import "$R" "npx rollup src/index.js --file dist/bundle.js --format esm" "rollup $("$NPM5/node_modules/.bin/rollup" --version)"

  # npm workspaces: build in three packages, the second fails in its prebuild lifecycle script
  W="$B/monorepo"
  mkdir -p "$W/packages/core" "$W/packages/api" "$W/packages/web"
  printf '{ "name": "mono", "private": true, "workspaces": ["packages/*"] }\n' >"$W/package.json"
  printf '{ "name": "@mono/core", "version": "1.0.0", "scripts": { "build": "node build.js" } }\n' >"$W/packages/core/package.json"
  printf 'for (let i = 1; i <= 12; i++) console.log(`core: compiled src/module%%d.ts`.replace("%%d", i));\nconsole.log("core: built 12 modules in 0.4s");\n' >"$W/packages/core/build.js"
  printf '{ "name": "@mono/api", "version": "1.0.0", "scripts": { "prebuild": "node check-env.js", "build": "echo api built" } }\n' >"$W/packages/api/package.json"
  printf 'const need = ["DATABASE_URL", "JWT_SECRET"];\nconst missing = need.filter((k) => !process.env[k]);\nif (missing.length) { console.error(`check-env: missing ${missing.join(", ")}`); process.exit(3); }\n' >"$W/packages/api/check-env.js"
  printf '{ "name": "@mono/web", "version": "1.0.0", "scripts": { "build": "echo web built" } }\n' >"$W/packages/web/package.json"
  capture batch5 npm_workspaces_build "$W" "npm run build --workspaces" "npm $(npm --version)"

  # tsc over a project with 60+ errors across a dozen files
  T="$B/ts_big"
  mkdir -p "$T/src/models" "$T/src/services" "$T/src/util"
  ln -s "$NPM4/node_modules" "$T/node_modules"
  printf '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022", "module": "nodenext" }, "include": ["src"] }\n' >"$T/tsconfig.json"
  for m in user order invoice product cart shipment; do
    cat >"$T/src/models/$m.ts" <<EOF
export interface ${m^} {
  id: number;
  name: string;
  createdAt: Date;
}
export function make${m^}(id: string, name): ${m^} {
  return { id, name, createdAt: "now" };
}
export function describe${m^}(x: ${m^}) {
  return x.title + " #" + x.id.toFixed();
}
EOF
  done
  for s in users orders billing search mail; do
    cat >"$T/src/services/$s.ts" <<EOF
import { makeUser, User } from "../models/user.js";
import { missing } from "../models/order.js";

export class ${s^}Service {
  private cache: Map<string, User> = new Map();
  get(id: number): User {
    return this.cache.get(id);
  }
  async load(id) {
    const u = makeUser(id, 42);
    this.cache.set(u.id, u);
    return u.email.toLowerCase();
  }
  count(): string {
    return this.cache.size;
  }
}
EOF
  done
  cat >"$T/src/util/strings.ts" <<'EOF'
export function pad(s: string, n: number) { return s.padStart(n, 0); }
export const upper = (s) => s.toUpperCase();
export function join(xs: string[]) { return xs.join(1); }
EOF
  capture batch5 tsc_many_errors "$T" "npx tsc -p ." "tsc $("$NPM4/node_modules/.bin/tsc" --version)"

  # a Node HTTP service whose log runs for a few hundred lines and ends in an uncaught crash
  S="$B/node_service"
  mkdir -p "$S"
  cat >"$S/server.js" <<'EOF'
const routes = ["/health", "/api/orders", "/api/users/7", "/api/cart", "/static/app.js"];
let n = 0;
function log(level, msg) {
  const t = new Date(Date.UTC(2026, 10, 27, 2, 0, 0) + n * 137).toISOString();
  console.log(`${t} ${level.padEnd(5)} [worker-${n % 4}] ${msg}`);
}
log("info", "listening on http://127.0.0.1:8080 (pid 4242, env=production)");
log("info", "connected to postgres at db.internal:5432/shop (pool size 10)");
for (n = 1; n < 320; n++) {
  const r = routes[n % routes.length];
  const ms = 3 + ((n * 7) % 40);
  if (n % 53 === 0) log("warn", `slow query on ${r}: ${ms * 25}ms (select * from orders where user_id = $1)`);
  else log("info", `GET ${r} 200 ${ms}ms`);
}
log("error", "GET /api/orders/export 500 - pool exhausted: 10 of 10 connections busy");
const order = JSON.parse('{"id": 9, "lines": null}');
function exportOrders(o) { return o.lines.map((l) => l.sku).join(","); }
function handle() { return exportOrders(order); }
handle();
EOF
  capture batch5 node_service_crash "$S" "node server.js" "$(node --version)"

  # Python: an exception raised while handling another, then a raise ... from
  Y="$B/py_chain"
  mkdir -p "$Y/settings"
  cat >"$Y/loader.py" <<'EOF'
import configparser
import json


class ConfigError(Exception):
    pass


def read_json(path):
    with open(path) as fh:
        return json.load(fh)


def read_ini(path):
    cp = configparser.ConfigParser()
    cp.read_string(open(path).read())
    return {s: dict(cp[s]) for s in cp.sections()}


def load(name):
    try:
        return read_json(f"settings/{name}.json")
    except FileNotFoundError:
        try:
            return read_ini(f"settings/{name}.ini")
        except configparser.Error as exc:
            raise ConfigError(f"cannot load settings '{name}' from json or ini") from exc


if __name__ == "__main__":
    cfg = load("prod")
    print(cfg["db"]["host"])
EOF
  printf '[db]\nhost = db.internal\nport 5432\n' >"$Y/settings/prod.ini"
  capture batch5 python_chained_exceptions "$Y" "python3 loader.py" "$(python3 --version)"

  # pytest -rA with xfail, xpass, skips, warnings and one failure
  Q="$B/py_report"
  mkdir -p "$Q/tests"
  cat >"$Q/report.py" <<'EOF'
import warnings


def ratio(a, b):
    if b == 0:
        warnings.warn("ratio with zero denominator", RuntimeWarning)
        return 0.0
    return a / b


def percent(a, b):
    return round(ratio(a, b) * 100, 1)


def render(rows):
    warnings.warn("render() is deprecated, use render_table()", DeprecationWarning)
    return "\n".join(f"{k}: {v}" for k, v in rows)
EOF
  cat >"$Q/tests/test_report.py" <<'EOF'
import sys
import pytest
from report import percent, ratio, render


def test_ratio():
    assert ratio(1, 4) == 0.25


def test_ratio_zero():
    assert ratio(1, 0) == 0.0


@pytest.mark.parametrize("a,b,expected", [(1, 3, 33.3), (2, 3, 66.7), (1, 8, 12.6)])
def test_percent(a, b, expected):
    assert percent(a, b) == expected


def test_render():
    assert render([("a", 1)]) == "a: 1"


@pytest.mark.xfail(reason="rounding mode not settled")
def test_half_even():
    assert percent(1, 8) == 12.4


@pytest.mark.xfail(reason="known bug #41")
def test_negative():
    assert percent(-1, 4) == -25.0


@pytest.mark.skipif(sys.platform == "linux", reason="windows line endings only")
def test_crlf():
    pass


@pytest.mark.skip(reason="needs the reporting database")
def test_db_export():
    pass
EOF
  capture batch5 pytest_xfail_skip_warnings "$Q" "python3 -m pytest -rA tests" "$(python3 -m pytest --version 2>&1 | head -1)"

  # unittest discovery where two test modules fail to import
  U="$B/py_discover"
  mkdir -p "$U/inventory" "$U/tests"
  : >"$U/inventory/__init__.py"
  printf 'def stock(items):\n    return sum(i["qty"] for i in items)\n' >"$U/inventory/core.py"
  : >"$U/tests/__init__.py"
  printf 'import unittest\nfrom inventory.core import stock\n\n\nclass T(unittest.TestCase):\n    def test_stock(self):\n        self.assertEqual(stock([{"qty": 2}, {"qty": 3}]), 5)\n' >"$U/tests/test_core.py"
  printf 'import unittest\nfrom inventory.pricing import price_of\n\n\nclass T(unittest.TestCase):\n    def test_price(self):\n        self.assertEqual(price_of("x"), 1)\n' >"$U/tests/test_pricing.py"
  printf 'import unittest\nimport yamlish\n\n\nclass T(unittest.TestCase):\n    def test_load(self):\n        pass\n' >"$U/tests/test_loader.py"
  capture batch5 unittest_discover_import_errors "$U" "python3 -m unittest discover -s tests -t . -v" "$(python3 --version)"

  # go mod tidy with the module proxy switched off and a dependency not in the cache
  G="$B/go_tidy"
  mkdir -p "$G/internal/store"
  printf 'module example.com/shopsvc\n\ngo 1.19\n' >"$G/go.mod"
  printf 'package main\n\nimport (\n\t"fmt"\n\n\t"github.com/google/uuid"\n\t"example.com/shopsvc/internal/store"\n)\n\nfunc main() { fmt.Println(uuid.NewString(), store.Name) }\n' >"$G/main.go"
  printf 'package store\n\nimport _ "github.com/mattn/go-sqlite3"\n\nconst Name = "store"\n' >"$G/internal/store/store.go"
  capture batch5 go_mod_tidy_offline "$G" "GOPROXY=off GOFLAGS=-mod=mod GOPATH=$B/gopath go mod tidy" "$(go version)"

  # cargo build of a crate with many warnings that still builds
  C="$B/rust_warn"
  mkdir -p "$C/src"
  printf '[package]\nname = "ledger"\nversion = "0.3.0"\nedition = "2021"\n\n[dependencies]\n' >"$C/Cargo.toml"
  cat >"$C/src/main.rs" <<'EOF'
mod parse;
mod report;
use std::collections::HashMap;
use std::fs;
use std::io::Write;

fn main() {
    let unused_total = 0;
    let mut count = 5;
    let entries = parse::entries("2026-01-01 food 12.5\n2026-01-02 rent 800");
    println!("{}", report::render(&entries));
}
EOF
  cat >"$C/src/parse.rs" <<'EOF'
use std::fmt::Display;

pub struct Entry {
    pub date: String,
    pub category: String,
    pub amount: f64,
    note: Option<String>,
}

pub fn entries(s: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    for line in s.lines() {
        let parts: Vec<&str> = line.split(' ').collect();
        let mut amount = parts[2].parse::<f64>().unwrap();
        out.push(Entry { date: parts[0].to_string(), category: parts[1].to_string(), amount, note: None });
    }
    out
}

fn legacy_parse(s: &str) -> Option<Entry> {
    None
}

#[allow(dead_code)]
fn helper() {}

pub enum Kind { Income, Expense, Transfer }
EOF
  cat >"$C/src/report.rs" <<'EOF'
use crate::parse::Entry;
use std::collections::BTreeMap;

pub fn render(entries: &[Entry]) -> String {
    let mut by_cat: BTreeMap<&str, f64> = BTreeMap::new();
    for e in entries {
        *by_cat.entry(&e.category).or_default() += e.amount;
    }
    let Width = 12;
    let mut s = String::new();
    for (k, v) in &by_cat {
        s.push_str(&format!("{k:<12} {v:>8.2}\n"));
    }
    s
}

fn unused_fn(x: i32) -> i32 {
    let y = x;
    x
}
EOF
  capture batch5 cargo_build_warnings "$C" "CARGO_TARGET_DIR=$B/rust_target cargo build" "$(cargo --version)"

  # clang: errors reported through a chain of headers
  H="$B/c_headers"
  mkdir -p "$H/include/net" "$H/src"
  printf '#ifndef NET_TYPES_H\n#define NET_TYPES_H\n#include <stdint.h>\ntypedef struct {\n  uint32_t addr;\n  uint16_t port\n} endpoint_t;\nsize_t endpoint_len(const endpoint_t *e);\n#endif\n' >"$H/include/net/types.h"
  printf '#ifndef NET_CONN_H\n#define NET_CONN_H\n#include "net/types.h"\ntypedef struct conn {\n  endpoint_t peer;\n  buffer_t *rx;\n} conn_t;\nint conn_open(conn_t *c, const char *host);\n#endif\n' >"$H/include/net/conn.h"
  printf '#include <stdio.h>\n#include "net/conn.h"\n\nint conn_open(conn_t *c, const char *host) {\n  c->peer.port = 80;\n  printf("%%s\\n", host);\n  return c->peer.missing;\n}\n\nint main(void) {\n  conn_t c;\n  return conn_open(&c, 42);\n}\n' >"$H/src/conn.c"
  capture batch5 clang_header_chain "$H" "clang -Wall -Iinclude -c src/conn.c -o conn.o" "$(clang --version | head -1)"

  # AddressSanitizer: a heap buffer overflow in a small C program
  Z="$B/c_asan"
  mkdir -p "$Z"
  cat >"$Z/tokens.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char **split(const char *s, int *n) {
  char **out = malloc(4 * sizeof(char *));
  char *copy = strdup(s);
  *n = 0;
  for (char *t = strtok(copy, ","); t; t = strtok(NULL, ",")) out[(*n)++] = t;
  return out;
}

int main(void) {
  int n;
  char **parts = split("alpha,beta,gamma,delta,epsilon", &n);
  for (int i = 0; i < n; i++) printf("%d %s\n", i, parts[i]);
  return 0;
}
EOF
  capture batch5 asan_heap_overflow "$Z" "gcc -g -fsanitize=address -o tokens tokens.c && ./tokens" "$(gcc --version | head -1)"

  # strace -f of a script whose child cannot open its config file
  ST="$B/strace_app"
  mkdir -p "$ST"
  printf '#!/bin/sh\necho starting\ncat /etc/hostname >/dev/null\nsh -c "cat ./conf/app.conf"\n' >"$ST/run.sh"
  chmod +x "$ST/run.sh"
  capture batch5 strace_follow "$ST" "strace -f -e trace=execve,openat,read,write,exit_group ./run.sh" "$(strace -V | head -1)"

  # a program linked against a shared library that is not installed
  L="$B/c_ldd"
  mkdir -p "$L/lib"
  printf 'int geo_distance(int a, int b) { return a > b ? a - b : b - a; }\n' >"$L/geo.c"
  printf '#include <stdio.h>\nint geo_distance(int, int);\nint main(void) { printf("%%d\\n", geo_distance(3, 9)); return 0; }\n' >"$L/main.c"
  gcc -shared -fPIC -o "$L/lib/libgeo.so.1" "$L/geo.c" -Wl,-soname,libgeo.so.1
  ln -sf libgeo.so.1 "$L/lib/libgeo.so"
  gcc -o "$L/route" "$L/main.c" -L"$L/lib" -lgeo
  rm -rf "$L/lib"
  capture batch5 ldd_missing_lib "$L" "ldd ./route; ./route" "$(ldd --version | head -1)"

  # a plain make of a 120-file C project, every compile line printed (exit 0)
  M="$B/c_many"
  mkdir -p "$M/src"
  for i in $(seq -w 1 120); do
    printf 'int f%s(int x) { return x * %d; }\n' "$i" "$((10#$i))" >"$M/src/mod$i.c"
  done
  printf 'int f001(int);\nint main(void) { return f001(0); }\n' >"$M/src/main.c"
  cat >"$M/Makefile" <<'EOF'
SRC := $(wildcard src/*.c)
OBJ := $(SRC:src/%.c=build/%.o)
CFLAGS := -O2 -Wall -fPIC
bin/app: $(OBJ)
	@mkdir -p bin
	$(CC) -o $@ $(OBJ)
	@echo "linked $@ from $(words $(OBJ)) objects"
build/%.o: src/%.c
	@mkdir -p build
	$(CC) $(CFLAGS) -c $< -o $@
EOF
  capture batch5 make_long_build "$M" "make" "$(make --version | head -1)"

  # git: a merge that conflicts in five files, a long log -p, and blame
  GR="$B/git_merge"
  mkdir -p "$GR" && cd "$GR" && git init -q -b main && git config user.email dev@example.com && git config user.name Dev
  mkdir -p src docs
  for f in src/api.py src/db.py src/auth.py docs/setup.md config.yml src/cli.py; do
    printf 'line one of %s\nsetting = 1\nline three\n' "$f" >"$f"
  done
  git add -A && git commit -qm "initial layout"
  git checkout -qb feature/retry
  for f in src/api.py src/db.py src/auth.py docs/setup.md config.yml; do sed -i 's/setting = 1/setting = 2  # retry/' "$f"; done
  printf 'new helper\n' >src/retry.py
  git add -A && git commit -qm "retry: raise settings to 2"
  git checkout -q main
  for f in src/api.py src/db.py src/auth.py docs/setup.md config.yml src/cli.py; do sed -i 's/setting = 1/setting = 3  # timeout/' "$f"; done
  git add -A && git commit -qm "timeouts: raise settings to 3"
  cd "$ROOT"
  capture batch5 git_merge_many_conflicts "$GR" "git merge feature/retry" "$(git --version)"

  GL="$B/git_log"
  mkdir -p "$GL" && cd "$GL" && git init -q -b main && git config user.email dev@example.com && git config user.name Dev
  for i in $(seq 1 14); do
    printf 'def handler_%d(req):\n    return {"status": %d, "route": "/v%d"}\n' "$i" "$((200 + i))" "$i" >>app.py
    printf '# changelog %d\n- add handler %d\n' "$i" "$i" >>CHANGES.md
    GIT_AUTHOR_DATE="2026-11-$((10 + i))T10:00:00Z" GIT_COMMITTER_DATE="2026-11-$((10 + i))T10:00:00Z" \
      git add -A && GIT_AUTHOR_DATE="2026-11-$((10 + i))T10:00:00Z" GIT_COMMITTER_DATE="2026-11-$((10 + i))T10:00:00Z" git commit -qm "handler $i: route /v$i"
  done
  cd "$ROOT"
  capture batch5 git_log_patch "$GL" "git log -p -n 10" "$(git --version)"

  # rg over a tree with many hits; find with a missing start path among many results
  RG="$B/search_tree"
  mkdir -p "$RG"
  for d in api web worker cli shared; do
    mkdir -p "$RG/$d/src" "$RG/$d/test"
    for i in 1 2 3 4 5 6; do
      printf '// %s module %d\nimport { log } from "../shared/log";\n// TODO: remove legacy path\nexport function run%d() {\n  log("run %d");\n  // TODO(%s): handle errors\n  return %d;\n}\n' "$d" "$i" "$i" "$i" "$d" "$i" >"$RG/$d/src/mod$i.ts"
      printf 'test("mod%d", () => {});\n' "$i" >"$RG/$d/test/mod$i.test.ts"
    done
  done
  capture batch5 rg_many_hits "$RG" "rg -n TODO" "$(rg --version | head -1)"
  capture batch5 find_missing_path "$RG" "find api web worker cli shared mobile -name '*.ts' -newer api/src/mod1.ts -o -name '*.test.ts'" "$(find --version | head -1)"

  # sqlite3 .schema of a database with many tables, indexes and a view
  SQ="$B/sqlite_schema"
  mkdir -p "$SQ"
  {
    for t in users orders order_lines products categories invoices payments shipments addresses coupons reviews carts; do
      printf 'CREATE TABLE %s (id INTEGER PRIMARY KEY, created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP, updated_at TEXT, owner_id INTEGER REFERENCES users(id), status TEXT CHECK (status IN (%s)), payload TEXT);\n' "$t" "'new','active','archived'"
      printf 'CREATE INDEX idx_%s_owner ON %s(owner_id);\nCREATE INDEX idx_%s_status ON %s(status, created_at);\n' "$t" "$t" "$t" "$t"
    done
    printf 'CREATE VIEW open_orders AS SELECT o.id, u.id AS user_id FROM orders o JOIN users u ON u.id = o.owner_id WHERE o.status = %s;\n' "'active'"
  } | sqlite3 "$SQ/shop.db"
  capture batch5 sqlite_schema "$SQ" "sqlite3 shop.db .schema" "sqlite3 $(sqlite3 --version | cut -d' ' -f1)"

  # awk with a syntax error; jq on a file with a trailing comma
  AW="$B/text_tools"
  mkdir -p "$AW"
  printf 'host,status,ms\napi,200,12\nweb,500,340\napi,200,15\n' >"$AW/access.csv"
  printf '{\n  "name": "svc",\n  "ports": [80, 443],\n  "env": {\n    "LOG": "debug",\n  }\n}\n' >"$AW/svc.json"
  capture batch5 awk_syntax_error "$AW" "awk -F, 'NR > 1 { sum[\$1] += \$3 } END { for (h in sum) printf \"%s %d\\n\", h, sum[h] }' access.csv | sort; awk -F, '{ if (\$2 >= 500 print \$1 }' access.csv" "$(awk -W version 2>&1 | head -1)"
  capture batch5 jq_parse_error "$AW" "jq .env.LOG svc.json" "$(jq --version)"
fi

# --- batch6: a sixth blind batch (tools and situations the set lacked), captured and its signals
# written and committed before any filter ran on it and before any rule file, filter source,
# filter test, fixture or bench/corpus file was opened. It ran with TERM=xterm, as an agent's
# shell has it.
if sel batch6; then
  B="$WORK/batch6"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  DENO="$ROOT/node_modules/deno/deno"

  # python: compileall over a package with two syntax errors; a script run with -W error
  PY="$B/pyapp"
  mkdir -p "$PY/inventory/io" "$PY/scripts"
  for m in models stock pricing reports; do
    printf 'def %s_version():\n    return "1.%d"\n' "$m" "${#m}" >"$PY/inventory/$m.py"
  done
  : >"$PY/inventory/__init__.py"
  : >"$PY/inventory/io/__init__.py"
  printf 'def read_csv(path):\n    with open(path) as fh:\n        return [line.split(",") for line in fh\n\ndef write_csv(path, rows):\n    pass\n' >"$PY/inventory/io/csvfile.py"
  printf 'def price(item):\n    match item:\n        case {"sku": sku, "price": p}:\n            return p\n    return None if item else\n' >"$PY/inventory/io/prices.py"
  printf 'import json\n\ndef load(p):\n    return json.load(open(p))\n' >"$PY/inventory/io/jsonfile.py"
  capture batch6 python_compileall_errors "$PY" "python3 -m compileall -q inventory" "$(python3 --version)"
  cat >"$PY/scripts/nightly.py" <<'EOF'
import datetime
import locale
import logging
import re

logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
log = logging.getLogger("nightly")


def stamp():
    return datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%S")


def clean(name):
    return re.sub(r"\d+", "#", name)


def main():
    log.info("starting nightly export")
    lang, enc = locale.getdefaultlocale()
    print("export", clean("report-2026-11"), "at", stamp(), lang, enc)
    log.info("done")


if __name__ == "__main__":
    main()
EOF
  capture batch6 python_warnings_as_errors "$PY" "python3 -W error scripts/nightly.py" "$(python3 --version)"

  # pytest --lf after a failing run: only the last failures run again
  PT="$B/pytest_lf"
  mkdir -p "$PT/tests"
  printf 'def parse_duration(s):\n    units = {"s": 1, "m": 60, "h": 3600}\n    return int(s[:-1]) * units[s[-1]]\n\n\ndef human(seconds):\n    if seconds >= 3600:\n        return f"{seconds // 3600}h"\n    if seconds > 60:\n        return f"{seconds // 60}m"\n    return f"{seconds}s"\n' >"$PT/durations.py"
  {
    printf 'import pytest\nfrom durations import parse_duration, human\n\n'
    for i in $(seq 1 30); do printf 'def test_parse_%d():\n    assert parse_duration("%ds") == %d\n\n' "$i" "$i" "$i"; done
    printf 'def test_parse_days():\n    assert parse_duration("2d") == 172800\n\n'
    printf 'def test_human_minute():\n    assert human(60) == "1m"\n\n'
    printf '@pytest.mark.parametrize("s,expected", [("90s", 90), ("1.5m", 90), ("", 0)])\ndef test_parse_edge(s, expected):\n    assert parse_duration(s) == expected\n'
  } >"$PT/tests/test_durations.py"
  (cd "$PT" && python3 -m pytest -q -p no:randomly >/dev/null 2>&1)
  capture batch6 pytest_last_failed "$PT" "python3 -m pytest --lf -q" "$(python3 -m pytest --version 2>&1 | head -1)"

  # mypy on a package that imports libraries without stubs, plus a few type errors
  MY="$B/mypy_stubs"
  mkdir -p "$MY/syncer"
  : >"$MY/syncer/__init__.py"
  printf 'import yaml\nimport requests\nfrom typing import Any\n\n\ndef load(path: str) -> dict[str, Any]:\n    with open(path) as fh:\n        return yaml.safe_load(fh)\n\n\ndef fetch(url: str) -> str:\n    return requests.get(url, timeout=5).json()\n' >"$MY/syncer/config.py"
  printf 'import toml_extra\nfrom syncer.config import load, fetch\n\n\ndef run(path: str) -> int:\n    cfg = load(path)\n    body: int = fetch(cfg["url"])\n    return body + "1"\n' >"$MY/syncer/main.py"
  capture batch6 mypy_missing_stubs "$MY" "mypy syncer" "$(mypy --version)"
  capture batch6 pip_freeze_long "$MY" "python3 -m pip freeze" "$(python3 -m pip --version | cut -d' ' -f1-2)"

  # go: a build with more type errors than go prints; table-driven subtests with -v; benchmarks
  GO="$B/go_geo"
  mkdir -p "$GO/geo" "$GO/cmd/geo"
  printf 'module example.com/geo\n\ngo 1.19\n' >"$GO/go.mod"
  cat >"$GO/geo/geo.go" <<'EOF'
package geo

import (
	"fmt"
	"math"
	"strings"
)

type Point struct{ Lat, Lon float64 }

func Distance(a, b Point) float64 {
	const r = 6371.0
	dLat := (b.Lat - a.Lat) * math.Pi / 180
	dLon := (b.Lon - a.Lon) * math.Pi / 180
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(a.Lat*math.Pi/180)*math.Cos(b.Lat*math.Pi/180)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * r * math.Asin(math.Sqrt(h))
}

func Parse(s string) (Point, error) {
	var p Point
	_, err := fmt.Sscanf(strings.TrimSpace(s), "%f,%f", &p.Lat, &p.Lon)
	return p, err
}

func Bearing(a, b Point) float64 {
	y := math.Sin((b.Lon-a.Lon)*math.Pi/180) * math.Cos(b.Lat*math.Pi/180)
	x := math.Cos(a.Lat*math.Pi/180)*math.Sin(b.Lat*math.Pi/180) - math.Sin(a.Lat*math.Pi/180)*math.Cos(b.Lat*math.Pi/180)*math.Cos((b.Lon-a.Lon)*math.Pi/180)
	return math.Mod(math.Atan2(y, x)*180/math.Pi+360, 360)
}
EOF
  cat >"$GO/geo/geo_test.go" <<'EOF'
package geo

import (
	"math"
	"testing"
)

func TestDistance(t *testing.T) {
	cases := []struct {
		name string
		a, b Point
		want float64
	}{
		{"same point", Point{0, 0}, Point{0, 0}, 0},
		{"paris-london", Point{48.8566, 2.3522}, Point{51.5074, -0.1278}, 343.5},
		{"berlin-munich", Point{52.52, 13.405}, Point{48.1351, 11.582}, 504.2},
		{"equator quarter", Point{0, 0}, Point{0, 90}, 10007.5},
		{"pole to pole", Point{90, 0}, Point{-90, 0}, 20015.1},
		{"nyc-la", Point{40.7128, -74.006}, Point{34.0522, -118.2437}, 3935.7},
		{"tokyo-osaka", Point{35.6762, 139.6503}, Point{34.6937, 135.5023}, 390.0},
		{"sydney-auckland", Point{-33.8688, 151.2093}, Point{-36.8485, 174.7633}, 2155.7},
		{"madrid-lisbon", Point{40.4168, -3.7038}, Point{38.7223, -9.1393}, 502.6},
		{"rome-milan", Point{41.9028, 12.4964}, Point{45.4642, 9.19}, 477.0},
		{"cairo-nairobi", Point{30.0444, 31.2357}, Point{-1.2921, 36.8219}, 3521.0},
		{"oslo-stockholm", Point{59.9139, 10.7522}, Point{59.3293, 18.0686}, 415.9},
		{"delhi-mumbai", Point{28.7041, 77.1025}, Point{19.076, 72.8777}, 1153.0},
		{"lima-santiago", Point{-12.0464, -77.0428}, Point{-33.4489, -70.6693}, 2461.0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Distance(c.a, c.b)
			if math.Abs(got-c.want) > 1 {
				t.Errorf("Distance(%v, %v) = %.1f, want %.1f", c.a, c.b, got, c.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	for _, s := range []string{"1,2", " 48.85,2.35 ", "-33.8,151.2", "0,0", "90,180", "1;2", "abc"} {
		t.Run(s, func(t *testing.T) {
			if _, err := Parse(s); err != nil {
				t.Fatalf("Parse(%q): %v", s, err)
			}
		})
	}
}

func TestBearing(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b Point
		want float64
	}{{"north", Point{0, 0}, Point{1, 0}, 0}, {"east", Point{0, 0}, Point{0, 1}, 90}, {"south", Point{1, 0}, Point{0, 0}, 180}, {"west", Point{0, 1}, Point{0, 0}, 270}} {
		t.Run(c.name, func(t *testing.T) {
			if got := Bearing(c.a, c.b); math.Abs(got-c.want) > 0.01 {
				t.Errorf("Bearing = %.2f, want %.2f", got, c.want)
			}
		})
	}
}

func BenchmarkDistance(b *testing.B) {
	p, q := Point{48.8566, 2.3522}, Point{51.5074, -0.1278}
	for i := 0; i < b.N; i++ {
		Distance(p, q)
	}
}

func BenchmarkParse(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Parse("48.8566,2.3522")
	}
}

func BenchmarkBearing(b *testing.B) {
	p, q := Point{48.8566, 2.3522}, Point{51.5074, -0.1278}
	for i := 0; i < b.N; i++ {
		Bearing(p, q)
	}
}
EOF
  cat >"$GO/cmd/geo/main.go" <<'EOF'
package main

import (
	"fmt"
	"os"
	"strconv"

	"example.com/geo/geo"
)

type route struct {
	stops []geo.Point
	name  string
}

func (r route) length() int {
	total := 0.0
	for i := 1; i < len(r.stops); i++ {
		total += geo.Distance(r.stops[i-1], r.stops[i])
	}
	return total
}

func main() {
	var stops []geo.Point
	for _, a := range os.Args[1:] {
		p, err := geo.Parse(a)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		stops = append(stops, &p)
	}
	r := route{stops: stops, name: 42}
	var km string = r.length()
	limit := strconv.Atoi(os.Getenv("LIMIT"))
	if r.length() > limit {
		fmt.Println("too long:", r.Name)
	}
	fmt.Println(geo.Distance(stops[0]))
	fmt.Println(geo.Heading(stops[0], stops[1]), km+1)
	var unused int
	for i := range r.stops {
		r.stops[i].Alt = 0
	}
	return 1
}
EOF
  capture batch6 go_build_many_errors "$GO" "GOFLAGS=-mod=mod go build ./..." "$(go version)"
  capture batch6 go_test_subtests_verbose "$GO" "go test -v ./geo" "$(go version)"
  capture batch6 go_test_bench "$GO" "go test -run '^\$' -bench . -benchmem -count 3 ./geo" "$(go version)"

  # rust: rustc on one file with errors; cargo doc with broken doc links; failing doctests
  RS="$B/rust_doc"
  mkdir -p "$RS/src"
  cat >"$B/scan.rs" <<'EOF'
use std::collections::HashMap;
use std::fs;

struct Token { kind: String, text: String }

fn tokenize(src: &str) -> Vec<Token> {
    let mut out = Vec::new();
    for word in src.split_whitespace() {
        out.push(Token { kind: classify(word), text: word });
    }
    out
}

fn classify(w: &str) -> String {
    if w.parse::<i64>().is_ok() { "num" } else { "word".to_string() }
}

fn main() {
    let src = fs::read_to_string("input.txt");
    let toks = tokenize(&src);
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for t in toks {
        *counts.entry(&t.kind).or_insert(0) += 1;
    }
    println!("{}", counts.len);
    let first = toks[0];
}
EOF
  capture batch6 rustc_file_errors "$B" "rustc --edition 2021 scan.rs -o /tmp/zeph-heldout/batch6/scan" "$(rustc --version)"
  printf '[package]\nname = "units"\nversion = "0.2.0"\nedition = "2021"\n\n[dependencies]\n' >"$RS/Cargo.toml"
  cat >"$RS/src/lib.rs" <<'EOF'
//! Unit conversions for the [`Converter`] and the [`Registry`] of named units.
//!
//! See [`convert_all`] and [`Unit::factor`].

/// A unit with a factor to the base unit. Use [`Unit::new`] or [`parse_unit`].
pub struct Unit {
    pub name: String,
    pub factor: f64,
}

impl Unit {
    /// Makes a unit.
    ///
    /// ```
    /// let m = units::Unit::new("m", 1.0);
    /// assert_eq!(m.factor, 1.0);
    /// ```
    pub fn new(name: &str, factor: f64) -> Self {
        Unit { name: name.to_string(), factor }
    }

    /// Converts `v` of this unit into `to`.
    ///
    /// ```
    /// use units::Unit;
    /// let km = Unit::new("km", 1000.0);
    /// let m = Unit::new("m", 1.0);
    /// assert_eq!(km.to(&m, 2.0), 2000.0);
    /// assert_eq!(m.to(&km, 500.0), 0.25);
    /// ```
    pub fn to(&self, to: &Unit, v: f64) -> f64 {
        v * self.factor / to.factor
    }
}

/// Parses "km" or "mi" into a [`Unit`]; see [`Registry::lookup`].
///
/// ```
/// let u = units::parse_unit("mi").unwrap();
/// assert_eq!(u.factor, 1609.344);
/// let none = units::parse_unit("parsec");
/// assert!(none.is_some());
/// ```
pub fn parse_unit(s: &str) -> Option<Unit> {
    match s {
        "km" => Some(Unit::new("km", 1000.0)),
        "mi" => Some(Unit::new("mi", 1609.344)),
        "m" => Some(Unit::new("m", 1.0)),
        _ => None,
    }
}

/// Rounds to `places` decimals. Links to <https://example.com/rounding> and [rounding].
///
/// ```
/// assert_eq!(units::round(2.345, 2), 2.35);
/// ```
///
/// ```
/// let x: u32 = units::round(1.0, 0);
/// ```
pub fn round(v: f64, places: i32) -> f64 {
    let p = 10f64.powi(places);
    (v * p).round() / p
}

/// Sums in the base unit.
///
/// ```should_panic
/// assert_eq!(units::sum_base(&[]), 0.0);
/// ```
pub fn sum_base(vals: &[(f64, Unit)]) -> f64 {
    vals.iter().map(|(v, u)| v * u.factor).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn km_to_m() { assert_eq!(parse_unit("km").unwrap().to(&Unit::new("m", 1.0), 1.0), 1000.0); }
    #[test]
    fn unknown() { assert!(parse_unit("ly").is_none()); }
}
EOF
  capture batch6 cargo_doc_warnings "$RS" "CARGO_TARGET_DIR=$B/rust_target cargo doc --no-deps" "$(cargo --version)"
  capture batch6 cargo_test_doctests "$RS" "CARGO_TARGET_DIR=$B/rust_target cargo test" "$(cargo --version)"

  # cmake: a target linking a target that does not exist; ninja stopping on a compile error
  CM="$B/cmake_app"
  mkdir -p "$CM/src" "$CM/lib"
  printf 'cmake_minimum_required(VERSION 3.16)\nproject(telemetry C)\nadd_subdirectory(lib)\nadd_executable(telemetryd src/main.c)\ntarget_link_libraries(telemetryd PRIVATE telemetry::core metrics_export)\n' >"$CM/CMakeLists.txt"
  printf 'add_library(tcore STATIC core.c)\n' >"$CM/lib/CMakeLists.txt"
  printf 'int core(void) { return 1; }\n' >"$CM/lib/core.c"
  printf 'int main(void) { return 0; }\n' >"$CM/src/main.c"
  capture batch6 cmake_missing_target "$CM" "cmake -S . -B build" "$(cmake --version | head -1)"
  NJ="$B/ninja_app"
  mkdir -p "$NJ/src"
  for m in buffer config event http json log pool queue router timer; do
    printf '#include <stdlib.h>\nint %s_init(void) { return 0; }\n' "$m" >"$NJ/src/$m.c"
  done
  printf '#include <string.h>\nstruct req { const char *path; int len; };\nint router_match(struct req *r, const char *p) {\n  return strncmp(r->path, p, r->length) == 0 && r->method;\n}\n' >"$NJ/src/router.c"
  printf '#include <stdio.h>\nint main(void) { printf("%%d\\n", undefined_counter); return 0; }\n' >"$NJ/src/main.c"
  {
    printf 'cflags = -Wall -O2\nrule cc\n  command = gcc $cflags -c $in -o $out\n  description = CC $out\nrule link\n  command = gcc $in -o $out\n  description = LINK $out\n'
    objs=""
    for m in buffer config event http json log pool queue router timer main; do printf 'build obj/%s.o: cc src/%s.c\n' "$m" "$m"; objs="$objs obj/$m.o"; done
    printf 'build bin/server: link%s\n' "$objs"
  } >"$NJ/build.ninja"
  capture batch6 ninja_compile_error "$NJ" "ninja -j1" "ninja $(ninja --version)"

  # valgrind memcheck of a clean program (verbose success)
  VG="$B/vg_clean"
  mkdir -p "$VG"
  printf '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\nint main(void) {\n  for (int i = 0; i < 200; i++) { char *s = malloc(64); snprintf(s, 64, "item-%%d", i); if (i %% 50 == 0) puts(s); free(s); }\n  return 0;\n}\n' >"$VG/alloc.c"
  gcc -g -O0 -o "$VG/alloc" "$VG/alloc.c"
  capture batch6 valgrind_clean_run "$VG" "valgrind --leak-check=full --show-leak-kinds=all -v ./alloc" "$(valgrind --version)"

  # scripting languages: perl -c, ruby syntax errors, a lua runtime error with its traceback
  SC="$B/scripts"
  mkdir -p "$SC"
  printf 'use strict;\nuse warnings;\n\nmy %%cfg = (host => "db", port => 5432);\nsub connect_db {\n    my ($h, $p) = @_;\n    if ($p > 1024 {\n        return "$h:$p";\n    }\n}\nprint connect_db($cfg{host}, $cfg{port}), "\\n";\n' >"$SC/deploy.pl"
  capture batch6 perl_syntax_check "$SC" "perl -c deploy.pl" "$(perl -e 'print $^V')"
  printf 'class Cart\n  def initialize\n    @items = []\n  end\n\n  def add(item, qty = 1)\n    @items << { item: item, qty: qty }\n  end\n\n  def total\n    @items.sum { |i| i[:item].price * i[:qty] \n  end\nend\n\nputs Cart.new.total\n' >"$SC/cart.rb"
  capture batch6 ruby_syntax_error "$SC" "ruby cart.rb" "$(ruby --version)"
  cat >"$SC/config.lua" <<'EOF'
local M = {}

local function read_section(cfg, name)
  local s = cfg.sections[name]
  return s.values
end

function M.get(cfg, path)
  local section, key = path:match("([^.]+)%.(.+)")
  local values = read_section(cfg, section)
  return values[key]
end

local cfg = { sections = { server = { values = { port = 8080 } } } }
print("port", M.get(cfg, "server.port"))
print("db", M.get(cfg, "database.url"))
EOF
  capture batch6 lua_runtime_error "$SC" "lua config.lua" "$(lua -v 2>&1)"

  # bash with set -euo pipefail failing in the middle of a pipeline
  cat >"$SC/release.sh" <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
echo "==> collecting changed packages"
printf 'pkg/api\npkg/web\npkg/worker\n' >/tmp/zeph-heldout/batch6/changed.txt
count=$(wc -l </tmp/zeph-heldout/batch6/changed.txt)
echo "==> $count packages changed"
for p in $(cat /tmp/zeph-heldout/batch6/changed.txt); do echo "    - $p"; done
echo "==> computing versions"
grep -h '"version"' pkg/*/package.json | sort -u | head -1
echo "==> tagging"
git tag "v$VERSION"
EOF
  capture batch6 bash_pipefail_abort "$SC" "bash release.sh" "$(bash --version | head -1)"

  # many scripts checked by shellcheck in its gcc format
  SH="$B/sh_tools"
  mkdir -p "$SH/bin"
  for n in backup deploy rotate-logs sync-assets migrate cleanup seed-db build-images release notify warm-cache prune-tags; do
    cat >"$SH/bin/$n.sh" <<EOF
#!/bin/bash
SRC=\$1
DEST=\$2
cd \$SRC
for f in \$(ls *.log); do
  echo "processing \$f for $n"
  cp \$f \$DEST/
done
if [ \$? == 0 ]; then echo ok; fi
read name
rm -rf \$DEST/\$name/*
EOF
  done
  capture batch6 shellcheck_gcc_format "$SH" "shellcheck -f gcc bin/*.sh" "shellcheck $(shellcheck --version | sed -n 2p)"

  # yamllint with many findings over three files
  YL="$B/yaml_cfg"
  mkdir -p "$YL/.github/workflows" "$YL/k8s"
  printf 'name: ci\non:\n  push:\n    branches: [ main ]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci   \n      - run: npm test\n        env:\n          CI: yes\n          CI: true\n' >"$YL/.github/workflows/ci.yml"
  printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n    name: web\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: web\n        image: "registry.example.com/web:1.4.2-with-a-very-long-tag-name-that-goes-past-eighty-columns"\n        ports:\n          - containerPort: 8080\n\n\n' >"$YL/k8s/deploy.yml"
  printf -- '---\nservices:\n  db: {image: postgres, ports: ["5432:5432"]}\n  cache:\n   image: redis\n  web:\n    image: web\n    depends_on: [db,cache]\n    environment:\n      - DEBUG=on\n      - DEBUG=off\n' >"$YL/compose.yml"
  capture batch6 yamllint_findings "$YL" "yamllint ." "$(yamllint --version)"

  # git: submodule with a missing remote, rebase stopping at an edit, a long branch -vv, fsck
  GS="$B/git_sub"
  mkdir -p "$GS"
  for r in proto ui-kit; do
    git init -q -b main "$GS/$r" && (cd "$GS/$r" && git config user.email dev@example.com && git config user.name Dev && printf '%s\n' "$r" >README && git add -A && git commit -qm "$r v1")
  done
  git init -q -b main "$GS/super" && cd "$GS/super" && git config user.email dev@example.com && git config user.name Dev
  printf 'app\n' >app.txt && git add -A && git commit -qm "app"
  git -c protocol.file.allow=always submodule add -q "$GS/proto" vendor/proto
  git -c protocol.file.allow=always submodule add -q "$GS/ui-kit" vendor/ui-kit
  git commit -qm "vendor: proto and ui-kit"
  cd "$ROOT"
  git clone -q "$GS/super" "$GS/checkout"
  rm -rf "$GS/proto"
  capture batch6 git_submodule_update_error "$GS/checkout" "git -c protocol.file.allow=always submodule update --init --recursive" "$(git --version)"
  GB="$B/git_rebase"
  mkdir -p "$GB" && cd "$GB" && git init -q -b main && git config user.email dev@example.com && git config user.name Dev
  printf 'v1\n' >app.txt && git add -A && git commit -qm "initial"
  for i in $(seq 1 6); do printf 'change %d\n' "$i" >>app.txt; printf 'note %d\n' "$i" >"note$i.md"; git add -A && git commit -qm "step $i: extend app"; done
  cd "$ROOT"
  capture batch6 git_rebase_edit_stop "$GB" "GIT_SEQUENCE_EDITOR=\"sed -i -e '3s/^pick/edit/' -e '5s/^pick/reword/'\" GIT_EDITOR=true git rebase -i HEAD~6" "$(git --version)"
  GV="$B/git_branches"
  mkdir -p "$GV/origin.git" && git init -q --bare -b main "$GV/origin.git"
  git clone -q "$GV/origin.git" "$GV/work" 2>/dev/null
  cd "$GV/work" && git config user.email dev@example.com && git config user.name Dev
  printf 'base\n' >README && git add -A && git commit -qm "base" && git push -q origin main 2>/dev/null
  for b in feat/login feat/signup feat/billing-v2 fix/timeout fix/null-user fix/csv-export chore/deps chore/ci-cache refactor/store refactor/http docs/api docs/onboarding exp/wasm exp/grpc release/1.4 release/1.5 hotfix/1.4.1 spike/search feat/audit-log feat/rate-limit; do
    git checkout -qb "$b" main
    printf '%s\n' "$b" >"${b//\//_}.txt" && git add -A && git commit -qm "$b: first cut"
    case "$b" in feat/*|fix/*|release/*) git push -q -u origin "$b" 2>/dev/null ;; esac
    case "$b" in feat/login|fix/timeout|release/1.5) printf 'more\n' >>"${b//\//_}.txt" && git commit -qam "$b: follow-up" ;; esac
  done
  git checkout -q main
  git push -q origin --delete fix/csv-export 2>/dev/null
  cd "$ROOT"
  capture batch6 git_branch_vv_long "$GV/work" "git branch -vv" "$(git --version)"
  GF="$B/git_fsck"
  git clone -q "$GB" "$GF" 2>/dev/null
  cd "$GF" && git config user.email dev@example.com && git config user.name Dev
  git checkout -q -b scratch && printf 'tmp\n' >tmp.txt && git add -A && git commit -qm "scratch" && git checkout -q main && git branch -q -D scratch
  for o in $(git rev-parse HEAD:app.txt HEAD~3:app.txt HEAD~2:note4.md); do rm -f ".git/objects/${o:0:2}/${o:2}"; done
  cd "$ROOT"
  capture batch6 git_fsck_missing_blob "$GF" "git fsck --full --no-reflogs" "$(git --version)"

  # openssl s_client against a local TLS server with a self-signed certificate; curl -v of a 500
  TL="$B/tls"
  mkdir -p "$TL"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TL/key.pem" -out "$TL/cert.pem" -days 30 -subj "/CN=api.internal.test" >/dev/null 2>&1
  (cd "$TL" && openssl s_server -accept 127.0.0.1:18443 -cert cert.pem -key key.pem -www -quiet >/dev/null 2>&1 & echo $! >"$TL/pid")
  sleep 1
  capture batch6 openssl_s_client_selfsigned "$TL" "openssl s_client -connect 127.0.0.1:18443 -servername api.internal.test -verify_return_error </dev/null" "$(openssl version)"
  kill "$(cat "$TL/pid")" 2>/dev/null
  HS="$B/http"
  mkdir -p "$HS"
  cat >"$HS/server.py" <<'EOF'
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class H(BaseHTTPRequestHandler):
    def _send(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.startswith("/static/"):
            return self._send(200, {"ok": True})
        if self.path.startswith("/api/orders/"):
            oid = self.path.rsplit("/", 1)[1]
            if oid.endswith("7"):
                return self._send(500, {"error": "internal", "detail": f"order {oid}: column \"discount\" does not exist", "request_id": "req-" + oid})
            if oid.endswith("3"):
                return self._send(404, {"error": "not_found"})
            return self._send(200, {"id": oid})
        return self._send(404, {"error": "no route"})

    def do_POST(self):
        self._send(500, {"error": "internal", "detail": "payment gateway timeout after 30s", "request_id": "req-9f2c"})


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
EOF
  python3 "$HS/server.py" 18480 >/dev/null 2>&1 &
  HPID=$!
  sleep 1
  capture batch6 curl_post_500_json "$HS" "curl -v -sS -X POST -H 'Content-Type: application/json' -d '{\"amount\": 1200, \"currency\": \"EUR\"}' http://127.0.0.1:18480/api/payments --fail-with-body" "$(curl --version | head -1)"
  kill "$HPID" 2>/dev/null
  cat >"$HS/load.sh" <<'EOF'
python3 -u server.py 18481 &
pid=$!
sleep 1
for i in $(seq 1 260); do
  case $((i % 5)) in
    0) p="/api/orders/$((i - 2))" ;;
    1) p="/static/app.$i.js" ;;
    2) p="/static/style.css" ;;
    3) p="/api/orders/$((i + 4))" ;;
    *) p="/health" ;;
  esac
  curl -s -o /dev/null "http://127.0.0.1:18481$p"
done
kill $pid
EOF
  capture batch6 http_server_access_log "$HS" "bash load.sh" "$(python3 --version)"

  # jq over a big document (long success); tar -tvf of a release archive (long success)
  JQ="$B/jq_big"
  mkdir -p "$JQ"
  python3 - "$JQ/events.json" <<'EOF'
import json, sys
ev = [{"id": i, "type": ["click", "view", "purchase", "signup"][i % 4], "user": {"id": 1000 + i % 37, "plan": ["free", "pro", "team"][i % 3]}, "ts": f"2026-11-2{i % 7}T1{i % 10}:0{i % 6}:00Z", "amount": (i * 7) % 120 if i % 4 == 2 else None} for i in range(120)]
json.dump({"source": "web", "count": len(ev), "events": ev}, open(sys.argv[1], "w"))
EOF
  capture batch6 jq_big_select "$JQ" "jq '.events[] | select(.type == \"purchase\" or .amount == null) | {id, type, user: .user.id, plan: .user.plan, amount}' events.json" "$(jq --version)"
  TA="$B/tar_rel"
  mkdir -p "$TA/app-2.3.0"
  for d in bin lib lib/plugins share/doc share/locale/de share/locale/fr etc; do mkdir -p "$TA/app-2.3.0/$d"; done
  for i in $(seq 1 90); do printf 'plugin %d\n' "$i" >"$TA/app-2.3.0/lib/plugins/p$i.so"; done
  for i in $(seq 1 15); do printf 'doc %d\n' "$i" >"$TA/app-2.3.0/share/doc/chapter$i.html"; done
  for f in app app-migrate app-worker; do printf '#!/bin/sh\n' >"$TA/app-2.3.0/bin/$f"; done
  printf 'msg\n' >"$TA/app-2.3.0/share/locale/de/app.mo"; printf 'msg\n' >"$TA/app-2.3.0/share/locale/fr/app.mo"; printf 'port=1\n' >"$TA/app-2.3.0/etc/app.conf"
  (cd "$TA" && tar --owner=build --group=build --mtime=2026-11-20 -cJf app-2.3.0.tar.xz app-2.3.0)
  capture batch6 tar_list_verbose "$TA" "tar -tvJf app-2.3.0.tar.xz" "$(tar --version | head -1)"

  # deno check with many type errors; a long deno test run with a few failures
  DN="$B/deno_svc"
  mkdir -p "$DN/src" "$DN/tests"
  printf '{ "compilerOptions": { "strict": true } }\n' >"$DN/deno.json"
  cat >"$DN/src/cart.ts" <<'EOF'
export interface Item { sku: string; price: number; qty: number }
export interface Cart { items: Item[]; coupon?: string }

export function total(cart: Cart): number {
  return cart.items.reduce((s, i) => s + i.price * i.qty, "0");
}

export function addItem(cart: Cart, item: Item): Cart {
  return { ...cart, items: [...cart.items, item], updated: Date.now() };
}

export function applyCoupon(cart: Cart, code: string | undefined): Cart {
  const pct: number = code.startsWith("PCT") ? code.slice(3) : 0;
  return { ...cart, coupon: code, discount: pct };
}

export function findItem(cart: Cart, sku: string): Item {
  return cart.items.find((i) => i.sku === sku);
}

export function removeItem(cart: Cart, sku: number): Cart {
  return { ...cart, items: cart.items.filter((i) => i.sku !== sku) };
}
EOF
  cat >"$DN/src/api.ts" <<'EOF'
import { addItem, Cart, total } from "./cart.ts";
import { formatMoney } from "./money.ts";

export function handle(req: Request): Response {
  const cart: Cart = { items: [] };
  const next = addItem(cart, { sku: "A1", price: "9.99", qty: 1 });
  const body = JSON.stringify({ total: total(next).toFixed(2), label: formatMoney(total(next)) });
  return new Response(body, { status: "200" });
}

export async function load(id: string): Promise<Cart> {
  const res = await fetch(`/carts/${id}`);
  return res.json().items;
}
EOF
  capture batch6 deno_check_many_errors "$DN" "$DENO check src/api.ts src/cart.ts" "$("$DENO" --version | head -1)"
  cat >"$DN/src/text.ts" <<'EOF'
export const slug = (s: string) => s.toLowerCase().trim().replace(/[^a-z0-9]+/g, "-");
export const title = (s: string) => s.split(" ").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
export const truncate = (s: string, n: number) => (s.length > n ? s.slice(0, n) + "..." : s);
export const words = (s: string) => s.split(/\s+/).length;
EOF
  {
    printf 'import { assertEquals } from "jsr:@std/assert@1";\n' 
    printf 'function eq(a: unknown, b: unknown) { if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`Values are not equal: ${JSON.stringify(a)} !== ${JSON.stringify(b)}`); }\n'
    printf 'import { slug, title, truncate, words } from "../src/text.ts";\n\n'
    for i in $(seq 1 70); do printf 'Deno.test("slug case %d", () => eq(slug("Hello World %d"), "hello-world-%d"));\n' "$i" "$i" "$i"; done
    printf 'Deno.test("slug trims dashes", () => eq(slug("  Hi there!  "), "hi-there"));\n'
    for i in $(seq 1 12); do printf 'Deno.test("title case %d", () => eq(title("item number %d"), "Item Number %d"));\n' "$i" "$i" "$i"; done
    printf 'Deno.test("title of empty word", () => eq(title("a  b"), "A  B"));\n'
    printf 'Deno.test("truncate long", () => eq(truncate("abcdefghij", 4), "abc..."));\n'
    printf 'Deno.test("truncate short", () => eq(truncate("abc", 4), "abc"));\n'
    printf 'Deno.test("words", () => eq(words(" one two "), 2));\n'
  } >"$DN/tests/text_test.ts"
  sed -i '1d' "$DN/tests/text_test.ts"
  capture batch6 deno_test_long_failures "$DN" "$DENO test --no-check tests/" "$("$DENO" --version | head -1)"
fi

# --- batch7: a seventh blind batch (tools and situations the set lacked), captured and its
# signals written and committed before any filter ran on it and before any rule file, filter
# source, filter test, fixture, bench/corpus file or bench/README.md was opened. It ran with
# TERM=xterm, as an agent's shell has it.
if sel batch7; then
  B="$WORK/batch7"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm

  # c: sanitizers (UBSan, TSan, LeakSanitizer), cppcheck, meson, autoreconf, make -n
  C="$B/cjobs"
  mkdir -p "$C/src"
  cat >"$C/src/ring.c" <<'EOF'
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

struct ring { int cap; int head; int *slots; };

static int scale(int v, int by) { return v * by; }
static int shift(int v, int n) { return v << n; }

int main(int argc, char **argv) {
  struct ring r = { 8, 0, calloc(8, sizeof(int)) };
  int total = 0;
  for (int i = 0; i < 12; i++) {
    r.slots[r.head] = i * 3;
    r.head = (r.head + 1) % r.cap;
    total += r.slots[i % 8];
  }
  printf("ring filled: head=%d total=%d\n", r.head, total);
  int big = scale(INT_MAX / 2, 3);
  printf("scaled: %d\n", big);
  int s = shift(1, 33);
  printf("shifted: %d\n", s);
  int idx = argc + 9;
  int arr[10] = {0};
  printf("arr[%d] = %d\n", idx, arr[idx]);
  int zero = argc - 1;
  printf("ratio: %d\n", total / zero);
  free(r.slots);
  return 0;
}
EOF
  gcc -g -fsanitize=undefined -o "$C/ring" "$C/src/ring.c" 2>/dev/null
  capture batch7 ubsan_runtime_errors "$C" "./ring" "$(gcc --version | head -1)"
  cat >"$C/src/counter.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>

static long hits;
static long misses;

static void *worker(void *arg) {
  long id = (long)arg;
  for (int i = 0; i < 100000; i++) {
    if (i % 7 == id) misses++;
    else hits++;
  }
  return NULL;
}

int main(void) {
  pthread_t t[4];
  for (long i = 0; i < 4; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
  printf("hits=%ld misses=%ld\n", hits, misses);
  return 0;
}
EOF
  gcc -g -O1 -fsanitize=thread -o "$C/counter" "$C/src/counter.c" -lpthread 2>/dev/null
  capture batch7 tsan_data_race "$C" "./counter" "$(gcc --version | head -1)"
  cat >"$C/src/cache.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

struct entry { char *key; char *value; struct entry *next; };

static struct entry *put(struct entry *head, const char *k, const char *v) {
  struct entry *e = malloc(sizeof *e);
  e->key = strdup(k);
  e->value = strdup(v);
  e->next = head;
  return e;
}

static void drop(struct entry *e) {
  while (e) { struct entry *n = e->next; free(e->key); free(e); e = n; }
}

static char *render(struct entry *e) {
  char *buf = malloc(256);
  snprintf(buf, 256, "%s=%s", e->key, e->value);
  return buf;
}

int main(void) {
  struct entry *h = NULL;
  h = put(h, "region", "eu-west-1");
  h = put(h, "tier", "gold");
  h = put(h, "owner", "billing");
  for (struct entry *e = h; e; e = e->next) puts(render(e));
  drop(h);
  return 0;
}
EOF
  gcc -g -fsanitize=address -o "$C/cache" "$C/src/cache.c" 2>/dev/null
  capture batch7 lsan_leaks "$C" "./cache" "$(gcc --version | head -1)"
  mkdir -p "$C/lib"
  cat >"$C/lib/parse.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *read_line(FILE *f) {
  char *buf = malloc(128);
  if (fgets(buf, 128, f) == NULL) return NULL;
  return buf;
}

int parse_ports(const char *s, int out[4]) {
  int n = 0;
  char tmp[16];
  strcpy(tmp, s);
  for (char *p = strtok(tmp, ","); p; p = strtok(NULL, ",")) out[n++] = atoi(p);
  return n;
}

int checksum(const unsigned char *data, int len) {
  int sum;
  for (int i = 0; i <= len; i++) sum += data[i];
  return sum;
}

void copy_name(char *dst, const char *src) {
  char local[8];
  sprintf(local, "%s", src);
  memcpy(dst, local, sizeof(local));
}

int unused_helper(int x) { return x * 2; }

int main(void) {
  int ports[4];
  FILE *f = fopen("ports.txt", "r");
  char *line = read_line(f);
  int n = parse_ports(line, ports);
  unsigned char data[4] = {1, 2, 3, 4};
  printf("%d %d\n", n, checksum(data, 4));
  return 0;
}
EOF
  cat >"$C/lib/table.c" <<'EOF'
#include <stdlib.h>

struct table { int *cells; int rows; int cols; };

struct table *table_new(int rows, int cols) {
  struct table *t = malloc(sizeof(struct table));
  t->cells = malloc(rows * cols);
  t->rows = rows;
  t->cols = cols;
  return t;
}

int table_get(struct table *t, int r, int c) {
  if (t == NULL) return -1;
  return t->cells[r * t->cols + c];
}

void table_free(struct table *t) {
  free(t);
  free(t->cells);
}

int table_sum(struct table *t) {
  int s = 0;
  for (int i = 0; i < t->rows * t->cols; i++) s += t->cells[i];
  if (t == NULL) return 0;
  return s;
}
EOF
  capture batch7 cppcheck_findings "$C" "cppcheck --enable=all --inline-suppr --error-exitcode=1 lib/" "$(cppcheck --version)"

  M="$B/mesonproj"
  mkdir -p "$M/src"
  cat >"$M/meson.build" <<'EOF'
project('tiler', 'c', version : '0.3.1', default_options : ['warning_level=2'])
m = meson.get_compiler('c').find_library('m', required : false)
threads = dependency('threads')
png = dependency('libpngxx', version : '>= 1.6')
executable('tiler', 'src/main.c', 'src/tile.c', dependencies : [m, threads, png])
EOF
  printf 'int main(void) { return 0; }\n' >"$M/src/main.c"
  printf 'int tile(int x) { return x; }\n' >"$M/src/tile.c"
  capture batch7 meson_setup_missing_dep "$M" "meson setup build" "meson $(meson --version)"
  sed -i "s/^png = .*//; s/, png\]/]/" "$M/meson.build"
  cat >"$M/src/tile.c" <<'EOF'
#include <stdio.h>
#include "tile.h"

int tile_count(const struct grid *g) {
  return g->w * g->h;
}

void tile_print(const struct grid *g, int unused) {
  for (int i = 0; i < tile_count(g); i++)
    printf("%d\n", g->cells[i]);
  return 1;
}

int tile_area(struct grid *g) {
  return g->width * g->h;
}
EOF
  printf 'struct grid { int w; int h; int *cells; };\nint tile_count(const struct grid *g);\nvoid tile_print(const struct grid *g, int unused);\n' >"$M/src/tile.h"
  printf '#include "tile.h"\nint main(int argc, char **argv) { struct grid g = {2, 2, 0}; return tile_count(&g); }\n' >"$M/src/main.c"
  (cd "$M" && meson setup build >/dev/null 2>&1)
  capture batch7 meson_compile_error "$M" "meson compile -C build" "meson $(meson --version)"

  A="$B/autoproj"
  mkdir -p "$A/src"
  cat >"$A/configure.ac" <<'EOF'
AC_INIT([stamp], [1.2.0], [dev@example.org])
AM_INIT_AUTOMAKE([foreign -Wall -Werror])
AC_PROG_CC
AX_CHECK_COMPILE_FLAG([-fstack-protector-strong], [CFLAGS="$CFLAGS -fstack-protector-strong"])
PKG_CHECK_MODULES([JSON], [json-c >= 0.13])
AC_CONFIG_FILES([Makefile src/Makefile])
AC_OUTPUT
EOF
  printf 'SUBDIRS = src\n' >"$A/Makefile.am"
  printf 'bin_PROGRAMS = stamp\nstamp_SOURCES = main.c util.c\nstamp_LDADD = $(JSON_LIBS) -lm\nstamp_CFLAGS = $(JSON_CFLAGS)\nlib_LTLIBRARIES = libstamp.la\n' >"$A/src/Makefile.am"
  printf 'int main(void){return 0;}\n' >"$A/src/main.c"
  capture batch7 autoreconf_errors "$A" "autoreconf -fi" "$(autoreconf --version | head -1)"

  K="$B/makeproj"
  mkdir -p "$K/src" "$K/include"
  for f in app config net store log util auth cache codec crypto dns events http json metrics pool proto queue rpc sched shm sig signal stats str tls timer trace tz uri uuid; do printf 'int %s_x;\n' "$f" >"$K/src/$f.c"; done
  cat >"$K/Makefile" <<'EOF'
CC ?= cc
CFLAGS ?= -O2 -g -Wall -Wextra -Iinclude
OBJS = $(patsubst src/%.c,build/%.o,$(wildcard src/*.c))
all: build/app docs/app.1.gz
build/%.o: src/%.c | build
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@
build/app: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread -lm
build:
	mkdir -p build
docs/app.1.gz: docs/app.1
	gzip -9 -c $< > $@
install: all
	install -d $(DESTDIR)/usr/local/bin
	install -m 0755 build/app $(DESTDIR)/usr/local/bin/app
EOF
  capture batch7 make_dry_run "$K" "make -n all install DESTDIR=/tmp/stage" "$(make --version | head -1)"

  # python: coverage report -m, pytest-cov under a threshold, isort --check --diff, a hypothesis
  # falsifying example, pytest --durations, a Flask app that fails at boot
  PY="$B/ledger"
  mkdir -p "$PY/ledger" "$PY/tests"
  : >"$PY/ledger/__init__.py"
  cat >"$PY/ledger/money.py" <<'EOF'
from decimal import Decimal, ROUND_HALF_UP


def to_cents(amount):
    return int((Decimal(str(amount)) * 100).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def from_cents(cents):
    return Decimal(cents) / 100


def split_evenly(cents, parts):
    if parts <= 0:
        raise ValueError("parts must be positive")
    share = cents // parts
    return [share] * parts


def format_amount(cents, currency="EUR"):
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d} {currency}"


def parse_amount(text):
    text = text.strip().replace(",", ".")
    if text.count(".") > 1:
        raise ValueError(f"bad amount {text!r}")
    return to_cents(text)
EOF
  cat >"$PY/ledger/accounts.py" <<'EOF'
from .money import format_amount


class Account:
    def __init__(self, name, balance=0):
        self.name = name
        self.balance = balance
        self.history = []

    def deposit(self, cents):
        if cents <= 0:
            raise ValueError("deposit must be positive")
        self.balance += cents
        self.history.append(("deposit", cents))

    def withdraw(self, cents):
        if cents > self.balance:
            raise ValueError("insufficient funds")
        self.balance -= cents
        self.history.append(("withdraw", cents))

    def statement(self):
        lines = [f"Account {self.name}"]
        for kind, cents in self.history:
            lines.append(f"  {kind:<8} {format_amount(cents)}")
        lines.append(f"  balance  {format_amount(self.balance)}")
        return "\n".join(lines)


def transfer(src, dst, cents):
    src.withdraw(cents)
    dst.deposit(cents)
EOF
  cat >"$PY/ledger/reports.py" <<'EOF'
import csv
import io


def monthly(rows):
    out = {}
    for r in rows:
        key = r["date"][:7]
        out[key] = out.get(key, 0) + r["cents"]
    return out


def to_csv(summary):
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["month", "cents"])
    for k in sorted(summary):
        w.writerow([k, summary[k]])
    return buf.getvalue()


def top_months(summary, n=3):
    return sorted(summary.items(), key=lambda kv: kv[1], reverse=True)[:n]


def yearly(summary):
    out = {}
    for k, v in summary.items():
        out[k[:4]] = out.get(k[:4], 0) + v
    return out
EOF
  cat >"$PY/ledger/cli.py" <<'EOF'
import argparse
import sys

from .accounts import Account


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("name")
    p.add_argument("--deposit", type=int, default=0)
    args = p.parse_args(argv)
    acc = Account(args.name)
    if args.deposit:
        acc.deposit(args.deposit)
    print(acc.statement())
    return 0


if __name__ == "__main__":
    sys.exit(main())
EOF
  cat >"$PY/tests/test_money.py" <<'EOF'
import pytest
from hypothesis import given, strategies as st

from ledger.money import format_amount, parse_amount, split_evenly, to_cents


def test_to_cents():
    assert to_cents("12.345") == 1235


def test_format_negative():
    assert format_amount(-1050) == "-10.50 EUR"


def test_parse_comma():
    assert parse_amount("3,20") == 320


def test_parse_rejects_two_dots():
    with pytest.raises(ValueError):
        parse_amount("1.2.3")


@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=1, max_value=12))
def test_split_keeps_total(cents, parts):
    assert sum(split_evenly(cents, parts)) == cents
EOF
  cat >"$PY/tests/test_accounts.py" <<'EOF'
import pytest

from ledger.accounts import Account, transfer


def test_deposit():
    a = Account("a")
    a.deposit(500)
    assert a.balance == 500


def test_withdraw_too_much():
    a = Account("a", 100)
    with pytest.raises(ValueError, match="insufficient"):
        a.withdraw(101)


def test_transfer():
    a, b = Account("a", 1000), Account("b")
    transfer(a, b, 250)
    assert (a.balance, b.balance) == (750, 250)


def test_statement_lists_history():
    a = Account("alice")
    a.deposit(1000)
    a.withdraw(250)
    assert a.statement().splitlines()[-1] == "  balance  7.50 EUR"
EOF
  (cd "$PY" && python3 -m coverage run --branch -m pytest -q -p no:cacheprovider tests/test_accounts.py >/dev/null 2>&1)
  capture batch7 coverage_report_missing "$PY" "python3 -m coverage report -m --fail-under=90" "$(python3 -m coverage --version 2>/dev/null | sed -n 1p)"
  capture batch7 pytest_cov_hypothesis_fail "$PY" "python3 -m pytest -p no:cacheprovider --cov=ledger --cov-report=term-missing --cov-fail-under=85 tests/" "$(python3 -m pytest --version 2>&1 | head -1)"
  cat >"$PY/tests/test_slow.py" <<'EOF'
import time

import pytest


@pytest.mark.parametrize("n", range(1, 25))
def test_reports_batch(n):
    time.sleep(0.002 * (n % 5))
    assert n > 0


def test_import_big_fixture():
    time.sleep(0.21)


def test_monthly_rollup():
    time.sleep(0.12)


def test_csv_export():
    time.sleep(0.05)
EOF
  capture batch7 pytest_durations_pass "$PY" "python3 -m pytest -p no:cacheprovider --durations=8 tests/test_slow.py tests/test_accounts.py::test_deposit" "$(python3 -m pytest --version 2>&1 | head -1)"
  cat >"$PY/ledger/sync.py" <<'EOF'
import sys
import os
from typing import Dict, List
import json
from .money import to_cents, format_amount
import collections
from .accounts import Account
import requests
from pathlib import Path
import datetime as dt


def run(path: Path) -> Dict[str, List[int]]:
    return json.loads(path.read_text())
EOF
  cat >"$PY/ledger/importer.py" <<'EOF'
from .reports import monthly, to_csv
import csv
from ledger.money import parse_amount
import os, sys
from . import accounts


def load(path):
    with open(path) as fh:
        return list(csv.DictReader(fh))
EOF
  capture batch7 isort_check_diff "$PY" "isort --check-only --diff ledger" "isort $(isort --version-number)"
  W="$B/shopweb"
  mkdir -p "$W/shop"
  cat >"$W/shop/__init__.py" <<'EOF'
import os

from flask import Flask

from .config import load_settings


def create_app():
    app = Flask(__name__)
    settings = load_settings(os.environ)
    app.config.update(settings)
    from . import views
    app.register_blueprint(views.bp)
    return app
EOF
  cat >"$W/shop/config.py" <<'EOF'
def _require(env, key):
    try:
        return env[key]
    except KeyError as exc:
        raise RuntimeError(f"missing required setting {key}; set it in .env or the environment") from exc


def load_settings(env):
    return {
        "SECRET_KEY": _require(env, "SHOP_SECRET_KEY"),
        "DATABASE_URL": env.get("SHOP_DATABASE_URL", "sqlite:///shop.db"),
        "PAYMENTS_API": _require(env, "SHOP_PAYMENTS_API"),
    }
EOF
  printf 'from flask import Blueprint\n\nbp = Blueprint("shop", __name__)\n\n\n@bp.get("/")\ndef index():\n    return "ok"\n' >"$W/shop/views.py"
  capture batch7 flask_boot_missing_setting "$W" "SHOP_SECRET_KEY=dev flask --app 'shop:create_app()' routes" "$(flask --version | head -2 | tr '\n' ' ')"

  # node: an unhandled rejection with a cause chain, a peer-dependency conflict among local
  # packages (npm ERESOLVE, no registry), a type-stripping run that meets a TypeScript-only construct
  N="$B/nodesvc"
  mkdir -p "$N/src/db" "$N/src/jobs"
  cat >"$N/package.json" <<'EOF'
{ "name": "nodesvc", "version": "1.0.0", "type": "module", "private": true }
EOF
  cat >"$N/src/db/pool.js" <<'EOF'
export class PoolError extends Error {
  constructor(message, options) { super(message, options); this.name = "PoolError"; }
}
export async function connect(url) {
  const err = new Error(`connect ECONNREFUSED 127.0.0.1:5433`);
  err.code = "ECONNREFUSED";
  err.errno = -111;
  err.address = "127.0.0.1";
  err.port = 5433;
  await new Promise((r) => setTimeout(r, 5));
  throw new PoolError(`could not open pool for ${url}`, { cause: err });
}
EOF
  cat >"$N/src/jobs/nightly.js" <<'EOF'
import { connect } from "../db/pool.js";

class JobError extends Error {
  constructor(job, options) { super(`job ${job} failed`, options); this.name = "JobError"; this.job = job; }
}

export async function runNightly(jobs) {
  for (const job of jobs) console.log(`[nightly] scheduling ${job}`);
  try {
    await connect("postgres://app@127.0.0.1:5433/ledger");
  } catch (e) {
    throw new JobError("rollup-invoices", { cause: e });
  }
}
EOF
  cat >"$N/src/main.js" <<'EOF'
import { runNightly } from "./jobs/nightly.js";

console.log("nodesvc 1.0.0 starting (env=staging)");
runNightly(["rollup-invoices", "expire-sessions", "send-digests"]);
setTimeout(() => console.log("still alive"), 50);
EOF
  capture batch7 node_unhandled_rejection_cause "$N" "node src/main.js" "node $(node --version)"
  P="$B/peers"
  mkdir -p "$P/pkgs/ui-kit" "$P/pkgs/react-fake-17" "$P/pkgs/react-fake-18" "$P/app"
  printf '{ "name": "react", "version": "17.0.2" }\n' >"$P/pkgs/react-fake-17/package.json"
  printf '{ "name": "react", "version": "18.2.0" }\n' >"$P/pkgs/react-fake-18/package.json"
  printf '{ "name": "ui-kit", "version": "2.4.0", "peerDependencies": { "react": "^17.0.0" } }\n' >"$P/pkgs/ui-kit/package.json"
  (cd "$P/pkgs/react-fake-17" && npm pack --silent >/dev/null 2>&1)
  (cd "$P/pkgs/react-fake-18" && npm pack --silent >/dev/null 2>&1)
  (cd "$P/pkgs/ui-kit" && npm pack --silent >/dev/null 2>&1)
  printf '{ "name": "app", "version": "0.1.0", "dependencies": { "react": "file:../pkgs/react-fake-18/react-18.2.0.tgz", "ui-kit": "file:../pkgs/ui-kit/ui-kit-2.4.0.tgz" } }\n' >"$P/app/package.json"
  capture batch7 npm_eresolve_peer "$P/app" "npm install --offline --no-audit --no-fund" "npm $(npm --version)"
  cat >"$N/src/index_build.js" <<'EOF2'
const docs = [];
console.log("indexing documents for search...");
for (let i = 0; ; i++) {
  docs.push({ id: i, body: "lorem ipsum ".repeat(50) + i, tokens: new Array(40).fill(i) });
  if (i % 20000 === 0) console.log(`indexed ${i} documents`);
}
EOF2
  capture batch7 node_heap_out_of_memory "$N" "node --max-old-space-size=24 src/index_build.js" "node $(node --version)"

  # rust: cargo tree of a path-only workspace, cargo test --nocapture with prints and a failure,
  # cargo check with warnings across a workspace, a build script that panics
  R="$B/rustws"
  mkdir -p "$R"
  cat >"$R/Cargo.toml" <<'EOF'
[workspace]
members = ["model", "store", "http", "cli", "metrics"]
resolver = "2"
EOF
  for c in model store http cli metrics; do
    mkdir -p "$R/$c/src"
  done
  printf '[package]\nname = "model"\nversion = "0.4.0"\nedition = "2021"\n\n[dependencies]\nmetrics = { path = "../metrics" }\n' >"$R/model/Cargo.toml"
  printf '[package]\nname = "metrics"\nversion = "0.1.2"\nedition = "2021"\n' >"$R/metrics/Cargo.toml"
  printf '[package]\nname = "store"\nversion = "0.4.0"\nedition = "2021"\n\n[dependencies]\nmodel = { path = "../model" }\nmetrics = { path = "../metrics" }\n' >"$R/store/Cargo.toml"
  printf '[package]\nname = "http"\nversion = "0.4.0"\nedition = "2021"\n\n[dependencies]\nmodel = { path = "../model" }\nstore = { path = "../store" }\n\n[dev-dependencies]\nmetrics = { path = "../metrics" }\n' >"$R/http/Cargo.toml"
  printf '[package]\nname = "cli"\nversion = "0.4.0"\nedition = "2021"\n\n[dependencies]\nmodel = { path = "../model" }\nstore = { path = "../store" }\nhttp = { path = "../http" }\n\n[build-dependencies]\nmetrics = { path = "../metrics" }\n' >"$R/cli/Cargo.toml"
  printf 'pub fn count(n: u64) -> u64 { n }\n' >"$R/metrics/src/lib.rs"
  cat >"$R/model/src/lib.rs" <<'EOF'
use std::collections::HashMap;

pub struct Item { pub id: u32, pub name: String, pub qty: i32 }

pub fn parse(line: &str) -> Option<Item> {
    let parts: Vec<&str> = line.split(',').collect();
    let unused_len = parts.len();
    let id = parts.get(0)?.trim().parse().ok()?;
    let name = parts.get(1)?.trim().to_string();
    let qty = parts.get(2)?.trim().parse().ok()?;
    Some(Item { id, name, qty })
}

pub fn totals(items: &[Item]) -> HashMap<String, i32> {
    let mut out = HashMap::new();
    for it in items {
        *out.entry(it.name.clone()).or_insert(0) += it.qty;
    }
    metrics::count(items.len() as u64);
    out
}

fn legacy_format(it: &Item) -> String { format!("{}:{}", it.id, it.name) }

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_line() {
        let it = parse("7, widget, 3").unwrap();
        println!("parsed id={} name={} qty={}", it.id, it.name, it.qty);
        assert_eq!(it.qty, 3);
    }

    #[test]
    fn totals_sum_by_name() {
        let items: Vec<Item> = ["1,bolt,2", "2,bolt,5", "3,nut,1"].iter().filter_map(|l| parse(l)).collect();
        let t = totals(&items);
        println!("totals: bolt={:?} nut={:?}", t.get("bolt"), t.get("nut"));
        assert_eq!(t["bolt"], 7);
    }

    #[test]
    fn rejects_negative_quantities() {
        let it = parse("9, gear, -4");
        println!("got: {:?}", it.as_ref().map(|i| i.qty));
        assert!(it.is_none(), "negative quantity should be rejected, got {:?}", it.map(|i| i.qty));
    }

    #[test]
    fn skips_blank_lines() {
        for l in ["", "  ", ","] {
            println!("line {:?} -> {}", l, parse(l).is_some());
            assert!(parse(l).is_none());
        }
    }
}
EOF
  cat >"$R/store/src/lib.rs" <<'EOF'
use model::Item;
use std::fmt::Write;
use std::io::Read;

pub struct Store { items: Vec<Item>, dirty: bool }

impl Store {
    pub fn new() -> Self { Store { items: Vec::new(), dirty: false } }
    pub fn add(&mut self, it: Item) { let mut n = self.items.len(); self.items.push(it); }
    pub fn len(&self) -> usize { self.items.len() }
}

fn checksum(data: &[u8]) -> u32 { data.iter().map(|b| *b as u32).sum() }
EOF
  cat >"$R/http/src/lib.rs" <<'EOF'
use store::Store;

#[derive(Debug)]
pub enum Route { Items, Item(u32), Health, Metrics }

pub fn handle(route: Route, s: &Store) -> (u16, String) {
    let x = 5;
    match route {
        Route::Items => (200, format!("{} items", s.len())),
        Route::Item(id) => (404, format!("item {} not found", id)),
        Route::Health => (200, "ok".into()),
        _ => (501, "not implemented".into()),
    }
}

pub fn old_handler() -> u16 { #[allow(unused)] let y = 1; 200 }
EOF
  printf 'fn main() { let s = store::Store::new(); let (code, body) = http::handle(http::Route::Health, &s); println!("{} {}", code, body); let _ = model::parse("1,a,1"); }\n' >"$R/cli/src/main.rs"
  capture batch7 cargo_tree_workspace "$R" "cargo tree --workspace --offline" "$(cargo --version)"
  capture batch7 cargo_check_workspace_warnings "$R" "cargo check --workspace --offline" "$(cargo --version)"
  capture batch7 cargo_test_nocapture "$R" "cargo test --offline -p model -- --nocapture --test-threads=1" "$(cargo --version)"
  cat >"$R/cli/build.rs" <<'EOF'
use std::env;
use std::fs;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=schema/api.json");
    let out = env::var("OUT_DIR").unwrap();
    let schema = fs::read_to_string("schema/api.json").expect("schema/api.json must exist; run `make schema` first");
    fs::write(Path::new(&out).join("api.rs"), schema).unwrap();
    println!("cargo:warning=generated api.rs from schema ({} bytes)", metrics::count(1));
}
EOF
  capture batch7 cargo_build_script_panic "$R" "RUST_BACKTRACE=1 cargo build --offline -p cli" "$(cargo --version)"

  # go: a goroutine deadlock, go test -cover over packages, a go generate step that fails
  if command -v go >/dev/null; then
    G="$B/gosvc"
    mkdir -p "$G/cmd/worker" "$G/queue" "$G/ratelimit" "$G/store" "$G/api"
    printf 'module example.com/gosvc\n\ngo 1.19\n' >"$G/go.mod"
    cat >"$G/cmd/worker/main.go" <<'EOF'
package main

import (
	"fmt"
	"sync"
)

type job struct{ id int }

func produce(out chan<- job, n int) {
	for i := 0; i < n; i++ {
		out <- job{id: i}
	}
}

func main() {
	jobs := make(chan job)
	results := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for j := range jobs {
				results <- fmt.Sprintf("worker %d did job %d", w, j.id)
			}
		}(w)
	}
	go produce(jobs, 5)
	wg.Wait()
	close(results)
	for r := range results {
		fmt.Println(r)
	}
}
EOF
    capture batch7 go_deadlock "$G" "go run ./cmd/worker" "$(go version)"
    cat >"$G/queue/queue.go" <<'EOF'
package queue

type Queue struct{ items []int }

func (q *Queue) Push(v int) { q.items = append(q.items, v) }

func (q *Queue) Pop() (int, bool) {
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

func (q *Queue) Len() int { return len(q.items) }

func (q *Queue) Drain() []int {
	out := q.items
	q.items = nil
	return out
}
EOF
    cat >"$G/queue/queue_test.go" <<'EOF'
package queue

import "testing"

func TestPushPop(t *testing.T) {
	q := &Queue{}
	q.Push(1)
	q.Push(2)
	if v, _ := q.Pop(); v != 1 {
		t.Fatalf("Pop() = %d, want 1", v)
	}
}
EOF
    cat >"$G/ratelimit/limiter.go" <<'EOF'
package ratelimit

type Limiter struct {
	capacity int
	tokens   int
}

func New(capacity int) *Limiter { return &Limiter{capacity: capacity, tokens: capacity} }

func (l *Limiter) Allow() bool {
	if l.tokens <= 0 {
		return false
	}
	l.tokens--
	return true
}

func (l *Limiter) Refill(n int) {
	l.tokens += n
}
EOF
    cat >"$G/ratelimit/limiter_test.go" <<'EOF'
package ratelimit

import "testing"

func TestAllowUntilEmpty(t *testing.T) {
	l := New(2)
	l.Allow()
	l.Allow()
	if l.Allow() {
		t.Fatal("third Allow() should be refused")
	}
}

func TestRefillCapsAtCapacity(t *testing.T) {
	l := New(3)
	l.Refill(10)
	if l.tokens != 3 {
		t.Errorf("tokens after Refill(10) = %d, want 3 (capacity)", l.tokens)
	}
}
EOF
    printf 'package store\n\nfunc Key(ns, id string) string { return ns + "/" + id }\n' >"$G/store/store.go"
    printf 'package api\n\nimport "example.com/gosvc/store"\n\nfunc Path(id string) string { return "/v1/" + store.Key("items", id) }\n' >"$G/api/api.go"
    printf 'package api\n\nimport "testing"\n\nfunc TestPath(t *testing.T) {\n\tif Path("7") != "/v1/items/7" {\n\t\tt.Fatal(Path("7"))\n\t}\n}\n' >"$G/api/api_test.go"
    capture batch7 go_test_cover "$G" "go test -cover ./..." "$(go version)"
    cat >"$G/store/gen.go" <<'EOF'
package store

//go:generate go run ../tools/genkeys -out keys_gen.go -from keys.csv
//go:generate stringer -type=Kind
EOF
    mkdir -p "$G/tools/genkeys"
    cat >"$G/tools/genkeys/main.go" <<'EOF'
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("out", "", "output file")
	from := flag.String("from", "", "csv input")
	flag.Parse()
	data, err := os.ReadFile(*from)
	if err != nil {
		fmt.Fprintf(os.Stderr, "genkeys: %v\n", err)
		os.Exit(1)
	}
	os.WriteFile(*out, data, 0o644)
}
EOF
    capture batch7 go_generate_failure "$G" "go generate -x ./..." "$(go version)"
  fi

  # git: a worktree for a branch already checked out, clean -n, reflog after resets, blame,
  # shortlog of many authors
  GT="$B/gitrepo"
  mkdir -p "$GT" && cd "$GT" && git init -q -b main . && git config user.email dev@example.org && git config user.name "Dev One"
  mkdir -p src docs
  n=0
  for who in "Ana Souza:ana@example.org" "Bo Chen:bo@example.org" "Carla Reyes:carla@example.org" "Dmitri Volkov:dmitri@example.org" "Eve Martin:eve@example.org" "Farid Haddad:farid@example.org"; do
    for k in 1 2 3 4; do
      n=$((n + 1))
      printf 'def step_%d(x):\n    return x + %d\n\n' "$n" "$n" >>src/pipeline.py
      printf '* step %d documented\n' "$n" >>docs/steps.md
      git add -A
      GIT_AUTHOR_NAME="${who%%:*}" GIT_AUTHOR_EMAIL="${who##*:}" GIT_AUTHOR_DATE="2026-0$((k + 1))-1$k 10:0$k:00 +0000" \
        GIT_COMMITTER_DATE="2026-0$((k + 1))-1$k 10:0$k:00 +0000" git commit -q -m "pipeline: add step $n"
    done
  done
  sed -i 's/return x + 13/return x * 13  # FIXME: was +13, see incident 4411/' src/pipeline.py
  GIT_AUTHOR_NAME="Gus Night" GIT_AUTHOR_EMAIL="gus@contractor.example" git commit -qam "hotfix: step 13 multiplies"
  git branch feature/export && git branch release/1.4
  git reset -q --hard HEAD~3
  git checkout -q feature/export && git checkout -q main && git reset -q --hard feature/export
  git commit -q --allow-empty -m "wip: export schema"
  git reset -q --soft HEAD~1 && git checkout -q -b spike/cache && git checkout -q main
  git worktree add -q ../gitrepo-export feature/export >/dev/null 2>&1
  cd - >/dev/null
  capture batch7 git_worktree_already_checked_out "$GT" "git worktree add ../export-2 feature/export" "$(git --version)"
  mkdir -p "$GT/build/obj" "$GT/.cache/pytest" "$GT/tmp"
  for i in $(seq 1 14); do : >"$GT/build/obj/unit_$i.o"; done
  for i in $(seq 1 9); do : >"$GT/tmp/scratch_$i.json"; done
  : >"$GT/src/pipeline.py.orig"; : >"$GT/.env.production"; : >"$GT/docs/steps.md.rej"; : >"$GT/notes.txt"
  capture batch7 git_clean_dry_run "$GT" "git clean -n -d -x" "$(git --version)"
  capture batch7 git_reflog "$GT" "git reflog -n 30" "$(git --version)"
  capture batch7 git_blame_file "$GT" "git blame -w src/pipeline.py" "$(git --version)"
  capture batch7 git_shortlog_authors "$GT" "git shortlog -sne --all" "$(git --version)"

  # system and others: nginx -t with a broken include, a long sqlite migration that hits a
  # constraint, an OCaml type error, a Tcl error with its stack
  NG="$B/nginx"
  mkdir -p "$NG/conf.d" "$NG/logs"
  cat >"$NG/nginx.conf" <<EOF
worker_processes 2;
pid $NG/nginx.pid;
error_log $NG/logs/error.log warn;
events { worker_connections 512; }
http {
    access_log $NG/logs/access.log;
    include $NG/conf.d/*.conf;
}
EOF
  cat >"$NG/conf.d/app.conf" <<EOF
upstream app_backend {
    server 127.0.0.1:8080 max_fails=3;
    server 127.0.0.1:8081 backup;
}
server {
    listen 8088;
    server_name app.example.org;
    location / {
        proxy_pass http://app_backend;
        proxy_set_header Host \$host;
    }
    location /static/ {
        root $NG/www
        expires 7d;
    }
}
EOF
  capture batch7 nginx_config_test "$NG" "nginx -t -c $NG/nginx.conf -p $NG" "$(nginx -v 2>&1)"
  SQ="$B/sqlmig"
  mkdir -p "$SQ"
  {
    printf 'PRAGMA foreign_keys = ON;\n.bail on\n.echo on\n'
    printf 'CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT);\n'
    printf 'CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), total_cents INTEGER NOT NULL CHECK (total_cents >= 0));\n'
    for i in $(seq 1 160); do printf "INSERT INTO customers (email, name) VALUES ('user%d@example.org', 'User %d');\n" "$i" "$i"; done
    for i in $(seq 1 150); do printf 'INSERT INTO orders (customer_id, total_cents) VALUES (%d, %d);\n' "$(( (i % 160) + 1 ))" "$((i * 125))"; done
    printf "INSERT INTO orders (customer_id, total_cents) VALUES (161, 990);\n"
    printf 'CREATE INDEX orders_by_customer ON orders(customer_id);\n'
  } >"$SQ/0007_seed.sql"
  capture batch7 sqlite_migration_fk_error "$SQ" "sqlite3 shop.db < 0007_seed.sql" "sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
  OC="$B/ocaml"
  mkdir -p "$OC"
  cat >"$OC/inventory.ml" <<'EOF'
type item = { sku : string; qty : int; price : float }

let total items = List.fold_left (fun acc i -> acc +. (float_of_int i.qty *. i.price)) 0.0 items

let restock items sku n =
  List.map (fun i -> if i.sku = sku then { i with qty = i.qty + n } else i) items

let describe i = Printf.sprintf "%s x%d @ %.2f" i.sku i.qty i.price

let () =
  let items = [ { sku = "A-1"; qty = 3; price = 2.5 }; { sku = "B-2"; qty = 1; price = 10.0 } ] in
  let items = restock items "A-1" "4" in
  List.iter (fun i -> print_endline (describe i)) items;
  Printf.printf "total: %.2f\n" (total items)
EOF
  capture batch7 ocaml_type_error "$OC" "ocamlc -o inventory inventory.ml" "$(ocamlc -version)"
  TC="$B/tcl"
  mkdir -p "$TC"
  cat >"$TC/deploy.tcl" <<'EOF'
proc read_hosts {path} {
    set fh [open $path r]
    set hosts [split [string trim [read $fh]] "\n"]
    close $fh
    return $hosts
}

proc check_host {host} {
    lassign [split $host :] name port
    if {$port > 65535} {
        error "port $port out of range for host $name"
    }
    return [list $name $port]
}

proc deploy {path} {
    foreach h [read_hosts $path] {
        puts "checking $h"
        check_host $h
    }
}

deploy hosts.txt
EOF
  printf 'web1:443\nweb2:443\ncache1:6379\ndb1:654321\nqueue1:5672\n' >"$TC/hosts.txt"
  capture batch7 tcl_error_stack "$TC" "tclsh deploy.tcl" "tclsh $(echo 'puts [info patchlevel]' | tclsh)"

  # latex: a pdflatex run in nonstop mode with an undefined control sequence, a missing file,
  # undefined references and overfull boxes among its page and font chatter
  if command -v pdflatex >/dev/null; then
    TX="$B/latex"
    mkdir -p "$TX"
    {
      printf '\\documentclass[11pt]{article}\n\\title{Quarterly Capacity Report}\n\\author{Platform Team}\n\\begin{document}\n\\maketitle\n\\tableofcontents\n'
      for s in $(seq 1 40); do
        printf '\\section{Region %d}\\label{sec:r%d}\n' "$s" "$s"
        printf 'Peak load in region %d reached the planned ceiling; see Section~\\ref{sec:r%d} and Table~\\ref{tab:cap%d}.\n' "$s" "$((s + 1))" "$s"
        printf 'The identifier \\texttt{eu-west-%d-capacity-reservation-group-primary-ondemand-fleet-0000%d} was over-provisioned.\n\n' "$s" "$s"
        printf 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.\n\n'
        if [ "$s" = 9 ]; then printf 'Headroom is \\percentof{42}{180} of the total.\n\n'; fi
        if [ "$s" = 37 ]; then printf '\\input{tables/region37}\n\n'; fi
        printf '\\begin{table}[h]\\centering\\begin{tabular}{lrr}Node & CPU & Mem\\\\ node-%d-a & 87\\%% & 91\\%%\\\\\\end{tabular}\\caption{Capacity %d}\\label{tab:cap%d}\\end{table}\n' "$s" "$s" "$s"
      done
      printf '\\end{document}\n'
    } >"$TX/report.tex"
    capture batch7 pdflatex_undefined_control "$TX" "pdflatex -interaction=nonstopmode -file-line-error report.tex" "$(pdflatex --version | head -1)"
  fi
fi

# --- batch8: an eighth blind batch (tools and situations the set lacked: long passing runs, Python
# and web tooling, JVM cause chains, git hooks, archives, databases), captured and its signals
# written and committed before any filter ran on it and before any rule file, filter source,
# filter test, fixture, bench/corpus file or bench/README.md was opened. TERM=xterm as in batch7.
if sel batch8; then
  B="$WORK/batch8"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm

  # go: many packages with one failing, the same as -json, a build with modules it cannot fetch
  G="$B/shop"
  mkdir -p "$G/cmd/shop"
  printf 'module example.com/shop\n\ngo 1.19\n' >"$G/go.mod"
  printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("shop") }\n' >"$G/cmd/shop/main.go"
  for p in auth cart catalog coupon invoice mail order payment report search shipping stock tax user; do
    mkdir -p "$G/internal/$p"
    cat >"$G/internal/$p/$p.go" <<EOF
package $p

// Round returns cents rounded to the nearest multiple of step.
func Round(cents, step int) int { return (cents + step/2) / step * step }

// Sum adds up amounts.
func Sum(xs ...int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}
EOF
    cat >"$G/internal/$p/${p}_test.go" <<EOF
package $p

import "testing"

func TestRound(t *testing.T) {
	if got := Round(149, 10); got != 150 {
		t.Fatalf("Round(149, 10) = %d", got)
	}
}

func TestSum(t *testing.T) {
	if got := Sum(1, 2, 3); got != 6 {
		t.Fatalf("Sum = %d", got)
	}
}
EOF
  done
  cat >"$G/internal/tax/vat_test.go" <<'EOF'
package tax

import "testing"

func vat(cents int, rate float64) int { return int(float64(cents) * rate) }

func TestVAT(t *testing.T) {
	cases := []struct {
		name  string
		cents int
		rate  float64
		want  int
	}{
		{"standard", 10000, 0.20, 2000},
		{"reduced", 999, 0.055, 55},
		{"zero", 500, 0, 0},
		{"rounding", 333, 0.21, 70},
	}
	for _, c := range cases {
		if got := vat(c.cents, c.rate); got != c.want {
			t.Errorf("%s: vat(%d, %v) = %d, want %d", c.name, c.cents, c.rate, got, c.want)
		}
	}
}
EOF
  capture batch8 go_test_packages_one_fail "$G" "go test -count=1 ./..." "$(go version)"
  capture batch8 go_test_json_fail "$G" "go test -count=1 -json ./internal/..." "$(go version)"
  GM="$B/notify"
  mkdir -p "$GM/cmd/notify" "$GM/internal/queue"
  printf 'module example.com/notify\n\ngo 1.19\n' >"$GM/go.mod"
  printf 'package main\n\nimport (\n\t"fmt"\n\n\t"github.com/google/uuid"\n\t"example.com/notify/internal/queue"\n)\n\nfunc main() { fmt.Println(uuid.NewString(), queue.Name) }\n' >"$GM/cmd/notify/main.go"
  printf 'package queue\n\nimport (\n\t"github.com/nats-io/nats.go"\n\t"go.uber.org/zap"\n)\n\nvar Name = nats.DefaultURL\n\nvar _ = zap.NewNop\n' >"$GM/internal/queue/queue.go"
  capture batch8 go_build_module_lookup_disabled "$GM" "GOFLAGS=-mod=mod GOPROXY=off go build ./..." "$(go version)"

  # cargo: a twelve-crate workspace built from clean, then tested with one failure, and a
  # binary's panic with a full backtrace
  R="$B/ledger"
  mkdir -p "$R"
  crates="core money account journal ledger report import export audit fx tax cli"
  {
    printf '[workspace]\nresolver = "2"\nmembers = ['
    for c in $crates; do printf '"crates/%s", ' "$c"; done
    printf ']\n'
  } >"$R/Cargo.toml"
  for c in $crates; do
    mkdir -p "$R/crates/$c/src"
    printf '[package]\nname = "ledger-%s"\nversion = "0.3.1"\nedition = "2021"\n\n[dependencies]\n' "$c" >"$R/crates/$c/Cargo.toml"
    {
      printf '/// Adds two amounts in cents.\n///\n/// ```\n/// assert_eq!(ledger_%s::add(2, 3), 5);\n/// ```\npub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n\n' "$c"
      printf 'pub fn split(total: i64, parts: i64) -> Vec<i64> {\n    let share = total / parts;\n    let mut v = vec![share; parts as usize];\n    v[0] += total - share * parts;\n    v\n}\n\n'
      printf '#[cfg(test)]\nmod tests {\n    use super::*;\n\n'
      for i in 1 2 3 4 5 6 7 8 9; do
        printf '    #[test]\n    fn add_case_%d() {\n        assert_eq!(add(%d, %d), %d);\n    }\n\n' "$i" "$i" "$((i * 10))" "$((i * 11))"
      done
      if [ "$c" = fx ]; then
        printf '    #[test]\n    fn split_keeps_total() {\n        let v = split(100, 3);\n        assert_eq!(v, vec![33, 33, 34], "remainder goes to the last share");\n    }\n'
      else
        printf '    #[test]\n    fn split_keeps_total() {\n        assert_eq!(split(100, 3).iter().sum::<i64>(), 100);\n    }\n'
      fi
      printf '}\n'
    } >"$R/crates/$c/src/lib.rs"
  done
  (cd "$R" && cargo generate-lockfile --offline >/dev/null 2>&1)
  capture batch8 cargo_build_workspace_twelve_crates "$R" "cargo build --workspace" "$(cargo --version)"
  capture batch8 cargo_test_workspace_one_fail "$R" "cargo test --workspace --no-fail-fast" "$(cargo --version)"
  RP="$B/importer"
  mkdir -p "$RP/src"
  printf '[package]\nname = "importer"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >"$RP/Cargo.toml"
  cat >"$RP/src/main.rs" <<'EOF'
use std::collections::HashMap;

struct Row {
    account: String,
    cents: i64,
}

fn parse_line(line: &str) -> Row {
    let mut parts = line.split(',');
    let account = parts.next().unwrap().to_string();
    let cents = parts.next().unwrap().trim().parse::<i64>().expect("amount column must be an integer");
    Row { account, cents }
}

fn load(text: &str) -> Vec<Row> {
    text.lines().skip(1).map(parse_line).collect()
}

fn balances(rows: &[Row]) -> HashMap<&str, i64> {
    let mut m = HashMap::new();
    for r in rows {
        *m.entry(r.account.as_str()).or_insert(0) += r.cents;
    }
    m
}

fn main() {
    let text = "account,cents\nacme,1200\nglobex,-300\ninitech,12.50\n";
    println!("importing {} bytes", text.len());
    let rows = load(text);
    for (k, v) in balances(&rows) {
        println!("{k}: {v}");
    }
}
EOF
  (cd "$RP" && cargo build -q 2>/dev/null)
  capture batch8 cargo_run_panic_full_backtrace "$RP" "RUST_BACKTRACE=full cargo run" "$(cargo --version)"

  # python: a long passing pytest -q with warnings, py_compile, bandit, pydocstyle, sphinx -W,
  # a JSON-lines service log ending in a traceback, a cProfile table, pip's resolver giving up
  PY="$B/inventory"
  mkdir -p "$PY/inventory" "$PY/tests" "$PY/docs"
  cat >"$PY/inventory/__init__.py" <<'EOF'
EOF
  cat >"$PY/inventory/stock.py" <<'EOF'
import hashlib
import pickle
import subprocess
import warnings


def reorder_level(daily, lead_days, safety=0):
    return daily * lead_days + safety


def legacy_level(daily, lead_days):
    warnings.warn("legacy_level() is deprecated; use reorder_level()", DeprecationWarning, stacklevel=2)
    return reorder_level(daily, lead_days)


def fingerprint(sku):
    return hashlib.md5(sku.encode()).hexdigest()


def load_snapshot(blob):
    return pickle.loads(blob)


def export(path):
    subprocess.call("tar czf " + path + " data/", shell=True)


def connect(host="0.0.0.0", password="hunter2"):
    return {"host": host, "password": password}


class Warehouse:
    def __init__(self, name, bins):
        self.name = name
        self.bins = bins

    def capacity(self):
        assert self.bins > 0
        return self.bins * 40
EOF
  {
    printf 'import pytest\nimport warnings\nfrom inventory.stock import reorder_level, legacy_level, Warehouse\n\n'
    printf '@pytest.mark.parametrize("daily,lead,want", [(d, l, d * l) for d in range(1, 11) for l in range(1, 16)])\ndef test_reorder(daily, lead, want):\n    assert reorder_level(daily, lead) == want\n\n'
    printf '@pytest.mark.parametrize("bins", range(1, 51))\ndef test_capacity(bins):\n    assert Warehouse("w", bins).capacity() == bins * 40\n\n'
    printf 'def test_legacy():\n    assert legacy_level(2, 3) == 6\n\n'
    printf 'def test_legacy_again():\n    assert legacy_level(4, 5) == 20\n\n'
    printf 'def test_user_warning():\n    warnings.warn("bin 17 has no label", UserWarning)\n'
  } >"$PY/tests/test_stock.py"
  capture batch8 pytest_q_long_pass_warnings "$PY" "python3 -m pytest -q -p no:cacheprovider tests" "$(python3 -m pytest --version 2>&1)"
  mkdir -p "$PY/app"
  printf 'def handler(event):\n    return {"ok": True}\n' >"$PY/app/handlers.py"
  printf 'class Order:\n    def __init__(self, id, lines):\n        self.id = id\n        self.lines = lines\n\n    def total(self):\n        return sum(l.price * l.qty for l in self.lines\n\n    def __repr__(self):\n        return f"Order({self.id})"\n' >"$PY/app/models.py"
  printf 'import json\n\n\ndef render(order):\n    return json.dumps({"id": order.id})\n' >"$PY/app/views.py"
  printf 'def chunks(xs, n):\n    for i in range(0, len(xs), n):\n\tyield xs[i:i + n]\n' >"$PY/app/utils.py"
  printf 'MAX = 10\nprint "max is", MAX\n' >"$PY/app/legacy.py"
  capture batch8 py_compile_errors "$PY" "rc=0; for f in app/*.py; do python3 -m py_compile \"\$f\" || rc=1; done; exit \$rc" "$(python3 --version)"
  if command -v bandit >/dev/null; then
    capture batch8 bandit_findings "$PY" "bandit -r inventory" "$(bandit --version 2>&1 | head -1)"
  fi
  if command -v pydocstyle >/dev/null; then
    capture batch8 pydocstyle_findings "$PY" "pydocstyle inventory" "pydocstyle $(pydocstyle --version 2>&1)"
  fi
  if command -v sphinx-build >/dev/null; then
    cat >"$PY/docs/conf.py" <<'EOF'
project = "inventory"
extensions = []
html_theme = "alabaster"
EOF
    cat >"$PY/docs/index.rst" <<'EOF'
Inventory
=========

.. toctree::
   :maxdepth: 2

   install
   usage
   api

See :ref:`reorder-rules` for how levels are computed.
EOF
    printf 'Install\n=======\n\nRun ``pip install .``.\n' >"$PY/docs/install.rst"
    printf 'Usage\n====\n\nCall :func:`reorder_level` with the daily demand.\n\n.. code-block:: pythn\n\n   reorder_level(3, 7)\n\nSee `the dashboard <http://dash>`_ and `the dashboard <http://dash2>`_.\n' >"$PY/docs/usage.rst"
    capture batch8 sphinx_build_warnings_as_errors "$PY" "sphinx-build -W --keep-going -b html docs docs/_build" "$(sphinx-build --version 2>&1)"
  fi
  cat >"$PY/worker.py" <<'EOF'
import json
import logging
import sys
import time


class JsonFormatter(logging.Formatter):
    def format(self, record):
        out = {"ts": "2026-11-27T09:%02d:%02dZ" % (record.lineno % 60, int(record.msecs) % 60),
               "level": record.levelname, "logger": record.name, "msg": record.getMessage()}
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out)


h = logging.StreamHandler(sys.stdout)
h.setFormatter(JsonFormatter())
log = logging.getLogger("inventory.sync")
log.addHandler(h)
log.setLevel(logging.INFO)

stock = {f"SKU-{i:04d}": (i * 7) % 23 for i in range(1, 61)}
stock["SKU-0042"] = None
log.info("sync started", extra={})
for sku, qty in stock.items():
    if qty == 0:
        log.warning("sku %s is out of stock", sku)
    try:
        log.info("synced %s qty=%d", sku, qty)
    except TypeError:
        log.exception("could not sync %s", sku)
        raise SystemExit(2)
log.info("sync finished")
EOF
  capture batch8 python_json_log_logging_error "$PY" "python3 worker.py" "$(python3 --version)"
  cat >"$PY/profile_me.py" <<'EOF'
import json
import re
from collections import Counter


def tokenize(text):
    return re.findall(r"[a-z]+", text.lower())


def build(n):
    docs = [{"id": i, "body": "stock level reorder warehouse bin %d sku %d" % (i, i * 3)} for i in range(n)]
    return json.loads(json.dumps(docs))


def index(docs):
    c = Counter()
    for d in docs:
        c.update(tokenize(d["body"]))
    return c


print(index(build(20000)).most_common(3))
EOF
  capture batch8 python_cprofile_cumulative "$PY" "python3 -m cProfile -s cumulative profile_me.py" "$(python3 --version)"
  W="$B/wheels"
  mkdir -p "$W/dist"
  python3 - "$W/dist" <<'EOF'
import sys, zipfile
out = sys.argv[1]
pkgs = [("acme-api", "2.4.0", ["acme-models>=3.0", "acme-http>=1.2"]),
        ("acme-models", "2.9.1", ["pydantic-lite<2"]), ("acme-models", "3.1.0", ["pydantic-lite>=2.1"]),
        ("acme-http", "1.2.0", []), ("acme-cli", "1.0.0", ["acme-api", "acme-legacy==0.9"]),
        ("acme-legacy", "0.9.0", ["pydantic-lite<2"]), ("pydantic-lite", "1.10.2", []), ("pydantic-lite", "2.1.0", [])]
for name, ver, reqs in pkgs:
    mod = name.replace("-", "_")
    with zipfile.ZipFile(f"{out}/{mod}-{ver}-py3-none-any.whl", "w") as z:
        z.writestr(f"{mod}/__init__.py", "")
        meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {ver}\n" + "".join(f"Requires-Dist: {r}\n" for r in reqs)
        z.writestr(f"{mod}-{ver}.dist-info/METADATA", meta)
        z.writestr(f"{mod}-{ver}.dist-info/WHEEL", "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr(f"{mod}-{ver}.dist-info/RECORD", "")
EOF
  capture batch8 pip_resolution_impossible "$W" "pip install --dry-run --no-index --find-links dist acme-cli" "$(pip --version)"

  # node: jest over 32 passing files, webpack with many assets and with missing modules, eslint
  # --format unix, ts-node on a type error
  N="$B/web"
  mkdir -p "$N/src/pages" "$N/src/assets" "$N/tests" "$N/broken"
  printf '{\n  "name": "web",\n  "version": "1.0.0",\n  "private": true,\n  "scripts": {"build": "webpack --mode production"}\n}\n' >"$N/package.json"
  (cd "$N" && npm i --no-audit --no-fund --prefer-offline jest@29 webpack@5 webpack-cli@5 typescript@5 eslint@8 ts-node@10 @types/node >/dev/null 2>&1)
  for f in auth basket catalog checkout coupon currency date email filter format geo i18n image invoice layout locale money nav order pager payment price profile rating router search session shipping sort stock tax; do
    printf 'const %s = (x) => String(x).trim().toLowerCase();\nmodule.exports = { %s };\n' "$f" "$f" >"$N/src/$f.js"
    {
      printf 'const { %s } = require("../src/%s");\n\ndescribe("%s", () => {\n' "$f" "$f" "$f"
      for i in 1 2 3 4 5 6; do printf '  test("normalises input %d", () => {\n    expect(%s("  Value%d ")).toBe("value%d");\n  });\n' "$i" "$f" "$i" "$i"; done
      printf '});\n'
    } >"$N/tests/$f.test.js"
  done
  capture batch8 jest_verbose_many_files_pass "$N" "npx jest --ci --verbose tests" "jest $(cd "$N" && npx jest --version)"
  for p in home about pricing blog contact careers docs status faq login signup account; do
    printf 'import "../assets/%s.txt";\nimport { format } from "../lib";\nconsole.log(format("%s"));\n' "$p" "$p" >"$N/src/pages/$p.js"
    head -c $((RANDOM % 9000 + 500)) /dev/zero | tr '\0' 'x' >"$N/src/assets/$p.txt"
  done
  printf 'export function format(s) {\n  return `[${s}]`;\n}\n' >"$N/src/lib.js"
  cat >"$N/webpack.config.js" <<'EOF'
const path = require("path");
const pages = ["home", "about", "pricing", "blog", "contact", "careers", "docs", "status", "faq", "login", "signup", "account"];
module.exports = {
  entry: Object.fromEntries(pages.map((p) => [p, `./src/pages/${p}.js`])),
  output: { path: path.resolve(__dirname, "dist"), filename: "[name].[contenthash:8].js", clean: true },
  module: { rules: [{ test: /\.txt$/, type: "asset/resource" }] },
  optimization: { splitChunks: { chunks: "all", minSize: 0 } },
  stats: { modules: true, assets: true },
};
EOF
  capture batch8 webpack_build_many_assets "$N" "npm run build" "webpack $(cd "$N" && npx webpack --version 2>/dev/null | tr '\n' ' ')"
  printf 'import { chart } from "chart.js/auto";\nimport { api } from "./api/client";\nimport styles from "./styles.module.css";\nconsole.log(chart, api, styles);\n' >"$N/broken/index.js"
  printf 'module.exports = { entry: "./broken/index.js", output: { path: require("path").resolve(__dirname, "dist-broken") } };\n' >"$N/webpack.broken.js"
  capture batch8 webpack_module_not_found "$N" "npx webpack --mode development -c webpack.broken.js" "webpack 5"
  cat >"$N/.eslintrc.json" <<'EOF'
{
  "root": true,
  "env": { "browser": true, "es2022": true },
  "parserOptions": { "sourceType": "module" },
  "extends": "eslint:recommended",
  "rules": { "eqeqeq": "error", "no-console": "warn", "prefer-const": "error" }
}
EOF
  mkdir -p "$N/lint"
  printf 'export function total(items) {\n  let sum = 0;\n  for (var i = 0; i < items.length; i++) {\n    if (items[i].qty == 0) continue;\n    sum += items[i].price * items[i].qty;\n  }\n  console.log(sum);\n  return sum;\n}\n' >"$N/lint/cart.js"
  printf 'import { total } from "./cart";\nimport { unused } from "./util";\n\nexport function render(el, items) {\n  let html = "<ul>";\n  items.forEach((it) => { html += `<li>${it.name}</li>`; });\n  el.innerHTML = html + "</ul>" + totl(items);\n}\n' >"$N/lint/view.js"
  printf 'export const unused = 1;\nexport function debounce(fn, ms) {\n  let t;\n  return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); };\n}\nexport function same(a, b) { return a == b || a != a && b != b; }\n' >"$N/lint/util.js"
  capture batch8 eslint_format_unix "$N" "npx eslint --format unix lint" "eslint $(cd "$N" && npx eslint --version)"
  mkdir -p "$N/ts"
  printf '{\n  "compilerOptions": { "strict": true, "target": "ES2020", "module": "commonjs", "esModuleInterop": true }\n}\n' >"$N/ts/tsconfig.json"
  printf 'export interface User {\n  id: number;\n  email: string;\n  roles: string[];\n}\n\nexport function isAdmin(u: User): boolean {\n  return u.roles.includes("admin");\n}\n' >"$N/ts/user.ts"
  printf 'import { User, isAdmin } from "./user";\n\nconst users: User[] = [\n  { id: 1, email: "a@example.com", roles: ["admin"] },\n  { id: "2", email: "b@example.com", roles: [] },\n];\n\nfor (const u of users) {\n  console.log(u.email, isAdmin(u), u.name.toUpperCase());\n}\n' >"$N/ts/main.ts"
  capture batch8 ts_node_type_error "$N/ts" "../node_modules/.bin/ts-node main.ts" "ts-node $(cd "$N" && npx ts-node --version)"

  # jvm: an application start-up failing under a five-level cause chain
  J="$B/jvm"
  mkdir -p "$J/src/com/acme/boot"
  cat >"$J/src/com/acme/boot/App.java" <<'EOF'
package com.acme.boot;

import java.util.HashMap;
import java.util.Map;

public class App {
    static class BeanCreationException extends RuntimeException {
        BeanCreationException(String m, Throwable c) { super(m, c); }
    }
    static class ApplicationContextException extends RuntimeException {
        ApplicationContextException(String m, Throwable c) { super(m, c); }
    }

    static Map<String, String> env = new HashMap<>();

    static int parsePort(String raw) {
        return Integer.parseInt(raw.trim());
    }

    static Object dataSource() {
        try {
            return "jdbc:postgresql://db:" + parsePort(env.getOrDefault("DB_PORT", "54 32"));
        } catch (NumberFormatException e) {
            throw new IllegalStateException("Invalid property 'spring.datasource.port'", e);
        }
    }

    static Object repository() {
        try {
            return dataSource();
        } catch (RuntimeException e) {
            throw new BeanCreationException("Error creating bean with name 'orderRepository': Unsatisfied dependency expressed through field 'dataSource'", e);
        }
    }

    static Object service() {
        try {
            return repository();
        } catch (RuntimeException e) {
            throw new BeanCreationException("Error creating bean with name 'orderService' defined in class path resource [com/acme/boot/ServiceConfig.class]", e);
        }
    }

    static void refresh() {
        for (String bean : new String[] {"webServer", "jacksonMapper", "orderService"}) {
            System.out.println("INFO  o.s.b.f.s.DefaultListableBeanFactory : Creating bean '" + bean + "'");
            if (bean.equals("orderService")) {
                try {
                    service();
                } catch (RuntimeException e) {
                    throw new ApplicationContextException("Unable to start web server", e);
                }
            }
        }
    }

    public static void main(String[] args) {
        System.out.println("INFO  com.acme.boot.App : Starting App using Java " + System.getProperty("java.version"));
        System.out.println("INFO  com.acme.boot.App : No active profile set, falling back to 1 default profile: \"default\"");
        refresh();
    }
}
EOF
  (cd "$J" && javac -d out src/com/acme/boot/App.java)
  capture batch8 java_nested_cause_chain "$J" "java -cp out com.acme.boot.App" "$(java -version 2>&1 | head -1)"

  # php: php -l over thirty-one files, one with a syntax error
  PH="$B/php"
  mkdir -p "$PH/src/Controller" "$PH/src/Entity" "$PH/src/Service"
  for n in Account Address Basket Category Coupon Customer Invoice Order Payment Product Refund Review Shipment Stock Tax; do
    printf '<?php\n\nnamespace App\\Entity;\n\nfinal class %s\n{\n    public function __construct(public readonly int $id) {}\n}\n' "$n" >"$PH/src/Entity/$n.php"
    printf '<?php\n\nnamespace App\\Service;\n\nfinal class %sService\n{\n    public function find(int $id): ?array\n    {\n        return null;\n    }\n}\n' "$n" >"$PH/src/Service/${n}Service.php"
  done
  printf '<?php\n\nnamespace App\\Controller;\n\nfinal class CheckoutController\n{\n    public function pay(array $req): array\n    {\n        $total = array_sum(array_column($req["lines"], "price"))\n        return ["total" => $total];\n    }\n}\n' >"$PH/src/Controller/CheckoutController.php"
  capture batch8 php_lint_many_files "$PH" "rc=0; for f in \$(find src -name '*.php' | sort); do php -l \"\$f\" || rc=1; done; exit \$rc" "$(php --version | head -1)"

  # ruby: rake aborted with its trace
  if command -v rake >/dev/null; then
    RK="$B/rake"
    mkdir -p "$RK/db"
    cat >"$RK/Rakefile" <<'EOF'
require "json"

namespace :db do
  desc "Load seed data"
  task :seed do
    rows = JSON.parse(File.read("db/seeds.json"))
    rows.each_with_index do |r, i|
      puts "seeding #{r.fetch("sku")}"
      Integer(r.fetch("qty"))
    end
  end
end

task default: "db:seed"
EOF
    printf '[{"sku": "A-1", "qty": "4"}, {"sku": "A-2", "qty": "12"}, {"sku": "A-3", "qty": "twelve"}]\n' >"$RK/db/seeds.json"
    capture batch8 rake_aborted_trace "$RK" "rake --trace db:seed" "$(ruby --version)"
  fi

  # git: a big log --stat, a push refused by a pre-receive hook, an empty cherry-pick, a status
  # after a big refactor
  GT="$B/git"
  mkdir -p "$GT"
  git init -q -b main "$GT/repo"
  (
    cd "$GT/repo" || exit 1
    git config user.name "Dana Reyes" && git config user.email dana@example.com
    mkdir -p src/api src/db src/ui docs
    for i in $(seq 1 45); do
      for f in src/api/routes.py src/db/models.py src/ui/app.js docs/guide.md; do
        if [ $((i % 3)) = 0 ] || [ "$f" = src/api/routes.py ]; then printf 'line %d of %s\n' "$i" "$f" >>"$f"; fi
      done
      printf 'x = %d\n' "$i" >"src/db/migration_$(printf %03d "$i").py"
      d="2026-10-$(printf %02d $(((i % 28) + 1)))T10:00:00Z"
      git add -A && GIT_AUTHOR_DATE="$d" GIT_COMMITTER_DATE="$d" git commit -q -m "Change $i: migration $(printf %03d "$i") and routes"
    done
  )
  capture batch8 git_log_stat_big "$GT/repo" "git log --stat -n 40" "$(git --version)"
  git init -q --bare "$GT/origin.git"
  cat >"$GT/origin.git/hooks/pre-receive" <<'EOF'
#!/bin/sh
status=0
while read old new ref; do
  for c in $(git rev-list "$old..$new" 2>/dev/null || git rev-list "$new"); do
    subj=$(git log -1 --format=%s "$c")
    case "$subj" in
      WIP*|wip*) echo "ERROR: commit ${c%${c#???????}} is marked WIP: $subj"; status=1 ;;
    esac
    if git diff-tree --no-commit-id --name-only -r "$c" | grep -q '\.env$'; then
      echo "ERROR: commit ${c%${c#???????}} adds a .env file"; status=1
    fi
  done
done
[ $status = 0 ] || echo "Push rejected by policy: fix the commits above and push again."
exit $status
EOF
  chmod +x "$GT/origin.git/hooks/pre-receive"
  (
    cd "$GT/repo" || exit 1
    git remote add origin "$GT/origin.git" && git push -q origin main 2>/dev/null
    printf 'DB_PASSWORD=changeme\n' >.env && git add .env && git commit -q -m "Add local settings"
    printf 'todo\n' >>docs/guide.md && git commit -qam "WIP half-done export"
    printf 'done\n' >>docs/guide.md && git commit -qam "Finish export docs"
  )
  capture batch8 git_push_pre_receive_rejected "$GT/repo" "git push origin main" "$(git --version)"
  (
    cd "$GT/repo" || exit 1
    git checkout -q -b hotfix HEAD~3 && printf 'fixed\n' >>src/ui/app.js && git commit -qam "Fix banner overflow"
    git checkout -q main && git cherry-pick hotfix >/dev/null 2>&1
    git checkout -q hotfix
  )
  capture batch8 git_cherry_pick_empty "$GT/repo" "git checkout -q main && git cherry-pick hotfix" "$(git --version)"
  (
    cd "$GT/repo" || exit 1
    git cherry-pick --abort >/dev/null 2>&1; git checkout -q main
    mkdir -p src/storage && git mv src/db/migration_0* src/storage/ 2>/dev/null
    for i in $(seq 1 20); do printf 'y = %d\n' "$i" >>"src/storage/migration_$(printf %03d "$i").py"; done
    printf 'changed\n' >>src/api/routes.py
    git rm -q docs/guide.md
    mkdir -p src/cache && for i in $(seq 1 12); do printf 'c\n' >"src/cache/shard_$i.py"; done
    printf 'secret\n' >credentials.json
    git add src/cache/shard_1.py src/cache/shard_2.py
  )
  capture batch8 git_status_big_refactor "$GT/repo" "git status" "$(git --version)"

  # archives: zip -r with a name that does not exist, unzip -l of a big archive
  Z="$B/zip"
  mkdir -p "$Z/site/static/img" "$Z/site/pages"
  for i in $(seq 1 60); do printf 'page %d\n' "$i" >"$Z/site/pages/page_$i.html"; done
  for i in $(seq 1 25); do head -c 3000 /dev/urandom >"$Z/site/static/img/photo_$i.jpg"; done
  capture batch8 zip_recursive_name_not_matched "$Z" "zip -r site.zip site CHANGELOG.md LICENSE" "$(zip -v | sed -n 2p)"
  mkdir -p "$Z/big/app/lib" "$Z/big/app/vendor"
  for i in $(seq 1 320); do printf 'module %d\n' "$i" >"$Z/big/app/lib/mod_$(printf %03d "$i").py"; done
  head -c 6000000 /dev/zero >"$Z/big/app/vendor/core.dump"
  (cd "$Z/big" && zip -qr ../release.zip app)
  capture batch8 unzip_list_big "$Z" "unzip -l release.zip" "$(unzip -v | head -1)"

  # shell: xargs over a checker that fails for some hosts and aborts on one
  X="$B/xargs"
  mkdir -p "$X"
  cat >"$X/check.sh" <<'EOF'
#!/bin/sh
case "$1" in
  *db*) echo "check $1: connection refused" >&2; exit 1 ;;
  *legacy*) echo "check $1: unsupported protocol, giving up" >&2; exit 255 ;;
  *) echo "check $1: ok" ;;
esac
EOF
  chmod +x "$X/check.sh"
  printf '%s\n' web1 web2 db1 web3 cache1 db2 api1 api2 legacy1 web4 web5 >"$X/hosts.txt"
  capture batch8 xargs_child_failures "$X" "xargs -n1 ./check.sh < hosts.txt" "$(xargs --version | head -1)"

  # db: a long sqlite3 .dump, a CSV import with bad rows
  D="$B/db"
  mkdir -p "$D"
  {
    printf 'CREATE TABLE warehouse(id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n'
    printf 'CREATE TABLE item(id INTEGER PRIMARY KEY, sku TEXT UNIQUE NOT NULL, warehouse_id INTEGER REFERENCES warehouse(id), qty INTEGER NOT NULL CHECK (qty >= 0));\n'
    printf 'CREATE INDEX item_wh ON item(warehouse_id);\n'
    printf "INSERT INTO warehouse VALUES(1,'Leeds'),(2,'Lyon'),(3,'Lodz');\n"
    for i in $(seq 1 300); do printf "INSERT INTO item(sku, warehouse_id, qty) VALUES('SKU-%04d', %d, %d);\n" "$i" $((i % 3 + 1)) $((i * 7 % 50)); done
    printf "CREATE VIEW low_stock AS SELECT sku, qty FROM item WHERE qty < 5;\n"
  } | sqlite3 "$D/stock.db"
  capture batch8 sqlite_dump_long "$D" "sqlite3 stock.db .dump" "sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
  {
    printf 'sku,warehouse_id,qty\n'
    for i in $(seq 301 340); do
      case $i in
        307) printf 'SKU-%04d,2\n' "$i" ;;
        315) printf 'SKU-0305,1,4\n' ;;
        322) printf 'SKU-%04d,1,-3\n' "$i" ;;
        331) printf 'SKU-%04d,3,5,extra\n' "$i" ;;
        *) printf 'SKU-%04d,%d,%d\n' "$i" $((i % 3 + 1)) $((i % 20)) ;;
      esac
    done
  } >"$D/new_items.csv"
  sqlite3 "$D/stock.db" 'CREATE TABLE item_staging(sku TEXT UNIQUE NOT NULL, warehouse_id INTEGER, qty INTEGER NOT NULL CHECK (qty >= 0));'
  capture batch8 sqlite_csv_import_errors "$D" "sqlite3 stock.db '.import --csv --skip 1 new_items.csv item_staging' 'SELECT count(*) FROM item_staging;'" "sqlite3 $(sqlite3 --version | cut -d' ' -f1)"

  # diff -u of two generated configs
  DF="$B/diff"
  mkdir -p "$DF"
  for side in a b; do
    {
      printf '# generated by confgen\n[server]\nlisten = 0.0.0.0:8080\nworkers = %s\n' "$([ $side = a ] && echo 4 || echo 8)"
      for i in $(seq 1 60); do
        printf '\n[upstream.svc%02d]\nhost = svc%02d.internal\nport = %d\ntimeout = %s\n' "$i" "$i" $((9000 + i)) "$([ $side = b ] && [ "$i" = 23 ] && echo 5s || echo 30s)"
        if [ $side = b ] && [ "$i" = 41 ]; then printf 'tls = off\n'; fi
      done
      if [ $side = a ]; then printf '\n[upstream.svc61]\nhost = svc61.internal\nport = 9061\ntimeout = 30s\n'; fi
    } >"$DF/$side.conf"
  done
  capture batch8 diff_unified_configs "$DF" "diff -u a.conf b.conf" "$(diff --version | head -1)"

  # gcc -fanalyzer with -Werror: double free, use after free, leak, NULL dereference
  GA="$B/analyzer"
  mkdir -p "$GA"
  cat >"$GA/pool.c" <<'EOF'
#include <stdlib.h>
#include <string.h>

struct conn { char *buf; int fd; };

struct conn *conn_open(int fd) {
  struct conn *c = malloc(sizeof *c);
  c->fd = fd;
  c->buf = malloc(256);
  return c;
}

void conn_close(struct conn *c) {
  free(c->buf);
  free(c);
}

int conn_reset(struct conn *c, int hard) {
  if (hard) {
    conn_close(c);
  }
  return c->fd;
}

char *conn_name(int fd) {
  char *name = malloc(32);
  if (fd < 0)
    return NULL;
  strcpy(name, "conn");
  return name;
}

void drain(struct conn *c) {
  char *tmp = c->buf;
  free(tmp);
  free(c->buf);
}
EOF
  capture batch8 gcc_fanalyzer_werror "$GA" "gcc -c -fanalyzer -Werror -O0 pool.c" "$(gcc --version | head -1)"
fi
# --- batch9: a ninth blind batch (new variants of mainstream families: pytest's reporting flags,
# unittest subTest, jest/vitest/node --test/mocha, tsc and eslint over many files, go, cargo,
# gcc/make -k, mypy/ruff/pylint, rspec/rubocop, git), captured and its signals written and
# committed before any filter ran on it and before any rule file, filter source, filter test,
# fixture, bench/corpus file or bench/README.md was opened. TERM=xterm as in batch7.
if sel batch9; then
  B="$WORK/batch9"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  PYV="$(python3 -m pytest --version 2>&1)"

  # pytest: -v over 300 parametrised tests with three failing, --tb=short with ids, --tb=line,
  # a setup error and a teardown error under -rA, a long list diff; unittest subTest failures
  P="$B/ledger"
  mkdir -p "$P/ledger" "$P/tests"
  : >"$P/ledger/__init__.py"
  cat >"$P/ledger/money.py" <<'EOF'
from decimal import Decimal, ROUND_HALF_UP


def to_cents(text):
    value = Decimal(text.replace(",", ""))
    return int((value * 100).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def fmt(cents, currency="EUR"):
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d} {currency}"


def split(cents, parts):
    base, rest = divmod(cents, parts)
    return [base + (1 if i < rest else 0) for i in range(parts)]


def tax(cents, rate):
    return int(cents * rate)
EOF
  cat >"$P/tests/test_money.py" <<'EOF'
import pytest
from ledger.money import fmt, split, tax, to_cents

AMOUNTS = [(f"{i}.{i % 100:02d}", i * 100 + i % 100) for i in range(1, 101)]


@pytest.mark.parametrize("text,cents", AMOUNTS)
def test_to_cents(text, cents):
    assert to_cents(text) == cents


@pytest.mark.parametrize("cents", range(0, 10000, 100))
def test_fmt_roundtrip(cents):
    assert to_cents(fmt(cents).split()[0]) == cents


@pytest.mark.parametrize("parts", range(1, 101))
def test_split_sums(parts):
    assert sum(split(1000, parts)) == 1000


@pytest.mark.parametrize("cents,rate,want", [
    (1000, 0.2, 200),
    (999, 0.055, 55),
    (333, 0.21, 70),
    (1, 0.5, 1),
], ids=["standard", "reduced", "odd", "half-cent"])
def test_tax(cents, rate, want):
    assert tax(cents, rate) == want


def test_thousands_separator():
    assert to_cents("1,234.5") == 123450
EOF
  capture batch9 pytest_v_three_hundred_three_fail "$P" "python3 -m pytest -v -p no:cacheprovider tests/test_money.py" "$PYV"
  capture batch9 pytest_tb_short_param_ids "$P" "python3 -m pytest --tb=short -q -p no:cacheprovider tests/test_money.py -k 'tax or thousands'" "$PYV"
  cat >"$P/tests/test_report.py" <<'EOF'
import pytest
from ledger.money import fmt, split


def test_fmt_negative():
    assert fmt(-5) == "-0.05 EUR"


def test_fmt_currency():
    assert fmt(12345, "USD") == "123.45 $"


def test_split_three():
    assert split(100, 3) == [34, 33, 33]


def test_split_zero():
    assert split(100, 0) == []


def test_monthly_totals():
    months = [split(12000 + m, 12) for m in range(12)]
    assert [sum(m) for m in months] == [12000, 12001, 12002, 12003, 12004, 12005, 12006, 12007, 12008, 12009, 12010, 12011]


@pytest.mark.parametrize("n", range(20))
def test_split_many(n):
    assert len(split(n * 7 + 1, 7)) == 7
EOF
  capture batch9 pytest_tb_line "$P" "python3 -m pytest --tb=line -p no:cacheprovider tests/test_report.py" "$PYV"
  cat >"$P/tests/test_db.py" <<'EOF'
import pytest


class FakeDB:
    def __init__(self, url):
        if not url.startswith("sqlite://"):
            raise ConnectionError(f"unsupported database url: {url}")
        self.url = url
        self.rows = []

    def close(self):
        if self.rows:
            raise RuntimeError(f"{len(self.rows)} uncommitted rows at close")


@pytest.fixture
def db():
    conn = FakeDB("sqlite://:memory:")
    yield conn
    conn.close()


@pytest.fixture
def remote_db():
    return FakeDB("postgres://ledger@db:5432/ledger")


def test_insert(db):
    db.rows.append(("2026-11", 1200))
    assert len(db.rows) == 1


def test_empty(db):
    assert db.rows == []


def test_remote_count(remote_db):
    assert remote_db.rows == []


def test_url(db):
    assert db.url.endswith(":memory:")


@pytest.mark.skip(reason="needs the staging database")
def test_staging(db):
    pass


def test_balance(db):
    assert sum(r[1] for r in db.rows) == 0
    assert db.url == "sqlite://ledger.db"
EOF
  capture batch9 pytest_rA_setup_teardown_errors "$P" "python3 -m pytest -rA -p no:cacheprovider tests/test_db.py" "$PYV"
  cat >"$P/tests/test_export.py" <<'EOF'
from ledger.money import split


def export_rows(n):
    return [f"row-{i:03d}" for i in range(n) if i != 57]


def test_export_rows():
    assert export_rows(90) == [f"row-{i:03d}" for i in range(90)]


def test_split_matrix():
    got = [split(1000 + k, 9) for k in range(6)]
    want = [[112, 111, 111, 111, 111, 111, 111, 111, 111]] * 6
    assert got == want
EOF
  capture batch9 pytest_long_list_diff "$P" "python3 -m pytest -p no:cacheprovider tests/test_export.py" "$PYV"
  cat >"$P/tests/test_units.py" <<'EOF'
import unittest
from ledger.money import fmt, split, to_cents


class TestParsing(unittest.TestCase):
    def test_to_cents_cases(self):
        cases = {"1": 100, "1.5": 150, "0.005": 1, "1,000": 100000, "2.675": 268, "-0.015": -2}
        for text, want in cases.items():
            with self.subTest(text=text):
                self.assertEqual(to_cents(text), want)

    def test_bad_input(self):
        for text in ["", "abc", "1.2.3"]:
            with self.subTest(text=text):
                with self.assertRaises(ValueError):
                    to_cents(text)


class TestFormatting(unittest.TestCase):
    def test_fmt(self):
        for cents, want in [(0, "0.00 EUR"), (5, "0.05 EUR"), (-150, "-1.50 EUR"), (100000, "1,000.00 EUR")]:
            with self.subTest(cents=cents):
                self.assertEqual(fmt(cents), want)

    def test_split(self):
        self.assertEqual(split(10, 4), [3, 3, 2, 2])


if __name__ == "__main__":
    unittest.main()
EOF
  capture batch9 unittest_subtest_failures "$P" "python3 -m unittest -v tests.test_units" "$(python3 --version)"

  # pylint over a package with a score line; mypy with errors over eleven modules; ruff
  L="$B/inventory"
  mkdir -p "$L/inventory"
  : >"$L/inventory/__init__.py"
  for m in stock orders pricing suppliers reports alerts sync cli audit export warehouse; do
    cat >"$L/inventory/$m.py" <<EOF
"""The $m module."""
import os
import json
from typing import Optional


class ${m^}Store:
    def __init__(self, path: str, limit: int = 10) -> None:
        self.path = path
        self.limit = limit
        self.items: dict[str, int] = {}

    def load(self) -> dict[str, int]:
        with open(self.path) as fh:
            data = json.load(fh)
        self.items = data
        return data

    def get(self, key: str) -> Optional[int]:
        return self.items.get(key)

    def total(self) -> int:
        return sum(self.items.values()) + self.get("reserved")

    def label(self, key: str) -> str:
        count: int = self.get(key)
        return key + ": " + count

    def save(self, path=None):
        l = self.items
        with open(path or self.path, "w") as fh:
            json.dump(l, fh)
        return len(l) > self.limit and True or False


def find(store: ${m^}Store, prefix: str) -> list[str]:
    return [k for k in store.items if k.startswith(prefix)].sort()
EOF
  done
  capture batch9 pylint_package_score "$L" "pylint inventory" "$(pylint --version 2>/dev/null | sed -n 1p)"
  capture batch9 mypy_package_errors "$L" "python3 -m mypy --no-incremental inventory" "$(python3 -m mypy --version)"
  capture batch9 ruff_check_fixable "$L" "python3 -m ruff check --no-cache --select E,F,W,I,UP,B,SIM inventory" "$(python3 -m ruff --version)"
  capture batch9 ruff_format_check "$L" "python3 -m ruff format --check --no-cache inventory" "$(python3 -m ruff --version)"

  # pip install of a local project whose setup.py raises
  PI="$B/pdfgen"
  mkdir -p "$PI/pdfgen"
  : >"$PI/pdfgen/__init__.py"
  cat >"$PI/setup.py" <<'EOF'
import os
import sys
from setuptools import setup


def find_freetype():
    for d in ("/usr/include/freetype2", "/opt/freetype/include"):
        if os.path.exists(os.path.join(d, "ft2build-missing.h")):
            return d
    raise RuntimeError("freetype headers not found; install libfreetype-dev or set FREETYPE_ROOT")


print("running setup for pdfgen 0.4.1 on", sys.platform)
setup(name="pdfgen", version="0.4.1", packages=["pdfgen"], include_dirs=[find_freetype()])
EOF
  capture batch9 pip_install_setup_raises "$PI" "python3 -m pip install --no-index --no-build-isolation ." "$(python3 -m pip --version | cut -d' ' -f1-2)"

  # node: jest --ci with a snapshot and a timeout through npm test, vitest expect.soft verbose,
  # node --test spec reporter with nested suites, mocha with a hook failure, tsc over ten files,
  # eslint stylish with many warnings under --max-warnings 0 through npm run lint
  NPM9="$WORK/npm9"
  if [ ! -x "$NPM9/node_modules/.bin/jest" ]; then
    mkdir -p "$NPM9" && (cd "$NPM9" && npm init -y >/dev/null &&
      npm install jest@29 vitest@2 mocha eslint@9 @eslint/js@9 typescript >/dev/null 2>&1)
  fi
  J="$B/cart-web"
  mkdir -p "$J/src" "$J/src/__snapshots__"
  ln -s "$NPM9/node_modules" "$J/node_modules"
  cat >"$J/package.json" <<'EOF'
{
  "name": "cart-web",
  "version": "1.2.0",
  "private": true,
  "scripts": {
    "test": "jest --ci",
    "lint": "eslint --max-warnings 0 src"
  }
}
EOF
  cat >"$J/src/cart.js" <<'EOF'
function total(items) {
  return items.reduce((s, i) => s + i.price * i.qty, 0);
}
function summary(items) {
  return { count: items.length, total: total(items), currency: "EUR", updated: "2026-11-27" };
}
async function fetchPrices(ids, delay = 50) {
  await new Promise((r) => setTimeout(r, delay));
  return ids.map((id) => ({ id, price: id * 100 }));
}
module.exports = { total, summary, fetchPrices };
EOF
  for n in 1 2 3 4 5 6; do
    cat >"$J/src/util$n.test.js" <<EOF
const { total } = require("./cart");
describe("util$n", () => {
  test.each([[1, 2], [2, 3], [3, 4]])("total of %i item(s) at %i", (q, p) => {
    expect(total([{ price: p, qty: q }])).toBe(p * q);
  });
});
EOF
  done
  cat >"$J/src/cart.test.js" <<'EOF'
const { total, summary, fetchPrices } = require("./cart");

describe("cart", () => {
  test("total sums price times qty", () => {
    expect(total([{ price: 250, qty: 2 }, { price: 100, qty: 1 }])).toBe(600);
  });
  test("summary matches snapshot", () => {
    expect(summary([{ price: 250, qty: 2 }])).toMatchSnapshot();
  });
  test("fetchPrices resolves quickly", async () => {
    const prices = await fetchPrices([1, 2, 3], 8000);
    expect(prices).toHaveLength(3);
  }, 1000);
  test("empty cart total is zero", () => {
    expect(total([])).toBe(0);
  });
});
EOF
  cat >"$J/src/__snapshots__/cart.test.js.snap" <<'EOF'
// Jest Snapshot v1, https://goo.gl/fbAQLP

exports[`cart summary matches snapshot 1`] = `
{
  "count": 1,
  "currency": "EUR",
  "total": 500,
  "updated": "2026-11-20",
}
`;
EOF
  capture batch9 npm_test_jest_ci_snapshot_timeout "$J" "npm test" "jest $("$NPM9/node_modules/.bin/jest" --version), npm $(npm --version)"

  E="$B/dash"
  mkdir -p "$E/src"
  ln -s "$NPM9/node_modules" "$E/node_modules"
  cat >"$E/package.json" <<'EOF'
{
  "name": "dash",
  "version": "0.3.0",
  "private": true,
  "type": "module",
  "scripts": {
    "lint": "eslint --max-warnings 0 src"
  }
}
EOF
  cat >"$E/eslint.config.js" <<'EOF'
import js from "@eslint/js";
export default [
  js.configs.recommended,
  {
    languageOptions: { globals: { console: "readonly", document: "readonly", window: "readonly" } },
    rules: {
      "no-unused-vars": "warn",
      "no-console": "warn",
      "prefer-const": "warn",
      "eqeqeq": "warn",
      "no-var": "warn",
    },
  },
];
EOF
  for w in header sidebar chart table filters modal toast footer navbar tabs tooltip badge avatar pager search form upload menu card banner; do
    cat >"$E/src/$w.js" <<EOF
var state = { open: false };
let count = 0;
let label = "$w";
export function render$w(el, opts) {
  var unused = 1;
  console.log("render $w", label);
  if (opts.size == 2) {
    console.warn("size two");
  }
  let items = [];
  for (var i = 0; i < 3; i++) {
    items.push(i);
  }
  if (state.open != true) {
    console.log("closed");
  }
  return items;
}
EOF
  done
  cat >>"$E/src/chart.js" <<'EOF'
export function scale(v) {
  return v * ratio;
}
EOF
  cat >>"$E/src/modal.js" <<'EOF'
export function close(el) {
  el.remove();
  return;
  el.dispatchEvent(new Event("close"));
  switch (el.id) {
    case "a":
      count++;
    case "b":
      count--;
  }
}
EOF
  capture batch9 npm_run_lint_eslint_max_warnings "$E" "npm run lint" "eslint $("$NPM9/node_modules/.bin/eslint" --version), npm $(npm --version)"

  V="$B/units"
  mkdir -p "$V/src"
  ln -s "$NPM9/node_modules" "$V/node_modules"
  printf '{ "name": "units", "private": true, "type": "module" }\n' >"$V/package.json"
  cat >"$V/src/convert.js" <<'EOF'
export const toKm = (mi) => Math.round(mi * 1.609 * 100) / 100;
export const toF = (c) => c * 9 / 5 + 32;
export const parse = (s) => {
  const m = /^(-?\d+(?:\.\d+)?)\s*(km|mi|c|f)$/.exec(s.trim());
  if (!m) throw new Error(`cannot parse "${s}"`);
  return { value: Number(m[1]), unit: m[2] };
};
EOF
  cat >"$V/src/convert.test.js" <<'EOF'
import { describe, expect, it } from "vitest";
import { parse, toF, toKm } from "./convert.js";

describe("toKm", () => {
  it("converts one mile", () => expect(toKm(1)).toBe(1.61));
  it("converts ten miles", () => expect(toKm(10)).toBe(16.09));
  it("converts a marathon", () => {
    expect.soft(toKm(26.2)).toBe(42.2);
    expect.soft(toKm(13.1)).toBe(21.1);
    expect.soft(toKm(0)).toBe(0);
  });
});

describe("toF", () => {
  for (const [c, f] of [[0, 32], [100, 212], [-40, -40], [37, 98.6], [20, 68]]) {
    it(`converts ${c}C`, () => expect(toF(c)).toBe(f));
  }
});

describe("parse", () => {
  it("parses km", () => expect(parse("12 km")).toEqual({ value: 12, unit: "km" }));
  it("parses negative c", () => expect(parse("-3.5c")).toEqual({ value: -3.5, unit: "c" }));
  it("parses upper case", () => {
    expect.soft(parse("5 KM")).toEqual({ value: 5, unit: "km" });
  });
  it.skip("parses feet", () => {});
  it.todo("parses yards");
});
EOF
  capture batch9 vitest_soft_verbose "$V" "npx vitest run --reporter=verbose" "vitest $("$NPM9/node_modules/.bin/vitest" --version | cut -d' ' -f1)"

  NT="$B/router"
  mkdir -p "$NT/test"
  printf '{ "name": "router", "private": true, "type": "module" }\n' >"$NT/package.json"
  cat >"$NT/router.js" <<'EOF'
export function match(pattern, path) {
  const p = pattern.split("/"), q = path.split("/");
  if (p.length !== q.length) return null;
  const params = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(":")) params[p[i].slice(1)] = q[i];
    else if (p[i] !== q[i]) return null;
  }
  return params;
}
EOF
  for g in users orders products admin; do
    cat >"$NT/test/$g.test.js" <<EOF
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { match } from "../router.js";

describe("$g routes", () => {
  describe("static", () => {
    for (let i = 0; i < 16; i++) {
      it(\`matches /$g/list/\${i}\`, () => {
        assert.deepEqual(match(\`/$g/list/\${i}\`, \`/$g/list/\${i}\`), {});
      });
    }
  });
  describe("params", () => {
    for (let i = 0; i < 16; i++) {
      it(\`extracts id \${i}\`, () => {
        assert.deepEqual(match("/$g/:id", \`/$g/\${i}\`), { id: String(i) });
      });
    }
  });
});
EOF
  done
  cat >"$NT/test/edge.test.js" <<'EOF'
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { match } from "../router.js";

describe("edge cases", () => {
  describe("trailing slash", () => {
    it("ignores a trailing slash", () => {
      assert.deepEqual(match("/users/:id", "/users/7/"), { id: "7" });
    });
  });
  describe("wildcards", () => {
    it("matches a star segment", () => {
      assert.deepEqual(match("/files/*", "/files/a/b/c"), { "*": "a/b/c" });
    });
    it("keeps static segments", () => {
      assert.equal(match("/files/x", "/files/x") !== null, true);
    });
  });
  it("decodes params", () => {
    assert.equal(match("/q/:term", "/q/a%20b").term, "a b");
  });
});
EOF
  capture batch9 node_test_spec_nested_fail "$NT" "node --test --test-reporter=spec test/" "node $(node --version)"

  M="$B/queue"
  mkdir -p "$M/test"
  ln -s "$NPM9/node_modules" "$M/node_modules"
  cat >"$M/test/queue.spec.js" <<'EOF'
const assert = require("assert");

class Queue {
  constructor(limit) { this.items = []; this.limit = limit; }
  push(x) { if (this.items.length >= this.limit) throw new Error("queue full"); this.items.push(x); }
  pop() { return this.items.shift(); }
}

describe("Queue", function () {
  let q;
  beforeEach(function () { q = new Queue(3); });
  it("pushes and pops in order", function () { q.push(1); q.push(2); assert.strictEqual(q.pop(), 1); });
  it("throws when full", function () { q.push(1); q.push(2); q.push(3); assert.throws(() => q.push(4), /full/); });
  it("returns undefined when empty", function () { assert.strictEqual(q.pop(), undefined); });
});

describe("Queue persistence", function () {
  let store;
  before(function () {
    store = require("fs").readFileSync("/var/lib/queue/state.json", "utf8");
  });
  it("restores items", function () { assert.ok(store); });
  it("restores limit", function () { assert.ok(store); });
});

describe("Queue drain", function () {
  afterEach(function () { if (this.currentTest.title.includes("twice")) throw new Error("drain left 1 pending job"); });
  it("drains all items", function () { const q = new Queue(2); q.push(1); q.pop(); assert.strictEqual(q.items.length, 0); });
  it("drains twice", function () { assert.ok(true); });
  it("reports drained count", function () { assert.strictEqual(new Queue(1).items.length, 1); });
});
EOF
  capture batch9 mocha_hook_failures "$M" "npx mocha" "mocha $("$NPM9/node_modules/.bin/mocha" --version)"

  T="$B/api-client"
  mkdir -p "$T/src"
  ln -s "$NPM9/node_modules" "$T/node_modules"
  cat >"$T/tsconfig.json" <<'EOF'
{ "compilerOptions": { "strict": true, "target": "ES2022", "module": "ES2022", "moduleResolution": "bundler", "noEmit": true }, "include": ["src"] }
EOF
  cat >"$T/src/types.ts" <<'EOF'
export interface User { id: number; name: string; email: string; roles: string[] }
export interface Order { id: string; userId: number; total: number; items: { sku: string; qty: number }[] }
export type Status = "open" | "paid" | "shipped";
EOF
  i=0
  for f in users orders payments shipping search auth cache retry logger index; do
    i=$((i + 1))
    cat >"$T/src/$f.ts" <<EOF
import type { User, Order, Status } from "./types";

export function get${f^}User(id: number): User {
  return { id, name: "n$i", email: 42 };
}

export function ${f}Status(o: Order): Status {
  return o.total > 0 ? "paid" : "pending";
}

export function ${f}Total(orders: Order[]): number {
  return orders.reduce((s, o) => s + o.total, "0");
}

export function ${f}Name(u: User | undefined): string {
  return u.name.toUpperCase();
}
EOF
  done
  capture batch9 tsc_noemit_ten_files "$T" "npx tsc --noEmit -p ." "tsc $("$NPM9/node_modules/.bin/tsc" --version)"

  # go: a table test failing with t.Log output under -v, go vet with several analyzers, an import cycle
  G="$B/billing"
  mkdir -p "$G/internal/rates" "$G/internal/invoice" "$G/internal/notify" "$G/cmd/billing"
  printf 'module example.com/billing\n\ngo 1.19\n' >"$G/go.mod"
  cat >"$G/internal/rates/rates.go" <<'EOF'
package rates

// Convert converts cents between currencies at a fixed rate table.
func Convert(cents int, from, to string) int {
	table := map[string]float64{"EUR": 1, "USD": 1.08, "GBP": 0.86, "JPY": 161.2}
	return int(float64(cents) / table[from] * table[to])
}
EOF
  cat >"$G/internal/rates/rates_test.go" <<'EOF'
package rates

import "testing"

func TestConvert(t *testing.T) {
	cases := []struct {
		name     string
		cents    int
		from, to string
		want     int
	}{
		{"eur-eur", 1000, "EUR", "EUR", 1000},
		{"eur-usd", 1000, "EUR", "USD", 1080},
		{"usd-eur", 1080, "USD", "EUR", 1000},
		{"eur-gbp", 1000, "EUR", "GBP", 860},
		{"gbp-usd", 860, "GBP", "USD", 1080},
		{"eur-jpy", 100, "EUR", "JPY", 16120},
		{"unknown", 100, "EUR", "CHF", 100},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Convert(c.cents, c.from, c.to)
			t.Logf("Convert(%d, %s, %s) = %d", c.cents, c.from, c.to, got)
			if got != c.want {
				t.Errorf("got %d, want %d", got, c.want)
			}
		})
	}
}

func TestConvertMany(t *testing.T) {
	for i := 0; i < 180; i++ {
		i := i
		t.Run("cents-"+string(rune('a'+i%26))+string(rune('a'+i/26)), func(t *testing.T) {
			if Convert(i*100, "EUR", "EUR") != i*100 {
				t.Fatal("identity failed")
			}
		})
	}
}
EOF
  capture batch9 go_test_v_table_tlog "$G" "go test -count=1 -v ./internal/rates/" "$(go version)"
  cat >"$G/internal/invoice/invoice.go" <<'EOF'
package invoice

import (
	"errors"
	"fmt"
	"sync"
)

type Invoice struct {
	mu    sync.Mutex
	ID    string
	Lines []int
}

func (i Invoice) Total() int {
	i.mu.Lock()
	defer i.mu.Unlock()
	t := 0
	for _, l := range i.Lines {
		t += l
	}
	return t
}

func Describe(i *Invoice) string {
	return fmt.Sprintf("invoice %d with %s lines", i.ID, len(i.Lines))
}

func Check(i *Invoice) error {
	if i.Total() < 0 {
		return errors.New(fmt.Sprintf("negative total"))
	}
	if i == nil {
		return nil
	}
	return fmt.Errorf("unchecked %v", i.ID, i.Lines)
}

func Save(i *Invoice) error {
	var err error
	err = nil
	if i.ID == "" {
		err = errors.New("no id")
	}
	return nil
	fmt.Println("saved", i.ID)
	return err
}
EOF
  capture batch9 go_vet_several_analyzers "$G" "go vet ./internal/invoice/" "$(go version)"
  cat >"$G/internal/notify/notify.go" <<'EOF'
package notify

import "example.com/billing/internal/invoice2"

func Send(id string) string { return invoice2.Label(id) }
EOF
  mkdir -p "$G/internal/invoice2"
  cat >"$G/internal/invoice2/label.go" <<'EOF'
package invoice2

import "example.com/billing/internal/notify"

func Label(id string) string { return "inv-" + id }

func Notify(id string) string { return notify.Send(id) }
EOF
  cat >"$G/cmd/billing/main.go" <<'EOF'
package main

import (
	"fmt"

	"example.com/billing/internal/notify"
)

func main() { fmt.Println(notify.Send("1")) }
EOF
  capture batch9 go_build_import_cycle "$G" "go build ./..." "$(go version)"

  # cargo: should_panic with the wrong message and a failing doctest, clippy -D warnings over
  # several files, a generic type mismatch with note chains
  R="$B/geo"
  mkdir -p "$R/src"
  cat >"$R/Cargo.toml" <<'EOF'
[package]
name = "geo"
version = "0.2.0"
edition = "2021"

[dependencies]
EOF
  cat >"$R/src/lib.rs" <<'EOF'
//! Small geometry helpers.
pub mod shapes;
pub mod units;

/// Distance between two points.
///
/// ```
/// assert_eq!(geo::distance((0.0, 0.0), (3.0, 4.0)), 5.0);
/// assert_eq!(geo::distance((1.0, 1.0), (1.0, 1.0)), 1.0);
/// ```
pub fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// Parses "x,y".
///
/// ```
/// let p = geo::parse_point("2,3").unwrap();
/// assert_eq!(p, (2.0, 3.0));
/// ```
pub fn parse_point(s: &str) -> Option<(f64, f64)> {
    let (x, y) = s.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

pub fn checked_area(w: f64, h: f64) -> f64 {
    if w < 0.0 || h < 0.0 {
        panic!("negative side: {}x{}", w, h);
    }
    w * h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_is_symmetric() {
        assert_eq!(distance((1.0, 2.0), (4.0, 6.0)), distance((4.0, 6.0), (1.0, 2.0)));
    }

    #[test]
    #[should_panic(expected = "negative width")]
    fn rejects_negative_width() {
        checked_area(-1.0, 2.0);
    }

    #[test]
    #[should_panic]
    fn rejects_zero() {
        checked_area(0.0, 2.0);
    }

    #[test]
    fn parses_spaces() {
        assert_eq!(parse_point(" 1 , 2 "), Some((1.0, 2.0)));
    }
}
EOF
  cat >"$R/src/shapes.rs" <<'EOF'
pub struct Rect {
    pub w: f64,
    pub h: f64,
}

impl Rect {
    pub fn new(w: f64, h: f64) -> Rect {
        return Rect { w: w, h: h };
    }

    pub fn area(&self) -> f64 {
        let a = self.w * self.h;
        return a;
    }

    pub fn is_square(&self) -> bool {
        if self.w == self.h { true } else { false }
    }

    pub fn labels(&self, names: &Vec<String>) -> usize {
        let mut n = 0;
        for i in 0..names.len() {
            if names[i].len() > 0 {
                n = n + 1;
            }
        }
        n
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn square() {
        assert!(super::Rect::new(2.0, 2.0).is_square());
    }
}
EOF
  cat >"$R/src/units.rs" <<'EOF'
pub fn to_meters(feet: f64) -> f64 {
    feet * 0.3048
}

pub fn describe(v: Option<f64>) -> String {
    match v {
        Some(x) => format!("{}", x),
        None => format!("none"),
    }
}

pub fn sum_all(xs: &Vec<f64>) -> f64 {
    let mut total = 0.0;
    for x in xs.iter() {
        total += *x;
    }
    let result = total;
    result
}

pub fn first_pos(xs: &[i32]) -> Option<i32> {
    xs.iter().filter(|x| **x > 0).next().map(|x| *x)
}

pub fn flag(b: bool) -> bool {
    b == true
}

#[cfg(test)]
mod tests {
    #[test]
    fn feet() {
        assert_eq!(super::to_meters(10.0), 3.048);
    }
}
EOF
  capture batch9 cargo_test_should_panic_doctest "$R" "cargo test --no-fail-fast" "$(cargo --version)"
  capture batch9 cargo_clippy_deny_warnings "$R" "cargo clippy --all-targets -- -D warnings" "$(cargo clippy --version)"
  RG="$B/store"
  mkdir -p "$RG/src"
  printf '[package]\nname = "store"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >"$RG/Cargo.toml"
  cat >"$RG/src/main.rs" <<'EOF'
use std::collections::HashMap;
use std::fmt::Display;
use std::hash::Hash;

struct Cache<K, V> {
    map: HashMap<K, V>,
}

impl<K: Eq + Hash, V: Clone> Cache<K, V> {
    fn new() -> Self {
        Cache { map: HashMap::new() }
    }
    fn put(&mut self, k: K, v: V) {
        self.map.insert(k, v);
    }
    fn get(&self, k: &K) -> Option<V> {
        self.map.get(k).cloned()
    }
}

fn show<T: Display>(items: &[T]) -> String {
    items.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
}

struct Sku(u32);

fn main() {
    let mut c: Cache<String, u32> = Cache::new();
    c.put("a", 1);
    let v: Option<String> = c.get(&"a".to_string());
    let mut prices: Cache<Sku, f64> = Cache::new();
    prices.put(Sku(1), 2.5);
    println!("{}", show(&[Sku(1), Sku(2)]));
    let total: u32 = vec![1u64, 2, 3].iter().sum();
    println!("{:?} {}", v, total);
}
EOF
  capture batch9 cargo_build_generic_mismatch "$RG" "cargo build" "$(cargo --version)"

  # C: make -k over ten files with -Wall -Wextra warnings, two compile errors and a link that
  # does not happen; then a link with several undefined references
  C="$B/netd"
  mkdir -p "$C/src" "$C/include"
  cat >"$C/include/netd.h" <<'EOF'
#ifndef NETD_H
#define NETD_H
#include <stddef.h>
struct peer { int fd; unsigned port; char name[32]; };
int peer_open(struct peer *p, const char *host, unsigned port);
void peer_close(struct peer *p);
size_t peer_send(struct peer *p, const char *buf, size_t len);
int config_load(const char *path);
void log_msg(int level, const char *fmt, ...);
#endif
EOF
  for f in peer config log buffer timer dns tls route stats main; do
    cat >"$C/src/$f.c" <<EOF
#include <stdio.h>
#include <string.h>
#include "netd.h"

static int ${f}_state;

int ${f}_init(int flags, const char *name) {
  int i;
  unsigned n = 0;
  for (i = 0; i < flags; i++) {
    if (n < i) n++;
  }
  char buf[8];
  sprintf(buf, "%s-%d", name, flags);
  return n;
}

int ${f}_check(struct peer *p) {
  if (p->port = 0) return -1;
  printf("%d\n", p->name);
}
EOF
  done
  cat >>"$C/src/dns.c" <<'EOF'
int dns_resolve(const char *host) {
  struct addrinfo *res;
  return getaddrinfo(host, NULL, NULL, &res);
}
EOF
  cat >>"$C/src/tls.c" <<'EOF'
int tls_handshake(struct peer *p) {
  return p->session->state;
}
EOF
  cat >"$C/Makefile" <<'EOF'
CFLAGS = -Wall -Wextra -O2 -Iinclude
SRC = $(wildcard src/*.c)
OBJ = $(SRC:.c=.o)

netd: $(OBJ)
	$(CC) -o $@ $(OBJ)

clean:
	rm -f netd src/*.o
EOF
  capture batch9 make_k_wall_wextra_ten_files "$C" "make -k" "$(gcc --version | head -1), $(make --version | head -1)"
  CL="$B/netd-link"
  mkdir -p "$CL"
  cp -r "$C/include" "$CL/"
  cat >"$CL/main.c" <<'EOF'
#include "netd.h"
int route_add(const char *dst, int metric);
int stats_flush(void);
int main(int argc, char **argv) {
  struct peer p;
  (void)argv;
  if (config_load("/etc/netd.conf") < 0) return 1;
  log_msg(1, "starting with %d args", argc);
  peer_open(&p, "localhost", 8080);
  peer_send(&p, "hello", 5);
  route_add("10.0.0.0/8", argc);
  stats_flush();
  peer_close(&p);
  return 0;
}
EOF
  cat >"$CL/peer.c" <<'EOF'
#include "netd.h"
int peer_open(struct peer *p, const char *host, unsigned port) { (void)host; p->port = port; return 0; }
EOF
  capture batch9 gcc_link_undefined_many "$CL" "gcc -Wall -Iinclude -o netd main.c peer.c" "$(gcc --version | head -1)"

  # ruby: rspec with failures and pending, rubocop over ten files
  RB="$B/shelf"
  mkdir -p "$RB/lib/shelf" "$RB/spec"
  cat >"$RB/lib/shelf.rb" <<'EOF'
module Shelf
  class Book
    attr_reader :title, :isbn, :copies

    def initialize(title, isbn, copies = 1)
      @title = title
      @isbn = isbn
      @copies = copies
    end

    def lend!
      raise ArgumentError, "no copies left of #{title}" if copies.zero?
      @copies -= 1
    end

    def valid_isbn?
      digits = isbn.delete("-").chars.map(&:to_i)
      digits.size == 13 && (digits.each_with_index.sum { |d, i| i.even? ? d : d * 3 } % 10).zero?
    end

    def slug
      title.downcase.gsub(/[^a-z0-9]+/, "-")
    end
  end
end
EOF
  cat >"$RB/spec/book_spec.rb" <<'EOF'
require_relative "../lib/shelf"

RSpec.describe Shelf::Book do
  let(:book) { described_class.new("The Pragmatic Programmer", "978-0-13-595705-9", 2) }

  describe "#lend!" do
    it "decrements copies" do
      book.lend!
      expect(book.copies).to eq(1)
    end

    it "raises when none left" do
      b = described_class.new("Dune", "978-0-441-17271-9", 0)
      expect { b.lend! }.to raise_error(ArgumentError, "no copies left")
    end
  end

  describe "#valid_isbn?" do
    it "accepts a valid ISBN-13" do
      expect(book.valid_isbn?).to be true
    end

    it "rejects a short one" do
      expect(described_class.new("x", "123").valid_isbn?).to be false
    end
  end

  describe "#slug" do
    it "dasherizes the title" do
      expect(book.slug).to eq("the-pragmatic-programmer")
    end

    it "strips trailing punctuation" do
      expect(described_class.new("Why?", "1").slug).to eq("why")
    end

    it "handles unicode" do
      pending "transliteration not implemented"
      expect(described_class.new("Café", "1").slug).to eq("cafe")
    end
  end

  describe "#reserve" do
    it "reserves a copy" do
      expect(book.reserve("ana")).to eq(true)
    end

    xit "notifies the reader"
  end
end
EOF
  capture batch9 rspec_failures_pending "$RB" "rspec" "$(rspec --version | head -1)"
  for f in catalog loans members fines search reports mailer export import admin; do
    cat >"$RB/lib/shelf/$f.rb" <<EOF
module Shelf
  class ${f^}
    def initialize(db, opts={})
      @db = db
      @opts = opts
    end

    def run(items)
      result = []
      items.each do |i|
        if i != nil and i.size > 0
          result << i.upcase()
        end
      end
      return result
    end

    def find(id)
      begin
        @db.find(id)
      rescue Exception => e
        puts "failed: " + e.message
      end
    end

    def label; "${f}" end
  end
end
EOF
  done
  capture batch9 rubocop_ten_files "$RB" "rubocop lib" "rubocop $(rubocop --version)"

  # git: merge with conflicts of several kinds in six files, status mid-merge, log -p --follow of
  # a renamed file, diff with binary files, rebase stopped on a conflict then status
  GT="$B/site"
  mkdir -p "$GT" && cd "$GT" && git init -q -b main && git config user.email dev@example.com &&
    git config user.name Dev && mkdir -p src docs assets &&
    for f in app router store api; do
      printf 'export const %s = {\n  name: "%s",\n  version: 1,\n  retries: 3,\n  timeout: 30,\n};\n' "$f" "$f" >"src/$f.js"
    done &&
    printf '# Site\n\nIntro.\n\n## Setup\n\nnpm ci\n' >README.md &&
    printf 'guide v1\n' >docs/guide.md && printf 'legacy helpers\n' >src/legacy.js &&
    head -c 2048 /dev/urandom >assets/logo.png && git add -A && git commit -qm "initial site" &&
    git checkout -qb feature/retry &&
    for f in app router store api; do sed -i 's/retries: 3/retries: 5/; s/timeout: 30/timeout: 60/' "src/$f.js"; done &&
    printf '# Site\n\nIntro with retries.\n\n## Setup\n\npnpm install\n' >README.md &&
    printf 'legacy helpers, used by retry\n' >src/legacy.js &&
    git mv docs/guide.md docs/handbook.md && printf 'handbook v2\n' >docs/handbook.md &&
    head -c 3000 /dev/urandom >assets/logo.png && git add -A && git commit -qm "retry: raise limits" &&
    git checkout -q main &&
    for f in app router store api; do sed -i 's/retries: 3/retries: 2/; s/timeout: 30/timeout: 10/' "src/$f.js"; done &&
    printf '# Site\n\nIntro, fast.\n\n## Setup\n\nyarn\n' >README.md && git rm -q src/legacy.js &&
    printf 'guide v1, main edits\n' >docs/guide.md &&
    head -c 2500 /dev/urandom >assets/logo.png && git add -A && git commit -qm "main: lower limits" &&
    cd - >/dev/null
  capture batch9 git_merge_six_conflicts "$GT" "git merge feature/retry" "$(git --version)"
  capture batch9 git_status_mid_merge "$GT" "git status" "$(git --version)"
  (cd "$GT" && git merge --abort)
  GL="$B/lib"
  mkdir -p "$GL" && cd "$GL" && git init -q -b main && git config user.email dev@example.com &&
    git config user.name Dev &&
    python3 -c '
for i in range(40): print(f"def helper_{i}(x):\n    return x + {i}\n")' >utils.py &&
    git add -A && git commit -qm "add utils" &&
    for k in 1 2 3 4 5 6; do
      sed -i "s/return x + $((k * 3))\$/return x * $k + $((k * 3))/" utils.py 2>/dev/null || true
      f=utils.py; [ -f helpers/text.py ] && f=helpers/text.py
      sed -i "s/return x + $((k * 5))\$/return x - $((k * 5))/" "$f"
      printf 'def added_%d(s):\n    return s.strip()[:%d]\n\n' "$k" "$((k * 10))" >>"$f"
      git add -A && git commit -qm "text helpers: step $k"
      if [ $k = 3 ]; then mkdir -p helpers && git mv utils.py helpers/text.py && git commit -qm "move utils.py to helpers/text.py"; fi
    done &&
    cd - >/dev/null
  capture batch9 git_log_p_follow_rename "$GL" "git log -p --follow -- helpers/text.py" "$(git --version)"
  (cd "$GT" && git checkout -q feature/retry)
  capture batch9 git_diff_binary_stat "$GT" "git diff --stat -p main -- assets src/app.js docs README.md" "$(git --version)"
  (cd "$GT" && git checkout -q main)
  GR="$B/svc"
  mkdir -p "$GR" && cd "$GR" && git init -q -b main && git config user.email dev@example.com &&
    git config user.name Dev && printf 'port = 8080\nworkers = 4\nlog = "info"\n' >config.toml &&
    printf 'def main():\n    print("svc")\n' >svc.py && git add -A && git commit -qm "svc skeleton" &&
    git checkout -qb topic && printf 'port = 9090\nworkers = 4\nlog = "info"\n' >config.toml &&
    git commit -qam "topic: move to port 9090" && printf 'def main():\n    print("svc v2")\n' >svc.py &&
    git commit -qam "topic: v2 banner" && printf 'port = 9090\nworkers = 8\nlog = "debug"\n' >config.toml &&
    git commit -qam "topic: more workers, debug log" &&
    git checkout -q main && printf 'port = 8443\nworkers = 4\nlog = "warn"\n' >config.toml &&
    git commit -qam "main: tls port, quieter log" && git checkout -q topic && cd - >/dev/null
  capture batch9 git_rebase_stopped_conflict "$GR" "git rebase main" "$(git --version)"
  capture batch9 git_status_mid_rebase "$GR" "git status" "$(git --version)"
  (cd "$GR" && git rebase --abort)

  # pytest-xdist: -n 2 with failures spread over workers
  capture batch9 pytest_xdist_n2_failures "$P" "python3 -m pytest -n 2 -p no:cacheprovider tests/test_money.py tests/test_report.py" "$PYV, $(python3 -m pip show pytest-xdist 2>/dev/null | sed -n 's/^Version: /pytest-xdist /p')"
fi

# --- batch10: a tenth blind batch (mainstream families in situations the set lacked: Django's
# runner and checks, tox, pytest's warnings summary / conftest error / --lf, pnpm and npm installs
# with failing scripts, vite, tsc --build references, eslint config errors, prettier, jest coverage
# thresholds, vitest dot, go test -race over packages and setup failures, cargo integration tests and
# features, cmake+ninja, ctest, meson test, rspec load error, rake test, javac over packages, git
# pull/push/bisect/stash/diff renames/cherry-pick range/rebase -i todo, shellcheck tty), captured
# and its signals written and committed before any filter ran on it and before any rule file,
# filter source, filter test, fixture, bench/corpus file or bench/README.md was opened.
# Django and tox come from Debian's packages (python3-django, tox) and run under /usr/bin/python3.
if sel batch10; then
  B="$WORK/batch10"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  SYSPY=/usr/bin/python3
  DJV="Django $($SYSPY -m django --version 2>&1)"

  # Django: manage.py test -v 2 (many tests, failures and an error), check with model errors,
  # migrate with a migration depending on a missing node
  D="$B/shopsite"
  mkdir -p "$D/shopsite" "$D/orders/migrations" "$D/catalog" "$D/billing/migrations"
  : >"$D/shopsite/__init__.py"; : >"$D/orders/__init__.py"; : >"$D/orders/migrations/__init__.py"
  : >"$D/catalog/__init__.py"; : >"$D/billing/__init__.py"; : >"$D/billing/migrations/__init__.py"
  cat >"$D/manage.py" <<'EOF'
#!/usr/bin/env python3
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shopsite.settings")
    from django.core.management import execute_from_command_line
    execute_from_command_line(sys.argv)
EOF
  cat >"$D/shopsite/settings.py" <<'EOF'
import os
SECRET_KEY = "test-only"
DEBUG = True
ALLOWED_HOSTS = []
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "orders",
]
if os.environ.get("WITH_CATALOG"):
    INSTALLED_APPS.append("catalog")
if os.environ.get("WITH_BILLING"):
    INSTALLED_APPS.append("billing")
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"}}
ROOT_URLCONF = "shopsite.urls"
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
EOF
  printf 'urlpatterns = []\n' >"$D/shopsite/urls.py"
  cat >"$D/orders/models.py" <<'EOF'
from decimal import Decimal
from django.db import models


class Order(models.Model):
    customer = models.CharField(max_length=80)
    total = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("0"))
    status = models.CharField(max_length=20, default="new")

    def add_line(self, price, qty):
        self.total += Decimal(price) * qty
        return self.total

    def ship(self):
        if self.status != "paid":
            raise ValueError(f"order {self.pk} is {self.status}, not paid")
        self.status = "shipped"

    def discount(self, percent):
        return (self.total * (100 - percent) / 100).quantize(Decimal("0.01"))
EOF
  cat >"$D/orders/migrations/0001_initial.py" <<'EOF'
from decimal import Decimal
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [
        migrations.CreateModel(
            name="Order",
            fields=[
                ("id", models.AutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("customer", models.CharField(max_length=80)),
                ("total", models.DecimalField(decimal_places=2, default=Decimal("0"), max_digits=10)),
                ("status", models.CharField(default="new", max_length=20)),
            ],
        ),
    ]
EOF
  $SYSPY - "$D/orders/tests.py" <<'EOF'
import sys
out = ['from decimal import Decimal', 'from django.test import TestCase', 'from orders.models import Order', '']
for cls in ["LineTests", "TotalTests", "StatusTests", "CustomerTests", "HistoryTests"]:
    out.append(f"class {cls}(TestCase):")
    for i in range(60):
        out.append(f"    def test_case_{i:02d}(self):")
        out.append(f"        o = Order.objects.create(customer='c{i}')")
        out.append(f"        self.assertEqual(o.add_line('{i}.50', 2), Decimal('{2 * i + 1}.00'))")
    out.append("")
out += [
    "class ShippingTests(TestCase):",
    "    def test_ship_paid(self):",
    "        o = Order.objects.create(customer='ann', status='paid')",
    "        o.ship()",
    "        self.assertEqual(o.status, 'shipped')",
    "",
    "    def test_ship_new_order(self):",
    "        o = Order.objects.create(customer='bob')",
    "        o.ship()",
    "        self.assertEqual(o.status, 'shipped')",
    "",
    "    def test_discount_rounding(self):",
    "        o = Order.objects.create(customer='cy', total=Decimal('19.99'))",
    "        self.assertEqual(o.discount(15), Decimal('17.00'))",
    "",
    "    def test_customer_count(self):",
    "        Order.objects.create(customer='dee')",
    "        Order.objects.create(customer='dee')",
    "        self.assertEqual(Order.objects.filter(customer='dee').count(), 1)",
    "",
]
open(sys.argv[1], "w").write("\n".join(out) + "\n")
EOF
  capture batch10 django_test_v2_failures "$D" "$SYSPY manage.py test -v 2 orders" "$DJV"
  cat >"$D/catalog/models.py" <<'EOF'
from django.db import models


class Product(models.Model):
    name = models.CharField()
    price = models.DecimalField(decimal_places=2)
    supplier = models.ForeignKey("suppliers.Supplier", on_delete=models.CASCADE)
    slug = models.SlugField(max_length=50, unique=True, primary_key=False, db_index=True)
    sku = models.CharField(max_length=20, unique=True, null=True, blank=True, default="")


class Review(models.Model):
    product = models.ForeignKey(Product, on_delete=models.CASCADE, related_name="reviews")
    also_product = models.ForeignKey(Product, on_delete=models.CASCADE, related_name="reviews")
    stars = models.IntegerField(choices=[1, 2, 3, 4, 5])
EOF
  capture batch10 django_check_model_errors "$D" "WITH_CATALOG=1 $SYSPY manage.py check" "$DJV"
  cat >"$D/billing/models.py" <<'EOF'
from django.db import models


class Invoice(models.Model):
    number = models.CharField(max_length=20)
EOF
  cat >"$D/billing/migrations/0001_initial.py" <<'EOF'
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True
    dependencies = [("orders", "0002_order_currency")]
    operations = [
        migrations.CreateModel(
            name="Invoice",
            fields=[("id", models.AutoField(primary_key=True, serialize=False)), ("number", models.CharField(max_length=20))],
        ),
    ]
EOF
  capture batch10 django_migrate_missing_dependency "$D" "WITH_BILLING=1 $SYSPY manage.py migrate" "$DJV"

  # pytest: a huge warnings summary around one failure, a conftest that fails to import in a
  # subdirectory, --lf over a parametrised test class
  PYV="$(python3 -m pytest --version 2>&1)"
  P="$B/metrics"
  mkdir -p "$P/metrics" "$P/tests/api"
  : >"$P/metrics/__init__.py"
  cat >"$P/metrics/agg.py" <<'EOF'
import warnings


def legacy_mean(values):
    warnings.warn("legacy_mean() is deprecated, use statistics.fmean()", DeprecationWarning, stacklevel=2)
    return sum(values) / len(values)


def bucket(value, width):
    if width == 0:
        warnings.warn(f"bucket width 0 for {value}, using 1", RuntimeWarning)
        width = 1
    return value // width * width


def percentile(values, p):
    values = sorted(values)
    k = int(len(values) * p / 100)
    return values[min(k, len(values) - 1)]
EOF
  cat >"$P/tests/test_agg.py" <<'EOF'
import pytest
from metrics.agg import bucket, legacy_mean, percentile


@pytest.mark.parametrize("n", range(1, 161))
def test_legacy_mean(n):
    assert legacy_mean(list(range(n + 1))) == n / 2


@pytest.mark.parametrize("value", range(0, 240, 3))
def test_bucket_zero_width(value):
    assert bucket(value, 0) == value


@pytest.mark.parametrize("value,width,want", [(17, 5, 15), (20, 5, 20), (3, 10, 0)])
def test_bucket(value, width, want):
    assert bucket(value, width) == want


def test_percentile_p90():
    data = [5, 1, 9, 3, 7, 2, 8, 4, 6, 10]
    assert percentile(data, 90) == 9
EOF
  capture batch10 pytest_warnings_summary_one_fail "$P" "python3 -m pytest -p no:cacheprovider tests/test_agg.py" "$PYV"
  cat >"$P/tests/api/conftest.py" <<'EOF'
import pytest
from metrics.client import ApiClient


@pytest.fixture
def client():
    return ApiClient("http://localhost:8000")
EOF
  printf 'def test_health(client):\n    assert client.get("/health").ok\n' >"$P/tests/api/test_health.py"
  capture batch10 pytest_conftest_import_error "$P" "python3 -m pytest -p no:cacheprovider tests" "$PYV"
  rm -rf "$P/tests/api"
  cat >"$P/tests/test_window.py" <<'EOF'
import pytest
from metrics.agg import percentile


@pytest.mark.parametrize("p", [0, 10, 25, 50, 75, 90, 95, 99, 100])
class TestPercentile:
    data = list(range(1, 21))

    def test_in_range(self, p):
        assert 1 <= percentile(self.data, p) <= 20

    def test_monotonic(self, p):
        assert percentile(self.data, p) <= percentile(self.data, min(p + 5, 100))

    def test_exact(self, p):
        assert percentile(self.data, p) == max(1, round(len(self.data) * p / 100))
EOF
  (cd "$P" && python3 -m pytest -q -o cache_dir="$P/.cache" tests/test_window.py >/dev/null 2>&1)
  capture batch10 pytest_lf_param_class "$P" "python3 -m pytest --lf -v -o cache_dir=.cache tests/test_window.py" "$PYV"

  # tox (Debian's) with a test env and a lint env using the system's site-packages
  T="$B/toxproj"
  mkdir -p "$T/src/slugs" "$T/tests"
  : >"$T/src/slugs/__init__.py"
  cat >"$T/src/slugs/core.py" <<'EOF'
import re, os


def slugify(text):
    text = text.lower().strip()
    return re.sub(r"[^a-z0-9]+", "-", text)


def unused(x):
    y = 1
    return x
EOF
  cat >"$T/tests/test_core.py" <<'EOF'
import sys
sys.path.insert(0, "src")
from slugs.core import slugify


def test_simple():
    assert slugify("Hello World") == "hello-world"


def test_trailing():
    assert slugify("Hello, World!") == "hello-world"


def test_unicode():
    assert slugify("Crème brûlée") == "creme-brulee"
EOF
  cat >"$T/tox.ini" <<'EOF'
[tox]
envlist = py3, lint
skipsdist = true

[testenv]
sitepackages = true
commands = python -m pytest -q -p no:cacheprovider tests

[testenv:lint]
sitepackages = true
commands = python -m pyflakes src
EOF
  capture batch10 tox_pytest_and_lint "$T" "tox" "tox $(tox --version 2>&1 | head -1)"

  # node: pnpm install with a failing postinstall of a local package, npm install of a local
  # package whose build fails, vite build with a missing export, tsc --build over references with
  # errors in two projects, eslint with an unknown rule in its flat config, prettier --check over
  # many files, jest --coverage under a threshold, vitest with a failing beforeAll (dot reporter)
  NPM10="$WORK/npm10"
  if [ ! -x "$NPM10/node_modules/.bin/vite" ]; then
    mkdir -p "$NPM10" && (cd "$NPM10" && npm init -y >/dev/null &&
      npm install jest@29 vitest@2 eslint@9 @eslint/js@9 typescript prettier@3 vite@5 pnpm@9 >/dev/null 2>&1)
  fi
  NB="$NPM10/node_modules/.bin"
  PN="$B/pn-app"
  mkdir -p "$PN/packages/native-hash"
  cat >"$PN/package.json" <<'EOF'
{
  "name": "pn-app",
  "version": "1.0.0",
  "private": true,
  "dependencies": {
    "native-hash": "file:./packages/native-hash",
    "left-pad": "1.3.0",
    "is-even": "1.0.0",
    "request": "2.88.2",
    "react-dom": "18.2.0"
  }
}
EOF
  cat >"$PN/packages/native-hash/package.json" <<'EOF'
{
  "name": "native-hash",
  "version": "0.3.1",
  "main": "index.js",
  "scripts": { "postinstall": "node build.js" }
}
EOF
  printf 'module.exports = require("./build/hash.node");\n' >"$PN/packages/native-hash/index.js"
  cat >"$PN/packages/native-hash/build.js" <<'EOF'
const fs = require("fs");
console.log("native-hash: configuring for", process.platform, process.arch);
console.log("native-hash: looking for libxxhash headers");
const dirs = ["/usr/include/xxhash.h", "/usr/local/include/xxhash.h"];
for (const d of dirs) console.log("  checking", d, fs.existsSync(d) ? "found" : "missing");
console.error("native-hash: error: xxhash.h not found; install libxxhash-dev or set XXHASH_INCLUDE");
process.exit(1);
EOF
  capture batch10 pnpm_install_postinstall_fails "$PN" "$NB/pnpm install --store-dir $WORK/pnpm-store --reporter=append-only" "pnpm $("$NB/pnpm" --version)"
  NI="$B/npm-local"
  mkdir -p "$NI/vendor/imgtool"
  printf '{\n  "name": "npm-local",\n  "version": "1.0.0",\n  "private": true\n}\n' >"$NI/package.json"
  cat >"$NI/vendor/imgtool/package.json" <<'EOF'
{
  "name": "imgtool",
  "version": "2.1.0",
  "scripts": { "install": "node scripts/build.js" }
}
EOF
  mkdir -p "$NI/vendor/imgtool/scripts"
  cat >"$NI/vendor/imgtool/scripts/build.js" <<'EOF'
const { execSync } = require("child_process");
console.log("imgtool: building native bindings");
function compile(src) {
  return execSync(`cc -shared -fPIC -o build/${src}.so src/${src}.c -lpng`, { stdio: "inherit" });
}
compile("resize");
EOF
  capture batch10 npm_install_local_build_fails "$NI" "npm install ./vendor/imgtool" "npm $(npm --version)"
  VI="$B/vite-app"
  mkdir -p "$VI/src/lib"
  ln -s "$NPM10/node_modules" "$VI/node_modules"
  printf '{ "name": "vite-app", "private": true, "type": "module" }\n' >"$VI/package.json"
  printf '<!doctype html>\n<html><body><div id="app"></div><script type="module" src="/src/main.js"></script></body></html>\n' >"$VI/index.html"
  cat >"$VI/src/main.js" <<'EOF'
import { formatPrice, formatDate } from "./lib/format.js";
import { fetchCart } from "./lib/api.js";

const cart = await fetchCart();
document.querySelector("#app").textContent = cart.items.map((i) => `${i.name} ${formatPrice(i.price)} ${formatDate(i.added)}`).join("\n");
EOF
  printf 'export function formatPrice(p) {\n  return p.toFixed(2);\n}\nexport const formatDay = (d) => new Date(d).toDateString();\n' >"$VI/src/lib/format.js"
  printf 'export async function fetchCart() {\n  return (await fetch("/api/cart")).json();\n}\n' >"$VI/src/lib/api.js"
  capture batch10 vite_build_missing_export "$VI" "$NB/vite build" "vite $("$NB/vite" --version)"
  TB="$B/ts-mono"
  mkdir -p "$TB/packages/core/src" "$TB/packages/api/src" "$TB/packages/web/src"
  ln -s "$NPM10/node_modules" "$TB/node_modules"
  cat >"$TB/tsconfig.json" <<'EOF'
{ "files": [], "references": [{ "path": "packages/core" }, { "path": "packages/api" }, { "path": "packages/web" }] }
EOF
  for p in core api web; do
    refs=""; [ $p = api ] && refs=', "references": [{ "path": "../core" }]'
    [ $p = web ] && refs=', "references": [{ "path": "../core" }, { "path": "../api" }]'
    printf '{ "compilerOptions": { "composite": true, "strict": true, "outDir": "dist", "rootDir": "src", "target": "ES2020", "module": "commonjs", "declaration": true }, "include": ["src"]%s }\n' "$refs" >"$TB/packages/$p/tsconfig.json"
  done
  cat >"$TB/packages/core/src/index.ts" <<'EOF'
export interface User { id: number; name: string; email?: string }
export function displayName(u: User): string {
  return u.name.trim();
}
export function parseId(raw: string): number {
  const n = Number(raw);
  if (Number.isNaN(n)) throw new Error(`bad id ${raw}`);
  return n;
}
EOF
  cat >"$TB/packages/api/src/index.ts" <<'EOF'
import { User, parseId } from "../../core/src/index";

export function loadUser(raw: string): User {
  const id = parseId(raw);
  return { id, name: `user${id}`, email: id };
}

export function emailDomain(u: User): string {
  return u.email.split("@")[1];
}

export function findUser(users: User[], id: string): User {
  return users.find((u) => u.id === id);
}
EOF
  cat >"$TB/packages/web/src/index.ts" <<'EOF'
import { displayName } from "../../core/src/index";
import { loadUser } from "../../api/src/index";

const u = loadUser("7");
const label: number = displayName(u);
console.log(label.toUpperCase(), u.nickname);
EOF
  capture batch10 tsc_build_references_two_projects "$TB" "$NB/tsc --build --verbose" "tsc $("$NB/tsc" --version)"
  ES="$B/eslint-cfg"
  mkdir -p "$ES/src"
  ln -s "$NPM10/node_modules" "$ES/node_modules"
  printf '{ "name": "eslint-cfg", "private": true, "type": "module" }\n' >"$ES/package.json"
  cat >"$ES/eslint.config.js" <<'EOF'
import js from "@eslint/js";

export default [
  js.configs.recommended,
  {
    files: ["src/**/*.js"],
    rules: {
      "no-unused-vars": "warn",
      "no-unsed-expressions": "error",
      "prefer-const": ["error", { destructuring: "al" }],
    },
  },
];
EOF
  printf 'export const a = 1;\nlet b = 2;\nexport default b;\n' >"$ES/src/index.js"
  capture batch10 eslint_flat_config_unknown_rule "$ES" "$NB/eslint src" "eslint $("$NB/eslint" --version)"
  PR="$B/prettier-site"
  mkdir -p "$PR/src/components" "$PR/src/pages" "$PR/src/styles"
  ln -s "$NPM10/node_modules" "$PR/node_modules"
  printf '{ "name": "prettier-site", "private": true }\n' >"$PR/package.json"
  for i in $(seq 1 45); do
    if [ $((i % 3)) = 0 ]; then
      printf 'export function Card%d(props){return {title:props.title,  body : props.body,id:%d}}\n' "$i" "$i" >"$PR/src/components/card$i.js"
    else
      printf 'export function Card%d(props) {\n  return { title: props.title, body: props.body, id: %d };\n}\n' "$i" "$i" >"$PR/src/components/card$i.js"
    fi
  done
  for i in $(seq 1 20); do
    if [ $((i % 4)) = 1 ]; then
      printf '.page-%d{color:red;margin:0 auto}\n' "$i" >"$PR/src/styles/page$i.css"
    else
      printf '.page-%d {\n  color: red;\n  margin: 0 auto;\n}\n' "$i" >"$PR/src/styles/page$i.css"
    fi
    printf '{ "title": "Page %d", "slug": "page-%d" }\n' "$i" "$i" >"$PR/src/pages/page$i.json"
  done
  printf '{"title":"Broken","slug":"broken",}\n' >"$PR/src/pages/broken.json"
  capture batch10 prettier_check_many_files "$PR" "$NB/prettier --check src" "prettier $("$NB/prettier" --version)"
  JC="$B/jest-cov"
  mkdir -p "$JC/src" "$JC/test"
  ln -s "$NPM10/node_modules" "$JC/node_modules"
  cat >"$JC/package.json" <<'EOF'
{
  "name": "jest-cov",
  "private": true,
  "jest": {
    "collectCoverageFrom": ["src/**/*.js"],
    "coverageThreshold": { "global": { "lines": 90, "branches": 80 }, "./src/parse*.js": { "statements": 95 } }
  }
}
EOF
  for m in cart parseDate parseMoney price shipping tax user session token cache queue router $(seq -f 'mod%g' 1 140); do
    cat >"$JC/src/$m.js" <<EOF
function ${m}Main(x) {
  if (x === undefined) return null;
  if (typeof x === "string") return x.trim();
  if (Array.isArray(x)) return x.map(String);
  return x;
}
function ${m}Extra(y) {
  if (y > 10) return "big";
  if (y < 0) return "negative";
  return "small";
}
module.exports = { ${m}Main, ${m}Extra };
EOF
    cat >"$JC/test/$m.test.js" <<EOF
const { ${m}Main } = require("../src/$m");
test("${m} trims strings", () => {
  expect(${m}Main("  a ")).toBe("a");
});
test("${m} maps arrays", () => {
  expect(${m}Main([1, 2])).toEqual(["1", "2"]);
});
EOF
  done
  capture batch10 jest_coverage_threshold_fails "$JC" "$NB/jest --ci --coverage" "jest $("$NB/jest" --version)"
  VT="$B/vitest-db"
  mkdir -p "$VT/test"
  ln -s "$NPM10/node_modules" "$VT/node_modules"
  printf '{ "name": "vitest-db", "private": true, "type": "module" }\n' >"$VT/package.json"
  cat >"$VT/test/repo.test.js" <<'EOF'
import { beforeAll, describe, expect, it } from "vitest";

let db;
async function connect(url) {
  throw new Error(`connect ECONNREFUSED ${url}`);
}

describe("user repo", () => {
  beforeAll(async () => {
    db = await connect("127.0.0.1:5432");
  });
  it("inserts", () => expect(db.insert({ id: 1 })).toBe(true));
  it("finds", () => expect(db.find(1)).toEqual({ id: 1 }));
  it("deletes", () => expect(db.delete(1)).toBe(true));
});
EOF
  for n in $(seq 1 8); do
    cat >"$VT/test/util$n.test.js" <<EOF
import { describe, expect, it } from "vitest";
describe("util $n", () => {
  for (let i = 0; i < 12; i++) it("case " + i, () => expect(i + $n).toBe($n + i));
  it("rounds", () => expect(Math.round($n * 1.5)).toBe($([ $n = 5 ] && echo 7 || echo "Math.round($n * 1.5)")));
});
EOF
  done
  capture batch10 vitest_beforeall_fail_dot "$VT" "$NB/vitest run --reporter=dot" "vitest $("$NB/vitest" --version)"

  # go: go test -count=1 -race over several packages with a race in one; go test ./... where one
  # package fails go test's vet check and another fails
  G="$B/gosvc"
  mkdir -p "$G/cache" "$G/queue" "$G/stats" "$G/api" "$G/auth"
  printf 'module example.com/gosvc\n\ngo 1.19\n' >"$G/go.mod"
  cat >"$G/cache/cache.go" <<'EOF'
package cache

type Cache struct{ m map[string]int; hits int }

func New() *Cache { return &Cache{m: map[string]int{}} }

func (c *Cache) Get(k string) (int, bool) {
	v, ok := c.m[k]
	if ok {
		c.hits++
	}
	return v, ok
}

func (c *Cache) Set(k string, v int) { c.m[k] = v }
func (c *Cache) Hits() int         { return c.hits }
EOF
  cat >"$G/cache/cache_test.go" <<'EOF'
package cache

import (
	"fmt"
	"sync"
	"testing"
)

func TestSetGet(t *testing.T) {
	c := New()
	c.Set("a", 1)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Fatalf("Get(a) = %d, %v", v, ok)
	}
}

func TestConcurrentGet(t *testing.T) {
	c := New()
	for i := 0; i < 10; i++ {
		c.Set(fmt.Sprint(i), i)
	}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c.Get(fmt.Sprint(i))
		}(i)
	}
	wg.Wait()
	if c.Hits() != 4 {
		t.Errorf("hits = %d, want 4", c.Hits())
	}
}
EOF
  for p in queue stats auth; do
    printf 'package %s\n\nfunc Add(a, b int) int { return a + b }\n' "$p" >"$G/$p/$p.go"
    printf 'package %s\n\nimport (\n\t"fmt"\n\t"testing"\n)\n\nfunc TestAdd(t *testing.T) {\n\tfor i := 0; i < 40; i++ {\n\t\ti := i\n\t\tt.Run(fmt.Sprintf("plus_one_%%02d", i), func(t *testing.T) {\n\t\t\tif Add(i, 1) != i+1 {\n\t\t\t\tt.Fatal("bad")\n\t\t\t}\n\t\t})\n\t}\n}\n' "$p" >"$G/$p/${p}_test.go"
  done
  printf 'package api\n\nimport "example.com/gosvc/cache"\n\nfunc Lookup(c *cache.Cache, k string) int { v, _ := c.Get(k); return v }\n' >"$G/api/api.go"
  printf 'package api\n\nimport (\n\t"testing"\n\n\t"example.com/gosvc/cache"\n)\n\nfunc TestLookup(t *testing.T) {\n\tc := cache.New()\n\tc.Set("k", 3)\n\tif got := Lookup(c, "k"); got != 3 {\n\t\tt.Errorf("Lookup = %%d", got)\n\t}\n}\n' >"$G/api/api_test.go"
  capture batch10 go_test_race_count1_packages "$G" "go test -count=1 -race -v ./..." "$(go version)"
  mkdir -p "$G/report"
  printf 'package report\n\nimport "fmt"\n\nfunc Render(n int) string { return fmt.Sprintf("page %%d of %%s", n) }\n' >"$G/report/report.go"
  printf 'package report\n\nimport "testing"\n\nfunc TestRender(t *testing.T) { _ = Render(1) }\n' >"$G/report/report_test.go"
  printf 'package stats\n\nimport "testing"\n\nfunc TestMean(t *testing.T) {\n\tgot := float64(Add(3, 4)) / 2\n\tif got != 3 {\n\t\tt.Errorf("mean(3, 4) = %%v, want 3", got)\n\t}\n}\n' >"$G/stats/mean_test.go"
  capture batch10 go_test_vet_fail_and_fail "$G" "go test -count=1 ./..." "$(go version)"

  # cargo: a workspace whose integration tests fail in two test binaries (--no-fail-fast), a
  # feature-gated module that does not compile
  C="$B/rustws"
  mkdir -p "$C/crates/geo/src" "$C/crates/geo/tests" "$C/crates/units/src"
  printf '[workspace]\nmembers = ["crates/geo", "crates/units"]\nresolver = "2"\n' >"$C/Cargo.toml"
  printf '[package]\nname = "units"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\nimperial = []\n' >"$C/crates/units/Cargo.toml"
  cat >"$C/crates/units/src/lib.rs" <<'EOF'
pub fn km_to_m(km: f64) -> f64 {
    km * 1000.0
}

#[cfg(feature = "imperial")]
pub mod imperial {
    pub fn miles_to_km(miles: f64) -> f64 {
        miles * 1.609344
    }

    pub fn feet(m: f64) -> u32 {
        m * 3.28084
    }

    pub fn label(miles: f64) -> String {
        format!("{} mi", miles_to_km(miles).round() as i64, "km")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn km() {
        assert_eq!(super::km_to_m(1.5), 1500.0);
    }
}
EOF
  printf '[package]\nname = "geo"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nunits = { path = "../units" }\n' >"$C/crates/geo/Cargo.toml"
  cat >"$C/crates/geo/src/lib.rs" <<'EOF'
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point { pub lat: f64, pub lon: f64 }

pub fn distance_km(a: Point, b: Point) -> f64 {
    let r = 6371.0;
    let dlat = (b.lat - a.lat).to_radians();
    let dlon = (b.lon - a.lon).to_radians();
    let h = (dlat / 2.0).sin().powi(2) + a.lat.to_radians().cos() * b.lat.to_radians().cos() * (dlon / 2.0).sin().powi(2);
    2.0 * r * h.sqrt().asin()
}

pub fn parse(s: &str) -> Point {
    let mut it = s.split(',');
    Point { lat: it.next().unwrap().trim().parse().unwrap(), lon: it.next().unwrap().trim().parse().unwrap() }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn zero() { assert_eq!(distance_km(Point { lat: 1.0, lon: 1.0 }, Point { lat: 1.0, lon: 1.0 }), 0.0); }
}
EOF
  for i in $(seq 1 120); do
    printf '\n#[cfg(test)]\nmod grid_%03d {\n    #[test]\n    fn same_point() {\n        let p = super::Point { lat: %d.0 / 10.0, lon: 1.0 };\n        assert_eq!(super::distance_km(p, p), 0.0);\n    }\n\n    #[test]\n    fn parse_back() {\n        assert_eq!(super::parse("%d.5, 2").lat, %d.5);\n    }\n}\n' "$i" "$i" "$i" "$i" >>"$C/crates/geo/src/lib.rs"
  done
  cat >"$C/crates/geo/tests/distance.rs" <<'EOF'
use geo::{distance_km, Point};

#[test]
fn paris_london() {
    let d = distance_km(Point { lat: 48.8566, lon: 2.3522 }, Point { lat: 51.5074, lon: -0.1278 });
    assert!((d - 343.5).abs() < 1.0, "distance was {d}");
}

#[test]
fn symmetric() {
    let a = Point { lat: 10.0, lon: 20.0 };
    let b = Point { lat: -5.0, lon: 40.0 };
    assert_eq!(distance_km(a, b), distance_km(b, a));
}

#[test]
fn antipodes_in_meters() {
    let d = distance_km(Point { lat: 0.0, lon: 0.0 }, Point { lat: 0.0, lon: 180.0 });
    assert_eq!(units::km_to_m(d).round(), 20_000_000.0);
}
EOF
  cat >"$C/crates/geo/tests/parse.rs" <<'EOF'
use geo::{parse, Point};

#[test]
fn plain() {
    assert_eq!(parse("1.5, 2.5"), Point { lat: 1.5, lon: 2.5 });
}

#[test]
fn with_spaces_and_degrees() {
    assert_eq!(parse(" 48.85°, 2.35° "), Point { lat: 48.85, lon: 2.35 });
}
EOF
  (cd "$C" && cargo build --tests -q >/dev/null 2>&1)
  capture batch10 cargo_test_integration_no_fail_fast "$C" "cargo test --no-fail-fast" "$(cargo --version)"
  capture batch10 cargo_build_feature_gated_errors "$C" "cargo build -p units --features imperial" "$(cargo --version)"

  # C: cmake + ninja with errors in two targets (-k 0), ctest with a failure, a crash and a
  # timeout, meson test with failures
  CM="$B/imgproc"
  mkdir -p "$CM/libimg" "$CM/tools" "$CM/tests"
  cat >"$CM/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(imgproc C)
set(CMAKE_C_STANDARD 11)
add_compile_options(-Wall -Wextra)
file(GLOB LIBSRC libimg/*.c)
add_library(img ${LIBSRC})
target_include_directories(img PUBLIC libimg)
add_executable(imgconv tools/imgconv.c)
target_link_libraries(imgconv img m)
add_executable(imginfo tools/imginfo.c)
target_link_libraries(imginfo img)
enable_testing()
foreach(t blur scale crop rotate)
  add_executable(test_${t} tests/test_${t}.c)
  target_link_libraries(test_${t} img m)
  add_test(NAME ${t} COMMAND test_${t})
endforeach()
set_tests_properties(rotate PROPERTIES TIMEOUT 2)
EOF
  printf 'typedef struct { int w, h; unsigned char *px; } image;\nimage *img_new(int w, int h);\nvoid img_free(image *im);\nint img_scale(image *im, double f);\nint img_crop(image *im, int x, int y, int w, int h);\nint img_blur(image *im, int r);\nint img_rotate(image *im, int deg);\n' >"$CM/libimg/img.h"
  for f in alloc io color histogram filter geometry $(seq -f "kernel%03g" 1 240); do
    printf '#include "img.h"\n#include <stdlib.h>\nint %s_dummy(int x) { return x * 2; }\n' "$f" >"$CM/libimg/$f.c"
  done
  cat >"$CM/libimg/ops.c" <<'EOF'
#include "img.h"
#include <stdlib.h>
#include <unistd.h>
image *img_new(int w, int h) { image *im = malloc(sizeof *im); im->w = w; im->h = h; im->px = calloc(w * h, 1); return im; }
void img_free(image *im) { free(im->px); free(im); }
int img_scale(image *im, double f) { im->w = (int)(im->w * f); im->h = (int)(im->h * f); return 0; }
int img_crop(image *im, int x, int y, int w, int h) { (void)x; (void)y; im->w = w; im->h = h; return 0; }
int img_blur(image *im, int r) { return r > im->w ? -1 : 0; }
int img_rotate(image *im, int deg) { while (deg % 90) sleep(1); im->w ^= im->h; return 0; }
EOF
  cat >"$CM/tools/imgconv.c" <<'EOF'
#include <stdio.h>
#include "img.h"

int main(int argc, char **argv) {
    image *im = img_new(640, 480);
    if (argc < 3) {
        fprintf(stderr, "usage: %s IN OUT\n", argv[0]);
        return 2;
    }
    img_scale(im, argv[2]);
    img_save(im, argv[2]);
    img_free(im);
    return 0;
}
EOF
  cat >"$CM/tools/imginfo.c" <<'EOF'
#include <stdio.h>
#include "img.h"

int main(void) {
    image *im = img_new(10, 10);
    printf("%d x %d\n", im->width, im->h);
    unsigned int n = 0
    img_free(im);
    return n;
}
EOF
  for t in blur scale crop rotate; do
    case $t in
      blur) body='image *im = img_new(4, 4); int rc = img_blur(im, 9); printf("blur r=9 on 4x4: rc=%d\n", rc); if (rc != 0) { fprintf(stderr, "FAIL test_blur: expected 0, got %d\n", rc); return 1; } return 0;' ;;
      scale) body='image *im = img_new(100, 50); img_scale(im, 0.5); printf("scaled to %dx%d\n", im->w, im->h); return !(im->w == 50 && im->h == 25);' ;;
      crop) body='image *im = img_new(8, 8); img_free(im); img_crop(NULL, 0, 0, 2, 2); return 0;' ;;
      rotate) body='image *im = img_new(3, 5); printf("rotating by 45\n"); fflush(stdout); img_rotate(im, 45); return 0;' ;;
    esac
    printf '#include <stdio.h>\n#include "img.h"\nint main(void) {\n    %s\n}\n' "$body" >"$CM/tests/test_$t.c"
  done
  (cd "$CM" && cmake -S . -B build -G Ninja >/dev/null 2>&1)
  capture batch10 cmake_build_ninja_two_targets_fail "$CM" "cmake --build build -- -k 0" "$(cmake --version | head -1), ninja $(ninja --version)"
  sed -i 's/img_scale(im, argv\[2\]);/img_scale(im, 0.5);/; s/    img_save(im, argv\[2\]);//' "$CM/tools/imgconv.c"
  sed -i 's/im->width/im->w/; s/unsigned int n = 0$/unsigned int n = 0;/' "$CM/tools/imginfo.c"
  (cd "$CM" && cmake --build build >/dev/null 2>&1)
  capture batch10 ctest_output_on_failure_crash_timeout "$CM/build" "ctest --output-on-failure" "$(ctest --version | head -1)"
  M="$B/mesonlib"
  mkdir -p "$M/src" "$M/tests"
  cat >"$M/meson.build" <<'EOF'
project('strutil', 'c', version: '0.4.0')
lib = static_library('strutil', 'src/strutil.c')
inc = include_directories('src')
foreach t : ['trim', 'split', 'upper', 'join', 'utf8']
  exe = executable('test_' + t, 'tests/test_' + t + '.c', link_with: lib, include_directories: inc)
  test(t, exe)
endforeach
EOF
  cat >"$M/src/strutil.h" <<'EOF'
char *su_trim(char *s);
int su_split(const char *s, char sep);
void su_upper(char *s);
int su_utf8_len(const char *s);
EOF
  cat >"$M/src/strutil.c" <<'EOF'
#include <ctype.h>
#include <string.h>
#include "strutil.h"
char *su_trim(char *s) { while (isspace((unsigned char)*s)) s++; return s; }
int su_split(const char *s, char sep) { int n = 1; for (; *s; s++) if (*s == sep) n++; return n; }
void su_upper(char *s) { for (; *s; s++) *s = toupper((unsigned char)*s); }
int su_utf8_len(const char *s) { return (int)strlen(s); }
EOF
  for t in trim split upper join utf8; do
    case $t in
      trim) body='char b[] = "  hi  "; char *r = su_trim(b); printf("trim -> [%s]\n", r); if (strcmp(r, "hi") != 0) { printf("expected [hi]\n"); return 1; } return 0;' ;;
      split) body='printf("fields: %d\n", su_split("a,b,c", 44)); return su_split("a,b,c", 44) != 3;' ;;
      upper) body='char b[] = "abc"; su_upper(b); return strcmp(b, "ABC") != 0;' ;;
      join) body='printf("join not implemented\n"); return 77;' ;;
      utf8) body='int n = su_utf8_len("h\xc3\xa9llo"); printf("utf8 length of h\\xc3\\xa9llo: got %d, want 5\n", n); return n != 5;' ;;
    esac
    printf '#include <stdio.h>\n#include <string.h>\n#include "strutil.h"\nint main(void) {\n    %s\n}\n' "$body" >"$M/tests/test_$t.c"
  done
  (cd "$M" && meson setup build >/dev/null 2>&1 && meson compile -C build >/dev/null 2>&1)
  capture batch10 meson_test_failures "$M" "meson test -C build" "meson $(meson --version)"

  # ruby: rspec with an error outside examples (a spec file fails to load), rake test (minitest)
  R="$B/rubyapp"
  mkdir -p "$R/lib" "$R/spec" "$R/test"
  cat >"$R/lib/pricing.rb" <<'EOF'
class Pricing
  def initialize(rates)
    @rates = rates
  end

  def net(gross, country)
    (gross / (1 + @rates.fetch(country))).round(2)
  end

  def gross(net, country)
    (net * (1 + @rates.fetch(country))).round(2)
  end
end
EOF
  cat >"$R/spec/pricing_spec.rb" <<'EOF'
require_relative "../lib/pricing"

RSpec.describe Pricing do
  let(:pricing) { Pricing.new("DE" => 0.19, "FR" => 0.2) }

  it "computes net" do
    expect(pricing.net(119.0, "DE")).to eq(100.0)
  end

  it "computes gross" do
    expect(pricing.gross(100.0, "FR")).to eq(120.0)
  end
end
EOF
  cat >"$R/spec/invoice_spec.rb" <<'EOF'
require_relative "../lib/pricing"
require_relative "../lib/invoice"

RSpec.describe Invoice do
  it "totals lines" do
    expect(Invoice.new([1, 2]).total).to eq(3)
  end
end
EOF
  cat >"$R/spec/discount_spec.rb" <<'EOF'
require_relative "../lib/pricing"

RSpec.describe "discounts" do
  it "applies ten percent" do
    expect(90.0).to eq(90.0)
  end
  Pricing.new({}).net(10, "XX")
end
EOF
  capture batch10 rspec_errors_outside_examples "$R" "rspec" "$(rspec --version | head -1)"
  cat >"$R/Rakefile" <<'EOF'
require "rake/testtask"

Rake::TestTask.new(:test) do |t|
  t.libs << "lib" << "test"
  t.test_files = FileList["test/**/*_test.rb"]
  t.verbose = true
end
EOF
  cat >"$R/test/pricing_test.rb" <<'EOF'
require "minitest/autorun"
require "pricing"

class PricingTest < Minitest::Test
  def setup
    @p = Pricing.new("DE" => 0.19, "FR" => 0.2, "LU" => 0.17)
  end

  def test_net_de
    assert_equal 100.0, @p.net(119.0, "DE")
  end

  def test_net_lu
    assert_equal 100.0, @p.net(117.5, "LU")
  end

  def test_gross_fr
    assert_in_delta 120.0, @p.gross(100.0, "FR"), 0.001
  end

  def test_unknown_country
    assert_nil @p.net(10.0, "US")
  end

  def test_rates_frozen
    skip "rates are not frozen yet"
  end
end
EOF
  cat >"$R/test/rounding_test.rb" <<'EOF'
require "minitest/autorun"
require "pricing"

class RoundingTest < Minitest::Test
  300.times do |i|
    define_method("test_gross_roundtrip_#{i}") do
      p = Pricing.new("DE" => 0.19)
      assert_equal i.to_f, p.net(p.gross(i.to_f, "DE"), "DE")
    end
  end
end
EOF
  capture batch10 rake_test_minitest_failures "$R" "rake test TESTOPTS=-v" "$(rake --version), $(ruby --version | cut -d' ' -f1-2)"

  # java: javac over three packages with errors in several files
  JV="$B/javashop"
  mkdir -p "$JV/src/com/shop/model" "$JV/src/com/shop/service" "$JV/src/com/shop/web"
  cat >"$JV/src/com/shop/model/Order.java" <<'EOF'
package com.shop.model;

import java.math.BigDecimal;
import java.util.List;

public class Order {
    private final long id;
    private final List<Line> lines;

    public Order(long id, List<Line> lines) {
        this.id = id;
        this.lines = lines;
    }

    public BigDecimal total() {
        return lines.stream().map(Line::amount).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    public long id() { return id; }
}
EOF
  cat >"$JV/src/com/shop/model/Line.java" <<'EOF'
package com.shop.model;

import java.math.BigDecimal;

public record Line(String sku, int qty, BigDecimal price) {
    public BigDecimal amount() {
        return price.multiply(qty);
    }
}
EOF
  cat >"$JV/src/com/shop/service/OrderService.java" <<'EOF'
package com.shop.service;

import com.shop.model.Order;
import com.shop.model.Customer;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

public class OrderService {
    private final Map<Long, Order> orders = new HashMap<>();

    public Optional<Order> find(long id) {
        return orders.get(id);
    }

    public void save(Order o) {
        orders.put(o.id(), o);
    }

    public int count() {
        return orders.size() * 1L;
    }
}
EOF
  cat >"$JV/src/com/shop/web/OrderController.java" <<'EOF'
package com.shop.web;

import com.shop.service.OrderService;

public class OrderController {
    private final OrderService service;

    public OrderController(OrderService service) {
        this.service = service;
    }

    public String show(String rawId) {
        long id = rawId;
        return service.find(id).map(o -> o.total().toPlainString()).orElse("not found");
    }

    public int stats() {
        String n = service.count();
        return n;
    }
}
EOF
  capture batch10 javac_packages_many_errors "$JV" "javac -d out \$(find src -name '*.java' | sort)" "$(javac -version 2>&1)"

  # git: pull with conflicts from a local remote, push rejected non-fast-forward to a bare repo,
  # bisect log after a session, stash list + show -p, diff -M of a large refactor with renames,
  # cherry-pick of a range stopping on a conflict, rebase -i with a broken todo
  GV="$(git --version)"
  GB="$B/git"
  mkdir -p "$GB" && cd "$GB" &&
    git init -q --bare -b main origin.git &&
    git clone -q origin.git alice 2>/dev/null && cd alice && git config user.email alice@example.com &&
    git config user.name Alice &&
    printf 'name = "shop"\nversion = "1.0.0"\n\n[server]\nport = 8080\nhost = "0.0.0.0"\n\n[db]\nurl = "postgres://localhost/shop"\npool = 5\n' >config.toml &&
    printf 'def handler(req):\n    return {"status": 200}\n\n\ndef health(req):\n    return {"ok": True}\n' >app.py &&
    printf '# shop\n\nRun with `python app.py`.\n' >README.md &&
    git add -A && git commit -qm "initial" && git push -q origin main 2>/dev/null &&
    cd .. && git clone -q origin.git bob 2>/dev/null && cd bob && git config user.email bob@example.com &&
    git config user.name Bob && sed -i 's/port = 8080/port = 9000/; s/pool = 5/pool = 20/' config.toml &&
    sed -i 's/"status": 200/"status": 200, "server": "bob"/' app.py && git commit -qam "bob: bigger pool, port 9000" &&
    git push -q origin main 2>/dev/null && cd ../alice &&
    sed -i 's/port = 8080/port = 8443/; s/pool = 5/pool = 10/' config.toml &&
    sed -i 's/"status": 200/"status": 201/' app.py && printf '\n## Deploy\n\nSee docs.\n' >>README.md &&
    git commit -qam "alice: tls port, pool 10" && cd "$ROOT"
  capture batch10 git_pull_conflicts_local_remote "$GB/alice" "git pull --no-rebase origin main" "$GV"
  (cd "$GB/alice" && git merge --abort)
  capture batch10 git_push_rejected_non_fast_forward "$GB/alice" "git push origin main" "$GV"
  GS="$GB/bis"
  mkdir -p "$GS" && cd "$GS" && git init -q -b main && git config user.email dev@example.com &&
    git config user.name Dev &&
    for i in $(seq 1 24); do
      printf 'LIMIT = %d\n' "$([ "$i" -ge 15 ] && echo 0 || echo 100)" >limits.py
      printf 'step %d\n' "$i" >>CHANGES
      git add -A && git commit -qm "change $i: $(printf 'tune cache\nadd metrics\nrefactor io\nfix typo\n' | sed -n "$(( (i % 4) + 1 ))p")"
    done &&
    git bisect start HEAD HEAD~20 >/dev/null 2>&1 &&
    git bisect run sh -c 'grep -q "LIMIT = 100" limits.py' >/dev/null 2>&1; cd "$ROOT"
  capture batch10 git_bisect_log "$GS" "git bisect log" "$GV"
  (cd "$GS" && git bisect reset -q >/dev/null 2>&1)
  GT="$GB/stash"
  mkdir -p "$GT" && cd "$GT" && git init -q -b main && git config user.email dev@example.com &&
    git config user.name Dev && mkdir -p src &&
    for f in api db cli; do python3 -c "
for i in range(30): print(f'def ${f}_{i}(x):\n    return x + {i}\n')" >"src/$f.py"; done &&
    git add -A && git commit -qm "base" &&
    sed -i 's/return x + 3$/return x + 300/' src/api.py && git stash push -q -m "wip: api offsets" &&
    sed -i 's/return x + 7$/raise NotImplementedError/; s/return x + 21$/return x * 21/' src/db.py &&
    sed -i 's/return x + 1$/return max(x, 1)/' src/cli.py && printf 'TODO = ["retry"]\n' >src/todo.py &&
    git add src/todo.py && git stash push -q -m "wip: db experiments" &&
    sed -i 's/return x + 29$/return None/' src/cli.py && git stash push -q &&
    cd "$ROOT"
  capture batch10 git_stash_list_show_p "$GT" "git stash list && git stash show -p stash@{1}" "$GV"
  GD="$GB/refactor"
  mkdir -p "$GD" && cd "$GD" && git init -q -b main && git config user.email dev@example.com &&
    git config user.name Dev && mkdir -p lib &&
    for f in users orders products invoices payments shipping; do python3 -c "
print('import json\n\n')
for i in range(12): print(f'def ${f}_op_{i}(store, key):\n    value = store.get(key)\n    if value is None:\n        return None\n    return json.loads(value)[{i}]\n\n')" >"lib/$f.py"; done &&
    git add -A && git commit -qm "flat lib" && mkdir -p app/domain app/infra &&
    for f in users orders products; do git mv "lib/$f.py" "app/domain/$f.py"; done &&
    for f in invoices payments; do git mv "lib/$f.py" "app/infra/$f.py"; done &&
    sed -i 's/json.loads(value)/decode(value)/; s/^import json$/from app.codec import decode/' app/domain/*.py &&
    sed -i 's/    if value is None:/    if not value:/' app/infra/payments.py &&
    printf 'import json\n\n\ndef decode(v):\n    return json.loads(v)\n' >app/codec.py && git rm -q lib/shipping.py &&
    git add -A && cd "$ROOT"
  capture batch10 git_diff_refactor_renames "$GD" "git diff --cached -M --stat -p" "$GV"
  GC="$GB/cp"
  mkdir -p "$GC" && cd "$GC" && git init -q -b main && git config user.email dev@example.com &&
    git config user.name Dev &&
    printf 'VERSION = "1.0"\nRETRIES = 3\nTIMEOUT = 30\n' >settings.py && printf 'def run():\n    pass\n' >job.py &&
    git add -A && git commit -qm "base" && git branch release-1.x &&
    printf 'def run():\n    log("start")\n' >job.py && git commit -qam "job: log start" &&
    printf 'VERSION = "2.0-dev"\nRETRIES = 5\nTIMEOUT = 30\n' >settings.py && git commit -qam "settings: more retries" &&
    printf 'def run():\n    log("start")\n    log("done")\n' >job.py && git commit -qam "job: log done" &&
    printf 'VERSION = "2.0-dev"\nRETRIES = 5\nTIMEOUT = 60\n' >settings.py && git commit -qam "settings: longer timeout" &&
    git checkout -q release-1.x && printf 'VERSION = "1.1"\nRETRIES = 3\nTIMEOUT = 45\n' >settings.py &&
    git commit -qam "release: 1.1" && cd "$ROOT"
  capture batch10 git_cherry_pick_range_conflict "$GC" "git cherry-pick main~4..main" "$GV"
  (cd "$GC" && git cherry-pick --abort >/dev/null 2>&1)
  GI="$GB/reb"
  mkdir -p "$GI" && cd "$GI" && git init -q -b main && git config user.email dev@example.com &&
    git config user.name Dev && for i in 1 2 3 4 5; do printf 'line %d\n' "$i" >>notes.txt; git add -A; git commit -qm "notes: add line $i"; done &&
    cd "$ROOT"
  capture batch10 git_rebase_i_bad_todo "$GI" "GIT_SEQUENCE_EDITOR=\"sed -i '2s/^pick/pikc/; 4s/^pick [0-9a-f]*/squash deadbee/'\" git rebase -i HEAD~4" "$GV"

  # shellcheck in its default (tty) format over several scripts
  SC="$B/ops"
  mkdir -p "$SC/bin"
  cat >"$SC/bin/deploy.sh" <<'EOF'
#!/bin/bash
set -e
TARGET=$1
for host in $(cat hosts.txt); do
  ssh $host "cd /srv/app && git pull"
done
if [ $TARGET == "prod" ]; then
  echo "Deploying to $TARGET at `date`"
fi
cd /srv/app
rm -rf $BUILD_DIR/*
EOF
  cat >"$SC/bin/backup.sh" <<'EOF'
#!/bin/sh
DEST=/backups/$(date +%F)
mkdir -p $DEST
for f in /etc/*.conf; do
  cp $f $DEST
done
echo "files: ${#FILES[@]}"
read name
local count=0
[[ -d $DEST ]] && echo ok
EOF
  cat >"$SC/bin/rotate.sh" <<'EOF'
#!/bin/bash
LOGS=/var/log/app
find $LOGS -name "*.log" -mtime +7 | while read f; do
  gzip $f
done
let n=$n+1
echo "rotated" $n 'files in $LOGS'
if [ -z $1 ]; then exit 1; fi
EOF
  printf '#!/bin/bash\nset -euo pipefail\necho "clean script"\n' >"$SC/bin/ok.sh"
  for n in $(seq 1 12); do
    printf '#!/bin/bash\nSRC=$1\nfor f in $(ls $SRC/*.csv); do\n  cat $f | grep -v "^#" > /tmp/job%d.$$\ndone\ncd $SRC\nif [ $? = 0 ] ; then echo "job %d done in $SRC" ; fi\n' "$n" "$n" >"$SC/bin/job$n.sh"
  done
  capture batch10 shellcheck_tty_scripts "$SC" "shellcheck bin/*.sh" "shellcheck $(shellcheck --version | sed -n 's/^version: //p')"
fi

# --- batch11: an eleventh blind batch (Python and JavaScript/TypeScript in situations the set
# lacked: pytest -ra with many skips/xfails, --tb=native, -W error::DeprecationWarning, asyncio
# tests, a failing fixture finaliser, --co -q of a large suite, --maxfail, --doctest-modules, long
# dataclass diffs; unittest -b with setUpClass errors; an ExceptionGroup from a TaskGroup; mypy
# --pretty, pyright, ruff full/statistics, pylint parseable, flake8 with complexity, black --diff;
# pip with an in-tree build backend that fails and a post-install dependency conflict; jest
# --verbose over many suites and a suite that fails to run, vitest verbose and snapshots, node
# --test spec reporter, tsc --listFiles and deep generic errors, eslint --max-warnings 0 and a
# parsing error, prettier on a syntax error, esbuild through npm run build, node --trace-warnings),
# captured and its signals written and committed before any filter ran on it and before any rule
# file, filter source, filter test, fixture, bench/corpus file or bench/README.md was opened.
# Run with ZEPH_HELDOUT_WORK=/tmp/zeph-heldout11; the node tools come from one npm install below.
if sel batch11; then
  B="$WORK/batch11"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  PYV="pytest $(python3 -m pytest --version 2>&1 | sed 's/^pytest //')"

  # pytest: a suite with many skips and xfails and three failures, run with -ra
  P="$B/inventory"
  mkdir -p "$P/inventory" "$P/tests"
  : >"$P/inventory/__init__.py"
  cat >"$P/inventory/stock.py" <<'EOF'
class OutOfStock(Exception):
    pass


class Stock:
    def __init__(self):
        self.items = {}

    def add(self, sku, qty):
        if qty <= 0:
            raise ValueError(f"quantity must be positive, got {qty}")
        self.items[sku] = self.items.get(sku, 0) + qty

    def take(self, sku, qty):
        have = self.items.get(sku, 0)
        if have < qty:
            raise OutOfStock(sku)
        self.items[sku] = have - qty
        return self.items[sku]

    def value(self, prices):
        return sum(prices[s] * q for s, q in self.items.items())

    def reorder(self, threshold):
        return sorted(s for s, q in self.items.items() if q < threshold)
EOF
  cat >"$P/tests/test_stock.py" <<'EOF'
import sys
import pytest
from inventory.stock import Stock, OutOfStock


@pytest.fixture
def stock():
    s = Stock()
    s.add("A-1", 5)
    s.add("B-2", 2)
    s.add("C-3", 9)
    return s


def test_add(stock):
    stock.add("A-1", 1)
    assert stock.items["A-1"] == 6


def test_take(stock):
    assert stock.take("C-3", 4) == 5


def test_take_too_many(stock):
    with pytest.raises(OutOfStock):
        stock.take("B-2", 3)


def test_value(stock):
    prices = {"A-1": 2.0, "B-2": 10.0, "C-3": 0.5}
    assert stock.value(prices) == 34.0


def test_reorder(stock):
    assert stock.reorder(5) == ["B-2", "C-3"]


@pytest.mark.skip(reason="warehouse API not mocked yet")
def test_sync_remote(stock):
    pass


@pytest.mark.skipif(sys.platform == "linux", reason="label printer only on macOS")
def test_print_labels(stock):
    pass


@pytest.mark.parametrize("region", ["eu", "us", "apac", "latam"])
def test_tax_tables(region):
    pytest.skip(f"tax table for {region} not loaded")


@pytest.mark.xfail(reason="negative adjustments not supported (#212)")
def test_negative_add(stock):
    stock.add("A-1", -2)


@pytest.mark.xfail(reason="rounding of fractional stock", strict=False)
def test_fractional(stock):
    stock.add("A-1", 0.5)
    assert stock.items["A-1"] == 5


@pytest.mark.xfail(reason="bulk discount not implemented")
def test_bulk_value(stock):
    assert stock.value({"A-1": 1, "B-2": 1, "C-3": 1}) == 15


def test_add_zero(stock):
    stock.add("D-4", 0)
    assert stock.items["D-4"] == 0


@pytest.mark.parametrize("sku", ["A-1", "B-2", "C-3"])
def test_take_one(stock, sku):
    before = stock.items[sku]
    assert stock.take(sku, 1) == before - 1
EOF
  capture batch11 pytest_ra_skips_xfails_three_fail "$P" "python3 -m pytest -ra -p no:cacheprovider tests" "$PYV"

  # pytest --tb=native with failures from several modules
  cat >"$P/inventory/pricing.py" <<'EOF'
from decimal import Decimal


def parse_price(text):
    amount, currency = text.split(" ")
    return Decimal(amount), currency


def convert(amount, rate_table, frm, to):
    return amount * rate_table[(frm, to)]


def price_with_vat(text, vat):
    amount, currency = parse_price(text)
    return (amount * (1 + Decimal(vat))).quantize(Decimal("0.01")), currency
EOF
  cat >"$P/tests/test_pricing.py" <<'EOF'
from decimal import Decimal
from inventory.pricing import parse_price, convert, price_with_vat


def test_parse():
    assert parse_price("12.50 EUR") == (Decimal("12.50"), "EUR")


def test_parse_no_space():
    assert parse_price("12.50EUR") == (Decimal("12.50"), "EUR")


def test_convert():
    rates = {("EUR", "USD"): Decimal("1.08")}
    assert convert(Decimal("10"), rates, "USD", "EUR") == Decimal("9.26")


def test_vat():
    assert price_with_vat("10.00 EUR", "0.2") == (Decimal("12.00"), "EUR")


def test_vat_float():
    assert price_with_vat("10.00 EUR", 0.19) == (Decimal("11.90"), "EUR")
EOF
  capture batch11 pytest_tb_native "$P" "python3 -m pytest --tb=native -p no:cacheprovider tests/test_pricing.py" "$PYV"

  # pytest -W error::DeprecationWarning: a deprecated call turns into errors
  W="$B/legacy"
  mkdir -p "$W/legacy" "$W/tests"
  : >"$W/legacy/__init__.py"
  cat >"$W/legacy/dates.py" <<'EOF'
import datetime
import warnings


def now_stamp():
    return datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%S")


def old_parse(text):
    warnings.warn("old_parse() is deprecated, use parse()", DeprecationWarning, stacklevel=2)
    return parse(text)


def parse(text):
    return datetime.date.fromisoformat(text)
EOF
  cat >"$W/tests/test_dates.py" <<'EOF'
import datetime
from legacy.dates import now_stamp, old_parse, parse


def test_parse():
    assert parse("2026-11-27") == datetime.date(2026, 11, 27)


def test_stamp_len():
    assert len(now_stamp()) == 15


def test_old_parse():
    assert old_parse("2026-01-02").month == 1


def test_parse_bad():
    try:
        parse("27/11/2026")
    except ValueError:
        pass
EOF
  capture batch11 pytest_W_error_deprecation "$W" "python3 -m pytest -p no:cacheprovider -W error::DeprecationWarning tests" "$PYV"

  # pytest-asyncio: async tests failing with a timeout and an exception from a task
  A="$B/fetcher"
  mkdir -p "$A/fetcher" "$A/tests"
  : >"$A/fetcher/__init__.py"
  cat >"$A/fetcher/pool.py" <<'EOF'
import asyncio


class FetchError(Exception):
    pass


async def fetch(url, delay=0.01):
    await asyncio.sleep(delay)
    if "bad" in url:
        raise FetchError(f"GET {url}: 503 Service Unavailable")
    return {"url": url, "status": 200}


async def fetch_all(urls, limit=2):
    sem = asyncio.Semaphore(limit)

    async def one(u):
        async with sem:
            return await fetch(u)

    return await asyncio.gather(*(one(u) for u in urls))


async def first_ok(urls, timeout):
    return await asyncio.wait_for(fetch(urls[0], delay=1.0), timeout)
EOF
  cat >"$A/pytest.ini" <<'EOF'
[pytest]
asyncio_mode = auto
asyncio_default_fixture_loop_scope = function
EOF
  cat >"$A/tests/test_pool.py" <<'EOF'
import asyncio
import pytest
from fetcher.pool import fetch, fetch_all, first_ok, FetchError


async def test_fetch_ok():
    r = await fetch("https://example.test/a")
    assert r["status"] == 200


async def test_fetch_all_order():
    urls = [f"https://example.test/{i}" for i in range(5)]
    res = await fetch_all(urls)
    assert [r["url"] for r in res] == urls


async def test_fetch_all_with_bad():
    res = await fetch_all(["https://example.test/1", "https://bad.example.test/2"])
    assert len(res) == 2


async def test_first_ok_timeout():
    r = await first_ok(["https://example.test/slow"], timeout=0.05)
    assert r["status"] == 200


async def test_error_type():
    with pytest.raises(FetchError):
        await fetch("https://bad.example.test/")


async def test_background_task_error():
    task = asyncio.create_task(fetch("https://bad.example.test/bg"))
    await asyncio.sleep(0.05)
    assert task.result()["status"] == 200
EOF
  capture batch11 pytest_asyncio_failures "$A" "python3 -m pytest -p no:cacheprovider tests" "$PYV, pytest-asyncio $(python3 -c 'import pytest_asyncio;print(pytest_asyncio.__version__)')"

  # pytest: a yield fixture whose finaliser fails (teardown errors) besides passing tests
  F="$B/tmpstore"
  mkdir -p "$F/tests"
  cat >"$F/tests/conftest.py" <<'EOF'
import os
import pytest


class Store:
    def __init__(self, root):
        self.root = root
        self.open_handles = []

    def put(self, name, data):
        path = os.path.join(self.root, name)
        fh = open(path, "w")
        fh.write(data)
        self.open_handles.append(fh)
        return path

    def close(self):
        leaked = [h.name for h in self.open_handles if not h.closed]
        for h in self.open_handles:
            h.close()
        if leaked:
            raise RuntimeError(f"store closed with {len(leaked)} open handle(s): {leaked}")


@pytest.fixture
def store(tmp_path):
    s = Store(str(tmp_path))
    yield s
    s.close()


@pytest.fixture(scope="module")
def registry():
    reg = {"users": 0}
    yield reg
    assert reg["users"] == 0, f"registry not cleaned up: {reg}"
EOF
  cat >"$F/tests/test_store.py" <<'EOF'
def test_put_returns_path(store):
    p = store.put("a.txt", "hello")
    store.open_handles[-1].close()
    assert p.endswith("a.txt")


def test_put_leaks(store):
    store.put("b.txt", "data")
    assert len(store.open_handles) == 1


def test_nothing(store):
    assert store.open_handles == []


def test_register(registry):
    registry["users"] += 1
    assert registry["users"] == 1


def test_register_again(registry):
    registry["users"] += 1
    assert registry["users"] == 2
EOF
  capture batch11 pytest_fixture_finalizer_errors "$F" "python3 -m pytest -p no:cacheprovider -v tests" "$PYV"

  # pytest --co -q over a large parametrised suite with one module that fails to import
  C="$B/geo"
  mkdir -p "$C/geo" "$C/tests"
  : >"$C/geo/__init__.py"
  printf 'def dist(a, b):\n    return ((a[0]-b[0])**2 + (a[1]-b[1])**2) ** 0.5\n' >"$C/geo/core.py"
  for m in shapes grid routes tiles; do
    cat >"$C/tests/test_$m.py" <<EOF
import pytest
from geo.core import dist


@pytest.mark.parametrize("x", range(40))
@pytest.mark.parametrize("y", [0, 1])
def test_${m}_dist(x, y):
    assert dist((x, y), (x, y)) == 0


@pytest.mark.parametrize("name", ["north", "south", "east", "west", "centre"])
def test_${m}_named(name):
    assert name
EOF
  done
  cat >"$C/tests/test_projection.py" <<'EOF'
from geo.projection import mercator


def test_mercator():
    assert mercator(0, 0) == (0, 0)
EOF
  capture batch11 pytest_collect_only_q_import_error "$C" "python3 -m pytest --co -q -p no:cacheprovider tests" "$PYV"

  # pytest --maxfail=3 over a suite with many failures
  M="$B/textutil"
  mkdir -p "$M/textutil" "$M/tests"
  : >"$M/textutil/__init__.py"
  cat >"$M/textutil/slug.py" <<'EOF'
import re


def slugify(text):
    text = text.lower().strip()
    text = re.sub(r"[^a-z0-9]+", "-", text)
    return text


def truncate(text, n):
    return text[:n] + "..." if len(text) > n else text
EOF
  cat >"$M/tests/test_slug.py" <<'EOF'
import pytest
from textutil.slug import slugify, truncate

CASES = [
    ("Hello World", "hello-world"),
    ("  spaced  out  ", "spaced-out"),
    ("Ünïcödé text", "unicode-text"),
    ("already-slugged", "already-slugged"),
    ("trailing!", "trailing"),
    ("multiple---dashes", "multiple-dashes"),
    ("C++ & Rust", "c-rust"),
    ("2026 plan", "2026-plan"),
    ("end.", "end"),
    ("MiXeD CaSe", "mixed-case"),
]


@pytest.mark.parametrize("text,want", CASES)
def test_slugify(text, want):
    assert slugify(text) == want


def test_truncate_short():
    assert truncate("abc", 5) == "abc"


def test_truncate_long():
    assert truncate("abcdefgh", 5) == "ab..."
EOF
  capture batch11 pytest_maxfail_3 "$M" "python3 -m pytest --maxfail=3 -p no:cacheprovider tests" "$PYV"

  # pytest --doctest-modules with failing examples in two modules
  cat >"$M/textutil/numbers.py" <<'EOF'
def human_size(n):
    """Format a byte count.

    >>> human_size(512)
    '512 B'
    >>> human_size(2048)
    '2.0 KiB'
    >>> human_size(5 * 1024 ** 3)
    '5.0 GiB'
    """
    for unit in ["B", "KiB", "MiB"]:
        if n < 1024:
            return f"{n} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} MiB"


def ordinal(n):
    """
    >>> ordinal(1)
    '1st'
    >>> ordinal(12)
    '12th'
    >>> ordinal(22)
    '22nd'
    """
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
EOF
  cat >"$M/textutil/wrap.py" <<'EOF'
def wrap_words(text, width):
    """
    >>> wrap_words("the quick brown fox", 10)
    ['the quick', 'brown fox']
    >>> wrap_words("", 5)
    []
    >>> wrap_words("supercalifragilistic", 5)
    ['super', 'calif', 'ragil', 'istic']
    """
    lines, cur = [], ""
    for w in text.split():
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}".strip()
    if cur:
        lines.append(cur)
    return lines
EOF
  capture batch11 pytest_doctest_modules_failures "$M" "python3 -m pytest --doctest-modules -p no:cacheprovider textutil" "$PYV"

  # pytest -vv: a long assertion diff between nested dataclasses / dicts
  D="$B/orders"
  mkdir -p "$D/orders" "$D/tests"
  : >"$D/orders/__init__.py"
  cat >"$D/orders/model.py" <<'EOF'
from dataclasses import dataclass, field


@dataclass
class Line:
    sku: str
    qty: int
    price: float


@dataclass
class Address:
    street: str
    city: str
    zip: str
    country: str = "DE"


@dataclass
class Order:
    id: int
    customer: str
    ship_to: Address
    lines: list = field(default_factory=list)
    meta: dict = field(default_factory=dict)


def build(raw):
    return Order(
        id=raw["id"],
        customer=raw["customer"],
        ship_to=Address(**raw["address"]),
        lines=[Line(l["sku"], int(l["qty"]), float(l["price"])) for l in raw["lines"]],
        meta={k: v for k, v in raw.get("meta", {}).items() if not k.startswith("_")},
    )
EOF
  cat >"$D/tests/test_model.py" <<'EOF'
from orders.model import Address, Line, Order, build

RAW = {
    "id": 7001,
    "customer": "acme-gmbh",
    "address": {"street": "Hauptstr. 5", "city": "Berlin", "zip": "10115", "country": "DE"},
    "lines": [{"sku": f"SKU-{i:03d}", "qty": str(i % 4 + 1), "price": f"{i * 1.25:.2f}"} for i in range(18)],
    "meta": {"channel": "web", "_trace": "abc", "coupon": "WINTER", "gift": True, "notes": "leave at door"},
}


def expected():
    return Order(
        id=7001,
        customer="acme-gmbh",
        ship_to=Address("Hauptstr. 5", "Berlin", "10115", "DE"),
        lines=[Line(f"SKU-{i:03d}", i % 4 + 1, round(i * 1.25, 2)) for i in range(18) if i != 11]
        + [Line("SKU-011", 3, 13.75)],
        meta={"channel": "web", "coupon": "WINTER", "gift": True, "notes": "leave at door", "_trace": "abc"},
    )


def test_build_order():
    assert build(RAW) == expected()


def test_build_meta():
    assert build(RAW).meta == {
        "channel": "web", "coupon": "WINTER20", "gift": True, "notes": "leave at door",
        "priority": "normal", "_trace": "abc",
    }


def test_address():
    assert build(RAW).ship_to == Address("Hauptstr. 5", "Berlin", "10115")
EOF
  capture batch11 pytest_vv_dataclass_long_diff "$D" "python3 -m pytest -vv -p no:cacheprovider tests" "$PYV"

  # unittest -b: buffered output shown for failures, a setUpClass error
  U="$B/mailer"
  mkdir -p "$U/mailer" "$U/tests"
  : >"$U/mailer/__init__.py"; : >"$U/tests/__init__.py"
  cat >"$U/mailer/render.py" <<'EOF'
import string


def render(template, **ctx):
    print(f"rendering template with keys {sorted(ctx)}")
    return string.Template(template).substitute(ctx)


def subject(user, count):
    print(f"subject for {user!r}: {count} new")
    return f"{count} new messages for {user}"
EOF
  cat >"$U/tests/test_render.py" <<'EOF'
import sys
import unittest
from mailer.render import render, subject


class RenderTest(unittest.TestCase):
    def test_basic(self):
        self.assertEqual(render("Hi $name", name="Ana"), "Hi Ana")

    def test_missing_key(self):
        print("about to render without 'name'")
        self.assertEqual(render("Hi $name"), "Hi ")

    def test_subject(self):
        print("debug: checking plural", file=sys.stderr)
        self.assertEqual(subject("ana", 1), "1 new message for ana")

    def test_subject_many(self):
        self.assertEqual(subject("bo", 3), "3 new messages for bo")


class SmtpTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        print("connecting to smtp://localhost:2525")
        import socket
        cls.sock = socket.create_connection(("127.0.0.1", 2525), timeout=1)

    def test_send(self):
        self.assertTrue(self.sock)

    def test_quit(self):
        self.assertTrue(self.sock)


class FormatTest(unittest.TestCase):
    def test_upper(self):
        self.assertEqual("abc".upper(), "ABC")

    def test_strip(self):
        self.assertEqual("  x ".strip(), "x")
EOF
  capture batch11 unittest_buffer_setupclass_error "$U" "python3 -m unittest -b -v" "$(python3 --version)"

  # python: asyncio.TaskGroup failing with an ExceptionGroup through several modules
  G="$B/syncer"
  mkdir -p "$G/syncer"
  : >"$G/syncer/__init__.py"
  cat >"$G/syncer/remote.py" <<'EOF'
import asyncio
import json


class RemoteError(Exception):
    pass


async def get(path):
    await asyncio.sleep(0.01)
    if path.endswith("/teams"):
        raise RemoteError(f"GET {path}: 502 Bad Gateway")
    if path.endswith("/users"):
        return json.loads('{"users": [1, 2, }')
    return {"ok": True}
EOF
  cat >"$G/syncer/jobs.py" <<'EOF'
from .remote import get


async def sync_users(db):
    data = await get("/api/v2/users")
    db["users"] = data["users"]


async def sync_teams(db):
    try:
        data = await get("/api/v2/teams")
    except Exception as exc:
        raise RuntimeError("team sync failed") from exc
    db["teams"] = data


async def sync_projects(db):
    db["projects"] = await get("/api/v2/projects")
EOF
  cat >"$G/syncer/main.py" <<'EOF'
import asyncio
from .jobs import sync_users, sync_teams, sync_projects


async def run():
    db = {}
    async with asyncio.TaskGroup() as tg:
        tg.create_task(sync_users(db))
        tg.create_task(sync_teams(db))
        tg.create_task(sync_projects(db))
    return db


def main():
    print("starting sync")
    db = asyncio.run(run())
    print("synced", sorted(db))


if __name__ == "__main__":
    main()
EOF
  capture batch11 python_taskgroup_exception_group "$G" "python3 -m syncer.main" "$(python3 --version)"

  # a package with typing and style problems for mypy --pretty, pyright, ruff, pylint, flake8, black
  L="$B/ledger"
  mkdir -p "$L/ledger/io" "$L/ledger/core"
  : >"$L/ledger/__init__.py"; : >"$L/ledger/io/__init__.py"; : >"$L/ledger/core/__init__.py"
  cat >"$L/ledger/core/accounts.py" <<'EOF'
import os, sys
from dataclasses import dataclass
from typing import Optional


@dataclass
class Account:
    id: int
    name: str
    balance: float
    parent: Optional["Account"] = None

    def path(self) -> str:
        if self.parent:
            return self.parent.path() + ":" + self.name
        return self.name

    def depth(self) -> int:
        return len(self.path().split(":"))


def find(accounts: list[Account], name: str) -> Account:
    for a in accounts:
        if a.name == name:
            return a


def total(accounts: list[Account]) -> int:
    return sum(a.balance for a in accounts)


def rename(acc: Account, new) -> None:
    acc.name = new.strip()
    return acc
EOF
  cat >"$L/ledger/core/journal.py" <<'EOF'
from datetime import date
from typing import Iterable
from .accounts import Account, find


class Entry:
    def __init__(self, when: date, debit: Account, credit: Account, amount: float, memo=None):
        self.when = when
        self.debit = debit
        self.credit = credit
        self.amount = amount
        self.memo = memo

    def post(self) -> None:
        self.debit.balance += self.amount
        self.credit.balance -= self.amount


def post_all(entries: Iterable[Entry]) -> int:
    n = 0
    for e in entries:
        e.post()
        n += 1
    return n


def from_row(row: dict[str, str], accounts: list[Account]) -> Entry:
    when = date.fromisoformat(row["date"])
    return Entry(when, find(accounts, row["debit"]), find(accounts, row["credit"]), row["amount"], row.get("memo"))


def by_month(entries: list[Entry]) -> dict[str, list[Entry]]:
    out = {}
    for e in entries:
        key = e.when.strftime("%Y-%m")
        out.setdefault(key, []).append(e)
    return out


def memo_upper(e: Entry) -> str:
    return e.memo.upper()
EOF
  cat >"$L/ledger/io/csvio.py" <<'EOF'
import csv
import json
from pathlib import Path
from ledger.core.journal import Entry, from_row
from ledger.core.accounts import Account


def read_rows(path: Path) -> list[dict[str, str]]:
    with open(path) as fh:
        return list(csv.DictReader(fh))


def load(path: str, accounts: list[Account]) -> list[Entry]:
    rows = read_rows(path)
    return [from_row(r, accounts) for r in rows]


def dump(entries: list[Entry], path: Path) -> None:
    with open(path, "w") as fh:
        w = csv.writer(fh)
        for e in entries:
            w.writerow([e.when, e.debit.name, e.credit.name, e.amount, e.memo])


def to_json(entries: list[Entry]) -> str:
    return json.dumps([{"when": e.when, "amount": e.amount} for e in entries], indent=2, sort_keys=True, ensure_ascii=False, default=str)


def count_lines(path: Path) -> int:
    l = 0
    for line in open(path):
        l += 1
    return l
EOF
  cat >"$L/ledger/io/report.py" <<'EOF'
from ledger.core.accounts import Account, total
from ledger.core.journal import Entry, by_month


def summary(accounts: list[Account]) -> str:
    lines = []
    for a in accounts:
        lines.append("%-20s %10.2f" % (a.path(), a.balance))
    lines.append("TOTAL %s" % total(accounts))
    return "\n".join(lines)


def monthly(entries: list[Entry]) -> dict[str, float]:
    result: dict[str, float] = {}
    for month, es in by_month(entries).items():
        result[month] = sum(e.amount for e in es)
    return result


def biggest(entries: list[Entry]) -> Entry:
    return max(entries, key=lambda e: e.amount, default=None)


def render(entries, accounts, fmt="text", width=80, show_zero=False, currency="EUR", title=None, footer=None, color=False):
    if fmt == "text":
        out = summary(accounts)
    elif fmt == "monthly":
        out = "\n".join(f"{k}: {v}" for k, v in monthly(entries).items())
    elif fmt == "json":
        import json
        out = json.dumps(monthly(entries))
    elif fmt == "csv":
        out = "\n".join(f"{k},{v}" for k, v in monthly(entries).items())
    elif fmt == "html":
        out = "<table>" + "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in monthly(entries).items()) + "</table>"
    else:
        raise ValueError(fmt)
    if title:
        out = title + "\n" + out
    if footer:
        out = out + "\n" + footer
    if color:
        out = "\033[1m" + out + "\033[0m"
    return out
EOF
  cat >"$L/ledger/cli.py" <<'EOF'
import argparse
import sys
from ledger.io.csvio import load
from ledger.io.report import render
from ledger.core.accounts import Account


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("--fmt", default="text")
    args = p.parse_args(argv)
    accounts = [Account(1, "assets", 0.0), Account(2, "income", 0.0)]
    entries = load(args.file, accounts)
    print(render(entries, accounts, args.fmt))
    try:
        return 0
    except:
        return 1
EOF
  MYV="$(python3 -m mypy --version)"
  capture batch11 mypy_pretty_error_codes "$L" "python3 -m mypy --pretty --show-error-codes --strict-optional ledger" "$MYV"
  capture batch11 ruff_output_full "$L" "ruff check --output-format=full --select E,F,W,I,B,UP,SIM,PL,N,ANN ledger" "$(ruff --version)"
  capture batch11 ruff_statistics "$L" "ruff check --statistics --select ALL ledger" "$(ruff --version)"
  capture batch11 pylint_parseable "$L" "pylint --output-format=parseable ledger" "$(pylint --version 2>/dev/null | sed -n 1p)"
  capture batch11 flake8_max_complexity "$L" "python3 -m flake8 --max-complexity 5 --max-line-length 100 ledger" "flake8 $(python3 -m flake8 --version | head -1)"
  capture batch11 black_diff_check "$L" "python3 -m black --check --diff --color ledger" "$(python3 -m black --version | head -1)"

  # pip: a project whose in-tree build backend raises while building the wheel
  PB="$B/fastcsv"
  mkdir -p "$PB/_build" "$PB/fastcsv"
  printf '__version__ = "0.3.0"\n' >"$PB/fastcsv/__init__.py"
  cat >"$PB/pyproject.toml" <<'EOF'
[build-system]
requires = []
build-backend = "backend"
backend-path = ["_build"]

[project]
name = "fastcsv"
version = "0.3.0"
EOF
  cat >"$PB/_build/backend.py" <<'EOF'
import os
import shutil
import subprocess


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    d = os.path.join(metadata_directory, "fastcsv-0.3.0.dist-info")
    os.makedirs(d)
    with open(os.path.join(d, "METADATA"), "w") as fh:
        fh.write("Metadata-Version: 2.1\nName: fastcsv\nVersion: 0.3.0\n")
    return "fastcsv-0.3.0.dist-info"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    print("fastcsv: compiling C accelerator (_speedups.c)")
    cc = shutil.which("cc-fastcsv") or "cc-fastcsv"
    try:
        subprocess.run([cc, "-O2", "-shared", "-o", "_speedups.so", "src/_speedups.c"], check=True)
    except FileNotFoundError as exc:
        raise RuntimeError("fastcsv: C compiler 'cc-fastcsv' not found; set FASTCSV_PURE=1 to build without it") from exc
EOF
  capture batch11 pip_install_backend_fails "$PB" "python3 -m pip install --no-index --no-cache-dir ." "$(python3 -m pip --version | cut -d' ' -f1-2)"

  # pip: installing an older wheel that breaks an installed package's requirement (post-install conflict)
  PC="$B/wheels"
  mkdir -p "$PC/dist"
  mkwheel() { # name version requires: writes a minimal pure-python wheel by hand (no wheel package here)
    python3 - "$PC/dist" "$1" "$2" "$3" <<'EOF'
import base64, hashlib, sys, zipfile
dist, name, version, req = sys.argv[1:]
mod = name.replace("-", "_")
di = f"{mod}-{version}.dist-info"
meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n" + "".join(
    f"Requires-Dist: {r.strip()}\n" for r in req.split(";") if r.strip())
files = {f"{mod}/__init__.py": f"__version__ = '{version}'\n", f"{di}/METADATA": meta,
         f"{di}/WHEEL": "Wheel-Version: 1.0\nGenerator: handmade\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
rec = []
with zipfile.ZipFile(f"{dist}/{mod}-{version}-py3-none-any.whl", "w") as z:
    for n, t in files.items():
        z.writestr(n, t)
        h = base64.urlsafe_b64encode(hashlib.sha256(t.encode()).digest()).rstrip(b"=").decode()
        rec.append(f"{n},sha256={h},{len(t.encode())}")
    z.writestr(f"{di}/RECORD", "\n".join(rec + [f"{di}/RECORD,,"]) + "\n")
EOF
  }
  mkwheel corelib 1.4.0 ''
  mkwheel corelib 2.1.0 ''
  mkwheel httpkit 3.0.0 'corelib>=2.0'
  mkwheel authkit 1.2.0 'corelib<3,>=2.1'
  mkwheel legacy-report 0.9.0 'corelib<1.5'
  python3 -m venv "$PC/venv"
  "$PC/venv/bin/pip" install -q --no-index --find-links "$PC/dist" httpkit authkit >/dev/null 2>&1
  capture batch11 pip_post_install_conflict "$PC" "venv/bin/pip install --no-index --find-links dist legacy-report corelib==1.4.0" "$("$PC/venv/bin/pip" --version | cut -d' ' -f1-2)"

  # node tools from one npm install (jest, vitest, eslint, typescript, prettier, pyright, esbuild)
  NPM11="$WORK/npm11"
  if [ ! -x "$NPM11/node_modules/.bin/pyright" ]; then
    mkdir -p "$NPM11" && (cd "$NPM11" && npm init -y >/dev/null &&
      npm install jest@29 vitest@2 eslint@9 @eslint/js@9 typescript@5 prettier@3 pyright esbuild >/dev/null 2>&1)
  fi
  NB="$NPM11/node_modules/.bin"
  capture batch11 pyright_package_errors "$L" "$NB/pyright ledger" "$($NB/pyright --version)"

  # jest --verbose over twenty-four suites, three failing in the middle
  J="$B/jest-app"
  mkdir -p "$J/src" "$J/__tests__"
  ln -s "$NPM11/node_modules" "$J/node_modules"
  printf '{ "name": "jest-app", "version": "1.0.0", "private": true, "scripts": { "test": "jest --verbose" } }\n' >"$J/package.json"
  cat >"$J/src/cart.js" <<'EOF'
function addItem(cart, item) {
  const found = cart.items.find((i) => i.sku === item.sku);
  if (found) found.qty += item.qty;
  else cart.items.push({ ...item });
  return cart;
}
function total(cart) {
  return cart.items.reduce((s, i) => s + i.price * i.qty, 0);
}
function applyCoupon(cart, coupon) {
  if (coupon.kind === "percent") return total(cart) * (1 - coupon.value / 100);
  return total(cart) - coupon.value;
}
module.exports = { addItem, total, applyCoupon };
EOF
  for s in alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega; do
    cat >"$J/__tests__/$s.test.js" <<EOF
const { addItem, total, applyCoupon } = require("../src/cart");

describe("$s cart", () => {
  const mk = () => ({ items: [] });
  test("adds a new item", () => {
    expect(addItem(mk(), { sku: "a", qty: 1, price: 2 }).items).toHaveLength(1);
  });
  test("merges same sku", () => {
    const c = addItem(addItem(mk(), { sku: "a", qty: 1, price: 2 }), { sku: "a", qty: 2, price: 2 });
    expect(c.items[0].qty).toBe(3);
  });
  test("totals", () => {
    expect(total(addItem(mk(), { sku: "b", qty: 3, price: 1.5 }))).toBe(4.5);
  });
  describe("coupons", () => {
    test("percent", () => {
      expect(applyCoupon(addItem(mk(), { sku: "c", qty: 1, price: 10 }), { kind: "percent", value: 10 })).toBe(9);
    });
    test("fixed", () => {
      expect(applyCoupon(addItem(mk(), { sku: "c", qty: 1, price: 10 }), { kind: "fixed", value: 3 })).toBe(7);
    });
  });
});
EOF
  done
  cat >>"$J/__tests__/epsilon.test.js" <<'EOF'

test("fixed coupon never goes below zero", () => {
  expect(applyCoupon({ items: [{ sku: "x", qty: 1, price: 2 }] }, { kind: "fixed", value: 5 })).toBe(0);
});
EOF
  cat >>"$J/__tests__/eta.test.js" <<'EOF'

test("float totals are rounded to cents", () => {
  expect(total({ items: [{ sku: "x", qty: 3, price: 0.1 }] })).toBe(0.3);
});
test("keeps item order", () => {
  const c = addItem(addItem({ items: [] }, { sku: "z", qty: 1, price: 1 }), { sku: "y", qty: 1, price: 1 });
  expect(c.items.map((i) => i.sku)).toEqual(["y", "z"]);
});
EOF
  cat >>"$J/__tests__/iota.test.js" <<'EOF'

test("unknown coupon kind throws", () => {
  expect(() => applyCoupon({ items: [] }, { kind: "bogo", value: 1 })).toThrow("unknown coupon");
});
EOF
  capture batch11 jest_verbose_24_suites_three_fail "$J" "npm test" "jest $($NB/jest --version)"

  # jest: a TypeError thrown while a describe block is defined (test suite failed to run)
  J2="$B/jest-describe"
  mkdir -p "$J2/src" "$J2/test"
  ln -s "$NPM11/node_modules" "$J2/node_modules"
  printf '{ "name": "jest-describe", "version": "1.0.0", "private": true }\n' >"$J2/package.json"
  cat >"$J2/src/config.js" <<'EOF'
const defaults = { retries: 3, endpoints: { api: "http://localhost:8080" } };
function load(env) {
  return env === "test" ? null : defaults;
}
module.exports = { load, defaults };
EOF
  cat >"$J2/test/config.test.js" <<'EOF'
const { load } = require("../src/config");

describe("config for test env", () => {
  const cfg = load("test");
  const { api } = cfg.endpoints;

  test("has an api endpoint", () => {
    expect(api).toMatch(/^http/);
  });
});
EOF
  cat >"$J2/test/defaults.test.js" <<'EOF'
const { defaults } = require("../src/config");

test("retries default", () => {
  expect(defaults.retries).toBe(3);
});
test("api default", () => {
  expect(defaults.endpoints.api).toBe("http://localhost:8080");
});
EOF
  capture batch11 jest_describe_typeerror_suite_failed "$J2" "$NB/jest" "jest $($NB/jest --version)"

  # vitest --reporter=verbose: a long passing run with two failures
  V="$B/vitest-app"
  mkdir -p "$V/src" "$V/test"
  ln -s "$NPM11/node_modules" "$V/node_modules"
  printf '{ "name": "vitest-app", "version": "1.0.0", "private": true, "type": "module" }\n' >"$V/package.json"
  cat >"$V/src/strings.js" <<'EOF'
export const capitalize = (s) => s.charAt(0).toUpperCase() + s.slice(1);
export const camel = (s) => s.replace(/[-_](\w)/g, (_, c) => c.toUpperCase());
export const pad = (s, n) => s.padStart(n, " ");
export const words = (s) => s.split(" ");
EOF
  for m in capitalize camel pad words; do
    {
      printf 'import { describe, it, expect } from "vitest";\nimport { capitalize, camel, pad, words } from "../src/strings.js";\n\n'
      for g in basics unicode edge; do
        printf 'describe("%s %s", () => {\n' "$m" "$g"
        for i in $(seq 1 22); do
          printf '  it("case %d", () => { expect(typeof %s("x-y", 3)).not.toBe("undefined"); });\n' "$i" "$m"
        done
        printf '});\n'
      done
    } >"$V/test/$m.test.js"
  done
  cat >>"$V/test/camel.test.js" <<'EOF'
describe("camel regressions", () => {
  it("handles leading dash", () => { expect(camel("-moz-box")).toBe("mozBox"); });
});
EOF
  cat >>"$V/test/words.test.js" <<'EOF'
describe("words regressions", () => {
  it("collapses repeated spaces", () => { expect(words("a  b   c")).toEqual(["a", "b", "c"]); });
});
EOF
  capture batch11 vitest_verbose_long_two_fail "$V" "$NB/vitest run --reporter=verbose" "vitest $($NB/vitest --version 2>&1 | tail -1)"

  # vitest: inline and file snapshot mismatches
  VS="$B/vitest-snap"
  mkdir -p "$VS/src" "$VS/test/__snapshots__"
  ln -s "$NPM11/node_modules" "$VS/node_modules"
  printf '{ "name": "vitest-snap", "version": "1.0.0", "private": true, "type": "module" }\n' >"$VS/package.json"
  cat >"$VS/src/render.js" <<'EOF'
export function card(user) {
  return { title: user.name.toUpperCase(), subtitle: `${user.role} since ${user.since}`, badges: user.badges.slice(0, 3) };
}
export function menu(items) {
  return items.map((i, n) => `${n + 1}. ${i}`).join("\n");
}
EOF
  cat >"$VS/test/render.test.js" <<'EOF'
import { it, expect } from "vitest";
import { card, menu } from "../src/render.js";

const user = { name: "Ada", role: "admin", since: 2019, badges: ["a", "b", "c", "d"] };

it("renders a card", () => {
  expect(card(user)).toMatchSnapshot();
});

it("renders a menu", () => {
  expect(menu(["Open", "Save", "Quit"])).toMatchInlineSnapshot(`
    "1) Open
    2) Save
    3) Quit"
  `);
});

it("renders a card for a guest", () => {
  expect(card({ ...user, role: "guest" })).toMatchSnapshot();
});
EOF
  cat >"$VS/test/__snapshots__/render.test.js.snap" <<'EOF'
// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html

exports[`renders a card 1`] = `
{
  "badges": [
    "a",
    "b",
  ],
  "subtitle": "admin since 2019",
  "title": "ADA",
}
`;

exports[`renders a card for a guest 1`] = `
{
  "badges": [
    "a",
    "b",
    "c",
  ],
  "subtitle": "guest since 2019",
  "title": "ADA",
}
`;
EOF
  capture batch11 vitest_snapshot_mismatch "$VS" "CI=1 NO_COLOR=1 $NB/vitest run" "vitest $($NB/vitest --version 2>&1 | tail -1)"

  # node --test with the spec reporter: failures, a todo, a skip and diagnostics
  NT="$B/node-spec"
  mkdir -p "$NT/lib" "$NT/test"
  cat >"$NT/lib/queue.js" <<'EOF'
export class Queue {
  constructor(limit) { this.limit = limit; this.items = []; }
  push(x) { if (this.items.length > this.limit) throw new RangeError(`queue full (${this.limit})`); this.items.push(x); }
  pop() { return this.items.pop(); }
  get size() { return this.items.length; }
}
EOF
  printf '{ "type": "module" }\n' >"$NT/package.json"
  cat >"$NT/test/queue.test.js" <<'EOF'
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Queue } from "../lib/queue.js";

describe("Queue", () => {
  it("starts empty", () => { assert.equal(new Queue(2).size, 0); });
  it("pushes", () => { const q = new Queue(2); q.push(1); assert.equal(q.size, 1); });
  it("is FIFO", () => {
    const q = new Queue(3); q.push("a"); q.push("b");
    assert.equal(q.pop(), "a");
  });
  it("rejects when full", () => {
    const q = new Queue(1); q.push(1);
    assert.throws(() => q.push(2), RangeError);
  });
  it("drains in order", { todo: "drain() not written" }, () => {});
  it("persists", { skip: "needs redis" }, () => {});
  describe("stats", () => {
    it("reports sizes", () => {
      const q = new Queue(5); [1, 2, 3].forEach((x) => q.push(x));
      assert.deepEqual({ size: q.size, limit: q.limit }, { size: 3, limit: 4 });
    });
  });
});
EOF
  cat >"$NT/test/misc.test.js" <<'EOF'
import { test } from "node:test";
import assert from "node:assert/strict";
test("sum", () => assert.equal([1, 2, 3].reduce((a, b) => a + b), 6));
test("json", () => assert.deepEqual(JSON.parse('{"a":1}'), { a: 1 }));
EOF
  capture batch11 node_test_spec_reporter_failures "$NT" "node --test --test-reporter=spec" "node $(node --version)"

  # node --trace-warnings: a deprecation and an experimental warning with stack traces
  NW="$B/node-warn"
  mkdir -p "$NW"
  cat >"$NW/legacy.js" <<'EOF'
const url = require("url");
const util = require("util");
function parseTarget(s) {
  return url.parse(s);
}
function makeBuffer(n) {
  return new Buffer(n);
}
const t = parseTarget("http://user:pw@example.test:8080/a?b=1");
console.log("host:", t.host);
console.log("buffer:", makeBuffer(4).length);
console.log("isArray:", util.isArray([1]));
process.emitWarning("cache directory /tmp/x is world-writable", "SecurityWarning");
EOF
  capture batch11 node_trace_warnings_deprecations "$NW" "node --trace-warnings legacy.js" "node $(node --version)"

  # tsc --listFiles --pretty false: the file list (lib files too) and errors across eighteen files
  T="$B/ts-app"
  mkdir -p "$T/src"
  ln -s "$NPM11/node_modules" "$T/node_modules"
  cat >"$T/tsconfig.json" <<'EOF'
{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true, "noEmit": true, "lib": ["ES2022", "DOM"] }, "include": ["src"] }
EOF
  printf '{ "name": "ts-app", "version": "1.0.0", "type": "module" }\n' >"$T/package.json"
  cat >"$T/src/types.ts" <<'EOF'
export interface User { id: number; name: string; email?: string; roles: string[] }
export type Handler<T> = (input: T) => Promise<void>;
EOF
  i=0
  for f in audit auth billing cache config db events export files health import jobs mail metrics quota search tenant users; do
    i=$((i + 1))
    cat >"$T/src/$f.ts" <<EOF
import type { User, Handler } from "./types.js";

export function ${f}Name(u: User): string {
  return u.email.toLowerCase();
}

export const ${f}Count: number = "$i";

export const ${f}Handler: Handler<User> = async (u) => {
  return u.roles.length;
};
EOF
  done
  capture batch11 tsc_listfiles_pretty_false_errors "$T" "$NB/tsc -p . --listFiles --pretty false" "tsc $($NB/tsc --version)"

  # tsc: deep generic mismatches with long elaborations (TS2345, TS2322)
  TG="$B/ts-generic"
  mkdir -p "$TG/src"
  ln -s "$NPM11/node_modules" "$TG/node_modules"
  cat >"$TG/tsconfig.json" <<'EOF'
{ "compilerOptions": { "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler", "strict": true, "noEmit": true }, "include": ["src"] }
EOF
  cat >"$TG/src/store.ts" <<'EOF'
type Reducer<S, A> = (state: S, action: A) => S;
type Middleware<S, A> = (api: { getState(): S; dispatch(a: A): void }) => (next: (a: A) => void) => (a: A) => void;

interface StoreOptions<S, A extends { type: string }> {
  reducer: Reducer<S, A>;
  initial: S;
  middleware?: Middleware<S, A>[];
  persist?: { key: string; version: number; migrate: (old: unknown) => S };
}

export function createStore<S, A extends { type: string }>(opts: StoreOptions<S, A>) {
  let state = opts.initial;
  return { getState: () => state, dispatch: (a: A) => { state = opts.reducer(state, a); } };
}

interface TodoState { todos: { id: number; title: string; done: boolean; tags: string[] }[]; filter: "all" | "open" | "done" }
type TodoAction = { type: "add"; title: string } | { type: "toggle"; id: number } | { type: "filter"; filter: TodoState["filter"] };

const reducer: Reducer<TodoState, TodoAction> = (s, a) => s;

const logger: Middleware<TodoState, { type: string; payload: unknown }> = (api) => (next) => (a) => { next(a); };

export const store = createStore({
  reducer,
  initial: { todos: [{ id: 1, title: "write", done: "no", tags: [] }], filter: "all" },
  middleware: [logger],
  persist: { key: "todos", version: "2", migrate: (old) => old },
});

export const store2 = createStore<TodoState, TodoAction>({
  reducer: (s: TodoState, a: { type: "add"; title: number }) => s,
  initial: { todos: [], filter: "archived" },
});

function mapValues<T extends Record<string, unknown>, R>(obj: T, fn: <K extends keyof T>(v: T[K], k: K) => R): { [K in keyof T]: R } {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, fn(v as T[keyof T], k)])) as { [K in keyof T]: R };
}

export const lens: { a: string; b: string } = mapValues({ a: 1, b: 2 }, (v) => v + 1);
EOF
  capture batch11 tsc_deep_generic_errors "$TG" "$NB/tsc -p ." "tsc $($NB/tsc --version)"

  # eslint --max-warnings 0: many warnings (and one error) over many files, stylish output
  E="$B/eslint-app"
  mkdir -p "$E/src/routes" "$E/src/lib"
  ln -s "$NPM11/node_modules" "$E/node_modules"
  printf '{ "name": "eslint-app", "version": "1.0.0", "type": "module", "scripts": { "lint": "eslint --max-warnings 0 src" } }\n' >"$E/package.json"
  cat >"$E/eslint.config.js" <<'EOF'
import js from "@eslint/js";
export default [
  js.configs.recommended,
  {
    languageOptions: { globals: { console: "readonly", process: "readonly" } },
    rules: {
      "no-unused-vars": "warn",
      "no-console": "warn",
      "prefer-const": "warn",
      eqeqeq: "warn",
      "no-var": "warn",
    },
  },
];
EOF
  for f in users orders invoices products carts search auth admin reports health billing coupons tenants webhooks exports imports audit quotas sessions teams labels; do
    cat >"$E/src/routes/$f.js" <<EOF
import { db } from "../lib/db.js";
import { format, parse } from "../lib/util.js";

var cache = {};
export async function list${f}(req) {
  let rows = await db.query("select * from $f");
  let unused = 1;
  console.log("listing $f", rows.length);
  if (req.query.limit == null) return rows;
  return rows.slice(0, req.query.limit);
}

export function get${f}(id) {
  let key = "$f:" + id;
  if (cache[key] != undefined) return cache[key];
  console.debug("miss", key);
  return null;
}
EOF
  done
  cat >"$E/src/lib/db.js" <<'EOF'
export const db = { query: async (sql) => { console.log(sql); return []; } };
EOF
  cat >"$E/src/lib/util.js" <<'EOF'
export function format(x) { return String(x); }
export function parse(x) { return JSON.parse(x); }
export function retry(fn, n) {
  for (var i = 0; i < n; i++) {
    try { return fn(); } catch (e) {}
  }
  return undefinedThing;
}
EOF
  capture batch11 eslint_max_warnings_zero_many "$E" "npm run lint" "eslint $($NB/eslint --version)"

  # eslint: a parsing error in one file among clean ones
  EP="$B/eslint-parse"
  mkdir -p "$EP/src"
  ln -s "$NPM11/node_modules" "$EP/node_modules"
  printf '{ "name": "eslint-parse", "version": "1.0.0", "type": "module" }\n' >"$EP/package.json"
  printf 'import js from "@eslint/js";\nexport default [js.configs.recommended];\n' >"$EP/eslint.config.js"
  printf 'export const a = 1;\nexport function f(x) {\n  return x * 2;\n}\n' >"$EP/src/ok.js"
  cat >"$EP/src/broken.js" <<'EOF'
export function total(items) {
  return items.reduce((s, i) => {
    return s + i.price * i.qty;
  }, 0;
}

export const fmt = (n) => n.toFixed(2);
EOF
  cat >"$EP/src/types.js" <<'EOF'
export function check(x: number): boolean {
  return x > 0;
}
EOF
  capture batch11 eslint_parsing_errors "$EP" "$NB/eslint src" "eslint $($NB/eslint --version)"

  # prettier --check over files of which two do not parse
  PR="$B/prettier-app"
  mkdir -p "$PR/src/components"
  cp "$EP/src/broken.js" "$PR/src/broken.js"
  printf 'export const a = {b:1,\n  c:2}\n' >"$PR/src/messy.js"
  printf 'export const ok = 1;\n' >"$PR/src/ok.js"
  cat >"$PR/src/components/Card.jsx" <<'EOF'
export function Card({ title }) {
  return (
    <div className="card">
      <h2>{title}</h2>
    </div
  );
}
EOF
  printf '{\n  "name": "x",\n  "version": "1.0.0",\n}\n' >"$PR/src/settings.json"
  capture batch11 prettier_check_syntax_errors "$PR" "$NB/prettier --check src" "prettier $($NB/prettier --version)"

  # npm run build: esbuild bundling with several errors (missing module, bad syntax, missing export)
  EB="$B/esb-app"
  mkdir -p "$EB/src/lib"
  ln -s "$NPM11/node_modules" "$EB/node_modules"
  printf '{ "name": "esb-app", "version": "1.0.0", "scripts": { "prebuild": "echo cleaning dist && rm -rf dist", "build": "esbuild src/main.ts --bundle --platform=node --outfile=dist/app.js --log-limit=0" } }\n' >"$EB/package.json"
  cat >"$EB/src/main.ts" <<'EOF'
import { start } from "./server";
import { loadConfig } from "./lib/config";
import chalk from "chalk";
import { formatBytes } from "./lib/format";

const cfg = loadConfig(process.env);
console.log(chalk.green("starting"), formatBytes(cfg.maxBody));
start(cfg);
EOF
  cat >"$EB/src/server.ts" <<'EOF'
import http from "node:http";
export function start(cfg: { port: number }) {
  http.createServer((req, res) => { res.end("ok") }).listen(cfg.port);
}
EOF
  cat >"$EB/src/lib/config.ts" <<'EOF'
export function loadConfig(env: Record<string, string | undefined>) {
  return {
    port: Number(env.PORT ?? 3000),
    maxBody: Number(env.MAX_BODY ?? 1024 * 1024),
  }
}
EOF
  cat >"$EB/src/lib/format.ts" <<'EOF'
export function formatSize(n: number): string {
  const units = ["B", "KB", "MB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++ }
  return `${n.toFixed(1)} ${units[i]}`;
}
export const helper = (x: number) => x +;
EOF
  capture batch11 npm_run_build_esbuild_errors "$EB" "npm run build" "esbuild $($NB/esbuild --version)"
fi

# --- batch12: a twelfth blind batch (Go, Rust, C/C++, JVM, Ruby, git, build systems and shell in
# situations the set lacked: go example output mismatch, test timeout goroutine dump, -shuffle, fuzz
# seed corpus, generics, vet printf/copylocks; cargo struct diffs, 220 tests, lifetimes, clippy
# pedantic, workspace unresolved import; gcc -fsanitize=address use-after-free, make -j4 -Werror, make
# -j4 -k long build, cmake find_package, ctest many failures, valgrind uninitialised values, g++
# concepts; javac -Xlint:all, suppressed exceptions; rspec documentation, rubocop -a,
# minitest errors; git log --graph, diff of many files, merge --no-ff conflicts, rebase --exec,
# status with submodules, clean -ndx; make -C recursion, bash -x pipefail, shellcheck -x), captured
# and its signals written and committed before any filter ran on it and before any rule file,
# filter source, filter test, fixture, bench/corpus file or bench/README.md was opened.
if sel batch12; then
  B="$WORK/batch12"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local
  GOV="$(go version)"
  unset RUST_BACKTRACE

  # Go: one module, several packages, each run its own way
  G="$B/gokit"
  mkdir -p "$G/fmtx" "$G/waiter" "$G/order" "$G/parse/testdata/fuzz/FuzzParseSize" "$G/generic" "$G/vetme"
  printf 'module example.com/gokit\n\ngo 1.19\n' >"$G/go.mod"
  cat >"$G/fmtx/fmtx.go" <<'EOF'
package fmtx

import (
	"fmt"
	"strings"
)

// Table renders rows as an aligned table.
func Table(rows [][]string) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.Join(r, " | "))
		b.WriteString("\n")
	}
	return b.String()
}

// Money formats cents as a currency string.
func Money(cents int) string {
	return fmt.Sprintf("$%d.%d", cents/100, cents%100)
}
EOF
  cat >"$G/fmtx/example_test.go" <<'EOF'
package fmtx_test

import (
	"fmt"

	"example.com/gokit/fmtx"
)

func ExampleTable() {
	fmt.Print(fmtx.Table([][]string{{"id", "name"}, {"1", "ada"}}))
	// Output:
	// id | name
	// 1 | ada
}

func ExampleMoney() {
	fmt.Println(fmtx.Money(1999))
	fmt.Println(fmtx.Money(1005))
	fmt.Println(fmtx.Money(7))
	// Output:
	// $19.99
	// $10.05
	// $0.07
}

func ExampleMoney_negative() {
	fmt.Println(fmtx.Money(-250))
	// Output: -$2.50
}
EOF
  capture batch12 go_test_example_output_mismatch "$G" "go test -count=1 -v ./fmtx" "$GOV"

  cat >"$G/waiter/waiter.go" <<'EOF'
package waiter

import "sync"

// Pool runs jobs on n workers and waits for all of them.
type Pool struct {
	jobs chan func()
	wg   sync.WaitGroup
	mu   sync.Mutex
	done int
}

func New(n int) *Pool {
	p := &Pool{jobs: make(chan func())}
	for i := 0; i < n; i++ {
		go p.worker()
	}
	return p
}

func (p *Pool) worker() {
	for j := range p.jobs {
		j()
		p.mu.Lock()
		p.done++
		p.mu.Unlock()
		p.wg.Done()
	}
}

func (p *Pool) Submit(j func()) {
	p.wg.Add(1)
	p.jobs <- j
}

// Wait waits for every submitted job; it forgets to close the channel.
func (p *Pool) Wait() int {
	p.wg.Wait()
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done
}
EOF
  cat >"$G/waiter/waiter_test.go" <<'EOF'
package waiter

import (
	"testing"
	"time"
)

func TestPoolQuick(t *testing.T) {
	p := New(2)
	p.Submit(func() {})
	if n := p.Wait(); n != 1 {
		t.Fatalf("done = %d, want 1", n)
	}
}

func TestPoolDrain(t *testing.T) {
	p := New(64)
	block := make(chan struct{})
	for i := 0; i < 6; i++ {
		go p.Submit(func() { <-block })
	}
	time.Sleep(50 * time.Millisecond)
	if n := p.Wait(); n != 6 {
		t.Fatalf("done = %d, want 6", n)
	}
}
EOF
  capture batch12 go_test_timeout_goroutine_dump "$G" "go test -count=1 -timeout 2s ./waiter" "$GOV"

  cat >"$G/order/order.go" <<'EOF'
package order

var registry = map[string]int{}

func Register(name string, prio int) { registry[name] = prio }

func Count() int { return len(registry) }

func Prio(name string) (int, bool) { p, ok := registry[name]; return p, ok }
EOF
  cat >"$G/order/order_test.go" <<'EOF'
package order

import (
	"os"
	"testing"
)

func TestRegisterDefaults(t *testing.T) {
	Register("http", 10)
	Register("grpc", 20)
	if Count() != 2 {
		t.Errorf("Count() = %d after defaults, want 2", Count())
	}
}

func TestPrioLookup(t *testing.T) {
	if p, ok := Prio("http"); !ok || p != 10 {
		t.Errorf("Prio(http) = %d, %v; want 10, true", p, ok)
	}
}

func TestRegisterExtra(t *testing.T) {
	Register("amqp", 5)
	if Count() != 3 {
		t.Errorf("Count() = %d after extra, want 3", Count())
	}
}

func TestNetworkSmoke(t *testing.T) {
	if os.Getenv("NETWORK_TESTS") == "" {
		t.Skip("NETWORK_TESTS not set; skipping smoke test against staging")
	}
}

func TestPrioUnknown(t *testing.T) {
	if _, ok := Prio("smtp"); ok {
		t.Error("Prio(smtp) found, want missing")
	}
	t.Log("unknown names stay unknown")
}

func TestRegisterOverwrite(t *testing.T) {
	Register("grpc", 30)
	if p, _ := Prio("grpc"); p != 30 {
		t.Errorf("Prio(grpc) = %d, want 30", p)
	}
}
EOF
  capture batch12 go_test_shuffle_on_order_dependent "$G" "go test -count=1 -shuffle 1700000000 -v ./order" "$GOV"
  capture batch12 go_test_run_v_skip_and_error "$G" "go test -count=1 -run 'Prio|Network' -v ./order" "$GOV"

  cat >"$G/parse/parse.go" <<'EOF'
package parse

import (
	"fmt"
	"strconv"
	"strings"
)

// Size parses "10k", "3M", "512" into bytes.
func Size(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("empty size")
	}
	mult := int64(1)
	switch s[len(s)-1] {
	case 'k', 'K':
		mult = 1 << 10
		s = s[:len(s)-1]
	case 'M':
		mult = 1 << 20
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad size %q: %w", s, err)
	}
	return n * mult, nil
}
EOF
  cat >"$G/parse/parse_test.go" <<'EOF'
package parse

import "testing"

func FuzzParseSize(f *testing.F) {
	f.Add("10k")
	f.Add("3M")
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Size(s)
		if err != nil {
			return
		}
		if n < 0 {
			t.Fatalf("Size(%q) = %d, negative size accepted", s, n)
		}
	})
}
EOF
  printf 'go test fuzz v1\nstring("-4k")\n' >"$G/parse/testdata/fuzz/FuzzParseSize/5b1c0a9e2f7d3c41"
  printf 'go test fuzz v1\nstring("k")\n' >"$G/parse/testdata/fuzz/FuzzParseSize/a04e7d2c19b8f6e3"
  capture batch12 go_test_fuzz_seed_corpus_fail "$G" "go test -count=1 -v ./parse" "$GOV"

  cat >"$G/generic/generic.go" <<'EOF'
package generic

import "fmt"

type Number interface {
	~int | ~int64 | ~float64
}

func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

func (s *Stack[T]) Pop() T {
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v
}

func Max[T comparable](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func Report() {
	fmt.Println(Sum([]string{"a", "b"}))
	var s Stack
	s.Push(1)
	labels := Map([]int{1, 2}, func(i int) string { return fmt.Sprint(i) })
	var total int = Sum(labels)
	fmt.Println(total, Sum[uint]([]uint{1}))
}
EOF
  capture batch12 go_build_generics_type_errors "$G" "go build ./generic" "$GOV"

  cat >"$G/vetme/vetme.go" <<'EOF'
package vetme

import (
	"fmt"
	"log"
	"sync"
)

type Counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c Counter) Get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[k]
}

func Snapshot(c *Counter) Counter {
	return *c
}

func Report(c *Counter, name string, hits int, ratio float64) {
	fmt.Printf("%s: %d hits (%.2f%%)\n", name, ratio, hits)
	log.Printf("counter %d", name)
	fmt.Println("done: %d", hits)
	fmt.Sprintf("%s", name)
	fmt.Errorf("missing %s %s", name)
}
EOF
  capture batch12 go_vet_printf_copylocks "$G" "go vet ./vetme" "$GOV"

  # cargo: a workspace with a struct-diff test, a crate of 220 tests, lifetimes, clippy pedantic,
  # and a member importing what another does not export
  R="$B/rustkit"
  mkdir -p "$R/crates/model/src" "$R/crates/bulk/src" "$R/crates/bulk/tests" "$R/crates/borrow/src" "$R/crates/lint/src" "$R/crates/lint/src/bin" "$R/crates/app/src"
  printf '[workspace]\nmembers = ["crates/model", "crates/bulk", "crates/borrow", "crates/lint", "crates/app"]\nresolver = "2"\n' >"$R/Cargo.toml"
  for c in model bulk borrow lint; do
    printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2021"\n' "$c" >"$R/crates/$c/Cargo.toml"
  done
  for c in model bulk borrow lint; do : >"$R/crates/$c/src/lib.rs"; done
  printf 'fn main() {}\n' >"$R/crates/app/src/main.rs"
  printf '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nmodel = { path = "../model" }\n' >"$R/crates/app/Cargo.toml"
  cat >"$R/crates/model/src/lib.rs" <<'EOF'
#[derive(Debug, Clone, PartialEq)]
pub struct Address {
    pub street: String,
    pub city: String,
    pub zip: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Customer {
    pub id: u32,
    pub name: String,
    pub email: Option<String>,
    pub tags: Vec<String>,
    pub address: Address,
    pub balance_cents: i64,
}

mod parse {
    pub fn normalize_zip(z: &str) -> String {
        z.trim().replace(' ', "")
    }
}

pub fn from_csv(line: &str) -> Customer {
    let f: Vec<&str> = line.split(',').collect();
    Customer {
        id: f[0].parse().unwrap(),
        name: f[1].trim().to_string(),
        email: if f[2].is_empty() { None } else { Some(f[2].to_string()) },
        tags: f[3].split(';').map(|s| s.to_string()).collect(),
        address: Address { street: f[4].to_string(), city: f[5].to_uppercase(), zip: parse::normalize_zip(f[6]) },
        balance_cents: (f[7].parse::<f64>().unwrap() * 100.0) as i64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_full_line() {
        let got = from_csv("42, Ada Lovelace,ada@example.org,vip;early,12 Analytical St,London,NW1 6XE,19.99");
        let want = Customer {
            id: 42,
            name: "Ada Lovelace".into(),
            email: Some("ada@example.org".into()),
            tags: vec!["vip".into(), "early".into()],
            address: Address { street: "12 Analytical St".into(), city: "London".into(), zip: "NW1 6XE".into() },
            balance_cents: 1999,
        };
        assert_eq!(got, want, "customer parsed from CSV differs");
    }

    #[test]
    fn empty_email_is_none() {
        let got = from_csv("7,Bob,,,1 Main,Paris,75001,0");
        assert_eq!(got.email, None);
    }
}
EOF
  capture batch12 cargo_test_struct_debug_diff "$R" "cargo test --offline -p model" "$(cargo --version)"

  {
    echo 'pub fn checksum(n: u64) -> u64 { (n * 2654435761) % 1000003 }'
    echo
    echo '#[cfg(test)]'
    echo 'mod tests {'
    echo '    use super::checksum;'
    for i in $(seq 1 220); do
      want=$(( (i * 2654435761) % 1000003 ))
      case $i in 57) want=$((want + 1)) ;; 123) want=0 ;; 188) want=$((want * 2)) ;; esac
      printf '    #[test]\n    fn checksum_case_%03d() {\n        assert_eq!(checksum(%d), %d, "checksum of %d");\n    }\n' "$i" "$i" "$want" "$i"
    done
    echo '}'
  } >"$R/crates/bulk/src/lib.rs"
  capture batch12 cargo_test_220_tests_3_fail "$R" "cargo test --offline -p bulk" "$(cargo --version)"

  cat >"$R/crates/borrow/src/lib.rs" <<'EOF'
pub struct Config {
    pub name: String,
    pub paths: Vec<String>,
}

pub fn longest(a: &str, b: &str) -> &str {
    if a.len() > b.len() { a } else { b }
}

pub struct Parser {
    input: &str,
}

pub fn first_path(cfg: &Config) -> &String {
    let local = cfg.clone_paths();
    &local[0]
}

impl Config {
    fn clone_paths(&self) -> Vec<String> {
        self.paths.clone()
    }
}

pub fn names() -> Vec<&'static str> {
    let owned = String::from("temp");
    vec![owned.as_str()]
}
EOF
  capture batch12 cargo_build_lifetime_errors_help "$R" "cargo build --offline -p borrow" "$(cargo --version)"

  for m in config store net report cli; do
    cat >"$R/crates/lint/src/$m.rs" <<'EOF'
pub fn parse_port(s: &str) -> u16 {
    let n: u64 = s.parse().unwrap();
    n as u16
}

pub fn ratio(a: u64, b: u64) -> f32 {
    a as f32 / b as f32
}

pub fn describe(items: &Vec<String>) -> String {
    let mut out = String::new();
    for i in 0..items.len() {
        out = out + &format!("{}", items[i]);
    }
    return out;
}

pub fn is_empty_name(name: &String) -> bool {
    name.len() == 0
}

pub fn maybe(x: Option<u32>) -> u32 {
    match x {
        Some(v) => v,
        None => 0,
    }
}
EOF
  done
  printf 'pub mod config;\npub mod store;\npub mod net;\npub mod report;\npub mod cli;\n' >"$R/crates/lint/src/lib.rs"
  printf 'fn main() {\n    let v = vec![1, 2, 3];\n    let total: i32 = v.iter().map(|x| x * 1).sum();\n    if total == 6 { println!("{}", format!("total {}", total)); }\n}\n' >"$R/crates/lint/src/bin/lintcli.rs"
  capture batch12 cargo_clippy_all_targets_pedantic "$R" "cargo clippy --offline -p lint --all-targets -- -W clippy::pedantic" "$(cargo clippy --version)"

  cat >"$R/crates/app/src/main.rs" <<'EOF'
use model::{from_csv, Customer};
use model::parse::normalize_zip;
use model::Invoice;

fn main() {
    let c: Customer = from_csv("1,a,,x,s,c,z,1");
    println!("{} {}", c.name, normalize_zip(" 1 2 "));
}
EOF
  capture batch12 cargo_check_workspace_unresolved_import "$R" "cargo check --offline --workspace --exclude lint --exclude borrow" "$(cargo --version)"

  # C/C++: ASan use-after-free, make -j4 with -Werror over several files, a long make -j4 -k build
  # with one broken file, cmake find_package failure, ctest with many failing tests, valgrind
  # uninitialised values, g++ concepts not satisfied
  CC_="$B/cproj"
  mkdir -p "$CC_/asan" "$CC_/werr/src" "$CC_/big/src" "$CC_/cm" "$CC_/ct" "$CC_/vg" "$CC_/cpp"
  cat >"$CC_/asan/cache.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry { char *key; int value; struct entry *next; } entry;

static entry *head;

static void put(const char *k, int v) {
    entry *e = malloc(sizeof *e);
    e->key = strdup(k);
    e->value = v;
    e->next = head;
    head = e;
}

static void evict_all(void) {
    for (entry *e = head; e; e = e->next) {
        free(e->key);
        free(e);
    }
}

int main(void) {
    put("alpha", 1);
    put("beta", 2);
    evict_all();
    printf("done\n");
    return 0;
}
EOF
  capture batch12 gcc_asan_use_after_free "$CC_/asan" "gcc -g -O0 -fsanitize=address -o cache cache.c && ./cache" "$(gcc --version | head -1)"

  for m in net util parse store log; do
    cat >"$CC_/werr/src/$m.c" <<EOF
#include <stdio.h>
#include <string.h>

int ${m}_count(const char *s) {
    int n;
    unsigned len = strlen(s);
    for (int i = 0; i < len; i++) {
        if (s[i] == ',') n++;
    }
    return n;
}

static int ${m}_unused(int x) { return x * 2; }

void ${m}_print(long v) {
    printf("%d\n", v);
}
EOF
  done
  cat >"$CC_/werr/Makefile" <<'EOF'
CFLAGS = -Wall -Wextra -Werror -O2
SRCS = $(wildcard src/*.c)
OBJS = $(SRCS:.c=.o)

libwerr.a: $(OBJS)
	ar rcs $@ $^

%.o: %.c
	$(CC) $(CFLAGS) -c $< -o $@
EOF
  capture batch12 make_j4_werror_several_files "$CC_/werr" "make -j4" "$(make --version | head -1)"

  for i in $(seq -w 1 300); do
    printf '#include "common.h"\n\nint mod%s_run(int x) {\n    return common_scale(x) + %d;\n}\n' "$i" "$((10#$i))" >"$CC_/big/src/mod$i.c"
  done
  printf '#ifndef COMMON_H\n#define COMMON_H\nstatic inline int common_scale(int x) { return x * 3; }\n#endif\n' >"$CC_/big/src/common.h"
  printf '#include "common.h"\n\nint mod167_run(int x) {\n    struct point p = { .x = x };\n    return common_scale(p.x) + undefined_offset;\n}\n' >"$CC_/big/src/mod167.c"
  cat >"$CC_/big/Makefile" <<'EOF'
CFLAGS = -O2 -Wall
SRCS = $(sort $(wildcard src/*.c))
OBJS = $(SRCS:src/%.c=build/%.o)

all: libbig.so

libbig.so: $(OBJS)
	$(CC) -shared -o $@ $^

build/%.o: src/%.c src/common.h | build
	$(CC) $(CFLAGS) -fPIC -c $< -o $@

build:
	mkdir -p build
EOF
  capture batch12 make_j4_k_long_build_one_error "$CC_/big" "make -j4 -k" "$(make --version | head -1)"

  cat >"$CC_/cm/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.10)
project(imgconv VERSION 0.3 LANGUAGES C)
set(CMAKE_C_STANDARD 11)
find_package(PkgConfig)
find_package(Threads REQUIRED)
find_package(ZLIB)
option(WITH_WEBP "webp support" ON)
if(WITH_WEBP)
  find_package(WebP 1.2 REQUIRED)
endif()
add_executable(imgconv main.c)
EOF
  printf 'int main(void) { return 0; }\n' >"$CC_/cm/main.c"
  capture batch12 cmake_find_package_missing_config "$CC_/cm" "cmake -S . -B build" "$(cmake --version | head -1)"

  cat >"$CC_/ct/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.10)
project(calc C)
enable_testing()
add_executable(calc_test calc_test.c)
foreach(op add sub mul div mod pow sqrt abs min max clamp lerp avg median round floor ceil trunc sign gcd)
  add_test(NAME calc_${op} COMMAND calc_test ${op})
endforeach()
set_tests_properties(calc_pow PROPERTIES TIMEOUT 1)
EOF
  cat >"$CC_/ct/calc_test.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    const char *op = argv[1];
    printf("running %s\n", op);
    if (strcmp(op, "div") == 0) {
        fprintf(stderr, "calc_test.c:12: div(7, 0): expected error EDOM, got 0\n");
        return 1;
    }
    if (strcmp(op, "median") == 0) {
        fprintf(stderr, "calc_test.c:16: median({1,2,3,4}) = 2, want 2.5\n");
        return 1;
    }
    if (strcmp(op, "pow") == 0) { sleep(3); }
    if (strcmp(op, "gcd") == 0) { int *p = 0; return *p; }
    if (strcmp(op, "round") == 0) {
        fprintf(stderr, "calc_test.c:21: round(-2.5) = -3, want -2\n");
        return 2;
    }
    printf("ok %s\n", op);
    return 0;
}
EOF
  (cd "$CC_/ct" && cmake -S . -B build >/dev/null && cmake --build build >/dev/null)
  capture batch12 ctest_many_tests_several_fail "$CC_/ct/build" "ctest --output-on-failure" "$(ctest --version | head -1)"

  cat >"$CC_/vg/stats.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>

static double mean(const int *xs, int n) {
    long sum;
    for (int i = 0; i < n; i++) sum += xs[i];
    return (double)sum / n;
}

int main(void) {
    int *xs = malloc(8 * sizeof *xs);
    for (int i = 0; i < 6; i++) xs[i] = i * 3;
    int max = xs[0];
    for (int i = 1; i < 8; i++) if (xs[i] > max) max = xs[i];
    printf("mean=%.2f max=%d\n", mean(xs, 6), max);
    free(xs);
    return 0;
}
EOF
  capture batch12 valgrind_uninitialised_values "$CC_/vg" "gcc -g -O0 -o stats stats.c && valgrind --track-origins=yes ./stats" "$(valgrind --version)"

  cat >"$CC_/cpp/shapes.cpp" <<'EOF'
#include <concepts>
#include <string>
#include <vector>
#include <map>

template <typename T>
concept Shape = requires(const T& s) {
    { s.area() } -> std::convertible_to<double>;
    { s.name() } -> std::same_as<std::string>;
};

struct Circle { double r; double area() const { return 3.14159 * r * r; } std::string name() const { return "circle"; } };
struct Square { double a; double area() const { return a * a; } const char* name() const { return "square"; } };
struct Label { std::string text; };

template <Shape S>
double total_area(const std::vector<S>& shapes) {
    double t = 0;
    for (const auto& s : shapes) t += s.area();
    return t;
}

int main() {
    std::vector<Circle> cs{{1.0}, {2.0}};
    std::vector<Square> ss{{3.0}};
    std::vector<Label> ls{{"x"}};
    std::map<std::string, int> counts;
    counts.insert(std::string("a"), 1);
    return static_cast<int>(total_area(cs) + total_area(ss) + total_area(ls));
}
EOF
  capture batch12 gxx_concepts_not_satisfied "$CC_/cpp" "g++ -std=c++20 -c shapes.cpp" "$(g++ --version | head -1)"

  # JVM: javac -Xlint:all warnings over a small package, a program dying with suppressed exceptions
  J="$B/jvm"
  mkdir -p "$J/src/com/acme/inv" "$J/out"
  cat >"$J/src/com/acme/inv/Stock.java" <<'EOF'
package com.acme.inv;

import java.io.Serializable;
import java.util.*;

public class Stock implements Serializable, Cloneable {
    private List items = new ArrayList();
    private Map<String, Integer> counts = new HashMap();

    public void add(String sku) {
        items.add(sku);
        Integer n = new Integer(counts.getOrDefault(sku, 0) + 1);
        counts.put(sku, n);
    }

    @Override
    public Stock clone() {
        try {
            return (Stock) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    public String describe(int kind) {
        String s = "";
        switch (kind) {
            case 1:
                s = "single";
            case 2:
                s = "double";
                break;
            default:
                s = "many";
        }
        return s;
    }

    @Deprecated
    public int legacyCount() { return items.size(); }

    @SuppressWarnings("finally")
    public int risky() {
        try { return 1; } finally { return 2; }
    }
}
EOF
  cat >"$J/src/com/acme/inv/Report.java" <<'EOF'
package com.acme.inv;

import java.util.List;
import java.util.Arrays;

public class Report {
    @SafeVarargs
    static <T> List<T> of(T... xs) { return Arrays.asList(xs); }

    public static void main(String[] args) {
        Stock s = new Stock();
        s.add("A-1");
        System.out.println(s.legacyCount());
        List raw = of("x", "y");
        List<String> typed = raw;
        Object o = (String) typed.get(0);
        System.out.println(o);
        int len = ((String) (Object) "abc").length();
        System.out.println(len);
    }
}
EOF
  capture batch12 javac_xlint_all_warnings "$J" "javac -Xlint:all -d out src/com/acme/inv/*.java" "$(javac -version 2>&1)"

  mkdir -p "$J/res/src/com/acme/sync" "$J/res/out"
  cat >"$J/res/src/com/acme/sync/Sync.java" <<'EOF'
package com.acme.sync;

import java.io.IOException;

public class Sync {
    static class Conn implements AutoCloseable {
        final String name;
        Conn(String name) { this.name = name; }
        void send(String what) throws IOException {
            throw new IOException("connection reset by peer while sending " + what + " to " + name);
        }
        @Override
        public void close() throws IOException {
            throw new IOException("failed to flush " + name + " on close");
        }
    }

    static void push(String batch) throws Exception {
        try (Conn primary = new Conn("replica-1:5432"); Conn audit = new Conn("audit-log:9000")) {
            primary.send(batch);
        } catch (IOException e) {
            throw new IllegalStateException("sync of " + batch + " aborted", e);
        }
    }

    public static void main(String[] args) throws Exception {
        System.out.println("syncing 3 batches");
        push("batch-0001");
        System.out.println("unreachable");
    }
}
EOF
  capture batch12 java_suppressed_exceptions_trace "$J/res" "javac -d out src/com/acme/sync/Sync.java && java -cp out com.acme.sync.Sync" "$(java -version 2>&1 | head -1)"

  # Ruby: rspec documentation format with many examples and failures, rubocop -a, minitest
  RB="$B/rb"
  mkdir -p "$RB/lib" "$RB/spec" "$RB/test"
  cat >"$RB/lib/cart.rb" <<'EOF'
class Cart
  Item = Struct.new(:sku, :price, :qty)

  attr_reader :items

  def initialize(tax_rate: 0.2)
    @items = []
    @tax_rate = tax_rate
  end

  def add(sku, price, qty = 1)
    raise ArgumentError, "qty must be positive" if qty <= 0
    existing = @items.find { |i| i.sku == sku }
    if existing
      existing.qty += qty
    else
      @items << Item.new(sku, price, qty)
    end
    self
  end

  def remove(sku)
    @items.reject! { |i| i.sku == sku }
  end

  def subtotal
    @items.sum { |i| i.price * i.qty }
  end

  def tax
    (subtotal * @tax_rate).round(2)
  end

  def total
    subtotal + tax
  end

  def discount(code)
    case code
    when "TEN" then subtotal * 0.1
    when "HALF" then subtotal / 2
    end
  end
end
EOF
  {
    echo 'require_relative "../lib/cart"'
    echo
    echo 'RSpec.describe Cart do'
    for grp in adding removing totals pricing shipping; do
      echo "  describe \"$grp\" do"
      for i in $(seq 1 50); do
        echo "    it \"keeps case $i consistent for $grp\" do"
        echo "      cart = Cart.new.add(\"sku-$i\", $i, 2)"
        echo "      expect(cart.subtotal).to eq($((i * 2)))"
        echo "    end"
      done
      echo "  end"
    done
    cat <<'EOF'
  describe "#tax" do
    it "rounds to cents" do
      expect(Cart.new.add("a", 9.99, 3).tax).to eq(5.99)
    end
  end
  describe "#discount" do
    it "returns zero for unknown codes" do
      expect(Cart.new.add("a", 10).discount("NOPE")).to eq(0)
    end
    it "halves with HALF" do
      expect(Cart.new.add("a", 10).discount("HALF")).to eq(5)
    end
  end
  describe "#add" do
    it "rejects zero quantity" do
      expect { Cart.new.add("a", 1, 0) }.to raise_error(ArgumentError, "quantity must be positive")
    end
    it "merges the same sku" do
      cart = Cart.new.add("a", 1).add("a", 1)
      expect(cart.items.map(&:to_h)).to eq([{ sku: "a", price: 1, qty: 2 }, { sku: "b", price: 1, qty: 1 }])
    end
  end
  describe "#remove" do
    it "returns the cart" do
      cart = Cart.new.add("a", 1)
      expect(cart.remove("z")).to be(cart)
    end
  end
end
EOF
  } >"$RB/spec/cart_spec.rb"
  capture batch12 rspec_format_documentation_long "$RB" "rspec --format documentation --no-color spec/cart_spec.rb" "$(rspec --version | head -1)"

  mkdir -p "$RB/style/app"
  for m in invoice payment refund; do
    cat >"$RB/style/app/$m.rb" <<'EOF'
class Thing
    def initialize(name,amount)
        @name=name
        @amount = amount
    end

    def label()
      return "#{@name}: " + @amount.to_s
    end

    def big?
      if @amount > 100 then true else false end
    end

    def tags
      [ 'a','b' ].map { |t| t.upcase }
    end
end
EOF
  done
  printf 'AllCops:\n  NewCops: enable\n  SuggestExtensions: false\n' >"$RB/style/.rubocop.yml"
  capture batch12 rubocop_autocorrect_applied "$RB/style" "rubocop -a --format progress app" "$(rubocop --version)"

  cat >"$RB/test/cart_test.rb" <<'EOF'
require "minitest/autorun"
require_relative "../lib/cart"

class CartTest < Minitest::Test
  def setup
    @cart = Cart.new(tax_rate: 0.1)
  end

  def test_subtotal
    @cart.add("a", 2, 3)
    assert_equal 6, @cart.subtotal
  end

  def test_discount_unknown
    @cart.add("a", 10)
    assert_equal 0, @cart.discount("NOPE").round
  end

  def test_total_with_tax
    @cart.add("a", 10)
    assert_in_delta 11.0, @cart.total, 0.001
  end

  def test_coupon_apply
    @cart.add("a", 10)
    @cart.apply_coupon("TEN")
    assert_equal 9, @cart.total
  end

  def test_remove_returns_items
    @cart.add("a", 1).add("b", 2)
    assert_equal ["b"], @cart.remove("a").map(&:sku)
  end

  def test_items_frozen
    @cart.items << nil
    assert_predicate @cart.items, :frozen?
  end
end
EOF
  capture batch12 minitest_errors_and_failures "$RB" "ruby -Ilib test/cart_test.rb --seed 4242" "$(ruby -v)"

  # git: a big branchy history, a diff across many files, merge --no-ff with three conflicts and
  # the diff during it, rebase --exec stopping at a failing commit, status with submodules and
  # untracked directories, clean -ndx of a built tree
  export GIT_AUTHOR_NAME="Dana Dev" GIT_AUTHOR_EMAIL="dana@example.org"
  export GIT_COMMITTER_NAME="Dana Dev" GIT_COMMITTER_EMAIL="dana@example.org"
  export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
  GITV="$(git --version)"
  gcommit() { GIT_AUTHOR_DATE="2026-10-01T10:00:00 +0000" GIT_COMMITTER_DATE="2026-10-01T10:00:00 +0000" git commit -q "${@:2}"; }
  GH="$B/githist"
  mkdir -p "$GH" && cd "$GH" && git init -q -b main . && git config commit.gpgsign false
  n=0
  echo "# service" >README.md && git add README.md && gcommit 0 -m "initial commit"
  for f in $(seq 1 40); do
    git checkout -q -b "feature/f$f"
    for c in 1 2 3 4; do
      n=$((n + 1)); echo "change $f.$c" >>"mod$f.txt"; git add "mod$f.txt"
      gcommit 0 -m "f$f: step $c of the $( [ $c = 4 ] && echo final || echo partial ) rework of module $f"
    done
    git checkout -q main
    echo "main $f" >>CHANGELOG && git add CHANGELOG && gcommit 0 -m "changelog: note for release 1.$f"
    git merge -q --no-ff -m "Merge branch 'feature/f$f'" "feature/f$f"
    [ $((f % 10)) = 0 ] && git tag "v1.$f"
  done
  git checkout -q -b hotfix/crash main~3
  echo fix >hotfix.txt && git add hotfix.txt && gcommit 0 -m "hotfix: guard against nil session on reconnect"
  git checkout -q main
  cd - >/dev/null
  capture batch12 git_log_oneline_graph_big "$GH" "git log --oneline --graph --decorate --all" "$GITV"

  GD="$B/gitdiff"
  mkdir -p "$GD/src/handlers" "$GD/src/models" "$GD/docs" && cd "$GD" && git init -q -b main . && git config commit.gpgsign false
  for i in $(seq 1 18); do
    printf 'export function handle%s(req) {\n  const id = req.params.id;\n  if (!id) {\n    return { status: 400 };\n  }\n  return { status: 200, body: lookup%s(id) };\n}\n\nfunction lookup%s(id) {\n  return db.find("t%s", id);\n}\n' "$i" "$i" "$i" "$i" >"src/handlers/h$i.js"
  done
  for i in $(seq 1 8); do printf 'export class Model%s {\n  constructor(row) {\n    this.id = row.id;\n    this.name = row.name;\n  }\n}\n' "$i" >"src/models/m$i.js"; done
  printf '# API\n\nAll handlers return status codes.\n' >docs/api.md
  git add . && gcommit 0 -m "base"
  for i in $(seq 1 18); do
    sed -i 's/return { status: 400 };/throw new HttpError(400, `missing id in ${req.path}`);/; s/const id = req.params.id;/const id = req.params.id ?? req.query.id;/' "src/handlers/h$i.js"
    sed -i '1i import { HttpError } from "../errors.js";\n' "src/handlers/h$i.js"
  done
  sed -i 's/return db.find("t7", id);/return db.findOrFail("t7", id, { timeoutMs: 500 });/' src/handlers/h7.js
  for i in $(seq 1 8); do sed -i 's/this.name = row.name;/this.name = row.name;\n    this.createdAt = new Date(row.created_at);/' "src/models/m$i.js"; done
  git rm -qf src/models/m8.js
  printf 'export class HttpError extends Error {\n  constructor(status, message) {\n    super(message);\n    this.status = status;\n  }\n}\n' >src/errors.js
  printf '\nHandlers throw HttpError on bad input.\n' >>docs/api.md
  git add -N src/errors.js
  cd - >/dev/null
  capture batch12 git_diff_many_files_long "$GD" "git diff" "$GITV"

  GM="$B/gitmerge"
  mkdir -p "$GM/src" && cd "$GM" && git init -q -b main . && git config commit.gpgsign false
  printf 'port = 8080\nworkers = 4\ntimeout = 30\nlog_level = "info"\n' >config.toml
  printf 'def retry(fn, attempts=3):\n    for i in range(attempts):\n        try:\n            return fn()\n        except IOError:\n            pass\n    raise RuntimeError("gave up")\n' >src/retry.py
  printf '# Changelog\n\n## 1.4.0\n- initial\n' >CHANGELOG.md
  printf 'unchanged\n' >src/other.py
  git add . && gcommit 0 -m "base"
  git checkout -q -b feature/backoff
  sed -i 's/workers = 4/workers = 8/; s/timeout = 30/timeout = 60/' config.toml
  sed -i 's/            pass/            time.sleep(2 ** i)/' src/retry.py
  sed -i 's/## 1.4.0/## 1.5.0 (unreleased)\n- exponential backoff in retry\n\n## 1.4.0/' CHANGELOG.md
  printf 'backoff notes\n' >NOTES.md
  git add . && gcommit 0 -m "retry: exponential backoff, more workers"
  git checkout -q main
  sed -i 's/workers = 4/workers = 2/; s/log_level = "info"/log_level = "debug"/' config.toml
  sed -i 's/            pass/            log.warning("attempt %%d failed", i)/' src/retry.py
  sed -i 's/## 1.4.0/## 1.4.1\n- log failed attempts\n\n## 1.4.0/' CHANGELOG.md
  echo "changed" >src/other.py
  git add . && gcommit 0 -m "retry: log each failed attempt"
  cd - >/dev/null
  capture batch12 git_merge_no_ff_three_conflicts "$GM" "git merge --no-ff feature/backoff" "$GITV"
  capture batch12 git_diff_during_merge_conflict "$GM" "git diff" "$GITV"

  GR="$B/gitrebase"
  mkdir -p "$GR" && cd "$GR" && git init -q -b main . && git config commit.gpgsign false
  printf '#!/bin/sh\nset -e\nfor f in src/*.sh; do sh -n "$f" || { echo "syntax check failed: $f"; exit 1; }; done\necho "checked $(ls src/*.sh | wc -l) scripts"\n' >check.sh && chmod +x check.sh
  mkdir src && printf 'echo base\n' >src/a.sh && git add . && gcommit 0 -m "base"
  git checkout -q -b topic
  printf 'echo two\n' >src/b.sh && git add . && gcommit 0 -m "add b.sh"
  printf 'if [ -n "$1" ]; then\n  echo three\n' >src/c.sh && git add . && gcommit 0 -m "add c.sh (WIP)"
  printf 'echo four\n' >src/d.sh && git add . && gcommit 0 -m "add d.sh"
  printf 'fi\n' >>src/c.sh && git add . && gcommit 0 -m "fix c.sh"
  git checkout -q main && printf 'echo main\n' >src/m.sh && git add . && gcommit 0 -m "main: add m.sh" && git checkout -q topic
  cd - >/dev/null
  capture batch12 git_rebase_exec_failure "$GR" "git rebase --exec ./check.sh main" "$GITV"

  GS="$B/gitsub"
  mkdir -p "$GS/libs" && cd "$GS"
  for s in proto ui-kit; do
    git init -q -b main "$B/sub-$s" && (cd "$B/sub-$s" && git config commit.gpgsign false && echo "$s" >README && git add . && gcommit 0 -m "init $s" && echo more >>README && git add . && gcommit 0 -m "second")
  done
  git init -q -b main . && git config commit.gpgsign false
  echo app >README.md && git add . && gcommit 0 -m "app"
  git -c protocol.file.allow=always submodule add -q "$B/sub-proto" libs/proto
  git -c protocol.file.allow=always submodule add -q "$B/sub-ui-kit" libs/ui-kit
  gcommit 0 -m "add submodules"
  (cd libs/proto && git checkout -q HEAD~1)
  echo "local edit" >>libs/ui-kit/README
  mkdir -p scratch/out tmp/cache && touch scratch/out/a.bin scratch/notes.txt tmp/cache/x
  echo "changed" >>README.md
  printf 'node_modules\n' >.dockerignore
  cd - >/dev/null
  capture batch12 git_status_submodules_untracked "$GS" "git status" "$GITV"

  GC="$B/gitclean"
  mkdir -p "$GC" && cd "$GC" && git init -q -b main . && git config commit.gpgsign false
  printf 'build/\n*.o\n*.log\n.cache/\n' >.gitignore && mkdir src && echo 'int main(){}' >src/main.c && git add . && gcommit 0 -m base
  mkdir -p build/obj build/gen .cache/clangd/index
  for i in $(seq 1 120); do touch "build/obj/unit$i.o" ; done
  for i in $(seq 1 60); do touch ".cache/clangd/index/f$i.idx"; done
  for i in $(seq 1 300); do touch "src/gen_$i.o"; done
  touch build/gen/config.h test.log debug.log src/scratch.c notes.txt
  cd - >/dev/null
  capture batch12 git_clean_ndx_long "$GC" "git clean -ndx" "$GITV"

  # build/shell: make -C three levels deep with a failing recipe, bash -x of a set -euo pipefail
  # script failing inside a function, shellcheck -x following sourced files
  MK="$B/mkrec"
  mkdir -p "$MK/libs/codec/tables" "$MK/libs/net" "$MK/app"
  printf 'SUBDIRS = libs app\n\nall:\n\tfor d in $(SUBDIRS); do $(MAKE) -C $$d || exit 1; done\n' >"$MK/Makefile"
  printf 'all:\n\t$(MAKE) -C net\n\t$(MAKE) -C codec\n' >"$MK/libs/Makefile"
  printf 'all:\n\t@echo "net: building libnet.a"\n\t@echo "net: 12 objects up to date"\n' >"$MK/libs/net/Makefile"
  printf '.PHONY: all gen-tables\nall: gen-tables\n\t@echo "codec: linking"\n\ngen-tables:\n\t$(MAKE) -C tables gen\n' >"$MK/libs/codec/Makefile"
  cat >"$MK/libs/codec/tables/Makefile" <<'EOF'
gen: huffman.h crc32.h

huffman.h: huffman.def
	python3 gen_table.py huffman.def > $@

crc32.h:
	python3 gen_table.py crc32.def > $@
EOF
  printf 'sym 0 bits 2\nsym 1 bits 3\n' >"$MK/libs/codec/tables/huffman.def"
  cat >"$MK/libs/codec/tables/gen_table.py" <<'EOF'
import sys

src = sys.argv[1]
with open(src) as fh:
    rows = [line.split() for line in fh if line.strip()]
print("/* generated from %s */" % src)
for r in rows:
    print("#define SYM_%s_BITS %d" % (r[1], int(r[3])))
EOF
  printf 'all:\n\t@echo "app: building"\n' >"$MK/app/Makefile"
  capture batch12 make_C_recursive_deep_failure "$MK" "make" "$(make --version | head -1)"

  SH="$B/deploy"
  mkdir -p "$SH/lib" "$SH/releases"
  cat >"$SH/deploy.sh" <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
shopt -s inherit_errexit

source "$(dirname "$0")/lib/common.sh"

RELEASE_DIR=releases
KEEP=3

prune_releases() {
  local count
  count=$(ls "$RELEASE_DIR" | wc -l)
  log "found $count releases, keeping $KEEP"
  ls -1t "$RELEASE_DIR" | tail -n +$((KEEP + 1)) | while read -r old; do
    log "removing $old"
  done
}

read_manifest() {
  local version
  version=$(grep '^version=' "$RELEASE_DIR/current/manifest" | cut -d= -f2)
  echo "$version"
}

main() {
  log "deploy started"
  prune_releases
  local v
  v=$(read_manifest)
  log "deploying version $v"
  upload "$v"
}

main "$@"
EOF
  printf 'log() { printf "[deploy] %%s\\n" "$*"; }\nupload() { log "uploading $1"; }\n' >"$SH/lib/common.sh"
  for r in 2026.11.01 2026.11.08 2026.11.15 2026.11.22 2026.11.26; do mkdir -p "$SH/releases/$r"; done
  capture batch12 bash_x_pipefail_function_failure "$SH" "bash -x ./deploy.sh" "$(bash --version | head -1)"

  SC="$B/shx"
  mkdir -p "$SC/scripts/lib"
  cat >"$SC/scripts/lib/env.sh" <<'EOF'
# shellcheck shell=bash
APP_HOME=/opt/app
DATA_DIR=$APP_HOME/data
export PATH=$APP_HOME/bin:$PATH
retries=3
function with_retry {
  for i in $(seq 1 $retries); do
    $@ && return 0
    sleep $i
  done
  return 1
}
EOF
  cat >"$SC/scripts/lib/db.sh" <<'EOF'
# shellcheck shell=bash
db_dump() {
  local out=$1
  pg_dump $DB_NAME > $out
  echo "dumped to $out at `date`"
}
EOF
  cat >"$SC/scripts/backup.sh" <<'EOF'
#!/bin/bash
source scripts/lib/env.sh
. scripts/lib/db.sh
source scripts/lib/missing.sh

cd $DATA_DIR
for f in $(find . -name '*.dump'); do
  with_retry gzip $f
done
db_dump $DATA_DIR/latest.dump
echo "backup of $DB_NAME done, retries=$retries, dir=$DATADIR"
EOF
  cat >"$SC/scripts/restore.sh" <<'EOF'
#!/bin/bash
source scripts/lib/env.sh
file=$1
[ -f $file ] || { echo "no file"; exit 1; }
cat $file | gunzip | psql
if [ $? -ne 0 ]; then echo "restore failed"; fi
EOF
  capture batch12 shellcheck_x_sourced_files "$SC" "shellcheck -x scripts/backup.sh scripts/restore.sh" "shellcheck $(shellcheck --version | sed -n 's/^version: //p')"
fi

# --- batch13: a thirteenth blind batch (Python, JavaScript/TypeScript, their package managers and web
# tooling in situations the set lacked: pytest -l locals, -s prints, --setup-show, --stepwise, collection
# SyntaxErrors, many failing parameter ids, pytest-timeout, a hypothesis falsifying example, coverage
# --fail-under, tox envs, mypy error context, ruff grouped/concise, pylint text over many modules, pip -r
# with a failing build, python -m build, sphinx warnings, a Flask import crash, a long INFO log with a
# traceback; jest console noise, open handles, vitest inline snapshots, node --test coverage, babel code
# frames, tsc --extendedDiagnostics, eslint warnings/json, npm deprecations, npm ls problems, pnpm -r,
# yarn classic, webpack warnings), captured and its signals written and committed before any filter ran
# on it and before any rule file, filter source, filter test, fixture, bench/corpus file or
# bench/README.md was opened.
if sel batch13; then
  B="$WORK/batch13"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  PYV="$(python3 --version)"
  PTV="pytest $(python3 -m pytest --version 2>&1 | sed 's/^pytest //')"

  # Python: one package, several test modules, run many ways
  P="$B/inventory"
  mkdir -p "$P/inventory" "$P/tests" "$P/broken"
  : >"$P/inventory/__init__.py"
  cat >"$P/inventory/stock.py" <<'EOF'
from dataclasses import dataclass, field


@dataclass
class Item:
    sku: str
    qty: int
    price_cents: int
    tags: list = field(default_factory=list)


class Warehouse:
    def __init__(self, name):
        self.name = name
        self.items = {}

    def add(self, item):
        if item.sku in self.items:
            self.items[item.sku].qty += item.qty
        else:
            self.items[item.sku] = item

    def remove(self, sku, qty):
        item = self.items[sku]
        if qty > item.qty:
            raise ValueError(f"cannot remove {qty} of {sku}: only {item.qty} left")
        item.qty -= qty

    def value(self):
        return sum(i.qty * i.price_cents for i in self.items.values())

    def restock_plan(self, threshold, batch):
        plan = {}
        for sku, item in self.items.items():
            if item.qty < threshold:
                plan[sku] = batch - item.qty % batch
        return plan


def parse_line(line):
    sku, qty, price = line.split(",")
    return Item(sku.strip(), int(qty), int(round(float(price) * 100)))


def discount(price_cents, percent):
    return price_cents - price_cents * percent // 100
EOF
  cat >"$P/tests/test_stock.py" <<'EOF'
import pytest
from inventory.stock import Item, Warehouse, parse_line, discount


@pytest.fixture
def wh():
    w = Warehouse("north")
    for n in range(12):
        w.add(Item(f"SKU-{n:03d}", n * 3, 150 + n, ["bulk"] if n % 4 == 0 else []))
    return w


def test_value(wh):
    expected = sum(n * 3 * (150 + n) for n in range(12))
    assert wh.value() == expected


def test_remove_too_many(wh):
    with pytest.raises(ValueError, match="only 9 left"):
        wh.remove("SKU-003", 10)


def test_restock_plan(wh):
    plan = wh.restock_plan(threshold=10, batch=12)
    inventory_snapshot = {s: i.qty for s, i in wh.items.items()}
    assert plan == {"SKU-000": 12, "SKU-001": 9, "SKU-002": 6, "SKU-003": 12}


def test_parse_line_rounding():
    item = parse_line("AB-1, 4, 19.99")
    assert item.price_cents == 1999
    item = parse_line("AB-2, 1, 0.285")
    assert item.price_cents == 29


def test_remove_then_value(wh):
    before = wh.value()
    wh.remove("SKU-010", 5)
    removed_value = 5 * 150
    assert wh.value() == before - removed_value + 0
EOF
  cat >"$P/tests/test_discount.py" <<'EOF'
import pytest
from inventory.stock import discount

CASES = [(price, pct, price - price * pct // 100) for price in (100, 199, 250, 999, 1000, 1234, 1999, 2500, 4999, 10000) for pct in (0, 5, 10, 12, 15, 20, 25, 33, 50, 75)]
CASES[7] = (199, 5, 190)
CASES[13] = (250, 10, 226)
CASES[22] = (250, 12, 221)
CASES[48] = (999, 75, 250)
CASES[61] = (1234, 5, 1173)
CASES[77] = (2500, 33, 1676)
CASES[87] = (4999, 33, 3349)


@pytest.mark.parametrize("price,pct,expected", CASES)
def test_discount(price, pct, expected):
    assert discount(price, pct) == expected


@pytest.mark.parametrize("pct", [-5, 101, 250])
def test_discount_out_of_range(pct):
    with pytest.raises(ValueError):
        discount(100, pct)
EOF
  cat >"$P/tests/test_report.py" <<'EOF'
from inventory.stock import Item, Warehouse


def build(n):
    w = Warehouse("bulk")
    for i in range(n):
        w.add(Item(f"R-{i}", i % 7, 100 + i))
    return w


def test_report_lines():
    w = build(150)
    for sku, item in w.items.items():
        print(f"report: {sku} qty={item.qty} value={item.qty * item.price_cents}")
    assert len(w.items) == 150


def test_report_totals():
    w = build(140)
    total = 0
    for sku, item in w.items.items():
        total += item.qty * item.price_cents
        print(f"running total after {sku}: {total}")
    assert total == w.value() + 1


def test_report_empty():
    print("empty warehouse report")
    assert build(0).value() == 0
EOF
  cat >"$P/conftest.py" <<'EOF'
import pytest


@pytest.fixture(scope="session")
def db_url():
    return "sqlite:///:memory:"


@pytest.fixture(autouse=True)
def audit(db_url):
    yield
EOF
  capture batch13 pytest_l_showlocals_long "$P" "python3 -m pytest -l tests/test_stock.py" "$PTV"
  capture batch13 pytest_s_prints_interleaved "$P" "python3 -m pytest -s -v tests/test_report.py tests/test_stock.py" "$PTV"
  capture batch13 pytest_setup_show_one_fail "$P" "python3 -m pytest --setup-show tests/test_stock.py -k 'value or remove'" "$PTV"
  capture batch13 pytest_parametrize_many_ids_failing "$P" "python3 -m pytest -v tests/test_discount.py" "$PTV"
  capture batch13 pytest_stepwise_stops "$P" "python3 -m pytest --stepwise tests/test_discount.py tests/test_stock.py" "$PTV"

  # collection errors in several files
  cat >"$P/broken/test_a.py" <<'EOF'
def test_ok():
    assert True

def test_bad(:
    pass
EOF
  cat >"$P/broken/test_b.py" <<'EOF'
from inventory.stock import Warehouse, restock


def test_restock():
    assert restock(Warehouse("x")) == {}
EOF
  cat >"$P/broken/test_c.py" <<'EOF'
import json


def test_json():
    data = {"a": 1,
            "b": [1, 2, 3}
    assert json.dumps(data)
EOF
  cat >"$P/broken/test_d.py" <<'EOF'
def test_fine():
    assert 1 + 1 == 2
EOF
  capture batch13 pytest_collection_syntax_errors "$P" "python3 -m pytest broken" "$PTV"

  # pytest-timeout
  mkdir -p "$P/slow"
  cat >"$P/slow/test_slow.py" <<'EOF'
import time
import threading


def wait_for(flag, poll):
    while not flag.is_set():
        time.sleep(poll)


def test_quick():
    assert sum(range(10)) == 45


def test_hangs_on_event():
    flag = threading.Event()
    wait_for(flag, 0.05)


def test_after():
    assert True
EOF
  capture batch13 pytest_timeout_signal_method "$P" "python3 -m pytest -p no:cacheprovider --timeout=2 --timeout-method=signal slow" "$PTV, pytest-timeout $(python3 -c 'import importlib.metadata as m;print(m.version("pytest-timeout"))')"

  # hypothesis falsifying example
  mkdir -p "$P/prop"
  cat >"$P/prop/test_prop.py" <<'EOF'
from hypothesis import given, settings, strategies as st
from inventory.stock import discount


@settings(derandomize=True, database=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=100))
def test_discount_never_negative_and_monotone(price, pct):
    d = discount(price, pct)
    assert 0 <= d <= price
    assert discount(price, pct) >= discount(price, min(pct + 1, 100)) - 0
    assert d == round(price * (100 - pct) / 100)
EOF
  capture batch13 hypothesis_falsifying_example "$P" "python3 -m pytest -p no:cacheprovider prop" "$PTV, hypothesis $(python3 -c 'import hypothesis;print(hypothesis.__version__)')"

  # coverage report --fail-under
  capture batch13 coverage_report_fail_under "$P" "python3 -m coverage run --source=inventory -m pytest -q -p no:cacheprovider tests/test_report.py >/dev/null 2>&1; python3 -m coverage report -m --fail-under=90" "coverage $(python3 -m coverage --version | sed -n 's/^Coverage.py, version \([^ ]*\).*/\1/p')"

  # mypy with error context, columns, notes and reveal_type
  M="$B/typed"
  mkdir -p "$M/shop"
  : >"$M/shop/__init__.py"
  cat >"$M/shop/models.py" <<'EOF'
from dataclasses import dataclass
from typing import Optional, Protocol


@dataclass
class Product:
    name: str
    price: float
    stock: int = 0


class Repo(Protocol):
    def get(self, name: str) -> Optional[Product]: ...
    def put(self, product: Product) -> None: ...


class MemoryRepo:
    def __init__(self) -> None:
        self.data: dict[str, Product] = {}

    def get(self, name: str) -> Optional[Product]:
        return self.data.get(name)

    def put(self, product: Product, overwrite: bool) -> None:
        self.data[product.name] = product
EOF
  cat >"$M/shop/service.py" <<'EOF'
from typing import Iterable
from shop.models import MemoryRepo, Product, Repo


def price_of(repo: Repo, name: str) -> float:
    product = repo.get(name)
    return product.price


def restock(repo: Repo, names: Iterable[str], qty: int) -> list[Product]:
    out = []
    for name in names:
        p = repo.get(name)
        if p is None:
            continue
        p.stock += qty
        out.append(p)
    reveal_type(out)
    return out


def total(products: list[Product]) -> int:
    return sum(p.price * p.stock for p in products)


def make_repo() -> Repo:
    return MemoryRepo()


class Cart:
    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        self.lines: dict[str, int] = {}

    def add(self, name: str, qty: str) -> None:
        self.lines[name] = self.lines.get(name, 0) + qty

    def checkout(self) -> float:
        amount = 0
        for name, qty in self.lines.items():
            amount += price_of(self.repo, name) * qty
        reveal_type(amount)
        return amount
EOF
  capture batch13 mypy_error_context_columns_reveal "$M" "python3 -m mypy --show-error-context --show-column-numbers --no-incremental shop" "$(python3 -m mypy --version)"

  # ruff over a small messy project, two output formats
  R="$B/ruffy"
  mkdir -p "$R/app/api" "$R/app/core"
  cat >"$R/app/__init__.py" <<'EOF'
import os, sys
EOF
  cat >"$R/app/api/handlers.py" <<'EOF'
import json
import re
from typing import List, Dict


def handle(request, cache={}):
    try:
        payload = json.loads(request.body)
    except:
        return None
    if payload == None:
        return {}
    l = []
    for k in payload.keys():
        if type(payload[k]) == str:
            l.append(k)
    unused = re.compile("x")
    return {"keys": l, "ok": True if l else False}


def lookup(d: Dict, key) -> List:
    return d.get(key) if key in d.keys() else []
EOF
  cat >"$R/app/core/util.py" <<'EOF'
import subprocess
from os import path
from .missing import *


def run(cmd):
    out = subprocess.call(cmd, shell=True)
    f = open(path.join("/tmp", "log"))
    data = f.read()
    print("ran %s" % cmd)
    return out


def compare(a, b):
    if not a == b:
        return False
    elif a is not None:
        return True
    else:
        return False


lambda_fn = lambda x: x * 2
EOF
  RV="$(ruff --version)"
  capture batch13 ruff_check_grouped_select_all "$R" "ruff check --no-cache --select E,F,W,B,SIM,UP,S,PTH,E722,RET --output-format=grouped app" "$RV"
  capture batch13 ruff_check_concise "$R" "ruff check --no-cache --select E,F,B,SIM --output-format=concise app" "$RV"

  # pylint, text output over many modules
  L="$B/pyl"
  mkdir -p "$L/reports"
  : >"$L/reports/__init__.py"
  for m in alpha beta gamma delta epsilon zeta eta theta; do
    cat >"$L/reports/$m.py" <<EOF
import os
import sys
from collections import *


class ${m^}Report(object):
    def __init__(self, rows, title, width, height, color, border):
        self.rows = rows
        self.title = title
        self.width = width

    def render(self, fmt="txt"):
        out = ""
        for i in range(len(self.rows)):
            row = self.rows[i]
            if fmt == "txt":
                out = out + str(row) + "\n"
            elif fmt == "csv":
                out = out + ",".join(row) + "\n"
            else:
                pass
        return out

    def save(self, path):
        f = open(path, "w")
        f.write(self.render())

    def count(self):
        try:
            return len(self.rows)
        except Exception as e:
            pass


def helper_$m(x, y=[]):
    y.append(x)
    unused_$m = 1
    return y
EOF
  done
  cat >>"$L/reports/delta.py" <<'EOF'


def broken_call():
    return undefined_name + DeltaReport.missing_method()
EOF
  capture batch13 pylint_text_many_modules "$L" "python3 -m pylint --output-format=text reports" "$(python3 -m pylint --version | sed -n 1p)"

  # pip install -r with one local package whose build fails
  W="$B/wheels"
  mkdir -p "$W/pkgs"
  for name in alpha_utils beta_client gamma_core; do
    mkdir -p "$W/pkgs/$name/$name"
    echo "VERSION = '1.0'" >"$W/pkgs/$name/$name/__init__.py"
    printf 'from setuptools import setup\nsetup(name="%s", version="1.0", packages=["%s"])\n' "$name" "$name" >"$W/pkgs/$name/setup.py"
  done
  mkdir -p "$W/pkgs/fastmath/fastmath"
  echo "" >"$W/pkgs/fastmath/fastmath/__init__.py"
  cat >"$W/pkgs/fastmath/setup.py" <<'EOF'
from setuptools import setup, Extension

setup(
    name="fastmath",
    version="0.3.1",
    packages=["fastmath"],
    ext_modules=[Extension("fastmath._speedups", ["src/speedups.c"], include_dirs=["include"])],
)
EOF
  mkdir -p "$W/pkgs/fastmath/src"
  cat >"$W/pkgs/fastmath/src/speedups.c" <<'EOF'
#include <Python.h>
#include "fastmath_config.h"

static PyObject *dot(PyObject *self, PyObject *args) { return PyLong_FromLong(0); }
EOF
  printf './pkgs/alpha_utils\n./pkgs/beta_client\n./pkgs/fastmath\n./pkgs/gamma_core\n' >"$W/requirements.txt"
  python3 -m venv --system-site-packages "$W/.venv"
  capture batch13 pip_install_r_extension_build_fails "$W" ".venv/bin/pip install --no-index --no-build-isolation -r requirements.txt" "$(pip3 --version | cut -d' ' -f1-2)"

  # python -m build that fails in the backend
  BD="$B/buildme"
  mkdir -p "$BD/src/buildme"
  echo "__version__ = '0.1'" >"$BD/src/buildme/__init__.py"
  cat >"$BD/pyproject.toml" <<'EOF'
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "buildme"
version = "0.1.0"
description = "demo"
readme = "README.rst"
requires-python = ">=3.9"
license = {file = "LICENSE"}
dependencies = ["requests>=2", "urllib3 (<3"]

[project.scripts]
buildme = "buildme.cli:main"

[tool.setuptools.packages.find]
where = ["src"]
EOF
  capture batch13 python_m_build_invalid_dependency "$BD" "python3 -m build --no-isolation" "build $(python3 -c 'import importlib.metadata as m;print(m.version("build"))')"

  # sphinx-build with warnings
  S="$B/docs"
  mkdir -p "$S/source" "$S/pkg"
  cat >"$S/pkg/calc.py" <<'EOF'
def add(a, b):
    """Add two numbers.

    :param a: first
    :param b: second
    :returns: the sum
    """
    return a + b


def div(a, b):
    """Divide.

    Args:
        a: numerator
      b: denominator
    """
    return a / b
EOF
  cat >"$S/source/conf.py" <<'EOF'
import os, sys
sys.path.insert(0, os.path.abspath("../pkg"))
project = "calc"
extensions = ["sphinx.ext.autodoc"]
html_static_path = ["_static"]
EOF
  cat >"$S/source/index.rst" <<'EOF'
Calc
====

.. toctree::
   :maxdepth: 2

   usage
   api
   changelog

See :ref:`install-guide` and :doc:`tutorial`.

Title
---
EOF
  cat >"$S/source/usage.rst" <<'EOF'
Usage
=====

Call :func:`calc.add` like this::

    add(1, 2)

.. code-block:: pyhton

   print(add(1, 2))

.. note::
This note has no indented body.

`broken link <http://example.invalid`_
EOF
  cat >"$S/source/api.rst" <<'EOF'
API
===

.. automodule:: calc
   :members:

.. automodule:: calc_missing
   :members:

.. autofunction:: calc.mul
EOF
  cat >"$S/source/orphan.rst" <<'EOF'
Orphan
======

Nobody links here.
EOF
  capture batch13 sphinx_build_warnings "$S" "python3 -m sphinx -b html -q -W --keep-going source _build/html" "$(python3 -m sphinx --version)"

  # Flask app that dies at import, through site-packages
  F="$B/flaskapp"
  mkdir -p "$F/app"
  cat >"$F/app/__init__.py" <<'EOF'
from flask import Flask
from .config import load_config


def create_app():
    app = Flask(__name__)
    app.config.update(load_config())
    from . import views
    app.register_blueprint(views.bp)
    return app
EOF
  cat >"$F/app/config.py" <<'EOF'
import os


def load_config():
    return {"SECRET_KEY": os.environ["APP_SECRET"], "DEBUG": False}
EOF
  cat >"$F/app/views.py" <<'EOF'
from flask import Blueprint, jsonify

bp = Blueprint("api", __name__)


@bp.route("/health")
def health():
    return jsonify(ok=True)
EOF
  capture batch13 flask_routes_missing_env_at_import "$F" "env -u APP_SECRET FLASK_APP=app:create_app python3 -m flask routes" "Flask $(python3 -c 'import importlib.metadata as m;print(m.version("flask"))')"

  # a long INFO log with one traceback in the middle
  J="$B/jobs"
  mkdir -p "$J"
  cat >"$J/sync.py" <<'EOF'
import logging
import sys

logging.basicConfig(stream=sys.stdout, level=logging.INFO,
                    format="%(asctime)s %(levelname)s %(name)s: %(message)s", datefmt="%H:%M:%S")
log = logging.getLogger("sync")


def fetch(i):
    if i == 173:
        record = {"id": i, "email": None}
        return record["email"].lower()
    return f"user{i}@example.com"


def main():
    log.info("starting sync of 320 accounts from crm to billing")
    failed = 0
    for i in range(320):
        try:
            email = fetch(i)
            logging.getLogger("sync.account").info("account %d synced (%s)", i, email)
        except Exception:
            failed += 1
            log.exception("account %d failed", i)
        if i % 50 == 49:
            log.info("progress: %d/320", i + 1)
    log.warning("sync finished with %d failure(s)", failed)
    return 1 if failed else 0


sys.exit(main())
EOF
  capture batch13 python_logging_exception_mid_log "$J" "python3 sync.py" "$PYV"

  # nox: several sessions, one fails
  NX="$B/noxproj"
  mkdir -p "$NX/tests"
  cp -r "$P/inventory" "$NX/"
  cp "$P/tests/test_discount.py" "$NX/tests/"
  cat >"$NX/noxfile.py" <<'EOF'
import nox

nox.options.default_venv_backend = "none"


@nox.session
def lint(session):
    session.run("ruff", "check", "--no-cache", "--select", "F", "inventory")


@nox.session
def typecheck(session):
    session.run("python3", "-m", "mypy", "--no-incremental", "inventory")


@nox.session
def tests(session):
    session.run("python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests")


@nox.session
def docs(session):
    session.run("python3", "-c", "print('docs built')")
EOF
  capture batch13 nox_sessions_one_fails "$NX" "python3 -m nox" "nox $(python3 -c 'import importlib.metadata as m;print(m.version("nox"))')"

  # JavaScript/TypeScript: one dev toolchain shared by several small projects
  JS="$B/js"
  mkdir -p "$JS"
  (cd "$JS" && npm init -y >/dev/null && npm i --no-audit --no-fund jest@29 vitest@1 typescript@5 eslint@8 webpack@5 webpack-cli@5 @babel/core@7 @babel/preset-env@7 babel-jest@29 >/dev/null 2>&1)
  NODEV="node $(node --version)"

  # jest: tests that print a lot between results, two failures
  JN="$JS/cartjs"
  mkdir -p "$JN/src" "$JN/test"
  printf '{"name":"cartjs","version":"1.0.0","private":true}\n' >"$JN/package.json"
  cat >"$JN/src/cart.js" <<'EOF'
class Cart {
  constructor(logger = console) { this.items = []; this.log = logger; }
  add(sku, qty, price) {
    this.log.log(`[cart] add ${sku} x${qty} @ ${price}`);
    if (qty <= 0) { this.log.error(`[cart] rejected ${sku}: qty ${qty}`); return false; }
    this.items.push({ sku, qty, price });
    return true;
  }
  total() {
    const t = this.items.reduce((s, i) => s + i.qty * i.price, 0);
    this.log.log(`[cart] total ${t}`);
    return t;
  }
  applyCoupon(code) {
    this.log.warn(`[cart] coupon ${code} applied`);
    return code === "HALF" ? this.total() / 2 : this.total();
  }
}
module.exports = { Cart };
EOF
  for f in add total coupon bulk; do
    cat >"$JN/test/$f.test.js" <<EOF
const { Cart } = require("../src/cart");

describe("cart $f", () => {
  for (let n = 1; n <= 12; n++) {
    test("case " + n, () => {
      const c = new Cart();
      c.add("SKU-" + n, n, 2.5);
      c.add("SKU-" + (n + 100), n % 3 === 0 ? 0 : 1, 10);
      const expected = n * 2.5 + (n % 3 === 0 ? 0 : 10);
      if ("$f" === "coupon") {
        expect(c.applyCoupon("HALF")).toBe(n === 7 ? 99 : expected / 2);
      } else if ("$f" === "bulk" && n === 11) {
        expect(c.items).toEqual([{ sku: "SKU-11", qty: 11, price: 2.5 }, { sku: "SKU-111", qty: 1, price: 12 }]);
      } else {
        expect(c.total()).toBeCloseTo(expected);
      }
    });
  }
});
EOF
  done
  JV="jest $("$JS/node_modules/.bin/jest" --version)"
  capture batch13 jest_console_noise_two_failures "$JN" "npx jest --ci" "$JV"

  # jest: a test leaves a server and a timer open
  JH="$JS/handles"
  mkdir -p "$JH"
  printf '{"name":"handles","version":"1.0.0","private":true}\n' >"$JH/package.json"
  cat >"$JH/server.test.js" <<'EOF'
const http = require("http");

let server;
beforeAll((done) => {
  server = http.createServer((req, res) => res.end("ok")).listen(0, done);
});

test("responds", async () => {
  const port = server.address().port;
  const body = await new Promise((resolve) => http.get(`http://127.0.0.1:${port}/`, (r) => {
    let b = ""; r.on("data", (d) => (b += d)); r.on("end", () => resolve(b));
  }));
  expect(body).toBe("ok");
});

test("polls", () => {
  setInterval(() => {}, 1000);
  expect(1).toBe(1);
});
EOF
  capture batch13 jest_detect_open_handles "$JH" "timeout 20 npx jest --detectOpenHandles --forceExit" "$JV"

  # vitest: console output and a failing inline snapshot
  VT="$JS/vt"
  mkdir -p "$VT/src"
  printf '{"name":"vt","version":"1.0.0","private":true,"type":"module"}\n' >"$VT/package.json"
  cat >"$VT/src/format.js" <<'EOF'
export function formatUser(u) {
  console.log("formatting", u.id);
  return { id: u.id, name: `${u.first} ${u.last}`.trim(), roles: [...u.roles].sort(), active: !u.disabled };
}
export function slug(s) {
  console.warn("slug input:", JSON.stringify(s));
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}
EOF
  cat >"$VT/src/format.test.js" <<'EOF'
import { describe, expect, it } from "vitest";
import { formatUser, slug } from "./format.js";

describe("formatUser", () => {
  it("formats a full user", () => {
    expect(formatUser({ id: 7, first: "Ada", last: "Lovelace", roles: ["admin", "dev"], disabled: false }))
      .toMatchInlineSnapshot(`
        {
          "active": true,
          "id": 7,
          "name": "Ada Lovelace",
          "roles": [
            "admin",
            "dev",
          ],
        }
      `);
  });
  it("formats a user without last name", () => {
    expect(formatUser({ id: 8, first: "Grace", last: "", roles: ["ops", "dev"], disabled: true }))
      .toMatchInlineSnapshot(`
        {
          "active": true,
          "id": 8,
          "name": "Grace",
          "roles": [
            "ops",
            "dev",
          ],
        }
      `);
  });
});

describe("slug", () => {
  it("slugs titles", () => {
    expect(slug("Hello, World!")).toMatchInlineSnapshot(`"hello-world"`);
  });
  it("keeps digits", () => {
    expect(slug("Top 10 Tips")).toBe("top-10-tips");
  });
});
EOF
  capture batch13 vitest_inline_snapshot_console "$VT" "npx vitest run" "vitest $("$JS/node_modules/.bin/vitest" --version | sed 's/.*vitest\///;s/ .*//')"

  # node --test with coverage and a failure
  NT="$JS/nodecov"
  mkdir -p "$NT/lib" "$NT/test"
  printf '{"name":"nodecov","version":"1.0.0","private":true}\n' >"$NT/package.json"
  cat >"$NT/lib/money.js" <<'EOF'
function parse(str) {
  const m = /^(-?\d+)(?:\.(\d{1,2}))?$/.exec(str.trim());
  if (!m) throw new TypeError(`not a money amount: ${str}`);
  return Number(m[1]) * 100 + Number((m[2] || "0").padEnd(2, "0"));
}
function format(cents) {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}
function split(cents, parts) {
  if (parts <= 0) throw new RangeError("parts must be positive");
  const base = Math.floor(cents / parts);
  return Array.from({ length: parts }, (_, i) => base + (i < cents % parts ? 1 : 0));
}
function convert(cents, rate) {
  if (rate === 0) return 0;
  return Math.round(cents * rate);
}
module.exports = { parse, format, split, convert };
EOF
  cat >"$NT/test/money.test.js" <<'EOF'
const test = require("node:test");
const assert = require("node:assert");
const { parse, format, split } = require("../lib/money");

test("parse", async (t) => {
  await t.test("whole", () => assert.strictEqual(parse("12"), 1200));
  await t.test("cents", () => assert.strictEqual(parse("12.5"), 1250));
  await t.test("negative", () => assert.strictEqual(parse("-3.25"), -325));
});

test("format", () => {
  assert.strictEqual(format(1250), "12.50");
  assert.strictEqual(format(-5), "-0.05");
});

test("split keeps the total", () => {
  assert.deepStrictEqual(split(100, 3), [34, 33, 33]);
  assert.deepStrictEqual(split(-100, 3), [-33, -33, -34]);
});
EOF
  capture batch13 node_test_coverage_failure "$NT" "node --test --experimental-test-coverage test/" "$NODEV"

  # babel-jest: a syntax error with a code frame
  BJ="$JS/babelapp"
  mkdir -p "$BJ/src" "$BJ/__tests__"
  printf '{"name":"babelapp","version":"1.0.0","private":true}\n' >"$BJ/package.json"
  printf 'module.exports = { presets: [["@babel/preset-env", { targets: { node: "current" } }]] };\n' >"$BJ/babel.config.js"
  cat >"$BJ/src/router.js" <<'EOF'
export function match(routes, path) {
  for (const r of routes) {
    const params = {};
    const ok = r.pattern.split("/").every((seg, i) => {
      const part = path.split("/")[i];
      if (seg.startsWith(":")) { params[seg.slice(1)] = part; return true; }
      return seg === part;
    });
    if (ok) return { route: r, params };
  }
  return null
}

export const routes = [
  { pattern: "/users/:id", name: "user" },
  { pattern: "/posts/:slug", name: "post" }
  { pattern: "/", name: "home" },
];
EOF
  cat >"$BJ/src/util.js" <<'EOF'
export const clamp = (n, lo, hi) => Math.min(hi, Math.max(lo, n));
EOF
  cat >"$BJ/__tests__/router.test.js" <<'EOF'
import { match, routes } from "../src/router";

test("matches a user", () => {
  expect(match(routes, "/users/42").params).toEqual({ id: "42" });
});
EOF
  cat >"$BJ/__tests__/util.test.js" <<'EOF'
import { clamp } from "../src/util";

test("clamps", () => {
  expect(clamp(5, 0, 3)).toBe(3);
  expect(clamp(-1, 0, 3)).toBe(0);
});
EOF
  capture batch13 jest_babel_syntax_error_code_frame "$BJ" "npx jest" "$JV"

  # tsc --extendedDiagnostics with two errors
  TS="$JS/tsdiag"
  mkdir -p "$TS/src"
  cat >"$TS/tsconfig.json" <<'EOF'
{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true, "outDir": "dist", "types": [] }, "include": ["src"] }
EOF
  cat >"$TS/src/queue.ts" <<'EOF'
export interface Job<T> { id: string; payload: T; attempts: number }

export class Queue<T> {
  private jobs: Job<T>[] = [];
  push(payload: T): Job<T> {
    const job = { id: crypto.randomUUID(), payload, attempts: 0 };
    this.jobs.push(job);
    return job;
  }
  next(): Job<T> {
    return this.jobs.shift();
  }
}
EOF
  cat >"$TS/src/main.ts" <<'EOF'
import { Queue } from "./queue.js";

const q = new Queue<{ url: string }>();
q.push({ url: "https://example.com", retries: 3 });
console.log(q.next().payload.url);
EOF
  cat >"$TS/tsconfig.ok.json" <<'EOF'
{ "extends": "./tsconfig.json", "compilerOptions": { "types": [] }, "include": ["ok"] }
EOF
  mkdir -p "$TS/ok/lib"
  cat >"$TS/ok/index.ts" <<'EOF'
import type { CompilerOptions } from "typescript";
import { parse } from "./lib/parse.js";
import { fmt } from "./lib/fmt.js";
import { clamp } from "./lib/math.js";
import { cache } from "./lib/cache.js";
import { retry } from "./lib/retry.js";
import { Config } from "./config/index.js";

export function load(text: string, opts: CompilerOptions, cfg: Config): string {
  return cache(() => retry(() => fmt(parse(text).slice(0, clamp(cfg.limit, 1, 10)))), String(opts.target));
}
EOF
  mkdir -p "$TS/ok/config"
  printf 'export const parse = (s: string): string[] => s.split(",");\n' >"$TS/ok/lib/parse.ts"
  printf 'export const fmt = (xs: string[]): string => xs.join(", ");\n' >"$TS/ok/lib/fmt.ts"
  printf 'export const clamp = (n: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, n));\n' >"$TS/ok/lib/math.ts"
  printf 'const m = new Map<string, string>();\nexport const cache = (f: () => string, k: string): string => m.get(k) ?? (m.set(k, f()), m.get(k)!);\n' >"$TS/ok/lib/cache.ts"
  printf 'import { clamp } from "./math.js";\nexport const retry = (f: () => string, n = 3): string => { for (let i = 0; i < clamp(n, 1, 5) - 1; i++) { try { return f(); } catch { continue; } } return f(); };\n' >"$TS/ok/lib/retry.ts"
  printf 'export interface Config { limit: number }\n' >"$TS/ok/config/index.ts"
  capture batch13 tsc_extended_diagnostics_errors "$TS" "npx tsc --noEmit --extendedDiagnostics" "tsc $("$JS/node_modules/.bin/tsc" --version | sed 's/Version //')"

  capture batch13 tsc_trace_resolution_pass "$TS" "npx tsc --noEmit --traceResolution -p tsconfig.ok.json" "tsc $("$JS/node_modules/.bin/tsc" --version | sed 's/Version //')"

  # eslint: warnings only, over many files
  ES="$JS/lintme"
  mkdir -p "$ES/src/components" "$ES/src/lib"
  cat >"$ES/.eslintrc.json" <<'EOF'
{
  "root": true,
  "env": { "browser": true, "es2022": true, "node": true },
  "parserOptions": { "ecmaVersion": 2022, "sourceType": "module" },
  "rules": {
    "no-unused-vars": "warn", "no-console": "warn", "eqeqeq": "warn", "prefer-const": "warn",
    "no-var": "warn", "curly": "warn", "no-else-return": "warn", "no-debugger": "warn"
  }
}
EOF
  for n in header footer sidebar modal table form card list avatar badge banner button chart dialog drawer dropdown grid icon input menu navbar pager popover progress select slider tabs toast tooltip; do
    cat >"$ES/src/components/$n.js" <<EOF
import { clamp } from "../lib/math.js";

export function render_$n(props, unused) {
  var el = document.createElement("div");
  let title = props.title;
  if (props.count == 0) return null;
  console.log("render $n", props);
  if (props.open) { el.className = "open"; } else { return el; }
  el.textContent = title;
  return el;
}
EOF
  done
  cat >"$ES/src/lib/math.js" <<'EOF'
export const clamp = (n, lo, hi) => Math.min(hi, Math.max(lo, n));
export function avg(xs) {
  let sum = 0;
  for (const x of xs) if (x != null) sum += x;
  debugger;
  return sum / xs.length;
}
EOF
  EV="eslint $("$JS/node_modules/.bin/eslint" --version)"
  capture batch13 eslint_stylish_warnings_only "$ES" "ESLINT_USE_FLAT_CONFIG=false npx eslint src" "$EV"
  capture batch13 eslint_fix_dry_run_json "$ES" "ESLINT_USE_FLAT_CONFIG=false npx eslint --fix-dry-run --format json src/lib src/components/modal.js" "$EV"

  # webpack: a require of an expression (a critical dependency warning)
  WP="$JS/wp"
  mkdir -p "$WP/src"
  printf '{"name":"wp","version":"1.0.0","private":true}\n' >"$WP/package.json"
  node -e 'let s="export const table = [\n";for(let i=0;i<6000;i++)s+=`  { id: ${i}, name: "item-${i}-${"x".repeat(40)}" },\n`;s+="];\n";require("fs").writeFileSync(process.argv[1],s)' "$WP/src/data.js"
  cat >"$WP/src/index.js" <<'EOF'
import { table } from "./data.js";
import { helper } from "./helpers.js";

const lang = process.env.LANG_PACK || "en";
const pack = require(lang);
export default function main() {
  return helper(table.length) + pack;
}
EOF
  cat >"$WP/src/helpers.js" <<'EOF'
export function helper(n) { return n * 2; }
EOF
  cat >"$WP/src/admin.js" <<'EOF'
import { table } from "./data.js";
export default () => table.slice(0, 10).map((r) => r.id.toFixed(2));
EOF
  cat >"$WP/webpack.config.js" <<'EOF'
module.exports = {
  mode: "production",
  entry: { main: "./src/index.js", admin: "./src/admin.js" },
  performance: { hints: "warning", maxAssetSize: 100000, maxEntrypointSize: 100000 },
  stats: { warnings: true, errors: true, assets: true, modules: true },
};
EOF
  capture batch13 webpack_build_critical_dependency "$WP" "npx webpack --no-color" "webpack $(node -p "require('$JS/node_modules/webpack/package.json').version")"

  # npm ls with invalid, extraneous and missing packages
  NL="$B/lsapp"
  mkdir -p "$NL"
  printf '{"name":"lsapp","version":"1.0.0","private":true,"dependencies":{"ms":"^2.1.3","debug":"^4.3.4","left-pad":"^1.3.0"}}\n' >"$NL/package.json"
  (cd "$NL" && npm install --no-audit --no-fund >/dev/null 2>&1)
  (cd "$NL" && npm install --no-save --no-audit --no-fund ms@2.0.0 is-number@7.0.0 >/dev/null 2>&1)
  rm -rf "$NL/node_modules/left-pad"
  capture batch13 npm_ls_invalid_extraneous_missing "$NL" "npm ls --all" "npm $(npm --version)"

  # pnpm -r run build, one package of four fails
  PN="$B/mono"
  mkdir -p "$PN/packages"
  printf '{"name":"mono","version":"1.0.0","private":true}\n' >"$PN/package.json"
  printf 'packages:\n  - "packages/*"\n' >"$PN/pnpm-workspace.yaml"
  for p in core utils config logger db auth api web; do
    mkdir -p "$PN/packages/$p"
    printf '{"name":"@mono/%s","version":"1.0.0","scripts":{"build":"node build.js"}}\n' "$p" >"$PN/packages/$p/package.json"
    cat >"$PN/packages/$p/build.js" <<EOF
for (let i = 1; i <= 30; i++) console.log("[$p] compiling src/module" + i + ".ts (" + (i * 37 % 900) + " ms)");
if ("$p" === "api") {
  console.error("src/routes/orders.ts(41,7): error TS2322: Type 'string' is not assignable to type 'number'.");
  process.exit(2);
}
console.log("[$p] wrote dist/index.js");
EOF
  done
  printf '{"name":"@mono/web","version":"1.0.0","scripts":{"build":"node build.js"},"dependencies":{"@mono/api":"workspace:*"}}\n' >"$PN/packages/web/package.json"
  (cd "$PN" && pnpm install --offline >/dev/null 2>&1)
  capture batch13 pnpm_r_run_build_one_fails "$PN" "pnpm -r run build" "pnpm $(pnpm --version)"
  printf '{"name":"@mono/db","version":"1.0.0","scripts":{"build":"node build.js"},"dependencies":{"ms":"^2.1.3","@mono/config":"workspace:*"}}\n' >"$PN/packages/db/package.json"
  capture batch13 pnpm_install_frozen_lockfile_outdated "$PN" "pnpm install --frozen-lockfile --offline" "pnpm $(pnpm --version)"

  # yarn classic: run a script that fails
  YN="$B/yarnapp"
  mkdir -p "$YN/scripts"
  printf '{"name":"yarnapp","version":"1.0.0","private":true,"scripts":{"migrate":"node scripts/migrate.js --env staging"}}\n' >"$YN/package.json"
  cat >"$YN/scripts/migrate.js" <<'EOF'
const steps = ["001_users", "002_orders", "003_invoices", "004_index_orders"];
for (const s of steps) {
  if (s === "003_invoices") {
    const err = new Error(`migration ${s} failed: column "total_cents" of relation "invoices" already exists`);
    err.code = "42701";
    throw err;
  }
  console.log(`applied ${s}`);
}
EOF
  capture batch13 yarn_run_script_fails "$YN" "yarn run migrate" "yarn $(yarn --version)"
fi

# --- batch14: a fourteenth blind batch (Go, Rust, C/C++, JVM, Ruby, git, build systems and shell in
# situations the set lacked: go test ./... over 16 packages, go build -x failing, go run panicking with
# a wrapped error, -coverprofile + go tool cover -func; cargo tests printing captured stdout, a
# workspace with dead-code warnings, cargo run logging then panicking, --offline without the
# dependency; multiple definitions at link, gcc -Wconversion -Wshadow over several files, cmake
# configure checks ending in an error, ctest -V, make VERBOSE=1; Java ExceptionInInitializerError
# then NoClassDefFoundError; rake failing task, rspec progress with pending and failures, ruby -wc;
# git log --all --decorate --stat, show of a merge, diff --word-diff, grep -n, blame -L, range-diff,
# status --porcelain=v2, rebase --continue conflicting again, cherry -v, tag -l), captured and its
# signals written and committed before any filter ran on it and before any rule file, filter source,
# filter test, fixture, bench/corpus file or bench/README.md was opened.
if sel batch14; then
  B="$WORK/batch14"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local
  GOV="$(go version)"
  unset RUST_BACKTRACE

  # Go: a module of sixteen packages, one with a failing test, one that does not compile
  G="$B/shop"
  mkdir -p "$G"
  printf 'module example.com/shop\n\ngo 1.19\n' >"$G/go.mod"
  for p in auth billing cart catalog config events geo httpx inventory ledger mail orders pricing search tax users; do
    mkdir -p "$G/$p"
    printf 'package %s\n\n// Name returns the package name.\nfunc Name() string { return "%s" }\n\n// Double doubles n.\nfunc Double(n int) int { return n * 2 }\n' "$p" "$p" >"$G/$p/$p.go"
  done
  for p in auth billing cart catalog events inventory ledger orders search users; do
    printf 'package %s\n\nimport "testing"\n\nfunc TestName(t *testing.T) {\n\tif Name() != "%s" {\n\t\tt.Fatal("bad name")\n\t}\n}\n\nfunc TestDouble(t *testing.T) {\n\tfor i := 0; i < 5; i++ {\n\t\tif Double(i) != i*2 {\n\t\t\tt.Fatalf("Double(%%d)", i)\n\t\t}\n\t}\n}\n' "$p" "$p" >"$G/$p/${p}_test.go"
  done
  cat >"$G/pricing/pricing.go" <<'EOF'
package pricing

import "math"

// Name returns the package name.
func Name() string { return "pricing" }

// Double doubles n.
func Double(n int) int { return n * 2 }

// Discount applies a percentage discount and rounds to cents.
func Discount(cents int, pct float64) int {
	return int(math.Floor(float64(cents) * (1 - pct/100)))
}

// Bulk returns the unit price for a quantity.
func Bulk(unit, qty int) int {
	switch {
	case qty >= 100:
		return Discount(unit, 15)
	case qty > 10:
		return Discount(unit, 5)
	}
	return unit
}
EOF
  cat >"$G/pricing/pricing_test.go" <<'EOF'
package pricing

import "testing"

func TestDiscount(t *testing.T) {
	cases := []struct {
		cents int
		pct   float64
		want  int
	}{{1000, 10, 900}, {999, 33, 669}, {1, 50, 1}, {250, 0, 250}}
	for _, c := range cases {
		if got := Discount(c.cents, c.pct); got != c.want {
			t.Errorf("Discount(%d, %v) = %d, want %d", c.cents, c.pct, got, c.want)
		}
	}
}

func TestBulk(t *testing.T) {
	if got := Bulk(1000, 10); got != 950 {
		t.Errorf("Bulk(1000, 10) = %d, want 950 (ten units get the 5%% tier)", got)
	}
	if got := Bulk(1000, 100); got != 850 {
		t.Errorf("Bulk(1000, 100) = %d, want 850", got)
	}
}
EOF
  capture batch14 go_test_sixteen_packages_one_fail "$G" "go test -count=1 ./..." "$GOV"

  # go build -x of the module with a type error in one package
  cp -r "$G" "$B/shopx"
  cat >"$B/shopx/tax/rates.go" <<'EOF'
package tax

import "strconv"

// Rate returns the VAT rate of a country in percent.
func Rate(country string) float64 {
	rates := map[string]float64{"DE": 19, "FR": 20, "NL": 21}
	return rates[country]
}

// Label formats a rate.
func Label(country string) string {
	return country + " " + strconv.Itoa(Rate(country)) + "%"
}
EOF
  capture batch14 go_build_x_type_error "$B/shopx" "GOCACHE=$B/shopx-cache go build -x ./..." "$GOV"

  # go run of a program that panics on a wrapped error chain
  R="$B/runner"
  mkdir -p "$R"
  printf 'module example.com/runner\n\ngo 1.19\n' >"$R/go.mod"
  cat >"$R/main.go" <<'EOF'
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
)

type Config struct {
	Path string
	Port int
}

func readConfig(path string) (*Config, error) {
	_, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config %q: %w", path, err)
	}
	return &Config{Path: path}, nil
}

func loadLayers(paths ...string) (*Config, error) {
	var last *Config
	for i, p := range paths {
		c, err := readConfig(p)
		if err != nil {
			return nil, fmt.Errorf("layer %d: %w", i, err)
		}
		last = c
	}
	return last, nil
}

func mustStart() *Config {
	cfg, err := loadLayers("/etc/runner/base.toml", "./runner.local.toml")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			log.Printf("config missing: %v", err)
		}
		panic(fmt.Errorf("start runner: %w", err))
	}
	return cfg
}

func main() {
	log.SetFlags(0)
	log.Println("runner 0.4.2 starting")
	log.Println("workers: 4, queue: jobs")
	cfg := mustStart()
	fmt.Println("listening on", cfg.Port)
}
EOF
  printf 'port = 8080\n' >"$R/runner.local.toml"
  capture batch14 go_run_panic_wrapped_error "$R" "go run ." "$GOV"

  # go test -coverprofile over three packages, one failing, then go tool cover -func
  C="$B/covkit"
  mkdir -p "$C/textx" "$C/mathx" "$C/slug"
  printf 'module example.com/covkit\n\ngo 1.19\n' >"$C/go.mod"
  cat >"$C/textx/textx.go" <<'EOF'
package textx

import "strings"

func Title(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func Reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func Count(s, sub string) int { return strings.Count(s, sub) }
EOF
  cat >"$C/textx/textx_test.go" <<'EOF'
package textx

import "testing"

func TestTitle(t *testing.T) {
	if got := Title("hello big world"); got != "Hello Big World" {
		t.Fatal(got)
	}
}

func TestTruncate(t *testing.T) {
	if got := Truncate("abcdef", 3); got != "abc..." {
		t.Fatal(got)
	}
}
EOF
  cat >"$C/mathx/mathx.go" <<'EOF'
package mathx

func Clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return lo
	}
	return v
}

func Abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func Sum(xs ...int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

func Mean(xs ...int) float64 {
	if len(xs) == 0 {
		return 0
	}
	return float64(Sum(xs...)) / float64(len(xs))
}
EOF
  cat >"$C/mathx/mathx_test.go" <<'EOF'
package mathx

import "testing"

func TestClamp(t *testing.T) {
	if got := Clamp(5, 0, 10); got != 5 {
		t.Errorf("Clamp(5, 0, 10) = %d", got)
	}
	if got := Clamp(15, 0, 10); got != 10 {
		t.Errorf("Clamp(15, 0, 10) = %d, want 10", got)
	}
}

func TestSum(t *testing.T) {
	if Sum(1, 2, 3) != 6 {
		t.Fail()
	}
}
EOF
  cat >"$C/slug/slug.go" <<'EOF'
package slug

import (
	"regexp"
	"strings"
)

var nonAlnum = regexp.MustCompile(`[^a-z0-9]+`)

func Make(s string) string {
	s = strings.ToLower(s)
	s = nonAlnum.ReplaceAllString(s, "-")
	return strings.Trim(s, "-")
}

func Valid(s string) bool { return s == Make(s) }
EOF
  cat >"$C/slug/slug_test.go" <<'EOF'
package slug

import "testing"

func TestMake(t *testing.T) {
	if got := Make("Hello, World!"); got != "hello-world" {
		t.Fatal(got)
	}
}

func TestValid(t *testing.T) {
	if !Valid("a-b") || Valid("A b") {
		t.Fatal("valid")
	}
}
EOF
  capture batch14 go_test_coverprofile_cover_func "$C" "go test -count=1 -coverprofile=cover.out ./...; go tool cover -func=cover.out" "$GOV"

  # Rust: tests that print a lot to captured stdout and fail
  RV="$(cargo --version)"
  RS="$B/ledger"
  mkdir -p "$RS/src"
  printf '[package]\nname = "ledger"\nversion = "0.3.0"\nedition = "2021"\n\n[dependencies]\n' >"$RS/Cargo.toml"
  cat >"$RS/src/lib.rs" <<'EOF'
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub account: String,
    pub cents: i64,
}

pub fn balance(entries: &[Entry], account: &str) -> i64 {
    entries.iter().filter(|e| e.account == account).map(|e| e.cents).sum()
}

pub fn parse(line: &str) -> Option<Entry> {
    let mut parts = line.split(',');
    let account = parts.next()?.trim().to_string();
    let cents = parts.next()?.trim().parse().ok()?;
    Some(Entry { account, cents })
}

pub fn interest(cents: i64, rate_bp: i64, months: u32) -> i64 {
    let mut c = cents;
    for _ in 0..months {
        c += c * rate_bp / 10_000 / 12;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Entry> {
        (0..240)
            .map(|i| Entry { account: format!("acct-{}", i % 4), cents: (i as i64) * 125 - 900 })
            .collect()
    }

    #[test]
    fn balances_per_account() {
        let entries = sample();
        for e in &entries {
            println!("posting {:>8} {:>7}", e.account, e.cents);
        }
        for a in 0..4 {
            println!("balance acct-{} = {}", a, balance(&entries, &format!("acct-{}", a)));
        }
        assert_eq!(balance(&entries, "acct-0"), 3_500_000);
    }

    #[test]
    fn parse_lines() {
        let lines = ["cash, 100", "bank,250", "card, -75", "cash,abc", "bank"];
        for l in lines {
            println!("parse {:?} -> {:?}", l, parse(l));
        }
        assert_eq!(parse("cash, 100").unwrap().cents, 100);
        assert!(parse("bank").is_none());
    }

    #[test]
    fn interest_over_two_years() {
        let mut c = 100_000;
        for m in 1..=24 {
            c = interest(c, 450, 1);
            println!("month {:>2}: {}", m, c);
        }
        assert_eq!(interest(100_000, 450, 24), 109_380, "compound interest after 24 months");
    }

    #[test]
    fn empty_account_is_zero() {
        assert_eq!(balance(&[], "x"), 0);
    }
}
EOF
  capture batch14 cargo_test_captured_stdout_failures "$RS" "cargo test 2>&1" "$RV"

  # a workspace of four crates full of dead code (exit 0)
  W="$B/depot"
  mkdir -p "$W"
  printf '[workspace]\nmembers = ["core", "store", "api", "cli"]\nresolver = "2"\n' >"$W/Cargo.toml"
  for c in core store api cli; do
    mkdir -p "$W/$c/src"
    printf '[package]\nname = "depot-%s"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' "$c" >"$W/$c/Cargo.toml"
    {
      echo "use std::collections::HashMap;"
      echo "use std::fmt::Write;"
      for i in $(seq 1 9); do
        cat <<EOF
struct ${c^}Item$i {
    id: u64,
    name: String,
    tags: Vec<String>,
}

enum ${c^}State$i {
    Draft,
    Live(u32),
    Gone,
}

fn ${c}_helper_$i(x: u64) -> u64 {
    let unused_$i = x * 2;
    x + $i
}

EOF
      done
      echo "pub fn run() -> u64 { 42 }"
    } >"$W/$c/src/lib.rs"
  done
  capture batch14 cargo_build_workspace_dead_code "$W" "cargo build --workspace 2>&1" "$RV"

  # cargo run: a service logging, then panicking on a bad record
  RL="$B/ingest"
  mkdir -p "$RL/src"
  printf '[package]\nname = "ingest"\nversion = "0.2.1"\nedition = "2021"\n\n[dependencies]\n' >"$RL/Cargo.toml"
  cat >"$RL/src/main.rs" <<'EOF'
use std::collections::HashMap;

fn log(level: &str, target: &str, msg: String) {
    eprintln!("[2026-11-27T22:{:02}:{:02}Z {:<5} {}] {}", 14, msg.len() % 60, level, target, msg);
}

#[derive(Debug)]
struct Record {
    id: u32,
    sku: String,
    qty: u32,
}

fn parse(line: &str) -> Result<Record, String> {
    let f: Vec<&str> = line.split(';').collect();
    if f.len() != 3 {
        return Err(format!("expected 3 fields, got {}", f.len()));
    }
    Ok(Record {
        id: f[0].parse().map_err(|e| format!("id {:?}: {}", f[0], e))?,
        sku: f[1].to_string(),
        qty: f[2].parse().map_err(|e| format!("qty {:?}: {}", f[2], e))?,
    })
}

fn main() {
    log("INFO", "ingest", "starting ingest v0.2.1".into());
    log("INFO", "ingest::source", "reading batch-2026-11-27.csv".into());
    let mut totals: HashMap<String, u32> = HashMap::new();
    let mut lines: Vec<String> = (1..=300).map(|i| format!("{};SKU-{:03};{}", i, i % 7, i * 3)).collect();
    lines[267] = "268;SKU-002;-3".to_string();
    for (n, line) in lines.iter().enumerate() {
        log("DEBUG", "ingest::parse", format!("line {}: {}", n + 1, line));
        let rec = parse(line).expect("batch file is validated upstream");
        *totals.entry(rec.sku.clone()).or_default() += rec.qty;
        if rec.id % 10 == 0 {
            log("INFO", "ingest", format!("{} records, {} skus", rec.id, totals.len()));
        }
    }
    log("INFO", "ingest", "done".into());
}
EOF
  capture batch14 cargo_run_log_then_panic "$RL" "cargo run -q 2>&1" "$RV"

  # cargo build --offline with a dependency that is not in the local registry
  RO="$B/fetcher"
  mkdir -p "$RO/src"
  printf '[package]\nname = "fetcher"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nserde = { version = "1.0", features = ["derive"] }\nureq = "2.9"\n' >"$RO/Cargo.toml"
  printf 'fn main() {}\n' >"$RO/src/main.rs"
  capture batch14 cargo_build_offline_missing_dependency "$RO" "CARGO_HOME=$B/cargo-home cargo build --offline 2>&1" "$RV"

  # C: a link with multiple definitions (globals defined in a header, a function defined twice)
  GCCV="$(gcc --version | head -1)"
  L="$B/mdef"
  mkdir -p "$L/src" "$L/include"
  cat >"$L/include/config.h" <<'EOF'
#ifndef CONFIG_H
#define CONFIG_H
int verbose = 0;
const char *log_path = "/var/log/app.log";
int config_load(const char *path);
#endif
EOF
  for f in main parser net store; do
    printf '#include "config.h"\n#include <stdio.h>\nint %s_init(void) { return verbose; }\n' "$f" >"$L/src/$f.c"
  done
  printf 'int strlcpy_local(char *d, const char *s, unsigned n) { (void)d; (void)s; return (int)n; }\n' >>"$L/src/net.c"
  printf 'int strlcpy_local(char *d, const char *s, unsigned n) { (void)d; (void)s; return (int)n + 1; }\n' >>"$L/src/store.c"
  printf 'int main(void) { return parser_init() + net_init() + store_init(); }\n' >>"$L/src/main.c"
  sed -i '1i int parser_init(void); int net_init(void); int store_init(void);' "$L/src/main.c"
  capture batch14 gcc_link_multiple_definition "$L" "gcc -fcommon -O0 -Iinclude -o app src/main.c src/parser.c src/net.c src/store.c 2>&1; gcc -fno-common -Iinclude -o app src/*.c" "$GCCV"

  # gcc with -Wconversion -Wshadow -Wsign-compare etc. over nine files (exit 0)
  WC="$B/wconv"
  mkdir -p "$WC"
  for f in audio buffer codec mixer resample wav fft filter meter; do
    cat >"$WC/$f.c" <<EOF
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static int count = 0;

int ${f}_scale(int sample, double gain) {
    int count = (int)gain;
    short s = sample * gain;
    unsigned char c = sample;
    return s + c + count;
}

size_t ${f}_copy(char *dst, const char *src, int n) {
    size_t i;
    for (i = 0; i < n; i++) {
        dst[i] = src[i];
    }
    return i - 1;
}

uint16_t ${f}_pack(uint32_t v, float f) {
    uint16_t r = v >> 4;
    int trunc = f;
    long big = v * 1000;
    return r + trunc + big;
}

int ${f}_find(const int *xs, unsigned len, int x) {
    for (int i = 0; i < len; i++) {
        if (xs[i] == x) return i;
    }
    return -1;
}
EOF
  done
  capture batch14 gcc_wconversion_nine_files "$WC" "gcc -c -Wall -Wextra -Wconversion -Wshadow -Wsign-compare audio.c buffer.c codec.c mixer.c resample.c wav.c fft.c filter.c meter.c" "$GCCV"

  # cmake configure with many checks, ending in an error
  CM="$B/cmcheck"
  mkdir -p "$CM"
  cat >"$CM/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(netd C)
include(CheckIncludeFile)
include(CheckFunctionExists)
include(CheckSymbolExists)
include(CheckTypeSize)
foreach(h stdio.h stdlib.h string.h unistd.h fcntl.h poll.h sys/epoll.h sys/event.h sys/socket.h netinet/in.h arpa/inet.h netdb.h pthread.h signal.h syslog.h sys/sendfile.h linux/io_uring.h sys/inotify.h)
  string(MAKE_C_IDENTIFIER "HAVE_${h}" var)
  string(TOUPPER "${var}" var)
  check_include_file(${h} ${var})
endforeach()
foreach(f accept4 epoll_create1 kqueue sendfile splice pipe2 getaddrinfo strlcpy memfd_create arc4random)
  string(TOUPPER "HAVE_${f}" var)
  check_function_exists(${f} ${var})
endforeach()
check_type_size("off_t" SIZEOF_OFF_T)
check_type_size("socklen_t" SIZEOF_SOCKLEN_T)
check_symbol_exists(SO_REUSEPORT "sys/socket.h" HAVE_SO_REUSEPORT)
find_package(Threads REQUIRED)
find_library(URING_LIB uring)
if(NOT URING_LIB)
  message(FATAL_ERROR "liburing not found: install liburing-dev or configure with -DNETD_BACKEND=epoll")
endif()
EOF
  capture batch14 cmake_configure_checks_fatal_error "$CM" "cmake -S . -B build" "$(cmake --version | head -1)"

  # cmake project with tests, then ctest -V with one failing test
  CT="$B/ctestv"
  mkdir -p "$CT"
  cat >"$CT/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(ringbuf C)
enable_testing()
add_executable(t_ring t_ring.c)
add_test(NAME ring_push COMMAND t_ring push)
add_test(NAME ring_pop COMMAND t_ring pop)
add_test(NAME ring_wrap COMMAND t_ring wrap)
add_test(NAME ring_full COMMAND t_ring full)
EOF
  cat >"$CT/t_ring.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#define CAP 4
static int buf[CAP], head, tail, len;
static int push(int v) { if (len == CAP) return -1; buf[tail] = v; tail = (tail + 1) % CAP; len++; return 0; }
static int pop(int *v) { if (!len) return -1; *v = buf[head]; head = (head + 1) % CAP; len--; return 0; }
int main(int argc, char **argv) {
    const char *t = argc > 1 ? argv[1] : "";
    int v, fails = 0;
    for (int i = 0; i < 3; i++) { push(i * 10); printf("push %d -> len %d\n", i * 10, len); }
    if (!strcmp(t, "pop")) { pop(&v); printf("pop -> %d\n", v); fails += v != 0; }
    if (!strcmp(t, "wrap")) {
        for (int i = 0; i < 250; i++) { pop(&v); push(100 + i % 6); printf("cycle %d head %d tail %d\n", i, head, tail); }
        pop(&v);
        if (v != 104) { fprintf(stderr, "t_ring.c:17: wrap: expected 104, got %d\n", v); fails++; }
    }
    if (!strcmp(t, "full")) { push(1); fails += push(2) != -1; }
    printf("%s: %s\n", t, fails ? "FAILED" : "ok");
    return fails;
}
EOF
  (cd "$CT" && cmake -S . -B build >/dev/null && cmake --build build >/dev/null)
  capture batch14 ctest_verbose_one_failure "$CT/build" "ctest -V" "$(ctest --version | head -1)"

  # a CMake-generated Makefile build with VERBOSE=1 stopping on a C++ error
  MV="$B/mkverbose"
  mkdir -p "$MV/src"
  cat >"$MV/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(geom CXX)
set(CMAKE_CXX_STANDARD 17)
add_library(geom STATIC src/point.cpp src/polygon.cpp src/bbox.cpp src/hull.cpp src/area.cpp)
add_executable(geomtool src/main.cpp)
target_link_libraries(geomtool geom)
EOF
  printf 'struct Point { double x, y; };\n' >"$MV/src/point.h"
  for f in point polygon bbox area; do printf '#include "point.h"\ndouble %s_fn(Point p) { return p.x + p.y; }\n' "$f" >"$MV/src/$f.cpp"; done
  cat >"$MV/src/hull.cpp" <<'EOF'
#include "point.h"
#include <vector>
#include <algorithm>

std::vector<Point> hull(std::vector<Point> pts) {
    std::sort(pts.begin(), pts.end());
    std::vector<Point> out;
    for (const auto &p : pts) out.push_back(p);
    return out.size();
}
EOF
  printf 'int main() { return 0; }\n' >"$MV/src/main.cpp"
  (cd "$MV" && cmake -S . -B build >/dev/null)
  capture batch14 make_verbose_cmake_cxx_error "$MV/build" "make VERBOSE=1" "$(make --version | head -1)"

  # Java: a static initializer failing, then the class unusable (ExceptionInInitializerError, NoClassDefFoundError)
  J="$B/jinit"
  mkdir -p "$J/src/com/acme/pay"
  cat >"$J/src/com/acme/pay/Currencies.java" <<'EOF'
package com.acme.pay;

import java.util.HashMap;
import java.util.Map;

public final class Currencies {
    static final Map<String, Integer> DIGITS = new HashMap<>();
    static {
        String table = "EUR:2,USD:2,JPY:0,BHD:3,XAU";
        for (String e : table.split(",")) {
            String[] kv = e.split(":");
            DIGITS.put(kv[0], Integer.parseInt(kv[1]));
        }
    }
    public static int digits(String code) { return DIGITS.get(code); }
}
EOF
  cat >"$J/src/com/acme/pay/Main.java" <<'EOF'
package com.acme.pay;

public class Main {
    static String format(long minor, String code) {
        int d = Currencies.digits(code);
        return String.format("%d.%0" + d + "d %s", minor / 100, minor % 100, code);
    }
    public static void main(String[] args) {
        for (String c : new String[] {"EUR", "USD"}) {
            try {
                System.out.println(format(12345, c));
            } catch (Throwable t) {
                System.err.println("format failed for " + c);
                t.printStackTrace();
            }
        }
        System.out.println(format(1, "JPY"));
    }
}
EOF
  (cd "$J" && javac -d out src/com/acme/pay/*.java)
  capture batch14 java_exception_in_initializer_then_noclassdef "$J" "java -cp out com.acme.pay.Main" "$(java -version 2>&1 | head -1)"

  # Ruby: rake with a failing task chain, rspec progress with pending and failures, ruby -wc
  RBV="$(ruby -v)"
  RK="$B/rakeproj"
  mkdir -p "$RK/lib" "$RK/spec"
  cat >"$RK/Rakefile" <<'EOF'
task :clean do
  puts "rm -rf pkg"
end

task :assets do
  %w[app.css app.js vendor.js].each { |f| puts "compiled #{f}" }
end

task :check_env do
  missing = %w[DATABASE_URL SECRET_KEY_BASE].reject { |k| ENV.key?(k) }
  raise "missing environment: #{missing.join(', ')}" unless missing.empty?
end

task :migrate => :check_env do
  puts "migrating"
end

task :build => [:clean, :assets] do
  sh "ruby -e 'puts %(packing 3 files); exit 3'"
end

task :release => [:build, :migrate]
task :default => :release
EOF
  capture batch14 rake_failing_sh_task "$RK" "rake release" "rake $(rake --version | sed 's/.*version //')"

  cat >"$RK/lib/inventory.rb" <<'EOF'
class Inventory
  def initialize
    @items = Hash.new(0)
  end

  def add(sku, qty = 1)
    raise ArgumentError, "qty must be positive" if qty <= 0
    @items[sku] += qty
  end

  def remove(sku, qty = 1)
    @items[sku] -= qty
  end

  def count(sku) = @items[sku]
  def total = @items.values.sum
  def skus = @items.keys.sort
end
EOF
  {
    echo 'require_relative "../lib/inventory"'
    echo 'RSpec.describe Inventory do'
    echo '  let(:inv) { Inventory.new }'
    for i in $(seq 1 120); do
      echo "  it \"adds sku #$i\" do"
      echo "    inv.add(\"S$i\", $i)"
      echo "    expect(inv.count(\"S$i\")).to eq($i)"
      echo "  end"
    done
    for i in $(seq 1 70); do echo "  it \"handles bulk import case $i\""; done
    for i in 1 2 3; do echo "  xit(\"reserves stock $i\") { expect(inv.reserve(\"S1\")).to be true }"; done
    cat <<'EOF'
  it "does not go below zero" do
    inv.add("A", 2)
    inv.remove("A", 5)
    expect(inv.count("A")).to eq(0)
  end

  it "lists skus sorted" do
    %w[b c a].each { |s| inv.add(s) }
    expect(inv.skus).to eq(%w[a b c d])
  end

  it "rejects a zero quantity" do
    expect { inv.add("A", 0) }.to raise_error(ArgumentError, "quantity must be positive")
  end

  it "totals by category" do
    inv.add("A", 3)
    expect(inv.total_by(:category)).to eq({})
  end
end
EOF
  } >"$RK/spec/inventory_spec.rb"
  capture batch14 rspec_progress_pending_failures "$RK" "rspec --format progress" "$(rspec --version | head -1 | tr -d '\n')"

  cat >"$RK/lib/report.rb" <<'EOF'
class Report
  attr_reader :rows, :rows

  def initialize(rows)
    @rows = rows
    @title = nil
  end

  def render(width = 80)
    out = []
    rows.each do |row|
      width = row.size
      line = row.map { |c| c.to_s.ljust(10) }.join
      out << line
    end
    total = rows.size
    if total = 0
      out << "(empty)"
    end
    out.join("\n")
  end

  def summary
    count = rows.count
    rows.map { |r| r.first }.uniq
  end

  def header(title)
    @titel = title
    puts *rows
  end

  def render(width = 80)
    "x"
  end
end
EOF
  capture batch14 ruby_wc_warnings "$RK" "ruby -wc lib/report.rb lib/inventory.rb" "$RBV"

  # git: one repository with branches, tags, a merge, then several looks at it
  GV="$(git --version)"
  export GIT_AUTHOR_NAME="Dana Reyes" GIT_AUTHOR_EMAIL="dana@example.com"
  export GIT_COMMITTER_NAME="Dana Reyes" GIT_COMMITTER_EMAIL="dana@example.com"
  export GIT_AUTHOR_DATE="2026-11-20T10:00:00Z" GIT_COMMITTER_DATE="2026-11-20T10:00:00Z"
  R="$B/webshop"
  mkdir -p "$R" && cd "$R" && git init -q -b main . && git config commit.gpgsign false
  mkdir -p app/models app/views lib config
  for m in user order cart product invoice payment shipment coupon review address; do
    printf 'class %s:\n    """A %s."""\n\n    def __init__(self, id, name):\n        self.id = id\n        self.name = name\n\n    def validate(self):\n        return bool(self.name)\n' "${m^}" "$m" >"app/models/$m.py"
  done
  printf 'DEBUG = False\nDATABASE = "postgres://db/shop"\nTIMEOUT = 30\nRETRIES = 3\n' >config/settings.py
  printf 'def render(template, ctx):\n    return template.format(**ctx)\n' >app/views/render.py
  git add -A && git commit -q -m "Initial import of the shop models"
  git tag v0.1.0
  n=0
  for m in user order cart product invoice payment shipment coupon review address; do
    n=$((n + 1))
    export GIT_AUTHOR_DATE="2026-11-20T1$((n % 10)):$((10 + n)):00Z" GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
    printf '\n    def to_dict(self):\n        return {"id": self.id, "name": self.name}\n' >>"app/models/$m.py"
    printf 'from app.models.%s import %s\n' "$m" "${m^}" >>lib/registry.py
    git add -A && git commit -q -m "Add to_dict to ${m^} and register it"
    [ $((n % 3)) -eq 0 ] && git tag "v0.1.$n"
  done
  for i in $(seq 1 26); do
    export GIT_AUTHOR_DATE="2026-11-21T$((10 + i % 10)):$((10 + i)):00Z" GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
    for m in $(printf '%s\n' user order cart product invoice payment shipment coupon review address | shuf -n 3 --random-source=<(yes $i)); do
      printf '# note %d: keep %s fields stable\n' "$i" "$m" >>"app/models/$m.py"
    done
    printf 'CHANGE_%d = "%s"\n' "$i" "$(date -u -d "2026-11-21 +$i hours" +%H%M)" >>config/changes.py
    git add -A && git commit -q -m "Model notes, batch $i"
  done
  for i in $(seq 1 24); do git tag "build-2026.11.$i" HEAD~$((i % 8)); done
  git checkout -q -b feature/timeouts main~4
  sed -i 's/TIMEOUT = 30/TIMEOUT = 60/; s/RETRIES = 3/RETRIES = 5/' config/settings.py
  git commit -qam "Raise timeout and retries for slow payment provider"
  printf 'def backoff(n):\n    return min(2 ** n, 60)\n' >lib/backoff.py
  git add -A && git commit -qm "Add exponential backoff helper"
  sed -i 's/return bool(self.name)/return bool(self.name) and self.id > 0/' app/models/payment.py app/models/order.py
  git commit -qam "Validate ids of payments and orders"
  git checkout -q main
  sed -i 's/TIMEOUT = 30/TIMEOUT = 15/' config/settings.py
  git commit -qam "Lower the default timeout"
  git merge -q --no-ff feature/timeouts -m "Merge branch 'feature/timeouts'" >/dev/null 2>&1
  sed -i 's/^TIMEOUT = .*/TIMEOUT = 45/; /^<<<<<<<\|^=======\|^>>>>>>>/d' config/settings.py
  printf 'DEBUG = False\nDATABASE = "postgres://db/shop"\nTIMEOUT = 45\nRETRIES = 5\n' >config/settings.py
  git add -A && git commit -q --no-edit
  cd - >/dev/null
  capture batch14 git_log_all_decorate_stat "$R" "git log --all --decorate --stat" "$GV"
  capture batch14 git_show_merge_resolution "$R" "git show HEAD" "$GV"
  capture batch14 git_tag_list_long "$R" "git tag -l -n1" "$GV"

  # a working-tree edit seen word by word
  (cd "$R" && sed -i 's/return {"id": self.id, "name": self.name}/return {"id": self.id, "name": self.name.strip(), "kind": "order"}/' app/models/order.py \
    && sed -i 's/TIMEOUT = 45/TIMEOUT = 40/; s/postgres:\/\/db\/shop/postgres:\/\/db-primary\/shop?sslmode=require/' config/settings.py \
    && printf '    """A cart; holds line items."""\n' >>app/models/cart.py)
  capture batch14 git_diff_word_diff "$R" "git diff --word-diff" "$GV"
  capture batch14 git_status_porcelain_v2_branch "$R" "touch notes.txt app/models/tmp.swp; git status --porcelain=v2 --branch --untracked-files=all" "$GV"
  (cd "$R" && git checkout -q -- . && rm -f notes.txt app/models/tmp.swp)

  capture batch14 git_grep_n_many_hits "$R" "git grep -n -e self -e return -e note -- '*.py'" "$GV"
  capture batch14 git_blame_line_range "$R" "git blame -L 1,12 app/models/order.py; git blame -L 20,30 app/models/order.py" "$GV"

  # range-diff of a rebased branch, and cherry -v
  (cd "$R" && git checkout -q -b topic/audit main~6 \
    && for i in 1 2 3 4; do printf 'AUDIT_%d = True\n' "$i" >>config/audit.py; git add -A; git commit -qm "Audit flag $i"; done \
    && git branch topic/audit-old \
    && git rebase -q main >/dev/null 2>&1; git reset -q --hard HEAD~2 \
    && printf 'AUDIT_3 = "strict"  # strict mode logs every read\n' >>config/audit.py && git commit -qam "Audit flag 3 (strict)" \
    && printf 'AUDIT_4 = True\nAUDIT_SINK = "syslog"\n' >>config/audit.py && git commit -qam "Audit flag 4 and sink" \
    && sed -i 's/AUDIT_1 = True/AUDIT_1 = False/' config/audit.py && git commit -qam "Audit flag 1 off by default" && git checkout -q main)
  (cd "$R" && git checkout -q -b release/1.2 main && git cherry-pick topic/audit~4 >/dev/null 2>&1; git checkout -q main)
  capture batch14 git_range_diff_rebased "$R" "git range-diff main~6..topic/audit-old main..topic/audit" "$GV"
  capture batch14 git_cherry_v "$R" "git cherry -v release/1.2 topic/audit" "$GV"

  # a rebase whose --continue meets the next conflict
  RB="$B/rebase2"
  mkdir -p "$RB" && cd "$RB" && git init -q -b main . && git config commit.gpgsign false
  printf 'name: api\nreplicas: 2\nimage: api:1.0\nport: 8080\nlog: info\n' >deploy.yaml
  printf '# API\nRun with make run.\n' >README.md
  git add -A && git commit -qm "Deploy manifest"
  git checkout -q -b feature/scale
  sed -i 's/replicas: 2/replicas: 6/' deploy.yaml && git commit -qam "Scale to six replicas"
  sed -i 's/image: api:1.0/image: api:1.1/' deploy.yaml && git commit -qam "Bump image to 1.1"
  printf '# API\nRun with make run.\nScale with kubectl.\n' >README.md && git commit -qam "Document scaling"
  git checkout -q main
  sed -i 's/replicas: 2/replicas: 3/; s/image: api:1.0/image: api:2.0/' deploy.yaml && git commit -qam "Replicas 3, image 2.0"
  git checkout -q feature/scale
  git rebase main >/dev/null 2>&1
  printf 'name: api\nreplicas: 6\nimage: api:2.0\nport: 8080\nlog: info\n' >deploy.yaml
  git add deploy.yaml
  cd - >/dev/null
  capture batch14 git_rebase_continue_conflicts_again "$RB" "GIT_EDITOR=true git rebase --continue" "$GV"

  # Java: unbounded recursion (StackOverflowError, 1024 frames)
  JS="$B/jstack"
  mkdir -p "$JS/src/com/acme/tree"
  cat >"$JS/src/com/acme/tree/Node.java" <<'EOF'
package com.acme.tree;

import java.util.ArrayList;
import java.util.List;

public class Node {
    final String name;
    Node parent;
    final List<Node> children = new ArrayList<>();

    Node(String name) { this.name = name; }

    void add(Node c) { c.parent = this; children.add(c); }

    String path() {
        return parent == null ? name : parent.path() + "/" + name;
    }

    int depth() { return parent == null ? 0 : 1 + parent.depth(); }

    public static void main(String[] args) {
        Node root = new Node("root");
        Node a = new Node("a");
        Node b = new Node("b");
        root.add(a);
        a.add(b);
        System.out.println("path of b: " + b.path() + " (depth " + b.depth() + ")");
        b.add(root);
        System.out.println("re-parented root under b");
        System.out.println("path of a: " + a.path());
    }
}
EOF
  (cd "$JS" && javac -d out src/com/acme/tree/Node.java)
  capture batch14 java_stackoverflow_recursion "$JS" "java -cp out com.acme.tree.Node" "$(java -version 2>&1 | head -1)"

  # make check running 40 shell tests, two failing
  MC="$B/mkcheck"
  mkdir -p "$MC/tests"
  for i in $(seq -w 1 300); do
    if [ "$i" = 117 ]; then
      printf '#!/bin/sh\necho "  expected: 200 OK"\necho "  actual:   404 Not Found (GET /api/v2/items?page=2)"\nexit 1\n' >"$MC/tests/t$i.sh"
    elif [ "$i" = 233 ]; then
      printf '#!/bin/sh\necho "  tests/t233.sh: line 4: jq: command not found" >&2\nexit 127\n' >"$MC/tests/t$i.sh"
    else
      printf '#!/bin/sh\nexit 0\n' >"$MC/tests/t$i.sh"
    fi
  done
  cat >"$MC/Makefile" <<'EOF'
TESTS := $(sort $(wildcard tests/t*.sh))

.PHONY: check
check:
	@pass=0; fail=0; failed=; \
	for t in $(TESTS); do \
	  if sh $$t >$$t.log 2>&1; then echo "PASS: $$t"; pass=$$((pass+1)); \
	  else echo "FAIL: $$t (exit $$?)"; cat $$t.log; fail=$$((fail+1)); failed="$$failed $$t"; fi; \
	done; \
	echo "============================================"; \
	echo "# TOTAL: $$((pass+fail))"; echo "# PASS:  $$pass"; echo "# FAIL:  $$fail"; \
	echo "============================================"; \
	if [ $$fail -ne 0 ]; then echo "failed:$$failed"; exit 1; fi
EOF
  capture batch14 make_check_300_shell_tests_two_fail "$MC" "make check" "$(make --version | head -1)"

  # du of a project's directories, sorted
  DU="$B/diskuse"
  mkdir -p "$DU"
  for d in src docs assets/img assets/video node_modules/.cache target/debug/deps target/release build/tmp logs .git/objects/pack; do
    mkdir -p "$DU/$d"
  done
  head -c 4000000 /dev/zero >"$DU/assets/video/intro.mp4"
  head -c 90000000 /dev/zero >"$DU/target/debug/deps/libapp-3f9a.rlib" 2>/dev/null || true
  head -c 25000000 /dev/zero >"$DU/logs/app.log"
  head -c 120000 /dev/zero >"$DU/src/main.rs"
  head -c 30000000 /dev/zero >"$DU/node_modules/.cache/babel.bin"
  head -c 60000000 /dev/zero >"$DU/.git/objects/pack/pack-1.pack"
  capture batch14 du_sh_sorted_project "$DU" "du -sh * .[a-z]* target/* assets/* | sort -h" "$(du --version | head -1)"
  rm -f "$DU/target/debug/deps/libapp-3f9a.rlib" "$DU/logs/app.log"

  # a bash deploy script with an ERR trap reporting where it failed
  SH="$B/deploysh"
  mkdir -p "$SH/releases"
  cat >"$SH/deploy.sh" <<'EOF'
#!/usr/bin/env bash
set -Eeuo pipefail
trap 'echo "ERROR: ${BASH_SOURCE[0]}:${LINENO}: \"${BASH_COMMAND}\" exited with $?" >&2' ERR

log() { printf '[deploy] %s\n' "$*"; }

release=releases/$(date -u +%Y%m%d)-abc123
log "creating $release"
mkdir -p "$release"
for f in app.tar.gz config.env migrations.sql; do
  log "staging $f"
  touch "$release/$f"
done
log "checking config"
grep -q '^DATABASE_URL=' "$release/config.env"
log "linking current"
ln -sfn "$release" current
EOF
  capture batch14 bash_err_trap_deploy "$SH" "bash deploy.sh" "$(bash --version | head -1)"
fi

# --- batch15: a fifteenth blind batch (Python, JavaScript/TypeScript, Go and Rust in situations the set
# lacked: Django makemigrations --check, pytest -n 2 --dist loadfile, -q --junitxml, --co -q over ~500
# tests with an import error, unittest -k, python -X dev warnings, mypy --strict on an untyped package,
# pyright --outputjson, ruff and pylint JSON output; jest --json, --listTests, --shard, vitest tap-flat and
# junit reporters, vitest projects, node --test nested subtests with retries, tsc --pretty false with
# ~120 errors and with --explainFiles, tsc -b --verbose with a failing referenced project, eslint -f json
# through jq; go test -v with t.Parallel subtests, gofmt -l -d, a failing TestMain, cgo errors, a panic
# in a subtest; cargo test --test-threads=1 --nocapture, clippy --message-format=short, a release
# workspace build with one error, cargo check --message-format=json, --include-ignored), captured and its
# signals written and committed before any filter ran on it and before any rule file, filter source,
# filter test, fixture, bench/corpus file or bench/README.md was opened.
if sel batch15; then
  B="$WORK/batch15"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local
  GOV="$(go version)"
  RV="$(cargo --version)"
  unset RUST_BACKTRACE
  # JavaScript tools live in a scratch package of their own (jest, vitest, typescript, eslint)
  NT="$WORK/tools/node/node_modules/.bin"
  [ -x "$NT/jest" ] || { mkdir -p "$WORK/tools/node" && (cd "$WORK/tools/node" && npm init -y >/dev/null && npm i -D jest vitest typescript eslint @eslint/js pyright >/dev/null 2>&1); }
  export NODE_PATH="$WORK/tools/node/node_modules"
  JV="node $(node --version); jest $("$NT/jest" --version)"
  VV="node $(node --version); $("$NT/vitest" --version)"
  TV="$("$NT/tsc" --version)"

  # jest project: eight suites, two failing
  J="$B/jestapp"
  mkdir -p "$J/src" "$J/__tests__"
  printf '{"name":"jestapp","private":true}\n' >"$J/package.json"
  printf 'module.exports = { testEnvironment: "node", rootDir: "." };\n' >"$J/jest.config.js"
  cat >"$J/src/cart.js" <<'EOF'
function total(items) {
  return items.reduce((s, i) => s + i.price * i.qty, 0);
}
function applyCoupon(sum, coupon) {
  if (coupon.kind === "percent") return sum * (1 - coupon.value / 100);
  return sum - coupon.value;
}
module.exports = { total, applyCoupon };
EOF
  for s in auth catalog checkout inventory orders search shipping users; do
    cat >"$J/__tests__/$s.test.js" <<EOF
describe("$s", () => {
  test("loads", () => { expect("$s".length).toBeGreaterThan(0); });
  test("has a name", () => { expect(typeof "$s").toBe("string"); });
});
EOF
  done
  cat >>"$J/__tests__/checkout.test.js" <<'EOF'
const { total, applyCoupon } = require("../src/cart");
describe("checkout totals", () => {
  test("sums quantities", () => {
    expect(total([{ price: 2.5, qty: 2 }, { price: 1, qty: 3 }])).toBe(8);
  });
  test("fixed coupon never goes below zero", () => {
    expect(applyCoupon(5, { kind: "fixed", value: 10 })).toBe(0);
  });
});
EOF
  cat >>"$J/__tests__/shipping.test.js" <<'EOF'
describe("shipping quotes", () => {
  test("quote object", () => {
    expect({ carrier: "dhl", days: 3, price: 4.99 }).toEqual({ carrier: "dhl", days: 2, price: 4.99 });
  });
});
EOF
  capture batch15 jest_json_reporter_failures "$J" "$NT/jest --ci --json" "$JV"
  capture batch15 jest_list_tests "$J" "$NT/jest --listTests" "$JV"
  capture batch15 jest_shard_two_of_two "$J" "$NT/jest --ci --shard=2/2" "$JV"

  # vitest project: five files, two failing; tap-flat and junit reporters
  V="$B/vitestapp"
  mkdir -p "$V/test"
  printf '{"name":"vitestapp","private":true,"type":"module"}\n' >"$V/package.json"
  for s in dates money slug text urls; do
    cat >"$V/test/$s.test.js" <<EOF
import { describe, it, expect } from "vitest";
describe("$s", () => {
  it("works", () => { expect("$s").toMatch(/^[a-z]+\$/); });
  it("is short", () => { expect("$s".length).toBeLessThan(10); });
  it("round trips", () => { expect(JSON.parse(JSON.stringify("$s"))).toBe("$s"); });
});
EOF
  done
  cat >>"$V/test/money.test.js" <<'EOF'
describe("money formatting", () => {
  it("formats cents", () => {
    expect((1234.5).toFixed(2)).toBe("1,234.50");
  });
});
EOF
  cat >>"$V/test/slug.test.js" <<'EOF'
describe("slugify", () => {
  it("strips accents", () => {
    const slug = "Crème Brûlée".toLowerCase().replace(/\s+/g, "-");
    expect(slug).toBe("creme-brulee");
  });
});
EOF
  capture batch15 vitest_reporter_tap_flat_failures "$V" "$NT/vitest run --reporter=tap-flat" "$VV"
  capture batch15 vitest_reporter_junit_failures "$V" "$NT/vitest run --reporter=junit" "$VV"

  # vitest with two projects (server, web), one failing test in each
  W="$B/vitestws"
  mkdir -p "$W/packages/server/test" "$W/packages/web/test"
  printf '{"name":"vitestws","private":true,"type":"module"}\n' >"$W/package.json"
  ln -s "$WORK/tools/node/node_modules" "$W/node_modules"
  cat >"$W/vitest.config.js" <<'EOF'
import { defineConfig } from "vitest/config";
export default defineConfig({
  test: {
    projects: [
      { test: { name: "server", root: "./packages/server", environment: "node" } },
      { test: { name: "web", root: "./packages/web", environment: "node" } },
    ],
  },
});
EOF
  cat >"$W/packages/server/test/routes.test.js" <<'EOF'
import { describe, it, expect } from "vitest";
const routes = { "/health": 200, "/login": 302, "/admin": 403 };
describe("routes", () => {
  it("health is up", () => expect(routes["/health"]).toBe(200));
  it("admin redirects to login", () => expect(routes["/admin"]).toBe(302));
  it("login redirects", () => expect(routes["/login"]).toBe(302));
});
EOF
  cat >"$W/packages/web/test/store.test.js" <<'EOF'
import { describe, it, expect } from "vitest";
describe("store", () => {
  it("starts empty", () => expect([]).toHaveLength(0));
  it("adds an item", () => {
    const items = ["a"];
    items.push("b");
    expect(items).toEqual(["a", "b", "c"]);
  });
});
EOF
  capture batch15 vitest_projects_two_failing "$W" "$NT/vitest run" "$VV"

  # node --test: a suite of 30 describe blocks with subtests, one nested failure and a retry helper
  N="$B/nodesub"
  mkdir -p "$N/test"
  cat >"$N/test/api.test.mjs" <<'EOF'
import { describe, it } from "node:test";
import assert from "node:assert/strict";

async function retry(fn, times) {
  let last;
  for (let i = 1; i <= times; i++) {
    try { return await fn(i); } catch (e) { last = e; console.log(`# attempt ${i} failed: ${e.message}`); }
  }
  throw last;
}

const resources = ["users", "orders", "invoices", "products", "carts", "reviews", "coupons",
  "shipments", "refunds", "payments", "addresses", "sessions", "tokens", "webhooks", "exports"];
for (const r of resources) {
  describe(`GET /${r}`, () => {
    it("returns 200", () => assert.equal(200, 200));
    it("paginates", () => assert.ok([1, 2, 3].slice(0, 2).length === 2));
    it("filters by id", () => assert.deepEqual({ id: 1 }, { id: 1 }));
    describe("auth", () => {
      it("rejects anonymous", () => assert.equal(401, 401));
      it("accepts a token", async () => {
        await retry(async (n) => {
          if (r === "refunds") throw new Error(`token rejected by /${r} (attempt ${n})`);
          return true;
        }, 3);
      });
    });
  });
}
EOF
  capture batch15 node_test_nested_subtests_retry_fail "$N" "node --test test/" "node $(node --version)"

  # tsc -p --pretty false: one module with a hundred-odd errors
  T="$B/tsmany"
  mkdir -p "$T/src"
  printf '{"compilerOptions":{"strict":true,"target":"es2020","module":"commonjs","noEmit":true},"include":["src"]}\n' >"$T/tsconfig.json"
  {
    echo "interface Order { id: number; total: number; status: 'open' | 'paid' }"
    for i in $(seq 1 40); do
      echo "export function handler$i(o: Order): string {"
      echo "  const n: number = o.id + '$i';"
      echo "  o.status = 'shipped';"
      echo "  return o.total;"
      echo "}"
    done
  } >"$T/src/handlers.ts"
  cat >"$T/src/index.ts" <<'EOF'
import { handler1 } from "./handlers";
export const out = handler1({ id: 1, total: 2, status: "open" });
EOF
  capture batch15 tsc_pretty_false_many_errors "$T" "$NT/tsc -p . --pretty false" "$TV"

  # tsc --explainFiles on the project with a hundred-odd errors: why each lib file is included, then the errors
  capture batch15 tsc_explain_files_with_errors "$T" "$NT/tsc -p . --pretty false --explainFiles" "$TV"

  # tsc -b --verbose in a monorepo: core builds, api has errors, app is skipped
  M="$B/tsmono"
  mkdir -p "$M/packages/core/src" "$M/packages/api/src" "$M/packages/app/src"
  printf '{"files":[],"references":[{"path":"packages/core"},{"path":"packages/api"},{"path":"packages/app"}]}\n' >"$M/tsconfig.json"
  printf '{"compilerOptions":{"composite":true,"strict":true,"outDir":"dist","rootDir":"src","declaration":true},"include":["src"]}\n' >"$M/packages/core/tsconfig.json"
  printf '{"compilerOptions":{"composite":true,"strict":true,"outDir":"dist","rootDir":"src","declaration":true},"include":["src"],"references":[{"path":"../core"}]}\n' >"$M/packages/api/tsconfig.json"
  printf '{"compilerOptions":{"composite":true,"strict":true,"outDir":"dist","rootDir":"src","declaration":true},"include":["src"],"references":[{"path":"../api"}]}\n' >"$M/packages/app/tsconfig.json"
  cat >"$M/packages/core/src/index.ts" <<'EOF'
export interface User { id: string; email: string; roles: string[] }
export function isAdmin(u: User): boolean { return u.roles.includes("admin"); }
EOF
  cat >"$M/packages/api/src/index.ts" <<'EOF'
import { User, isAdmin } from "../../core/src/index";
export function serialize(u: User) {
  return { id: Number(u.id), mail: u.mail, admin: isAdmin(u, true) };
}
export const guest: User = { id: "0", email: "guest@example.com" };
EOF
  cat >"$M/packages/app/src/index.ts" <<'EOF'
import { serialize, guest } from "../../api/src/index";
console.log(serialize(guest));
EOF
  capture batch15 tsc_build_verbose_referenced_errors "$M" "$NT/tsc -b --verbose" "$TV"

  # eslint -f json over a dozen files with findings, pretty-printed by jq
  E="$B/eslintjson"
  mkdir -p "$E/src"
  printf '{"name":"eslintjson","private":true,"type":"module"}\n' >"$E/package.json"
  cat >"$E/eslint.config.js" <<'EOF'
import js from "@eslint/js";
export default [js.configs.recommended, { rules: { "no-unused-vars": "error", eqeqeq: "error", "no-console": "warn" } }];
EOF
  for f in api auth cache db events jobs mail routes; do
    cat >"$E/src/$f.js" <<EOF
export function ${f}Handler(req, res) {
  const unused${f} = 1;
  if (req.id == null) { console.log("missing id in $f"); }
  return res;
}
EOF
  done
  for f in util config; do
    printf 'export const %s = () => 1;\n' "$f" >"$E/src/$f.js"
  done
  ln -s "$WORK/tools/node/node_modules" "$E/node_modules"
  capture batch15 eslint_format_json_piped_jq "$E" "set -o pipefail; $NT/eslint -f json src | jq ." "eslint $("$NT/eslint" --version)"
  # Python tools live in a venv of their own (pytest, xdist, mypy, ruff, pylint, Django)
  PV="$WORK/tools/venv/bin"
  [ -x "$PV/pytest" ] || { python3 -m venv "$WORK/tools/venv" && "$PV/pip" install -q pytest pytest-xdist pytest-asyncio mypy ruff pylint django; }
  PYV="$("$PV/python" --version 2>&1); $("$PV/pytest" --version 2>&1 | head -1)"

  # Django makemigrations --check --dry-run -v 3: models changed without their migration
  P="$B/djshop"
  mkdir -p "$P/shop" "$P/orders/migrations"
  touch "$P/shop/__init__.py" "$P/orders/__init__.py" "$P/orders/migrations/__init__.py"
  cat >"$P/manage.py" <<'EOF'
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
EOF
  cat >"$P/shop/settings.py" <<'EOF'
SECRET_KEY = "test"
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "orders"]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
EOF
  cat >"$P/orders/models.py" <<'EOF'
from django.db import models


class Customer(models.Model):
    email = models.EmailField(unique=True)
    name = models.CharField(max_length=120)
    created = models.DateTimeField(auto_now_add=True)


class Order(models.Model):
    customer = models.ForeignKey(Customer, on_delete=models.CASCADE, related_name="orders")
    total = models.DecimalField(max_digits=10, decimal_places=2)
    status = models.CharField(max_length=16, default="open")
EOF
  cat >"$P/orders/migrations/0001_initial.py" <<'EOF'
from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [
        migrations.CreateModel(
            name="Customer",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("email", models.EmailField(max_length=254, unique=True)),
                ("name", models.CharField(max_length=80)),
            ],
        ),
        migrations.CreateModel(
            name="Order",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("total", models.DecimalField(decimal_places=2, max_digits=10)),
                ("customer", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="orders", to="orders.customer")),
            ],
        ),
    ]
EOF
  capture batch15 django_makemigrations_check_dry_run "$P" "$PV/python manage.py makemigrations --check --dry-run -v 3" "$PYV; Django $("$PV/python" -m django --version)"

  # pytest -n 2 --dist loadfile -v over twelve modules of ~25 tests, three failing
  P="$B/catalog"
  mkdir -p "$P/tests"
  for m in accounts addresses billing carts coupons exports imports inventory orders payments shipping taxes; do
    {
      echo "import pytest"
      echo
      echo "@pytest.mark.parametrize('n', range(24))"
      echo "def test_${m}_roundtrip(n):"
      echo "    assert int(str(n)) == n"
      echo
      echo "def test_${m}_schema():"
      echo "    assert '${m}'.isidentifier()"
    } >"$P/tests/test_$m.py"
  done
  cat >>"$P/tests/test_coupons.py" <<'EOF'

def test_coupons_stacking_limit():
    applied = [10, 15, 20]
    assert sum(applied) <= 30, f"stacked discount {sum(applied)}% over the 30% cap"
EOF
  cat >>"$P/tests/test_shipping.py" <<'EOF'

def test_shipping_zone_lookup():
    zones = {"DE": 1, "FR": 1, "US": 3}
    assert zones["CH"] == 2
EOF
  cat >>"$P/tests/test_taxes.py" <<'EOF'

def test_taxes_rounding():
    assert round(2.675, 2) == 2.68
EOF
  capture batch15 pytest_xdist_loadfile_long "$P" "$PV/pytest -p no:cacheprovider -n 2 --dist loadfile -v tests" "$PYV"

  # pytest -q --junitxml: two failures and an error, the report path at the end
  P="$B/reports"
  mkdir -p "$P/tests"
  cat >"$P/tests/test_report.py" <<'EOF'
import json

import pytest


@pytest.fixture
def db():
    raise ConnectionError("could not connect to postgres at localhost:5432")


def render(rows):
    return "\n".join(f"{r['name']:<10}{r['total']:>8.2f}" for r in rows)


def test_render_empty():
    assert render([]) == ""


def test_render_rows():
    rows = [{"name": "alice", "total": 12.5}, {"name": "bob", "total": 3}]
    assert render(rows).splitlines()[1] == "bob           3.0"


def test_render_json_roundtrip():
    data = json.loads('{"name": "carol", "total": "7.25"}')
    assert render([data])


def test_persist_report(db):
    db.save("report")


@pytest.mark.parametrize("n", range(20))
def test_render_many(n):
    assert render([{"name": str(n), "total": n}])
EOF
  capture batch15 pytest_junitxml_q "$P" "$PV/pytest -p no:cacheprovider -q --junitxml=build/junit.xml tests" "$PYV"

  # python -m unittest -k: only the matching tests run, two of them fail
  P="$B/unittestk"
  mkdir -p "$P/tests"
  touch "$P/tests/__init__.py"
  cat >"$P/tests/test_parser.py" <<'EOF'
import unittest


def parse_duration(text):
    units = {"s": 1, "m": 60, "h": 3600}
    return int(text[:-1]) * units[text[-1]]


class ParseDurationTest(unittest.TestCase):
    def test_parse_seconds(self):
        self.assertEqual(parse_duration("45s"), 45)

    def test_parse_minutes(self):
        self.assertEqual(parse_duration("2m"), 120)

    def test_parse_days(self):
        self.assertEqual(parse_duration("1d"), 86400)

    def test_parse_compound(self):
        self.assertEqual(parse_duration("1h30m"), 5400)

    def test_format_seconds(self):
        self.assertEqual(str(45), "45")


class ParseSizeTest(unittest.TestCase):
    def test_parse_size_bytes(self):
        self.assertEqual(int("512"), 512)

    def test_parse_size_suffix(self):
        self.assertEqual(int("4k".rstrip("k")) * 1024, 4096)
EOF
  capture batch15 unittest_k_pattern_failures "$P" "$PV/python -m unittest -v -k parse_ tests.test_parser" "$PYV"

  # python -X dev: ResourceWarnings and a DeprecationWarning from a script that succeeds
  P="$B/xdev"
  mkdir -p "$P/data"
  for i in 1 2 3 4 5 6; do printf 'id,amount\n%d,%d.50\n' "$i" "$((i * 7))" >"$P/data/part$i.csv"; done
  cat >"$P/merge.py" <<'EOF'
import csv
import datetime
import glob
import socket


def read_part(path):
    fh = open(path, newline="")
    return list(csv.DictReader(fh))


def probe():
    s = socket.socket()
    s.settimeout(0.01)
    return s.family


rows = []
for path in sorted(glob.glob("data/*.csv")):
    rows.extend(read_part(path))
    print(f"merged {path}: {len(rows)} rows so far")
probe()
stamp = datetime.datetime.utcnow().isoformat()
print(f"wrote {len(rows)} rows at {stamp}")
EOF
  capture batch15 python_x_dev_resource_warnings "$P" "$PV/python -X dev merge.py" "$PYV"

  # mypy --strict over a small untyped package: forty-odd errors in five modules
  P="$B/strictpkg"
  mkdir -p "$P/inventory"
  touch "$P/inventory/__init__.py"
  cat >"$P/inventory/models.py" <<'EOF'
from dataclasses import dataclass


@dataclass
class Item:
    sku: str
    qty: int
    price: float

    def total(self):
        return self.qty * self.price

    def restock(self, n):
        self.qty += n
        return self


def make_item(sku, qty=0, price=0.0):
    return Item(sku, qty, price)


def parse_items(rows):
    return [make_item(**r) for r in rows]
EOF
  cat >"$P/inventory/store.py" <<'EOF'
import json
from typing import Any

from .models import Item, make_item


class Store:
    def __init__(self, path):
        self.path = path
        self.items = {}

    def load(self):
        with open(self.path) as fh:
            data = json.load(fh)
        for row in data:
            self.items[row["sku"]] = make_item(**row)

    def get(self, sku: str) -> Item:
        return self.items.get(sku)

    def value(self) -> int:
        return sum(i.total() for i in self.items.values())

    def export(self, fmt):
        if fmt == "json":
            return json.dumps([vars(i) for i in self.items.values()])
        return None

    def find(self, pred) -> list:
        return [i for i in self.items.values() if pred(i)]

    def raw(self) -> Any:
        return self.items


def open_store(path: str):
    s = Store(path)
    s.load()
    return s
EOF
  cat >"$P/inventory/report.py" <<'EOF'
from .store import Store, open_store


def low_stock(store: Store, threshold=5):
    return [i for i in store.items.values() if i.qty < threshold]


def summary(path):
    store = open_store(path)
    lines = []
    for item in low_stock(store):
        lines.append(item.sku + ": " + item.qty)
    return "\n".join(lines)


def grand_total(store: Store) -> str:
    return store.value()


def by_prefix(store, prefix):
    out = {}
    for sku, item in store.items.items():
        out.setdefault(sku[:prefix], []).append(item)
    return out
EOF
  cat >"$P/inventory/cli.py" <<'EOF'
import sys

from .report import grand_total, summary
from .store import open_store


def main(argv=None):
    argv = argv or sys.argv[1:]
    if not argv:
        print("usage: inventory PATH")
        return 2
    store = open_store(argv[0])
    print(summary(argv[0]))
    print("total:", grand_total(store))
    return 0


def entry():
    sys.exit(main())


def parse_flags(args):
    flags = {}
    for a in args:
        k, _, v = a.partition("=")
        flags[k] = v
    return flags
EOF
  cat >"$P/inventory/pricing.py" <<'EOF'
import math


def round_price(p, places=2):
    return math.floor(p * 10**places + 0.5) / 10**places


def apply_tax(price: float, rate) -> float:
    return round_price(price * (1 + rate))


def discounts(prices, pct):
    return [round_price(p * (1 - pct / 100)) for p in prices]


def cheapest(prices: list) -> float:
    return min(prices)


def price_table(items):
    return {i.sku: i.price for i in items}
EOF
  capture batch15 mypy_strict_package_many_errors "$P" "$PV/mypy --strict --no-incremental inventory" "$PYV; $("$PV/mypy" --version)"

  # pyright --outputjson on the same package
  capture batch15 pyright_outputjson "$P" "$NT/pyright --outputjson inventory" "$("$NT/pyright" --version 2>/dev/null | tail -1)"

  # ruff check --output-format=json over a messy module
  P="$B/ruffjson"
  mkdir -p "$P/app"
  cat >"$P/app/views.py" <<'EOF'
import os, sys
import json
from typing import *


def handler(request, cache={}):
    try:
        body = json.loads(request.body)
    except:
        return None
    user = body.get("user")
    if user == None:
        return {"error": "no user"}
    unused = os.getcwd()
    l = [x for x in body["items"]]
    return {"user": user, "count": len(l)}


def render(template, **kw):
    return eval(template.format(**kw))
EOF
  capture batch15 ruff_check_output_format_json "$P" "$PV/ruff check --no-cache --select E,F,W,B,S --output-format=json app" "$("$PV/ruff" --version)"

  # pytest --co -q of ~500 tests with one module that fails to import
  P="$B/collect"
  mkdir -p "$P/tests"
  for m in api auth cache cli config db events files http jobs mail search; do
    {
      echo "import pytest"
      echo
      echo "@pytest.mark.parametrize('case', range(40))"
      echo "def test_${m}_case(case):"
      echo "    assert case >= 0"
      echo
      echo "def test_${m}_smoke():"
      echo "    pass"
    } >"$P/tests/test_$m.py"
  done
  cat >"$P/tests/test_webhooks.py" <<'EOF'
from app.webhooks import verify_signature


def test_verify():
    assert verify_signature(b"", "")
EOF
  capture batch15 pytest_collect_only_500_one_error "$P" "$PV/pytest -p no:cacheprovider --co -q tests" "$PYV"

  # pylint --output-format=json over the strict package
  capture batch15 pylint_output_format_json "$B/strictpkg" "$PV/pylint --output-format=json inventory" "$("$PV/pylint" --version 2>/dev/null | sed -n 1p)"
  # Go: t.Parallel subtests logging as they go, one failing, in a -v run of two packages
  G="$B/gopar"
  mkdir -p "$G/fetch" "$G/parse"
  printf 'module example.com/gopar\n\ngo 1.19\n' >"$G/go.mod"
  cat >"$G/fetch/fetch.go" <<'EOF'
package fetch

import "fmt"

// URL builds the URL of a mirror for a resource.
func URL(mirror, resource string) string { return fmt.Sprintf("https://%s/%s", mirror, resource) }
EOF
  cat >"$G/fetch/fetch_test.go" <<'EOF'
package fetch

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestMirrors(t *testing.T) {
	mirrors := []string{"eu1", "eu2", "us1", "us2", "ap1", "ap2", "sa1", "af1"}
	resources := []string{"index.json", "pkg.tar.gz", "sig.asc", "manifest.yaml", "notes.txt"}
	for _, m := range mirrors {
		m := m
		t.Run(m, func(t *testing.T) {
			t.Parallel()
			for i, r := range resources {
				time.Sleep(time.Millisecond * time.Duration(1+i))
				u := URL(m+".example.org", r)
				t.Logf("GET %s -> 200 (%d bytes)", u, 1000+len(u)*i)
				if m == "ap2" && r == "sig.asc" {
					t.Errorf("GET %s: signature mismatch: want key 0x4AA4767BBC9C4B1D, got 0x1F2E3D4C5B6A7980", u)
				}
			}
		})
	}
}

func TestURLJoin(t *testing.T) {
	for i := 0; i < 12; i++ {
		i := i
		t.Run(fmt.Sprintf("case%02d", i), func(t *testing.T) {
			t.Parallel()
			u := URL("m", strings.Repeat("a/", i))
			t.Logf("joined %q", u)
		})
	}
}
EOF
  cat >"$G/parse/parse.go" <<'EOF'
package parse

import "strings"

// Fields splits a header line.
func Fields(s string) []string { return strings.Split(s, ";") }
EOF
  cat >"$G/parse/parse_test.go" <<'EOF'
package parse

import (
	"fmt"
	"testing"
)

func TestFields(t *testing.T) {
	for i := 0; i < 30; i++ {
		i := i
		t.Run(fmt.Sprintf("header%02d", i), func(t *testing.T) {
			t.Parallel()
			got := Fields(fmt.Sprintf("a=%d;b=%d;c", i, i*2))
			t.Logf("fields: %v", got)
			if len(got) != 3 {
				t.Fatalf("want 3 fields, got %d", len(got))
			}
		})
	}
}
EOF
  capture batch15 go_test_v_parallel_subtests_interleaved "$G" "go test -count=1 -v ./..." "$GOV"

  # gofmt -l -d over a package: two files need formatting, one does not parse
  F="$B/gofmtd"
  mkdir -p "$F/store"
  printf 'module example.com/gofmtd\n\ngo 1.19\n' >"$F/go.mod"
  cat >"$F/store/store.go" <<'EOF'
package store

import (
    "errors"
    "sync"
)

type Store struct{
  mu sync.Mutex
  items map[string]int
}

func New() *Store { return &Store{items:map[string]int{}} }

func (s *Store) Get(k string) (int,error) {
  s.mu.Lock(); defer s.mu.Unlock()
  v,ok := s.items[k]
  if !ok { return 0, errors.New("not found") }
  return v,nil
}
EOF
  cat >"$F/store/keys.go" <<'EOF'
package store

func (s *Store) Keys() []string {
	out := make([]string,0,len(s.items))
	for k := range s.items { out = append(out,k) }
	return out
}
EOF
  cat >"$F/store/ok.go" <<'EOF'
package store

// Len returns the number of items.
func (s *Store) Len() int { return len(s.items) }
EOF
  cat >"$F/store/broken.go" <<'EOF'
package store

func (s *Store) Put(k string, v int) {
	s.items[k] = v
EOF
  capture batch15 gofmt_l_d_diffs_and_parse_error "$F" "gofmt -l -d ." "$GOV"

  # TestMain whose setup fails, in one of three packages
  M="$B/gomain"
  mkdir -p "$M/db" "$M/api" "$M/util"
  printf 'module example.com/gomain\n\ngo 1.19\n' >"$M/go.mod"
  for p in api util; do
    printf 'package %s\n\nimport "testing"\n\nfunc TestOK(t *testing.T) {}\n' "$p" >"$M/$p/${p}_test.go"
  done
  cat >"$M/db/db_test.go" <<'EOF'
package db

import (
	"fmt"
	"log"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	dsn := os.Getenv("TEST_DATABASE_URL")
	if dsn == "" {
		dsn = "postgres://app@127.0.0.1:5432/app_test?sslmode=disable"
	}
	log.Printf("connecting to %s", dsn)
	if err := connect(dsn); err != nil {
		log.Printf("setup failed: %v", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func connect(dsn string) error {
	return fmt.Errorf("dial tcp 127.0.0.1:5432: connect: connection refused")
}

func TestQuery(t *testing.T) {}
EOF
  capture batch15 go_test_testmain_setup_fails "$M" "go test -count=1 ./..." "$GOV"

  # cgo: the C preamble does not compile
  C="$B/gocgo"
  mkdir -p "$C"
  printf 'module example.com/gocgo\n\ngo 1.19\n' >"$C/go.mod"
  cat >"$C/main.go" <<'EOF'
package main

/*
#include <stdlib.h>
#include <string.h>

static int checksum(const char *s, size_t n) {
	int sum = 0;
	for (size_t i = 0; i < n; i++) sum += s[i];
	return sum
}

static char *dup_upper(const char *s) {
	char *out = strdup(s);
	for (char *p = out; *p; p++) *p = toupper(*p);
	return out;
}
*/
import "C"

import "fmt"

func main() {
	s := C.CString("hello")
	fmt.Println(C.checksum(s, 5))
}
EOF
  capture batch15 go_build_cgo_c_errors "$C" "go build ./..." "$GOV"

  # a panic inside a subtest: go test prints the panic and the goroutine's stack
  P="$B/gopanic"
  mkdir -p "$P/ledger"
  printf 'module example.com/gopanic\n\ngo 1.19\n' >"$P/go.mod"
  cat >"$P/ledger/ledger.go" <<'EOF'
package ledger

// Entry is one booking.
type Entry struct {
	Account string
	Amount  int64
}

// Balance sums the entries per account.
func Balance(entries []*Entry) map[string]int64 {
	out := map[string]int64{}
	for _, e := range entries {
		out[e.Account] += e.Amount
	}
	return out
}
EOF
  cat >"$P/ledger/ledger_test.go" <<'EOF'
package ledger

import "testing"

func TestBalance(t *testing.T) {
	t.Run("single", func(t *testing.T) {
		got := Balance([]*Entry{{"cash", 10}})
		if got["cash"] != 10 {
			t.Fatalf("cash = %d", got["cash"])
		}
	})
	t.Run("with gap", func(t *testing.T) {
		entries := make([]*Entry, 3)
		entries[0] = &Entry{"cash", 5}
		entries[2] = &Entry{"bank", 7}
		Balance(entries)
	})
	t.Run("never reached", func(t *testing.T) {})
}
EOF
  capture batch15 go_test_panic_in_subtest "$P" "go test -count=1 -v ./..." "$GOV"
  # Rust: eighty tests run one at a time with --nocapture, each printing its steps, two failing
  R="$B/rsnocap"
  mkdir -p "$R/src"
  printf '[package]\nname = "rsnocap"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >"$R/Cargo.toml"
  {
    echo 'pub fn parse_version(s: &str) -> Option<(u32, u32, u32)> {'
    echo '    let mut it = s.split(".").map(|p| p.parse::<u32>().ok());'
    echo '    Some((it.next()??, it.next()??, it.next()??))'
    echo '}'
    echo
    echo '#[cfg(test)]'
    echo 'mod tests {'
    echo '    use super::*;'
    for i in $(seq 1 80); do
      echo "    #[test]"
      echo "    fn version_case_$(printf %02d "$i")() {"
      echo "        let input = format!(\"{}.{}.{}\", $i / 10, $i % 10, $i);"
      echo "        println!(\"case $i: parsing {input}\");"
      echo "        let v = parse_version(&input).expect(\"parses\");"
      echo "        println!(\"case $i: got {v:?}\");"
      echo "        println!(\"case $i: checking major, minor and patch\");"
      if [ "$i" = 37 ]; then
        echo "        assert_eq!(v, (3, 7, 36), \"patch level of {input}\");"
      elif [ "$i" = 64 ]; then
        echo "        assert!(parse_version(\"6.4\").is_some(), \"two-part versions should parse\");"
      else
        echo "        assert_eq!(v.2, $i);"
      fi
      echo "    }"
    done
    echo '}'
  } >"$R/src/lib.rs"
  capture batch15 cargo_test_single_thread_nocapture_long "$R" "cargo test -q 2>/dev/null >/dev/null; cargo test -- --test-threads=1 --nocapture 2>&1" "$RV"

  # cargo clippy --message-format=short: warnings in three files and one error
  C="$B/rsclippy"
  mkdir -p "$C/src"
  printf '[package]\nname = "rsclippy"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >"$C/Cargo.toml"
  cat >"$C/src/lib.rs" <<'EOF'
pub mod config;
pub mod report;

pub fn total(xs: &Vec<i64>) -> i64 {
    let mut sum = 0;
    for i in 0..xs.len() {
        sum = sum + xs[i];
    }
    return sum;
}
EOF
  cat >"$C/src/config.rs" <<'EOF'
pub struct Config {
    pub name: String,
    pub retries: u32,
}

impl Config {
    pub fn new() -> Config {
        Config { name: String::from(""), retries: 3 }
    }

    pub fn is_named(&self) -> bool {
        if self.name.len() == 0 { false } else { true }
    }
}
EOF
  cat >"$C/src/report.rs" <<'EOF'
pub fn render(rows: &[(String, f64)]) -> String {
    let mut out = String::new();
    for (name, value) in rows.iter() {
        out.push_str(&format!("{}: {}\n", name, value));
    }
    if out.len() > 0 {
        out = out.clone();
    }
    out
}

pub fn ratio(a: f64, b: f64) -> bool {
    a / b == 0.5
}
EOF
  capture batch15 cargo_clippy_message_format_short "$C" "cargo clippy --message-format=short 2>&1" "$RV; $(cargo clippy --version 2>/dev/null)"

  # cargo build --release of a workspace of fourteen crates, one with a type error
  W="$B/rsrelease"
  mkdir -p "$W"
  members=""
  prev=""
  for c in base codec config crypto db events geo http jobs mail metrics search storage server; do
    mkdir -p "$W/$c/src"
    deps=""
    [ -n "$prev" ] && deps="$prev = { path = \"../$prev\" }"
    printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n%s\n' "$c" "$deps" >"$W/$c/Cargo.toml"
    printf 'pub fn name() -> &'"'"'static str { "%s" }\n' "$c" >"$W/$c/src/lib.rs"
    members="$members\"$c\", "
    prev="$c"
  done
  printf '[workspace]\nresolver = "2"\nmembers = [%s]\n' "$members" >"$W/Cargo.toml"
  cat >>"$W/search/src/lib.rs" <<'EOF'

pub struct Hit { pub doc: u64, pub score: f32 }

pub fn top(hits: &mut Vec<Hit>, n: usize) -> Vec<u64> {
    hits.sort_by(|a, b| b.score.partial_cmp(&a.score).unwrap());
    hits.iter().take(n).map(|h| h.doc).collect::<Vec<u32>>()
}
EOF
  capture batch15 cargo_build_release_workspace_one_error "$W" "cargo build --release --workspace 2>&1" "$RV"

  # cargo check --message-format=json: compiler messages as JSON lines, two errors
  J="$B/rsjson"
  mkdir -p "$J/src"
  printf '[package]\nname = "rsjson"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >"$J/Cargo.toml"
  cat >"$J/src/main.rs" <<'EOF'
use std::collections::HashMap;

fn count(words: &[&str]) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for w in words {
        *m.entry(w).or_insert(0) += 1;
    }
    m
}

fn main() {
    let unused = 5;
    let c = count(&["a", "b", "a"]);
    println!("{}", c.get("a").unwrap_or(0));
}
EOF
  capture batch15 cargo_check_message_format_json "$J" "cargo check --message-format=json 2>&1" "$RV"

  # cargo test -- --include-ignored: the slow ignored tests run and two fail, doctests too
  I="$B/rsignored"
  mkdir -p "$I/src" "$I/tests"
  printf '[package]\nname = "rsignored"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >"$I/Cargo.toml"
  cat >"$I/src/lib.rs" <<'EOF'
/// Rounds a price to cents.
///
/// ```
/// assert_eq!(rsignored::cents(1.005), 101);
/// ```
pub fn cents(x: f64) -> i64 {
    (x * 100.0).round() as i64
}

/// Splits an amount into n parts.
///
/// ```
/// assert_eq!(rsignored::split(10, 3), vec![4, 3, 3]);
/// ```
pub fn split(total: i64, n: i64) -> Vec<i64> {
    (0..n).map(|i| total / n + if i < total % n { 1 } else { 0 }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cents_basic() {
        assert_eq!(cents(1.5), 150);
    }

    #[test]
    #[ignore = "slow: sweeps a million values"]
    fn cents_sweep() {
        for i in 0..1_000_000i64 {
            let x = i as f64 / 100.0;
            assert_eq!(cents(x), i, "cents({x})");
        }
    }

    #[test]
    #[ignore]
    fn split_large() {
        let parts = split(1_000_003, 7);
        assert_eq!(parts.iter().sum::<i64>(), 1_000_003);
    }
}
EOF
  cat >"$I/tests/contract.rs" <<'EOF'
#[test]
fn split_sums() {
    assert_eq!(rsignored::split(9, 3).iter().sum::<i64>(), 9);
}

#[test]
#[ignore = "needs the pricing service"]
fn live_prices() {
    let resp: Result<u16, String> = Err("connection refused (os error 111)".into());
    assert_eq!(resp.expect("pricing service reachable"), 200);
}
EOF
  capture batch15 cargo_test_include_ignored_failures "$I" "cargo test -- --include-ignored 2>&1" "$RV"
fi

# --- batch16: a sixteenth blind batch (git, C/C++ and build systems, JVM, Ruby, PHP, containers/infra
# and system tools in situations the set lacked: git revert / stash apply / am -3 conflicts, switch
# refused over local changes, a failing pre-commit hook, apply --check rejected, diff --check
# whitespace errors, log --numstat long, log -G pickaxe, bisect run with skips, submodule update
# failing; cmake -G Ninja over twenty files with warnings and one error, meson test --verbose,
# autoreconf + configure + make failing late, pkg-config missing, a bad linker version script, nm
# of objects then undefined references, gcov, make install DESTDIR= long; JUnit 5 console launcher
# with failures; rspec --format json, rubocop --format json, bundle install offline, phpunit
# failures, PHP deprecations under E_ALL; terraform validate / plan errors, kubectl --dry-run=client
# without a cluster, logrotate -d, strace -c, ssh -v refused, rsync -avn long), captured and its
# signals written and committed before any filter ran on it and before any rule file, filter source,
# filter test, fixture, bench/corpus file or bench/README.md was opened.
if sel batch16; then
  B="$WORK/batch16"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  GITV="$(git --version)"
  gitinit() { git init -q -b main "$1" && git -C "$1" config user.email dev@example.com && git -C "$1" config user.name Dev; }
  export GIT_AUTHOR_DATE="2026-11-20T10:00:00Z" GIT_COMMITTER_DATE="2026-11-20T10:00:00Z"

  # git: a service repository with some history
  GR="$B/svc"
  gitinit "$GR"
  mkdir -p "$GR/src" "$GR/docs"
  for i in $(seq 1 12); do
    printf 'def handler_%d(req):\n    """Handle route %d."""\n    return {"route": %d, "ok": True}\n' "$i" "$i" "$i" >"$GR/src/route_$i.py"
  done
  printf 'TIMEOUT = 30\nRETRIES = 3\nBACKOFF = 1.5\nHOST = "0.0.0.0"\nPORT = 8080\n' >"$GR/src/config.py"
  printf '# svc\n\nA small service.\n' >"$GR/README.md"
  git -C "$GR" add -A && git -C "$GR" commit -qm "initial service skeleton"
  for i in $(seq 1 100); do
    f=$(( (i % 12) + 1 ))
    printf '# change %d\ndef helper_%d():\n    return %d\n' "$i" "$i" "$i" >>"$GR/src/route_$f.py"
    printf 'note %d\n' "$i" >>"$GR/docs/notes_$(( i % 5 )).md"
    [ $(( i % 7 )) -eq 0 ] && printf 'FEATURE_%d = True\n' "$i" >>"$GR/src/config.py"
    git -C "$GR" add -A && GIT_AUTHOR_DATE="2026-$(printf %02d $(( i / 27 + 8 )))-$(printf %02d $(( i % 27 + 1 )))T10:00:00Z" git -C "$GR" commit -qm "route $f: add helper $i"
  done
  sed -i 's/TIMEOUT = 30/TIMEOUT = 45/' "$GR/src/config.py"
  git -C "$GR" commit -qam "config: raise timeout to 45s"
  sed -i 's/TIMEOUT = 45/TIMEOUT = 60  # slow upstream/' "$GR/src/config.py"
  git -C "$GR" commit -qam "config: timeout 60s for the slow upstream"
  capture batch16 git_log_numstat_long "$GR" "git log --format='%h %an %ad %s' --date=short --numstat" "$GITV"
  capture batch16 git_log_pickaxe_g "$GR" "git log -G'^TIMEOUT' --oneline --stat -p -- src/config.py" "$GITV"

  # git revert of a commit whose lines changed later
  cp -r "$GR" "$B/svc-revert"
  capture batch16 git_revert_conflict "$B/svc-revert" "git revert --no-edit HEAD~1" "$GITV"

  # git stash apply onto changed lines
  cp -r "$GR" "$B/svc-stash"
  sed -i 's/RETRIES = 3/RETRIES = 5/' "$B/svc-stash/src/config.py"
  printf 'def handler_1(req):\n    raise NotImplementedError\n' >"$B/svc-stash/src/route_1.py"
  git -C "$B/svc-stash" stash -q
  sed -i 's/RETRIES = 3/RETRIES = 4/' "$B/svc-stash/src/config.py"
  git -C "$B/svc-stash" commit -qam "config: four retries"
  capture batch16 git_stash_apply_conflict "$B/svc-stash" "git stash apply; rc=\$?; git status; exit \$rc" "$GITV"

  # git switch refused because local changes would be overwritten
  cp -r "$GR" "$B/svc-switch"
  git -C "$B/svc-switch" switch -qc feature/retry
  sed -i 's/RETRIES = 3/RETRIES = 10/' "$B/svc-switch/src/config.py"
  printf 'def handler_2(req):\n    return None\n' >"$B/svc-switch/src/route_2.py"
  git -C "$B/svc-switch" commit -qam "retry: ten retries, stub route 2"
  git -C "$B/svc-switch" switch -q main
  sed -i 's/RETRIES = 3/RETRIES = 7/' "$B/svc-switch/src/config.py"
  echo '# wip' >>"$B/svc-switch/src/route_2.py"
  echo 'scratch' >"$B/svc-switch/scratch.txt"
  capture batch16 git_switch_local_changes "$B/svc-switch" "git switch feature/retry" "$GITV"

  # git commit with a pre-commit hook running a linter
  cp -r "$GR" "$B/svc-hook"
  cat >"$B/svc-hook/.git/hooks/pre-commit" <<'EOF'
#!/bin/sh
echo "pre-commit: checking staged files"
status=0
for f in $(git diff --cached --name-only --diff-filter=ACM -- '*.py'); do
  echo "  lint $f"
  grep -n 'print(' "$f" | sed "s|^|$f:|; s|\$|: T201 print found|" && status=1
  awk -v f="$f" 'length($0) > 79 { printf "%s:%d:%d: E501 line too long (%d > 79 characters)\n", f, NR, 80, length($0); bad=1 } END { exit bad }' "$f" || status=1
done
if [ $status -ne 0 ]; then
  echo "pre-commit: lint failed, commit aborted (use --no-verify to bypass)"
fi
exit $status
EOF
  chmod +x "$B/svc-hook/.git/hooks/pre-commit"
  printf 'def handler_3(req):\n    print("debug", req)\n    return {"route": 3, "ok": True, "payload": req.get("payload"), "trace": req.get("trace_id")}\n' >"$B/svc-hook/src/route_3.py"
  for i in 4 5 6 7; do printf 'def handler_%d(req):\n    return {"route": %d}\n' $i $i >"$B/svc-hook/src/route_$i.py"; done
  printf 'import logging\nlog = logging.getLogger(__name__)\n\n\ndef audit(event):\n    print(event)\n' >"$B/svc-hook/src/audit.py"
  git -C "$B/svc-hook" add -A
  capture batch16 git_commit_pre_commit_hook_fails "$B/svc-hook" "git commit -m 'routes: simplify handlers, add audit'" "$GITV"

  # git format-patch on a branch, git am -3 onto a main that moved
  cp -r "$GR" "$B/svc-am"
  A="$B/svc-am"
  git -C "$A" switch -qc topic HEAD~5
  sed -i 's/RETRIES = 3/RETRIES = 6/' "$A/src/config.py" && git -C "$A" commit -qam "config: six retries"
  printf 'def handler_9(req):\n    return {"route": 9, "ok": False}\n' >"$A/src/route_9.py" && git -C "$A" commit -qam "route 9: report failure"
  echo 'more docs' >>"$A/README.md" && git -C "$A" commit -qam "readme: more docs"
  git -C "$A" format-patch -q -3 -o "$B/patches"
  git -C "$A" switch -q main
  sed -i 's/RETRIES = 3/RETRIES = 2/' "$A/src/config.py" && git -C "$A" commit -qam "config: two retries"
  capture batch16 git_am_3way_conflict "$A" "git am -3 $B/patches/*.patch" "$GITV"

  # git apply --check of a patch made against another version
  cp -r "$GR" "$B/svc-apply"
  git -C "$B/svc-apply" diff HEAD~30 HEAD~25 >"$B/old.patch"
  capture batch16 git_apply_check_rejected "$B/svc-apply" "git apply --check -v $B/old.patch" "$GITV"

  # git diff --check with whitespace errors
  cp -r "$GR" "$B/svc-ws"
  printf 'def handler_4(req):   \n\treturn {"route": 4}  \n \t# mixed\n\n\n' >"$B/svc-ws/src/route_4.py"
  printf '# svc \n\nA small service.\n\n\n' >"$B/svc-ws/README.md"
  printf 'note\t\nconflict marker below\n<<<<<<< HEAD\n' >>"$B/svc-ws/docs/notes_1.md"
  capture batch16 git_diff_check_whitespace "$B/svc-ws" "git diff --check" "$GITV"

  # git bisect run with a test script that skips untestable commits
  cp -r "$GR" "$B/svc-bisect"
  cat >"$B/bisect.sh" <<'EOF'
#!/bin/sh
n=$(grep -c '^def helper_' src/route_5.py)
if grep -q 'helper_16' src/route_5.py && ! grep -q 'helper_28' src/route_5.py; then echo "cannot build this revision"; exit 125; fi
echo "route_5 helpers: $n"
[ "$n" -lt 3 ]
EOF
  chmod +x "$B/bisect.sh"
  capture batch16 git_bisect_run_skip "$B/svc-bisect" "git bisect start HEAD \$(git rev-list --max-parents=0 HEAD) && git bisect run $B/bisect.sh; git bisect log; git bisect reset" "$GITV"

  # git submodule update with a missing submodule repository
  SM="$B/app-sub"
  gitinit "$B/libfoo"
  echo 'int foo(void) { return 1; }' >"$B/libfoo/foo.c" && git -C "$B/libfoo" add -A && git -C "$B/libfoo" commit -qm "libfoo"
  gitinit "$SM"
  echo app >"$SM/README" && git -C "$SM" add -A && git -C "$SM" commit -qm app
  git -C "$SM" -c protocol.file.allow=always submodule -q add "$B/libfoo" vendor/libfoo
  git -C "$SM" commit -qm "add libfoo"
  rm -rf "$B/app-clone" && git clone -q "$SM" "$B/app-clone"
  mv "$B/libfoo" "$B/libfoo-moved"
  capture batch16 git_submodule_update_missing "$B/app-clone" "git -c protocol.file.allow=always submodule update --init --recursive" "$GITV"

  # C: cmake -G Ninja over twenty files with warnings and one error
  CN="$B/cgeo"
  mkdir -p "$CN/src"
  names="vec mat quat ray plane sphere aabb obb frustum hull mesh grid noise spline bezier path rng stats hash arena tri poly edge cell"
  for n in $names; do
    cat >"$CN/src/$n.c" <<EOF
#include <stddef.h>
#include <string.h>

int ${n}_count(const int *v, size_t n) {
  int c = 0;
  for (int i = 0; i < n; i++) {
    if (v[i] > 0) c++;
  }
  return c;
}

double ${n}_scale(double x, int unused) {
  double y;
  return x * 2.0;
}

void ${n}_copy(char *dst, const char *src) {
  strcpy(dst, src);
}
EOF
  done
  cat >>"$CN/src/spline.c" <<'EOF'

double spline_eval(const double *k, int n, double t) {
  return k[0] + t * knot_weight * spline_missing_helper(k, n);
}
struct knot { double t };
EOF
  printf 'cmake_minimum_required(VERSION 3.16)\nproject(cgeo C)\nset(CMAKE_C_STANDARD 11)\nadd_compile_options(-Wall -Wextra)\nfile(GLOB SRC src/*.c)\nadd_library(cgeo STATIC ${SRC})\n' >"$CN/CMakeLists.txt"
  capture batch16 cmake_ninja_twenty_files_warnings_error "$CN" "cmake -S . -B build -G Ninja && cmake --build build -j1 -- -k 0" "$(cmake --version | head -1); $(ninja --version)"

  # meson test --verbose with failing tests
  MS="$B/mstr"
  mkdir -p "$MS"
  cat >"$MS/meson.build" <<'EOF'
project('mstr', 'c')
lib = static_library('mstr', 'mstr.c')
foreach t : ['trim', 'split', 'upper', 'join', 'pad']
  exe = executable('test_' + t, 'test_' + t + '.c', link_with : lib)
  test(t, exe)
endforeach
EOF
  cat >"$MS/mstr.c" <<'EOF'
#include <ctype.h>
#include <string.h>
size_t mstr_trim(char *s) { size_t n = strlen(s); while (n && s[n-1] == ' ') s[--n] = 0; return n; }
int mstr_split(const char *s, char c) { int k = 1; for (; *s; s++) if (*s == c) k++; return k; }
void mstr_upper(char *s) { for (; *s; s++) *s = toupper((unsigned char)*s); }
size_t mstr_join(char *dst, const char *a, const char *b) { strcpy(dst, a); strcat(dst, b); return strlen(dst); }
size_t mstr_pad(char *s, size_t w) { size_t n = strlen(s); while (n < w - 1) s[n++] = ' '; s[n] = 0; return n; }
EOF
  for t in trim split upper join pad; do
    case $t in
      trim) body='char s[] = "abc  "; size_t n = mstr_trim(s); printf("trim: n=%zu s=[%s]\n", n, s); CHECK(n == 3);' ;;
      split) body='int k = mstr_split("a,b,,c", 0x2c); printf("split: %d fields\n", k); CHECK(k == 3);' ;;
      upper) body='char s[] = "hello"; mstr_upper(s); printf("upper: %s\n", s); CHECK(strcmp(s, "HELLO") == 0);' ;;
      join) body='char d[16]; size_t n = mstr_join(d, "ab", "cd"); printf("join: %s (%zu)\n", d, n); CHECK(n == 4);' ;;
      pad) body='char s[8] = "ab"; size_t n = mstr_pad(s, 6); printf("pad: [%s] %zu\n", s, n); CHECK(n == 6);' ;;
    esac
    printf '#include <stdio.h>\n#include <string.h>\n#include <stddef.h>\nsize_t mstr_trim(char*); int mstr_split(const char*, char); void mstr_upper(char*); size_t mstr_join(char*, const char*, const char*); size_t mstr_pad(char*, size_t);\n#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%%s:%%d: check failed: %%s\\n", __FILE__, __LINE__, #c); return 1; } } while (0)\nint main(void) { %s return 0; }\n' "$body" >"$MS/test_$t.c"
  done
  capture batch16 meson_test_verbose_failures "$MS" "meson setup build >/dev/null && meson test -C build --verbose" "meson $(meson --version)"

  # autoreconf + configure + make: long, failing late
  AC="$B/actool"
  mkdir -p "$AC/src"
  cat >"$AC/configure.ac" <<'EOF'
AC_INIT([actool], [0.3.1], [dev@example.com])
AM_INIT_AUTOMAKE([foreign -Wall])
AC_PROG_CC
AC_CHECK_HEADERS([stdlib.h string.h unistd.h fcntl.h sys/time.h])
AC_CHECK_FUNCS([strdup strndup gettimeofday memset])
AC_CONFIG_HEADERS([config.h])
AC_CONFIG_FILES([Makefile src/Makefile])
AC_OUTPUT
EOF
  printf 'SUBDIRS = src\n' >"$AC/Makefile.am"
  srcs=""
  for n in main args buf cfg fmt io log map net opt path str sys tbl util cmd_add cmd_rm cmd_mv cmd_ls cmd_cat cmd_find cmd_grep cmd_sort cmd_uniq cmd_head cmd_tail cmd_cut cmd_join cmd_diff cmd_patch cmd_stat cmd_sum cmd_tee cmd_wc cmd_date cmd_env cmd_kill cmd_ps cmd_top cmd_df; do
    printf '#include "config.h"\n#include <string.h>\nint %s_init(void) { return (int)strlen("%s"); }\n' "$n" "$n" >"$AC/src/$n.c"
    srcs="$srcs $n.c"
  done
  printf '#include "config.h"\nint main(void) { return 0; }\n' >>"$AC/src/main.c"
  sed -i 's/int main_init/static int main_init/' "$AC/src/main.c"
  printf '#include "config.h"\n#include "tbl_private.h"\nint tbl2_init(void) { return TBL_SIZE; }\n' >"$AC/src/tbl2.c"
  printf 'bin_PROGRAMS = actool\nactool_SOURCES =%s tbl2.c\n' "$srcs" >"$AC/src/Makefile.am"
  capture batch16 autoreconf_configure_make_late_error "$AC" "autoreconf -fi && ./configure && make" "$(autoreconf --version | head -1); $(gcc --version | head -1)"

  # pkg-config for a library that is not installed
  capture batch16 pkg_config_missing "$B" "pkg-config --cflags --libs gtk4 libsoup-3.0 zlib" "pkg-config $(pkg-config --version)"

  # a linker version script with errors
  VS="$B/vscript"
  mkdir -p "$VS"
  printf 'int api_open(void) { return 1; }\nint api_close(void) { return 0; }\nint internal_helper(void) { return 2; }\n' >"$VS/api.c"
  printf 'LIBAPI_1.0 {\n  global:\n    api_open;\n    api_close\n  local:\n    *;\n};\nLIBAPI_2.0 {\n  global: api_read;\n} LIBAPI_1.1;\n' >"$VS/libapi.map"
  capture batch16 ld_version_script_error "$VS" "gcc -shared -fPIC -o libapi.so api.c -Wl,--version-script=libapi.map" "$(gcc --version | head -1); $(ld --version | head -1)"

  # nm of the objects, then the link failing on undefined references
  NM="$B/nmproj"
  mkdir -p "$NM"
  for n in alpha beta gamma delta epsilon zeta eta theta iota mu nu xi omicron pi rho sigma; do
    printf 'static int %s_state;\nint %s_counter = 1;\nconst char %s_name[] = "%s";\nint %s_get(void) { return %s_state + %s_counter; }\nvoid %s_set(int v) { %s_state = v; }\nint %s_twice(void) { return 2 * %s_get(); }\n' $n $n $n $n $n $n $n $n $n $n $n >"$NM/$n.c"
  done
  printf 'int alpha_get(void); int beta_get(void); int kappa_get(void); void lambda_reset(int);\nint main(void) { lambda_reset(0); return alpha_get() + beta_get() + kappa_get(); }\n' >"$NM/main.c"
  capture batch16 nm_objects_then_undefined "$NM" "gcc -c *.c && nm -A *.o && gcc -o app *.o" "$(nm --version | head -1)"

  # gcov over a test run
  GC="$B/gcovp"
  mkdir -p "$GC"
  cat >"$GC/calc.c" <<'EOF'
#include <stdio.h>
int classify(int x) {
  if (x < 0) return -1;
  if (x == 0) return 0;
  if (x > 1000) return 2;
  return 1;
}
int safe_div(int a, int b) {
  if (b == 0) {
    fprintf(stderr, "division by zero\n");
    return 0;
  }
  return a / b;
}
int main(void) {
  printf("%d %d %d\n", classify(5), classify(-3), safe_div(10, 2));
  return 0;
}
EOF
  capture batch16 gcov_branches_report "$GC" "gcc --coverage -O0 -o calc calc.c && ./calc && gcov -b -c calc.c && cat calc.c.gcov" "$(gcov --version | head -1)"

  # make install DESTDIR= over many files, one missing at the end
  MI="$B/mkinst"
  mkdir -p "$MI/share/templates" "$MI/man" "$MI/bin"
  for i in $(seq 1 250); do echo "tpl $i" >"$MI/share/templates/page_$i.html"; done
  for i in $(seq 1 30); do echo "man $i" >"$MI/man/tool-sub$i.1"; done
  for i in $(seq 1 25); do printf '#!/bin/sh\necho %d\n' $i >"$MI/bin/tool-sub$i"; done
  cat >"$MI/Makefile" <<'EOF'
PREFIX ?= /usr/local
TEMPLATES := $(wildcard share/templates/*.html)
MANS := $(wildcard man/*.1)
BINS := $(wildcard bin/*)

install: install-bin install-share install-man install-completion

install-bin:
	install -d $(DESTDIR)$(PREFIX)/bin
	for f in $(BINS); do install -v -m 755 $$f $(DESTDIR)$(PREFIX)/bin/; done

install-share:
	install -d $(DESTDIR)$(PREFIX)/share/tool/templates
	for f in $(TEMPLATES); do install -v -m 644 $$f $(DESTDIR)$(PREFIX)/share/tool/templates/; done

install-man:
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	for f in $(MANS); do install -v -m 644 $$f $(DESTDIR)$(PREFIX)/share/man/man1/; done

install-completion:
	install -v -m 644 completion/tool.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tool
EOF
  capture batch16 make_install_destdir_long "$MI" "make install DESTDIR=$B/stage" "$(make --version | head -1)"

  # JUnit 5 console launcher with failures
  JU="$B/junit"
  mkdir -p "$JU/src/com/example/cart" "$JU/test/com/example/cart" "$JU/out"
  cat >"$JU/src/com/example/cart/Cart.java" <<'EOF'
package com.example.cart;

import java.util.ArrayList;
import java.util.List;

public class Cart {
  private final List<Integer> prices = new ArrayList<>();

  public void add(int cents) {
    if (cents < 0) throw new IllegalArgumentException("negative price: " + cents);
    prices.add(cents);
  }

  public int total() {
    int t = 0;
    for (int p : prices) t += p;
    return t;
  }

  public int discounted(int pct) {
    return total() - total() * pct / 100 + 1;
  }

  public int item(int i) {
    return prices.get(i);
  }
}
EOF
  cat >"$JU/test/com/example/cart/CartTest.java" <<'EOF'
package com.example.cart;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CartTest {
  @Test
  void emptyCartTotalsZero() {
    assertEquals(0, new Cart().total());
  }

  @Test
  void addsPrices() {
    Cart c = new Cart();
    c.add(250);
    c.add(100);
    assertEquals(350, c.total());
  }

  @Test
  void rejectsNegativePrice() {
    Cart c = new Cart();
    assertThrows(IllegalStateException.class, () -> c.add(-1));
  }

  @ParameterizedTest
  @CsvSource({"1000, 10, 900", "1000, 0, 1000", "999, 50, 500"})
  void discount(int price, int pct, int expected) {
    Cart c = new Cart();
    c.add(price);
    assertEquals(expected, c.discounted(pct), "discounted total");
  }

  @Test
  void itemOutOfRange() {
    assertEquals(0, new Cart().item(3));
  }

  @Test
  @Disabled("pricing service not wired yet")
  void remotePricing() {
  }
}
EOF
  for cls in Catalog Shipping Tax; do
    {
      printf 'package com.example.cart;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Test;\n\nclass %sTest {\n' "$cls"
      for k in $(seq 1 18); do printf '  @Test\n  void case%02d() {\n    assertEquals(%d, %d + 0);\n  }\n\n' "$k" "$k" "$k"; done
      printf '}\n'
    } >"$JU/test/com/example/cart/${cls}Test.java"
  done
  sed -i 's/assertEquals(13, 13 + 0);/assertEquals(13, Integer.parseInt("0x0d"));/' "$JU/test/com/example/cart/ShippingTest.java"
  JAR=$(ls /usr/share/java/junit-platform-console-standalone*.jar 2>/dev/null | head -1)
  if [ -n "$JAR" ]; then
    javac -d "$JU/out" -cp "$JAR" $(find "$JU/src" "$JU/test" -name '*.java')
    capture batch16 junit5_console_failures "$JU" "java -jar $JAR --class-path out --scan-class-path --disable-banner" "$(java -version 2>&1 | head -1); $(basename "$JAR")"
  fi

  # Ruby: rspec --format json and rubocop --format json
  RB="$B/rbinv"
  mkdir -p "$RB/lib" "$RB/spec"
  cat >"$RB/lib/inventory.rb" <<'EOF'
class Inventory
  def initialize
    @items = Hash.new(0)
  end

  def add(sku, qty)
    raise ArgumentError, "qty must be positive" if qty <= 0
    @items[sku] += qty
  end

  def remove(sku, qty)
    @items[sku] -= qty
  end

  def count(sku)
    @items[sku]
  end

  def skus
    @items.keys.sort
  end
end
EOF
  cat >"$RB/spec/inventory_spec.rb" <<'EOF'
require_relative "../lib/inventory"

RSpec.describe Inventory do
  subject(:inv) { described_class.new }

  it "adds stock" do
    inv.add("A1", 3)
    expect(inv.count("A1")).to eq(3)
  end

  it "rejects zero quantities" do
    expect { inv.add("A1", 0) }.to raise_error(ArgumentError)
  end

  it "never goes below zero" do
    inv.add("A1", 1)
    inv.remove("A1", 5)
    expect(inv.count("A1")).to eq(0)
  end

  it "lists skus sorted" do
    inv.add("b", 1)
    inv.add("a", 1)
    expect(inv.skus).to eq(%w[a b c])
  end

  it "reports totals" do
    expect(inv.total).to eq(0)
  end
end
EOF
  capture batch16 rspec_format_json_failures "$RB" "rspec --format json | jq .; exit \${PIPESTATUS[0]}" "$(rspec --version | tr '\n' ' ')"
  cat >"$RB/lib/report.rb" <<'EOF'
class Report
  def initialize(inv)
    @inv = inv
  end
  def render()
    lines = []
    @inv.skus.each do |sku|
      lines << "%s: %d" % [sku, @inv.count(sku)]
    end
    return lines.join("\n")
  end

  def csv
    out = ""
    @inv.skus.each { |s| out = out + s + "," + @inv.count(s).to_s + "\n" }
    out
  end
end
EOF
  cat >"$RB/lib/pricing.rb" <<'EOF'
module Pricing
  TAX = 0.2
  def self.gross(net)
    return net + net * TAX
  end
  def self.round_cents(x) ; (x * 100).round / 100.0 ; end
  def self.tiers(qty)
    if qty > 100 then :bulk
    elsif qty > 10 then :volume
    else :unit
    end
  end
end
EOF
  capture batch16 rubocop_format_json "$RB" "rubocop --format json lib | jq .; exit \${PIPESTATUS[0]}" "rubocop $(rubocop --version)"

  # bundle install offline with a Gemfile the machine cannot satisfy
  BU="$B/bundleapp"
  mkdir -p "$BU"
  printf 'source "https://rubygems.org"\n\ngem "rake", "~> 13.0"\ngem "sinatra", "~> 4.0"\ngem "pg", "~> 1.5"\n\ngroup :test do\n  gem "rspec", "~> 3.12"\nend\n' >"$BU/Gemfile"
  if command -v bundle >/dev/null; then
    capture batch16 bundle_install_local_missing_gems "$BU" "bundle install --local" "$(bundle --version)"
  fi

  # phpunit with failures, errors and a warning
  PU="$B/phpcart"
  mkdir -p "$PU/src" "$PU/tests"
  cat >"$PU/src/Money.php" <<'EOF'
<?php
declare(strict_types=1);

final class Money
{
    public function __construct(private int $cents, private string $currency = 'EUR') {}

    public function add(Money $o): Money
    {
        return new Money($this->cents + $o->cents, $this->currency);
    }

    public function split(int $parts): array
    {
        $share = intdiv($this->cents, $parts);
        return array_fill(0, $parts, new Money($share, $this->currency));
    }

    public function cents(): int { return $this->cents; }

    public function format(): string
    {
        return sprintf('%.2f %s', $this->cents / 100, $this->currency);
    }
}
EOF
  cat >"$PU/tests/MoneyTest.php" <<'EOF'
<?php
declare(strict_types=1);

require_once __DIR__ . '/../src/Money.php';

use PHPUnit\Framework\TestCase;

final class MoneyTest extends TestCase
{
    public function testAdd(): void
    {
        $this->assertSame(300, (new Money(100))->add(new Money(200))->cents());
    }

    public function testSplitKeepsRemainder(): void
    {
        $parts = (new Money(100))->split(3);
        $sum = array_sum(array_map(fn ($m) => $m->cents(), $parts));
        $this->assertSame(100, $sum, 'split must not lose cents');
    }

    public function testSplitByZero(): void
    {
        $this->assertSame([], (new Money(100))->split(0));
    }

    public function testFormat(): void
    {
        $this->assertEquals('1,50 EUR', (new Money(150))->format());
    }

    public function testCurrencies(): void
    {
        $this->assertEquals(['EUR', 'USD'], ['EUR', 'GBP', 'USD']);
    }

    public function testIncomplete(): void
    {
        $this->markTestIncomplete('rounding rules pending');
    }
}
EOF
  if command -v phpunit >/dev/null; then
    capture batch16 phpunit_failures_errors "$PU" "phpunit --colors=never tests" "$(phpunit --version | head -1)"
  fi

  # PHP under E_ALL: deprecations and warnings over a long import, then a fatal error
  PH="$B/phpimport"
  mkdir -p "$PH"
  cat >"$PH/import.php" <<'EOF'
<?php
class Row { public $id; }
function parse_row(string $line, int $n) {
    $r = new Row();
    $r->id = $n;
    $r->sku = strtoupper(trim($line));
    $parts = explode(';', $line);
    $qty = $parts[2];
    $price = strlen(null) + (int)$parts[1];
    return $r;
}
$rows = [];
for ($i = 1; $i <= 150; $i++) {
    $line = $i % 20 == 0 ? "sku$i;9" : "sku$i;9;3";
    $rows[] = parse_row($line, $i);
    if ($i % 10 == 0) echo "imported $i rows\n";
}
echo "total: " . count($rows) . "\n";
$summary = null;
echo $summary->count() . "\n";
EOF
  capture batch16 php_e_all_deprecations_then_fatal "$PH" "php -d error_reporting=E_ALL -d display_errors=stderr -d log_errors=0 import.php" "$(php -v | head -1)"

  # terraform validate and plan without providers
  TF="$B/tfnet"
  mkdir -p "$TF"
  cat >"$TF/main.tf" <<'EOF'
terraform {
  required_version = ">= 1.5"
}

variable "env" {
  type    = string
  default = "staging"
}

variable "cidrs" {
  type = list(string)
  default = ["10.0.0.0/24", "10.0.1.0/24"]
}

locals {
  name    = "svc-${var.env}"
  subnets = [for c in var.cidrs : cidrsubnet(c, 4, 1)]
  ports   = { http = 80, https = 443 }
}

output "name" {
  value = local.name
}

output "subnets" {
  value = local.subnets
}

output "region" {
  value = var.region
}

output "admin_port" {
  value = local.ports.admin
}

output "first" {
  value = local.subnet[0]
}
EOF
  export TF_CLI_CONFIG_FILE=/dev/null TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
  capture batch16 terraform_validate_errors "$TF" "terraform init -input=false -no-color && terraform validate -no-color" "$(terraform version | head -1)"
  TP="$B/tfplan"
  mkdir -p "$TP"
  cat >"$TP/main.tf" <<'EOF'
variable "replicas" {
  type = number
  validation {
    condition     = var.replicas >= 1 && var.replicas <= 5
    error_message = "replicas must be between 1 and 5."
  }
}

locals {
  settings = jsondecode(file("${path.module}/settings.json"))
  hosts    = [for i in range(var.replicas) : format("web-%02d.internal", i)]
}

output "hosts" {
  value = local.hosts
}

output "tier" {
  value = local.settings.tier
}
EOF
  capture batch16 terraform_plan_var_and_file_errors "$TP" "terraform init -input=false -no-color >/dev/null && terraform plan -input=false -no-color -var replicas=8" "$(terraform version | head -1)"

  TL="$B/tffleet"
  mkdir -p "$TL"
  cat >"$TL/main.tf" <<'EOF'
variable "regions" {
  type    = list(string)
  default = ["eu-west-1", "eu-central-1", "us-east-1", "us-west-2"]
}

variable "per_region" {
  type    = number
  default = 12
}

locals {
  hosts = flatten([for r in var.regions : [for i in range(var.per_region) : "${r}-web-${format("%02d", i)}.internal"]])
  inventory = { for h in local.hosts : h => { role = "web", port = 8080 } }
}

output "hosts" {
  value = local.hosts
}

output "inventory" {
  value = local.inventory
}
EOF
  printf 'per_region = 16\nregion_count = 4\nenvironment = "prod"\n' >"$TL/terraform.tfvars"
  capture batch16 terraform_plan_long_outputs_warnings "$TL" "terraform init -input=false -no-color >/dev/null && terraform plan -input=false -no-color" "$(terraform version | head -1)"

  # kubectl apply --dry-run=client without a cluster
  KB="$B/k8s"
  mkdir -p "$KB"
  cat >"$KB/deploy.yaml" <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports:
            - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
    - port: 80
      targetPort: 80
EOF
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web-config\ndata:\n  LOG_LEVEL: debug\n  replicas: 3\n' >"$KB/config.yaml"
  capture batch16 kubectl_apply_dry_run_client_no_cluster "$KB" "kubectl apply --dry-run=client --validate=false -f . -o name" "$(kubectl version --client 2>&1 | head -1)"

  # logrotate -d over a config with problems
  if command -v logrotate >/dev/null; then
    LR="$B/logrot"
    mkdir -p "$LR/log/app" "$LR/log/worker"
    for i in 1 2 3; do echo x >"$LR/log/app/app-$i.log"; echo y >"$LR/log/worker/w-$i.log"; done
    cat >"$LR/app.conf" <<EOF
$LR/log/app/*.log {
    daily
    rotate 7
    compress
    delaycompress
    missingok
    notifempty
    create 0640 root root
    postrotate
        kill -HUP \$(cat /run/app.pid)
    endscript
}
$LR/log/worker/*.log $LR/log/missing/*.log {
    weekly
    rotate 4
    size 10M
    su nobody nogroup
    compresscmd /usr/bin/zstdx
}
$LR/log/app/app-1.log {
    monthly
    rotat 3
}
EOF
    capture batch16 logrotate_debug_config_errors "$LR" "logrotate -d -s $LR/status app.conf" "$(logrotate --version 2>&1 | head -1)"
  fi

  # strace -c summary of a small workload
  capture batch16 strace_c_summary "$B" "strace -f -c -o /dev/stdout sh -c 'ls -R /usr/share/doc/git >/dev/null; cat /etc/hostname-missing; python3 -c \"import json\"'" "$(strace -V | head -1)"

  # ssh -v to a port nothing listens on
  capture batch16 ssh_v_connection_refused "$B" "ssh -v -o BatchMode=yes -o StrictHostKeyChecking=no -p 2222 deploy@127.0.0.1 true" "$(ssh -V 2>&1)"

  # rsync -avn of a project tree to a stale copy
  if command -v rsync >/dev/null; then
    RS="$B/site"
    mkdir -p "$RS/src/assets/img" "$RS/src/pages" "$RS/dst/pages" "$RS/dst/old"
    for i in $(seq 1 220); do echo "page $i" >"$RS/src/pages/p$i.html"; done
    for i in $(seq 1 110); do echo "img $i" >"$RS/src/assets/img/i$i.png"; done
    for i in $(seq 1 60); do echo "page $i" >"$RS/dst/pages/p$i.html"; done
    for i in $(seq 1 20); do echo "old $i" >"$RS/dst/old/o$i.html"; done
    touch -d '2026-01-01' "$RS"/dst/pages/*.html
    chmod 000 "$RS/src/pages/p77.html"
    capture batch16 rsync_avn_delete_long "$RS" "rsync -avn --delete src/ dst/" "$(rsync --version | head -1)"
  fi

  # docker build without a daemon, with BuildKit's flags
  DK="$B/dockapp"
  mkdir -p "$DK"
  printf 'FROM python:3.12-slim\nWORKDIR /app\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\nCOPY . .\nCMD ["python", "app.py"]\n' >"$DK/Dockerfile"
  capture batch16 docker_build_no_daemon_tagged "$DK" "docker build -t registry.example.com/app:1.4.2 --build-arg PYVER=3.12 ." "$(docker --version)"
fi

# --- batch17: a seventeenth blind batch (Python, JavaScript/TypeScript, Go and Rust with their package
# managers and frameworks, in situations the set lacked: pytest --cov-fail-under with term-missing,
# pytest -k deselecting most, a RecursionError with a teardown error, a long captured log, unittest
# --locals, mypy --warn-unreachable, ruff check --fix leaving unfixable findings, black with a parse
# error, pip install -e of an invalid pyproject.toml, tox -p, pre-commit with local hooks failing,
# alembic upgrade stopping on an IntegrityError, uvicorn with a failing FastAPI lifespan; tsc -b with
# circular references, typescript-eslint type-aware rules over 30 files, mocha spec long, c8
# --check-coverage, rollup circular warnings then a missing export, oxlint, npm ETARGET, pnpm -r test,
# deno test --coverage, deno task of a missing task; go test -fuzz crashing, go build -gcflags=-m,
# go test -count=3 -failfast, a go.work with a missing member, go test -v over 18 packages; a build.rs
# warning storm, compile_error! under --all-features, an integration test that does not compile,
# failing doctests, rustc --explain), captured and its signals written and committed before any
# filter ran on it and before any rule file, filter source, filter test, fixture, bench/corpus file
# or bench/README.md was opened.
if sel batch17; then
  B="$WORK/batch17"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm

  # --- Python ---
  PY="$B/pyproj"
  mkdir -p "$PY/inventory" "$PY/tests"
  PYV="$(python3 --version 2>&1)"
  cat >"$PY/inventory/__init__.py" <<'EOF'
EOF
  for i in $(seq 1 60); do
    cat >"$PY/inventory/mod_$i.py" <<EOF
def stock_$i(items):
    total = 0
    for it in items:
        if it < 0:
            raise ValueError("negative stock in module $i")
        total += it
    return total


def reorder_$i(level, threshold=$i):
    if level < threshold:
        return threshold * 2 - level
    if level > threshold * 10:
        return -1
    return 0


def audit_$i(rows):
    bad = [r for r in rows if r.get("sku") is None]
    if bad:
        return {"module": $i, "missing_sku": len(bad)}
    return None
EOF
    cat >"$PY/tests/test_mod_$i.py" <<EOF
from inventory.mod_$i import stock_$i, reorder_$i


def test_stock_$i():
    assert stock_$i([1, 2, 3]) == 6


def test_reorder_low_$i():
    assert reorder_$i(0) == $(( i * 2 ))
EOF
  done
  # one failing test among the coverage run
  cat >>"$PY/tests/test_mod_17.py" <<'EOF'


def test_reorder_high_17():
    assert reorder_17(500) == 0
EOF
  capture batch17 pytest_cov_fail_under_term_missing "$PY" "python3 -m pytest -q -p no:cacheprovider --cov=inventory --cov-report=term-missing --cov-fail-under=90 tests" "$(python3 -m pytest --version 2>&1)"

  # pytest -k selecting a few of many tests, one of them failing
  capture batch17 pytest_k_deselect_most "$PY" "python3 -m pytest -p no:cacheprovider -v -k 'reorder and (high or 1)' tests" "$(python3 -m pytest --version 2>&1)"

  # pytest: RecursionError deep in a recursive helper, and a teardown error with a warning plugin
  PR="$B/pyrec"
  mkdir -p "$PR/tests"
  cat >"$PR/tree.py" <<'EOF'
def depth(node):
    # a cycle in the parent links makes this recurse forever
    return 1 + depth(node["parent"])


def build_cycle():
    a = {"name": "a"}
    b = {"name": "b", "parent": a}
    a["parent"] = b
    return a
EOF
  cat >"$PR/tests/test_tree.py" <<'EOF'
import warnings

import pytest

from tree import build_cycle, depth


@pytest.fixture
def db():
    conn = {"open": True}
    yield conn
    if conn["open"]:
        raise RuntimeError("connection left open by the test")


def test_depth_cycle():
    assert depth(build_cycle()) == 2


def test_uses_db(db):
    warnings.warn("db.execute() without a transaction is deprecated", DeprecationWarning)
    assert db["open"]


def test_plain():
    assert build_cycle()["parent"]["name"] == "b"
EOF
  capture batch17 pytest_recursion_and_teardown_error "$PR" "python3 -m pytest -p no:cacheprovider -q tests" "$(python3 -m pytest --version 2>&1)"

  # unittest --locals with failures showing locals
  PU="$B/pyunit"
  mkdir -p "$PU"
  cat >"$PU/test_pricing.py" <<'EOF'
import unittest


def price(base, qty, discount):
    subtotal = base * qty
    return round(subtotal - subtotal * discount / 100, 2)


class PricingTest(unittest.TestCase):
    def test_bulk(self):
        items = [("widget", 3.5, 10), ("gadget", 12.0, 4)]
        totals = {name: price(b, q, 5) for name, b, q in items}
        self.assertEqual(totals["widget"], 33.0)

    def test_zero_qty(self):
        result = price(9.99, 0, 0)
        self.assertEqual(result, 0)

    def test_negative_discount(self):
        cfg = {"base": 10, "qty": 2, "discount": -5}
        value = price(cfg["base"], cfg["qty"], cfg["discount"])
        self.assertLessEqual(value, 20, "discount must never raise the price")

    def test_missing_key(self):
        cfg = {"base": 10}
        self.assertEqual(price(cfg["base"], cfg["qty"], 0), 10)


if __name__ == "__main__":
    unittest.main()
EOF
  capture batch17 unittest_locals_failures "$PU" "python3 -m unittest --locals -v test_pricing" "$PYV"

  # mypy --warn-unreachable with notes
  PM="$B/pymypy"
  mkdir -p "$PM/app"
  touch "$PM/app/__init__.py"
  cat >"$PM/app/orders.py" <<'EOF'
from typing import Literal, Optional, Union

Status = Literal["new", "paid", "shipped"]


def label(status: Status) -> str:
    if status == "new":
        return "New"
    elif status == "paid":
        return "Paid"
    elif status == "shipped":
        return "Shipped"
    else:
        return "Unknown"  # never reached


def amount(value: Union[int, str]) -> int:
    if isinstance(value, int):
        return value
    elif isinstance(value, str):
        return int(value)
    raise TypeError(value)
    print("done")


def find(user_id: int) -> Optional[str]:
    if user_id > 0:
        return "user"
    return None


def greet(user_id: int) -> str:
    name = find(user_id)
    if isinstance(name, int):
        return f"id {name}"
    return "Hello " + name


def total(xs: list[int]) -> int:
    s = 0
    for x in xs:
        if x is None:
            continue
        s += x
    return s
EOF
  cat >"$PM/app/shipping.py" <<'EOF'
from app.orders import label, amount


def ship(order: dict[str, object]) -> str:
    cost: int = amount(order["cost"])
    return label(order["status"]) + str(cost)


def weight(grams: float) -> int:
    if isinstance(grams, float):
        return round(grams)
    return grams // 1000
EOF
  capture batch17 mypy_warn_unreachable_notes "$PM" "python3 -m mypy --warn-unreachable --strict-equality app" "$(python3 -m mypy --version)"

  # ruff check --fix with some findings left unfixable
  PF="$B/pyruff"
  mkdir -p "$PF/src"
  for i in $(seq 1 6); do
    cat >"$PF/src/job_$i.py" <<EOF
import os, sys
import json
from typing import List


def run_$i(paths: List[str] = []):
    try:
        data = json.load(open(paths[0]))
    except:
        pass
    l = lambda x: x * $i
    if data == None:
        return
    print(f"done")
    return l(len(data))
EOF
  done
  printf '[tool.ruff.lint]\nselect = ["E", "F", "W", "UP", "B", "SIM"]\n' >"$PF/pyproject.toml"
  capture batch17 ruff_check_fix_unfixable_left "$PF" "ruff check --fix src" "$(ruff --version)"

  # black over a package where one file does not parse
  PB="$B/pyblack"
  mkdir -p "$PB/pkg"
  for i in $(seq 1 9); do
    printf 'def f_%d( a,b ):\n  return {"a":a,"b":b}\n' "$i" >"$PB/pkg/m$i.py"
  done
  printf 'def broken(:\n    return 1\n' >"$PB/pkg/m5.py"
  printf 'x = 1\n' >"$PB/pkg/ok.py"
  capture batch17 black_parse_error_among_reformat "$PB" "black pkg" "$(black --version | head -1)"

  # pip install -e . with an invalid pyproject.toml
  PE="$B/pyedit"
  mkdir -p "$PE/src/ledger"
  touch "$PE/src/ledger/__init__.py"
  cat >"$PE/pyproject.toml" <<'EOF'
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "ledger"
version = "0.3.0"
requires-python = ">=3.9"
dependencies = "requests>=2"
license = {file = "LICENSE", text = "MIT"}

[tool.setuptools.packages.find]
where = ["src"]
EOF
  capture batch17 pip_install_editable_bad_pyproject "$PE" "python3 -m pip install --no-build-isolation --no-deps -e ." "$(python3 -m pip --version)"

  # tox -p with two of four envs failing
  PT="$B/pytox"
  mkdir -p "$PT"
  cat >"$PT/tox.ini" <<'EOF'
[tox]
envlist = unit, lint, types, docs
skipsdist = true

[testenv]
skip_install = true
allowlist_externals = python3, sh

[testenv:unit]
commands = python3 -c "import sys; print('ran 42 tests'); sys.exit(0)"

[testenv:lint]
commands = sh -c "echo 'src/app.py:3:1: F401 os imported but unused'; echo 'src/app.py:9:80: E501 line too long (96 > 79 characters)'; exit 1"

[testenv:types]
commands = sh -c "echo 'src/app.py:12: error: Incompatible return value type (got \"str\", expected \"int\")  [return-value]'; echo 'Found 1 error in 1 file (checked 4 source files)'; exit 1"

[testenv:docs]
commands = python3 -c "print('build succeeded, 3 warnings.')"
EOF
  capture batch17 tox_parallel_two_envs_fail "$PT" "tox -p 2" "$(tox --version 2>&1 | head -1)"

  # pytest with log capture: a failing test whose captured log is long
  PL="$B/pylog"
  mkdir -p "$PL"
  cat >"$PL/test_sync.py" <<'EOF'
import logging

log = logging.getLogger("sync")


def sync(records):
    done = 0
    for i, r in enumerate(records):
        log.info("syncing record %d id=%s", i, r["id"])
        if r.get("stale"):
            log.warning("record %s is stale, skipping", r["id"])
            continue
        done += 1
    log.error("remote rejected batch: 409 Conflict (etag mismatch on id=%s)", records[-1]["id"])
    return done


def test_sync_all():
    records = [{"id": f"r{i:03d}", "stale": i % 37 == 0} for i in range(320)]
    assert sync(records) == 320


def test_sync_empty_ok():
    assert sync([{"id": "only"}]) == 1
EOF
  capture batch17 pytest_captured_log_long "$PL" "python3 -m pytest -p no:cacheprovider --log-level=INFO -q test_sync.py" "$(python3 -m pytest --version 2>&1)"

  # pre-commit run --all-files with local hooks, three of five failing
  PC="$B/pyprecommit"
  mkdir -p "$PC/src"
  git init -q -b main "$PC" && git -C "$PC" config user.email dev@example.com && git -C "$PC" config user.name Dev
  printf 'import os\n\n\ndef main():\n    print("hi")   \n    breakpoint()\n' >"$PC/src/app.py"
  printf 'TODO = 1\npassword = "hunter2"\n' >"$PC/src/settings.py"
  for i in $(seq 1 8); do
    printf 'import sys, json\n\n\ndef task_%d(x=[]):\n    try:\n        return json.loads(x)\n    except:\n        return None\n' "$i" >"$PC/src/task_$i.py"
  done
  printf 'key: [unclosed\n' >"$PC/config.yaml"
  printf 'no newline at end' >"$PC/README.md"
  cat >"$PC/.pre-commit-config.yaml" <<'EOF'
repos:
  - repo: local
    hooks:
      - id: no-breakpoints
        name: forbid breakpoint()
        entry: 'breakpoint\(\)'
        language: pygrep
        types: [python]
      - id: no-secrets
        name: forbid hard-coded passwords
        entry: '(?i)password\s*=\s*"'
        language: pygrep
      - id: yaml-parse
        name: yaml parses
        entry: python3 -c 'import sys,yaml; [yaml.safe_load(open(f)) for f in sys.argv[1:]]'
        language: system
        types: [yaml]
      - id: ruff
        name: ruff
        entry: ruff check --select E,F,B
        language: system
        types: [python]
      - id: compile
        name: python compiles
        entry: python3 -m py_compile
        language: system
        types: [python]
EOF
  git -C "$PC" add -A
  capture batch17 pre_commit_run_all_files_local_hooks "$PC" "PRE_COMMIT_HOME=$B/pre-commit-home pre-commit run --all-files" "$(pre-commit --version)"

  # alembic upgrade head failing in the third revision (sqlite)
  PA="$B/pyalembic"
  rm -rf "$PA" && mkdir -p "$PA" && (cd "$PA" && alembic init migrations >/dev/null 2>&1)
  sed -i 's|^sqlalchemy.url = .*|sqlalchemy.url = sqlite:///app.db|' "$PA/alembic.ini"
  mkdir -p "$PA/migrations/versions"
  cat >"$PA/migrations/versions/0001_users.py" <<'EOF'
"""users"""
from alembic import op
import sqlalchemy as sa

revision = "0001"
down_revision = None


def upgrade():
    op.create_table("users", sa.Column("id", sa.Integer, primary_key=True), sa.Column("email", sa.String(200), nullable=False))


def downgrade():
    op.drop_table("users")
EOF
  cat >"$PA/migrations/versions/0002_orders.py" <<'EOF'
"""orders"""
from alembic import op
import sqlalchemy as sa

revision = "0002"
down_revision = "0001"


def upgrade():
    op.create_table("orders", sa.Column("id", sa.Integer, primary_key=True), sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id")))


def downgrade():
    op.drop_table("orders")
EOF
  cat >"$PA/migrations/versions/0003_email_unique.py" <<'EOF'
"""email unique"""
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade():
    op.execute("INSERT INTO users (id, email) VALUES (1, 'a@example.com'), (2, 'a@example.com')")
    op.create_index("ix_users_email", "users", ["email"], unique=True)


def downgrade():
    op.drop_index("ix_users_email")
EOF
  capture batch17 alembic_upgrade_head_integrity_error "$PA" "alembic upgrade head" "alembic $(python3 -c 'import alembic;print(alembic.__version__)')"

  # uvicorn: a FastAPI app whose lifespan start-up fails
  PV="$B/pyfastapi"
  mkdir -p "$PV"
  cat >"$PV/main.py" <<'EOF'
import os
from contextlib import asynccontextmanager

from fastapi import FastAPI


def connect(url):
    if not url:
        raise RuntimeError("DATABASE_URL is not set")
    return url


@asynccontextmanager
async def lifespan(app):
    app.state.db = connect(os.environ.get("DATABASE_URL"))
    yield


app = FastAPI(lifespan=lifespan)


@app.get("/health")
def health():
    return {"ok": True}
EOF
  capture batch17 uvicorn_fastapi_lifespan_startup_fails "$PV" "env -u DATABASE_URL timeout 20 uvicorn main:app --port 18765" "uvicorn $(python3 -c 'import uvicorn;print(uvicorn.__version__)'), fastapi $(python3 -c 'import fastapi;print(fastapi.__version__)')"

  # --- JavaScript / TypeScript ---
  # dev tools installed once from the npm registry into a scratch directory
  JD="$WORK/jsdeps"
  if [ ! -d "$JD/node_modules/typescript" ]; then
    mkdir -p "$JD" && (cd "$JD" && npm init -y >/dev/null && npm i typescript@5 eslint@9 typescript-eslint@8 mocha@10 c8@10 rollup@4 oxlint >/dev/null 2>&1)
  fi
  NB="$JD/node_modules/.bin"

  # tsc -b with project references that form a cycle
  TR="$B/tsrefs"
  mkdir -p "$TR/core/src" "$TR/api/src" "$TR/web/src"
  for p in core api web; do
    printf 'export const %s = "%s";\n' "$p" "$p" >"$TR/$p/src/index.ts"
  done
  printf '{ "compilerOptions": { "composite": true, "outDir": "dist", "rootDir": "src" }, "include": ["src"], "references": [{ "path": "../web" }] }\n' >"$TR/core/tsconfig.json"
  printf '{ "compilerOptions": { "composite": true, "outDir": "dist", "rootDir": "src" }, "include": ["src"], "references": [{ "path": "../core" }] }\n' >"$TR/api/tsconfig.json"
  printf '{ "compilerOptions": { "composite": true, "outDir": "dist", "rootDir": "src" }, "include": ["src"], "references": [{ "path": "../api" }] }\n' >"$TR/web/tsconfig.json"
  printf '{ "files": [], "references": [{ "path": "core" }, { "path": "api" }, { "path": "web" }] }\n' >"$TR/tsconfig.json"
  capture batch17 tsc_build_circular_references "$TR" "$NB/tsc -b --verbose" "tsc $($NB/tsc -v)"

  # eslint with typescript-eslint type-aware rules over 30 files
  TE="$B/tslint"
  mkdir -p "$TE/src"
  cat >"$TE/tsconfig.json" <<'EOF'
{ "compilerOptions": { "strict": true, "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler", "noEmit": true }, "include": ["src"] }
EOF
  cat >"$TE/eslint.config.mjs" <<EOF
import tseslint from "$JD/node_modules/typescript-eslint/dist/index.js";
export default tseslint.config(
  ...tseslint.configs.recommendedTypeChecked,
  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } },
);
EOF
  for i in $(seq 1 30); do
    cat >"$TE/src/svc$i.ts" <<EOF
export async function fetchUser$i(id: number): Promise<any> {
  const res = await fetch("/api/users/" + id);
  return res.json();
}

export function load$i(ids: number[]) {
  ids.forEach(async (id) => {
    const user = await fetchUser$i(id);
    console.log(user.name.toUpperCase());
  });
  fetchUser$i(0);
  const raw: any = JSON.parse("{}");
  return raw.items.length + "$i";
}
EOF
  done
  cat >>"$TE/src/svc13.ts" <<'EOF'

export function broken(x: number): string {
  return x.toFixed(2) as unknown as number;
}
EOF
  capture batch17 eslint_typescript_type_aware_thirty_files "$TE" "$NB/eslint src" "eslint $($NB/eslint --version)"

  # mocha --reporter spec, long, with failures at the end
  MO="$B/mochaproj"
  mkdir -p "$MO/test"
  for s in $(seq 1 12); do
    {
      echo "const assert = require('node:assert');"
      echo "describe('catalog module $s', function () {"
      for t in $(seq 1 22); do
        echo "  it('computes price table row $t', function () { assert.strictEqual($t * 2, $(( t * 2 ))); });"
      done
      echo "});"
    } >"$MO/test/catalog$s.spec.js"
  done
  cat >"$MO/test/checkout.spec.js" <<'EOF'
const assert = require('node:assert');
describe('checkout', function () {
  it('applies the coupon once', function () {
    const total = [10, 20, 30].reduce((a, b) => a + b, 0) * 0.9 * 0.9;
    assert.strictEqual(total, 54);
  });
  it('rejects an expired card', async function () {
    const err = await Promise.resolve(null);
    assert.ok(err, 'expected a CardExpired error');
  });
  it('rounds tax per line', function () {
    assert.deepStrictEqual({ net: 10, tax: 1.9, lines: [1.9] }, { net: 10, tax: 1.9, lines: [1.90, 0] });
  });
});
EOF
  capture batch17 mocha_spec_long_failures_at_end "$MO" "$NB/mocha --reporter spec 'test/*.spec.js'" "mocha $($NB/mocha --version)"

  # c8 with --check-coverage under node --test
  C8="$B/c8proj"
  mkdir -p "$C8/lib" "$C8/test"
  for i in $(seq 1 20); do
    cat >"$C8/lib/util$i.js" <<EOF
exports.clamp$i = (v, lo, hi) => (v < lo ? lo : v > hi ? hi : v);
exports.parse$i = (s) => {
  if (typeof s !== 'string') throw new TypeError('expected string');
  const n = Number(s);
  if (Number.isNaN(n)) return null;
  return n * $i;
};
exports.unused$i = () => {
  return 'never called $i';
};
EOF
    printf "const test = require('node:test');\nconst assert = require('node:assert');\nconst u = require('../lib/util%d.js');\ntest('clamp %d', () => { assert.strictEqual(u.clamp%d(5, 0, 3), 3); });\n" "$i" "$i" "$i" >"$C8/test/util$i.test.js"
  done
  capture batch17 c8_check_coverage_node_test "$C8" "$NB/c8 --check-coverage --lines 90 --branches 80 --reporter=text node --test test/" "c8 $($NB/c8 --version)"

  # rollup: circular dependency warnings, then a missing export error
  RO="$B/rollupproj"
  mkdir -p "$RO/src"
  printf "import { b } from './b.js';\nexport const a = () => b() + 1;\n" >"$RO/src/a.js"
  printf "import { a } from './a.js';\nexport const b = () => 2;\nexport const c = () => a();\n" >"$RO/src/b.js"
  printf "import { a } from './a.js';\nimport { c } from './b.js';\nimport { format } from './fmt.js';\nimport lodash from 'lodash';\nconsole.log(format(a() + c()), this, lodash);\n" >"$RO/src/main.js"
  printf "export const formatNumber = (n) => n.toFixed(2);\n" >"$RO/src/fmt.js"
  capture batch17 rollup_circular_then_missing_export "$RO" "$NB/rollup src/main.js --file dist/bundle.js --format es" "rollup $($NB/rollup --version)"

  # oxlint over a small app
  OX="$B/oxproj"
  mkdir -p "$OX/src"
  for i in $(seq 1 10); do
    cat >"$OX/src/page$i.js" <<EOF
import { useState } from "react";
export function Page$i(props) {
  var count = 0;
  if (props.id == null) { debugger; }
  const [x, setX] = useState(0);
  for (let i = 0; i < 10; i--) { count++; }
  if (typeof props.name === "strng") return null;
  return props.items.map(item => item.id === NaN ? null : item);
}
EOF
  done
  capture batch17 oxlint_findings_ten_files "$OX" "$NB/oxlint src" "$($NB/oxlint --version)"

  # npm install of a version that does not exist
  NT="$B/npmtarget"
  mkdir -p "$NT"
  printf '{ "name": "npmtarget", "version": "1.0.0", "dependencies": { "left-pad": "^1.3.0", "is-odd": "^99.0.0" } }\n' >"$NT/package.json"
  capture batch17 npm_install_etarget_no_version "$NT" "npm install --no-audit --no-fund" "npm $(npm --version)"

  # pnpm -r test: three workspace packages, two failing
  PW="$B/pnpmws"
  mkdir -p "$PW/packages/auth/test" "$PW/packages/billing/test" "$PW/packages/ui/test"
  printf 'packages:\n  - "packages/*"\n' >"$PW/pnpm-workspace.yaml"
  printf '{ "name": "ws-root", "private": true }\n' >"$PW/package.json"
  for p in auth billing ui; do
    printf '{ "name": "@ws/%s", "version": "1.0.0", "scripts": { "test": "node --test test/" } }\n' "$p" >"$PW/packages/$p/package.json"
  done
  printf "const test = require('node:test');\nconst assert = require('node:assert');\ntest('token expires', () => { assert.strictEqual(3600, 3600); });\n" >"$PW/packages/auth/test/a.test.js"
  printf "const test = require('node:test');\nconst assert = require('node:assert');\ntest('invoice total', () => { assert.strictEqual(0.1 + 0.2, 0.3); });\ntest('currency', () => { assert.strictEqual('EUR', 'EUR'); });\n" >"$PW/packages/billing/test/b.test.js"
  printf "const test = require('node:test');\nconst assert = require('node:assert');\ntest('button label', () => { assert.match('Sbumit', /Submit/); });\n" >"$PW/packages/ui/test/u.test.js"
  capture batch17 pnpm_r_test_two_packages_fail "$PW" "pnpm -r --no-bail test" "pnpm $(pnpm --version)"

  # deno test --coverage with a failure, and deno task of a missing task
  DN="$B/denoproj"
  mkdir -p "$DN"
  DENO="$ROOT/node_modules/deno/deno"
  cat >"$DN/math.ts" <<'EOF'
export function mean(xs: number[]): number {
  if (xs.length === 0) throw new RangeError("mean of empty list");
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
export function median(xs: number[]): number {
  const s = [...xs].sort();
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
export function mode(xs: number[]): number | undefined {
  return xs[0];
}
EOF
  cat >"$DN/math_test.ts" <<'EOF'
import { mean, median } from "./math.ts";
Deno.test("mean", () => {
  if (mean([1, 2, 3]) !== 2) throw new Error("mean wrong");
});
Deno.test("median sorts numerically", () => {
  const got = median([10, 9, 2]);
  if (got !== 9) throw new Error(`median: expected 9, got ${got}`);
});
EOF
  printf '{ "tasks": { "test": "deno test --coverage=cov", "lint": "deno lint" } }\n' >"$DN/deno.json"
  capture batch17 deno_test_coverage_failure "$DN" "$DENO test --coverage=cov && $DENO coverage cov" "$($DENO --version | head -1)"
  capture batch17 deno_task_missing_task "$DN" "$DENO task build" "$($DENO --version | head -1)"

  # --- Go ---
  GV="$(go version)"
  export GOPROXY=off
  GF="$B/gofuzz"
  mkdir -p "$GF"
  printf 'module example.com/parse\n\ngo 1.19\n' >"$GF/go.mod"
  cat >"$GF/parse.go" <<'EOF'
package parse

import "strings"

// Header splits "Key: Value" and panics on a value that starts with a colon.
func Header(s string) (string, string) {
	i := strings.Index(s, ":")
	if i < 0 {
		return s, ""
	}
	v := strings.TrimSpace(s[i+1:])
	if len(v) > 1 && v[0] == ':' {
		var m map[string]int
		m[v] = 1
	}
	return s[:i], v
}
EOF
  cat >"$GF/parse_test.go" <<'EOF'
package parse

import "testing"

func FuzzHeader(f *testing.F) {
	f.Add("Host: example.com")
	f.Add("Accept: */*")
	f.Fuzz(func(t *testing.T, s string) {
		k, _ := Header(s)
		if len(k) > len(s) {
			t.Fatalf("key longer than input")
		}
	})
}
EOF
  capture batch17 go_test_fuzz_crash_input "$GF" "go test -run '^$' -fuzz FuzzHeader -fuzztime 60s ." "$GV"

  # go build -gcflags=-m over a package: escape analysis (long, exit 0)
  GE="$B/goescape"
  mkdir -p "$GE"
  printf 'module example.com/esc\n\ngo 1.19\n' >"$GE/go.mod"
  for i in $(seq 1 14); do
    cat >"$GE/f$i.go" <<EOF
package esc

import "fmt"

type Rec$i struct{ ID int; Name string; Tags []string }

func New$i(id int, name string) *Rec$i { return &Rec$i{ID: id, Name: name, Tags: make([]string, 0, 4)} }

func (r *Rec$i) String() string { return fmt.Sprintf("%d:%s:%v", r.ID, r.Name, r.Tags) }

func Sum$i(xs []int) int { s := 0; for _, x := range xs { s += x }; return s }

func Closure$i() func() int { n := $i; return func() int { n++; return n } }

func Log$i(v interface{}) { fmt.Println("rec", $i, v) }
EOF
  done
  capture batch17 go_build_gcflags_m_escape "$GE" "go build -gcflags=-m ./..." "$GV"

  # go test -count=3 -failfast with a flaky-by-state test
  GC="$B/gocount"
  mkdir -p "$GC"
  printf 'module example.com/cache\n\ngo 1.19\n' >"$GC/go.mod"
  cat >"$GC/cache.go" <<'EOF'
package cache

var store = map[string]int{}

func Put(k string, v int) { store[k] = v }
func Len() int            { return len(store) }
EOF
  cat >"$GC/cache_test.go" <<'EOF'
package cache

import (
	"fmt"
	"testing"
)

func TestPutOne(t *testing.T) {
	Put(fmt.Sprint("k", Len()), 1)
	if Len() != 1 {
		t.Fatalf("Len() = %d after one Put, want 1 (state leaks between runs)", Len())
	}
}

func TestLater(t *testing.T) {
	t.Log("later test runs")
}
EOF
  capture batch17 go_test_count3_failfast "$GC" "go test -count=3 -failfast -v ." "$GV"

  # go work: a workspace whose member module moved, then a build across members
  GW="$B/gowork"
  mkdir -p "$GW/api" "$GW/lib" "$GW/worker"
  printf 'module example.com/api\n\ngo 1.19\n\nrequire example.com/lib v0.0.0\n' >"$GW/api/go.mod"
  printf 'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/lib"\n)\n\nfunc main() { fmt.Println(lib.Greet("api", 2)) }\n' >"$GW/api/main.go"
  printf 'module example.com/lib\n\ngo 1.19\n' >"$GW/lib/go.mod"
  printf 'package lib\n\nfunc Greet(name string) string { return "hi " + name }\n' >"$GW/lib/lib.go"
  printf 'module example.com/worker\n\ngo 1.19\n\nrequire example.com/lib v0.0.0\n' >"$GW/worker/go.mod"
  printf 'package main\n\nimport "example.com/lib"\n\nfunc main() { var n int = lib.Greet("w"); _ = n }\n' >"$GW/worker/main.go"
  printf 'go 1.19\n\nuse (\n\t./api\n\t./lib\n\t./tools\n)\n' >"$GW/go.work"
  capture batch17 go_work_missing_member_then_build_errors "$GW" "go build ./api/... ; go work edit -dropuse=./tools && go work use ./worker && go build ./api/... ./worker/..." "$GV"

  # go test ./... with a build failure in one test file among passing packages, -v noisy
  GT="$B/gopkgs"
  mkdir -p "$GT"
  printf 'module example.com/shop\n\ngo 1.19\n' >"$GT/go.mod"
  for p in audit auth cart catalog checkout coupons invoice ledger mail orders pricing refunds search shipping stock tax users wishlist; do
    mkdir -p "$GT/$p"
    printf 'package %s\n\nfunc Double(x int) int { return x * 2 }\n' "$p" >"$GT/$p/$p.go"
    {
      printf 'package %s\n\nimport "testing"\n\n' "$p"
      for t in $(seq 1 8); do printf 'func TestDouble%d(t *testing.T) {\n\tif Double(%d) != %d {\n\t\tt.Fatal("bad")\n\t}\n}\n\n' "$t" "$t" $(( t * 2 )); done
    } >"$GT/$p/${p}_test.go"
  done
  printf 'package pricing\n\nimport "testing"\n\nfunc TestRound(t *testing.T) {\n\tvar got int = Round(2.5)\n\tif got != 3 {\n\t\tt.Errorf("Round(2.5) = %%d, want 3", got)\n\t}\n}\n' >"$GT/pricing/round_test.go"
  printf 'package tax\n\nimport "testing"\n\nfunc TestVAT(t *testing.T) {\n\tfor _, c := range []struct{ in, want int }{{100, 119}, {0, 0}, {50, 60}} {\n\t\tif got := Double(c.in)/2 + c.in*19/100; got != c.want {\n\t\t\tt.Errorf("VAT(%%d) = %%d, want %%d", c.in, got, c.want)\n\t\t}\n\t}\n}\n' >"$GT/tax/vat_test.go"
  capture batch17 go_test_v_packages_build_fail_and_fail "$GT" "go test -v ./..." "$GV"

  # --- Rust ---
  RV="$(cargo --version)"
  # build.rs printing a storm of cargo:warning lines, then an error in the crate
  RB="$B/rsbuild"
  mkdir -p "$RB/src"
  printf '[package]\nname = "gen"\nversion = "0.1.0"\nedition = "2021"\n' >"$RB/Cargo.toml"
  cat >"$RB/build.rs" <<'EOF'
fn main() {
    for i in 0..160 {
        println!("cargo:warning=schema field `field_{i}` has no doc comment; generated accessor is undocumented");
    }
    println!("cargo:warning=schema table `orders` references unknown table `customers_v2`");
    println!("cargo:rerun-if-changed=schema.sql");
}
EOF
  printf 'pub fn total(xs: &[u32]) -> u32 {\n    xs.iter().sum::<u64>()\n}\n' >"$RB/src/lib.rs"
  capture batch17 cargo_build_build_rs_warning_storm "$RB" "cargo build 2>&1" "$RV"

  # compile_error! from mutually exclusive features, plus cfg warnings
  RF="$B/rsfeat"
  mkdir -p "$RF/src"
  printf '[package]\nname = "tls"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\ndefault = ["rustls"]\nrustls = []\nnative = []\n' >"$RF/Cargo.toml"
  cat >"$RF/src/lib.rs" <<'EOF'
#[cfg(all(feature = "rustls", feature = "native"))]
compile_error!("features `rustls` and `native` are mutually exclusive; pick one TLS backend");

#[cfg(feature = "openssl")]
pub fn backend() -> &'static str { "openssl" }

#[cfg(feature = "rustls")]
pub fn backend() -> &'static str { "rustls" }
EOF
  capture batch17 cargo_check_all_features_compile_error "$RF" "cargo check --all-features 2>&1" "$RV"

  # cargo test where the lib tests pass but an integration test does not compile
  RT="$B/rstests"
  mkdir -p "$RT/src" "$RT/tests"
  printf '[package]\nname = "queue"\nversion = "0.1.0"\nedition = "2021"\n' >"$RT/Cargo.toml"
  {
    echo 'pub struct Queue { items: Vec<u32> }'
    echo 'impl Queue { pub fn new() -> Self { Queue { items: Vec::new() } } pub fn push(&mut self, x: u32) { self.items.push(x) } pub fn len(&self) -> usize { self.items.len() } }'
    echo '#[cfg(test)] mod tests { use super::*;'
    for t in $(seq 1 40); do echo "  #[test] fn push_$t() { let mut q = Queue::new(); for i in 0..$t { q.push(i) } assert_eq!(q.len(), $t); }"; done
    echo '}'
  } >"$RT/src/lib.rs"
  cat >"$RT/tests/api.rs" <<'EOF'
use queue::Queue;

#[test]
fn pop_returns_first() {
    let mut q = Queue::new();
    q.push(1);
    assert_eq!(q.pop(), Some(1));
    let n: u32 = q.len();
}
EOF
  capture batch17 cargo_test_integration_compile_error "$RT" "cargo test 2>&1" "$RV"

  # cargo test --doc with failing doc examples
  RD="$B/rsdoc"
  mkdir -p "$RD/src"
  printf '[package]\nname = "units"\nversion = "0.1.0"\nedition = "2021"\n' >"$RD/Cargo.toml"
  cat >"$RD/src/lib.rs" <<'EOF'
/// Converts kilometres to miles.
///
/// ```
/// assert_eq!(units::km_to_miles(10.0), 6.21);
/// ```
pub fn km_to_miles(km: f64) -> f64 { km * 0.621371 }

/// Parses "12kg".
///
/// ```
/// let g = units::parse_grams("12kg").unwrap();
/// assert_eq!(g, 12000);
/// ```
pub fn parse_grams(s: &str) -> Option<u64> { s.strip_suffix("kg")?.parse::<u64>().ok().map(|k| k * 1000) }

/// Celsius to Fahrenheit.
///
/// ```
/// let f = units::c_to_f(100);
/// ```
pub fn c_to_f(c: f64) -> f64 { c * 9.0 / 5.0 + 32.0 }
EOF
  for i in $(seq 1 40); do
    printf '\n/// Scales by %d.\n///\n/// ```\n/// assert_eq!(units::scale_%d(2), %d);\n/// ```\npub fn scale_%d(x: u64) -> u64 { x * %d }\n' "$i" "$i" $(( i * 2 )) "$i" "$i" >>"$RD/src/lib.rs"
  done
  capture batch17 cargo_test_doc_failures "$RD" "cargo test --doc 2>&1" "$RV"

  # rustc --explain (exit 0, reference text)
  capture batch17 rustc_explain_e0502 "$B" "rustc --explain E0502" "$(rustc --version)"
fi

# --- batch18: an eighteenth blind batch (git, C/C++ and build systems, JVM, Ruby, PHP, databases,
# containers and system tools in situations the set lacked: rebase -i --autosquash conflict,
# cherry-pick -x of a merge refused, merge --squash conflicts, log --graph over many merges long,
# shortlog -sne, fsck --full with dangling objects and a corrupt one, show --stat of a big commit,
# diff --name-status long; g++ -std=c++20 ranges errors,
# cppcheck --enable=all long, helgrind race, massif + ms_print, gdb thread apply all bt of an
# abort, cmake --preset build then ctest, ctest --rerun-failed; ant build with javac errors, junit
# failures and javadoc doclint, javac -Xlint then java -ea assertion; ruby -w warnings then a crash, rake multitask
# failure, phpcs findings, php -S access log; psql migration with notices and
# errors, pg_dump long, sqlite3 script with many errors; dpkg -i dependency problems,
# find -L -ls long with a loop, curl -v -L redirects to a 500), captured and its
# signals written and committed before any filter ran on it and before any rule file, filter
# source, filter test, fixture, bench/corpus file or bench/README.md was opened.
if sel batch18; then
  B="$WORK/batch18"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  GITV="$(git --version)"
  gitinit() { git init -q -b main "$1" && git -C "$1" config user.email dev@example.com && git -C "$1" config user.name Dev; }
  export GIT_AUTHOR_DATE="2026-11-21T09:00:00Z" GIT_COMMITTER_DATE="2026-11-21T09:00:00Z"

  # git: an inventory service with feature branches merged back (many merges)
  GR="$B/inv"
  gitinit "$GR"
  mkdir -p "$GR/inv" "$GR/tests"
  printf 'MAX_ITEMS = 100\nTIMEOUT = 30\n' >"$GR/inv/settings.py"
  printf '# inventory\n' >"$GR/README.md"
  git -C "$GR" add -A && git -C "$GR" commit -qm "init inventory service"
  people=("Ana Lima <ana@example.com>" "Bo Chen <bo@example.com>" "Cy Park <cy@example.com>" "Dee Roy <dee@example.com>")
  for f in $(seq 1 60); do
    who="${people[$((f % 4))]}"
    git -C "$GR" switch -qc "feat/item-$f"
    for s in 1 2 3; do
      printf 'def item_%d_step_%d(stock):\n    return stock - %d\n' "$f" "$s" "$s" >>"$GR/inv/item_$f.py"
      git -C "$GR" add -A && git -C "$GR" commit -q --author="$who" -m "item $f: step $s of stock handling"
    done
    git -C "$GR" switch -q main
    git -C "$GR" merge -q --no-ff -m "Merge branch 'feat/item-$f'" "feat/item-$f"
  done
  git -C "$GR" tag v1.0
  capture batch18 git_log_graph_format_merges_long "$GR" "git log --graph --format='%h %an %s'" "$GITV"
  capture batch18 git_shortlog_sne "$GR" "git shortlog -sne --all" "$GITV"

  # a big refactor commit: show --stat and diff --name-status
  cp -r "$GR" "$B/inv-big"
  BG="$B/inv-big"
  mkdir -p "$BG/inventory/items"
  for f in $(seq 1 30); do git -C "$BG" mv "inv/item_$f.py" "inventory/items/item_$f.py"; done
  for f in $(seq 1 30 | shuf --random-source=<(yes)); do [ $((f % 3)) = 0 ] && sed -i 's/stock - /stock - 2 * /' "$BG/inventory/items/item_$f.py"; done
  for f in $(seq 1 200); do printf 'def test_item_%d():\n    assert True\n' "$f" >"$BG/tests/test_item_$f.py"; done
  git -C "$BG" rm -q inv/settings.py
  printf 'MAX_ITEMS = 500\n' >"$BG/inventory/settings.py"
  git -C "$BG" add -A && git -C "$BG" commit -qm "restructure: move items into inventory/items, add tests"
  capture batch18 git_show_stat_big_commit "$BG" "git show --stat=120 HEAD" "$GITV"
  capture batch18 git_diff_name_status_long "$BG" "git diff --name-status -M v1.0 HEAD" "$GITV"

  # rebase -i --autosquash where the fixup no longer applies
  cp -r "$GR" "$B/inv-squash"
  SQ="$B/inv-squash"
  git -C "$SQ" switch -qc topic
  sed -i 's/TIMEOUT = 30/TIMEOUT = 45/' "$SQ/inv/settings.py" && git -C "$SQ" commit -qam "settings: longer timeout"
  printf 'def restock(n):\n    return n + 10\n' >"$SQ/inv/restock.py" && git -C "$SQ" add -A && git -C "$SQ" commit -qm "restock helper"
  sed -i 's/TIMEOUT = 45/TIMEOUT = 60/' "$SQ/inv/settings.py" && git -C "$SQ" commit -qam "fixup! settings: longer timeout"
  sed -i 's/n + 10/n + 20/' "$SQ/inv/restock.py" && git -C "$SQ" commit -qam "fixup! restock helper"
  git -C "$SQ" switch -q main
  sed -i 's/TIMEOUT = 30/TIMEOUT = 15/' "$SQ/inv/settings.py" && git -C "$SQ" commit -qam "settings: shorter timeout for health checks"
  git -C "$SQ" switch -q topic
  capture batch18 git_rebase_autosquash_conflict "$SQ" "GIT_SEQUENCE_EDITOR=: git rebase -i --autosquash main; rc=\$?; git status; exit \$rc" "$GITV"

  # cherry-pick -x of a merge commit without -m
  cp -r "$GR" "$B/inv-cp"
  git -C "$B/inv-cp" switch -qc release HEAD~6
  capture batch18 git_cherry_pick_merge_refused "$B/inv-cp" "git cherry-pick -x main~2 main; rc=\$?; git status; exit \$rc" "$GITV"

  # merge --squash with conflicts in several files
  cp -r "$GR" "$B/inv-msq"
  MS="$B/inv-msq"
  git -C "$MS" switch -qc feat/rework
  for f in 2 5 9 14; do sed -i 's/return stock - /return max(0, stock) - /' "$MS/inv/item_$f.py"; done
  sed -i 's/MAX_ITEMS = 100/MAX_ITEMS = 250/' "$MS/inv/settings.py"
  printf 'def audit(x):\n    return x\n' >"$MS/inv/audit.py"
  git -C "$MS" add -A && git -C "$MS" commit -qm "rework: clamp stock, more items, audit"
  git -C "$MS" switch -q main
  for f in 5 14; do sed -i 's/return stock - /return abs(stock) - /' "$MS/inv/item_$f.py"; done
  sed -i 's/MAX_ITEMS = 100/MAX_ITEMS = 120/' "$MS/inv/settings.py"
  git -C "$MS" commit -qam "items: abs stock, 120 items"
  capture batch18 git_merge_squash_conflicts "$MS" "git merge --squash feat/rework; rc=\$?; git status; exit \$rc" "$GITV"

  # fsck --full with many dangling objects and one corrupt loose object
  cp -r "$GR" "$B/inv-fsck"
  FK="$B/inv-fsck"
  for i in $(seq 1 60); do echo "scratch blob $i" | git -C "$FK" hash-object -w --stdin >/dev/null; done
  for i in $(seq 1 12); do t=$(git -C "$FK" write-tree); echo "$t" >/dev/null; c=$(echo "wip $i" | git -C "$FK" commit-tree "$t" -p HEAD); echo "$c" >/dev/null; done
  bad=$(echo "important blob" | git -C "$FK" hash-object -w --stdin)
  printf 'x' >"$FK/.git/objects/${bad:0:2}/${bad:2}.tmp" && chmod u+w "$FK/.git/objects/${bad:0:2}/${bad:2}" && printf 'garbage' >"$FK/.git/objects/${bad:0:2}/${bad:2}"
  rm -f "$FK/.git/objects/${bad:0:2}/${bad:2}.tmp"
  capture batch18 git_fsck_full_dangling_corrupt "$FK" "git fsck --full --no-reflogs --no-progress" "$GITV"

  # C++20 ranges misuse
  CX="$B/cxx"
  mkdir -p "$CX"
  cat >"$CX/report.cpp" <<'EOF'
#include <algorithm>
#include <list>
#include <map>
#include <ranges>
#include <string>
#include <vector>

struct Order { std::string id; int qty; double price; };

double total(const std::vector<Order>& orders) {
  auto big = orders | std::views::filter([](const Order& o) { return o.qty > 10; })
                    | std::views::transform([](const Order& o) { return o.qty * o.price; });
  return std::ranges::fold_left(big, 0.0, std::plus<>{});
}

void sort_ids(std::list<std::string>& ids) {
  std::ranges::sort(ids);
}

std::vector<std::string> keys(const std::map<std::string, int>& m) {
  auto ks = m | std::views::keys;
  return std::vector<std::string>(ks);
}

int first_big(const std::vector<Order>& orders) {
  auto it = std::ranges::find_if(orders, [](Order& o) { return o.qty > 100; });
  return it->qty;
}
EOF
  capture batch18 gxx_cxx20_ranges_errors "$CX" "g++ -std=c++20 -Wall -c report.cpp" "$(g++ --version | head -1)"

  # cppcheck --enable=all over a small C library
  CC="$B/clib"
  mkdir -p "$CC/src" "$CC/include"
  printf '#ifndef BUF_H\n#define BUF_H\nint buf_fill(char *dst, int n);\n#endif\n' >"$CC/include/buf.h"
  for i in $(seq 1 14); do
    cat >"$CC/src/mod$i.c" <<EOF
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "buf.h"

static int unused_helper_$i(int x) { return x * $i; }

int mod${i}_run(int n) {
    char buf[16];
    int *p = malloc(sizeof(int) * n);
    int i;
    for (i = 0; i <= 16; i++) buf[i] = 'a';
    if (n > $i) return n;
    p[0] = buf[0];
    printf("%d\n", p[0]);
    free(p);
    return 0;
}

void mod${i}_copy(char *dst, const char *src) {
    strcpy(dst, src);
    int len = strlen(src);
}
EOF
  done
  cat >>"$CC/src/mod7.c" <<'EOF'

char *mod7_dup(const char *s) {
    char *d = malloc(strlen(s) + 1);
    if (!s[0]) return NULL;
    strcpy(d, s);
    free(d);
    return d;
}
EOF
  capture batch18 cppcheck_enable_all_long "$CC" "cppcheck --enable=all --inconclusive -I include src" "$(cppcheck --version)"

  # helgrind on a racy counter
  VG="$B/vg"
  mkdir -p "$VG"
  cat >"$VG/race.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
static long counter;
static void *work(void *arg) {
    for (int i = 0; i < 1000; i++) counter++;
    return arg;
}
int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, work, NULL);
    for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
    printf("counter=%ld\n", counter);
    return 0;
}
EOF
  gcc -g -O0 -pthread -o "$VG/race" "$VG/race.c"
  capture batch18 valgrind_helgrind_race "$VG" "valgrind --tool=helgrind --error-exitcode=3 ./race" "$(valgrind --version)"
  cat >"$VG/grow.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
static char *chunks[200];
static void fill(int n) { for (int i = 0; i < n; i++) { chunks[i] = malloc(4096 * (i % 7 + 1)); memset(chunks[i], 1, 4096); } }
static void drop(int n) { for (int i = 0; i < n; i += 2) free(chunks[i]); }
int main(void) { fill(200); drop(200); char *big = malloc(1 << 20); memset(big, 0, 1 << 20); free(big); return 0; }
EOF
  gcc -g -O0 -o "$VG/grow" "$VG/grow.c"
  capture batch18 valgrind_massif_ms_print "$VG" "valgrind --tool=massif --massif-out-file=massif.out ./grow && ms_print massif.out" "$(valgrind --version)"

  # gdb: an assertion abort in a worker thread
  cat >"$VG/worker.c" <<'EOF'
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
struct job { int id; int size; };
static int check_job(const struct job *j) { assert(j->size > 0 && "job size must be positive"); return j->size; }
static void *worker(void *arg) { struct job *j = arg; printf("worker %d\n", j->id); fflush(stdout); return (void *)(long)check_job(j); }
static void *idle(void *arg) { sleep(5); return arg; }
int main(void) {
    pthread_t a, b, c;
    struct job good = {1, 4}, bad = {2, 0};
    pthread_create(&c, NULL, idle, NULL);
    pthread_create(&a, NULL, worker, &good);
    pthread_join(a, NULL);
    pthread_create(&b, NULL, worker, &bad);
    pthread_join(b, NULL);
    return 0;
}
EOF
  gcc -g -O0 -pthread -o "$VG/worker" "$VG/worker.c"
  capture batch18 gdb_batch_thread_apply_all_bt_abort "$VG" "gdb -q -batch -ex run -ex 'thread apply all bt' ./worker" "$(gdb --version | head -1)"

  # cmake --preset with a broken preset, then a build whose tests fail and are rerun
  CM="$B/cmk"
  mkdir -p "$CM/src" "$CM/tests"
  cat >"$CM/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(calc C)
enable_testing()
add_compile_options(-Wall -Wextra)
add_library(calc src/calc.c)
foreach(t add sub mul div mod neg)
  add_executable(test_${t} tests/test_${t}.c)
  target_link_libraries(test_${t} calc)
  add_test(NAME ${t} COMMAND test_${t})
endforeach()
EOF
  printf 'int add(int a,int b){return a+b;}\nint sub(int a,int b){return a-b;}\nint mul(int a,int b){return a*b;}\nint dv(int a,int b){int q; return a/b;}\nint md(int a,int b){return a%%b;}\nint neg(int a){return a;}\n' >"$CM/src/calc.c"
  for t in add:add:2,3:5 sub:sub:5,3:2 mul:mul:2,4:8 div:dv:8,2:4 mod:md:7,3:1; do
    IFS=: read -r n fn args want <<<"$t"
    printf '#include <stdio.h>\nint %s(int,int);\nint main(void){int r=%s(%s); if(r!=%s){printf("FAIL %s(%s) = %%d, want %s\\n", r); return 1;} printf("ok %s\\n"); return 0;}\n' "$fn" "$fn" "$args" "$want" "$fn" "$args" "$want" "$n" >"$CM/tests/test_$n.c"
  done
  sed -i 's/want 1/want 2/; s/r!=1/r!=2/' "$CM/tests/test_mod.c"
  printf '#include <stdio.h>\nint neg(int);\nint main(void){int r=neg(4); if(r!=-4){printf("FAIL neg(4) = %%d, want -4\\n", r); return 1;} return 0;}\n' >"$CM/tests/test_neg.c"
  cat >"$CM/CMakePresets.json" <<'EOF'
{
  "version": 6,
  "configurePresets": [
    { "name": "base", "hidden": true, "generator": "Unix Makefiles", "binaryDir": "${sourceDir}/build/${presetName}" },
    { "name": "dev", "inherits": "base", "cacheVariables": { "CMAKE_BUILD_TYPE": "Debug" } },
    { "name": "asan", "inherits": ["dev", "sanitizers"], "cacheVariables": { "CMAKE_C_FLAGS": "-fsanitize=address" } }
  ],
  "buildPresets": [ { "name": "dev", "configurePreset": "dev" } ]
}
EOF
  sed -i 's/\["dev", "sanitizers"\]/"dev"/; s/"version": 6/"version": 5/' "$CM/CMakePresets.json"
  capture batch18 cmake_preset_build_ctest_failures "$CM" "cmake --preset dev && cmake --build --preset dev && ctest --test-dir build/dev" "$(cmake --version | head -1)"
  capture batch18 ctest_rerun_failed_output "$CM/build/dev" "ctest --rerun-failed --output-on-failure" "$(ctest --version | head -1)"

  # ant: a library whose build fails to compile, then (fixed) whose junit tests fail
  AN="$B/antlib"
  mkdir -p "$AN/src/com/acme/ledger" "$AN/test/com/acme/ledger"
  cat >"$AN/build.xml" <<'EOF'
<project name="ledger" default="test" basedir=".">
  <property name="build" location="build"/>
  <path id="cp.test">
    <pathelement location="${build}/classes"/>
    <pathelement location="${build}/test-classes"/>
    <pathelement location="/usr/share/java/junit4.jar"/>
    <pathelement location="/usr/share/java/hamcrest-core.jar"/>
  </path>
  <target name="compile">
    <mkdir dir="${build}/classes"/>
    <javac srcdir="src" destdir="${build}/classes" includeantruntime="false" debug="true">
      <compilerarg value="-Xlint:all"/>
    </javac>
  </target>
  <target name="compile-tests" depends="compile">
    <mkdir dir="${build}/test-classes"/>
    <javac srcdir="test" destdir="${build}/test-classes" classpathref="cp.test" includeantruntime="false"/>
  </target>
  <target name="test" depends="compile-tests">
    <junit printsummary="yes" haltonfailure="no" failureproperty="tests.failed" fork="yes">
      <classpath refid="cp.test"/>
      <formatter type="plain" usefile="false"/>
      <batchtest><fileset dir="test" includes="**/*Test.java"/></batchtest>
    </junit>
    <fail if="tests.failed" message="Unit tests failed"/>
  </target>
</project>
EOF
  cat >"$AN/src/com/acme/ledger/Ledger.java" <<'EOF'
package com.acme.ledger;

import java.util.ArrayList;
import java.util.List;

public class Ledger {
    private final List entries = new ArrayList();

    public void add(Entry e) {
        entries.add(e);
    }

    public long balance() {
        long sum = 0;
        for (Object o : entries) {
            sum += ((Entry) o).cents();
        }
        return sum;
    }

    public int size() {
        return entries.size();
    }

    public Entry largest() {
        Entry best = null;
        for (Object o : entries) {
            Entry e = (Entry) o;
            if (best == null || e.cents() > best.cents()) best = e;
        }
        return best;
    }
}
EOF
  cat >"$AN/src/com/acme/ledger/Entry.java" <<'EOF'
package com.acme.ledger;

public class Entry {
    private final String memo;
    private final long cents;

    public Entry(String memo, long cents) {
        this.memo = memo;
        this.cents = cents;
    }

    public long cents() {
        return cents;
    }

    public String memo() {
        return memo
    }

    public Entry negate() {
        return new Entry(memo, -cent);
    }
}
EOF
  cat >"$AN/test/com/acme/ledger/LedgerTest.java" <<'EOF'
package com.acme.ledger;

import static org.junit.Assert.*;
import org.junit.Test;

public class LedgerTest {
    @Test public void emptyBalanceIsZero() { assertEquals(0, new Ledger().balance()); }
    @Test public void balanceSumsEntries() {
        Ledger l = new Ledger();
        l.add(new Entry("rent", -120000));
        l.add(new Entry("salary", 350000));
        assertEquals(230000, l.balance());
    }
    @Test public void negateFlipsSign() { assertEquals(-500, new Entry("x", 500).negate().cents()); }
    @Test public void largestOfEmptyIsNull() { assertNull(new Ledger().largest()); }
    @Test public void largestPicksBiggest() {
        Ledger l = new Ledger();
        l.add(new Entry("a", 10));
        l.add(new Entry("b", 30));
        assertEquals("b", l.largest().memo());
    }
    @Test public void memoIsTrimmed() { assertEquals("coffee", new Entry("  coffee ", 300).memo()); }
    @Test public void sizeCountsEntries() {
        Ledger l = new Ledger();
        l.add(new Entry("a", 1));
        assertEquals(2, l.size());
    }
}
EOF
  cat >"$AN/test/com/acme/ledger/EntryTest.java" <<'EOF'
package com.acme.ledger;

import static org.junit.Assert.*;
import org.junit.Test;

public class EntryTest {
    @Test public void keepsCents() { assertEquals(42, new Entry("m", 42).cents()); }
    @Test public void negateTwice() { assertEquals(42, new Entry("m", 42).negate().negate().cents()); }
    @Test public void nullMemoRejected() {
        Entry e = new Entry(null, 1);
        assertTrue(e.memo().isEmpty());
    }
}
EOF
  ANTV="$(ant -version 2>&1 | head -1)"
  capture batch18 ant_javac_errors_xlint "$AN" "ant compile" "$ANTV"
  sed -i 's/return memo$/return memo;/; s/-cent)/-cents)/' "$AN/src/com/acme/ledger/Entry.java"
  capture batch18 ant_junit_failures "$AN" "ant test" "$ANTV"
  capture batch18 javadoc_doclint_warnings "$AN" "javadoc -Xdoclint:all -d build/doc -sourcepath src com.acme.ledger" "$(javadoc --version 2>&1)"

  # javac -Xlint:all warnings, then java -ea hitting an assertion
  JA="$B/jassert"
  mkdir -p "$JA"
  cat >"$JA/Scheduler.java" <<'EOF'
import java.util.*;

public class Scheduler {
    static class Task implements java.io.Serializable {
        final String name; final int priority;
        Task(String name, int priority) { this.name = name; this.priority = priority; }
    }

    @SuppressWarnings("deprecation")
    static Integer boxed(int v) { return new Integer(v); }

    static List order(List tasks) {
        List out = new ArrayList(tasks);
        Collections.sort(out, (a, b) -> ((Task) b).priority - ((Task) a).priority);
        return out;
    }

    static void check(List ordered) {
        for (int i = 1; i < ordered.size(); i++) {
            Task prev = (Task) ordered.get(i - 1), cur = (Task) ordered.get(i);
            assert prev.priority >= cur.priority : "out of order at " + i + ": " + prev.name + " before " + cur.name;
        }
        Task last = (Task) ordered.get(ordered.size() - 1);
        assert last.priority > 0 : "task " + last.name + " has non-positive priority " + last.priority;
    }

    public static void main(String[] args) {
        List tasks = new ArrayList();
        tasks.add(new Task("backup", 3));
        tasks.add(new Task("index", 5));
        tasks.add(new Task("cleanup", 0));
        switch (args.length) {
            case 0: System.out.println("no args");
            case 1: System.out.println("one arg"); break;
        }
        List ordered = order(tasks);
        for (Object t : ordered) System.out.println("scheduled " + ((Task) t).name);
        check(ordered);
        System.out.println("ok " + boxed(ordered.size()));
    }
}
EOF
  capture batch18 javac_xlint_then_java_ea_assertion "$JA" "javac -Xlint:all Scheduler.java && java -ea Scheduler" "$(javac -version 2>&1)"

  # ruby -w: a script loading a library full of warnings, then failing
  RB="$B/rbapp"
  mkdir -p "$RB/lib/shop"
  for i in $(seq 1 80); do
    cat >"$RB/lib/shop/part_$i.rb" <<EOF
module Shop
  class Part$i
    attr_accessor :sku
    def price(qty)
      unused_$i = qty * 2
      if qty = 0 then return 0 end
      qty * $i
    end
    def price(qty)
      qty * $i + 1
    end
    def label; "part-#{@missing_ivar_$i}" end
  end
end
EOF
  done
  printf 'module Shop\n  class Part57\n    def check(n)\n      puts -n\n    end\n  end\nend\n' >>"$RB/lib/shop/part_57.rb"
  cat >"$RB/app.rb" <<'EOF'
$LOAD_PATH.unshift File.join(__dir__, "lib")
(1..80).each { |i| require "shop/part_#{i}" }
total = (1..80).sum { |i| Shop.const_get("Part#{i}").new.price(2) }
puts "subtotal #{total}"
cart = { "widget" => 2, "gadget" => nil }
cart.each { |name, qty| puts "#{name}: #{qty * 3}" }
EOF
  capture batch18 ruby_w_warnings_then_crash "$RB" "ruby -w app.rb" "$(ruby -v)"

  # rake multitask with sh steps, one failing
  RK="$B/rakeproj"
  mkdir -p "$RK"
  cat >"$RK/Rakefile" <<'EOF'
def step(name, ok)
  sh "echo building #{name}; for i in 1 2 3; do echo \"  #{name}: stage $i\"; done; #{ok ? 'true' : "echo '#{name}: error: missing input assets/#{name}.yml' >&2; exit 2"}"
end

task(:css) { step("css", true) }
task(:js) { step("js", true) }
task(:icons) { step("icons", false) }
task(:fonts) { step("fonts", true) }
task(:docs) { step("docs", true) }
multitask assets: %i[css js icons fonts docs]
task build: :assets do
  puts "packaging"
end
task default: :build
EOF
  capture batch18 rake_multitask_failure "$RK" "rake -m -j 1 build" "$(rake --version)"

  # phpcs over a small PHP app
  PC="$B/phpapp"
  mkdir -p "$PC/src"
  for n in Cart Order Invoice Customer Payment Shipping Coupon; do
    cat >"$PC/src/$n.php" <<EOF
<?php
namespace App;
class $n {
    var \$items = array();
    public function add(\$item, \$qty=1) {
        if(\$qty<1){ return false; }
        \$this->items[]=array('item'=>\$item,'qty'=>\$qty);
        return true;
    }
    function total() {
      \$t = 0;
      foreach(\$this->items as \$i) { \$t += \$i['qty'] * \$i['item']->price; }
      return \$t;
    }
    public function describe_$n() { return "$n with " . count(\$this->items) . " items and a very long description string that goes past the limit"; }
}
EOF
  done
  capture batch18 phpcs_psr12_findings_long "$PC" "phpcs --standard=PSR12 src" "$(phpcs --version)"

  # php -S: the built-in server's log while a client hits good, missing and failing routes
  PS="$B/phpsrv"
  mkdir -p "$PS"
  cat >"$PS/router.php" <<'EOF'
<?php
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if ($path === '/health') { echo "ok"; return true; }
if ($path === '/orders') { header('Content-Type: application/json'); echo json_encode([['id' => 1]]); return true; }
if ($path === '/report') { $rows = null; foreach ($rows as $r) {} echo count($rows); return true; }
if ($path === '/checkout') { require 'missing_checkout.php'; }
return false;
EOF
  capture batch18 php_builtin_server_log "$PS" "php -S 127.0.0.1:8765 router.php & srv=\$!; sleep 1; for p in /health /orders /missing.css /report /health /checkout /orders /favicon.ico; do curl -s -o /dev/null 127.0.0.1:8765\$p; done; sleep 0.5; kill \$srv; wait \$srv" "$(php -v | head -1)"

  # PostgreSQL: a local cluster under $B, a migration with notices and errors, then pg_dump
  if command -v initdb >/dev/null && id postgres >/dev/null 2>&1; then
    PG="$B/pg"
    mkdir -p "$PG" && chown postgres "$PG"
    runuser -u postgres -- initdb -D "$PG/data" >/dev/null 2>&1
    runuser -u postgres -- pg_ctl -D "$PG/data" -o "-p 54318 -k $PG -c listen_addresses=''" -l "$PG/log" -w start >/dev/null 2>&1
    runuser -u postgres -- createdb -h "$PG" -p 54318 shop
    cat >"$PG/001_init.sql" <<'EOF'
CREATE TABLE IF NOT EXISTS customers (id serial PRIMARY KEY, email text UNIQUE NOT NULL, name text);
CREATE TABLE IF NOT EXISTS customers (id serial PRIMARY KEY);
CREATE TABLE orders (id serial PRIMARY KEY, customer_id int REFERENCES customers(id), total numeric(10,2) NOT NULL, placed_at timestamptz DEFAULT now());
INSERT INTO customers (email, name) VALUES ('ana@example.com', 'Ana'), ('bo@example.com', 'Bo');
INSERT INTO customers (email, name) VALUES ('ana@example.com', 'Ana again');
INSERT INTO orders (customer_id, total) VALUES (1, 19.90), (2, 5.00), (7, 12.00);
ALTER TABLE orders ADD COLUMN status text DEFAULT 'new';
ALTER TABLE orders ADD CONSTRAINT total_positive CHECK (total > 0);
UPDATE orders SET total = -1 WHERE id = 2;
DROP INDEX IF EXISTS orders_status_idx;
CREATE INDEX orders_status_idx ON orders (statuss);
CREATE VIEW big_orders AS SELECT o.id, c.email, o.total FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.total > 10;
SELECT id, email, total FROM big_orders ORDER BY id;
DO $$ BEGIN RAISE NOTICE 'backfilled % rows', (SELECT count(*) FROM orders); END $$;
ALTER TABLE customers ALTER COLUMN name SET NOT NULL;
INSERT INTO customers (email) VALUES ('cy@example.com');
EOF
    chown postgres "$PG/001_init.sql"
    capture batch18 psql_migration_notices_errors "$PG" "runuser -u postgres -- psql -h $PG -p 54318 -d shop -f 001_init.sql" "$(psql --version)"
    for t in $(seq 1 6); do
      echo "CREATE TABLE audit_$t (id bigserial PRIMARY KEY, actor text NOT NULL, action text, at timestamptz DEFAULT now(), payload jsonb); CREATE INDEX audit_${t}_actor_idx ON audit_$t (actor);"
    done | runuser -u postgres -- psql -q -h "$PG" -p 54318 -d shop >/dev/null 2>&1
    capture batch18 pg_dump_schema_long "$PG" "runuser -u postgres -- pg_dump -h $PG -p 54318 --schema-only shop" "$(pg_dump --version)"
    runuser -u postgres -- pg_ctl -D "$PG/data" -m fast stop >/dev/null 2>&1
  fi

  # sqlite3 fed a script with many errors (it goes on after each one)
  SL="$B/sqlite"
  mkdir -p "$SL"
  {
    echo "CREATE TABLE items (id INTEGER PRIMARY KEY, sku TEXT UNIQUE NOT NULL, qty INTEGER CHECK (qty >= 0));"
    for i in $(seq 1 40); do echo "INSERT INTO items (sku, qty) VALUES ('SKU-$i', $i);"; done
    echo "INSERT INTO items (sku, qty) VALUES ('SKU-7', 1);"
    echo "INSERT INTO items (sku, qty) VALUES ('SKU-99', -3);"
    echo "INSERT INTO itemz (sku, qty) VALUES ('SKU-100', 1);"
    echo "UPDATE items SET qty = qty - 50 WHERE sku = 'SKU-12';"
    echo "SELECT sku, qty FROM items WHERE qty > 35 ORDER BY qty DESC;"
    echo "SELEC count(*) FROM items;"
    echo "ALTER TABLE items ADD COLUMN price REAL NOT NULL;"
    echo "CREATE INDEX items_sku ON items (sku);"
    echo "CREATE INDEX items_sku ON items (qty);"
    echo "SELECT count(*), sum(qty) FROM items;"
  } >"$SL/load.sql"
  capture batch18 sqlite3_script_many_errors "$SL" "sqlite3 -header -column shop.db < load.sql" "$(sqlite3 --version | cut -d' ' -f1)"

  # dpkg-deb with a bad control file, then dpkg -i of packages with unmet dependencies
  DB="$B/debs"
  mkdir -p "$DB/tool/DEBIAN" "$DB/tool/usr/bin" "$DB/plug/DEBIAN" "$DB/plug/usr/lib/zephtool"
  printf 'Package: zephtool-demo\nVersion: 2.1-1\nArchitecture: all\nMaintainer: Dev <dev@example.com>\nDepends: libzeph-core (>= 3.0), python3 (>= 9.0), coreutils\nDescription: demo tool\n' >"$DB/tool/DEBIAN/control"
  printf '#!/bin/sh\necho demo\n' >"$DB/tool/usr/bin/zephtool-demo" && chmod 755 "$DB/tool/usr/bin/zephtool-demo"
  printf 'Package: zephtool-demo-plugin\nVersion: 2.1-1\nArchitecture: all\nMaintainer: Dev <dev@example.com>\nDepends: zephtool-demo (= 2.1-1), zephtool-missing-runtime\nDescription: demo plugin\n' >"$DB/plug/DEBIAN/control"
  echo plugin >"$DB/plug/usr/lib/zephtool/plugin.txt"
  dpkg-deb --build "$DB/tool" "$DB/zephtool-demo_2.1-1_all.deb" >/dev/null
  dpkg-deb --build "$DB/plug" "$DB/zephtool-demo-plugin_2.1-1_all.deb" >/dev/null
  capture batch18 dpkg_i_dependency_problems "$DB" "dpkg -i zephtool-demo_2.1-1_all.deb zephtool-demo-plugin_2.1-1_all.deb" "$(dpkg --version | head -1)"
  dpkg -r zephtool-demo-plugin zephtool-demo >/dev/null 2>&1

  # find -L -ls over a tree with a symlink loop and a dangling link
  FD="$B/tree"
  mkdir -p "$FD/assets/img" "$FD/assets/css" "$FD/src/lib" "$FD/docs"
  for i in $(seq 1 120); do echo "x$i" >"$FD/assets/img/icon_$i.svg"; done
  for i in $(seq 1 60); do echo "c$i" >"$FD/assets/css/part_$i.css"; done
  for i in $(seq 1 100); do echo "s$i" >"$FD/src/lib/mod_$i.js"; done
  for i in $(seq 1 30); do echo "d$i" >"$FD/docs/page_$i.md"; done
  ln -s .. "$FD/src/lib/parent"
  ln -s ../missing/config.json "$FD/docs/config.json"
  touch -d '2026-11-20 10:00' $(find "$FD" -not -type l)
  capture batch18 find_L_ls_loop_long "$FD" "find -L . -ls" "$(find --version | head -1)"

  # curl -v -L against a local server: two redirects, then a 500
  CU="$B/curl"
  mkdir -p "$CU"
  cat >"$CU/srv.py" <<'EOF'
from http.server import BaseHTTPRequestHandler, HTTPServer
class H(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/api/v1/report":
            self.send_response(301); self.send_header("Location", "/api/v2/report"); self.end_headers()
        elif self.path == "/api/v2/report":
            self.send_response(302); self.send_header("Location", "/api/v2/report?format=json"); self.end_headers()
        else:
            body = b'{"error":"report generator failed","detail":"KeyError: \'region\'","request_id":"r-7f3a"}'
            self.send_response(500); self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
HTTPServer(("127.0.0.1", 8766), H).serve_forever()
EOF
  python3 "$CU/srv.py" & CSRV=$!
  sleep 1
  capture batch18 curl_v_redirects_then_500 "$CU" "curl -v -L --fail-with-body http://127.0.0.1:8766/api/v1/report" "$(curl --version | head -1)"
  kill "$CSRV"; wait "$CSRV" 2>/dev/null
fi

# --- batch19: a nineteenth blind batch (Python, JavaScript/TypeScript, Go, Rust and Deno in situations
# the set lacked: pytest -n 2 with a crashed worker, pytest --lf --ff after a refactor, pytest -W
# error::DeprecationWarning raised inside a dependency, a hypothesis state machine failing, a
# SQLAlchemy script with echo on dying on an IntegrityError, mypy --no-incremental over 40 modules,
# coverage combine + report under its floor, python -X importtime then an ImportError, Django test
# -v 2 with a broken migration, manage.py check --deploy, pip install --require-hashes mismatch, a
# FastAPI TestClient suite failing; tsc -b && vite build of a React app, jest --ci --coverage
# --verbose over 40 files under thresholds, ts-jest diagnostics, vitest --coverage thresholds, biome
# ci over 8 files, knip, node --test --test-reporter=dot, npm run dev crashing on a used port,
# pyright --verbose, next build with a type error, yarn workspaces run build with one failing; go
# test -v with t.Cleanup failures, go test -short -v over 20 packages, go run of a migration tool
# ending in log.Fatalf; cargo doc broken intra-doc links, cargo test --show-output single-threaded,
# a proc-macro derive panicking, cargo run with RUST_LOG=debug then an error, cargo clippy --fix
# leaving warnings; deno lint over many files, deno check many errors, deno test --doc), captured and
# its signals written and committed before any filter ran on it and before any rule file, filter
# source, filter test, fixture, bench/corpus file or bench/README.md was opened.
if sel batch19; then
  B="$WORK/batch19"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  PYV="$(python3 --version 2>&1)"
  PTV="$(python3 -m pytest --version 2>&1)"

  # --- Python ---
  # pytest -n 2 -v over 320 tests where one test kills its worker
  PX="$B/pyxdist"
  mkdir -p "$PX/ledger" "$PX/tests"
  printf '' >"$PX/ledger/__init__.py"
  cat >"$PX/ledger/entries.py" <<'EOF'
import os


def balance(entries):
    return sum(e["amount"] for e in entries)


def post(book, entry):
    if entry["amount"] == 0:
        raise ValueError("zero-amount entry")
    book.append(entry)
    return len(book)


def flush(book, path):
    if path.startswith("/proc"):
        os._exit(3)
    return len(book)
EOF
  for f in accounts journal payments refunds reports taxes transfers vendors; do
    {
      echo "import pytest"
      echo "from ledger.entries import balance, post, flush"
      echo
      for i in $(seq 1 40); do
        echo "def test_${f}_balance_$i():"
        echo "    assert balance([{\"amount\": $i}, {\"amount\": -$i}]) == 0"
        echo
      done
    } >"$PX/tests/test_$f.py"
  done
  cat >>"$PX/tests/test_payments.py" <<'EOF'
def test_payments_flush_to_proc():
    assert flush([], "/proc/ledger") == 0


def test_payments_post_zero():
    book = []
    assert post(book, {"amount": 0}) == 1
EOF
  capture batch19 pytest_n2_worker_crashed "$PX" "python3 -m pytest -p no:cacheprovider -n 2 -v tests" "$PTV"

  # pytest --lf --ff after a refactor renamed a failing test and moved another
  PL="$B/pylf"
  mkdir -p "$PL/shop" "$PL/tests"
  printf '' >"$PL/shop/__init__.py"
  cat >"$PL/shop/cart.py" <<'EOF'
def subtotal(items):
    return sum(price * qty for price, qty in items)


def shipping(total):
    return 0 if total > 50 else 4.99


def coupon(total, code):
    if code == "HALF":
        return total / 2
    if code == "TEN":
        return total - 10
    raise KeyError(code)
EOF
  cat >"$PL/tests/test_cart.py" <<'EOF'
import pytest
from shop.cart import subtotal, shipping, coupon


def test_subtotal_empty():
    assert subtotal([]) == 0


def test_subtotal_two():
    assert subtotal([(2.5, 2), (1, 3)]) == 8


def test_shipping_free_at_fifty():
    assert shipping(50) == 0


def test_coupon_ten_not_negative():
    assert coupon(5, "TEN") == 0


@pytest.mark.parametrize("code,total,want", [("HALF", 10, 5), ("TEN", 30, 20), ("ZERO", 10, 10)])
def test_coupon_codes(code, total, want):
    assert coupon(total, code) == want
EOF
  for i in $(seq 1 12); do
    printf 'from shop.cart import subtotal\n\n\ndef test_subtotal_line_%s():\n    assert subtotal([(%s, 1)]) == %s\n' "$i" "$i" "$i" >"$PL/tests/test_lines_$i.py"
  done
  (cd "$PL" && python3 -m pytest -q tests >/dev/null 2>&1)
  sed -i 's/def test_coupon_ten_not_negative/def test_coupon_ten_floor_at_zero/' "$PL/tests/test_cart.py"
  cat >"$PL/shop/cart.py" <<'EOF'
def subtotal(items):
    return round(sum(price * qty for price, qty in items), 2)


def shipping(total):
    return 0 if total >= 50 else 4.99


def coupon(total, code):
    codes = {"HALF": lambda t: t / 2, "TEN": lambda t: max(t - 10, 0)}
    return codes[code](total)
EOF
  capture batch19 pytest_lf_ff_after_refactor "$PL" "python3 -m pytest --lf --ff -v tests" "$PTV"

  # pytest -W error::DeprecationWarning where the warning comes from a vendored dependency
  PW="$B/pywarn"
  mkdir -p "$PW/vendor/legacyfmt" "$PW/report" "$PW/tests"
  cat >"$PW/vendor/legacyfmt/__init__.py" <<'EOF'
import warnings


def money(value, places=2):
    warnings.warn("legacyfmt.money() is deprecated; use format_money(value, places=...)", DeprecationWarning, stacklevel=2)
    return f"{value:.{places}f}"


def format_money(value, places=2):
    return f"{value:,.{places}f}"


def percent(value):
    warnings.warn("legacyfmt.percent() is deprecated and will be removed in 3.0", DeprecationWarning, stacklevel=1)
    return f"{value * 100:.1f}%"
EOF
  printf '' >"$PW/report/__init__.py"
  cat >"$PW/report/render.py" <<'EOF'
from legacyfmt import format_money, money, percent


def line(label, amount):
    return f"{label}: {money(amount)}"


def header(total):
    return f"TOTAL {format_money(total)}"


def ratio(part, whole):
    return percent(part / whole)
EOF
  cat >"$PW/tests/test_render.py" <<'EOF'
from report.render import header, line, ratio


def test_header():
    assert header(1234.5) == "TOTAL 1,234.50"


def test_line():
    assert line("rent", 900) == "rent: 900.00"


def test_ratio():
    assert ratio(1, 4) == "25.0%"


def test_ratio_zero_whole():
    assert ratio(1, 0) == "n/a"
EOF
  printf '[pytest]\npythonpath = vendor .\n' >"$PW/pytest.ini"
  capture batch19 pytest_w_error_deprecation_in_dependency "$PW" "python3 -m pytest -p no:cacheprovider -W error::DeprecationWarning tests" "$PTV"

  # a hypothesis RuleBasedStateMachine finding a bug in an LRU cache
  PH="$B/pyhyp"
  mkdir -p "$PH"
  cat >"$PH/lru.py" <<'EOF'
class LRU:
    def __init__(self, capacity):
        self.capacity = capacity
        self.data = {}
        self.order = []

    def get(self, key):
        if key in self.data:
            return self.data[key]
        return None

    def put(self, key, value):
        if key not in self.data and len(self.data) >= self.capacity:
            oldest = self.order.pop(0)
            del self.data[oldest]
        self.data[key] = value
        self.order.append(key)
EOF
  cat >"$PH/test_lru_state.py" <<'EOF'
from collections import OrderedDict

from hypothesis import settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from lru import LRU

keys = st.integers(min_value=0, max_value=4)


class LRUMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.cache = LRU(3)
        self.model = OrderedDict()

    @rule(key=keys, value=st.integers())
    def put(self, key, value):
        self.cache.put(key, value)
        self.model[key] = value
        self.model.move_to_end(key)
        while len(self.model) > 3:
            self.model.popitem(last=False)

    @rule(key=keys)
    def get(self, key):
        expected = self.model.get(key)
        if key in self.model:
            self.model.move_to_end(key)
        assert self.cache.get(key) == expected

    @invariant()
    def size_bounded(self):
        assert len(self.cache.data) <= 3


TestLRU = LRUMachine.TestCase
TestLRU.settings = settings(max_examples=300, stateful_step_count=30, deadline=None, database=None)
EOF
  capture batch19 hypothesis_stateful_lru_failure "$PH" "python3 -m pytest -p no:cacheprovider test_lru_state.py" "$PTV; hypothesis $(python3 -c 'import hypothesis;print(hypothesis.__version__)')"

  # a SQLAlchemy script with echo=True that dies on a unique constraint
  PS="$B/pysqla"
  mkdir -p "$PS"
  cat >"$PS/seed.py" <<'EOF'
import logging

from sqlalchemy import ForeignKey, String, create_engine, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s %(message)s")


class Base(DeclarativeBase):
    pass


class Team(Base):
    __tablename__ = "teams"
    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(40), unique=True)


class Member(Base):
    __tablename__ = "members"
    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(80), unique=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("teams.id"))


engine = create_engine("sqlite:///seed.db", echo=True)
Base.metadata.drop_all(engine)
Base.metadata.create_all(engine)

with Session(engine) as session:
    teams = [Team(slug=f"team-{i}") for i in range(1, 9)]
    session.add_all(teams)
    session.commit()
    for t in teams:
        for n in range(1, 6):
            session.add(Member(email=f"user{n}@team-{t.id}.example", team_id=t.id))
        session.commit()
    print("teams:", len(session.scalars(select(Team)).all()))
    session.add(Member(email="user3@team-4.example", team_id=2))
    session.commit()
    print("done")
EOF
  capture batch19 sqlalchemy_seed_echo_integrity_error "$PS" "python3 seed.py" "$PYV; SQLAlchemy $(python3 -c 'import sqlalchemy;print(sqlalchemy.__version__)')"

  # mypy --no-incremental over a 40-module package with errors spread through it
  PM="$B/pymypy"
  mkdir -p "$PM/fleet"
  printf '' >"$PM/fleet/__init__.py"
  for i in $(seq 1 40); do
    {
      echo "from dataclasses import dataclass"
      echo "from typing import Optional"
      echo
      echo
      echo "@dataclass"
      echo "class Truck$i:"
      echo "    plate: str"
      echo "    load_kg: int"
      echo "    driver: Optional[str] = None"
      echo
      echo
      echo "def capacity_$i(t: Truck$i) -> int:"
      echo "    return 12000 - t.load_kg"
      echo
      echo
      echo "def driver_name_$i(t: Truck$i) -> str:"
      case $((i % 7)) in
        0) echo "    return t.driver.upper()" ;;
        3) echo "    return t.driver" ;;
        *) echo "    return t.driver or \"unassigned\"" ;;
      esac
      echo
      echo
      echo "def plates_$i(ts: list[Truck$i]) -> list[str]:"
      if [ $((i % 9)) -eq 4 ]; then echo "    return [t.load_kg for t in ts]"; else echo "    return [t.plate for t in ts]"; fi
    } >"$PM/fleet/truck_$i.py"
  done
  cat >"$PM/fleet/dispatch.py" <<'EOF'
from fleet.truck_1 import Truck1, capacity_1
from fleet.truck_2 import Truck2, capacity_2


def assign(t: Truck1, kg: int) -> bool:
    return capacity_1(t) >= kg


def assign_other(t: Truck2, kg: str) -> bool:
    return capacity_2(t) >= kg


def first_free(ts: list[Truck1]) -> Truck1:
    for t in ts:
        if t.driver is None:
            return t
EOF
  capture batch19 mypy_no_incremental_forty_modules "$PM" "python3 -m mypy --no-incremental --strict fleet" "$(python3 -m mypy --version)"

  # coverage run -p of two entry points, combine, report under --fail-under
  PC="$B/pycov"
  mkdir -p "$PC/etl"
  printf '' >"$PC/etl/__init__.py"
  for i in $(seq 1 45); do
    {
      echo "def extract_$i(rows):"
      echo "    return [r for r in rows if r]"
      echo
      echo
      echo "def transform_$i(rows):"
      echo "    out = []"
      echo "    for r in rows:"
      echo "        if r < 0:"
      echo "            out.append(0)"
      echo "        elif r > 100:"
      echo "            out.append(100)"
      echo "        else:"
      echo "            out.append(r)"
      echo "    return out"
      echo
      echo
      echo "def load_$i(rows, sink):"
      echo "    if sink is None:"
      echo "        raise ValueError('no sink')"
      echo "    sink.extend(rows)"
      echo "    return len(rows)"
    } >"$PC/etl/stage_$i.py"
  done
  cat >"$PC/run_daily.py" <<'EOF'
import importlib

for i in range(1, 46, 2):
    m = importlib.import_module(f"etl.stage_{i}")
    rows = getattr(m, f"extract_{i}")([1, 0, 150, -3])
    getattr(m, f"transform_{i}")(rows)
EOF
  cat >"$PC/run_backfill.py" <<'EOF'
import importlib

for i in range(2, 46, 3):
    m = importlib.import_module(f"etl.stage_{i}")
    sink = []
    getattr(m, f"load_{i}")([1, 2], sink)
EOF
  (cd "$PC" && python3 -m coverage run -p run_daily.py && python3 -m coverage run -p run_backfill.py) >/dev/null 2>&1
  capture batch19 coverage_combine_report_fail_under "$PC" "python3 -m coverage combine && python3 -m coverage report -m --fail-under=80" "coverage $(python3 -c 'import coverage;print(coverage.__version__)')"

  # python -X importtime of an app whose last import fails
  PI="$B/pyimport"
  mkdir -p "$PI/webapp"
  cat >"$PI/webapp/__init__.py" <<'EOF'
import asyncio
import email.mime.multipart
import http.client
import json
import logging.handlers
import sqlite3
import xml.etree.ElementTree
import urllib.request
import decimal
import csv

from webapp.settings import DATABASE_URL, SECRET_KEY
EOF
  printf 'DATABASE_URL = "sqlite:///app.db"\nSECRETKEY = "dev"\n' >"$PI/webapp/settings.py"
  capture batch19 python_x_importtime_then_import_error "$PI" "python3 -X importtime -c 'import webapp'" "$PYV"

  # Django (the system python's) test -v 2 where a migration fails while creating the test database
  DJ="$B/djsite"
  DJPY=/usr/bin/python3
  mkdir -p "$DJ" && (cd "$DJ" && $DJPY -m django startproject site_cfg . && $DJPY manage.py startapp orders) >/dev/null 2>&1
  sed -i "s/'django.contrib.staticfiles',/'django.contrib.staticfiles',\n    'orders',/" "$DJ/site_cfg/settings.py"
  cat >"$DJ/orders/models.py" <<'EOF'
from django.db import models


class Customer(models.Model):
    name = models.CharField(max_length=100)
    email = models.EmailField(unique=True)


class Order(models.Model):
    customer = models.ForeignKey(Customer, on_delete=models.CASCADE)
    total = models.DecimalField(max_digits=10, decimal_places=2)
    placed_at = models.DateTimeField(auto_now_add=True)
EOF
  (cd "$DJ" && $DJPY manage.py makemigrations orders) >/dev/null 2>&1
  cat >"$DJ/orders/migrations/0002_backfill_emails.py" <<'EOF'
from django.db import migrations


def lowercase_emails(apps, schema_editor):
    Customer = apps.get_model("orders", "Customer")
    for c in Customer.objects.all():
        c.email = c.email.lower()
        c.save()
    Customer.objects.filter(legacy_id__isnull=True).update(name="")


class Migration(migrations.Migration):
    dependencies = [("orders", "0001_initial")]
    operations = [migrations.RunPython(lowercase_emails, migrations.RunPython.noop)]
EOF
  cat >"$DJ/orders/tests.py" <<'EOF'
from django.test import TestCase

from .models import Customer


class CustomerTests(TestCase):
    def test_create(self):
        c = Customer.objects.create(name="Ada", email="ada@example.com")
        self.assertEqual(Customer.objects.count(), 1)
        self.assertEqual(c.email, "ada@example.com")
EOF
  DJV="$($DJPY --version 2>&1); Django $($DJPY -m django --version)"
  capture batch19 django_test_v2_migration_fails "$DJ" "$DJPY manage.py test -v 2" "$DJV"

  # manage.py check --deploy on the same project's development settings
  capture batch19 django_check_deploy_warnings "$DJ" "$DJPY manage.py check --deploy" "$DJV"

  # pip install --require-hashes with one wrong and one missing hash
  PR="$B/pyhash"
  mkdir -p "$PR" && python3 -m venv "$PR/venv"
  cat >"$PR/requirements.txt" <<'EOF'
idna==3.20 \
    --hash=sha256:0c4b3bd2b6b8f2a6d2e1f77c0b1e0c8a3e2d9b27f1a6d0d6b3c7d4e5f6a7b8c9
six \
    --hash=sha256:1e61c37477a1626458e36f7b1d82aa5c9b094fa4802892072e49de9c60c4c926
certifi==2024.8.30
EOF
  capture batch19 pip_install_require_hashes_mismatch "$PR" "venv/bin/pip install --require-hashes -r requirements.txt" "$("$PR/venv/bin/pip" --version)"

  # pytest of a FastAPI app with TestClient: validation errors and a wrong status
  PF="$B/pyfastapi"
  mkdir -p "$PF/tests"
  if [ ! -x "$WORK/pyvenv/bin/python" ]; then
    python3 -m venv --system-site-packages "$WORK/pyvenv" && "$WORK/pyvenv/bin/pip" install -q httpx >/dev/null 2>&1
  fi
  cat >"$PF/app.py" <<'EOF'
from fastapi import FastAPI, HTTPException
from pydantic import BaseModel, Field

app = FastAPI()
BOOKS = {1: {"id": 1, "title": "Dune", "year": 1965}}


class BookIn(BaseModel):
    title: str = Field(min_length=1)
    year: int = Field(ge=1450, le=2100)


@app.get("/books/{book_id}")
def get_book(book_id: int):
    if book_id not in BOOKS:
        raise HTTPException(status_code=404, detail="book not found")
    return BOOKS[book_id]


@app.post("/books", status_code=201)
def create_book(book: BookIn):
    new_id = max(BOOKS) + 1
    BOOKS[new_id] = {"id": new_id, **book.model_dump()}
    return BOOKS[new_id]
EOF
  cat >"$PF/tests/test_books.py" <<'EOF'
from fastapi.testclient import TestClient

from app import app

client = TestClient(app)


def test_get_book():
    r = client.get("/books/1")
    assert r.status_code == 200
    assert r.json()["title"] == "Dune"


def test_get_missing_book():
    r = client.get("/books/99")
    assert r.status_code == 404


def test_create_book():
    r = client.post("/books", json={"title": "Emma", "year": 1815})
    assert r.status_code == 201, r.json()


def test_create_book_as_string_year():
    r = client.post("/books", json={"title": "Solaris", "year": "nineteen sixty-one"})
    assert r.status_code == 201, r.json()


def test_get_book_bad_id():
    r = client.get("/books/abc")
    assert r.json() == {"detail": "book not found"}
EOF
  printf '[pytest]\npythonpath = .\n' >"$PF/pytest.ini"
  capture batch19 pytest_fastapi_testclient_failures "$PF" "$WORK/pyvenv/bin/python -m pytest -p no:cacheprovider tests" "$PTV; fastapi $(python3 -c 'import fastapi;print(fastapi.__version__)')"

  # --- JavaScript / TypeScript ---
  # dev tools installed once from the npm registry into a scratch directory; projects link to them
  JD="$WORK/jsdeps"
  if [ ! -d "$JD/node_modules/next" ]; then
    mkdir -p "$JD" && (cd "$JD" && npm init -y >/dev/null && npm i typescript@5 vite@5 @vitejs/plugin-react@4 react@18 react-dom@18 @types/react@18 @types/react-dom@18 jest@29 ts-jest@29 @types/jest@29 vitest@2 @vitest/coverage-v8@2 @biomejs/biome@1 knip@5 pyright@1 next@14 >/dev/null 2>&1)
  fi
  NB="$JD/node_modules/.bin"
  TV="tsc $("$NB/tsc" -v)"

  # tsc -b && vite build of a React app whose components have type errors
  VR="$B/vitereact"
  mkdir -p "$VR/src/components"
  ln -s "$JD/node_modules" "$VR/node_modules"
  printf '{ "compilerOptions": { "target": "ES2020", "module": "ESNext", "moduleResolution": "bundler", "jsx": "react-jsx", "strict": true, "noEmit": true, "noUnusedLocals": true, "skipLibCheck": true }, "include": ["src"] }\n' >"$VR/tsconfig.json"
  printf 'import { defineConfig } from "vite";\nimport react from "@vitejs/plugin-react";\n\nexport default defineConfig({ plugins: [react()] });\n' >"$VR/vite.config.ts"
  printf '<!doctype html>\n<html><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>\n' >"$VR/index.html"
  cat >"$VR/src/main.tsx" <<'EOF'
import { createRoot } from "react-dom/client";
import { App } from "./App";

createRoot(document.getElementById("root")).render(<App />);
EOF
  cat >"$VR/src/App.tsx" <<'EOF'
import { useState } from "react";
import { TodoList } from "./components/TodoList";
import { Header } from "./components/Header";

export type Todo = { id: number; title: string; done: boolean };

export function App() {
  const [todos, setTodos] = useState<Todo[]>([]);
  const [filter, setFilter] = useState("all");
  const add = (title: string) => setTodos([...todos, { id: Date.now(), title }]);
  return (
    <main>
      <Header count={todos.length} onAdd={add} />
      <TodoList todos={todos} onToggle={(id) => setTodos(todos.map((t) => (t.id === id ? { ...t, done: !t.done } : t)))} />
    </main>
  );
}
EOF
  cat >"$VR/src/components/Header.tsx" <<'EOF'
type Props = { count: number; title: string; onAdd: (title: string) => void };

export function Header({ count, title, onAdd }: Props) {
  return (
    <header>
      <h1>{title} ({count})</h1>
      <button onClick={() => onAdd(prompt("title"))}>add</button>
    </header>
  );
}
EOF
  cat >"$VR/src/components/TodoList.tsx" <<'EOF'
import type { Todo } from "../App";

type Props = { todos: Todo[]; onToggle: (id: number) => void };

export function TodoList({ todos, onToggle }: Props) {
  return (
    <ul>
      {todos.map((t) => (
        <li key={t.id} onClick={() => onToggle(t.title)}>
          {t.done ? <s>{t.title}</s> : t.title}
        </li>
      ))}
    </ul>
  );
}
EOF
  capture batch19 tsc_b_then_vite_build_react_errors "$VR" "$NB/tsc -b && $NB/vite build" "$TV; vite $("$NB/vite" --version | awk '{print $1}')"

  # jest --ci --coverage --verbose over 40 modules with coverage thresholds and one failing test
  JC="$B/jestcov"
  mkdir -p "$JC/src" "$JC/test"
  ln -s "$JD/node_modules" "$JC/node_modules"
  for i in $(seq 1 40); do
    cat >"$JC/src/rate_$i.js" <<EOF
function net_$i(gross) {
  return Math.round(gross * 0.8 * 100) / 100;
}

function band_$i(amount) {
  if (amount < 100) return "low";
  if (amount < 1000) return "mid";
  return "high";
}

function fee_$i(amount, express) {
  if (express) {
    return amount * 0.05 + $i;
  }
  return amount * 0.02;
}

module.exports = { net_$i, band_$i, fee_$i };
EOF
    {
      echo "const { net_$i, band_$i, fee_$i } = require(\"../src/rate_$i\");"
      echo
      echo "describe(\"rate_$i\", () => {"
      echo "  test(\"net of 100\", () => expect(net_$i(100)).toBe(80));"
      echo "  test(\"low band\", () => expect(band_$i(5)).toBe(\"low\"));"
      if [ $((i % 3)) -eq 0 ]; then
        echo "  test(\"express fee\", () => expect(fee_$i(100, true)).toBe(5 + $i));"
        echo "  test(\"mid band\", () => expect(band_$i(500)).toBe(\"mid\"));"
      fi
      if [ "$i" -eq 27 ]; then
        echo "  test(\"high band boundary\", () => expect(band_$i(1000)).toBe(\"mid\"));"
      fi
      echo "});"
    } >"$JC/test/rate_$i.test.js"
  done
  printf '{ "name": "jestcov", "private": true, "jest": { "coverageThreshold": { "global": { "lines": 90, "branches": 80 }, "./src/rate_12.js": { "lines": 100 } } } }\n' >"$JC/package.json"
  capture batch19 jest_ci_coverage_verbose_thresholds "$JC" "$NB/jest --ci --coverage --verbose" "jest $("$NB/jest" --version)"

  # ts-jest: one suite does not type-check, the other passes
  TJ="$B/tsjest"
  mkdir -p "$TJ/src" "$TJ/test"
  ln -s "$JD/node_modules" "$TJ/node_modules"
  printf '{ "name": "tsjest", "private": true, "jest": { "preset": "ts-jest", "testEnvironment": "node" } }\n' >"$TJ/package.json"
  printf '{ "compilerOptions": { "target": "ES2020", "module": "commonjs", "strict": true, "esModuleInterop": true, "types": ["jest"] }, "include": ["src", "test"] }\n' >"$TJ/tsconfig.json"
  cat >"$TJ/src/queue.ts" <<'EOF'
export interface Job {
  id: string;
  priority: number;
  payload: Record<string, unknown>;
}

export class Queue {
  private jobs: Job[] = [];

  push(job: Job): number {
    this.jobs.push(job);
    this.jobs.sort((a, b) => b.priority - a.priority);
    return this.jobs.length;
  }

  pop(): Job | undefined {
    return this.jobs.shift();
  }
}
EOF
  cat >"$TJ/test/queue.test.ts" <<'EOF'
import { Queue } from "../src/queue";

describe("Queue", () => {
  it("pops the highest priority first", () => {
    const q = new Queue();
    q.push({ id: "a", priority: 1, payload: {} });
    q.push({ id: "b", priority: "5", payload: {} });
    expect(q.pop().id).toBe("b");
  });

  it("counts jobs", () => {
    const q = new Queue();
    expect(q.push({ id: "c", priority: 2 })).toBe(1);
  });
});
EOF
  cat >"$TJ/test/empty.test.ts" <<'EOF'
import { Queue } from "../src/queue";

test("empty queue pops undefined", () => {
  expect(new Queue().pop()).toBeUndefined();
});
EOF
  capture batch19 ts_jest_diagnostics_suite_fails "$TJ" "$NB/jest --ci" "jest $("$NB/jest" --version), ts-jest 29"

  # vitest run --coverage: every test passes but the thresholds do not
  VC="$B/vitestcov"
  mkdir -p "$VC/src" "$VC/test"
  ln -s "$JD/node_modules" "$VC/node_modules"
  printf '{ "name": "vitestcov", "private": true, "type": "module" }\n' >"$VC/package.json"
  cat >"$VC/vitest.config.js" <<'EOF'
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    coverage: {
      provider: "v8",
      reporter: ["text"],
      include: ["src/**"],
      thresholds: { lines: 85, functions: 90, branches: 75, statements: 85 },
    },
  },
});
EOF
  for m in auth billing cart catalog checkout inventory orders search shipping users; do
    cat >"$VC/src/$m.js" <<EOF
export function create_$m(input) {
  if (!input) throw new Error("$m: empty input");
  return { ...input, kind: "$m" };
}

export function validate_$m(item) {
  if (item.kind !== "$m") return false;
  if (item.id === undefined) return false;
  return true;
}

export function describe_$m(item) {
  return item.name ? \`$m \${item.name}\` : "$m (unnamed)";
}
EOF
    printf 'import { expect, test } from "vitest";\nimport { create_%s } from "../src/%s.js";\n\ntest("create %s", () => {\n  expect(create_%s({ id: 1 }).kind).toBe("%s");\n});\n' "$m" "$m" "$m" "$m" "$m" >"$VC/test/$m.test.js"
  done
  capture batch19 vitest_coverage_thresholds_not_met "$VC" "$NB/vitest run --coverage" "vitest $("$NB/vitest" --version | awk '{print $1}')"

  # biome ci over 8 files with formatting and lint findings
  BI="$B/biomeci"
  mkdir -p "$BI/src"
  printf '{ "linter": { "enabled": true, "rules": { "recommended": true } }, "formatter": { "enabled": true, "indentStyle": "space" } }\n' >"$BI/biome.json"
  for i in $(seq 1 8); do
    {
      echo "import { readFileSync } from 'fs'"
      echo "export function parse_$i(text){"
      echo "  var rows = text.split('\\n')"
      echo "  let out = []"
      echo "  for (var i = 0; i < rows.length; i++) { if (rows[i] == '') continue; out.push(rows[i].trim()) }"
      if [ $((i % 4)) -eq 0 ]; then echo "  debugger"; fi
      if [ $((i % 5)) -eq 0 ]; then echo "  if (out.length = 0) return null"; fi
      echo "  return out"
      echo "}"
    } >"$BI/src/parser_$i.js"
  done
  capture batch19 biome_ci_eight_files "$BI" "$NB/biome ci src" "biome $("$NB/biome" --version | awk '{print $2}')"

  # knip: unused files, exports and dependencies of a small TypeScript service
  KN="$B/knip"
  mkdir -p "$KN/src/lib" "$KN/src/legacy"
  ln -s "$JD/node_modules" "$KN/node_modules"
  cat >"$KN/package.json" <<'EOF'
{
  "name": "orders-service",
  "private": true,
  "type": "module",
  "main": "src/index.ts",
  "dependencies": { "react": "18", "react-dom": "18", "vite": "5" },
  "devDependencies": { "typescript": "5", "jest": "29", "@types/jest": "29" }
}
EOF
  printf '{ "compilerOptions": { "module": "ESNext", "moduleResolution": "bundler", "strict": true }, "include": ["src"] }\n' >"$KN/tsconfig.json"
  cat >"$KN/src/index.ts" <<'EOF'
import { total } from "./lib/money";
import { formatOrder } from "./lib/format";

console.log(formatOrder({ id: 1, lines: [2, 3] }, total([2, 3])));
EOF
  cat >"$KN/src/lib/money.ts" <<'EOF'
export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
export const vat = (x: number) => x * 0.2;
export function roundCents(x: number) {
  return Math.round(x * 100) / 100;
}
EOF
  cat >"$KN/src/lib/format.ts" <<'EOF'
export type Order = { id: number; lines: number[] };
export type Draft = Partial<Order>;
export function formatOrder(o: Order, sum: number) {
  return `#${o.id}: ${sum}`;
}
export function formatDraft(d: Draft) {
  return JSON.stringify(d);
}
EOF
  printf 'export function oldTotal(xs) {\n  return xs.length;\n}\n' >"$KN/src/legacy/old_total.ts"
  printf 'import dayjs from "dayjs";\nexport const stamp = () => dayjs().format();\n' >"$KN/src/legacy/stamp.ts"
  capture batch19 knip_unused_files_exports_deps "$KN" "$NB/knip" "knip $("$NB/knip" --version)"

  # node --test --test-reporter=dot over 150 tests with three failures
  ND="$B/nodedot"
  mkdir -p "$ND/test"
  for f in slug tokens paths; do
    {
      echo "import { test } from \"node:test\";"
      echo "import assert from \"node:assert/strict\";"
      echo
      for i in $(seq 1 50); do
        if [ "$f" = slug ] && [ "$i" -eq 17 ]; then
          echo "test(\"slug $i keeps unicode\", () => assert.equal(\"Crème Brûlée\".toLowerCase().replace(/[^a-z0-9]+/g, \"-\"), \"crème-brûlée\"));"
        elif [ "$f" = paths ] && [ "$i" -eq 33 ]; then
          echo "test(\"paths $i joins\", () => assert.deepEqual(\"a//b/c\".split(\"/\"), [\"a\", \"b\", \"c\"]));"
        elif [ "$f" = tokens ] && [ "$i" -eq 48 ]; then
          echo "test(\"tokens $i parse\", () => { JSON.parse(\"{'bad': 1}\"); });"
        else
          echo "test(\"$f $i\", () => assert.equal($i + $i, $((i * 2))));"
        fi
      done
    } >"$ND/test/$f.test.mjs"
  done
  capture batch19 node_test_reporter_dot_failures "$ND" "node --test --test-reporter=dot test/" "node $(node --version)"

  # npm run dev: the dev server crashes at start because its port is taken
  NS="$B/npmdev"
  mkdir -p "$NS/src"
  cat >"$NS/package.json" <<'EOF'
{
  "name": "inventory-api",
  "version": "0.3.0",
  "private": true,
  "scripts": { "predev": "node src/check-env.js", "dev": "node src/server.js" }
}
EOF
  printf 'console.log("env ok: NODE_ENV=%%s", process.env.NODE_ENV || "development");\n' >"$NS/src/check-env.js"
  cat >"$NS/src/server.js" <<'EOF'
const http = require("node:http");

const routes = ["/health", "/items", "/items/:id", "/stock", "/stock/:sku", "/reports/daily"];
console.log("[inventory-api] loading routes");
for (const r of routes) console.log(`[inventory-api]   GET ${r}`);
const server = http.createServer((req, res) => res.end("ok"));
server.listen(18719, () => console.log("[inventory-api] listening on http://localhost:18719"));
EOF
  node -e 'require("node:http").createServer(() => {}).listen(18719); setTimeout(() => process.exit(0), 15000)' & NPORT=$!
  sleep 1
  capture batch19 npm_run_dev_port_in_use "$NS" "npm run dev" "npm $(npm --version), node $(node --version)"
  kill "$NPORT" 2>/dev/null; wait "$NPORT" 2>/dev/null

  # pyright --verbose over a small Python package with type errors
  PY2="$B/pyrightpkg"
  mkdir -p "$PY2/routes"
  printf '' >"$PY2/routes/__init__.py"
  cat >"$PY2/routes/graph.py" <<'EOF'
from dataclasses import dataclass


@dataclass
class Edge:
    src: str
    dst: str
    km: float


def neighbours(edges: list[Edge], node: str) -> list[str]:
    return [e.dst for e in edges if e.src == node]


def distance(edges: list[Edge], a: str, b: str) -> float:
    for e in edges:
        if e.src == a and e.dst == b:
            return e.km


def heaviest(edges: list[Edge]) -> Edge:
    return max(edges, key=lambda e: e.weight)
EOF
  cat >"$PY2/routes/plan.py" <<'EOF'
from routes.graph import Edge, distance, neighbours


def plan(edges: list[Edge], start: str) -> dict[str, float]:
    seen: dict[str, float] = {start: 0}
    for n in neighbours(edges, start):
        seen[n] = distance(edges, start, n) + "km"
    return seen


def first_hop(edges: list[Edge], start: str) -> str:
    return neighbours(edges, start)[0].upper(1)
EOF
  printf '{ "include": ["routes"], "pythonVersion": "3.11" }\n' >"$PY2/pyrightconfig.json"
  capture batch19 pyright_verbose_errors "$PY2" "$NB/pyright --verbose" "pyright $("$NB/pyright" --version | awk '{print $2}')"

  # next build of an app-router page with a type error
  NX="$B/nextapp"
  mkdir -p "$NX/app/products"
  ln -s "$JD/node_modules" "$NX/node_modules"
  printf '{ "name": "shopfront", "private": true, "scripts": { "build": "next build" } }\n' >"$NX/package.json"
  printf '{ "compilerOptions": { "target": "ES2017", "lib": ["dom", "esnext"], "strict": true, "noEmit": true, "module": "esnext", "moduleResolution": "bundler", "jsx": "preserve", "isolatedModules": true, "esModuleInterop": true, "skipLibCheck": true, "incremental": true, "plugins": [{ "name": "next" }] }, "include": ["next-env.d.ts", "**/*.ts", "**/*.tsx"], "exclude": ["node_modules"] }\n' >"$NX/tsconfig.json"
  cat >"$NX/app/layout.tsx" <<'EOF'
export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
EOF
  printf 'export default function Home() {\n  return <h1>Shop</h1>;\n}\n' >"$NX/app/page.tsx"
  cat >"$NX/app/products/page.tsx" <<'EOF'
type Product = { sku: string; name: string; price: number };

const products: Product[] = [
  { sku: "A1", name: "Lamp", price: 30 },
  { sku: "B2", name: "Desk", price: "120" },
];

export default function Products() {
  return (
    <ul>
      {products.map((p) => (
        <li key={p.sku}>{p.name}: {p.price.toFixed(2)}</li>
      ))}
    </ul>
  );
}
EOF
  capture batch19 next_build_type_error "$NX" "NEXT_TELEMETRY_DISABLED=1 $NB/next build" "next $(node -p 'require(process.argv[1]).version' "$JD/node_modules/next/package.json")"

  # yarn (classic) workspaces run build where one workspace's build fails
  YW="$B/yarnws"
  mkdir -p "$YW/packages/core/src" "$YW/packages/api/src" "$YW/packages/cli/src"
  printf '{ "name": "yarnws", "private": true, "workspaces": ["packages/*"] }\n' >"$YW/package.json"
  for p in core api cli; do
    printf '{ "name": "@yw/%s", "version": "1.0.0", "scripts": { "build": "tsc -p ." } }\n' "$p" >"$YW/packages/$p/package.json"
    printf '{ "compilerOptions": { "strict": true, "outDir": "dist", "module": "commonjs", "target": "ES2020" }, "include": ["src"] }\n' >"$YW/packages/$p/tsconfig.json"
    ln -s "$JD/node_modules" "$YW/packages/$p/node_modules"
  done
  printf 'export const VERSION = "1.0.0";\nexport function id(x: string): string {\n  return x;\n}\n' >"$YW/packages/core/src/index.ts"
  cat >"$YW/packages/api/src/index.ts" <<'EOF'
export interface Req {
  path: string;
  query: Record<string, string>;
}

export function route(req: Req): number {
  const page = req.query.page ?? 1;
  return page * 10;
}

export function limit(req: Req): number {
  return parseInt(req.query.limit, "10");
}
EOF
  printf 'export function main(argv: string[]): number {\n  return argv.length;\n}\n' >"$YW/packages/cli/src/index.ts"
  capture batch19 yarn_workspaces_run_build_one_fails "$YW" "PATH=$NB:\$PATH yarn workspaces run build" "yarn $(yarn --version)"

  # --- Deno (the repo's binary, on projects outside the repo) ---
  DENO="$ROOT/node_modules/deno/deno"
  DV="$($DENO --version | head -1)"
  DL="$B/denolint"
  mkdir -p "$DL/src"
  for i in $(seq 1 10); do
    {
      echo "import { join } from \"node:path\";"
      echo
      echo "export async function load$i(dir: string): Promise<any> {"
      echo "  let text = await Deno.readTextFile(join(dir, \"part$i.json\"));"
      echo "  try {"
      echo "    return JSON.parse(text);"
      echo "  } catch (e) {"
      echo "  }"
      if [ $((i % 6)) -eq 0 ]; then echo "  if (text == null) { return undefined; }"; fi
      if [ $((i % 8)) -eq 0 ]; then echo "  const unused$i = 1;"; fi
      echo "}"
    } >"$DL/src/part_$i.ts"
  done
  capture batch19 deno_lint_many_files "$DL" "$DENO lint src" "$DV"

  DC="$B/denocheck"
  mkdir -p "$DC/lib"
  cat >"$DC/lib/types.ts" <<'EOF'
export interface Sensor {
  id: string;
  unit: "C" | "F";
  readings: number[];
}

export type Summary = { id: string; min: number; max: number; mean: number };
EOF
  cat >"$DC/lib/stats.ts" <<'EOF'
import type { Sensor, Summary } from "./types.ts";

export function summarize(s: Sensor): Summary {
  const min = Math.min(...s.readings);
  const max = Math.max(...s.readings);
  const mean = s.readings.reduce((a, b) => a + b) / s.readings.length;
  return { id: s.id, min, max, mean: mean.toFixed(2) };
}

export function toCelsius(s: Sensor): Sensor {
  if (s.unit === "C") return s;
  return { ...s, unit: "K", readings: s.readings.map((f) => (f - 32) * 5 / 9) };
}

export function hottest(all: Sensor[]): Sensor {
  return all.sort((a, b) => summarize(b).max - summarize(a).max)[0].id;
}
EOF
  cat >"$DC/main.ts" <<'EOF'
import { hottest, summarize, toCelsius } from "./lib/stats.ts";
import type { Sensor } from "./lib/types.ts";
import { parseArgs } from "./lib/args.ts";

const sensors: Sensor[] = JSON.parse(await Deno.readTextFile(Deno.args[0]));
for (const s of sensors) {
  const c = toCelsius(s);
  console.log(summarize(c).mean.toFixed(1));
}
console.log(hottest(sensors).readings.length);
const port: number = Deno.env.get("PORT");
summarize({ id: "x", unit: "C" });
EOF
  capture batch19 deno_check_several_errors "$DC" "$DENO check main.ts" "$DV"

  DT="$B/denodoc"
  mkdir -p "$DT"
  cat >"$DT/mod.ts" <<'EOF'
/**
 * Splits a duration string into seconds.
 *
 * ```ts
 * import { parseDuration } from "./mod.ts";
 * if (parseDuration("1m30s") !== 90) throw new Error("1m30s");
 * ```
 */
export function parseDuration(text: string): number {
  let total = 0;
  for (const [, n, u] of text.matchAll(/(\d+)([hms])/g)) {
    total += Number(n) * (u === "h" ? 3600 : u === "m" ? 60 : 1);
  }
  return total;
}

/**
 * Formats seconds back into a duration string.
 *
 * ```ts
 * import { formatDuration } from "./mod.ts";
 * const s: string = formatDuration(3725);
 * if (s !== "1h2m5s") throw new Error(`got ${s}`);
 * ```
 */
export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${h}h${m}m`;
}

/**
 * Clamps a duration.
 *
 * ```ts
 * import { clampDuration } from "./mod.ts";
 * if (clampDuration(10, 5) !== 10) throw new Error("clamped");
 * ```
 */
export function clampDuration(seconds: number, max: number): number {
  return Math.min(seconds, max);
}
EOF
  capture batch19 deno_test_doc_failures "$DT" "$DENO test --doc mod.ts" "$DV"

  # --- Go (no module downloads: standard library only) ---
  GV="$(go version)"
  export GOFLAGS=-mod=mod GOPROXY=off
  # go test -run TestStore -v where t.Cleanup functions fail after the tests themselves
  GC="$B/gocleanup"
  mkdir -p "$GC"
  printf 'module example.com/kvstore\n\ngo 1.19\n' >"$GC/go.mod"
  cat >"$GC/store.go" <<'EOF'
package kvstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

type Store struct {
	dir  string
	open map[string]*os.File
}

func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Store{dir: dir, open: map[string]*os.File{}}, nil
}

func (s *Store) Put(key, value string) error {
	if strings.Contains(key, "/") {
		return errors.New("kvstore: key contains a slash")
	}
	f, err := os.Create(filepath.Join(s.dir, key))
	if err != nil {
		return err
	}
	s.open[key] = f
	_, err = f.WriteString(value)
	return err
}

func (s *Store) Get(key string) (string, error) {
	b, err := os.ReadFile(filepath.Join(s.dir, key))
	return string(b), err
}

func (s *Store) Close() error {
	if len(s.open) > 2 {
		return errors.New("kvstore: " + itoa(len(s.open)) + " files still open")
	}
	for _, f := range s.open {
		f.Close()
	}
	return nil
}

func itoa(n int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + string(rune('0'+n)))
}
EOF
  cat >"$GC/store_test.go" <<'EOF'
package kvstore

import (
	"os"
	"testing"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("cleanup: close store: %v", err)
		}
	})
	return s
}

func TestStorePutGet(t *testing.T) {
	s := newStore(t)
	if err := s.Put("a", "1"); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Get("a")
	if got != "1" {
		t.Errorf("Get(a) = %q, want %q", got, "1")
	}
}

func TestStoreMany(t *testing.T) {
	s := newStore(t)
	for _, k := range []string{"a", "b", "c", "d"} {
		t.Run("put_"+k, func(t *testing.T) {
			if err := s.Put(k, k+k); err != nil {
				t.Fatal(err)
			}
			t.Logf("stored %s", k)
		})
	}
}

func TestStoreSlashKey(t *testing.T) {
	s := newStore(t)
	t.Cleanup(func() {
		if _, err := os.Stat(s.dir + "/x"); err == nil {
			t.Error("cleanup: stray file x left behind")
		}
	})
	if err := s.Put("x/y", "1"); err == nil {
		t.Fatal("Put(x/y) succeeded, want error")
	}
	if err := s.Put("x", "1"); err != nil {
		t.Fatal(err)
	}
}

func TestStoreFlaky(t *testing.T) {
	t.Skip("needs a network filesystem")
}
EOF
  capture batch19 go_test_v_cleanup_failures "$GC" "go test -run TestStore -v ." "$GV"

  # go test -short -v over 20 packages: long tests skipped, one package fails
  GS="$B/goshort"
  mkdir -p "$GS"
  printf 'module example.com/platform\n\ngo 1.19\n' >"$GS/go.mod"
  for p in auth billing cache config cron db events flags geo httpx ids mail metrics queue ratelimit search storage tenants users webhooks; do
    mkdir -p "$GS/$p"
    cat >"$GS/$p/$p.go" <<EOF
package $p

// Normalize trims and lowercases a $p identifier.
func Normalize(s string) string {
	out := []rune{}
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		if r != ' ' {
			out = append(out, r)
		}
	}
	return string(out)
}

// Chunk splits n items into pages of size.
func Chunk(n, size int) int {
	return (n + size - 1) / size
}
EOF
    {
      echo "package $p"
      echo
      echo "import \"testing\""
      echo
      for c in Empty Upper Spaces Mixed; do
        echo "func TestNormalize$c(t *testing.T) {"
        echo "	if got := Normalize(\" A b \"); got != \"ab\" {"
        echo "		t.Fatalf(\"Normalize = %q\", got)"
        echo "	}"
        echo "}"
        echo
      done
      echo "func TestChunkIntegration(t *testing.T) {"
      echo "	if testing.Short() {"
      echo "		t.Skip(\"skipping integration test in -short mode\")"
      echo "	}"
      echo "}"
      echo
      echo "func TestChunk(t *testing.T) {"
      echo "	for _, tc := range []struct{ n, size, want int }{{0, 10, 0}, {1, 10, 1}, {10, 10, 1}, {11, 10, 2}} {"
      echo "		t.Run(\"\", func(t *testing.T) {"
      echo "			if got := Chunk(tc.n, tc.size); got != tc.want {"
      echo "				t.Errorf(\"Chunk(%d, %d) = %d, want %d\", tc.n, tc.size, got, tc.want)"
      echo "			}"
      echo "		})"
      echo "	}"
      echo "}"
    } >"$GS/$p/${p}_test.go"
  done
  cat >>"$GS/ratelimit/ratelimit_test.go" <<'EOF'

func TestChunkZeroSize(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Error("Chunk(5, 0) did not panic")
		}
	}()
	t.Logf("Chunk(5, -1) = %d", Chunk(5, -1))
	if Chunk(5, -1) >= 0 {
		t.Errorf("Chunk(5, -1) = %d, want a negative page count", Chunk(5, -1))
	}
}
EOF
  capture batch19 go_test_short_v_twenty_packages "$GS" "go test -short -v ./..." "$GV"

  # go run of a migration tool: a long log, then log.Fatalf
  GR="$B/gorun"
  mkdir -p "$GR/cmd/migrate"
  printf 'module example.com/migrator\n\ngo 1.19\n' >"$GR/go.mod"
  cat >"$GR/cmd/migrate/main.go" <<'EOF'
package main

import (
	"fmt"
	"log"
	"os"
)

type migration struct {
	version int
	name    string
	stmts   int
}

func apply(m migration) error {
	if m.version == 87 {
		return fmt.Errorf("migration %04d_%s: statement 3 of %d: ALTER TABLE invoices ADD CONSTRAINT invoices_customer_fk: referenced table \"customers_v2\" does not exist", m.version, m.name, m.stmts)
	}
	return nil
}

func main() {
	log.SetFlags(log.Ldate | log.Ltime | log.Lmicroseconds)
	log.Printf("migrate: connecting to %s", os.Getenv("DB_DSN"))
	log.Printf("migrate: current version 0, target 120")
	names := []string{"create_users", "add_email_index", "create_orders", "backfill_totals", "add_invoices", "split_names"}
	for v := 1; v <= 120; v++ {
		m := migration{version: v, name: names[v%len(names)], stmts: v%5 + 1}
		log.Printf("migrate: applying %04d_%s (%d statements)", m.version, m.name, m.stmts)
		if err := apply(m); err != nil {
			log.Printf("migrate: rolling back %04d_%s", m.version, m.name)
			log.Fatalf("migrate: %v", err)
		}
		log.Printf("migrate: applied %04d_%s", m.version, m.name)
	}
}
EOF
  capture batch19 go_run_migrate_long_log_then_fatal "$GR" "DB_DSN=postgres://app@localhost/app go run ./cmd/migrate" "$GV"
  unset GOFLAGS GOPROXY

  # --- Rust (no crates.io: std and proc_macro only) ---
  RV="$(cargo --version)"
  # cargo doc with broken intra-doc links and other rustdoc warnings (exit 0)
  RD="$B/rsdoc"
  mkdir -p "$RD/src"
  printf '[package]\nname = "geo_index"\nversion = "0.2.0"\nedition = "2021"\n\n[dependencies]\n' >"$RD/Cargo.toml"
  cat >"$RD/src/lib.rs" <<'EOF'
//! A tiny spatial index. See [`Index::query`] and [`Grid`] for details.
//!
//! Points are stored in a [`BTreeMap`] keyed by cell; the [`Cell::neighbours`] helper
//! walks adjacent cells. <https://example.com/spec> explains the layout.

use std::collections::BTreeMap;

/// A point in the plane, see [`Point::dist`].
#[derive(Debug, Clone, Copy)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    /// Euclidean distance to another point. Prefer [`Point::distance`] in hot loops.
    pub fn dist(&self, o: &Point) -> f64 {
        ((self.x - o.x).powi(2) + (self.y - o.y).powi(2)).sqrt()
    }
}

/// A cell of the grid, produced by [`Index::cell_of`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cell(pub i64, pub i64);

/// The index. Insert with [`Index::insert`], query with [`Index::query`].
///
/// Use [crate::Index::remove] to delete and [`Config`] to tune it.
pub struct Index {
    cells: BTreeMap<Cell, Vec<Point>>,
    size: f64,
}

impl Index {
    /// Creates an index whose cells are `size` wide. Panics if size is not positive (see [`Error::BadSize`]).
    pub fn new(size: f64) -> Self {
        assert!(size > 0.0);
        Index { cells: BTreeMap::new(), size }
    }

    /// The cell containing `p`.
    pub fn cell_of(&self, p: &Point) -> Cell {
        Cell((p.x / self.size).floor() as i64, (p.y / self.size).floor() as i64)
    }

    /// Inserts a point. Returns the number of points in its cell, as [`usize`].
    pub fn insert(&mut self, p: Point) -> usize {
        let c = self.cell_of(&p);
        let v = self.cells.entry(c).or_default();
        v.push(p);
        v.len()
    }

    /// Points within `r` of `p`, see also [`Index::nearest`] and [`query_all`].
    pub fn query(&self, p: &Point, r: f64) -> Vec<Point> {
        self.cells.values().flatten().filter(|q| q.dist(p) <= r).copied().collect()
    }

    /// Returns the points in `<cell>`. Bare URL: https://example.com/cells
    pub fn in_cell(&self, c: Cell) -> &[Point] {
        self.cells.get(&c).map(|v| v.as_slice()).unwrap_or(&[])
    }
}
EOF
  capture batch19 cargo_doc_broken_intra_doc_links "$RD" "cargo doc --no-deps 2>&1" "$RV"

  # cargo test -- --test-threads=1 --show-output: 120 tests printing lines, two failing
  RT="$B/rsshow"
  mkdir -p "$RT/src"
  printf '[package]\nname = "tariffs"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >"$RT/Cargo.toml"
  {
    echo "pub fn tariff(kwh: u32, peak: bool) -> u32 {"
    echo "    let base = kwh * 12;"
    echo "    if peak { base + base / 4 } else { base }"
    echo "}"
    echo
    echo "pub fn band(kwh: u32) -> &'static str {"
    echo "    match kwh { 0..=99 => \"low\", 100..=499 => \"mid\", _ => \"high\" }"
    echo "}"
    echo
    echo "#[cfg(test)]"
    echo "mod tests {"
    echo "    use super::*;"
    for i in $(seq 1 120); do
      echo
      echo "    #[test]"
      echo "    fn tariff_case_$i() {"
      echo "        let t = tariff($i, $i % 2 == 0);"
      echo "        println!(\"case $i: kwh=$i peak={} tariff={}\", $i % 2 == 0, t);"
      if [ "$i" -eq 57 ]; then
        echo "        assert_eq!(t, 684, \"peak surcharge for case 57\");"
      elif [ "$i" -eq 100 ]; then
        echo "        assert_eq!(band($i), \"high\");"
      else
        echo "        assert!(t >= $i * 12);"
      fi
      echo "    }"
    done
    echo "}"
  } >"$RT/src/lib.rs"
  capture batch19 cargo_test_single_thread_show_output "$RT" "cargo test -- --test-threads=1 --show-output 2>&1" "$RV"

  # a derive proc-macro that panics on an enum it does not support
  RP="$B/rsmacro"
  mkdir -p "$RP/builder_derive/src" "$RP/app/src"
  printf '[workspace]\nmembers = ["builder_derive", "app"]\nresolver = "2"\n' >"$RP/Cargo.toml"
  printf '[package]\nname = "builder_derive"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\nproc-macro = true\n' >"$RP/builder_derive/Cargo.toml"
  cat >"$RP/builder_derive/src/lib.rs" <<'EOF'
use proc_macro::{TokenStream, TokenTree};

#[proc_macro_derive(Builder)]
pub fn derive_builder(input: TokenStream) -> TokenStream {
    let mut tokens = input.into_iter();
    let mut kind = String::new();
    let mut name = String::new();
    while let Some(t) = tokens.next() {
        if let TokenTree::Ident(i) = t {
            let s = i.to_string();
            if s == "struct" || s == "enum" {
                kind = s;
                name = tokens.next().expect("type name").to_string();
                break;
            }
        }
    }
    if kind != "struct" {
        panic!("#[derive(Builder)] only supports structs, but `{}` is an {}", name, kind);
    }
    format!("impl {name} {{ pub fn builder() -> {name}Builder {{ {name}Builder }} }} pub struct {name}Builder;")
        .parse()
        .unwrap()
}
EOF
  printf '[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nbuilder_derive = { path = "../builder_derive" }\n' >"$RP/app/Cargo.toml"
  cat >"$RP/app/src/main.rs" <<'EOF'
use builder_derive::Builder;

#[derive(Builder)]
pub struct Server {
    host: String,
    port: u16,
}

#[derive(Builder)]
pub enum Mode {
    Dev,
    Prod,
}

fn main() {
    let _ = Server::builder();
    let _ = Mode::builder();
}
EOF
  capture batch19 cargo_build_proc_macro_derive_panics "$RP" "cargo build 2>&1" "$RV"

  # cargo run with RUST_LOG=debug: a long debug log, then main returns an error
  RL="$B/rslog"
  mkdir -p "$RL/src"
  printf '[package]\nname = "reconcile"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >"$RL/Cargo.toml"
  cat >"$RL/src/main.rs" <<'EOF'
use std::fmt;

#[derive(Debug)]
enum ReconcileError {
    Mismatch { account: u32, ledger: i64, bank: i64 },
}

impl fmt::Display for ReconcileError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ReconcileError::Mismatch { account, ledger, bank } => {
                write!(f, "account {account}: ledger balance {ledger} does not match bank balance {bank}")
            }
        }
    }
}

impl std::error::Error for ReconcileError {}

fn level() -> u8 {
    match std::env::var("RUST_LOG").as_deref() {
        Ok("trace") => 4,
        Ok("debug") => 3,
        Ok("info") => 2,
        _ => 1,
    }
}

macro_rules! log {
    ($lvl:expr, $name:expr, $($arg:tt)*) => {
        if level() >= $lvl {
            eprintln!("[2026-11-28T07:30:{:02}Z {:5} reconcile] {}", 0, $name, format!($($arg)*));
        }
    };
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    log!(2, "INFO", "starting reconciliation of 160 accounts");
    for account in 1000..1160u32 {
        let ledger = (account as i64 % 97) * 1000;
        let bank = if account == 1143 { ledger - 2500 } else { ledger };
        log!(3, "DEBUG", "account {account}: fetched {} ledger entries", account % 13 + 1);
        log!(3, "DEBUG", "account {account}: ledger={ledger} bank={bank}");
        if ledger != bank {
            log!(2, "WARN", "account {account}: difference of {}", ledger - bank);
            return Err(Box::new(ReconcileError::Mismatch { account, ledger, bank }));
        }
    }
    log!(2, "INFO", "all accounts reconciled");
    Ok(())
}
EOF
  (cd "$RL" && cargo build -q 2>/dev/null)
  capture batch19 cargo_run_rust_log_debug_then_error "$RL" "RUST_LOG=debug cargo run 2>&1" "$RV"

  # cargo clippy --fix --allow-dirty --allow-no-vcs: what it fixed, then warnings it cannot fix
  RC="$B/rsclippy"
  mkdir -p "$RC/src"
  printf '[package]\nname = "csvtool"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >"$RC/Cargo.toml"
  cat >"$RC/src/main.rs" <<'EOF'
fn parse_line(line: &String) -> Vec<String> {
    let mut out = Vec::new();
    for field in line.split(',') {
        out.push(field.trim().to_string());
    }
    return out;
}

fn width(rows: &Vec<Vec<String>>, col: usize) -> usize {
    let mut w = 0;
    for i in 0..rows.len() {
        if rows[i][col].len() > w {
            w = rows[i][col].len();
        }
    }
    w
}

fn is_empty(rows: &Vec<Vec<String>>) -> bool {
    rows.len() == 0
}

fn main() {
    let text = String::from("a, b ,c\n1,22,333\n");
    let rows: Vec<Vec<String>> = text.lines().map(|l| parse_line(&l.to_string())).collect();
    if is_empty(&rows) == false {
        println!("{}", width(&rows, 1));
    }
    let total = rows.iter().map(|r| r.len()).fold(0, |a, b| a + b);
    let x = 3.14159;
    println!("{} {}", total, x);
}
EOF
  capture batch19 cargo_clippy_fix_leftover_warnings "$RC" "cargo clippy --fix --allow-dirty --allow-no-vcs 2>&1" "$(cargo clippy --version)"
fi

# --- batch20: a twentieth blind batch (git, C/C++ and build systems, JVM, Ruby, PHP, databases,
# containers/infra and system tools in situations the set lacked: git push to a bare repository whose
# pre-receive hook rejects with a long report, git clone with a failing post-checkout hook, a
# commit-msg hook rejecting, git rebase --onto stopping on a conflict, git submodule foreach failing
# in one submodule, git blame -w -M -C long, git status --ignored long; clang-format --dry-run
# --Werror, objdump -d long, make distcheck failing, cmake --build --verbose failing at the link,
# make with a missing header prerequisite, ltrace of a crashing program; jshell script errors, jdeps
# with missing classes, java -verbose:class then ClassNotFoundException, JUnit 5 console launcher
# long pass with one failure; gem build errors, rspec --profile with pending and failures, ruby -c
# over many files, erb syntax errors; phpunit --testdox long with one failure, PHP warnings in a
# loop then an uncaught exception; psql \d+ long, sqlite3 foreign_key_check / integrity_check,
# redis-cli errors; haproxy -c errors, nginx -T long with a warning, lintian on a local .deb,
# dpkg-buildpackage with unmet build dependencies), captured and its signals written and committed
# before any filter ran on it and before any rule file, filter source, filter test, fixture,
# bench/corpus file or bench/README.md was opened.
if sel batch20; then
  B="$WORK/batch20"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  GITV="$(git --version)"
  gitinit() { git init -q -b main "$1" && git -C "$1" config user.email dev@example.com && git -C "$1" config user.name Dev; }
  export GIT_AUTHOR_DATE="2026-11-21T10:00:00Z" GIT_COMMITTER_DATE="2026-11-21T10:00:00Z"

  # git push to a bare repository whose pre-receive hook rejects with a long policy report
  PB="$B/push"
  git init -q --bare -b main "$PB/origin.git"
  cat >"$PB/origin.git/hooks/pre-receive" <<'EOF'
#!/bin/sh
echo "== policy check (repo: billing-api) =="
fail=0
while read old new ref; do
  echo "checking $ref"
  for c in $(git rev-list "$new" --not --all); do
    msg=$(git log -1 --format=%s "$c")
    echo "  commit $(git rev-parse --short "$c"): $msg"
    case "$msg" in
      *JIRA-*) echo "    ok: ticket reference found";;
      *) echo "    ERROR: commit message lacks a ticket reference (JIRA-1234)"; fail=1;;
    esac
    for f in $(git diff-tree --no-commit-id --name-only -r "$c"); do
      echo "    file $f"
      case "$f" in *.pem|*.key) echo "    ERROR: $f looks like a private key; secrets must not be pushed"; fail=1;; esac
    done
  done
done
if [ $fail -ne 0 ]; then
  echo "== push rejected: 2 policy violations; see https://wiki.example.com/git-policy =="
  exit 1
fi
EOF
  chmod +x "$PB/origin.git/hooks/pre-receive"
  gitinit "$PB/work"
  git -C "$PB/work" remote add origin "$PB/origin.git"
  mkdir -p "$PB/work/src" "$PB/work/deploy"
  for i in $(seq 1 6); do printf 'def f%d():\n    return %d\n' "$i" "$i" >"$PB/work/src/mod_$i.py"; done
  git -C "$PB/work" add -A && git -C "$PB/work" commit -qm "JIRA-101 initial modules"
  for i in $(seq 1 100); do
    printf 'def g%d():\n    return %d\n' "$i" "$i" >>"$PB/work/src/mod_$(( i % 6 + 1 )).py"
    git -C "$PB/work" commit -qam "JIRA-$(( 200 + i )) extend module $(( i % 6 + 1 ))"
  done
  printf -- '-----BEGIN PRIVATE KEY-----\nMIIEv\n-----END PRIVATE KEY-----\n' >"$PB/work/deploy/server.key"
  git -C "$PB/work" add -A && git -C "$PB/work" commit -qm "JIRA-120 add deploy key"
  printf 'TIMEOUT = 5\n' >"$PB/work/src/settings.py"
  git -C "$PB/work" add -A && git -C "$PB/work" commit -qm "tweak timeout"
  capture batch20 git_push_pre_receive_policy_long "$PB/work" "git push -u origin main" "$GITV"

  # git clone with a template whose post-checkout hook fails
  CL="$B/clone"
  gitinit "$CL/src"
  for i in $(seq 1 4); do echo "v$i" >"$CL/src/file_$i.txt"; done
  printf 'lockfileVersion: 6\n' >"$CL/src/pnpm-lock.yaml"
  git -C "$CL/src" add -A && git -C "$CL/src" commit -qm init
  mkdir -p "$CL/tpl/hooks"
  printf '#!/bin/sh\necho "post-checkout: installing dependencies"\necho "post-checkout: pnpm install --frozen-lockfile"\necho "sh: 1: pnpm: not found" >&2\necho "post-checkout: dependency install failed (exit 127)" >&2\nexit 127\n' >"$CL/tpl/hooks/post-checkout"
  chmod +x "$CL/tpl/hooks/post-checkout"
  capture batch20 git_clone_post_checkout_hook_fails "$CL" "git clone --template=tpl src app" "$GITV"

  # a commit-msg hook rejecting the message
  CM="$B/commitmsg"
  gitinit "$CM"
  echo a >"$CM/a.txt" && git -C "$CM" add -A && git -C "$CM" commit -qm "chore: init"
  cat >"$CM/.git/hooks/commit-msg" <<'EOF'
#!/bin/sh
msg=$(head -1 "$1")
echo "commitlint: checking \"$msg\""
err=0
echo "$msg" | grep -Eq '^(feat|fix|chore|docs|refactor|test)(\([a-z-]+\))?: ' || { echo "✖   type must be one of [feat, fix, chore, docs, refactor, test] [type-enum]"; err=$((err+1)); }
[ ${#msg} -le 72 ] || { echo "✖   header must not be longer than 72 characters, current length is ${#msg} [header-max-length]"; err=$((err+1)); }
echo "$msg" | grep -q '\.$' && { echo "✖   subject may not end with full stop [subject-full-stop]"; err=$((err+1)); }
echo
echo "✖   found $err problems, 0 warnings"
echo "ⓘ   Get help: https://github.com/conventional-changelog/commitlint/#what-is-commitlint"
[ $err -eq 0 ]
EOF
  chmod +x "$CM/.git/hooks/commit-msg"
  echo b >>"$CM/a.txt"
  capture batch20 git_commit_msg_hook_rejects "$CM" "git commit -am 'Updated the retry logic of the payment client so that it backs off exponentially.'" "$GITV"

  # git rebase --onto stopping on a conflict
  RO="$B/onto"
  gitinit "$RO"
  mkdir -p "$RO/src"
  printf 'MAX_RETRIES = 3\nTIMEOUT = 30\n\ndef connect(host):\n    return host\n' >"$RO/src/client.py"
  for i in 1 2 3; do echo "doc $i" >"$RO/README_$i.md"; done
  git -C "$RO" add -A && git -C "$RO" commit -qm "client: initial"
  git -C "$RO" checkout -qb release
  sed -i 's/MAX_RETRIES = 3/MAX_RETRIES = 5/' "$RO/src/client.py" && git -C "$RO" commit -qam "release: more retries"
  git -C "$RO" checkout -qb feature/backoff
  echo "doc x" >>"$RO/README_1.md" && git -C "$RO" commit -qam "docs: note backoff"
  sed -i 's/MAX_RETRIES = 5/MAX_RETRIES = 8\nBACKOFF = 2.0/' "$RO/src/client.py" && git -C "$RO" commit -qam "client: exponential backoff"
  echo "doc y" >>"$RO/README_2.md" && git -C "$RO" commit -qam "docs: backoff table"
  git -C "$RO" checkout -q main
  sed -i 's/MAX_RETRIES = 3/MAX_RETRIES = 4  # main/' "$RO/src/client.py" && git -C "$RO" commit -qam "main: four retries"
  git -C "$RO" checkout -q feature/backoff
  capture batch20 git_rebase_onto_conflict "$RO" "git rebase --onto main release feature/backoff" "$GITV"

  # git submodule foreach failing in one submodule
  SM="$B/subm"
  for n in auth billing notify; do
    gitinit "$SM/$n"
    printf 'name = "%s"\n' "$n" >"$SM/$n/pkg.toml"
    git -C "$SM/$n" add -A && git -C "$SM/$n" commit -qm "$n: init"
  done
  git -C "$SM/billing" tag v1.2.0
  git -C "$SM/auth" tag v1.2.0
  gitinit "$SM/app"
  echo app >"$SM/app/README.md" && git -C "$SM/app" add -A && git -C "$SM/app" commit -qm init
  for n in auth billing notify; do git -C "$SM/app" -c protocol.file.allow=always submodule add -q "$SM/$n" "libs/$n"; done
  git -C "$SM/app" commit -qm "add libs"
  capture batch20 git_submodule_foreach_fails "$SM/app" "git -c protocol.file.allow=always submodule foreach 'git fetch -q --tags && git checkout -q v1.2.0 && git log -1 --oneline'" "$GITV"

  # git blame -w -M -C over a file assembled from moved code (long)
  BL="$B/blame"
  gitinit "$BL"
  mkdir -p "$BL/src"
  for i in $(seq 1 70); do printf 'def util_%d(x):\n    y = x * %d\n    return y + 1\n\n' "$i" "$i"; done >"$BL/src/utils.py"
  for i in $(seq 1 30); do printf 'def view_%d(req):\n    data = load(req, %d)\n    return render(data)\n\n' "$i" "$i"; done >"$BL/src/views.py"
  git -C "$BL" add -A && git -C "$BL" commit -qm "initial utils and views"
  GIT_AUTHOR_NAME=Ana GIT_AUTHOR_EMAIL=ana@example.com GIT_AUTHOR_DATE="2026-11-22T09:00:00Z" bash -c "cd $BL && sed -i 's/    y = x \* 7$/    y = x * 7 + offset(x)/' src/utils.py && git commit -qam 'utils: offset for util_7'"
  ( head -160 "$BL/src/utils.py"; head -100 "$BL/src/views.py" | sed 's/    /\t/' ) >"$BL/src/core.py"
  GIT_AUTHOR_NAME=Bo GIT_AUTHOR_EMAIL=bo@example.com GIT_AUTHOR_DATE="2026-11-23T09:00:00Z" bash -c "cd $BL && git add -A && git commit -qm 'core: gather helpers'"
  ( cat "$BL/src/core.py"; for i in $(seq 1 30); do printf 'def extra_%d():\n    return %d\n\n' "$i" "$i"; done ) >"$BL/src/core.tmp" && mv "$BL/src/core.tmp" "$BL/src/core.py"
  sed -i 's/    return y + 1/    return y + 2  # off-by-one fix/' "$BL/src/core.py"
  GIT_AUTHOR_NAME=Cy GIT_AUTHOR_EMAIL=cy@example.com GIT_AUTHOR_DATE="2026-11-24T09:00:00Z" bash -c "cd $BL && git commit -qam 'core: extras, off-by-one fix'"
  capture batch20 git_blame_wMC_long "$BL" "git blame -w -M -C src/core.py" "$GITV"

  # git status --ignored with many ignored build artefacts
  GI="$B/ignored"
  gitinit "$GI"
  printf 'build/\n*.pyc\n.env\nnode_modules/\n*.log\n' >"$GI/.gitignore"
  mkdir -p "$GI/src/pkg"
  for i in $(seq 1 20); do echo "x=$i" >"$GI/src/pkg/m$i.py"; done
  git -C "$GI" add -A && git -C "$GI" commit -qm init
  for i in $(seq 1 20); do echo "y" >"$GI/src/pkg/m$i.pyc"; mkdir -p "$GI/src/pkg/__pycache__"; echo z >"$GI/src/pkg/__pycache__/m$i.cpython-311.pyc"; done
  for i in $(seq 1 60); do echo "log $i" >"$GI/src/pkg/run_$i.log"; done
  mkdir -p "$GI/build/lib" && for i in $(seq 1 80); do echo o >"$GI/build/lib/obj_$i.o"; done
  for i in $(seq 1 190); do echo t >"$GI/src/pkg/trace_$i.log"; done
  echo "SECRET_KEY=abc" >"$GI/.env"
  echo "x=99" >>"$GI/src/pkg/m3.py"
  echo "new" >"$GI/src/pkg/m21.py"
  capture batch20 git_status_ignored_long "$GI" "git status --ignored=matching --untracked-files=all" "$GITV"

  # clang-format --dry-run --Werror over a dozen badly formatted files
  CF="$B/cfmt"
  mkdir -p "$CF/src"
  printf 'BasedOnStyle: LLVM\nIndentWidth: 4\nColumnLimit: 100\n' >"$CF/.clang-format"
  for i in $(seq 1 12); do
    if [ $((i % 4)) -eq 0 ]; then
      printf '#include <stdio.h>\n\nint f%d(int x) {\n    return x + %d;\n}\n' "$i" "$i" >"$CF/src/unit_$i.c"
    else
      printf '#include <stdio.h>\n#include <stdlib.h>\nint f%d(int x){ if(x>%d){return x*2;}\n  else { return  x+1; }\n}\nstatic int  table_%d[] = {1,2,3,\n4,5};\nint main(void){printf("%%d\\n",f%d(table_%d[0]));return 0;}\n' "$i" "$i" "$i" "$i" "$i" >"$CF/src/unit_$i.c"
    fi
  done
  capture batch20 clang_format_dry_run_werror "$CF" "clang-format --dry-run --Werror src/*.c" "$(clang-format --version)"

  # objdump -d of a small object (long, exit 0)
  OD="$B/objdump"
  mkdir -p "$OD"
  cat >"$OD/calc.c" <<'EOF'
#include <string.h>
extern int audit_log(const char *msg, int code);
static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
int checksum(const unsigned char *p, unsigned long n) {
  int s = 0;
  for (unsigned long i = 0; i < n; i++) s = (s * 31) ^ p[i];
  return s;
}
int parse_level(const char *s) {
  if (strcmp(s, "debug") == 0) return 0;
  if (strcmp(s, "info") == 0) return 1;
  if (strcmp(s, "warn") == 0) return 2;
  if (strcmp(s, "error") == 0) return 3;
  audit_log(s, -1);
  return -1;
}
long scale(long *xs, int n, int k) {
  long t = 0;
  for (int i = 0; i < n; i++) { xs[i] = clamp((int)xs[i] * k, -1000, 1000); t += xs[i]; }
  return t;
}
void copy_name(char *dst, const char *src) { strcpy(dst, src); }
int dispatch(int op, int a, int b);
int route(const char *path, int verb) {
  if (strncmp(path, "/api/", 5) == 0) return dispatch(verb, (int)strlen(path), 2);
  if (strncmp(path, "/static/", 8) == 0) return parse_level(path + 8);
  return audit_log(path, 404);
}
unsigned long hash_str(const char *s) { unsigned long h = 5381; while (*s) h = h * 33 + (unsigned char)*s++; return h; }
int dispatch(int op, int a, int b) {
  switch (op) { case 0: return a + b; case 1: return a - b; case 2: return a * b; case 3: return b ? a / b : 0;
  case 4: return a % (b ? b : 1); case 5: return a << b; case 6: return a >> b; default: return audit_log("bad op", op); }
}
EOF
  gcc -O0 -g0 -c -o "$OD/calc.o" "$OD/calc.c"
  capture batch20 objdump_d_object_long "$OD" "objdump -d -r calc.o" "$(objdump --version | head -1)"

  # make distcheck failing: a header missing from the distribution
  DC="$B/distcheck"
  mkdir -p "$DC/src"
  printf 'AC_INIT([meter], [0.3.1])\nAM_INIT_AUTOMAKE([foreign -Wall])\nAC_PROG_CC\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n' >"$DC/configure.ac"
  printf 'bin_PROGRAMS = meter\nmeter_SOURCES = src/main.c src/read.c\n' >"$DC/Makefile.am"
  printf '#include "read.h"\nint main(void) { return read_meter() > 0 ? 0 : 1; }\n' >"$DC/src/main.c"
  printf '#include "read.h"\nint read_meter(void) { return METER_DEFAULT; }\n' >"$DC/src/read.c"
  printf '#define METER_DEFAULT 42\nint read_meter(void);\n' >"$DC/src/read.h"
  capture batch20 make_distcheck_missing_header "$DC" "autoreconf -fi >/dev/null 2>&1 && ./configure >/dev/null && make distcheck" "$(automake --version | head -1); $(make --version | head -1)"

  # cmake --build --verbose failing at the link step
  CV="$B/cmakev"
  mkdir -p "$CV/src" "$CV/lib"
  cat >"$CV/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(ledger C)
add_library(store STATIC lib/store.c lib/index.c lib/codec.c)
target_include_directories(store PUBLIC lib)
add_executable(ledger src/main.c src/cli.c src/report.c)
target_link_libraries(ledger PRIVATE store m)
EOF
  printf 'int store_open(const char *p);\nint store_put(int h, const char *k, const char *v);\nint store_flush(int h);\nint index_rebuild(int h);\nint codec_encode(const char *s, char *out);\n' >"$CV/lib/store.h"
  printf '#include "store.h"\nint store_open(const char *p) { return p ? 3 : -1; }\nint store_put(int h, const char *k, const char *v) { return h + (k != v); }\n' >"$CV/lib/store.c"
  printf '#include "store.h"\nint index_rebuild(int h) { return h * 2; }\n' >"$CV/lib/index.c"
  printf '#include "store.h"\nint codec_encode(const char *s, char *out) { out[0] = s[0]; return 1; }\n' >"$CV/lib/codec.c"
  printf '#include "store.h"\nint cli_run(int argc, char **argv);\nint main(int argc, char **argv) { return cli_run(argc, argv); }\n' >"$CV/src/main.c"
  printf '#include "store.h"\nint report_print(int h);\nint cli_run(int argc, char **argv) { int h = store_open(argv[0]); store_put(h, "a", "b"); store_flush(h); return report_print(h) + argc; }\n' >"$CV/src/cli.c"
  printf '#include <math.h>\n#include "store.h"\nint report_print(int h) { char b[8]; codec_encode("x", b); return (int)sqrt(index_rebuild(h)) + store_compact(h); }\n' >"$CV/src/report.c"
  capture batch20 cmake_build_verbose_link_error "$CV" "cmake -S . -B build >/dev/null && cmake --build build --verbose" "$(cmake --version | head -1); $(gcc --version | head -1)"

  # make with a missing header prerequisite in a generated dependency file
  MH="$B/makehdr"
  mkdir -p "$MH/src"
  cat >"$MH/Makefile" <<'EOF'
CC = gcc
CFLAGS = -O2 -Wall -MMD -MP
SRCS = $(wildcard src/*.c)
OBJS = $(SRCS:.c=.o)
app: $(OBJS)
	$(CC) -o $@ $^
-include $(OBJS:.o=.d)
EOF
  for n in auth cache codec db http log main metrics net proto queue render; do printf '#include <stdio.h>\nint %s_init(void) { return printf("%s\\n"); }\n' "$n" "$n" >"$MH/src/$n.c"; done
  printf '#include "config.h"\nint report_init(void) { return CONFIG_REPORT; }\n' >"$MH/src/report.c"
  printf 'int main(void) { return 0; }\n' >>"$MH/src/main.c"
  printf '#define CONFIG_REPORT 2\n' >"$MH/src/config.h"
  (cd "$MH" && make -s >/dev/null 2>&1)
  rm "$MH/src/config.h"; touch "$MH"/src/*.c
  # -MP gives phony header targets; an old .d without them shows the classic error
  sed -i '/^src\/config.h:$/d' "$MH"/src/*.d
  capture batch20 make_missing_header_prereq "$MH" "make" "$(make --version | head -1)"

  # ltrace of a program that crashes
  if command -v ltrace >/dev/null; then
    LT="$B/ltrace"
    mkdir -p "$LT"
    cat >"$LT/cfg.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  const char *keys[] = {"HOME", "APP_MODE", "APP_PORT", "APP_DB_URL"};
  for (int i = 0; i < 4; i++) {
    char *v = getenv(keys[i]);
    printf("%s=%s\n", keys[i], v ? "set" : "unset");
  }
  char *port = getenv("APP_PORT");
  char *buf = malloc(16);
  strcpy(buf, "port:");
  strcat(buf, port);
  printf("%s %zu\n", buf, strlen(buf));
  free(buf);
  return 0;
}
EOF
    gcc -O0 -o "$LT/cfg" "$LT/cfg.c"
    capture batch20 ltrace_crash_null_getenv "$LT" "env -i HOME=/root APP_MODE=prod ltrace ./cfg" "$(ltrace -V | head -1)"
  fi

  # jshell fed a script with errors
  JS="$B/jshell"
  mkdir -p "$JS"
  cat >"$JS/explore.jsh" <<'EOF'
import java.util.*;
import java.util.stream.*;
record Order(String id, int qty, double price) {}
var orders = List.of(new Order("a1", 2, 9.5), new Order("b2", 1, 120.0), new Order("c3", 5, 3.25));
double total = orders.stream().mapToDouble(o -> o.qty() * o.price()).sum();
System.out.println("total=" + total);
Map<String, Integer> byId = orders.stream().collect(Collectors.toMap(Order::id, Order::qty));
System.out.println(byId.get("b2"));
int big = orders.stream().filter(o -> o.price() > 100).count();
String label = orders.get(0).name();
var top = orders.stream().sorted(Comparator.comparing(Order::price).reversed()).findFirst().get();
System.out.println("top=" + top);
Object o = orders.get(5);
System.out.println(Integer.parseInt("12x"));
/exit
EOF
  capture batch20 jshell_script_errors "$JS" "jshell -q explore.jsh" "$(java -version 2>&1 | head -1)"

  # jdeps over a jar whose dependencies are not on the class path
  JD="$B/jdeps"
  mkdir -p "$JD/src/com/acme/report" "$JD/stub/org/apache/commons/csv" "$JD/stub/com/fasterxml/jackson/databind" "$JD/out" "$JD/stubout"
  printf 'package org.apache.commons.csv;\npublic class CSVFormat { public static final CSVFormat DEFAULT = new CSVFormat(); }\n' >"$JD/stub/org/apache/commons/csv/CSVFormat.java"
  printf 'package org.apache.commons.csv;\npublic class CSVPrinter { public CSVPrinter(Appendable a, CSVFormat f) {} public void printRecord(Object... r) {} }\n' >"$JD/stub/org/apache/commons/csv/CSVPrinter.java"
  printf 'package com.fasterxml.jackson.databind;\npublic class ObjectMapper { public String writeValueAsString(Object o) { return ""; } }\n' >"$JD/stub/com/fasterxml/jackson/databind/ObjectMapper.java"
  for c in Report Exporter Summary Formatter; do
    cat >"$JD/src/com/acme/report/$c.java" <<EOF
package com.acme.report;
import java.util.*;
import java.util.logging.Logger;
import org.apache.commons.csv.*;
import com.fasterxml.jackson.databind.ObjectMapper;
public class $c {
  private static final Logger LOG = Logger.getLogger("$c");
  public String run(List<String> rows) throws Exception {
    StringBuilder sb = new StringBuilder();
    new CSVPrinter(sb, CSVFormat.DEFAULT).printRecord(rows.toArray());
    LOG.info(sb.toString());
    return new ObjectMapper().writeValueAsString(new HashMap<String, Object>());
  }
}
EOF
  done
  javac -d "$JD/stubout" "$JD"/stub/org/apache/commons/csv/*.java "$JD"/stub/com/fasterxml/jackson/databind/*.java 2>/dev/null
  javac -cp "$JD/stubout" -d "$JD/out" "$JD"/src/com/acme/report/*.java 2>/dev/null
  (cd "$JD/out" && jar cf ../report.jar .)
  capture batch20 jdeps_verbose_class_not_found "$JD" "jdeps -verbose:class report.jar" "$(java -version 2>&1 | head -1)"

  # java -verbose:class then a ClassNotFoundException at the end (long)
  VC="$B/verbosecls"
  mkdir -p "$VC/src/app" "$VC/out"
  cat >"$VC/src/app/Main.java" <<'EOF'
package app;
public class Main {
  public static void main(String[] args) throws Exception {
    System.out.println("loading plugins");
    for (String n : new String[] {"app.plugins.Audit", "app.plugins.Metrics"}) {
      Class<?> c = Class.forName(n);
      System.out.println("loaded " + c.getName());
    }
  }
}
EOF
  javac -d "$VC/out" "$VC/src/app/Main.java"
  capture batch20 java_verbose_class_then_cnfe "$VC" "java -Xshare:off -verbose:class -cp out app.Main" "$(java -version 2>&1 | head -1)"

  # JUnit 5 console launcher: a long passing run with one failure
  JU="$B/junitlong"
  JAR=$(ls /usr/share/java/junit-platform-console-standalone*.jar 2>/dev/null | head -1)
  if [ -n "$JAR" ]; then
    mkdir -p "$JU/src/com/acme/pricing" "$JU/test/com/acme/pricing" "$JU/out"
    cat >"$JU/src/com/acme/pricing/Pricer.java" <<'EOF'
package com.acme.pricing;
public class Pricer {
  public static long net(long gross, int taxPercent) { return gross * 100 / (100 + taxPercent); }
  public static long discount(long cents, int pct) { return cents - cents * pct / 100; }
  public static String format(long cents) { return String.format("%d.%02d EUR", cents / 100, cents % 100); }
}
EOF
    {
      echo 'package com.acme.pricing;'
      echo 'import static org.junit.jupiter.api.Assertions.*;'
      echo 'import org.junit.jupiter.api.*;'
      echo 'import org.junit.jupiter.params.ParameterizedTest;'
      echo 'import org.junit.jupiter.params.provider.ValueSource;'
      echo 'class PricerTest {'
      for i in $(seq 1 150); do echo "  @Test void discount_$i() { assertEquals($((1000 - 1000 * (i % 50) / 100)), Pricer.discount(1000, $((i % 50)))); }"; done
      for i in $(seq 1 90); do echo "  @Test void format_$i() { assertEquals(\"$i.0$((i % 10)) EUR\", Pricer.format($((i * 100 + i % 10)))); }"; done
      echo '  @ParameterizedTest @ValueSource(ints = {0, 7, 10, 19, 20, 25}) void netNeverExceedsGross(int tax) { assertTrue(Pricer.net(1000, tax) <= 1000); }'
      echo '  @Test void netRoundsHalfUp() { assertEquals(841, Pricer.net(1000, 19), "net of 10.00 at 19% tax"); }'
      echo '}'
    } >"$JU/test/com/acme/pricing/PricerTest.java"
    javac -d "$JU/out" -cp "$JAR" "$JU/src/com/acme/pricing/Pricer.java" "$JU/test/com/acme/pricing/PricerTest.java"
    capture batch20 junit5_console_long_pass_one_failure "$JU" "java -jar $JAR --class-path out --select-class com.acme.pricing.PricerTest --details=tree --disable-banner --disable-ansi-colors" "$(java -version 2>&1 | head -1); junit-platform-console-standalone 1.9.1"
  fi

  # gem build of an invalid gemspec
  GB="$B/gembuild"
  mkdir -p "$GB/lib/ledger_sync"
  printf 'module LedgerSync\n  VERSION = "0.4.0"\nend\n' >"$GB/lib/ledger_sync/version.rb"
  cat >"$GB/ledger_sync.gemspec" <<'EOF'
require_relative "lib/ledger_sync/version"
Gem::Specification.new do |s|
  s.name = "ledger_sync"
  s.version = LedgerSync::VERSION
  s.summary = "FIXME: write summary"
  s.authors = ["Dev"]
  s.files = Dir["lib/**/*.rb"] + ["README.md", "CHANGELOG.md"]
  s.required_ruby_version = ">= 2.7"
  s.add_dependency "faraday"
  s.add_development_dependency "rspec", ">= 3"
  s.metadata["homepage_uri"] = "TODO: put your homepage here"
end
EOF
  printf '# ledger_sync\n' >"$GB/README.md"
  capture batch20 gem_build_invalid_gemspec "$GB" "gem build ledger_sync.gemspec" "$(gem --version); $(ruby --version)"

  # rspec --profile with pending examples and failures
  RS="$B/rspecprof"
  mkdir -p "$RS/lib" "$RS/spec"
  cat >"$RS/lib/cart.rb" <<'EOF'
class Cart
  attr_reader :items
  def initialize; @items = []; end
  def add(sku, qty, price) = @items << { sku: sku, qty: qty, price: price }
  def total = @items.sum { |i| i[:qty] * i[:price] }
  def discount(code) = code == "TEN" ? total * 0.9 : total
  def count = @items.size
end
EOF
  {
    echo 'require_relative "../lib/cart"'
    echo 'RSpec.describe Cart do'
    echo '  let(:cart) { Cart.new }'
    for i in $(seq 1 24); do echo "  it \"adds item $i\" do cart.add(\"s$i\", $i, 2); sleep 0.0$((i % 4)); expect(cart.total).to eq($((i * 2))) end"; done
    echo '  it "applies TEN" do cart.add("a", 1, 100); expect(cart.discount("TEN")).to eq(90) end'
    echo '  it "rounds the discount to cents" do cart.add("a", 3, 3.33); expect(cart.discount("TEN")).to eq(8.99) end'
    echo '  it "merges the same sku" do cart.add("a", 1, 5); cart.add("a", 2, 5); expect(cart.count).to eq(1) end'
    echo '  it "supports coupons", pending: "coupon service not wired" do expect(cart.discount("WELCOME")).to eq(0) end'
    echo '  xit "exports to CSV" do end'
    echo '  it "slow tax lookup" do sleep 0.3; expect(cart.total).to be_zero end'
    echo 'end'
  } >"$RS/spec/cart_spec.rb"
  capture batch20 rspec_profile_pending_failures "$RS" "rspec --profile 5" "$(rspec --version | head -1); $(ruby --version)"

  # ruby -c over many files, two with syntax errors
  RC="$B/rubyc"
  mkdir -p "$RC/app/models" "$RC/app/services"
  for i in $(seq 1 14); do printf 'class Model%d\n  def total(xs)\n    xs.sum { |x| x * %d }\n  end\nend\n' "$i" "$i" >"$RC/app/models/model_$i.rb"; done
  printf 'class Billing\n  def charge(amount)\n    if amount > 0\n      gateway.charge(amount)\n  end\nend\n' >"$RC/app/services/billing.rb"
  printf 'class Notify\n  def send(to, body)\n    mail(to: to, body: body,)\n    log "sent to #{to"\n  end\nend\n' >"$RC/app/services/notify.rb"
  printf 'class Export\n  def run = rows.map(&:to_csv).join("\\n")\nend\n' >"$RC/app/services/export.rb"
  capture batch20 ruby_c_many_files "$RC" "rc=0; for f in app/models/*.rb app/services/*.rb; do printf '%s: ' \$f; ruby -c \$f || rc=1; done; exit \$rc" "$(ruby --version)"

  # erb template with a syntax error rendered through erb -T -
  ER="$B/erb"
  mkdir -p "$ER"
  cat >"$ER/nginx.conf.erb" <<'EOF'
upstream app {
<% servers.each do |s| %>
  server <%= s[:host] %>:<%= s[:port] %>;
<% end %>
}
server {
  listen <%= port %>;
  <% if ssl %>
  ssl_certificate <%= cert_path %>;
  location / { proxy_pass http://app; }
}
EOF
  printf 'require "erb"\nservers = [{host: "10.0.0.1", port: 8080}, {host: "10.0.0.2", port: 8080}]\nport = 443\nssl = true\ncert_path = "/etc/ssl/app.pem"\nputs ERB.new(File.read("nginx.conf.erb"), trim_mode: "-").result(binding)\n' >"$ER/render.rb"
  capture batch20 erb_render_syntax_error "$ER" "ruby render.rb" "$(ruby --version)"

  # phpunit --testdox: a long run with one failure
  PT="$B/phptestdox"
  mkdir -p "$PT/src" "$PT/tests"
  cat >"$PT/src/Slug.php" <<'EOF'
<?php
declare(strict_types=1);
final class Slug
{
    public static function make(string $s): string
    {
        $s = strtolower(trim($s));
        $s = preg_replace('/[^a-z0-9]+/', '-', $s);
        return trim($s, '-');
    }
}
EOF
  {
    echo '<?php'
    echo 'declare(strict_types=1);'
    echo "require_once __DIR__ . '/../src/Slug.php';"
    echo 'use PHPUnit\Framework\TestCase;'
    echo 'final class SlugTest extends TestCase'
    echo '{'
    for i in $(seq 1 45); do echo "    public function testWordsNumber$i(): void { \$this->assertSame('post-$i-title', Slug::make('Post $i Title')); }"; done
    echo "    public function testTransliteratesUmlauts(): void { \$this->assertSame('uber-cafe', Slug::make('Über Café')); }"
    for i in $(seq 1 20); do echo "    public function testTrimsDashes$i(): void { \$this->assertSame('x$i', Slug::make('--x$i--')); }"; done
    echo '}'
  } >"$PT/tests/SlugTest.php"
  capture batch20 phpunit_testdox_long_one_failure "$PT" "phpunit --testdox tests" "$(phpunit --version | head -1)"

  # PHP warnings in a loop, then an uncaught exception (long)
  PW="$B/phpwarn"
  mkdir -p "$PW"
  cat >"$PW/import.php" <<'EOF'
<?php
$rows = [];
for ($i = 1; $i <= 240; $i++) {
    $rows[] = $i % 3 !== 0 ? ['id' => $i, 'email' => "u$i@example.com"] : ['id' => $i, 'email' => "u$i@example.com", 'name' => "User $i"];
}
$imported = 0;
foreach ($rows as $row) {
    $name = $row['name'];
    $label = ucfirst($name ?? '') . " <{$row['email']}>";
    $imported++;
}
echo "imported $imported rows\n";
function totals(array $rows): int {
    $sum = 0;
    foreach ($rows as $r) { $sum += $r['amount']; }
    return $sum;
}
echo "total: " . totals(array_slice($rows, 0, 5)) . "\n";
$cfg = json_decode(file_get_contents(__DIR__ . '/import.json'), true, 512, JSON_THROW_ON_ERROR);
echo "done\n";
EOF
  capture batch20 php_warnings_loop_then_uncaught "$PW" "php -d display_errors=stderr -d error_reporting=E_ALL import.php" "$(php -v | head -1)"

  # PostgreSQL: \d+ of wide tables (long), the last relation missing
  PGB=/usr/lib/postgresql/15/bin
  if [ -x "$PGB/initdb" ] && id postgres >/dev/null 2>&1; then
    PG="$B/pg"
    mkdir -p "$PG" && chown postgres "$PG"
    runuser -u postgres -- "$PGB/initdb" -D "$PG/data" >/dev/null 2>&1
    runuser -u postgres -- "$PGB/pg_ctl" -D "$PG/data" -o "-p 54320 -k $PG -c listen_addresses=''" -l "$PG/log" -w start >/dev/null 2>&1
    runuser -u postgres -- createdb -h "$PG" -p 54320 shop
    {
      echo "CREATE TABLE customers (id bigserial PRIMARY KEY, email text UNIQUE NOT NULL, name text, created_at timestamptz DEFAULT now());"
      printf 'CREATE TABLE orders (id bigserial PRIMARY KEY, customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE, status text NOT NULL DEFAULT '"'"'new'"'"' CHECK (status IN ('"'"'new'"'"','"'"'paid'"'"','"'"'shipped'"'"')), total numeric(12,2) NOT NULL'
      for i in $(seq 1 90); do printf ', attr_%d varchar(%d)' "$i" "$((i * 8))"; done
      echo ");"
      echo "COMMENT ON COLUMN orders.total IS 'gross, in EUR';"
      for i in 1 5 9 13; do echo "CREATE INDEX orders_attr_${i}_idx ON orders (attr_$i);"; done
      echo "CREATE INDEX orders_open_idx ON orders (customer_id) WHERE status <> 'shipped';"
      printf 'CREATE TABLE order_items (id bigserial PRIMARY KEY, order_id bigint NOT NULL REFERENCES orders(id), sku text NOT NULL, qty int NOT NULL CHECK (qty > 0), price numeric(10,2) NOT NULL'
      for i in $(seq 1 70); do printf ', opt_%d jsonb' "$i"; done
      echo ");"
      echo "CREATE UNIQUE INDEX order_items_order_sku ON order_items (order_id, sku);"
    } | runuser -u postgres -- psql -q -h "$PG" -p 54320 -d shop >/dev/null 2>&1
    capture batch20 psql_describe_plus_long "$PG" "runuser -u postgres -- psql -h $PG -p 54320 -d shop -c '\\d+ orders' -c '\\d+ order_items' -c '\\d+ shipments'" "$(psql --version)"
    runuser -u postgres -- "$PGB/pg_ctl" -D "$PG/data" -m fast stop >/dev/null 2>&1
  fi

  # sqlite3: foreign_key_check and integrity_check reporting problems
  SQ="$B/sqlite"
  mkdir -p "$SQ"
  {
    echo "CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE);"
    echo "CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL);"
    echo "CREATE TABLE items (id INTEGER PRIMARY KEY, order_id INTEGER REFERENCES orders(id), sku TEXT);"
    echo "CREATE INDEX items_sku ON items(sku);"
    for i in $(seq 1 30); do echo "INSERT INTO customers VALUES ($i, 'c$i@example.com');"; done
    for i in $(seq 1 60); do echo "INSERT INTO orders VALUES ($i, $(( i % 7 == 0 ? 100 + i : i % 30 + 1 )), $i.5);"; done
    for i in $(seq 1 120); do echo "INSERT INTO items VALUES ($i, $(( i % 25 == 0 ? 500 + i : i % 60 + 1 )), 'sku-$i');"; done
  } | sqlite3 "$SQ/shop.db"
  capture batch20 sqlite3_foreign_key_check "$SQ" "sqlite3 shop.db 'PRAGMA foreign_keys=ON;' 'PRAGMA foreign_key_check;' 'PRAGMA integrity_check;' 'SELECT count(*) FROM orders;' 'DELETE FROM customers WHERE id = 3;'" "$(sqlite3 --version | cut -c1-40)"

  # redis-cli: a script of commands with wrong types and bad arguments
  if command -v redis-server >/dev/null; then
    RD="$B/redis"
    mkdir -p "$RD"
    redis-server --port 56379 --save '' --appendonly no --dir "$RD" --daemonize yes --pidfile "$RD/redis.pid" --logfile "$RD/redis.log"
    sleep 1
    cat >"$RD/seed.txt" <<'EOF'
SET session:42 "active"
HSET user:42 name Ana email ana@example.com
LPUSH queue:mail job1 job2 job3
INCR session:42
HGET user:42 name
LRANGE queue:mail 0 -1
HGETALL session:42
EXPIRE user:42 notanumber
ZADD leaderboard 10 ana 20 bo
ZRANGE leaderboard 0 -1 WITHSCORES
SADD tags:42 a b c
SMEMBERS queue:mail
GET missing:key
EVAL "return redis.call('INCR', KEYS[1])" 1 user:42
CONFIG SET maxmemory-policy sometimes
DEL session:42 queue:mail
EOF
    capture batch20 redis_cli_script_errors "$RD" "redis-cli -p 56379 < seed.txt" "$(redis-cli --version)"
    kill "$(cat "$RD/redis.pid")" 2>/dev/null
  fi

  # haproxy -c of a configuration with errors and warnings
  if command -v haproxy >/dev/null; then
    HA="$B/haproxy"
    mkdir -p "$HA"
    cat >"$HA/haproxy.cfg" <<'EOF'
global
    maxconn 4096
    log stdout format raw local0

defaults
    mode http
    timeout connect 5s
    timeout client 30s

frontend www
    bind :8080
    acl is_api path_beg /api
    use_backend api if is_api
    use_backend admin if { path_beg /admin }
    default_backend web

backend web
    balance roundrobin
    server web1 10.0.0.11:80 check
    server web2 10.0.0.12:80 check inter 2s
    server web3 10.0.0.13:80 chek

backend api
    balance leastconn
    option httpchk GET /health
    server api1 10.0.1.11:9000 check
    server api1 10.0.1.12:9000 check
    http-request set-header X-Forwarded-Proto https if { ssl_fc }
    timeout queue 10s
    stick-table type ip size 100k expire 30m
    http-request track-sc0 src
    http-request deny if { sc_http_req_rate(0) gt 100 }
    retry-on all-retryable-errors conn-failure
    redispatch 1
EOF
    capture batch20 haproxy_check_config_errors "$HA" "haproxy -c -f haproxy.cfg" "$(haproxy -v | head -1)"
  fi

  # nginx -T: the whole configuration dumped (long), with a conflicting server name warning
  NX="$B/nginx"
  mkdir -p "$NX/conf/sites" "$NX/logs"
  cat >"$NX/conf/nginx.conf" <<'EOF'
pid logs/nginx.pid;
error_log logs/error.log;
events { worker_connections 256; }
http {
    access_log logs/access.log;
    client_body_temp_path logs/body;
    proxy_temp_path logs/proxy;
    fastcgi_temp_path logs/fastcgi;
    uwsgi_temp_path logs/uwsgi;
    scgi_temp_path logs/scgi;
    include sites/*.conf;
}
EOF
  for s in shop api admin docs status billing search auth; do
    {
      printf 'upstream %s_backend {\n' "$s"
      for n in 1 2 3; do printf '    server 10.0.%d.%d:8080 max_fails=3 fail_timeout=10s;\n' "$n" "$((RANDOM % 200 + 10))"; done
      printf '}\nserver {\n    listen 80;\n    server_name %s.example.com;\n' "$s"
      [ "$s" = docs ] && printf '    server_name shop.example.com;\n'
      for l in / /static/ /media/ /healthz /metrics; do
        printf '    location %s {\n        proxy_pass http://%s_backend;\n        proxy_set_header Host $host;\n        proxy_set_header X-Real-IP $remote_addr;\n        proxy_read_timeout 30s;\n    }\n' "$l" "$s"
      done
      printf '}\n'
    } >"$NX/conf/sites/$s.conf"
  done
  capture batch20 nginx_T_long_warning "$NX" "nginx -T -p $NX -c conf/nginx.conf" "$(nginx -v 2>&1)"

  # lintian on a hand-built .deb
  LN="$B/lintian"
  mkdir -p "$LN/pkg/DEBIAN" "$LN/pkg/usr/bin" "$LN/pkg/usr/share/meterd" "$LN/pkg/etc/meterd"
  printf 'Package: meterd\nVersion: 0.3-1\nArchitecture: all\nMaintainer: dev\nDepends: python3\nDescription: meter daemon\n' >"$LN/pkg/DEBIAN/control"
  printf '#!/usr/bin/python\nprint("meterd")\n' >"$LN/pkg/usr/bin/meterd" && chmod 777 "$LN/pkg/usr/bin/meterd"
  printf 'port=9100\n' >"$LN/pkg/etc/meterd/meterd.conf"
  for i in $(seq 1 5); do echo "data $i" >"$LN/pkg/usr/share/meterd/table_$i.dat"; done
  dpkg-deb --root-owner-group -b "$LN/pkg" "$LN/meterd_0.3-1_all.deb" >/dev/null 2>&1
  capture batch20 lintian_local_deb "$LN" "lintian --no-tag-display-limit meterd_0.3-1_all.deb" "$(lintian --version)"

  # dpkg-buildpackage with unmet build dependencies
  DB="$B/dpkgbp/meterd-0.3"
  mkdir -p "$DB/debian/source"
  printf 'meterd (0.3-1) unstable; urgency=medium\n\n  * Initial release.\n\n -- Dev <dev@example.com>  Sat, 21 Nov 2026 10:00:00 +0000\n' >"$DB/debian/changelog"
  printf 'Source: meterd\nSection: utils\nPriority: optional\nMaintainer: Dev <dev@example.com>\nBuild-Depends: debhelper-compat (= 13), dh-python, python3-all, python3-setuptools, libsystemd-dev (>= 252)\nStandards-Version: 4.6.2\n\nPackage: meterd\nArchitecture: all\nDepends: ${misc:Depends}, ${python3:Depends}\nDescription: meter daemon\n reads meters\n' >"$DB/debian/control"
  printf '#!/usr/bin/make -f\n%%:\n\tdh $@ --with python3 --buildsystem=pybuild\n' >"$DB/debian/rules" && chmod +x "$DB/debian/rules"
  printf '3.0 (native)\n' >"$DB/debian/source/format"
  capture batch20 dpkg_buildpackage_unmet_build_deps "$DB" "dpkg-buildpackage -us -uc -b" "$(dpkg-buildpackage --version | head -1)"
fi

# --- batch21: a twenty-first blind batch (Python, JavaScript/TypeScript, Go, Rust and git in
# situations the set lacked: wrong paths and flags given to pytest, mypy, unittest, tsc, eslint,
# prettier, go test and cargo; pytest's import-file mismatch of duplicate basenames, --pdb with no
# terminal, --strict-markers, --durations over a long -v run, pytest-timeout's thread method; mypy
# --strict over generated code; jest snapshots under --ci, vitest -u, jest --watch without git, a
# jest test timeout with an open handle, mocha timeouts and retries; tsc over a generated client,
# eslint over generated code, esbuild --log-limit=0; npm workspaces and turbo monorepo runs, a
# lock-file merge conflict; go -race without cgo, build tags, a failing benchmark among 300 results,
# inconsistent vendoring; cargo features, workspace members chosen with -p, a stable-channel
# #![feature]; git sparse-checkout, an LFS pre-push hook without git-lfs, git add -p without a
# terminal, an ambiguous path), captured and its signals written and committed before any filter ran
# on it and before any rule file, filter source, filter test, fixture, bench/corpus file or
# bench/README.md was opened. The Python tools are Debian's (python3-pytest, python3-mypy,
# pytest-xdist, pytest-timeout) run by /usr/bin/python3; the JavaScript tools live in a scratch npm
# package under $WORK/js.
if sel batch21; then
  B="$WORK/batch21"
  rm -rf "$B" && mkdir -p "$B"
  export TERM=xterm
  SPY=/usr/bin/python3
  PTV="$($SPY -m pytest --version 2>&1)"
  JS="$WORK/js"
  if [ ! -x "$JS/node_modules/.bin/turbo" ]; then
    mkdir -p "$JS" && (cd "$JS" && npm init -y >/dev/null && npm i typescript@5 eslint@9 jest@29 vitest@2 prettier@3 mocha@10 esbuild@0.24 turbo@2 >/dev/null 2>&1)
  fi
  NB="$JS/node_modules/.bin"
  GOV="$(go version)"
  CARGOV="$(cargo --version)"
  GITV="$(git --version)"
  gitinit() { git init -q -b main "$1" && git -C "$1" config user.email dev@example.com && git -C "$1" config user.name Dev; }
  export GIT_AUTHOR_DATE="2026-11-21T10:00:00Z" GIT_COMMITTER_DATE="2026-11-21T10:00:00Z"

  # --- Python ---
  # pytest given a plugin's flag that is not installed
  PA="$B/pyargs"
  mkdir -p "$PA/app" "$PA/tests/unit"
  printf '' >"$PA/app/__init__.py"
  printf 'def ping():\n    return "pong"\n' >"$PA/app/api.py"
  printf 'from app.api import ping\n\n\ndef test_ping():\n    assert ping() == "pong"\n' >"$PA/tests/unit/test_api.py"
  printf '[pytest]\ntestpaths = tests\n' >"$PA/pytest.ini"
  capture batch21 pytest_unknown_plugin_flag "$PA" "$SPY -m pytest --cov=app --cov-report=term-missing tests/unit/test_api.py" "$PTV"
  # pytest given a node id whose file does not exist
  capture batch21 pytest_node_id_file_not_found "$PA" "$SPY -m pytest -p no:cacheprovider tests/test_api.py::test_ping tests/unit/test_api.py" "$PTV"

  # duplicate test basenames without __init__.py: import file mismatch
  PD="$B/pydup"
  mkdir -p "$PD/shop" "$PD/tests/unit" "$PD/tests/integration"
  printf '' >"$PD/shop/__init__.py"
  printf 'def slug(s):\n    return s.lower().replace(" ", "-")\n\n\ndef price(c):\n    return c / 100\n' >"$PD/shop/utils.py"
  for d in unit integration; do
    {
      echo "from shop.utils import slug, price"
      echo
      for i in $(seq 1 12); do
        echo "def test_${d}_slug_$i():"
        echo "    assert slug(\"A B $i\") == \"a-b-$i\""
        echo
      done
    } >"$PD/tests/$d/test_utils.py"
    printf 'from shop.utils import price\n\n\ndef test_%s_price():\n    assert price(250) == 2.5\n' "$d" >"$PD/tests/$d/test_prices.py"
  done
  capture batch21 pytest_import_file_mismatch "$PD" "$SPY -m pytest -p no:cacheprovider tests" "$PTV"

  # pytest --pdb with stdin closed: the debugger prompt meets end of input
  PP="$B/pypdb"
  mkdir -p "$PP/tests"
  cat >"$PP/inventory.py" <<'EOF'
def reserve(stock, sku, qty):
    have = stock.get(sku, 0)
    if qty > have:
        raise ValueError(f"cannot reserve {qty} of {sku}: only {have} left")
    stock[sku] = have - qty
    return stock[sku]


def restock(stock, sku, qty):
    stock[sku] = stock.get(sku, 0) + qty
    return stock
EOF
  cat >"$PP/tests/test_inventory.py" <<'EOF'
import sys
sys.path.insert(0, ".")
from inventory import reserve, restock


def test_reserve_ok():
    assert reserve({"A1": 5}, "A1", 2) == 3


def test_reserve_too_many():
    stock = {"A1": 1}
    assert reserve(stock, "A1", 4) == 0


def test_restock_new_sku():
    assert restock({}, "B7", 3) == {"B7": 4}


def test_restock_existing():
    assert restock({"C2": 1}, "C2", 1) == {"C2": 2}
EOF
  capture batch21 pytest_pdb_without_terminal "$PP" "$SPY -m pytest -p no:cacheprovider --pdb tests" "$PTV"

  # --strict-markers with markers the configuration does not register
  PM="$B/pymarkers"
  mkdir -p "$PM/tests"
  printf '[pytest]\nmarkers =\n    slow: long-running tests\n' >"$PM/pytest.ini"
  for f in orders users; do
    {
      echo "import pytest"
      echo
      echo "@pytest.mark.slow"
      echo "def test_${f}_bulk():"
      echo "    assert sum(range(10)) == 45"
      echo
      echo "@pytest.mark.integration"
      echo "def test_${f}_db():"
      echo "    assert True"
      echo
      echo "def test_${f}_plain():"
      echo "    assert 1 + 1 == 2"
    } >"$PM/tests/test_$f.py"
  done
  printf 'import pytest\n\n\n@pytest.mark.smoke\ndef test_health():\n    assert True\n' >"$PM/tests/test_health.py"
  capture batch21 pytest_strict_markers_unregistered "$PM" "$SPY -m pytest -p no:cacheprovider --strict-markers -m 'not slow' tests" "$PTV"

  # pytest -v --durations=15 over 330 tests with one failure (long)
  PL="$B/pydur"
  mkdir -p "$PL/tests"
  cat >"$PL/rates.py" <<'EOF'
def convert(amount, rate):
    return round(amount * rate, 2)


def spread(bid, ask):
    return round(ask - bid, 4)
EOF
  for f in eur usd gbp jpy chf cad; do
    {
      echo "import sys, time"
      echo "sys.path.insert(0, '.')"
      echo "from rates import convert, spread"
      echo
      for i in $(seq 1 55); do
        echo "def test_${f}_convert_$i():"
        if [ $((i % 11)) -eq 0 ]; then echo "    time.sleep(0.0$((i % 7 + 2)))"; fi
        if [ "$f" = jpy ] && [ "$i" -eq 37 ]; then
          echo "    assert convert($i, 0.0064) == 0.23"
        else
          echo "    assert convert($i, 1.0) == $i"
        fi
        echo
      done
    } >"$PL/tests/test_$f.py"
  done
  capture batch21 pytest_v_durations_long_one_failure "$PL" "$SPY -m pytest -p no:cacheprovider -v --durations=15 tests" "$PTV"

  # pytest-timeout's thread method dumping every thread's stack
  PT="$B/pytimeout"
  mkdir -p "$PT/tests"
  cat >"$PT/poller.py" <<'EOF'
import threading
import time


class Poller:
    def __init__(self, interval):
        self.interval = interval
        self.events = []
        self._stop = threading.Event()
        self._threads = []

    def start(self, n):
        for i in range(n):
            t = threading.Thread(target=self._run, name=f"poller-{i}", daemon=True)
            t.start()
            self._threads.append(t)

    def _run(self):
        while not self._stop.is_set():
            time.sleep(self.interval)

    def wait_for(self, count):
        while len(self.events) < count:
            time.sleep(0.05)
        return self.events[:count]
EOF
  cat >"$PT/tests/test_poller.py" <<'EOF'
import sys
sys.path.insert(0, ".")
from poller import Poller


def test_start_threads():
    p = Poller(0.1)
    p.start(2)
    assert len(p._threads) == 2


def test_wait_for_events():
    p = Poller(0.1)
    p.start(2)
    assert p.wait_for(3) == ["a", "b", "c"]


def test_never_reached():
    assert True
EOF
  capture batch21 pytest_timeout_thread_method "$PT" "$SPY -m pytest -p no:cacheprovider --timeout=2 --timeout-method=thread tests" "$PTV; pytest-timeout $(dpkg-query -W -f='${Version}' python3-pytest-timeout)"

  # mypy --strict over a package whose generated module is untyped (long), with real errors by hand
  PY="$B/pygen"
  mkdir -p "$PY/telemetry/gen"
  printf '' >"$PY/telemetry/__init__.py"
  printf '' >"$PY/telemetry/gen/__init__.py"
  {
    echo "# Code generated by schema-gen 2.4.1 from telemetry.schema.json. DO NOT EDIT."
    echo
    for i in $(seq 1 150); do
      echo "def encode_field_$i(msg, buf):"
      echo "    buf.append(msg.get('f$i'))"
      echo "    return buf"
      echo
    done
  } >"$PY/telemetry/gen/messages_pb.py"
  cat >"$PY/telemetry/client.py" <<'EOF'
from typing import Optional

from telemetry.gen.messages_pb import encode_field_1, encode_field_2


class Client:
    def __init__(self, endpoint: str, retries: int = 3) -> None:
        self.endpoint = endpoint
        self.retries = retries
        self.sent: list[bytes] = []

    def send(self, payload: dict[str, int]) -> int:
        buf: list[int] = []
        encode_field_1(payload, buf)
        encode_field_2(payload, buf)
        self.sent.append(buf)
        return len(buf)

    def last(self) -> Optional[bytes]:
        return self.sent[-1] if self.sent else None

    def endpoint_port(self) -> int:
        return self.endpoint.split(":")[1]
EOF
  capture batch21 mypy_strict_generated_module_long "$PY" "$SPY -m mypy --strict telemetry" "$($SPY -m mypy --version)"
  # mypy given a flag that does not exist
  capture batch21 mypy_unknown_flag "$PY" "$SPY -m mypy --strict-optional-off --disallow-any-generics telemetry" "$($SPY -m mypy --version)"

  # unittest discover pointed at a start directory that does not exist
  PU="$B/pyunit"
  mkdir -p "$PU/tests"
  printf 'import unittest\n\n\nclass T(unittest.TestCase):\n    def test_ok(self):\n        self.assertTrue(True)\n' >"$PU/tests/test_basic.py"
  capture batch21 unittest_discover_wrong_start_dir "$PU" "$SPY -m unittest discover -s src/tests -p 'test_*.py' -v" "$($SPY --version 2>&1)"


  # --- JavaScript / TypeScript ---
  # jest --ci: new snapshots not written, one mismatch, an obsolete snapshot file
  JS1="$B/jestsnap"
  mkdir -p "$JS1/src/__tests__/__snapshots__"
  printf '{ "name": "render", "version": "1.0.0", "private": true }\n' >"$JS1/package.json"
  cat >"$JS1/src/render.js" <<'EOF'
function renderInvoice(inv) {
  return {
    title: `Invoice #${inv.id}`,
    lines: inv.items.map((i) => `${i.qty} x ${i.name} @ ${i.price.toFixed(2)}`),
    total: inv.items.reduce((s, i) => s + i.qty * i.price, 0).toFixed(2),
    currency: inv.currency || "EUR",
  };
}
function renderBadge(user) {
  return `<span class="badge badge-${user.role}">${user.name}</span>`;
}
module.exports = { renderInvoice, renderBadge };
EOF
  cat >"$JS1/src/__tests__/render.test.js" <<'EOF'
const { renderInvoice, renderBadge } = require("../render");

const inv = { id: 42, items: [{ qty: 2, name: "bolt", price: 0.5 }, { qty: 1, name: "nut", price: 0.25 }] };

test("invoice renders", () => {
  expect(renderInvoice(inv)).toMatchSnapshot();
});

test("badge renders admin", () => {
  expect(renderBadge({ role: "admin", name: "Ana" })).toMatchSnapshot();
});

test("badge renders guest", () => {
  expect(renderBadge({ role: "guest", name: "Bo" })).toMatchSnapshot();
});
EOF
  cat >"$JS1/src/__tests__/__snapshots__/render.test.js.snap" <<'EOF'
// Jest Snapshot v1, https://goo.gl/fbAQLP

exports[`invoice renders 1`] = `
{
  "currency": "EUR",
  "lines": [
    "2 x bolt @ 0.50",
    "1 x nut @ 0.25",
  ],
  "title": "Invoice 42",
  "total": "1.25",
}
`;
EOF
  cat >"$JS1/src/__tests__/__snapshots__/legacy.test.js.snap" <<'EOF'
// Jest Snapshot v1, https://goo.gl/fbAQLP

exports[`legacy header 1`] = `"<h1>Old</h1>"`;
EOF
  capture batch21 jest_ci_snapshots_not_written "$JS1" "$NB/jest --ci" "jest $("$NB/jest" --version)"

  # vitest run -u: snapshots written, updated and obsolete ones removed (exit 0)
  JS2="$B/vitestu"
  mkdir -p "$JS2/test/__snapshots__"
  printf '{ "name": "fmt", "version": "1.0.0", "private": true, "type": "module" }\n' >"$JS2/package.json"
  printf 'export const fmtMoney = (c, cur = "EUR") => `${(c / 100).toFixed(2)} ${cur}`;\nexport const fmtDate = (d) => d.toISOString().slice(0, 10);\n' >"$JS2/fmt.js"
  cat >"$JS2/test/fmt.test.js" <<'EOF'
import { expect, test } from "vitest";
import { fmtMoney, fmtDate } from "../fmt.js";

test("money", () => {
  expect(fmtMoney(12345)).toMatchSnapshot();
  expect(fmtMoney(5, "USD")).toMatchSnapshot();
});

test("date", () => {
  expect(fmtDate(new Date("2026-01-02T03:04:05Z"))).toMatchSnapshot();
});
EOF
  cat >"$JS2/test/__snapshots__/fmt.test.js.snap" <<'EOF'
// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html

exports[`money 1`] = `"123.45 €"`;

exports[`old helper 1`] = `"x"`;
EOF
  capture batch21 vitest_run_update_snapshots "$JS2" "$NB/vitest run -u" "vitest $("$NB/vitest" --version | awk '{print $1}')"

  # jest --watch outside a git repository
  capture batch21 jest_watch_without_git "$JS1" "$NB/jest --watch" "jest $("$NB/jest" --version)"

  # a jest test that exceeds its timeout and leaves an interval running (--forceExit)
  JS3="$B/jesttimeout"
  mkdir -p "$JS3/test"
  printf '{ "name": "queue", "version": "1.0.0", "private": true }\n' >"$JS3/package.json"
  cat >"$JS3/queue.js" <<'EOF'
class Queue {
  constructor() { this.items = []; this.timer = null; }
  push(x) { this.items.push(x); }
  drainEvery(ms, fn) { this.timer = setInterval(() => { while (this.items.length) fn(this.items.shift()); }, ms); }
  waitEmpty() { return new Promise((resolve) => { if (this.items.length === 0 && this.done) resolve(); }); }
}
module.exports = { Queue };
EOF
  cat >"$JS3/test/queue.test.js" <<'EOF'
const { Queue } = require("../queue");

describe("Queue", () => {
  test("push adds items", () => {
    const q = new Queue();
    q.push(1);
    expect(q.items).toEqual([1]);
  });

  test("drains to the handler", async () => {
    const q = new Queue();
    const seen = [];
    q.push("a");
    q.drainEvery(10, (x) => seen.push(x));
    await q.waitEmpty();
    expect(seen).toEqual(["a"]);
  }, 300);

  test("keeps order", () => {
    const q = new Queue();
    q.push(1); q.push(2);
    expect(q.items).toEqual([2, 1]);
  });
});
EOF
  capture batch21 jest_test_timeout_force_exit "$JS3" "$NB/jest --ci --forceExit" "jest $("$NB/jest" --version)"

  # mocha with --timeout and --retries: a flaky test passing on retry, two timeouts, one failure
  JS4="$B/mocharetry"
  mkdir -p "$JS4/test"
  printf '{ "name": "fetcher", "version": "1.0.0", "private": true }\n' >"$JS4/package.json"
  cat >"$JS4/test/fetch.spec.js" <<'EOF'
const assert = require("assert");
let attempts = 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe("fetcher", function () {
  it("parses a response", function () {
    assert.deepStrictEqual(JSON.parse('{"ok":true}'), { ok: true });
  });
  it("retries a flaky upstream", async function () {
    attempts += 1;
    await sleep(20);
    assert.ok(attempts >= 2, `upstream flaked on attempt ${attempts}`);
  });
  it("fetches the catalogue", async function () {
    await sleep(400);
  });
  it("streams a large export", function (done) {
    setTimeout(done, 500);
  });
  it("maps status codes", function () {
    assert.strictEqual({ 200: "ok", 404: "missing" }[503] || "unknown", "unavailable");
  });
  it("builds the query string", function () {
    assert.strictEqual(new URLSearchParams({ a: 1, b: "x y" }).toString(), "a=1&b=x+y");
  });
});
EOF
  capture batch21 mocha_timeouts_and_retries "$JS4" "$NB/mocha --timeout 150 --retries 2 test" "mocha $("$NB/mocha" --version)"

  # tsc given a compiler option that does not exist
  JS5="$B/tscflag"
  mkdir -p "$JS5/src"
  printf '{ "compilerOptions": { "target": "es2022", "module": "commonjs", "strict": true, "outDir": "dist" }, "include": ["src"] }\n' >"$JS5/tsconfig.json"
  printf 'export const add = (a: number, b: number): number => a + b;\n' >"$JS5/src/index.ts"
  capture batch21 tsc_unknown_compiler_option "$JS5" "$NB/tsc --noEmit --strictNullCheck --noUnusedLocal -p ." "tsc $("$NB/tsc" --version)"

  # tsc --pretty over a generated API client whose models were renamed (long, coloured)
  JS6="$B/tscgen"
  mkdir -p "$JS6/src/generated"
  printf '{ "compilerOptions": { "target": "es2022", "module": "esnext", "moduleResolution": "bundler", "strict": true, "noEmit": true }, "include": ["src"] }\n' >"$JS6/tsconfig.json"
  {
    echo "// Generated by openapi-gen 7.3.0 from api.yaml. Do not edit by hand."
    echo "export interface CustomerDto { id: string; email: string; createdAt: string }"
    echo "export interface OrderDto { id: string; customerId: string; total: number }"
    echo "export type Fetcher = (path: string, init?: { method?: string; body?: string }) => Promise<unknown>;"
    echo
    for i in $(seq 1 48); do
      echo "export async function getCustomer$i(f: Fetcher, id: string): Promise<Customer> {"
      echo "  return (await f(\`/v1/customers/\${id}/r$i\`)) as Customer;"
      echo "}"
    done
  } >"$JS6/src/generated/client.ts"
  cat >"$JS6/src/service.ts" <<'EOF'
import { getCustomer1, type CustomerDto, type Fetcher } from "./generated/client";

export async function customerEmail(f: Fetcher, id: number): Promise<string> {
  const c: CustomerDto = await getCustomer1(f, id);
  return c.mail;
}
EOF
  capture batch21 tsc_pretty_generated_client_long "$JS6" "$NB/tsc --pretty -p ." "tsc $("$NB/tsc" --version)"

  # eslint (flat config) over a tree with generated code that is not ignored (long)
  JS7="$B/eslintgen"
  mkdir -p "$JS7/src/gen"
  printf '{ "name": "widgets", "version": "1.0.0", "private": true, "type": "module" }\n' >"$JS7/package.json"
  cat >"$JS7/eslint.config.js" <<'EOF'
export default [
  {
    files: ["**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { console: "readonly" } },
    rules: { "no-var": "error", "eqeqeq": "error", "no-unused-vars": "warn", "prefer-const": "warn", "no-undef": "error" },
  },
];
EOF
  {
    echo "// generated by protoc-gen-js 3.21.0; DO NOT EDIT"
    for i in $(seq 1 110); do
      echo "var Field$i = function (v) { if (v == null) return 0; var out = v; return out; };"
      echo "export { Field$i };"
    done
  } >"$JS7/src/gen/widgets_pb.js"
  cat >"$JS7/src/widget.js" <<'EOF'
import { Field1 } from "./gen/widgets_pb.js";

export function widgetLabel(w) {
  let label = w.name;
  if (w.count == 0) return "empty";
  const unused = Field1(w.id);
  return label + " (" + w.count + ")" + suffix;
}
EOF
  capture batch21 eslint_generated_code_not_ignored_long "$JS7" "$NB/eslint src" "eslint $("$NB/eslint" --version)"

  # eslint 9 in a project that still has only .eslintrc.json
  JS8="$B/eslintrc"
  mkdir -p "$JS8/src"
  printf '{ "name": "legacy", "version": "1.0.0", "private": true }\n' >"$JS8/package.json"
  printf '{ "root": true, "extends": "eslint:recommended", "env": { "node": true } }\n' >"$JS8/.eslintrc.json"
  printf 'var x = 1;\nmodule.exports = x;\n' >"$JS8/src/index.js"
  capture batch21 eslint9_without_flat_config "$JS8" "$NB/eslint src" "eslint $("$NB/eslint" --version)"
  # eslint 9 given flags of the eslintrc era that flat config removed
  capture batch21 eslint9_removed_eslintrc_flags "$JS7" "$NB/eslint --no-eslintrc --rulesdir tools/rules src" "eslint $("$NB/eslint" --version)"

  # prettier --check with one glob matching nothing and two files unformatted
  JS9="$B/prettier"
  mkdir -p "$JS9/src"
  printf '{ "name": "ui", "version": "1.0.0", "private": true }\n' >"$JS9/package.json"
  printf 'export const a = 1;\n' >"$JS9/src/a.ts"
  printf 'export const b = {x:1,y:2}\n' >"$JS9/src/b.ts"
  printf 'export function c( n:number ){return n*2}\n' >"$JS9/src/c.ts"
  printf 'export const d = "d";\n' >"$JS9/src/d.ts"
  capture batch21 prettier_check_glob_matches_nothing "$JS9" "$NB/prettier --check 'src/**/*.ts' 'lib/**/*.js'" "prettier $("$NB/prettier" --version)"

  # esbuild --bundle --log-limit=0 with many unresolved imports (long)
  JS10="$B/esbuild"
  mkdir -p "$JS10/src/pages"
  for i in $(seq 1 45); do
    printf 'import { Layout } from "../components/Layout";\nimport { t } from "@app/i18n";\nexport const page%d = () => Layout(t("page.%d"));\n' "$i" "$i" >"$JS10/src/pages/page$i.ts"
  done
  { for i in $(seq 1 45); do echo "export { page$i } from \"./pages/page$i\";"; done; echo 'import "./styles/main.css";'; } >"$JS10/src/index.ts"
  capture batch21 esbuild_bundle_log_limit_zero_long "$JS10" "$NB/esbuild src/index.ts --bundle --log-limit=0 --outfile=dist/app.js" "esbuild $("$NB/esbuild" --version)"

  # npm test across workspaces with node --test, one workspace failing
  MW="$B/npmws"
  mkdir -p "$MW"
  printf '{ "name": "shop-mono", "version": "1.0.0", "private": true, "workspaces": ["packages/*"] }\n' >"$MW/package.json"
  for p in cart catalog checkout pricing; do
    mkdir -p "$MW/packages/$p/test"
    printf '{ "name": "@shop/%s", "version": "0.1.0", "scripts": { "test": "node --test test/" } }\n' "$p" >"$MW/packages/$p/package.json"
    {
      echo "const test = require('node:test');"
      echo "const assert = require('node:assert');"
      for i in 1 2 3 4; do
        echo "test('$p case $i', () => {"
        if [ "$p" = pricing ] && [ "$i" = 3 ]; then
          echo "  assert.strictEqual(0.1 + 0.2, 0.3);"
        else
          echo "  assert.strictEqual($i + $i, $((i * 2)));"
        fi
        echo "});"
      done
    } >"$MW/packages/$p/test/$p.test.js"
  done
  (cd "$MW" && npm install --offline --no-audit --no-fund >/dev/null 2>&1)
  capture batch21 npm_test_workspaces_one_fails "$MW" "npm test --workspaces --if-present" "npm $(npm --version); node $(node --version)"

  # turbo run test over the same kind of monorepo with one package failing
  TM="$B/turbo"
  mkdir -p "$TM"
  printf '{ "name": "acme", "version": "1.0.0", "private": true, "packageManager": "npm@%s", "workspaces": ["apps/*", "packages/*"] }\n' "$(npm --version)" >"$TM/package.json"
  printf '{ "$schema": "https://turbo.build/schema.json", "tasks": { "build": { "dependsOn": ["^build"], "outputs": ["dist/**"] }, "test": { "dependsOn": ["build"] } } }\n' >"$TM/turbo.json"
  for p in packages/utils packages/ui apps/web apps/admin; do
    n="${p#*/}"
    mkdir -p "$TM/$p/test"
    dep=""
    [ "$p" != packages/utils ] && dep=', "dependencies": { "@acme/utils": "*" }'
    printf '{ "name": "@acme/%s", "version": "0.0.1", "scripts": { "build": "echo built %s", "test": "node --test test/" }%s }\n' "$n" "$n" "$dep" >"$TM/$p/package.json"
    {
      echo "const test = require('node:test');"
      echo "const assert = require('node:assert');"
      echo "test('$n renders', () => assert.ok(true));"
      if [ "$n" = admin ]; then
        echo "test('$n permissions', () => { assert.deepStrictEqual(['read', 'write'].sort(), ['read', 'admin', 'write'].sort()); });"
      else
        echo "test('$n permissions', () => assert.ok(true));"
      fi
    } >"$TM/$p/test/$n.test.js"
  done
  gitinit "$TM" && printf 'node_modules\n.turbo\n' >"$TM/.gitignore"
  (cd "$TM" && npm install --offline --no-audit --no-fund >/dev/null 2>&1 && git add -A && git commit -qm init)
  capture batch21 turbo_run_test_one_package_fails "$TM" "$NB/turbo run test --continue" "turbo $("$NB/turbo" --version 2>/dev/null)"


  # git merge with a conflict inside package-lock.json, then the conflicted diff (long)
  LC="$B/lockmerge"
  gitinit "$LC"
  mkdir -p "$LC"
  lock() {
    {
      echo '{'
      echo '  "name": "web",'
      echo '  "version": "1.0.0",'
      echo '  "lockfileVersion": 3,'
      echo '  "requires": true,'
      echo '  "packages": {'
      for i in $(seq 1 60); do
        v="1.$i.0"; [ "$i" -ge "$1" ] && [ "$i" -lt "$2" ] && v="$3.$i.0"
        echo "    \"node_modules/dep-$i\": {"
        echo "      \"version\": \"$v\","
        echo "      \"resolved\": \"https://registry.npmjs.org/dep-$i/-/dep-$i-$v.tgz\","
        echo "      \"integrity\": \"sha512-$(printf '%s' "dep-$i-$v" | sha256sum | cut -c1-40)\""
        echo "    },"
      done
      echo '    "": { "name": "web" }'
      echo '  }'
      echo '}'
    } >"$LC/package-lock.json"
  }
  lock 0 0 1 && printf '{ "name": "web", "version": "1.0.0" }\n' >"$LC/package.json"
  git -C "$LC" add -A && git -C "$LC" commit -qm "lock: initial"
  git -C "$LC" checkout -qb deps/bump-minor
  lock 10 40 2 && sed -i 's/"1.0.0" }/"1.0.0", "dependencies": { "dep-12": "^2.12.0" } }/' "$LC/package.json"
  git -C "$LC" commit -qam "deps: bump dep-10..dep-39"
  git -C "$LC" checkout -q main
  lock 25 55 3 && git -C "$LC" commit -qam "deps: bump dep-25..dep-54 to 3.x"
  capture batch21 git_merge_lockfile_conflict_long "$LC" "git merge deps/bump-minor; git diff" "$GITV"

  # --- Go (Debian's golang) ---
  export GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOCACHE="$WORK/gocache"
  # a counter package whose test is meant for the race detector
  GR="$B/gorace"
  mkdir -p "$GR/metrics"
  printf 'module example.com/svc\n\ngo 1.19\n' >"$GR/go.mod"
  cat >"$GR/metrics/counter.go" <<'EOF'
package metrics

import "sync"

// Counter counts events by name.
type Counter struct {
	mu     sync.Mutex
	counts map[string]int
	total  int
}

func New() *Counter { return &Counter{counts: map[string]int{}} }

func (c *Counter) Inc(name string) {
	c.mu.Lock()
	c.counts[name]++
	c.mu.Unlock()
	c.total++
}

func (c *Counter) Total() int { return c.total }
EOF
  cat >"$GR/metrics/counter_test.go" <<'EOF'
package metrics

import (
	"sync"
	"testing"
)

func TestIncSequential(t *testing.T) {
	c := New()
	c.Inc("a")
	c.Inc("b")
	if c.Total() != 2 {
		t.Fatalf("total = %d, want 2", c.Total())
	}
}

func TestIncConcurrent(t *testing.T) {
	c := New()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				c.Inc("req")
			}
		}()
	}
	wg.Wait()
	if c.Total() != 800 {
		t.Errorf("total = %d, want 800", c.Total())
	}
}
EOF
  # -race asked for with cgo disabled
  capture batch21 go_test_race_without_cgo "$GR" "CGO_ENABLED=0 go test -race ./..." "$GOV"
  # go test given a flag it does not define
  capture batch21 go_test_unknown_flag "$GR" "go test -verbose ./..." "$GOV"

  # build tags: integration-tagged tests that do not compile, and a command excluded on this OS
  GT="$B/gotags"
  mkdir -p "$GT/store" "$GT/cmd/winsvc"
  printf 'module example.com/store\n\ngo 1.19\n' >"$GT/go.mod"
  printf 'package store\n\ntype Store struct{ DSN string }\n\nfunc Open(dsn string) (*Store, error) { return &Store{DSN: dsn}, nil }\n\nfunc (s *Store) Close() error { return nil }\n' >"$GT/store/store.go"
  printf 'package store\n\nimport "testing"\n\nfunc TestOpen(t *testing.T) {\n\tif _, err := Open("mem"); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n' >"$GT/store/store_test.go"
  cat >"$GT/store/store_integration_test.go" <<'EOF'
//go:build integration

package store

import (
	"context"
	"testing"
)

func TestOpenPostgres(t *testing.T) {
	s, err := Open(context.Background(), "postgres://localhost/test")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Ping() != nil {
		t.Fatal("ping failed")
	}
}
EOF
  printf '//go:build windows\n\npackage main\n\nfunc main() {}\n' >"$GT/cmd/winsvc/main.go"
  capture batch21 go_test_tags_integration_compile_errors "$GT" "go test -tags integration ./store/" "$GOV"
  capture batch21 go_build_constraints_exclude_all "$GT" "go build ./cmd/winsvc" "$GOV"

  # go test -bench with -count over 50 benchmarks, one failing (long)
  GB="$B/gobench"
  mkdir -p "$GB/codec"
  printf 'module example.com/codec\n\ngo 1.19\n' >"$GB/go.mod"
  printf 'package codec\n\nimport "strings"\n\nfunc Encode(s string, n int) string { return strings.Repeat(s, n) }\n' >"$GB/codec/codec.go"
  {
    echo "package codec"
    echo
    echo "import \"testing\""
    for i in $(seq 1 50); do
      echo
      echo "func BenchmarkEncode$i(b *testing.B) {"
      echo "	b.ReportAllocs()"
      if [ "$i" -eq 33 ]; then
        echo "	if got := Encode(\"ab\", $i); len(got) != $((i * 2 + 1)) {"
        echo "		b.Fatalf(\"len(Encode) = %d, want %d\", len(got), $((i * 2 + 1)))"
        echo "	}"
      fi
      echo "	for n := 0; n < b.N; n++ {"
      echo "		_ = Encode(\"ab\", $i)"
      echo "	}"
      echo "}"
    done
  } >"$GB/codec/codec_test.go"
  capture batch21 go_bench_count_long_one_fails "$GB" "go test -run '^\$' -bench . -benchmem -benchtime=200x -count=6 ./..." "$GOV"


  # inconsistent vendoring: go.mod and vendor/modules.txt disagree
  GV="$B/govendor"
  mkdir -p "$GV/vendor/example.com/lib" "$GV/lib"
  printf 'package lib\n\nfunc Hello() string { return "hi" }\n' >"$GV/lib/lib.go"
  printf 'module example.com/lib\n\ngo 1.19\n' >"$GV/lib/go.mod"
  printf 'module example.com/app\n\ngo 1.19\n\nrequire (\n\texample.com/lib v1.2.0\n\tgolang.org/x/text v0.14.0\n)\n\nreplace example.com/lib => ./lib\n' >"$GV/go.mod"
  printf '# example.com/lib v1.1.0 => ./lib\n## explicit; go 1.19\nexample.com/lib\n# example.com/lib => ./lib\n' >"$GV/vendor/modules.txt"
  cp "$GV/lib/lib.go" "$GV/vendor/example.com/lib/"
  printf 'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/lib"\n)\n\nfunc main() { fmt.Println(lib.Hello()) }\n' >"$GV/main.go"
  capture batch21 go_build_inconsistent_vendoring "$GV" "GOFLAGS=-mod=vendor go build ./..." "$GOV"

  # --- Rust (cargo, std only, offline) ---
  export CARGO_NET_OFFLINE=true CARGO_TERM_COLOR=never
  RW="$B/rustws"
  mkdir -p "$RW/core/src" "$RW/api/src" "$RW/cli/src"
  printf '[workspace]\nmembers = ["core", "api", "cli"]\nresolver = "2"\n' >"$RW/Cargo.toml"
  printf '[package]\nname = "ledger-core"\nversion = "0.3.0"\nedition = "2021"\n\n[features]\ndefault = ["serde-lite"]\nserde-lite = []\n' >"$RW/core/Cargo.toml"
  printf '[package]\nname = "ledger-api"\nversion = "0.3.0"\nedition = "2021"\n\n[dependencies]\nledger-core = { path = "../core" }\n' >"$RW/api/Cargo.toml"
  printf '[package]\nname = "ledger-cli"\nversion = "0.3.0"\nedition = "2021"\n\n[dependencies]\nledger-core = { path = "../core", default-features = false }\n' >"$RW/cli/Cargo.toml"
  {
    echo "#[cfg(feature = \"serde-lite\")]"
    echo "pub mod wire {"
    echo "    pub fn encode(v: i64) -> String { format!(\"i{}e\", v) }"
    echo "}"
    echo
    echo "pub fn round_cents(v: f64) -> i64 { (v * 100.0).round() as i64 }"
    echo
    echo "macro_rules! case { (\$name:ident, \$input:expr, \$want:expr) => { #[test] fn \$name() { assert_eq!(round_cents(\$input), \$want, \"round_cents({})\", \$input); } }; }"
    echo
    echo "#[cfg(test)]"
    echo "mod tests {"
    echo "    use super::*;"
    for i in $(seq 1 160); do
      want=$((i * 100 + 1))
      [ "$i" -eq 57 ] && want=5710
      [ "$i" -eq 131 ] && want=13110
      echo "    case!(round_$i, $i.01, $want);"
    done
    echo "}"
  } >"$RW/core/src/lib.rs"
  {
    echo "use ledger_core::{round_cents, wire};"
    echo
    echo "pub fn render(v: f64) -> String { wire::encode(round_cents(v)) }"
    echo
    echo "#[cfg(test)]"
    echo "mod tests {"
    echo "    use super::*;"
    for i in $(seq 1 150); do
      echo "    #[test] fn render_$i() { assert_eq!(render($i.0), \"i${i}00e\"); }"
    done
    echo "    #[test] fn render_negative() { assert_eq!(render(-1.5), \"i-150e\"); }"
    echo "    #[test] fn render_tiny() { assert_eq!(render(0.004), \"i1e\"); }"
    echo "}"
  } >"$RW/api/src/lib.rs"
  printf 'use ledger_core::wire;\n\nfn main() {\n    println!("{}", wire::encode(ledger_core::round_cents(1.5)));\n}\n' >"$RW/cli/src/main.rs"
  # a package id that names no workspace member
  capture batch21 cargo_test_p_unknown_member "$RW" "cargo test -p ledger-billing" "$CARGOV"
  # a feature no selected package has
  capture batch21 cargo_build_unknown_feature "$RW" "cargo build -p ledger-api --features metrics" "$CARGOV"
  # long test run of two workspace members selected with -p, three failures, --no-fail-fast
  capture batch21 cargo_test_workspace_members_long "$RW" "cargo test -p ledger-core -p ledger-api --no-fail-fast" "$CARGOV"
  # the cli member builds its dependency without default features: the cfg-gated module is gone
  capture batch21 cargo_build_member_without_default_features "$RW" "cargo build -p ledger-cli" "$CARGOV"

  # cargo bench of #[bench] benchmarks on the stable channel
  RB="$B/rustbench"
  mkdir -p "$RB/src" "$RB/benches"
  printf '[package]\nname = "hashbench"\nversion = "0.1.0"\nedition = "2021"\n' >"$RB/Cargo.toml"
  printf 'pub fn fnv1a(data: &[u8]) -> u64 {\n    let mut h: u64 = 0xcbf29ce484222325;\n    for b in data {\n        h ^= *b as u64;\n        h = h.wrapping_mul(0x100000001b3);\n    }\n    h\n}\n' >"$RB/src/lib.rs"
  printf '#![feature(test)]\nextern crate test;\n\nuse test::Bencher;\n\n#[bench]\nfn bench_fnv_1k(b: &mut Bencher) {\n    let data = vec![7u8; 1024];\n    b.iter(|| hashbench::fnv1a(&data));\n}\n' >"$RB/benches/fnv.rs"
  capture batch21 cargo_bench_feature_on_stable "$RB" "cargo bench" "$CARGOV"

  # --- git ---

  # sparse-checkout in cone mode, then adding a path outside it
  SC="$B/sparse"
  gitinit "$SC/src"
  for s in api web worker billing; do mkdir -p "$SC/src/services/$s" && echo "$s" >"$SC/src/services/$s/main.py"; done
  mkdir -p "$SC/src/libs/common" && echo c >"$SC/src/libs/common/util.py"
  git -C "$SC/src" add -A && git -C "$SC/src" commit -qm init
  git clone -q "$SC/src" "$SC/work" && git -C "$SC/work" config user.email dev@example.com && git -C "$SC/work" config user.name Dev
  git -C "$SC/work" sparse-checkout set --cone services/api libs/common
  mkdir -p "$SC/work/services/web" && echo "changed" >"$SC/work/services/web/main.py"
  capture batch21 git_sparse_checkout_add_outside_cone "$SC/work" "git sparse-checkout list && git add services/web/main.py services/api/main.py" "$GITV"

  # git push through git-lfs's pre-push hook on a machine without git-lfs
  LF="$B/lfs"
  git init -q --bare -b main "$LF/origin.git"
  gitinit "$LF/work"
  git -C "$LF/work" remote add origin "$LF/origin.git"
  printf '*.psd filter=lfs diff=lfs merge=lfs -text\n' >"$LF/work/.gitattributes"
  echo "art" >"$LF/work/logo.psd"
  git -C "$LF/work" add -A && git -C "$LF/work" commit -qm "add logo"
  printf '#!/bin/sh\ncommand -v git-lfs >/dev/null 2>&1 || { printf >&2 "\\n%%s\\n\\n" "This repository is configured for Git LFS but '"'"'git-lfs'"'"' was not found on your path. If you no longer wish to use Git LFS, remove this hook by deleting the '"'"'pre-push'"'"' file in the hooks directory (set by '"'"'core.hookspath'"'"'; usually '"'"'.git/hooks'"'"')."; exit 2; }\ngit lfs pre-push "$@"\n' >"$LF/work/.git/hooks/pre-push"
  chmod +x "$LF/work/.git/hooks/pre-push"
  capture batch21 git_push_lfs_hook_without_git_lfs "$LF/work" "git push -u origin main" "$GITV"

  # git add -p with stdin closed: the first hunk is shown, then end of input (long)
  AP="$B/addp"
  gitinit "$AP"
  for i in $(seq 1 200); do echo "setting_$i = $i"; done >"$AP/settings.conf"
  git -C "$AP" add -A && git -C "$AP" commit -qm init
  for i in $(seq 1 200); do if [ $((i % 2)) -eq 0 ]; then echo "setting_$i = $((i * 10))"; else echo "setting_$i = $i"; fi; done >"$AP/settings.conf"
  echo "notes" >>"$AP/README.md"
  capture batch21 git_add_patch_without_terminal_long "$AP" "git add -p" "$GITV"

  # git log with a path that no longer exists and no -- separator
  GL="$B/logpath"
  gitinit "$GL"
  mkdir -p "$GL/src" && echo a >"$GL/src/old_name.py" && git -C "$GL" add -A && git -C "$GL" commit -qm "add module"
  git -C "$GL" mv src/old_name.py src/new_name.py && git -C "$GL" commit -qm "rename module"
  capture batch21 git_log_ambiguous_removed_path "$GL" "git log --oneline src/old_name.py" "$GITV"
fi

# --- batch22: other languages' test runners and compilers, docs and config tools, local ops tools
# Debian packages: gfortran nim tcllib ocaml-dune ocaml-findlib lua-check libxml2-utils bats shfmt doxygen
# erlang-base erlang-eunit elixir pandoc python3-sphinx r-base-core r-cran-testthat ansible-core ansible-lint ghc jq yq
if sel batch22; then
  B="$WORK/batch22"
  rm -rf "$B" && mkdir -p "$B"

  # Perl: prove -r -j2 over a small library's tests, three files failing in different ways
  PL="$B/perl"
  mkdir -p "$PL/lib/Invoice" "$PL/t/unit" "$PL/t/integration"
  cat >"$PL/lib/Invoice/Calc.pm" <<'EOF'
package Invoice::Calc;
use strict; use warnings;
sub new { my ($c, %a) = @_; return bless { rate => $a{rate} // 0.2, lines => [] }, $c }
sub add { my ($s, $name, $qty, $price) = @_; push @{$s->{lines}}, { name => $name, qty => $qty, price => $price }; return $s }
sub net { my $s = shift; my $t = 0; $t += $_->{qty} * $_->{price} for @{$s->{lines}}; return $t }
sub tax { my $s = shift; return sprintf('%.2f', $s->net * $s->{rate}) }
sub lines_by_name { my $s = shift; return [ map { $_->{name} } sort { $a->{name} cmp $b->{name} } @{$s->{lines}} ] }
sub parse_line { my ($s, $l) = @_; my ($n, $q, $p) = split /;/, $l; die "bad quantity '$q' in line '$l'\n" unless $q =~ /^\d+$/; return { name => $n, qty => $q, price => $p } }
1;
EOF
  cat >"$PL/t/unit/01-net.t" <<'EOF'
use strict; use warnings; use Test::More tests => 4;
use lib 'lib'; use Invoice::Calc;
my $c = Invoice::Calc->new->add('pen', 2, 1.5)->add('ink', 1, 4);
is($c->net, 7, 'net of two lines');
is($c->tax, '1.40', 'tax at 20%');
is(Invoice::Calc->new(rate => 0.07)->add('x', 1, 10)->tax, '0.70', 'tax at 7%');
ok(Invoice::Calc->new->net == 0, 'empty invoice');
EOF
  cat >"$PL/t/unit/02-sort.t" <<'EOF'
use strict; use warnings; use Test::More;
use lib 'lib'; use Invoice::Calc;
my $c = Invoice::Calc->new->add('pen', 2, 1.5)->add('Ink', 1, 4)->add('box', 3, 2);
is_deeply($c->lines_by_name, ['box', 'Ink', 'pen'], 'names sorted case-insensitively');
is_deeply($c->{lines}[0], { name => 'pen', qty => 2, price => '1.50' }, 'first line kept as given');
done_testing;
EOF
  cat >"$PL/t/unit/03-parse.t" <<'EOF'
use strict; use warnings; use Test::More tests => 3;
use lib 'lib'; use Invoice::Calc;
my $c = Invoice::Calc->new;
is($c->parse_line('pen;2;1.5')->{qty}, 2, 'quantity parsed');
is($c->parse_line('ink;1;4')->{name}, 'ink', 'name parsed');
is($c->parse_line('box;three;2')->{qty}, 3, 'word quantity');
EOF
  cat >"$PL/t/integration/10-file.t" <<'EOF'
use strict; use warnings; use Test::More tests => 5;
use lib 'lib'; use Invoice::Calc;
for my $i (1..3) { ok(Invoice::Calc->new->add("item$i", $i, 1)->net == $i, "item $i") }
EOF
  for i in 11 12 13 14 15 16; do
    printf 'use strict; use warnings; use Test::More;\nuse lib q(lib); use Invoice::Calc;\nfor my $i (1..12) { is(Invoice::Calc->new->add("x", $i, 2)->net, 2*$i, "case %s.$i") }\ndone_testing;\n' "$i" >"$PL/t/integration/$i-bulk.t"
  done
  capture batch22 perl_prove_recursive_parallel "$PL" "prove -r -j2 t/" "$(perl -e 'print "perl $^V"'), $(prove --version)"

  # Perl: prove -v of one long table-driven test file with two failures among 320 checks
  PV="$B/perl-long"
  mkdir -p "$PV/t" "$PV/lib"
  cat >"$PV/lib/Slug.pm" <<'EOF'
package Slug; use strict; use warnings;
sub slugify { my $s = lc shift; $s =~ s/[^a-z0-9]+/-/g; $s =~ s/^-|-$//g; return $s }
1;
EOF
  {
    echo 'use strict; use warnings; use Test::More; use lib "lib"; use Slug;'
    echo 'my @cases = ('
    for i in $(seq 1 318); do echo "  [\"Post number $i: Hello World\", \"post-number-$i-hello-world\"],"; done
    echo '  ["Crème brûlée recipe", "creme-brulee-recipe"],'
    echo '  ["  --Already--slugged--  ", "already--slugged"],'
    echo ');'
    echo 'is(Slug::slugify($_->[0]), $_->[1], "slugify: $_->[0]") for @cases;'
    echo 'done_testing;'
  } >"$PV/t/slug.t"
  capture batch22 perl_prove_verbose_long "$PV" "prove -v t/slug.t" "$(prove --version)"

  # Tcl: tcltest suite with failures (result mismatch, an error, a skip by constraint)
  TC="$B/tcl"
  mkdir -p "$TC/tests"
  cat >"$TC/queue.tcl" <<'EOF'
namespace eval queue {
    variable items {}
    proc push {x} { variable items; lappend items $x; return [llength $items] }
    proc pop {} { variable items; set x [lindex $items end]; set items [lrange $items 0 end-1]; return $x }
    proc size {} { variable items; return [llength $items] }
    proc clear {} { variable items; set items {} }
    proc peek {} { variable items; return [lindex $items 0] }
    proc drain {n} { variable items; if {$n > [llength $items]} { error "cannot drain $n items from a queue of [llength $items]" }; set r [lrange $items 0 [expr {$n-1}]]; set items [lrange $items $n end]; return $r }
}
EOF
  cat >"$TC/tests/queue.test" <<'EOF'
package require tcltest
namespace import ::tcltest::*
source [file join [file dirname [info script]] .. queue.tcl]
test queue-1.1 {push returns size} -setup queue::clear -body { queue::push a; queue::push b } -result 2
test queue-1.2 {pop is FIFO} -setup { queue::clear; queue::push a; queue::push b } -body { queue::pop } -result a
test queue-1.3 {size after pops} -setup { queue::clear; queue::push a } -body { queue::pop; queue::size } -result 0
test queue-2.1 {peek on empty} -setup queue::clear -body { queue::peek } -result {}
test queue-2.2 {drain too many} -setup { queue::clear; queue::push a } -body { queue::drain 3 } -returnCodes error -result {cannot drain 3 items from a queue of 2}
test queue-2.3 {drain two} -setup { queue::clear; foreach x {a b c} { queue::push $x } } -body { queue::drain 2 } -result {a b}
test queue-3.1 {drain negative} -setup queue::clear -body { queue::drain -1; queue::size } -result 0
testConstraint bigMemory 0
test queue-4.1 {million items} -constraints bigMemory -body { for {set i 0} {$i < 1000000} {incr i} { queue::push $i }; queue::size } -result 1000000
test queue-4.2 {clear resets} -body { queue::push z; queue::clear; queue::size } -result 0
test queue-4.3 {pop empty} -setup queue::clear -body { queue::pop; queue::frobnicate } -result {}
cleanupTests
EOF
  capture batch22 tcltest_failures "$TC" "tclsh tests/queue.test" "tcl $(echo 'puts [info patchlevel]' | tclsh)"

  # make -j4 -k of a docs/data pipeline whose recipes are scripts; two fail, outputs interleave
  MK="$B/make-pipeline"
  mkdir -p "$MK/data" "$MK/scripts"
  for r in north south east west central; do
    { echo "id,region,amount"; for i in $(seq 1 20); do echo "$i,$r,$((i * 7 % 50))"; done; } >"$MK/data/$r.csv"
  done
  sed -i '12s/.*/12,south,N\/A/' "$MK/data/south.csv"
  cat >"$MK/scripts/summarise.sh" <<'EOF'
#!/bin/sh
# summarise.sh IN OUT: sums the amount column, failing on a non-numeric amount
in="$1"; out="$2"; n=0; sum=0
echo "summarise: reading $in"
while IFS=, read -r id region amount; do
  [ "$id" = id ] && continue
  n=$((n + 1))
  case "$amount" in ''|*[!0-9]*) echo "summarise: $in:$((n + 1)): amount '$amount' is not a number" >&2; exit 3;; esac
  sum=$((sum + amount))
  sleep 0.01
done <"$in"
echo "$region,$n,$sum" >"$out"
echo "summarise: wrote $out ($n rows)"
EOF
  chmod +x "$MK/scripts/summarise.sh"
  cat >"$MK/Makefile" <<'EOF'
REGIONS := north south east west central
SUMS := $(REGIONS:%=build/%.sum)
all: build/report.txt
build:
	mkdir -p build
build/%.sum: data/%.csv scripts/summarise.sh | build
	./scripts/summarise.sh $< $@
build/report.txt: $(SUMS) build/rates.txt
	cat $^ > $@
build/rates.txt: | build
	@echo "fetching rates from rates.json"
	jq -r '.rates | to_entries[] | "\(.key),\(.value)"' rates.json > $@
.PHONY: all
EOF
  printf '{"rates": {"EUR": 1, "USD": 1.08,}}\n' >"$MK/rates.json"
  capture batch22 make_j4_k_script_pipeline "$MK" "make -j4 -k" "$(make --version | head -1)"

  # shfmt -d over a scripts directory (a diff per file, exit 1)
  SF="$B/shfmt"
  mkdir -p "$SF/scripts"
  cat >"$SF/scripts/deploy.sh" <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
deploy(){
  local env=$1
    if [ "$env" == "prod" ]
    then
      echo "deploying to prod"
    fi
  for host in $(cat hosts.txt) ; do
     ssh $host "systemctl restart app"
  done
}
deploy "$@"
EOF
  cat >"$SF/scripts/backup.sh" <<'EOF'
#!/bin/sh
DEST=/var/backups
tar czf $DEST/app.tgz /srv/app &&echo done||echo failed
case "$1" in
  full) echo full;;
    incr)
  echo incr
  ;;
esac
EOF
  cat >"$SF/scripts/ok.sh" <<'EOF'
#!/bin/sh
echo "already formatted"
EOF
  cat >"$SF/scripts/broken.sh" <<'EOF'
#!/bin/bash
if [ -f x ]; then
  echo "missing fi"
for f in *.txt; do echo "$f"; done
EOF
  capture batch22 shfmt_diff_scripts "$SF" "shfmt -d -i 2 scripts/" "shfmt $(shfmt --version)"

  # Erlang: erlc over four modules with errors and warnings
  ER="$B/erlang"
  mkdir -p "$ER/src" "$ER/ebin" "$ER/test"
  cat >"$ER/src/cart.erl" <<'EOF'
-module(cart).
-export([new/0, add/3, total/1, remove/2]).

new() -> #{items => [], currency => eur}.

add(Cart = #{items := Items}, Sku, Qty) when Qty > 0 ->
    Cart#{items := [{Sku, Qty} | Items]};
add(_Cart, _Sku, Qty) ->
    erlang:error({bad_quantity, Qty}).

total(#{items := Items}) ->
    lists:sum([Qty * price(Sku) || {Sku, Qty} <- Items]).

remove(Cart = #{items := Items}, Sku) ->
    Unused = 42,
    Cart#{items := lists:keydelete(Sku, 1, Items)}.

price(apple) -> 3;
price(pear) -> 4;
price(plum) -> 2.
EOF
  cat >"$ER/src/inventory.erl" <<'EOF'
-module(inventory).
-export([stock/1, reserve/2]).

stock(Sku) ->
    case ets:lookup(stock, Sku) of
        [{Sku, N}] -> N;
        [] -> 0
    end.

reserve(Sku, N) ->
    Have = stock(Sku),
    if Have >= N -> {ok, Have - N};
       true -> {error, {insufficient, Sku, Have}}
    end
    io:format("reserved ~p~n", [Sku]).
EOF
  cat >"$ER/src/pricing.erl" <<'EOF'
-module(pricing).
-export([discount/2, vat/1]).

discount(Amount, Percent) when Percent =< 100 ->
    Amount - Amount * Percent / 100.

vat(Amount) ->
    round2(Amount * 1.2).

format(Amount) -> io_lib:format("~.2f", [Amount]).
EOF
  cat >"$ER/src/orders.erl" <<'EOF'
-module(orders).
-export([place/2]).
-record(order, {id, cart, status = new}).

place(Id, Cart) ->
    Total = cart:total(Cart),
    O = #order{id = Id, cart = Cart, state = placed},
    {ok, O, Totl}.
EOF
  capture batch22 erlc_errors_warnings "$ER" "erlc -Wall -o ebin src/*.erl" "$(erl -noshell -eval 'io:format("erlang ~s", [erlang:system_info(otp_release)]), halt().')"

  # Erlang: eunit with failing assertions and a crash, verbose
  EU="$B/eunit"
  mkdir -p "$EU/src" "$EU/ebin"
  cat >"$EU/src/textutil.erl" <<'EOF'
-module(textutil).
-export([words/1, capitalize/1, truncate/2, parse_kv/1]).
words(S) -> string:lexemes(S, " ").
capitalize([C | Rest]) when C >= $a, C =< $z -> [C - 32 | Rest];
capitalize(S) -> S.
truncate(S, N) when length(S) =< N -> S;
truncate(S, N) -> lists:sublist(S, N - 3) ++ "...".
parse_kv(S) ->
    [K, V] = string:split(S, "="),
    {list_to_atom(K), list_to_integer(V)}.
EOF
  cat >"$EU/src/textutil_tests.erl" <<'EOF'
-module(textutil_tests).
-include_lib("eunit/include/eunit.hrl").
words_test() -> ?assertEqual(["a", "b", "c"], textutil:words("a b  c")).
capitalize_test_() -> [?_assertEqual("Hello", textutil:capitalize("hello")),
                       ?_assertEqual("Élan", textutil:capitalize("élan")),
                       ?_assertEqual("", textutil:capitalize(""))].
truncate_test_() -> [?_assertEqual("abc", textutil:truncate("abc", 5)),
                     ?_assertEqual("ab...", textutil:truncate("abcdefgh", 5)),
                     ?_assertEqual("abcdefgh", textutil:truncate("abcdefgh", 8))].
parse_kv_test_() -> [?_assertEqual({port, 8080}, textutil:parse_kv("port=8080")),
                     ?_assertEqual({timeout, 30}, textutil:parse_kv("timeout = 30")),
                     ?_assertMatch({retries, _}, textutil:parse_kv("retries"))].
EOF
  capture batch22 erlang_eunit_verbose_failures "$EU" "erlc -o ebin src/*.erl && erl -noshell -pa ebin -eval 'case eunit:test(textutil, [verbose]) of ok -> halt(0); _ -> halt(1) end.'" "$(erl -noshell -eval 'io:format("erlang ~s", [erlang:system_info(otp_release)]), halt().')"

  # Elixir: mix test (no deps) with assertion failures, a raise and a compile warning
  EX="$B/elixir"
  mkdir -p "$EX"
  (cd "$EX" && MIX_HOME="$EX/.mix" mix new ledger >/dev/null 2>&1)
  L="$EX/ledger"
  cat >"$L/lib/ledger.ex" <<'EOF'
defmodule Ledger do
  @moduledoc "A tiny double-entry ledger."

  def new, do: %{accounts: %{}, entries: []}

  def open(ledger, name, balance \\ 0) do
    put_in(ledger, [:accounts, name], balance)
  end

  def transfer(ledger, from, to, amount) when amount > 0 do
    unused = :debug
    with {:ok, fb} <- fetch(ledger, from),
         {:ok, _tb} <- fetch(ledger, to),
         :ok <- check_funds(fb, amount) do
      ledger
      |> update_in([:accounts, from], &(&1 - amount))
      |> update_in([:accounts, to], &(&1 + amount))
      |> Map.update!(:entries, &[{from, to, amount} | &1])
    end
  end

  def balance(ledger, name), do: Map.fetch!(ledger.accounts, name)

  def statement(ledger, name) do
    ledger.entries
    |> Enum.filter(fn {f, t, _} -> f == name or t == name end)
    |> Enum.map(fn {f, t, a} -> if f == name, do: -a, else: a end)
  end

  defp fetch(ledger, name) do
    case Map.fetch(ledger.accounts, name) do
      {:ok, b} -> {:ok, b}
      :error -> {:error, {:no_account, name}}
    end
  end

  defp check_funds(balance, amount) when balance >= amount, do: :ok
  defp check_funds(balance, amount), do: {:error, {:insufficient_funds, balance, amount}}
end
EOF
  cat >"$L/test/ledger_test.exs" <<'EOF'
defmodule LedgerTest do
  use ExUnit.Case
  doctest Ledger

  setup do
    {:ok, ledger: Ledger.new() |> Ledger.open("alice", 100) |> Ledger.open("bob", 20)}
  end

  test "transfer moves money", %{ledger: l} do
    l = Ledger.transfer(l, "alice", "bob", 30)
    assert Ledger.balance(l, "alice") == 70
    assert Ledger.balance(l, "bob") == 50
  end

  test "insufficient funds", %{ledger: l} do
    assert Ledger.transfer(l, "bob", "alice", 50) == {:error, {:insufficient_funds, 20, 50}}
  end

  test "unknown account", %{ledger: l} do
    assert {:error, :no_account} = Ledger.transfer(l, "carol", "bob", 5)
  end

  test "statement lists signed amounts", %{ledger: l} do
    l = l |> Ledger.transfer("alice", "bob", 10) |> Ledger.transfer("bob", "alice", 5)
    assert Ledger.statement(l, "alice") == [-10, 5]
  end

  test "balance of a missing account", %{ledger: l} do
    assert Ledger.balance(l, "dave") == 0
  end

  test "zero transfer is rejected", %{ledger: l} do
    assert_raise ArgumentError, fn -> Ledger.transfer(l, "alice", "bob", 0) end
  end

  for n <- 1..30 do
    test "small transfer #{n}", %{ledger: l} do
      l = Ledger.transfer(l, "alice", "bob", unquote(n))
      assert Ledger.balance(l, "bob") == 20 + unquote(n)
    end
  end
end
EOF
  capture batch22 mix_test_failures "$L" "MIX_HOME=$EX/.mix mix test --seed 0" "$(elixir --version 2>/dev/null | tail -1)"

  # Elixir: mix compile with undefined functions and a syntax error in another module
  MC="$EX/shop"
  (cd "$EX" && MIX_HOME="$EX/.mix" mix new shop >/dev/null 2>&1)
  cat >"$MC/lib/shop.ex" <<'EOF'
defmodule Shop do
  def checkout(cart) do
    cart
    |> Shop.Cart.total()
    |> Shop.Tax.apply_vat()
    |> format_price()
  end

  def format(amount), do: :erlang.float_to_binary(amount, decimals: 2)
end
EOF
  mkdir -p "$MC/lib/shop"
  cat >"$MC/lib/shop/cart.ex" <<'EOF'
defmodule Shop.Cart do
  def total(items), do: Enum.reduce(items, 0, fn {_, q, p}, acc -> acc + q * p end)
  def count(items), do: Enum.count(items, fn {_, q, _} -> q > 0 end)
  def skus(items), do: Enum.map(items, &elem(&1, 0)) |> Enum.uniq_by()
end
EOF
  cat >"$MC/lib/shop/tax.ex" <<'EOF'
defmodule Shop.Tax do
  @rate 0.2
  def apply_vat(amount), do: amount * (1 + @rate)
  def rate(country) do
    case country do
      :de -> 0.19
      :fr -> 0.2
      _ -> @rate
    end
  end
  def round(amount), do: Float.round(amount 2)
end
EOF
  capture batch22 mix_compile_errors "$MC" "MIX_HOME=$EX/.mix mix compile --warnings-as-errors" "$(elixir --version 2>/dev/null | tail -1)"

  # Elixir: mix test --trace over 320 tests with one failure (long)
  MT="$EX/codec"
  (cd "$EX" && MIX_HOME="$EX/.mix" mix new codec >/dev/null 2>&1)
  cat >"$MT/lib/codec.ex" <<'EOF'
defmodule Codec do
  def encode(n) when is_integer(n) and n >= 0, do: Integer.to_string(n, 36) |> String.downcase()
  def decode(s), do: String.to_integer(s, 36)
end
EOF
  cat >"$MT/test/codec_test.exs" <<'EOF'
defmodule CodecTest do
  use ExUnit.Case, async: false
  for n <- 0..319 do
    test "round trip #{n * 997}" do
      assert Codec.decode(Codec.encode(unquote(n * 997))) == unquote(n * 997)
    end
  end
  test "encode of a negative number" do
    assert Codec.encode(-5) == "-5"
  end
end
EOF
  capture batch22 mix_test_trace_long "$MT" "MIX_HOME=$EX/.mix mix test --trace --seed 0" "$(elixir --version 2>/dev/null | tail -1)"

  # Haskell: ghc -Wall on a two-module program with type errors and warnings
  HS="$B/haskell"
  mkdir -p "$HS/src"
  cat >"$HS/src/Inventory.hs" <<'EOF'
module Inventory (Item(..), restock, totalValue, lowStock) where

import qualified Data.Map as M
import Data.List (sortOn)

data Item = Item { sku :: String, qty :: Int, price :: Double } deriving (Show, Eq)

restock :: Int -> Item -> Item
restock n item = item { qty = qty item + n }

totalValue :: [Item] -> Double
totalValue items = sum [fromIntegral (qty i) * price i | i <- items]

lowStock :: Int -> [Item] -> [String]
lowStock limit items = map sku (filter (\i -> qty i < limit) items) ++ length items

byPrice :: [Item] -> [Item]
byPrice = sortOn price
EOF
  cat >"$HS/src/Main.hs" <<'EOF'
module Main where

import Inventory
import System.Environment (getArgs)

main :: IO ()
main = do
  args <- getArgs
  let items = [Item "A-1" 3 2.5, Item "B-2" 10 1.25]
      limit = read (head args)
  putStrLn ("value: " ++ totalValue items)
  mapM_ putStrLn (lowStock limit items)
  case args of
    ["--restock", n] -> print (map (restock n) items)
EOF
  mkdir -p "$HS/build"
  capture batch22 ghc_wall_type_errors "$HS" "ghc -Wall -isrc -outputdir build src/Main.hs -o build/inv" "$(ghc --version)"

  # Haskell: runghc of a script that dies on a partial function after output
  cat >"$HS/report.hs" <<'EOF'
import qualified Data.Map.Strict as M
import Text.Printf (printf)

sales :: [(String, Int)]
sales = [("north", 120), ("south", 80), ("east", 95), ("west", 0)]

main :: IO ()
main = do
  let m = M.fromList sales
  mapM_ (\(r, v) -> printf "%-6s %5d\n" r v) sales
  printf "total  %5d\n" (sum (M.elems m))
  let share r = (m M.! r) * 100 `div` (m M.! "west")
  printf "north share of west: %d%%\n" (share "north")
  print (m M.! "central")
EOF
  capture batch22 runghc_divide_by_zero "$HS" "runghc report.hs" "$(ghc --version)"

  # OCaml: dune build with errors in two libraries' files
  OC="$B/ocaml"
  mkdir -p "$OC/lib" "$OC/bin" "$OC/test"
  printf '(lang dune 2.9)\n' >"$OC/dune-project"
  printf '(library (name geometry))\n' >"$OC/lib/dune"
  cat >"$OC/lib/shape.ml" <<'EOF'
type t = Circle of float | Rect of float * float | Triangle of float * float * float

let area = function
  | Circle r -> 3.14159 *. r *. r
  | Rect (w, h) -> w *. h

let perimeter = function
  | Circle r -> 2. *. 3.14159 *. r
  | Rect (w, h) -> 2 * (w +. h)
  | Triangle (a, b, c) -> a +. b +. c
EOF
  cat >"$OC/lib/scene.ml" <<'EOF'
let total_area shapes = List.fold_left (fun acc s -> acc +. Shape.area s) 0. shapes
let largest shapes = List.sort (fun a b -> compare (Shape.area b) (Shape.area a)) shapes |> List.hd
let describe s = Printf.sprintf "%s with area %.2f" (Shape.name s) (Shape.area s)
EOF
  printf '(executable (name main) (libraries geometry))\n' >"$OC/bin/dune"
  cat >"$OC/bin/main.ml" <<'EOF'
let () =
  let shapes = [ Geometry.Shape.Circle 1.0; Geometry.Shape.Rect (2.0, 3) ] in
  Printf.printf "total %.2f\n" (Geometry.Scene.total_area shapes)
EOF
  capture batch22 dune_build_errors "$OC" "dune build 2>&1" "dune $(dune --version), $(ocamlfind ocamlopt -version 2>/dev/null)"

  # OCaml: dune test with a failing assertion in a test executable
  OT="$B/ocaml-test"
  mkdir -p "$OT/lib" "$OT/test"
  printf '(lang dune 2.9)\n' >"$OT/dune-project"
  printf '(library (name strutil))\n' >"$OT/lib/dune"
  cat >"$OT/lib/strutil.ml" <<'EOF'
let split_words s = String.split_on_char ' ' s |> List.filter (fun w -> w <> "")
let capitalize s = String.capitalize_ascii s
let pad_left n s = if String.length s >= n then s else String.make (n - String.length s) ' ' ^ s
let parse_port s = match int_of_string_opt s with Some p when p > 0 && p < 65536 -> p | _ -> failwith ("bad port: " ^ s)
EOF
  printf '(test (name test_strutil) (libraries strutil))\n' >"$OT/test/dune"
  cat >"$OT/test/test_strutil.ml" <<'EOF'
let check name cond = Printf.printf "%s: %s\n%!" name (if cond then "ok" else "FAIL")
let () =
  check "split_words" (Strutil.split_words "a  b c" = ["a"; "b"; "c"]);
  check "capitalize" (Strutil.capitalize "hello" = "Hello");
  check "pad_left" (Strutil.pad_left 5 "ab" = "   ab");
  check "pad_left long" (Strutil.pad_left 1 "abc" = "abc");
  assert (Strutil.parse_port "8080" = 8080);
  assert (Strutil.parse_port "80" = 8080);
  check "parse_port range" (Strutil.parse_port "70000" = 0)
EOF
  capture batch22 dune_test_assert_failure "$OT" "dune test" "dune $(dune --version)"

  # Lua: luacheck --codes over a 37-file game codebase (plain formatter, long)
  LU="$B/lua"
  mkdir -p "$LU/src/entities" "$LU/src/systems"
  for i in $(seq 1 30); do
    cat >"$LU/src/entities/entity_$i.lua" <<EOF
local Entity$i = {}
Entity$i.__index = Entity$i
local unused_helper = require("src.util")

function Entity$i.new(x, y, speed)
  local self = setmetatable({}, Entity$i)
  self.x = x
  self.y = y
  self.speed = speed or 1
  local tmp = x * 2
  return self
end

function Entity$i:update(dt, world)
  self.x = self.x + self.speed * dt
  if self.x > world.width then
    self.x = 0
    score = score + 1
  end
  for i, v in ipairs(world.items) do
    print(v)
  end
end

function Entity$i:draw()
  love.graphics.rectangle("fill", self.x, self.y, 10, 10)
end

return Entity$i
EOF
  done
  for s in physics render input audio ai net; do
    cat >"$LU/src/systems/$s.lua" <<EOF
local M = {}
local config = require("src.config")

function M.init(opts)
  local opts = opts or {}
  M.enabled = opts.enabled
  M.rate = opts.rate or 60
end

function M.step(dt, entities)
  for i = 1, #entities do
    local e = entities[i]
    e:update(dt, world)
  end
  return nil, "not implemented"
end

function M.shutdown(reason)
  debug_log("shutdown: " .. reason)
end

return M
EOF
  done
  printf 'local M = {}\nfunction M.clamp(v, lo, hi)\n  return math.max(lo, math.min(hi, v)\nend\nreturn M\n' >"$LU/src/util.lua"
  capture batch22 luacheck_codes_many_files "$LU" "luacheck --codes --no-color --std luajit src" "$(luacheck --version | head -1)"

  # gfortran: compile errors over two source files
  GF="$B/fortran"
  mkdir -p "$GF/src"
  cat >"$GF/src/stats.f90" <<'EOF'
module stats
  implicit none
contains
  function mean(x) result(m)
    real, intent(in) :: x(:)
    real :: m
    m = sum(x) / size(x)
  end function mean

  function variance(x) result(v)
    real, intent(in) :: x(:)
    real :: v
    integer :: i
    v = 0.0
    do i = 1, size(x)
      v = v + (x(i) - mean(x))**2
    end do
    v = v / (size(x) - 1)
    x(1) = 0.0
  end function variance

  subroutine summary(x, lo, hi)
    real, intent(in) :: x(:)
    real, intent(out) :: lo, hi
    lo = minval(x)
    hi = maxval(x
  end subroutine summary
end module stats
EOF
  cat >"$GF/src/main.f90" <<'EOF'
program main
  use stats
  implicit none
  real :: data(5) = [1.0, 2.0, 3.0, 4.0, 5.0]
  real :: lo, hi
  integer :: n
  print *, 'mean', mean(data)
  print *, 'variance', variance(data)
  call summary(data, lo)
  n = 'five'
  print *, undefined_total
end program main
EOF
  capture batch22 gfortran_compile_errors "$GF" "gfortran -Wall -o stats src/stats.f90 src/main.f90" "$(gfortran --version | head -1)"

  # gfortran: a run-time bounds check failure with a backtrace after output
  GR="$B/fortran-run"
  mkdir -p "$GR"
  cat >"$GR/heat.f90" <<'EOF'
program heat
  implicit none
  integer, parameter :: n = 10
  real :: u(n), unew(n)
  integer :: step, i
  u = 0.0
  u(1) = 100.0
  do step = 1, 5
    do i = 2, n
      unew(i) = u(i) + 0.25 * (u(i-1) - 2.0*u(i) + u(i+1))
    end do
    u(2:n) = unew(2:n)
    print '(a,i3,a,f8.3)', 'step', step, ' max', maxval(u)
  end do
end program heat
EOF
  capture batch22 gfortran_bounds_check_runtime "$GR" "gfortran -g -fcheck=all -fbacktrace -o heat heat.f90 && ./heat" "$(gfortran --version | head -1)"

  # Nim: nim c with a type mismatch (long candidate list) after the compiler's hints
  NM="$B/nim"
  mkdir -p "$NM/src"
  cat >"$NM/src/inventory.nim" <<'EOF'
import std/[tables, strutils, sequtils]

type
  Item = object
    sku: string
    qty: int
    price: float

proc total(items: seq[Item]): float =
  for it in items:
    result += it.qty.float * it.price

proc lowStock(items: seq[Item], limit: int): seq[string] =
  items.filterIt(it.qty < limit).mapIt(it.sku)

when isMainModule:
  let items = @[Item(sku: "A-1", qty: 3, price: 2.5), Item(sku: "B-2", qty: 10, price: 1.25)]
  echo "total: " & total(items)
  echo lowStock(items, "5").join(", ")
EOF
  capture batch22 nim_c_type_mismatch "$NM" "nim c --hints:on src/inventory.nim" "$(nim --version | head -1)"

  # Nim: a run-time IndexDefect with its traceback after output
  cat >"$NM/src/scores.nim" <<'EOF'
import std/strformat
proc average(xs: seq[int]): float =
  var s = 0
  for i in 0 .. xs.len:
    s += xs[i]
  s / xs.len
let scores = @[70, 85, 90]
for i, s in scores: echo &"player {i}: {s}"
echo &"average: {average(scores):.1f}"
EOF
  capture batch22 nim_run_index_defect "$NM" "nim c -r --hints:off src/scores.nim" "$(nim --version | head -1)"

  # R: testthat over a small package-like directory with failures, an error and a warning
  RR="$B/r"
  mkdir -p "$RR/R" "$RR/tests/testthat"
  cat >"$RR/R/metrics.R" <<'EOF'
rmse <- function(actual, predicted) sqrt(mean((actual - predicted)^2))
normalise <- function(x) (x - min(x)) / (max(x) - min(x))
summarise_groups <- function(df) {
  aggregate(value ~ group, data = df, FUN = mean)
}
parse_ratio <- function(s) {
  parts <- strsplit(s, ":")[[1]]
  as.numeric(parts[1]) / as.numeric(parts[2])
}
EOF
  cat >"$RR/tests/testthat/test-metrics.R" <<'EOF'
source(file.path("..", "..", "R", "metrics.R"))
test_that("rmse of identical vectors is zero", {
  expect_equal(rmse(1:5, 1:5), 0)
})
test_that("rmse of a shifted vector", {
  expect_equal(rmse(c(1, 2, 3), c(2, 3, 4)), 1.5)
})
test_that("normalise maps to [0, 1]", {
  x <- normalise(c(2, 4, 6, 8))
  expect_equal(range(x), c(0, 1))
  expect_equal(x, c(0, 0.25, 0.75, 1))
})
test_that("normalise of a constant vector", {
  expect_false(any(is.nan(normalise(c(3, 3, 3)))))
})
test_that("group means", {
  df <- data.frame(group = c("a", "a", "b"), value = c(1, 3, 10))
  out <- summarise_groups(df)
  expect_equal(nrow(out), 2)
  expect_equal(out$value, c(2, 10))
  expect_named(out, c("group", "mean"))
})
test_that("ratios", {
  expect_equal(parse_ratio("3:4"), 0.75)
  expect_equal(parse_ratio("16:9"), 16 / 9)
  expect_equal(parse_ratio("a:b"), NA_real_)
  expect_error(parse_ratio(NULL))
})
EOF
  capture batch22 r_testthat_failures "$RR" "Rscript -e 'testthat::test_dir(\"tests/testthat\", stop_on_failure = TRUE)'" "$(Rscript --version 2>&1), testthat $(Rscript -e 'cat(as.character(packageVersion("testthat")))')"

  # R: a script that prints a long data frame then fails, with warnings
  cat >"$RR/report.R" <<'EOF'
set.seed(1)
n <- 300
sales <- data.frame(id = seq_len(n), region = sample(c("north", "south", "east", "west"), n, TRUE),
                    amount = round(runif(n, 10, 500), 2), stringsAsFactors = FALSE)
sales$amount[c(57, 211)] <- NA
print(sales, row.names = FALSE)
totals <- tapply(sales$amount, sales$region, sum)
print(totals)
rates <- as.numeric(c("0.2", "0.19", "n/a", "0.21"))
names(rates) <- c("north", "south", "east", "west")
tax <- totals * rates
print(tax)
model <- lm(amount ~ region, data = sales)
summary(model)$r.squared
write.csv(tax, file = "/nonexistent/dir/tax.csv")
cat("done\n")
EOF
  capture batch22 rscript_long_print_then_error "$RR" "Rscript report.R" "$(Rscript --version 2>&1)"

  # Sphinx: the doctest builder with failing examples
  SP="$B/sphinx"
  mkdir -p "$SP/docs" "$SP/pkg"
  cat >"$SP/pkg/money.py" <<'EOF'
from decimal import Decimal, ROUND_HALF_UP


def to_cents(amount):
    return int((Decimal(str(amount)) * 100).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def split(total_cents, parts):
    base, rest = divmod(total_cents, parts)
    return [base + (1 if i < rest else 0) for i in range(parts)]
EOF
  cat >"$SP/docs/conf.py" <<'EOF'
import os, sys
sys.path.insert(0, os.path.abspath(".."))
project = "money"
extensions = ["sphinx.ext.doctest", "sphinx.ext.autodoc"]
EOF
  cat >"$SP/docs/index.rst" <<'EOF'
money
=====

.. toctree::

   usage
   api
EOF
  cat >"$SP/docs/usage.rst" <<'EOF'
Usage
=====

.. testsetup:: *

   from pkg.money import to_cents, split

Converting amounts:

.. doctest::

   >>> to_cents(12.5)
   1250
   >>> to_cents("0.005")
   0
   >>> to_cents(1.15)
   115

Splitting a bill:

.. doctest::

   >>> split(1000, 3)
   [334, 333, 333]
   >>> split(10, 4)
   [2, 2, 3, 3]
   >>> split(10, 0)
   []

.. testcode::

   print(sum(split(999, 7)))

.. testoutput::

   999
EOF
  cat >"$SP/docs/api.rst" <<'EOF'
API
===

.. automodule:: pkg.money
   :members:

.. autofunction:: pkg.money.round_up
EOF
  capture batch22 sphinx_doctest_failures "$SP" "sphinx-build -b doctest docs docs/_build/doctest" "$(sphinx-build --version)"

  # doxygen with warnings over a C library (undocumented members, bad params), long progress output
  DX="$B/doxygen"
  mkdir -p "$DX/include" "$DX/src"
  for m in buffer list map queue stack string vector heap; do
    cat >"$DX/include/$m.h" <<EOF
/**
 * @file $m.h
 * @brief The $m container.
 */
#ifndef ${m^^}_H
#define ${m^^}_H
#include <stddef.h>
/** @brief An opaque $m. */
typedef struct $m $m;
/**
 * @brief Creates a $m.
 * @param capacity initial capacity
 * @return a new $m or NULL
 */
$m *${m}_new(size_t capacity);
/**
 * @brief Frees a $m.
 * @param self the $m
 * @param deep whether to free the items
 */
void ${m}_free($m *self);
size_t ${m}_len(const $m *self);
/**
 * @brief Pushes an item.
 * @param self the $m
 * @param item the item
 * @retval 0 on success
 */
int ${m}_push($m *self, void *item, int flags);
#endif
EOF
  done
  mkdir -p "$DX/build/docs"
  cat >"$DX/Doxyfile" <<'EOF'
PROJECT_NAME = "libcontainers"
INPUT = include
OUTPUT_DIRECTORY = build/docs
GENERATE_LATEX = NO
EXTRACT_ALL = NO
WARN_IF_UNDOCUMENTED = YES
WARN_NO_PARAMDOC = YES
WARN_AS_ERROR = FAIL_ON_WARNINGS
QUIET = NO
HAVE_DOT = NO
EOF
  capture batch22 doxygen_fail_on_warnings "$DX" "doxygen Doxyfile" "doxygen $(doxygen --version)"

  # pandoc with --fail-if-warnings: missing images, a duplicate identifier, an unknown citation style
  PD="$B/pandoc"
  mkdir -p "$PD/docs"
  cat >"$PD/docs/guide.md" <<'EOF'
---
title: Operator guide
author: Ops team
---

# Install {#install}

![architecture](img/architecture.png)

Run the installer.

# Configure {#install}

See [the install section](#install) and [tuning](#tuning).

![ports](img/ports.svg)

| key | default |
|-----|---------|
| port | 8080 |

[^1]: A footnote nobody references.
EOF
  capture batch22 pandoc_fail_if_warnings "$PD" "pandoc --fail-if-warnings --standalone -o guide.html docs/guide.md" "$(pandoc --version | head -1)"

  # xmllint --schema over 40 order documents, a few invalid (long: each file's verdict)
  XS="$B/xmlschema"
  mkdir -p "$XS/orders"
  cat >"$XS/order.xsd" <<'EOF'
<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="order">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="customer" type="xs:string"/>
        <xs:element name="date" type="xs:date"/>
        <xs:element name="line" maxOccurs="unbounded">
          <xs:complexType>
            <xs:attribute name="sku" type="xs:string" use="required"/>
            <xs:attribute name="qty" type="xs:positiveInteger" use="required"/>
            <xs:attribute name="price" type="xs:decimal" use="required"/>
          </xs:complexType>
        </xs:element>
      </xs:sequence>
      <xs:attribute name="id" type="xs:ID" use="required"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
EOF
  for i in $(seq -w 1 300); do
    printf '<?xml version="1.0"?>\n<order id="o%s">\n  <customer>c%s</customer>\n  <date>2026-11-%02d</date>\n  <line sku="A-%s" qty="%d" price="9.99"/>\n</order>\n' "$i" "$i" "$(( 10#$i % 28 + 1 ))" "$i" "$(( 10#$i % 5 + 1 ))" >"$XS/orders/order_$i.xml"
  done
  sed -i 's/qty="[0-9]*"/qty="0"/' "$XS/orders/order_047.xml"
  sed -i 's/2026-11-[0-9]*/2026-13-40/' "$XS/orders/order_128.xml"
  sed -i 's/<customer>c212<\/customer>//' "$XS/orders/order_212.xml"
  sed -i 's/<\/order>/<note>rush<\/note><\/order>/' "$XS/orders/order_259.xml"
  sed -i 's/<\/customer>/<\/customr>/' "$XS/orders/order_290.xml"
  capture batch22 xmllint_schema_many_files "$XS" "xmllint --noout --schema order.xsd orders/*.xml" "$(xmllint --version 2>&1 | head -1)"

  # jq: a runtime type error after many outputs (long), and a compile error
  JQ="$B/jq"
  mkdir -p "$JQ"
  python3 - "$JQ/items.json" <<'EOF'
import json, sys
items = [{"sku": f"A-{i:03d}", "qty": i % 7 + 1, "price": round(1.5 + i * 0.25, 2)} for i in range(1, 321)]
items[311]["price"] = {"amount": 12.0, "currency": "EUR"}
json.dump({"items": items}, open(sys.argv[1], "w"), indent=1)
EOF
  capture batch22 jq_runtime_error_after_output "$JQ" "jq -r '.items[] | \"\\(.sku) \\(.qty * .price)\"' items.json" "$(jq --version)"
  capture batch22 jq_compile_error "$JQ" "jq '.items | map(select(.qty > 3) | {sku, total: .qty * .price) | sort_by(.total) | reverse | .[0:5]' items.json" "$(jq --version)"

  # yq (the jq wrapper) on a multi-document manifest with a YAML error
  YQ="$B/yq"
  mkdir -p "$YQ"
  cat >"$YQ/deploy.yaml" <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: api
          image: registry.example.com/api:1.4.2
          env:
            - name: DB_URL
              value: postgres://db:5432/app
            - name: FEATURE_FLAGS
              value: a,b,c
           - name: LOG_LEVEL
              value: debug
---
apiVersion: v1
kind: Service
metadata:
  name: api
EOF
  capture batch22 yq_yaml_parse_error "$YQ" "yq -r '.spec.template.spec.containers[].image' deploy.yaml" "$(yq --version 2>&1 | head -1)"

  # ansible-playbook -c local: a 300-item loop, then a template with an undefined variable fails
  AN="$B/ansible"
  mkdir -p "$AN/templates" "$AN/out"
  printf 'listen {{ app_port }}\nworkers {{ app_workers }}\nlog {{ log_dir }}/app.log\n' >"$AN/templates/app.conf.j2"
  cat >"$AN/site.yml" <<EOF
- name: configure app host
  hosts: localhost
  gather_facts: false
  vars:
    out: "$AN/out"
    app_port: 8080
    app_workers: 4
    sites: "{{ range(1, 301) | map('string') | map('regex_replace', '^', 'site') | list }}"
  tasks:
    - name: create site directories
      ansible.builtin.file:
        path: "{{ out }}/{{ item }}"
        state: directory
      loop: "{{ sites }}"
    - name: write the version file
      ansible.builtin.copy:
        content: "1.4.2\n"
        dest: "{{ out }}/VERSION"
    - name: render the app config
      ansible.builtin.template:
        src: templates/app.conf.j2
        dest: "{{ out }}/app.conf"
      notify: restart app
    - name: check the config
      ansible.builtin.command: "grep -q listen {{ out }}/app.conf"
      changed_when: false
  handlers:
    - name: restart app
      ansible.builtin.debug:
        msg: restarting
EOF
  capture batch22 ansible_local_loop_then_undefined_var "$AN" "ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=false ANSIBLE_INVENTORY_UNPARSED_WARNING=false ansible-playbook -c local -i localhost, site.yml" "$(ansible-playbook --version | head -1)"

  # ansible-lint over a small role layout with findings
  AL="$B/ansible-lint"
  mkdir -p "$AL/roles/web/tasks" "$AL/roles/web/handlers"
  cat >"$AL/playbook.yml" <<'EOF'
- hosts: web
  become: yes
  roles:
    - web
  tasks:
    - shell: curl -s http://localhost/health | grep ok
    - name: install tools
      apt: name=htop state=latest
EOF
  cat >"$AL/roles/web/tasks/main.yml" <<'EOF'
---
- name: install nginx
  apt:
    name: nginx
    state: present
- name: copy site
  copy:
    src: site.conf
    dest: /etc/nginx/sites-enabled/site.conf
    mode: 644
  notify: reload nginx
- command: nginx -t
- name: Ensure log dir
  file: path=/var/log/site state=directory
- name: restart via shell
  shell: systemctl restart nginx
  when: result.changed == True
EOF
  cat >"$AL/roles/web/handlers/main.yml" <<'EOF'
---
- name: reload nginx
  service: name=nginx state=reloaded
EOF
  (cd "$AL" && git init -q . 2>/dev/null)
  capture batch22 ansible_lint_findings "$AL" "ansible-lint --nocolor playbook.yml" "$(ansible-lint --version 2>/dev/null | head -1)"

  # bats over three files: a failing setup_file, two failures among 300 tests (long TAP)
  BT="$B/bats"
  mkdir -p "$BT/test" "$BT/bin"
  cat >"$BT/bin/semver" <<'EOF'
#!/bin/sh
# semver bump KIND VERSION
kind=$1; v=$2
IFS=. read -r ma mi pa <<EOT
$v
EOT
case "$kind" in
  major) echo "$((ma + 1)).0.0";;
  minor) echo "$ma.$((mi + 1)).0";;
  patch) echo "$ma.$mi.$((pa + 1))";;
  *) echo "semver: unknown bump '$kind'" >&2; exit 2;;
esac
EOF
  chmod +x "$BT/bin/semver"
  {
    echo 'setup() { PATH="$BATS_TEST_DIRNAME/../bin:$PATH"; }'
    for i in $(seq 0 99); do
      printf '@test "patch bump of 1.2.%d" {\n  run semver patch 1.2.%d\n  [ "$status" -eq 0 ]\n  [ "$output" = "1.2.%d" ]\n}\n' "$i" "$i" "$((i + 1))"
    done
    for i in $(seq 0 99); do
      printf '@test "minor bump of 1.%d.7" {\n  run semver minor 1.%d.7\n  [ "$output" = "1.%d.0" ]\n}\n' "$i" "$i" "$((i + 1))"
    done
    printf '@test "major bump keeps prerelease" {\n  run semver major 1.2.3-rc.1\n  [ "$output" = "2.0.0-rc.1" ]\n}\n'
    printf '@test "unknown bump fails with status 1" {\n  run semver huge 1.2.3\n  [ "$status" -eq 1 ]\n}\n'
  } >"$BT/test/bump.bats"
  {
    echo 'setup() { PATH="$BATS_TEST_DIRNAME/../bin:$PATH"; }'
    for i in $(seq 0 97); do
      printf '@test "major bump of %d.4.4" {\n  result="$(semver major %d.4.4)"\n  [ "$result" = "%d.0.0" ]\n}\n' "$i" "$i" "$((i + 1))"
    done
  } >"$BT/test/major.bats"
  cat >"$BT/test/release.bats" <<'EOF'
setup_file() {
  export RELEASE_DIR="$BATS_FILE_TMPDIR/release"
  git -C "$BATS_TEST_DIRNAME/.." describe --tags --abbrev=0 > "$BATS_FILE_TMPDIR/last_tag"
}
@test "release notes mention the last tag" {
  grep -q v "$BATS_FILE_TMPDIR/last_tag"
}
@test "release dir is created" {
  mkdir -p "$RELEASE_DIR"
  [ -d "$RELEASE_DIR" ]
}
EOF
  capture batch22 bats_long_setup_file_failure "$BT" "bats test/" "$(bats --version)"

  # cspell over a docs folder (unknown words, one a line)
  CS="$B/cspell"
  mkdir -p "$CS/docs/guides"
  NT="$WORK/npmtools/node_modules/.bin"
  [ -x "$NT/cspell" ] || (mkdir -p "$WORK/npmtools" && cd "$WORK/npmtools" && npm init -y >/dev/null && npm install cspell@8 htmlhint >/dev/null 2>&1)
  cat >"$CS/docs/README.md" <<'EOF'
# Billing service

The billing servce computes invoices nightly. It recieves usage events from the
metering pipline and writes them to Postgres.

## Configuraton

Set `BILLING_DB_URL` and `BILLING_QUEUE`. The scheduler runs evey night at 02:00.
EOF
  cat >"$CS/docs/guides/deploy.md" <<'EOF'
# Deploying

1. Build the contianer image.
2. Push it to the registy.
3. Run the migratons with `billingctl migrate`.
4. Roll the deployment; watch the dashbaord for errors.

Rollbacks are idempotant: re-running the previous release is safe.
EOF
  cat >"$CS/docs/guides/oncall.md" <<'EOF'
# On-call

If invoices are late, check the queue depth first. Occassionally the exporter
stalls; restart it with `billingctl exporter restart`. Escalate to the payments
team if the backlog exceeeds one hour.
EOF
  capture batch22 cspell_docs_unknown_words "$CS" "$NT/cspell --no-progress --no-color 'docs/**/*.md'" "cspell $($NT/cspell --version)"

  # htmlhint over a static site's pages
  HH="$B/htmlhint"
  mkdir -p "$HH/site/blog"
  cat >"$HH/site/index.html" <<'EOF'
<!DOCTYPE html>
<html>
<head><title>Shop</title></head>
<body>
<img src="logo.png">
<div id="main"><P>Welcome</P></div>
<div id="main">Sale</div>
<a href="about.html" target=_blank>About</a>
</body>
</html>
EOF
  cat >"$HH/site/about.html" <<'EOF'
<html>
<head><title>About</title></head>
<body>
<ul><li>One<li>Two</ul>
<span style="color:red">Old</span>
</body>
</html>
EOF
  cat >"$HH/site/blog/post.html" <<'EOF'
<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Post</title></head>
<body><p>Fine page.</p></body>
</html>
EOF
  capture batch22 htmlhint_site "$HH" "$NT/htmlhint --nocolor site" "htmlhint $($NT/htmlhint --version)"
fi

# --- batch23: Node/TypeScript web-app tooling beyond test runners: frameworks' builds and checks,
# bundlers, CSS tools, package managers, browser tests, dev servers, ORMs' migrations, repo tools.
# Debian packages: chromium (Playwright runs it through executablePath). npm packages are installed
# once into $WORK/npmtools (sqlite3 built from source against /usr/include/node) and $WORK/next23.
if sel batch23; then
  B="$WORK/batch23"
  rm -rf "$B" && mkdir -p "$B"
  export NEXT_TELEMETRY_DISABLED=1 NX_DAEMON=false NX_NO_CLOUD=true NO_COLOR=1 FORCE_COLOR=0 CI=1
  export GIT_AUTHOR_DATE="2026-11-28T10:00:00Z" GIT_COMMITTER_DATE="2026-11-28T10:00:00Z"
  NTD="$WORK/npmtools"
  if [ ! -x "$NTD/node_modules/.bin/tsup" ]; then
    mkdir -p "$NTD" && (cd "$NTD" && { [ -f package.json ] || npm init -y >/dev/null; } &&
      npm_config_nodedir=/usr npm install sqlite3@5 >/dev/null 2>&1 &&
      npm install typescript@5 vite@5 @vitejs/plugin-vue@5 vue@3 vue-tsc@2 svelte@4 \
        @sveltejs/vite-plugin-svelte@3 svelte-check@3 webpack@5 webpack-cli@5 babel-loader@9 \
        @babel/core @babel/preset-env css-loader@7 style-loader@4 sass@1 tailwindcss@3 postcss@8 \
        postcss-cli@11 autoprefixer@10 @playwright/test tsx nodemon express@4 morgan fastify@4 knex@3 \
        sequelize@6 sequelize-cli@6 typeorm@0.3 reflect-metadata typedoc madge depcheck lerna@8 \
        @changesets/cli tsup@8 rollup@4 @rollup/plugin-node-resolve pnpm@9 @yarnpkg/cli-dist@4 >/dev/null 2>&1)
  fi
  NT="$NTD/node_modules/.bin"
  NX23="$WORK/next23"
  if [ ! -x "$NX23/node_modules/.bin/next" ]; then
    mkdir -p "$NX23" && (cd "$NX23" && { [ -f package.json ] || npm init -y >/dev/null; } &&
      npm install next@14.2.35 react@18 react-dom@18 eslint@8 eslint-config-next@14 typescript@5 \
        @types/react@18 @types/node@20 >/dev/null 2>&1)
  fi
  ver() { node -p "JSON.parse(require('fs').readFileSync('$NTD/node_modules/$1/package.json', 'utf8')).version"; }
  # proj <dir> [modules]: a project directory whose node_modules is the shared install
  proj() { mkdir -p "$1" && ln -s "${2:-$NTD}/node_modules" "$1/node_modules"; }

  # --- Next.js 14 (app router) ---
  NA="$B/next-storefront"
  proj "$NA" "$NX23"
  mkdir -p "$NA/app/pricing" "$NA/app/cart" "$NA/app/blog/[slug]" "$NA/components" "$NA/data" "$NA/lib"
  cat >"$NA/package.json" <<'EOF'
{ "name": "storefront", "version": "0.4.0", "private": true,
  "scripts": { "build": "next build", "lint": "next lint" } }
EOF
  cat >"$NA/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ES2017", "lib": ["dom", "dom.iterable", "esnext"], "allowJs": true, "skipLibCheck": true,
    "strict": true, "noEmit": true, "esModuleInterop": true, "module": "esnext", "moduleResolution": "bundler",
    "resolveJsonModule": true, "isolatedModules": true, "jsx": "preserve", "incremental": true,
    "plugins": [{ "name": "next" }], "paths": { "@/*": ["./*"] }
  },
  "include": ["next-env.d.ts", "**/*.ts", "**/*.tsx", ".next/types/**/*.ts"],
  "exclude": ["node_modules"]
}
EOF
  printf '/** @type {import("next").NextConfig} */\nmodule.exports = { reactStrictMode: true };\n' >"$NA/next.config.js"
  printf '{ "extends": "next/core-web-vitals" }\n' >"$NA/.eslintrc.json"
  cat >"$NA/app/layout.tsx" <<'EOF'
import type { ReactNode } from "react";

export const metadata = { title: "Storefront", description: "Plants and pots, delivered." };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
EOF
  cat >"$NA/app/page.tsx" <<'EOF'
import Link from "next/link";

export default function Home() {
  return (
    <main>
      <h1>Storefront</h1>
      <Link href="/pricing">Pricing</Link>
    </main>
  );
}
EOF
  cat >"$NA/lib/plans.ts" <<'EOF'
import { readFileSync } from "node:fs";
import path from "node:path";

export type Plan = { id: string; name: string; monthly: number; features: string[] };

export function loadPlans(): Plan[] {
  const file = path.join(process.cwd(), "data", "plans.json");
  const plans = JSON.parse(readFileSync(file, "utf8")) as Plan[];
  return plans.map((p) => ({ ...p, features: p.features.map((f) => f.trim()) }));
}
EOF
  cat >"$NA/data/plans.json" <<'EOF'
[
  { "id": "starter", "name": "Starter", "monthly": 9, "features": ["1 store", "Email support"] },
  { "id": "growth", "name": "Growth", "monthly": 29, "features": ["3 stores", "Priority support"] },
  { "id": "scale", "name": "Scale", "monthly": 99 }
]
EOF
  cat >"$NA/app/pricing/page.tsx" <<'EOF'
import { loadPlans } from "@/lib/plans";

export default function PricingPage() {
  const plans = loadPlans();
  return (
    <main>
      <h1>Pricing</h1>
      {plans.map((plan) => (
        <section key={plan.id}>
          <h2>{plan.name}</h2>
          <p>${plan.monthly}/month</p>
          <ul>{plan.features.map((f) => <li key={f}>{f}</li>)}</ul>
        </section>
      ))}
    </main>
  );
}
EOF
  cat >"$NA/app/blog/[slug]/page.tsx" <<'EOF'
const posts: Record<string, string> = { "spring-repotting": "Repot in spring.", "watering-101": "Less is more." };

export function generateStaticParams() {
  return Object.keys(posts).map((slug) => ({ slug }));
}

export default function Post({ params }: { params: { slug: string } }) {
  return <article><h1>{params.slug}</h1><p>{posts[params.slug]}</p></article>;
}
EOF
  cat >"$NA/app/cart/page.tsx" <<'EOF'
export default function CartPage() {
  return <main><h1>Your cart</h1></main>;
}
EOF
  capture batch23 next_build_prerender_error "$NA" "npx next build" "next $("$NX23/node_modules/.bin/next" --version | sed 's/Next.js v//')"

  # the same app with the plans fixed and a client hook used in a server component
  cat >"$NA/data/plans.json" <<'EOF'
[
  { "id": "starter", "name": "Starter", "monthly": 9, "features": ["1 store", "Email support"] },
  { "id": "growth", "name": "Growth", "monthly": 29, "features": ["3 stores", "Priority support"] },
  { "id": "scale", "name": "Scale", "monthly": 99, "features": ["Unlimited stores", "SLA"] }
]
EOF
  cat >"$NA/components/QuantityPicker.tsx" <<'EOF'
import { useState } from "react";

export function QuantityPicker({ initial = 1, onChange }: { initial?: number; onChange?: (n: number) => void }) {
  const [qty, setQty] = useState(initial);
  const update = (n: number) => {
    setQty(n);
    onChange?.(n);
  };
  return (
    <div className="qty">
      <button onClick={() => update(Math.max(1, qty - 1))}>-</button>
      <span>{qty}</span>
      <button onClick={() => update(qty + 1)}>+</button>
    </div>
  );
}
EOF
  cat >"$NA/app/cart/page.tsx" <<'EOF'
import { QuantityPicker } from "@/components/QuantityPicker";

export default function CartPage() {
  return (
    <main>
      <h1>Your cart</h1>
      <QuantityPicker initial={2} />
    </main>
  );
}
EOF
  capture batch23 next_build_client_hook_in_server_component "$NA" "npx next build" "next $("$NX23/node_modules/.bin/next" --version | sed 's/Next.js v//')"

  # next lint over pages with the usual findings of next/core-web-vitals
  cat >"$NA/components/ProductCard.tsx" <<'EOF'
"use client";
import { useEffect, useState } from "react";

type Product = { id: string; name: string; image: string; price: number };

export function ProductCard({ productId, currency }: { productId: string; currency: string }) {
  const [product, setProduct] = useState<Product | null>(null);
  useEffect(() => {
    fetch(`/api/products/${productId}?currency=${currency}`)
      .then((r) => r.json())
      .then(setProduct);
  }, [productId]);
  if (!product) return <p>Loading…</p>;
  return (
    <div>
      <img src={product.image} alt={product.name} width={240} height={240} />
      <a href="/cart">Add {product.name} to cart</a>
    </div>
  );
}
EOF
  cat >"$NA/app/cart/page.tsx" <<'EOF'
import Head from "next/head";

export default function CartPage() {
  return (
    <main>
      <Head><script src="https://cdn.example.com/analytics.js"></script></Head>
      <h1>Your cart</h1>
      <a href="/pricing">See plans</a>
    </main>
  );
}
EOF
  cat >"$NA/app/page.tsx" <<'EOF'
import Link from "next/link";
import { ProductCard } from "@/components/ProductCard";

export default function Home() {
  const featured = ["monstera", "pothos", "fiddle-leaf"];
  return (
    <main>
      <h1>Storefront</h1>
      {featured.map((id) => <ProductCard productId={id} currency="EUR" />)}
      <Link href="/pricing">Pricing</Link>
    </main>
  );
}
EOF
  capture batch23 next_lint_findings "$NA" "npx next lint" "next $("$NX23/node_modules/.bin/next" --version | sed 's/Next.js v//'), eslint-config-next 14"

  # --- Vite + Vue 3 ---
  VU="$B/vue-admin"
  proj "$VU"
  mkdir -p "$VU/src/components" "$VU/src/views" "$VU/src/stores" "$VU/src/api" "$VU/src/utils"
  cat >"$VU/package.json" <<'EOF'
{ "name": "vue-admin", "version": "1.3.0", "private": true, "type": "module",
  "scripts": { "build": "vue-tsc --noEmit && vite build", "typecheck": "vue-tsc --noEmit" } }
EOF
  cat >"$VU/vite.config.ts" <<'EOF'
import { defineConfig } from "vite";
import vue from "@vitejs/plugin-vue";

export default defineConfig({
  plugins: [vue()],
  resolve: { alias: { "@": new URL("./src", import.meta.url).pathname } },
});
EOF
  cat >"$VU/tsconfig.json" <<'EOF'
{
  "compilerOptions": {
    "target": "ES2020", "module": "ESNext", "moduleResolution": "bundler", "strict": true,
    "jsx": "preserve", "noEmit": true, "skipLibCheck": true, "lib": ["ES2020", "DOM"],
    "baseUrl": ".", "paths": { "@/*": ["src/*"] }, "types": ["vite/client"]
  },
  "include": ["src/**/*.ts", "src/**/*.vue"]
}
EOF
  cat >"$VU/index.html" <<'EOF'
<!doctype html>
<html lang="en"><head><meta charset="UTF-8" /><title>Admin</title></head>
<body><div id="app"></div><script type="module" src="/src/main.ts"></script></body></html>
EOF
  cat >"$VU/src/main.ts" <<'EOF'
import { createApp } from "vue";
import App from "./App.vue";
import "./styles/theme.css";

createApp(App).mount("#app");
EOF
  cat >"$VU/src/api/orders.ts" <<'EOF'
export interface Order {
  id: number;
  customer: string;
  total: number;
  status: "pending" | "shipped" | "refunded";
  createdAt: string;
}

export async function fetchOrders(page: number): Promise<Order[]> {
  const res = await fetch(`/api/orders?page=${page}`);
  if (!res.ok) throw new Error(`orders: HTTP ${res.status}`);
  return res.json();
}
EOF
  cat >"$VU/src/utils/money.ts" <<'EOF'
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat("en-GB", { style: "currency", currency }).format(cents / 100);
}
EOF
  cat >"$VU/src/components/OrderTable.vue" <<'EOF'
<script setup lang="ts">
import type { Order } from "@/api/orders";
import { formatMoney } from "@/utils/money";

const props = defineProps<{ orders: Order[]; currency: string }>();
const emit = defineEmits<{ (e: "refund", id: number): void }>();
</script>

<template>
  <table class="orders">
    <tr v-for="order in props.orders" :key="order.id">
      <td>{{ order.id }}</td>
      <td>{{ order.customer }}</td>
      <td>{{ formatMoney(order.total, props.currency) }}</td>
      <td><button @click="emit('refund', order.id)">Refund</button></td>
    </tr>
  </table>
</template>
EOF
  cat >"$VU/src/App.vue" <<'EOF'
<script setup lang="ts">
import { onMounted, ref } from "vue";
import { useTitle } from "@vueuse/core";
import OrderTable from "./components/OrderTable.vue";
import { fetchOrders, type Order } from "./api/orders";

const orders = ref<Order[]>([]);
useTitle("Orders · Admin");
onMounted(async () => { orders.value = await fetchOrders(1); });
</script>

<template>
  <h1>Orders</h1>
  <OrderTable :orders="orders" currency="EUR" />
</template>
EOF
  mkdir -p "$VU/src/styles"
  printf ':root { --accent: #2f6fed; }\nbody { font-family: system-ui, sans-serif; }\n' >"$VU/src/styles/theme.css"
  capture batch23 vite_vue_unresolved_import "$VU" "npx vite build" "vite $(ver vite), vue $(ver vue)"

  # vue-tsc --noEmit over SFCs with type errors in script and template
  cat >"$VU/src/views/RefundDialog.vue" <<'EOF'
<script setup lang="ts">
import { computed, ref } from "vue";
import type { Order } from "@/api/orders";

const props = defineProps<{ order: Order; maxRefund: number }>();
const amount = ref("");
const reason = ref<string | null>(null);

const valid = computed(() => amount.value > 0 && amount.value <= props.maxRefund);
const summary = computed(() => `${props.order.customer}: ${reason.value.toUpperCase()}`);

function submit() {
  if (props.order.status === "cancelled") return;
  emit("submit", { id: props.order.id, amount: Number(amount.value) });
}
</script>

<template>
  <form @submit.prevent="submit">
    <p>{{ summary }}</p>
    <input v-model="amount" type="number" />
    <p v-if="!valid">Refund must be between 0 and {{ props.maxRefund.toFixed(2) }}</p>
    <p>Placed {{ props.order.createdAt.toLocaleDateString() }}</p>
    <button :disabled="!valid">Refund {{ props.order.totl }}</button>
  </form>
</template>
EOF
  cat >"$VU/src/App.vue" <<'EOF'
<script setup lang="ts">
import { onMounted, ref } from "vue";
import OrderTable from "./components/OrderTable.vue";
import RefundDialog from "./views/RefundDialog.vue";
import { fetchOrders, type Order } from "./api/orders";

const orders = ref<Order[]>([]);
const selected = ref<Order>();
onMounted(async () => { orders.value = await fetchOrders("1"); });
</script>

<template>
  <h1>Orders</h1>
  <OrderTable :orders="orders" :currency="1" @refund="(id) => (selected = orders.find((o) => o.id === id))" />
  <RefundDialog v-if="selected" :order="selected" />
</template>
EOF
  capture batch23 vue_tsc_noemit_errors "$VU" "npx vue-tsc --noEmit" "vue-tsc $(ver vue-tsc), typescript $(ver typescript)"

  # vite build of a Vue app with 150 lazy routes, passing: one line per emitted file
  VL="$B/vue-catalogue"
  proj "$VL"
  mkdir -p "$VL/src/pages"
  printf '{ "name": "vue-catalogue", "version": "2.0.0", "private": true, "type": "module" }\n' >"$VL/package.json"
  printf 'import { defineConfig } from "vite";\nimport vue from "@vitejs/plugin-vue";\nexport default defineConfig({ plugins: [vue()], build: { chunkSizeWarningLimit: 40 } });\n' >"$VL/vite.config.js"
  printf '<!doctype html>\n<html><head><title>Catalogue</title></head><body><div id="app"></div><script type="module" src="/src/main.js"></script></body></html>\n' >"$VL/index.html"
  {
    echo 'import { createApp, defineAsyncComponent, h } from "vue";'
    echo 'const pages = {'
    for c in garden kitchen lighting office outdoor storage textiles tools wellness bath; do
      for i in $(seq 1 15); do echo "  \"$c-$i\": defineAsyncComponent(() => import(\"./pages/${c}_$i.vue\")),"; done
    done
    echo '};'
    echo 'const big = Array.from({ length: 4000 }, (_, i) => ({ sku: `SKU-${i}`, name: `Catalogue item number ${i}`, price: (i * 37) % 1000 }));'
    echo 'createApp({ render: () => h("div", [h("p", big.length), ...Object.values(pages).map((p) => h(p))]) }).mount("#app");'
  } >"$VL/src/main.js"
  for c in garden kitchen lighting office outdoor storage textiles tools wellness bath; do
    for i in $(seq 1 15); do
      cat >"$VL/src/pages/${c}_$i.vue" <<EOF
<script setup>
import { ref } from "vue";
const items = ref(Array.from({ length: $((i * 3)) }, (_, n) => ({ id: n, title: "$c product " + n })));
</script>
<template>
  <section class="$c"><h2>${c^} — shelf $i</h2><ul><li v-for="it in items" :key="it.id">{{ it.title }}</li></ul></section>
</template>
<style scoped>
.$c h2 { color: #$(printf '%02x%02x%02x' $((i * 10)) $((i * 5)) $((i * 3))); }
</style>
EOF
    done
  done
  capture batch23 vite_build_many_chunks_pass "$VL" "npx vite build" "vite $(ver vite)"

  # --- Svelte 4 ---
  SV="$B/svelte-bookings"
  proj "$SV"
  mkdir -p "$SV/src/lib"
  printf '{ "name": "svelte-bookings", "version": "0.9.1", "private": true, "type": "module" }\n' >"$SV/package.json"
  printf 'import { defineConfig } from "vite";\nimport { svelte } from "@sveltejs/vite-plugin-svelte";\nexport default defineConfig({ plugins: [svelte()] });\n' >"$SV/vite.config.js"
  printf 'import { vitePreprocess } from "@sveltejs/vite-plugin-svelte";\nexport default { preprocess: vitePreprocess() };\n' >"$SV/svelte.config.js"
  cat >"$SV/tsconfig.json" <<'EOF'
{ "compilerOptions": { "target": "ES2020", "module": "ESNext", "moduleResolution": "bundler", "strict": true,
  "verbatimModuleSyntax": true, "isolatedModules": true, "skipLibCheck": true, "noEmit": true },
  "include": ["src/**/*.ts", "src/**/*.svelte"] }
EOF
  printf '<!doctype html>\n<html><head><title>Bookings</title></head><body><div id="app"></div><script type="module" src="/src/main.ts"></script></body></html>\n' >"$SV/index.html"
  printf 'import App from "./App.svelte";\nconst app = new App({ target: document.getElementById("app")! });\nexport default app;\n' >"$SV/src/main.ts"
  cat >"$SV/src/lib/slots.ts" <<'EOF'
export interface Slot {
  id: string;
  start: Date;
  minutes: number;
  room: string;
  booked: boolean;
}

export function freeSlots(slots: Slot[], room: string): Slot[] {
  return slots.filter((s) => s.room === room && !s.booked);
}
EOF
  cat >"$SV/src/lib/SlotPicker.svelte" <<'EOF'
<script lang="ts">
  import { createEventDispatcher } from "svelte";
  import { freeSlots, type Slot } from "./slots";

  export let slots: Slot[];
  export let room: string;
  const dispatch = createEventDispatcher<{ pick: Slot }>();

  $: available = freeSlots(slots, room);
  $: label = available.length === 1 ? "1 slot" : `${available.length} slots`;
</script>

<h2>{room}: {label}</h2>
{#each available as slot (slot.id)}
  <div class="slot" on:click={() => dispatch("pick", slot)}>
    {slot.start.toLocaleTimeString()} ({slot.minutes.toFixed()} min)
  </div>
{/each}
<img src="/rooms/{room}.jpg">
EOF
  cat >"$SV/src/App.svelte" <<'EOF'
<script lang="ts">
  import SlotPicker from "./lib/SlotPicker.svelte";
  import type { Slot } from "./lib/slots";

  let slots: Slot[] = [];
  let picked: Slot | undefined;
  let room = 12;

  async function load() {
    const res = await fetch("/api/slots");
    slots = (await res.json()).map((s) => ({ ...s, start: new Date(s.start) }));
  }
  load();
</script>

<SlotPicker {slots} {room} on:pick={(e) => (picked = e.detail.id)} />
{#if picked}
  <p>Booked {picked.room} at {picked.start.toISOString()}</p>
  <a href="#" on:click={() => picked = undefined}>Cancel</a>
{/if}
EOF
  capture batch23 svelte_check_errors "$SV" "npx svelte-check --tsconfig ./tsconfig.json --output human" "svelte-check $(ver svelte-check), svelte $(ver svelte)"

  # vite build of the Svelte app stopping on a compile error in a component
  cat >"$SV/src/lib/Summary.svelte" <<'EOF'
<script lang="ts">
  export let total: number;
  export let nights: number;
</script>

<p>{nights} nights</p>
{#if total > 0}
  <p>Total: {total.toFixed(2)} EUR</p>
{:else if}
  <p>Free cancellation</p>
{/if}
EOF
  printf 'import App from "./App.svelte";\nimport Summary from "./lib/Summary.svelte";\nconst app = new App({ target: document.getElementById("app")! });\nnew Summary({ target: document.body, props: { total: 240, nights: 3 } });\nexport default app;\n' >"$SV/src/main.ts"
  capture batch23 vite_svelte_compile_error "$SV" "npx vite build" "vite $(ver vite), svelte $(ver svelte)"

  # --- webpack 5 ---
  WP="$B/webpack-dashboard"
  proj "$WP"
  mkdir -p "$WP/src/components" "$WP/src/charts" "$WP/src/styles"
  printf '{ "name": "ops-dashboard", "version": "3.2.0", "private": true }\n' >"$WP/package.json"
  cat >"$WP/webpack.config.js" <<'EOF'
const path = require("path");

module.exports = {
  entry: "./src/index.js",
  output: { path: path.resolve(__dirname, "dist"), filename: "[name].[contenthash:8].js", clean: true },
  module: {
    rules: [
      { test: /\.m?js$/, exclude: /node_modules/, use: { loader: "babel-loader", options: { presets: ["@babel/preset-env"] } } },
      { test: /\.css$/, use: ["style-loader", "css-loader"] },
    ],
  },
};
EOF
  cat >"$WP/src/components/header.js" <<'EOF'
export function renderHeader(root, user) {
  const el = document.createElement("header");
  el.textContent = `Signed in as ${user.name}`;
  root.append(el);
}
EOF
  cat >"$WP/src/charts/uptime.js" <<'EOF'
import { format } from "date-fns";

export function uptimeLabel(since) {
  return `up since ${format(since, "yyyy-MM-dd HH:mm")}`;
}
EOF
  printf 'body { margin: 0; font: 14px/1.4 system-ui; }\n.tile { border: 1px solid #ddd; }\n' >"$WP/src/styles/main.css"
  cat >"$WP/src/index.js" <<'EOF'
import "./styles/main.css";
import { renderHeader } from "./components/Header";
import { uptimeLabel } from "./charts/uptime";

const root = document.getElementById("root");
renderHeader(root, { name: "ops" });
root.append(uptimeLabel(new Date()));
EOF
  capture batch23 webpack_module_not_found "$WP" "npx webpack --mode production" "webpack $(ver webpack), webpack-cli $(ver webpack-cli)"

  # babel-loader on a file with JSX while the config has no React preset
  sed -i 's#./components/Header#./components/header#; s#import { uptimeLabel } from "./charts/uptime";#import { uptimeLabel } from "./charts/uptime";\nimport { AlertList } from "./components/alerts";#' "$WP/src/index.js"
  printf 'export function uptimeLabel(since) {\n  return `up since ${since.toISOString()}`;\n}\n' >"$WP/src/charts/uptime.js"
  cat >"$WP/src/components/alerts.js" <<'EOF'
export function AlertList({ alerts }) {
  if (!alerts.length) return null;
  return (
    <ul className="alerts">
      {alerts.map((a) => <li key={a.id} className={a.severity}>{a.message}</li>)}
    </ul>
  );
}
EOF
  printf 'body { margin: 0; font: 14px/1.4 system-ui; }\n.tile { border: 1px solid #ddd;\n.tile h2 { margin: 0 }\n' >"$WP/src/styles/main.css"
  capture batch23 webpack_loader_errors "$WP" "npx webpack --mode development" "webpack $(ver webpack), babel-loader $(ver babel-loader)"

  # --stats verbose over 160 modules, one of which imports a file that is not there
  WV="$B/webpack-widgets"
  proj "$WV"
  mkdir -p "$WV/src/widgets"
  printf '{ "name": "widgets", "version": "1.0.0", "private": true }\n' >"$WV/package.json"
  printf 'module.exports = { entry: "./src/index.js", mode: "development", devtool: false };\n' >"$WV/webpack.config.js"
  {
    for i in $(seq 1 160); do echo "import widget$i from \"./widgets/widget$i.js\";"; done
    echo "export const widgets = [$(seq -s, -f 'widget%g' 1 160)];"
  } >"$WV/src/index.js"
  for i in $(seq 1 160); do
    printf 'export default { id: %d, name: "widget-%d", render: (el) => { el.dataset.widget = "%d"; } };\n' "$i" "$i" "$i" >"$WV/src/widgets/widget$i.js"
  done
  printf 'import { thresholds } from "../config/thresholds.js";\nexport default { id: 97, name: "widget-97", limits: thresholds.cpu };\n' >"$WV/src/widgets/widget97.js"
  capture batch23 webpack_stats_verbose_missing_module "$WV" "npx webpack --stats verbose" "webpack $(ver webpack)"

  # --progress of a production build over 162 modules (exit 0)
  mkdir -p "$WV/src/config"
  printf 'export const thresholds = { cpu: 0.85, memory: 0.9 };\n' >"$WV/src/config/thresholds.js"
  {
    echo 'export const catalogue = ['
    for i in $(seq 1 2500); do echo "  { id: $i, label: \"Metric series number $i for the operations dashboard\", unit: \"ms\" },"; done
    echo '];'
  } >"$WV/src/catalogue.js"
  printf 'import { widgets } from "./index.js";\nimport { catalogue } from "./catalogue.js";\nconsole.log(widgets.length, catalogue.length);\n' >"$WV/src/main.js"
  capture batch23 webpack_progress_production "$WV" "npx webpack --mode production --entry ./src/main.js --progress" "webpack $(ver webpack), webpack-cli $(ver webpack-cli)"

  # --- CSS tooling ---
  CS="$B/css-theme"
  proj "$CS"
  mkdir -p "$CS/src/scss/components" "$CS/src/scss/base" "$CS/src/css" "$CS/dist"
  printf '{ "name": "brand-theme", "version": "5.1.0", "private": true }\n' >"$CS/package.json"
  cat >"$CS/src/scss/base/_tokens.scss" <<'EOF'
$brand: #1f6feb;
$brand-dark: darken($brand, 12%);
$radius: 6px;
$spacing: (small: 4px, medium: 8px, large: 16px);
EOF
  cat >"$CS/src/scss/components/_button.scss" <<'EOF'
@use "../base/tokens" as t;

.button {
  padding: map-get(t.$spacing, medium) map-get(t.$spacing, large);
  border-radius: t.$radius;
  background: t.$brand;
  &:hover { background: t.$brand-dark; }
  &--danger { background: $danger; }
}
EOF
  cat >"$CS/src/scss/main.scss" <<'EOF'
@use "base/tokens";
@use "components/button";

body { margin: 0; }
EOF
  capture batch23 sass_undefined_variable "$CS" "npx sass --no-source-map src/scss/main.scss dist/main.css" "sass $(ver sass)"

  # several entry points: deprecation warnings (@import, slash division, global functions) then an error
  cat >"$CS/src/scss/components/_button.scss" <<'EOF'
@import "../base/tokens";

.button {
  padding: map-get($spacing, medium) map-get($spacing, large);
  border-radius: $radius / 2;
  background: $brand;
  &:hover { background: $brand-dark; }
}
EOF
  cat >"$CS/src/scss/admin.scss" <<'EOF'
@import "base/tokens";
@import "components/button";

.sidebar { width: percentage(1/4); background: lighten($brand, 40%); }
EOF
  cat >"$CS/src/scss/print.scss" <<'EOF'
@use "sass:math";
@use "base/tokens" as t;
@use "components/table";

@media print { .button { display: none; } body { font-size: math.div(10pt, 1); } }
EOF
  cat >"$CS/src/scss/main.scss" <<'EOF'
@import "base/tokens";
@import "components/button";

body { margin: 0; color: darken($brand, 30%); }
EOF
  cat >"$CS/src/scss/email.scss" <<'EOF'
@import "base/tokens";

.email-header { background: darken($brand, 5%); padding: map-get($spacing, large) / 2; }
EOF
  capture batch23 sass_deprecations_then_missing_module "$CS" "npx sass --no-source-map src/scss:dist/css" "sass $(ver sass)"

  # tailwindcss v3 CLI: content globs that match nothing, and @apply of a class that does not exist
  cat >"$CS/tailwind.config.js" <<'EOF'
/** @type {import('tailwindcss').Config} */
module.exports = {
  content: ["./templates/**/*.{html,njk}"],
  theme: { extend: { colors: { brand: { 500: "#1f6feb", 700: "#1a4fb0" } } } },
};
EOF
  cat >"$CS/src/css/tailwind.css" <<'EOF'
@tailwind base;
@tailwind components;
@tailwind utilities;

@layer components {
  .btn-primary { @apply px-4 py-2 rounded-md bg-brand-500 text-white; }
}

.btn-primary:hover { @apply bg-brand-600; }
EOF
  capture batch23 tailwind_apply_unknown_class "$CS" "npx tailwindcss -i src/css/tailwind.css -o dist/app.css" "tailwindcss $(ver tailwindcss)"

  # postcss-cli with autoprefixer over several files: warnings about outdated properties (exit 0)
  mkdir -p "$CS/src/postcss"
  printf 'module.exports = { plugins: [require("autoprefixer")({ overrideBrowserslist: ["> 0.5%%", "last 2 versions", "not dead"] })] };\n' >"$CS/postcss.config.js"
  cat >"$CS/src/postcss/layout.css" <<'EOF'
.grid { display: grid; grid-template-areas: "head head" "nav main"; grid-gap: 12px; }
.print { color-adjust: exact; }
.box { display: box; box-orient: vertical; }
.sticky { position: sticky; top: 0; }
EOF
  cat >"$CS/src/postcss/forms.css" <<'EOF'
input::placeholder { color: #888; }
.select { appearance: none; }
.field { display: flex; gap: 8px; }
.field label { font-weight: 600; }
EOF
  cat >"$CS/src/postcss/typography.css" <<'EOF'
h1 { font-size: 2rem; }
.lead { hyphens: auto; text-size-adjust: 100%; }
a.footnote { text-decoration-skip: ink; }
.columns { display: flexbox; }
EOF
  capture batch23 postcss_cli_autoprefixer_warnings "$CS" "npx postcss src/postcss/*.css --dir dist/postcss" "postcss-cli $(ver postcss-cli), autoprefixer $(ver autoprefixer)"

  # --- package managers (the registry is reachable; each project installs for itself) ---
  PM="$B/pm"
  mkdir -p "$PM/eresolve" "$PM/ci-nolock" "$PM/ci-sync" "$PM/pnpm" "$PM/yarn"
  cat >"$PM/eresolve/package.json" <<'EOF'
{
  "name": "support-widget",
  "version": "0.3.0",
  "private": true,
  "dependencies": { "react": "^17.0.2", "react-dom": "^18.3.1" },
  "devDependencies": { "@testing-library/react": "^14.3.1" }
}
EOF
  capture batch23 npm_install_eresolve_verbose "$PM/eresolve" "npm install --loglevel verbose" "npm $(npm --version)"
  cat >"$PM/ci-nolock/package.json" <<'EOF'
{ "name": "invoice-mailer", "version": "1.0.0", "private": true, "dependencies": { "nodemailer": "^6.9.0", "dotenv": "^16.4.0" } }
EOF
  capture batch23 npm_ci_without_lockfile "$PM/ci-nolock" "npm ci" "npm $(npm --version)"
  cat >"$PM/ci-sync/package.json" <<'EOF'
{ "name": "invoice-mailer", "version": "1.1.0", "private": true,
  "dependencies": { "nodemailer": "^6.9.0", "dotenv": "^16.4.0" } }
EOF
  (cd "$PM/ci-sync" && npm install --package-lock-only --ignore-scripts >/dev/null 2>&1)
  cat >"$PM/ci-sync/package.json" <<'EOF'
{ "name": "invoice-mailer", "version": "1.1.0", "private": true,
  "dependencies": { "nodemailer": "^6.9.0", "dotenv": "^17.2.0", "zod": "^3.23.0" } }
EOF
  capture batch23 npm_ci_lockfile_out_of_sync "$PM/ci-sync" "npm ci" "npm $(npm --version)"
  cat >"$PM/pnpm/package.json" <<'EOF'
{ "name": "status-page", "version": "2.4.0", "private": true,
  "dependencies": { "fastify": "^4.28.0", "pino": "^9.0.0" }, "devDependencies": { "typescript": "^5.5.0" } }
EOF
  (cd "$PM/pnpm" && "$NT/pnpm" install --lockfile-only >/dev/null 2>&1)
  cat >"$PM/pnpm/package.json" <<'EOF'
{ "name": "status-page", "version": "2.4.0", "private": true,
  "dependencies": { "fastify": "^4.28.0", "pino": "^9.0.0", "undici": "^6.19.0" }, "devDependencies": { "typescript": "^5.6.0" } }
EOF
  capture batch23 pnpm_frozen_lockfile_outdated "$PM/pnpm" "$NT/pnpm install --frozen-lockfile" "pnpm $("$NT/pnpm" --version)"
  YARN="node $NTD/node_modules/@yarnpkg/cli-dist/bin/yarn.js"
  cat >"$PM/yarn/package.json" <<'EOF'
{ "name": "docs-site", "version": "0.8.0", "private": true,
  "dependencies": { "marked": "^12.0.0", "dompurify": "^3.1.0" } }
EOF
  printf 'nodeLinker: node-modules\nenableTelemetry: false\n' >"$PM/yarn/.yarnrc.yml"
  (cd "$PM/yarn" && touch yarn.lock && $YARN install --mode=update-lockfile >/dev/null 2>&1)
  cat >"$PM/yarn/package.json" <<'EOF'
{ "name": "docs-site", "version": "0.8.0", "private": true,
  "dependencies": { "marked": "^13.0.0", "dompurify": "^3.1.0", "highlight.js": "^11.10.0" } }
EOF
  capture batch23 yarn_berry_immutable_lockfile "$PM/yarn" "$YARN install --immutable" "yarn $($YARN --version 2>/dev/null)"

  # --- Playwright with Debian's chromium ---
  PW="$B/playwright-checkout"
  proj "$PW"
  mkdir -p "$PW/tests" "$PW/site"
  printf '{ "name": "checkout-e2e", "version": "1.0.0", "private": true }\n' >"$PW/package.json"
  cat >"$PW/playwright.config.ts" <<'EOF'
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "./tests",
  timeout: 6000,
  expect: { timeout: 1500 },
  workers: 1,
  reporter: "list",
  use: {
    launchOptions: { executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] },
    trace: "off",
  },
});
EOF
  cat >"$PW/site/checkout.html" <<'EOF'
<!doctype html>
<html lang="en">
<head><title>Checkout · Plant Shop</title></head>
<body>
  <h1>Checkout</h1>
  <ul id="cart">
    <li data-sku="MON-01">Monstera deliciosa <span class="price">€24.00</span></li>
    <li data-sku="POT-12">Terracotta pot 12cm <span class="price">€6.50</span></li>
  </ul>
  <p id="subtotal">Subtotal: €30.50</p>
  <form id="address">
    <label>Email <input name="email" type="email" required></label>
    <label>Postcode <input name="postcode"></label>
    <button type="submit" disabled>Place order</button>
  </form>
  <div id="toast" hidden>Coupon applied</div>
  <script>
    document.querySelector("input[name=email]").addEventListener("input", (e) => {
      document.querySelector("button[type=submit]").disabled = !e.target.value.includes("@");
    });
  </script>
</body>
</html>
EOF
  cat >"$PW/tests/checkout.spec.ts" <<'EOF'
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";

const html = readFileSync(path.join(__dirname, "../site/checkout.html"), "utf8");

test.beforeEach(async ({ page }) => {
  await page.setContent(html);
});

test("shows the cart lines", async ({ page }) => {
  await expect(page.locator("#cart li")).toHaveCount(2);
});

test("subtotal includes delivery", async ({ page }) => {
  await expect(page.locator("#subtotal")).toHaveText("Subtotal: €34.45");
});

test("place order enables with a valid email", async ({ page }) => {
  await page.getByLabel("Email").fill("ana@example.com");
  await expect(page.getByRole("button", { name: "Place order" })).toBeEnabled();
});

test("coupon field applies a discount", async ({ page }) => {
  await page.getByPlaceholder("Coupon code").fill("SPRING10");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.locator("#toast")).toBeVisible();
});

test("postcode is required", async ({ page }) => {
  await expect(page.getByLabel("Postcode")).toHaveAttribute("required", "");
});
EOF
  capture batch23 playwright_failing_locators "$PW" "npx playwright test" "@playwright/test $(ver @playwright/test), $(/usr/bin/chromium --version 2>/dev/null)"

  # a test that waits for a confirmation that never comes: the test timeout, with one retry
  cat >"$PW/tests/confirmation.spec.ts" <<'EOF'
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";

const html = readFileSync(path.join(__dirname, "../site/checkout.html"), "utf8");

test.describe("order confirmation", () => {
  test("redirects to the receipt after paying", async ({ page }) => {
    await page.setContent(html);
    await page.getByLabel("Email").fill("ana@example.com");
    await page.getByRole("button", { name: "Place order" }).click();
    await page.getByRole("link", { name: "View receipt" }).click();
    await expect(page).toHaveTitle(/Receipt/);
  });
});
EOF
  capture batch23 playwright_test_timeout_retry "$PW" "npx playwright test tests/confirmation.spec.ts --retries=1 --reporter=line" "@playwright/test $(ver @playwright/test)"

  # --- dev servers ---
  DS="$B/api-server"
  proj "$DS"
  mkdir -p "$DS/src/routes" "$DS/scripts"
  printf '{ "name": "orders-api", "version": "0.12.0", "private": true, "scripts": { "dev": "tsx watch src/server.ts" } }\n' >"$DS/package.json"
  cat >"$DS/src/config.ts" <<'EOF'
export interface Config {
  port: number;
  database: { url: string; poolSize: number };
  redis?: { url: string };
}

export function loadConfig(env: NodeJS.ProcessEnv): Config {
  return {
    port: Number(env.PORT ?? 3000),
    database: { url: env.DATABASE_URL ?? "sqlite://dev.db", poolSize: Number(env.DB_POOL ?? 5) },
    redis: env.REDIS_URL ? { url: env.REDIS_URL } : undefined,
  };
}
EOF
  cat >"$DS/src/cache.ts" <<'EOF'
import type { Config } from "./config";

export function connectCache(config: Config) {
  const url = new URL(config.redis!.url);
  return { host: url.hostname, port: Number(url.port || 6379) };
}
EOF
  cat >"$DS/src/server.ts" <<'EOF'
import { createServer } from "node:http";
import { loadConfig } from "./config";
import { connectCache } from "./cache";

const config = loadConfig(process.env);
const cache = connectCache(config);
console.log(`cache at ${cache.host}:${cache.port}`);

createServer((_req, res) => res.end("ok")).listen(config.port, () => {
  console.log(`orders-api listening on :${config.port}`);
});
EOF
  capture batch23 tsx_watch_startup_crash "$DS" "timeout 10 npx tsx watch src/server.ts" "tsx $(ver tsx)"

  # nodemon restarting an express app that crashes on a bad route module
  cat >"$DS/src/app.js" <<'EOF'
const express = require("express");
const orders = require("./routes/orders");
const refunds = require("./routes/refunds");

const app = express();
app.use(express.json());
app.use("/orders", orders);
app.use("/refunds", refunds);
module.exports = app;
EOF
  cat >"$DS/src/routes/orders.js" <<'EOF'
const { Router } = require("express");
const router = Router();
router.get("/", (_req, res) => res.json([]));
module.exports = router;
EOF
  cat >"$DS/src/routes/refunds.js" <<'EOF'
const { Router } = require("express");
const { requireRole } = require("../middleware/auth");
const router = Router();
router.post("/", requireRole("support"), (req, res) => res.status(201).json({ id: 1, ...req.body }));
module.exports = router;
EOF
  mkdir -p "$DS/src/middleware"
  cat >"$DS/src/middleware/auth.js" <<'EOF'
function requireRoles(...roles) {
  return (req, res, next) => (roles.includes(req.headers["x-role"]) ? next() : res.status(403).end());
}
module.exports = { requireRoles };
EOF
  printf 'const app = require("./app");\nconst port = process.env.PORT || 3000;\napp.listen(port, () => console.log(`orders-api listening on :${port}`));\n' >"$DS/src/index.js"
  printf '{ "watch": ["src"], "ext": "js,json", "delay": 200 }\n' >"$DS/nodemon.json"
  capture batch23 nodemon_app_crashed "$DS" "timeout 8 npx nodemon src/index.js" "nodemon $(ver nodemon)"

  # an express app with morgan logging replayed traffic, until a handler throws outside the request
  cat >"$DS/src/middleware/auth.js" <<'EOF'
function requireRole(...roles) {
  return (req, res, next) => (roles.includes(req.headers["x-role"]) ? next() : res.status(403).json({ error: "forbidden" }));
}
module.exports = { requireRole };
EOF
  cat >"$DS/src/routes/orders.js" <<'EOF'
const { Router } = require("express");
const router = Router();
const orders = new Map();
for (let i = 1; i <= 40; i++) orders.set(i, { id: i, customer: `customer-${i}`, total: i * 1250, status: "pending" });

router.get("/", (req, res) => res.json([...orders.values()].slice(0, Number(req.query.limit ?? 20))));
router.get("/:id", (req, res) => {
  const order = orders.get(Number(req.params.id));
  if (!order) return res.status(404).json({ error: `order ${req.params.id} not found` });
  res.json(order);
});
router.post("/:id/ship", (req, res) => {
  const order = orders.get(Number(req.params.id));
  res.status(202).json({ queued: true });
  setImmediate(() => {
    order.status = "shipped";
    order.shippedAt = new Date(req.body.shipDate).toISOString();
  });
});
module.exports = router;
EOF
  cat >"$DS/src/app.js" <<'EOF'
const express = require("express");
const morgan = require("morgan");
const orders = require("./routes/orders");
const refunds = require("./routes/refunds");

const app = express();
app.use(morgan(":method :url :status :res[content-length] - :response-time ms"));
app.use(express.json());
app.use("/orders", orders);
app.use("/refunds", refunds);
app.get("/healthz", (_req, res) => res.send("ok"));
module.exports = app;
EOF
  cat >"$DS/scripts/replay-traffic.js" <<'EOF'
// Replays a recorded traffic sample against the local server, one request at a time.
const base = `http://127.0.0.1:${process.env.PORT}`;
const plan = [];
for (let i = 0; i < 300; i++) {
  if (i % 25 === 0) plan.push(["GET", "/healthz"]);
  else if (i % 17 === 0) plan.push(["GET", `/orders/${100 + i}`]);
  else if (i % 11 === 0) plan.push(["POST", "/refunds", { order: i % 40, amount: 500 }, {}]);
  else if (i % 7 === 0) plan.push(["GET", "/orders?limit=5"]);
  else plan.push(["GET", `/orders/${(i % 40) + 1}`]);
}
plan.push(["POST", "/orders/12/ship", { carrier: "dhl" }]);
(async () => {
  for (const [method, path, body, headers] of plan) {
    try {
      await fetch(base + path, {
        method,
        headers: { "content-type": "application/json", "x-role": headers ? "viewer" : "support" },
        body: body ? JSON.stringify(body) : undefined,
      }).then((r) => r.arrayBuffer());
    } catch {}
  }
})();
EOF
  capture batch23 express_log_then_uncaught_exception "$DS" "export PORT=39123; node src/index.js & server=\$!; sleep 1; node scripts/replay-traffic.js; wait \$server" "express $(ver express), morgan $(ver morgan), $(node --version)"

  # fastify refusing to start: a plugin registers a route twice, logged by pino as JSON
  FY="$B/fastify-status"
  proj "$FY"
  mkdir -p "$FY/src/plugins" "$FY/src/routes"
  printf '{ "name": "status-page", "version": "2.4.0", "private": true, "type": "module" }\n' >"$FY/package.json"
  cat >"$FY/src/plugins/db.js" <<'EOF'
export default async function db(app) {
  const checks = [{ name: "api", ok: true }, { name: "worker", ok: true }, { name: "billing", ok: false }];
  app.decorate("checks", checks);
  app.log.info({ count: checks.length }, "loaded service checks");
}
db[Symbol.for("skip-override")] = true;
EOF
  cat >"$FY/src/routes/status.js" <<'EOF'
export default async function status(app) {
  app.get("/status", async () => ({ services: app.checks }));
  app.get("/status/:name", async (req, reply) => {
    const c = app.checks.find((x) => x.name === req.params.name);
    return c ?? reply.code(404).send({ error: "unknown service" });
  });
}
EOF
  cat >"$FY/src/routes/legacy.js" <<'EOF'
export default async function legacy(app) {
  // kept for the old dashboard, which still polls /status
  app.get("/status", async () => ({ ok: app.checks.every((c) => c.ok) }));
}
EOF
  cat >"$FY/src/server.js" <<'EOF'
import Fastify from "fastify";
import db from "./plugins/db.js";
import status from "./routes/status.js";
import legacy from "./routes/legacy.js";

const app = Fastify({ logger: { level: "info", base: { service: "status-page" }, timestamp: false } });
await app.register(db);
await app.register(status);
await app.register(legacy);
await app.listen({ port: 39124, host: "127.0.0.1" });
EOF
  capture batch23 fastify_duplicate_route_startup "$FY" "node src/server.js" "fastify $(ver fastify), $(node --version)"

  # --- migrations against sqlite3 ---
  KX="$B/knex-shop"
  proj "$KX"
  mkdir -p "$KX/migrations"
  printf '{ "name": "shop-db", "version": "1.0.0", "private": true }\n' >"$KX/package.json"
  cat >"$KX/knexfile.js" <<'EOF'
module.exports = {
  development: {
    client: "sqlite3",
    connection: { filename: "./dev.sqlite3" },
    useNullAsDefault: true,
    migrations: { directory: "./migrations", tableName: "knex_migrations" },
  },
};
EOF
  cat >"$KX/migrations/20261101090000_create_customers.js" <<'EOF'
exports.up = (knex) =>
  knex.schema.createTable("customers", (t) => {
    t.increments("id");
    t.string("email").notNullable().unique();
    t.string("name");
    t.timestamps(true, true);
  });
exports.down = (knex) => knex.schema.dropTable("customers");
EOF
  cat >"$KX/migrations/20261105090000_create_orders.js" <<'EOF'
exports.up = async (knex) => {
  await knex.schema.createTable("orders", (t) => {
    t.increments("id");
    t.integer("customer_id").references("customers.id").notNullable();
    t.integer("total_cents").notNullable();
    t.string("status").defaultTo("pending");
  });
  await knex.schema.createTable("order_items", (t) => {
    t.increments("id");
    t.integer("order_id").references("orders.id");
    t.integer("quantity").notNullable();
  });
};
exports.down = async (knex) => {
  await knex.schema.dropTable("order_items");
  await knex.schema.dropTable("orders");
};
EOF
  cat >"$KX/migrations/20261120090000_add_sku_to_order_lines.js" <<'EOF'
exports.up = (knex) =>
  knex.schema.alterTable("order_lines", (t) => {
    t.string("sku", 32);
    t.index(["sku"], "order_lines_sku_idx");
  });
exports.down = (knex) =>
  knex.schema.alterTable("order_lines", (t) => {
    t.dropIndex(["sku"], "order_lines_sku_idx");
    t.dropColumn("sku");
  });
EOF
  capture batch23 knex_migrate_latest_failing "$KX" "npx knex migrate:latest" "knex $(ver knex), sqlite3 $(ver sqlite3)"

  SQ="$B/sequelize-blog"
  proj "$SQ"
  mkdir -p "$SQ/config" "$SQ/migrations"
  printf '{ "name": "blog-api", "version": "0.5.0", "private": true }\n' >"$SQ/package.json"
  printf '{\n  "development": { "dialect": "sqlite", "storage": "./blog.sqlite", "logging": false }\n}\n' >"$SQ/config/config.json"
  cat >"$SQ/migrations/20261102100000-create-users.js" <<'EOF'
"use strict";
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable("Users", {
      id: { type: Sequelize.INTEGER, primaryKey: true, autoIncrement: true },
      email: { type: Sequelize.STRING, allowNull: false, unique: true },
      createdAt: Sequelize.DATE,
      updatedAt: Sequelize.DATE,
    });
  },
  async down(queryInterface) {
    await queryInterface.dropTable("Users");
  },
};
EOF
  cat >"$SQ/migrations/20261103100000-create-posts.js" <<'EOF'
"use strict";
module.exports = {
  async up(queryInterface, Sequelize) {
    await queryInterface.createTable("Posts", {
      id: { type: Sequelize.INTEGER, primaryKey: true, autoIncrement: true },
      authorId: { type: Sequelize.INTEGER, references: { model: "Users", key: "id" } },
      title: { type: Sequelize.STRING, allowNull: false },
      body: Sequelize.TEXT,
      createdAt: Sequelize.DATE,
      updatedAt: Sequelize.DATE,
    });
  },
  async down(queryInterface) {
    await queryInterface.dropTable("Posts");
  },
};
EOF
  cat >"$SQ/migrations/20261118100000-index-posts-by-author-and-date.js" <<'EOF'
"use strict";
module.exports = {
  async up(queryInterface) {
    await queryInterface.addIndex("Posts", ["authorId", "publishedAt"], { name: "posts_author_published" });
  },
  async down(queryInterface) {
    await queryInterface.removeIndex("Posts", "posts_author_published");
  },
};
EOF
  capture batch23 sequelize_db_migrate_failing "$SQ" "npx sequelize-cli db:migrate" "sequelize-cli $(ver sequelize-cli), sequelize $(ver sequelize)"

  TO="$B/typeorm-billing"
  proj "$TO"
  mkdir -p "$TO/migrations"
  printf '{ "name": "billing-service", "version": "3.0.0", "private": true }\n' >"$TO/package.json"
  cat >"$TO/data-source.js" <<'EOF'
const { DataSource } = require("typeorm");

module.exports.AppDataSource = new DataSource({
  type: "sqlite",
  database: "billing.sqlite",
  migrations: [__dirname + "/migrations/*.js"],
  logging: ["query", "error", "schema"],
});
EOF
  cat >"$TO/migrations/1731900000000-CreateInvoices.js" <<'EOF'
module.exports = class CreateInvoices1731900000000 {
  name = "CreateInvoices1731900000000";
  async up(queryRunner) {
    await queryRunner.query(`CREATE TABLE "invoice" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "number" varchar NOT NULL, "customer_id" integer NOT NULL, "issued_at" datetime NOT NULL DEFAULT (datetime('now')))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_invoice_number" ON "invoice" ("number")`);
    await queryRunner.query(`INSERT INTO "invoice" ("number", "customer_id") VALUES ('INV-2026-0001', 1), ('INV-2026-0002', 2)`);
  }
  async down(queryRunner) {
    await queryRunner.query(`DROP TABLE "invoice"`);
  }
};
EOF
  cat >"$TO/migrations/1732600000000-AddInvoiceTotals.js" <<'EOF'
module.exports = class AddInvoiceTotals1732600000000 {
  name = "AddInvoiceTotals1732600000000";
  async up(queryRunner) {
    await queryRunner.query(`ALTER TABLE "invoice" ADD COLUMN "currency" varchar(3) NOT NULL DEFAULT 'EUR'`);
    await queryRunner.query(`ALTER TABLE "invoice" ADD COLUMN "total_cents" integer NOT NULL`);
  }
  async down(queryRunner) {
    await queryRunner.query(`ALTER TABLE "invoice" DROP COLUMN "total_cents"`);
  }
};
EOF
  capture batch23 typeorm_migration_run_failing "$TO" "npx typeorm migration:run -d data-source.js" "typeorm $(ver typeorm), sqlite3 $(ver sqlite3)"

  # --- docs and dependency hygiene ---
  TD="$B/money-lib"
  proj "$TD"
  mkdir -p "$TD/src"
  printf '{ "name": "@acme/money", "version": "2.3.0", "main": "dist/index.js", "types": "dist/index.d.ts" }\n' >"$TD/package.json"
  printf '{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true, "declaration": true, "outDir": "dist" }, "include": ["src"] }\n' >"$TD/tsconfig.json"
  printf '{ "entryPoints": ["src/index.ts"], "out": "docs", "validation": { "notDocumented": true, "invalidLink": true } }\n' >"$TD/typedoc.json"
  : >"$TD/src/index.ts"
  for m in currency rounding allocation exchange formatting parsing tax invoices ledger rates; do
    {
      echo "/** Helpers for $m. */"
      for i in $(seq 1 16); do
        if [ $((i % 2)) -eq 0 ]; then
          echo "/**"
          echo " * Applies the $m rule number $i."
          echo " * @params amount the amount in minor units"
          echo " * @see {@link ${m}Rule$((i + 100))}"
          echo " */"
        fi
        echo "export function ${m}Rule$i(amount: number, scale = $i): number {"
        echo "  return Math.round(amount * scale) / scale;"
        echo "}"
        echo "export interface ${m^}Options$i { precision: number; mode: \"half-up\" | \"bankers\" }"
      done
    } >"$TD/src/$m.ts"
    echo "export * from \"./$m.js\";" >>"$TD/src/index.ts"
  done
  capture batch23 typedoc_warnings_as_errors "$TD" "npx typedoc --treatWarningsAsErrors" "typedoc $(ver typedoc)"

  MD="$B/madge-app"
  proj "$MD"
  mkdir -p "$MD/src/orders" "$MD/src/customers" "$MD/src/billing" "$MD/src/shared"
  printf '{ "name": "crm", "version": "1.0.0", "private": true }\n' >"$MD/package.json"
  printf '{ "compilerOptions": { "module": "commonjs", "target": "es2020", "strict": true }, "include": ["src"] }\n' >"$MD/tsconfig.json"
  printf 'import { Customer } from "../customers/customer";\nimport { invoiceFor } from "../billing/invoice";\nexport class Order { constructor(public customer: Customer, public total: number) {}\n  invoice() { return invoiceFor(this); } }\n' >"$MD/src/orders/order.ts"
  printf 'import { Order } from "../orders/order";\nexport class Customer { orders: Order[] = []; }\n' >"$MD/src/customers/customer.ts"
  printf 'import type { Order } from "../orders/order";\nimport { taxFor } from "./tax";\nexport function invoiceFor(o: Order) { return { total: o.total + taxFor(o.total) }; }\n' >"$MD/src/billing/invoice.ts"
  printf 'import { currencyOf } from "../shared/money";\nexport function taxFor(total: number) { return currencyOf(total) === "EUR" ? total * 0.21 : 0; }\n' >"$MD/src/billing/tax.ts"
  printf 'import { taxFor } from "../billing/tax";\nexport function currencyOf(_n: number) { return "EUR"; }\nexport const zeroTax = taxFor(0);\n' >"$MD/src/shared/money.ts"
  printf 'import { Order } from "./orders/order";\nimport { Customer } from "./customers/customer";\nimport { logger } from "./shared/logger";\nexport const demo = new Order(new Customer(), 10);\nlogger.info(demo.invoice());\n' >"$MD/src/index.ts"
  printf 'import { demo } from "../index";\nexport const logger = { info: (x: unknown) => console.log(demo.total, x) };\n' >"$MD/src/shared/logger.ts"
  capture batch23 madge_circular "$MD" "npx madge --circular --extensions ts src/" "madge $(ver madge)"

  DC="$B/depcheck-api"
  mkdir -p "$DC/src/routes" "$DC/test"
  ln -s "$NTD/node_modules" "$DC/node_modules"
  cat >"$DC/package.json" <<'EOF'
{
  "name": "notifications-api",
  "version": "1.4.0",
  "private": true,
  "scripts": { "test": "jest", "start": "node src/index.js" },
  "dependencies": { "express": "^4.19.0", "moment": "^2.30.0", "lodash": "^4.17.21", "dotenv": "^16.4.0", "axios": "^1.7.0" },
  "devDependencies": { "jest": "^29.7.0", "nodemon": "^3.1.0", "eslint-plugin-import": "^2.29.0" }
}
EOF
  printf 'require("dotenv").config();\nconst express = require("express");\nconst { v4: uuid } = require("uuid");\nconst app = express();\napp.use(require("./routes/send"));\napp.get("/id", (_q, r) => r.send(uuid()));\napp.listen(3000);\n' >"$DC/src/index.js"
  printf 'const { Router } = require("express");\nconst { z } = require("zod");\nconst pino = require("pino");\nconst log = pino();\nconst r = Router();\nconst Body = z.object({ to: z.string().email(), text: z.string() });\nr.post("/send", (q, s) => { log.info(Body.parse(q.body)); s.sendStatus(202); });\nmodule.exports = r;\n' >"$DC/src/routes/send.js"
  printf 'const request = require("supertest");\ntest("sends", async () => { expect(request).toBeDefined(); });\n' >"$DC/test/send.test.js"
  capture batch23 depcheck_unused_and_missing "$DC" "npx depcheck" "depcheck $(ver depcheck)"

  # --- monorepo runners ---
  gitinit() { git init -q -b main "$1" && git -C "$1" config user.email dev@example.com && git -C "$1" config user.name Dev; }
  LR="$B/lerna-mono"
  mkdir -p "$LR"
  ln -s "$NTD/node_modules" "$LR/node_modules"
  printf '{ "name": "acme-platform", "private": true, "workspaces": ["packages/*"] }\n' >"$LR/package.json"
  printf '{ "$schema": "node_modules/lerna/schemas/lerna-schema.json", "version": "independent", "npmClient": "npm" }\n' >"$LR/lerna.json"
  printf 'node_modules\ndist\n' >"$LR/.gitignore"
  for p in auth billing catalog checkout ledger notifications search shipping; do
    d="$LR/packages/$p"
    mkdir -p "$d/src"
    printf '{ "name": "@acme/%s", "version": "1.0.0", "scripts": { "build": "tsc -p tsconfig.json --listEmittedFiles" } }\n' "$p" >"$d/package.json"
    printf '{ "compilerOptions": { "target": "ES2022", "module": "commonjs", "strict": true, "outDir": "dist", "rootDir": "src" }, "include": ["src"] }\n' >"$d/tsconfig.json"
    for i in $(seq 1 34); do
      printf 'export interface %sRecord%d { id: string; createdAt: Date; amount: number }\nexport function make%s%d(id: string): %sRecord%d {\n  return { id, createdAt: new Date(0), amount: %d };\n}\n' "${p^}" "$i" "${p^}" "$i" "${p^}" "$i" "$i" >"$d/src/${p}_$i.ts"
    done
  done
  printf 'import { makeLedger3 } from "./ledger_3";\nexport function balance(entries: { amount: number }[]): number {\n  return entries.reduce((sum, e) => sum + e.amount, "0");\n}\nexport const opening: number = makeLedger3("opening").amount.toFixed(2);\n' >"$LR/packages/ledger/src/balance.ts"
  gitinit "$LR" && git -C "$LR" add -A && git -C "$LR" commit -qm "platform packages"
  capture batch23 lerna_run_build_one_failing "$LR" "npx lerna run build --concurrency 1" "lerna $(ver lerna)"

  NXW="$B/nx-mono"
  mkdir -p "$NXW"
  ln -s "$NTD/node_modules" "$NXW/node_modules"
  printf '{ "name": "acme-web", "private": true, "workspaces": ["libs/*"] }\n' >"$NXW/package.json"
  printf '{ "targetDefaults": { "typecheck": { "cache": false } } }\n' >"$NXW/nx.json"
  for p in design-tokens ui-kit forms data-access feature-cart; do
    d="$NXW/libs/$p"
    mkdir -p "$d/src"
    printf '{ "name": "@acme/%s", "version": "0.1.0", "scripts": { "typecheck": "tsc --noEmit -p tsconfig.json" } }\n' "$p" >"$d/package.json"
    printf '{ "compilerOptions": { "target": "ES2022", "module": "ESNext", "moduleResolution": "bundler", "strict": true, "noUnusedLocals": true }, "include": ["src"] }\n' >"$d/tsconfig.json"
    printf 'export const name = "%s";\nexport function describe(): string { return `lib ${name}`; }\n' "$p" >"$d/src/index.ts"
  done
  cat >"$NXW/libs/forms/src/validators.ts" <<'EOF'
export type Validator<T> = (value: T) => string | null;

export const required: Validator<string> = (v) => (v.trim() ? null : "required");
export const minLength = (n: number): Validator<string> => (v) => (v.length >= n ? null : `at least ${n} characters`);

export function validate<T>(value: T, validators: Validator<T>[]): string[] {
  const unused = validators.length;
  return validators.map((fn) => fn(value)).filter((m) => m !== null);
}

export const postcode: Validator<string> = (v) => /^\d{4}\s?[A-Z]{2}$/.test(v) ? null : 42;
EOF
  gitinit "$NXW" && printf 'node_modules\n.nx\n' >"$NXW/.gitignore" && git -C "$NXW" add -A && git -C "$NXW" commit -qm "web libs"
  capture batch23 nx_run_many_typecheck_one_failing "$NXW" "npx nx run-many -t typecheck --parallel=1" "nx $(ver nx)"

  CH="$B/changesets-mono"
  mkdir -p "$CH/.changeset" "$CH/packages/ui/src" "$CH/packages/api-client/src" "$CH/packages/utils/src"
  printf '{ "name": "acme-design", "private": true, "workspaces": ["packages/*"] }\n' >"$CH/package.json"
  printf '{\n  "$schema": "https://unpkg.com/@changesets/config@3.0.0/schema.json",\n  "changelog": "@changesets/cli/changelog",\n  "commit": false,\n  "access": "restricted",\n  "baseBranch": "main",\n  "updateInternalDependencies": "patch",\n  "ignore": []\n}\n' >"$CH/.changeset/config.json"
  for p in ui api-client utils; do
    printf '{ "name": "@acme/%s", "version": "1.2.0" }\n' "$p" >"$CH/packages/$p/package.json"
    printf 'export const version = "1.2.0";\n' >"$CH/packages/$p/src/index.ts"
  done
  gitinit "$CH" && git -C "$CH" add -A && git -C "$CH" commit -qm "release 1.2.0"
  git -C "$CH" switch -q -c feat/button-variants
  printf 'export const version = "1.2.0";\nexport type ButtonVariant = "primary" | "ghost" | "danger";\n' >"$CH/packages/ui/src/index.ts"
  printf 'export const version = "1.2.0";\nexport const retry = 3;\n' >"$CH/packages/api-client/src/index.ts"
  git -C "$CH" commit -qam "ui: button variants; api-client: retries"
  capture batch23 changeset_status_missing "$CH" "$NT/changeset status" "@changesets/cli $(ver @changesets/cli)"

  # --- library bundlers ---
  TU="$B/tsup-sdk"
  proj "$TU"
  mkdir -p "$TU/src"
  printf '{ "name": "@acme/sdk", "version": "0.7.0", "type": "module", "main": "dist/index.cjs", "module": "dist/index.js" }\n' >"$TU/package.json"
  printf '{ "compilerOptions": { "target": "ES2022", "module": "ESNext", "moduleResolution": "bundler", "strict": true, "skipLibCheck": true }, "include": ["src"] }\n' >"$TU/tsconfig.json"
  cat >"$TU/src/client.ts" <<'EOF'
export interface ClientOptions { baseUrl: string; token?: string; timeoutMs?: number }

export class ApiClient {
  constructor(private readonly options: ClientOptions) {}

  async get<T>(path: string): Promise<T> {
    const res = await fetch(new URL(path, this.options.baseUrl), { headers: this.headers() });
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
    return res.json() as Promise<T>;
  }

  private headers(): Record<string, string> {
    return { authorization: this.options.token };
  }
}
EOF
  cat >"$TU/src/index.ts" <<'EOF'
export { ApiClient } from "./client";
export type { ClientOptions } from "./client";
export const DEFAULT_TIMEOUT: number = "30s";
EOF
  capture batch23 tsup_dts_build_error "$TU" "npx tsup src/index.ts --format esm,cjs --dts" "tsup $(ver tsup)"

  RL="$B/rollup-widget"
  proj "$RL"
  mkdir -p "$RL/src"
  printf '{ "name": "embed-widget", "version": "1.5.0", "type": "module" }\n' >"$RL/package.json"
  cat >"$RL/rollup.config.js" <<'EOF'
import { nodeResolve } from "@rollup/plugin-node-resolve";

export default {
  input: "src/index.js",
  output: [
    { file: "dist/widget.esm.js", format: "es" },
    { file: "dist/widget.umd.js", format: "umd", name: "EmbedWidget" },
  ],
  plugins: [nodeResolve()],
};
EOF
  printf 'import { render } from "./render.js";\nimport { debounce } from "lodash-es";\nimport dayjs from "dayjs";\nexport function mount(el) { const r = debounce(() => render(el, dayjs().format("HH:mm")), 50); r(); }\nexport { VERSION } from "./version.js";\n' >"$RL/src/index.js"
  printf 'import { theme } from "./theme.js";\nexport function render(el, time) { el.innerHTML = `<div style="color:${theme.fg}">${time}</div>`; }\n' >"$RL/src/render.js"
  printf 'import { render } from "./render.js";\nexport const theme = { fg: "#222", preview: render };\n' >"$RL/src/theme.js"
  printf 'var __assign = (this && this.__assign) || Object.assign;\nexport const VERSION = __assign({}, { major: 1, minor: 5 });\nexport const unused = eval("1 + 1");\n' >"$RL/src/version.js"
  capture batch23 rollup_warnings_then_missing_export "$RL" "npx rollup -c" "rollup $(ver rollup)"
fi

# --- batch24: JVM, Ruby and PHP tools from Debian (gradle 4.4, maven offline against
# /usr/share/maven-repo, JUnit 4/5, checkstyle, ant, groovy, scala, clojure, kotlin; rspec,
# rubocop, rake, bundler, minitest, sinatra; phpunit, phpcbf, composer, php -l) --------------
if sel batch24; then
  B="$WORK/batch24"
  rm -rf "$B" && mkdir -p "$B"
  JV="$(java -version 2>&1 | head -1)"
  JUNIT4_CP="/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar"

  # inventory_sources DIR: the main sources of a small inventory service (compile cleanly)
  inventory_sources() {
    local d="$1/src/main/java/com/acme/inventory"
    mkdir -p "$d"
    cat >"$d/Sku.java" <<'EOF'
package com.acme.inventory;

import java.util.Objects;

public final class Sku {
    private final String code;

    public Sku(String code) {
        if (code == null || !code.matches("[A-Z]{3}-\\d{4}")) {
            throw new IllegalArgumentException("invalid SKU code: " + code);
        }
        this.code = code;
    }

    public String code() {
        return code;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Sku && ((Sku) o).code.equals(code);
    }

    @Override
    public int hashCode() {
        return Objects.hash(code);
    }

    @Override
    public String toString() {
        return code;
    }
}
EOF
    cat >"$d/StockLevel.java" <<'EOF'
package com.acme.inventory;

public class StockLevel {
    private int onHand;
    private int reserved;

    public StockLevel(int onHand) {
        this.onHand = onHand;
    }

    public int available() {
        return onHand - reserved;
    }

    public void reserve(int qty) {
        if (qty > available()) {
            throw new IllegalStateException("cannot reserve " + qty + ", only " + available() + " available");
        }
        reserved += qty;
    }

    public void receive(int qty) {
        onHand += qty;
    }

    public void ship(int qty) {
        reserved -= qty;
        onHand -= qty;
    }

    public int onHand() {
        return onHand;
    }
}
EOF
    cat >"$d/Warehouse.java" <<'EOF'
package com.acme.inventory;

import java.util.HashMap;
import java.util.Map;

public class Warehouse {
    private final String name;
    private final Map<Sku, StockLevel> stock = new HashMap<>();

    public Warehouse(String name) {
        this.name = name;
    }

    public void receive(Sku sku, int qty) {
        stock.computeIfAbsent(sku, s -> new StockLevel(0)).receive(qty);
    }

    public void reserve(Sku sku, int qty) {
        StockLevel level = stock.get(sku);
        if (level == null) {
            throw new IllegalStateException("unknown SKU " + sku + " in " + name);
        }
        level.reserve(qty);
    }

    public int available(Sku sku) {
        StockLevel level = stock.get(sku);
        return level == null ? 0 : level.available();
    }

    public String name() {
        return name;
    }
}
EOF
    cat >"$d/ReorderPolicy.java" <<'EOF'
package com.acme.inventory;

public class ReorderPolicy {
    private final int threshold;
    private final int batchSize;

    public ReorderPolicy(int threshold, int batchSize) {
        this.threshold = threshold;
        this.batchSize = batchSize;
    }

    public boolean needsReorder(int available) {
        return available < threshold;
    }

    public int orderQuantity(int available) {
        if (batchSize <= 0) {
            throw new IllegalStateException("batch size must be positive, was " + batchSize);
        }
        int missing = threshold - available;
        return missing <= 0 ? 0 : ((missing + batchSize - 1) / batchSize) * batchSize;
    }
}
EOF
    cat >"$d/PriceCalculator.java" <<'EOF'
package com.acme.inventory;

import java.math.BigDecimal;
import java.math.RoundingMode;

public class PriceCalculator {
    private final BigDecimal vatRate;

    public PriceCalculator(BigDecimal vatRate) {
        this.vatRate = vatRate;
    }

    public BigDecimal gross(BigDecimal net) {
        return net.add(net.multiply(vatRate)).setScale(2, RoundingMode.HALF_UP);
    }

    public BigDecimal bulkDiscount(BigDecimal net, int qty) {
        if (qty >= 100) {
            return net.multiply(new BigDecimal("0.90")).setScale(2, RoundingMode.HALF_UP);
        }
        return net;
    }
}
EOF
  }

  # inventory_tests DIR: JUnit 4 tests of the inventory service, three of them failing
  inventory_tests() {
    local t="$1/src/test/java/com/acme/inventory"
    mkdir -p "$t"
    cat >"$t/StockLevelTest.java" <<'EOF'
package com.acme.inventory;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class StockLevelTest {
    @Test
    public void reserveReducesAvailable() {
        StockLevel level = new StockLevel(20);
        level.reserve(5);
        assertEquals(15, level.available());
    }

    @Test
    public void receiveAddsToOnHand() {
        StockLevel level = new StockLevel(10);
        level.receive(5);
        assertEquals(15, level.onHand());
    }

    @Test
    public void shipReleasesReservation() {
        StockLevel level = new StockLevel(10);
        level.reserve(4);
        level.ship(4);
        assertEquals("available after shipping", 10, level.available());
    }

    @Test(expected = IllegalStateException.class)
    public void overReserveFails() {
        new StockLevel(3).reserve(4);
    }
}
EOF
    cat >"$t/ReorderPolicyTest.java" <<'EOF'
package com.acme.inventory;

import static org.hamcrest.CoreMatchers.is;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThat;

import org.junit.Test;

public class ReorderPolicyTest {
    @Test
    public void belowThresholdNeedsReorder() {
        assertThat(new ReorderPolicy(10, 25).needsReorder(9), is(true));
    }

    @Test
    public void atThresholdNeedsReorder() {
        assertThat("stock at the threshold should trigger a reorder", new ReorderPolicy(10, 25).needsReorder(10), is(true));
    }

    @Test
    public void orderRoundsUpToBatch() {
        assertEquals(50, new ReorderPolicy(40, 25).orderQuantity(3));
    }

    @Test
    public void zeroBatchUsesDefault() {
        assertEquals(10, new ReorderPolicy(10, 0).orderQuantity(0));
    }
}
EOF
    cat >"$t/PriceCalculatorTest.java" <<'EOF'
package com.acme.inventory;

import static org.junit.Assert.assertEquals;

import java.math.BigDecimal;
import org.junit.Test;

public class PriceCalculatorTest {
    private final PriceCalculator calc = new PriceCalculator(new BigDecimal("0.20"));

    @Test
    public void grossAddsVat() {
        assertEquals(new BigDecimal("12.00"), calc.gross(new BigDecimal("10.00")));
    }

    @Test
    public void bulkDiscountAbove100() {
        assertEquals(new BigDecimal("90.00"), calc.bulkDiscount(new BigDecimal("100.00"), 100));
    }

    @Test
    public void noDiscountBelow100() {
        assertEquals(new BigDecimal("100.00"), calc.bulkDiscount(new BigDecimal("100.00"), 99));
    }
}
EOF
  }

  # gradle build of the inventory service with three compile errors in two files
  GC="$B/gradle-compile"
  mkdir -p "$GC"
  inventory_sources "$GC"
  printf "rootProject.name = 'inventory'\n" >"$GC/settings.gradle"
  cat >"$GC/build.gradle" <<'EOF'
apply plugin: 'java'

group = 'com.acme'
version = '0.4.0-SNAPSHOT'

repositories {
    flatDir { dirs '/usr/share/java' }
}

dependencies {
    testCompile name: 'junit4'
    testCompile name: 'hamcrest-core'
}
EOF
  cat >"$GC/src/main/java/com/acme/inventory/InventoryLoader.java" <<'EOF'
package com.acme.inventory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

public class InventoryLoader {
    private final Properties config;

    public InventoryLoader(Properties config) {
        this.config = config;
    }

    public Warehouse load(Path csv) {
        Warehouse warehouse = new Warehouse(config.getProperty("warehouse.name", "main"));
        List<String> lines = Files.readAllLines(csv);
        for (String line : lines.subList(1, lines.size())) {
            String[] cols = line.split(",");
            warehouse.receive(new Sku(cols[0]), Integer.parseInt(cols[1].trim()));
        }
        return warehouse;
    }

    public ReorderPolicy policy() {
        int threshold = config.getProperty("reorder.threshold", "10");
        return new ReorderPolicy(threshold, 25);
    }

    public void reserveAll(Warehouse warehouse, List<Sku> skus) {
        for (Sku sku : skus) {
            warehouse.reserveUnits(sku, 1);
        }
    }
}
EOF
  capture batch24 gradle_build_compile_errors "$GC" "gradle --offline --no-daemon build" "$(gradle --version 2>/dev/null | grep '^Gradle'), $JV"

  # gradle test of the inventory service: JUnit 4 failures (assertEquals, hamcrest, an exception)
  GT="$B/gradle-test"
  mkdir -p "$GT"
  inventory_sources "$GT"
  inventory_tests "$GT"
  cp "$GC/settings.gradle" "$GC/build.gradle" "$GT/"
  capture batch24 gradle_test_junit4_failures "$GT" "gradle --offline --no-daemon test" "$(gradle --version 2>/dev/null | grep '^Gradle'), junit 4.13.2"

  # gradle test --info --stacktrace: the same project with a parameterised test printing per case
  GI="$B/gradle-test-info"
  mkdir -p "$GI/src/test/java/com/acme/inventory"
  inventory_sources "$GI"
  inventory_tests "$GI"
  cp "$GC/settings.gradle" "$GI/"
  cat >"$GI/build.gradle" <<'EOF'
apply plugin: 'java'

group = 'com.acme'
version = '0.4.0-SNAPSHOT'

repositories {
    flatDir { dirs '/usr/share/java' }
}

dependencies {
    testCompile name: 'junit4'
    testCompile name: 'hamcrest-core'
}

test {
    testLogging {
        events 'failed', 'skipped'
        exceptionFormat 'full'
        info {
            events 'passed', 'failed', 'skipped'
            exceptionFormat 'full'
        }
    }
}
EOF
  cat >"$GI/src/test/java/com/acme/inventory/SkuFormatTest.java" <<'EOF'
package com.acme.inventory;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class SkuFormatTest {
    @Parameters(name = "{index}: {0}")
    public static Collection<Object[]> codes() {
        List<Object[]> cases = new ArrayList<>();
        String[] prefixes = {"BLT", "NUT", "WSH", "SCR", "HNG", "BRK"};
        for (String prefix : prefixes) {
            for (int i = 1; i <= 40; i++) {
                cases.add(new Object[] {String.format("%s-%04d", prefix, i * 37)});
            }
        }
        cases.add(new Object[] {"blt-0001"});
        return cases;
    }

    private final String code;

    public SkuFormatTest(String code) {
        this.code = code;
    }

    @Test
    public void roundTrips() {
        assertEquals(code, new Sku(code).code());
    }
}
EOF
  capture batch24 gradle_test_info_stacktrace "$GI" "gradle --offline --no-daemon test --info --stacktrace" "$(gradle --version 2>/dev/null | grep '^Gradle'), junit 4.13.2"

  # gradle --offline with a Maven Central dependency never downloaded
  GO="$B/gradle-offline"
  mkdir -p "$GO"
  inventory_sources "$GO"
  printf "rootProject.name = 'inventory-api'\n" >"$GO/settings.gradle"
  cat >"$GO/build.gradle" <<'EOF'
apply plugin: 'java'

repositories {
    mavenCentral()
}

dependencies {
    compile 'com.google.guava:guava:32.1.2-jre'
    compile 'com.fasterxml.jackson.core:jackson-databind:2.15.2'
    testCompile 'junit:junit:4.13.2'
}
EOF
  capture batch24 gradle_offline_unresolved "$GO" "gradle --offline --no-daemon compileJava" "$(gradle --version 2>/dev/null | grep '^Gradle')"

  # mvn -o test against Debian's maven repository: surefire failures and an error
  MVNV="$(mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g')"
  orders_pom() {
    cat >"$1/pom.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>orders</artifactId>
  <version>2.3.0-SNAPSHOT</version>
  <packaging>jar</packaging>
  <name>orders</name>
  <properties>
    <maven.compiler.source>17</maven.compiler.source>
    <maven.compiler.target>17</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>junit</groupId>
      <artifactId>junit</artifactId>
      <version>4.x</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
EOF
  }
  orders_sources() {
    local d="$1/src/main/java/com/acme/orders"
    mkdir -p "$d"
    cat >"$d/OrderLine.java" <<'EOF'
package com.acme.orders;

import java.math.BigDecimal;

public record OrderLine(String sku, int quantity, BigDecimal unitPrice) {
    public BigDecimal total() {
        return unitPrice.multiply(BigDecimal.valueOf(quantity));
    }
}
EOF
    cat >"$d/Order.java" <<'EOF'
package com.acme.orders;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

public class Order {
    private final String id;
    private final String customerTier;
    private final List<OrderLine> lines = new ArrayList<>();

    public Order(String id, String customerTier) {
        this.id = id;
        this.customerTier = customerTier;
    }

    public Order add(OrderLine line) {
        lines.add(line);
        return this;
    }

    public BigDecimal subtotal() {
        return lines.stream().map(OrderLine::total).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    public String id() {
        return id;
    }

    public String customerTier() {
        return customerTier;
    }

    public List<OrderLine> lines() {
        return lines;
    }
}
EOF
    cat >"$d/DiscountRules.java" <<'EOF'
package com.acme.orders;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

public class DiscountRules {
    private static final Map<String, BigDecimal> TIER_RATES = Map.of(
        "gold", new BigDecimal("0.10"),
        "silver", new BigDecimal("0.05"));

    public BigDecimal discount(Order order) {
        BigDecimal rate = TIER_RATES.get(order.customerTier());
        return order.subtotal().multiply(rate).setScale(2, RoundingMode.HALF_EVEN);
    }
}
EOF
    cat >"$d/OrderIds.java" <<'EOF'
package com.acme.orders;

public final class OrderIds {
    private OrderIds() {
    }

    public static String next(String region, long sequence) {
        return String.format("%s-%08d", region.toUpperCase(), sequence);
    }
}
EOF
  }
  orders_tests() {
    local t="$1/src/test/java/com/acme/orders"
    mkdir -p "$t"
    cat >"$t/OrderTotalsTest.java" <<'EOF'
package com.acme.orders;

import static org.junit.Assert.assertEquals;

import java.math.BigDecimal;
import org.junit.Test;

public class OrderTotalsTest {
    @Test
    public void subtotalSumsLines() {
        Order order = new Order("EU-00000001", "gold")
            .add(new OrderLine("BLT-0037", 3, new BigDecimal("2.50")))
            .add(new OrderLine("NUT-0074", 10, new BigDecimal("0.15")));
        assertEquals(new BigDecimal("9.0"), order.subtotal());
    }

    @Test
    public void emptyOrderIsZero() {
        assertEquals(BigDecimal.ZERO, new Order("EU-00000002", "gold").subtotal());
    }

    @Test
    public void lineTotalKeepsScale() {
        assertEquals("line total", "7.50", new OrderLine("BLT-0037", 3, new BigDecimal("2.5")).total().toPlainString());
    }
}
EOF
    cat >"$t/DiscountRulesTest.java" <<'EOF'
package com.acme.orders;

import static org.junit.Assert.assertEquals;

import java.math.BigDecimal;
import org.junit.Test;

public class DiscountRulesTest {
    private final DiscountRules rules = new DiscountRules();

    @Test
    public void goldGetsTenPercent() {
        Order order = new Order("EU-1", "gold").add(new OrderLine("BLT-0037", 4, new BigDecimal("25.00")));
        assertEquals(new BigDecimal("10.00"), rules.discount(order));
    }

    @Test
    public void unknownTierGetsNothing() {
        Order order = new Order("EU-2", "bronze").add(new OrderLine("BLT-0037", 4, new BigDecimal("25.00")));
        assertEquals(new BigDecimal("0.00"), rules.discount(order));
    }
}
EOF
    cat >"$t/OrderIdsTest.java" <<'EOF'
package com.acme.orders;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class OrderIdsTest {
    @Test
    public void padsSequence() {
        assertEquals("EU-00000042", OrderIds.next("eu", 42));
    }

    @Test
    public void upperCasesRegion() {
        assertEquals("US-00000001", OrderIds.next("us", 1));
    }
}
EOF
  }
  MT="$B/mvn-test"
  mkdir -p "$MT"
  orders_pom "$MT"; orders_sources "$MT"; orders_tests "$MT"
  capture batch24 mvn_offline_surefire_failures "$MT" "mvn -o -Dmaven.repo.local=/usr/share/maven-repo test" "$MVNV, surefire 2.22.3"

  # mvn -o compile with compile errors in two classes
  MC="$B/mvn-compile"
  mkdir -p "$MC"
  orders_pom "$MC"; orders_sources "$MC"
  cat >"$MC/src/main/java/com/acme/orders/InvoiceExporter.java" <<'EOF'
package com.acme.orders;

import java.io.Writer;
import java.math.BigDecimal;
import java.util.List;

public class InvoiceExporter {
    private final DiscountRules rules = new DiscountRules();

    public void export(List<Order> orders, Writer out) {
        for (Order order : orders) {
            BigDecimal net = order.subtotal().subtract(rules.discount(order));
            out.write(order.id() + ";" + net.toPlainString() + "\n");
        }
    }

    public String header() {
        return String.join(";", List.of("id", "net"), "currency");
    }

    public int count(List<Order> orders) {
        return orders.stream().filter(o -> o.lines().size() > 0).count();
    }
}
EOF
  capture batch24 mvn_offline_compile_errors "$MC" "mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo compile" "$MVNV, maven-compiler-plugin 3.10.1"

  # mvn -o verify of the orders library with every test passing (exit 0)
  MV="$B/mvn-verify"
  mkdir -p "$MV"
  orders_pom "$MV"; orders_sources "$MV"; orders_tests "$MV"
  rm "$MV/src/test/java/com/acme/orders/DiscountRulesTest.java"
  sed -i 's/BigDecimal("9.0")/BigDecimal("9.00")/; s/"7.50"/"7.5"/' "$MV/src/test/java/com/acme/orders/OrderTotalsTest.java"
  capture batch24 mvn_offline_verify_pass "$MV" "mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo verify" "$MVNV, maven-jar-plugin 3.3.0"

  # JUnitCore run of a billing module's JUnit 4 tests: failures with JUnit's full stacks
  JC="$B/junitcore"
  mkdir -p "$JC/src/com/acme/billing" "$JC/test/com/acme/billing"
  cat >"$JC/src/com/acme/billing/TaxTable.java" <<'EOF'
package com.acme.billing;

import java.util.Map;

public class TaxTable {
    private final Map<String, Integer> basisPoints = Map.of("DE", 1900, "FR", 2000, "AT", 2000, "IT", 2200);

    public int rateFor(String country) {
        Integer bp = basisPoints.get(country);
        if (bp == null) {
            throw new IllegalArgumentException("no VAT rate for country " + country);
        }
        return bp;
    }

    public long taxCents(String country, long netCents) {
        return netCents * rateFor(country) / 10000;
    }
}
EOF
  cat >"$JC/src/com/acme/billing/Invoice.java" <<'EOF'
package com.acme.billing;

import java.util.ArrayList;
import java.util.List;

public class Invoice {
    private final String country;
    private final List<Long> lineCents = new ArrayList<>();
    private final TaxTable taxes = new TaxTable();

    public Invoice(String country) {
        this.country = country;
    }

    public Invoice line(long cents) {
        lineCents.add(cents);
        return this;
    }

    public long netCents() {
        return lineCents.stream().mapToLong(Long::longValue).sum();
    }

    public long grossCents() {
        return netCents() + taxes.taxCents(country, netCents());
    }

    public String summary() {
        return String.format("%s net=%d.%02d gross=%d.%02d", country, netCents() / 100, netCents() % 100,
            grossCents() / 100, grossCents() % 100);
    }
}
EOF
  cat >"$JC/test/com/acme/billing/TaxTableTest.java" <<'EOF'
package com.acme.billing;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TaxTableTest {
    private final TaxTable table = new TaxTable();

    @Test
    public void germanRate() {
        assertEquals(1900, table.rateFor("DE"));
    }

    @Test
    public void roundsHalfUp() {
        assertEquals(4, table.taxCents("DE", 21));
    }

    @Test
    public void spainIsKnown() {
        assertEquals(2100, table.rateFor("ES"));
    }
}
EOF
  cat >"$JC/test/com/acme/billing/InvoiceTest.java" <<'EOF'
package com.acme.billing;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class InvoiceTest {
    @Test
    public void grossAddsTax() {
        assertEquals(11900, new Invoice("DE").line(5000).line(5000).grossCents());
    }

    @Test
    public void summaryFormatsAmounts() {
        assertEquals("FR net=12.05 gross=14.46", new Invoice("FR").line(1205).summary());
    }

    @Test(timeout = 1000)
    public void emptyInvoiceIsZero() {
        assertEquals(0, new Invoice("IT").grossCents());
    }
}
EOF
  mkdir -p "$JC/out"
  javac -d "$JC/out" -cp "$JUNIT4_CP" $(find "$JC/src" "$JC/test" -name '*.java' | sort)
  capture batch24 junitcore_failures "$JC" "java -cp out:$JUNIT4_CP org.junit.runner.JUnitCore com.acme.billing.TaxTableTest com.acme.billing.InvoiceTest" "$JV, junit 4.13.2"

  # JUnit 5 console launcher, --details=summary: assertAll with several failures, parameterised cases
  J5="$B/junit5"
  mkdir -p "$J5/src/com/acme/geo" "$J5/out"
  cat >"$J5/src/com/acme/geo/Distance.java" <<'EOF'
package com.acme.geo;

public final class Distance {
    private Distance() {
    }

    public static double haversineKm(double lat1, double lon1, double lat2, double lon2) {
        double r = 6371.0;
        double dLat = Math.toRadians(lat2 - lat1);
        double dLon = Math.toRadians(lon2 - lon1);
        double a = Math.pow(Math.sin(dLat / 2), 2)
            + Math.cos(Math.toRadians(lat1)) * Math.cos(Math.toRadians(lat2)) * Math.pow(Math.sin(dLon / 2), 2);
        return 2 * r * Math.asin(Math.sqrt(a));
    }

    public static String bearingName(double degrees) {
        String[] names = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
        return names[(int) Math.round(degrees / 45.0)];
    }
}
EOF
  cat >"$J5/src/com/acme/geo/DistanceTest.java" <<'EOF'
package com.acme.geo;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DistanceTest {
    @Test
    @DisplayName("known city pairs")
    void knownPairs() {
        assertAll("distances",
            () -> assertEquals(878.0, Distance.haversineKm(52.52, 13.405, 48.137, 11.575), 1.0, "Berlin-Munich"),
            () -> assertEquals(343.5, Distance.haversineKm(51.507, -0.128, 48.857, 2.352), 1.0, "London-Paris"),
            () -> assertEquals(1234.0, Distance.haversineKm(40.416, -3.704, 41.902, 12.496), 1.0, "Madrid-Rome"));
    }

    @ParameterizedTest(name = "{0} degrees is {1}")
    @CsvSource({"0, N", "44, NE", "90, E", "181, S", "270, W", "359, N"})
    void bearingNames(double degrees, String expected) {
        assertEquals(expected, Distance.bearingName(degrees));
    }

    @Test
    void samePointIsZero() {
        assertEquals(0.0, Distance.haversineKm(10, 10, 10, 10));
    }
}
EOF
  javac -d "$J5/out" -cp /usr/share/java/junit-platform-console-standalone.jar $(find "$J5/src" -name '*.java' | sort)
  capture batch24 junit5_console_assertall_summary "$J5" "java -jar /usr/share/java/junit-platform-console-standalone.jar -cp out --select-package com.acme.geo --details=summary" "$JV, junit-platform-console-standalone 1.9.1"

  # javac -Xlint:all -Werror over a legacy package: deprecation, removal, rawtypes, unchecked, serial
  JL="$B/javac-lint"
  mkdir -p "$JL/src/com/acme/legacy" "$JL/out"
  for name in CustomerImport OrderArchive PriceHistory SupplierFeed StockSnapshot ReturnsLedger \
    ShipmentTracker InvoiceBatch PaymentReconciler CatalogExport TaxReport WarehouseAudit \
    CouponRegistry LoyaltyPoints FreightQuote; do
    cat >"$JL/src/com/acme/legacy/$name.java" <<EOF
package com.acme.legacy;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class $name implements Serializable {
    private List entries = new ArrayList();
    private Map index = new HashMap();

    public void add(String key, Object value) {
        entries.add(value);
        index.put(key, value);
    }

    public Integer boxedCount() {
        return new Integer(entries.size());
    }

    public int yearOf(Date when) {
        return when.getYear() + 1900;
    }

    public String describe(int kind) {
        String label = "";
        switch (kind) {
            case 1:
                label = "active";
            case 2:
                label = label + "archived";
                break;
            default:
                label = "unknown";
        }
        return (String) label;
    }

    @Override
    protected void finalize() throws Throwable {
        entries.clear();
    }
}
EOF
  done
  capture batch24 javac_xlint_all_werror_legacy "$JL" "javac -Xlint:all -Werror -Xmaxwarns 1000 -d out \$(find src -name '*.java' | sort)" "$(javac -version 2>&1)"

  # a java.util.logging service log: a sync run of 280 orders ending in an uncaught exception
  # with nested causes ("Caused by" and "... N more")
  JU="$B/jul-service"
  mkdir -p "$JU/src/com/acme/sync" "$JU/out"
  cat >"$JU/src/com/acme/sync/OrderSyncService.java" <<'EOF'
package com.acme.sync;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.logging.Level;
import java.util.logging.Logger;

public class OrderSyncService {
    private static final Logger LOG = Logger.getLogger(OrderSyncService.class.getName());
    private static final Logger DB = Logger.getLogger("com.acme.sync.db.OrderRepository");
    private static final Logger HTTP = Logger.getLogger("com.acme.sync.http.ShopClient");

    static class SyncAbortedException extends RuntimeException {
        SyncAbortedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    public static void main(String[] args) {
        LOG.info("order-sync 3.2.1 starting, batch size 40, source shop-eu");
        DB.info("connection pool started: jdbc:postgresql://db.internal:5432/orders (max 10)");
        new OrderSyncService().run(280);
    }

    void run(int total) {
        for (int page = 0; page * 40 < total; page++) {
            HTTP.info(String.format("GET /api/v2/orders?page=%d&size=40 -> 200 (%d ms)", page, 80 + page * 7));
            for (int i = page * 40 + 1; i <= Math.min(total, (page + 1) * 40); i++) {
                syncOrder(i);
            }
            LOG.info(String.format("page %d done, %d of %d orders synced", page, Math.min(total, (page + 1) * 40), total));
        }
    }

    void syncOrder(int n) {
        String id = String.format("EU-%08d", 4100 + n);
        if (n % 97 == 0) {
            HTTP.warning("GET /api/v2/orders/" + id + "/lines -> 503, retrying in 500 ms (attempt 1 of 3)");
        }
        if (n == 271) {
            try {
                persist(id);
            } catch (UncheckedIOException e) {
                throw new SyncAbortedException("sync aborted at order " + id + " after 270 orders", e);
            }
        }
        DB.fine("upsert " + id);
        LOG.info("synced order " + id + " (" + (n % 5 + 1) + " lines)");
    }

    void persist(String id) {
        try {
            writeLines(id);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot persist order " + id, e);
        }
    }

    void writeLines(String id) throws IOException {
        try {
            insertLine(id, 3);
        } catch (SQLException e) {
            DB.log(Level.SEVERE, "insert into order_lines failed for " + id + ": " + e.getMessage());
            throw new IOException("order_lines write failed", e);
        }
    }

    void insertLine(String id, int line) throws SQLException {
        throw new SQLException("ERROR: duplicate key value violates unique constraint \"order_lines_pkey\"\n"
            + "  Detail: Key (order_id, line_no)=(" + id + ", " + line + ") already exists.", "23505");
    }
}
EOF
  javac -d "$JU/out" "$JU/src/com/acme/sync/OrderSyncService.java"
  capture batch24 java_jul_log_nested_causes "$JU" "java -Djava.util.logging.SimpleFormatter.format='%1\$tF %1\$tT %4\$s %3\$s - %5\$s%6\$s%n' -cp out com.acme.sync.OrderSyncService" "$JV"

  # checkstyle (sun_checks) over a package of twenty classes: a long list of findings
  CK="$B/checkstyle"
  mkdir -p "$CK"
  inventory_sources "$CK"
  cp "$GC/src/main/java/com/acme/inventory/InventoryLoader.java" "$CK/src/main/java/com/acme/inventory/"
  cp "$JC/src/com/acme/billing/"*.java "$CK/src/main/java/com/acme/inventory/"
  cp "$MT/src/main/java/com/acme/orders/"*.java "$J5/src/com/acme/geo/Distance.java" "$CK/src/main/java/com/acme/inventory/"
  cp "$JU/src/com/acme/sync/OrderSyncService.java" "$JL/src/com/acme/legacy/"{CustomerImport,OrderArchive,PriceHistory,SupplierFeed}.java "$CK/src/main/java/com/acme/inventory/"
  sed -i 's/^package com.acme.[a-z]*;/package com.acme.inventory;/' "$CK/src/main/java/com/acme/inventory/"*.java
  cat >"$CK/src/main/java/com/acme/inventory/StockReport.java" <<'EOF'
package com.acme.inventory;

import java.util.*;
import java.io.PrintStream;

public class StockReport
{
    public static int PAGE_WIDTH = 80;
    private List<String> rows = new ArrayList<String>();
    private String Title;

    public StockReport(String title) { this.Title = title; }

    public void addRow(String sku, int onHand, int reserved, int reorderAt){
        String flag = onHand-reserved < reorderAt ? "REORDER" : "";
        rows.add(String.format("%-10s %6d %6d %6d %s", sku, onHand, reserved, onHand-reserved, flag));
    }

    public void print(PrintStream out)
    {
        out.println(Title);
        out.println("=".repeat(PAGE_WIDTH));
        for(String row : rows) out.println(row);
        if (rows.size() > 50) {
            out.println("... and " + (rows.size() - 50) + " more rows, truncated at 50");
        }
    }

    public int countReorders() {
        int n = 0;
        for (int i = 0; i < rows.size(); i++)
        {
            if (rows.get(i).endsWith("REORDER")) n++;
        }
        return n;
    }
}
EOF
  capture batch24 checkstyle_sun_checks_package "$CK" "checkstyle -c /sun_checks.xml src/main/java" "$(checkstyle --version 2>&1 | head -1)"

  # java -jar of a jar built without a Main-Class entry
  JJ="$B/java-jar"
  mkdir -p "$JJ/build/libs"
  jar --create --file "$JJ/build/libs/order-sync-3.2.1.jar" -C "$JU/out" .
  capture batch24 java_jar_no_main_manifest "$JJ" "java -jar build/libs/order-sync-3.2.1.jar --dry-run" "$JV"

  # jarsigner -verify -verbose over an unsigned jar of 300 entries (exit 0)
  JS="$B/jarsigner"
  mkdir -p "$JS/classes/com/acme/catalog/model" "$JS/classes/com/acme/catalog/i18n" "$JS/libs"
  for i in $(seq 1 150); do
    printf 'package com.acme.catalog.model; public class Product%03d { public String sku() { return "P%03d"; } }\n' "$i" "$i" >"$JS/classes/com/acme/catalog/model/Product$(printf %03d "$i").java"
  done
  javac -d "$JS/classes" "$JS/classes/com/acme/catalog/model/"*.java
  rm "$JS/classes/com/acme/catalog/model/"*.java
  for i in $(seq 1 140); do echo "product.$i.name=Product $i" >"$JS/classes/com/acme/catalog/i18n/messages_$(printf %03d "$i").properties"; done
  touch -d '2026-11-20 09:00:00' $(find "$JS/classes" -type f)
  jar --create --file "$JS/libs/catalog-1.8.0.jar" --date=2026-11-20T09:00:00Z -C "$JS/classes" .
  capture batch24 jarsigner_verify_verbose_unsigned "$JS" "jarsigner -verify -verbose libs/catalog-1.8.0.jar" "$JV"

  # keytool -list with a wrong store password; jarsigner with an alias the keystore lacks
  KT="$B/keytool"
  mkdir -p "$KT/config" "$KT/libs"
  keytool -genkeypair -keystore "$KT/config/release.p12" -storetype PKCS12 -storepass changeit \
    -alias shop-release -keyalg RSA -keysize 2048 -validity 365 \
    -dname 'CN=Acme Shop Release, O=Acme, C=DE' >"$KT/genkeypair.log" 2>&1
  cp "$JS/libs/catalog-1.8.0.jar" "$KT/libs/"
  capture batch24 keytool_list_wrong_password "$KT" "keytool -list -v -keystore config/release.p12 -storepass hunter2" "$JV"
  capture batch24 jarsigner_alias_not_found "$KT" "jarsigner -keystore config/release.p12 -storepass changeit -tsa http://127.0.0.1:9/tsr libs/catalog-1.8.0.jar release" "$JV"

  # ant dist: compile passes with a deprecation note, jar fails on a missing manifest file
  AN="$B/ant"
  mkdir -p "$AN/src/com/acme/labels"
  cat >"$AN/src/com/acme/labels/LabelPrinter.java" <<'EOF'
package com.acme.labels;

import java.util.Date;

public class LabelPrinter {
    public String label(String sku, Date packed) {
        return sku + " packed " + (packed.getMonth() + 1) + "/" + packed.getDate();
    }

    public static void main(String[] args) {
        System.out.println(new LabelPrinter().label(args[0], new Date()));
    }
}
EOF
  cat >"$AN/build.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<project name="label-printer" default="dist" basedir=".">
  <property name="src.dir" value="src"/>
  <property name="build.dir" value="build"/>
  <property name="dist.dir" value="dist"/>
  <property name="version" value="1.4.2"/>

  <target name="init">
    <mkdir dir="${build.dir}/classes"/>
    <mkdir dir="${dist.dir}"/>
  </target>

  <target name="compile" depends="init" description="compile the sources">
    <javac srcdir="${src.dir}" destdir="${build.dir}/classes" includeantruntime="false" release="17"/>
  </target>

  <target name="resources" depends="init">
    <copy todir="${build.dir}/classes">
      <fileset dir="${src.dir}" excludes="**/*.java"/>
    </copy>
  </target>

  <target name="dist" depends="compile,resources" description="build the jar">
    <jar destfile="${dist.dir}/label-printer-${version}.jar" basedir="${build.dir}/classes"
         manifest="${src.dir}/META-INF/MANIFEST.MF"/>
  </target>
</project>
EOF
  capture batch24 ant_dist_missing_manifest "$AN" "ant dist" "$(ant -version)"

  # groovy: a release-notes script that dies on a missing JSON key (Groovy's trimmed stack)
  GR="$B/groovy"
  mkdir -p "$GR/scripts" "$GR/data"
  cat >"$GR/data/changes.json" <<'EOF'
{"release": "2.3.0", "changes": [
  {"type": "feature", "title": "Bulk discounts for gold customers", "pr": 412},
  {"type": "fix", "title": "Rounding of VAT on credit notes", "pr": 418},
  {"type": "fix", "title": "Order export skipped empty lines", "issue": {"id": 77}},
  {"type": "chore", "title": "Bump PostgreSQL driver", "pr": 421}
]}
EOF
  cat >"$GR/scripts/release_notes.groovy" <<'EOF'
import groovy.json.JsonSlurper

def notes = new JsonSlurper().parse(new File(args[0]))
println "# Release ${notes.release}"
def grouped = notes.changes.groupBy { it.type }
['feature', 'fix'].each { type ->
    println "\n## ${type.capitalize()}s"
    grouped[type].each { change ->
        println "- ${change.title} (#${change.pr.intValue()})"
    }
}
EOF
  capture batch24 groovy_script_null_pointer "$GR" "groovy scripts/release_notes.groovy data/changes.json" "$(groovy --version 2>&1)"

  # scalac: type errors in a small pricing module
  SC="$B/scala"
  mkdir -p "$SC/src/main/scala/shop" "$SC/target"
  cat >"$SC/src/main/scala/shop/Pricing.scala" <<'EOF'
package shop

case class Item(sku: String, qty: Int, unitCents: Long)

object Pricing {
  def lineTotal(item: Item): Long = item.qty * item.unitCents

  def orderTotal(items: List[Item]): Long = items.map(lineTotal).sum

  def discount(total: Long, tier: String): Long = tier match {
    case "gold"   => total / 10
    case "silver" => total / 20
    case _        => "none"
  }

  def describe(items: List[Item]): String =
    items.map(i => s"${i.sku} x${i.qty}").mkString(", ") + " = " + formatCents(orderTotal(items))

  def cheapest(items: List[Item]): Item = items.minBy(_.unitCent)
}
EOF
  capture batch24 scalac_type_errors "$SC" "scalac -d target src/main/scala/shop/Pricing.scala" "$(scalac -version 2>&1)"

  # clojure: an ex-info thrown from a stock loader, with the full report on stderr
  CJ="$B/clojure"
  mkdir -p "$CJ/src/inventory" "$CJ/data"
  cat >"$CJ/src/inventory/core.clj" <<'EOF'
(ns inventory.core
  (:require [clojure.edn :as edn]
            [clojure.string :as str]))

(defn parse-qty [s]
  (Long/parseLong (str/trim s)))

(defn load-stock [path]
  (let [rows (edn/read-string (slurp path))]
    (into {} (for [{:keys [sku qty]} rows]
               (try
                 [sku (parse-qty qty)]
                 (catch NumberFormatException e
                   (throw (ex-info (str "bad quantity for " sku) {:sku sku :qty qty :file path} e))))))))

(defn -main [& args]
  (let [stock (load-stock (first args))]
    (doseq [[sku qty] (sort stock)]
      (println sku qty))))
EOF
  cat >"$CJ/data/stock.edn" <<'EOF'
[{:sku "BLT-0037" :qty "120"}
 {:sku "NUT-0074" :qty " 40"}
 {:sku "WSH-0111" :qty "12 boxes"}
 {:sku "SCR-0148" :qty "7"}]
EOF
  capture batch24 clojure_ex_info_report "$CJ" "java -Dclojure.main.report=stderr -cp /usr/share/java/clojure-1.11.jar:src clojure.main -m inventory.core data/stock.edn" "clojure 1.11.1, $JV"

  # kotlinc: type and nullability errors in two files
  KO="$B/kotlin"
  mkdir -p "$KO/src/shop"
  cat >"$KO/src/shop/Cart.kt" <<'EOF'
package shop

data class CartLine(val sku: String, val qty: Int, val unitCents: Long)

class Cart(private val customerId: String?) {
    private val lines = mutableListOf<CartLine>()

    fun add(line: CartLine) {
        lines += line
    }

    fun totalCents(): Long = lines.map { it.qty * it.unitCents }.sum()

    fun owner(): String = customerId.toUpperCase()

    fun count(): Int = lines.size.toLong()
}
EOF
  cat >"$KO/src/shop/Checkout.kt" <<'EOF'
package shop

fun checkout(cart: Cart, couponCode: String?): String {
    val total = cart.totalCents()
    val discount = when (couponCode) {
        "WELCOME10" -> total / 10
        null -> 0L
    }
    return "${cart.owner()} pays ${(total - discount) / 100.0}"
}
EOF
  capture batch24 kotlinc_type_errors "$KO" "kotlinc src -d build/classes" "$(kotlinc -version 2>&1 | grep -i kotlin | head -1)"

  # --- Ruby: a small library (bookshelf) with rspec, rubocop, rake, bundler, minitest ---------
  RUBYV="$(ruby --version)"
  bookshelf_lib() {
    local d="$1"
    mkdir -p "$d/lib/bookshelf"
    cat >"$d/lib/bookshelf.rb" <<'EOF'
# frozen_string_literal: true

require_relative "bookshelf/isbn"
require_relative "bookshelf/book"
require_relative "bookshelf/catalog"
require_relative "bookshelf/loan"

module Bookshelf
  VERSION = "0.9.2"

  def self.config
    @config ||= { currency: "EUR", fine_per_day_cents: 25, max_fine_cents: 500 }
  end
end
EOF
    cat >"$d/lib/bookshelf/isbn.rb" <<'EOF'
# frozen_string_literal: true

module Bookshelf
  module Isbn
    module_function

    def normalize(raw)
      raw.to_s.delete("-")
    end

    def valid?(raw)
      digits = normalize(raw)
      return false unless digits.match?(/\A\d{13}\z/)

      sum = digits.chars.each_with_index.sum { |c, i| c.to_i * (i.even? ? 1 : 3) }
      (sum % 10).zero?
    end
  end
end
EOF
    cat >"$d/lib/bookshelf/book.rb" <<'EOF'
# frozen_string_literal: true

module Bookshelf
  Book = Struct.new(:isbn, :title, :author, :year, keyword_init: true) do
    def to_s
      "#{title} by #{author} (#{year})"
    end
  end
end
EOF
    cat >"$d/lib/bookshelf/catalog.rb" <<'EOF'
# frozen_string_literal: true

module Bookshelf
  class Catalog
    def initialize
      @books = {}
    end

    def add(book)
      raise ArgumentError, "invalid ISBN #{book.isbn}" unless Isbn.valid?(book.isbn)

      @books[Isbn.normalize(book.isbn)] = book
      self
    end

    def size
      @books.size
    end

    def find(isbn)
      @books[Isbn.normalize(isbn)]
    end

    def search(query)
      q = query.downcase
      @books.values.select { |b| b.title.downcase.include?(q) || b.author.include?(q) }
    end

    def to_h
      @books.transform_values { |b| { title: b.title, year: b.year } }
    end
  end
end
EOF
    cat >"$d/lib/bookshelf/loan.rb" <<'EOF'
# frozen_string_literal: true

require "date"

module Bookshelf
  class Loan
    attr_reader :book, :member, :started_on

    def initialize(book:, member:, started_on:, days: 21)
      @book = book
      @member = member
      @started_on = started_on
      @days = days
    end

    def due_on
      started_on + @days.days
    end

    def days_overdue(today)
      [(today - (started_on + @days)).to_i, 0].max
    end

    def fine_cents(today)
      days_overdue(today) * Bookshelf.config[:fine_per_day_cents]
    end
  end
end
EOF
  }

  # rspec --format documentation over 300 examples with four failures (long)
  RS="$B/rspec-doc"
  mkdir -p "$RS/spec"
  bookshelf_lib "$RS"
  cat >"$RS/spec/spec_helper.rb" <<'EOF'
# frozen_string_literal: true

require "bookshelf"

module IsbnFixtures
  module_function

  def check_digit(twelve)
    sum = twelve.chars.each_with_index.sum { |c, i| c.to_i * (i.even? ? 1 : 3) }
    ((10 - (sum % 10)) % 10).to_s
  end

  def valid(n)
    twelve = format("978%09d", 30_640_000 + (n * 7919))
    twelve + check_digit(twelve)
  end
end

RSpec.configure do |config|
  config.expect_with(:rspec) { |c| c.syntax = :expect }
  config.disable_monkey_patching!
end
EOF
  cat >"$RS/spec/isbn_spec.rb" <<'EOF'
# frozen_string_literal: true

require "spec_helper"

RSpec.describe Bookshelf::Isbn do
  describe ".valid?" do
    context "with published ISBN-13s" do
      (1..140).each do |n|
        isbn = IsbnFixtures.valid(n)
        it("accepts #{isbn}") { expect(described_class.valid?(isbn)).to be(true) }
      end
    end

    context "with a wrong check digit" do
      (1..140).each do |n|
        isbn = IsbnFixtures.valid(n)
        bad = isbn[0, 12] + ((isbn[-1].to_i + 1) % 10).to_s
        it("rejects #{bad}") { expect(described_class.valid?(bad)).to be(false) }
      end
    end

    it "accepts the hyphenated form" do
      expect(described_class.valid?("978-0-306-40615-7")).to be(true)
    end

    it "accepts the form printed with spaces" do
      expect(described_class.valid?("978 0 306 40615 7")).to be(true)
    end
  end
end
EOF
  cat >"$RS/spec/catalog_spec.rb" <<'EOF'
# frozen_string_literal: true

require "spec_helper"

RSpec.describe Bookshelf::Catalog do
  subject(:catalog) { described_class.new }

  let(:dune) { Bookshelf::Book.new(isbn: "978-0-441-17271-9", title: "Dune", author: "Frank Herbert", year: 1965) }
  let(:emma) { Bookshelf::Book.new(isbn: "978-0-14-143958-7", title: "Emma", author: "Jane Austen", year: 1815) }

  before { catalog.add(dune).add(emma) }

  describe "#add" do
    it "indexes by normalised ISBN" do
      expect(catalog.find("9780441172719")).to eq(dune)
    end

    it "rejects an invalid ISBN" do
      bad = Bookshelf::Book.new(isbn: "978-0-441-17271-0", title: "Dune", author: "Frank Herbert", year: 1965)
      expect { catalog.add(bad) }.to raise_error(ArgumentError, /invalid ISBN/)
    end
  end

  describe "#search" do
    it "matches titles case-insensitively" do
      expect(catalog.search("DUNE")).to eq([dune])
    end

    it "matches author names case-insensitively" do
      expect(catalog.search("austen")).to match_array([emma])
    end
  end

  describe "#to_h" do
    it "exports title, author and year", :aggregate_failures do
      exported = catalog.to_h["9780441172719"]
      expect(exported).to include(title: "Dune", year: 1965)
      expect(exported).to include(author: "Frank Herbert")
      expect(exported.keys).to eq(%i[title author year])
    end
  end
end
EOF
  cat >"$RS/spec/loan_spec.rb" <<'EOF'
# frozen_string_literal: true

require "spec_helper"

RSpec.describe Bookshelf::Loan do
  let(:book) { Bookshelf::Book.new(isbn: "978-0-441-17271-9", title: "Dune", author: "Frank Herbert", year: 1965) }
  let(:loan) { described_class.new(book: book, member: "M-1042", started_on: Date.new(2026, 11, 1)) }

  describe "#due_on" do
    it "is three weeks after the start" do
      expect(loan.due_on).to eq(Date.new(2026, 11, 22))
    end
  end

  describe "#fine_cents" do
    it "is zero before the due date" do
      expect(loan.fine_cents(Date.new(2026, 11, 20))).to eq(0)
    end

    it "charges 25 cents a day when overdue" do
      expect(loan.fine_cents(Date.new(2026, 11, 26))).to eq(100)
    end

    it "caps the fine at 5 euros" do
      expect(loan.fine_cents(Date.new(2027, 1, 1))).to eq(500)
    end
  end
end
EOF
  capture batch24 rspec_documentation_long "$RS" "rspec --format documentation" "$RUBYV, $(rspec --version | sed -n 2p | xargs)"

  # rspec --bisect: an order-dependent failure (a spec leaks a config change)
  RB="$B/rspec-bisect"
  mkdir -p "$RB/spec"
  bookshelf_lib "$RB"
  cp "$RS/spec/spec_helper.rb" "$RB/spec/"
  cat >"$RB/spec/a_import_spec.rb" <<'EOF'
# frozen_string_literal: true

require "spec_helper"

RSpec.describe "importing a US catalogue" do
  it "switches the currency to USD" do
    Bookshelf.config[:currency] = "USD"
    expect(Bookshelf.config[:currency]).to eq("USD")
  end

  it "keeps the fine rate" do
    expect(Bookshelf.config[:fine_per_day_cents]).to eq(25)
  end
end
EOF
  cat >"$RB/spec/b_isbn_spec.rb" <<'EOF'
# frozen_string_literal: true

require "spec_helper"

RSpec.describe Bookshelf::Isbn do
  (1..6).each do |n|
    it("accepts fixture #{n}") { expect(described_class.valid?(IsbnFixtures.valid(n))).to be(true) }
  end
end
EOF
  cat >"$RB/spec/c_fines_spec.rb" <<'EOF'
# frozen_string_literal: true

require "spec_helper"

RSpec.describe "fines" do
  it "are charged in euros" do
    expect(Bookshelf.config[:currency]).to eq("EUR")
  end

  it "accrue 25 cents a day" do
    expect(Bookshelf.config[:fine_per_day_cents]).to eq(25)
  end
end
EOF
  capture batch24 rspec_bisect_order_dependency "$RB" "rspec --order defined --bisect" "$RUBYV, $(rspec --version | sed -n 2p | xargs)"

  # rubocop -A: autocorrects most offenses, leaves the ones it cannot fix
  RC="$B/rubocop"
  mkdir -p "$RC/lib/bookshelf"
  bookshelf_lib "$RC"
  cat >"$RC/.rubocop.yml" <<'EOF'
AllCops:
  TargetRubyVersion: 3.1
  NewCops: enable
  SuggestExtensions: false
EOF
  cat >"$RC/lib/bookshelf/report.rb" <<'EOF'
require 'csv'

module Bookshelf
  class Report
    def initialize(catalog, loans)
      @catalog = catalog
      @loans = loans
    end

    def get_overdue(today)
      @loans.select { |l| l.days_overdue(today) > 0 }
    end

    def to_csv(today)
      rows = []
      header = ["isbn", "title", "member", "days overdue", "fine"]
      rows << header
      for loan in get_overdue(today)
        unless loan.book.nil?
          rows << [loan.book.isbn, loan.book.title, loan.member, loan.days_overdue(today), format("%.2f", loan.fine_cents(today) / 100.0)]
        else
          rows << [nil, nil, loan.member, loan.days_overdue(today), nil]
        end
      end
      total = rows.size
      CSV.generate { |csv| rows.each { |r| csv << r } }
    end

    def summary(today)
      overdue = get_overdue(today)
      fines = overdue.map { |l| l.fine_cents(today) }.inject(0) { |sum, f| sum + f }
      members = overdue.map { |l| l.member }.uniq
      if members.length == 0 then return "no overdue loans" end
      "#{overdue.length} overdue loans, #{members.length} members, fines #{'%.2f' % (fines / 100.0)} " + (fines > 10000 ? "(escalate)" : "")
    end
  end
end
EOF
  cat >"$RC/lib/bookshelf/reminder.rb" <<'EOF'
module Bookshelf
  class Reminder
    attr_reader :loan
    def initialize(loan)
      @loan = loan
    end
    def message(today)
      days = loan.days_overdue(today)
      return nil if days == 0
      text = "Dear member #{loan.member},\n"
      text = text + "the book \"#{loan.book.title}\" is #{days} days overdue.\n"
      text = text + "Your fine so far: #{loan.fine_cents(today)} cents.\n"
      return text
    end
  end
end
EOF
  capture batch24 rubocop_autocorrect_all "$RC" "rubocop -A lib" "rubocop $(rubocop --version)"

  # rake --trace: a release task chain aborting on a missing environment variable
  RK="$B/rake"
  mkdir -p "$RK/pkg"
  bookshelf_lib "$RK"
  cat >"$RK/Rakefile" <<'EOF'
# frozen_string_literal: true

require_relative "lib/bookshelf"

GEM_FILE = "pkg/bookshelf-#{Bookshelf::VERSION}.gem"

desc "Check the version is tagged"
task :check_version do
  puts "releasing bookshelf #{Bookshelf::VERSION}"
end

namespace :build do
  desc "Build the gem file"
  task gem: :check_version do
    File.write(GEM_FILE, "gem data")
    puts "built #{GEM_FILE}"
  end

  desc "Write the checksum"
  task checksum: :gem do
    require "digest"
    puts "sha256 #{Digest::SHA256.file(GEM_FILE).hexdigest[0, 16]}"
  end
end

namespace :publish do
  def api_token
    ENV.fetch("BOOKSHELF_GEM_HOST_TOKEN")
  end

  desc "Push the gem to the internal gem host"
  task push: "build:checksum" do
    puts "pushing #{GEM_FILE} to gems.internal.acme.example"
    headers = { "Authorization" => api_token }
    puts headers.keys.inspect
  end
end

desc "Build and publish"
task release: ["build:checksum", "publish:push"]
EOF
  capture batch24 rake_release_trace_aborted "$RK" "env -u BOOKSHELF_GEM_HOST_TOKEN rake --trace release" "$RUBYV, rake $(rake --version | awk '{print $3}')"

  # bundle exec with a Gemfile.lock naming gems that are not installed
  BU="$B/bundler"
  mkdir -p "$BU/spec"
  bookshelf_lib "$BU"
  cp "$RS/spec/spec_helper.rb" "$RS/spec/loan_spec.rb" "$BU/spec/"
  cat >"$BU/Gemfile" <<'EOF'
# frozen_string_literal: true

source "https://rubygems.org"

gem "faraday", "~> 2.7"
gem "rspec", "~> 3.12"
gem "zeitwerk", "~> 2.6"
EOF
  cat >"$BU/Gemfile.lock" <<'EOF'
GEM
  remote: https://rubygems.org/
  specs:
    diff-lcs (1.5.0)
    faraday (2.7.10)
      faraday-net_http (>= 2.0, < 3.1)
      ruby2_keywords (>= 0.0.4)
    faraday-net_http (3.0.2)
    rspec (3.12.0)
      rspec-core (~> 3.12.0)
      rspec-expectations (~> 3.12.0)
      rspec-mocks (~> 3.12.0)
    rspec-core (3.12.0)
      rspec-support (~> 3.12.0)
    rspec-expectations (3.12.1)
      diff-lcs (>= 1.2.0, < 2.0)
      rspec-support (~> 3.12.0)
    rspec-mocks (3.12.1)
      diff-lcs (>= 1.2.0, < 2.0)
      rspec-support (~> 3.12.0)
    rspec-support (3.12.0)
    ruby2_keywords (0.0.5)
    zeitwerk (2.6.11)

PLATFORMS
  x86_64-linux

DEPENDENCIES
  faraday (~> 2.7)
  rspec (~> 3.12)
  zeitwerk (~> 2.6)

BUNDLED WITH
   2.3.15
EOF
  capture batch24 bundle_exec_missing_gems "$BU" "bundle exec rspec spec/loan_spec.rb" "$RUBYV, bundler $(bundle --version | awk '{print $3}')"

  # minitest --verbose: a multi-line string diff, a hash diff and an error
  MI="$B/minitest"
  mkdir -p "$MI/test"
  bookshelf_lib "$MI"
  cat >"$MI/test/catalog_test.rb" <<'EOF'
# frozen_string_literal: true

require "minitest/autorun"
require "bookshelf"

class CatalogTest < Minitest::Test
  def setup
    @catalog = Bookshelf::Catalog.new
    @dune = Bookshelf::Book.new(isbn: "978-0-441-17271-9", title: "Dune", author: "Frank Herbert", year: 1965)
    @emma = Bookshelf::Book.new(isbn: "978-0-14-143958-7", title: "Emma", author: "Jane Austen", year: 1815)
    @catalog.add(@dune).add(@emma)
  end

  def test_size
    assert_equal 2, @catalog.size
  end

  def test_find_by_hyphenated_isbn
    assert_equal @dune, @catalog.find("978-0-441-17271-9")
  end

  def test_to_h_exports_all_fields
    expected = {
      "9780441172719" => { title: "Dune", author: "Frank Herbert", year: 1965 },
      "9780141439587" => { title: "Emma", author: "Jane Austen", year: 1815 }
    }
    assert_equal expected, @catalog.to_h
  end

  def test_shelf_label
    expected = <<~LABEL
      Dune
      Frank Herbert
      1965
      ISBN 978-0-441-17271-9
    LABEL
    assert_equal expected, [@dune.title, @dune.author, @dune.year, "ISBN #{@dune.isbn}", ""].join("\n").upcase
  end

  def test_search_by_author
    assert_includes @catalog.search("Austen"), @emma
  end

  def test_loan_due_date
    loan = Bookshelf::Loan.new(book: @dune, member: "M-7", started_on: Date.new(2026, 11, 1))
    assert_equal Date.new(2026, 11, 22), loan.due_on
  end

  def test_rejects_duplicate
    assert_raises(ArgumentError) { @catalog.add(@dune) }
  end
end
EOF
  capture batch24 minitest_verbose_diffs "$MI" "ruby -Ilib -Itest test/catalog_test.rb --verbose --seed 20241" "$RUBYV, minitest $(ruby -e 'require "minitest"; print Minitest::VERSION')"

  # Sinatra app tested with rack-test: an exception inside a route surfaces through Rack's stack
  SN="$B/sinatra"
  mkdir -p "$SN/test"
  bookshelf_lib "$SN"
  cat >"$SN/app.rb" <<'EOF'
# frozen_string_literal: true

require "sinatra/base"
require "json"
require_relative "lib/bookshelf"

class BookshelfApp < Sinatra::Base
  set :show_exceptions, false
  set :raise_errors, true

  CATALOG = Bookshelf::Catalog.new
    .add(Bookshelf::Book.new(isbn: "978-0-441-17271-9", title: "Dune", author: "Frank Herbert", year: 1965))

  get "/health" do
    "ok"
  end

  get "/books/:isbn" do
    book = CATALOG.find(params[:isbn])
    halt 404, { error: "not found" }.to_json unless book
    content_type :json
    book.to_h.to_json
  end

  get "/loans/:member/fines" do
    loans = settings.loans.fetch(params[:member])
    { member: params[:member], fines: loans.sum { |l| l.fine_cents(Date.today) } }.to_json
  end

  post "/books" do
    data = JSON.parse(request.body.read)
    CATALOG.add(Bookshelf::Book.new(**data.transform_keys(&:to_sym)))
    status 201
  end
end
EOF
  cat >"$SN/test/app_test.rb" <<'EOF'
# frozen_string_literal: true

ENV["RACK_ENV"] = "test"
require "minitest/autorun"
require "rack/test"
require_relative "../app"

class AppTest < Minitest::Test
  include Rack::Test::Methods

  def app
    BookshelfApp
  end

  def test_health
    get "/health"
    assert_equal 200, last_response.status
  end

  def test_book_lookup
    get "/books/9780441172719"
    assert_equal "application/json", last_response.content_type
    assert_equal "Dune", JSON.parse(last_response.body)["title"]
  end

  def test_unknown_book
    get "/books/9780000000000"
    assert_equal 404, last_response.status
  end

  def test_member_fines
    get "/loans/M-1042/fines"
    assert last_response.ok?
  end

  def test_create_book_rejects_bad_isbn
    post "/books", { isbn: "123", title: "X", author: "Y", year: 2000 }.to_json, "CONTENT_TYPE" => "application/json"
    assert_equal 422, last_response.status
  end
end
EOF
  capture batch24 sinatra_rack_test_errors "$SN" "ruby -Ilib test/app_test.rb --seed 7" "$RUBYV, sinatra $(ruby -e 'require "sinatra/base"; print Sinatra::VERSION'), rack-test"

  # a Ruby import script dying on a YAML syntax error in its config
  YM="$B/ruby-yaml"
  mkdir -p "$YM/bin" "$YM/config"
  bookshelf_lib "$YM"
  cat >"$YM/config/shelves.yml" <<'EOF'
shelves:
  fiction:
    location: "2nd floor, east"
   capacity: 400
  reference:
    location: "ground floor"
    capacity: 120
EOF
  cat >"$YM/bin/import_shelves" <<'EOF'
#!/usr/bin/env ruby
# frozen_string_literal: true

require "yaml"
require_relative "../lib/bookshelf"

def load_shelves(path)
  YAML.safe_load_file(path).fetch("shelves")
end

shelves = load_shelves(ARGV.fetch(0))
shelves.each { |name, s| puts "#{name}: #{s['capacity']} books at #{s['location']}" }
EOF
  capture batch24 ruby_yaml_syntax_error "$YM" "ruby bin/import_shelves config/shelves.yml" "$RUBYV"

  # --- PHP: an invoicing library (invoicer) with phpunit, phpcbf, composer, php -l ----------
  PHPV="$(php --version | head -1 | cut -d' ' -f1,2)"
  invoicer_src() {
    local d="$1"
    mkdir -p "$d/src"
    cat >"$d/src/autoload.php" <<'EOF'
<?php

declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    $prefix = 'Invoicer\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
EOF
    cat >"$d/src/VatCalculator.php" <<'EOF'
<?php

declare(strict_types=1);

namespace Invoicer;

final class VatCalculator
{
    /** @var array<string, array<string, int>> basis points by country and rate class */
    private const RATES = [
        'DE' => ['standard' => 1900, 'reduced' => 700],
        'AT' => ['standard' => 2000, 'reduced' => 1000],
        'FR' => ['standard' => 2000, 'reduced' => 550],
    ];

    public function grossCents(string $country, int $netCents, string $class = 'standard'): int
    {
        if (!isset(self::RATES[$country])) {
            throw new \InvalidArgumentException(sprintf('No VAT rates for country "%s"', $country));
        }
        $rate = self::RATES[$country][$class];

        return $netCents + intdiv($netCents * $rate, 10000);
    }

    public function rate(string $country, string $class = 'standard'): float
    {
        return self::RATES[$country][$class] / 100;
    }
}
EOF
    cat >"$d/src/Slugger.php" <<'EOF'
<?php

declare(strict_types=1);

namespace Invoicer;

final class Slugger
{
    public function slug(string $text): string
    {
        $text = strtolower($text);
        $text = preg_replace('/[^a-z0-9]+/', '-', $text) ?? '';

        return trim($text, '-');
    }
}
EOF
  }

  # phpunit with a data provider: named data sets failing, an exception from one set
  PU="$B/phpunit"
  mkdir -p "$PU/tests"
  invoicer_src "$PU"
  cat >"$PU/tests/VatCalculatorTest.php" <<'EOF'
<?php

declare(strict_types=1);

namespace Invoicer\Tests;

use Invoicer\VatCalculator;
use PHPUnit\Framework\TestCase;

final class VatCalculatorTest extends TestCase
{
    /**
     * @return array<string, array{string, int, string, int}>
     */
    public function grossProvider(): array
    {
        return [
            'germany standard' => ['DE', 10000, 'standard', 11900],
            'germany reduced' => ['DE', 999, 'reduced', 1069],
            'austria standard' => ['AT', 4550, 'standard', 5460],
            'france reduced rounds half up' => ['FR', 1999, 'reduced', 2109],
            'switzerland' => ['CH', 10000, 'standard', 10810],
        ];
    }

    /**
     * @dataProvider grossProvider
     */
    public function testGrossCents(string $country, int $net, string $class, int $expected): void
    {
        $this->assertSame($expected, (new VatCalculator())->grossCents($country, $net, $class));
    }

    public function testRateAsPercent(): void
    {
        $this->assertSame(19, (new VatCalculator())->rate('DE'));
    }

    public function testUnknownRateClass(): void
    {
        $this->expectException(\InvalidArgumentException::class);
        (new VatCalculator())->grossCents('DE', 100, 'super-reduced');
    }
}
EOF
  capture batch24 phpunit_data_provider_failures "$PU" "phpunit --bootstrap src/autoload.php tests" "$PHPV, $(phpunit --version | head -1)"

  # phpunit --debug over 310 data sets with two failures (long)
  PD="$B/phpunit-debug"
  mkdir -p "$PD/tests"
  invoicer_src "$PD"
  {
    cat <<'EOF'
<?php

declare(strict_types=1);

namespace Invoicer\Tests;

use Invoicer\Slugger;
use PHPUnit\Framework\TestCase;

final class SluggerTest extends TestCase
{
    /**
     * @return array<string, array{string, string}>
     */
    public function titles(): array
    {
        return [
EOF
    for i in $(seq 1 308); do
      echo "            'invoice $i' => ['Invoice $i for ACME Corp', 'invoice-$i-for-acme-corp'],"
    done
    cat <<'EOF'
            'german umlauts' => ['Rechnung für Müller GmbH', 'rechnung-fuer-mueller-gmbh'],
            'french accents' => ['Facture été 2026', 'facture-ete-2026'],
        ];
    }

    /**
     * @dataProvider titles
     */
    public function testSlug(string $title, string $expected): void
    {
        $this->assertSame($expected, (new Slugger())->slug($title));
    }
}
EOF
  } >"$PD/tests/SluggerTest.php"
  capture batch24 phpunit_debug_long "$PD" "phpunit --debug --bootstrap src/autoload.php tests/SluggerTest.php" "$PHPV, $(phpunit --version | head -1)"

  # phpunit with a phpunit.xml written for PHPUnit 10 (schema warnings) and a --filter matching nothing
  PX10="$B/phpunit-config"
  mkdir -p "$PX10/tests"
  invoicer_src "$PX10"
  cp "$PU/tests/VatCalculatorTest.php" "$PX10/tests/"
  cat >"$PX10/phpunit.xml" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<phpunit xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:noNamespaceSchemaLocation="https://schema.phpunit.de/10.3/phpunit.xsd"
         bootstrap="src/autoload.php"
         cacheDirectory=".phpunit.cache"
         displayDetailsOnTestsThatTriggerWarnings="true"
         failOnWarning="true">
    <testsuites>
        <testsuite name="unit">
            <directory>tests</directory>
        </testsuite>
    </testsuites>
    <source>
        <include>
            <directory>src</directory>
        </include>
    </source>
</phpunit>
EOF
  capture batch24 phpunit_config_schema_no_tests "$PX10" "phpunit --filter testNetCents" "$PHPV, $(phpunit --version | head -1)"

  # phpcbf --standard=PSR12 over legacy files: fixes most, reports the rest
  PC="$B/phpcbf"
  mkdir -p "$PC/src/Legacy"
  cat >"$PC/src/Legacy/InvoicePrinter.php" <<'EOF'
<?php
namespace Invoicer\Legacy;
use Invoicer\VatCalculator;
class InvoicePrinter {
    var $calc;
    function __construct($calc = null) { $this->calc = $calc ?: new VatCalculator(); }
    public function printLine($sku,$qty,$net){
        if($qty<=0){ return ''; }
        else { return sprintf("%-12s %4d %10.2f\n",$sku,$qty,$net/100); }
    }
    public function Total( array $lines ) {
      $sum=0;
      foreach($lines as $l) $sum += $l['net'];
      return $sum;
    }
}
?>
EOF
  cat >"$PC/src/Legacy/legacy_helpers.php" <<'EOF'
<?php
namespace Invoicer\Legacy;
function format_amount($cents){ return number_format($cents/100, 2, ',', '.'); }
FUNCTION parse_amount( $s ) {
    $s = str_replace(array('.', ','), array('', '.'), $s);
    return (int) round(floatval($s) * 100);
}
class AmountFormatter { public function format($c) { return format_amount($c); } }
EOF
  capture batch24 phpcbf_psr12_legacy "$PC" "phpcbf --standard=PSR12 src" "$(phpcbf --version | head -1)"

  # composer install with the network disabled and no vendor directory or cache
  CO="$B/composer"
  mkdir -p "$CO/src"
  invoicer_src "$CO"
  cat >"$CO/composer.json" <<'EOF'
{
    "name": "acme/invoicer",
    "description": "Invoice generation for the Acme shop",
    "type": "library",
    "license": "proprietary",
    "require": {
        "php": ">=8.1",
        "guzzlehttp/guzzle": "^7.8",
        "monolog/monolog": "^3.4",
        "dompdf/dompdf": "^2.0"
    },
    "require-dev": {
        "phpunit/phpunit": "^10.3"
    },
    "autoload": {
        "psr-4": { "Invoicer\\": "src/" }
    }
}
EOF
  capture batch24 composer_install_network_disabled "$CO" "COMPOSER_HOME=\$PWD/.composer COMPOSER_CACHE_DIR=\$PWD/.composer/cache COMPOSER_DISABLE_NETWORK=1 composer install --no-interaction --no-progress" "$(composer --version 2>/dev/null | tail -1)"

  # composer validate --strict of a hand-edited composer.json
  CV="$B/composer-validate"
  mkdir -p "$CV"
  cat >"$CV/composer.json" <<'EOF'
{
    "name": "acme/invoicer",
    "description": "Invoice generation for the Acme shop",
    "version": "2.3.0",
    "require": {
        "php": ">=8.1",
        "guzzlehttp/guzzle": "*",
        "monolog/monolog": "dev-main",
        "ext-intl": "*"
    },
    "require-dev": {
        "phpunit/phpunit": "^10.3",
        "guzzlehttp/guzzle": "^7.8"
    },
    "autoload": {
        "psr-4": { "Invoicer\\": "src" }
    },
    "minimum-stability": "dev"
}
EOF
  capture batch24 composer_validate_strict "$CV" "COMPOSER_HOME=\$PWD/.composer composer validate --strict --no-check-lock" "$(composer --version 2>/dev/null | tail -1)"

  # a PHP CLI script failing with a chained exception (Uncaught ... Next ...)
  PX="$B/php-chained"
  mkdir -p "$PX/bin" "$PX/data"
  invoicer_src "$PX"
  cat >"$PX/src/CsvImporter.php" <<'EOF'
<?php

declare(strict_types=1);

namespace Invoicer;

final class CsvImporter
{
    public function __construct(private VatCalculator $vat)
    {
    }

    /** @return list<array{string, int}> */
    public function import(string $path): array
    {
        $rows = [];
        $fh = fopen($path, 'rb');
        fgetcsv($fh);
        $line = 1;
        while (($row = fgetcsv($fh)) !== false) {
            $line++;
            try {
                $rows[] = [$row[0], $this->vat->grossCents($row[1], (int) $row[2])];
            } catch (\InvalidArgumentException $e) {
                throw new \RuntimeException(sprintf('%s line %d: cannot compute gross amount', basename($path), $line), 0, $e);
            }
        }

        return $rows;
    }
}
EOF
  cat >"$PX/bin/generate-invoices.php" <<'EOF'
<?php

declare(strict_types=1);

require __DIR__ . '/../src/autoload.php';

use Invoicer\CsvImporter;
use Invoicer\VatCalculator;

$importer = new CsvImporter(new VatCalculator());
foreach ($importer->import($argv[1]) as [$customer, $gross]) {
    printf("%-20s %10.2f\n", $customer, $gross / 100);
}
EOF
  printf 'customer,country,net_cents\nMueller GmbH,DE,12000\nDupont SARL,FR,8000\nHuber KG,AT,4500\nRossi Srl,IT,9900\n' >"$PX/data/march.csv"
  capture batch24 php_uncaught_chained_exception "$PX" "php bin/generate-invoices.php data/march.csv" "$PHPV"
fi

# --- batch25: a service's deployment and operations config: compose files, Prometheus and
# Alertmanager, Apache, BIND, sudoers, sshd, nftables/iptables, Puppet, Caddy, supervisord,
# crontab, Ansible, yamllint, OpenAPI linters, JSON schema, CloudFormation, restic and borg,
# gpg/openssl/certtool, deploy scripts, a journal, PostgreSQL's pg_ctl/initdb. Debian 12's
# packages and one scratch npm install; no docker daemon, no systemd as PID 1, no cloud.
if sel batch25; then
  B="$WORK/batch25"
  rm -rf "$B" && mkdir -p "$B"
  NTD="$WORK/npmtools"
  if [ ! -x "$NTD/node_modules/.bin/spectral" ]; then
    mkdir -p "$NTD" && (cd "$NTD" && { [ -f package.json ] || npm init -y >/dev/null; } &&
      npm install @stoplight/spectral-cli@6 @redocly/cli@1.34.20 ajv-cli@5 ajv-formats@2 >/dev/null 2>&1)
  fi
  NT="$NTD/node_modules/.bin"
  export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_COLOR=1
  nver() { node -p "JSON.parse(require('fs').readFileSync('$NTD/node_modules/$1/package.json', 'utf8')).version"; }
  SVCS="orders-api billing-worker inventory-api shipping-api notifications catalog-api search-indexer
    auth-gateway pricing-api returns-api reporting-worker webhook-relay"

  # --- docker-compose 1.29 (no daemon needed for `config`) ---
  DC="$B/compose"
  mkdir -p "$DC/schema" "$DC/stack" "$DC/required"
  cat >"$DC/schema/docker-compose.yml" <<'EOF'
version: "3.8"

services:
  orders-api:
    image: registry.tidewater.io/orders-api:1.14.2
    restart_policy: unless-stopped
    ports:
      http: "8080:8080"
    environment:
      DATABASE_URL: postgres://orders:orders@db:5432/orders
      REDIS_URL: redis://cache:6379/0
    depends_on: db
    healthcheck:
      test: ["CMD", "curl", "-fsS", "http://localhost:8080/healthz"]
      interval: 30
      retries: 3

  db:
    image: postgres:15
    volumes:
      - pgdata:/var/lib/postgresql/data
    environment:
      POSTGRES_DB: orders
      POSTGRES_USER: orders
      POSTGRES_PASSWORD: orders

  cache:
    image: redis:7-alpine
    command: redis-server --appendonly yes
    mem_limit: 256m
    deploy:
      resources:
        limits:
          memory: 256M
      placement:
        constraints: [node.role == worker]
        max_replicas: 2

volumes:
  pgdata:
EOF
  capture batch25 compose_config_schema_errors "$DC/schema" "docker-compose config" "$(docker-compose version --short)"

  {
    printf 'version: "3.8"\n\nx-logging: &default-logging\n  driver: json-file\n  options:\n    max-size: "10m"\n    max-file: "5"\n\nservices:\n'
    port=8081
    for s in $SVCS; do
      up=$(echo "$s" | tr 'a-z-' 'A-Z_')
      cat <<EOF
  $s:
    image: registry.tidewater.io/$s:\${${up}_TAG}
    restart: unless-stopped
    logging: *default-logging
    env_file: env/common.env
    environment:
      SERVICE_NAME: $s
      LOG_LEVEL: \${LOG_LEVEL:-info}
      DATABASE_URL: postgres://$s:\${${up}_DB_PASSWORD}@db:5432/${s%%-*}
      OTEL_EXPORTER_OTLP_ENDPOINT: http://otel-collector:4317
    ports:
      - "$port:8080"
    depends_on:
      - db
      - cache
    deploy:
      resources:
        limits:
          memory: 512M
EOF
      port=$((port + 1))
    done
    cat <<'EOF'
  db:
    image: postgres:15
    restart: unless-stopped
    volumes:
      - pgdata:/var/lib/postgresql/data
      - ./db/init:/docker-entrypoint-initdb.d:ro
    environment:
      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}
  cache:
    image: redis:7-alpine
    command: redis-server --appendonly yes --maxmemory 256mb
  otel-collector:
    image: otel/opentelemetry-collector-contrib:0.89.0
    command: ["--config=/etc/otelcol/config.yaml"]
    volumes:
      - ./otel/config.yaml:/etc/otelcol/config.yaml:ro

volumes:
  pgdata:
EOF
  } >"$DC/stack/docker-compose.yml"
  mkdir -p "$DC/stack/env" "$DC/stack/db/init" "$DC/stack/otel"
  printf 'TZ=UTC\nAWS_REGION=eu-west-1\nFEATURE_FLAGS_URL=http://flags.internal:8500\n' >"$DC/stack/env/common.env"
  printf 'ORDERS_API_TAG=1.14.2\nBILLING_WORKER_TAG=3.2.0\nINVENTORY_API_TAG=2.7.1\nSHIPPING_API_TAG=1.9.0\nNOTIFICATIONS_TAG=0.18.3\nCATALOG_API_TAG=4.0.0\nSEARCH_INDEXER_TAG=1.2.5\nAUTH_GATEWAY_TAG=2.3.0\nPRICING_API_TAG=1.0.7\nRETURNS_API_TAG=0.9.2\nWEBHOOK_RELAY_TAG=1.1.0\nORDERS_API_DB_PASSWORD=s3cret-orders\nBILLING_WORKER_DB_PASSWORD=s3cret-billing\nINVENTORY_API_DB_PASSWORD=s3cret-inv\nSHIPPING_API_DB_PASSWORD=s3cret-ship\nCATALOG_API_DB_PASSWORD=s3cret-cat\nAUTH_GATEWAY_DB_PASSWORD=s3cret-auth\nPRICING_API_DB_PASSWORD=s3cret-price\nRETURNS_API_DB_PASSWORD=s3cret-ret\nREPORTING_WORKER_DB_PASSWORD=s3cret-rep\nWEBHOOK_RELAY_DB_PASSWORD=s3cret-hook\nPOSTGRES_PASSWORD=s3cret-root\n' >"$DC/stack/.env"
  capture batch25 compose_config_unset_variables "$DC/stack" "docker-compose config" "$(docker-compose version --short)"

  cat >"$DC/required/docker-compose.yml" <<'EOF'
version: "3.8"
services:
  billing-worker:
    image: registry.tidewater.io/billing-worker:${BILLING_WORKER_TAG:-latest}
    environment:
      STRIPE_API_KEY: ${STRIPE_API_KEY:?set STRIPE_API_KEY in .env.production}
      LEDGER_URL: ${LEDGER_URL:-http://ledger:8000}
    volumes:
      - invoices:/var/lib/billing/invoices
volumes:
  invoices:
EOF
  cat >"$DC/required/docker-compose.prod.yml" <<'EOF'
version: "3.8"
services:
  billing-worker:
    deploy:
      replicas: ${BILLING_REPLICAS:-3}
    environment:
      SENTRY_DSN: ${SENTRY_DSN:?SENTRY_DSN is required in production}
      DB_PASSWORD: ${BILLING_DB_PASSWORD}$
EOF
  capture batch25 compose_config_required_variable "$DC/required" \
    "docker-compose -f docker-compose.yml -f docker-compose.prod.yml config" "$(docker-compose version --short)"

  # --- Prometheus and Alertmanager (Debian's promtool 2.42, amtool 0.25) ---
  PM="$B/monitoring"
  mkdir -p "$PM/rules" "$PM/tests" "$PM/alertmanager/templates"
  cat >"$PM/prometheus.yml" <<'EOF'
global:
  scrape_interval: 30s
  evaluation_interval: 30s
  external_labels:
    cluster: prod-eu-west-1

rule_files:
  - rules/orders.yml
  - rules/billing.yml
  - rules/node.yml

alerting:
  alertmanagers:
    - static_configs:
        - targets: ["alertmanager:9093"]

scrape_configs:
  - job_name: orders-api
    metrics_path: /metrics
    static_configs:
      - targets: ["orders-api-1:8080", "orders-api-2:8080"]
    relabel_configs:
      - source_labels: [__address__]
        regex: '(.*):(\d+'
        target_label: instance
        replacement: "$1"
  - job_name: node
    scrape_interval: 15s
    scrape_timeout: 20s
    file_sd_configs:
      - files: ["targets/node-*.json"]
  - job_name: orders-api
    static_configs:
      - targets: ["orders-api-3:8080"]
EOF
  cat >"$PM/rules/orders.yml" <<'EOF'
groups:
  - name: orders-api
    rules:
      - record: job:http_requests:rate5m
        expr: sum by (job) (rate(http_requests_total{job="orders-api"}[5m]))
      - alert: OrdersHighErrorRate
        expr: |
          sum(rate(http_requests_total{job="orders-api",code=~"5.."}[5m]))
            / sum(rate(http_requests_total{job="orders-api"}[5m])) > 0.05
        for: 10m
        labels:
          severity: critical
          team: checkout
        annotations:
          summary: "orders-api 5xx ratio above 5% for 10 minutes"
          runbook_url: https://runbooks.tidewater.io/orders/high-error-rate
      - alert: OrdersLatencyP99High
        expr: histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="orders-api"}[5m])) > 1.5
        for: 15m
        labels:
          severity: warning
          team: checkout
      - alert: OrdersQueueBacklog
        expr: orders_pending_total > 500
        for: 5 minutes
        labels:
          severity: warning
EOF
  cat >"$PM/rules/billing.yml" <<'EOF'
groups:
  - name: billing-worker
    rules:
      - alert: BillingJobsFailing
        expr: increase(billing_jobs_failed_total[15m]) > 3
        for: 5m
        labels:
          severity: critical
          team: payments
        annotations:
          summary: "{{ $labels.instance }}: {{ $value }} billing jobs failed in 15m"
      - alert: BillingWorkerDown
        expr: up{job="billing-worker"} == 0
        for: 2m
        labels:
          severity: critical
          team: payments
      - alert: BillingJobsFailing
        expr: increase(billing_jobs_failed_total[1h]) > 10
        labels:
          severity: warning
          team: payments
        annotations:
          summary: "billing failures over the last hour: {{ $value | humanize }"
  - name: billing-worker
    rules:
      - record: billing:invoices_created:rate1h
        expr: sum(rate(billing_invoices_created_total[1h]))
EOF
  cat >"$PM/rules/node.yml" <<'EOF'
groups:
  - name: node
    rules:
      - alert: NodeFilesystemAlmostFull
        expr: node_filesystem_avail_bytes{fstype!~"tmpfs|overlay"} / node_filesystem_size_bytes < 0.10
        for: 30m
        labels:
          severity: warning
        annotations:
          summary: "{{ $labels.instance }} {{ $labels.mountpoint }} has less than 10% free"
      - alert: NodeDown
        expr: up{job="node"} == 0
        for: 5m
        labels:
          severity: critical
EOF
  capture batch25 promtool_check_config "$PM" "promtool check config prometheus.yml" "$(promtool --version 2>&1 | head -1)"
  capture batch25 promtool_check_rules "$PM" "promtool check rules rules/orders.yml rules/billing.yml rules/node.yml" \
    "$(promtool --version 2>&1 | head -1)"

  cat >"$PM/rules/checkout.yml" <<'EOF'
groups:
  - name: checkout
    rules:
      - record: instance:checkout_errors:rate5m
        expr: rate(checkout_errors_total[5m])
      - alert: CheckoutErrorsHigh
        expr: instance:checkout_errors:rate5m > 0.5
        for: 10m
        labels:
          severity: page
        annotations:
          summary: "checkout errors on {{ $labels.instance }}"
      - alert: PaymentProviderDown
        expr: probe_success{job="blackbox", target="payments"} == 0
        for: 3m
        labels:
          severity: page
          team: payments
      - alert: CartServiceRestarting
        expr: increase(kube_pod_container_status_restarts_total{container="cart"}[30m]) > 2
        labels:
          severity: ticket
EOF
  cat >"$PM/tests/checkout_test.yml" <<'EOF'
rule_files:
  - ../rules/checkout.yml

evaluation_interval: 1m

tests:
  - name: checkout errors page after ten minutes
    interval: 1m
    input_series:
      - series: 'checkout_errors_total{instance="checkout-1:9100", job="checkout"}'
        values: '0+60x30'
      - series: 'checkout_errors_total{instance="checkout-2:9100", job="checkout"}'
        values: '0+10x30'
    alert_rule_test:
      - eval_time: 5m
        alertname: CheckoutErrorsHigh
        exp_alerts: []
      - eval_time: 15m
        alertname: CheckoutErrorsHigh
        exp_alerts:
          - exp_labels:
              severity: page
              instance: checkout-1:9100
              job: checkout
            exp_annotations:
              summary: "checkout errors on checkout-1:9100"
    promql_expr_test:
      - expr: instance:checkout_errors:rate5m
        eval_time: 10m
        exp_samples:
          - labels: 'instance:checkout_errors:rate5m{instance="checkout-1:9100", job="checkout"}'
            value: 1
          - labels: 'instance:checkout_errors:rate5m{instance="checkout-2:9100", job="checkout"}'
            value: 0.2

  - name: payment provider down pages the payments team
    interval: 1m
    input_series:
      - series: 'probe_success{job="blackbox", target="payments", instance="blackbox-1:9115"}'
        values: '1 1 1 0 0 0 0 0 0 0'
    alert_rule_test:
      - eval_time: 8m
        alertname: PaymentProviderDown
        exp_alerts:
          - exp_labels:
              severity: critical
              team: payments
              job: blackbox
              target: payments
              instance: blackbox-1:9115

  - name: cart restarts open a ticket
    interval: 5m
    input_series:
      - series: 'kube_pod_container_status_restarts_total{container="cart", pod="cart-7d9f-x2l"}'
        values: '0 0 1 2 3 4 5'
    alert_rule_test:
      - eval_time: 30m
        alertname: CartServiceRestarting
        exp_alerts:
          - exp_labels:
              severity: ticket
              container: cart
              pod: cart-7d9f-x2l
EOF
  capture batch25 promtool_test_rules "$PM" "promtool test rules tests/checkout_test.yml" "$(promtool --version 2>&1 | head -1)"

  cat >"$PM/alertmanager/alertmanager.yml" <<'EOF'
global:
  resolve_timeout: 5m
  smtp_smarthost: smtp.tidewater.io:587
  smtp_from: alertmanager@tidewater.io

templates:
  - templates/*.tmpl

route:
  receiver: ops-email
  group_by: [alertname, cluster]
  group_wait: 30s
  group_interval: 5m
  repeat_interval: 4h
  routes:
    - matchers: [team="payments"]
      receiver: pagerduty-payments
      continue: true
    - matchers: [severity="page"]
      receiver: pagerduty-oncall
    - matchers: [team="checkout", severity=~"warning|ticket"]
      receiver: slack-checkout

inhibit_rules:
  - source_matchers: [severity="critical"]
    target_matchers: [severity="warning"]
    equal: [alertname, cluster]

receivers:
  - name: ops-email
    email_configs:
      - to: ops@tidewater.io
  - name: pagerduty-oncall
    pagerduty_configs:
      - routing_key: 3f2a9c1e0b7d4e8fa1c2b3d4e5f60718
  - name: slack-checkout
    slack_configs:
      - api_url: https://hooks.slack.example/services/T000/B000/XXXX
        channel: "#checkout-alerts"
        title: '{{ template "slack.checkout.title" . }}'
EOF
  printf '{{ define "slack.checkout.title" }}[{{ .Status | toUpper }}] {{ .CommonLabels.alertname }}{{ end }}\n' \
    >"$PM/alertmanager/templates/slack.tmpl"
  capture batch25 amtool_check_config_missing_receiver "$PM/alertmanager" "amtool check-config alertmanager.yml" \
    "$(amtool --version 2>&1 | head -1)"

  # --- Apache httpd 2.4 with a site config of its own (`-f`), Debian's modules ---
  AP="$B/apache"
  mkdir -p "$AP/conf/sites" "$AP/logs" "$AP/htdocs/orders" "$AP/htdocs/status"
  cat >"$AP/conf/httpd.conf" <<EOF
ServerRoot /etc/apache2
Include /etc/apache2/mods-enabled/*.load
Include /etc/apache2/mods-enabled/*.conf
Listen 8080
Listen 8443
PidFile $AP/logs/httpd.pid
ErrorLog $AP/logs/error.log
LogFormat "%h %l %u %t \"%r\" %>s %b %D" timed
User www-data
Group www-data
IncludeOptional $AP/conf/sites/*.conf
EOF
  cat >"$AP/conf/sites/orders.conf" <<EOF
<VirtualHost *:8080>
  ServerName orders.tidewater.io
  ServerAlias orders-internal.tidewater.io
  DocumentRoot $AP/htdocs/orders
  CustomLog $AP/logs/orders-access.log timed

  <Directory $AP/htdocs/orders>
    Options -Indexes +FollowSymLinks
    AllowOverride None
    Require all granted
  </Directory>

  RewriteEngine On
  RewriteRule ^/api/v1/(.*)\$ http://127.0.0.1:9000/v1/\$1 [P,L]
  ProxyPassReverse /api/v1/ http://127.0.0.1:9000/v1/
</VirtualHost>
EOF
  capture batch25 apache2ctl_configtest_module "$AP" "apache2ctl -t -f $AP/conf/httpd.conf" "$(apache2 -v | head -1)"

  # --- BIND 9.18: named-checkconf -z and named-checkzone ---
  NB="$B/dns"
  mkdir -p "$NB/zones"
  cat >"$NB/named.conf" <<EOF
options {
    directory "$NB/zones";
    recursion no;
    allow-transfer { 10.20.0.53; 10.20.1.53; };
    dnssec-validation auto;
    listen-on port 53 { any; };
};

acl "internal" { 10.0.0.0/8; 172.16.0.0/12; };

zone "tidewater.internal" {
    type primary;
    file "db.tidewater.internal";
    allow-query { internal-nets; };
    notify yes;
};

zone "20.10.in-addr.arpa" {
    type primary;
    file "db.10.20";
    allow-query { internal; };
};

zone "staging.tidewater.internal" {
    type primary;
    file "db.staging.tidewater.internal";
    allow-update { key "ddns-staging"; };
};
EOF
  cat >"$NB/zones/db.tidewater.internal" <<'EOF'
$TTL 3600
@       IN SOA  ns1.tidewater.internal. hostmaster.tidewater.internal. (
                2026112801 ; serial
                3600       ; refresh
                900        ; retry
                1209600    ; expire
                300 )      ; negative caching TTL
        IN NS   ns1.tidewater.internal.
        IN NS   ns2.tidewater.internal.
        IN MX   10 mail.tidewater.internal.
ns1     IN A    10.20.0.53
ns2     IN A    10.20.1.53
mail    IN CNAME mx1.tidewater.internal.
mx1     IN A    10.20.0.25
orders  IN A    10.20.4.10
orders  IN CNAME lb-eu-1.tidewater.internal.
billing IN A    10.20.4.11
billing IN A    10.20.4.311
search  IN AAAA 10.20.4.12
api     IN CNAME orders
www.example.com. IN A 203.0.113.10
EOF
  cat >"$NB/zones/db.10.20" <<'EOF'
$TTL 3600
@       IN SOA  ns1.tidewater.internal. hostmaster.tidewater.internal. ( 2026112801 3600 900 1209600 300 )
        IN NS   ns1.tidewater.internal.
53.0    IN PTR  ns1.tidewater.internal.
53.1    IN PTR  ns2.tidewater.internal.
10.4    IN PTR  orders.tidewater.internal.
11.4    IN PTR  billing.tidewater.internal.
EOF
  capture batch25 named_checkconf_zones "$NB" "named-checkconf -z named.conf" "$(named -v 2>/dev/null || named-checkconf -v)"
  cat >"$NB/zones/db.payments.internal" <<'EOF'
$TTL 1h
$ORIGIN payments.internal.
@         IN SOA ns1.payments.internal. hostmaster.payments.internal. ( 2026112803 1h 15m 2w 5m )
          IN NS  ns1.payments.internal.
          IN NS  ns3.payments.internal.
          IN MX  10 mail
          IN MX  20 mx-backup.tidewater.internal.
ns1       IN A   10.30.0.53
mail      IN CNAME mx1
mx1       IN A   10.30.0.25
gateway   IN A   10.30.2.10
gateway   IN A   10.30.2.11
psp-callback IN CNAME gateway
ledger    IN A   10.30.2.20
ledger_db IN A   10.30.2.21
vault     IN A   10.30.2.30
EOF
  capture batch25 named_checkzone_errors "$NB/zones" "named-checkzone -k warn -n fail -m fail -M fail payments.internal db.payments.internal" \
    "$(named-checkconf -v)"
  {
    printf '$TTL 3600\n$ORIGIN tidewater.internal.\n@ IN SOA ns1.tidewater.internal. hostmaster.tidewater.internal. ( 2026112802 3600 900 1209600 300 )\n'
    printf '  IN NS ns1\n  IN NS ns2\nns1 IN A 10.20.0.53\nns2 IN A 10.20.1.53\n'
    i=0
    for rack in a b c d; do
      for n in $(seq 1 64); do
        printf 'node-%s%02d IN A 10.20.%d.%d\n' "$rack" "$n" $((10 + i / 200)) $((i % 200 + 10))
        i=$((i + 1))
      done
    done
    for s in $SVCS; do
      printf '%s IN CNAME lb-eu-1\n_http._tcp.%s IN SRV 10 50 8080 %s\n' "$s" "$s" "$s"
    done
    printf 'lb-eu-1 IN A 10.20.4.2\nlb-eu-1 IN A 10.20.4.3\nkafka IN CNAME kafka-0\nkafka-0 IN A 10.20.6.10\n'
    printf 'legacy-ftp IN CNAME ftp.partner.example.\n_dmarc IN TXT "v=DMARC1; p=quarantine; rua=mailto:dmarc@tidewater.io"\n'
  } >"$NB/zones/db.tidewater.internal.v2"
  capture batch25 named_checkzone_dump "$NB/zones" "named-checkzone -D -o - tidewater.internal db.tidewater.internal.v2" \
    "$(named-checkconf -v)"

  # --- sudoers, sshd, nftables, iptables ---
  SE="$B/hardening"
  mkdir -p "$SE/sudoers.d" "$SE/ssh" "$SE/nftables" "$SE/iptables"
  cat >"$SE/sudoers" <<'EOF'
Defaults	env_reset
Defaults	mail_badpass
Defaults	secure_path="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
Defaults	use_pty

root	ALL=(ALL:ALL) ALL
%sudo	ALL=(ALL:ALL) ALL

@includedir sudoers.d
EOF
  cat >"$SE/sudoers.d/deploy" <<'EOF'
# deploy user: restart the app services and reload nginx, nothing else
Cmnd_Alias APP_SERVICES = /bin/systemctl restart orders-api, \
                          /bin/systemctl restart billing-worker, \
                          /bin/systemctl reload nginx
Cmnd_Alias APP_LOGS = /bin/journalctl -u orders-api *, /bin/journalctl -u billing-worker *

deploy  ALL=(root) NOPASSWD: APP_SERVICES, APP_LOGS
deploy  ALL=(postgres) NOPASSWD /usr/bin/psql -d orders -c *
Defaults:deploy !requiretty
EOF
  cat >"$SE/sudoers.d/monitoring" <<'EOF'
prometheus ALL=(root) NOPASSWD: /usr/sbin/smartctl -A /dev/sd[a-z]
EOF
  chmod 0440 "$SE/sudoers" "$SE/sudoers.d/"*
  capture batch25 visudo_check_include "$SE" "visudo -c -f sudoers" "$(sudo -V | head -1)"

  ssh-keygen -q -t ed25519 -N "" -C "bastion host key" -f "$SE/ssh/ssh_host_ed25519_key"
  mkdir -p /run/sshd
  cat >"$SE/ssh/sshd_config" <<EOF
# bastion.tidewater.io
Port 2222
ListenAddress 0.0.0.0
HostKey $SE/ssh/ssh_host_ed25519_key
Protocol 2
UsePrivilegeSeparation sandbox
PermitRootLogin no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
AuthorizedKeysFile .ssh/authorized_keys /etc/ssh/authorized_keys/%u
AllowGroups ssh-users deploy
ClientAliveInterval 300
ClientAliveCountMax 2
MaxAuthTries 3
X11Forwarding no
AllowTcpForwarding local
Subsystem sftp internal-sftp

Match Group deploy
    ForceCommand /usr/local/bin/deploy-shell
    PermitTTY no
    AllowAgentForwarding no
    PasswordAuthentication yes
    Banner /etc/ssh/deploy-banner
    UseDNS no
EOF
  capture batch25 sshd_test_config "$SE/ssh" "/usr/sbin/sshd -t -f sshd_config" "$(ssh -V 2>&1)"

  cat >"$SE/nftables/ruleset.nft" <<'EOF'
#!/usr/sbin/nft -f
flush ruleset

define ADMIN_NETS = { 10.20.0.0/16, 192.168.50.0/24 }
define WEB_PORTS = { 80, 443 }

table inet filter {
  set blocklist {
    type ipv4_addr
    flags interval, timeout
    elements = { 203.0.113.0/24, 198.51.100.7 }
  }

  chain input {
    type filter hook input priority 0; policy drop;

    ct state established,related accept
    ct state invalid drop
    iif lo accept
    ip saddr @blocklist counter drop

    ip protocol icmp icmp type { echo-request, destination-unreachable } limit rate 10/second accept
    ip6 nexthdr icmpv6 accept

    tcp dport 22 ip saddr $ADMIN_NETS accept
    tcp dport $WEB_PORTS accept
    tcp dport 9100 ip saddr 10.20.0.0/16 accpet
    udp dport 51820 accept comment "wireguard"
    tcp dport 5432 ip saddr $DB_CLIENTS accept

    log prefix "nft-drop: " level warn limit rate 5/minute
  }

  chain forward {
    type filter hook forward priority 0; policy drop
  }

  chain output {
    type filter hook output priority 0; policy accept;
    tcp dport 25 reject with tcp reset
  }
}

table ip nat {
  chain prerouting {
    type nat hook prerouting priority -100;
    tcp dport 8080 dnat to 10.20.4.10:8080
  }
}
EOF
  capture batch25 nft_check_ruleset "$SE/nftables" "nft -c -f ruleset.nft" "$(nft -v)"

  cat >"$SE/iptables/rules.v4" <<'EOF'
# Generated by iptables-save v1.8.9 (nf_tables) on Fri Nov 28 10:12:03 2026
*filter
:INPUT DROP [0:0]
:FORWARD DROP [0:0]
:OUTPUT ACCEPT [0:0]
:RATE-LIMIT - [0:0]
-A INPUT -i lo -j ACCEPT
-A INPUT -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT
-A INPUT -m conntrack --ctstate INVALID -j DROP
-A INPUT -p icmp --icmp-type echo-request -j RATE-LIMIT
-A INPUT -s 10.20.0.0/16 -p tcp -m tcp --dport 22 -j ACCEPT
-A INPUT -p tcp -m multiport --dports 80,443 -j ACCEPT
-A INPUT -s 10.20.0.0/16 -p tcp -m tcp --dport 9100 -j ACCEPT
-A INPUT -p udp -m udp --dport 51820 -j ACCEPT
-A INPUT -p tcp -m tcp --dport 5432 -m iprange --src-range 10.20.4.10-10.20.4.40 -j ACCEPT
-A INPUT -p tcp --syn -m limit --limit 25/second --limit-burst 100 -j ACCEPT
-A INPUT -p tcp -m tcp --dport 8080 -m comment --comment "orders-api canary" -j ACCEPT
-A INPUT -j LOG --log-prefix "iptables-drop: " --log-levl 4
-A RATE-LIMIT -m limit --limit 10/sec -j ACCEPT
-A RATE-LIMIT -j DROP
COMMIT
# Completed on Fri Nov 28 10:12:03 2026
EOF
  capture batch25 iptables_restore_test "$SE/iptables" "iptables-restore --test rules.v4" "$(iptables --version)"

  # --- Puppet 7: parser validate and puppet-lint over a control repo's site modules ---
  PP="$B/puppet"
  mkdir -p "$PP/site/profile/manifests/app" "$PP/site/role/manifests" "$PP/manifests"
  cat >"$PP/manifests/site.pp" <<'EOF'
node /^orders-api-\d+\.tidewater\.internal$/ {
  include role::orders_api
}

node 'bastion.tidewater.internal' {
  include role::bastion
}

node default {
  include role::base
}
EOF
  cat >"$PP/site/role/manifests/orders_api.pp" <<'EOF'
# Orders API application servers
class role::orders_api {
  include profile::base
  include profile::app::orders_api
  include profile::monitoring::node_exporter
}
EOF
  cat >"$PP/site/profile/manifests/app/orders_api.pp" <<'EOF'
# Deploys the orders API as a systemd service behind nginx
class profile::app::orders_api (
  String $version       = '1.14.2',
  Integer $port         = 8080,
  String $database_url,
  Hash $env             = {},
) {
  $service = 'orders-api'

  package { $service:
    ensure => $version,
  }

  file { "/etc/${service}/env":
    ensure  => file,
    owner   => 'root',
    group   => $service,
    mode    => '0640',
    content => epp('profile/app/env.epp', { 'env' => $env + { 'DATABASE_URL' => $database_url } }),
    notify  => Service[$service],
  }

  service { $service:
    ensure    => running,
    enable    => true,
    subscribe => Package[$service]
  }

  if $port < 1024 {
    fail("orders-api must not bind a privileged port (got ${port})"
  }
}
EOF
  cat >"$PP/site/profile/manifests/base.pp" <<'EOF'
# Baseline for every host
class profile::base {
  $admins = ['alice', 'bogdan', 'chidi']

  $admins.each |$user| {
    user { $user:
      ensure     => present,
      managehome => true,
      groups     => ['sudo', 'ssh-users'],
    }
  }

  file { '/etc/motd':
    content => "Managed by Puppet. Host: ${facts['networking']['fqdn']}\n",
  }

  cron { 'logrotate-hourly':
    command => '/usr/sbin/logrotate /etc/logrotate.conf',
    minute  => 15,
    hour    => '*',
  ]
}
EOF
  capture batch25 puppet_parser_validate "$PP" \
    "puppet parser validate manifests/site.pp site/role/manifests/orders_api.pp site/profile/manifests/base.pp site/profile/manifests/app/orders_api.pp" \
    "puppet $(puppet --version)"
  # the services' profiles, written by hand over the years in several styles
  for s in $SVCS; do
    [ "$s" = orders-api ] && continue
    cls=$(echo "$s" | tr '-' '_')
    cat >"$PP/site/profile/manifests/app/$cls.pp" <<EOF
class profile::app::$cls (
    \$version = "latest",
    \$port = 8080,
    \$manage_user = true
) {
    if \$manage_user == true {
      user { "$s": ensure => present, system => true, shell => '/usr/sbin/nologin', home => "/srv/$s" }
    }
    file { "/srv/$s":
      ensure => directory,
      mode => 755,
      owner => "$s",
    }
    file { "/etc/systemd/system/$s.service":
      content => template("profile/$s.service.erb"),
      ensure => present,
    }   
    exec { "reload-systemd-$s":
      command => "systemctl daemon-reload",
      refreshonly => true,
      subscribe => File["/etc/systemd/system/$s.service"]
    }
    service { "$s": ensure => "running", enable => "true", require => Exec["reload-systemd-$s"] }
}
EOF
  done
  capture batch25 puppet_lint_site_modules "$PP" "puppet-lint --relative site/profile/manifests/app" "puppet-lint $(puppet-lint --version | cut -d' ' -f2)"

  # --- Caddy 2.6: validate and adapt a Caddyfile ---
  CD="$B/caddy"
  mkdir -p "$CD/errors" "$CD/adapt"
  cat >"$CD/errors/Caddyfile" <<'EOF'
{
	email ops@tidewater.io
	admin off
}

orders.tidewater.io {
	encode zstd gzip
	reverse_proxi /api/* orders-api-1:8080 orders-api-2:8080 {
		lb_policy least_conn
		health_uri /healthz
	}
	file_server {
		root /srv/www/orders
	}
	log {
		output file /var/log/caddy/orders.log
	}
}
EOF
  capture batch25 caddy_validate_unknown_directive "$CD/errors" "caddy validate --config Caddyfile" "caddy $(caddy version)"
  {
    printf '{\n  email ops@tidewater.io\n  admin localhost:2019\n}\n\n(common) {\n  encode zstd gzip\n  header -Server\n  log {\n    output file /var/log/caddy/access.log\n    format json\n  }\n}\n\n'
    for s in orders-api inventory-api shipping-api catalog-api pricing-api returns-api; do
      printf '%s.tidewater.io {\n    import common\n    reverse_proxy %s-1:8080 %s-2:8080 {\n      lb_policy round_robin\n      health_uri /healthz\n      health_interval 10s\n    }\n    handle_path /static/* {\n        root * /srv/static/%s\n        file_server\n    }\n}\n\n' "$s" "$s" "$s" "$s"
    done
  } >"$CD/adapt/Caddyfile"
  capture batch25 caddy_adapt_unformatted "$CD/adapt" "caddy adapt --config Caddyfile --pretty --validate" "caddy $(caddy version)"

  # --- supervisord 4.2 with a bad program section ---
  SV="$B/supervisor"
  mkdir -p "$SV/conf.d" "$SV/log"
  cat >"$SV/supervisord.conf" <<EOF
[unix_http_server]
file=$SV/supervisor.sock

[supervisord]
logfile=$SV/log/supervisord.log
pidfile=$SV/supervisord.pid
childlogdir=$SV/log
nodaemon=true

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface

[include]
files = conf.d/*.conf
EOF
  cat >"$SV/conf.d/billing.conf" <<'EOF'
[program:billing-worker]
command=/srv/billing-worker/venv/bin/celery -A billing worker --loglevel=INFO --concurrency=4
directory=/srv/billing-worker
user=www-data
numprocs=3
autostart=true
autorestart=unexpected
startsecs=10
stopwaitsecs=600
stopasgroup=true
environment=DJANGO_SETTINGS_MODULE="billing.settings.production",CELERY_BROKER_URL="redis://cache:6379/2"
stdout_logfile=/var/log/billing/worker.log
stderr_logfile=/var/log/billing/worker.err

[program:billing-beat]
command=/srv/billing-worker/venv/bin/celery -A billing beat --loglevel=INFO
directory=/srv/billing-worker
user=www-data
autostart=true
EOF
  capture batch25 supervisord_bad_program "$SV" "supervisord -c supervisord.conf -n" "supervisord $(supervisord -v)"

  # --- crontab of a deploy user ---
  CR="$B/cron"
  mkdir -p "$CR"
  cat >"$CR/deploy.crontab" <<'EOF'
SHELL=/bin/bash
MAILTO=ops@tidewater.io
PATH=/usr/local/bin:/usr/bin:/bin

# m h  dom mon dow   command
*/5 * * * *   /srv/ops/bin/check-queue-depth --max 500
15 2 * * *    /srv/ops/bin/pg-backup --db orders --to s3://tidewater-backups/orders
30 2 * * 1-5  /srv/ops/bin/rotate-invoices
0 */6 * * *   /srv/ops/bin/refresh-search-index >> /var/log/search-reindex.log 2>&1
60 3 * * *    /srv/ops/bin/vacuum-analyze orders
0 4 * * 8     /srv/ops/bin/weekly-report --mail finance@tidewater.io
@daily        /srv/ops/bin/prune-docker-images
EOF
  capture batch25 crontab_install_errors "$CR" "crontab deploy.crontab" "cron 3.0pl1-162"

  # --- Ansible 2.14: syntax check of a playbook and an inventory graph ---
  AN="$B/ansible"
  mkdir -p "$AN/inventories/prod/group_vars" "$AN/roles/orders_api/tasks" "$AN/roles/orders_api/handlers" \
    "$AN/roles/orders_api/templates" "$AN/roles/common/tasks"
  cat >"$AN/ansible.cfg" <<'EOF'
[defaults]
inventory = inventories/prod
roles_path = roles
retry_files_enabled = False
nocows = 1
EOF
  cat >"$AN/site.yml" <<'EOF'
---
- name: Baseline for every host
  hosts: all
  become: true
  roles:
    - common

- name: Deploy the orders API
  hosts: orders_api
  become: true
  serial: "30%"
  vars:
    orders_api_version: "1.14.2"
  roles:
    - orders_api
EOF
  cat >"$AN/roles/common/tasks/main.yml" <<'EOF'
---
- name: Install base packages
  ansible.builtin.apt:
    name: [chrony, unattended-upgrades, prometheus-node-exporter]
    state: present
    update_cache: true

- name: Ensure chrony is running
  ansible.builtin.service:
    name: chrony
    state: started
    enabled: true
EOF
  cat >"$AN/roles/orders_api/tasks/main.yml" <<'EOF'
---
- name: Create the service user
  ansible.builtin.user:
    name: orders
    system: true
    shell: /usr/sbin/nologin

- name: Install the release
  ansible.builtin.unarchive:
    src: "https://artifacts.tidewater.io/orders-api/{{ orders_api_version }}/orders-api.tar.gz"
    dest: /srv/orders-api
    remote_src: true
    owner: orders
  notify: restart orders-api

- name: Render the environment file
  ansible.builtin.template:
    src: env.j2
    dest: /etc/orders-api/env
    mode: "0640"
   notify: restart orders-api

- name: Enable the service
  ansible.builtin.systemd:
    name: orders-api
    enabled: true
    daemon_reload: true
EOF
  printf -- '---\n- name: restart orders-api\n  ansible.builtin.systemd:\n    name: orders-api\n    state: restarted\n' \
    >"$AN/roles/orders_api/handlers/main.yml"
  cat >"$AN/inventories/prod/hosts" <<'EOF'
[orders_api]
orders-api-[1:4].tidewater.internal

[billing]
billing-1.tidewater.internal
billing-2.tidewater.internal ansible_host=10.20.4.22

[db]
pg-primary.tidewater.internal pg_role=primary
pg-replica-[1:2].tidewater.internal pg_role=replica

[app:children]
orders_api
billing

[prod:children]
app
db
EOF
  printf -- '---\nntp_servers:\n  - 0.debian.pool.ntp.org\n  - 1.debian.pool.ntp.org\n' >"$AN/inventories/prod/group_vars/all.yml"
  capture batch25 ansible_playbook_syntax_check "$AN" "ansible-playbook --syntax-check site.yml" \
    "$(ansible --version 2>/dev/null | head -1)"
  cat >>"$AN/inventories/prod/hosts" <<'EOF'

[monitoring]
prometheus-1.tidewater.internal
alertmanager-[1:3.tidewater.internal

[edge]
lb-eu-1.tidewater.internal ansible_host=10.20.4.2 keepalived_priority=150
lb-eu-2.tidewater.internal ansible_host=10.20.4.3 keepalived_priority=100
EOF
  cat >"$AN/inventories/prod/bastion.yml" <<'EOF'
all:
  children:
    bastion:
      hosts:
        bastion.tidewater.internal:
          ansible_port: 2222
      vars
        ansible_user: deploy
EOF
  capture batch25 ansible_inventory_graph_errors "$AN" "ansible-inventory -i inventories/prod --graph" \
    "$(ansible --version 2>/dev/null | head -1)"

  # --- yamllint --strict over a service's Kubernetes manifests ---
  YK="$B/k8s"
  mkdir -p "$YK/base"
  cat >"$YK/.yamllint" <<'EOF'
extends: default
rules:
  line-length:
    max: 120
  comments:
    min-spaces-from-content: 1
EOF
  for s in $SVCS; do
    cat >"$YK/base/$s-deployment.yaml" <<EOF
apiVersion: apps/v1
kind: Deployment
metadata:
  name: $s
  labels:
    app.kubernetes.io/name: $s
    app.kubernetes.io/part-of: tidewater
  annotations:
    deployment.kubernetes.io/revision: "14"
    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"$s","namespace":"prod"}}'
spec:
  replicas: 3
  selector:
    matchLabels:
      app.kubernetes.io/name: $s
  template:
    metadata:
      labels:
        app.kubernetes.io/name: $s
    spec:
      containers:
      - name: $s
        image: registry.tidewater.io/$s:1.0.0
        ports:
        - containerPort: 8080
          name: http
        env:
        - name: LOG_FORMAT
          value: json
        - name: FEATURE_NEW_CHECKOUT
          value: "on"
        readinessProbe:
          httpGet: {path: /healthz, port: http}
          initialDelaySeconds: 5
        resources:
          limits: { memory: 512Mi, cpu: "1" }
        securityContext:
          readOnlyRootFilesystem: yes
          runAsNonRoot: true
EOF
    cat >"$YK/base/$s-service.yaml" <<EOF
---
apiVersion: v1
kind: Service
metadata:
  name: $s
spec:
  selector:
    app.kubernetes.io/name: $s
  ports:
    - name: http
      port: 80
      targetPort: http   
EOF
  done
  cat >"$YK/base/kustomization.yaml" <<'EOF'
---
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: prod
resources:
  - orders-api-deployment.yaml
  - orders-api-service.yaml
  - orders-api-deployment.yaml
configMapGenerator:
  - name: orders-api-config
    literals:
      - LOG_LEVEL=info
      - LOG_LEVEL=debug
EOF
  capture batch25 yamllint_strict_k8s "$YK" "yamllint --strict base/" "yamllint $(yamllint --version | cut -d' ' -f2)"

  # --- OpenAPI: spectral and redocly over a hand-grown API description ---
  OA="$B/openapi"
  mkdir -p "$OA"
  printf 'extends: ["spectral:oas"]\n' >"$OA/.spectral.yaml"
  {
    cat <<'EOF'
openapi: 3.0.3
info:
  title: Tidewater Orders API
  version: 1.14.2
servers:
  - url: https://api.tidewater.io/v1
tags:
  - name: orders
  - name: shipments
  - name: returns
paths:
EOF
    for r in orders shipments returns invoices refunds customers addresses carts coupons webhooks; do
      sing=${r%s}
      cat <<EOF
  /$r:
    get:
      tags: [orders]
      summary: List $r
      parameters:
        - name: page
          in: query
          schema: {type: integer}
        - name: per_page
          in: query
          schema: {type: integer, maximum: 200}
      responses:
        "200":
          description: A page of $r
          content:
            application/json:
              schema:
                type: array
                items:
                  \$ref: "#/components/schemas/${sing^}"
    post:
      operationId: create${sing^}
      summary: Create a $sing
      requestBody:
        content:
          application/json:
            schema:
              \$ref: "#/components/schemas/${sing^}Input"
      responses:
        "201":
          description: Created
  /$r/{id}:
    get:
      operationId: get${sing^}
      description: Fetch one $sing by id.
      responses:
        "200":
          description: The $sing
          content:
            application/json:
              schema:
                \$ref: "#/components/schemas/${sing^}"
        "404":
          description: Not found
    delete:
      operationId: get${sing^}
      responses:
        "204":
          description: Deleted
EOF
    done
    printf 'components:\n  schemas:\n'
    for r in Order Shipment Return Invoice Refund Customer Addresse Cart Coupon Webhook; do
      cat <<EOF
    $r:
      type: object
      required: [id]
      properties:
        id: {type: string, format: uuid}
        created_at: {type: string, format: date-time}
        status: {type: string, enum: [draft, open, closed, open]}
        total: {type: number, example: "12.50"}
EOF
    done
    printf '    OrderInput:\n      type: object\n      properties:\n        items: {type: array}\n'
  } >"$OA/openapi.yaml"
  capture batch25 spectral_lint_openapi "$OA" "$NT/spectral lint openapi.yaml" "spectral $(nver @stoplight/spectral-cli)"
  cat >"$OA/redocly.yaml" <<'EOF'
extends:
  - recommended
rules:
  operation-4xx-response: error
  no-unused-components: warn
EOF
  capture batch25 redocly_lint_openapi "$OA" "$NT/redocly lint openapi.yaml --format=stylish" "redocly $(nver @redocly/cli)"

  # --- ajv-cli: service configs against their JSON schema ---
  AJ="$B/service-configs"
  mkdir -p "$AJ/schema" "$AJ/services"
  cat >"$AJ/schema/service.schema.json" <<'EOF'
{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "$id": "https://schemas.tidewater.io/service.json",
  "title": "Service deployment descriptor",
  "type": "object",
  "required": ["name", "owner", "replicas", "resources", "healthcheck"],
  "additionalProperties": false,
  "properties": {
    "name": { "type": "string", "pattern": "^[a-z][a-z0-9-]{2,40}$" },
    "owner": { "type": "string", "format": "email" },
    "replicas": { "type": "integer", "minimum": 1, "maximum": 20 },
    "tier": { "enum": ["critical", "standard", "batch"] },
    "resources": {
      "type": "object",
      "required": ["memory", "cpu"],
      "properties": {
        "memory": { "type": "string", "pattern": "^[0-9]+(Mi|Gi)$" },
        "cpu": { "type": "string", "pattern": "^[0-9]+m?$" }
      }
    },
    "healthcheck": {
      "type": "object",
      "required": ["path"],
      "properties": {
        "path": { "type": "string", "pattern": "^/" },
        "interval_seconds": { "type": "integer", "minimum": 5 }
      }
    },
    "env": { "type": "object", "additionalProperties": { "type": "string" } }
  }
}
EOF
  printf '{\n  "name": "orders-api",\n  "owner": "checkout@tidewater.io",\n  "replicas": 4,\n  "tier": "critical",\n  "resources": { "memory": "512Mi", "cpu": "500m" },\n  "healthcheck": { "path": "/healthz", "interval_seconds": 10 },\n  "env": { "LOG_LEVEL": "info" }\n}\n' >"$AJ/services/orders-api.json"
  printf '{\n  "name": "billing-worker",\n  "owner": "payments team",\n  "replicas": 0,\n  "tier": "critical",\n  "resources": { "memory": "1G", "cpu": "1" },\n  "healthcheck": { "path": "healthz", "interval_seconds": 2 },\n  "env": { "CONCURRENCY": 4 }\n}\n' >"$AJ/services/billing-worker.json"
  printf '{\n  "name": "Search_Indexer",\n  "owner": "search@tidewater.io",\n  "replicas": 2,\n  "tier": "best-effort",\n  "resources": { "memory": "2Gi" },\n  "health_check": { "path": "/ready" }\n}\n' >"$AJ/services/search-indexer.json"
  printf '{\n  "name": "webhook-relay",\n  "owner": "integrations@tidewater.io",\n  "replicas": 2,\n  "resources": { "memory": "256Mi", "cpu": "250m" },\n  "healthcheck": { "path": "/healthz" }\n}\n' >"$AJ/services/webhook-relay.json"
  capture batch25 ajv_validate_service_configs "$AJ" \
    "$NT/ajv validate -s schema/service.schema.json -d 'services/*.json' --all-errors -c ajv-formats --errors=text" \
    "ajv-cli $(nver ajv-cli)"

  # --- cfn-lint over a CloudFormation template ---
  CF="$B/cloudformation"
  mkdir -p "$CF/templates"
  cat >"$CF/templates/orders-api.yaml" <<'EOF'
AWSTemplateFormatVersion: "2010-09-09"
Description: Orders API on ECS Fargate behind an ALB

Parameters:
  Environment:
    Type: String
    AllowedValues: [staging, prod]
  ImageTag:
    Type: String
  VpcId:
    Type: AWS::EC2::VPC::Id
  PrivateSubnets:
    Type: List<AWS::EC2::Subnet::Id>
  DesiredCount:
    Type: Number
    Default: "three"

Conditions:
  IsProd: !Equals [!Ref Environment, prod]

Resources:
  LogGroup:
    Type: AWS::Logs::LogGroup
    Properties:
      LogGroupName: !Sub /ecs/orders-api-${Environment}
      RetentionInDays: 45

  TaskRole:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Principal: { Service: ecs-tasks.amazonaws.com }
            Action: sts:AssumeRole
      Policies:
        - PolicyName: orders-queue
          PolicyDocument:
            Version: "2012-10-17"
            Statement:
              - Effect: Allow
                Action: [sqs:SendMessage, sqs:ReceiveMesage]
                Resource: !GetAtt OrdersQueue.Arn

  TaskDefinition:
    Type: AWS::ECS::TaskDefinition
    Properties:
      Family: orders-api
      Cpu: "512"
      Memory: "1024"
      NetworkMode: awsvpc
      RequiresCompatibilities: [FARGATE]
      TaskRoleArn: !Ref TaskRole
      ContainerDefinitions:
        - Name: orders-api
          Image: !Sub registry.tidewater.io/orders-api:${ImageTag}
          PortMappings:
            - ContainerPort: 8080
          LogConfiguration:
            LogDriver: awslogs
            Options:
              awslogs-group: !Ref LogGroup
              awslogs-region: !Ref AWS::Region
              awslogs-stream-prefix: orders

  Service:
    Type: AWS::ECS::Service
    Properties:
      Cluster: !ImportValue tidewater-ecs-cluster
      TaskDefinition: !Ref TaskDefinition
      DesiredCount: !If [IsProd, !Ref DesiredCount, 1]
      LaunchType: FARGATE
      NetworkConfiguration:
        AwsvpcConfiguration:
          Subnets: !Ref PrivateSubnets
          SecurityGroups: [!Ref ServiceSecurityGroup]
          AssignPublicIp: DISABLED
      HealthCheckGracePeriodSeconds: 30

  ServiceSecurityGroup:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: orders-api tasks
      VpcId: !Ref VpcId
      SecurityGroupIngress:
        - IpProtocol: tcp
          FromPort: 8080
          ToPort: 8080
          CidrIp: 10.20.0.0/16

Outputs:
  ServiceName:
    Value: !GetAtt Service.Name
    Export:
      Name: !Sub orders-api-${Environment}-service
  QueueUrl:
    Value: !Ref OrdersQueue
EOF
  capture batch25 cfn_lint_template "$CF" "cfn-lint templates/orders-api.yaml" "$(cfn-lint --version)"

  # release_tree DIR: a deployed release of the orders API (sources, migrations, static assets)
  release_tree() {
    local d="$1" m f
    mkdir -p "$d/app/orders" "$d/app/payments" "$d/migrations" "$d/static/js" "$d/static/css" "$d/static/img" "$d/config"
    for m in api models serializers services tasks views urls admin signals permissions filters pagination; do
      printf '"""orders.%s"""\n\nimport logging\n\nlogger = logging.getLogger(__name__)\n' "$m" >"$d/app/orders/$m.py"
      printf '"""payments.%s"""\n\nfrom decimal import Decimal\n\nZERO = Decimal("0.00")\n' "$m" >"$d/app/payments/$m.py"
    done
    for m in $(seq -w 1 180); do
      printf '# generated migration %s\nfrom django.db import migrations\n\n\nclass Migration(migrations.Migration):\n    dependencies = []\n    operations = []\n' "$m" \
        >"$d/migrations/0${m}_auto.py"
    done
    for f in checkout cart account orders returns tracking search vendor runtime polyfills; do
      for h in 3f9a1c 8b2e77 c41d09 e7705a; do
        printf '/* %s */\n(()=>{"use strict";console.debug("%s")})();\n' "$f" "$f" >"$d/static/js/$f.$h.js"
        printf '.%s{display:block}\n' "$f" >"$d/static/css/$f.$h.css"
      done
    done
    for f in logo logo-dark hero-banner empty-cart parcel truck returns-box favicon-32 favicon-192 apple-touch; do
      head -c 2048 /dev/zero | tr '\0' 'x' >"$d/static/img/$f.png"
    done
    printf 'DEBUG = False\nALLOWED_HOSTS = ["orders.tidewater.io"]\n' >"$d/config/settings_production.py"
    printf 'orders-api 1.14.2\n' >"$d/VERSION"
  }

  # --- restic 0.14: a verbose backup to a local repository, then a wrong password ---
  RS="$B/restic"
  mkdir -p "$RS"
  release_tree "$RS/srv/orders-api/releases/1.14.2"
  export RESTIC_PASSWORD="correct horse battery staple"
  restic -r "$RS/repo" init --no-cache >/dev/null 2>&1
  capture batch25 restic_backup_verbose "$RS" \
    "restic -r repo backup --no-cache --verbose=2 --host orders-api-1 --tag release-1.14.2 srv/orders-api/releases/1.14.2" \
    "$(restic version)"
  capture batch25 restic_snapshots_wrong_password "$RS" \
    "RESTIC_PASSWORD='correct horse battery stapler' restic -r repo snapshots --no-cache --host orders-api-1" "$(restic version)"
  unset RESTIC_PASSWORD

  # --- borg 1.2: create with --list, one path missing ---
  BG="$B/borg"
  mkdir -p "$BG"
  release_tree "$BG/srv/orders-api/releases/1.14.2"
  mkdir -p "$BG/etc/orders-api" && printf 'DATABASE_URL=postgres://orders@pg-primary/orders\n' >"$BG/etc/orders-api/env"
  export BORG_PASSPHRASE="nightly-backups-2026" BORG_BASE_DIR="$BG/.borg-home" BORG_RELOCATED_REPO_ACCESS_IS_OK=yes
  borg init --encryption=repokey "$BG/repo" >/dev/null 2>&1
  capture batch25 borg_create_missing_path "$BG" \
    "borg create --list --stats --compression zstd,6 repo::orders-api-1-2026-11-28 etc/orders-api srv/orders-api/releases/1.14.2/app var/lib/orders-api/uploads srv/orders-api/releases/1.14.2/migrations srv/orders-api/releases/1.14.2/static" \
    "$(borg --version)"
  unset BORG_PASSPHRASE BORG_BASE_DIR BORG_RELOCATED_REPO_ACCESS_IS_OK

  # --- gpg: a release's checksum file changed after it was signed ---
  GP="$B/release-signing"
  mkdir -p "$GP/gnupg" "$GP/dist" && chmod 700 "$GP/gnupg"
  export GNUPGHOME="$GP/gnupg"
  gpg --batch --passphrase '' --quick-gen-key 'Tidewater Release Signing <release@tidewater.io>' ed25519 sign 0 >/dev/null 2>&1
  for a in orders-api_1.14.2_amd64.deb orders-api_1.14.2_arm64.deb orders-api-1.14.2.tar.gz; do
    head -c 40960 /dev/urandom >"$GP/dist/$a"
  done
  (cd "$GP/dist" && sha256sum orders-api* >SHA256SUMS && gpg --batch --armor --detach-sign --output SHA256SUMS.asc SHA256SUMS 2>/dev/null)
  head -c 40960 /dev/urandom >"$GP/dist/orders-api_1.14.2_arm64.deb"
  (cd "$GP/dist" && sha256sum orders-api* >SHA256SUMS)
  capture batch25 gpg_verify_bad_signature "$GP/dist" "gpg --verify SHA256SUMS.asc SHA256SUMS" "$(gpg --version | head -1)"
  gpgconf --kill gpg-agent
  unset GNUPGHOME

  # --- openssl and certtool: a chain with a missing intermediate, an expired and a mismatched cert ---
  TL="$B/tls"
  mkdir -p "$TL"
  (
    cd "$TL" || exit 1
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout root.key -out root.pem -days 3650 \
      -subj "/O=Tidewater/CN=Tidewater Root CA 2024" -addext basicConstraints=critical,CA:TRUE >/dev/null 2>&1
    for ica in "intermediate:Tidewater Issuing CA 2025" "old-intermediate:Tidewater Issuing CA 2022"; do
      n=${ica%%:*}
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$n.key" -out "$n.csr" -subj "/O=Tidewater/CN=${ica#*:}" >/dev/null 2>&1
      printf 'basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n' >"$n.ext"
      openssl x509 -req -in "$n.csr" -CA root.pem -CAkey root.key -CAcreateserial -days 1825 -extfile "$n.ext" -out "$n.pem" >/dev/null 2>&1
    done
    for leaf in "orders:intermediate" "billing:old-intermediate"; do
      n=${leaf%%:*} ca=${leaf#*:}
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$n.key" -out "$n.csr" \
        -subj "/O=Tidewater/CN=$n.tidewater.io" >/dev/null 2>&1
      printf 'subjectAltName=DNS:%s.tidewater.io,DNS:%s-internal.tidewater.io\nextendedKeyUsage=serverAuth\n' "$n" "$n" >"$n.ext"
      openssl x509 -req -in "$n.csr" -CA "$ca.pem" -CAkey "$ca.key" -CAcreateserial -days 397 -extfile "$n.ext" -out "$n.crt" >/dev/null 2>&1
    done
    certtool --generate-privkey --key-type ecdsa --outfile legacy-api.key >/dev/null 2>&1
    cat >legacy-api.tmpl <<'EOF'
organization = "Tidewater"
cn = "legacy-api.tidewater.io"
dns_name = "legacy-api.tidewater.io"
tls_www_server
signing_key
activation_date = "2024-03-01 00:00:00"
expiration_date = "2025-03-01 00:00:00"
EOF
    certtool --generate-certificate --load-privkey legacy-api.key --load-ca-certificate intermediate.pem \
      --load-ca-privkey intermediate.key --template legacy-api.tmpl --outfile legacy-api.crt >/dev/null 2>&1
    cat legacy-api.crt intermediate.pem >legacy-api-chain.pem
  )
  capture batch25 openssl_verify_chain "$TL" \
    "openssl verify -show_chain -CAfile root.pem -untrusted intermediate.pem orders.crt billing.crt legacy-api.crt" "$(openssl version)"
  capture batch25 openssl_pkcs12_key_mismatch "$TL" \
    "openssl pkcs12 -export -in orders.crt -inkey billing.key -certfile intermediate.pem -name orders -passout pass:changeit -out orders.p12" \
    "$(openssl version)"
  capture batch25 certtool_verify_expired_chain "$TL" \
    "certtool --verify --load-ca-certificate root.pem --infile legacy-api-chain.pem" "$(certtool --version | head -1)"

  # --- a deploy script driven by awk and sed that stops half-way ---
  DS="$B/deploy-script"
  mkdir -p "$DS/scripts" "$DS/inventory" "$DS/nginx" "$DS/build"
  cat >"$DS/inventory/staging.txt" <<'EOF'
# host                          role      weight  zone
orders-api-1.staging.internal   app       5       eu-west-1a
orders-api-2.staging.internal   app       5       eu-west-1b
orders-api-3.staging.internal   app       2       eu-west-1c
billing-1.staging.internal      worker    1       eu-west-1a
pg-primary.staging.internal     db        0       eu-west-1a
EOF
  cat >"$DS/nginx/orders.conf.in" <<'EOF'
# orders-api, release __RELEASE__, deployed __DEPLOYED_AT__
upstream orders_api {
    least_conn;
__UPSTREAMS__
}

server {
    listen 443 ssl http2;
    server_name orders.staging.tidewater.io;
    add_header X-Release "__RELEASE__" always;
    location / {
        proxy_pass http://orders_api;
    }
}
EOF
  cat >"$DS/scripts/deploy.sh" <<'EOF'
#!/usr/bin/env bash
# Renders the nginx upstreams for an environment and rolls the release out host by host.
set -euo pipefail

ENVIRONMENT=${1:?usage: deploy.sh ENVIRONMENT RELEASE}
RELEASE=${2:?usage: deploy.sh ENVIRONMENT RELEASE}
INVENTORY="inventory/${ENVIRONMENT}.txt"
OUT="build/${ENVIRONMENT}"

echo "==> deploying orders-api ${RELEASE} to ${ENVIRONMENT}"
mkdir -p "$OUT"

app_hosts=$(awk '!/^#/ && $2 == "app" { print $1 }' "$INVENTORY")
echo "==> $(echo "$app_hosts" | wc -l) app hosts: $(echo $app_hosts)"

awk '!/^#/ && $2 == "app" { printf "    server %s:8080 weight=%d max_fails=3 fail_timeout=10s; # %s\n", $1, $3, $4 }' \
  "$INVENTORY" >"$OUT/upstreams.conf"
echo "==> wrote $OUT/upstreams.conf ($(wc -l <"$OUT/upstreams.conf") servers)"

total_weight=$(awk '!/^#/ && $2 == "app" { w += $3 } END { print w }' "$INVENTORY")
echo "==> total upstream weight: $total_weight"

cp nginx/orders.conf.in "$OUT/orders.conf"
sed -i -e "/__UPSTREAMS__/{r $OUT/upstreams.conf" -e 'd}' "$OUT/orders.conf"
sed -i "s/__DEPLOYED_AT__/$(date -u +%Y-%m-%dT%H:%MZ)/" "$OUT/orders.conf"
sed -i "s/__RELEASE__/${RELEASE}/g" "$OUT/orders.conf"
echo "==> rendered $OUT/orders.conf"

for host in $app_hosts; do
  echo "==> $host: draining"
  echo "==> $host: installing ${RELEASE}"
done
echo "==> done"
EOF
  chmod +x "$DS/scripts/deploy.sh"
  capture batch25 deploy_script_sed_error "$DS" "./scripts/deploy.sh staging release/2026.11.28-rc2" "$(bash --version | head -1)"

  # --- make deploy: templates rendered by envsubst, then every check before the rollout ---
  MD="$B/ops-deploy"
  mkdir -p "$MD/templates" "$MD/rules"
  cat >"$MD/Makefile" <<'EOF'
ENV ?= staging
BUILD := build/$(ENV)
RULES := $(sort $(wildcard rules/*.yml))

export CLUSTER := eu-west-1-$(ENV)
export SCRAPE_INTERVAL := 30s
export ALERTMANAGER_URL := alertmanager.$(ENV).internal:9093

.PHONY: render check-config check-rules deploy

render:
	@mkdir -p $(BUILD)
	@for t in templates/*.tmpl; do \
	  out=$(BUILD)/$$(basename $$t .tmpl); \
	  envsubst < $$t > $$out && echo "render $$t -> $$out"; \
	done

check-config: render
	promtool check config --syntax-only $(BUILD)/prometheus.yml

check-rules:
	promtool check rules $(RULES)

deploy: check-config check-rules
	@echo "rolling out prometheus config to $(ENV)"
	rsync -a $(BUILD)/ rules prometheus.$(ENV).internal:/etc/prometheus/
EOF
  cat >"$MD/templates/prometheus.yml.tmpl" <<'EOF'
global:
  scrape_interval: ${SCRAPE_INTERVAL}
  external_labels:
    cluster: ${CLUSTER}
alerting:
  alertmanagers:
    - static_configs:
        - targets: ["${ALERTMANAGER_URL}"]
rule_files:
  - /etc/prometheus/rules/*.yml
scrape_configs:
  - job_name: services
    file_sd_configs:
      - files: ["/etc/prometheus/targets/*.json"]
EOF
  printf 'route:\n  receiver: ops-${ENV_NAME}\nreceivers:\n  - name: ops-${ENV_NAME}\n' >"$MD/templates/alertmanager.yml.tmpl"
  printf '[{"targets": ["${CLUSTER}-node-exporter:9100"]}]\n' >"$MD/templates/targets.json.tmpl"
  for s in $SVCS; do
    m=$(echo "$s" | tr '-' '_')
    cat >"$MD/rules/$s-availability.yml" <<EOF
groups:
  - name: $s-availability
    rules:
      - alert: ${m}_down
        expr: up{job="$s"} == 0
        for: 5m
        labels: {severity: critical, service: $s}
EOF
    cat >"$MD/rules/$s-errors.yml" <<EOF
groups:
  - name: $s-errors
    rules:
      - record: job:${m}_errors:ratio_rate5m
        expr: sum(rate(http_requests_total{job="$s",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="$s"}[5m]))
      - alert: ${m}_error_ratio_high
        expr: job:${m}_errors:ratio_rate5m > 0.02
        for: 10m
        labels: {severity: warning, service: $s}
EOF
    cat >"$MD/rules/$s-latency.yml" <<EOF
groups:
  - name: $s-latency
    rules:
      - record: job:${m}_latency:p99_5m
        expr: histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="$s"}[5m])))
      - alert: ${m}_latency_high
        expr: job:${m}_latency:p99_5m > 1
        for: 15m
        labels: {severity: warning, service: $s}
EOF
    cat >"$MD/rules/$s-saturation.yml" <<EOF
groups:
  - name: $s-saturation
    rules:
      - alert: ${m}_memory_high
        expr: container_memory_working_set_bytes{container="$s"} / container_spec_memory_limit_bytes{container="$s"} > 0.9
        for: 10m
        labels: {severity: warning, service: $s}
      - alert: ${m}_cpu_throttled
        expr: rate(container_cpu_cfs_throttled_periods_total{container="$s"}[5m]) > 0.25
        for: 15m
        labels: {severity: info, service: $s}
EOF
    cat >"$MD/rules/$s-slo.yml" <<EOF
groups:
  - name: $s-slo
    interval: 1m
    rules:
      - record: slo:${m}_availability:ratio_rate30d
        expr: 1 - (sum(increase(http_requests_total{job="$s",code=~"5.."}[30d])) / sum(increase(http_requests_total{job="$s"}[30d])))
      - alert: ${m}_error_budget_burn
        expr: (1 - slo:${m}_availability:ratio_rate30d) > (14.4 * (1 - 0.999))
        for: 2m
        labels: {severity: critical, service: $s}
EOF
    cat >"$MD/rules/$s-deps.yml" <<EOF
groups:
  - name: $s-deps
    rules:
      - alert: ${m}_db_pool_exhausted
        expr: db_pool_connections_in_use{service="$s"} >= db_pool_connections_max{service="$s"}
        for: 5m
        labels: {severity: warning, service: $s}
EOF
    cat >"$MD/rules/$s-queue.yml" <<EOF
groups:
  - name: $s-queue
    rules:
      - alert: ${m}_queue_backlog
        expr: sum(rabbitmq_queue_messages_ready{queue=~"$s[.].*"}) > 1000
        for: 10m
        labels: {severity: warning, service: $s}
EOF
    cat >"$MD/rules/$s-certs.yml" <<EOF
groups:
  - name: $s-certs
    rules:
      - alert: ${m}_certificate_expiring
        expr: probe_ssl_earliest_cert_expiry{job="blackbox",service="$s"} - time() < 14 * 86400
        for: 1h
        labels: {severity: ticket, service: $s}
EOF
    cat >"$MD/rules/$s-restarts.yml" <<EOF
groups:
  - name: $s-restarts
    rules:
      - alert: ${m}_restarting
        expr: increase(kube_pod_container_status_restarts_total{container="$s"}[30m]) > 3
        labels: {severity: warning, service: $s}
EOF
  done
  cat >"$MD/rules/pricing-api-slo.yml" <<'EOF'
groups:
  - name: pricing-api-slo
    interval: 1m
    rules:
      - record: slo:pricing_api_availability:ratio_rate30d
        expr: 1 - (sum(increase(http_requests_total{job="pricing-api",code=~"5.."}[30d])) / sum(increase(http_requests_total{job="pricing-api"}[30d]))
      - alert: pricing_api_error_budget_burn
        expr: (1 - slo:pricing_api_availability:ratio_rate30d) > (14.4 * (1 - 0.999))
        for: 2m
        labels: {severity: critical, service: pricing-api}
      - alert: pricing_api_stale_prices
        expr: time() - pricing_last_refresh_timestamp_seconds > 15m
        labels: {severity: warning, service: pricing-api}
EOF
  capture batch25 make_deploy_failed_check "$MD" "make deploy ENV=staging" "$(make --version | head -1)"

  # --- a service journal (exported and imported as a journal file) ending in a failed unit ---
  JN="$B/journal"
  mkdir -p "$JN"
  python3 - "$JN/export.txt" <<'EOF'
import sys

t0 = 1795852800_000000  # 2026-11-28 08:00:00 UTC
out = []
seq = 0


def ts(sec):
    s = int(sec)
    return f"[2026-11-28 08:{s // 60:02d}:{s % 60:02d} +0000]"


def entry(sec, ident, pid, msg, prio=6, unit="orders-api.service", manager=False):
    global seq
    seq += 1
    fields = {
        "__CURSOR": f"s=7c1e;i={seq:x}",
        "__REALTIME_TIMESTAMP": str(t0 + int(sec * 1_000_000)),
        "__MONOTONIC_TIMESTAMP": str(90_000_000 + int(sec * 1_000_000)),
        "_BOOT_ID": "4b1f2c3d5e6f708192a3b4c5d6e7f809",
        "_MACHINE_ID": "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
        "_HOSTNAME": "orders-api-2",
        "PRIORITY": str(prio),
        "SYSLOG_IDENTIFIER": ident,
        "_PID": str(pid),
        "MESSAGE": msg,
    }
    if manager:
        fields.update({"_SYSTEMD_UNIT": "init.scope", "UNIT": unit, "_COMM": "systemd"})
    else:
        fields.update({"_SYSTEMD_UNIT": unit, "_COMM": "gunicorn"})
    out.append("".join(f"{k}={v}\n" for k, v in fields.items()) + "\n")


paths = ["/v1/orders", "/v1/orders/ord_{n}", "/v1/orders/ord_{n}/items", "/v1/carts/crt_{n}", "/healthz"]
sec = 0.0
entry(sec, "systemd", 1, "Started orders-api.service - Orders API (gunicorn).", manager=True)
entry(0.4, "gunicorn", 2210, f"{ts(0.4)} [2210] [INFO] Starting gunicorn 20.1.0")
entry(0.4, "gunicorn", 2210, f"{ts(0.4)} [2210] [INFO] Listening at: http://0.0.0.0:8080 (2210)")
entry(0.4, "gunicorn", 2210, f"{ts(0.4)} [2210] [INFO] Using worker: gthread")
for w in range(4):
    entry(0.5 + w * 0.1, "gunicorn", 2214 + w, f"{ts(0.5)} [{2214 + w}] [INFO] Booting worker with pid: {2214 + w}")
sec = 2.0
for i in range(292):
    sec += 1.7 + (i % 7) * 0.3
    p = paths[i % len(paths)].format(n=88120 + i * 7)
    method = "POST" if i % 5 == 0 and i % 3 == 1 else "GET"
    status = 201 if method == "POST" else (404 if i % 53 == 17 else 200)
    ms = 18 + (i * 37) % 140
    if i % 61 == 40:
        entry(sec, "gunicorn", 2214 + i % 4,
              f"WARNING orders.db slow query ({1200 + i} ms): SELECT ... FROM orders_order WHERE customer_id = $1 ORDER BY created_at DESC", prio=4)
        continue
    entry(sec, "gunicorn", 2214 + i % 4, f'10.20.4.{2 + i % 2} - - "{method} {p} HTTP/1.1" {status} {300 + (i * 53) % 4000} {ms}ms')
sec += 3
tb = [
    "ERROR orders.db could not acquire connection from pool (attempt 3/3)",
    "Traceback (most recent call last):",
    '  File "/srv/orders-api/app/orders/db.py", line 48, in connect',
    "    return psycopg2.connect(dsn, connect_timeout=5)",
    '  File "/srv/orders-api/venv/lib/python3.11/site-packages/psycopg2/__init__.py", line 122, in connect',
    "    conn = _connect(dsn, connection_factory=connection_factory, **kwasync)",
    'psycopg2.OperationalError: connection to server at "pg-primary.tidewater.internal" (10.20.5.10), port 5432 failed: FATAL:  remaining connection slots are reserved for non-replication superuser connections',
]
for line in tb:
    entry(sec, "gunicorn", 2216, line, prio=3)
entry(sec + 0.2, "gunicorn", 2216, f"{ts(sec + 0.2)} [2216] [INFO] Worker exiting (pid: 2216)")
entry(sec + 0.4, "gunicorn", 2210, f"{ts(sec + 0.4)} [2210] [ERROR] Worker (pid:2216) exited with code 3", prio=3)
entry(sec + 0.5, "gunicorn", 2210, f"{ts(sec + 0.5)} [2210] [ERROR] Shutting down: Master", prio=3)
entry(sec + 0.5, "gunicorn", 2210, f"{ts(sec + 0.5)} [2210] [ERROR] Reason: Worker failed to boot.", prio=3)
sec += 1
entry(sec, "systemd", 1, "orders-api.service: Main process exited, code=exited, status=3/NOTIMPLEMENTED", prio=5, manager=True)
entry(sec, "systemd", 1, "orders-api.service: Failed with result 'exit-code'.", prio=4, manager=True)
entry(sec, "systemd", 1, "orders-api.service: Consumed 41.317s CPU time.", manager=True)
for n in range(1, 6):
    sec += 5
    entry(sec, "systemd", 1, f"orders-api.service: Scheduled restart job, restart counter is at {n}.", manager=True)
    entry(sec, "systemd", 1, "Stopped orders-api.service - Orders API (gunicorn).", manager=True)
    entry(sec, "systemd", 1, "Started orders-api.service - Orders API (gunicorn).", manager=True)
    entry(sec + 1.1, "gunicorn", 2300 + n, f"{ts(sec + 1.1)} [{2300 + n}] [ERROR] Worker failed to boot: connection to server at \"pg-primary.tidewater.internal\" (10.20.5.10), port 5432 failed", prio=3)
    entry(sec + 1.3, "systemd", 1, "orders-api.service: Main process exited, code=exited, status=3/NOTIMPLEMENTED", prio=5, manager=True)
    entry(sec + 1.3, "systemd", 1, "orders-api.service: Failed with result 'exit-code'.", prio=4, manager=True)
sec += 5
entry(sec, "systemd", 1, "orders-api.service: Start request repeated too quickly.", prio=4, manager=True)
entry(sec, "systemd", 1, "orders-api.service: Failed with result 'exit-code'.", prio=4, manager=True)
entry(sec, "systemd", 1, "Failed to start orders-api.service - Orders API (gunicorn).", prio=3, manager=True)
open(sys.argv[1], "w").write("".join(out))
EOF
  /lib/systemd/systemd-journal-remote -o "$JN/orders-api.journal" - <"$JN/export.txt" >/dev/null 2>&1
  capture batch25 journalctl_file_unit_failure "$JN" \
    "TZ=UTC journalctl --file orders-api.journal -u orders-api.service --no-pager -o short-iso" "$(journalctl --version | head -1)"

  # --- PostgreSQL 15: pg_ctl start with a broken postgresql.conf, initdb over an existing cluster ---
  PG="$B/postgres"
  mkdir -p "$PG" && chown postgres:postgres "$PG"
  runuser -u postgres -- /usr/lib/postgresql/15/bin/initdb -D "$PG/data" --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null 2>&1
  cat >>"$PG/data/postgresql.conf" <<'EOF'

# --- orders-db tuning (ticket OPS-2291) ---
shared_buffers = 2GBB
effective_cache_size = 6GB
work_mem = 32MB
max_connections = 400
wal_level = logical
max_wal_senders = 10
checkpoint_timeout = 15min
random_page_cost = 1.1
log_min_duration_statement = 250ms
track_io_timing = yes
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = all
autovacuum_naptime = '30 seconds'
EOF
  capture batch25 pg_ctl_start_bad_config "$PG" \
    "runuser -u postgres -- pg_ctl -D data -o '-p 55432 -k $PG' -w -t 20 start" "$(/usr/lib/postgresql/15/bin/postgres --version)"
  capture batch25 initdb_existing_directory "$PG" \
    "runuser -u postgres -- initdb -D data -E UTF8 --locale=C.UTF-8 --data-checksums" "$(/usr/lib/postgresql/15/bin/postgres --version)"
fi
