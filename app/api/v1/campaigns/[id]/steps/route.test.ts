import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { emails } from "@/db/schema";
import { call, makeWorkspace, type TestWorkspace } from "@/test/helpers";
import { insertMailbox } from "@/test/factories";
import { startMailWorld } from "@/test/mail-setup";
import { POST as CREATE_LEADS } from "../../../leads/route";
import { PUT as CONNECT } from "../../../mailboxes/by-email/[email]/route";
import { PATCH as PATCH_MAILBOX } from "../../../mailboxes/[id]/route";
import { POST as CREATE_CAMPAIGN } from "../../route";
import { PATCH as PATCH_SETTINGS } from "../settings/route";
import { GET as STEPS, POST as CREATE_STEP, PUT as PUT_STEPS } from "./route";
import { DELETE as DELETE_STEP, PATCH as PATCH_STEP } from "./[stepId]/route";
import { GET as LIST_ATT, POST as ADD_ATT } from "./[stepId]/attachments/route";
import { DELETE as DELETE_ATT } from "./[stepId]/attachments/[attachmentId]/route";
import { POST as PREVIEW } from "./preview/route";
import { POST as TEST_SEND } from "./[stepId]/test-send/route";
import { POST as SPAM } from "../check-spam-words/route";
import { GET as VARIABLES } from "../variables-check/route";
import { POST as ADD_LEADS } from "../leads/route";
import { PUT as PUT_POOL } from "../mailboxes/route";

let ws: TestWorkspace;
let world: Awaited<ReturnType<typeof startMailWorld>>;
beforeAll(async () => {
  world = await startMailWorld({ domain: "send.test", users: { "sam@send.test": "pw" } });
  ws = await makeWorkspace();
});
afterAll(() => world.close());

const p = (id: string, extra: Record<string, string> = {}) => ({ params: { id, ...extra } });
async function newCampaign(name = "C") {
  return (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: ws.fullKey, body: { name } })).body.id as string;
}
const step = (cid: string, body: Record<string, unknown>) => call(CREATE_STEP, "POST", "", { key: ws.fullKey, ...p(cid), body });
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0e2b1370000000049454e44ae426082",
  "hex",
);

describe("steps", () => {
  it("needs a subject on the first step only, numbers steps, and refuses a duplicate order+variant", async () => {
    const c = await newCampaign();
    const noSubject = await step(c, { bodyTemplate: "hi" });
    expect(noSubject.status).toBe(400);
    expect(noSubject.body.details.fieldErrors.subject[0]).toContain("first step");
    expect((await step(c, { subject: "Hello", bodyTemplate: "hi" })).body.stepOrder).toBe(0);
    const follow = await step(c, { bodyTemplate: "bump", delayHoursAfterPrevious: 36.5 });
    expect(follow.body).toMatchObject({ stepOrder: 1, subject: null, delayHoursAfterPrevious: 36.5 });
    expect((await step(c, { stepOrder: 1, variantGroup: "B", bodyTemplate: "bump B" })).status).toBe(201);
    const dup = await step(c, { stepOrder: 1, variantGroup: "B", bodyTemplate: "again" });
    expect(dup.status).toBe(409);
    const list = await call(STEPS, "GET", "", { key: ws.readKey, ...p(c) });
    expect(list.body.steps.map((s: any) => [s.stepOrder, s.variantGroup])).toEqual([
      [0, null],
      [1, null],
      [1, "B"],
    ]);
    const clear = await call(PATCH_STEP, "PATCH", "", {
      key: ws.fullKey,
      ...p(c, { stepId: list.body.steps[0].id }),
      body: { subject: "" },
    });
    expect(clear.status).toBe(400);
  });

  it("PUT replaces by (stepOrder, variantGroup): updates matches, creates new, deletes missing", async () => {
    const c = await newCampaign();
    const a = (await step(c, { subject: "S0", bodyTemplate: "zero" })).body;
    const b = (await step(c, { bodyTemplate: "one" })).body;
    const r = await call(PUT_STEPS, "PUT", "", {
      key: ws.fullKey,
      ...p(c),
      body: {
        steps: [
          { stepOrder: 0, subject: "S0 new", bodyTemplate: "zero!" },
          { stepOrder: 0, variantGroup: "B", subject: "S0 B", bodyTemplate: "zero B" },
          { stepOrder: 2, bodyTemplate: "two" },
        ],
      },
    });
    expect(r.body).toMatchObject({ created: 2, updated: 1, deleted: 1 });
    expect(r.body.steps.find((s: any) => s.stepOrder === 0 && !s.variantGroup)).toMatchObject({ id: a.id, subject: "S0 new" });
    expect(r.body.steps.some((s: any) => s.id === b.id)).toBe(false);
    const bad = await call(PUT_STEPS, "PUT", "", {
      key: ws.fullKey,
      ...p(c),
      body: { steps: [{ stepOrder: 0, bodyTemplate: "no subject" }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fieldErrors["steps.0.subject"]).toBeDefined();
  });

  it("refuses to delete a step that has sent, in DELETE and in PUT, changing nothing", async () => {
    const c = await newCampaign();
    const s0 = (await step(c, { subject: "S", bodyTemplate: "x" })).body;
    const s1 = (await step(c, { bodyTemplate: "y" })).body;
    const m = await insertMailbox(ws.workspaceId, "hist@steps.test");
    await getDb().insert(emails).values({
      id: "eml_st1",
      workspaceId: ws.workspaceId,
      mailboxId: m.id,
      leadEmail: "l@x.test",
      campaignId: c,
      stepId: s1.id,
      messageId: "<s@x>",
      subject: "s",
      status: "SENT",
    });
    const del = await call(DELETE_STEP, "DELETE", "", { key: ws.fullKey, ...p(c, { stepId: s1.id }) });
    expect(del.status).toBe(409);
    const put = await call(PUT_STEPS, "PUT", "", {
      key: ws.fullKey,
      ...p(c),
      body: { steps: [{ stepOrder: 0, subject: "changed", bodyTemplate: "x" }] },
    });
    expect(put.status).toBe(409);
    const list = (await call(STEPS, "GET", "", { key: ws.readKey, ...p(c) })).body.steps;
    expect(list.map((s: any) => s.subject)).toEqual(["S", null]);
    expect((await call(DELETE_STEP, "DELETE", "", { key: ws.fullKey, ...p(c, { stepId: s0.id }) })).status).toBe(200);
  });
});

describe("step attachments", () => {
  it("stores files, gives inline images a cid, and removes an inline image the body no longer shows", async () => {
    const c = await newCampaign();
    const s = (await step(c, { subject: "S", bodyTemplate: "x", bodyHtmlTemplate: "<p>x</p>" })).body;
    const file = await call(ADD_ATT, "POST", "", {
      key: ws.fullKey,
      ...p(c, { stepId: s.id }),
      body: { filename: "a.txt", contentType: "text/plain", contentBase64: Buffer.from("hello").toString("base64") },
    });
    expect(file.status).toBe(201);
    expect(file.body).toMatchObject({ filename: "a.txt", size: 5, cid: null, inline: false });
    const img = await call(ADD_ATT, "POST", "", {
      key: ws.fullKey,
      ...p(c, { stepId: s.id }),
      body: { filename: "logo.png", contentType: "image/png", contentBase64: PNG.toString("base64"), inline: true },
    });
    expect(img.body.cid).toMatch(/^img-[0-9a-f]{16}@outreach$/);
    const list = await call(LIST_ATT, "GET", "", { key: ws.readKey, ...p(c, { stepId: s.id }) });
    expect(list.body.attachments.find((a: any) => a.inline).dataBase64).toBe(PNG.toString("base64"));
    // Show it, then save a body without it: the image goes.
    await call(PATCH_STEP, "PATCH", "", {
      key: ws.fullKey,
      ...p(c, { stepId: s.id }),
      body: { bodyHtmlTemplate: `<p>x</p><img src="cid:${img.body.cid}">` },
    });
    expect((await call(LIST_ATT, "GET", "", { key: ws.readKey, ...p(c, { stepId: s.id }) })).body.attachments).toHaveLength(2);
    await call(PATCH_STEP, "PATCH", "", { key: ws.fullKey, ...p(c, { stepId: s.id }), body: { bodyHtmlTemplate: "<p>no image</p>" } });
    const after = (await call(LIST_ATT, "GET", "", { key: ws.readKey, ...p(c, { stepId: s.id }) })).body.attachments;
    expect(after.map((a: any) => a.filename)).toEqual(["a.txt"]);
    expect(
      (await call(DELETE_ATT, "DELETE", "", { key: ws.fullKey, ...p(c, { stepId: s.id, attachmentId: after[0].id }) })).body.deleted,
    ).toBe(true);
  });

  it("refuses a non-image inline, an inline image over 1 MB, more than 10 MB per step, bad base64 and an unknown fromAttachmentId", async () => {
    const c = await newCampaign();
    const s = (await step(c, { subject: "S", bodyTemplate: "x" })).body;
    const at = p(c, { stepId: s.id });
    const notImage = await call(ADD_ATT, "POST", "", {
      key: ws.fullKey,
      ...at,
      body: { filename: "x.png", contentType: "image/png", contentBase64: Buffer.from("not a png").toString("base64"), inline: true },
    });
    expect(notImage.status).toBe(400);
    const bigImg = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]);
    expect(
      (
        await call(ADD_ATT, "POST", "", {
          key: ws.fullKey,
          ...at,
          body: { filename: "big.png", contentType: "image/png", contentBase64: bigImg.toString("base64"), inline: true },
        })
      ).status,
    ).toBe(413);
    const six = Buffer.alloc(6 * 1024 * 1024, 1).toString("base64");
    expect(
      (
        await call(ADD_ATT, "POST", "", {
          key: ws.fullKey,
          ...at,
          body: { filename: "a.bin", contentType: "application/octet-stream", contentBase64: six },
        })
      ).status,
    ).toBe(201);
    const over = await call(ADD_ATT, "POST", "", {
      key: ws.fullKey,
      ...at,
      body: { filename: "b.bin", contentType: "application/octet-stream", contentBase64: six },
    });
    expect(over.status).toBe(413);
    expect(over.body.code).toBe("PAYLOAD_TOO_LARGE");
    expect(
      (
        await call(ADD_ATT, "POST", "", {
          key: ws.fullKey,
          ...at,
          body: { filename: "c", contentType: "text/plain", contentBase64: "***" },
        })
      ).status,
    ).toBe(400);
    const missing = await call(ADD_ATT, "POST", "", { key: ws.fullKey, ...at, body: { fromAttachmentId: "att_nope" } });
    expect(missing.status).toBe(404);
  });

  it("copies a file in the workspace by fromAttachmentId, optionally renamed", async () => {
    const c = await newCampaign();
    const s1 = (await step(c, { subject: "S", bodyTemplate: "x" })).body;
    const s2 = (await step(c, { bodyTemplate: "y" })).body;
    const orig = (
      await call(ADD_ATT, "POST", "", {
        key: ws.fullKey,
        ...p(c, { stepId: s1.id }),
        body: { filename: "price.pdf", contentType: "application/pdf", contentBase64: Buffer.from("%PDF").toString("base64") },
      })
    ).body;
    const copy = await call(ADD_ATT, "POST", "", {
      key: ws.fullKey,
      ...p(c, { stepId: s2.id }),
      body: { fromAttachmentId: orig.id, filename: "pricing.pdf" },
    });
    expect(copy.body).toMatchObject({ filename: "pricing.pdf", contentType: "application/pdf", size: 4 });
    const other = await makeWorkspace();
    const oc = (await call(CREATE_CAMPAIGN, "POST", "/campaigns", { key: other.fullKey, body: { name: "o" } })).body.id;
    const os = (await call(CREATE_STEP, "POST", "", { key: other.fullKey, ...p(oc), body: { subject: "S", bodyTemplate: "x" } })).body;
    expect(
      (await call(ADD_ATT, "POST", "", { key: other.fullKey, ...p(oc, { stepId: os.id }), body: { fromAttachmentId: orig.id } })).status,
    ).toBe(404);
  });
});

describe("spam words, preview, variables check, test send", () => {
  it("finds spam-trigger words per step and field with positions", async () => {
    const c = await newCampaign();
    await step(c, { subject: "Act now: 100% free", bodyTemplate: "This is a limited time offer, click here." });
    const r = await call(SPAM, "POST", "", { key: ws.readKey, ...p(c) });
    const m = r.body.steps[0].matches;
    expect(r.body.ok).toBe(false);
    expect(m).toEqual(
      expect.arrayContaining([
        { field: "subject", word: "act now", category: "urgency", index: 0, length: 7 },
        { field: "subject", word: "100% free", category: "money", index: 9, length: 9 },
        expect.objectContaining({ field: "bodyTemplate", word: "limited time", index: 10 }),
        expect.objectContaining({ field: "bodyTemplate", word: "click here" }),
      ]),
    );
  });

  it("previews a saved step for the first lead from its mailbox, and a draft; follow-ups show Re: + the first subject", async () => {
    const c = await newCampaign("Preview");
    const s0 = (
      await step(c, { subject: "Quick question, {{firstName}}", bodyTemplate: "Hi {{firstName}} at {{companyName}},\n\n{{signature}}" })
    ).body;
    const s1 = (await step(c, { subject: "ignored", bodyTemplate: "Bumping this, {{firstName}}" })).body;
    const m = await insertMailbox(ws.workspaceId, "olga@preview.test", { senderName: "Olga", signatureHtml: "<p>Olga<br>Preview Ltd</p>" });
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, ...p(c), body: { mailboxIds: [m.id] } });
    const leadIds = (
      await call(CREATE_LEADS, "POST", "/leads", {
        key: ws.fullKey,
        body: {
          leads: [
            { email: "first@preview.test", firstName: "Fay" },
            { email: "second@preview.test", firstName: "Sid", companyName: "Sidco" },
          ],
        },
      })
    ).body.leadIds;
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, ...p(c), body: { leadIds } });
    const r = await call(PREVIEW, "POST", "", { key: ws.readKey, ...p(c), body: { stepId: s0.id } });
    expect(r.body).toMatchObject({
      subject: "Quick question, Fay",
      text: "Hi Fay at ,\n\nOlga\nPreview Ltd",
      html: null,
      signature: "at_token",
      lead: { email: "first@preview.test" },
      mailbox: { email: "olga@preview.test" },
    });
    expect(r.body.variables).toMatchObject({ empty: ["companyName"], unknown: [], malformed: [] });
    expect(r.body.notes.join(" ")).toContain("{{companyName}} is empty");
    const other = await call(PREVIEW, "POST", "", { key: ws.readKey, ...p(c), body: { stepId: s1.id, leadId: leadIds[1] } });
    expect(other.body.subject).toBe("Re: Quick question, Sid");
    expect(other.body.text).toBe("Bumping this, Sid\n\nOlga\nPreview Ltd");
    expect(other.body.signature).toBe("appended_at_bottom");
    const draft = await call(PREVIEW, "POST", "", { key: ws.readKey, ...p(c), body: { subject: "{{Firstname}}", bodyTemplate: "x" } });
    expect(draft.body.variables.unknown).toEqual(["Firstname"]);
    expect(draft.body.notes[0]).toContain("Did you mean {{firstName}}?");
    await call(PATCH_SETTINGS, "PATCH", "", { key: ws.fullKey, ...p(c), body: { trackOpens: true } });
    const tracked = await call(PREVIEW, "POST", "", { key: ws.readKey, ...p(c), body: { stepId: s0.id } });
    expect(tracked.body.html).toContain('<div class="signature"><p>Olga<br>Preview Ltd</p></div>');
    expect(tracked.body.html).not.toMatch(/<img|\/t\//); // no pixel in previews
  });

  it("checks every step against every lead: unknown tokens, empty ones with lead counts, ok", async () => {
    const c = await newCampaign("Vars");
    await step(c, { subject: "Hi {{firstName}}", bodyTemplate: "{{plan}} {{colour}} {{frstName}}" });
    const leadIds = (
      await call(CREATE_LEADS, "POST", "/leads", {
        key: ws.fullKey,
        body: {
          leads: [
            { email: "v1@vars.test", firstName: "V", customFields: { plan: "Pro" } },
            { email: "v2@vars.test" },
            { email: "v3@vars.test", customFields: { colour: "red" } },
          ],
        },
      })
    ).body.leadIds;
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, ...p(c), body: { leadIds } });
    const r = await call(VARIABLES, "GET", "", { key: ws.readKey, ...p(c) });
    expect(r.body.ok).toBe(false);
    expect(r.body.leadsChecked).toBe(3);
    const s = r.body.steps[0];
    expect(s.unknown).toEqual([{ token: "frstName", leads: 3 }]);
    expect(s.empty).toEqual(
      expect.arrayContaining([
        { token: "firstName", leads: 2 },
        { token: "plan", leads: 2 },
        { token: "colour", leads: 2 },
      ]),
    );
    const fixed = await newCampaign("Vars ok");
    await step(fixed, { subject: "Hi", bodyTemplate: "{{firstName}}" });
    expect((await call(VARIABLES, "GET", "", { key: ws.readKey, ...p(fixed) })).body.ok).toBe(true);
  });

  it("test-sends a step rendered for a real lead with its files, records nothing, and allows 5 per minute", async () => {
    const connected = await call(CONNECT, "PUT", "", {
      key: ws.fullKey,
      params: { email: "sam@send.test" },
      body: { appPassword: "pw", senderName: "Sam" },
    });
    await call(PATCH_MAILBOX, "PATCH", "", { key: ws.fullKey, params: { id: connected.body.id }, body: { signatureHtml: "<p>Sam</p>" } });
    const c = await newCampaign("Test send");
    await call(PUT_POOL, "PUT", "", { key: ws.fullKey, ...p(c), body: { mailboxIds: [connected.body.id] } });
    const s = (
      await step(c, {
        subject: "For {{firstName}}",
        bodyTemplate: "Hello {{firstName}}",
        bodyHtmlTemplate: '<p>Hello {{firstName}}</p><img src="cid:CID">',
      })
    ).body;
    const img = (
      await call(ADD_ATT, "POST", "", {
        key: ws.fullKey,
        ...p(c, { stepId: s.id }),
        body: { filename: "logo.png", contentType: "image/png", contentBase64: PNG.toString("base64"), inline: true },
      })
    ).body;
    await call(PATCH_STEP, "PATCH", "", {
      key: ws.fullKey,
      ...p(c, { stepId: s.id }),
      body: { bodyHtmlTemplate: `<p>Hello {{firstName}}</p><img src="cid:${img.cid}">` },
    });
    await call(ADD_ATT, "POST", "", {
      key: ws.fullKey,
      ...p(c, { stepId: s.id }),
      body: { filename: "terms.txt", contentType: "text/plain", contentBase64: Buffer.from("terms").toString("base64") },
    });
    const leadIds = (
      await call(CREATE_LEADS, "POST", "/leads", { key: ws.fullKey, body: { leads: [{ email: "tess@lead.test", firstName: "Tess" }] } })
    ).body.leadIds;
    await call(ADD_LEADS, "POST", "", { key: ws.fullKey, ...p(c), body: { leadIds } });
    const before = world.smtp.received.length;
    const r = await call(TEST_SEND, "POST", "", { key: ws.fullKey, ...p(c, { stepId: s.id }), body: { to: "me@inbox.test" } });
    expect(r.status).toBe(200);
    const got = world.smtp.received[before];
    expect(got.to).toEqual(["me@inbox.test"]);
    expect(got.parsed.subject).toBe("For Tess");
    expect(got.parsed.text?.trim()).toBe("Hello Tess\n\nSam");
    expect(got.raw).toContain(`cid:${img.cid}`); // mailparser inlines it as a data URI; the wire has the cid
    expect(got.raw).toContain(`Content-ID: <${img.cid}>`);
    expect(got.parsed.attachments.map((a) => a.filename).sort()).toEqual(["logo.png", "terms.txt"]);
    expect((await getDb().select().from(emails).where(eq(emails.campaignId, c))).length).toBe(0);
    for (let i = 0; i < 4; i++)
      expect(
        (await call(TEST_SEND, "POST", "", { key: ws.fullKey, ...p(c, { stepId: s.id }), body: { to: "me@inbox.test" } })).status,
      ).toBe(200);
    const limited = await call(TEST_SEND, "POST", "", { key: ws.fullKey, ...p(c, { stepId: s.id }), body: { to: "me@inbox.test" } });
    expect(limited.status).toBe(429);
  });
});
