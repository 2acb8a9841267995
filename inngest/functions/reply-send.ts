// Moves here from ../../lib/inbox/send-reply with issue 12 (the job's definition lives with the job list).
export { replySendJob } from "../../lib/inbox/send-reply";
