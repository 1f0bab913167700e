// Imported first by main.tsx, before any schema is built: zod compiles fast parsers with `new Function`
// when it may, and finds out by trying one, which our CSP (no 'unsafe-eval') refuses and reports as a
// violation on every page. Told not to, it never tries.
import { config } from "zod";

config({ jitless: true });
