import { finderRoutes } from "../contracts/finder";
import { addJobToLeads } from "../../finder/add-to-leads";
import { aiSearch } from "../../finder/ai-search";
import { cancelEnrichJob, estimateEnrich, getEnrichJob, startEnrich } from "../../finder/enrich-jobs";
import { finderMeta } from "../../finder/meta";
import { countPeople, facetCounts, searchPeople } from "../../finder/search";
import type { ToolDef } from "./kit";

/** The lead finder: search the directory, its facets, and enrichment jobs that turn people into leads. */
export const FINDER_TOOLS: ToolDef[] = [
  {
    name: "finder_filters",
    description:
      "What the finder can filter on: its fields, their allowed values (seniorities, departments, sizes, countries) and how many people it holds.",
    route: finderRoutes.meta,
    run: async (ctx) => finderMeta(ctx),
  },
  {
    name: "finder_search",
    description:
      "Search the people directory with filters (titles, seniority, department, industry, country, company size, …). Paged; emails are hidden until enriched.",
    route: finderRoutes.search,
    run: (ctx, { body }) => searchPeople(ctx, body),
  },
  {
    name: "finder_count",
    description: "How many people of the directory match the filters.",
    route: finderRoutes.count,
    run: (ctx, { body }) => countPeople(ctx, body.filters),
  },
  {
    name: "finder_facets",
    description: "Counts per value of the requested fields (e.g. country, industry) among the people matching the filters.",
    route: finderRoutes.facets,
    run: (ctx, { body }) => facetCounts(ctx, body),
  },
  {
    name: "finder_ai_search",
    description:
      'Turn a sentence such as "CTOs at fintech startups in Germany" into finder filters (an AI model when configured, else rules).',
    route: finderRoutes.aiSearch,
    run: (ctx, { body }) => aiSearch(ctx, body),
  },
  {
    name: "estimate_enrichment",
    description: "What enriching these people (personIds) would cost in credits and how many already have an email.",
    route: finderRoutes.estimate,
    run: (ctx, { body }) => estimateEnrich(ctx, body.personIds),
  },
  {
    name: "start_enrichment",
    description:
      "Start a job that finds (and optionally verifies) the emails of people (personIds). Poll get_enrichment_job for its progress.",
    route: finderRoutes.enrich,
    run: (ctx, { body }) => startEnrich(ctx, body),
  },
  {
    name: "get_enrichment_job",
    description: "An enrichment job: status, counts (found, verified, unknown, …) and each person's result.",
    route: finderRoutes.enrichJob,
    ids: { jobId: "id" },
    run: (ctx, { params }) => getEnrichJob(ctx, params.id),
  },
  {
    name: "cancel_enrichment_job",
    description: "Stop an enrichment job; people already done keep their results.",
    route: finderRoutes.enrichCancel,
    ids: { jobId: "id" },
    run: (ctx, { params }) => cancelEnrichJob(ctx, params.id),
  },
  {
    name: "add_enriched_to_leads",
    description:
      "Add an enrichment job's people with a usable email to the leads (optionally to a campaign), with the lead import's rules.",
    route: finderRoutes.addToLeads,
    ids: { jobId: "id" },
    run: (ctx, { params, body }) => addJobToLeads(ctx, params.id, body),
  },
];
