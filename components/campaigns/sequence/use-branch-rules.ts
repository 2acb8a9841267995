"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, client, data } from "@/components/api-client";
import { keys, useTags } from "../queries";
import type { Step } from "../types";
import type { Rule } from "./branch-model";

/** A campaign's subsequences (the branch targets and their editors). */
export function useSubsequences(campaignId: string) {
  return useQuery({
    queryKey: keys.part(campaignId, "subsequences"),
    queryFn: ({ signal }) => data(client.GET("/campaigns/{id}/subsequences", { params: { path: { id: campaignId } }, signal })),
    select: (r) => r.subsequences,
  });
}

/** The workspace's members who can hold a conversation (owners, admins, members); empty when the list may not be read. */
function useAssignable() {
  return useQuery({
    queryKey: ["members"],
    queryFn: ({ signal }) => data(client.GET("/account/members", { signal })).then((r) => r.members),
    select: (ms) => ms.filter((m) => m.role !== "client"),
    retry: false,
  });
}

/** How many leads took each rule of each step, from the campaign stats. */
function useTaken(campaignId: string) {
  return useQuery({
    queryKey: keys.part(campaignId, "stats"),
    queryFn: ({ signal }) => data(client.GET("/campaigns/{id}/stats", { params: { path: { id: campaignId } }, signal })),
    select: (s) => s.branches,
  });
}

/**
 * One step's branch rules being edited: the draft list (saved with the step's PATCH, which refuses a rule
 * naming something that does not exist, by its place: `branches.1.action.tagId`), what the pickers offer,
 * and how many leads took each saved rule.
 */
export function useBranchRules(campaignId: string, step: Step) {
  const queryClient = useQueryClient();
  const [rules, setRules] = useState<Rule[]>(step.branches);
  // The rules as last read from or written to the server: the draft is compared with them, and a newer server
  // copy (another tab, the step's own editor saving) replaces the draft only while the draft has no edits.
  const [saved, setSaved] = useState<Rule[]>(step.branches);
  const dirty = JSON.stringify(rules) !== JSON.stringify(saved);
  const subsequences = useSubsequences(campaignId);
  const tags = useTags();
  const members = useAssignable();
  const taken = useTaken(campaignId);
  const save = useMutation({
    mutationFn: () =>
      data(
        client.PATCH("/campaigns/{id}/steps/{stepId}", {
          params: { path: { id: campaignId, stepId: step.id } },
          body: { branches: rules },
        }),
      ),
    onSuccess: async (written) => {
      setSaved(written.branches);
      setRules(written.branches);
      await queryClient.invalidateQueries({ queryKey: keys.campaign(campaignId) });
    },
  });
  if (JSON.stringify(step.branches) !== JSON.stringify(saved) && !dirty && !save.isPending) {
    setSaved(step.branches);
    setRules(step.branches);
  }
  const fe = save.error instanceof ApiError ? save.error.fieldErrors : {};
  const takenBy = (ruleIndex: number | null) => taken.data?.find((b) => b.stepId === step.id && b.ruleIndex === ruleIndex)?.taken ?? 0;
  const firsts = {
    subsequenceId: subsequences.data?.find((s) => s.id !== step.subsequenceId)?.id,
    tagId: tags.data?.[0]?.id,
    userId: members.data?.[0]?.userId,
  };
  return {
    rules,
    setRules,
    save,
    dirty,
    /** Saved just now and not edited since: the dashboard says so, and the e2e spec waits for it. */
    justSaved: save.isSuccess && !dirty,
    fe,
    takenBy,
    firsts,
    subsequences: (subsequences.data ?? []).filter((s) => s.id !== step.subsequenceId),
    tags: tags.data ?? [],
    members: members.data ?? [],
    reset: () => {
      setRules(saved);
      save.reset();
    },
  };
}

export type BranchRulesState = ReturnType<typeof useBranchRules>;
