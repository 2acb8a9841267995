import { defineRoute } from "../route";
import { patchSubsequenceBody, subsequenceBody } from "../../campaigns/schemas";
import * as cr from "./campaign-responses";
import { deletedSchema } from "./responses";

const tag = "Sequence steps";

/** Subsequences of a campaign: named sequences a lead enters on a branch; their steps use the step routes with `subsequenceId`. */
export const subsequenceRoutes = {
  listSubsequences: defineRoute({
    method: "GET",
    path: "/campaigns/{id}/subsequences",
    tag,
    access: "read",
    summary: "The campaign's subsequences, each with its steps",
    response: { description: "`{ subsequences: [{ id, name, threading, steps }] }`", schema: cr.subsequencesSchema },
  }),
  createSubsequence: defineRoute({
    method: "POST",
    path: "/campaigns/{id}/subsequences",
    tag,
    access: "write",
    body: subsequenceBody,
    summary: "Add a subsequence (threading `same` by default: its emails continue the lead's thread)",
    response: { status: 201, description: "The subsequence", schema: cr.subsequenceSchema },
  }),
  patchSubsequence: defineRoute({
    method: "PATCH",
    path: "/campaigns/{id}/subsequences/{subId}",
    tag,
    access: "write",
    body: patchSubsequenceBody,
    summary: "Rename a subsequence or change its threading",
    response: { description: "The subsequence", schema: cr.subsequenceSchema },
  }),
  deleteSubsequence: defineRoute({
    method: "DELETE",
    path: "/campaigns/{id}/subsequences/{subId}",
    tag,
    access: "write",
    errors: [409],
    summary: "Delete a subsequence and its steps (409 once it has sent, while a lead is in it or a branch leads to it)",
    response: { description: "`{ deleted, id }`", schema: deletedSchema },
  }),
};
