"use client";

import { AlertsPanel } from "./alerts-panel";
import { BlacklistPanel } from "./blacklist-panel";
import { OverviewCards } from "./overview-cards";
import { PlacementPanel } from "./placement-panel";

/** The Deliverability page: overview numbers, open alerts, the blacklist check, and placement tests. */
export function DeliverabilityView() {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-gray-900">Deliverability</h1>
        <p className="text-sm text-gray-600">How your mailboxes and domains are doing with receiving servers.</p>
      </div>
      <OverviewCards />
      <AlertsPanel />
      <BlacklistPanel />
      <PlacementPanel />
    </div>
  );
}
