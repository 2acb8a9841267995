import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Attachment } from "mailparser";
import type { DbOrTx } from "../../db/client";
import { files, messageFiles, stepAttachments } from "../../db/schema";
import { readBodyBytes } from "../body";
import { requireAccess, type Ctx } from "../ctx";
import { BadRequestError, NotFoundError } from "../errors";
import { storeFile } from "../files/files";
import { newId } from "../ids";

export const RECEIVED_FILE_LIMIT = 15 * 1024 * 1024;
export const RECEIVED_MESSAGE_LIMIT = 25 * 1024 * 1024;
export const UPLOAD_LIMIT = 20 * 1024 * 1024;
export const UPLOAD_LIFETIME_MS = 24 * 3600_000;

/** Keeps a received message's files: ≤ 15 MB each, 25 MB in all, inline images (logos) skipped. */
export async function storeReceivedFiles(db: DbOrTx, workspaceId: string, replyId: string, attachments: Attachment[]): Promise<number> {
  return storeMessageFiles(db, workspaceId, { replyId }, attachments);
}

/**
 * Keeps the files of a message read from a mailbox — one received (`replyId`) or an answer picked up
 * from the Sent folder (`sentReplyId`) — with the same limits: ≤ 15 MB each, 25 MB in all, inline
 * images (logos) skipped.
 */
export async function storeMessageFiles(
  db: DbOrTx,
  workspaceId: string,
  owner: { replyId: string } | { sentReplyId: string },
  attachments: Attachment[],
): Promise<number> {
  let total = 0;
  let kept = 0;
  for (const a of attachments) {
    const inlineImage = a.related || (a.contentDisposition === "inline" && a.contentType.startsWith("image/"));
    if (inlineImage || /delivery-status|rfc822-headers/i.test(a.contentType)) continue;
    if (a.size > RECEIVED_FILE_LIMIT || total + a.size > RECEIVED_MESSAGE_LIMIT) continue;
    total += a.size;
    const filename = a.filename ?? "attachment";
    const fileId = await storeFile(db, workspaceId, { filename, contentType: a.contentType, data: a.content });
    await db
      .insert(messageFiles)
      .values({ id: newId("mfl"), workspaceId, ...owner, fileId, filename, contentType: a.contentType, size: a.size });
    kept++;
  }
  return kept;
}

export type FileView = { id: string; filename: string; contentType: string; size: number };

export async function filesOf(db: DbOrTx, by: { replyIds?: string[]; sentReplyIds?: string[] }): Promise<Map<string, FileView[]>> {
  const out = new Map<string, FileView[]>();
  const rows = [
    ...(by.replyIds?.length ? await db.select().from(messageFiles).where(inArray(messageFiles.replyId, by.replyIds)) : []),
    ...(by.sentReplyIds?.length ? await db.select().from(messageFiles).where(inArray(messageFiles.sentReplyId, by.sentReplyIds)) : []),
  ];
  for (const r of rows) {
    const key = (r.replyId ?? r.sentReplyId)!;
    (out.get(key) ?? out.set(key, []).get(key)!).push({ id: r.id, filename: r.filename, contentType: r.contentType, size: r.size });
  }
  return out;
}

/** GET /replies/attachments/<id>: the bytes, as a download. */
export async function downloadAttachment(ctx: Ctx, id: string): Promise<Response> {
  requireAccess(ctx, "read");
  const [row] = await ctx.db
    .select({ f: messageFiles, data: files.data })
    .from(messageFiles)
    .innerJoin(files, eq(files.id, messageFiles.fileId))
    .where(and(eq(messageFiles.id, id), eq(messageFiles.workspaceId, ctx.workspaceId)));
  if (!row) throw new NotFoundError("Attachment");
  return new Response(new Uint8Array(row.data), {
    headers: {
      "Content-Type": row.f.contentType,
      "Content-Length": String(row.data.length),
      "Content-Disposition": `attachment; filename*=UTF-8''${encodeURIComponent(row.f.filename)}`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** POST /replies/uploads: raw bytes with X-Filename (URL-encoded) and X-Content-Type; counted while it streams. */
export async function uploadFile(ctx: Ctx, req: Request) {
  requireAccess(ctx, "write");
  const rawName = req.headers.get("x-filename");
  if (!rawName) throw new BadRequestError("X-Filename is required (the URL-encoded file name)");
  let filename: string;
  try {
    filename = decodeURIComponent(rawName)
      .replace(/[\\/\r\n]/g, "_")
      .slice(0, 255);
  } catch {
    throw new BadRequestError("X-Filename is not valid URL encoding");
  }
  const contentType = (req.headers.get("x-content-type") ?? "application/octet-stream").slice(0, 255);
  const data = Buffer.from(await readBodyBytes(req, UPLOAD_LIMIT));
  if (data.length === 0) throw new BadRequestError("The upload is empty");
  const fileId = await storeFile(ctx.db, ctx.workspaceId, { filename, contentType, data });
  const id = newId("mfl");
  await ctx.db.insert(messageFiles).values({
    id,
    workspaceId: ctx.workspaceId,
    upload: true,
    fileId,
    filename,
    contentType,
    size: data.length,
    createdAt: ctx.clock.now(),
  });
  return { id, filename, size: data.length };
}

/**
 * Uploads never sent are removed after a day, with their bytes — unless something else
 * holds the same file (a step attachment made from the upload before such copies were refused).
 */
export async function cleanupUploads(db: DbOrTx, now: Date, limit = 20_000): Promise<number> {
  const old = db
    .select({ id: messageFiles.id })
    .from(messageFiles)
    .where(
      and(
        eq(messageFiles.upload, true),
        sql`${messageFiles.sentReplyId} is null`,
        lt(messageFiles.createdAt, new Date(now.getTime() - UPLOAD_LIFETIME_MS)),
      ),
    )
    .limit(limit);
  const rows = await db.delete(messageFiles).where(inArray(messageFiles.id, old)).returning({ fileId: messageFiles.fileId });
  if (rows.length) {
    await db.delete(files).where(
      and(
        inArray(
          files.id,
          rows.map((r) => r.fileId),
        ),
        sql`not exists (select 1 from ${stepAttachments} where ${stepAttachments.fileId} = ${files.id})`,
        sql`not exists (select 1 from ${messageFiles} where ${messageFiles.fileId} = ${files.id})`,
      ),
    );
  }
  return rows.length;
}
