import mammoth from "mammoth";
import { extractText, getDocumentProxy } from "unpdf";
import { PayloadTooLargeError, ValidationError } from "../errors";

/** A trained document is PDF, DOCX or TXT, at most 10 MB. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_TYPES = {
  "application/pdf": "pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "text/plain": "txt",
} as const;
export type DocumentKind = (typeof DOCUMENT_TYPES)[keyof typeof DOCUMENT_TYPES];

/** The kind of a declared MIME type (parameters such as `; charset=utf-8` ignored), or 400 naming the allowed ones. */
export function documentKind(mimeType: string): DocumentKind {
  const bare = mimeType.split(";")[0].trim().toLowerCase() as keyof typeof DOCUMENT_TYPES;
  const kind = DOCUMENT_TYPES[bare];
  if (!kind)
    throw ValidationError.field(
      "mimeType",
      `${mimeType} is not accepted; upload a PDF, DOCX or TXT file (${Object.keys(DOCUMENT_TYPES).join(", ")})`,
    );
  return kind;
}

/** The decoded bytes of `contentBase64`: 400 when it is not base64, 413 past 10 MB. */
export function decodeDocument(contentBase64: string): Buffer {
  const b64 = contentBase64.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(b64) || b64.length % 4 === 1) throw ValidationError.field("contentBase64", "is not valid base64");
  // Known from the length before decoding, so an oversized file is refused without a second 14 MB buffer.
  const size = Math.floor((b64.length * 3) / 4) - (b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0);
  if (size > MAX_DOCUMENT_BYTES)
    throw new PayloadTooLargeError(`The document is ${size} bytes; the limit is ${MAX_DOCUMENT_BYTES} (10 MB)`);
  const bytes = Buffer.from(b64, "base64");
  if (bytes.length === 0) throw ValidationError.field("contentBase64", "is empty");
  return bytes;
}

async function pdfText(bytes: Buffer): Promise<string> {
  if (bytes.subarray(0, 1024).indexOf("%PDF-") < 0) throw new Error("the file does not start like a PDF");
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return (Array.isArray(text) ? text : [text]).join("\n\n");
  } finally {
    await pdf.destroy().catch(() => {});
  }
}

async function docxText(bytes: Buffer): Promise<string> {
  if (bytes.subarray(0, 2).toString("latin1") !== "PK") throw new Error("the file is not a DOCX (ZIP) archive");
  return (await mammoth.extractRawText({ buffer: bytes })).value;
}

function plainText(bytes: Buffer): string {
  // A NUL byte means binary content declared as text; Postgres text cannot hold it either.
  if (bytes.includes(0)) throw new Error("the file holds binary data, not text");
  return bytes.toString("utf8").replace(/^\uFEFF/, "");
}

/** The text of a document by the maintained parser of its kind: unreadable or textless content is 400 on contentBase64. */
export async function extractDocumentText(kind: DocumentKind, bytes: Buffer): Promise<string> {
  let text: string;
  try {
    text = kind === "pdf" ? await pdfText(bytes) : kind === "docx" ? await docxText(bytes) : plainText(bytes);
  } catch (e) {
    throw ValidationError.field("contentBase64", `could not be read as ${kind.toUpperCase()}: ${(e as Error).message}`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  text = text.replace(/\u0000/g, "").replace(/[\u0001-\u0008\u000b\u000c\u000e-\u001f]/g, " ");
  if (!text.trim())
    throw ValidationError.field("contentBase64", `holds no text to learn from (a scanned ${kind.toUpperCase()} without a text layer?)`);
  return text;
}
