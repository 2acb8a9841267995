// The production web server `npm start` runs (lib/cli/launch.ts spawns it with PORT set): Next on its
// build, with the tracking fast path in front (lib/cli/web-server.ts). TypeScript through tsx, like bin/outreach.mjs.
const { dirname, resolve } = await import("node:path");
const { fileURLToPath } = await import("node:url");
const { register } = await import("tsx/esm/api");

// What `next start` sets: a production server unless NODE_ENV says otherwise.
process.env.NODE_ENV ||= "production";
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: resolve(root, "tsconfig.json") });
const { startWebServer } = await import("../lib/cli/web-server.ts");
await startWebServer(process.env.OUTREACH_ROOT ?? root, Number(process.env.PORT ?? 3000));
