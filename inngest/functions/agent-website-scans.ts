import { runWebsiteScans } from "../../lib/reply-agents/crawl";
import type { JobDef } from "../../lib/jobs/registry";

/** Crawls queued reply-agent website scans (POST /reply-agents/<id>/website/scan), a batch of pages per run under a lease. */
export const agentWebsiteScanJob: JobDef = {
  name: "agent-website-scans",
  cron: "* * * * *",
  everyMs: 3_000,
  run: runWebsiteScans,
};
