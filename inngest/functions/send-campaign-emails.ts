// Moves here from ../../lib/sending/engine with issue 12 (the job's definition lives with the job list).
export { sendCampaignEmailsJob } from "../../lib/sending/engine";
