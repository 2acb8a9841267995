// Moves here from ../../lib/webhooks/deliver with issue 12 (the job's definition lives with the job list).
export { webhookDispatchJob } from "../../lib/webhooks/deliver";
