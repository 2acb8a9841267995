import { api } from "@/lib/api/handler";
import { finderRoutes } from "@/lib/api/contracts/finder";
import { listProviders } from "@/lib/finder/providers";

export const GET = api(finderRoutes.providers, async () => listProviders());
