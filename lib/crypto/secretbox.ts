import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { outreachSecret } from "../env";

let cachedKey: { secret: string; key: Buffer } | undefined;

function key(): Buffer {
  const secret = outreachSecret();
  if (cachedKey?.secret !== secret) {
    cachedKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, "outreach", "stored-credentials-v1", 32)) };
  }
  return cachedKey.key;
}

/** AES-256-GCM with a key derived from OUTREACH_SECRET: `v1:` + base64(iv | tag | ciphertext). */
export function encryptSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return "v1:" + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

export function decryptSecret(sealed: string): string {
  if (!sealed.startsWith("v1:")) throw new Error("Unknown sealed-secret format");
  const raw = Buffer.from(sealed.slice(3), "base64");
  const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
