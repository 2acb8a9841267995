/**
 * Engagement corpus: scenarios of machines — Apple Mail Privacy Protection prefetching the pixel whether
 * or not anyone reads ("proxy"), and security gateways, link checkers, preview bots and scripts fetching
 * links and the pixel ("scanner"). scripts/engagement-corpus.ts builds the hits and their context.
 */
import type { PlannedEmail, PlannedHit, Scenario } from "./engagement-corpus";
import { at, BOT, BROWSER, click, MPP_UA, NET, open, READER, sweep } from "./engagement-corpus-agents";

const APPLE = [NET.apple1, NET.apple2, NET.apple3, NET.relayAkamai, NET.relayCloudflare, NET.relayFastly] as const;
const apple = (i: number) => at(APPLE[i % APPLE.length], 11 + ((i * 29) % 200));
const sent = (i: number) => i * 900;
const mpp = (t: number, ip: string, who: string): PlannedHit => open(t, MPP_UA, ip, "proxy", who);

function mppOnDelivery(): Scenario {
  const delays = [2, 3, 4, 5, 6, 8, 9, 11, 14, 17, 21, 26, 33, 41, 55, 68, 85, 120, 150, 240, 1, 7, 12, 19, 47, 95];
  const emails = delays.map((d, i) => ({ sentAt: sent(i), hits: [mpp(d, apple(i), `prefetch ${d} s after delivery`)] }));
  return { name: "Apple Mail Privacy Protection prefetches the pixel on delivery", emails };
}

function mppDelayed(): Scenario {
  const delays = [
    600, 1400, 3600, 7200, 10800, 18000, 25200, 32400, 43200, 50400, 61000, 72000, 900, 2700, 5400, 300, 1900, 14000, 450, 2200, 8800,
    39000,
  ];
  const emails = delays.map((d, i) => ({
    sentAt: sent(i),
    hits: [mpp(d, apple(i + 3), `prefetch ${d} s after delivery, once the device came online`)],
  }));
  return { name: "Apple Mail Privacy Protection prefetches late (device asleep or offline)", emails };
}

function mppRefetch(): Scenario {
  const emails: PlannedEmail[] = Array.from({ length: 12 }, (_, i) => {
    const hits = [
      mpp(3 + i * 4, apple(i + 7), "first prefetch on delivery"),
      mpp(21600 + i * 8000, apple(i + 8), "re-fetch hours later (cache refresh)"),
    ];
    if (i % 3 === 0) hits.push(mpp(100000 + i * 5000, apple(i + 9), "another re-fetch the next day"));
    return { sentAt: sent(i), hits };
  });
  return { name: "Apple Mail Privacy Protection fetches again later", emails };
}

function mppCampaignBurst(): Scenario {
  const emails: PlannedEmail[] = Array.from({ length: 12 }, (_, i) => ({
    sentAt: i * 5,
    emit: i % 3 !== 2,
    hits: [mpp(3 + ((i * 7) % 17), at(NET.apple1, 40 + (i % 6)), `prefetch for Apple-Mail lead ${i + 1} of a batch sent in one minute`)],
  }));
  return { name: "Twelve Apple Mail leads sent in one minute: their prefetches share Apple's /24", emails };
}

function mppTwice(): Scenario {
  const emails: PlannedEmail[] = Array.from({ length: 4 }, (_, i) => ({
    sentAt: sent(i),
    hits: [
      mpp(6 + i, apple(i), "prefetch"),
      mpp(7 + i * 2, apple(i + 1), "second prefetch seconds later (another of the person's devices)"),
    ],
  }));
  return { name: "Apple Mail Privacy Protection prefetches twice within seconds", emails };
}

function mppOther(): Scenario[] {
  const v6: PlannedEmail[] = [0, 1, 2, 3, 4].map((i) => ({
    sentAt: sent(i),
    hits: [mpp(5 + i * 90, at(NET.apple6, 0x100 + i), "prefetch over IPv6 from Apple's network")],
  }));
  const unknown: PlannedEmail[] = [0, 1, 2].map((i) => ({
    sentAt: sent(i),
    sentKnown: false,
    hits: [mpp(8 + i * 600, apple(i + 4), "prefetch")],
  }));
  const scanned: PlannedEmail[] = [0, 1, 2].map((i) => ({
    sentAt: sent(i),
    hits: [
      ...sweep({
        start: 1,
        links: ["link1"],
        head: true,
        userAgent: BOT.edge122,
        net: NET.eop3,
        host: 12 + i * 3,
        rotate: true,
        who: "Exchange Online Protection scan",
      }),
      mpp(9 + i * 4, apple(i + 2), "the recipient's Apple Mail then prefetches the pixel"),
    ],
  }));
  return [
    { name: "Apple Mail Privacy Protection over IPv6", emails: v6 },
    { name: "Apple Mail Privacy Protection on an email whose acceptance time was not recorded", emails: unknown },
    { name: "Microsoft 365 mailbox read in Apple Mail: a scan, then the prefetch", emails: scanned },
  ];
}

function defender(): Scenario {
  const uas = [null, BOT.edge122, BROWSER.chromeWin];
  const emails = uas.map((ua, i) => ({
    sentAt: sent(i),
    hits: sweep({
      start: 2,
      links: i === 0 ? ["link1", "link2", "link3"] : ["link1", "link2"],
      pixel: true,
      head: true,
      step: 0.3,
      userAgent: ua,
      net: [NET.eop1, NET.eop2, NET.eop4][i],
      host: 50 + i,
      rotate: i !== 1,
      who: "Defender Safe Links detonation",
    }),
  }));
  return { name: "Microsoft Defender for Office 365 checks every link and the pixel on arrival", emails };
}

function gateways(): Scenario[] {
  const mime = [BOT.oldChrome, BOT.msie9, null].map((ua, i) => ({
    sentAt: sent(i),
    hits: sweep({
      start: 5 + i * 3,
      links: ["link1", "link2"],
      pixel: true,
      step: 1.5,
      userAgent: ua,
      net: [NET.mimecast1, NET.mimecast2, NET.mimecast3][i],
      host: 141 + i * 20,
      rotate: true,
      who: "Mimecast URL Protect",
    }),
  }));
  const pp = [BOT.pythonRequests, BOT.apacheHttp, BOT.java].map((ua, i) => ({
    sentAt: sent(i),
    hits: sweep({
      start: 1 + i,
      links: ["link1", "link2"],
      head: true,
      step: 1.2,
      userAgent: ua,
      net: [NET.proofpoint1, NET.proofpoint2, NET.proofpoint3][i],
      host: 8 + i,
      who: "Proofpoint URL Defense",
    }),
  }));
  const cuda = [BOT.goHttp, BOT.curl].map((ua, i) => ({
    sentAt: sent(i),
    hits: sweep({
      start: 3,
      links: ["link1", "link2"],
      head: true,
      step: 0.8,
      userAgent: ua,
      net: i ? NET.barracuda2 : NET.barracuda1,
      host: 30 + i,
      who: "Barracuda Link Protection",
    }),
  }));
  return [
    { name: "Mimecast fetches the pixel and each link, GET only", emails: mime },
    { name: "Proofpoint URL Defense: HEAD then GET of each link", emails: pp },
    { name: "Barracuda Email Protection checks each link", emails: cuda },
  ];
}

function plainBrowserScanners(): Scenario[] {
  const nets = [NET.aws1, NET.azure, NET.gcp];
  const uas = [BROWSER.chromeWin, BROWSER.safariMac, BROWSER.firefoxWin];
  const cloud = uas.map((ua, i) => ({
    sentAt: sent(i),
    hits: sweep({
      start: 4 + i * 6,
      links: ["link1", "link2", "link3"],
      step: 1,
      userAgent: ua,
      net: nets[i],
      host: 70 + i,
      who: "sandbox with a current browser UA, no HEAD",
    }),
  }));
  const singles = [
    { ua: BROWSER.chromeWin, net: NET.eop5, t: 6 },
    { ua: BROWSER.edgeWin, net: NET.proofpoint1, t: 11 },
    { ua: BROWSER.chromeMac, net: NET.aws2, t: 40 },
    { ua: BROWSER.safariIphone, net: NET.azure2, t: 19 },
    { ua: BOT.oldChrome, net: NET.mimecast2, t: 8 },
  ].map((s, i) => ({
    sentAt: sent(i),
    hits: [click(s.t, "link1", s.ua, at(s.net, 90 + i), "scanner" as const, `fetches only the first link, ${s.t} s after delivery`)],
  }));
  return [
    { name: "Scanner in a cloud network posing as a current browser", emails: cloud },
    { name: "Scanner fetches a single link of the email", emails: singles },
  ];
}

function rescans(): Scenario {
  const plans = [
    { net: NET.proofpoint2, ua: BOT.pythonRequests, later: 3 * 3600 },
    { net: NET.eop2, ua: BOT.edge122, later: 9 * 3600 },
    { net: NET.mimecast1, ua: BOT.oldChrome, later: 26 * 3600 },
    { net: NET.barracuda1, ua: BOT.goHttp, later: 5 * 3600 },
  ];
  const emails = plans.map((p, i) => ({
    sentAt: sent(i),
    hits: [
      ...sweep({ start: 2, links: ["link1"], head: true, userAgent: p.ua, net: p.net, host: 120 + i, who: "scan on arrival" }),
      click(p.later, "link1", p.ua, at(p.net, 160 + i), "scanner" as const, `re-scan ${p.later / 3600} h later`),
    ],
  }));
  return { name: "Gateway scans on arrival and re-scans the link hours later", emails };
}

function googleLinkChecks(): Scenario {
  const uas = [BROWSER.chromeLinux, BROWSER.chromeWin, BOT.googlebot];
  const emails = uas.map((ua, i) => ({
    sentAt: sent(i),
    hits: sweep({
      start: 1 + i * 8,
      links: i === 0 ? ["link1", "link2", "link3"] : ["link1", "link2"],
      step: 2,
      userAgent: ua,
      net: i === 1 ? NET.googleScan2 : NET.googleScan,
      host: 40 + i,
      rotate: true,
      who: "Google Workspace link check",
    }),
  }));
  return { name: "Google Workspace / Gmail checks the links on arrival from Google's network", emails };
}

function sweeps(): Scenario[] {
  const proofpoint: PlannedEmail[] = Array.from({ length: 40 }, (_, i) => ({
    sentAt: i,
    emit: i % 10 === 0,
    hits: sweep({
      start: 2 + (i % 7),
      links: ["link1"],
      head: true,
      step: 0.5,
      userAgent: BOT.apacheHttp,
      net: NET.proofpoint1,
      host: 200 + (i % 30),
      who: `Proofpoint scan of lead ${i + 1} of 40 at one company`,
    }),
  }));
  const chrome: PlannedEmail[] = Array.from({ length: 25 }, (_, i) => ({
    sentAt: i * 2,
    emit: i % 8 === 0,
    hits: [
      click(3 + (i % 5), "link1", BROWSER.chromeWin, at(NET.azure, 10 + i), "scanner", `GET of lead ${i + 1} of 25 from one cloud /24`),
    ],
  }));
  return [
    { name: "Proofpoint sweeps forty leads of one company within a minute", emails: proofpoint },
    { name: "Scanner with a Chrome UA sweeps twenty-five leads from one /24", emails: chrome },
  ];
}

function bots(): Scenario[] {
  const headless = [0, 1, 2].map((i) => ({
    sentAt: sent(i),
    hits: [
      open(
        30 + i * 40,
        i === 2 ? BOT.headlessLinux : BOT.headless,
        at(NET.azure2, 30 + i),
        "scanner" as const,
        "sandbox renders the message",
      ),
      click(
        34 + i * 40,
        "link1",
        i === 2 ? BOT.headlessLinux : BOT.headless,
        at(NET.azure2, 30 + i),
        "scanner" as const,
        "and follows the first link",
      ),
    ],
  }));
  const previews = [
    { ua: BOT.slackbot, net: "3.89.110", t: 7300 },
    { ua: BOT.skypePreview, net: NET.azure, t: 15400 },
    { ua: BOT.facebook, net: "69.171.249", t: 40000 },
    { ua: BOT.linkedin, net: "108.174.2", t: 90000 },
  ].map((p, i) => ({
    sentAt: sent(i),
    hits: [
      click(p.t, "link1", p.ua, at(p.net, 15 + i), "scanner" as const, "link preview bot after the link was pasted into a chat or post"),
    ],
  }));
  const scripts = [
    { ua: BOT.wget, t: 600, net: "45.83.64" },
    { ua: BOT.okhttp, t: 20, net: NET.aws2 },
    { ua: BOT.nodeFetch, t: 12, net: "159.203.92" },
    { ua: BOT.aiohttp, t: 3600, net: "185.220.101" },
    { ua: BOT.goHttp2, t: 9, net: NET.gcp },
    { ua: BOT.msie6, t: 48, net: "91.209.104" },
  ].map((s, i) => ({
    sentAt: sent(i),
    hits: [
      open(s.t, s.ua, at(s.net, 60 + i), "scanner" as const, "script fetches the pixel"),
      ...(i % 2 ? [click(s.t + 1, "link1", s.ua, at(s.net, 60 + i), "scanner" as const, "and the link")] : []),
    ],
  }));
  return [
    { name: "Headless browser sandbox opens and follows a link", emails: headless },
    { name: "Link preview bot (chat or social network)", emails: previews },
    { name: "Unknown script or library", emails: scripts },
  ];
}

function onPremiseGateway(): Scenario {
  const office = "194.176.105";
  const emails: PlannedEmail[] = [0, 1].map((i) => ({
    sentAt: i * 30,
    hits: [
      ...sweep({
        start: 3,
        links: ["link2"],
        head: true,
        step: 0.7,
        userAgent: BOT.oldChrome41,
        net: office,
        host: 250,
        who: "the company's own Cisco Secure Email appliance",
      }),
      open(6000 + i * 4000, READER.outlook365, at(office, 18), "human", "a person at the same company opens later"),
      ...(i === 0 ? [click(6100, "link2", BROWSER.chromeWin, at(office, 18), "human" as const, "and clicks")] : []),
    ],
  }));
  return { name: "On-premise gateway in the recipient company's own network", emails };
}

function cloudGateways(): Scenario {
  const plans = [
    { who: "Trend Micro Email Security", ua: BOT.oldChrome, net: "18.208.22", head: true },
    { who: "Sophos Email", ua: BOT.goHttp, net: "34.253.17", head: false },
  ];
  const emails: PlannedEmail[] = plans.map((p, i) => ({
    sentAt: sent(i),
    hits: sweep({
      start: 4,
      links: ["link1", "link2"],
      pixel: !p.head,
      head: p.head,
      step: 0.6,
      userAgent: p.ua,
      net: p.net,
      host: 44,
      who: p.who,
    }),
  }));
  return { name: "Gateway running in a public cloud checks the links", emails };
}

function scannerUnknownSent(): Scenario {
  const emails: PlannedEmail[] = [
    {
      sentAt: 0,
      sentKnown: false,
      hits: sweep({ start: 2, links: ["link1"], head: true, userAgent: null, net: NET.eop4, host: 9, who: "Defender scan" }),
    },
  ];
  return { name: "Gateway scan of an email whose acceptance time was not recorded", emails };
}

export const MACHINES: Scenario[] = [
  mppOnDelivery(),
  mppDelayed(),
  mppRefetch(),
  mppCampaignBurst(),
  mppTwice(),
  ...mppOther(),
  defender(),
  ...gateways(),
  ...plainBrowserScanners(),
  rescans(),
  googleLinkChecks(),
  ...sweeps(),
  ...bots(),
  onPremiseGateway(),
  cloudGateways(),
  scannerUnknownSent(),
];
