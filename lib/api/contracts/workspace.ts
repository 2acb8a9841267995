import { z } from "zod";
import { defineRoute } from "../route";
import { deletedSchema } from "./responses";
import { pagedListResponse } from "./paged";
import { createTagBody, tagSchema } from "../../tags/tags";
import { addSuppressionsBody, listSuppressionsQuery, suppressionSchema } from "../../suppressions/suppressions";
import { BULK_SUPPRESSIONS_MAX, bulkSuppressionsBody, bulkSuppressionsResultSchema } from "../../suppressions/bulk";
import { tagWithCountsSchema, updateTagBody } from "../../tags/manage";
import * as lr from "./lead-responses";

export const tagRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/tags",
    tag: "Tags",
    access: "read",
    summary: "All tags of the workspace by name, each with how many leads and mailboxes carry it",
    response: {
      description: "`{ tags: [{ id, name, color, createdAt, leadCount, mailboxCount }] }`",
      schema: z.object({ tags: z.array(tagWithCountsSchema) }),
    },
  }),
  create: defineRoute({
    method: "POST",
    path: "/tags",
    tag: "Tags",
    access: "write",
    body: createTagBody,
    summary: "Create a tag",
    response: { status: 201, description: "The tag", schema: tagSchema },
  }),
  update: defineRoute({
    method: "PATCH",
    path: "/tags/{tagId}",
    tag: "Tags",
    access: "write",
    body: updateTagBody,
    summary: "Rename and/or recolour a tag (color #rrggbb, null clears it); a name another tag has is 409",
    response: { description: "The tag", schema: tagSchema },
    errors: [404, 409],
  }),
  delete: defineRoute({
    method: "DELETE",
    path: "/tags/{tagId}",
    tag: "Tags",
    access: "write",
    summary: "Delete a tag (detaches it everywhere)",
    response: { description: "`{ deleted, id }`", schema: deletedSchema },
  }),
};

export const suppressionRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/suppressions",
    tag: "Suppressions",
    access: "read",
    query: listSuppressionsQuery,
    summary: "The suppression list (addresses and domains never emailed)",
    response: pagedListResponse("suppressions", suppressionSchema),
  }),
  add: defineRoute({
    method: "POST",
    path: "/suppressions",
    tag: "Suppressions",
    access: "write",
    body: addSuppressionsBody,
    summary: "Add addresses and/or domains",
    response: { description: "`{ added, existing, invalid, suppressions }`", schema: lr.addSuppressionsResultSchema },
  }),
  bulk: defineRoute({
    method: "POST",
    path: "/suppressions/bulk",
    tag: "Suppressions",
    access: "write",
    body: bulkSuppressionsBody,
    summary:
      `Add up to ${BULK_SUPPRESSIONS_MAX} addresses or domains (a CSV import's batch) with one result per entry, in order: ` +
      "added, existing, duplicate (earlier in the same request) or invalid with the reason",
    response: { description: "`{ added, existing, duplicate, invalid, results }`", schema: bulkSuppressionsResultSchema },
  }),
  delete: defineRoute({
    method: "DELETE",
    path: "/suppressions/{id}",
    tag: "Suppressions",
    access: "write",
    summary: "Remove one entry",
    response: { description: "`{ deleted, id }`", schema: deletedSchema },
  }),
};

export const timezoneRoutes = {
  list: defineRoute({
    method: "GET",
    path: "/timezones",
    tag: "Timezones",
    access: "read",
    summary: "Countries with their IANA timezones and today's UTC offsets",
    response: {
      description: "`{ countries: [{ code, name, timezones: [{ name, utcOffset, utcOffsetMinutes }] }] }`",
      schema: lr.timezonesSchema,
    },
  }),
};
