"use client";

import { type ReactNode, useState } from "react";
import { formatAddresses, parseAddresses } from "./addresses";
import { DraftLabel } from "./draft-label";
import { useDraftReply, useSendReply } from "./queries";
import type { Address, InboundMessage, SendInput } from "./types";

const lower = (a: Address) => a.address.toLowerCase();

/** Everyone else on the message answered, for "Reply all": its other recipients minus our own mailbox. */
function othersOf(m: InboundMessage): Address[] {
  const skip = new Set([m.mailboxEmail.toLowerCase(), ...(m.from ? [lower(m.from)] : [])]);
  const seen = new Set<string>();
  return [...m.to, ...m.cc].filter((a) => {
    const k = lower(a);
    if (skip.has(k) || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The composer's fields (to, cc, bcc, message, send in background), what it last said, and its calls:
 * draft a reply, add everyone else on the message to Cc, and send.
 */
export function useComposer(leadId: string, replyTo: InboundMessage, fallbackTo: string) {
  const send = useSendReply(leadId);
  const drafting = useDraftReply();
  const initialTo = replyTo.from ? [replyTo.from] : [{ name: null, address: fallbackTo }];
  const [to, setTo] = useState(() => formatAddresses(initialTo));
  const [cc, setCc] = useState("");
  const [bcc, setBcc] = useState("");
  const [showCopies, setShowCopies] = useState(false);
  const [body, setBody] = useState("");
  const [background, setBackground] = useState(false);
  const [invalid, setInvalid] = useState<string[]>([]);
  const [notice, setNotice] = useState<ReactNode>();
  const others = othersOf(replyTo);

  /**
   * Fills the message with a draft (the reply agent's grounded answer in an agent's campaign) for the
   * user to edit and send, saying how it was made: by the AI provider, or by the built-in template.
   */
  function draft() {
    setNotice(undefined);
    drafting.mutate(replyTo.id, {
      onSuccess: (d) => {
        setBody(d.draft.body);
        setNotice(<DraftLabel agent={d.agent} generatedBy={d.generatedBy} />);
      },
    });
  }

  function replyAll() {
    const current = parseAddresses(cc).list;
    setCc(formatAddresses([...current, ...others.filter((o) => !current.some((a) => lower(a) === lower(o)))]));
    setShowCopies(true);
  }

  function submit() {
    setNotice(undefined);
    const parsed = { to: parseAddresses(to), cc: parseAddresses(cc), bcc: parseAddresses(bcc) };
    const bad = [...parsed.to.invalid, ...parsed.cc.invalid, ...parsed.bcc.invalid];
    setInvalid(bad);
    if (bad.length) return;
    const input: SendInput = { body };
    if (parsed.to.list.length) input.to = parsed.to.list;
    if (parsed.cc.list.length) input.cc = parsed.cc.list;
    if (parsed.bcc.list.length) input.bcc = parsed.bcc.list;
    if (background) input.background = true;
    send.mutate(
      { replyId: replyTo.id, input },
      {
        onSuccess: (r) => {
          setBody("");
          setNotice("queued" in r ? "Queued: it is being sent in the background." : "Sent.");
        },
      },
    );
  }

  return {
    send,
    drafting,
    fields: { to, setTo, cc, setCc, bcc, setBcc, body, setBody, background, setBackground },
    showCopies,
    setShowCopies,
    hasOthers: others.length > 0,
    invalid,
    notice,
    draft,
    replyAll,
    submit,
  };
}

export type ComposerState = ReturnType<typeof useComposer>;
