import { randomBytes } from "node:crypto";
import { and, asc, eq, isNotNull, or, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "../../db/client";
import { files, messageFiles, stepAttachments } from "../../db/schema";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { NotFoundError, PayloadTooLargeError, ValidationError } from "../errors";
import { decodeBase64, sniffImage, storeFile } from "../files/files";
import { newId } from "../ids";
import { findCampaign } from "./campaigns";
import type { attachmentBody } from "./schemas";
import { findStep } from "./steps";

export const STEP_ATTACHMENTS_LIMIT = 10 * 1024 * 1024;
export const INLINE_IMAGE_LIMIT = 1024 * 1024;

type AttachmentRow = typeof stepAttachments.$inferSelect;

function view(a: AttachmentRow, data?: Buffer) {
  return {
    id: a.id,
    filename: a.filename,
    contentType: a.contentType,
    size: a.size,
    cid: a.cid,
    inline: !!a.cid,
    ...(a.cid && data ? { dataBase64: data.toString("base64") } : {}),
  };
}

/** The list: inline images also carry their bytes as dataBase64, for the editor. */
export async function listAttachments(ctx: Ctx, campaignId: string, stepId: string) {
  requireAccess(ctx, "read");
  await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  await findStep(ctx.db, ctx.workspaceId, campaignId, stepId);
  const rows = await ctx.db
    .select({ a: stepAttachments, data: files.data })
    .from(stepAttachments)
    .innerJoin(files, eq(files.id, stepAttachments.fileId))
    .where(eq(stepAttachments.stepId, stepId))
    .orderBy(asc(stepAttachments.createdAt));
  return { attachments: rows.map((r) => view(r.a, r.data)) };
}

/** Files a step sends (for test sends and real sends): bytes included. */
export async function stepFiles(db: DbOrTx, stepId: string) {
  return db
    .select({ filename: stepAttachments.filename, contentType: stepAttachments.contentType, cid: stepAttachments.cid, data: files.data })
    .from(stepAttachments)
    .innerJoin(files, eq(files.id, stepAttachments.fileId))
    .where(eq(stepAttachments.stepId, stepId));
}

async function stepTotal(db: DbOrTx, stepId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<number>`coalesce(sum(${stepAttachments.size}), 0)::int` })
    .from(stepAttachments)
    .where(eq(stepAttachments.stepId, stepId));
  return n;
}

/**
 * POST …/attachments: a base64 file (inline images: PNG/JPEG/GIF/WebP ≤ 1 MB, given a cid), or a copy
 * of a file already in the workspace by `fromAttachmentId` (404 when there is none). 10 MB per step.
 */
export async function addAttachment(ctx: Ctx, campaignId: string, stepId: string, input: z.infer<typeof attachmentBody>) {
  requireAccess(ctx, "write");
  return withTransaction(ctx, async (tx) => {
    await findCampaign(tx, ctx.workspaceId, campaignId, true);
    await findStep(tx, ctx.workspaceId, campaignId, stepId);
    let fileId: string;
    let filename: string;
    let contentType: string;
    let size: number;
    let cid: string | null = null;
    if ("fromAttachmentId" in input) {
      const src = await findWorkspaceAttachment(tx, ctx.workspaceId, input.fromAttachmentId);
      if (!src) throw new NotFoundError("Attachment");
      ({ fileId, contentType, size } = src);
      filename = input.filename ?? src.filename;
    } else {
      const data = decodeBase64(input.contentBase64);
      if (!data) throw ValidationError.field("contentBase64", "is not valid base64");
      if (input.inline) {
        const type = sniffImage(data);
        if (!type) throw ValidationError.field("contentBase64", "an inline image must be a PNG, JPEG, GIF or WebP");
        if (data.length > INLINE_IMAGE_LIMIT)
          throw new PayloadTooLargeError(`An inline image may be at most 1 MB; this one is ${(data.length / 1048576).toFixed(2)} MB`);
        contentType = type;
        cid = `img-${randomBytes(8).toString("hex")}@outreach`;
      } else {
        contentType = input.contentType;
      }
      filename = input.filename;
      size = data.length;
      if ((await stepTotal(tx, stepId)) + size > STEP_ATTACHMENTS_LIMIT)
        throw new PayloadTooLargeError("A step's files may total at most 10 MB");
      fileId = await storeFile(tx, ctx.workspaceId, { filename, contentType, data });
    }
    if ("fromAttachmentId" in input && (await stepTotal(tx, stepId)) + size > STEP_ATTACHMENTS_LIMIT)
      throw new PayloadTooLargeError("A step's files may total at most 10 MB");
    const [row] = await tx
      .insert(stepAttachments)
      .values({ id: newId("att"), workspaceId: ctx.workspaceId, stepId, fileId, filename, contentType, size, cid })
      .returning();
    return view(row);
  });
}

/**
 * A file attachment known in the workspace, by id: one from an inbox conversation (a
 * received file or one sent with a reply), or another step's attachment. An upload not yet sent is
 * not a conversation's file (and is removed after a day with its bytes, which the step shares): 404.
 */
async function findWorkspaceAttachment(db: DbOrTx, workspaceId: string, id: string) {
  const [a] = await db
    .select()
    .from(stepAttachments)
    .where(and(eq(stepAttachments.id, id), eq(stepAttachments.workspaceId, workspaceId)));
  if (a) return a;
  const [m] = await db
    .select()
    .from(messageFiles)
    .where(
      and(
        eq(messageFiles.id, id),
        eq(messageFiles.workspaceId, workspaceId),
        or(isNotNull(messageFiles.replyId), isNotNull(messageFiles.sentReplyId)),
      ),
    );
  return m;
}

export async function deleteAttachment(ctx: Ctx, campaignId: string, stepId: string, attachmentId: string) {
  requireAccess(ctx, "write");
  await findCampaign(ctx.db, ctx.workspaceId, campaignId);
  await findStep(ctx.db, ctx.workspaceId, campaignId, stepId);
  const rows = await ctx.db
    .delete(stepAttachments)
    .where(and(eq(stepAttachments.id, attachmentId), eq(stepAttachments.stepId, stepId)))
    .returning({ id: stepAttachments.id });
  if (!rows.length) throw new NotFoundError("Attachment");
  return { deleted: true, id: attachmentId };
}
