import bcrypt from "bcryptjs";
import { serviceEnv } from "../env";

/** bcrypt, cost 11 by default (≈150 ms): slow enough against guessing, quick enough for a sign-in. */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, serviceEnv.bcryptRounds);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
