"use client";

import { describeError } from "@/components/api-client";
import { useCan, useMember } from "@/components/shell/member-context";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/input";
import { useAssign, useAssignableMembers } from "./queries";

type Assignee = { userId: string; name: string } | null;

/** "Assigned to Mia" / "Unassigned", as text (the list rows, and a read-only seat's conversation). */
export function AssigneeText({ assignee, className }: { assignee: Assignee; className?: string }) {
  const me = useMember()?.userId;
  return (
    <span className={className} data-testid="assignee">
      {assignee ? `Assigned to ${assignee.userId === me ? `${assignee.name} (you)` : assignee.name}` : "Unassigned"}
    </span>
  );
}

/**
 * Who handles the open conversation. Owners and admins pick any member (not a client seat) from the
 * members list; other members take it ("Assign to me") or let it go ("Unassign"). A client seat
 * sees the assignee as text.
 */
export function AssigneeControl({ leadId, assignee }: { leadId: string; assignee: Assignee }) {
  const canWrite = useCan("member");
  const canList = useCan("admin");
  const me = useMember();
  const members = useAssignableMembers(canWrite && canList);
  const assign = useAssign(leadId);
  if (!canWrite) return <AssigneeText assignee={assignee} className="text-sm text-gray-600" />;

  const error = assign.error && <p className="w-full text-xs text-red-700">Could not assign: {describeError(assign.error)}</p>;
  if (canList && members.data) {
    const listed = members.data.some((m) => m.userId === assignee?.userId);
    return (
      <div className="flex flex-wrap items-center gap-1.5">
        <label className="flex items-center gap-1.5 text-sm text-gray-700">
          Assigned to
          <Select
            aria-label="Assignee"
            value={assignee?.userId ?? ""}
            disabled={assign.isPending}
            onChange={(e) => assign.mutate(e.target.value || null)}
            className="h-8 w-auto min-w-40 text-sm"
          >
            <option value="">Nobody</option>
            {assignee && !listed && <option value={assignee.userId}>{assignee.name}</option>}
            {members.data.map((m) => (
              <option key={m.userId} value={m.userId}>
                {(m.name || m.email) + (m.userId === me?.userId ? " (you)" : "")}
              </option>
            ))}
          </Select>
        </label>
        {error}
      </div>
    );
  }
  const mine = !!me && assignee?.userId === me.userId;
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      <AssigneeText assignee={assignee} className="text-sm text-gray-700" />
      {me && !mine && (
        <Button variant="secondary" size="sm" disabled={assign.isPending} onClick={() => assign.mutate(me.userId)}>
          Assign to me
        </Button>
      )}
      {assignee && (
        <Button variant="ghost" size="sm" disabled={assign.isPending} onClick={() => assign.mutate(null)}>
          Unassign
        </Button>
      )}
      {error}
    </div>
  );
}
