import type { DbOrTx } from "../../db/client";
import type { Clock } from "../clock";
import type { JobCtx } from "../ctx";
import type { Logger } from "../log";
import { deliverDue } from "./deliver";
import { DISPATCH_BATCH, dispatchEvents } from "./dispatch";

export interface TurnReport {
  events: number;
  deliveries: number;
  attempted: number;
  delivered: number;
}

/** Dispatch transactions per turn: up to 5 × 500 events. */
const DISPATCH_ROUNDS = 5;

/**
 * One turn of the webhook job: new outbox events become deliveries while due deliveries go out — the
 * two overlap (they touch different rows: dispatch inserts deliveries its transaction has not yet
 * committed; delivery claims committed ones).
 */
export async function webhookTurn(db: DbOrTx, clock: Clock, log?: Logger): Promise<TurnReport> {
  const dispatched = { events: 0, deliveries: 0 };
  let dispatching = true;
  const dispatch = (async () => {
    try {
      for (let i = 0; i < DISPATCH_ROUNDS; i++) {
        const d = await dispatchEvents(db, clock);
        dispatched.events += d.events;
        dispatched.deliveries += d.deliveries;
        if (d.events < DISPATCH_BATCH) break;
      }
    } finally {
      dispatching = false;
    }
  })();
  const s = await deliverDue(db, clock, { batches: 10, more: () => dispatching, log });
  await dispatch;
  return { ...dispatched, ...s };
}

/** How long one run works through a backlog before it yields to the next tick. */
const RUN_BUDGET_MS = 5_000;

/** The webhook job's run: turns back to back until nothing is left or the budget (by ctx's clock) is spent. */
export async function runWebhookDeliveries(ctx: JobCtx): Promise<TurnReport> {
  const until = ctx.clock.now().getTime() + RUN_BUDGET_MS;
  const total: TurnReport = { events: 0, deliveries: 0, attempted: 0, delivered: 0 };
  for (;;) {
    const t = await webhookTurn(ctx.db, ctx.clock, ctx.log);
    total.events += t.events;
    total.deliveries += t.deliveries;
    total.attempted += t.attempted;
    total.delivered += t.delivered;
    if ((t.events === 0 && t.attempted === 0) || ctx.clock.now().getTime() > until) return total;
  }
}
