"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { client, data, describeError } from "@/components/api-client";
import { useCan, useMember } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Select } from "@/components/ui/input";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import { ROLE_LABEL, ROLES, type Role } from "@/lib/roles";
import type { ResponseOf } from "@/lib/client";
import { INVITATION_KEYS, InviteDialog, RightsTable } from "./members-invite";
import { SettingsNav } from "./settings-nav";

type Member = ResponseOf<"/account/members", "get">["members"][number];
type Invitation = ResponseOf<"/account/invitations", "get">["invitations"][number];

const MEMBER_KEYS = ["members"];

/** Why a member's role and removal are locked for the signed-in user, or undefined when they are not. */
function lockedBecause(m: Member, myRole: Role | undefined, ownerCount: number): string | undefined {
  if (m.role === "owner" && ownerCount <= 1) return "The last owner: make someone else an owner first";
  if (m.role === "owner" && myRole !== "owner") return "Only an owner may change or remove an owner";
  return undefined;
}

function MemberRow({ m, ownerCount, onRemove }: { m: Member; ownerCount: number; onRemove: (m: Member) => void }) {
  const me = useMember();
  const router = useRouter();
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (role: Role) => data(client.PATCH("/account/members/{userId}", { params: { path: { userId: m.userId } }, body: { role } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: MEMBER_KEYS });
      if (m.userId === me?.userId) router.refresh(); // my own role: the whole dashboard changes
    },
  });
  const locked = lockedBecause(m, me?.role, ownerCount);
  const self = m.userId === me?.userId;
  const roles = ROLES.filter((r) => r !== "owner" || me?.role === "owner" || m.role === "owner");
  return (
    <Tr>
      <Td>
        <p className="font-medium text-gray-900">
          {m.name || m.email} {self && <span className="text-xs font-normal text-gray-500">(you)</span>}
        </p>
        {m.name && <p className="text-xs text-gray-600">{m.email}</p>}
      </Td>
      <Td>
        <span title={locked}>
          <Select
            aria-label={`Role of ${m.email}`}
            value={m.role}
            disabled={Boolean(locked) || change.isPending}
            onChange={(e) => change.mutate(e.target.value as Role)}
            className="w-44"
          >
            {roles.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABEL[r]}
              </option>
            ))}
          </Select>
        </span>
        {change.error && <p className="mt-1 text-xs text-red-700">{describeError(change.error)}</p>}
      </Td>
      <Td>{m.twoFactor ? <Badge tone="green">2FA on</Badge> : <Badge>2FA off</Badge>}</Td>
      <Td className="whitespace-nowrap text-gray-600">{m.lastActiveAt ? <RelativeTime iso={m.lastActiveAt} /> : "Never"}</Td>
      <Td className="text-right">
        <span title={locked}>
          <Button variant="ghost" size="sm" className="text-red-700" disabled={Boolean(locked)} onClick={() => onRemove(m)}>
            {self ? "Leave" : "Remove"}
          </Button>
        </span>
      </Td>
    </Tr>
  );
}

function RemoveDialog({ member, onClose }: { member?: Member; onClose: () => void }) {
  const me = useMember();
  const queryClient = useQueryClient();
  const self = member?.userId === me?.userId;
  const remove = useMutation({
    mutationFn: (userId: string) => data(client.DELETE("/account/members/{userId}", { params: { path: { userId } } })),
    onSuccess: async () => {
      // Leaving ends every session of mine, this one too.
      if (self) return window.location.assign("/login");
      onClose();
      await queryClient.invalidateQueries({ queryKey: MEMBER_KEYS });
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog
      open={Boolean(member)}
      onClose={close}
      title={self ? "Leave this workspace?" : `Remove ${member?.email ?? ""}?`}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="danger" disabled={remove.isPending} onClick={() => member && remove.mutate(member.userId)}>
            {remove.isPending ? "Removing…" : self ? "Leave" : "Remove"}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-gray-700">
        <p>
          {self ? "You" : "They"} lose access at once: every session of {self ? "yours" : "theirs"} is signed out and{" "}
          {self ? "your" : "their"} API keys in this workspace are revoked. Conversations assigned to {self ? "you" : "them"} become
          unassigned; what {self ? "you" : "they"} sent stays in the history.
        </p>
        {remove.error && <Alert tone="error">{describeError(remove.error)}</Alert>}
      </div>
    </Dialog>
  );
}

function PendingInvitations() {
  const queryClient = useQueryClient();
  const me = useMember();
  const invitations = useQuery({
    queryKey: INVITATION_KEYS,
    queryFn: ({ signal }) => data(client.GET("/account/invitations", { signal })).then((r) => r.invitations),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => data(client.DELETE("/account/invitations/{id}", { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: INVITATION_KEYS }),
  });
  if (invitations.error) return <Alert tone="error">Could not load invitations: {describeError(invitations.error)}</Alert>;
  if (!invitations.data?.length) return null;
  return (
    <section className="space-y-2">
      <h2 className="text-sm font-semibold text-gray-900">Pending invitations</h2>
      {revoke.error && <Alert tone="error">{describeError(revoke.error)}</Alert>}
      <Table aria-label="Pending invitations">
        <THead>
          <tr>
            <Th>Email</Th>
            <Th>Role</Th>
            <Th>Invited by</Th>
            <Th>Expires</Th>
            <Th />
          </tr>
        </THead>
        <TBody>
          {invitations.data.map((i: Invitation) => (
            <Tr key={i.id}>
              <Td className="font-medium">{i.email}</Td>
              <Td>{ROLE_LABEL[i.role]}</Td>
              <Td className="text-gray-600">{i.invitedBy ? i.invitedBy.name || i.invitedBy.email : "—"}</Td>
              <Td className="whitespace-nowrap text-gray-600">{new Date(i.expiresAt).toLocaleString()}</Td>
              <Td className="text-right">
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-red-700"
                  disabled={revoke.isPending || (i.role === "owner" && me?.role !== "owner")}
                  onClick={() => revoke.mutate(i.id)}
                >
                  Revoke
                </Button>
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
    </section>
  );
}

/** Settings → Members: who is in the workspace with which role, invitations, and what each role may do. */
export function Members() {
  const canManage = useCan("admin");
  if (!canManage) {
    return (
      <div className="space-y-6">
        <div>
          <p className="text-sm text-gray-500">Settings</p>
          <h1 className="text-xl font-semibold text-gray-900">Members</h1>
        </div>
        <Alert tone="info">Owners and admins manage the workspace's members. To leave it, use Settings → Workspace.</Alert>
        <RightsTable />
      </div>
    );
  }
  return <ManageMembers />;
}

function ManageMembers() {
  const me = useMember();
  const members = useQuery({
    queryKey: MEMBER_KEYS,
    queryFn: ({ signal }) => data(client.GET("/account/members", { signal })).then((r) => r.members),
  });
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member>();
  const ownerCount = members.data?.filter((m) => m.role === "owner").length ?? 0;

  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-gray-500">Settings</p>
        <div className="flex items-center justify-between">
          <h1 className="text-xl font-semibold text-gray-900">Members</h1>
          <Button onClick={() => setInviting(true)}>Invite</Button>
        </div>
        <div className="my-3">
          <SettingsNav active="members" />
        </div>
      </div>

      {members.error && <Alert tone="error">Could not load members: {describeError(members.error)}</Alert>}
      <Table aria-label="Members">
        <THead>
          <tr>
            <Th>Member</Th>
            <Th>Role</Th>
            <Th>Two-factor</Th>
            <Th>Last active</Th>
            <Th />
          </tr>
        </THead>
        <TBody>
          {members.data?.map((m) => (
            <MemberRow key={m.userId} m={m} ownerCount={ownerCount} onRemove={setRemoving} />
          ))}
        </TBody>
      </Table>

      <PendingInvitations />
      <RightsTable />

      <InviteDialog open={inviting} onClose={() => setInviting(false)} canInviteOwner={me?.role === "owner"} />
      <RemoveDialog member={removing} onClose={() => setRemoving(undefined)} />
    </div>
  );
}
