import { and, asc, eq } from "drizzle-orm";
import type { z } from "zod";
import { agentDocuments } from "../../db/schema";
import { requireAccess, withTransaction, type Ctx } from "../ctx";
import { NotFoundError } from "../errors";
import { newId } from "../ids";
import { findAgent } from "./crud";
import { decodeDocument, documentKind, extractDocumentText } from "./extract";
import { addKnowledge } from "./knowledge";
import type { uploadDocumentBody } from "./schemas";

type DocumentRow = typeof agentDocuments.$inferSelect;

function view(d: DocumentRow) {
  return {
    id: d.id,
    filename: d.filename,
    mimeType: d.mimeType,
    size: d.size,
    chunks: d.chunks,
    status: d.status,
    createdAt: d.createdAt.toISOString(),
  };
}

export async function listDocuments(ctx: Ctx, agentId: string) {
  requireAccess(ctx, "read");
  await findAgent(ctx.db, ctx.workspaceId, agentId);
  const rows = await ctx.db.select().from(agentDocuments).where(eq(agentDocuments.agentId, agentId)).orderBy(asc(agentDocuments.seq));
  return { documents: rows.map(view) };
}

/**
 * Trains the agent on a document: the type and size are checked (400 / 413), the text extracted by
 * the maintained parser of its kind, split into overlapping chunks and stored with the document row in
 * one transaction (a failure writes nothing). The bytes themselves are not kept.
 */
export async function uploadDocument(ctx: Ctx, agentId: string, input: z.infer<typeof uploadDocumentBody>) {
  requireAccess(ctx, "write");
  await findAgent(ctx.db, ctx.workspaceId, agentId);
  const kind = documentKind(input.mimeType);
  const bytes = decodeDocument(input.contentBase64);
  const text = await extractDocumentText(kind, bytes);
  return withTransaction(ctx, async (tx) => {
    const id = newId("agd");
    const now = ctx.clock.now();
    await tx.insert(agentDocuments).values({
      id,
      workspaceId: ctx.workspaceId,
      agentId,
      filename: input.filename,
      mimeType: input.mimeType.split(";")[0].trim().toLowerCase(),
      size: bytes.length,
      createdAt: now,
    });
    const chunks = await addKnowledge(
      tx,
      { workspaceId: ctx.workspaceId, agentId, kind: "document", documentId: id, source: input.filename, title: input.filename, text },
      now,
    );
    const [row] = await tx.update(agentDocuments).set({ chunks }).where(eq(agentDocuments.id, id)).returning();
    return view(row);
  });
}

/** Removes a document and its chunks from the knowledge. */
export async function deleteDocument(ctx: Ctx, agentId: string, docId: string) {
  requireAccess(ctx, "write");
  await findAgent(ctx.db, ctx.workspaceId, agentId);
  const gone = await ctx.db
    .delete(agentDocuments)
    .where(and(eq(agentDocuments.id, docId), eq(agentDocuments.agentId, agentId), eq(agentDocuments.workspaceId, ctx.workspaceId)))
    .returning({ id: agentDocuments.id });
  if (!gone.length) throw new NotFoundError("Document");
  return { deleted: true as const, id: docId };
}
