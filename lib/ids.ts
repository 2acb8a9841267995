import { randomBytes } from "node:crypto";

/** Prefixed ids make a misplaced id obvious in logs and errors (conventions). */
export type IdPrefix =
  | "usr"
  | "ws"
  | "key"
  | "lead"
  | "tag"
  | "sup"
  | "evt"
  | "job"
  | "mbx"
  | "dom"
  | "cmp"
  | "stp"
  | "eml"
  | "att"
  | "fil"
  | "whk"
  | "dlv"
  | "eev"
  | "rep"
  | "srp"
  | "mfl"
  | "wum"
  | "plt"
  | "plb"
  | "plr"
  | "blj"
  | "alr"
  | "oaf";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

export function newId(prefix: IdPrefix): string {
  // 20 chars of base36 ≈ 103 bits: plenty against collisions, short enough to read.
  const bytes = randomBytes(20);
  let out = "";
  for (const b of bytes) out += ALPHABET[b % 36];
  return `${prefix}_${out}`;
}

/** Event ids are `evt_` + hex (spec 6.1). */
export function newEventId(): string {
  return `evt_${randomBytes(12).toString("hex")}`;
}
