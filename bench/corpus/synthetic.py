#!/usr/bin/env python3
"""Writes the SYNTHETIC corpus cases: tools that cannot run on the capture machine (no docker
daemon, no terraform/kubectl/brew/nextest/jest). Modelled line for line on real output of those
tools' current versions; marked "synthetic": true in each .json and in README.md."""
import json, os, random

ROOT = os.path.dirname(os.path.abspath(__file__))
random.seed(7)

def write(family, name, command, exit_code, text, tool):
    d = os.path.join(ROOT, family)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name + ".txt"), "w") as f:
        f.write(text)
    with open(os.path.join(d, name + ".json"), "w") as f:
        json.dump({"command": command, "exit_code": exit_code, "synthetic": True, "tool": tool,
                   "captured": "synthetic"}, f, indent=2)
        f.write("\n")
    print(f"{family}/{name}: {text.count(chr(10))} lines (synthetic)")

def h(n=64):
    return "".join(random.choice("0123456789abcdef") for _ in range(n))

# --- docker build (BuildKit plain progress) ---------------------------------------------------
lines = ["#0 building with \"default\" instance using docker driver", "",
         "#1 [internal] load build definition from Dockerfile", "#1 transferring dockerfile: 612B done",
         "#1 DONE 0.0s", "", "#2 [internal] load metadata for docker.io/library/node:20-slim",
         "#2 DONE 1.2s", "", "#3 [internal] load .dockerignore", "#3 transferring context: 2B done",
         "#3 DONE 0.0s", "", "#4 [1/6] FROM docker.io/library/node:20-slim@sha256:" + h(),
         "#4 resolve docker.io/library/node:20-slim@sha256:" + h() + " 0.0s done"]
for i in range(6):
    lines.append(f"#4 sha256:{h()} {random.randint(1,50)}.{random.randint(0,9)}MB / {random.randint(50,90)}.0MB {i}.{random.randint(1,9)}s")
lines += ["#4 extracting sha256:" + h() + " 2.1s done", "#4 DONE 6.3s", "",
          "#5 [internal] load build context", "#5 transferring context: 1.21MB 0.1s done", "#5 DONE 0.1s", "",
          "#6 [2/6] WORKDIR /app", "#6 DONE 0.1s", "", "#7 [3/6] COPY package.json package-lock.json ./", "#7 DONE 0.0s", "",
          "#8 [4/6] RUN npm ci --omit=dev"]
for i in range(40):
    lines.append(f"#8 {1.0 + i*0.3:.3f} npm warn deprecated pkg-{i}@1.0.{i}: This package is no longer supported.")
lines += ["#8 14.20 added 312 packages, and audited 313 packages in 13s", "#8 14.21 found 0 vulnerabilities",
          "#8 DONE 14.6s", "", "#9 [5/6] COPY . .", "#9 DONE 0.2s", "", "#10 [6/6] RUN npm run build",
          "#10 0.512 > app@1.0.0 build", "#10 0.512 > tsc -p tsconfig.build.json", "#10 4.902 src/server.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'.",
          "#10 ERROR: process \"/bin/sh -c npm run build\" did not complete successfully: exit code: 2",
          "------", " > [6/6] RUN npm run build:", "0.512 > tsc -p tsconfig.build.json",
          "4.902 src/server.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'.", "------",
          "Dockerfile:9", "--------------------", "   7 |     COPY . .", "   8 |     # build the TypeScript sources",
          "   9 | >>> RUN npm run build", "--------------------",
          "ERROR: failed to solve: process \"/bin/sh -c npm run build\" did not complete successfully: exit code: 2"]
write("docker", "build_error", "docker build -t app .", 1, "\n".join(lines) + "\n", "docker 27 buildx (BuildKit)")

# --- docker compose up ------------------------------------------------------------------------
lines = [" Network app_default  Creating", " Network app_default  Created", " Volume \"app_pgdata\"  Creating", " Volume \"app_pgdata\"  Created"]
for svc in ["db", "redis", "api", "worker", "web"]:
    lines += [f" Container app-{svc}-1  Creating", f" Container app-{svc}-1  Created"]
for svc in ["db", "redis", "api", "worker", "web"]:
    lines += [f" Container app-{svc}-1  Starting", f" Container app-{svc}-1  Started"]
lines += [" Container app-db-1  Waiting", " Container app-db-1  Healthy",
          "Error response from daemon: driver failed programming external connectivity on endpoint app-web-1: Bind for 0.0.0.0:8080 failed: port is already allocated"]
write("docker", "compose_up", "docker compose up -d", 1, "\n".join(lines) + "\n", "docker compose v2.29")

# --- docker logs (dedup) ----------------------------------------------------------------------
lines = []
t = 0
for i in range(1500):
    t += random.randint(1, 900)
    ts = f"2026-11-20T10:{(t//60000)%60:02d}:{(t//1000)%60:02d}.{t%1000:03d}Z"
    r = random.random()
    if r < 0.6:
        lines.append(f"{ts} INFO  [http] GET /api/health 200 {random.randint(1,9)}ms ip=10.0.{random.randint(0,9)}.{random.randint(1,250)} req={h(8)}-{h(4)}-{h(4)}-{h(4)}-{h(12)}")
    elif r < 0.85:
        lines.append(f"{ts} INFO  [worker] processed job pid={random.randint(100,999)} in {random.randint(10,500)}ms")
    elif r < 0.97:
        lines.append(f"{ts} WARN  [db] slow query took {random.randint(500,3000)}ms")
    else:
        lines.append(f"{ts} ERROR [payments] charge failed: card_declined customer=cus_{h(14)}")
lines.insert(900, "2026-11-20T10:14:02.114Z ERROR [auth] authentication failed for user admin from 203.0.113.9")
write("logs", "docker_logs_api", "docker logs api-1", 0, "\n".join(lines) + "\n", "docker logs")

# --- terraform plan ---------------------------------------------------------------------------
lines = []
for i in range(40):
    lines.append(f"aws_security_group_rule.ingress[{i}]: Refreshing state... [id=sgrule-{random.randint(10**9,10**10)}]")
for i in range(12):
    lines.append(f"data.aws_iam_policy_document.p{i}: Reading...")
    lines.append(f"data.aws_iam_policy_document.p{i}: Read complete after 0s [id={random.randint(10**9,10**10)}]")
lines += ["", "Terraform used the selected providers to generate the following execution plan. Resource actions are",
          "indicated with the following symbols:", "  + create", "  ~ update in-place", "  - destroy", "",
          "Terraform will perform the following actions:", ""]
lines += ["  # aws_instance.web will be updated in-place", "  ~ resource \"aws_instance\" \"web\" {",
          "        id                                   = \"i-0abc123def4567890\"",
          "      ~ instance_type                        = \"t3.small\" -> \"t3.medium\"", "        tags                                 = {",
          "            \"Name\" = \"web\"", "        }", "        # (30 unchanged attributes hidden)", "    }", ""]
lines += ["  # aws_s3_bucket.logs will be created", "  + resource \"aws_s3_bucket\" \"logs\" {"]
for a in ["acceleration_status", "arn", "bucket_domain_name", "bucket_regional_domain_name", "hosted_zone_id", "id", "object_lock_enabled", "policy", "region", "request_payer", "tags_all", "website_domain", "website_endpoint"]:
    lines.append(f"      + {a:<28} = (known after apply)")
lines += ["      + bucket                      = \"acme-logs-prod\"", "      + force_destroy               = false", "    }", "",
          "  # aws_db_instance.legacy will be destroyed", "  - resource \"aws_db_instance\" \"legacy\" {"]
for a in range(25):
    lines.append(f"      - attr_{a:02d}                     = \"value-{a}\" -> null")
lines += ["    }", "", "Plan: 1 to add, 1 to change, 1 to destroy.", "",
          "Warning: Argument is deprecated", "", "  with aws_s3_bucket.logs,", "  on main.tf line 40, in resource \"aws_s3_bucket\" \"logs\":",
          "  40:   acl = \"private\"", "", "Use the aws_s3_bucket_acl resource instead", "",
          "─────────────────────────────────────────────────────────────────────────────", "",
          "Note: You didn't use the -out option to save this plan, so Terraform can't guarantee to take exactly",
          "these actions if you run \"terraform apply\" now."]
write("infra", "terraform_plan", "terraform plan", 0, "\n".join(lines) + "\n", "terraform 1.9")

# --- kubectl get pods -A ----------------------------------------------------------------------
lines = ["NAMESPACE       NAME                                        READY   STATUS             RESTARTS       AGE"]
for i in range(180):
    ns = random.choice(["default", "kube-system", "monitoring", "payments", "ingress-nginx"])
    name = f"{random.choice(['api','worker','web','coredns','prometheus','fluentd'])}-{h(10)}-{h(5)}"
    status, restarts = "Running", "0"
    if i == 97:
        name, status, restarts = "payments-api-7d9f8b6c5d-x2k9p", "CrashLoopBackOff", "14 (2m ago)"
    if i == 150:
        name, status = "worker-batch-5f6d7c8b9-qq7wl", "ImagePullBackOff"
    lines.append(f"{ns:<15} {name:<43} 1/1     {status:<18} {restarts:<14} {random.randint(1,40)}d")
write("infra", "kubectl_get_pods", "kubectl get pods -A", 0, "\n".join(lines) + "\n", "kubectl 1.31")

# --- brew install -----------------------------------------------------------------------------
lines = ["==> Auto-updating Homebrew...", "==> Fetching dependencies for ffmpeg: libpng, freetype, fontconfig, x264, x265, lame, opus, libvpx"]
for dep in ["libpng", "freetype", "fontconfig", "x264", "x265", "lame", "opus", "libvpx", "ffmpeg"]:
    lines += [f"==> Fetching {dep}", f"==> Downloading https://ghcr.io/v2/homebrew/core/{dep}/manifests/1.0",
              "######################################################################## 100.0%",
              f"==> Downloading https://ghcr.io/v2/homebrew/core/{dep}/blobs/sha256:{h()}",
              "######################################################################## 100.0%"]
for dep in ["libpng", "freetype", "fontconfig", "x264", "x265", "lame", "opus", "libvpx"]:
    lines += [f"==> Installing ffmpeg dependency: {dep}", f"==> Pouring {dep}--1.0.arm64_sonoma.bottle.tar.gz",
              f"🍺  /opt/homebrew/Cellar/{dep}/1.0: {random.randint(10,300)} files, {random.randint(1,30)}.{random.randint(0,9)}MB"]
lines += ["==> Installing ffmpeg", "==> Pouring ffmpeg--7.1.arm64_sonoma.bottle.tar.gz",
          "🍺  /opt/homebrew/Cellar/ffmpeg/7.1: 287 files, 52.6MB", "==> Running `brew cleanup ffmpeg`...",
          "Disable this behaviour by setting HOMEBREW_NO_INSTALL_CLEANUP.",
          "Hide these hints with HOMEBREW_NO_ENV_HINTS (see `man brew`).", "==> Caveats",
          "ffmpeg is keg-only, which means it was not symlinked into /opt/homebrew."]
write("infra", "brew_install", "brew install ffmpeg", 0, "\n".join(lines) + "\n", "Homebrew 4.4")

# --- cargo nextest ----------------------------------------------------------------------------
lines = ["   Compiling calc v0.1.0 (/home/dev/calc)", "    Finished `test` profile [unoptimized + debuginfo] target(s) in 1.52s",
         "    Starting 60 tests across 13 binaries (1 test skipped)"]
names = [f"calc::integration_{i} integration_{op}_{i}" for i in range(1, 13) for op in ("add", "div", "sub")]
names += ["calc tests::adds", "calc tests::clamps", "calc tests::divides", "calc tests::evens", "calc tests::subtracts", "calc tests::sums",
          "calc parse::tests::first_word_works", "calc parse::tests::parses_negative", "calc parse::tests::parses_numbers",
          "calc parse::tests::rejects_garbage", "calc parse::tests::skips_empty", "calc stats::tests::max_works",
          "calc stats::tests::mean_empty", "calc stats::tests::mean_works", "calc parse::tests::parse_extra", "calc tests::extra_one", "calc tests::extra_two", "calc stats::tests::extra_three"]
for n in names[:57]:
    lines.append(f"        PASS [   0.00{random.randint(1,9)}s] {n}")
lines += ["        FAIL [   0.004s] calc tests::div_by_zero", "──── STDOUT:             calc tests::div_by_zero", "",
          "running 1 test", "test tests::div_by_zero ... FAILED", "", "failures:", "", "failures:", "    tests::div_by_zero", "",
          "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 18 filtered out; finished in 0.00s", "",
          "──── STDERR:             calc tests::div_by_zero", "",
          "thread 'tests::div_by_zero' panicked at src/lib.rs:21:32:", "assertion `left == right` failed: division by zero must yield Some(0)",
          "  left: None", " right: Some(0)", "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace", "",
          "        FAIL [   0.005s] calc tests::edge_overflow", "──── STDERR:             calc tests::edge_overflow", "",
          "thread 'tests::edge_overflow' panicked at src/lib.rs:8:46:", "attempt to add with overflow",
          "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace", "",
          "        PASS [   0.003s] calc stats::tests::median_odd",
          "────────────", "     Summary [   0.212s] 60 tests run: 58 passed, 2 failed, 1 skipped",
          "        FAIL [   0.004s] calc tests::div_by_zero", "        FAIL [   0.005s] calc tests::edge_overflow",
          "error: test run failed"]
write("cargo", "nextest_failing", "cargo nextest run", 100, "\n".join(lines) + "\n", "cargo-nextest 0.9.85")

# --- jest -------------------------------------------------------------------------------------
lines = []
for f in range(14):
    lines.append(f"PASS src/components/widget{f}.test.tsx")
lines += ["FAIL src/utils/format.test.ts", "  ● formatPrice › rounds to two decimals", "",
          "    expect(received).toBe(expected) // Object.is equality", "", "    Expected: \"10.35\"", "    Received: \"10.34\"", "",
          "      12 |   it('rounds to two decimals', () => {", "    > 13 |     expect(formatPrice(10.345)).toBe('10.35');",
          "         |                                 ^", "      14 |   });", "", "      at Object.toBe (src/utils/format.test.ts:13:33)", "",
          "  ● formatDate › handles invalid input", "", "    TypeError: Cannot read properties of undefined (reading 'getTime')", "",
          "      20 | export function formatDate(d) {", "    > 21 |   return d.getTime();", "         |            ^", "",
          "      at formatDate (src/utils/format.ts:21:12)", "      at Object.<anonymous> (src/utils/format.test.ts:27:12)", ""]
for f in range(6):
    lines.append(f"PASS src/hooks/useThing{f}.test.ts")
lines += ["", "Test Suites: 1 failed, 20 passed, 21 total", "Tests:       2 failed, 133 passed, 135 total",
          "Snapshots:   4 passed, 4 total", "Time:        6.481 s", "Ran all test suites."]
write("node", "jest_failing", "npx jest", 1, "\n".join(lines) + "\n", "jest 29.7")
