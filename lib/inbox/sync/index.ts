/**
 * The reply sync, in parts: sync-pass.ts (the job's cycle: due mailboxes, failures and recoveries),
 * rotation.ts (who is read when, who keeps a connection), mailbox.ts (one mailbox, folder by folder), fetch.ts (the IMAP commands), commit.ts (a batch stored
 * in one transaction, retried one message at a time); parsing, matching, classifying and storing are
 * ../ingest's.
 */
export { CYCLE_EVERY_MS, runInboxSync } from "./sync-pass";
export { commitBatch, type SyncCtx, type Totals } from "./commit";
export { MAX_RETRY_MS, pollIntervalMs, recordSyncFailure, recordSyncRecovered } from "./failures";
export { BATCH_BYTES, BATCH_MESSAGES, MAX_MESSAGE_BYTES } from "./fetch";
export { syncMailbox } from "./mailbox";
export { PARSE_OPTIONS } from "../ingest";
