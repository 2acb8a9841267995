import { api } from "@/lib/api/handler";
import { suppressionRoutes } from "@/lib/api/contracts/workspace";
import { deleteSuppression } from "@/lib/suppressions/suppressions";

export const DELETE = api(suppressionRoutes.delete, async ({ ctx, params }) => deleteSuppression(ctx, params.id));
