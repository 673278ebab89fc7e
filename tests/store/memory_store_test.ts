import { MemoryStore } from "../../src/store/mod.ts";
import { storeSuite } from "./_store_suite.ts";

storeSuite("MemoryStore", { make: (now) => new MemoryStore({ now }) });
