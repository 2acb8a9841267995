import { api } from "@/lib/api/handler";
import { timezoneRoutes } from "@/lib/api/contracts/workspace";
import { listCountryTimezones } from "@/lib/timezones";

export const GET = api(timezoneRoutes.list, async ({ ctx }) => ({ countries: listCountryTimezones(ctx.clock.now()) }));
