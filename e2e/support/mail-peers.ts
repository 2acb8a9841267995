import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { ImapFlow } from "imapflow";
import { startImapPeer, type ImapPeer } from "../../test/peers/imap";
import { startSmtpPeer, type SmtpPeer } from "../../test/peers/smtp";
import { apiClient, ok } from "./api";

/** The one login a spec's own peers accept, and the name it sends as. */
export interface SpecMailbox {
  email: string;
  password: string;
  senderName: string;
}

const PIXEL_GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/**
 * Mail peers of one spec alone, for the inbox specs: hoodiecrow keeps one mailbox store for all its
 * users, so the global setup's IMAP peer would show the spec's mail to every other mailbox (and theirs
 * to this one); and what the global SMTP peer receives cannot be read from the spec. The app reaches
 * both on 127.0.0.1. With them, a server for a message's remote image that counts its requests: nothing
 * may fetch it before "Show images".
 *
 * Registers the spec's hooks: the peers start before all its tests; after each test — before the peers
 * close — what it `created` is paused (the campaign, then the mailbox), so the rest of the suite runs on
 * a quiet instance: a paused mailbox reports no issue once its server is gone (a mailbox with send
 * history cannot be deleted); after all, the peers close (each given at most 5 s).
 */
export function useSpecMailPeers(mailbox: SpecMailbox, opts: { rejectRecipients: string[] }) {
  let smtp: SmtpPeer | undefined;
  let imap: ImapPeer | undefined;
  let pixel: Server | undefined;

  const peers = {
    get smtp(): SmtpPeer {
      return smtp!;
    },
    get imap(): ImapPeer {
      return imap!;
    },
    /** Requests for the remote image so far. */
    pixelHits: 0,
    /** Every other request the image server got (path and query), e.g. a hostile payload's beacon. */
    otherRequests: [] as string[],
    /** The image server's origin, for payloads that must never reach it. */
    get serverUrl(): string {
      return `http://127.0.0.1:${(pixel!.address() as AddressInfo).port}`;
    },
    /** The remote image's address. */
    get imageUrl(): string {
      return `http://127.0.0.1:${(pixel!.address() as AddressInfo).port}/pixel.gif`;
    },
    /** What the spec created that would keep running against the peers after they close. */
    created: {} as { mailboxId?: string; campaignId?: string },

    /** Imports the mailbox on these peers through the API (verified, so both logins are tried) and returns its id. */
    async importMailbox(page: Page): Promise<string> {
      const item = {
        email: mailbox.email,
        senderName: mailbox.senderName,
        smtpHost: "127.0.0.1",
        smtpPort: peers.smtp.port,
        smtpSecurity: "NONE" as const,
        smtpPassword: mailbox.password,
        imapHost: "127.0.0.1",
        imapPort: peers.imap.port,
        imapSecurity: "NONE" as const,
      };
      const imported = await ok(apiClient(page).POST("/mailboxes/bulk-import", { body: { verify: true, mailboxes: [item] } }));
      expect(imported.failed).toEqual([]);
      const mailboxId = imported.mailboxes[0].id;
      peers.created.mailboxId = mailboxId;
      return mailboxId;
    },

    /**
     * A one-step campaign from the spec's mailbox to one new lead, sending at any hour with no pacing
     * gap, not launched yet (a spec may attach more first, e.g. a reply agent). Paused after the test.
     */
    async oneStepCampaign(
      page: Page,
      o: { mailboxId: string; lead: { email: string } & Record<string, string>; name: string; subject: string; body: string },
    ): Promise<{ campaignId: string; leadId: string; launch: () => Promise<void> }> {
      const api = apiClient(page);
      const [leadId] = (await ok(api.POST("/leads", { body: { leads: [o.lead] } }))).leadIds;
      const body = { name: o.name, sendWindowStartHour: 0, sendWindowEndHour: 24, sendDaysOfWeek: [0, 1, 2, 3, 4, 5, 6], minGapMinutes: 0 };
      const campaign = await ok(api.POST("/campaigns", { body }));
      peers.created.campaignId = campaign.id;
      const path = { id: campaign.id };
      const steps = [{ stepOrder: 0, subject: o.subject, bodyTemplate: o.body }];
      await ok(api.PUT("/campaigns/{id}/steps", { params: { path }, body: { steps } }));
      await ok(api.PUT("/campaigns/{id}/mailboxes", { params: { path }, body: { mailboxIds: [o.mailboxId] } }));
      await ok(api.POST("/campaigns/{id}/leads", { params: { path }, body: { leadIds: [leadId] } }));
      const launch = async () => {
        await ok(api.PATCH("/campaigns/{id}/status", { params: { path }, body: { status: "ACTIVE", confirm: true } }));
      };
      return { campaignId: campaign.id, leadId, launch };
    },

    /** The Message-ID of the first email the SMTP peer received for `to`, once it has (the worker sends it). */
    async firstEmailTo(to: string): Promise<string> {
      await expect
        .poll(() => peers.smtp.received.filter((m) => m.to.includes(to)).length, { timeout: 60_000, message: `an email reaches ${to}` })
        .toBe(1);
      return peers.smtp.received.find((m) => m.to.includes(to))!.parsed.messageId!;
    },

    /** Puts a raw message in the mailbox's INBOX on the IMAP peer, as if it had arrived. */
    async deliver(raw: string): Promise<void> {
      const client = new ImapFlow({
        host: "127.0.0.1",
        port: peers.imap.port,
        secure: false,
        doSTARTTLS: false,
        auth: { user: mailbox.email, pass: mailbox.password },
        logger: false,
      });
      await client.connect();
      try {
        await client.append("INBOX", raw);
      } finally {
        await client.logout();
      }
    },
  };

  test.beforeAll(async () => {
    const users = { [mailbox.email]: mailbox.password };
    smtp = await startSmtpPeer({ users, rejectRecipients: opts.rejectRecipients });
    imap = await startImapPeer({ users });
    pixel = createServer((req, res) => {
      if (req.url?.startsWith("/pixel.gif")) peers.pixelHits++;
      else peers.otherRequests.push(req.url ?? "");
      res.writeHead(200, { "Content-Type": "image/gif", "Cache-Control": "no-store" });
      res.end(PIXEL_GIF);
    });
    await new Promise<void>((r) => pixel!.listen(0, "127.0.0.1", () => r()));
  });

  test.afterEach(async ({ page }) => {
    const { campaignId, mailboxId } = peers.created;
    const api = apiClient(page);
    if (campaignId) await api.PATCH("/campaigns/{id}/status", { params: { path: { id: campaignId } }, body: { status: "PAUSED" } });
    if (mailboxId) await ok(api.PATCH("/mailboxes/{id}", { params: { path: { id: mailboxId } }, body: { sendingEnabled: false } }));
  });

  test.afterAll(async () => {
    const bounded = (p: Promise<unknown> | undefined) => Promise.race([p, new Promise((r) => setTimeout(r, 5000))]);
    await Promise.allSettled([bounded(smtp?.close()), bounded(imap?.close()), bounded(new Promise((r) => pixel?.close(r)))]);
  });

  return peers;
}
