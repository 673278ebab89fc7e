/**
 * Landlock (Linux ≥ 5.13): confines the calling thread, and the threads and processes it starts
 * afterwards, so it can create, change, rename, link or remove file system entries only beneath
 * the given roots. The kernel checks every path as it resolves it, so a directory swapped for a
 * symbolic link during a call cannot lead a write outside: the call fails with EACCES (or EXDEV
 * for a rename or link) instead. Reads stay unrestricted here (the JS sandbox and the Deno
 * permissions decide them). Other threads of the process are unaffected.
 *
 * It needs FFI for four libc calls (prctl, open, close, syscall); the caller grants FFI for the
 * setup and revokes it afterwards. Everything that can go wrong (no Linux, no libc, an old
 * kernel, Landlock disabled at boot, a seccomp filter) is reported as a reason, never thrown.
 */

/** What `restrictThread` did: confined at an ABI version, or why it could not. */
export type LandlockState =
  | { active: true; abi: number }
  | { active: false; reason: string };

// Syscall numbers: the same on every Linux architecture (allocated after the tables merged).
const SYS_CREATE_RULESET = 444;
const SYS_ADD_RULE = 445;
const SYS_RESTRICT_SELF = 446;
const CREATE_RULESET_VERSION = 1;
const RULE_PATH_BENEATH = 1;
const PR_SET_NO_NEW_PRIVS = 38;
// O_PATH | O_CLOEXEC: the same values on x86_64 and arm64 Linux.
const O_PATH = 0o10000000;
const O_CLOEXEC = 0o2000000;
const ENOENT = 2;
const ENOSYS = 38;
const EOPNOTSUPP = 95;

/** File system rights by the ABI version that introduced them. Reads and execute stay unhandled. */
const ACCESS = {
  writeFile: 1n << 1n,
  removeDir: 1n << 4n,
  removeFile: 1n << 5n,
  makeChar: 1n << 6n,
  makeDir: 1n << 7n,
  makeReg: 1n << 8n,
  makeSock: 1n << 9n,
  makeFifo: 1n << 10n,
  makeBlock: 1n << 11n,
  makeSym: 1n << 12n,
  /** ABI 2: rename and link across directories. */
  refer: 1n << 13n,
  /** ABI 3: truncate(2) and O_TRUNC. */
  truncate: 1n << 14n,
};

/** The write-side rights this ABI version knows; all of them are handled and granted on roots. */
export function writeRights(abi: number): bigint {
  let rights = ACCESS.writeFile | ACCESS.removeDir | ACCESS.removeFile | ACCESS.makeChar |
    ACCESS.makeDir | ACCESS.makeReg | ACCESS.makeSock | ACCESS.makeFifo | ACCESS.makeBlock |
    ACCESS.makeSym;
  if (abi >= 2) rights |= ACCESS.refer;
  if (abi >= 3) rights |= ACCESS.truncate;
  return rights;
}

const SYMBOLS = {
  prctl: { parameters: ["i32", "u64", "u64", "u64", "u64"], result: "i32" },
  open: { parameters: ["buffer", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  __errno_location: { parameters: [], result: "pointer" },
  // One libc `syscall` under three signatures, one per Landlock call.
  landlock_create_ruleset: {
    name: "syscall",
    parameters: ["i64", "pointer", "usize", "u32"],
    result: "i64",
  },
  landlock_add_rule: {
    name: "syscall",
    parameters: ["i64", "i64", "i64", "buffer", "u32"],
    result: "i64",
  },
  landlock_restrict_self: { name: "syscall", parameters: ["i64", "i64", "u32"], result: "i64" },
} as const;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

/** libc's file name; glibc first, then musl's. */
const LIBC_NAMES = ["libc.so.6", `libc.musl-${Deno.build.arch}.so.1`];

function openLibc(): Deno.DynamicLibrary<typeof SYMBOLS> | string {
  let last = "";
  for (const name of LIBC_NAMES) {
    try {
      return Deno.dlopen(name, SYMBOLS);
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
  }
  return `cannot load libc (${last})`;
}

function errno(libc: Libc): number {
  const at = libc.__errno_location();
  return at === null ? 0 : new Deno.UnsafePointerView(at).getInt32();
}

function abiOf(libc: Libc): number | string {
  const abi = Number(libc.landlock_create_ruleset(
    BigInt(SYS_CREATE_RULESET),
    null,
    0n,
    CREATE_RULESET_VERSION,
  ));
  if (abi > 0) return abi;
  const code = errno(libc);
  if (code === ENOSYS) return "the kernel has no Landlock (Linux 5.13 or newer has it)";
  if (code === EOPNOTSUPP) {
    return "Landlock is disabled in this kernel (add it to the lsm= boot parameter)";
  }
  return `the Landlock probe failed (errno ${code}; a seccomp filter may block it)`;
}

/** Why this thread cannot set Landlock up at all (not Linux, no FFI permission), or null. */
export function landlockBlocker(): string | null {
  if (Deno.build.os !== "linux") return `Landlock is Linux-only (this is ${Deno.build.os})`;
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") {
    return "zeph runs without --allow-ffi, which the Landlock setup needs";
  }
  return null;
}

/** The Landlock ABI version of this kernel, or why there is none. */
export function probeLandlock(): { abi: number } | { reason: string } {
  const blocked = landlockBlocker();
  if (blocked) return { reason: blocked };
  const lib = openLibc();
  if (typeof lib === "string") return { reason: lib };
  try {
    const abi = abiOf(lib.symbols);
    return typeof abi === "number" ? { abi } : { reason: abi };
  } finally {
    lib.close();
  }
}

/**
 * Confines the calling thread: from now on it (and any thread it starts) may write, create,
 * rename, link and remove only beneath those of `roots` that exist. Needs FFI permission; sets
 * no_new_privs on the thread, as the kernel requires of an unprivileged caller.
 */
export function restrictThread(roots: readonly string[]): LandlockState {
  const blocked = landlockBlocker();
  if (blocked) return { active: false, reason: blocked };
  const lib = openLibc();
  if (typeof lib === "string") return { active: false, reason: lib };
  const libc = lib.symbols;
  const fds: number[] = [];
  try {
    const abi = abiOf(libc);
    if (typeof abi === "string") return { active: false, reason: abi };
    // ABI 1 refuses every rename or link into another directory (REFER is always denied), so a
    // confined move_path between folders would fail: such a kernel counts as without Landlock.
    if (abi < 2) {
      return {
        active: false,
        reason: `Landlock ABI ${abi} cannot allow moves between directories (ABI 2, Linux 5.19+)`,
      };
    }
    const rights = writeRights(abi);
    const attr = new BigUint64Array([rights]);
    const ruleset = Number(libc.landlock_create_ruleset(
      BigInt(SYS_CREATE_RULESET),
      Deno.UnsafePointer.of(attr),
      BigInt(attr.byteLength),
      0,
    ));
    if (ruleset < 0) {
      return { active: false, reason: `cannot create a Landlock ruleset (errno ${errno(libc)})` };
    }
    fds.push(ruleset);
    for (const root of roots) {
      const fd = libc.open(new TextEncoder().encode(`${root}\0`), O_PATH | O_CLOEXEC);
      if (fd < 0) {
        const code = errno(libc);
        // A root that does not exist yet gets no rule: nothing beneath it can be changed until
        // a new confinement includes it (the file worker restarts when a root appears).
        if (code === ENOENT) continue;
        return { active: false, reason: `cannot open the root "${root}" (errno ${code})` };
      }
      fds.push(fd);
      // struct landlock_path_beneath_attr is packed: u64 allowed_access, then s32 parent_fd.
      const rule = new Uint8Array(12);
      const view = new DataView(rule.buffer);
      view.setBigUint64(0, rights, true);
      view.setInt32(8, fd, true);
      const added = libc.landlock_add_rule(
        BigInt(SYS_ADD_RULE),
        BigInt(ruleset),
        BigInt(RULE_PATH_BENEATH),
        rule,
        0,
      );
      if (added < 0) {
        return {
          active: false,
          reason: `cannot add the root "${root}" to the ruleset (errno ${errno(libc)})`,
        };
      }
    }
    if (libc.prctl(PR_SET_NO_NEW_PRIVS, 1n, 0n, 0n, 0n) !== 0) {
      return { active: false, reason: `cannot set no_new_privs (errno ${errno(libc)})` };
    }
    const restricted = libc.landlock_restrict_self(
      BigInt(SYS_RESTRICT_SELF),
      BigInt(ruleset),
      0,
    );
    if (restricted < 0) {
      return { active: false, reason: `landlock_restrict_self failed (errno ${errno(libc)})` };
    }
    return { active: true, abi };
  } finally {
    for (const fd of fds) libc.close(fd);
    lib.close();
  }
}
