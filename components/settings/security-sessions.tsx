"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { client, data, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import type { ResponseOf } from "@/lib/client";
import { describeUserAgent } from "./user-agent";

type SessionView = ResponseOf<"/account/sessions", "get">["sessions"][number];

const SESSIONS_KEY = ["accountSessions"];

function when(iso: string): string {
  return new Date(iso).toLocaleString();
}

/** Where the user is signed in: every open session, with a way to end each one or all the others. */
/** The open sessions, ending one and ending every other, with what was done. */
function useSessions() {
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: ({ signal }) => data(client.GET("/account/sessions", { signal })).then((r) => r.sessions),
  });
  const [notice, setNotice] = useState<string>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });

  const end = useMutation({
    mutationFn: (s: SessionView) => data(client.DELETE("/account/sessions/{id}", { params: { path: { id: s.id } } })).then(() => s),
    onSuccess: async (s) => {
      if (s.current) {
        // This browser's own session is over: clear the cookie and go to the sign-in page.
        await signOut({ redirect: false });
        window.location.assign("/login");
        return;
      }
      setNotice(`Ended the session of ${describeUserAgent(s.userAgent)}.`);
      await refresh();
    },
  });
  const endOthers = useMutation({
    mutationFn: () => data(client.POST("/account/sessions/revoke-others")),
    onSuccess: async (r) => {
      setNotice(
        r.revoked === 0 ? "No other session was open." : `Signed out ${r.revoked} other ${r.revoked === 1 ? "session" : "sessions"}.`,
      );
      await refresh();
    },
  });
  return { sessions, notice, end, endOthers };
}

export function SessionsSection() {
  const { sessions, notice, end, endOthers } = useSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  return (
    <section className="space-y-3" aria-labelledby="sessions-heading">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 id="sessions-heading" className="text-sm font-semibold text-gray-900">
            Where you are signed in
          </h2>
          <p className="text-sm text-gray-600">An ended session is signed out on its next request.</p>
        </div>
        <Button variant="secondary" disabled={others === 0 || endOthers.isPending} onClick={() => endOthers.mutate()}>
          {endOthers.isPending ? "Signing out…" : "Sign out all other sessions"}
        </Button>
      </div>
      {notice && <Alert tone="success">{notice}</Alert>}
      {sessions.error && <Alert tone="error">Could not load sessions: {describeError(sessions.error)}</Alert>}
      {(end.error || endOthers.error) && <Alert tone="error">{describeError(end.error ?? endOthers.error)}</Alert>}
      <Table aria-label="Sessions">
        <THead>
          <tr>
            <Th>Device</Th>
            <Th>IP address</Th>
            <Th>Signed in</Th>
            <Th>Last seen</Th>
            <Th />
          </tr>
        </THead>
        <TBody>
          {sessions.data?.map((s) => (
            <Tr key={s.id}>
              <Td>
                <span className="font-medium" title={s.userAgent ?? undefined}>
                  {describeUserAgent(s.userAgent)}
                </span>{" "}
                {s.current && <Badge tone="indigo">This device</Badge>}
              </Td>
              <Td className="font-mono text-xs text-gray-600">{s.ip ?? "—"}</Td>
              <Td className="whitespace-nowrap text-gray-600">{when(s.createdAt)}</Td>
              <Td className="whitespace-nowrap text-gray-600">{when(s.lastSeenAt)}</Td>
              <Td className="text-right">
                <Button variant="ghost" size="sm" className="text-red-700" disabled={end.isPending} onClick={() => end.mutate(s)}>
                  {s.current ? "Sign out" : "End"}
                </Button>
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
    </section>
  );
}
