export * from "./accounts";
export * from "./leads";
export * from "./system";
export * from "./mailboxes";
export * from "./sending";
export * from "./campaigns";
export * from "./webhooks";
export * from "./inbox";
