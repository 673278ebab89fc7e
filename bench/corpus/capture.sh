#!/usr/bin/env bash
# Regenerates the real captures of bench/corpus from tools on this machine.
# Each case: <family>/<case>.txt (stdout+stderr as a terminal-less run shows them),
# <case>.json (command, exit code, tool version, how it was captured). .signals files are
# hand-written and not touched here. Usage: bash bench/corpus/capture.sh [family...]
set -u
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CORPUS="$ROOT/bench/corpus"
WORK="${ZEPH_CORPUS_WORK:-/tmp/zeph-corpus}"
DENO="$ROOT/node_modules/deno/deno"
mkdir -p "$WORK"

# capture <family> <case> <dir> <command...>: runs the command in <dir> through bash -c.
capture() {
  local family="$1" name="$2" dir="$3" cmd="$4"
  mkdir -p "$CORPUS/$family"
  (cd "$dir" && bash -c "$cmd") >"$CORPUS/$family/$name.txt" 2>&1
  local code=$?
  local version="${5:-}"
  printf '{\n  "command": %s,\n  "exit_code": %d,\n  "synthetic": false,\n  "tool": %s,\n  "captured": "%s"\n}\n' \
    "$(printf '%s' "$cmd" | python3 -c 'import json,sys;print(json.dumps(sys.stdin.read()))')" \
    "$code" \
    "$(printf '%s' "$version" | python3 -c 'import json,sys;print(json.dumps(sys.stdin.read()))')" \
    "$(date -u +%Y-%m-%d)" >"$CORPUS/$family/$name.json"
  echo "$family/$name: exit $code, $(wc -l <"$CORPUS/$family/$name.txt") lines"
}

want() { [ $# -eq 0 ] || [[ " $SELECTED " == *" $1 "* ]]; }
SELECTED="${*:-}"
sel() { [ -z "$SELECTED" ] || [[ " $SELECTED " == *" $1 "* ]]; }

# --- cargo: a dependency-free crate with passing and failing tests and clippy warnings -------
if sel cargo; then
  C="$WORK/calc"
  rm -rf "$C" && mkdir -p "$C/src" "$C/tests"
  cat >"$C/Cargo.toml" <<'EOF'
[package]
name = "calc"
version = "0.1.0"
edition = "2021"

[dependencies]
EOF
  cat >"$C/src/lib.rs" <<'EOF'
pub mod parse;
pub mod stats;
use std::collections::HashMap;

pub fn scratch(flag: bool) -> i64 {
    let unused_a = 1;
    let unused_b = 2;
    let mut never_mutated = 3;
    if flag { 1 } else { never_mutated }
}

pub fn add(a: i64, b: i64) -> i64 { a + b }
pub fn sub(a: i64, b: i64) -> i64 { a - b }
pub fn div(a: i64, b: i64) -> Option<i64> { if b == 0 { None } else { Some(a / b) } }
pub fn sum_all(v: &Vec<i64>) -> i64 {
    let mut total = 0;
    for i in 0..v.len() { total = total + v[i]; }
    return total;
}
pub fn is_even(n: i64) -> bool { if n % 2 == 0 { true } else { false } }
pub fn clamp(x: i64, lo: i64, hi: i64) -> i64 { if x < lo { lo } else if x > hi { hi } else { x } }

#[cfg(test)]
mod tests {
    use super::*;
    #[test] fn adds() { assert_eq!(add(2, 2), 4); }
    #[test] fn subtracts() { assert_eq!(sub(5, 3), 2); }
    #[test] fn divides() { assert_eq!(div(9, 3), Some(3)); }
    #[test] fn div_by_zero() { assert_eq!(div(1, 0), Some(0), "division by zero must yield Some(0)"); }
    #[test] fn sums() { assert_eq!(sum_all(&vec![1, 2, 3]), 6); }
    #[test] fn evens() { assert!(is_even(4)); assert!(!is_even(3)); }
    #[test] fn clamps() { assert_eq!(clamp(15, 0, 10), 10); }
    #[test] fn edge_overflow() { let v: Vec<i64> = vec![i64::MAX, 1]; assert_eq!(sum_all(&v), i64::MIN); }
    #[test] #[ignore] fn slow_case() { assert_eq!(add(1, 1), 2); }
}
EOF
  cat >"$C/src/parse.rs" <<'EOF'
pub fn parse_list(s: &str) -> Vec<i64> {
    let mut out = Vec::new();
    for part in s.split(',') {
        let trimmed = part.trim();
        if trimmed.len() == 0 { continue; }
        match trimmed.parse::<i64>() { Ok(n) => out.push(n), Err(_) => {} }
    }
    out
}
pub fn first_word(s: &String) -> &str { s.split(' ').next().unwrap_or("") }

#[cfg(test)]
mod tests {
    use super::*;
    #[test] fn parses_numbers() { assert_eq!(parse_list("1, 2, 3"), vec![1, 2, 3]); }
    #[test] fn skips_empty() { assert_eq!(parse_list("1,,2"), vec![1, 2]); }
    #[test] fn rejects_garbage() { assert_eq!(parse_list("1,x,2"), vec![1, 2]); }
    #[test] fn parses_negative() { assert_eq!(parse_list("-1,-2"), vec![-1, -2]); }
    #[test] fn first_word_works() { assert_eq!(first_word(&"hello world".to_string()), "hello"); }
    #[test] fn parse_hex() { assert_eq!(parse_list("0x10"), vec![16], "hex literals are not supported yet"); }
}
EOF
  cat >"$C/src/stats.rs" <<'EOF'
pub fn mean(v: &Vec<f64>) -> f64 { let mut s = 0.0; for i in 0..v.len() { s += v[i]; } s / v.len() as f64 }
pub fn max(v: &Vec<f64>) -> f64 { let mut m = v[0]; for x in v.iter() { if *x > m { m = *x; } } return m; }
pub fn median(v: &mut Vec<f64>) -> f64 { v.sort_by(|a, b| a.partial_cmp(b).unwrap()); v[v.len() / 2] }

#[cfg(test)]
mod tests {
    use super::*;
    #[test] fn mean_works() { assert_eq!(mean(&vec![1.0, 2.0, 3.0]), 2.0); }
    #[test] fn max_works() { assert_eq!(max(&vec![1.0, 5.0, 3.0]), 5.0); }
    #[test] fn median_even() { assert_eq!(median(&mut vec![1.0, 2.0, 3.0, 4.0]), 2.5); }
    #[test] fn mean_empty() { assert!(mean(&vec![]).is_nan()); }
}
EOF
  for i in $(seq 1 12); do
    cat >"$C/tests/integration_$i.rs" <<EOF
#[test] fn integration_add_$i() { assert_eq!(calc::add($i, 1), $((i + 1))); }
#[test] fn integration_sub_$i() { assert_eq!(calc::sub($i, 1), $((i - 1))); }
#[test] fn integration_div_$i() { assert_eq!(calc::div($i, 1), Some($i)); }
EOF
  done
  V="$(cargo --version)"
  export CARGO_NET_OFFLINE=true CARGO_TERM_COLOR=never
  capture cargo build_warnings "$C" "cargo clean -q; cargo build" "$V"
  capture cargo clippy_warnings "$C" "touch src/lib.rs && cargo clippy --all-targets 2>&1" "$V"
  capture cargo test_failing "$C" "cargo test 2>&1" "$V"
  capture cargo test_passing_filtered "$C" "cd $C && cargo test integration 2>&1" "$V"
  capture cargo test_color "$C" "cargo test --color=always parse 2>&1" "$V"
  cp "$C/src/stats.rs" "$WORK/stats.rs.bak"
  printf '\npub fn broken() -> i64 { let x: i64 = "five"; x + undefined_name }\n' >>"$C/src/stats.rs"
  capture cargo build_error "$C" "cargo build 2>&1" "$V"
  cp "$WORK/stats.rs.bak" "$C/src/stats.rs"
fi

# --- git: the zeph repository itself, a clone with local changes, a push to a local bare repo --
if sel git; then
  G="$WORK/git-clone"
  rm -rf "$G" "$WORK/bare.git"
  git clone -q "$ROOT" "$G"
  git -C "$G" config user.email bench@example.invalid
  git -C "$G" config user.name bench
  V="$(git --version)"
  capture git log_stat "$ROOT" "git log --stat -n 40" "$V"
  capture git show_commit "$ROOT" "git show $(git -C "$ROOT" rev-list --max-parents=0 HEAD | head -1)~0 --stat -p | head -4000" "$V"
  capture git diff_range "$G" "git diff HEAD~4 HEAD" "$V"
  (cd "$G" && echo "// touched" >>README.md && echo x >new_file.txt && mkdir -p scratch && touch scratch/a.ts scratch/b.ts && git rm -q --cached package-lock.json && sed -i 's/zeph/zeph2/' deno.json && git add deno.json && rm -f main.ts)
  capture git status_dirty "$G" "git status" "$V"
  capture git status_short "$G" "git status -sb" "$V"
  git init -q --bare "$WORK/bare.git"
  git -C "$G" remote add local "$WORK/bare.git"
  capture git push_new_branch "$G" "git push local HEAD:refs/heads/feature-x 2>&1" "$V"
fi

# --- python: pytest on a small package with passing and failing tests -------------------------
if sel python; then
  P="$WORK/pyproj"
  rm -rf "$P" && mkdir -p "$P/tests"
  cat >"$P/shop.py" <<'EOF'
def total(items):
    return sum(price * qty for price, qty in items)

def discount(amount, percent):
    if percent < 0 or percent > 100:
        raise ValueError(f"bad percent {percent}")
    return round(amount * (100 - percent) / 100, 2)

def login(user, password):
    if password != "secret":
        return 401
    return 200
EOF
  cat >"$P/tests/test_shop.py" <<'EOF'
import pytest
from shop import total, discount, login

@pytest.mark.parametrize("n", range(40))
def test_total_many(n):
    assert total([(n, 2)]) == 2 * n

def test_total_empty():
    assert total([]) == 0

def test_discount_basic():
    assert discount(100, 10) == 90

def test_discount_rounding():
    assert discount(10, 33) == 6.71

def test_discount_invalid():
    with pytest.raises(ValueError):
        discount(10, 150)
EOF
  cat >"$P/tests/test_api.py" <<'EOF'
from shop import login

def test_login_ok():
    assert login("ann", "secret") == 200

def test_login_flow():
    status = login("bob", "hunter2")
    assert status == 200, f"expected 200 but got {status}"

def test_logout():
    assert True
EOF
  V="$(pytest --version 2>&1)"
  capture python pytest_failing "$P" "python3 -m pytest tests" "$V"
  capture python pytest_verbose "$P" "python3 -m pytest -v tests" "$V"
  capture python pytest_passing "$P" "python3 -m pytest -q tests/test_shop.py -k 'many or empty or basic or invalid'" "$V"
fi

# --- python (pylint): a small package with the usual findings and two real errors -------------
if sel python && command -v pylint >/dev/null; then
  L="$WORK/pylintproj"
  rm -rf "$L" && mkdir -p "$L/inventory"
  : >"$L/inventory/__init__.py"
  cat >"$L/inventory/store.py" <<'EOF'
import os, sys, json
from collections import *

class store:
    def __init__(self, path, items = []):
        self.path = path
        self.items = items
        self.Cache = {}

    def load(self):
        f = open(self.path)
        data = json.load(f)
        for i in range(len(data)):
            self.items.append(data[i])
        return data

    def find(self, name):
        for item in self.items:
            if item['name'] == name:
                return item
            else:
                continue

    def total(self, tax):
        total = 0
        for item in self.items:
            total = total + item['price'] * item['qty']
        return total

    def save(self):
        try:
            with open(self.path, 'w') as f:
                json.dump(self.items, f)
        except:
            pass

def helper(a, b, c, d, e, f, g):
    unused = 1
    if a == None:
        return
    return a + b
EOF
  cat >"$L/inventory/report.py" <<'EOF'
import logging
from inventory.store import store

def build_report(s, fmt):
    lines = []
    for item in s.items:
        lines.append("%s: %d" % (item['name'], item['qty']))
    logging.info("report for %s" % s.path)
    print("done %s" % fmt)
    return "\n".join(lines)

def export(s, path, fmt='csv'):
    report = build_report(s, fmt)
    f = open(path, 'w')
    f.write(report)
    return undefined_name

class Exporter(object):
    def run(self):
        x = 1
        return self.missing_method()
EOF
  cat >"$L/inventory/typed.py" <<'EOF'
from typing import Optional

def parse_qty(text: str) -> int:
    if not text:
        return None
    return text.strip()

def price_of(item: dict) -> float:
    return item.get("price", "0")

def first(names: list[str]) -> Optional[str]:
    return names[0] if names else None

def shout(name: Optional[str]) -> str:
    return name.upper()

total: int = "zero"
count = parse_qty(12)
label = shout(first([1, 2]))
EOF
  capture python pylint_package "$L" "pylint inventory" "$(pylint --version 2>&1 | head -1)"
fi

# --- python (flake8): four modules of one template with style, pyflakes and complexity findings
# and a syntax error, with --statistics and --count ------------------------------------------------
if sel python && command -v flake8 >/dev/null; then
  L="$WORK/flake8proj"
  rm -rf "$L" && mkdir -p "$L/inventory"
  cat >"$L/inventory/pricing.py" <<'EOF'
import os, sys
import json
from typing import List,Dict
def parse_price(text):
    value,unit = text.split( " " )
    if unit=="EUR": return float(value)
    elif unit == "USD":
        return float(value)*0.9
    else:
        if value == None:
            return 0
        return  float(value)
def convert(prices:List[str])->Dict[str,float]:
    result={}
    for p in prices :
        try:
            result[p]=parse_price(p)
        except:
            pass
    l = 1
    return result
def grade(n):
    if n > 90:
        return "A"
    elif n > 80:
        return "B"
    elif n > 70:
        return "C"
    elif n > 60:
        if n > 65:
            return "D+"
        return "D"
    elif n > 50:
        return "E"
    else:
        for i in range(3):
            if i == n:
                return "F"
        return "F-"
x = 1 # comment
EOF
  for m in cli store report; do sed "s/parse_price/parse_${m}/g" "$L/inventory/pricing.py" >"$L/inventory/$m.py"; done
  echo "def broken(:" >"$L/inventory/syntax.py"
  capture python flake8_statistics "$L" "flake8 --max-complexity 8 --statistics --count inventory" "$(flake8 --version 2>&1 | head -1)"
fi

# --- go: a module with passing and failing tests, plain and -v ---------------------------------
if sel go && command -v go >/dev/null; then
  M="$WORK/gomod"
  rm -rf "$M" && mkdir -p "$M/mathx" "$M/strs"
  printf 'module example.com/gomod\n\ngo 1.19\n' >"$M/go.mod"
  cat >"$M/mathx/mathx.go" <<'EOF'
package mathx

import "math"

func Divide(a, b float64) float64 { return a / b }
func Sqrt(x float64) float64     { return math.Sqrt(x) }
func Abs(x int) int              { if x < 0 { return -x }; return x }
EOF
  cat >"$M/mathx/mathx_test.go" <<'EOF'
package mathx

import ("fmt"; "math"; "testing")

func TestAbs(t *testing.T) { if Abs(-3) != 3 { t.Fatal("abs") } }
func TestDivide(t *testing.T) {
	got := Divide(1, 0)
	if !math.IsNaN(got) { t.Errorf("Divide(1, 0) = %v, want NaN", got) }
}
func TestSqrt(t *testing.T) {
	t.Log("checking sqrt(-1)")
	if !math.IsNaN(Sqrt(-1)) { t.Errorf("sqrt(-1) should be NaN") }
	if Sqrt(4) != 3 { t.Errorf("Sqrt(4) = %v, want 3", Sqrt(4)) }
}
func TestTable(t *testing.T) {
	for i := 0; i < 30; i++ {
		t.Run(fmt.Sprintf("case_%02d", i), func(t *testing.T) { if Abs(i) != i { t.Fail() } })
	}
}
EOF
  cat >"$M/strs/strs.go" <<'EOF'
package strs

import "strings"

func Upper(s string) string { return strings.ToUpper(s) }
EOF
  cat >"$M/strs/strs_test.go" <<'EOF'
package strs

import "testing"

func TestUpper(t *testing.T) { if Upper("a") != "A" { t.Fatal("upper") } }
func TestUpperMany(t *testing.T) { for _, s := range []string{"x", "y", "z"} { if Upper(s) == s { t.Fatal(s) } } }
EOF
  V="$(go version)"
  export GOFLAGS=-mod=mod GOTOOLCHAIN=local GOCACHE="$WORK/gocache"
  capture go test_failing "$M" "go test ./..." "$V"
  capture go test_verbose "$M" "go test -v ./..." "$V"
  capture go test_passing "$M" "go test -v ./strs/ -run Upper -count=1" "$V"
fi

# --- make: a small C project, a clean build with warnings and a failing build ---------------
if sel make; then
  K="$WORK/cproj"
  rm -rf "$K" && mkdir -p "$K/src/lib" "$K/src/app"
  for i in $(seq 1 25); do
    printf '#include "lib.h"\nint f%d(int x) { int unused_%d; return x * %d; }\n' "$i" "$i" "$i" >"$K/src/lib/f$i.c"
  done
  echo 'int f1(int x);' >"$K/src/lib/lib.h"
  printf '#include <stdio.h>\n#include "../lib/lib.h"\nint main(void) { printf("%%d\\n", f1(2)); return 0; }\n' >"$K/src/app/main.c"
  cat >"$K/src/lib/Makefile" <<'EOF'
SRCS := $(wildcard *.c)
OBJS := $(SRCS:.c=.o)
CFLAGS := -Wall -O1
liblib.a: $(OBJS)
	ar rcs $@ $^
%.o: %.c
	$(CC) $(CFLAGS) -c $< -o $@
clean:
	rm -f *.o *.a
EOF
  cat >"$K/src/app/Makefile" <<'EOF'
app: main.c ../lib/liblib.a
	$(CC) -Wall -o $@ main.c ../lib/liblib.a
clean:
	rm -f app
EOF
  cat >"$K/Makefile" <<'EOF'
all:
	$(MAKE) -C src/lib
	$(MAKE) -C src/app
clean:
	$(MAKE) -C src/lib clean
	$(MAKE) -C src/app clean
EOF
  V="$(make --version | head -1)"
  capture make build_warnings "$K" "make clean >/dev/null; make" "$V"
  printf 'int f26(int x) { return x + undefined_symbol; }\n' >"$K/src/lib/f26.c"
  capture make build_error "$K" "make clean >/dev/null; make 2>&1" "$V"
  rm -f "$K/src/lib/f26.c"
fi

# --- files: ls, find, tree, grep over real directories -------------------------------------
if sel files; then
  capture files ls_la_usr_bin / "ls -la /usr/bin" "$(ls --version | head -1)"
  capture files find_src "$ROOT" "find node_modules/zod -name '*.ts' -path '*v4*'" "$(find --version | head -1)"
  capture files tree_deps "$ROOT" "tree node_modules/smol-toml node_modules/re2js" "$(tree --version)"
  capture files grep_imports "$ROOT" "grep -rn 'import' node_modules/cheerio/dist/esm --include=*.js" "$(grep --version | head -1)"
fi

# --- logs: real system logs -----------------------------------------------------------------
if sel logs; then
  capture logs dpkg_log / "cat /var/log/dpkg.log" "dpkg log"
  capture logs apt_term_log / "tail -n 3000 /var/log/apt/term.log" "apt term log"
fi

# --- node: npm install, tsc, node --test, vitest ---------------------------------------------
if sel node; then
  N="$WORK/nodeproj"
  rm -rf "$N" && mkdir -p "$N/src" "$N/test"
  (cd "$N" && npm init -y >/dev/null 2>&1)
  V="npm $(npm --version 2>/dev/null)"
  capture node npm_install "$N" "npm install --no-fund --no-audit=false express@4 lodash@4 typescript@5 vitest@2" "$V"
  cat >"$N/tsconfig.json" <<'EOF'
{ "compilerOptions": { "strict": true, "noEmit": true, "target": "ES2022", "module": "ES2022", "moduleResolution": "bundler" }, "include": ["src"] }
EOF
  for i in $(seq 1 8); do
    cat >"$N/src/mod$i.ts" <<EOF
export function f$i(x: number): string { return x; }
export const n$i: number = "text-$i";
export function g$i(o: { a: number }) { return o.b; }
EOF
  done
  printf 'export const ok = 1;\n' >"$N/src/clean.ts"
  capture node tsc_errors "$N" "npx tsc -p ." "tsc $(cd "$N" && npx tsc --version)"
  capture node tsc_explain_files "$N" "npx tsc -p . --explainFiles" "tsc $(cd "$N" && npx tsc --version)"
  rm -f "$N/ts-lib.zip" && (cd "$N" && zip -qr ts-lib.zip node_modules/typescript)
  capture files unzip_list "$N" "unzip -l ts-lib.zip" "$(unzip -v | head -n 1)"
  cat >"$N/test/math.test.mjs" <<'EOF'
import { test } from "node:test";
import assert from "node:assert/strict";
for (let i = 0; i < 30; i++) test(`adds ${i}`, () => assert.equal(i + 1, 1 + i));
test("divides by zero", () => assert.equal(1 / 0, 0));
test("parses json", () => assert.deepEqual(JSON.parse('{"a":1}'), { a: 2 }));
EOF
  capture node node_test_failing "$N" "node --test test/" "node $(node --version)"
  cat >"$N/src/sum.test.ts" <<'EOF'
import { describe, expect, it } from "vitest";
const sum = (a: number, b: number) => a + b;
describe("sum", () => {
  for (let i = 0; i < 25; i++) it(`adds ${i}`, () => expect(sum(i, 1)).toBe(i + 1));
  it("adds negatives wrong", () => expect(sum(-1, -1)).toBe(2));
});
EOF
  cat >"$N/src/str.test.ts" <<'EOF'
import { expect, it } from "vitest";
it("uppercases", () => expect("a".toUpperCase()).toBe("A"));
it("trims", () => expect(" a ".trim()).toBe("a"));
EOF
  capture node vitest_failing "$N" "npx vitest run --reporter=default" "vitest $(cd "$N" && npx vitest --version)"
fi

# --- pnpm: an install with missing peers, an install whose own dependency's postinstall fails ----
if sel pnpm; then
  P="$WORK/pnpm"
  rm -rf "$P" && mkdir -p "$P/peers" "$P/native" "$P/api"
  command -v pnpm >/dev/null || npm i -g --prefix "$WORK/pnpm-cli" pnpm@9 >/dev/null 2>&1
  export PATH="$WORK/pnpm-cli/bin:$PATH"
  cat >"$P/peers/package.json" <<'EOF'
{ "name": "shop-web", "version": "1.0.0", "private": true,
  "dependencies": { "express": "4.18.2", "react-dom": "18.2.0", "eslint-plugin-react": "7.33.2", "uuid": "3.4.0" } }
EOF
  printf 'auto-install-peers=false\nstrict-peer-dependencies=false\n' >"$P/peers/.npmrc"
  capture node pnpm_install_peers "$P/peers" "pnpm install" "pnpm $(pnpm --version)"
  cat >"$P/native/package.json" <<'EOF'
{ "name": "shop-native", "version": "0.3.1", "scripts": { "postinstall": "node install.js" } }
EOF
  cat >"$P/native/install.js" <<'EOF'
console.log("shop-native: building binding for linux-x64");
console.error("gyp ERR! stack Error: not found: make");
console.error("shop-native: prebuilt binary for node-v22 not found");
process.exit(1);
EOF
  cat >"$P/api/package.json" <<'EOF'
{ "name": "shop-api", "version": "2.0.0", "private": true,
  "dependencies": { "shop-native": "file:../native", "lodash": "4.17.21", "chalk": "4.1.2", "debug": "4.3.4" } }
EOF
  capture node pnpm_install_postinstall_fail "$P/api" "pnpm install" "pnpm $(pnpm --version)"
fi

# --- django: the test runner (-v 2) on a small app with a failure and two errors --------------
if sel django; then
  D="$WORK/django"
  rm -rf "$D" && mkdir -p "$D" && cd "$D" && django-admin startproject shop . && python3 manage.py startapp orders
  cat >orders/models.py <<'EOF'
from django.db import models

class Customer(models.Model):
    name = models.CharField(max_length=100)
    email = models.EmailField(unique=True)

class Order(models.Model):
    customer = models.ForeignKey(Customer, on_delete=models.CASCADE)
    total = models.DecimalField(max_digits=8, decimal_places=2)
    created = models.DateTimeField(auto_now_add=True)
    def __str__(self):
        return f"Order {self.pk}"
EOF
  sed -i "s/'django.contrib.staticfiles',/'django.contrib.staticfiles',\n    'orders',/" shop/settings.py
  python3 manage.py makemigrations orders >/dev/null
  cat >orders/tests.py <<'EOF'
from decimal import Decimal
from django.test import TestCase
from .models import Customer, Order

class OrderTests(TestCase):
    def setUp(self):
        self.c = Customer.objects.create(name="Ann", email="ann@example.com")

EOF
  for i in $(seq 1 30); do
    printf '    def test_total_%s(self):\n        o = Order.objects.create(customer=self.c, total=Decimal("%s.50"))\n        self.assertEqual(o.total, Decimal("%s.50"))\n\n' "$i" "$i" "$i" >>orders/tests.py
  done
  cat >>orders/tests.py <<'EOF'
    def test_str(self):
        o = Order.objects.create(customer=self.c, total=Decimal("1"))
        self.assertEqual(str(o), "Order #%d" % o.pk)

    def test_unique_email(self):
        Customer.objects.create(name="Bob", email="ann@example.com")

    def test_sum(self):
        self.assertEqual(sum(o.total for o in Order.objects.all()), Decimal("0.00") + missing)
EOF
  cd "$ROOT"
  capture python django_test_v2_failures "$D" "python3 manage.py test -v 2" "django $(python3 -c 'import django; print(django.__version__)')"
fi

# --- tox: two environments (pytest with two failures, flake8 with findings), tox 3 -----------
if sel tox; then
  T="$WORK/tox"
  rm -rf "$T" && mkdir -p "$T/tests"
  cat >"$T/tox.ini" <<'EOF'
[tox]
envlist = py, lint
skipsdist = true

[testenv]
deps = pytest
commands = pytest -q tests

[testenv:lint]
deps = flake8
commands = flake8 calc.py
EOF
  printf 'import os, sys\ndef add(a, b):\n    return a+b\ndef div(a, b):\n  return a / b\n' >"$T/calc.py"
  cat >"$T/tests/test_calc.py" <<'EOF'
import sys, os
sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
from calc import add, div
import pytest
@pytest.mark.parametrize("i", range(20))
def test_add(i):
    assert add(i, 1) == i + 1
def test_div():
    assert div(1, 0) == 0
def test_add_str():
    assert add("a", "b") == "ba"
EOF
  capture python tox_pytest_flake8 "$T" "tox" "tox $(tox --version | cut -d' ' -f1)"
fi

# --- deno: test, lint, check on a small project -----------------------------------------------
if sel deno; then
  D="$WORK/denoproj"
  rm -rf "$D" && mkdir -p "$D"
  cat >"$D/math_test.ts" <<'EOF'
function assertEquals(a: unknown, b: unknown, msg?: string) {
  if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(msg ?? `Values are not equal: ${JSON.stringify(a)} !== ${JSON.stringify(b)}`);
}
for (let i = 0; i < 30; i++) Deno.test(`adds ${i}`, () => assertEquals(i + 1, 1 + i));
Deno.test("rounds half up", () => assertEquals(Math.round(2.5), 2, "round(2.5) should be 2"));
Deno.test("splits words", () => assertEquals("a b".split(" "), ["a", "b", "c"]));
EOF
  cat >"$D/lint_me.ts" <<'EOF'
let unusedOne = 1;
let unusedTwo = 2;
var legacy = 3;
export function f(a: any) { if (a == null) { debugger; } return a; }
export function g(b: any) { try { return b; } catch (e) {} }
EOF
  cat >"$D/types.ts" <<'EOF'
export const n: number = "x";
export function f(o: { a: number }): string { return o.b; }
export const s: string = 42;
EOF
  V="$("$DENO" --version | head -1)"
  capture deno test_failing "$D" "NO_COLOR=1 $DENO test math_test.ts" "$V"
  capture deno lint_problems "$D" "NO_COLOR=1 $DENO lint lint_me.ts" "$V"
  capture deno check_errors "$D" "NO_COLOR=1 $DENO check types.ts" "$V"
fi

# --- lint: shellcheck, yamllint, markdownlint, biome, rubocop on small projects with problems ----
# markdownlint, biome and oxlint come from npm (ZEPH_CORPUS_NPM: a prefix where they are installed).
if sel lint; then
  L="$WORK/lintproj"
  NPMBIN="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}/node_modules/.bin"
  rm -rf "$L" && mkdir -p "$L/scripts" "$L/config" "$L/docs" "$L/src" "$L/lib"
  cat >"$L/scripts/deploy.sh" <<'EOF'
#!/bin/bash
target=$1
files=$(ls $target/*.tar.gz)
for f in $files; do
  echo Deploying $f
  cp $f /srv/releases/
done
if [ $status == 0 ]; then
  echo "done" > $LOG
fi
cd $target
rm -rf $target/tmp/*
read name
echo "Hello $name, `date`"
EOF
  cat >"$L/scripts/backup.sh" <<'EOF'
#!/bin/sh
src=$1
dest=$2
[[ -d $dest ]] || mkdir -p $dest
for f in $(find $src -name '*.db'); do
  cp $f $dest
done
echo $((count+1))
local x=1
EOF
  cat >"$L/config/app.yml" <<'EOF'
server:
    port: 8080
    host:   localhost
database: { host: db,  port: 5432 }
features:
  - auth
  - billing
  -  search
logging:
  level: debug
  level: info
EOF
  cat >"$L/config/ci.yaml" <<'EOF'
---
stages: [ build, test ]
build:
  script:
    - make
    - make   install
test:
  script:
     - make test
  only: ['main']   
EOF
  cat >"$L/docs/guide.md" <<'EOF'
Intro text before any heading.
# Guide
## Install
Run the installer:
```
./install.sh
```
* one
+ two
- three
### Usage ###
This line is very long and goes on well past the eighty character limit that markdownlint enforces by default.
#### Skipped level
[broken link]()
Trailing spaces here   
EOF
  cat >"$L/src/app.ts" <<'EOF'
export function load(data: any) {
  var result = [];
  data.forEach((item: any) => { result.push(item); });
  if (data == null) { debugger; }
  return result;
}
export const f = function () { return 1 };
EOF
  cat >"$L/src/util.ts" <<'EOF'
export function sum(xs: any[]) { let t = 0; xs.forEach(x => { t += x }); return t; }
export function isEmpty(s: string) { return s.length == 0; }
EOF
  capture lint shellcheck_scripts "$L" "shellcheck scripts/deploy.sh scripts/backup.sh" "$(shellcheck --version | sed -n 2p)"
  capture lint yamllint_config "$L" "yamllint config" "$(yamllint --version)"
  PATH="$NPMBIN:$PATH" capture lint markdownlint_docs "$L" "markdownlint docs" "markdownlint-cli $("$NPMBIN/markdownlint" --version)"
  PATH="$NPMBIN:$PATH" capture lint biome_lint "$L" "biome lint --colors=off src" "biome $("$NPMBIN/biome" --version)"
  PATH="$NPMBIN:$PATH" capture lint oxlint_src "$L" "oxlint -W suspicious -W pedantic src" "oxlint $("$NPMBIN/oxlint" --version)"
fi

# --- gobuild: go build and go vet failing on a module with type errors and vet findings --------
if sel gobuild; then
  G="$WORK/gobuild"
  rm -rf "$G" && mkdir -p "$G/store"
  printf 'module example.com/gobuild\n\ngo 1.19\n' >"$G/go.mod"
  cat >"$G/store/store.go" <<'EOF'
package store

import "fmt"

type Item struct{ Name string; Qty int }

func Describe(i Item) string { return fmt.Sprintf("%s x%d", i.Name) }
func Log(items []Item) { for _, it := range items { fmt.Printf("%d\n", it.Name) } }
func Copy(a, b *Item) { *a = *a }
func Check(err error) { if err != nil { fmt.Errorf("wrapped: %w") } }
func Label(i Item) string { return fmt.Sprintf("%s (%q)", i.Name, i.Qty, i.Name) }
func Same(x int) bool { return x == x }
func Print(i Item) { fmt.Println("item: %s", i.Name) }
EOF
  for n in 1 2 3; do
    mkdir -p "$G/svc$n"
    cat >"$G/svc$n/svc.go" <<EOF
package svc$n

import (
	"example.com/gobuild/store"
	"os"
	"strings"
)

func Total(items []store.Item) int {
	var t int = "zero"
	for _, it := range items { t += it.Count }
	return t
}
func Name$n(i store.Item) string { return i.Title + strings.ToUpper(i.Name, 1) }
func Undefined$n() { missing$n(); var unused int }
EOF
  done
  V="$(go version)"
  export GOTOOLCHAIN=local GOCACHE="$WORK/gocache"
  capture go build_errors "$G" "go build ./..." "$V"
  capture go vet_findings "$G" "go vet ./store/" "$V"
fi

# --- gopanic: go test on a module where one test panics (an index out of range in the code it
# tests) and one fails plainly: the panic's stack runs through the testing package and the runtime
if sel gopanic && command -v go >/dev/null; then
  P="$WORK/gopanic"
  rm -rf "$P" && mkdir -p "$P/ring"
  printf 'module example.com/gopanic\n\ngo 1.19\n' >"$P/go.mod"
  cat >"$P/ring/ring.go" <<'EOF'
package ring

// Ring is a fixed-size buffer of ints.
type Ring struct{ items []int; next int }

func New(n int) *Ring { return &Ring{items: make([]int, n)} }

func (r *Ring) Push(v int) {
	r.items[r.next] = v
	r.next++
}

func (r *Ring) Sum() int {
	total := 0
	for _, v := range r.items { total += v }
	return total
}
EOF
  cat >"$P/ring/ring_test.go" <<'EOF'
package ring

import "testing"

func TestPushWraps(t *testing.T) {
	r := New(3)
	for i := 1; i <= 5; i++ { r.Push(i) }
	if r.Sum() != 12 { t.Errorf("Sum() = %d, want 12", r.Sum()) }
}

func TestSum(t *testing.T) {
	r := New(2)
	r.Push(2)
	if got := r.Sum(); got != 3 { t.Errorf("Sum() = %d, want 3", got) }
}

func TestNew(t *testing.T) {
	if len(New(4).items) != 4 { t.Fatal("size") }
}
EOF
  export GOFLAGS=-mod=mod GOTOOLCHAIN=local GOCACHE="$WORK/gocache"
  capture go test_panic "$P" "go test -count=1 ./..." "$(go version)"
fi

# --- goecho: go's own echo and per-package lines over a 24-package module: `go build -x` and
# `go build -a -v` from a cold build cache (one package does not compile), `go test -x` of three
# packages (a failing test, a test file that does not compile), `go test ./...` over all of them
if sel goecho && command -v go >/dev/null; then
  E="$WORK/goecho"
  rm -rf "$E" && mkdir -p "$E"
  printf 'module example.com/shop\n\ngo 1.19\n' >"$E/go.mod"
  for p in cart price stock order invoice tax audit billing coupon customer delivery discount \
    export fraud gift ledger loyalty payment refund report review search shipping vendor; do
    mkdir -p "$E/$p"
    cat >"$E/$p/$p.go" <<EOF
package $p

import (
	"fmt"
	"sort"
	"strings"
)

// Join sorts the names and joins them.
func Join(xs []string) string { sort.Strings(xs); return fmt.Sprint(strings.Join(xs, ",")) }
EOF
    case "$p" in audit | export | gift | report | review | vendor) continue ;; esac
    cat >"$E/$p/${p}_test.go" <<EOF
package $p

import "testing"

func TestJoin(t *testing.T) {
	if got := Join([]string{"b", "a"}); got != "a,b" {
		t.Fatalf("Join = %q", got)
	}
}
EOF
  done
  sed -i 's/"a,b"/"b,a"/' "$E/tax/tax_test.go"
  printf '\nfunc TestCount(t *testing.T) { var n int = "three"; _ = n }\n' >>"$E/stock/stock_test.go"
  V="$(go version)"
  export GOFLAGS=-mod=mod GOTOOLCHAIN=local GOCACHE="$WORK/goecho-cache"
  cp "$E/ledger/ledger.go" "$WORK/ledger.go.bak"
  printf '\nfunc Balance(entries []int) int { return total(entries) + "0" }\n' >>"$E/ledger/ledger.go"
  rm -rf "$GOCACHE"
  capture go build_x "$E" "go build -x ./..." "$V"
  rm -rf "$GOCACHE"
  capture go build_v "$E" "go build -a -v ./..." "$V"
  cp "$WORK/ledger.go.bak" "$E/ledger/ledger.go"
  (cd "$E" && go vet ./... >/dev/null 2>&1)
  capture go test_x "$E" "go test -x ./cart ./stock ./tax" "$V"
  capture go test_packages "$E" "go test -count=1 ./..." "$V"
fi

# --- jvm: maven offline (-o) with the machine's local repository, which lacks a plugin's
# dependencies: the resolution failure a sandboxed agent meets ----------------------------------
if sel jvm; then
  M="$WORK/mvnproj"
  rm -rf "$M" && mkdir -p "$M/src/main/java/com/example"
  cat >"$M/pom.xml" <<'EOF'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>shop</artifactId>
  <version>1.0-SNAPSHOT</version>
  <properties>
    <maven.compiler.source>17</maven.compiler.source>
    <maven.compiler.target>17</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
</project>
EOF
  cat >"$M/src/main/java/com/example/Cart.java" <<'EOF'
package com.example;

import java.util.List;

public class Cart {
    private List<String> items;
    public int total() { return items.size() + discount(); }
    public String first() { return items.get(0).lenght(); }
}
EOF
  capture jvm mvn_offline_failure "$M" "mvn -o compile" "$(mvn -v 2>/dev/null | head -1)"
fi

# --- system: rsync of a small site, ping of the loopback address ------------------------------
if sel system; then
  S="$WORK/sync"
  rm -rf "$S" && mkdir -p "$S/site/assets/img" "$S/site/docs/guide" "$S/site/css"
  for i in $(seq 1 20); do
    head -c $((i * 500)) /dev/zero >"$S/site/assets/img/photo$i.jpg"
    echo "# Page $i" >"$S/site/docs/guide/page$i.md"
  done
  for n in main print theme; do echo "body{}" >"$S/site/css/$n.css"; done
  capture system rsync_archive "$S" "rsync -av site/ backup/" "$(rsync --version | head -1)"
  capture system ping_loopback "$S" "ping -c 20 -i 0.2 127.0.0.1" "$(ping -V 2>&1 | head -1)"
fi

# --- taskrunner: turbo on a two-package npm workspace whose second build fails ---------------
# turbo comes from npm (ZEPH_CORPUS_NPM, like biome); the first run fills the cache of `lib`.
if sel taskrunner; then
  T="$WORK/mono"
  NPMBIN="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}/node_modules/.bin"
  rm -rf "$T" && mkdir -p "$T/packages/web" "$T/packages/lib"
  printf '{ "name": "mono", "private": true, "packageManager": "npm@10.0.0", "workspaces": ["packages/*"] }\n' >"$T/package.json"
  printf '{ "tasks": { "build": { "dependsOn": ["^build"], "outputs": ["dist/**"] } } }\n' >"$T/turbo.json"
  printf 'dist\nnode_modules\n.turbo\n' >"$T/.gitignore"
  printf '{ "name": "lib", "version": "1.0.0", "scripts": { "build": "mkdir -p dist && echo built lib > dist/out.txt" } }\n' >"$T/packages/lib/package.json"
  cat >"$T/packages/web/package.json" <<'EOF2'
{ "name": "web", "version": "1.0.0", "dependencies": { "lib": "*" },
  "scripts": { "build": "echo compiling web && echo 'src/index.ts(3,7): error TS2322: Type string is not assignable to type number.' && exit 2" } }
EOF2
  (cd "$T" && git init -q . && git add -A && git -c user.email=c@c -c user.name=c commit -qm init && npm install --no-audit --no-fund >/dev/null 2>&1)
  export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
  (cd "$T" && "$NPMBIN/turbo" run build --filter=lib >/dev/null 2>&1)
  PATH="$NPMBIN:$PATH" capture taskrunner turbo_failed_build "$T" "turbo run build" "turbo $("$NPMBIN/turbo" --version 2>/dev/null | tail -1)"
fi

# --- python type checkers: mypy (Debian package) on a small package with type errors ---------
if sel mypy; then
  P="$WORK/typed"
  rm -rf "$P" && mkdir -p "$P/pkg" && touch "$P/pkg/__init__.py"
  cat >"$P/pkg/models.py" <<'EOF2'
from typing import Optional


class User:
    def __init__(self, name: str, age: int) -> None:
        self.name = name
        self.age = age

    def greet(self) -> str:
        return "hi " + self.age


def find(users: list[User], name: str) -> User:
    for u in users:
        if u.name == name:
            return u
    return None


def total_age(users: list[User]) -> int:
    return sum(u.name for u in users)


def lookup(d: dict[str, int], key: str) -> Optional[int]:
    value: str = d.get(key)
    return value
EOF2
  cat >"$P/pkg/service.py" <<'EOF2'
from pkg.models import User, find


def handle(users: list[User]) -> int:
    user = find(users, 42)
    user.missing_method()
    count: int = "many"
    return user.nam


def add(a: int, b: int) -> int:
    return a + b


add("1", 2)
add(1)
EOF2
  capture python mypy_errors "$P" "mypy pkg" "$(mypy --version)"
fi

# --- cargo test whose test file does not compile; gcc run on its own --------------------------
if sel cargo; then
  T="$WORK/calcx"
  rm -rf "$T" && mkdir -p "$T/src" "$T/tests"
  printf '[package]\nname = "calcx"\nversion = "0.1.0"\nedition = "2021"\n' >"$T/Cargo.toml"
  printf 'pub fn add(left: u64, right: u64) -> u64 {\n    left + right\n}\n' >"$T/src/lib.rs"
  cat >"$T/tests/broken.rs" <<'RS'
use calcx::add;

#[test]
fn adds() {
    assert_eq!(add(2, 2), 4);
    let total = missing_total + add(1, 1);
    assert_eq!(total, 2);
}

#[test]
fn typed() {
    let n: i32 = "four";
    assert_eq!(n, 4);
}

#[test]
fn sums() {
    let v = vec![1, 2, 3];
    let s: u8 = v.iter().sum::<i64>();
    assert_eq!(s, 6);
}

#[test]
fn calls() {
    assert_eq!(calcx::sub(3, 1), 2);
}
RS
  capture cargo test_compile_error "$T" "cargo test 2>&1" "$(cargo --version)"
fi
if sel make; then
  C="$WORK/cdirect"
  rm -rf "$C" && mkdir -p "$C"
  cat >"$C/util.h" <<'H'
#ifndef UTIL_H
#define UTIL_H
int scale(int value, int factor);
static inline int clamp(int v) { int unused_tmp; return v > 100 ? 100 : v; }
#endif
H
  cat >"$C/main.c" <<'CSRC'
#include <stdio.h>
#include <string.h>
#include "util.h"

struct point { int x; int y; };

int compute(int a, int b) {
    int result;
    if (a > b)
        result = a - b;
    return result;
}

int main(int argc, char **argv) {
    int count = 0;
    char name[8];
    struct point p = {1, 2};
    strcpy(name, argv[0]);
    printf("%d %s\n", p.z, name);
    total += scale(count, 2);
    printf("%s\n", compute(1, 2));
    return clamp(count);
}
CSRC
  capture make gcc_direct "$C" "gcc -Wall -Wextra -c main.c 2>&1" "$(gcc --version | head -1)"
fi

# --- system (tables and stat): ps aux inside a fresh PID namespace running a small app stack,
# du of node_modules two levels deep, stat of a few files ------------------------------------
if sel systables; then
  S="$WORK/systables"
  rm -rf "$S" && mkdir -p "$S/www"
  echo ok >"$S/www/index.html"
  # The namespace shows only the processes started here (a web server, a node worker, a queue
  # loop, a cron-like sleeper), as `ps aux` in a container does.
  cat >"$S/stack.sh" <<'EOF'
cd "$(dirname "$0")/www"
/usr/bin/python3 -m http.server 8765 --bind 127.0.0.1 >/dev/null 2>&1 &
node -e 'setInterval(() => {}, 1000)' --title=worker >/dev/null 2>&1 &
node -e 'require("http").createServer((q, s) => s.end("ok")).listen(8766, "127.0.0.1")' >/dev/null 2>&1 &
bash -c 'while sleep 5; do :; done' &
for q in mail reports thumbnails; do bash -c "exec -a queue-$q sleep 600" & done
for n in 1 2; do /usr/bin/python3 -c 'import time, sys; time.sleep(600)' --queue=default --concurrency=4 --name "celery-worker-$n@app" & done
node -e 'setTimeout(() => {}, 600000)' -- --port 3000 --watch src --config ./config/dev.json &
sleep 2
exec bash -c "$1"
EOF
  capture system ps_aux "$S" "unshare --pid --fork --mount-proc bash $S/stack.sh 'ps aux'" "$(ps --version)"
  sed -i 's|"command": "unshare [^"]*"|"command": "ps aux"|' "$CORPUS/system/ps_aux.json"
  capture system du_node_modules "$ROOT" "du -h --max-depth=2 node_modules/@types node_modules/zod node_modules/cheerio node_modules/undici" "$(du --version | head -1)"
  capture system stat_files "$ROOT" "stat deno.json package.json main.ts filters src/filter/engine.ts" "$(stat --version | head -1)"
fi

# --- git (network): fetch and pull from a local bare repository another clone pushed to ------
if sel gitremote; then
  R="$WORK/gitremote"
  rm -rf "$R" && mkdir -p "$R"
  git init -q --bare -b main "$R/origin.git"
  git clone -q "$R/origin.git" "$R/up" 2>/dev/null
  (cd "$R/up" && git config user.email up@example.invalid && git config user.name up && git checkout -qb main &&
    mkdir -p src docs && for i in $(seq 1 12); do printf 'export const v%d = %d;\n' "$i" "$i" >"src/mod$i.ts"; done &&
    echo '# docs' >docs/index.md && git add -A && git commit -qm "initial import" && git push -q origin HEAD:main 2>/dev/null &&
    git checkout -qb feature/login && echo 'login' >src/login.ts && git add -A && git commit -qm login && git push -q origin feature/login &&
    git checkout -qb old-experiment main && git push -q origin old-experiment && git checkout -q main)
  (cd "$R/up" && for b in fix/typo-header fix/null-cart; do git branch -q "$b" main && git push -q origin "$b"; done)
  git clone -q -b main "$R/origin.git" "$R/down"
  (cd "$R/down" && git config user.email down@example.invalid && git config user.name down)
  (cd "$R/up" && for i in $(seq 1 12); do printf 'export const v%d = %d; // revised\nexport const w%d = "%s";\n' "$i" "$((i * 10))" "$i" "$(printf 'x%.0s' $(seq 1 $i))" >"src/mod$i.ts"; done &&
    for i in $(seq 13 24); do printf 'export const v%d = %d;\n' "$i" "$i" >"src/mod$i.ts"; done &&
    git rm -q docs/index.md && mkdir -p docs/guide && for p in install usage faq; do echo "# $p" >"docs/guide/$p.md"; done &&
    git add -A && git commit -qm "revise modules, split docs" && git push -q origin main &&
    git checkout -q feature/login && echo 'logout' >src/logout.ts && git add -A && git commit -qm logout && git push -q origin feature/login &&
    for b in billing search onboarding cache-layer dark-mode i18n audit-log rate-limit export-csv webhooks; do git branch -q "feature/$b" main && git push -q origin "feature/$b"; done &&
    for b in fix/timezone chore/deps-bump; do git branch -q "$b" main && git push -q origin "$b"; done &&
    git push -q origin --delete old-experiment fix/typo-header fix/null-cart && git tag -a v1.0.0 -m v1 main && git tag v1.0.1 main && git push -q origin --tags &&
    git checkout -qb release/1.x main && git push -q origin release/1.x && git checkout -q main)
  V="$(git --version)"
  capture git fetch_prune "$R/down" "git fetch --all --prune --tags 2>&1" "$V"
  (cd "$R/down" && git reset -q --hard origin/main~1 && echo local >NOTES.md && git add NOTES.md && git commit -qm notes)
  capture git pull_rebase "$R/down" "git pull --rebase --stat origin main 2>&1" "$V"
  capture git log_patch "$ROOT" "git log -p -n 3 $(git -C "$ROOT" rev-list --reverse HEAD | sed -n 40p)" "$V"
fi

# --- python (installs, json): pylint's JSON reporter; pip, poetry and cargo install with no
# route to their registries (PyPI, crates.io): the failure a sandboxed agent meets ------------
if sel pyextra; then
  [ -d "$WORK/pylintproj/inventory" ] || bash "$0" python >/dev/null
  capture python pylint_json "$WORK/pylintproj" "pylint --output-format=json inventory" "$(pylint --version 2>&1 | head -1)"
  P="$WORK/pyoffline"
  rm -rf "$P" && mkdir -p "$P/shop"
  : >"$P/shop/__init__.py"
  cat >"$P/pyproject.toml" <<'EOF'
[tool.poetry]
name = "shop"
version = "0.1.0"
description = "a shop"
authors = ["Dev <dev@example.invalid>"]

[tool.poetry.dependencies]
python = "^3.9"
requests = "^2.31"
pydantic = "^2.5"

[tool.poetry.group.dev.dependencies]
pytest = "^7.4"

[build-system]
requires = ["poetry-core"]
build-backend = "poetry.core.masonry.api"
EOF
  printf 'requests==2.31.0\npydantic>=2.5\nrich\n' >"$P/requirements.txt"
  # Without this machine's pip settings (a local wheel mirror): pip as it is configured by default.
  (unset PIP_FIND_LINKS PIP_CERT PIP_INDEX_URL PIP_EXTRA_INDEX_URL; PIP_CONFIG_FILE=/dev/null capture python pip_install_offline "$P" "pip install -r requirements.txt" "$(pip --version)")
  capture python poetry_install_offline "$P" "poetry install" "$(poetry --version 2>/dev/null)"
  # A monorepo whose packages are local path dependencies: the poetry install that works offline.
  PM="$WORK/poetrymono"
  rm -rf "$PM" && mkdir -p "$PM/shop" && : >"$PM/shop/__init__.py"
  LIBS="core models storage api cli utils auth billing search notify reports admin"
  for n in $LIBS; do
    mkdir -p "$PM/libs/$n/shop_$n" && : >"$PM/libs/$n/shop_$n/__init__.py"
    printf '[tool.poetry]\nname = "shop-%s"\nversion = "0.1.0"\ndescription = ""\nauthors = ["Dev <dev@example.invalid>"]\npackages = [{ include = "shop_%s" }]\n\n[tool.poetry.dependencies]\npython = "^3.9"\n\n[build-system]\nrequires = ["poetry-core"]\nbuild-backend = "poetry.core.masonry.api"\n' "$n" "$n" >"$PM/libs/$n/pyproject.toml"
  done
  { printf '[tool.poetry]\nname = "shop"\nversion = "0.1.0"\ndescription = ""\nauthors = ["Dev <dev@example.invalid>"]\n\n[tool.poetry.dependencies]\npython = "^3.9"\n'
    for n in $LIBS; do printf 'shop-%s = { path = "libs/%s", develop = true }\n' "$n" "$n"; done
    printf '\n[build-system]\nrequires = ["poetry-core"]\nbuild-backend = "poetry.core.masonry.api"\n'; } >"$PM/pyproject.toml"
  POETRY_VIRTUALENVS_IN_PROJECT=true capture python poetry_install_paths "$PM" "poetry install" "$(poetry --version 2>/dev/null)"
  capture cargo install_offline "$P" "cargo install ripgrep" "$(cargo --version)"
  # A local binary crate (no registry needed) with rustc warnings, installed into a scratch root.
  CI="$WORK/tally"
  rm -rf "$CI" "$WORK/cargo-root" && mkdir -p "$CI/src"
  printf '[package]\nname = "tally"\nversion = "0.3.1"\nedition = "2021"\n\n[[bin]]\nname = "tally"\n\n[[bin]]\nname = "tally-report"\npath = "src/report.rs"\n' >"$CI/Cargo.toml"
  cat >"$CI/src/main.rs" <<'EOF2'
use std::collections::HashMap;
use std::io::{self, BufRead};

fn count(words: &Vec<String>) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    let unused_total = 0;
    for w in words { *m.entry(w.clone()).or_insert(0) += 1; }
    m
}

fn main() {
    let mut words = Vec::new();
    for line in io::stdin().lock().lines() {
        let line = line.unwrap();
        for w in line.split_whitespace() { words.push(w.to_lowercase()); }
    }
    let mut counts: Vec<_> = count(&words).into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1));
    for (w, n) in counts.iter().take(10) { println!("{n:6} {w}"); }
}
EOF2
  cat >"$CI/src/report.rs" <<'EOF2'
use std::fmt::Write;

#[derive(Debug)]
struct Row { name: String, hits: u64, misses: u64 }

fn render(rows: &Vec<Row>) -> String {
    let mut out = String::new();
    let mut scratch = 0;
    for r in rows { writeln!(out, "{:<20} {:>8} {:>8}", r.name, r.hits, r.misses).unwrap(); }
    out
}

fn main() {
    let rows = vec![Row { name: "a".into(), hits: 1, misses: 0 }];
    print!("{}", render(&rows));
}
EOF2
  (cd "$CI" && cargo generate-lockfile --offline >/dev/null 2>&1)
  CARGO_NET_OFFLINE=true CARGO_TERM_COLOR=never capture cargo install_path "$CI" "cargo install --path . --root $WORK/cargo-root" "$(cargo --version)"
fi

# --- ruby: a small shop library with rubocop offences, failing rspec examples and minitest
# tests (Debian's rubocop, ruby-rspec, rake, ruby-minitest); bundle install with no route to
# rubygems.org ------------------------------------------------------------------------------
if sel ruby; then
  B="$WORK/rubyshop"
  rm -rf "$B" && mkdir -p "$B/lib/shop" "$B/spec" "$B/test"
  cat >"$B/lib/shop/cart.rb" <<'EOF'
module Shop
  class Cart
    attr_reader :items

    def initialize(items = [])
      @items = items
    end

    def add(name, price, qty = 1)
      raise ArgumentError, "qty must be positive" if qty <= 0
      @items << { name: name, price: price, qty: qty }
      self
    end

    def total
      sum = 0
      @items.each { |i| sum = sum + i[:price] * i[:qty] }
      sum
    end

    def discount(code)
      if code == "HALF" then total / 2 elsif code == "TENOFF" then total - 10 else total end
    end

    def find(name)
      @items.select { |i| i[:name] == name }.first
    end

    def remove(name)
      @items.delete_if { |i| i[:name] == name }
    end

    def empty?
      @items.length == 0
    end

    def summary
      "#{@items.length} items, total #{total}"
    end
  end
end
EOF
  cat >"$B/lib/shop/inventory.rb" <<'EOF'
require 'json'
module Shop
  class Inventory
    def initialize(path)
      @path = path
      @stock = Hash.new
    end
    def load
      data = JSON.parse(File.read(@path))
      data.each do |row|
        @stock[row["name"]] = row["qty"]
      end
      return @stock
    end
    def reserve(name, qty)
      unless @stock.has_key?(name)
        raise "unknown item #{name}"
      end
      if @stock[name] < qty then return false end
      @stock[name] -= qty
      true
    end
    def report(out = $stdout)
      @stock.each_pair { |k, v| out.puts "%-20s %5d" % [k, v] }
    end
  end
end
EOF
  printf "require_relative 'shop/cart'\nrequire_relative 'shop/inventory'\n" >"$B/lib/shop.rb"
  printf 'AllCops:\n  TargetRubyVersion: 3.1\n  NewCops: enable\n\nMetrics/MethodLength:\n  Max: 15\n' >"$B/.rubocop.yml"
  cat >"$B/spec/cart_spec.rb" <<'EOF'
require_relative '../lib/shop'

RSpec.describe Shop::Cart do
  subject(:cart) { described_class.new }

  describe '#add' do
    it 'adds an item' do
      cart.add('apple', 3)
      expect(cart.items.size).to eq(1)
    end
    it 'defaults qty to 1' do
      expect(cart.add('apple', 3).items.first[:qty]).to eq(1)
    end
    it 'rejects a zero qty' do
      expect { cart.add('apple', 3, 0) }.to raise_error(ArgumentError, 'qty must be positive')
    end
    it 'rejects a negative price' do
      expect { cart.add('apple', -3) }.to raise_error(ArgumentError)
    end
  end

  describe '#total' do
    it 'is zero when empty' do
      expect(cart.total).to eq(0)
    end
    it 'sums price times qty' do
      cart.add('apple', 3, 2).add('pear', 5)
      expect(cart.total).to eq(11)
    end
    it 'rounds to cents' do
      cart.add('gum', 0.1, 3)
      expect(cart.total).to eq(0.3)
    end
  end

  describe '#discount' do
    before { cart.add('tv', 100) }
    it('halves with HALF') { expect(cart.discount('HALF')).to eq(50) }
    it('takes ten with TENOFF') { expect(cart.discount('TENOFF')).to eq(90) }
    it('ignores unknown codes') { expect(cart.discount('NOPE')).to eq(100) }
    it('is case-insensitive') { expect(cart.discount('half')).to eq(50) }
  end

  describe '#find and #remove' do
    before { cart.add('apple', 3).add('pear', 5) }
    it('finds by name') { expect(cart.find('pear')).to include(price: 5) }
    it('returns nil when missing') { expect(cart.find('kiwi')).to be_nil }
    it('removes by name') { cart.remove('apple'); expect(cart.items.map { |i| i[:name] }).to eq(['pear']) }
    it('reports empty') { expect(cart).not_to be_empty }
    it('summarises') { expect(cart.summary).to eq('2 items, total 8') }
  end
end

RSpec.describe Shop::Inventory do
  it 'raises on an unknown item' do
    inv = described_class.new('/nonexistent.json')
    expect { inv.reserve('x', 1) }.to raise_error(RuntimeError, /unknown item/)
  end
  it 'loads stock from a file' do
    inv = described_class.new('spec/fixtures/stock.json')
    expect(inv.load).to eq('apple' => 4)
  end
end
EOF
  cat >"$B/test/cart_test.rb" <<'EOF'
require 'minitest/autorun'
require 'stringio'
require_relative '../lib/shop'

class CartTest < Minitest::Test
  def setup
    @cart = Shop::Cart.new
  end

  def test_add
    @cart.add('apple', 3)
    assert_equal 1, @cart.items.size
  end

  def test_total
    @cart.add('apple', 3, 2).add('pear', 5)
    assert_equal 11, @cart.total
  end

  def test_total_cents
    @cart.add('gum', 0.1, 3)
    assert_equal 0.3, @cart.total
  end

  def test_discount_half
    @cart.add('tv', 100)
    assert_equal 50, @cart.discount('HALF')
  end

  def test_discount_case
    @cart.add('tv', 100)
    assert_equal 50, @cart.discount('half'), 'discount codes are case-insensitive'
  end

  def test_summary
    @cart.add('apple', 3)
    assert_equal '1 items, total 3', @cart.summary
  end

  def test_empty
    assert @cart.empty?
  end

  def test_remove
    @cart.add('apple', 3).remove('apple')
    assert_empty @cart.items
  end
end

class InventoryTest < Minitest::Test
  def test_reserve_unknown
    inv = Shop::Inventory.new('/nonexistent.json')
    assert_raises(RuntimeError) { inv.reserve('x', 1) }
  end

  def test_load
    inv = Shop::Inventory.new('test/fixtures/stock.json')
    assert_equal({ 'apple' => 4 }, inv.load)
  end

  def test_report
    inv = Shop::Inventory.new('/nonexistent.json')
    inv.instance_variable_set(:@stock, { 'apple' => 4, 'pear' => 12 })
    out = StringIO.new
    inv.report(out)
    assert_equal "apple: 4\npear: 12\n", out.string
  end

  def test_reserve_too_many
    inv = Shop::Inventory.new('/nonexistent.json')
    inv.instance_variable_set(:@stock, { 'apple' => 4 })
    refute inv.reserve('apple', 5)
    assert_equal 4, inv.instance_variable_get(:@stock)['apple']
  end

  def test_reserve_all
    inv = Shop::Inventory.new('/nonexistent.json')
    inv.instance_variable_set(:@stock, { 'apple' => 4 })
    assert inv.reserve('apple', 4)
  end
end
EOF
  cat >"$B/Rakefile" <<'EOF'
require 'rake/testtask'
Rake::TestTask.new(:test) do |t|
  t.libs << 'test'
  t.test_files = FileList['test/**/*_test.rb']
end
task default: :test
EOF
  cat >"$B/Gemfile" <<'EOF'
source "https://rubygems.org"

gem "rack", "~> 3.0"
gem "sinatra", "~> 4.0"
gem "pg", "~> 1.5"

group :development, :test do
  gem "rspec", "~> 3.12"
  gem "rubocop", "~> 1.60", require: false
end
EOF
  V="$(ruby --version)"
  capture ruby rubocop_lib "$B" "rubocop lib" "rubocop $(rubocop --version)"
  capture ruby rubocop_json "$B" "rubocop --format json lib" "rubocop $(rubocop --version)"
  capture ruby rspec_failing "$B" "rspec" "rspec $(rspec --version | head -1 | tr -d '\n')"
  capture ruby rspec_json "$B" "rspec --format json" "rspec $(rspec --version | head -1 | tr -d '\n')"
  capture ruby rake_test_failing "$B" "rake test" "$V, rake $(rake --version)"
  capture ruby bundle_install_offline "$B" "bundle install" "$(bundle --version)"
  # The gems Debian installed (sinatra, rspec, rubocop, webmock, …) resolve without a
  # registry: `bundle install --local`, the install that works in a sandbox.
  BL="$WORK/rubylocal"
  rm -rf "$BL" && mkdir -p "$BL"
  printf 'source "https://rubygems.org"\n\ngem "sinatra"\ngem "webrick"\ngem "rake"\n\ngroup :development, :test do\n  gem "minitest"\n  gem "rack-test"\n  gem "webmock"\n  gem "rspec"\n  gem "rubocop", require: false\n  gem "debug"\nend\n' >"$BL/Gemfile"
  capture ruby bundle_install_local "$BL" "bundle install --local" "$(bundle --version)"
fi

# --- rspecpending: `rspec --format progress` (RSpec 3.12, Debian) on a spec with a failure and 74
# pending examples: `pending` blocks, `skip`, `xit` and an example with no body
if sel rspecpending; then
  R="$WORK/rspecpending"
  rm -rf "$R" && mkdir -p "$R/spec"
  cat >"$R/spec/shop_spec.rb" <<'EOF'
RSpec.describe "Shop" do
  it "adds items" do
    expect(1 + 1).to eq(2)
  end
  it "computes tax" do
    expect(0.2 * 100).to eq(21)
  end
  (1..30).each do |i|
    it "exports format #{i}" do
      pending "exporter not written yet"
      expect(i).to eq(0)
    end
  end
  (1..25).each do |i|
    it "syncs store #{i}" do
      skip "needs the sync service"
    end
  end
  (1..18).each do |i|
    xit "rounds currency #{i}" do
      expect(i).to eq(i)
    end
  end
  it "applies coupons"
end
EOF
  capture ruby rspec_pending_many "$R" "rspec --format progress" "rspec $(rspec --version | head -1 | tr -d '\n')"
fi

# --- php: composer install with no route to packagist.org -----------------------------------
if sel php; then
  H="$WORK/phpapp"
  rm -rf "$H" && mkdir -p "$H/src"
  cat >"$H/composer.json" <<'EOF'
{
    "name": "example/shop",
    "type": "project",
    "require": {
        "php": ">=8.1",
        "monolog/monolog": "^3.5",
        "guzzlehttp/guzzle": "^7.8",
        "symfony/console": "^6.4"
    },
    "require-dev": {
        "phpunit/phpunit": "^10.5"
    },
    "autoload": { "psr-4": { "Shop\\": "src/" } }
}
EOF
  capture php composer_install_offline "$H" "composer install --no-interaction" "$(composer --version 2>/dev/null)"
fi

# --- ansible: a playbook against localhost (connection local) whose service check fails -----
if sel ansible; then
  A="$WORK/ansible"
  rm -rf "$A" && mkdir -p "$A/templates"
  printf '[web]\nlocalhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3\n' >"$A/inventory.ini"
  printf 'server_name {{ server_name }};\nlisten {{ port }};\n' >"$A/templates/site.conf.j2"
  cat >"$A/site.yml" <<EOF
- name: Configure the web tier
  hosts: web
  gather_facts: true
  vars:
    root: $A/out
    server_name: shop.example.invalid
    port: 8080
  tasks:
    - name: Create the release directories
      ansible.builtin.file:
        path: "{{ root }}/{{ item }}"
        state: directory
        mode: "0755"
      loop: [releases, shared, shared/log, shared/tmp, current]
    - name: Render the site config
      ansible.builtin.template:
        src: templates/site.conf.j2
        dest: "{{ root }}/shared/site.conf"
    - name: Install config fragments
      ansible.builtin.copy:
        content: "# {{ item }}\n"
        dest: "{{ root }}/shared/{{ item }}.conf"
      loop: [gzip, headers, cache, security]
    - name: Skip the TLS setup outside production
      ansible.builtin.debug:
        msg: tls
      when: port == 443
    - name: Check that the app answers
      ansible.builtin.command: curl --fail --silent --max-time 2 http://127.0.0.1:8799/health
      changed_when: false
    - name: Restart the app
      ansible.builtin.command: /bin/true
EOF
  capture infra ansible_playbook_failed "$A" "ansible-playbook -i inventory.ini site.yml" "$(ansible-playbook --version 2>/dev/null | sed -n 1p)"
fi

# --- pre-commit: local hooks (language system and pygrep, no network) with failures --------
if sel precommit; then
  PC="$WORK/precommit"
  rm -rf "$PC" && mkdir -p "$PC/scripts" "$PC/app"
  cat >"$PC/.pre-commit-config.yaml" <<'EOF'
repos:
  - repo: meta
    hooks:
      - id: check-hooks-apply
      - id: check-useless-excludes
  - repo: local
    hooks:
      - id: no-debugger
        name: no debugger imports
        language: pygrep
        entry: '^\s*(import pdb|breakpoint\(\))'
        types: [python]
      - id: no-todo-fixme
        name: no FIXME markers
        language: pygrep
        entry: 'FIXME'
      - id: shellcheck
        name: shellcheck
        language: system
        entry: shellcheck
        types: [shell]
      - id: yamllint
        name: yamllint
        language: system
        entry: yamllint -d relaxed
        types: [yaml]
      - id: pylint-imports
        name: pylint unused imports
        language: system
        entry: pylint --disable=all --enable=unused-import,forgotten-debug-statement --score=n
        types: [python]
      - id: json-valid
        name: json is valid
        language: system
        entry: python3 -c 'import json, sys; [json.load(open(f)) for f in sys.argv[1:]]'
        files: '\.json$'
      - id: rust-fmt
        name: rustfmt
        language: system
        entry: rustfmt --check
        types: [rust]
EOF
  cat >"$PC/scripts/deploy.sh" <<'EOF'
#!/bin/bash
target=$1
cd $target
rm -rf $BUILD_DIR/*
for f in `ls *.tar.gz`; do echo $f; done
EOF
  cat >"$PC/app/main.py" <<'EOF'
import os
import sys
import json


def handler(event):
    breakpoint()
    data = json.loads(event)
    return data["id"]  # FIXME: validate
EOF
  printf 'def ok():\n    return 1\n' >"$PC/app/util.py"
  printf 'key: value\nlist:\n- a\n-  b\nkey: dup\n' >"$PC/app/config.yaml"
  printf '{"name": "app", "version": 1,}\n' >"$PC/app/settings.json"
  printf '{"ok": true}\n' >"$PC/app/good.json"
  (cd "$PC" && git init -q . && git add -A)
  capture lint precommit_failing "$PC" "pre-commit run --all-files" "$(pre-commit --version)"
fi

# --- node (build, stylish lint): next build of a small app router site (a clean build with
# its route table, and one with a type error), eslint's default (stylish) format. next, react
# and eslint come from npm (ZEPH_CORPUS_NPM) ---------------------------------------------------
if sel nodebuild; then
  NPMDIR="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}"
  NX="$WORK/nextshop"
  rm -rf "$NX" && mkdir -p "$NX/app/products/[id]" "$NX/app/about" "$NX/app/cart" "$NX/app/api/health" "$NX/app/blog/[slug]" "$NX/lib"
  ln -s "$NPMDIR/node_modules" "$NX/node_modules"
  printf '{ "name": "nextshop", "private": true, "scripts": { "build": "next build" } }\n' >"$NX/package.json"
  printf '/** @type {import("next").NextConfig} */\nmodule.exports = { eslint: { ignoreDuringBuilds: true } };\n' >"$NX/next.config.js"
  cat >"$NX/tsconfig.json" <<'EOF'
{ "compilerOptions": { "target": "ES2017", "lib": ["dom", "dom.iterable", "esnext"], "allowJs": true, "skipLibCheck": true,
  "strict": true, "noEmit": true, "esModuleInterop": true, "module": "esnext", "moduleResolution": "bundler",
  "resolveJsonModule": true, "isolatedModules": true, "jsx": "preserve", "incremental": true,
  "plugins": [{ "name": "next" }] },
  "include": ["next-env.d.ts", "**/*.ts", "**/*.tsx"], "exclude": ["node_modules"] }
EOF
  cat >"$NX/lib/products.ts" <<'EOF'
export interface Product { id: string; name: string; price: number }
export const products: Product[] = [
  { id: "1", name: "Lamp", price: 30 }, { id: "2", name: "Desk", price: 250 }, { id: "3", name: "Chair", price: 120 },
];
export const posts = ["hello", "pricing", "roadmap"];
EOF
  printf 'export default function RootLayout({ children }: { children: React.ReactNode }) {\n  return <html lang="en"><body>{children}</body></html>;\n}\n' >"$NX/app/layout.tsx"
  printf 'import { products } from "../lib/products";\nexport default function Home() {\n  return <ul>{products.map((p) => <li key={p.id}>{p.name}</li>)}</ul>;\n}\n' >"$NX/app/page.tsx"
  printf 'export default function About() { return <p>About us</p>; }\n' >"$NX/app/about/page.tsx"
  printf '"use client";\nimport { useState } from "react";\nexport default function Cart() {\n  const [n, setN] = useState(0);\n  return <button onClick={() => setN(n + 1)}>{n}</button>;\n}\n' >"$NX/app/cart/page.tsx"
  printf 'export function GET() { return Response.json({ ok: true }); }\n' >"$NX/app/api/health/route.ts"
  cat >"$NX/app/products/[id]/page.tsx" <<'EOF'
import { products } from "../../../lib/products";
export function generateStaticParams() { return products.map((p) => ({ id: p.id })); }
export default async function Product({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const p = products.find((x) => x.id === id);
  return <h1>{p?.name} {p?.price}</h1>;
}
EOF
  cat >"$NX/app/blog/[slug]/page.tsx" <<'EOF'
import { posts } from "../../../lib/products";
export function generateStaticParams() { return posts.map((slug) => ({ slug })); }
export default async function Post({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  return <article>{slug}</article>;
}
EOF
  export NEXT_TELEMETRY_DISABLED=1
  V="next $("$NPMDIR/node_modules/.bin/next" --version 2>/dev/null | tr -d '\n')"
  PATH="$NPMDIR/node_modules/.bin:$PATH" capture node next_build "$NX" "next build" "$V"
  cat >"$NX/app/cart/total.tsx" <<'EOF'
import { products, type Product } from "../../lib/products";
export function Total({ items }: { items: Product[] }) {
  const sum: number = items.reduce((s, p) => s + p.price, "0");
  return <p>{sum.toFixed(2)} of {products.length}</p>;
}
EOF
  PATH="$NPMDIR/node_modules/.bin:$PATH" capture node next_build_type_error "$NX" "next build" "$V"

  E="$WORK/eslintproj"
  rm -rf "$E" && mkdir -p "$E/src/routes" "$E/src/lib"
  ln -s "$NPMDIR/node_modules" "$E/node_modules"
  cat >"$E/eslint.config.mjs" <<'EOF'
export default [{
  files: ["**/*.js"],
  languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { console: "readonly", process: "readonly" } },
  rules: {
    "no-unused-vars": "error", "no-undef": "error", "eqeqeq": "warn", "no-console": "warn", "prefer-const": "warn",
    "no-var": "error", "no-empty": "error", "no-dupe-keys": "error", "no-unreachable": "error", "curly": "warn",
  },
}];
EOF
  for n in users orders products invoices; do
    cat >"$E/src/routes/$n.js" <<EOF
import { db } from "../lib/db.js";
import { format } from "../lib/format.js";

var cache = {};
export async function list$n(req) {
  let limit = req.query.limit || 20;
  if (req.query.page == undefined) console.log("no page for $n");
  const rows = await db.query("select * from $n limit " + limit);
  try { cache[req.url] = rows; } catch (e) {}
  return rows.map((r) => formatRow(r));
}
export function get$n(id) {
  if (!id) return null
  return db.one("select * from $n where id = " + id);
  console.log("unreachable");
}
EOF
  done
  printf 'export const db = { query: async (q) => [q], one: async (q) => q };\n' >"$E/src/lib/db.js"
  printf 'export function format(x) {\n  return { name: x.name, name: x.title };\n}\nexport const unused = 1;\n' >"$E/src/lib/format.js"
  for n in a b c d e f g h; do printf 'export const %s = (x) => x * 2;\n' "$n" >"$E/src/lib/clean_$n.js"; done
  PATH="$NPMDIR/node_modules/.bin:$PATH" capture lint eslint_stylish "$E" "npx eslint src" "eslint $("$NPMDIR/node_modules/.bin/eslint" --version)"
fi

# --- mix: an Elixir library (Debian's elixir 1.14) with compiler warnings and failing ExUnit
# tests; no dependencies, so no Hex --------------------------------------------------------
if sel mix && command -v mix >/dev/null; then
  X="$WORK/ledger"
  rm -rf "$X" && mkdir -p "$X/lib/ledger" "$X/test"
  cat >"$X/mix.exs" <<'EOF'
defmodule Ledger.MixProject do
  use Mix.Project
  def project, do: [app: :ledger, version: "0.1.0", elixir: "~> 1.14", deps: []]
  def application, do: [extra_applications: [:logger]]
end
EOF
  cat >"$X/lib/ledger.ex" <<'EOF'
defmodule Ledger do
  alias Ledger.Account

  def open(name, opening \\ 0), do: %Account{name: name, balance: opening}

  def deposit(%Account{} = acc, amount) when amount > 0 do
    %{acc | balance: acc.balance + amount, history: [{:deposit, amount} | acc.history]}
  end

  def withdraw(%Account{} = acc, amount) do
    fee = 1
    if amount > acc.balance do
      {:error, :insufficient_funds}
    else
      {:ok, %{acc | balance: acc.balance - amount, history: [{:withdraw, amount} | acc.history]}}
    end
  end

  def transfer(from, to, amount) do
    with {:ok, from} <- withdraw(from, amount) do
      {:ok, from, deposit(to, amount)}
    end
  end

  def statement(%Account{history: history, name: name}) do
    lines = Enum.map(Enum.reverse(history), fn {kind, amount} -> "#{kind} #{amount}" end)
    Enum.join(["Statement for #{name}" | lines], "\n")
  end
end
EOF
  cat >"$X/lib/ledger/account.ex" <<'EOF'
defmodule Ledger.Account do
  defstruct name: nil, balance: 0, history: []

  def summary(acc, currency) do
    "#{acc.name}: #{acc.balance}"
  end
end
EOF
  printf 'ExUnit.start()\n' >"$X/test/test_helper.exs"
  cat >"$X/test/ledger_test.exs" <<'EOF'
defmodule LedgerTest do
  use ExUnit.Case, async: true
  alias Ledger.Account

  test "open starts at the opening balance" do
    assert Ledger.open("ann", 10).balance == 10
  end

  test "deposit adds to the balance" do
    assert Ledger.deposit(Ledger.open("ann"), 5).balance == 5
  end

  test "deposit rejects a negative amount" do
    assert_raise ArgumentError, fn -> Ledger.deposit(Ledger.open("ann"), -5) end
  end

  test "withdraw takes from the balance" do
    assert {:ok, %Account{balance: 3}} = Ledger.withdraw(Ledger.open("ann", 5), 2)
  end

  test "withdraw charges a fee" do
    {:ok, acc} = Ledger.withdraw(Ledger.open("ann", 5), 2)
    assert acc.balance == 2
  end

  test "withdraw refuses an overdraft" do
    assert Ledger.withdraw(Ledger.open("ann", 1), 2) == {:error, :insufficient_funds}
  end

  test "transfer moves money" do
    {:ok, from, to} = Ledger.transfer(Ledger.open("ann", 10), Ledger.open("bob"), 4)
    assert {from.balance, to.balance} == {6, 4}
  end

  test "statement lists the history" do
    acc = Ledger.open("ann") |> Ledger.deposit(5) |> Ledger.deposit(7)
    assert Ledger.statement(acc) == "Statement for ann\ndeposit 5\ndeposit 7\n"
  end

  test "summary shows the currency" do
    assert Account.summary(Ledger.open("ann", 3), "EUR") == "ann: 3 EUR"
  end
end
EOF
  MIX_HOME="$WORK/mixhome" capture misc mix_test_failing "$X" "mix test" "$(elixir --version 2>/dev/null | tail -1)"
fi

# --- fam2: python unittest, npm run, pyright, curl, apt-get, sqlite3, psql, openssl ----------
# Selectors: unittest npmrun pyright curl apt sqlite psql openssl. Each tool gives two real runs:
# the corpus case and a second, different one kept as the rule's golden fixture
# (tests/fixtures/filters/<rule>/), which capture_golden writes.
capture_golden() {
  local rule="$1" name="$2" dir="$3" cmd="$4" fx="$ROOT/tests/fixtures/filters/$1"
  mkdir -p "$fx"
  (cd "$dir" && bash -c "$cmd") >"$fx/$name.in.txt" 2>&1
  local code=$?
  if [ "$code" -eq 0 ]; then printf '%s\n' "$cmd" >"$fx/$name.cmd"; else printf '%s\nexit %d\n' "$cmd" "$code" >"$fx/$name.cmd"; fi
  echo "golden $rule/$name: exit $code, $(wc -l <"$fx/$name.in.txt") lines"
}

if sel unittest; then
  U="$WORK/inventory"
  rm -rf "$U" && mkdir -p "$U/inventory" "$U/tests"
  cat >"$U/inventory/__init__.py" <<'EOF'
from dataclasses import dataclass, field


@dataclass
class Item:
    sku: str
    qty: int
    price: float


@dataclass
class Stock:
    items: dict = field(default_factory=dict)

    def add(self, sku, qty, price):
        if qty <= 0:
            raise ValueError(f"qty must be positive, got {qty}")
        item = self.items.get(sku)
        if item:
            item.qty += qty
        else:
            self.items[sku] = Item(sku, qty, price)

    def remove(self, sku, qty):
        item = self.items[sku]
        item.qty -= qty
        return item.qty

    def value(self):
        return round(sum(i.qty * i.price for i in self.items.values()), 1)

    def report(self):
        return "\n".join(f"{i.sku}: {i.qty}" for i in sorted(self.items.values(), key=lambda i: i.sku))

    def low(self, limit):
        return [i.sku for i in self.items.values() if i.qty < limit]
EOF
  cat >"$U/tests/__init__.py" </dev/null
  cat >"$U/tests/test_stock.py" <<'EOF'
import unittest

from inventory import Stock


class AddTest(unittest.TestCase):
    def setUp(self):
        self.s = Stock()
        self.s.add("A1", 3, 2.5)

    def test_add_new(self):
        self.assertEqual(self.s.items["A1"].qty, 3)

    def test_add_existing(self):
        self.s.add("A1", 2, 2.5)
        self.assertEqual(self.s.items["A1"].qty, 5)

    def test_add_zero_rejected(self):
        with self.assertRaises(ValueError):
            self.s.add("A2", 0, 1.0)

    def test_add_negative_message(self):
        with self.assertRaisesRegex(ValueError, "must be > 0"):
            self.s.add("A2", -1, 1.0)

    def test_value(self):
        self.s.add("B2", 4, 0.35)
        self.assertEqual(self.s.value(), 8.9)

    @unittest.skip("pricing rules not settled")
    def test_discount(self):
        pass


class RemoveTest(unittest.TestCase):
    def setUp(self):
        self.s = Stock()
        for n, sku in enumerate(["C3", "A1", "B2"]):
            self.s.add(sku, 10 + n, 1.0)

    def test_remove(self):
        self.assertEqual(self.s.remove("A1", 4), 7)

    def test_remove_all(self):
        self.assertEqual(self.s.remove("C3", 10), 0)

    def test_remove_unknown(self):
        self.assertEqual(self.s.remove("Z9", 1), 0)

    def test_never_negative(self):
        self.assertGreaterEqual(self.s.remove("B2", 20), 0)


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.s = Stock()
        for sku, qty in [("C3", 1), ("A1", 12), ("B2", 4)]:
            self.s.add(sku, qty, 1.0)

    def test_report_sorted(self):
        self.assertEqual(self.s.report(), "A1: 12\nB2: 4\nC3: 1")

    def test_report_header(self):
        self.assertEqual(self.s.report(), "SKU QTY\nA1: 12\nB2: 4\nC3: 1")

    def test_low(self):
        self.assertEqual(self.s.low(5), ["B2", "C3"])

    def test_low_none(self):
        self.assertEqual(self.s.low(1), [])

    def test_items_listing(self):
        self.assertListEqual(sorted(self.s.items), ["A1", "B2", "C3"])

    @unittest.expectedFailure
    def test_report_totals(self):
        self.assertIn("total", self.s.report())


if __name__ == "__main__":
    unittest.main()
EOF
  capture python unittest_failing "$U" "python3 -m unittest -v" "$(python3 --version)"
  # Second run (golden): the default (dotted) verbosity on a different module, one error.
  mkdir -p "$U/t2" && cat >"$U/t2/test_parse.py" <<'EOF'
import json
import unittest


def parse(line):
    key, _, value = line.partition("=")
    return key.strip(), int(value)


class ParseTest(unittest.TestCase):
    def test_simple(self):
        self.assertEqual(parse("a=1"), ("a", 1))

    def test_spaces(self):
        self.assertEqual(parse(" b = 2 "), ("b", 2))

    def test_missing_value(self):
        self.assertEqual(parse("c="), ("c", 0))

    def test_json_roundtrip(self):
        self.assertDictEqual(json.loads('{"x": 1, "y": [1, 2]}'), {"x": 1, "y": [1, 2, 3]})

    def test_many(self):
        for i in range(30):
            with self.subTest(i=i):
                self.assertEqual(parse(f"k{i}={i}"), (f"k{i}", i))


if __name__ == "__main__":
    unittest.main()
EOF
  capture_golden python-unittest dotted "$U/t2" "python3 -m unittest test_parse"
fi

if sel npmrun; then
  N="$WORK/npmrun"
  rm -rf "$N" && mkdir -p "$N/src"
  cat >"$N/package.json" <<'EOF'
{ "name": "reports", "version": "1.2.0", "private": true,
  "scripts": { "build": "node build.mjs", "prebuild": "node -e \"console.log('cleaning dist')\"" } }
EOF
  for p in index about pricing contact blog faq team jobs press legal privacy terms security status changelog; do
    printf '# %s\n\nbody of %s\n' "$p" "$p" >"$N/src/$p.md"
  done
  printf -- '---\ntitle: [broken\n---\n# careers\n' >"$N/src/webinars.md"
  cat >"$N/build.mjs" <<'EOF'
import { readdirSync, readFileSync } from "node:fs";
function frontMatter(file, text) {
  if (!text.startsWith("---")) return {};
  const body = text.split("---")[1];
  for (const line of body.trim().split("\n")) {
    const [key, value] = line.split(": ");
    if (value.startsWith("[") && !value.endsWith("]")) {
      throw new SyntaxError(`${file}: unterminated list in front matter key "${key}"`);
    }
  }
  return {};
}
for (const file of readdirSync("src").sort()) {
  console.log(`rendering src/${file} -> dist/${file.replace(/\.md$/, ".html")}`);
  frontMatter(`src/${file}`, readFileSync(`src/${file}`, "utf8"));
}
EOF
  capture node npm_run_failing "$N" "npm run build" "npm $(npm --version)"
  # Second run (golden): a script that does not exist.
  capture_golden npm-run missing_script "$N" "npm run lint"
fi

if sel pyright; then
  NPMBIN="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}/node_modules/.bin"
  [ -x "$NPMBIN/pyright" ] || (cd "$(dirname "$(dirname "$NPMBIN")")" && npm install --no-audit --no-fund pyright@1 >/dev/null 2>&1)
  P="$WORK/pyrightpkg"
  rm -rf "$P" && mkdir -p "$P/shop"
  printf '{ "typeCheckingMode": "standard" }\n' >"$P/pyrightconfig.json"
  cat >"$P/shop/cart.py" <<'EOF'
from dataclasses import dataclass
from typing import Optional


@dataclass
class Line:
    sku: str
    qty: int
    price: float


class Cart:
    def __init__(self) -> None:
        self.lines: list[Line] = []

    def add(self, sku: str, qty: int, price: float) -> None:
        self.lines.append(Line(sku, qty, price))

    def find(self, sku: str) -> Optional[Line]:
        for line in self.lines:
            if line.sku == sku:
                return line
        return None

    def qty_of(self, sku: str) -> int:
        return self.find(sku).qty

    def total(self) -> int:
        return sum(l.qty * l.price for l in self.lines)

    def skus(self) -> list[int]:
        return [l.sku for l in self.lines]
EOF
  cat >"$P/shop/checkout.py" <<'EOF'
from shop.cart import Cart
from shop.payment import charge


def checkout(cart: Cart, card: str) -> str:
    amount = cart.total()
    receipt = charge(card, amount)
    cart.add("fee", "1", 0.5)
    return receipt.upper()


def summary(cart: Cart) -> str:
    return ", ".join(cart.skus()) + cart.count
EOF
  PATH="$NPMBIN:$PATH" capture python pyright_errors "$P" "pyright shop" "pyright $("$NPMBIN/pyright" --version 2>/dev/null | tail -1)"
  sed -i "s|\"command\": \"pyright shop\"|\"command\": \"npx pyright shop\"|" "$CORPUS/python/pyright_errors.json"
  PATH="$NPMBIN:$PATH" capture python pyright_json "$P" "pyright --outputjson shop" "pyright $("$NPMBIN/pyright" --version 2>/dev/null | tail -1)"
  # The same with --verbose: its setup (search paths, the excluded globs), heap stats, the imports
  # its typeshed stubs cannot resolve and its timings around the report.
  PATH="$NPMBIN:$PATH" capture python pyright_verbose_errors "$P" "pyright --verbose shop" "pyright $("$NPMBIN/pyright" --version 2>/dev/null | tail -1)"
  sed -i "s|\"command\": \"pyright --verbose shop\"|\"command\": \"npx pyright --verbose shop\"|" "$CORPUS/python/pyright_verbose_errors.json"
  # Second run (golden): strict mode on a script with an unknown name on its first line, unused
  # imports and a possibly unbound variable.
  mkdir -p "$P/tools"
  printf '{ "typeCheckingMode": "strict" }\n' >"$P/tools/pyrightconfig.json"
  cat >"$P/tools/sync.py" <<'EOF'
VERSION = __versionn__
import os
import sys


def main(argv):
    if len(argv) > 1:
        target = argv[1]
    print("syncing", target)
    return 0
EOF
  PATH="$NPMBIN:$PATH" capture_golden pyright-json strict_script "$P/tools" "pyright --outputjson sync.py"
fi

# curl and openssl talk to servers started here on 127.0.0.1 (python's http.server, openssl
# s_server with a self-signed certificate) and stopped after.
if sel curl || sel openssl; then
  W="$WORK/web"
  rm -rf "$W" && mkdir -p "$W/site/docs" "$W/site/api" "$W/tls"
  for i in $(seq 1 40); do echo "page $i" >"$W/site/docs/p$i.html"; done
  echo '{"ok":true}' >"$W/site/api/health.json"
  (cd "$W/tls" && openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 365 \
    -subj "/C=DE/O=Zeph Corpus/CN=api.internal.test" -addext "subjectAltName=DNS:api.internal.test,DNS:localhost,IP:127.0.0.1" >/dev/null 2>&1)
  (cd "$W/site" && exec python3 -m http.server 18731 --bind 127.0.0.1 >/dev/null 2>&1) &
  HTTP_PID=$!
  (cd "$W/tls" && exec openssl s_server -accept 18732 -cert cert.pem -key key.pem -www -quiet >/dev/null 2>&1) &
  TLS_PID=$!
  sleep 1
  if sel curl; then
    capture system curl_verbose_redirect "$W" "curl -v -L http://127.0.0.1:18731/docs" "$(curl --version | head -1)"
    # Second run (golden): TLS to a self-signed server, refused, then a 404.
    capture_golden curl-verbose tls_refused "$W" "curl -v https://127.0.0.1:18732/"
    capture_golden curl-verbose not_found "$W" "curl -v -o /dev/null http://127.0.0.1:18731/api/missing.json"
  fi
  if sel openssl; then
    capture system openssl_x509_text "$W/tls" "openssl x509 -in cert.pem -text -noout" "$(openssl version)"
    # Second run (golden): the handshake with the same server, as s_client prints it.
    capture_golden openssl-text s_client "$W/tls" "openssl s_client -connect 127.0.0.1:18732 -servername api.internal.test </dev/null"
  fi
  kill "$HTTP_PID" "$TLS_PID" 2>/dev/null
fi

if sel apt; then
  capture system apt_install_simulate "$WORK" "apt-get install -s texlive-base" "$(apt-get --version | head -1)"
  # Second run (golden): an upgrade simulation that names a package apt does not know.
  capture_golden apt-get unknown_package "$WORK" "apt-get install -s libpq-dev postgresql-client zeph-no-such-package"
  capture_golden apt-get upgrade_simulate "$WORK" "apt-get install -s libpq-dev"
fi

# psql and sqlite3 run against databases made here: a PostgreSQL cluster started in $WORK on a
# unix socket (as the postgres user when run as root), stopped after; SQLite files.
if sel psql && [ -x /usr/lib/postgresql/15/bin/initdb ]; then
  PG="$WORK/pg"
  PGBIN=/usr/lib/postgresql/15/bin
  asdb() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$1"; else bash -c "$1"; fi; }
  rm -rf "$PG" && mkdir -p "$PG/sock" && chmod 777 "$PG" "$PG/sock"
  asdb "$PGBIN/initdb -D $PG/data -A trust -U postgres >/dev/null 2>&1 && $PGBIN/pg_ctl -D $PG/data -o '-k $PG/sock -p 54329 -c listen_addresses=' -l $PG/log -w start >/dev/null"
  cat >"$PG/migrate.sql" <<'EOF'
CREATE TABLE customers (id serial PRIMARY KEY, email text UNIQUE NOT NULL, name text NOT NULL);
CREATE TABLE orders (id serial PRIMARY KEY, customer_id int REFERENCES customers(id), total numeric(10,2) NOT NULL CHECK (total >= 0), placed_at date NOT NULL);
CREATE INDEX orders_customer ON orders (customer_id);
INSERT INTO customers (email, name) VALUES ('ann@example.com', 'Ann'), ('bob@example.com', 'Bob'), ('cy@example.com', 'Cy');
INSERT INTO customers (email, name) VALUES ('dee@example.com', 'Dee');
INSERT INTO customers (email, name) VALUES ('eve@example.com', 'Eve');
INSERT INTO orders (customer_id, total, placed_at) VALUES (1, 19.99, '2026-01-03');
INSERT INTO orders (customer_id, total, placed_at) VALUES (1, 5.00, '2026-01-09');
INSERT INTO orders (customer_id, total, placed_at) VALUES (2, 120.50, '2026-02-11');
INSERT INTO orders (customer_id, total, placed_at) VALUES (3, 42.00, '2026-02-14');
INSERT INTO orders (customer_id, total, placed_at) VALUES (4, 8.25, '2026-03-01');
INSERT INTO orders (customer_id, total, placed_at) VALUES (2, 60.00, '2026-03-02');
INSERT INTO orders (customer_id, total, placed_at) VALUES (5, 15.75, '2026-03-05');
INSERT INTO orders (customer_id, total, placed_at) VALUES (3, 9.99, '2026-03-07');
INSERT INTO customers (email, name) VALUES ('bob@example.com', 'Robert');
INSERT INTO orders (customer_id, total, placed_at) VALUES (9, 30.00, '2026-03-09');
INSERT INTO orders (customer_id, total, placed_at) VALUES (1, -4.00, '2026-03-10');
ALTER TABLE orders ADD COLUMN status text NOT NULL DEFAULT 'new';
UPDATE orders SET status = 'shipped' WHERE placed_at < '2026-03-01';
CREATE VIEW revenue AS SELECT c.name, sum(o.total) AS total FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.name;
SELECT name, totl FROM revenue ORDER BY total DESC;
SELECT c.name, count(o.id) AS orders, sum(o.total) AS total, max(o.placed_at) AS last_order
  FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY total DESC NULLS LAST;
DROP TABLE customers;
EOF
  capture db psql_migrate_errors "$PG" "psql -h $PG/sock -p 54329 -U postgres -f migrate.sql" "$(psql --version)"
  # Second run (golden): a report in psql's aligned format, with a notice and a syntax error.
  cat >"$PG/report.sql" <<'EOF'
DROP TABLE IF EXISTS missing_table;
SELECT o.id, c.email, o.total, o.status, o.placed_at FROM orders o JOIN customers c ON c.id = o.customer_id ORDER BY o.id;
SELECT status, count(*), sum(total) FROM orders GROUP BY status ORDER BY status;
SELEC count(*) FROM orders;
EOF
  capture_golden psql report "$PG" "psql -h $PG/sock -p 54329 -U postgres -f report.sql"
  asdb "$PGBIN/pg_ctl -D $PG/data -m fast stop >/dev/null"
fi

if sel sqlite && command -v sqlite3 >/dev/null; then
  Q="$WORK/sqlite"
  rm -rf "$Q" && mkdir -p "$Q"
  python3 - "$Q/shop.db" <<'EOF'
import random, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("""
CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT UNIQUE NOT NULL, name TEXT NOT NULL, price REAL NOT NULL);
CREATE TABLE sales (id INTEGER PRIMARY KEY, product_id INTEGER REFERENCES products(id), qty INTEGER NOT NULL, sold_on TEXT NOT NULL);
""")
rng = random.Random(7)
names = ["Lamp", "Desk", "Chair", "Shelf", "Rug", "Mirror", "Clock", "Vase", "Stool", "Bench", "Sofa", "Table"]
for i, n in enumerate(names, 1):
    db.execute("INSERT INTO products VALUES (?, ?, ?, ?)", (i, f"SKU-{i:03d}", n, round(rng.uniform(5, 400), 2)))
for i in range(1, 301):
    db.execute("INSERT INTO sales VALUES (?, ?, ?, ?)", (i, rng.randint(1, 12), rng.randint(1, 5), f"2026-{rng.randint(1, 6):02d}-{rng.randint(1, 28):02d}"))
db.commit()
EOF
  capture db sqlite_dump "$Q" "sqlite3 shop.db .dump" "sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
  cat >"$Q/report.sql" <<'EOF'
.headers on
.mode column
SELECT p.sku, p.name, sum(s.qty) AS units, round(sum(s.qty * p.price), 2) AS revenue
  FROM sales s JOIN products p ON p.id = s.product_id GROUP BY p.id ORDER BY revenue DESC;
SELECT substr(sold_on, 1, 7) AS month, count(*) AS sales, sum(qty) AS units FROM sales GROUP BY month ORDER BY month;
SELECT s.id, p.sku, s.qty, s.sold_on FROM sales s JOIN products p ON p.id = s.product_id
  WHERE s.qty = 5 AND s.sold_on >= '2026-05-01' ORDER BY s.sold_on, s.id;
INSERT INTO products (sku, name, price) VALUES ('SKU-003', 'Chair v2', 130.0);
SELECT * FROM sale WHERE qty > 4;
UPDATE products SET price = price * 1.1 WHERE name = 'Lamp';
SELECT name, price FROM products WHERE price > 300 ORDER BY price;
EOF
  capture db sqlite_report "$Q" "sqlite3 shop.db < report.sql" "sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
  # Second run (golden): box mode, a syntax error and a failed CHECK-less NOT NULL insert.
  cat >"$Q/audit.sql" <<'EOF'
.mode box
SELECT qty, count(*) AS n FROM sales GROUP BY qty ORDER BY qty;
INSERT INTO sales (product_id, qty) VALUES (1, 2);
SELECT name FROM products ORDER BY price DESC LIMIT 3
SELECT 1;
EOF
  capture_golden sqlite3 box_errors "$Q" "sqlite3 -bail shop.db < audit.sql"
fi

# ssh -v against an sshd started here on 127.0.0.1 (Debian `openssh-server`) with its own host
# keys: first with a known_hosts entry holding another key (the changed-host-key refusal), then
# (golden) with the right one and no client key (publickey authentication refused).
if sel ssh && [ -x /usr/sbin/sshd ]; then
  H="$WORK/ssh"
  rm -rf "$H" && mkdir -p "$H" && chmod 700 "$H"
  ssh-keygen -q -t ed25519 -N '' -C host -f "$H/host_ed25519"
  ssh-keygen -q -t ed25519 -N '' -C old -f "$H/old_ed25519"
  printf 'Port 18733\nListenAddress 127.0.0.1\nHostKey %s/host_ed25519\nPidFile %s/sshd.pid\nPasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\nAuthorizedKeysFile %s/authorized_keys\n' "$H" "$H" "$H" >"$H/sshd_config"
  mkdir -p /run/sshd
  /usr/sbin/sshd -f "$H/sshd_config" -D -e 2>"$H/sshd.log" &
  SSHD_PID=$!
  sleep 1
  printf '[127.0.0.1]:18733 %s\n' "$(cut -d' ' -f1,2 "$H/old_ed25519.pub")" >"$H/known_hosts_stale"
  printf '[127.0.0.1]:18733 %s\n' "$(cut -d' ' -f1,2 "$H/host_ed25519.pub")" >"$H/known_hosts"
  capture system ssh_changed_host_key "$H" "ssh -v -o BatchMode=yes -o UserKnownHostsFile=known_hosts_stale -o StrictHostKeyChecking=yes -o IdentityFile=none -p 18733 deploy@127.0.0.1 uptime" "$(ssh -V 2>&1)"
  capture_golden ssh publickey_refused "$H" "ssh -v -o BatchMode=yes -o UserKnownHostsFile=known_hosts -o IdentitiesOnly=yes -o IdentityFile=none -p 18733 deploy@127.0.0.1 uptime"
  kill "$SSHD_PID" 2>/dev/null
fi

# --- jvm (javac): javac on a four-file package with type errors; a Java program that dies of a
# wrapped exception (`Caused by:` chains with `... N more`) -----------------------------------
if sel javac; then
  J="$WORK/inventory"
  rm -rf "$J" && mkdir -p "$J/src/com/acme/inventory"
  cat >"$J/src/com/acme/inventory/Item.java" <<'EOF'
package com.acme.inventory;

import java.math.BigDecimal;

public class Item {
    private final String sku;
    private final String name;
    private final BigDecimal price;
    private int quantity;

    public Item(String sku, String name, BigDecimal price, int quantity) {
        this.sku = sku;
        this.name = name;
        this.price = price;
        this.quantity = quantity;
    }

    public String getSku() { return sku; }
    public String getName() { return name; }
    public BigDecimal getPrice() { return price; }
    public int getQuantity() { return quantity; }

    public BigDecimal value() {
        return price.multiply(quantity);
    }

    public void take(int n) {
        if (n > quantity) throw new IllegalStateException("not enough " + sku);
        quantity -= n;
    }
}
EOF
  cat >"$J/src/com/acme/inventory/Stock.java" <<'EOF'
package com.acme.inventory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.HashMap;

public class Stock {
    private final Map<String, Item> items = new HashMap<>();

    public void add(Item item) {
        items.put(item.getSku(), item);
    }

    public Item find(String sku) {
        Item item = items.get(sku);
        if (item == null) {
            throw new MissingItemException(sku);
        }
        return item;
    }

    public List<Item> lowStock(int threshold) {
        List<Item> low = new ArrayList<>();
        for (Item item : items.values()) {
            if (item.getQuantity() < threshold) low.add(item);
        }
        return low;
    }

    public int totalUnits() {
        int total = 0;
        for (Item item : items.values()) total += item.getQuantity();
        return total;
    }

    public String describe(String sku) {
        Item item = find(sku);
        String qty = item.getQuantity();
        return item.getName() + " x" + qty;
    }
}
EOF
  cat >"$J/src/com/acme/inventory/Report.java" <<'EOF'
package com.acme.inventory;

import java.math.BigDecimal;
import java.util.List;

public class Report {
    private final Stock stock;

    public Report(Stock stock) {
        this.stock = stock;
    }

    public BigDecimal totalValue(List<Item> items) {
        BigDecimal sum = BigDecimal.ZERO;
        for (Item item : items) {
            sum = sum.add(item.value());
        }
        return sum;
    }

    public String render(List<Item> items) {
        StringBuilder out = new StringBuilder();
        for (Item item : items) {
            out.append(item.getSku()).append('\t').append(item.getNmae()).append('\n');
        }
        out.append("units: ").append(stock.totalUnits());
        return out;
    }

    public int lowCount() {
        return stock.lowStock("5").size();
    }
}
EOF
  cat >"$J/src/com/acme/inventory/Main.java" <<'EOF'
package com.acme.inventory;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;

public class Main {
    public static void main(String[] args) {
        Stock stock = new Stock();
        stock.add(new Item("A-1", "bolt", new BigDecimal("0.10"), 500));
        stock.add(new Item("B-2", "nut", new BigDecimal("0.05"), 3));
        String csv = Files.readString(Path.of(args[0]));
        Report report = new Report(stock);
        System.out.println(report.render(stock.lowStock(10)));
        Logger.info("done");
    }
}
EOF
  V="$(javac -version 2>&1)"
  capture jvm javac_errors "$J" "javac -d out src/com/acme/inventory/*.java" "$V"

  E="$WORK/orders"
  rm -rf "$E" && mkdir -p "$E/src/com/acme/orders"
  cat >"$E/src/com/acme/orders/App.java" <<'EOF'
package com.acme.orders;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

public class App {
    static class ConfigException extends RuntimeException {
        ConfigException(String msg, Throwable cause) { super(msg, cause); }
    }

    static class OrderService {
        private final Repository repo;
        OrderService(Repository repo) { this.repo = repo; }
        List<String> pending() {
            try {
                return repo.load("orders.csv");
            } catch (IllegalStateException e) {
                throw new ConfigException("cannot start order service", e);
            }
        }
    }

    static class Repository {
        private final Path root;
        Repository(Path root) { this.root = root; }
        List<String> load(String name) {
            try {
                return parse(Files.readAllLines(root.resolve(name)));
            } catch (IOException e) {
                throw new IllegalStateException("repository " + root + " is unreadable", new UncheckedIOException(e));
            }
        }
        List<String> parse(List<String> lines) {
            List<String> out = new ArrayList<>();
            for (String l : lines) out.add(l.split(",")[1]);
            return out;
        }
    }

    public static void main(String[] args) {
        OrderService service = new OrderService(new Repository(Path.of("/srv/orders")));
        System.out.println("starting with " + args.length + " arguments");
        for (String id : service.pending()) System.out.println(id);
    }
}
EOF
  (cd "$E" && javac -d out src/com/acme/orders/App.java)
  capture jvm java_exception "$E" "java -cp out com.acme.orders.App" "$(java -version 2>&1 | head -1)"
fi

# --- native: a CMake project in C (`geom`: a library, a tool and a ctest suite) -----------------
# configure with a missing package, a build with a compile error, `make VERBOSE=1` of the fixed
# tree, ctest with failing tests, the tool under valgrind (an invalid read, leaks) and under
# gdb (a NULL dereference), a gcc link with undefined references, clang-tidy and the tool built
# with AddressSanitizer ---------
if sel native; then
  N="$WORK/geom"
  rm -rf "$N" && mkdir -p "$N/src" "$N/tests" "$N/include/geom"
  cat >"$N/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(geom VERSION 0.3.0 LANGUAGES C)
option(GEOM_WITH_FMT "export shapes through libfmt" ON)
set(CMAKE_C_STANDARD 11)
add_compile_options(-Wall -Wextra -g -O0)
if(GEOM_WITH_FMT)
  find_package(fmt 9 REQUIRED)
endif()
add_library(geom src/point.c src/polygon.c src/parse.c src/hull.c)
target_include_directories(geom PUBLIC include)
target_link_libraries(geom PUBLIC m)
add_executable(geomtool src/main.c)
target_link_libraries(geomtool PRIVATE geom)
enable_testing()
foreach(t point polygon parse hull)
  add_executable(test_${t} tests/test_${t}.c)
  target_link_libraries(test_${t} PRIVATE geom)
  add_test(NAME ${t} COMMAND test_${t})
endforeach()
EOF
  cat >"$N/include/geom/geom.h" <<'EOF'
#ifndef GEOM_H
#define GEOM_H
#include <stddef.h>
typedef struct { double x, y; } point;
typedef struct { point *pts; size_t n; char *name; } polygon;
double point_dist(point a, point b);
polygon *polygon_new(const char *name, size_t n);
void polygon_free(polygon *p);
double polygon_area(const polygon *p);
double polygon_perimeter(const polygon *p);
polygon *parse_polygon(const char *text);
size_t hull(const point *in, size_t n, point *out);
#endif
EOF
  cat >"$N/src/point.c" <<'EOF'
#include <math.h>
#include "geom/geom.h"
double point_dist(point a, point b) {
  int scale = 1;
  return hypot(a.x - b.x, a.y - b.y);
}
EOF
  cat >"$N/src/polygon.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include "geom/geom.h"
polygon *polygon_new(const char *name, size_t n) {
  polygon *p = malloc(sizeof *p);
  p->pts = calloc(n, sizeof(point));
  p->n = n;
  p->name = strdup(name);
  return p;
}
void polygon_free(polygon *p) { free(p->pts); free(p); }
double polygon_area(const polygon *p) {
  double a = 0;
  for (size_t i = 0; i <= p->n; i++) {
    point u = p->pts[i], v = p->pts[(i + 1) % p->n];
    a += u.x * v.y - v.x * u.y;
  }
  return a / 2;
}
double polygon_perimeter(const polygon *p) {
  double s = 0;
  for (size_t i = 0; i < p->n; i++) s += point_dist(p->pts[i], p->pts[(i + 1) % p->n]);
  return s;
}
EOF
  cat >"$N/src/parse.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "geom/geom.h"
polygon *parse_polygon(const char *text) {
  char name[32];
  size_t n = 0;
  if (sscanf(text, "%31s %zu", name, &n) != 2) return NULL;
  polygon *p = polygon_new(name, n);
  const char *s = strchr(text, ':');
  for (size_t i = 0; i < n && s; i++) {
    s++;
    p->pts[i].x = strtod(s, (char **)&s);
    p->pts[i].y = strtod(s + 1, (char **)&s);
  }
  return p;
}
EOF
  cat >"$N/src/hull.c" <<'EOF'
#include <stdlib.h>
#include "geom/geom.h"
static double cross(point o, point a, point b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}
static int cmp(const void *a, const void *b) {
  const point *p = a, *q = b;
  return p->x < q->x ? -1 : p->x > q->x ? 1 : (p->y > q->y) - (p->y < q->y);
}
size_t hull(const point *in, size_t n, point *out) {
  point *pts = malloc(n * sizeof *pts);
  for (size_t i = 0; i < n; i++) pts[i] = in[i];
  qsort(pts, n, sizeof *pts, cmp);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    while (k >= 2 && cross(out[k - 2], out[k - 1], pts[i]) <= 0) k--;
    out[k++] = pts[i];
  }
  return k;
}
EOF
  cat >"$N/src/main.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "geom/geom.h"
static const char *SHAPES[] = {"square 4:0,0 4,0 4,4 0,4", "tri 3:0,0 3,0 0,4", "bad"};
int main(int argc, char **argv) {
  double total = 0;
  for (int i = 0; i < 3; i++) {
    polygon *p = parse_polygon(SHAPES[i]);
    total += polygon_area(p);
    char *label = malloc(64);
    snprintf(label, 64, "%s/%zu", p->name, p->n);
    point cloud[4], out[4];
    cloud[0] = p->pts[0];
    printf("hull of %s: %zu points\n", label, hull(cloud, 4, out));
    printf("%s area=%.1f perimeter=%.1f\n", label, polygon_area(p), polygon_perimeter(p));
    if (argc > 1 && strcmp(argv[1], "--free") == 0) polygon_free(p);
  }
  printf("total area %.1f\n", total);
  return 0;
}
EOF
  for t in point polygon parse hull; do
    cat >"$N/tests/test_$t.c" <<EOF
#include <stdio.h>
#include <math.h>
#include "geom/geom.h"
static int failures = 0;
#define CHECK_NEAR(what, got, want) do { double g_ = (got), w_ = (want); \\
  if (fabs(g_ - w_) > 1e-9) { printf("%s:%d: CHECK_NEAR(%s) failed: got %g, want %g\\n", __FILE__, __LINE__, what, g_, w_); failures++; } \\
  else printf("ok - %s\\n", what); } while (0)
EOF
  done
  cat >>"$N/tests/test_point.c" <<'EOF'
int main(void) {
  CHECK_NEAR("dist 3-4-5", point_dist((point){0, 0}, (point){3, 4}), 5);
  CHECK_NEAR("dist zero", point_dist((point){1, 1}, (point){1, 1}), 0);
  CHECK_NEAR("dist negative", point_dist((point){-1, -1}, (point){2, 3}), 5);
  return failures != 0;
}
EOF
  cat >>"$N/tests/test_polygon.c" <<'EOF'
int main(void) {
  polygon *sq = parse_polygon("sq 4:0,0 2,0 2,2 0,2");
  CHECK_NEAR("square perimeter", polygon_perimeter(sq), 8);
  CHECK_NEAR("square area", polygon_area(sq), 4);
  polygon_free(sq);
  return failures != 0;
}
EOF
  cat >>"$N/tests/test_parse.c" <<'EOF'
int main(void) {
  polygon *t = parse_polygon("tri 3:0,0 3,0 0,4");
  CHECK_NEAR("tri first x", t->pts[0].x, 0);
  CHECK_NEAR("tri second x", t->pts[1].x, 3);
  CHECK_NEAR("tri third y", t->pts[2].y, 4);
  polygon_free(t);
  return failures != 0;
}
EOF
  cat >>"$N/tests/test_hull.c" <<'EOF'
int main(void) {
  point in[] = {{0, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 2}};
  point out[5];
  CHECK_NEAR("hull size", (double)hull(in, 5, out), 4);
  CHECK_NEAR("hull first", out[0].x, 0);
  return failures != 0;
}
EOF
  CV="$(cmake --version | head -1)"
  capture native cmake_configure_missing "$N" "cmake -S . -B build" "$CV"
  # the build: one translation unit with a type error, then the fixed tree echoed
  cp "$N/src/hull.c" "$WORK/hull.c.orig"
  sed -i 's/return k;/return k + dropped;/' "$N/src/hull.c"
  (cd "$N" && cmake -S . -B build -DGEOM_WITH_FMT=OFF >/dev/null)
  capture native cmake_build_error "$N" "cmake --build build" "$CV"
  cp "$WORK/hull.c.orig" "$N/src/hull.c"
  rm -rf "$N/build" && (cd "$N" && cmake -S . -B build -DGEOM_WITH_FMT=OFF >/dev/null)
  capture native make_verbose "$N/build" "make VERBOSE=1" "$(make --version | head -1)"
  capture native ctest_failing "$N/build" "ctest --output-on-failure" "$(ctest --version | head -1)"
  capture native valgrind_leaks "$N/build" "valgrind --leak-check=full ./geomtool" "$(valgrind --version)"
  capture native gdb_crash "$N/build" "gdb -batch -ex run -ex bt ./geomtool" "$(gdb --version | head -1)"
  # a link of the tool without the library's parse and hull units
  capture native ld_undefined "$N" "gcc -Iinclude -o geomtool src/main.c src/point.c -lm" "$(gcc --version | head -1)"
  # clang-tidy (Debian `clang-tidy`, LLVM 14) with the bugprone, analyzer, readability and cert checks
  command -v clang-tidy >/dev/null && capture native clang_tidy "$N" "clang-tidy src/*.c -checks='-*,bugprone-*,clang-analyzer-*,readability-*,cert-*' -- -Iinclude" "$(clang-tidy --version | sed -n 1p)"
  # the tool built with AddressSanitizer: the invalid read valgrind reports, as ASan's report
  (cd "$N" && gcc -fsanitize=address -g -Iinclude -o geomtool-asan src/*.c -lm)
  capture native asan_heap_overflow "$N" "./geomtool-asan" "$(gcc --version | head -1), -fsanitize=address"
fi

# --- linkrepeat: a C program of six objects whose shared header defines a variable and a function
# (a multiple definition per object) and declares three functions no object defines (undefined
# references from every object): the linker repeats each diagnostic per object
if sel linkrepeat; then
  L="$WORK/linkrepeat"
  rm -rf "$L" && mkdir -p "$L"
  cat >"$L/common.h" <<'EOF'
int counter = 0;
int helper(int x) { return x + 1; }
void log_msg(const char *m);
int missing_a(int);
int missing_b(void);
EOF
  for f in main cart price stock order invoice; do
    printf '#include "common.h"\nint use_%s(void) { log_msg("%s"); return missing_a(counter) + missing_b() + helper(1); }\n' "$f" "$f" >"$L/$f.c"
  done
  echo 'int main(void) { return use_main(); }' >>"$L/main.c"
  (cd "$L" && for f in main cart price stock order invoice; do gcc -fcommon -c "$f.c" -o "$f.o"; done)
  capture native link_repeated "$L" "gcc -o shop main.o cart.o price.o stock.o order.o invoice.o" "$(gcc --version | head -1)"
fi

# --- ctestverbose: `ctest -V` and `ctest -V -j2` (cmake 3.25) of ten tests of one checker, two
# failing: every line a test prints, and its command, directory and timeout, prefixed by its number
if sel ctestverbose; then
  T="$WORK/ctestverbose"
  rm -rf "$T" && mkdir -p "$T"
  cat >"$T/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(geom C)
enable_testing()
add_executable(check check.c)
foreach(t area perimeter scale rotate translate clip merge split hull bounds)
  add_test(NAME ${t} COMMAND check ${t})
endforeach()
EOF
  cat >"$T/check.c" <<'EOF'
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  const char *t = argv[1];
  printf("running %s\n", t);
  for (int i = 0; i < 3; i++) printf("  case %d of %s: ok\n", i, t);
  if (strcmp(t, "clip") == 0) { printf("  case 3 of clip: expected 4 points, got 3\n"); fprintf(stderr, "check.c:7: assertion failed: n == 4\n"); return 1; }
  if (strcmp(t, "hull") == 0) { printf("  hull: expected area 12.5, got 12.0\n"); return 2; }
  printf("%s: all passed\n", t);
  return 0;
}
EOF
  (mkdir -p "$T/build" && cd "$T/build" && cmake .. >/dev/null && make >/dev/null)
  capture native ctest_verbose "$T/build" "ctest -V" "$(ctest --version | head -1)"
  capture native ctest_verbose_parallel "$T/build" "ctest -V -j2" "$(ctest --version | head -1)"
fi

# --- jvm (`jvmbuild`): a three-class library (`shapes`) built offline from the local repository
# (~/.m2, which holds the plugins and JUnit): `mvn -o -B test` with a compile error, then with two
# failing JUnit 5 tests; Debian's gradle 4.4 (`gradle --offline`) on the same sources: a compile
# error, and JUnit 4 tests (from mavenLocal()) with two failures -------------------------------
if sel jvmbuild; then
  S="$WORK/shapes-src"
  rm -rf "$S" && mkdir -p "$S/main/org/shapes" "$S/test5/org/shapes" "$S/test4/org/shapes"
  cat >"$S/main/org/shapes/Shape.java" <<'EOF'
package org.shapes;

public interface Shape {
    double area();
    String name();
    default String describe() { return name() + " of area " + area(); }
}
EOF
  cat >"$S/main/org/shapes/Circle.java" <<'EOF'
package org.shapes;

public class Circle implements Shape {
    private final double r;
    public Circle(double r) { this.r = r; }
    public double area() { return Math.PI * r * r; }
    public String name() { return "circle"; }
}
EOF
  cat >"$S/main/org/shapes/Square.java" <<'EOF'
package org.shapes;

import java.util.List;

public class Square implements Shape {
    private final double side;
    public Square(double side) { this.side = side; }
    public double area() { return side * side; }
    public static double total(List<Shape> shapes) {
        double sum = 0;
        for (Shape s : shapes) sum += s.area;
        return sum;
    }
}
EOF
  for v in 5 4; do
    if [ $v = 5 ]; then imp='import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.Test;'; vis=""; eps=""; else imp='import static org.junit.Assert.assertEquals;
import org.junit.Test;'; vis="public "; eps=", 0"; fi
    cat >"$S/test$v/org/shapes/ShapeTest.java" <<EOF
package org.shapes;

$imp

import java.util.Arrays;

${vis}class ShapeTest {
    @Test
    ${vis}void circleArea() {
        assertEquals(3.14159, new Circle(1).area(), 1e-5);
    }

    @Test
    ${vis}void squareArea() {
        assertEquals(4.0, new Square(2).area()$eps);
    }

    @Test
    ${vis}void totalOfMixedShapes() {
        assertEquals(8.0, Square.total(Arrays.asList(new Square(2), new Circle(1))), 1e-9);
    }

    @Test
    ${vis}void describeNamesTheShape() {
        assertEquals("square of area 4", new Square(2).describe());
    }
}
EOF
  done
  M="$WORK/shapes-mvn"
  rm -rf "$M" && mkdir -p "$M/src/main/java" "$M/src/test/java"
  cp -r "$S/main/org" "$M/src/main/java/" && cp -r "$S/test5/org" "$M/src/test/java/"
  cat >"$M/pom.xml" <<'EOF'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.shapes</groupId>
  <artifactId>shapes</artifactId>
  <version>0.2.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.10.2</version><scope>test</scope></dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.11.0</version></plugin>
      <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.2.5</version></plugin>
    </plugins>
  </build>
</project>
EOF
  MV="$(mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g')"
  capture jvm mvn_compile_error "$M" "mvn -o -B test" "$MV"
  fix_square() {
    sed -i 's/s\.area;/s.area();/; s/    public double area() { return side \* side; }/    public double area() { return side * side; }\n    public String name() { return "square"; }/' "$1"
  }
  fix_square "$M/src/main/java/org/shapes/Square.java"
  capture jvm mvn_test_failures "$M" "mvn -o -B test" "$MV"

  GR="$WORK/shapes-gradle"
  rm -rf "$GR" && mkdir -p "$GR/src/main/java" "$GR/src/test/java"
  cp -r "$S/main/org" "$GR/src/main/java/" && cp -r "$S/test4/org" "$GR/src/test/java/"
  printf "apply plugin: 'java'\nsourceCompatibility = 1.8\nrepositories { mavenLocal() }\ndependencies { testCompile 'junit:junit:4.13.2' }\n" >"$GR/build.gradle"
  echo "rootProject.name = 'shapes'" >"$GR/settings.gradle"
  GV="$(gradle --version 2>/dev/null | grep '^Gradle ')"
  capture jvm gradle_compile_error "$GR" "gradle --offline build" "$GV"
  fix_square "$GR/src/main/java/org/shapes/Square.java"
  capture jvm gradle_test_failures "$GR" "gradle --offline test" "$GV"
fi

# --- usage: failed commands that print their usage after the error (commander and yargs from
# npm, ZEPH_CORPUS_NPM; npm ci without a lock file; Go's flag package; git with a mistyped flag)
if sel usage; then
  U="$WORK/usage"
  NPMDIR="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}"
  rm -rf "$U" && mkdir -p "$U/npmproj" "$U/srv"
  (cd "$NPMDIR" && npm install --no-audit --no-fund commander@12 yargs@17 >/dev/null 2>&1)
  echo '{"name":"shop","version":"1.0.0","dependencies":{}}' >"$U/npmproj/package.json"
  capture usage npm_ci_no_lockfile "$U/npmproj" "npm ci" "npm $(npm --version)"
  cat >"$U/deploy.js" <<'EOF'
#!/usr/bin/env node
// A deployment CLI built on commander, the shape of many internal tools.
const { Command, Option } = require("commander");
const program = new Command();
program.name("deploy").description("Deploy services to an environment").version("2.3.1")
  .showHelpAfterError();
program.command("push")
  .description("build and push a service image, then roll it out")
  .argument("<service>", "service to deploy")
  .requiredOption("-e, --env <name>", "target environment (staging, production)")
  .option("-t, --tag <tag>", "image tag to deploy", "latest")
  .option("-r, --region <region>", "cloud region to deploy into", "eu-west-1")
  .option("--replicas <n>", "number of replicas to run", "2")
  .option("--timeout <seconds>", "seconds to wait for the rollout", "300")
  .option("--canary", "route 5% of traffic to the new version first")
  .option("--no-healthcheck", "skip the post-deploy health check")
  .option("--dry-run", "print the plan without applying it")
  .option("--force", "deploy even when the working tree is dirty")
  .option("--build-arg <kv...>", "extra docker build arguments")
  .option("--registry <url>", "container registry to push to", "registry.example.com")
  .option("--cache-from <image>", "image to use as a build cache")
  .option("--platform <list>", "target platforms", "linux/amd64")
  .option("--notify <channel>", "chat channel to notify when done")
  .option("--wait", "wait until every replica is ready")
  .option("-v, --verbose", "print every step")
  .addOption(new Option("--strategy <kind>", "rollout strategy").choices(["rolling", "recreate", "blue-green"]))
  .action(() => {});
program.parse();
EOF
  cat >"$U/jobs.js" <<'EOF'
#!/usr/bin/env node
// A job runner CLI built on yargs with strict options.
const yargs = require("yargs/yargs");
const { hideBin } = require("yargs/helpers");
yargs(hideBin(process.argv))
  .scriptName("jobs")
  .command("run <job>", "run a job now", (y) => y
    .positional("job", { describe: "name of the job", type: "string" })
    .option("queue", { alias: "q", describe: "queue to put the job on", default: "default" })
    .option("priority", { alias: "p", describe: "job priority (0-9)", type: "number", default: 5 })
    .option("retries", { describe: "times to retry a failed job", type: "number", default: 3 })
    .option("timeout", { describe: "seconds before the job is killed", type: "number", default: 600 })
    .option("env", { alias: "e", describe: "environment variables (KEY=VALUE)", type: "array" })
    .option("after", { describe: "run after this job id finishes", type: "string" })
    .option("at", { describe: "run at this time (ISO 8601)", type: "string" })
    .option("tag", { describe: "tags to attach to the job", type: "array" })
    .option("dry-run", { describe: "print what would run", type: "boolean" })
    .option("follow", { alias: "f", describe: "stream the job's logs", type: "boolean" })
    .option("output", { alias: "o", describe: "output format", choices: ["text", "json", "yaml"], default: "text" }))
  .command("list", "list jobs")
  .command("cancel <id>", "cancel a queued job")
  .option("config", { alias: "c", describe: "path to the config file", default: "jobs.toml" })
  .option("verbose", { alias: "v", describe: "print debug output", type: "boolean" })
  .demandCommand(1)
  .strict()
  .help()
  .parse();
EOF
  pkg_version() { python3 -c 'import json,sys;print(json.load(open(sys.argv[1]))["version"])' "$NPMDIR/node_modules/$1/package.json"; }
  export NODE_PATH="$NPMDIR/node_modules"
  capture usage commander_missing_option "$U" "node deploy.js push api --tag v2" "commander $(pkg_version commander)"
  capture usage yargs_missing_argument "$U" "node jobs.js run" "yargs $(pkg_version yargs)"
  unset NODE_PATH
  cat >"$U/srv/main.go" <<'EOF'
// A small HTTP service configured by flags, as many Go tools are.
package main

import (
	"flag"
	"fmt"
	"time"
)

func main() {
	addr := flag.String("addr", ":8080", "listen address")
	dsn := flag.String("dsn", "postgres://localhost/app", "database connection string")
	flag.Int("workers", 4, "number of background workers")
	flag.Duration("read-timeout", 5*time.Second, "maximum duration for reading a request")
	flag.Duration("write-timeout", 10*time.Second, "maximum duration for writing a response")
	flag.Duration("idle-timeout", 60*time.Second, "how long to keep idle connections open")
	flag.Bool("tls", false, "serve HTTPS (needs -cert and -key)")
	flag.String("cert", "", "TLS certificate file")
	flag.String("key", "", "TLS private key file")
	flag.String("log-level", "info", "log level: debug, info, warn or error")
	flag.String("log-format", "text", "log format: text or json")
	flag.Bool("metrics", true, "expose Prometheus metrics on /metrics")
	flag.String("metrics-addr", ":9090", "listen address of the metrics server")
	flag.Int("max-body", 1<<20, "largest request body accepted, in bytes")
	flag.String("cors-origin", "*", "allowed CORS origin")
	flag.Bool("migrate", false, "run database migrations before serving")
	flag.String("static-dir", "./public", "directory of static files to serve")
	flag.Int("rate-limit", 100, "requests per second allowed per client")
	flag.Parse()
	fmt.Println(*addr, *dsn)
}
EOF
  (cd "$U/srv" && go mod init example.com/srv >/dev/null 2>&1 && go build -o srv .)
  capture usage go_flag_unknown "$U/srv" "./srv -port 9000" "$(go version)"
  git init -q "$U/repo" && git -C "$U/repo" commit -q --allow-empty -m init
  capture usage git_commit_unknown_option "$U/repo" "git commit --ammend" "$(git --version)"
fi

# --- node (npmengines): npm install of local packages whose `engines` this node does not meet:
# a five-line EBADENGINE warning per package (npm prints each twice), then the install
if sel npmengines; then
  E="$WORK/npmengines"
  rm -rf "$E" && mkdir -p "$E/app"
  for spec in "fastq-lite:>=22.12.0" "pino-mini:>=22.12.0" "undici-lite:>=22.19.0" \
    "vite-core:^20.19.0 || >=22.12.0 <21" "sharp-lite:>=24" "zod-next:>=22.12.0" \
    "esbuild-wasm-lite:>=23" "chokidar-next:>=22"; do
    name="${spec%%:*}" range="${spec#*:}"
    mkdir -p "$E/pkgs/$name"
    printf '{"name":"%s","version":"3.1.0","engines":{"node":"%s"}}\n' "$name" "$range" \
      >"$E/pkgs/$name/package.json"
    echo "module.exports = {};" >"$E/pkgs/$name/index.js"
  done
  echo '{"name":"app","version":"1.0.0"}' >"$E/app/package.json"
  capture node npm_install_engines "$E/app" "npm install --no-audit --no-fund ../pkgs/*" "npm $(npm --version)"
fi

# --- native (cinclude): gcc and clang on a source whose headers have warnings and an error, so
# each diagnostic in a header comes after its include chain (`In file included from …`)
if sel cinclude; then
  I="$WORK/cinclude"
  rm -rf "$I" && mkdir -p "$I/include/net" "$I/src"
  cat >"$I/include/net/types.h" <<'EOF'
#ifndef NET_TYPES_H
#define NET_TYPES_H
typedef struct { int fd; unsigned short port; } endpoint_t;
static inline int endpoint_valid(endpoint_t e) { int unused_flag; return e.fd >= 0 && e.port > 0 ? 1 : 0; }
static inline void endpoint_reset(endpoint_t *e) { e->fd = -1; e->port = 70000; }
#endif
EOF
  cat >"$I/include/net/conn.h" <<'EOF'
#ifndef NET_CONN_H
#define NET_CONN_H
#include "net/types.h"
typedef struct { endpoint_t local; endpoint_t remote; int state; } conn_t;
int conn_open(conn_t *c, const char *host, int port);
static inline int conn_state(const conn_t *c) { return c->stat; }
#endif
EOF
  cat >"$I/src/conn.c" <<'EOF'
#include <stdio.h>
#include "net/conn.h"

int conn_open(conn_t *c, const char *host, int port) {
    int tries;
    endpoint_reset(&c->local);
    c->remote.port = port;
    printf("%d\n", host);
    return tries;
}

void conn_close(conn_t *c) {
    c->state = undefined_state;
}
EOF
  cat >"$I/src/server.c" <<'EOF'
#include "net/conn.h"
int serve(void) { int unused_a; int unused_b; conn_t c; return conn_open(&c, "x", 1); }
EOF
  capture native gcc_include_chain "$I" "gcc -Wall -Wextra -Iinclude -c src/conn.c src/server.c" "$(gcc --version | head -1)"
  capture native clang_include_chain "$I" "clang -Wall -Wextra -Iinclude -c src/conn.c src/server.c" "$(clang --version | head -1)"
  rm -f "$I"/*.o
fi

# --- make (makeinclude): `make -k` of a small C project whose sources reach broken headers
# through a chain of includes: each header diagnostic after its `In file included from …` lines,
# between make's recipe echoes and its `make: *** … Error 1` lines
if sel makeinclude; then
  M="$WORK/makeinclude"
  rm -rf "$M" && mkdir -p "$M/include/store" "$M/src"
  cat >"$M/include/store/item.h" <<'EOF'
#ifndef STORE_ITEM_H
#define STORE_ITEM_H
typedef struct { const char *sku; int qty; unsigned char price_cents; } item_t;
static inline void item_restock(item_t *it, int n) { int unused_before; it->qty += n; it->price_cents = 1000; }
static inline int item_total(const item_t *it) { return it->qty * it->price; }
#endif
EOF
  cat >"$M/include/store/cart.h" <<'EOF'
#ifndef STORE_CART_H
#define STORE_CART_H
#include "store/item.h"
typedef struct { item_t items[16]; int count; } cart_t;
int cart_add(cart_t *c, item_t it);
static inline int cart_empty(const cart_t *c) { return c->count == 0 && c->size == 0; }
#endif
EOF
  cat >"$M/include/store/checkout.h" <<'EOF'
#ifndef STORE_CHECKOUT_H
#define STORE_CHECKOUT_H
#include "store/cart.h"
int checkout(cart_t *c, const char *coupon);
#endif
EOF
  cat >"$M/src/item.c" <<'EOF'
#include "store/item.h"
int item_valid(const item_t *it) { return it->qty >= 0; }
EOF
  cat >"$M/src/cart.c" <<'EOF'
#include <stdio.h>
#include "store/cart.h"
int cart_add(cart_t *c, item_t it) {
    if (c->count >= 16) { printf("%d\n", "cart full"); return -1; }
    c->items[c->count++] = it;
    return c->count;
}
EOF
  cat >"$M/src/checkout.c" <<'EOF'
#include "store/checkout.h"
int checkout(cart_t *c, const char *coupon) {
    int total = 0;
    for (int i = 0; i < c->count; i++) total += item_total(&c->items[i]);
    return total - discount_for(coupon);
}
EOF
  cat >"$M/src/main.c" <<'EOF'
#include <stdio.h>
#include "store/checkout.h"
int main(void) { cart_t c = {0}; printf("%d\n", checkout(&c, NULL)); return 0; }
EOF
  printf 'CFLAGS := -Wall -Wextra -Iinclude\nOBJS := src/item.o src/cart.o src/checkout.o src/main.o\nshop: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\nsrc/%%.o: src/%%.c\n\t$(CC) $(CFLAGS) -c $< -o $@\nclean:\n\trm -f src/*.o shop\n' >"$M/Makefile"
  capture make make_include_chain "$M" "make clean >/dev/null; make -k" "$(make --version | head -1); $(gcc --version | head -1)"
  rm -f "$M"/src/*.o
fi

# --- tap: prove (Debian perl's TAP::Harness) -v on four Test::More files (a bad plan, two
# failures, two skips, a TODO) and on the three passing ones; bats (Debian) on three passing files
# and one with two failures and a skip; tape (npm) on a URL parser, failing and passing. tape's
# project lives at /tmp/zeph-tape, the path its failure's stack names (the case's signals hold it).
if sel tap; then
  P="$WORK/tap"
  rm -rf "$P" && mkdir -p "$P/t" "$P/pass" "$P/bt" "$P/btp"
  cat >"$P/t/math.t" <<'EOF'
use strict; use warnings;
use Test::More tests => 24;
sub add { $_[0] + $_[1] }
for my $i (1..20) { is(add($i, 1), $i + 1, "add $i + 1 gives " . ($i+1)); }
ok(1, 'identity holds');
is_deeply([1,2,3], [1,2,3], 'lists compare equal');
like("hello world", qr/world/, 'greeting mentions world');
cmp_ok(3, '<', 5, 'three is less than five');
EOF
  cat >"$P/t/parse.t" <<'EOF'
use strict; use warnings;
use Test::More;
sub parse_kv { my %h = map { split /=/, $_, 2 } split /;/, shift; \%h }
for my $k (qw(host port user pass db timeout retries)) { ok(exists parse_kv("$k=1")->{$k}, "parses key $k"); }
is_deeply(parse_kv("a=1;b=2"), {a=>1, b=>2}, 'two pairs');
is(parse_kv("a=1=2")->{a}, "1=2", 'value keeps equals sign');
is(parse_kv("port=80")->{port}, 8080, 'port default applied');
is_deeply(parse_kv("x=1;y=2"), {x=>1, y=>3}, 'second pair value');
done_testing(12);
EOF
  cat >"$P/t/strings.t" <<'EOF'
use strict; use warnings;
use Test::More tests => 18;
for my $w (qw(alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu)) { is(lc(uc $w), $w, "round trip of $w"); }
is(length("abc"), 3, 'length of abc');
is(reverse("abc"), "cba", 'reverse of abc');
SKIP: { skip "no locale support here", 2; ok(1, 'locale a'); ok(1, 'locale b'); }
TODO: { local $TODO = "unicode folding not done"; is(lc("\x{130}"), "i", 'dotted capital I folds'); }
is(join(",", sort qw(c a b)), "a,b,c", 'sorted join');
EOF
  sed 's/"add \$i/"add of $i/' "$P/t/math.t" >"$P/t/util.t"
  cp "$P/t/math.t" "$P/t/strings.t" "$P/t/util.t" "$P/pass/"
  PV="prove (Test::Harness $(perl -MTAP::Harness -e 'print $TAP::Harness::VERSION'), perl $(perl -e 'printf "%vd", $^V' | cut -d. -f1,2))"
  capture tap prove_verbose_failing "$P" "prove -v t/" "$PV"
  capture tap prove_verbose_passing "$P" "prove -v pass/" "$PV"
  # bats: btp/s1.bats names its tests `set1: …`, s2 and s3 are copies with their own prefix;
  # bt/cli.bats is s1 without the prefix and with two failing tests (lines 16 and 18).
  cat >"$P/btp/s1.bats" <<'EOF'
#!/usr/bin/env bats
setup() { TMP="$(mktemp -d)"; }
teardown() { rm -rf "$TMP"; }
@test "set1: echo prints its argument" { run echo hello; [ "$status" -eq 0 ]; [ "$output" = "hello" ]; }
@test "set1: printf pads numbers" { run printf '%03d' 7; [ "$output" = "007" ]; }
@test "set1: mkdir creates a directory" { mkdir "$TMP/a"; [ -d "$TMP/a" ]; }
@test "set1: touch creates a file" { touch "$TMP/f"; [ -f "$TMP/f" ]; }
@test "set1: wc counts lines" { printf 'a\nb\nc\n' > "$TMP/l"; run wc -l < "$TMP/l"; [ "$output" -eq 3 ]; }
@test "set1: sort orders words" { run bash -c "printf 'b\na\n' | sort | head -1"; [ "$output" = "a" ]; }
@test "set1: grep finds a match" { run grep -c x <<< "xyx"; [ "$status" -eq 0 ]; }
@test "set1: cut splits fields" { run bash -c "echo a:b:c | cut -d: -f2"; [ "$output" = "b" ]; }
@test "set1: tr upcases" { run bash -c "echo abc | tr a-z A-Z"; [ "$output" = "ABC" ]; }
@test "set1: seq counts to five" { run seq 5; [ "${#lines[@]}" -eq 5 ]; }
@test "set1: basename strips dirs" { run basename /usr/local/bin/tool; [ "$output" = "tool" ]; }
@test "set1: dirname keeps dirs" { run dirname /usr/local/bin/tool; [ "$output" = "/usr/local/bin" ]; }
@test "set1: date is formatted" { skip "needs TZ database"; }
EOF
  sed 's/set1/set2/' "$P/btp/s1.bats" >"$P/btp/s2.bats"
  sed 's/set1/set3/' "$P/btp/s1.bats" >"$P/btp/s3.bats"
  sed -e 's/set1: //' \
    -e '/"date is formatted"/i @test "config file is parsed" { run bash -c "echo port=80 | cut -d= -f2"; [ "$output" = "8080" ]; }' \
    -e '/"date is formatted"/a @test "exit status propagates" { run bash -c "exit 3"; [ "$status" -eq 0 ]; }' \
    "$P/btp/s1.bats" >"$P/bt/cli.bats"
  BV="$(bats --version | sed 's/^Bats/bats/')"
  capture tap bats_failing "$P" "bats bt/ btp/" "$BV"
  capture tap bats_passing "$P" "bats btp/" "$BV"
  # tape from npm, installed once in its project; the failing deepEqual is at url.js:8:41.
  T=/tmp/zeph-tape
  mkdir -p "$T/test"
  [ -d "$T/node_modules/tape" ] || (cd "$T" && npm init -y >/dev/null && npm install --no-audit --no-fund tape@5.10.2 >/dev/null)
  cat >"$T/test/url.js" <<'EOF'
const test = require('tape');
const parse = (s) => { const u = new URL(s); return { host: u.hostname, port: u.port || '80', path: u.pathname }; };
for (const h of ['example.com', 'a.example.org', 'localhost', 'svc.internal', 'api.test']) {
  test(`parses host of http://${h}/x`, (t) => { t.equal(parse(`http://${h}/x`).host, h, 'host matches'); t.equal(parse(`http://${h}/x`).path, '/x', 'path matches'); t.end(); });
}
test('default port is 80', (t) => { t.equal(parse('http://a/').port, '80'); t.end(); });
test('keeps explicit port', (t) => { t.equal(parse('http://a:8080/').port, '8080', 'explicit port'); t.end(); });
test('parses query strings', (t) => { t.deepEqual(parse('http://a/b?c=1').path, '/b?c=1', 'path includes query'); t.end(); });
test('skipped test', { skip: true }, (t) => t.end());
EOF
  # The passing file: eight more hosts, no query test.
  sed -e "s/'api.test'\]/'api.test', 'db.local', 'cache.local', 'queue.svc', 'auth.example.net', 'cdn.example.net', 'mail.example.com', 'git.example.com', 'ci.example.com']/" \
    -e "/parses query strings/d" "$T/test/url.js" >"$T/test/url_pass.js"
  TV="tape $(cd "$T" && node -p 'require("tape/package.json").version') (node $(node --version))"
  capture tap tape_failing "$T" "npx tape test/url.js" "$TV"
  capture tap tape_passing "$T" "npx tape test/url_pass.js" "$TV"
fi

# --- python (pyxfail): pytest -ra on a module whose tests fail, xfail, pass unexpectedly (strict
# and not), skip and warn: the failure headers, XPASS lines and warnings summary of a real run
if sel pyxfail; then
  P="$WORK/pyxfail"
  rm -rf "$P" && mkdir -p "$P/tests"
  cat >"$P/report.py" <<'EOF'
import warnings


def ratio(a, b):
    if b == 0:
        warnings.warn("ratio with zero denominator", RuntimeWarning)
        return 0.0
    return a / b


def percent(part, whole):
    return round(100 * ratio(part, whole), 1)


def render(rows):
    warnings.warn("render() is deprecated, use render_table()", DeprecationWarning)
    return "\n".join(f"{k}: {v}" for k, v in rows)


def parse_amount(text):
    return float(text.replace(",", ""))
EOF
  cat >"$P/tests/test_report.py" <<'EOF'
import sys
import pytest
from report import percent, ratio, render, parse_amount


@pytest.mark.parametrize("part,whole,expected", [(1, 2, 50.0), (1, 8, 12.6), (3, 4, 75.0), (2, 3, 66.6)])
def test_percent(part, whole, expected):
    assert percent(part, whole) == expected


def test_ratio_zero():
    assert ratio(1, 0) == 0.0


def test_render():
    assert render([("a", 1)]) == "a: 1"


@pytest.mark.xfail(reason="known bug #41")
def test_negative():
    assert parse_amount("-1,000") == -1000.0


@pytest.mark.xfail(reason="locale parsing not done", strict=True)
def test_locale_amount():
    assert parse_amount("1.000,5") == 1000.5


@pytest.mark.xfail(reason="rounding mode")
def test_rounding():
    assert percent(1, 3) == 33.4


@pytest.mark.skipif(sys.platform == "linux", reason="windows paths only")
def test_windows_paths():
    pass


@pytest.mark.skip(reason="needs the billing service")
def test_billing():
    pass


@pytest.mark.xfail(reason="thousands separator bug #57", strict=True)
def test_thousands():
    assert parse_amount("1,000") == 1000.0
EOF
  capture python pytest_xfail_warnings "$P" "python3 -m pytest -ra -p no:cacheprovider tests" "pytest $(python3 -m pytest --version 2>&1 | awk '{print $2}')"
fi

# --- strace (`strace`): a small C program (config file, permission, a closed port, a segfault), a
# program whose shared library is missing, and a shell script whose steps run children ----------
if sel strace; then
  S="$WORK/strace"
  rm -rf "$S" && mkdir -p "$S/etc"
  cat >"$S/app.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

static int load_config(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) { fprintf(stderr, "app: cannot open config %s: %s\n", path, strerror(errno)); return -1; }
  char buf[256]; size_t n = fread(buf, 1, sizeof buf, f); fclose(f);
  printf("app: read %zu bytes of config\n", n);
  return 0;
}

static int fetch(int port) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {0}; a.sin_family = AF_INET; a.sin_port = htons(port);
  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  if (connect(s, (struct sockaddr *)&a, sizeof a) < 0) {
    fprintf(stderr, "app: connect 127.0.0.1:%d: %s\n", port, strerror(errno)); close(s); return -1;
  }
  close(s); return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "ok";
  if (!strcmp(mode, "config")) return load_config("etc/app.conf") ? 1 : 0;
  if (!strcmp(mode, "perm")) {
    int fd = open("secret.txt", O_RDONLY);
    if (fd < 0) { perror("app: open secret.txt"); return 1; }
    return 0;
  }
  if (!strcmp(mode, "net")) return fetch(39917) ? 3 : 0;
  if (!strcmp(mode, "segv")) { int *p = NULL; printf("app: about to crash\n"); fflush(stdout); return *p; }
  if (!strcmp(mode, "ok")) {
    load_config("app.conf");
    int fd = open("out.log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    write(fd, "done\n", 5); close(fd);
    printf("app: ok\n");
    return 0;
  }
  fprintf(stderr, "app: unknown mode %s\n", mode); return 2;
}
EOF
  echo 'const char *greet(void) { return "hi"; }' >"$S/libgreet.c"
  printf '#include <stdio.h>\nconst char *greet(void);\nint main(void) { puts(greet()); return 0; }\n' >"$S/usegreet.c"
  (cd "$S" && gcc -O0 -o app app.c && gcc -shared -fPIC -o libgreet.so.1 libgreet.c &&
    gcc -o usegreet usegreet.c -L. -l:libgreet.so.1 && rm libgreet.so.1)
  printf 'port=8080\nname=demo\n' >"$S/app.conf"
  echo topsecret >"$S/secret.txt" && chmod 600 "$S/secret.txt" && chmod 755 "$S"
  cat >"$S/build.sh" <<'EOF'
#!/bin/sh
# a build script: runs its steps, the last one fails with exit 2
set -e
ls app.conf > /dev/null
cat app.conf | grep -c port
./app ok
./app segv || echo "step crashed: $?"
sh -c 'echo child fails; exit 2'
EOF
  chmod +x "$S/build.sh"
  V="$(strace -V | head -1)"
  capture native strace_missing_config "$S" "strace ./app config" "$V"
  capture native strace_f_build_script "$S" "strace -f ./build.sh" "$V"
  capture native strace_missing_library "$S" "strace ./usegreet" "$V"
  capture native strace_file_trace "$S" "strace -f -e trace=file ./build.sh" "$V"
  capture native strace_tt_T_network "$S" "strace -tt -T -f sh -c './app net; ./app ok'" "$V"
  capture native strace_y_permission "$S" "strace -f -y setpriv --reuid=65534 --regid=65534 --clear-groups ./app perm" "$V"
fi

# --- node crashes (`nodecrash`): Node 20 dying of an fs ENOENT, of a JSON.parse error inside a
# dependency-like module, and of a failed assertion; each echoes the line that threw ------------
if sel nodecrash; then
  N="$WORK/nodecrash"
  rm -rf "$N" && mkdir -p "$N/node_modules/confy" "$N/config"
  cat >"$N/node_modules/confy/package.json" <<'EOF'
{ "name": "confy", "version": "1.2.0", "main": "index.js" }
EOF
  cat >"$N/node_modules/confy/index.js" <<'EOF'
"use strict";
const fs = require("node:fs");
const path = require("node:path");

function readLayer(dir, name) {
  const text = fs.readFileSync(path.join(dir, name + ".json"), "utf8");
  return JSON.parse(text);
}

exports.load = function load(dir, names) {
  return names.reduce((acc, name) => Object.assign(acc, readLayer(dir, name)), {});
};
EOF
  printf '{ "port": 8080, "name": "demo" }\n' >"$N/config/base.json"
  printf '{ "port": 9090,\n  "name": "prod",\n}\n' >"$N/config/prod.json"
  mkdir -p "$N/node_modules/tiny-boot"
  cat >"$N/node_modules/tiny-boot/index.js" <<'EOF'
"use strict";
// Runs an app's start-up steps in order, logging each.
exports.boot = function boot(steps) {
  const results = {};
  for (const [name, step] of Object.entries(steps)) {
    console.log(`[boot] ${new Date(0).toISOString()} step ${name}: starting`);
    results[name] = step(results);
    console.log(`[boot] ${new Date(0).toISOString()} step ${name}: done`);
  }
  return results;
};
EOF
  cat >"$N/server.js" <<'EOF'
const fs = require("node:fs");
const { boot } = require("tiny-boot");

function loadTemplates(dir) {
  const index = fs.readFileSync(`${dir}/index.html`, "utf8");
  return { index };
}

boot({
  env: () => ({ mode: "production", port: 8080 }),
  logger: () => ({ level: "info" }),
  routes: () => ["/", "/about", "/orders", "/orders/:id", "/health"],
  cache: () => new Map(),
  templates: () => loadTemplates("./templates"),
  listen: (r) => console.log("listening on", r.env.port),
});
EOF
  cat >"$N/start.js" <<'EOF'
const confy = require("confy");

for (const step of ["env", "flags", "secrets", "layers"]) {
  console.log(`[start] ${new Date(0).toISOString()} resolving ${step} for service "billing-api"`);
}
console.log("starting with layers base, prod");
const config = confy.load("./config", ["base", "prod"]);
console.log("listening on", config.port);
EOF
  cat >"$N/invoice.mjs" <<'EOF'
import assert from "node:assert/strict";

function total(lines) {
  return lines.reduce((sum, l) => sum + l.qty * l.price, 0);
}

const lines = [{ qty: 2, price: 9.99 }, { qty: 1, price: 0.1 }, { qty: 3, price: 0.2 }];
for (const [i, l] of lines.entries()) {
  console.log(`invoice line ${i + 1}: qty=${l.qty} price=${l.price} subtotal=${l.qty * l.price}`);
}
console.log("invoice lines:", lines.length);
assert.deepEqual({ total: total(lines), count: lines.length }, { total: 20.68, count: 3 });
console.log("ok");
EOF
  V="node $(node --version)"
  capture node node_crash_enoent "$N" "node server.js" "$V"
  capture node node_crash_json_dependency "$N" "node start.js" "$V"
  capture node node_crash_assertion "$N" "node invoice.mjs" "$V"
  cat >"$N/migrate.js" <<'EOF'
const steps = ["create users", "create orders", "add index on orders.user_id", "backfill totals"];

function apply(step, i) {
  console.log(`migration ${i + 1}/${steps.length}: ${step}`);
  if (step.startsWith("backfill")) {
    throw new RangeError(`backfill totals: order 1042 has a negative total (-12.50)`);
  }
}

steps.forEach(apply);
EOF
  capture node node_crash_user_throw "$N" "node migrate.js" "$V"
fi

# --- outliers: folds of lines of one shape with a few odd ones among them --------------------
# An HTTP access log (python's http.server, requests from the same process, a few 404 and 500),
# `git branch -vv` of a clone whose branches are tracked, gone upstream, ahead and behind, and
# `tar -tvf` of an archive with an empty file and one of another owner among 60 alike.
if sel outliers; then
  O="$WORK/outliers"
  rm -rf "$O" && mkdir -p "$O/www/api"
  for i in $(seq 1 40); do echo "item $i" >"$O/www/api/$i.json"; done
  cat >"$O/serve.py" <<'EOF'
import functools, http.server, threading, urllib.request, urllib.error

class Handler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith("/boom"):
            self.send_response(500); self.end_headers(); self.wfile.write(b"boom"); return
        return super().do_GET()

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory="www"))
port = server.server_address[1]
print(f"Serving HTTP on 127.0.0.1 port {port} (http://127.0.0.1:{port}/) ...", flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
for r in range(1, 4):
    for i in range(1, 41):
        path = {7: "/boom/orders", 23: f"/api/missing-{r}.json", 31: "/boom/cart"}.get(i, f"/api/{i}.json")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{path}").read()
        except urllib.error.HTTPError:
            pass
server.shutdown()
EOF
  capture system http_server_access "$O" "python3 -u serve.py" "python $(python3 --version | awk '{print $2}')"
  G="$O/git"
  mkdir -p "$G" && cd "$G" || exit 1
  git init -q -b main --bare up && git clone -q up repo 2>/dev/null
  (
    cd repo && git config user.email dev@example.com && git config user.name Dev
    git checkout -q -b main && git commit -q --allow-empty -m "initial commit" && git push -q -u origin main 2>/dev/null
    subjects=("add order endpoint" "fix cart rounding" "bump deps" "refactor checkout flow" "tidy logging" "update docs for api" "handle empty basket" "cache product list")
    for i in $(seq 1 24); do
      git checkout -q -b "feature/task-$i" main && echo "$i" >"f$i" && git add "f$i"
      git commit -q -m "${subjects[$((i % 8))]} ($i)" && git push -q -u origin "feature/task-$i" 2>/dev/null
    done
    git push -q origin --delete feature/task-5 feature/task-17 2>/dev/null && git fetch -q --prune
    git checkout -q feature/task-9 && echo x >>f9 && git commit -qam "wip on task 9"
  )
  git clone -q up other && (cd other && git config user.email dev@example.com && git config user.name Dev &&
    git checkout -q feature/task-13 && echo y >>f13 && git commit -qam "remote fix" && git push -q 2>/dev/null)
  (cd repo && git fetch -q && git checkout -q main && git branch -q spike/search main && git branch -q spike/payments feature/task-3)
  capture git branch_vv_tracking "$G/repo" "git branch -vv" "$(git --version)"
  T="$O/tar"
  mkdir -p "$T/pkg/src" "$T/pkg/assets" && cd "$T" || exit 1
  for i in $(seq 1 60); do head -c $((100 + i * 37)) /dev/urandom | base64 >"pkg/src/module_$i.py"; done
  : >pkg/src/__init__.py && : >pkg/src/module_30.py && : >pkg/assets/empty.css
  for i in 1 2 3 4 5 6; do head -c 900 /dev/urandom >"pkg/assets/img$i.png"; done
  python3 - <<'EOF'
import tarfile
def owner(info):
    info.uname = info.gname = "root" if info.name.endswith("module_41.py") else "build"
    return info
with tarfile.open("pkg.tar", "w") as t:
    t.add("pkg", filter=owner)
EOF
  capture files tar_tv_listing "$T" "tar -tvf pkg.tar" "$(tar --version | head -1)"
  cd "$ROOT" || exit 1
fi

# --- rule outliers (`ruleodd`): odd lines inside the rules' own folds and cuts -----------------
# `ls -la` of a build's output directory: 150 chunks alike, and among them a setuid script, a
# world-writable file, one of another owner and an empty chunk (run as root: `chown nobody`);
# PHP's built-in server (php 8.2) polled for /health.php, which answers 503 four times among 200s,
# its log read with `cat` (the log-dedup rule: the status is a bracketed number, `[200]`); `git
# status` with a deleted file among 79 modified ones.
if sel ruleodd; then
  R="$WORK/ruleodd"
  rm -rf "$R" && mkdir -p "$R/dist" "$R/www" && cd "$R" || exit 1
  for i in $(seq 1 150); do
    name=$(printf 'chunk-%03d-%s.js' "$i" "$(printf '%s' "$i" | sha1sum | cut -c1-8)")
    head -c $((2000 + (i * 7919) % 90000)) /dev/zero | tr '\0' 'x' >"dist/$name"
  done
  chmod 4755 "dist/$(cd dist && ls | sed -n 85p)"
  chmod 666 "dist/$(cd dist && ls | sed -n 101p)"
  chown nobody:nogroup "dist/$(cd dist && ls | sed -n 112p)"
  : >"dist/$(cd dist && ls | sed -n 127p)"
  capture files ls_la_dist "$R" "ls -la dist" "$(ls --version | head -1)"
  cat >www/health.php <<'EOF'
<?php
$n = (int) @file_get_contents(__DIR__ . '/../count.txt') + 1;
file_put_contents(__DIR__ . '/../count.txt', $n);
if (in_array($n, [17, 18, 41, 63])) { http_response_code(503); echo "unavailable"; return; }
echo "ok";
EOF
  php -S 127.0.0.1:18765 -t www 2>server.log &
  PHP_PID=$!
  sleep 1
  for i in $(seq 1 80); do curl -s -o /dev/null http://127.0.0.1:18765/health.php; done
  kill "$PHP_PID"
  wait "$PHP_PID" 2>/dev/null
  capture logs php_server_health "$R" "cat server.log" "$(php --version | head -1)"
  # `git status` of a repository whose 90 modules all changed: ten staged and one deleted there,
  # one deleted among the 79 unstaged, past the git-status rule's 50 a section.
  mkdir -p "$R/repo/src" && cd "$R/repo" || exit 1
  git init -q && git config user.email dev@example.com && git config user.name Dev
  for i in $(seq 1 90); do echo "v1 $i" >"src/mod_$i.py"; done
  git add -A && git commit -qm "initial modules"
  for i in $(seq 1 90); do echo "v2" >>"src/mod_$i.py"; done
  git rm -qf src/mod_63.py && rm src/mod_77.py && git add src/mod_2*.py
  capture git status_many_changes "$R/repo" "git status" "$(git --version)"
  cd "$ROOT" || exit 1
fi

# --- buildtools: outputs the generic pass used to read alone: pdflatex, cppcheck, meson, a
# sqlite3 script run with .echo on ------------------------------------------------------------
if sel buildtools; then
  B="$WORK/buildtools"
  rm -rf "$B" && mkdir -p "$B/tex" "$B/cpp/src" "$B/meson/src" "$B/sql"
  cat >"$B/tex/report.tex" <<'EOF'
\documentclass[11pt]{article}
\usepackage[utf8]{inputenc}
\usepackage[T1]{fontenc}
\usepackage{fancyhdr}
\usepackage{amsmath,amssymb,amsthm}
\usepackage{graphicx}
\usepackage{color}
\usepackage{geometry}
\usepackage{array,longtable,tabularx}
\usepackage{hyperref}
\title{Quarterly Throughput Report}
\author{Build Team}
\begin{document}
\maketitle
\section{Introduction}\label{sec:intro}
This report summarises throughput, see Section~\ref{sec:results} and Table~\ref{tab:missing}.
Cited work \cite{knuth84} shows the method.
\section{Method}
The rate is $r = \frac{n}{t}$ and the error is \errorterm{r}.
Averylongunbreakablewordthatcannotpossiblyfitintothelinewidthwithoutoverflowingthemargin and more text.
\begin{equation}
  E = \sum_{i=1}^{n} \mathbb{E}[X_i] \label{eq:sum}
\end{equation}
\input{appendix-data}
\section{Results}\label{sec:results}
\begin{tabular}{ll}
\hline
a & b \\
\hline
1 & \badmacro \\
\hline
\end{tabular}
\hbox to 2cm{This box is far too narrow for all of this text}
\end{document}
EOF
  sed 's/^\\input{appendix-data}/\\IfFileExists{appendix-data.tex}{\\input{appendix-data}}{}\n\\input{batches}/' \
    "$B/tex/report.tex" >"$B/tex/report2.tex"
  for i in 1 2 3 4 5 6; do
    echo "\\subsection{Batch $i}\\label{sec:b$i} Batch $i measured \\textbf{$i} units; see \\ref{sec:b$((i + 1))}. \\hbox to 3cm{Batch $i has a label that does not fit here at all}"
  done >"$B/tex/batches.tex"
  TEXV="$(pdflatex --version | head -1)"
  capture misc pdflatex_missing_input "$B/tex" "pdflatex -interaction=nonstopmode report.tex" "$TEXV"
  capture misc pdflatex_warnings "$B/tex" "pdflatex -interaction=nonstopmode report2.tex" "$TEXV"
  cat >"$B/cpp/src/buffer.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

char *copy_name(const char *name) {
    char buf[16];
    strcpy(buf, name);
    char *out = malloc(strlen(buf) + 1);
    strcpy(out, buf);
    return out;
}

int sum(int *v, int n) {
    int total;
    for (int i = 0; i <= n; i++) total += v[i];
    return total;
}

void leak(void) {
    char *p = malloc(32);
    if (!p) return;
    p[0] = 'x';
}

int first(void) {
    int arr[4] = {1, 2, 3, 4};
    return arr[4];
}
EOF
  cat >"$B/cpp/src/parse.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>

int parse_port(const char *s) {
    int port = atoi(s);
    if (port = 0) return -1;
    return port;
}

void read_config(const char *path) {
    FILE *f = fopen(path, "r");
    char line[64];
    while (fgets(line, sizeof(line), f)) {
        printf(line);
    }
}

static int unused_helper(int x) { return x * 2; }

int divide(int a) {
    int zero = 0;
    return a / zero;
}
EOF
  for i in 1 2 3 4 5 6 7 8; do
    printf '#include <stdio.h>\nint mod%s_value(int x) {\n    int y = x * %s;\n    return y + 1;\n}\nvoid mod%s_print(const char *msg) {\n    char local[8];\n    snprintf(local, sizeof(local), "%%s", msg);\n    puts(local);\n}\n' \
      "$i" "$i" "$i" >"$B/cpp/src/mod$i.c"
  done
  capture native cppcheck_enable_all "$B/cpp" "cppcheck --enable=all src" "$(cppcheck --version)"
  cat >"$B/meson/meson.build" <<'EOF'
project('ledger', 'c', version : '0.3.0', default_options : ['warning_level=2'])
cc = meson.get_compiler('c')
m = cc.find_library('m', required : false)
zlib = dependency('zlib', required : false)
threads = dependency('threads')
conf = configuration_data()
conf.set('HAVE_ZLIB', zlib.found())
configure_file(output : 'config.h', configuration : conf)
sources = files('src/main.c', 'src/ledger.c', 'src/report.c', 'src/util.c')
foreach n : ['a', 'b', 'c', 'd', 'e', 'f']
  sources += files('src/extra_' + n + '.c')
endforeach
executable('ledger', sources, dependencies : [m, zlib, threads])
EOF
  printf '#include <stdio.h>\nint ledger_total(void);\nint main(void) { printf("%%d\\n", ledger_total()); return 0; }\n' >"$B/meson/src/main.c"
  echo 'int ledger_total(void) { int unused; return 42; }' >"$B/meson/src/ledger.c"
  printf '#include <stdio.h>\nvoid report(const char *name) {\n    printf("%%s\\n", name);\n    return undefined_total;\n}\n' >"$B/meson/src/report.c"
  echo 'int util_add(int a, int b) { return a + b; }' >"$B/meson/src/util.c"
  for n in a b c d e f; do echo "int extra_$n(int x) { return x + 1; }" >"$B/meson/src/extra_$n.c"; done
  (cd "$B/meson" && meson setup build >/dev/null 2>&1)
  capture native meson_compile_error "$B/meson" "meson compile -C build" "meson $(meson --version)"
  python3 - "$B/meson/meson.build" <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
checks = "".join(f"cc.has_header('{h}')\n" for h in ["stdio.h", "stdlib.h", "string.h", "unistd.h", "fcntl.h", "sys/stat.h"])
checks += "".join(f"cc.has_function('{f}')\n" for f in ["strndup", "posix_memalign", "clock_gettime"])
checks += "python = find_program('python3')\nsqlite = dependency('sqlite3', required : false)\n"
checks += "curl = dependency('libcurl', version : '>=7.80')\n"
open(p, "w").write(s.replace("threads = dependency('threads')\n", "threads = dependency('threads')\n" + checks))
EOF
  capture native meson_setup_missing_dep "$B/meson" "meson setup build-curl" "meson $(meson --version)"
  python3 - "$B/sql" <<'EOF'
import sys
d = sys.argv[1]
lines = [".echo on", ".bail on", "PRAGMA foreign_keys = ON;", "BEGIN;"]
lines.append("CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT);")
lines.append("CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), total_cents INTEGER NOT NULL CHECK (total_cents >= 0));")
lines.append("CREATE INDEX orders_customer ON orders(customer_id);")
lines += [f"INSERT INTO customers (id, email, name) VALUES ({i}, 'user{i}@example.com', 'User {i}');" for i in range(1, 61)]
lines += [f"INSERT INTO orders (id, customer_id, total_cents) VALUES ({i}, {(i % 60) + 1}, {i * 125});" for i in range(1, 81)]
lines.append("UPDATE orders SET total_cents = total_cents + 50 WHERE customer_id = 7;")
lines.append("INSERT INTO orders (id, customer_id, total_cents) VALUES (81, 404, 999);")
lines += [f"INSERT INTO orders (id, customer_id, total_cents) VALUES ({i}, 3, {i});" for i in range(82, 90)]
lines.append("COMMIT;")
open(f"{d}/migrate.sql", "w").write("\n".join(lines) + "\n")
lines = [".echo on", "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);"]
lines += [f"INSERT INTO t VALUES ({i}, 'v{i}');" for i in range(1, 50)]
lines += ["INSERT INTO t VALUES (50, 'v50'", "SELECT count(*) FROM t;", "INSERT INTO t VALUES (1, 'dup');"]
lines += [f"INSERT INTO t VALUES ({i}, 'v{i}');" for i in range(51, 70)]
lines.append("SELECT max(id) FROM t;")
open(f"{d}/seed.sql", "w").write("\n".join(lines) + "\n")
EOF
  rm -f "$B/sql/shop.db" "$B/sql/t.db"
  capture db sqlite_echo_fk_error "$B/sql" "sqlite3 shop.db < migrate.sql" "sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
  capture db sqlite_echo_seed_errors "$B/sql" "sqlite3 t.db < seed.sql" "sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
  cd "$ROOT" || exit 1
fi

# --- runner reports (`runreports`): what a test run reports besides its tests: pytest's slowest
# durations on a passing run, coverage tables under a threshold that fails the run (pytest-cov
# with a failing hypothesis test and -l locals; jest and vitest). PY: a python with pytest,
# pytest-cov and hypothesis in ZEPH_CORPUS_PY (a bin directory, a virtualenv's); jest 29, vitest 4 and @vitest/coverage-v8 come from
# npm (ZEPH_CORPUS_NPM) ---------------------------------------------------------------------------
if sel runreports; then
  PYBIN="${ZEPH_CORPUS_PY:-/usr/bin}"
  PY="$PYBIN/python3"
  NPMBIN="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}/node_modules/.bin"
  R="$WORK/runreports"
  rm -rf "$R" && mkdir -p "$R/slow/tests" "$R/ledger/ledger" "$R/ledger/tests" "$R/jest/src" "$R/jest/test" "$R/vitest/src" "$R/vitest/test"
  cat >"$R/slow/tests/test_queue.py" <<'EOF'
import time
import pytest

DELAYS = [0.0, 0.31, 0.0, 0.12, 0.0, 0.07, 0.0, 0.0, 0.22, 0.0, 0.015, 0.0]


@pytest.fixture
def broker():
    time.sleep(0.04)
    yield {"queue": []}
    time.sleep(0.02)


@pytest.mark.parametrize("n", range(len(DELAYS)))
def test_enqueue(broker, n):
    time.sleep(DELAYS[n])
    broker["queue"].append(n)
    assert broker["queue"] == [n]


def test_drain_empty():
    assert [] == []


def test_retry_backoff():
    time.sleep(0.45)
    assert 2 ** 3 == 8
EOF
  cat >"$R/slow/tests/test_store.py" <<'EOF'
import time


def test_snapshot_roundtrip():
    time.sleep(0.18)
    assert {"a": 1} == {"a": 1}


def test_compaction():
    time.sleep(0.09)
    assert sorted([3, 1, 2]) == [1, 2, 3]


def test_keys():
    assert list({"x": 1}) == ["x"]
EOF
  V="pytest $("$PY" -m pytest --version 2>&1 | awk '{print $2}')"
  PATH="$PYBIN:$PATH" capture python pytest_durations_verbose "$R/slow" "python3 -m pytest -v -p no:cacheprovider --durations=8 tests" "$V"
  : >"$R/ledger/ledger/__init__.py"
  cat >"$R/ledger/ledger/money.py" <<'EOF'
def allocate(total, weights):
    """Split total cents by weights; the remainder goes to the first shares."""
    whole = sum(weights)
    shares = [total * w // whole for w in weights]
    left = total - sum(shares)
    for i in range(left):
        shares[i] += 1
    return shares


def parse_amount(text):
    units, _, cents = text.partition(".")
    return int(units) * 100 + int(cents or 0)


def fmt(cents):
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def unused_branch(x):
    if x > 10:
        return "big"
    if x > 5:
        return "medium"
    return "small"
EOF
  cat >"$R/ledger/ledger/report.py" <<'EOF'
from ledger.money import fmt, parse_amount


def total_line(rows):
    amounts = [parse_amount(r["amount"]) for r in rows]
    return f"TOTAL {fmt(sum(amounts))}"


def render(rows):
    lines = [f"{r['name']:<10} {r['amount']:>8}" for r in rows]
    lines.append(total_line(rows))
    return "\n".join(lines)


def never_called():
    a = 1
    b = 2
    return a + b
EOF
  cat >"$R/ledger/tests/test_money.py" <<'EOF'
import time
import pytest
from hypothesis import given, strategies as st
from ledger.money import allocate, parse_amount, fmt


@pytest.mark.parametrize("total,weights", [(100, [1, 1]), (7, [1, 2]), (0, [3])])
def test_allocate_keeps_total(total, weights):
    assert sum(allocate(total, weights)) == total


@pytest.mark.parametrize("text,cents", [("1.50", 150), ("2", 200), ("0.5", 50)])
def test_parse_amount(text, cents):
    assert parse_amount(text) == cents


@given(st.integers(min_value=-10**6, max_value=10**6))
def test_fmt_roundtrip(cents):
    assert parse_amount(fmt(cents)) == cents


def test_fmt_negative():
    time.sleep(0.05)
    assert fmt(-5) == "-0.05"
EOF
  cat >"$R/ledger/tests/test_report.py" <<'EOF'
import time
from ledger.report import render, total_line


def test_total_line():
    time.sleep(0.12)
    rows = [{"name": "tea", "amount": "3.20"}, {"name": "cake", "amount": "4.05"}]
    assert total_line(rows) == "TOTAL 7.25"


def test_render_bad_amount():
    rows = [{"name": "tea", "amount": "3.x"}]
    out = render(rows)
    assert out.startswith("tea")
EOF
  PATH="$PYBIN:$PATH" capture python pytest_cov_threshold_locals "$R/ledger" "python3 -m pytest -p no:cacheprovider --cov=ledger --cov-report=term-missing --cov-fail-under=90 -l" "$V, pytest-cov $("$PY" -c 'import pytest_cov; print(pytest_cov.__version__)'), hypothesis $("$PY" -c 'import hypothesis; print(hypothesis.__version__)')"
  # The same modules for jest (CommonJS) and vitest (ESM, globals: the runner comes from npm).
  for m in cart price tax ship coupon refund stock invoice order; do
    printf 'function %sSum(xs) {\n  let t = 0;\n  for (const x of xs) t += x;\n  return t;\n}\nfunction %sCheck(x) {\n  if (x < 0) throw new Error("negative");\n  if (x > 1000) return "large";\n  return "ok";\n}\nmodule.exports = { %sSum, %sCheck };\n' "$m" "$m" "$m" "$m" >"$R/jest/src/$m.js"
    sed -e 's/^function/export function/' -e '/^module.exports/d' "$R/jest/src/$m.js" >"$R/vitest/src/$m.js"
  done
  cat >"$R/jest/jest.config.js" <<'EOF'
module.exports = { collectCoverageFrom: ["src/**/*.js"], coverageThreshold: { global: { lines: 90, branches: 80 } } };
EOF
  cat >"$R/jest/test/all.test.js" <<'EOF'
const { cartSum, cartCheck } = require("../src/cart");
const { priceSum } = require("../src/price");
const { taxSum, taxCheck } = require("../src/tax");
test("cart sums", () => expect(cartSum([1, 2])).toBe(3));
test("cart checks", () => { expect(cartCheck(5)).toBe("ok"); expect(cartCheck(5000)).toBe("large"); expect(() => cartCheck(-1)).toThrow(); });
test("price sums", () => expect(priceSum([1, 2])).toBe(3));
test("tax sums", () => expect(taxSum([1, 2])).toBe(3));
test("tax checks", () => expect(taxCheck(5)).toBe("ok"));
EOF
  cat >"$R/jest/test/more.test.js" <<'EOF'
const { couponSum, couponCheck } = require("../src/coupon");
const { refundSum } = require("../src/refund");
const { stockSum, stockCheck } = require("../src/stock");
const { orderSum, orderCheck } = require("../src/order");
test("coupon sums", () => expect(couponSum([1, 2])).toBe(3));
test("coupon checks", () => { expect(couponCheck(5)).toBe("ok"); expect(couponCheck(5000)).toBe("large"); expect(() => couponCheck(-1)).toThrow(); });
test("order checks", () => { expect(orderSum([2])).toBe(2); expect(orderCheck(5)).toBe("ok"); expect(orderCheck(5000)).toBe("large"); expect(() => orderCheck(-1)).toThrow(); });
test("refund sums negative amounts", () => expect(refundSum([-1, -2])).toBe(3));
test("stock checks", () => expect(stockCheck(2000)).toBe("ok"));
EOF
  PATH="$NPMBIN:$PATH" capture node jest_coverage_threshold "$R/jest" "jest --ci --coverage" "jest $("$NPMBIN/jest" --version)"
  cat >"$R/vitest/vitest.config.mjs" <<'EOF'
export default { test: { globals: true, coverage: { provider: "v8", include: ["src/**"], reporter: ["text"], thresholds: { lines: 90, branches: 80 } } } };
EOF
  cat >"$R/vitest/test/all.test.js" <<'EOF'
import { cartSum, cartCheck } from "../src/cart.js";
import { priceSum } from "../src/price.js";
import { taxSum, taxCheck } from "../src/tax.js";
import { couponSum } from "../src/coupon.js";
test("cart sums", () => expect(cartSum([1, 2])).toBe(3));
test("cart checks", () => { expect(cartCheck(5)).toBe("ok"); expect(cartCheck(5000)).toBe("large"); expect(() => cartCheck(-1)).toThrow(); });
test("price sums", () => expect(priceSum([1, 2])).toBe(3));
test("tax sums", () => expect(taxSum([1, 2])).toBe(3));
test("tax checks", () => expect(taxCheck(5)).toBe("ok"));
test("coupon sums", () => expect(couponSum([4])).toBe(4));
EOF
  PATH="$NPMBIN:$PATH" capture node vitest_coverage_threshold "$R/vitest" "vitest run --coverage" "vitest $("$NPMBIN/vitest" --version | awk '{print $NF}')"
  cd "$ROOT" || exit 1
fi

# --- git (blame): a file of templated functions by one author, one `return` line by another ----
if sel gitblame; then
  R="$WORK/gitblame"
  rm -rf "$R" && mkdir -p "$R" && git init -q -b main "$R"
  commit_as() {
    (cd "$R" && git add -A && GIT_AUTHOR_NAME="$1" GIT_AUTHOR_EMAIL="$2" GIT_COMMITTER_NAME="$1" \
      GIT_COMMITTER_EMAIL="$2" GIT_AUTHOR_DATE="$3" GIT_COMMITTER_DATE="$3" git commit -qm "$4")
  }
  echo "# app" >"$R/README.md" && commit_as "Alice Smith" a@example.invalid "2026-02-10T09:00:00+0000" readme
  {
    printf '# Generated by tools/gen_steps.py\n"""Templated steps."""\nimport math\n\n\nSCALE = 1\n\n\n'
    printf 'def identity(x):\n    return x\n\n\n'
    for i in $(seq 1 60); do printf 'def step_%d(x):\n    return x * %d\n' "$i" "$i"; done
  } >"$R/app.py"
  commit_as "Alice Smith" a@example.invalid "2026-02-11T10:01:00+0000" steps
  sed -i 's/^    return x \* 13$/    return x * 13  # FIXME/' "$R/app.py"
  commit_as "Bob Jones" b@example.invalid "2026-03-02T14:22:10+0000" "step 13: hotfix"
  capture git blame_templated "$R" "git blame app.py" "$(git --version)"
  capture git blame_line_porcelain "$R" "git blame --line-porcelain -w -M app.py" "$(git --version)"
  capture_golden git-blame-porcelain line_porcelain_range "$R" "git blame --line-porcelain -L 30,45 app.py"
fi

# --- logs (jsonlogs): JSON-lines logs with no rule: python logging with a JSON formatter, pino ---
# pino comes from npm (ZEPH_CORPUS_NPM, like biome).
if sel jsonlogs; then
  R="$WORK/jsonlogs"
  rm -rf "$R" && mkdir -p "$R"
  cat >"$R/sync.py" <<'EOF'
import json, logging, sys

class JsonFormatter(logging.Formatter):
    def format(self, record):
        out = {"asctime": self.formatTime(record), "levelname": record.levelname,
               "name": record.name, "message": record.getMessage()}
        if record.exc_info:
            out["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(out)

handler = logging.StreamHandler(sys.stdout)
handler.setFormatter(JsonFormatter())
log = logging.getLogger("sync")
log.addHandler(handler)
log.setLevel(logging.INFO)

log.info("sync started: source=s3://acme-exports/2026-11-27 target=postgres://db/warehouse")
log.info("loaded 4 table mappings from sync.toml")
rows = 0
for batch in range(1, 61):
    n = 500 if batch % 7 else 480
    rows += n
    log.info("synced batch %d/60 of orders (%d rows)", batch, n)
    if batch == 23:
        log.warning("batch 23: 20 rows had a null customer_id; written with customer_id=0")
try:
    prices = {"SKU-1": "12.50", "SKU-2": "n/a"}
    total = sum(float(v) for v in prices.values())
except ValueError:
    log.error("cannot reconcile price table", exc_info=True)
log.info("sync finished: %d rows in 60 batches, 1 warning, 1 error", rows)
sys.exit(1)
EOF
  capture logs jsonl_python_sync "$R" "python3 sync.py" "$(python3 --version), logging with a JSON formatter"
  cat >"$R/worker.js" <<'EOF'
const pino = require("pino");
const log = pino({ base: { pid: 4242, hostname: "build-7" }, timestamp: pino.stdTimeFunctions.epochTime });
log.info({ queue: "thumbnails" }, "worker started");
for (let i = 1; i <= 45; i++) {
  log.info({ job: 1000 + i, ms: 40 + (i * 7) % 23 }, `resized image ${1000 + i}.jpg to 3 sizes`);
  if (i === 19) log.warn({ job: 1019 }, "image 1019.jpg has no EXIF orientation; assuming upright");
}
log.error({ job: 1046, err: { type: "Error", message: "EACCES: permission denied, open '/srv/media/1046.jpg'", stack: "Error: EACCES: permission denied, open '/srv/media/1046.jpg'\n    at Object.openSync (node:fs:573:18)" } }, "cannot read source image");
for (let i = 47; i <= 58; i++) log.info({ job: 1000 + i, ms: 41 + (i * 5) % 19 }, `resized image ${1000 + i}.jpg to 3 sizes`);
log.info({ done: 57, failed: 1 }, "queue drained");
setTimeout(() => { const cfg = undefined; console.error("shutting down"); cfg.flush(); }, 10);
EOF
  NPMDIR="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}/node_modules"
  NODE_PATH="$NPMDIR" capture logs jsonl_pino_worker "$R" "node worker.js" \
    "node $(node --version), pino $(node -p "require('$NPMDIR/pino/package.json').version")"
  cd "$ROOT" || exit 1
fi

# --- runner closings (`runclose`): what a test run prints after its counts and per location:
# `cargo test --workspace --no-fail-fast` with a failing lib test and a failing integration test
# (cargo's `error: 2 targets failed:` and the list under it); `npm test -- tests` running jest,
# which ends with `Ran all test suites matching /tests/i.`; pytest whose warnings summary has the
# same warning at several locations. jest comes from ZEPH_CORPUS_NPM.
if sel runclose; then
  R="$WORK/runclose"
  rm -rf "$R" && mkdir -p "$R/ws/ledger-core/src" "$R/ws/ledger-core/tests" "$R/ws/ledger-fx/src"
  cat >"$R/ws/Cargo.toml" <<'EOF'
[workspace]
members = ["ledger-core", "ledger-fx"]
resolver = "2"
EOF
  for crate in ledger-core ledger-fx; do
    printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2024"\n\n[dependencies]\n' \
      "$crate" >"$R/ws/$crate/Cargo.toml"
  done
  cat >"$R/ws/ledger-core/src/lib.rs" <<'EOF'
pub fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(2, 2), 4);
    }
}
EOF
  cat >"$R/ws/ledger-core/tests/rounding.rs" <<'EOF'
use ledger_core::add;

#[test]
fn adds_negative() {
    assert_eq!(add(-2, 1), -1);
}

#[test]
fn adds_overflowing_total() {
    assert!(add(i64::MAX - 1, 1) < 0, "total wrapped");
}
EOF
  cat >"$R/ws/ledger-fx/src/lib.rs" <<'EOF'
pub fn convert(cents: i64, rate_bp: i64) -> i64 {
    cents * rate_bp / 1000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_at_par() {
        assert_eq!(convert(100, 10_000), 100);
    }

    #[test]
    fn converts_zero() {
        assert_eq!(convert(0, 12_345), 0);
    }
}
EOF
  capture cargo cargo_workspace_targets_failed "$R/ws" \
    "env -u RUST_BACKTRACE CARGO_NET_OFFLINE=true cargo test --workspace --no-fail-fast" "$(cargo --version)"

  NPMBIN="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}/node_modules/.bin"
  mkdir -p "$R/js/src" "$R/js/tests"
  printf '{\n  "name": "cart",\n  "version": "1.0.0",\n  "scripts": { "test": "jest" }\n}\n' >"$R/js/package.json"
  cat >"$R/js/src/cart.js" <<'EOF'
function total(items) {
  return items.reduce((sum, item) => sum + item.price * item.qty, 0);
}
function discount(amount, pct) {
  return Math.round(amount * (1 - pct / 100));
}
module.exports = { total, discount };
EOF
  cat >"$R/js/tests/cart.test.js" <<'EOF'
const { total, discount } = require("../src/cart");

describe("cart", () => {
  test("totals items", () => {
    expect(total([{ price: 2, qty: 3 }, { price: 5, qty: 1 }])).toBe(11);
  });
  test("applies a discount", () => {
    expect(discount(200, 15)).toBe(175);
  });
});
EOF
  cat >"$R/js/tests/empty.test.js" <<'EOF'
const { total } = require("../src/cart");
test("empty cart is zero", () => {
  expect(total([])).toBe(0);
});
EOF
  PATH="$NPMBIN:$PATH" capture node jest_npm_test_pattern "$R/js" "npm test -- tests" \
    "jest $("$NPMBIN/jest" --version), npm $(npm --version)"

  mkdir -p "$R/py/stock" "$R/py/tests" && touch "$R/py/stock/__init__.py"
  cat >"$R/py/stock/levels.py" <<'EOF'
import warnings


def reorder_point(daily, lead_days, safety=None):
    if safety is None:
        warnings.warn("safety stock defaults to zero; pass safety= explicitly", DeprecationWarning, stacklevel=2)
        safety = 0
    return daily * lead_days + safety


def units(value):
    if isinstance(value, float):
        warnings.warn("float quantities are rounded down", UserWarning, stacklevel=2)
    return int(value)
EOF
  cat >"$R/py/tests/test_stock.py" <<'EOF'
from stock.levels import reorder_point, units


def test_reorder_point_basic():
    assert reorder_point(4, 3, safety=2) == 14


def test_reorder_point_default_safety():
    assert reorder_point(4, 3) == 12


def test_reorder_point_long_lead():
    assert reorder_point(2, 10) == 20


def test_units_float():
    assert units(3.7) == 3


def test_units_rounds_half():
    assert units(2.5) == 3
EOF
  cat >"$R/py/tests/test_orders.py" <<'EOF'
from stock.levels import reorder_point, units


def test_order_for_week():
    assert reorder_point(5, 7) == 35


def test_order_units():
    assert units(4.0) == 4
EOF
  capture python pytest_warnings_locations "$R/py" "python3 -m pytest -p no:cacheprovider tests" \
    "pytest $(python3 -m pytest --version 2>&1 | awk '{print $2}')"
  cd "$ROOT" || exit 1
fi

# --- runner repeats (`runrepeat`): what a test run reports twice, the copies differing, and the
# lines of its report besides tests: `pytest -v -rA` (progress lines and the short summary name the
# same failures; SKIPPED/XFAIL reasons, setup and teardown errors, many PASSED lines), `pytest -n 2`
# (pytest-xdist's `2 workers [51 items]`), vitest's verbose reporter on a test with two failing
# `expect.soft` calls, `node --test --test-reporter=spec` (each failure printed again under
# `failing tests:`) with one-line `expected:`/`actual:` values under a diff. PY: a python with
# pytest and pytest-xdist in ZEPH_CORPUS_PY (a bin directory); vitest 4 from ZEPH_CORPUS_NPM.
if sel runrepeat; then
  PYBIN="${ZEPH_CORPUS_PY:-/usr/bin}"
  NPMBIN="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}/node_modules/.bin"
  R="$WORK/runrepeat"
  rm -rf "$R" && mkdir -p "$R/py/tests" "$R/vitest/test" "$R/nodetest"
  cat >"$R/py/tests/test_calc.py" <<'EOF'
import pytest


def total(items):
    return sum(items) + (1 if len(items) > 2 else 0)


@pytest.mark.parametrize("items,expected", [([1], 1), ([1, 2], 3), ([1, 2, 3], 6), ([4, 5, 6], 15)])
def test_total(items, expected):
    assert total(items) == expected


def test_ratio():
    assert {"rate": 0.5, "unit": "s"} == {"rate": 0.25, "unit": "s"}


@pytest.mark.skip(reason="needs a database")
def test_db():
    pass


@pytest.mark.skipif(True, reason="windows only")
def test_windows():
    pass


@pytest.mark.xfail(reason="rounding bug #12")
def test_rounding():
    assert round(2.675, 2) == 2.68


@pytest.mark.xfail(reason="fixed upstream")
def test_fixed():
    assert True


@pytest.fixture
def broken_setup():
    raise RuntimeError("cannot open config.toml")


@pytest.fixture
def broken_teardown():
    yield 1
    raise OSError("temp dir still in use")


def test_with_setup(broken_setup):
    assert broken_setup


def test_with_teardown(broken_teardown):
    assert broken_teardown == 1


@pytest.mark.parametrize("n", range(40))
def test_many(n):
    assert n >= 0
EOF
  PYV="pytest $("$PYBIN/python3" -m pytest --version 2>&1 | awk '{print $2}')"
  PATH="$PYBIN:$PATH" capture python pytest_verbose_ra "$R/py" "python3 -m pytest -v -rA tests" "$PYV"
  PATH="$PYBIN:$PATH" capture python pytest_xdist_workers "$R/py" "python3 -m pytest -n 2 -rs tests" "$PYV, pytest-xdist"
  printf '{ "type": "module" }\n' >"$R/vitest/package.json"
  cat >"$R/vitest/test/cart.test.js" <<'EOF'
import { describe, it, expect } from "vitest";

function cart(items) {
  return { count: items.length, total: items.reduce((a, b) => a + b, 0) + 1 };
}

describe("cart", () => {
  it("adds items", () => {
    expect(cart([1]).count).toBe(1);
  });
  it("totals and counts", () => {
    const c = cart([2, 3]);
    expect.soft(c.total).toBe(5);
    expect.soft(c.count).toBe(3);
  });
  it("is empty", () => {
    expect(cart([]).total).toBe(0);
  });
});
EOF
  PATH="$NPMBIN:$PATH" NO_COLOR=1 capture node vitest_soft_verbose "$R/vitest" "vitest run --reporter=verbose" "vitest $("$NPMBIN/vitest" --version | awk '{print $NF}')"
  cat >"$R/nodetest/price.test.mjs" <<'EOF'
import { describe, it } from "node:test";
import assert from "node:assert/strict";

const price = (n) => n * 3 + 1;
const tags = (n) => Array.from({ length: n }, (_, i) => `tag-${i}`);

describe("pricing", () => {
  it("adds tax", () => {
    assert.equal(price(2), 6);
  });
  it("lists tags", () => {
    assert.deepEqual(tags(12), [...tags(11), "tag-x"]);
  });
  it("maps routes", () => {
    assert.deepEqual({ "*": "a/b/d", home: "/" }, { "*": "a/b/c", home: "/" });
  });
  describe("rounding", () => {
    it("rounds down", () => {
      assert.strictEqual(Math.round(2.5), 2);
    });
    it("keeps zero", () => {
      assert.ok(price(0) === 0, "price of nothing is zero");
    });
  });
  it("passes", () => {
    assert.equal(1, 1);
  });
});
EOF
  capture node node_test_spec_repeats "$R/nodetest" "node --test --test-reporter=spec" "node $(node --version)"
  cd "$ROOT" || exit 1
fi

# --- traces (`traces`): a push a pre-receive hook refuses with free text, a Rust panic with a full
# backtrace, a JVM exception wrapped four times, `rake --trace` aborted --------------------------
if sel traces; then
  R="$WORK/traces"
  rm -rf "$R" && mkdir -p "$R" && cd "$R" || exit 1
  git init -q --bare hooked.git
  cat >hooked.git/hooks/pre-receive <<'EOF'
#!/bin/sh
while read -r old new ref; do
  branch=${ref#refs/heads/}
  for c in $(git rev-list "$new" --not --all); do
    git log -1 --format='%s' "$c" | grep -q 'ABC-[0-9]' ||
      echo "ERROR: commit $(git rev-parse --short "$c") ($(git log -1 --format=%s "$c")) names no ticket"
  done
done
echo "Push rejected by policy: every commit on $branch must name a ticket (ABC-123)."
echo "Reword the commits with: git rebase -i origin/main, then push again."
echo "Exemptions: ask #release in chat; the policy lives in ops/push-policy.md."
exit 1
EOF
  chmod +x hooked.git/hooks/pre-receive
  git init -q -b main pusher && (
    cd pusher && git config user.email dev@example.invalid && git config user.name Dev
    for i in $(seq 1 6); do seq 1 $((i * 400)) >"data$i.txt" && git add . && git commit -qm "update data set $i"; done
    git remote add origin ../hooked.git
  )
  capture git push_hook_rejected "$R/pusher" "git push --progress origin main 2>&1" "$(git --version)"

  mkdir -p panicky/src && cd panicky || exit 1
  printf '[package]\nname = "panicky"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >Cargo.toml
  cat >src/main.rs <<'EOF'
mod config;

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| "app.toml".to_string());
    let cfg = config::load(&path);
    println!("listening on port {}", cfg.port);
}
EOF
  cat >src/config.rs <<'EOF'
pub struct Config {
    pub port: u16,
}

fn parse_port(text: &str) -> u16 {
    let line = text.lines().find(|l| l.starts_with("port")).expect("no port line");
    line.split('=').nth(1).unwrap().trim().parse().unwrap()
}

pub fn load(path: &str) -> Config {
    let text = format!("name = \"demo\"\nport = \"{}\"\n", path.len() * 10000);
    Config { port: parse_port(&text) }
}
EOF
  CARGO_NET_OFFLINE=true CARGO_TERM_COLOR=never cargo build -q 2>/dev/null
  CARGO_NET_OFFLINE=true CARGO_TERM_COLOR=never RUST_BACKTRACE=full \
    capture cargo run_panic_backtrace "$R/panicky" "cargo run -- service.toml 2>&1" "$(cargo --version)"
  cd "$R" || exit 1

  mkdir -p jvm/com/acme/orders && cd jvm || exit 1
  cat >com/acme/orders/App.java <<'EOF'
package com.acme.orders;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

public class App {
    static class RepositoryException extends RuntimeException {
        RepositoryException(String m, Throwable c) { super(m, c); }
    }
    static class ServiceException extends RuntimeException {
        ServiceException(String m, Throwable c) { super(m, c); }
    }

    static int parseQuantity(String field) {
        return Integer.parseInt(field.trim());
    }

    static List<Integer> readRows(List<String> rows) {
        try {
            return rows.stream().map(r -> parseQuantity(r.split(",")[1])).collect(Collectors.toList());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("Row quantity is not a number", e);
        }
    }

    public static List<Integer> loadOrders() {
        try {
            return readRows(List.of("a-1, 3", "a-2, 4", "a-3, four"));
        } catch (IllegalStateException e) {
            throw new RepositoryException("Cannot load orders from orders.csv", e);
        }
    }

    static Object invokeLoader() throws Exception {
        Method m = App.class.getMethod("loadOrders");
        return m.invoke(null);
    }

    static Object importOrders() {
        try {
            return CompletableFuture.supplyAsync(() -> {
                try { return invokeLoader(); } catch (Exception e) { throw new ServiceException("Order import failed", e); }
            }).join();
        } catch (RuntimeException e) {
            throw new RuntimeException("Nightly job 'import-orders' aborted", e);
        }
    }

    public static void main(String[] args) {
        System.out.println("import-orders: starting");
        importOrders();
    }
}
EOF
  javac -d out com/acme/orders/App.java
  capture jvm java_cause_chain "$R/jvm" "java -cp out com.acme.orders.App 2>&1" "$(java -version 2>&1 | head -1)"
  cd "$R" || exit 1

  # A start-up through Guice 4.2 (Debian `libguice-java`), whose cglib cannot define classes on
  # Java 17: the injector fails under a chain of causes, printed twice (logged, then thrown).
  GCP=/usr/share/java/guice.jar:/usr/share/java/guava.jar:/usr/share/java/atinject-jsr330-api.jar:/usr/share/java/aopalliance.jar
  mkdir -p guice/com/acme/shop && cd guice || exit 1
  cat >com/acme/shop/Main.java <<'EOF'
package com.acme.shop;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Inject;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

public class Main {
    static class Settings {
        final String dsn;
        Settings(String dsn) { this.dsn = dsn; }
    }

    static class Database {
        @Inject
        Database(Settings settings) { }
    }

    static class ShopService {
        @Inject
        ShopService(Database db) { }
    }

    static class ShopModule extends AbstractModule {
        @Provides
        @Singleton
        Settings settings() {
            try {
                return new Settings(readDsn(Path.of("conf/shop.properties")));
            } catch (UncheckedIOException e) {
                throw new IllegalStateException("Cannot read settings for profile 'prod'", e);
            }
        }
    }

    static String readDsn(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open " + path, e);
        }
    }

    public static void main(String[] args) {
        System.out.println("shop: starting");
        try {
            Guice.createInjector(new ShopModule()).getInstance(ShopService.class);
        } catch (RuntimeException e) {
            throw new RuntimeException("Application start-up failed", e);
        }
    }
}
EOF
  javac -cp "$GCP" -d out com/acme/shop/Main.java
  capture jvm java_guice_startup "$R/guice" "java -cp out:$GCP com.acme.shop.Main 2>&1" "$(java -version 2>&1 | head -1), guice 4.2.3"
  cd "$R" || exit 1

  mkdir -p raketrace/lib && cd raketrace || exit 1
  cat >lib/seeds.rb <<'EOF'
require "json"

module Seeds
  def self.load(path)
    JSON.parse(File.read(path))
  end

  def self.apply(path)
    load(path).fetch("users").each { |u| puts "seed user #{u.fetch('name')}" }
  end
end
EOF
  printf '{"users": [{"name": "ada"}, {"name": "bob",}]}\n' >seeds.json
  cat >Rakefile <<'EOF'
require_relative "lib/seeds"

namespace :db do
  task :environment do
    puts "environment: development"
  end
  task config: :environment
  task create: :config
  task migrate: %i[create config] do
    puts "migrated 3 tables"
  end
  task schema: :migrate
  desc "Load the seed data"
  task seed: %i[migrate schema] do
    Seeds.apply("seeds.json")
  end
  task setup: %i[create migrate schema seed]
end

task default: "db:setup"
EOF
  capture ruby rake_trace_aborted "$R/raketrace" "rake --trace 2>&1" "rake $(rake --version | awk '{print $3}'), $(ruby -v | awk '{print $1, $2}')"
  cd "$ROOT" || exit 1
fi

# --- repeats (`repeats`): failing runs whose lines say again what another line says: git merge
# and rebase stopping on conflicts (`Auto-merging x` before `CONFLICT … in x`, git's hints),
# `cargo clippy -- -D warnings` over three files (each lint's page address under every finding, a
# suggestion's copy of its source line), `cargo build` with trait-bound errors (one source line
# under two errors), `ruff check` whose fixes' diffs repeat their frames' lines ----------------
if sel repeats; then
  R="$WORK/repeats"
  rm -rf "$R" && mkdir -p "$R" && cd "$R" || exit 1
  export GIT_AUTHOR_DATE="2026-11-27T12:00:00Z" GIT_COMMITTER_DATE="2026-11-27T12:00:00Z"
  git init -q -b main shop && cd shop || exit 1
  git config user.email dev@example.invalid && git config user.name Dev
  for f in app.py cart.py tax.py config.toml README.md; do
    seq 1 40 | sed "s/^/# $f line /" >"$f"
  done
  git add . && git commit -qm "initial layout"
  git checkout -qb feature
  sed -i 's/line 5$/line 5 (feature: discounts)/' app.py cart.py tax.py config.toml
  git commit -qam "discounts in cart and tax"
  sed -i 's/line 20$/line 20 (feature: currency)/' cart.py README.md
  git commit -qam "currency in cart"
  git checkout -q main
  sed -i 's/line 5$/line 5 (main: rounding)/' app.py cart.py tax.py
  sed -i 's/line 38$/line 38 (main: release notes)/' README.md config.toml
  git commit -qam "rounding fix"
  capture git merge_conflicts "$R/shop" "git merge feature 2>&1" "$(git --version)"
  git merge --abort
  git checkout -q feature
  capture git rebase_conflicts "$R/shop" "git rebase main 2>&1" "$(git --version)"
  git rebase --abort
  unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE
  cd "$R" || exit 1

  mkdir -p shapes/src && cd shapes || exit 1
  printf '[package]\nname = "shapes"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >Cargo.toml
  printf 'pub mod geo;\npub mod text;\npub mod store;\n' >src/lib.rs
  cat >src/geo.rs <<'EOF'
pub struct Point { pub x: f64, pub y: f64 }

pub fn len(v: &Vec<Point>) -> usize {
    let mut n = 0;
    for i in 0..v.len() { n = n + 1; let _ = &v[i]; }
    return n;
}

pub fn is_origin(p: &Point) -> bool { if p.x == 0.0 && p.y == 0.0 { true } else { false } }

pub fn total(v: &Vec<f64>) -> f64 {
    let mut t = 0.0;
    for i in 0..v.len() { t = t + v[i]; }
    return t;
}

pub fn names(v: &Vec<String>) -> usize { v.len() }
EOF
  cat >src/text.rs <<'EOF'
pub fn shout(s: &String) -> String { return s.to_uppercase(); }

pub fn count(words: &Vec<&str>) -> usize {
    let mut c = 0;
    for i in 0..words.len() { if words[i].len() > 0 { c = c + 1; } }
    return c;
}

pub fn first(s: &String) -> Option<char> { return s.chars().next(); }

pub fn empty(s: &str) -> bool { if s.len() == 0 { true } else { false } }
EOF
  cat >src/store.rs <<'EOF'
use std::collections::HashMap;

pub fn get(m: &HashMap<String, i32>, k: &String) -> i32 {
    match m.get(k) { Some(v) => *v, None => 0 }
}

pub fn keys(m: &HashMap<String, i32>) -> Vec<String> {
    let mut out = Vec::new();
    for (k, _) in m.iter() { out.push(k.clone()); }
    return out;
}

pub fn bump(v: &mut Vec<i32>) { for i in 0..v.len() { v[i] = v[i] + 1; } }
EOF
  CARGO_NET_OFFLINE=true CARGO_TERM_COLOR=never \
    capture cargo clippy_deny_warnings "$R/shapes" "cargo clippy -q -- -D warnings 2>&1" "$(cargo clippy --version)"
  cd "$R" || exit 1

  mkdir -p traits/src && cd traits || exit 1
  printf '[package]\nname = "traits"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >Cargo.toml
  cat >src/main.rs <<'EOF'
mod model;
use std::collections::HashMap;
use model::{Order, Sku};

fn index(orders: &[Order]) -> HashMap<Sku, u32> {
    let mut m = HashMap::new();
    for o in orders { *m.entry(o.sku.clone()).or_insert(0) += o.qty; }
    m
}

fn show<T: std::fmt::Display>(t: T) -> String { format!("{}", t) }

fn main() {
    let orders = vec![Order { sku: Sku(1), qty: 2 }];
    let idx = index(&orders);
    println!("{:?}", idx);
    println!("{}", show(orders[0].clone()));
    let sorted: Vec<Order> = { let mut v = orders.clone(); v.sort(); v };
    let total: u32 = orders.iter().map(|o| o.qty).sum::<u64>();
    let s: String = 5;
}
EOF
  cat >src/model.rs <<'EOF'
#[derive(Clone)]
pub struct Sku(pub u32);

#[derive(Clone)]
pub struct Order { pub sku: Sku, pub qty: u32 }
EOF
  CARGO_NET_OFFLINE=true CARGO_TERM_COLOR=never \
    capture cargo build_trait_bounds "$R/traits" "cargo build 2>&1" "$(cargo --version)"
  cd "$R" || exit 1

  mkdir -p inv/inv && cd inv || exit 1
  : >inv/__init__.py
  cat >inv/models.py <<'EOF'
from dataclasses import dataclass
from typing import Optional
import os, sys, json


@dataclass
class Item:
    sku: str
    qty: int
    price: float


def find(items: list[Item], sku: str) -> Optional[Item]:
    for i in items:
        if i.sku == sku:
            return i


def label(i: Optional[Item]) -> str:
    return i.sku.upper()
EOF
  cat >inv/store.py <<'EOF'
from inv.models import Item, find
import yaml
import re, csv


def load(path: str) -> list[Item]:
    rows = yaml.safe_load(open(path))
    return [Item(r["sku"], r["qty"], r["price"]) for r in rows if r != None]


def get(items, sku):
    l = find(items, sku)
    if l == None:
        raise KeyError(sku)
    return l
EOF
  capture lint ruff_check_fixes "$R/inv" "ruff check --isolated --select E,F,I,UP,SIM inv 2>&1" "$(ruff --version)"
  cd "$ROOT" || exit 1
fi

# --- make and git, several parts each (`multipart`): `make -k -j4` and a kbuild-style quiet
# `  CC x.o` echo over six C files with -Wall -Wextra, two of which do not compile (each failed
# object's compile and its errors' code frames among many warnings); `git log -p --follow` of a
# file across two renames, a mode change and its neighbours' binary and deleted files, and `git
# log -p --stat` of that history (every commit's diff headers, not only the newest's)
if sel multipart; then
  M="$WORK/multipart/c"
  rm -rf "$WORK/multipart" && mkdir -p "$M/src"
  cat >"$M/src/app.h" <<'EOF'
struct session { int state; };
struct conn { struct session *sess; int fd; };
int util_len(const char *s);
EOF
  cat >"$M/src/util.c" <<'EOF'
#include "app.h"
int util_len(const char *s) { int n = 0; unsigned u = 0; while (s[n]) n++; if (n < u) return -1; return n; }
static int helper(int x, int y) { return x; }
int util_pub(int a) { return helper(a, 2); }
EOF
  cat >"$M/src/net.c" <<'EOF'
#include "app.h"
int net_open(int port, int flags) { int unused; return port; }
int net_cmp(int a, unsigned b) { return a < b; }
EOF
  cat >"$M/src/tls.c" <<'EOF'
#include "app.h"
int tls_state(struct conn *p)
{
  int unused;
  return p->session->state;
}
EOF
  cat >"$M/src/conf.c" <<'EOF'
#include "app.h"
int conf_load(const char *path, int mode) { int x; return util_len(path); }
int conf_bad(void) { return undefined_var + 1; }
EOF
  printf '#include "app.h"\nint log_level(int lvl, int other) { return lvl; }\n' >"$M/src/log.c"
  printf '#include "app.h"\nint main(int argc, char **argv) { return util_len(argv[0]); }\n' >"$M/src/main.c"
  printf 'CC = gcc\nCFLAGS = -Wall -Wextra -O2 -Isrc\nOBJS = src/util.o src/net.o src/tls.o src/conf.o src/log.o src/main.o\n\napp: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n\nsrc/%%.o: src/%%.c src/app.h\n\t$(CC) $(CFLAGS) -c $< -o $@\n\nclean:\n\trm -f src/*.o app\n' >"$M/Makefile"
  printf 'CC = gcc\nCFLAGS = -Wall -Wextra -O2 -Isrc\nOBJS = src/util.o src/net.o src/tls.o src/conf.o src/log.o src/main.o\napp: $(OBJS)\n\t@echo "  LD      $@"\n\t@$(CC) -o $@ $(OBJS)\nsrc/%%.o: src/%%.c src/app.h\n\t@echo "  CC      $@"\n\t@$(CC) $(CFLAGS) -c $< -o $@\n' >"$M/Makefile.quiet"
  V="$(make --version | head -1); $(gcc --version | head -1)"
  capture make make_k_j4_two_errors "$M" "make clean >/dev/null; LANG=C make -k -j4" "$V"
  capture make make_k_quiet_echo "$M" "make clean >/dev/null; LANG=C make -k -f Makefile.quiet" "$V"
  rm -f "$M"/src/*.o
  G="$WORK/multipart/repo"
  mkdir -p "$G" && cd "$G" || exit 1
  git init -q . && git config user.email dev@example.com && git config user.name Dev
  export GIT_AUTHOR_DATE="2026-11-20T10:00:00Z" GIT_COMMITTER_DATE="2026-11-20T10:00:00Z"
  python3 -c 'open("server.py","w").write("".join(f"def handler_{i}(req):\n    return respond(req, {i})\n" for i in range(40)))'
  printf '# demo\n\nA small server.\n' >README.md
  git add -A && git commit -qm "Add server with handlers"
  sed -i 's/respond(req, 5)/respond(req, status=5)/; s/respond(req, 30)/respond(req, status=30)/' server.py && git commit -qam "Pass status by keyword"
  mkdir app && git mv server.py app/server.py && git commit -qm "Move server into app package"
  sed -i 's/handler_7/handle_login/; s/handler_8/handle_logout/' app/server.py && printf 'extra\n' >>app/server.py && git commit -qam "Rename login handlers"
  head -c 300 /dev/urandom >logo.png && git add logo.png && git commit -qm "Add logo"
  chmod +x app/server.py && git commit -qam "Make server executable"
  git mv app/server.py app/http_server.py && sed -i 's/handler_2/handle_index/' app/http_server.py && git commit -qam "Rename server module to http_server"
  head -c 200 /dev/urandom >logo.png && git commit -qam "Update logo"
  git rm -q README.md && git commit -qm "Drop README"
  python3 - <<'EOF'
src = open("app/http_server.py").read()
src = src.replace("return respond(req, 1", "return respond(req, 100").replace("def handler_3(", "def handle_health(")
src += "".join(f"def extra_{i}():\n    pass\n" for i in range(15))
open("app/http_server.py", "w").write(src)
EOF
  git commit -qam "Add health check and extra hooks"
  unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE
  capture git log_p_follow_renames "$G" "git log -p --follow app/http_server.py" "$(git --version)"
  capture git log_p_stat_history "$G" "git log -p --stat" "$(git --version)"
  cd "$ROOT" || exit 1
fi

# --- cmake2: a CMake project in C with two targets that fail to compile (`app`: an error gcc 14
# makes of an int-conversion warning, `tool`: an undeclared name) and warnings in a library built
# before them, through `cmake --build` with the Makefile and the Ninja generator, and through
# `ninja` and `make` run in those build trees; -k so both failures are printed ----------------
if sel cmake2; then
  N="$WORK/twofail"
  rm -rf "$N" && mkdir -p "$N/src"
  cat >"$N/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.10)
project(demo C)
add_compile_options(-Wall -Wextra)
add_library(util STATIC src/util.c src/warn.c)
add_executable(app src/a.c)
add_executable(tool src/b.c)
target_link_libraries(app util)
target_compile_options(app PRIVATE -Werror=int-conversion)
EOF
  cat >"$N/src/util.c" <<'EOF'
int util(int a) { int unused; return a * 2; }
EOF
  cat >"$N/src/warn.c" <<'EOF'
int w(int a, int b) { int z; return a; }
EOF
  cat >"$N/src/a.c" <<'EOF'
#include <stdio.h>

int main(void) {
    int x = "a";
    printf("%d\n", x);
    return 0;
}
EOF
  cat >"$N/src/b.c" <<'EOF'
#include <stdio.h>

int main(void) {
    undeclared_fn(3);
    return missing_var;
}
EOF
  CV="$(cmake --version | head -1)"
  (cd "$N" && cmake -S . -B bmake >/dev/null && cmake -S . -B bninja -G Ninja >/dev/null)
  capture native cmake_build_make_two_failures "$N" "cmake --build bmake -- -k" "$CV"
  capture native cmake_build_ninja_two_failures "$N" "cmake --build bninja -- -k 0" "$CV"
  (cd "$N/bninja" && ninja -t clean >/dev/null)
  capture native ninja_cmake_two_failures "$N/bninja" "ninja -k 0" "ninja $(ninja --version)"
  (cd "$N/bmake" && make clean >/dev/null)
  capture native make_cmake_two_failures "$N/bmake" "make -k" "$(make --version | head -1)"
  (cd "$N/bmake" && make clean >/dev/null)
  capture native make_verbose_cmake_two_failures "$N/bmake" "make -k VERBOSE=1" "$(make --version | head -1)"
fi

# --- ldrefs: a link whose undefined references repeat (`foo` called four times from main, twice
# from helper and from util, `bar` once between them), by gcc on the sources and by make on the
# objects --------------------------------------------------------------------------------------
if sel ldrefs; then
  N="$WORK/ldrefs"
  rm -rf "$N" && mkdir -p "$N"
  cat >"$N/main.c" <<'EOF'
int foo(int);
int bar(void);
int helper(int x) { return foo(x) + foo(x + 1); }
int main(void) {
    int a = foo(1);
    a += foo(2);
    a += foo(3);
    a += bar();
    a += foo(4);
    return a + helper(a);
}
EOF
  cat >"$N/util.c" <<'EOF'
int foo(int);
int util(int x) { return foo(x) * foo(x); }
EOF
  printf 'app: main.o util.o\n\tgcc -o app main.o util.o\n' >"$N/Makefile"
  GV="$(gcc --version | head -1)"
  capture native ld_repeated_refs "$N" "gcc -o app main.c util.c" "$GV"
  capture make make_ld_repeated_refs "$N" "make" "$(make --version | head -1)"
fi

# --- runner heads (`runheads`): the lines around a test run's failures that say how it ran and
# why it stopped: pytest 9 on a package whose conftest imports a missing module (`collected 162
# items / 1 error`, the `ERROR collecting` block's short frames, `!!! Interrupted: 1 error during
# collection !!!`), pytest `--lf --tb=short` after a failing run (`run-last-failure: rerun previous
# 2 failures`, each short frame's statement, warnings under the test ids that raised them), and
# vitest 2's dot reporter with a failing `beforeAll` (` ❯ test/repo.test.js (3 tests | 3 skipped)`,
# `× util > rounds down`, the suite's ` FAIL  test/repo.test.js [ test/repo.test.js ]`). PY: a
# python with pytest in ZEPH_CORPUS_PY (a bin directory); vitest 2 from ZEPH_CORPUS_NPM_VITEST2
# (`npm i vitest@2` there).
if sel runheads; then
  PYBIN="${ZEPH_CORPUS_PY:-/usr/bin}"
  NPMBIN="${ZEPH_CORPUS_NPM_VITEST2:-/tmp/zeph-corpus-npm-vitest2}/node_modules/.bin"
  R="$WORK/runheads"
  rm -rf "$R" && mkdir -p "$R/py/tests/api" "$R/py/metrics" "$R/vitest/test"
  touch "$R/py/tests/__init__.py" "$R/py/metrics/__init__.py"
  cat >"$R/py/metrics/agg.py" <<'EOF'
import warnings


def total(xs):
    warnings.warn("total() is deprecated, use sum()", DeprecationWarning)
    return sum(xs)


def mean(xs):
    warnings.warn("mean() of ints rounds", UserWarning)
    return _div(sum(xs), len(xs))


def _div(a, b):
    return a / b
EOF
  cat >"$R/py/tests/test_agg.py" <<'EOF'
import pytest
from metrics.agg import total, mean


@pytest.mark.parametrize("n", range(80))
def test_total(n):
    assert total([n, 1]) == n + 1


@pytest.mark.parametrize("n", range(80))
def test_mean(n):
    assert mean([n, n]) == n


def test_fail_a():
    assert total([1, 2]) == 4


def test_fail_b():
    assert mean([]) == 0
EOF
  printf 'def test_get():\n    assert True\n' >"$R/py/tests/api/test_api.py"
  printf 'import os\nfrom metrics.client import ApiClient\n' >"$R/py/tests/api/conftest.py"
  V="pytest $("$PYBIN/python3" -m pytest --version 2>&1 | awk '{print $2}')"
  PATH="$PYBIN:$PATH" capture python pytest_collect_error "$R/py" "python3 -m pytest -p no:cacheprovider tests" "$V"
  rm "$R/py/tests/api/conftest.py"
  (cd "$R/py" && PATH="$PYBIN:$PATH" python3 -m pytest -q tests >/dev/null 2>&1)
  PATH="$PYBIN:$PATH" capture python pytest_lf_short "$R/py" "python3 -m pytest --lf --tb=short tests" "$V"
  cat >"$R/vitest/package.json" <<'EOF'
{ "name": "vt", "private": true, "type": "module" }
EOF
  cat >"$R/vitest/test/repo.test.js" <<'EOF'
import { beforeAll, describe, it, expect } from "vitest";
let db;
beforeAll(() => { throw new Error("connect ECONNREFUSED 127.0.0.1:5432"); });
describe("repo", () => {
  it("finds a user", () => { expect(db.find(1)).toBeTruthy(); });
  it("lists users", () => { expect(db.list()).toHaveLength(2); });
  it("counts users", () => { expect(db.count()).toBe(2); });
});
EOF
  cat >"$R/vitest/test/util.test.js" <<'EOF'
import { describe, it, expect } from "vitest";
const round = (x) => Math.round(x * 10) / 10;
describe("util", () => {
  it("rounds 24", () => { expect(round(2.45)).toBe(2.5); });
  it("rounds down", () => { expect(round(2.41)).toBe(2.5); });
  it("rounds up", () => { expect(round(2.46)).toBe(2.5); });
});
EOF
  printf 'import { it, expect } from "vitest";\nit("adds", () => { expect(1 + 1).toBe(2); });\n' >"$R/vitest/test/ok.test.js"
  PATH="$NPMBIN:$PATH" NO_COLOR=1 CI=1 capture node vitest_dot_before_all "$R/vitest" "vitest run --reporter=dot" "vitest $("$NPMBIN/vitest" --version | awk '{print $1}' | cut -d/ -f2)"
  cd "$ROOT" || exit 1
fi

# --- runners11: failures in a form the summaries did not read ----------------------------------
# pytest `--tb=native` (plain Python tracebacks: the project's `File "…"` frames and the exception
# under pytest's and the stdlib's frames) and `--doctest-modules` (`Expected:`/`Got:` over the
# values, an `UNEXPECTED EXCEPTION` with its traceback), go test -v with `-shuffle` (the seed's
# `-test.shuffle 2` line, an order-dependent failure, a `t.Skip` with its reason) and the same run
# as `-json`, vitest's failed snapshots (`Snapshots  2 failed`) and jest's suite that failed to run
# on a `TypeError` (the `> 3 |` line of its code frame). PY: a python with pytest in ZEPH_CORPUS_PY
# (a bin directory); jest and vitest from ZEPH_CORPUS_NPM (`npm i jest vitest` there).
if sel runners11; then
  PYBIN="${ZEPH_CORPUS_PY:-/usr/bin}"
  NPMBIN="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}/node_modules/.bin"
  R="$WORK/runners11"
  rm -rf "$R" && mkdir -p "$R/py/pkg" "$R/py/tests" "$R/go" "$R/vitest/test/__snapshots__" "$R/jest"
  touch "$R/py/pkg/__init__.py"
  cat >"$R/py/pkg/pricing.py" <<'EOF'
def split_price(text):
    """Split a price into amount and currency.

    >>> split_price("12.50 EUR")
    ('12.50', 'EUR')
    >>> sorted({"EUR": 1, "USD": 2}.items())
    [('EUR', 1),
     ('USD', 3)]
    """
    amount, currency = text.split(" ")
    return (amount, currency)


def parse_price(text):
    return split_price(text)


def per_unit(total, units):
    """
    >>> per_unit(10, 0)
    0
    """
    return total / units


def label(size):
    """
    >>> label(5)
    '5 MiB'
    """
    print(f"{size:.1f} MiB")
EOF
  cat >"$R/py/tests/test_pricing.py" <<'EOF'
import json
import unittest
from pkg.pricing import parse_price


def test_parse():
    assert parse_price("1 EUR") == ("1", "EUR")


def test_parse_no_space():
    parse_price("12.50EUR")


def test_rates():
    json.loads("{rates: 1}")


class TestPricing(unittest.TestCase):
    def test_currency(self):
        self.assertEqual(parse_price("3 USD"), ("3", "EUR"))
EOF
  V="pytest $(cd "$R/py" && PATH="$PYBIN:$PATH" python3 -m pytest --version 2>&1 | awk '{print $2}')"
  PATH="$PYBIN:$PATH" capture python pytest_tb_native "$R/py" "python3 -m pytest -p no:cacheprovider --tb=native tests" "$V"
  PATH="$PYBIN:$PATH" capture python pytest_doctest_modules "$R/py" "python3 -m pytest -p no:cacheprovider --doctest-modules pkg" "$V"
  printf 'module example.com/orders\n\ngo 1.19\n' >"$R/go/go.mod"
  cat >"$R/go/order.go" <<'EOF'
package orders

var total int

// Add adds n to a running total: state shared between tests, so their order matters.
func Add(n int) int { total += n; return total }
EOF
  cat >"$R/go/order_test.go" <<'EOF'
package orders

import (
	"os"
	"testing"
)

func TestAddFirst(t *testing.T) {
	if got := Add(2); got != 2 {
		t.Errorf("Add(2) = %d, want 2", got)
	}
}

func TestAddSecond(t *testing.T) {
	if got := Add(3); got != 5 {
		t.Errorf("Add(3) = %d, want 5", got)
	}
}

func TestNetworkSmoke(t *testing.T) {
	if os.Getenv("NETWORK_TESTS") == "" {
		t.Skip("NETWORK_TESTS not set; skipping smoke test against staging")
	}
}

func TestOK(t *testing.T) {}
EOF
  GV="$(go version | awk '{print $3}')"
  capture go test_v_shuffle_skip "$R/go" "go test -v -shuffle 2 ./..." "$GV"
  capture go test_json_shuffle_skip "$R/go" "go test -json -shuffle 2 ./..." "$GV"
  printf '{ "name": "vt", "private": true, "type": "module" }\n' >"$R/vitest/package.json"
  cat >"$R/vitest/test/size.test.js" <<'EOF'
import { describe, it, expect } from "vitest";
const size = (n) => `${n.toFixed(1)} MiB`;
describe("size", () => {
  it("formats one size", () => { expect(size(5)).toMatchSnapshot(); });
  it("formats a list", () => { expect([size(1), size(2)]).toMatchSnapshot(); });
  it("adds", () => { expect(1 + 1).toBe(2); });
});
EOF
  cat >"$R/vitest/test/__snapshots__/size.test.js.snap" <<'EOF'
// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html

exports[`size > formats a list 1`] = `
[
  "1 MiB",
  "2 MiB",
]
`;

exports[`size > formats one size 1`] = `"5 MiB"`;
EOF
  PATH="$NPMBIN:$PATH" NO_COLOR=1 CI=1 capture node vitest_snapshot_failed "$R/vitest" "vitest run" "vitest $("$NPMBIN/vitest" --version | awk '{print $1}' | cut -d/ -f2)"
  printf '{ "name": "jt", "private": true }\n' >"$R/jest/package.json"
  printf 'module.exports = { endpoints: undefined };\n' >"$R/jest/config.js"
  cat >"$R/jest/api.test.js" <<'EOF'
const cfg = require("./config");

const { api } = cfg.endpoints;

test("calls the api", () => {
  expect(api).toBe("https://api.example.com");
});
EOF
  cat >"$R/jest/sum.test.js" <<'EOF'
const sum = (a, b) => a + b;
test("adds", () => {
  expect(sum(1, 2)).toBe(4);
});
EOF
  PATH="$NPMBIN:$PATH" FORCE_COLOR=0 CI=1 capture node jest_suite_failed_to_run "$R/jest" "jest" "jest $("$NPMBIN/jest" --version)"
  cd "$ROOT" || exit 1
fi

# --- coverage reports (`coverage`): tables where most files are fully covered, printed by a
# command no test-runner rule reads or under a wrapper: `coverage report -m --fail-under=99`
# (coverage.py 7, after `coverage run -m pytest`) over 60 modules, 55 of them fully covered;
# `c8 --check-coverage` (npm) around `node --test` (node 20) over 43 files, thresholds missed;
# `go tool cover -func` (go 1.19) of a three-package module. PY: a python with pytest and
# coverage in ZEPH_CORPUS_PY (a bin directory); c8 from npm (ZEPH_CORPUS_NPM) ------------------
if sel coverage; then
  PYBIN="${ZEPH_CORPUS_PY:-/usr/bin}"
  NPMBIN="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}/node_modules/.bin"
  R="$WORK/coverage"
  rm -rf "$R" && mkdir -p "$R/py/shop" "$R/py/tests" "$R/js/src" "$R/js/test" "$R/go"
  : >"$R/py/shop/__init__.py"
  printf '[tool.pytest.ini_options]\npythonpath = ["."]\n' >"$R/py/pyproject.toml"
  for i in $(seq -w 1 55); do
    printf 'def add_%s(a, b):\n    return a + b\n\n\ndef scale_%s(x):\n    if x < 0:\n        return 0\n    return x * %d\n' "$i" "$i" "$((10#$i))" >"$R/py/shop/mod$i.py"
    printf 'from shop.mod%s import add_%s, scale_%s\n\n\ndef test_add():\n    assert add_%s(1, 2) == 3\n\n\ndef test_scale():\n    assert scale_%s(-1) == 0\n    assert scale_%s(2) == 2 * %d\n' "$i" "$i" "$i" "$i" "$i" "$i" "$((10#$i))" >"$R/py/tests/test_mod$i.py"
  done
  for n in cart invoice pricing refund tax; do
    printf 'def total(items):\n    s = 0\n    for i in items:\n        s += i\n    return s\n\n\ndef discount(x, pct):\n    if pct > 100:\n        raise ValueError("pct")\n    if pct == 0:\n        return x\n    return x * (100 - pct) / 100\n\n\ndef unused():\n    return "never"\n' >"$R/py/shop/$n.py"
    printf 'from shop.%s import total, discount\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n\n\ndef test_discount():\n    assert discount(100, 10) == 90\n' "$n" >"$R/py/tests/test_$n.py"
  done
  (cd "$R/py" && "$PYBIN/coverage" run -m pytest -q >/dev/null 2>&1)
  PATH="$PYBIN:$PATH" capture python coverage_report_fail_under "$R/py" "coverage report -m --fail-under=99" "coverage $("$PYBIN/coverage" --version | awk 'NR==1{print $3}' | tr -d ',')"
  printf '{"name": "shop", "version": "1.0.0", "private": true}\n' >"$R/js/package.json"
  for i in $(seq 1 40); do
    printf 'exports.f%d = (a) => a + %d;\nexports.g%d = (a) => (a > 0 ? a : -a);\n' "$i" "$i" "$i" >"$R/js/src/m$i.js"
    printf 'const test = require("node:test");\nconst assert = require("node:assert");\nconst m = require("../src/m%d.js");\ntest("m%d", () => { assert.equal(m.f%d(1), %d); assert.equal(m.g%d(-2), 2); assert.equal(m.g%d(2), 2); });\n' "$i" "$i" "$i" "$((i + 1))" "$i" "$i" >"$R/js/test/m$i.test.js"
  done
  for n in cart order price; do
    printf 'exports.total = (xs) => {\n  let s = 0;\n  for (const x of xs) s += x;\n  return s;\n};\nexports.discount = (x, p) => {\n  if (p > 100) throw new Error("p");\n  if (p === 0) return x;\n  return (x * (100 - p)) / 100;\n};\nexports.unused = () => "never";\n' >"$R/js/src/$n.js"
    printf 'const test = require("node:test");\nconst assert = require("node:assert");\nconst m = require("../src/%s.js");\ntest("%s", () => { assert.equal(m.total([1, 2]), 3); assert.equal(m.discount(100, 10), 90); });\n' "$n" "$n" >"$R/js/test/$n.test.js"
  done
  PATH="$NPMBIN:$PATH" capture node c8_node_test_threshold "$R/js" "c8 --check-coverage --branches 99 --functions 99 node --test" "c8 $(node -p "require(\"$NPMBIN/../c8/package.json\").version")"
  (cd "$R/go" && go mod init example.com/shop >/dev/null 2>&1)
  mkdir -p "$R/go/cart" "$R/go/tax" "$R/go/util"
  for i in $(seq 1 30); do
    printf 'package util\n\n// F%d adds.\nfunc F%d(a int) int { return a + %d }\n' "$i" "$i" "$i" >"$R/go/util/f$i.go"
    printf 'package util\n\nimport "testing"\n\nfunc TestF%d(t *testing.T) {\n\tif F%d(1) != %d {\n\t\tt.Fatal("bad")\n\t}\n}\n' "$i" "$i" "$((i + 1))" >"$R/go/util/f${i}_test.go"
  done
  for p in cart tax; do
    printf 'package %s\n\nfunc Total(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n\nfunc Discount(x, p int) int {\n\tif p > 100 {\n\t\tpanic("p")\n\t}\n\tif p == 0 {\n\t\treturn x\n\t}\n\treturn x * (100 - p) / 100\n}\n\nfunc Unused() string { return "never" }\n' "$p" >"$R/go/$p/$p.go"
    printf 'package %s\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tif Total([]int{1, 2}) != 3 {\n\t\tt.Fatal("bad")\n\t}\n\tif Discount(100, 10) != 90 {\n\t\tt.Fatal("bad")\n\t}\n}\n' "$p" >"$R/go/$p/${p}_test.go"
  done
  (cd "$R/go" && go test -coverprofile=c.out ./... >/dev/null 2>&1)
  capture go cover_func "$R/go" "go tool cover -func=c.out" "$(go version | awk '{print $3}')"
  cd "$ROOT" || exit 1
fi

# --- formatter checks (`fmtcheck`): what a formatter's check mode prints for a project where
# four files of six are not formatted, each in two or three places: `cargo fmt --check` (rustfmt
# 1.8), `black --check --diff` (Debian black 23.1), `isort --check --diff`, `gofmt -d` (go 1.19),
# `clang-format --dry-run -Werror` (Debian clang-format 14), `prettier --check` (npm) and
# `deno fmt --check` (the repository's deno). isort is found on PATH, prettier in
# ZEPH_CORPUS_NPM ---------------------------------------------------------------------------------
if sel fmtcheck; then
  NPMBIN="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}/node_modules/.bin"
  R="$WORK/fmtcheck"
  rm -rf "$R" && mkdir -p "$R/rs/src" "$R/py/app" "$R/go" "$R/c" "$R/js/src"
  printf '[package]\nname = "shapes"\nversion = "0.1.0"\nedition = "2021"\n' >"$R/rs/Cargo.toml"
  printf 'pub mod alpha;\npub mod beta;\npub mod delta;\npub mod fine;\npub mod gamma;\n' >"$R/rs/src/lib.rs"
  printf 'pub fn fine() -> i32 {\n    1\n}\n' >"$R/rs/src/fine.rs"
  for m in alpha beta gamma delta; do
    M="$(printf '%s' "${m:0:1}" | tr a-z A-Z)${m:1}"
    printf 'pub fn %s_add(a:i32,b:i32)->i32{a+b}\n\npub fn %s_ok(a: i32) -> i32 {\n    a\n}\n\npub struct %sPoint{pub x:i32,pub y:i32}\n\nimpl %sPoint {\n    pub fn new(x: i32, y: i32) -> Self {\n        Self { x, y }\n    }\n\n    pub fn norm(&self)->i32{ self.x*self.x+self.y*self.y }\n}\n' "$m" "$m" "$M" "$M" >"$R/rs/src/$m.rs"
  done
  # rustfmt and deno print a backtrace of their own exit under RUST_BACKTRACE: not what a run shows.
  (unset RUST_BACKTRACE && capture cargo fmt_check "$R/rs" "cargo fmt --check" "$(rustfmt --version | awk '{print $1, $2}')")
  : >"$R/py/app/__init__.py"
  printf 'def fine(a, b):\n    return a + b\n' >"$R/py/app/fine.py"
  for m in orders billing users stock; do
    printf 'import sys\nimport os\nfrom typing import List,Dict\nimport json\n\n\ndef load_%s(path:str)->Dict:\n    with open(path) as f: return json.load(f)\n\ndef save_%s(path, data ,indent = 2):\n    json.dump(data,open(path,"w"),indent = indent)\n\n\nclass %sStore :\n    def __init__(self,items:List[str]=[]):\n        self.items=items\n    def names(self): return [ i.upper() for i in self.items ]\n' "$m" "$m" "$m" >"$R/py/app/$m.py"
  done
  capture python black_check_diff "$R/py" "black --check --diff app" "black $(black --version | awk 'NR==1{print $2}')"
  capture python isort_check_diff "$R/py" "isort --check --diff app" "isort $(isort --version-number 2>/dev/null)"
  printf 'module example.com/shapes\n\ngo 1.19\n' >"$R/go/go.mod"
  printf 'package shapes\n\n// Fine is formatted.\nfunc Fine() int { return 1 }\n' >"$R/go/fine.go"
  for m in alpha beta gamma delta; do
    printf 'package shapes\n\nimport "fmt"\n\ntype %sPoint struct{\n  X int\n  Y    int\n}\n\nfunc (p %sPoint) String() string {\n    return fmt.Sprintf("%%d,%%d",p.X,p.Y)\n}\n\n\n\nfunc %sNorm(p %sPoint) int { return p.X*p.X+p.Y*p.Y\n}\n' "$m" "$m" "$m" "$m" >"$R/go/$m.go"
  done
  capture go gofmt_diff "$R/go" "gofmt -d ." "$(go version | awk '{print $3}')"
  printf 'int fine(int a) { return a; }\n' >"$R/c/fine.c"
  for m in alpha beta gamma delta; do
    printf '#include <stdio.h>\nstruct %s_point{int x;int y;};\nint %s_norm(struct %s_point p){\n  return p.x*p.x+p.y*p.y;\n}\nvoid %s_print(struct %s_point p) {\n    printf("%%d,%%d\\n",p.x,p.y);\n}\n' "$m" "$m" "$m" "$m" "$m" >"$R/c/$m.c"
  done
  capture native clang_format_dry_run "$R/c" "clang-format --dry-run -Werror alpha.c beta.c delta.c fine.c gamma.c" "$(clang-format --version | awk '{print $1, $2, $3}')"
  printf '{"name": "shapes", "version": "1.0.0", "private": true}\n' >"$R/js/package.json"
  printf 'export const fine = (a) => a + 1;\n' >"$R/js/src/fine.js"
  for m in alpha beta gamma delta; do
    printf 'export function %sNorm(p){ return p.x*p.x+p.y*p.y }\n\nexport const %sPoint = {x:1,\n  y:2}\n\nexport   function %sPrint(p) {\n    console.log( `${p.x},${p.y}` )\n}\n' "$m" "$m" "$m" >"$R/js/src/$m.js"
  done
  PATH="$NPMBIN:$PATH" capture node prettier_check "$R/js" "prettier --check src" "prettier $("$NPMBIN/prettier" --version)"
  (unset RUST_BACKTRACE && NO_COLOR=1 PATH="$(dirname "$DENO"):$PATH" capture deno fmt_check "$R/js" "deno fmt --check src" "deno $("$DENO" --version | awk 'NR==1{print $2}')")
  cd "$ROOT" || exit 1
fi

# --- security linters (`bandit`): `bandit -r app` (Debian bandit 1.6) on a three-module package
# with nine findings (shell=True, pickle, md5, verify=False, yaml.load, eval, assert, two imports)
# and its metrics footer ------------------------------------------------------------------------
if sel bandit; then
  R="$WORK/bandit"
  rm -rf "$R" && mkdir -p "$R/app"
  : >"$R/app/__init__.py"
  printf 'def fine(a):\n    return a + 1\n' >"$R/app/fine.py"
  cat >"$R/app/db.py" <<'PY'
import sqlite3
import subprocess
import pickle
import hashlib


def find_user(conn, name):
    return conn.execute("SELECT * FROM users WHERE name = '%s'" % name).fetchall()


def backup(path):
    subprocess.call("tar czf backup.tgz " + path, shell=True)


def load_session(blob):
    return pickle.loads(blob)


def token(user):
    return hashlib.md5(user.encode()).hexdigest()
PY
  cat >"$R/app/web.py" <<'PY'
import requests
import yaml

SECRET_KEY = "hunter2"


def fetch(url):
    return requests.get(url, verify=False)


def config(text):
    return yaml.load(text)


def debug(code):
    assert code, "empty"
    return eval(code)
PY
  capture lint bandit_findings "$R" "bandit -r app" "bandit $(bandit --version 2>/dev/null | awk 'NR==1{print $2}')"
  cd "$ROOT" || exit 1
fi

# --- profilers (`profile`): `python3 -m cProfile -s cumulative` on a script that tokenises and
# counts words, then round-trips the counts through json: a table of a few hundred rows.
if sel profile; then
  P="$WORK/profile"
  rm -rf "$P" && mkdir -p "$P"
  cat >"$P/work.py" <<'PY'
import json, re, collections, statistics
def tokenize(s): return re.findall(r"\w+", s)
def count(words): return collections.Counter(words)
def build(n):
    docs = [" ".join(f"word{i % 97} item{j % 13}" for j in range(40)) for i in range(n)]
    return docs
def main():
    docs = build(300)
    c = collections.Counter()
    for d in docs:
        c.update(count(tokenize(d)))
    data = json.dumps(c)
    back = json.loads(data)
    print("distinct", len(back), "mean", statistics.mean(back.values()))
main()
PY
  capture python cprofile_cumulative "$P" "python3 -m cProfile -s cumulative work.py" "$(python3 --version)"
  cd "$ROOT" || exit 1
fi

# --- tsc --traceResolution (`tstrace`): typescript from this repository's node_modules on a
# four-file node16 project importing zod 3 and left-pad (npm), a relative module that does not
# exist and a type error: 35 resolutions, each with its probing lines --------------------------
if sel tstrace; then
  R="$WORK/tstrace"
  rm -rf "$R" && mkdir -p "$R/src/lib"
  cat >"$R/tsconfig.json" <<'EOF'
{ "compilerOptions": { "target": "es2020", "module": "node16", "strict": true, "noEmit": true, "types": [] }, "include": ["src"] }
EOF
  printf '{ "name": "tstrace", "type": "module" }\n' >"$R/package.json"
  (cd "$R" && npm i --no-audit --no-fund zod@3 left-pad@1 >/dev/null 2>&1)
  printf 'export function add(a: number, b: number): number { return a + b; }\n' >"$R/src/util.ts"
  printf 'import { add } from "./util.js";\nexport interface User { id: number; name: string }\nexport const total = add(1, 2);\n' >"$R/src/model.ts"
  printf 'export const helper = 1;\n' >"$R/src/lib/helper.ts"
  printf 'export const sep = "/";\n' >"$R/src/lib/path.ts"
  cat >"$R/src/index.ts" <<'EOF'
import { add } from "./util.js";
import type { User } from "./model.js";
import { missing } from "./nothere.js";
import { z } from "zod";
import leftPad from "left-pad";
import * as path from "./lib/path.js";
import { helper } from "./lib/helper.js";
const u: User = { id: add(1, 2), name: "x" };
const n: string = add(1, 2);
console.log(u, missing, leftPad, path, z.string(), helper, n);
EOF
  PATH="$ROOT/node_modules/.bin:$PATH" capture node tsc_trace_resolution "$R" "tsc -p . --traceResolution" "tsc $("$ROOT/node_modules/.bin/tsc" -v | awk '{print $2}')"
  cd "$ROOT" || exit 1
fi

# --- pnpm recursive runs (`pnpmws`): `pnpm -r run build` (pnpm from the system, offline install
# of the workspace links) over five packages whose build scripts print a line per file; `web`'s
# fails with a tsc-style error after the other four passed -------------------------------------
if sel pnpmws; then
  R="$WORK/pnpmws"
  rm -rf "$R" && mkdir -p "$R"
  printf '{ "name": "ws", "private": true }\n' >"$R/package.json"
  printf 'packages:\n  - "packages/*"\n' >"$R/pnpm-workspace.yaml"
  for p in core utils api cli web; do
    mkdir -p "$R/packages/$p"
    printf '{ "name": "@ws/%s", "version": "1.0.0", "scripts": { "build": "node build.js" } }\n' "$p" >"$R/packages/$p/package.json"
  done
  for p in core utils api cli; do
    cat >"$R/packages/$p/build.js" <<EOF
for (let i = 1; i <= 8; i++) console.log(\`[$p] compiled src/mod\${i}.ts -> dist/mod\${i}.js\`);
console.log("[$p] wrote 8 files in 0.4s");
EOF
  done
  cat >"$R/packages/web/build.js" <<'EOF'
for (let i = 1; i <= 3; i++) console.log(`[web] compiled src/page${i}.tsx -> dist/page${i}.js`);
console.error("src/page4.tsx(12,5): error TS2322: Type 'string' is not assignable to type 'number'.");
console.error("Build failed with 1 error.");
process.exit(2);
EOF
  (cd "$R" && pnpm install --offline >/dev/null 2>&1)
  capture node pnpm_recursive_build "$R" "pnpm -r run build" "pnpm $(pnpm -v)"
  cd "$ROOT" || exit 1
fi

# --- ruff's concise and grouped formats (`ruffmodes`): `ruff check --isolated` (ruff from pip) with
# pyflakes, pycodestyle's E7/E9, bugbear and pyupgrade on a copy of the running python's `email`
# package: 147 findings, 84 of them one pyupgrade message ---------------------------------------
if sel ruffmodes; then
  R="$WORK/ruffmodes"
  rm -rf "$R" && mkdir -p "$R"
  cp -r "$(python3 -c 'import email, os; print(os.path.dirname(email.__file__))')" "$R/email"
  rm -rf "$R/email/__pycache__"
  for f in concise grouped; do
    capture lint "ruff_${f}_email" "$R" "ruff check --isolated --select F,E7,E9,B,UP --output-format=$f email" "$(ruff --version)"
  done
  cd "$ROOT" || exit 1
fi

# --- nox (`nox`): nox (pip) with four virtualenv sessions on a small package; pyflakes and pytest
# come from PyPI. `fast` runs the passing tests verbosely, `tests` all of them (one fails) --------
if sel nox; then
  R="$WORK/nox"
  rm -rf "$R" && mkdir -p "$R/calc" "$R/tests"
  printf 'def add(a, b):\n    return a + b\n\n\ndef div(a, b):\n    return a / b\n' >"$R/calc/__init__.py"
  cat >"$R/tests/test_calc.py" <<'PY'
import pytest
from calc import add, div


@pytest.mark.parametrize("a,b,c", [(1, 2, 3), (2, 2, 4), (0, 0, 0), (-1, 1, 0), (5, -7, -2), (10, 20, 30)])
def test_add(a, b, c):
    assert add(a, b) == c


def test_div():
    assert div(6, 3) == 2


def test_div_zero():
    assert div(1, 0) == 0
PY
  cat >"$R/noxfile.py" <<'PY'
import nox

nox.options.sessions = ["lint", "fast", "tests", "docs"]


@nox.session
def lint(session):
    session.install("pyflakes")
    session.run("python", "-m", "pyflakes", "calc")


@nox.session
def fast(session):
    session.install("pytest")
    session.run("pytest", "-v", "-p", "no:cacheprovider", "-k", "not zero", "tests", env={"PYTHONPATH": "."})


@nox.session
def tests(session):
    session.install("pytest")
    session.run("pytest", "-q", "-p", "no:cacheprovider", "tests", env={"PYTHONPATH": "."})


@nox.session
def docs(session):
    session.install("pyflakes")
    session.run("python", "-c", "print('docs built: 12 pages')")
PY
  capture python nox_sessions_one_failing "$R" "nox" "nox $(nox --version 2>&1)"
  cd "$ROOT" || exit 1
fi

# --- npm ls with problems (`npmls`): `npm ls --all` (npm 11) of express 4, left-pad and zod 3 after
# the install was damaged: body-parser's version edited (invalid), ms and object-inspect removed
# (UNMET DEPENDENCY, one at the top of qs's deep subtree), a package no one depends on (extraneous)
if sel npmls; then
  R="$WORK/npmls"
  rm -rf "$R" && mkdir -p "$R"
  printf '{ "name": "shop", "version": "1.0.0", "dependencies": { "express": "^4.21.0", "left-pad": "^1.3.0", "zod": "^3.23.0" } }\n' >"$R/package.json"
  (cd "$R" && npm i --no-audit --no-fund >/dev/null 2>&1)
  sed -i 's/"version": "1\.20\.[0-9]*"/"version": "1.10.0"/' "$R/node_modules/body-parser/package.json"
  rm -rf "$R/node_modules/ms" "$R/node_modules/object-inspect"
  mkdir -p "$R/node_modules/stray-pkg"
  printf '{ "name": "stray-pkg", "version": "0.0.1" }\n' >"$R/node_modules/stray-pkg/package.json"
  capture node npm_ls_all_problems "$R" "npm ls --all" "npm $(npm -v)"
  cd "$ROOT" || exit 1
fi

# --- ruff's full format and mypy --pretty (`frames`): each finding's code frame under its header,
# one code recurring (F401, F841, assignment, arg-type) so that the later frames fold --------------
if sel frames; then
  R="$WORK/frames"
  rm -rf "$R" && mkdir -p "$R"
  cat >"$R/app.py" <<'EOF'
import os
import sys
import json
import re
from typing import List, Dict


def load(path):
    f = open(path)
    data = json.load(f)
    unused = 1
    return data


def check(x: int) -> str:
    if x == None:
        return 1
    l = [i for i in range(10)]
    try:
        pass
    except:
        pass
    return str(x) + undefined_name


def other(a: List[int]) -> Dict[str, int]:
    tmp = 5
    return {"a": "b"}
EOF
  cat >"$R/util.py" <<'EOF'
import subprocess
import collections
from os import path


def run(cmd: str) -> int:
    result = subprocess.run(cmd, shell=True)
    value = 3
    if result.returncode != None:
        return "x"
    return result.returncode
EOF
  cat >"$R/typed.py" <<'EOF'
from typing import List, Optional


def add(a: int, b: int) -> int:
    return a + b


def first(xs: List[str]) -> Optional[str]:
    return xs[0] if xs else None


class Repo:
    def __init__(self, name: str) -> None:
        self.name = name

    def size(self) -> int:
        return len(self.name)


x: int = add("1", 2)
y: str = add(1, 2)
z: int = first(["a"])
r = Repo(3)
w: str = r.size()
v: int = "hello"
u: List[int] = [1, "2", 3]
reveal_type(r)
r.missing()
t: str = add(4, "5")
s: str = len([1])
EOF
  capture lint ruff_full_frames "$R" "ruff check --isolated --select F,E,W app.py util.py" "$(ruff --version)"
  capture python mypy_pretty_frames "$R" "mypy --pretty --show-error-context --no-incremental typed.py" "$(mypy --version)"
  cd "$ROOT" || exit 1
fi

# --- php's syntax check over a project (`phplint`): `php -l` (Debian php-cli) run by find on 30
# classes that parse and two that do not ---------------------------------------------------------
if sel phplint; then
  R="$WORK/phplint"
  rm -rf "$R" && mkdir -p "$R/src/Controller" "$R/src/Model"
  for i in $(seq 1 15); do
    printf '<?php\nnamespace App\\Controller;\n\nclass Page%dController\n{\n    public function show(int $id): string { return "page %d:" . $id; }\n}\n' "$i" "$i" >"$R/src/Controller/Page${i}Controller.php"
    printf '<?php\nnamespace App\\Model;\n\nfinal class Record%d\n{\n    public function __construct(public readonly int $id) {}\n}\n' "$i" >"$R/src/Model/Record${i}.php"
  done
  printf '<?php\nnamespace App\\Controller;\n\nclass BrokenController\n{\n    public function index( { return []; }\n}\n' >"$R/src/Controller/BrokenController.php"
  printf '<?php\nnamespace App\\Model;\n\n$defaults = [1, 2;\n' >"$R/src/Model/Defaults.php"
  capture php php_lint_find "$R" "find src -name '*.php' -exec php -l {} \\;" "$(php -v | head -1)"
  cd "$ROOT" || exit 1
fi

# --- JUnit 5's console launcher (`junit5`): a class with a parameterized test (20 passing cases),
# three failing tests (an assertion with a message, a NullPointerException, a NumberFormatException
# in a nested class), a disabled one; the tree is coloured though no terminal is attached.
if sel junit5; then
  R="$WORK/junit5"
  rm -rf "$R" && mkdir -p "$R/src"
  J=/usr/share/java/junit-platform-console-standalone.jar
  cat >"$R/src/CalcTest.java" <<'EOF2'
import org.junit.jupiter.api.*;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static org.junit.jupiter.api.Assertions.*;
class CalcTest {
  @ParameterizedTest @ValueSource(ints = {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20})
  void addsZero(int n) { assertEquals(n, n + 0); }
  @Test void divides() { assertEquals(3, 7 / 2); }
  @Test void wrongSum() { assertEquals(5, 2 + 2, "sum of 2 and 2"); }
  @Test void nullPointer() { String s = null; s.length(); }
  @Nested class Parsing {
    @Test void parsesInt() { assertEquals(42, Integer.parseInt("42")); }
    @Test void parsesBad() { Integer.parseInt("x42"); }
    @Test @Disabled("flaky") void skipped() {}
  }
}
EOF2
  (cd "$R" && javac -d out -cp "$J" src/CalcTest.java)
  capture jvm junit_console_failing "$R" "java -jar $J -cp out --select-class CalcTest" "junit-platform-console-standalone 1.9.1, $(java -version 2>&1 | head -1)"
  cd "$ROOT" || exit 1
fi

# --- pretty-printed JSON reports (`prettyjson`): rspec's and rubocop's JSON through `jq .`, as
# an agent reads them; a calculator with two failing examples (an expectation, a
# ZeroDivisionError), a pending one, eleven passing, and rubocop's offences in it.
if sel prettyjson; then
  R="$WORK/prettyjson"
  rm -rf "$R" && mkdir -p "$R/spec" "$R/lib"
  cat >"$R/lib/calc.rb" <<'EOF2'
class Calc
  def add(a,b)
    a+b
  end
  def div(a, b)
    a / b
  end
  def unused_method( x )
    y = 1
    return x
  end
end
EOF2
  cat >"$R/spec/calc_spec.rb" <<'EOF2'
require_relative "../lib/calc"
RSpec.describe Calc do
  let(:c) { Calc.new }
  it("adds") { expect(c.add(1, 2)).to eq(3) }
  it("adds negatives") { expect(c.add(-1, -2)).to eq(-3) }
  it("adds wrong") { expect(c.add(2, 2)).to eq(5) }
  it("divides") { expect(c.div(6, 3)).to eq(2) }
  it("divides by zero") { expect(c.div(1, 0)).to eq(0) }
  it("is pending") { pending("later"); expect(1).to eq(2) }
  (1..8).each { |i| it("adds #{i}") { expect(c.add(i, 0)).to eq(i) } }
end
EOF2
  capture ruby rspec_json_pretty "$R" "rspec --format json | jq ." "rspec $(rspec --version | head -1), $(jq --version)"
  capture ruby rubocop_json_pretty "$R" "rubocop --format json lib | jq ." "rubocop $(rubocop --version), $(jq --version)"
  cd "$ROOT" || exit 1
fi

# --- git log records without `commit` lines (`gitrecords`): a history of 30 commits of one author
# (fixed dates) over a handful of files, read with `--oneline -p` and `--numstat --format`.
if sel gitrecords; then
  R="$WORK/gitrecords"
  rm -rf "$R" && mkdir -p "$R"
  (
    cd "$R" && git init -q && git config user.email ann@example.com && git config user.name "Ann Dev"
    for i in $(seq 1 30); do
      export GIT_AUTHOR_DATE="2026-11-$(printf %02d $((i / 2 + 1)))T10:00:00Z" GIT_COMMITTER_DATE="2026-11-$(printf %02d $((i / 2 + 1)))T10:00:00Z"
      seq 1 $((i % 7 + 2)) | sed "s/^/row $i /" >"data$((i % 3)).txt"
      echo "entry $i" >>log.txt
      git add -A && git commit -qm "step $i: update data$((i % 3))"
    done
  )
  capture git log_oneline_patch "$R" "git log --oneline -p -n 12" "$(git --version)"
  capture git log_numstat_format "$R" "git log --numstat --format='%h %an %ad %s'" "$(git --version)"
  cd "$ROOT" || exit 1
fi

# --- cargo test --nocapture (`cargonocap`): a parser crate (cargo 1.95, offline) whose 12 tests print
# their progress (`case N: parsing`); two fail. With --nocapture (one thread, so the output stays in
# order) each test's prints come between its `test x ... ` and its status, on a line of its own.
if sel cargonocap; then
  R="$WORK/cargonocap"
  rm -rf "$R" && mkdir -p "$R/src"
  printf '[package]\nname = "tokens"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' >"$R/Cargo.toml"
  {
    echo 'pub fn parse(s: &str) -> Result<Vec<i64>, String> {'
    echo '    s.split(",").map(|t| t.trim().parse::<i64>().map_err(|e| format!("{t:?}: {e}"))).collect()'
    echo '}'
    echo '#[cfg(test)]'
    echo 'mod tests {'
    echo '    use super::*;'
    for t in ints negatives spaces singles pairs triples zeros large padded mixed; do
      echo "    #[test] fn parses_$t() { for i in 0..8 { println!(\"case {i}: parsing\"); assert!(parse(&format!(\"{i},{}\", i + 1)).is_ok()); } }"
    done
    echo '    #[test] fn parses_hex() { for i in 0..3 { println!("case {i}: parsing"); } assert_eq!(parse("0x10"), Ok(vec![16]), "hex literals"); }'
    echo '    #[test] fn rejects_empty() { println!("case 0: parsing"); assert!(parse("").is_err(), "an empty list must be an error"); }'
    echo '}'
  } >"$R/src/lib.rs"
  (cd "$R" && CARGO_NET_OFFLINE=true cargo build --tests -q >/dev/null 2>&1)
  capture cargo test_nocapture "$R" "CARGO_NET_OFFLINE=true cargo test -- --nocapture --test-threads=1" "$(cargo --version)"
  cd "$ROOT" || exit 1
fi

# --- vitest's JUnit reporter on stdout (`vitestjunit`): vitest 3 (npm, installed in the project) on
# three files of 13 tests each, one failing per file (a float compared with toBe)
if sel vitestjunit; then
  R="$WORK/vitestjunit"
  rm -rf "$R" && mkdir -p "$R/test"
  printf '{ "name": "calc", "version": "1.0.0", "type": "module" }\n' >"$R/package.json"
  (cd "$R" && npm i --no-audit --no-fund vitest@3 >/dev/null 2>&1)
  for i in 1 2 3; do
    cat >"$R/test/m$i.test.js" <<EOF2
import { describe, it, expect } from 'vitest';
describe('module $i', () => {
  for (let k = 0; k < 12; k++) it('computes case ' + k, () => { expect(k + $i).toBe(k + $i); });
  it('rounds prices $i', () => { expect(0.1 + 0.2).toBe(0.3); });
});
EOF2
  done
  capture node vitest_junit "$R" "npx vitest run --reporter=junit" "vitest $(cd "$R" && npx vitest --version 2>/dev/null)"
  cd "$ROOT" || exit 1
fi

# --- phpunit (Debian's phpunit 9) on a small cart class: 30 passing tests, two failed assertions
# (one with an array diff), two errors, a risky, an incomplete and a skipped test and a data
# provider with one failing set, run with --testdox ------------------------------------------------
if sel phpunit; then
  R="$WORK/phpunit"
  rm -rf "$R" && mkdir -p "$R/src" "$R/tests"
  cat >"$R/src/Cart.php" <<'EOF'
<?php
namespace Shop;

class Cart
{
    private array $items = [];

    public function add(string $sku, int $qty, float $price): void
    {
        if ($qty <= 0) {
            throw new \InvalidArgumentException("Quantity must be positive, got $qty");
        }
        $this->items[$sku] = ['qty' => $qty, 'price' => $price];
    }

    public function total(): float
    {
        $sum = 0.0;
        foreach ($this->items as $item) {
            $sum += $item['qty'] * $item['price'];
        }
        return round($sum * 1.1, 2);
    }

    public function skus(): array
    {
        return array_keys($this->items);
    }

    public function discount(string $code): float
    {
        $codes = ['SAVE10' => 0.1];
        return $codes[$code];
    }
}
EOF
  printf '<?php\nuse PHPUnit\\Framework\\TestCase;\nuse Shop\\Cart;\n\nfinal class CartTest extends TestCase\n{\n' >"$R/tests/CartTest.php"
  for i in $(seq 1 30); do
    printf '    public function testAddsItem%d(): void\n    {\n        $cart = new Cart();\n        $cart->add('"'"'sku-%d'"'"', %d, 2.0);\n        $this->assertSame(['"'"'sku-%d'"'"'], $cart->skus());\n    }\n\n' "$i" "$i" "$i" "$i" >>"$R/tests/CartTest.php"
  done
  cat >>"$R/tests/CartTest.php" <<'EOF'
    public function testTotalIncludesTax(): void
    {
        $cart = new Cart();
        $cart->add('a', 2, 10.0);
        $this->assertSame(20.0, $cart->total(), 'total should not include tax');
    }

    public function testSkusInOrder(): void
    {
        $cart = new Cart();
        $cart->add('b', 1, 1.0);
        $cart->add('a', 1, 1.0);
        $this->assertEquals(['a', 'b', 'c'], $cart->skus());
    }

    public function testRejectsZeroQuantity(): void
    {
        $cart = new Cart();
        $cart->add('a', 0, 1.0);
    }

    public function testUnknownDiscount(): void
    {
        $cart = new Cart();
        $this->assertSame(0.0, $cart->discount('NOPE'));
    }

    public function testNothing(): void
    {
        $cart = new Cart();
    }

    public function testIncomplete(): void
    {
        $this->markTestIncomplete('discount stacking not written yet');
    }

    public function testSkipped(): void
    {
        $this->markTestSkipped('needs the payment gateway');
    }

    /** @dataProvider quantities */
    public function testQuantities(int $qty, float $expected): void
    {
        $cart = new Cart();
        $cart->add('x', $qty, 1.0);
        $this->assertSame($expected, $cart->total());
    }

    public function quantities(): array
    {
        return [
            'one' => [1, 1.1],
            'two' => [2, 2.2],
            'three' => [3, 3.3],
            'ten' => [10, 10.0],
        ];
    }
}
EOF
  printf '<?php\nrequire __DIR__ . '"'"'/src/Cart.php'"'"';\n' >"$R/bootstrap.php"
  printf '<?xml version="1.0" encoding="UTF-8"?>\n<phpunit bootstrap="bootstrap.php" colors="false">\n  <testsuites><testsuite name="shop"><directory>tests</directory></testsuite></testsuites>\n</phpunit>\n' >"$R/phpunit.xml"
  capture php phpunit_testdox "$R" "phpunit --testdox" "$(phpunit --version | head -1)"
  capture php phpunit_verbose "$R" "phpunit -v" "$(phpunit --version | head -1)"
  cd "$ROOT" || exit 1
fi

# --- git apply and git submodule update that fail (`gitapply`): a patch touching 20 files, two
# of them changed since and one deleted, applied with `--reject -v`; a superproject with 14
# submodules cloned, one of them pinned to a commit its remote never had -----------------------
if sel gitapply; then
  R="$WORK/gitapply"
  rm -rf "$R" && mkdir -p "$R"
  export GIT_AUTHOR_NAME=zeph GIT_AUTHOR_EMAIL=zeph@example.invalid GIT_COMMITTER_NAME=zeph GIT_COMMITTER_EMAIL=zeph@example.invalid
  git init -q "$R/repo" && cd "$R/repo" || exit 1
  mkdir src
  for i in $(seq 1 20); do seq 1 40 | sed "s/^/item $i /" >"src/part$i.txt"; done
  git add . && git commit -qm init
  for i in $(seq 1 20); do sed -i "s/^item $i 7$/item $i seven/; s/^item $i 30$/item $i thirty/" "src/part$i.txt"; done
  git diff >"$R/change.patch" && git checkout -q .
  sed -i 's/^item 4 7$/edited 4 7/' src/part4.txt
  sed -i 's/^item 13 30$/edited 13 30/' src/part13.txt
  git rm -q src/part17.txt
  capture git git_apply_reject "$R/repo" "git apply --reject -v ../change.patch" "$(git --version)"
  mkdir -p "$R/subs" && cd "$R/subs" || exit 1
  for n in json log http yaml cli fmt cache crypto db mail queue auth metrics trace; do
    git init -q "$n" && (cd "$n" && echo "$n" >README && git add . && git commit -qm "init $n")
  done
  git init -q super && cd super || exit 1
  for n in json log http yaml cli fmt cache crypto db mail queue auth metrics trace; do
    git -c protocol.file.allow=always submodule add -q "../$n" "deps/$n"
  done
  git commit -qm submodules
  (cd deps/mail && echo local >>README && git commit -qam "never pushed")
  git add deps/mail && git commit -qm "bump mail"
  cd .. && git clone -q super clone
  capture git git_submodule_update "$R/subs/clone" "git -c protocol.file.allow=always submodule update --init --recursive" "$(git --version)"
  unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
  cd "$ROOT" || exit 1
fi

# --- meson test --verbose (`mesontest`, meson 1.0, gcc 12) on a C library with 15 tests: 11 pass
# printing four lines each (one prints nothing), one dies of SIGFPE, one fails an assertion, one
# is skipped (exit 77) and one should fail but passes ------------------------------------------
if sel mesontest; then
  R="$WORK/mesontest"
  rm -rf "$R" && mkdir -p "$R" && cd "$R" || exit 1
  cat >meson.build <<'EOF'
project('calc', 'c')
lib = static_library('calc', 'calc.c')
foreach n : ['add', 'sub', 'mul', 'div', 'mod', 'pow', 'neg', 'abs', 'min', 'max', 'clamp', 'sign']
  exe = executable('test_' + n, 'test_' + n + '.c', link_with : lib)
  test(n, exe)
endforeach
test('quiet', executable('test_quiet', 'test_quiet.c'))
test('skipme', executable('test_skip', 'test_skip.c'))
test('xfail', executable('test_xfail', 'test_quiet.c'), should_fail : true)
EOF
  cat >calc.c <<'EOF'
int calc_add(int a, int b) { return a + b; }
int calc_sub(int a, int b) { return a - b; }
int calc_div(int a, int b) { return a / b; }
int calc_clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? lo : x; }
EOF
  for n in add sub mul div mod pow neg abs min max clamp sign; do
    printf '#include <stdio.h>\nint calc_add(int, int); int calc_sub(int, int); int calc_div(int, int); int calc_clamp(int, int, int);\nint main(void) {\n  int fails = 0;\n  for (int i = 0; i < 4; i++) {\n    printf("checking %s case %%d ... ok\\n", i);\n  }\n' "$n" >"test_$n.c"
  done
  printf '  fprintf(stderr, "test_div.c:9: dividing 7 by 0\\n");\n  return calc_div(7, 0);\n}\n' >>test_div.c
  printf '  if (calc_clamp(12, 0, 10) != 10) { fprintf(stderr, "test_clamp.c:9: expected clamp(12, 0, 10) == 10, got %%d\\n", calc_clamp(12, 0, 10)); fails++; }\n  printf("1 of 5 checks failed\\n");\n  return fails;\n}\n' >>test_clamp.c
  for n in add sub mul mod pow neg abs min max sign; do echo '  return fails; }' >>"test_$n.c"; done
  printf 'int main(void) { return 0; }\n' >test_quiet.c
  printf '#include <stdio.h>\nint main(void) { printf("no network here\\n"); return 77; }\n' >test_skip.c
  meson setup build >/dev/null 2>&1
  capture native meson_test_verbose "$R/build" "meson test --verbose" "meson $(meson --version)"
  cd "$ROOT" || exit 1
fi

# --- terraform plan that fails (`tfplan`, terraform 1.11, its built-in terraform_data resources,
# no provider to download): 13 resources applied, then a configuration adding five more whose plan
# fails a precondition and indexes past a list; terraform colours its output (no terminal) and
# draws a box around each diagnostic ---------------------------------------------------------------
if sel tfplan; then
  R="$WORK/tfplan"
  rm -rf "$R" && mkdir -p "$R" && cd "$R" || exit 1
  cat >main.tf <<'EOF'
variable "replicas" {
  type    = number
  default = 3
}

resource "terraform_data" "node" {
  count = 12
  input = "node-${count.index}"
}

resource "terraform_data" "lb" {
  input = terraform_data.node[*].output
}
EOF
  env -u TF_CLI_CONFIG_FILE terraform init -input=false >/dev/null 2>&1
  env -u TF_CLI_CONFIG_FILE terraform apply -auto-approve -input=false >/dev/null 2>&1
  cat >>main.tf <<'EOF'

resource "terraform_data" "lb_checked" {
  input = terraform_data.node[*].output

  lifecycle {
    precondition {
      condition     = var.replicas >= 5
      error_message = "The load balancer needs at least 5 replicas, got ${var.replicas}."
    }
  }
}

resource "terraform_data" "config" {
  input = jsondecode(file("${path.module}/settings.json"))
}

resource "terraform_data" "extra" {
  count = 4
  input = "extra-${count.index}"
}

output "first" {
  value = terraform_data.node[20].output
}
EOF
  echo '{"region": "eu-west-1", "tier": "small"}' >settings.json
  (unset TF_CLI_CONFIG_FILE && capture infra terraform_plan_errors "$R" "terraform plan -input=false" "$(terraform version | head -1)")
  cd "$ROOT" || exit 1
fi

# --- gcov -b -c (`gcov`, gcc 12) over a program of 15 files built with --coverage: main calls ten
# of its 14 modules (the same code but for a constant), four are never called, one is main --------
if sel gcov; then
  R="$WORK/gcov"
  rm -rf "$R" && mkdir -p "$R" && cd "$R" || exit 1
  for i in $(seq 1 14); do
    printf '#include <stdio.h>\nint mod%d_f(int x) {\n  if (x > %d) { printf("big %%d\\n", x); return x * 2; }\n  for (int k = 0; k < 3; k++) { if (k == x) return k; }\n  return x;\n}\n' "$i" "$i" >"mod$i.c"
  done
  {
    echo '#include <stdio.h>'
    for i in $(seq 1 14); do echo "int mod${i}_f(int);"; done
    echo 'int main(void) {'
    echo '  int s = 0;'
    for i in $(seq 1 10); do echo "  s += mod${i}_f($((i + 5))); s += mod${i}_f(1);"; done
    echo '  printf("%d\n", s);'
    echo '  return 0;'
    echo '}'
  } >main.c
  for f in main.c mod*.c; do gcc --coverage -O0 -c "$f"; done
  gcc --coverage -o prog ./*.o && ./prog >/dev/null
  capture native gcov_branches "$R" "gcov -b -c main.c mod*.c" "$(gcov --version | head -1)"
  cd "$ROOT" || exit 1
fi

# --- tsc --extendedDiagnostics (`tscdiag`, Debian's tsc 4.8) on two files with three type errors:
# the errors, then its table of counts, sizes and times ----------------------------------------------
if sel tscdiag; then
  R="$WORK/tscdiag"
  rm -rf "$R" && mkdir -p "$R/src" && cd "$R" || exit 1
  echo '{ "compilerOptions": { "strict": true, "target": "es2020", "module": "commonjs", "noEmit": true }, "include": ["src"] }' >tsconfig.json
  cat >src/a.ts <<'EOF'
export function total(items: { price: number; qty: number }[]): number {
  return items.reduce((s, i) => s + i.price * i.qty, 0);
}
const n: number = "three";
export const t = total([{ price: 1, qty: "2" }]);
EOF
  printf 'import { total } from "./a";\nexport const x = total(null);\n' >src/b.ts
  capture node tsc_extended_diagnostics "$R" "tsc -p . --extendedDiagnostics" "tsc $(tsc --version)"
  cd "$ROOT" || exit 1
fi

# --- git tag -l (`gittags`, git 2.39) in a repository with 186 tags: semver runs of one to nine
# patch releases per minor, three release candidates and two tags that are no versions -------------
if sel gittags; then
  R="$WORK/gittags"
  rm -rf "$R" && git init -q "$R" && cd "$R" || exit 1
  export GIT_AUTHOR_NAME=zeph GIT_AUTHOR_EMAIL=zeph@example.invalid GIT_COMMITTER_NAME=zeph GIT_COMMITTER_EMAIL=zeph@example.invalid
  git commit -q --allow-empty -m init
  for M in 0 1 2 3; do for m in $(seq 0 9); do for p in $(seq 0 $(((m * 3 + M) % 9))); do git tag "v$M.$m.$p"; done; done; done
  for t in v4.0.0-rc.1 v4.0.0-rc.2 v4.0.0 nightly release-2024-01; do git tag "$t"; done
  unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
  capture git git_tag_list "$R" "git tag -l" "$(git --version)"
  cd "$ROOT" || exit 1
fi

# --- pytest's verdicts and captured logs, go test over a package that did not build (`runverdicts`):
# a pytest test that fails after logging 160 records at DEBUG, INFO, WARNING and ERROR
# (`--log-level=DEBUG`: a long `Captured log call` section); `go test -v ./...` (go from the system)
# over a module of three packages: one passes, one's test file does not compile, one's test fails
# after logging its message. PY: a python with pytest in ZEPH_CORPUS_PY (a bin directory).
if sel runverdicts; then
  PYBIN="${ZEPH_CORPUS_PY:-/usr/bin}"
  R="$WORK/runverdicts"
  rm -rf "$R" && mkdir -p "$R/py/tests" "$R/go/aaa" "$R/go/broken" "$R/go/tax"
  cat >"$R/py/tests/test_batch.py" <<'EOF'
import logging

log = logging.getLogger("mod")


def process(n):
    for i in range(n):
        log.info("processing record r%d of batch b%d", i, n)
        if i % 50 == 48:
            log.warning("record r%d is stale, skipping", i)
        log.debug("record r%d done", i)
    log.error("batch failed after %d records", n)
    return 1


def test_batch():
    assert process(160) == 2
EOF
  PYV="pytest $("$PYBIN/python3" -m pytest --version 2>&1 | awk '{print $NF}')"
  PATH="$PYBIN:$PATH" capture python pytest_captured_log_levels "$R/py" "python3 -m pytest --log-level=DEBUG tests" "$PYV"
  printf 'module example.com/shop\n\ngo 1.21\n' >"$R/go/go.mod"
  printf 'package aaa\n\nfunc Add(a, b int) int { return a + b }\n' >"$R/go/aaa/a.go"
  printf 'package aaa\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("bad")\n\t}\n}\n' >"$R/go/aaa/a_test.go"
  printf 'package broken\n\nfunc B() int { return 1 }\n' >"$R/go/broken/b.go"
  printf 'package broken\n\nimport "testing"\n\nfunc TestB(t *testing.T) {\n\tvar unused int\n\tif B() != 1 {\n\t\tt.Fatal("x")\n\t}\n}\n' >"$R/go/broken/b_test.go"
  printf 'package tax\n\nfunc VAT(x int) int { return x + x/5 + 9 }\n' >"$R/go/tax/vat.go"
  printf 'package tax\n\nimport "testing"\n\nfunc TestVAT(t *testing.T) {\n\tgot := VAT(50)\n\tif got != 60 {\n\t\tt.Errorf("VAT(50) = %%d, want 60", got)\n\t}\n}\n' >"$R/go/tax/vat_test.go"
  capture go go_test_v_build_failed "$R/go" "go test -v ./..." "$(go version | awk '{print $3}')"
  cd "$ROOT" || exit 1
fi

# --- go's escape analysis (`gcflags`): `go build -gcflags=-m ./...` (go from the system) on a small
# package whose functions inline, leak their parameters, box values and move a closure's variable
# to the heap.
if sel gcflags && command -v go >/dev/null; then
  R="$WORK/gcflags"
  rm -rf "$R" && mkdir -p "$R"
  printf 'module example.com/esc\n\ngo 1.19\n' >"$R/go.mod"
  cat >"$R/esc.go" <<'EOF'
package esc

import (
	"fmt"
	"strings"
)

type Item struct {
	Name  string
	Price int
}

func NewItem(name string, price int) *Item { return &Item{Name: name, Price: price} }

func Total(items []*Item) int {
	t := 0
	for _, it := range items {
		t += it.Price
	}
	return t
}

func Describe(it *Item) string { return fmt.Sprintf("%s: %d", it.Name, it.Price) }

func Join(items []*Item) string {
	parts := make([]string, 0, len(items))
	for _, it := range items {
		parts = append(parts, Describe(it))
	}
	return strings.Join(parts, ", ")
}

func Upper(s string) string { return strings.ToUpper(s) }

func Keep(xs []int) func() int {
	n := 0
	return func() int { n++; return xs[n%len(xs)] }
}

func Box(v int) interface{} { return v }

func Many() []*Item {
	out := []*Item{}
	for i := 0; i < 10; i++ {
		out = append(out, NewItem(fmt.Sprint("item", i), i))
	}
	return out
}
EOF
  capture go go_build_gcflags_m "$R" "go build -gcflags=-m ./..." "$(go version | awk '{print $3}')"
  cd "$ROOT" || exit 1
fi

# --- git histories and lists (`gitlists`, git 2.39): a scratch repository of 60 feature branches
# merged with --no-ff (three commits each), five authors, direct commits between merges, a tag
# every ten merges; one-line logs of it with and without the graph.
if sel gitlists; then
  R="$WORK/gitlists"
  rm -rf "$R" && mkdir -p "$R"
  (
    cd "$R" && git init -q -b main && git config user.email ann@example.com && git config user.name "Ann Dev"
    authors=("Ann Dev:ann@example.com" "Bo Lin:bo@example.com" "Cy Park:cy@example.com" "Dee Roy:dee@example.com" "Eli Sato:eli@example.com")
    t=1764000000
    commit() {
      t=$((t + 3600))
      local a="${authors[$(($1 % 5))]}"
      GIT_AUTHOR_NAME="${a%%:*}" GIT_AUTHOR_EMAIL="${a#*:}" GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000" \
        git commit -q "${@:2}"
    }
    mkdir -p src/core src/api src/ui docs tests
    echo "# app" >README.md && git add -A && commit 0 -m "Initial commit"
    for i in $(seq 1 60); do
      git checkout -q -b "feature/f$i"
      for k in 1 2 3; do
        d=(core api ui)
        echo "value $i $k" >>"src/${d[$((k - 1))]}/mod$i.txt"
        git add -A && commit "$i" -m "f$i: step $k of feature $i"
      done
      git checkout -q main
      if [ $((i % 2)) = 0 ]; then echo "note $i" >>"docs/notes$((i % 4)).md" && git add -A && commit $((i + 2)) -m "docs: note $i"; fi
      t=$((t + 60))
      GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000" git merge -q --no-ff -m "Merge branch 'feature/f$i'" "feature/f$i"
      if [ $((i % 10)) = 0 ]; then git tag "v0.$((i / 10)).0"; fi
    done
  )
  capture git log_graph_format "$R" "git log --graph --format='%h %an %s'" "$(git --version)"
  capture git log_oneline_graph_all "$R" "git log --oneline --graph --all" "$(git --version)"
  capture git log_format_nograph "$R" "git log --format='%h %s'" "$(git --version)"
  capture_golden git-log-truncate graph_format_short "$R" "git log --graph --format='%h %an %s' -n 50"
  capture_golden git-log-truncate format_nograph "$R" "git log --format='%h %s' -n 120"
  capture_golden git-log-truncate oneline_graph_long "$R" "git log --oneline --graph -n 150"
  # Custom one-line formats: a leading hash, abbreviated or full, then a tab, a blank or nothing.
  capture git log_format_tabs "$R" "git log --format='%h%x09%an%x09%s'" "$(git --version)"
  capture_golden git-log-truncate format_tab "$R" "git log --format='%h%x09%s'"
  capture_golden git-log-truncate format_full_hash "$R" "git log --format=%H"
  capture_golden git-log-truncate pretty_author "$R" "git log --pretty=format:'%h %an %s'"
  cd "$ROOT" || exit 1
fi

# --- git lists (`gitlong`, git 2.39): a scratch repository of five regular authors and forty
# one-time contributors, a release whose diff adds, changes, deletes and renames files across
# directories, and a topic branch of twelve commits whose rebase stops on a conflict.
if sel gitlong; then
  R="$WORK/gitlong"
  rm -rf "$R" && mkdir -p "$R"
  (
    cd "$R" && git init -q -b main && git config user.email ann@example.com && git config user.name "Ann Dev"
    t=1764000000
    commit() {
      t=$((t + 3600))
      GIT_AUTHOR_NAME="$1" GIT_AUTHOR_EMAIL="$2" GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000" git commit -q -m "$3"
    }
    mkdir -p src/core src/api src/ui docs tests
    for i in $(seq 1 30); do printf 'core %d\nline two\n' "$i" >"src/core/mod$i.py"; done
    for i in $(seq 1 12); do printf 'ui %d\n' "$i" >"src/ui/view$i.tsx"; done
    for i in $(seq 1 8); do printf 'test %d\n' "$i" >"tests/test_$i.py"; done
    echo "# app" >README.md && echo "guide" >docs/guide.md && echo "old" >docs/legacy.md && echo "conf" >setup.cfg
    git add -A && commit "Ann Dev" ann@example.com "Initial import" && git tag v1.0
    # Five regular authors, then forty one-time contributors.
    regulars=("Ann Dev:ann@example.com" "Bo Lin:bo@example.com" "Cy Park:cy@example.com" "Dee Roy:dee@example.com" "Eli Sato:eli@example.com")
    for k in $(seq 1 60); do
      a="${regulars[$(( (k * k + k / 3) % 5 ))]}"
      echo "change $k" >>"src/core/mod$(( k % 30 + 1 )).py" && git add -A && commit "${a%%:*}" "${a#*:}" "core: change $k"
    done
    for n in Fay Gus Hal Ida Jon Kai Lea Max Ned Oli Pia Quin Ray Sol Tia Uma Vic Wes Xia Yan Zoe Abe Bea Cal Dan Eva Fox Gia Hob Ivy Jay Kim Lou Mia Nia Oto Pam Rex Sue Ted; do
      echo "$n" >>docs/guide.md && git add -A && commit "$n Contributor" "$(echo "$n" | tr A-Z a-z)@example.org" "docs: thanks $n"
    done
    # Between v1.0 and HEAD: files added under src/api, deleted, renamed, a mode change.
    for i in $(seq 1 20); do printf 'api %d\n' "$i" >"src/api/route$i.py"; done
    git rm -q docs/legacy.md tests/test_7.py tests/test_8.py && git mv setup.cfg pyproject.cfg && git mv src/ui/view12.tsx src/ui/panel12.tsx
    for i in $(seq 1 11); do echo "style" >>"src/ui/view$i.tsx"; done
    chmod +x tests/test_1.py
    git add -A && commit "Ann Dev" ann@example.com "api routes, ui styles, cleanup"
    # A topic branch of twelve commits, the fifth of which edits a line main changes too.
    git checkout -q -b topic v1.0~0 2>/dev/null || git checkout -q -b topic v1.0
    for k in $(seq 1 12); do
      if [ "$k" = 5 ]; then sed -i 's/^line two$/line two (topic)/' src/core/mod3.py; else echo "topic $k" >"src/ui/topic$k.tsx"; fi
      git add -A && commit "Bo Lin" bo@example.com "topic: step $k"
    done
    git checkout -q main
    sed -i 's/^line two$/line two (main)/' src/core/mod3.py && git add -A && commit "Ann Dev" ann@example.com "core: reword mod3"
    git checkout -q topic
  )
  V="$(git --version)"
  capture git shortlog_sne "$R" "git shortlog -sne HEAD main" "$V"
  capture git diff_name_status "$R" "git diff --name-status v1.0 main" "$V"
  capture git diff_name_only "$R" "git diff --name-only v1.0 main" "$V"
  capture_golden git-shortlog-summary sn "$R" "git shortlog -sn main"
  capture_golden git-diff-name-status show_commit "$R" "git show --name-status main~1"
  capture_golden git-diff-name-only show_commit "$R" "git show --name-only main~1"
  cd "$ROOT" || exit 1
fi

# --- pnpm recursive node --test (`pnpmtap`, pnpm 9, node 20): a three-package workspace whose
# packages' `test` script is `node --test` (TAP when not on a terminal); one test of `tax` fails,
# so pnpm stops the others' runs.
if sel pnpmtap; then
  R="$WORK/pnpmws"
  rm -rf "$R" && mkdir -p "$R"
  printf 'packages:\n  - "packages/*"\n' >"$R/pnpm-workspace.yaml"
  printf '{"name":"ws","private":true}\n' >"$R/package.json"
  for p in cart tax ledger; do
    mkdir -p "$R/packages/$p/test"
    printf '{"name":"@shop/%s","version":"1.0.0","scripts":{"test":"node --test"}}\n' "$p" >"$R/packages/$p/package.json"
    {
      echo 'const test = require("node:test"); const assert = require("node:assert");'
      for i in $(seq 1 8); do echo "test('$p computes case $i', () => { assert.strictEqual($i + 1, $((i + 1))); });"; done
      if [ "$p" = tax ]; then echo "test('tax sums rates exactly', () => { assert.strictEqual(0.1 + 0.2, 0.3); });"; fi
    } >"$R/packages/$p/test/$p.test.js"
  done
  capture node pnpm_recursive_node_test "$R" "pnpm -r test" "pnpm $(pnpm --version), node $(node --version)"
  capture_golden pnpm-recursive-tap first_fail "$R" "pnpm -r test"
  cd "$ROOT" || exit 1
fi

# --- go test -fuzz (`gofuzz`, go 1.19): a fuzz target over a key=value parser that indexes past
# a pair without `=`: the fuzzer finds it at once, and the panic's goroutine trace is printed
# inside testing's log line, indented, with the failing input's file and the command to re-run it.
if sel gofuzz; then
  R="$WORK/gofuzz"
  rm -rf "$R" && mkdir -p "$R"
  printf 'module example.com/ring\n\ngo 1.19\n' >"$R/go.mod"
  cat >"$R/parse.go" <<'EOF'
package ring

import "strings"

// Parse reads "key=value" pairs separated by commas.
func Parse(s string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		kv := strings.SplitN(part, "=", 2)
		out[kv[0]] = kv[1]
	}
	return out
}
EOF
  cat >"$R/parse_test.go" <<'EOF'
package ring

import "testing"

func FuzzParse(f *testing.F) {
	f.Add("a=1,b=2")
	f.Fuzz(func(t *testing.T, s string) {
		Parse(s)
	})
}
EOF
  capture go go_test_fuzz_panic "$R" "go test -fuzz=FuzzParse -fuzztime=60s ." "$(go version | awk '{print $3}')"
  rm -rf "$R/testdata"
  capture_golden go-test-tidy fuzz_panic "$R" "go test -fuzz=FuzzParse -fuzztime=60s ."
  cd "$ROOT" || exit 1
fi

# --- SQL dumps (`sqldump`): a PostgreSQL 15 cluster started in $WORK on a unix socket (as the
# postgres user when run as root) holding a shop schema (8 tables with CHECK, UNIQUE and foreign
# key constraints, views, a function, a trigger, comments, 1,200 rows); `pg_dump` of it (plain
# format: COPY blocks) and `pg_dump --schema-only`.
if sel sqldump && [ -x /usr/lib/postgresql/15/bin/initdb ]; then
  PG="$WORK/sqldump"
  PGBIN=/usr/lib/postgresql/15/bin
  asdb() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$1"; else bash -c "$1"; fi; }
  rm -rf "$PG" && mkdir -p "$PG/sock" && chmod 777 "$PG" "$PG/sock"
  asdb "$PGBIN/initdb -D $PG/data -A trust -U postgres >/dev/null 2>&1 && $PGBIN/pg_ctl -D $PG/data -o '-k $PG/sock -p 54331 -c listen_addresses=' -l $PG/log -w start >/dev/null"
  cat >"$PG/schema.sql" <<'SQL'
CREATE TABLE customers (id serial PRIMARY KEY, email text NOT NULL UNIQUE, name text NOT NULL, created_at timestamptz NOT NULL DEFAULT '2026-01-01', CONSTRAINT email_has_at CHECK (position('@' in email) > 1));
CREATE TABLE categories (id serial PRIMARY KEY, parent_id int REFERENCES categories(id), name text NOT NULL UNIQUE);
CREATE TABLE products (id serial PRIMARY KEY, sku text NOT NULL UNIQUE, category_id int NOT NULL REFERENCES categories(id), name text NOT NULL, price numeric(10,2) NOT NULL, stock int NOT NULL DEFAULT 0, CONSTRAINT price_positive CHECK (price > 0), CONSTRAINT stock_not_negative CHECK (stock >= 0));
CREATE TABLE orders (id serial PRIMARY KEY, customer_id int NOT NULL REFERENCES customers(id) ON DELETE RESTRICT, status text NOT NULL DEFAULT 'new', placed_at date NOT NULL, CONSTRAINT status_known CHECK (status IN ('new', 'paid', 'shipped', 'cancelled')));
CREATE TABLE order_items (order_id int NOT NULL REFERENCES orders(id) ON DELETE CASCADE, product_id int NOT NULL REFERENCES products(id), quantity int NOT NULL, unit_price numeric(10,2) NOT NULL, PRIMARY KEY (order_id, product_id), CONSTRAINT quantity_positive CHECK (quantity > 0));
CREATE TABLE payments (id serial PRIMARY KEY, order_id int NOT NULL REFERENCES orders(id), amount numeric(10,2) NOT NULL, method text NOT NULL, paid_at timestamptz NOT NULL, CONSTRAINT amount_positive CHECK (amount > 0));
CREATE TABLE audit_log (id bigserial PRIMARY KEY, at timestamptz NOT NULL, actor text NOT NULL, action text NOT NULL, detail text);
CREATE TABLE settings (key text PRIMARY KEY, value text NOT NULL);
CREATE INDEX orders_customer_idx ON orders (customer_id);
CREATE INDEX orders_placed_idx ON orders (placed_at DESC);
CREATE INDEX products_category_idx ON products (category_id);
CREATE UNIQUE INDEX payments_order_method_idx ON payments (order_id, method);
COMMENT ON TABLE orders IS 'One row per checkout';
COMMENT ON COLUMN products.price IS 'Price in EUR, VAT included';
CREATE VIEW order_totals AS SELECT o.id, o.customer_id, sum(i.quantity * i.unit_price) AS total FROM orders o JOIN order_items i ON i.order_id = o.id GROUP BY o.id;
CREATE VIEW customer_revenue AS SELECT c.id, c.email, coalesce(sum(t.total), 0) AS revenue FROM customers c LEFT JOIN order_totals t ON t.customer_id = c.id GROUP BY c.id;
CREATE FUNCTION log_status() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO audit_log (at, actor, action, detail) VALUES (now(), current_user, 'status', NEW.id || ': ' || NEW.status); RETURN NEW; END $$;
CREATE TRIGGER orders_status_log AFTER UPDATE OF status ON orders FOR EACH ROW EXECUTE FUNCTION log_status();
INSERT INTO categories (parent_id, name) VALUES (NULL, 'Hardware'), (1, 'Tools'), (1, 'Fasteners'), (NULL, 'Garden'), (4, 'Seeds');
INSERT INTO customers (email, name) SELECT 'user' || g || '@example.com', 'User ' || g FROM generate_series(1, 150) g;
INSERT INTO products (sku, category_id, name, price, stock) SELECT 'SKU-' || lpad(g::text, 4, '0'), 1 + g % 5, 'Product ' || g, (g % 40) + 0.99, g % 17 FROM generate_series(1, 120) g;
INSERT INTO orders (customer_id, status, placed_at) SELECT 1 + g % 150, (ARRAY['new','paid','shipped','cancelled'])[1 + g % 4], date '2026-01-01' + g % 300 FROM generate_series(1, 300) g;
INSERT INTO order_items SELECT o, 1 + (o * 7 + k) % 120, 1 + k, ((o + k) % 40) + 0.99 FROM generate_series(1, 300) o, generate_series(0, 1) k;
INSERT INTO payments (order_id, amount, method, paid_at) SELECT g, (g % 90) + 5.50, (ARRAY['card','transfer'])[1 + g % 2], timestamptz '2026-01-02 10:00+00' + g * interval '1 day' FROM generate_series(1, 200) g;
INSERT INTO settings VALUES ('currency', 'EUR'), ('vat', '0.21'), ('shipping_free_above', '50');
UPDATE orders SET status = 'paid' WHERE id <= 20;
SQL
  PSQL="psql -X -q -h $PG/sock -p 54331 -U postgres"
  $PSQL -c "CREATE DATABASE shop" >/dev/null && $PSQL -d shop -f "$PG/schema.sql" >/dev/null
  capture db pg_dump_shop "$PG" "pg_dump -h $PG/sock -p 54331 -U postgres shop" "$(pg_dump --version)"
  capture db pg_dump_schema_only "$PG" "pg_dump -h $PG/sock -p 54331 -U postgres --schema-only shop" "$(pg_dump --version)"
  capture_golden sql-dump data_small "$PG" "pg_dump -h $PG/sock -p 54331 -U postgres -t settings -t categories shop"
  capture_golden sql-dump-copy data_only "$PG" "pg_dump -h $PG/sock -p 54331 -U postgres --data-only -t orders -t settings shop"
  asdb "$PGBIN/pg_ctl -D $PG/data -m fast stop >/dev/null"
  cd "$ROOT" || exit 1
fi

# --- git fsck (`gitfsck`, git 2.39): a scratch repository with 60 dangling blobs (written and
# never added), 12 commits reset away and their trees, and one blob of a kept commit deleted from
# the object store: `git fsck --full` lists the dangling objects, the broken link and the missing blob.
if sel gitfsck; then
  R="$WORK/gitfsck"
  rm -rf "$R" && mkdir -p "$R"
  (
    cd "$R" && git init -q -b main && git config user.email ann@example.com && git config user.name "Ann Dev"
    export GIT_AUTHOR_DATE="2026-11-01T10:00:00Z" GIT_COMMITTER_DATE="2026-11-01T10:00:00Z"
    for i in $(seq 1 8); do echo "line $i" >"f$i.txt"; git add -A && git commit -qm "add f$i"; done
    for i in $(seq 1 60); do echo "scratch $i" | git hash-object -w --stdin >/dev/null; done
    git checkout -q -b tmp
    for i in $(seq 1 12); do echo "tmp $i" >"t$i.txt"; git add -A && git commit -qm "tmp $i"; done
    git checkout -q main && git branch -q -D tmp
    git reflog expire --expire=now --all
    obj=$(git rev-parse HEAD~3:f2.txt)
    rm -f ".git/objects/${obj:0:2}/${obj:2}"
  )
  capture git fsck_full_dangling "$R" "git fsck --full" "$(git --version)"
  capture_golden git-fsck unreachable "$R" "git fsck --unreachable"
  cd "$ROOT" || exit 1
fi

if sel warnstorm; then
  # ruby -w on a script that loads its settings file three times (every constant and method
  # redefined, an unused variable per method) and requires a gem that warns, then crashes.
  W="$WORK/warnstorm"
  rm -rf "$W" && mkdir -p "$W/lib"
  python3 - "$W/lib/settings.rb" <<'EOF'
import sys
consts = ["TIMEOUT","RETRIES","HOST","PORT","POOL","REGION","BUCKET","QUEUE","TOPIC","LEVEL","FORMAT","PREFIX","SUFFIX","LIMIT","OFFSET","BATCH","WORKERS","THREADS","CACHE_TTL","LOCALE"]
meths = ["load","save","validate","normalize","render","parse","dump","reset","fetch_all","sync","merge","diff","export","import","prune"]
with open(sys.argv[1], "w") as f:
    f.write("module Settings\n")
    for i, c in enumerate(consts): f.write(f"  {c} = {i}\n")
    f.write("end\n\nclass Store\n")
    for m in meths: f.write(f"  def {m}(x)\n    unused = x * 2\n    x\n  end\n\n")
    f.write("end\n")
EOF
  cat >"$W/app.rb" <<'EOF'
require "rubocop"
$LOAD_PATH.unshift File.join(__dir__, "lib")
load File.join(__dir__, "lib/settings.rb")
load File.join(__dir__, "lib/settings.rb")
load File.join(__dir__, "lib/settings.rb")

class Inventory
  def initialize(items)
    @items = items
  end

  def total
    @items.sum { |i| i.fetch(:price) * i.fetch(:qty) }
  end
end

inv = Inventory.new([{ price: 3, qty: 2 }, { price: 5 }])
puts inv.total
EOF
  capture ruby ruby_w_warning_storm "$W" "ruby -w app.rb" "$(ruby -v)"
fi

if sel phpcs; then
  # PHP_CodeSniffer 3.7 (Debian php-codesniffer), PSR12 over four files, two of them clean.
  P="$WORK/phpcs"
  rm -rf "$P" && mkdir -p "$P/src"
  cat >"$P/src/Cart.php" <<'EOF'
<?php
namespace App;
class Cart {
    private $items = array();
    public function add( $item, $qty=1 ){
        if($qty<1) return false;
        $this->items[] = array('item'=>$item,'qty'=>$qty);
        return true;
    }
    public function total() {
      $t = 0;
      foreach($this->items as $i){ $t += $i['item']->price * $i['qty']; }
      return $t;
    }
    function clear() { $this->items = array(); }
}
EOF
  cat >"$P/src/helpers.php" <<'EOF'
<?php
function format_price($p){ return number_format($p,2).' EUR'; }
function slugify($s){
  $s = strtolower(trim($s));
  $s = preg_replace('/[^a-z0-9]+/','-',$s);
  return $s;
}
define('APP_VERSION','1.0'); echo "loaded";
EOF
  cat >"$P/src/Order.php" <<'EOF'
<?php

declare(strict_types=1);

namespace App;

final class Order
{
    public function __construct(private array $lines, private string $customerEmailAddressForInvoicesAndReceipts = '')
    {
    }

    public function count(): int
    {
        return count($this->lines);
    }
}
EOF
  cat >"$P/src/Clean.php" <<'EOF'
<?php

declare(strict_types=1);

namespace App;

final class Clean
{
    public function ok(): bool
    {
        return true;
    }
}
EOF
  capture lint phpcs_psr12 "$P" "phpcs --standard=PSR12 src" "$(phpcs --version)"
fi

if sel ant; then
  # Apache Ant 1.10 with ant-junit4: five classes and their JUnit 4 tests, two classes failing
  # (`ant test`).
  A="$WORK/ant"
  rm -rf "$A" && mkdir -p "$A/src/com/acme" "$A/test/com/acme"
  cat >"$A/build.xml" <<'EOF'
<project name="acme" default="compile" basedir=".">
  <property name="build" location="build"/>
  <path id="test.cp">
    <pathelement location="${build}/classes"/>
    <pathelement location="${build}/test-classes"/>
    <pathelement location="/usr/share/java/junit4.jar"/>
    <pathelement location="/usr/share/java/hamcrest-core.jar"/>
  </path>
  <target name="init">
    <echo message="Building ${ant.project.name}"/>
    <mkdir dir="${build}/classes"/>
    <mkdir dir="${build}/test-classes"/>
    <mkdir dir="${build}/reports"/>
    <copy todir="${build}/classes"><fileset dir="src" includes="**/*.properties"/></copy>
  </target>
  <target name="compile" depends="init">
    <javac srcdir="src" destdir="${build}/classes" includeantruntime="false"/>
  </target>
  <target name="compile-tests" depends="compile">
    <javac srcdir="test" destdir="${build}/test-classes" classpathref="test.cp" includeantruntime="false"/>
  </target>
  <target name="test" depends="compile-tests">
    <junit printsummary="yes" haltonfailure="no" failureproperty="tests.failed">
      <classpath refid="test.cp"/>
      <formatter type="plain" usefile="false"/>
      <batchtest todir="${build}/reports"><fileset dir="test" includes="**/*Test.java"/></batchtest>
    </junit>
    <fail if="tests.failed" message="Some tests failed"/>
  </target>
</project>
EOF
  for n in Money Cart Tax Invoice Stock; do
    cat >"$A/src/com/acme/$n.java" <<EOF
package com.acme;
public class $n {
    public int add(int a, int b) { return a + b; }
    public int div(int a, int b) { return a / b; }
    public String label(String s) { return s.trim().toUpperCase(); }
}
EOF
    cat >"$A/test/com/acme/${n}Test.java" <<EOF
package com.acme;
import org.junit.Test;
import static org.junit.Assert.*;
public class ${n}Test {
    @Test public void adds() { assertEquals(4, new $n().add(2, 2)); }
    @Test public void labels() { assertEquals("X", new $n().label(" x ")); }
    @Test public void divides() { assertEquals(2, new $n().div(4, 2)); }
}
EOF
  done
  echo "app.name=acme" >"$A/src/com/acme/app.properties"
  cat >"$A/test/com/acme/CartTest.java" <<'EOF'
package com.acme;
import org.junit.Test;
import static org.junit.Assert.*;
public class CartTest {
    @Test public void adds() { assertEquals(5, new Cart().add(2, 2)); }
    @Test public void labels() { assertEquals("X", new Cart().label(null)); }
    @Test public void divides() { assertEquals(2, new Cart().div(4, 0)); }
    @Test public void passes() { assertTrue(true); }
}
EOF
  sed -i 's/assertEquals("X", new Tax().label(" x "))/assertEquals("Y", new Tax().label(" x "))/' "$A/test/com/acme/TaxTest.java"
  capture jvm ant_junit_failures "$A" "ant test" "$(ant -version)"
fi

if sel javadoc; then
  # javadoc -Xdoclint:all (OpenJDK 17) on seven classes: a broken link and an unclosed tag
  # (errors), missing comments, @param and @return (warnings).
  J="$WORK/javadoc"
  rm -rf "$J" && mkdir -p "$J/src/com/acme"
  for n in Money Cart Tax Invoice Stock Ledger Report; do
    cat >"$J/src/com/acme/$n.java" <<EOF
package com.acme;
/** The $n type. */
public class $n {
    public int total;
    public $n() {}
    /**
     * Adds.
     * @param a first
     */
    public int add(int a, int b) { return a + b; }
    public String label(String s) { return s; }
}
EOF
  done
  sed -i 's|/\*\* The Money type. \*/|/** The Money type, see {@link Wallet}. <b>bold */|' "$J/src/com/acme/Money.java"
  capture jvm javadoc_doclint "$J" "javadoc -Xdoclint:all -d out -sourcepath src com.acme" "$(javadoc --version 2>&1)"
fi

if sel dpkgdeps; then
  # dpkg -i of eight local packages into an empty dpkg database (--root): seven are configured,
  # one depends on a newer version of one of them and on packages that are not installed.
  K="$WORK/dpkgdeps"
  rm -rf "$K" && mkdir -p "$K/root/var/lib/dpkg/info" "$K/root/var/lib/dpkg/updates"
  touch "$K/root/var/lib/dpkg/status"
  for p in zeph-tool zeph-lib zeph-cli zeph-docs zeph-data zeph-fonts zeph-themes zeph-locales; do
    mkdir -p "$K/$p/DEBIAN" "$K/$p/usr/share/doc/$p" && echo hi >"$K/$p/usr/share/doc/$p/README"
    printf 'Package: %s\nVersion: 1.0.0\nArchitecture: all\nMaintainer: Z <z@example.org>\nDescription: test package\n' "$p" >"$K/$p/DEBIAN/control"
  done
  printf 'Package: zeph-tool\nVersion: 1.2.0\nArchitecture: all\nMaintainer: Z <z@example.org>\nDepends: zeph-lib (>= 2.0), libzephcore3, python3-zeph-plugins | python3-zeph-legacy\nDescription: test tool\n' >"$K/zeph-tool/DEBIAN/control"
  (cd "$K" && for p in zeph-*/; do dpkg-deb -b "${p%/}" >/dev/null; done)
  capture system dpkg_install_unmet_deps "$K" "dpkg --root=$K/root --force-not-root -i zeph-*.deb" "$(dpkg --version | head -1)"
fi

if sel phpserve; then
  # PHP's built-in server: 30 requests (mostly 200s), a script warning, a 404 and a fatal error
  # (500); the server stops after eight seconds.
  S="$WORK/phpserve"
  rm -rf "$S" && mkdir -p "$S/public"
  cat >"$S/public/index.php" <<'EOF'
<?php
$page = $_GET['page'] ?? 'home';
if ($page === 'report') { $rows = null; echo count($rows); }
if ($page === 'user') { echo $user['name']; }
echo "ok $page\n";
EOF
  echo '{"ok":true}' >"$S/public/health.json"
  (
    sleep 1
    u=http://127.0.0.1:18799
    for i in $(seq 1 12); do curl -s -o /dev/null "$u/?page=home"; curl -s -o /dev/null "$u/health.json"; done
    curl -s -o /dev/null "$u/?page=user"; curl -s -o /dev/null "$u/missing.css"; curl -s -o /dev/null "$u/?page=report"
    for i in 1 2 3; do curl -s -o /dev/null "$u/?page=home"; done
  ) &
  capture logs php_server_requests "$S" "timeout 8 php -S 127.0.0.1:18799 -t public" "$(php -v | head -1)"
  # The command the agent ran; timeout only bounds the capture.
  sed -i 's/"timeout 8 php -S/"php -S/' "$CORPUS/logs/php_server_requests.json"
  wait
fi

# --- jvm (`jvmverbose`): `java -verbose:class` of a two-class program (a TreeMap, a stream with a
# lambda): the JDK's class loads around the program's output and its own classes' loads.
if sel jvmverbose; then
  V="$WORK/jvmverbose"
  rm -rf "$V" && mkdir -p "$V"
  cat >"$V/Main.java" <<'EOF'
import java.util.*;
public class Main {
  public static void main(String[] a) {
    Map<String, Integer> stock = new TreeMap<>();
    stock.put("apple", 3); stock.put("pear", 0);
    for (var e : stock.entrySet()) System.out.println(e.getKey() + "=" + e.getValue());
    System.out.println("total " + new Inventory(stock).total());
  }
}
class Inventory { final Map<String, Integer> m; Inventory(Map<String, Integer> m) { this.m = m; } int total() { return m.values().stream().mapToInt(Integer::intValue).sum(); } }
EOF
  (cd "$V" && javac Main.java)
  capture jvm java_verbose_class "$V" "java -verbose:class -cp . Main" "$(java -version 2>&1 | head -1)"
fi

# --- rules18: families that had no rule (luacheck, stylelint, ava, sphinx-build, doxygen, npm ls,
# pip show -f, eunit). Selectors: luacheck stylelint ava sphinx doxygen npmlstree pipshow eunit.
# Each gives a corpus case and a second real run kept as the rule's golden fixture
# (capture_golden). stylelint, ava, express and commander come from npm (ZEPH_CORPUS_NPM).
if sel luacheck; then
  L="$WORK/lualib"
  rm -rf "$L" && mkdir -p "$L/src/net" "$L/spec"
  for m in util config queue cache router json log http net/socket net/dns net/tls stack set list heap trie; do
    cat >"$L/src/$m.lua" <<'EOF'
local M = {}
function M.new(opts)
  local self = { opts = opts or {} }
  return setmetatable(self, { __index = M })
end
function M:get(key)
  return self.opts[key]
end
return M
EOF
  done
  cat >"$L/src/parser.lua" <<'EOF'
local M = {}
local unused_helper = require("util")
function M.parse(text, strict)
  local tokens = {}
  local count = 0
  for word in text:gmatch("%S+") do
    tokens[#tokens + 1] = word
    cnt = count + 1
  end
  local result = nil
  if strict then
    local tokens = {}
    return tokens
  end
  return tokens, total_words
end
function M.unused_arg(a, b, c)
  return a
end
return M
EOF
  cat >"$L/src/server.lua" <<'EOF'
local M = {}
local socket = require("socket")
function M.start(port, host)
  local conn, err = socket.bind(host, port)
  if not conn then
    print("bind failed: " .. err)
    retrun nil
  end
  return conn
end
return M
EOF
  cat >"$L/src/format.lua" <<'EOF'
local M = {}
function M.pad(s, n)
  local out = s
  while #out < n do out = out .. " " end
  return out
end
function M.join(list, sep)
  local out = ""
  for i, v in ipairs(list) do
    out = out .. tostring(v) .. sep
  end
  return out
end
function M.trim(s) return s:match("^%s*(.-)%s*$") end
function M.shout(s) return string.upper(s) .. "!" end
local x = 1
x = 2
return M
EOF
  cat >"$L/spec/format_spec.lua" <<'EOF'
local format = require("format")
describe("format", function()
  it("pads", function()
    assert.are.equal("ab  ", format.pad("ab", 4))
  end)
  it("joins", function()
    local unused = 1
    assert.are.equal("a,b,", format.join({ "a", "b" }, ","))
  end)
end)
EOF
  capture lint luacheck_errors "$L" "luacheck src spec" "$(luacheck --version | head -1)"
  # Golden: the codes of the findings (`--codes`), spec's busted globals allowed, the error fixed.
  sed -i 's/retrun nil/return nil/' "$L/src/server.lua"
  capture_golden luacheck codes "$L" "luacheck --codes --std max+busted src spec"
fi

if sel stylelint; then
  NPMDIR="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}"
  [ -x "$NPMDIR/node_modules/.bin/stylelint" ] || (cd "$NPMDIR" && npm install --no-audit --no-fund stylelint@16 stylelint-config-standard@39 >/dev/null 2>&1)
  S="$WORK/styles"
  rm -rf "$S" && mkdir -p "$S/src/components" "$S/src/pages"
  ln -s "$NPMDIR/node_modules" "$S/node_modules"
  printf '{ "extends": ["stylelint-config-standard"] }\n' >"$S/.stylelintrc.json"
  for c in header footer card modal tabs badge avatar tooltip menu list grid form; do
    printf '.%s {\n  display: flex;\n  padding: 4px 8px;\n}\n\n.%s-title {\n  font-weight: 600;\n}\n' "$c" "$c" >"$S/src/components/$c.css"
  done
  cat >"$S/src/components/button.css" <<'EOF'
.Button {
  color: #FFF;
  margin: 0px;
  padding: 0px 0px;
}
.button:hover { color: #ff0000; }
.button--primary {
  background: rgba(0, 0, 0, 0.5);
  colr: red;
}
EOF
  cat >"$S/src/pages/home.css" <<'EOF'
@import url("base.css");
.hero {
  font-family: Arial, sans-serif;
  width: calc(100% - 10px);
  transition: all 0.30s;
}
.hero .title { margin: 0px }
.hero .title { padding: 0 }
a { color: blue; }
a:hover { color: red; }
.links a { color: green; }
.hero { top: 0 }
EOF
  capture lint stylelint_errors "$S" 'npx stylelint "src/**/*.css"' "stylelint $(cd "$S" && npx stylelint --version)"
  capture_golden stylelint pages "$S" "npx stylelint src/pages/home.css src/components/button.css src/components/card.css"
fi

if sel ava; then
  NPMDIR="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}"
  [ -x "$NPMDIR/node_modules/.bin/ava" ] || (cd "$NPMDIR" && npm install --no-audit --no-fund ava@7 >/dev/null 2>&1)
  A="$WORK/avashop"
  rm -rf "$A" && mkdir -p "$A/src" "$A/test"
  ln -s "$NPMDIR/node_modules" "$A/node_modules"
  printf '{ "name": "avashop", "type": "module", "private": true, "scripts": { "test": "ava" } }\n' >"$A/package.json"
  cat >"$A/src/cart.js" <<'EOF'
export function total(items) {
  return items.reduce((sum, i) => sum + i.price * i.qty, 0);
}
export function discount(price, pct) {
  return Math.round(price * (1 - pct / 100));
}
export function parseQty(text) {
  const n = Number.parseInt(text, 10);
  if (Number.isNaN(n)) throw new TypeError(`Not a quantity: ${text}`);
  return n;
}
export function tags(item) {
  return [...item.tags].sort();
}
EOF
  for f in money units names dates slugs; do
    {
      printf "import test from 'ava';\n"
      for i in $(seq 1 8); do printf "test('%s case %d', t => {\n  t.is(%d + 1, %d);\n});\n" "$f" "$i" "$i" "$((i + 1))"; done
    } >"$A/test/$f.test.js"
  done
  cat >"$A/test/cart.test.js" <<'EOF'
import test from 'ava';
import { total, discount, parseQty, tags } from '../src/cart.js';

test('total of two lines', t => {
  t.is(total([{ price: 3, qty: 2 }, { price: 5, qty: 1 }]), 11);
});
test('discount rounds down', t => {
  t.is(discount(199, 15), 169);
});
test('parseQty rejects words', t => {
  t.is(parseQty('three'), 3);
});
test('tags are sorted', t => {
  t.deepEqual(tags({ tags: ['b', 'a', 'c'] }), ['a', 'b', 'c', 'd']);
});
test.skip('refunds', t => {
  t.pass();
});
test.todo('gift cards');
EOF
  capture node ava_failing "$A" "npx ava" "ava $(cd "$A" && npx ava --version)"
  capture_golden ava verbose "$A" "npx ava --verbose test/cart.test.js test/money.test.js"
fi

if sel sphinx; then
  D="$WORK/sphinxshop"
  rm -rf "$D" && mkdir -p "$D/docs/api" "$D/shop"
  cat >"$D/docs/conf.py" <<'EOF'
import os, sys
sys.path.insert(0, os.path.abspath(".."))
project = "shop"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.doctest", "sphinx.ext.todo"]
html_theme = "alabaster"
EOF
  : >"$D/shop/__init__.py"
  cat >"$D/shop/cart.py" <<'EOF'
"""Shopping cart."""


def total(items):
    """Sum of prices.

    >>> total([1, 2])
    3
    """
    return sum(items)


def discount(price, pct):
    """Apply a discount.

    Args:
        price: the price
      pct: the percentage

    >>> discount(200, 15)
    170
    """
    return price * (1 - pct / 100)
EOF
  cat >"$D/docs/index.rst" <<'EOF'
Shop
====

.. toctree::
   :maxdepth: 2

   usage
   api/cart
   api/missing
   topic1
   topic2
   topic3
   topic4

See :ref:`install-guide` and :doc:`nowhere`.
EOF
  cat >"$D/docs/usage.rst" <<'EOF'
Usage
=====

.. doctest::

   >>> from shop.cart import total
   >>> total([1, 2, 3])
   7

.. include:: snippets/missing.txt
EOF
  for i in $(seq 1 30); do printf 'Topic %d\n========\n\nSome text about topic %d.\n\n.. doctest::\n\n   >>> %d + 1\n   %d\n' "$i" "$i" "$i" "$((i + 1))" >"$D/docs/topic$i.rst"; done
  printf 'Cart\n====\n\n.. automodule:: shop.cart\n   :members:\n\n.. automodule:: shop.nope\n   :members:\n' >"$D/docs/api/cart.rst"
  V="$(sphinx-build --version)"
  capture python sphinx_html_warnings "$D" "sphinx-build -b html docs _build/html" "$V"
  capture python sphinx_doctest_failing "$D" "sphinx-build -b doctest docs _build/doctest" "$V"
  capture_golden sphinx-build warnings_as_errors "$D" "sphinx-build -W --keep-going -b html docs _build/strict"
fi

if sel doxygen; then
  X="$WORK/doxyshop"
  rm -rf "$X" && mkdir -p "$X/src" "$X/include"
  for m in cart order stock price user audit; do
    cat >"$X/include/$m.h" <<EOF
#ifndef ${m^^}_H
#define ${m^^}_H
/** @file $m.h The $m module. */
struct $m;
/** Creates a $m. @param id its id @return the new $m */
struct $m *${m}_new(int id);
void ${m}_free(struct $m *p);
int ${m}_count(const struct $m *p, int flags);
#endif
EOF
    printf '#include "%s.h"\n#include <stdlib.h>\nstruct %s { int id; };\nstruct %s *%s_new(int id) { struct %s *p = malloc(sizeof *p); p->id = id; return p; }\nvoid %s_free(struct %s *p) { free(p); }\nint %s_count(const struct %s *p, int flags) { return p->id + flags; }\n' \
      "$m" "$m" "$m" "$m" "$m" "$m" "$m" "$m" "$m" >"$X/src/$m.c"
  done
  cat >"$X/include/report.h" <<'EOF'
/** @file report.h Reports. */
/**
 * Prints a report.
 * @param out where to
 * @param nmae the title
 * @return 0 on success
 * @see report_missing
 */
int report_print(void *out, const char *name);
/** @brief Bad command: \frobnicate */
int report_close(void *out);
EOF
  mkdir -p "$X/build"
  printf 'PROJECT_NAME = shop\nINPUT = include src\nRECURSIVE = YES\nOUTPUT_DIRECTORY = build/docs\nGENERATE_LATEX = NO\nEXTRACT_ALL = NO\nWARN_IF_UNDOCUMENTED = YES\nWARN_NO_PARAMDOC = YES\n' >"$X/Doxyfile"
  capture misc doxygen_warnings "$X" "doxygen Doxyfile" "doxygen $(doxygen --version)"
  # Golden: warnings as errors (WARN_AS_ERROR = YES stops at the first warning).
  printf 'PROJECT_NAME = shop\nINPUT = include\nOUTPUT_DIRECTORY = build/strict\nGENERATE_LATEX = NO\nWARN_AS_ERROR = YES\n' >"$X/Doxyfile.strict"
  capture_golden doxygen warn_as_error "$X" "doxygen Doxyfile.strict"
fi

if sel npmlstree; then
  NL="$WORK/npmlsapp"
  rm -rf "$NL" && mkdir -p "$NL"
  printf '{ "name": "npmlsapp", "version": "1.0.0", "private": true }\n' >"$NL/package.json"
  (cd "$NL" && npm install --no-audit --no-fund express@4 commander@12 debug@4 >/dev/null 2>&1)
  capture_golden npm-ls passing "$NL" "npm ls --all"
  # Problems: a dependency declared but not installed, one whose range the installed version
  # does not meet, a package no one depends on.
  python3 - "$NL/package.json" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
p["dependencies"]["commander"] = "^2.0.0"
p["dependencies"]["left-pad"] = "^1.3.0"
json.dump(p, open(sys.argv[1], "w"), indent=2)
EOF
  mkdir -p "$NL/node_modules/stray-helper" && printf '{ "name": "stray-helper", "version": "0.1.0" }\n' >"$NL/node_modules/stray-helper/package.json"
  capture node npm_ls_all_invalid "$NL" "npm ls --all" "npm $(npm --version)"
fi

if sel pipshow; then
  capture python pip_show_files "$WORK" "pip show -f Flask nosuch-package" "$(pip --version | cut -d' ' -f1-2)"
  capture_golden pip-show files "$WORK" "pip show -f Jinja2"
fi

if sel eunit; then
  E="$WORK/eunitshop"
  rm -rf "$E" && mkdir -p "$E/src" "$E/test" "$E/ebin"
  cat >"$E/src/cart.erl" <<'EOF'
-module(cart).
-export([total/1, discount/2, parse_qty/1, tags/1]).
total(Items) -> lists:sum([P * Q || {P, Q} <- Items]).
discount(Price, Pct) -> Price * (100 - Pct) div 100.
parse_qty(Text) -> list_to_integer(Text).
tags(Tags) -> lists:sort(Tags).
EOF
  {
    printf -- '-module(cart_tests).\n-include_lib("eunit/include/eunit.hrl").\n'
    for i in $(seq 1 20); do printf 'total_%d_test() -> ?assertEqual(%d, cart:total([{%d, 1}])).\n' "$i" "$i" "$i"; done
    printf 'discount_test() -> ?assertEqual(169, cart:discount(199, 15)).\n'
    printf 'parse_words_test() -> ?assertEqual(3, cart:parse_qty("three")).\n'
    printf 'tags_test() -> ?assertMatch([a, b, c, d], cart:tags([b, a, c])).\n'
    printf 'slow_test_() -> {timeout, 5, fun() -> ?assert(cart:total([]) =:= 0) end}.\n'
  } >"$E/test/cart_tests.erl"
  (cd "$E" && erlc -o ebin src/cart.erl test/cart_tests.erl)
  OTP="$(erl -noshell -eval 'io:format("~s", [erlang:system_info(otp_release)]), halt().')"
  capture misc eunit_verbose_failing "$E" "erl -noshell -pa ebin -eval 'case eunit:test(cart_tests, [verbose]) of ok -> halt(0); _ -> halt(1) end'" "Erlang/OTP $OTP"
  printf -- '-module(cart_ok_tests).\n-include_lib("eunit/include/eunit.hrl").\n' >"$E/test/cart_ok_tests.erl"
  for i in $(seq 1 12); do printf 'total_%d_test() -> ?assertEqual(%d, cart:total([{%d, 1}])).\n' "$i" "$i" "$i" >>"$E/test/cart_ok_tests.erl"; done
  (cd "$E" && erlc -o ebin test/cart_ok_tests.erl)
  capture_golden eunit passing "$E" "erl -noshell -pa ebin -eval 'eunit:test(cart_ok_tests, [verbose])' -s init stop"
fi

# --- listings (`listings`, or one of `psqldescribe objdump jdeps cargodoc`): tools that list what a
# build or a schema holds, on projects made here. psql's describe commands on a PostgreSQL 15
# cluster started in $WORK on a unix socket (as the postgres user when run as root): four tables
# with checks, foreign keys, partial and GIN indexes, a generated column, a policy, a trigger, a
# statistics object and a view. objdump of a gcc -O2 program and of its object beside a missing
# one. jdeps (OpenJDK 17) of Debian's commons-cli and guice-servlet jars and of two jars built
# here (one using java.sql, java.net.http, java.desktop, java.naming; one whose dependency is not
# on the class path). cargo doc of a two-module crate with 17 rustdoc warnings, plain and with
# `-D warnings`.
if (sel listings || sel psqldescribe) && [ -x /usr/lib/postgresql/15/bin/initdb ]; then
  PG="$WORK/pgdescribe"
  PGBIN=/usr/lib/postgresql/15/bin
  asdb() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/bash -c "$1"; else bash -c "$1"; fi; }
  rm -rf "$PG" && mkdir -p "$PG/sock" && chmod 777 "$PG" "$PG/sock"
  asdb "$PGBIN/initdb -D $PG/data -A trust -U postgres >/dev/null 2>&1 && $PGBIN/pg_ctl -D $PG/data -o '-k $PG/sock -p 54377 -c listen_addresses=' -l $PG/log -w start >/dev/null"
  cat >"$PG/schema.sql" <<'SQL'
CREATE TABLE customers (id bigserial PRIMARY KEY, email text UNIQUE NOT NULL, name text NOT NULL, phone varchar(32), created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz, country char(2) NOT NULL DEFAULT 'US', marketing_opt_in boolean NOT NULL DEFAULT false, notes text);
COMMENT ON TABLE customers IS 'People who buy things';
COMMENT ON COLUMN customers.email IS 'Login and receipt address, lower case';
CREATE TYPE order_status AS ENUM ('new','paid','shipped','cancelled','refunded');
CREATE TABLE orders (id bigserial PRIMARY KEY, customer_id bigint NOT NULL REFERENCES customers(id) ON DELETE CASCADE, status order_status NOT NULL DEFAULT 'new', subtotal numeric(12,2) NOT NULL CHECK (subtotal >= 0), tax numeric(12,2) NOT NULL DEFAULT 0 CHECK (tax >= 0), shipping numeric(12,2) NOT NULL DEFAULT 0, total numeric(12,2) GENERATED ALWAYS AS (subtotal + tax + shipping) STORED, currency char(3) NOT NULL DEFAULT 'USD', placed_at timestamptz NOT NULL DEFAULT now(), shipped_at timestamptz, shipping_address jsonb, billing_address jsonb, coupon_code varchar(40), CONSTRAINT shipped_after_placed CHECK (shipped_at IS NULL OR shipped_at >= placed_at));
CREATE INDEX orders_customer_idx ON orders (customer_id);
CREATE INDEX orders_status_placed_idx ON orders (status, placed_at DESC);
CREATE INDEX orders_open_idx ON orders (placed_at) WHERE status IN ('new','paid');
CREATE TABLE products (id serial PRIMARY KEY, sku varchar(64) UNIQUE NOT NULL, title text NOT NULL, description text, price numeric(10,2) NOT NULL CHECK (price > 0), weight_grams integer, tags text[] NOT NULL DEFAULT '{}', attributes jsonb NOT NULL DEFAULT '{}'::jsonb, active boolean NOT NULL DEFAULT true, search tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce(title,'') || ' ' || coalesce(description,''))) STORED);
CREATE INDEX products_search_idx ON products USING gin (search);
CREATE INDEX products_tags_idx ON products USING gin (tags);
CREATE TABLE order_items (order_id bigint NOT NULL REFERENCES orders(id) ON DELETE CASCADE, product_id integer NOT NULL REFERENCES products(id), quantity integer NOT NULL CHECK (quantity > 0), unit_price numeric(10,2) NOT NULL, discount numeric(5,2) NOT NULL DEFAULT 0, PRIMARY KEY (order_id, product_id));
CREATE FUNCTION touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.updated_at := now(); RETURN NEW; END $$;
CREATE TRIGGER customers_touch BEFORE UPDATE ON customers FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
CREATE VIEW customer_revenue AS SELECT c.id, c.email, count(o.id) AS orders, sum(o.total) AS revenue FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.id, c.email;
ALTER TABLE orders SET (fillfactor = 90);
CREATE POLICY own_orders ON orders USING (customer_id = current_setting('app.customer')::bigint);
ALTER TABLE orders ENABLE ROW LEVEL SECURITY;
CREATE STATISTICS orders_stats (dependencies) ON status, currency FROM orders;
SQL
  PSQL="psql -X -h $PG/sock -p 54377 -U postgres"
  $PSQL -q -f "$PG/schema.sql" >/dev/null
  capture db psql_describe_table "$PG" "$PSQL -c '\\d+ orders'" "$(psql --version)"
  capture db psql_describe_schema "$PG" "$PSQL -c '\\d+ public.*'" "$(psql --version)"
  capture db psql_describe_missing "$PG" "$PSQL -c '\\d+ order_items' -c '\\d+ order_itemz'" "$(psql --version)"
  asdb "$PGBIN/pg_ctl -D $PG/data -m fast stop >/dev/null"
  cd "$ROOT" || exit 1
fi

if (sel listings || sel objdump) && command -v objdump >/dev/null && command -v gcc >/dev/null; then
  O="$WORK/objdump"
  rm -rf "$O" && mkdir -p "$O"
  cat >"$O/ring.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct ring { int *buf; size_t cap, head, len; };
struct ring *ring_new(size_t cap) { struct ring *r = malloc(sizeof *r); r->buf = calloc(cap, sizeof(int)); r->cap = cap; r->head = r->len = 0; return r; }
int ring_push(struct ring *r, int v) { if (r->len == r->cap) return -1; r->buf[(r->head + r->len++) % r->cap] = v; return 0; }
int ring_pop(struct ring *r, int *out) { if (!r->len) return -1; *out = r->buf[r->head]; r->head = (r->head + 1) % r->cap; r->len--; return 0; }
long ring_sum(const struct ring *r) { long s = 0; for (size_t i = 0; i < r->len; i++) s += r->buf[(r->head + i) % r->cap]; return s; }
void ring_free(struct ring *r) { free(r->buf); free(r); }
static int cmp(const void *a, const void *b) { return *(const int*)a - *(const int*)b; }
int ring_median(const struct ring *r) { int *tmp = malloc(r->len * sizeof(int)); for (size_t i = 0; i < r->len; i++) tmp[i] = r->buf[(r->head + i) % r->cap]; qsort(tmp, r->len, sizeof(int), cmp); int m = tmp[r->len/2]; free(tmp); return m; }
int main(int argc, char **argv) { struct ring *r = ring_new(argc > 1 ? atoi(argv[1]) : 16); for (int i = 0; i < 40; i++) ring_push(r, i * 7 % 13); int v; ring_pop(r, &v); printf("%ld %d %s\n", ring_sum(r), ring_median(r), strerror(0)); ring_free(r); return 0; }
EOF
  (cd "$O" && gcc -O2 -o ring ring.c && gcc -O2 -c ring.c)
  capture native objdump_disassemble "$O" "objdump -d ring" "$(objdump --version | head -1)"
  capture native objdump_missing_input "$O" "objdump -dr ring.o missing.o" "$(objdump --version | head -1)"
fi

if (sel listings || sel jdeps) && command -v jdeps >/dev/null; then
  J="$WORK/jdeps"
  rm -rf "$J" && mkdir -p "$J/src/com/acme/shop/api" "$J/src/com/acme/shop/store" "$J/src/com/acme/shop/util" "$J/src2/com/acme/report" "$J/lib"
  cat >"$J/src/com/acme/shop/api/OrderClient.java" <<'EOF'
package com.acme.shop.api;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.logging.Logger;
import com.acme.shop.util.Json;
public class OrderClient {
  private static final Logger LOG = Logger.getLogger("orders");
  private final HttpClient http = HttpClient.newHttpClient();
  public String fetch(String id) throws Exception {
    HttpRequest req = HttpRequest.newBuilder(URI.create("http://localhost/orders/" + id)).build();
    HttpResponse<String> res = http.send(req, HttpResponse.BodyHandlers.ofString());
    LOG.info("status " + res.statusCode());
    return Json.pretty(res.body());
  }
}
EOF
  cat >"$J/src/com/acme/shop/store/OrderStore.java" <<'EOF'
package com.acme.shop.store;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import javax.naming.InitialContext;
import javax.sql.DataSource;
public class OrderStore {
  private final ConcurrentHashMap<String, String> cache = new ConcurrentHashMap<>();
  public List<String> ids(String url) throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url); PreparedStatement st = c.prepareStatement("select id from orders"); ResultSet rs = st.executeQuery()) {
      while (rs.next()) out.add(rs.getString(1));
    }
    return out;
  }
  public DataSource lookup() throws Exception { return (DataSource) new InitialContext().lookup("java:comp/env/jdbc/shop"); }
}
EOF
  cat >"$J/src/com/acme/shop/util/Json.java" <<'EOF'
package com.acme.shop.util;
import java.util.Base64;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.Arrays;
import javax.xml.parsers.DocumentBuilderFactory;
import java.awt.Color;
public final class Json {
  private static final Pattern WS = Pattern.compile("\\s+");
  public static String pretty(String s) { return Arrays.stream(WS.split(s)).collect(Collectors.joining(" ")); }
  public static String b64(String s) { return Base64.getEncoder().encodeToString(s.getBytes()); }
  public static Object xml() throws Exception { return DocumentBuilderFactory.newInstance().newDocumentBuilder(); }
  public static Color red() { return Color.RED; }
}
EOF
  cat >"$J/src2/com/acme/report/Report.java" <<'EOF'
package com.acme.report;
import com.acme.shop.store.OrderStore;
public class Report { public int count() throws Exception { return new OrderStore().ids("jdbc:x").size(); } }
EOF
  (
    cd "$J" && javac -d out $(find src -name '*.java') && jar cf lib/shop.jar -C out . &&
      javac -cp out -d out2 src2/com/acme/report/Report.java && jar cf lib/report.jar -C out2 . &&
      cp /usr/share/java/commons-cli.jar lib/commons-cli-1.5.0.jar &&
      cp /usr/share/java/guice-servlet.jar lib/guice-servlet-4.2.3.jar
  )
  JDEPS="jdeps $(jdeps --version 2>/dev/null) (OpenJDK 17)"
  capture jvm jdeps_verbose_class "$J" "jdeps -verbose:class lib/commons-cli-1.5.0.jar" "jdeps $(jdeps --version 2>/dev/null) (OpenJDK 17, Debian default-jdk-headless), commons-cli 1.5.0 from Debian's /usr/share/java"
  capture jvm jdeps_verbose_modules "$J" "jdeps -verbose:class lib/shop.jar" "$JDEPS"
  capture jvm jdeps_package_not_found "$J" "jdeps -verbose:package lib/guice-servlet-4.2.3.jar" "$JDEPS, guice-servlet 4.2.3 from Debian's /usr/share/java"
  capture jvm jdeps_print_module_deps_missing "$J" "jdeps --print-module-deps lib/report.jar" "$JDEPS"
fi

if (sel listings || sel cargodoc) && command -v cargo >/dev/null; then
  R="$WORK/cargodoc"
  rm -rf "$R" && mkdir -p "$R/src"
  cat >"$R/Cargo.toml" <<'EOF'
[package]
name = "ledger"
version = "0.3.1"
edition = "2021"

[dependencies]
EOF
  cat >"$R/src/lib.rs" <<'EOF'
//! Double-entry ledger. See [`Journal::post`] and [`Account::balance`], and [`Book`].
pub mod money;
/// An account in the chart of accounts; see [`AccountKind`] and [`crate::money::Amount`].
pub struct Account { pub name: String, pub kind: AccountKind, entries: Vec<i64> }
/// What an account holds. Mirrors [`Kind`] in the old API.
#[derive(Clone, Copy, Debug)]
pub enum AccountKind { Asset, Liability, Equity, Income, Expense }
impl Account {
    /// Sum of entries. Uses [`Self::entries_iter`], panics like [`std::vec::Vec::frobnicate`].
    pub fn balance(&self) -> i64 { self.entries.iter().sum() }
    /// Adds an entry; see [`Journal::record`].
    pub fn push(&mut self, v: i64) { self.entries.push(v) }
}
/// A journal of postings. Posting rules live in [`rules`] and [`crate::rules::Rule`].
pub struct Journal { accounts: Vec<Account> }
impl Journal {
    /// Posts an amount from one account to another, like [`Ledger::transfer`].
    /// Returns an error as described in [Errors](#errors-section) and [`PostError`].
    pub fn post(&mut self, from: usize, to: usize, amount: i64) -> Result<(), String> {
        self.accounts[from].push(-amount); self.accounts[to].push(amount); Ok(())
    }
    /// Private helper mentioned from public docs: [`Journal::check`].
    fn check(&self) -> bool { true }
    /// Totals; compare [`money::Amount::zero`] and [`money::Currency::Eur`].
    pub fn total(&self) -> i64 { self.accounts.iter().map(Account::balance).sum() }
    /// Links to <https://example.com> fine, but http://example.com/bare is a bare URL.
    pub fn len(&self) -> usize { self.accounts.len() }
    /// Ambiguous: [`money`] vs [money()].
    pub fn is_empty(&self) -> bool { self.accounts.is_empty() }
}
/// Fine link to [`Journal`].
pub fn money() {}
/// Broken generic in docs: Vec<Account> is not escaped.
pub fn accounts() -> Vec<Account> { vec![] }
EOF
  cat >"$R/src/money.rs" <<'EOF'
//! Money amounts. See [`Amount`], [`Currency`] and [`Rates::convert`].
/// An amount in minor units; see [`Amount::zero`] and [`Amount::from_major`].
#[derive(Clone, Copy, Debug)]
pub struct Amount(pub i64);
impl Amount {
    /// Zero, the [`Default`] of [`Amount`]; unlike [`Amount::none`].
    pub fn zero() -> Self { Amount(0) }
    /// Parses like [`str::parse_money`] and [`crate::Journal::post_all`].
    pub fn from_major(v: i64) -> Self { Amount(v * 100) }
}
/// A currency; [`Currency::Usd`] is the default and [`Currency::Gbp`] the odd one.
#[derive(Clone, Copy, Debug)]
pub enum Currency { Usd, Eur }
EOF
  capture cargo cargo_doc_broken_links "$R" "cargo doc --offline --no-deps" "$(cargo --version)"
  capture cargo cargo_doc_deny_warnings "$R" "RUSTDOCFLAGS=\"-D warnings\" cargo doc --offline --no-deps" "$(cargo --version)"
fi

# knip (`listings` or `knip`): knip 6 (npm, in `ZEPH_CORPUS_NPM` with typescript and vite) on a vite
# project of 48 files: 40 widgets (the first ten imported by main.ts, 15-40 by a pages module, 11-14
# by nothing; each with an unused export, 15-40 with unused types and a class too), a format
# module with unused exports, two unused modules, and a module importing a package not in
# package.json and a file that does not exist.
if sel listings || sel knip; then
  NPMDIR="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}"
  mkdir -p "$NPMDIR"
  # knip loads vite.config.ts (vite) and resolves the imports of the packages main.ts uses.
  [ -x "$NPMDIR/node_modules/.bin/knip" ] && [ -x "$NPMDIR/node_modules/.bin/vite" ] ||
    (cd "$NPMDIR" && npm install --no-audit --no-fund knip@6 typescript@5 vite@8 zod@3 classnames@2 lodash@4 dayjs@1 >/dev/null 2>&1)
  K="$WORK/knip"
  rm -rf "$K" && mkdir -p "$K/src/components" "$K/src/lib" "$K/src/pages"
  ln -s "$NPMDIR/node_modules" "$K/node_modules"
  cat >"$K/package.json" <<'EOF'
{ "name": "shop-web", "version": "0.2.0", "private": true, "type": "module",
  "scripts": { "build": "tsc -b && vite build" },
  "dependencies": { "lodash": "^4.17.21", "zod": "^3.23.8", "dayjs": "^1.11.0", "classnames": "^2.5.1" },
  "devDependencies": { "typescript": "^5.9.3", "vite": "^7.0.0", "knip": "^5.0.0", "prettier": "^3.0.0", "eslint": "^9.0.0" } }
EOF
  echo '{ "files": [], "references": [{ "path": "./tsconfig.app.json" }] }' >"$K/tsconfig.json"
  echo '{ "compilerOptions": { "composite": true, "target": "ES2022", "module": "ESNext", "moduleResolution": "bundler", "strict": true, "noEmit": false, "outDir": "build-tsc", "declaration": true, "skipLibCheck": true, "lib": ["ES2022","DOM"] }, "include": ["src"] }' >"$K/tsconfig.app.json"
  echo '<!doctype html><html><body><div id="app"></div><script type="module" src="/src/main.ts"></script></body></html>' >"$K/index.html"
  cat >"$K/vite.config.ts" <<'EOF'
import { defineConfig } from "vite";
export default defineConfig({ build: { rollupOptions: { output: { manualChunks: (id) => id.includes("/lib/data") ? "data-" + (id.match(/data(\d+)/)![1]) : undefined } } } });
EOF
  for i in $(seq 1 40); do
    {
      echo "export interface Widget${i}Props { id: string; label: string; size?: number }"
      if [ "$i" -ge 15 ]; then
        echo "export type Widget${i}Size = \"s\" | \"m\" | \"l\";"
        echo "export enum Widget${i}Mode { Inline, Block }"
      fi
      echo "export function renderWidget${i}(p: Widget${i}Props): string { return \`<div id=\"\${p.id}\" class=\"w${i}\">\${p.label}\${\"x\".repeat(p.size ?? ${i})}</div>\`; }"
      echo "export const WIDGET${i}_DEFAULTS: Widget${i}Props = { id: \"w${i}\", label: \"Widget ${i}\" };"
      echo "export function unusedHelper${i}(n: number): number { return n * ${i}; }"
      if [ "$i" -ge 15 ]; then
        echo "export class Widget${i}Store { items: string[] = []; add(s: string) { this.items.push(s); } clear() { this.items = []; } }"
      fi
    } >"$K/src/components/widget$i.ts"
  done
  for i in $(seq 15 40); do
    echo "import { renderWidget${i}, WIDGET${i}_DEFAULTS } from \"../components/widget${i}\";"
    echo "export const page${i} = renderWidget${i}(WIDGET${i}_DEFAULTS);"
  done >"$K/src/pages/all.ts"
  {
    echo 'import { money } from "./lib/format";'
    for i in $(seq 1 10); do echo "import { renderWidget${i}, WIDGET${i}_DEFAULTS } from \"./components/widget${i}\";"; done
    echo 'import cn from "classnames";'
    echo 'import { z } from "zod";'
    echo 'const Order = z.object({ total: z.number() });'
    echo 'const app = document.getElementById("app")!;'
    printf '%s' 'app.innerHTML = cn("root") + money(Order.parse({ total: 1234 }).total)'
    for i in $(seq 1 10); do printf ' + renderWidget%d(WIDGET%d_DEFAULTS)' "$i" "$i"; done
    echo ';'
    echo 'import * as pages from "./pages/all"; console.log(Object.keys(pages).length);'
    echo 'import "./lib/broken";'
  } >"$K/src/main.ts"
  cat >"$K/src/lib/format.ts" <<'EOF'
export function money(cents: number): string { return `$${(cents / 100).toFixed(2)}`; }
export function percent(x: number): string { return `${Math.round(x * 100)}%`; }
export type Currency = "USD" | "EUR";
export enum Tone { Calm, Loud }
export default function fmt(x: unknown) { return String(x); }
EOF
  echo 'export function fetchLegacy() { return fetch("/legacy"); }' >"$K/src/lib/legacy_api.ts"
  echo 'export const STALE = 1;' >"$K/src/lib/stale.ts"
  echo "import { gone } from  './lib/missing_module'; import axios from 'axios'; console.log(gone, axios);" >"$K/src/lib/broken.ts"
  PATH="$NPMDIR/node_modules/.bin:$PATH" capture node knip_unused "$K" "knip" "knip $("$NPMDIR/node_modules/.bin/knip" --version 2>/dev/null) (npm), typescript $("$NPMDIR/node_modules/.bin/tsc" --version 2>/dev/null | sed 's/^Version //')"
  cd "$ROOT" || exit 1
fi

# --- floods of findings (`floods`): one message at many places. mypy --strict (Debian's mypy 1.0)
# over a package whose generated-looking module has forty untyped handlers and whose typed module
# repeats two mistakes in twelve functions; tsc --pretty false (the project's TypeScript) over four
# files that each repeat the same four errors eight times; eslint over ten services and
# yamllint over eight deployments written alike.
if sel floods; then
  F="$WORK/floods"
  rm -rf "$F" && mkdir -p "$F/mypy/inventory" "$F/tsc/src"
  python3 - "$F" <<'EOF2'
import sys
root = sys.argv[1]
handlers = "".join(f"def handle_{i}(event, ctx):\n    return event.get('k{i}')\n\n" for i in range(40))
open(f"{root}/mypy/inventory/handlers.py", "w").write(handlers)
open(f"{root}/mypy/inventory/__init__.py", "w").write("")
pricing = ["from inventory.handlers import handle_0, handle_1\n\n"]
for i in range(12):
    pricing.append(f"def price_{i}(qty: int) -> int:\n    label: str = qty\n    return label\n\n")
pricing.append("def run() -> None:\n    handle_0({}, None)\n    handle_1({}, None)\n")
open(f"{root}/mypy/inventory/pricing.py", "w").write("".join(pricing))
for name in ["orders", "users", "billing", "stock"]:
    src = ["export interface Row { id: number; name: string }\n"]
    for i in range(8):
        src.append(f"export function {name}{i}(rows, key) {{\n  const r: Row = {{ id: String(rows.length), name: key }};\n  return r.nmae;\n}}\n")
    open(f"{root}/tsc/src/{name}.ts", "w").write("".join(src))
EOF2
  echo '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022", "module": "esnext", "moduleResolution": "bundler" }, "include": ["src"] }' >"$F/tsc/tsconfig.json"
  # eslint 9 with typescript-eslint's type-aware rules (npm) over ten services written alike:
  # each file repeats the same few findings once per function.
  mkdir -p "$F/eslint/src"
  (cd "$F/eslint" && npm init -y >/dev/null && npm install --no-fund --no-audit eslint@9.39.5 typescript-eslint@8.74.0 typescript@6.0.3 >/dev/null 2>&1)
  cat >"$F/eslint/eslint.config.mjs" <<'EOF2'
import tseslint from "typescript-eslint";
export default tseslint.config(
  ...tseslint.configs.recommendedTypeChecked,
  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } },
  { rules: { eqeqeq: "error", "no-console": "warn", "prefer-const": "error" } },
);
EOF2
  echo '{ "compilerOptions": { "strict": true, "target": "es2022", "module": "esnext", "moduleResolution": "bundler", "noEmit": true }, "include": ["src"] }' >"$F/eslint/tsconfig.json"
  python3 - "$F/eslint/src" <<'EOF2'
import sys
names = ["accounts", "audit", "billing", "cache", "catalog", "checkout", "coupons", "emails", "orders", "users"]
for j, n in enumerate(names):
    t = n.title()
    parts = [f"// {n} service\n"]
    for i in range(2 + j % 3):
        parts.append(f"export async function load{t}{i}(id: number): Promise<string> {{\n  return Promise.resolve(String(id));\n}}\n")
        parts.append(f"export function use{t}{i}(raw: any) {{\n  let count = raw.items.length;\n  const label = raw.name;\n  if (count == {i}) console.log(label);\n  load{t}{i}(count);\n  return label;\n}}\n")
    if j % 4 == 1:
        parts.append(f"export const {n}Handlers = [1, 2].map(async (x) => x);\n")
    open(f"{sys.argv[1]}/{n}.ts", "w").write("".join(parts))
EOF2
  PATH="$F/eslint/node_modules/.bin:$PATH" capture node eslint_type_aware_flood "$F/eslint" "eslint src" "eslint $("$F/eslint/node_modules/.bin/eslint" --version)"
  # yamllint (Debian's 1.29) over eight deployment files written from one template.
  mkdir -p "$F/yaml/deploy"
  python3 - "$F/yaml/deploy" <<'EOF2'
import sys
for i, s in enumerate(["api", "auth", "billing", "cron", "gateway", "mailer", "search", "worker"]):
    y = f"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n    name: {s}\n    labels: {{app: {s}, tier: backend }}\nspec:\n  replicas: {i + 1}   \n  template:\n    spec:\n      containers:\n        - name: {s}\n          image: registry.local/{s}:1.{i}\n          env:\n            - {{name: MODE, value: prod}}\n            - {{name: REGION,   value: eu}}\n          ports: [ 8080 ]\n"
    if i % 3 == 0:
        y += "      restartPolicy: yes\n"
    open(f"{sys.argv[1]}/{s}.yaml", "w").write(y)
EOF2
  capture lint yamllint_template_flood "$F/yaml" "yamllint deploy" "$(yamllint --version)"
  capture lint mypy_strict_untyped_flood "$F/mypy" "mypy --strict inventory" "$(mypy --version)"
  PATH="$ROOT/node_modules/.bin:$PATH" capture node tsc_pretty_false_flood "$F/tsc" "tsc -p . --pretty false" "tsc $("$ROOT/node_modules/.bin/tsc" --version)"
fi

# --- rules19: families that had no rule (checkstyle, TypeDoc, Dart Sass). Selectors: checkstyle
# typedoc sass. Each gives a corpus case and real runs kept as the rule's goldens
# (capture_golden). typedoc, typescript and sass come from npm (ZEPH_CORPUS_NPM).
if sel checkstyle; then
  K="$WORK/checkshop"
  P="$K/src/main/java/com/acme/shop"
  rm -rf "$K" && mkdir -p "$P"
  cat >"$P/Cart.java" <<'EOF2'
package com.acme.shop;

import java.util.*;
import java.io.File;

public class Cart {
    private List<Item> items = new ArrayList<>();
    public int MAX_ITEMS = 100;
    protected String owner_name;

    public Cart(String owner_name) {
        this.owner_name = owner_name;
    }

    public void add(Item item) {
        if (items.size() >= MAX_ITEMS) throw new IllegalStateException("full");
        items.add(item);
    }

    public double total(double discount) {
        double t = 0;
        for (Item i : items) { t += i.price * i.qty; }
        if (discount > 0.5) return t * 0.5;
        return t * (1 - discount);
    }

    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (Item i : items) sb.append(i.name + " x" + i.qty + " @ " + i.price + " = " + (i.price * i.qty) + "; ");
        return sb.toString();
    }
}
EOF2
  cat >"$P/Item.java" <<'EOF2'
package com.acme.shop;

public class Item {
    public String name;
    public int qty;
    public double price;

    public Item(String name, int qty, double price) {
        this.name = name; this.qty = qty; this.price = price;
    }

    public boolean equals(Object o) {
        if (!(o instanceof Item)) return false;
        Item other = (Item)o;
        return name.equals(other.name);
    }
}
EOF2
  cat >"$P/Inventory.java" <<'EOF2'
package com.acme.shop;

import java.util.HashMap;
import java.util.Map;

public class Inventory
{
    private final Map<String,Integer> stock = new HashMap<>();

    public void put(String sku, int n)
    {
        stock.put(sku, n);
    }

    public int get(String sku)
    {
        Integer n = stock.get(sku);
        if (n == null) { return 0; }
        return n;
    }

    public boolean reserve(String sku, int n)
    {
        int have = get(sku);
        if (have < n) return false;
        stock.put(sku, have - n);
        return true;
    }

    public void restock(String sku, int n, int max, boolean force, String reason, long when, String who, int batch)
    {
        int cur = get(sku);
        if (cur + n > max && !force) { throw new IllegalArgumentException("over max " + max + " for " + sku + " by " + who + " at " + when); }
        stock.put(sku, cur + n);
    }
}
EOF2
  cat >"$P/Pricing.java" <<'EOF2'
package com.acme.shop;

public final class Pricing {
    public static double tax(double amount) { return amount * 0.2; }
    public static double shipping(double weight) {
        if (weight < 1) return 4.99;
        else if (weight < 5) return 9.99;
        else return 19.99;
    }
    public static int round(double v) { return (int) Math.round(v * 100); }
}
EOF2
  V="$(checkstyle --version 2>&1 | head -1)"
  capture lint checkstyle_sun "$K" "checkstyle -c /sun_checks.xml src/main/java" "$V"
  # Goldens: google_checks' [WARN] floods (exit 0), and a file checkstyle cannot parse.
  capture_golden checkstyle google "$K" "checkstyle -c /google_checks.xml src/main/java"
  cat >"$P/Broken.java" <<'EOF2'
package com.acme.shop;

public class Broken {
    public void run() {
        int x = 1
        System.out.println(x);
    }
}
EOF2
  capture_golden checkstyle parse_error "$K" "checkstyle -c /google_checks.xml src/main/java"
fi

if sel typedoc; then
  NPMDIR="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}"
  [ -x "$NPMDIR/node_modules/.bin/typedoc" ] || (cd "$NPMDIR" && npm install --no-audit --no-fund typedoc@0.28 typescript@5 >/dev/null 2>&1)
  D="$WORK/shopdocs"
  rm -rf "$D" && mkdir -p "$D/src"
  ln -s "$NPMDIR/node_modules" "$D/node_modules"
  echo '{"name":"shop-api","version":"1.0.0","private":true}' >"$D/package.json"
  echo '{ "compilerOptions": { "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler", "strict": true, "declaration": true }, "include": ["src"] }' >"$D/tsconfig.json"
  cat >"$D/src/index.ts" <<'EOF2'
/**
 * The shop's public API.
 * @packageDocumentation
 */
export { Cart } from "./cart";
export { priceOf, type PriceOptions } from "./pricing";
export { Inventory } from "./inventory";
export { formatMoney } from "./format";
export { restock } from "./inventory";
EOF2
  cat >"$D/src/cart.ts" <<'EOF2'
import type { Item } from "./item";
import { priceOf } from "./pricing";

/**
 * A shopping cart. Use {@link Cart.add} to add items and {@link Cart.totl} for the total.
 * See also {@link Checkout} and {@link Inventory.reserve}.
 */
export class Cart {
  private items: Item[] = [];
  /** Adds an item. Throws {@link CartFullError} when full. */
  add(item: Item): void {
    this.items.push(item);
  }
  /**
   * The total price, see {@link priceOf}.
   * @param discount the discount {@link Discount}
   */
  total(discount = 0): number {
    return this.items.reduce((t, i) => t + priceOf(i), 0) * (1 - discount);
  }
  /** Items as a list. @returns {@link ItemList} */
  list(): Item[] {
    return [...this.items];
  }
  /** @deprecated use {@link Cart.list} @see {@link OldCart} */
  all(): Item[] {
    return this.items;
  }
}
EOF2
  cat >"$D/src/item.ts" <<'EOF2'
/** An item in the cart. */
export interface Item {
  /** Stock keeping unit. */
  sku: string;
  qty: number;
  price: number;
  tags?: Tag[];
}
export interface Tag { name: string }
EOF2
  cat >"$D/src/pricing.ts" <<'EOF2'
import type { Item } from "./item";
import type { Currency } from "./currency";
export interface PriceOptions { currency: Currency; rounding: Rounding }
type Rounding = "up" | "down";
/** Price of one line, see {@link PriceOptions.currncy} and {@link roundTo}. */
export function priceOf(item: Item, opts?: PriceOptions): number {
  return item.qty * item.price;
}
EOF2
  cat >"$D/src/currency.ts" <<'EOF2'
export type Currency = "EUR" | "USD";
EOF2
  cat >"$D/src/inventory.ts" <<'EOF2'
import type { Item } from "./item";
/** Stock levels. {@link Warehouse} holds them. */
export class Inventory {
  /** Reserve. See {@link Inventory.release} and {@link Stock}. */
  reserve(item: Item): boolean { return item.qty > 0; }
  /** @param item {@link Missing} */
  release(item: Item): void {}
}
/**
 * Restocks.
 * @remark wrong tag
 * @params amount
 */
export function restock(inv: Inventory, amount: number): void {}
EOF2
  cat >"$D/src/format.ts" <<'EOF2'
import type { Currency } from "./currency";
/** Formats an amount. {@link Locale} picks the separators; see {@link formatMony}. */
export function formatMoney(amount: number, currency: Currency): string {
  return `${amount.toFixed(2)} ${currency}`;
}
EOF2
  # Six services whose comments link to names that do not exist and whose members have no comment.
  python3 - "$D/src" <<'EOF2'
import sys
names = ["orders", "payments", "shipping", "returns", "coupons", "reviews"]
for n in names:
    t = n.title()
    open(f"{sys.argv[1]}/{n}.ts", "w").write(
        f"/** {t}. See {{@link {t}Store}} and {{@link {t}Service.fetchAll}}. */\n"
        f"export class {t}Service {{\n"
        f"  /** Loads one. Throws {{@link {t}NotFound}}. */\n  load(id: string): string {{ return id; }}\n"
        f"  save(id: string, body: string): void {{}}\n  remove(id: string): boolean {{ return true; }}\n"
        f"  count: number = 0;\n}}\n")
    with open(f"{sys.argv[1]}/index.ts", "a") as index:
        index.write(f'export {{ {t}Service }} from "./{n}";\n')
EOF2
  V="typedoc $(cd "$D" && npx typedoc --version | head -1)"
  capture node typedoc_validation "$D" "npx typedoc src/index.ts --out docs --validation.notDocumented" "$V"
  capture_golden typedoc-links links "$D" "npx typedoc src/index.ts --out docs"
  capture_golden typedoc-undocumented no_links "$D" "npx typedoc src/index.ts --out docs --validation.notDocumented --validation.invalidLink false"
  # Golden: a type error stops it (exit 3), with the compiler's frames.
  printf 'export function pad(s: string, n: number): string {\n  const width: string = n;\n  return s.padEnd(width);\n}\n' >>"$D/src/format.ts"
  capture_golden typedoc ts_error "$D" "npx typedoc src/index.ts --out docs --treatWarningsAsErrors"
fi

if sel sass; then
  NPMDIR="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}"
  [ -x "$NPMDIR/node_modules/.bin/sass" ] || (cd "$NPMDIR" && npm install --no-audit --no-fund sass@1 >/dev/null 2>&1)
  S="$WORK/sassapp"
  rm -rf "$S" && mkdir -p "$S/scss/components"
  ln -s "$NPMDIR/node_modules" "$S/node_modules"
  printf '$primary: #3366cc;\n$gutter: 16px;\n$sizes: (small: 12px, medium: 16px, large: 24px);\n' >"$S/scss/_vars.scss"
  printf '@import "vars";\n' >"$S/scss/main.scss"
  for c in button card modal nav tabs badge; do
    cat >"$S/scss/components/_$c.scss" <<EOF2
@import "../vars";
.$c {
  color: darken(\$primary, 10%);
  padding: \$gutter/2;
  font-size: map-get(\$sizes, medium);
  &:hover { background: lighten(\$primary, 20%); }
  margin: percentage(0.5);
}
EOF2
    printf '@import "components/%s";\n' "$c" >>"$S/scss/main.scss"
  done
  printf 'body { margin: $gutter * 2; }\n' >>"$S/scss/main.scss"
  V="sass $(cd "$S" && npx sass --version)"
  # Golden: sass's own cut (five of a kind, then `N repetitive deprecation warnings omitted`).
  capture_golden sass-deprecations default "$S" "npx sass scss/main.scss out.css"
  # The corpus case: every deprecation (--verbose), then an undefined variable stops it.
  sed -i 's/^  font-size: map-get(\$sizes, medium);$/&\n  border: $border-width solid;/' "$S/scss/components/_tabs.scss"
  capture node sass_verbose_error "$S" "npx sass --verbose scss/main.scss out.css" "$V"
  # Golden: the same error with the deprecations silenced.
  capture_golden sass silenced_error "$S" "npx sass --silence-deprecation=import,global-builtin,color-functions,slash-div scss/main.scss out.css"
fi

# xmllint (Debian's libxml2-utils) validating 24 orders against a schema: three are invalid, one
# does not parse. Selector: xmllint.
if sel xmllint; then
  X="$WORK/orders-xml"
  rm -rf "$X" && mkdir -p "$X/data"
  cat >"$X/order.xsd" <<'EOF2'
<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="order">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="id" type="xs:positiveInteger"/>
        <xs:element name="customer" type="xs:string"/>
        <xs:element name="line" maxOccurs="unbounded">
          <xs:complexType>
            <xs:attribute name="sku" type="xs:string" use="required"/>
            <xs:attribute name="qty" type="xs:positiveInteger" use="required"/>
          </xs:complexType>
        </xs:element>
      </xs:sequence>
      <xs:attribute name="currency" type="xs:string" use="required"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
EOF2
  for i in $(seq 1 24); do printf '<?xml version="1.0"?>\n<order currency="EUR">\n  <id>%d</id>\n  <customer>c%d</customer>\n  <line sku="A-%d" qty="2"/>\n</order>\n' "$i" "$i" "$i" >"$X/data/order-$(printf %02d "$i").xml"; done
  V="$(xmllint --version 2>&1 | head -1)"
  printf '<?xml version="1.0"?>\n<order>\n  <id>0</id>\n  <customer>x</customer>\n  <line sku="B" qty="-1"/>\n</order>\n' >"$X/data/order-07.xml"
  printf '<?xml version="1.0"?>\n<order currency="USD">\n  <id>13</id>\n  <client>y</client>\n</order>\n' >"$X/data/order-13.xml"
  printf '<?xml version="1.0"?>\n<order currency="USD">\n  <id>19</id>\n  <customer>z</customer>\n  <line sku="C" qty="1">\n</order>\n' >"$X/data/order-19.xml"
  capture lint xmllint_schema "$X" "xmllint --noout --schema order.xsd data/*.xml" "$V"
fi

# puppet-lint (Debian's puppet-lint) on a control repository's site profiles: twelve manifests
# sharing the same habits (undocumented classes, double-quoted strings without variables,
# unaligned arrows, unquoted modes), three with hard tabs and trailing whitespace (ERRORs), one
# with an unterminated string. Selector: puppet.
if sel puppet && command -v puppet-lint >/dev/null; then
  P="$WORK/puppet-site"
  rm -rf "$P" && mkdir -p "$P/site/profile/manifests/app" "$P/site/profile/manifests/base" "$P/site/role/manifests"
  for n in api worker scheduler frontend; do
    cat >"$P/site/profile/manifests/app/$n.pp" <<EOF2
class profile::app::$n (
  String \$version = "1.4.2",
  Integer \$port = 8080,
  \$user = "deploy"
) {
  package { "orders-$n":
    ensure => \$version,
  }
  file { "/etc/orders/$n.yaml":
    ensure => file,
    owner => \$user,
    mode => 640,
    content => template("profile/app/$n.yaml.erb"),
    notify => Service["orders-$n"],
  }
  service { "orders-$n":
    ensure => running,
    enable => true,
  }
  if \$port == 443 { \$scheme = "https" } else { \$scheme = "http" }
}
EOF2
  done
  for n in ntp ssh users motd sysctl firewall logrotate packages; do
    cat >"$P/site/profile/manifests/base/$n.pp" <<EOF2
# @summary Base $n settings.
class profile::base::$n {
  file { "/etc/$n.d":
    ensure => directory,
    mode   => "0755",
  }
  exec { "refresh-$n":
    command => "/usr/local/bin/refresh-$n",
    refreshonly => true,
    path => ['/usr/bin', '/bin'],
  }
}
EOF2
  done
  # Hard tabs and trailing whitespace in three of them.
  for n in ssh motd sysctl; do
    printf '\tnotify { "base $n loaded": }  \n' >>"$P/site/profile/manifests/base/$n.pp"
  done
  printf 'class role::orders {\n  include profile::base::ntp\n  include profile::app::api\n  $greeting = "unterminated\n}\n' >"$P/site/role/manifests/orders.pp"
  V="$(puppet-lint --version)"
  capture lint puppet_lint_site "$P" "puppet-lint --relative site" "$V"
  capture_golden puppet-lint base_profiles "$P" "puppet-lint site/profile/manifests/base"
  capture_golden puppet-lint-file one_manifest "$P" "puppet-lint --with-context site/profile/manifests/app/api.pp"
  capture_golden puppet-lint clean "$P" "puppet-lint --only-checks syntax site/profile/manifests/base"
fi

# OpenAPI linters (npm @stoplight/spectral-cli 6, @redocly/cli 2) on a lending library's API: 24
# operations that lack descriptions, tags and summaries, path parameters left undeclared,
# duplicate operationIds, an example of the wrong type in each schema and a $ref to a schema
# that does not exist. Selector: openapi.
if sel openapi; then
  NPMDIR="${ZEPH_CORPUS_NPM:-/tmp/zeph-corpus-npm}"
  mkdir -p "$NPMDIR"
  [ -x "$NPMDIR/node_modules/.bin/spectral" ] && [ -x "$NPMDIR/node_modules/.bin/redocly" ] ||
    (cd "$NPMDIR" && npm install --no-audit --no-fund @stoplight/spectral-cli@6 @redocly/cli@2 >/dev/null 2>&1)
  O="$WORK/library-api"
  rm -rf "$O" && mkdir -p "$O"
  ln -s "$NPMDIR/node_modules" "$O/node_modules"
  python3 - "$O/openapi.yaml" <<'EOF2'
import sys
things = ["books", "authors", "members", "loans", "branches", "holds"]
out = ["openapi: 3.0.3", "info:", "  title: Library API", "  version: 2.1.0", "servers:",
       "  - url: https://library.test/api", "paths:"]
for i, r in enumerate(things):
    one = r[:-1].title()
    out += [f"  /{r}:", "    get:", f"      summary: List {r}", "      parameters:",
            "        - name: page", "          in: query", "          schema:", "            type: integer",
            "      responses:", "        '200':", "          description: A page of " + r, "          content:",
            "            application/json:", "              schema:", "                type: array",
            "                items:", f"                  $ref: '#/components/schemas/{one}'",
            "    post:", f"      operationId: add{one}", "      requestBody:", "        content:",
            "          application/json:", "            schema:", f"              $ref: '#/components/schemas/{one}'",
            "      responses:", "        '201':", "          description: Added"]
    out += [f"  /{r}/{{{r[:-1]}Id}}:", "    get:", f"      operationId: get{one}", f"      tags: [{r}]",
            "      responses:", "        '200':", "          description: Found", "          content:",
            "            application/json:", "              schema:", f"                $ref: '#/components/schemas/{one}'",
            "    put:", f"      operationId: {'get' if i % 2 == 0 else 'replace'}{one}", "      responses:",
            "        '200':", "          description: Replaced"]
out += ["components:", "  schemas:"]
for r in things:
    one = r[:-1].title()
    out += [f"    {one}:", "      type: object", "      properties:", "        id:", "          type: string",
            "        updatedAt:", "          type: string", "          format: date-time",
            "        copies:", "          type: integer", "          example: several"]
out += ["        branch:", "          $ref: '#/components/schemas/Branchh'", "    Legacy:", "      type: object"]
open(sys.argv[1], "w").write("\n".join(out) + "\n")
EOF2
  printf 'extends: ["spectral:oas"]\n' >"$O/.spectral.yaml"
  V="spectral $(cd "$O" && npx spectral --version)"
  capture lint spectral_library_api "$O" "npx spectral lint openapi.yaml" "$V"
  capture_golden spectral library_api "$O" "npx spectral lint openapi.yaml --format stylish"
  V="redocly $(cd "$O" && NO_COLOR=1 npx redocly --version 2>/dev/null | tail -1)"
  capture lint redocly_stylish_library_api "$O" "NO_COLOR=1 npx redocly lint openapi.yaml --format=stylish" "$V"
  capture lint redocly_codeframe_library_api "$O" "NO_COLOR=1 npx redocly lint openapi.yaml --max-problems 40" "$V"
  capture_golden redocly-stylish library_api "$O" "NO_COLOR=1 npx redocly lint openapi.yaml --format=stylish --max-problems 30"
  capture_golden redocly library_api "$O" "NO_COLOR=1 npx redocly lint openapi.yaml --max-problems 12"
  capture_golden redocly-frames six_problems "$O" "NO_COLOR=1 npx redocly lint openapi.yaml --max-problems 6"
  capture_golden redocly-banner version "$O" "NO_COLOR=1 npx redocly --version"
  # A ruleset without rules: only the unresolved $ref, spectral's own check, is left.
  printf 'extends: []\n' >"$O/.spectral-off.yaml"
  capture_golden spectral ref_only "$O" "npx spectral lint --ruleset .spectral-off.yaml openapi.yaml"
fi

# Mono's C# compiler (Debian mono-mcs) on a billing library: six classes sharing the same unused
# locals, an unused field, a call to an [Obsolete] method and a member hiding its base's (with
# the related location line mcs prints under it), then the same with two type errors and an
# undefined name. Selector: mcs.
if sel mcs && command -v mcs >/dev/null; then
  M="$WORK/billing-cs"
  rm -rf "$M" && mkdir -p "$M/src"
  printf 'namespace Billing\n{\n    public class Entity\n    {\n        public int Id;\n        public string Describe() { return "entity"; }\n    }\n}\n' >"$M/src/Entity.cs"
  for n in Invoice Customer Payment Ledger Account Report Refund Supplier; do
    cat >"$M/src/$n.cs" <<EOF2
using System;
using System.Collections.Generic;

namespace Billing
{
    public class $n : Entity
    {
        private int unused$n;
        public string Describe() { return "$n"; }

        public int Compute(int a)
        {
            int temp;
            int other = 3;
            try { return a * 2; }
            catch (Exception ex) { return 0; }
        }

        [Obsolete("use Compute")]
        public int Old() { return 1; }

        public int UseOld() { return Old(); }
    }
}
EOF2
  done
  V="$(mcs --version)"
  capture native mcs_billing_warnings "$M" "mcs -warn:4 -target:library -out:Billing.dll src/*.cs" "$V"
  capture_golden mcs warnings "$M" "mcs -target:library -out:Billing.dll src/Entity.cs src/Invoice.cs src/Refund.cs src/Ledger.cs src/Report.cs"
  printf 'namespace Billing\n{\n    public class Totals\n    {\n        public int Sum(string s) { int n = s; return n + missing; }\n        public string Label() { return 42; }\n    }\n}\n' >"$M/src/Totals.cs"
  capture native mcs_billing_errors "$M" "mcs -warn:4 -target:library -out:Billing.dll src/*.cs" "$V"
  capture_golden mcs errors "$M" "mcs -target:library -out:Billing.dll src/Entity.cs src/Totals.cs src/Refund.cs src/Ledger.cs src/Report.cs src/Invoice.cs"
fi
