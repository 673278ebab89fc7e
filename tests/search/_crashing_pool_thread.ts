// A pool thread whose module fails as it loads (as a missing --include would).
throw new Error("this grep thread cannot start");
