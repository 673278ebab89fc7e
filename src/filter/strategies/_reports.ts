import { StartIndex } from "../line_start.ts";

/**
 * The heads of a report a runtime prints when it catches a bug as the program runs: go's race
 * detector (`WARNING: DATA RACE`, `Read at 0x… by goroutine 7:`, `Previous write at …`,
 * `Goroutine 7 (running) created at:`), ThreadSanitizer's and AddressSanitizer's (`==12==ERROR:
 * AddressSanitizer: heap-use-after-free …`, `READ of size 4 at 0x… thread T0`, `freed by thread T0
 * here:`, `SUMMARY: …`). The frames under each head say where; the head says what happened and
 * which access each group of frames is, so it stays wherever its frames do.
 */
const HEADS = [
  /^WARNING: (?:DATA RACE|ThreadSanitizer: .{1,300})$/,
  /^(?:Previous )?(?:[Rr]ead|[Ww]rite|Atomic [Rr]ead|Atomic [Ww]rite)(?: of size \d{1,9})? at 0x[0-9a-f]{1,16} by (?:goroutine \d{1,9}|main goroutine|thread T\d{1,9}|main thread)(?: \(mutexes: .{0,200}\))?:$/,
  /^Goroutine \d{1,9} \((?:running|finished)\) created at:$/,
  /^\s{0,4}Thread T\d{1,9} \(.{0,200}\) created by .{1,200} at:$/,
  /^==\d{1,9}==ERROR: \w{1,40}Sanitizer: /,
  /^(?:READ|WRITE) of size \d{1,9} at 0x[0-9a-f]{1,16} thread T\d{1,9}/,
  /^0x[0-9a-f]{1,16} is located .{1,300}$/,
  /^(?:previously allocated|freed|allocated) by thread T\d{1,9} here:$/,
  /^SUMMARY: \w{1,40}Sanitizer: /,
  /^Found \d{1,9} data race\(s\)$/,
];

const HEAD_INDEX = new StartIndex([HEADS]);

/** Whether `line` heads a runtime's bug report or one of its sections. */
export function isRuntimeReportHead(line: string): boolean {
  return HEAD_INDEX.which(line) === 0;
}
