/** Members, invitations, workspaces and the user's profile (session only). */
export const memberRoutes = {};
