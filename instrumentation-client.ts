import { config } from "zod";

/**
 * Runs in the browser before the dashboard's own code (Next.js's client instrumentation file). Zod
 * compiles object parsers with `new Function` when it may, and finds out by trying once; under the
 * Content-Security-Policy (no 'unsafe-eval') that try is refused and reported as a violation on every
 * page. Turned off here before any schema is built; parsing works the same, only without compiling.
 */
config({ jitless: true });
