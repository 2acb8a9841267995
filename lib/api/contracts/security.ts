/** Two-factor sign-in, sessions and the workspace's security setting (session only). */
export const securityRoutes = {};
