/**
 * The buffer grep reads small files into, and a byte search over it that looks at 16 bytes per
 * step (WebAssembly SIMD) where V8's `Uint8Array#indexOf` looks at one: the literal's rarest
 * byte is searched in every file read, so this search is most of the matching cost on a tree
 * where few files match. The buffer is the module's memory, so no file is copied to be searched.
 * Where WebAssembly SIMD is missing, the buffer is a plain one and `indexOfByte` is V8's.
 */

/**
 * `find(at, length, byte)`: the offset from `at` of the first `byte` in memory[at, at + length),
 * or -1. Hand-assembled from this text format (memory: one 64 KiB page, exported as "mem"):
 *
 * ```wat
 * (func (export "find") (param $p i32) (param $n i32) (param $b i32) (result i32)
 *   (local $i i32) (local $end16 i32) (local $end i32) (local $splat v128) (local $eq v128)
 *   (local.set $splat (i8x16.splat (local.get $b)))
 *   (local.set $i (local.get $p))
 *   (local.set $end16 (i32.add (local.get $p) (i32.and (local.get $n) (i32.const -16))))
 *   (local.set $end (i32.add (local.get $p) (local.get $n)))
 *   (block (loop                                    ;; 16 bytes per step
 *     (br_if 1 (i32.ge_u (local.get $i) (local.get $end16)))
 *     (if (v128.any_true (local.tee $eq (i8x16.eq (v128.load (local.get $i)) (local.get $splat))))
 *       (then (return (i32.add (i32.sub (local.get $i) (local.get $p))
 *                              (i32.ctz (i8x16.bitmask (local.get $eq)))))))
 *     (local.set $i (i32.add (local.get $i) (i32.const 16)))
 *     (br 0)))
 *   (block (loop                                    ;; the last 0-15 bytes, one at a time
 *     (br_if 1 (i32.ge_u (local.get $i) (local.get $end)))
 *     (if (i32.eq (i32.load8_u (local.get $i)) (local.get $b))
 *       (then (return (i32.sub (local.get $i) (local.get $p)))))
 *     (local.set $i (i32.add (local.get $i) (i32.const 1)))
 *     (br 0)))
 *   (i32.const -1))
 * ```
 */
const FIND_WASM = bytesOfHex(
  // header; type (i32 i32 i32) -> i32; one function; memory of one page; exports find, mem
  "0061736d0100000001080160037f7f7f017f030201000503010001070e020466696e640000036d656d0200" +
    // code: locals 3 × i32, 2 × v128
    "0a7f017d02037f027b" +
    // splat, $i, $end16, $end
    "2002fd0f210620002103200020014170716a2104200020016a2105" +
    // the 16-byte loop
    "02400340200320044f0d012003fd0000002006fd232207fd530440200320006b2007fd64686a0f0b20034110" +
    "6a21030c000b0b" +
    // the tail loop, then -1
    "02400340200320054f0d0120032d00002002460440200320006b0f0b200341016a21030c000b0b417f0b",
);

function bytesOfHex(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(
    { length: hex.length / 2 },
    (_, i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16),
  );
}

/** Size of the read buffer: one WebAssembly page. */
export const READ_BUFFER_BYTES = 1 << 16;

type Find = (at: number, length: number, byte: number) => number;

function instantiate(): { buffer: Uint8Array; find: Find } | null {
  try {
    if (!WebAssembly.validate(FIND_WASM)) return null; // no SIMD here
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(FIND_WASM));
    const memory = exports.mem as WebAssembly.Memory;
    return {
      buffer: new Uint8Array(memory.buffer, 0, READ_BUFFER_BYTES),
      find: exports.find as Find,
    };
  } catch {
    return null;
  }
}

const simd = instantiate();

/**
 * The reusable read buffer (`READ_BUFFER_BYTES`): in WebAssembly memory when SIMD search is
 * available. Its memory never grows, so views of it stay valid.
 */
export const READ_BUFFER: Uint8Array = simd?.buffer ?? new Uint8Array(READ_BUFFER_BYTES);

/** Whether `indexOfByte` searches `READ_BUFFER` with SIMD (tests check both paths). */
export const SIMD_SEARCH = simd !== null;

/** `bytes.indexOf(byte, from)`, with SIMD when `bytes` is a view of `READ_BUFFER`. */
export function indexOfByte(bytes: Uint8Array, byte: number, from = 0): number {
  if (simd === null || bytes.buffer !== READ_BUFFER.buffer) return bytes.indexOf(byte, from);
  if (from < 0) from = Math.max(0, bytes.length + from);
  if (from >= bytes.length) return -1;
  const at = simd.find(bytes.byteOffset + from, bytes.length - from, byte);
  return at === -1 ? -1 : from + at;
}
