/** The audit log (owner or admin session). */
export const auditRoutes = {};
