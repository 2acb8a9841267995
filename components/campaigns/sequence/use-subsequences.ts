"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, client, data } from "@/components/api-client";
import { keys } from "../queries";

/** A subsequence's own steps (the step routes with subsequenceId). */
export function useSubsequenceSteps(campaignId: string, subsequenceId: string) {
  return useQuery({
    queryKey: keys.part(campaignId, "steps", subsequenceId),
    queryFn: ({ signal }) =>
      data(client.GET("/campaigns/{id}/steps", { params: { path: { id: campaignId }, query: { subsequenceId } }, signal })).then(
        (r) => r.steps,
      ),
  });
}

/** Adding a subsequence: its name and threading, the create call and its field errors. */
export function useNewSubsequence(campaignId: string) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [threading, setThreading] = useState<"same" | "new">("same");
  const create = useMutation({
    mutationFn: () =>
      data(client.POST("/campaigns/{id}/subsequences", { params: { path: { id: campaignId } }, body: { name, threading } })),
    onSuccess: async () => {
      setName("");
      await queryClient.invalidateQueries({ queryKey: keys.campaign(campaignId) });
    },
  });
  const fe = create.error instanceof ApiError ? create.error.fieldErrors : {};
  return { name, setName, threading, setThreading, create, fe };
}

/** A subsequence's editing: a new step's fields and call, deleting a step or the subsequence. */
export function useSubsequenceEditor(campaignId: string, subsequenceId: string, nextOrder: number) {
  const queryClient = useQueryClient();
  const [subject, setSubject] = useState("");
  const [body, setBody] = useState("");
  const [delay, setDelay] = useState("24");
  const refresh = () => queryClient.invalidateQueries({ queryKey: keys.campaign(campaignId) });
  const addStep = useMutation({
    mutationFn: () =>
      data(
        client.POST("/campaigns/{id}/steps", {
          params: { path: { id: campaignId } },
          body: {
            subsequenceId,
            stepOrder: nextOrder,
            subject: subject.trim() || null,
            bodyTemplate: body,
            delayHoursAfterPrevious: Number(delay) || 0,
          },
        }),
      ),
    onSuccess: async () => {
      setSubject("");
      setBody("");
      await refresh();
    },
  });
  const deleteStep = useMutation({
    mutationFn: (stepId: string) => data(client.DELETE("/campaigns/{id}/steps/{stepId}", { params: { path: { id: campaignId, stepId } } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () =>
      data(client.DELETE("/campaigns/{id}/subsequences/{subId}", { params: { path: { id: campaignId, subId: subsequenceId } } })),
    onSuccess: refresh,
  });
  const fe = addStep.error instanceof ApiError ? addStep.error.fieldErrors : {};
  return { subject, setSubject, body, setBody, delay, setDelay, addStep, deleteStep, remove, fe };
}
