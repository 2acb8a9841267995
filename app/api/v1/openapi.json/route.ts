import { allRoutes } from "@/lib/api/contracts";
import { buildOpenApi } from "@/lib/api/openapi";
import { appUrl } from "@/lib/env";

export const dynamic = "force-dynamic";

export async function GET() {
  return Response.json(buildOpenApi(allRoutes, `${appUrl()}/api/v1`));
}
