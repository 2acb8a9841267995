import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { files } from "../../db/schema";
import { newId } from "../ids";

/** Stores bytes in Postgres so that every web and worker process sees the same file (architecture: Files). */
export async function storeFile(
  db: DbOrTx,
  workspaceId: string,
  f: { filename: string; contentType: string; data: Buffer },
): Promise<string> {
  const id = newId("fil");
  await db.insert(files).values({ id, workspaceId, filename: f.filename, contentType: f.contentType, size: f.data.length, data: f.data });
  return id;
}

export async function readFile(db: DbOrTx, workspaceId: string, id: string) {
  const [f] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), eq(files.workspaceId, workspaceId)));
  return f;
}

/** The image types an email body may show inline, told by their first bytes rather than the declared type. */
export function sniffImage(data: Buffer): "image/png" | "image/jpeg" | "image/gif" | "image/webp" | undefined {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "image/jpeg";
  if (data.length >= 6 && /^GIF8[79]a$/.test(data.subarray(0, 6).toString("latin1"))) return "image/gif";
  if (data.length >= 12 && data.subarray(0, 4).toString("latin1") === "RIFF" && data.subarray(8, 12).toString("latin1") === "WEBP")
    return "image/webp";
  return undefined;
}

/** Strict base64 (whitespace allowed): a malformed payload is the client's error, not an empty file. */
export function decodeBase64(s: string): Buffer | undefined {
  const clean = s.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) return undefined;
  return Buffer.from(clean, "base64");
}
