import { getAiSettings } from "../ai/settings";
import { requireAccess, type Ctx } from "../ctx";
import { listProviders } from "./providers";
import { FILTER_NAMES } from "./schemas";
import { KNOWN_COUNTRIES } from "./countries";
import { COMPANY_SIZES, DEPARTMENTS, SENIORITIES } from "./vocabulary";

/** GET /finder/meta: every filter, its kind and, for the fixed vocabularies, the allowed values. */
export function finderMeta(ctx: Ctx) {
  requireAccess(ctx, "read");
  const open = { kind: "values" as const, values: null };
  return {
    filters: FILTER_NAMES.map((name) => {
      switch (name) {
        case "seniorities":
          return { name, kind: "enum" as const, values: [...SENIORITIES] };
        case "departments":
          return { name, kind: "enum" as const, values: [...DEPARTMENTS] };
        case "companySizes":
          return { name, kind: "enum" as const, values: [...COMPANY_SIZES] };
        case "countries":
          return { name, kind: "values" as const, values: KNOWN_COUNTRIES };
        case "titles":
        case "keywords":
          return { name, kind: "text" as const, values: null };
        default:
          return { name, ...open };
      }
    }),
    /** How filters combine (docs/finder.md). */
    combine: "AND across filters, OR within one",
  };
}

/** GET /finder/access: the finder is always on (the directory is built in); credits are the workspace's monthly AI credits. */
export async function finderAccess(ctx: Ctx) {
  requireAccess(ctx, "read");
  const { credits } = await getAiSettings(ctx);
  return {
    enabled: true,
    providers: listProviders()
      .filter((p) => p.configured)
      .map((p) => p.name),
    credits,
  };
}
