import type { ParsedMail } from "mailparser";
import type { DbOrTx } from "../../../db/client";
import type { Address } from "../../../db/schema";
import { builtInProvider, classifyWithFallback } from "../../ai/provider";
import { aiProviderFor } from "../../ai/resolve";
import { loadAiSettings } from "../../ai/settings";
import { mapLimit } from "../../concurrency";
import { randomBytes } from "node:crypto";
import { classify, type Intent, isAutomatic } from "../../ai/classify";
import { addresses, clean, refsOf } from "./parse";

/** The mailbox a message was read from. */
export type Mailbox = { id: string; workspaceId: string; email: string };

/** A received message as read from a folder. */
export interface Received {
  parsed: ParsedMail;
  folder: string;
  uid?: number;
  uidValidity?: string;
}

/** A received message ready to store: its fields cleaned and its intent decided (outside any transaction). */
export interface PreparedReply {
  parsed: ParsedMail;
  folder: string;
  uid: number | null;
  messageId: string;
  from: Address | null;
  refs: string[];
  text: string;
  automatic: boolean;
  intent: Intent;
}

/** Whether AI classification is on: a value, or read once on first need (most batches never need it). */
export type AiSwitch = boolean | (() => Promise<boolean>);

/** How many replies are classified by the AI provider at once. */
const AI_CONCURRENCY = 4;

/** A received message's fields, cleaned; its intent by the rules (the provider may change it after). */
function prepare(mb: Mailbox, it: Received): PreparedReply | undefined {
  const m = it.parsed;
  const from = addresses(m.from)[0] ?? null;
  if (from && from.address === mb.email.toLowerCase()) return undefined; // our own message
  // Without a Message-ID: one made from where it was read (a random token when handed over directly).
  const messageId = clean(
    m.messageId ?? `<uid-${it.uidValidity ?? "0"}-${it.uid ?? randomBytes(8).toString("hex")}@${mb.email.split("@")[1]}>`,
  );
  const text = clean(m.text ?? "");
  const automatic = isAutomatic(m.headers as Map<string, unknown>, m.subject ?? "", text);
  return {
    parsed: m,
    folder: it.folder,
    uid: it.uid ?? null,
    messageId,
    from,
    refs: refsOf(m),
    text,
    automatic,
    intent: classify({ automatic, text }),
  };
}

/**
 * Decides what each received message is before anything is stored: our own messages are dropped;
 * automatic replies are decided by the rules, an unsubscribe request always by the rules, a person's
 * other reply by the AI provider when configured and enabled (a failing provider falls back to the
 * rules, so classification never blocks ingestion). The service's own mail (warmup, placement probes)
 * is left out before this by Message-ID: the inbox sync before download (sync/mailbox.ts serviceMail),
 * direct ingestion in ingestMessage.
 */
export async function prepareReplies(db: DbOrTx, mb: Mailbox, items: Received[], ai?: AiSwitch): Promise<PreparedReply[]> {
  const out = items.flatMap((it) => prepare(mb, it) ?? []);
  const forAi = out.filter((p) => !p.automatic && p.intent !== "UNSUBSCRIBE_REQUEST");
  if (!forAi.length) return out;
  const provider = await aiProviderFor(db, mb.workspaceId);
  if (provider !== builtInProvider && (await aiEnabled(db, mb, ai))) {
    await mapLimit(forAi, AI_CONCURRENCY, async (p) => {
      p.intent = await classifyWithFallback(provider, p.text, true);
    });
  }
  return out;
}

async function aiEnabled(db: DbOrTx, mb: Mailbox, ai: AiSwitch | undefined): Promise<boolean> {
  if (ai === undefined) return (await loadAiSettings(db, mb.workspaceId)).aiClassificationEnabled;
  return typeof ai === "function" ? ai() : ai;
}
