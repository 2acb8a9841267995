import { writeFileSync } from "node:fs";
import path from "node:path";
import { CLIENT_SCHEMA_PATH, renderClientSchema } from "./client-schema";

/** npm run gen:client — writes lib/client/schema.d.ts, the typed client's view of the API. */
const out = path.resolve(import.meta.dirname, "..", CLIENT_SCHEMA_PATH);
writeFileSync(out, await renderClientSchema());
console.log(`wrote ${CLIENT_SCHEMA_PATH}`);
