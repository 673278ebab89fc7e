// The baseline of bench/startup_bench.ts: an empty program, run the same way as main.ts.
