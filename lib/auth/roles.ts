/** The rights table lives in lib/roles.ts (below lib/ctx.ts, which gates on it); re-exported here for auth and the UI. */
export * from "../roles";
