import { audit } from "../audit/record";
import type { Ctx } from "../ctx";
import { loginOf, type Protocol } from "./credentials";
import type { MailboxRow } from "./view";

/** How a mailbox came to be connected (the audit row's detail). */
export type ConnectedVia = "app_password" | "bulk_import" | "oauth";

type Login = Pick<MailboxRow, `${Protocol}${"Host" | "Port" | "Security" | "Username" | "PasswordEnc"}`>;

/** A saved login with its password decrypted; a password sealed under another secret reads as unknown (so as changed). */
function readable(m: Login, p: Protocol) {
  try {
    return loginOf(m, p);
  } catch {
    return { host: m[`${p}Host`], port: m[`${p}Port`], security: m[`${p}Security`], username: m[`${p}Username`], password: undefined };
  }
}

/**
 * The names of the login fields that differ between two versions of a mailbox (passwords compared
 * decrypted, as each save seals them anew). Names only: the audit log never holds a value of them.
 */
export function changedLoginFields(before: Login, after: Login): string[] {
  const out: string[] = [];
  for (const p of ["smtp", "imap"] as const) {
    const a = readable(before, p);
    const b = readable(after, p);
    for (const f of ["host", "port", "security", "username"] as const) {
      if (a[f] !== b[f]) out.push(`${p}${f[0].toUpperCase()}${f.slice(1)}`);
    }
    if (a.password === undefined || a.password !== b.password) out.push(`${p}Password`);
  }
  return out;
}

export const mailboxTarget = (m: Pick<MailboxRow, "id" | "email">) => ({ type: "mailbox", id: m.id, label: m.email });

/**
 * The audit row of a connect (PUT by-email, bulk import, OAuth consent): `mailbox.connected` for a new
 * mailbox; for the same address again `mailbox.credentials_changed` naming the changed login fields
 * (an OAuth re-connect always: its grant is new), nothing when the login is the same as before.
 */
export async function auditConnect(ctx: Ctx, via: ConnectedVia, row: MailboxRow, before: MailboxRow | undefined): Promise<void> {
  if (!before) {
    await audit(ctx, "mailbox.connected", mailboxTarget(row), { via, provider: row.provider, authType: row.authType });
    return;
  }
  const changed = changedLoginFields(before, row);
  if (via === "oauth") changed.push("oauthGrant");
  if (changed.length) await audit(ctx, "mailbox.credentials_changed", mailboxTarget(row), { via, changed });
}
