"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="secondary"
      size="sm"
      className="w-full"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        // No next-auth redirect: its absolute URL may name another host than the one in the address bar.
        await signOut({ redirect: false });
        window.location.assign("/login");
      }}
    >
      Sign out
    </Button>
  );
}
