// Moves here from ../../lib/inbox/sync with issue 12 (the job's definition lives with the job list).
export { inboxSyncJob } from "../../lib/inbox/sync";
