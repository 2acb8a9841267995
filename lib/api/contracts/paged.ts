import { z } from "zod";

/** The response of a paged list route: `{ <key>: items, page, limit, total }`. */
export function pagedListResponse(key: string, item: z.ZodType) {
  return {
    description: `\`{ ${key}, page, limit, total }\``,
    schema: z.object({ [key]: z.array(item), page: z.number(), limit: z.number(), total: z.number() }),
  };
}

/** A body that is not JSON: the bytes of a file (OpenAPI `format: binary`). */
export const binaryFile = z.string().meta({ format: "binary" }).describe("The file's bytes");
/** A CSV report: a header row, then one row per record. */
export const csvText = z.string().describe("CSV text (RFC 4180), a header row first");
