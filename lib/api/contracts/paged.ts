import { z } from "zod";

/** The response of a paged list route: `{ <key>: items, page, limit, total }`. */
export function pagedListResponse(key: string, item: z.ZodType) {
  return {
    description: `\`{ ${key}, page, limit, total }\``,
    schema: z.object({ [key]: z.array(item), page: z.number(), limit: z.number(), total: z.number() }),
  };
}
