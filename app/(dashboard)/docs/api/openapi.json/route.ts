import { referenceDocument } from "@/components/docs/reference-document";
import { appUrl } from "@/lib/env";

export const dynamic = "force-dynamic";

/**
 * The document the API reference page's viewer loads after the page has painted (public, as
 * /api/v1/openapi.json is): the same contracts, with the guides it names linked to their pages.
 */
export async function GET() {
  return Response.json(referenceDocument(`${appUrl()}/api/v1`));
}
