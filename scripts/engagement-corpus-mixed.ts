/**
 * Engagement corpus: scenarios where a machine and a person both touch the same email — Apple Mail
 * Privacy Protection's prefetch and then the person's click, a gateway's scan on arrival and then the
 * person reading hours later (scripts/engagement-corpus.ts builds the hits).
 */
import type { PlannedEmail, Scenario } from "./engagement-corpus";
import { at, BROWSER, click, MPP_UA, NET, open, READER, sweep } from "./engagement-corpus-agents";

const sent = (i: number) => i * 900;

function privacyOnThenClick(): Scenario {
  const emails: PlannedEmail[] = [0, 1, 2, 3].map((i) => ({
    sentAt: sent(i),
    hits: [
      open(4 + i * 3, MPP_UA, at(i % 2 ? NET.apple2 : NET.apple1, 60 + i), "proxy", "Mail Privacy Protection prefetch on delivery"),
      click(
        5400 + i * 9000,
        `link${1 + (i % 2)}`,
        i % 2 ? BROWSER.safariMac : BROWSER.safariIphone,
        at(i % 2 ? NET.relayCloudflare : NET.relayAkamai, 5 + i),
        "human",
        "the person clicks later in Safari through iCloud Private Relay",
      ),
    ],
  }));
  return { name: "Apple Mail with Privacy Protection on, then a real click", emails };
}

function safeLinksThenPerson(): Scenario {
  const emails: PlannedEmail[] = [0, 1, 2].map((i) => {
    const ip = at("51.148.91", 20 + i);
    return {
      sentAt: sent(i),
      hits: [
        ...sweep({
          start: 2,
          links: ["link1"],
          pixel: true,
          head: true,
          step: 0.5,
          userAgent: null,
          net: NET.eop1,
          host: 30 + i * 5,
          rotate: true,
          who: "Defender for Office 365 scan on arrival",
        }),
        open(7200 + i * 600, READER.outlook365, ip, "human", "the person opens in Outlook two hours later"),
        ...(i === 1
          ? [click(7289 + i * 600, "link1", BROWSER.edgeWin, at(NET.eop2, 77), "scanner" as const, "Safe Links time-of-click check")]
          : []),
        click(7290 + i * 600, "link1", BROWSER.edgeWin, ip, "human", "the person's click, through Safe Links"),
      ],
    };
  });
  return { name: "Microsoft 365 recipient: Defender scan on arrival, the person reads later", emails };
}

function workspaceThenGmail(): Scenario {
  const emails: PlannedEmail[] = [0, 1].map((i) => ({
    sentAt: sent(i),
    hits: [
      ...sweep({
        start: 1,
        links: ["link1", "link2"],
        step: 1.5,
        userAgent: BROWSER.chromeLinux,
        net: NET.googleScan,
        host: 60 + i,
        who: "Google Workspace link check on arrival",
      }),
      open(
        24 + i * 14,
        READER.gmailProxy,
        at(NET.gmail1, 130 + i),
        "human",
        "the person, at the inbox, opens in Gmail half a minute later",
      ),
      click(55 + i * 20, "link2", i ? BROWSER.chromeMac : BROWSER.chromeWin, at("77.102.54", 8 + i), "human", "and clicks"),
    ],
  }));
  return { name: "Google Workspace recipient: link check on arrival, the person opens at once", emails };
}

export const MIXED: Scenario[] = [privacyOnThenClick(), safeLinksThenPerson(), workspaceThenGmail()];
