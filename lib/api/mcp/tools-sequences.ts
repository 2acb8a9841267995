import { campaignRoutes } from "../contracts/campaigns";
import { listSteps, replaceSteps } from "../../campaigns/steps";
import { createSubsequence, deleteSubsequence, listSubsequences, patchSubsequence } from "../../campaigns/subsequences";
import type { ToolDef } from "./kit";

/** A campaign's sequences: steps with their branch rules, and the subsequences branches lead into. */
export const SEQUENCE_TOOLS: ToolDef[] = [
  {
    name: "list_steps",
    description: "A campaign's steps in order, with their branch rules: the main sequence, or a subsequence's (subsequenceId).",
    route: campaignRoutes.listSteps,
    ids: { campaignId: "id" },
    run: (ctx, { params, query }) => listSteps(ctx, params.id, query.subsequenceId),
  },
  {
    name: "put_steps",
    description:
      "Replace a sequence's steps (the main one, or subsequenceId's), matched by stepOrder + variantGroup. Each step may carry " +
      "branches: [{ when: { replied: [intents] } | { noReplyAfterHours } | { opened: true } | { clicked: true } | { always: true }, " +
      "action: { type: continue | stop | subsequence (subsequenceId) | wait (days) | waitUntilReturn | tag (tagId) | assign (userId) } }]. " +
      "A step that has sent cannot be deleted (CONFLICT).",
    route: campaignRoutes.putSteps,
    ids: { campaignId: "id" },
    run: (ctx, { params, body }) => replaceSteps(ctx, params.id, body),
  },
  {
    name: "list_subsequences",
    description: "A campaign's subsequences (named sequences entered on a branch), each with its steps and threading.",
    route: campaignRoutes.listSubsequences,
    ids: { campaignId: "id" },
    run: (ctx, { params }) => listSubsequences(ctx, params.id),
  },
  {
    name: "create_subsequence",
    description:
      "Add a subsequence to a campaign: name, threading same (continue the lead's thread, default) or new. Then put_steps with its id.",
    route: campaignRoutes.createSubsequence,
    ids: { campaignId: "id" },
    run: (ctx, { params, body }) => createSubsequence(ctx, params.id, body),
  },
  {
    name: "update_subsequence",
    description: "Rename a subsequence or change its threading.",
    route: campaignRoutes.patchSubsequence,
    ids: { campaignId: "id", subsequenceId: "subId" },
    run: (ctx, { params, body }) => patchSubsequence(ctx, params.id, params.subId, body),
  },
  {
    name: "delete_subsequence",
    description:
      "Delete a subsequence and its steps; refused (CONFLICT) once it has sent, while a lead is in it, or while a branch leads to it.",
    route: campaignRoutes.deleteSubsequence,
    ids: { campaignId: "id", subsequenceId: "subId" },
    run: (ctx, { params }) => deleteSubsequence(ctx, params.id, params.subId),
  },
];
