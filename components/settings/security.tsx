"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { client, data, describeError } from "@/components/api-client";
import { useMember } from "@/components/shell/member-context";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Switch } from "@/components/ui/switch";
import { SessionsSection } from "./security-sessions";
import { TWO_FACTOR_KEY, TwoFactorSection } from "./security-two-factor";
import { SettingsNav } from "./settings-nav";

const SETTING_KEY = ["securitySettings"];

/** The owner's switch: require two-factor sign-in of every member of the workspace. */
function RequireTwoFactor() {
  const queryClient = useQueryClient();
  const setting = useQuery({ queryKey: SETTING_KEY, queryFn: ({ signal }) => data(client.GET("/settings/security", { signal })) });
  const mine = useQuery({ queryKey: TWO_FACTOR_KEY, queryFn: ({ signal }) => data(client.GET("/account/two-factor", { signal })) });
  const [confirming, setConfirming] = useState<boolean>();
  const save = useMutation({
    mutationFn: (requireTwoFactor: boolean) => data(client.PUT("/settings/security", { body: { requireTwoFactor } })),
    onSuccess: async (r) => {
      setConfirming(undefined);
      queryClient.setQueryData(SETTING_KEY, r);
    },
  });
  const on = setting.data?.requireTwoFactor ?? false;
  const ownOn = mine.data?.enabled ?? false;

  return (
    <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-4" aria-labelledby="require-heading">
      <div className="flex items-start justify-between gap-4">
        <div className="space-y-1">
          <h2 id="require-heading" className="text-sm font-semibold text-gray-900">
            Require two-factor sign-in for every member
          </h2>
          <p className="max-w-2xl text-sm text-gray-600">
            Members without it are signed out at once and, when they sign in again, must set it up before they can use the workspace.
          </p>
          {!on && mine.data && !ownOn && (
            <p className="text-sm text-yellow-800">Turn on two-factor sign-in for your own account first (above).</p>
          )}
        </div>
        <Switch
          aria-label="Require two-factor sign-in for every member"
          checked={on}
          disabled={!setting.data || (!on && !ownOn) || save.isPending}
          onClick={() => setConfirming(!on)}
        />
      </div>
      {setting.error && <Alert tone="error">Could not load: {describeError(setting.error)}</Alert>}
      <Dialog
        open={confirming !== undefined}
        onClose={() => {
          setConfirming(undefined);
          save.reset();
        }}
        title={confirming ? "Require two-factor sign-in?" : "Stop requiring two-factor sign-in?"}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(undefined)}>
              Cancel
            </Button>
            <Button
              variant={confirming ? "danger" : "primary"}
              disabled={save.isPending}
              onClick={() => confirming !== undefined && save.mutate(confirming)}
            >
              {save.isPending ? "Saving…" : confirming ? "Require it and sign them out" : "Stop requiring it"}
            </Button>
          </>
        }
      >
        <div className="space-y-3 text-sm text-gray-700">
          {confirming ? (
            <p>
              Every member of this workspace who has not turned on two-factor sign-in is signed out now, on every device. When they sign in
              again they are asked to set it up first. Members who have it on are not affected.
            </p>
          ) : (
            <p>Members may then turn their own two-factor sign-in off. Nobody is signed out.</p>
          )}
          {save.error && <Alert tone="error">{describeError(save.error)}</Alert>}
        </div>
      </Dialog>
    </section>
  );
}

/** Settings → Security: the user's two-factor sign-in and sessions; for owners, the workspace's requirement. */
export function Security() {
  const isOwner = useMember()?.role === "owner";
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm text-gray-500">Settings</p>
        <h1 className="text-xl font-semibold text-gray-900">Security</h1>
        <div className="my-3">
          <SettingsNav active="security" />
        </div>
      </div>
      <TwoFactorSection />
      {isOwner && <RequireTwoFactor />}
      <SessionsSection />
    </div>
  );
}
