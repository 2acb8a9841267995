import { POST as ADD_LEADS } from "../app/api/v1/campaigns/[id]/leads/route";
import { PUT as PUT_POOL } from "../app/api/v1/campaigns/[id]/mailboxes/route";
import { PATCH as STATUS } from "../app/api/v1/campaigns/[id]/status/route";
import { PUT as PUT_STEPS } from "../app/api/v1/campaigns/[id]/steps/route";
import { POST as CREATE_CAMPAIGN } from "../app/api/v1/campaigns/route";
import { POST as CREATE_LEADS } from "../app/api/v1/leads/route";
import { PUT as CONNECT } from "../app/api/v1/mailboxes/by-email/[email]/route";
import { afterAll, beforeAll } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "../db/client";
import { events, webhookDeliveries } from "../db/schema";
import { systemClock, useClock } from "../lib/clock";
import { closeAllTransports } from "../lib/sending/transports";
import { call, makeWorkspace, type TestWorkspace } from "./helpers";
import { startMailWorld } from "./mail-setup";

/**
 * The API calls a test makes to get a campaign sending: connect mailboxes, create the campaign with its
 * steps, give it a pool and leads, and set it ACTIVE. Nothing here asserts: each helper returns the
 * responses, so a test checks exactly what it means to check.
 */

type Response = Awaited<ReturnType<typeof call>>;
type Body = Record<string, unknown>;

export interface MailboxLogin {
  email: string;
  appPassword: string;
  senderName?: string;
}

/** Connects each mailbox through PUT /mailboxes/by-email/<email>, in order; returns the mailboxes as the API shows them. */
export async function connectMailboxes(key: string, logins: MailboxLogin[]): Promise<any[]> {
  const connected: any[] = [];
  for (const { email, appPassword, senderName } of logins) {
    connected.push((await call(CONNECT, "PUT", "", { key, params: { email }, body: { appPassword, senderName } })).body);
  }
  return connected;
}

/** Creates a campaign and PUTs its steps; `stepsResponse` is the PUT's answer. */
export async function createCampaignWithSteps(
  key: string,
  campaignBody: Body,
  steps: Body[],
): Promise<{ campaign: any; stepsResponse: Response }> {
  const campaign = (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key, body: campaignBody })).body;
  const stepsResponse = await call(PUT_STEPS, "PUT", "", { key, params: { id: campaign.id }, body: { steps } });
  return { campaign, stepsResponse };
}

/** Sets the campaign ACTIVE, confirming the launch check's warnings. */
export function activateCampaign(key: string, campaignId: string): Promise<Response> {
  return call(STATUS, "PATCH", "", { key, params: { id: campaignId }, body: { status: "ACTIVE", confirm: true } });
}

export interface CampaignSetup {
  /** The POST /campaigns body. */
  campaign: Body;
  steps: Body[];
  /** The pool (PUT /campaigns/<id>/mailboxes). */
  mailboxIds: string[];
  /** The leads to create (POST /leads) and add to the campaign, in order. */
  leads: Body[];
}

export interface PreparedCampaign {
  campaign: any;
  leadIds: string[];
  /** The per-lead results of adding them to the campaign (mailbox assigned, …). */
  added: any[];
  stepsResponse: Response;
  leadsResponse: Response;
}

/** Everything up to launch: campaign, steps, pool, leads created and added. The campaign stays DRAFT. */
export async function prepareCampaign(key: string, setup: CampaignSetup): Promise<PreparedCampaign> {
  const { campaign, stepsResponse } = await createCampaignWithSteps(key, setup.campaign, setup.steps);
  await call(PUT_POOL, "PUT", "", { key, params: { id: campaign.id }, body: { mailboxIds: setup.mailboxIds } });
  const leadsResponse = await call(CREATE_LEADS, "POST", "/leads", { key, body: { leads: setup.leads } });
  const leadIds: string[] = leadsResponse.body.leadIds;
  const added = (await call(ADD_LEADS, "POST", "", { key, params: { id: campaign.id }, body: { leadIds } })).body.results;
  return { campaign, leadIds, added, stepsResponse, leadsResponse };
}

/** `prepareCampaign`, then PATCH status ACTIVE with confirm; `launched` is that PATCH's answer. */
export async function launchCampaign(key: string, setup: CampaignSetup): Promise<PreparedCampaign & { launched: Response }> {
  const prepared = await prepareCampaign(key, setup);
  return { ...prepared, launched: await activateCampaign(key, prepared.campaign.id) };
}

/** An emitted section 6 event as a test reads it back. */
export interface EmittedEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * The events named `event` emitted in a workspace, oldest first: those still in the outbox and those a
 * webhook job has already turned into deliveries (dispatch takes them out of the outbox; each delivery
 * keeps the event's envelope — id, time, data — and an event counts once however many webhooks got it).
 */
export async function workspaceEvents(workspaceId: string, event: string): Promise<EmittedEvent[]> {
  const outbox = await getDb()
    .select({ id: events.id, event: events.event, data: events.data, createdAt: events.createdAt })
    .from(events)
    .where(and(eq(events.workspaceId, workspaceId), eq(events.event, event)));
  const delivered = await getDb()
    .select({ eventId: webhookDeliveries.eventId, body: webhookDeliveries.body })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.workspaceId, workspaceId), eq(webhookDeliveries.event, event)));
  const byId = new Map<string, EmittedEvent>(outbox.map((e) => [e.id, e]));
  for (const d of delivered) {
    if (byId.has(d.eventId)) continue;
    const envelope = JSON.parse(d.body) as { id: string; event: string; createdAt: string; data: Record<string, unknown> };
    byId.set(d.eventId, { ...envelope, createdAt: new Date(envelope.createdAt) });
  }
  return [...byId.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
}

export interface MailSuite {
  world: Awaited<ReturnType<typeof startMailWorld>>;
  ws: TestWorkspace;
}

/**
 * The mail peers and a workspace for a test file: started before its tests (filled into the returned
 * object then); after them the clock is the system's again, the SMTP transports and the peers are closed.
 */
export function mailSuite(opts: Parameters<typeof startMailWorld>[0]): MailSuite {
  const suite = {} as MailSuite;
  beforeAll(async () => {
    suite.world = await startMailWorld(opts);
    suite.ws = await makeWorkspace();
  }, 60_000);
  afterAll(async () => {
    useClock(systemClock);
    closeAllTransports();
    await suite.world.close();
  });
  return suite;
}
