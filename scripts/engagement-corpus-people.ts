/**
 * Engagement corpus: scenarios in which people read and click (scripts/engagement-corpus.ts builds the
 * hits). Addresses of people are in ordinary ISP, mobile-carrier and company networks; some share an
 * office's NAT; some read through Gmail's or Yahoo's image proxy, which fetches when the message is opened.
 */
import type { PlannedEmail, Scenario } from "./engagement-corpus";
import { at, BROWSER, click, home, NET, open, READER } from "./engagement-corpus-agents";
import { MIXED } from "./engagement-corpus-mixed";

const sent = (i: number) => i * 900;

const OUTLOOKS = [
  READER.outlook365,
  READER.outlook2016,
  READER.outlook2019,
  READER.outlookWordIE,
  READER.outlook365,
  READER.windowsMail,
  READER.outlook2016,
  BROWSER.chromeWin,
  READER.outlook365,
  BROWSER.edgeWin,
  READER.outlook2019,
  READER.outlook365,
  READER.outlookWordIE,
  READER.outlook2016,
  BROWSER.chromeMac,
  READER.outlook365,
] as const;
const CLICKERS = [
  BROWSER.chromeWin,
  BROWSER.edgeWin,
  BROWSER.firefoxWin,
  BROWSER.chromeMac,
  BROWSER.edgeWin,
  BROWSER.safariMac,
  BROWSER.chromeWin,
];

function clientOf(ua: string): string {
  if (ua.startsWith("Microsoft Office/")) return "Outlook desktop";
  if (ua.includes("ms-office")) return "Outlook desktop (Word engine, IE-style UA)";
  if (ua.includes("WebView/")) return "Windows Mail";
  return "Outlook on the web";
}

function outlookReaders(): Scenario {
  const delays = [1800, 5400, 14400, 43200, 90000, 240, 600, 7200, 20000, 172800, 3300, 950, 61000, 8100, 27000, 400000];
  const emails: PlannedEmail[] = delays.map((d, i) => {
    const ip = home(i);
    const hits = [open(d, OUTLOOKS[i], ip, "human", `${clientOf(OUTLOOKS[i])} open after ${d} s`)];
    if (i % 3 !== 2)
      hits.push(
        click(
          d + 45 + i * 11,
          `link${1 + (i % 3)}`,
          CLICKERS[i % CLICKERS.length],
          ip,
          "human",
          "click in the browser a minute or two after reading",
        ),
      );
    return { sentAt: sent(i), hits };
  });
  return { name: "Person reads in Outlook (desktop, web) or Windows Mail, sometimes clicks", emails };
}

function gmailReaders(): Scenario {
  const nets = [NET.gmail1, NET.gmail2, NET.gmail3];
  const phones = [
    BROWSER.chromeAndroid,
    BROWSER.safariIphone,
    BROWSER.chromeWin,
    BROWSER.chromeIos,
    BROWSER.samsungInternet,
    BROWSER.chromeMac,
  ];
  const delays = [35, 420, 3600, 10800, 28800, 86400, 52, 200000, 1500, 7000, 64000, 310, 4400, 150000];
  const emails: PlannedEmail[] = delays.map((d, i) => {
    const hits = [
      open(d, READER.gmailProxy, at(nets[i % 3], 20 + i * 7), "human", `Gmail image proxy fetch when the person opens (${d} s)`),
    ];
    if (i % 2 === 0 || i === 7)
      hits.push(
        click(d + 30 + i * 23, "link1", phones[i % phones.length], home(i + 3), "human", "click from the person's phone or laptop"),
      );
    return { sentAt: sent(i), hits };
  });
  return { name: "Person reads in Gmail (web or app) through Google's image proxy", emails };
}

function gmailMorningPeak(): Scenario {
  const opens = [0, 9, 21, 30, 44, 58, 71, 90];
  const emails: PlannedEmail[] = opens.map((o, i) => ({
    sentAt: i * 3,
    hits: [
      open(
        8 * 3600 + o - i * 3,
        READER.gmailProxy,
        at(NET.gmail1, 3 + i * 11),
        "human",
        `lead ${i + 1} of a batch opens in Gmail as the working day starts`,
      ),
    ],
  }));
  emails[3].hits.push(click(8 * 3600 + 70, "link1", BROWSER.chromeWin, home(5, 90), "human", "and clicks"));
  return { name: "Many Gmail leads open around the same minute (through one Google /24)", emails };
}

function yahooReaders(): Scenario {
  const delays = [600, 5000, 40000, 95, 12000];
  const emails: PlannedEmail[] = delays.map((d, i) => {
    const hits = [
      open(d, READER.yahooProxy, at(i % 2 ? NET.yahoo2 : NET.yahoo1, 40 + i), "human", `Yahoo Mail proxy fetch on opening (${d} s)`),
    ];
    if (i % 2 === 0)
      hits.push(click(d + 80, "link2", i === 2 ? BROWSER.safariIphone : BROWSER.firefoxWin, home(i + 5), "human", "click after reading"));
    return { sentAt: sent(i), hits };
  });
  return { name: "Person reads in Yahoo Mail or AOL through Yahoo's proxy", emails };
}

function fastReaders(): Scenario {
  const clients = [
    READER.iosMail18,
    READER.outlook365,
    READER.thunderbirdWin,
    READER.appleMailMac,
    READER.windowsMail,
    READER.samsungEmail,
    READER.gmailProxy,
  ];
  const clickers = [BROWSER.safariIphone, BROWSER.edgeWin, BROWSER.firefoxWin, BROWSER.safariMac];
  const delays = [30, 38, 45, 52, 57, 60, 33];
  const emails: PlannedEmail[] = delays.map((d, i) => {
    const ip = i === 6 ? at(NET.gmail1, 99) : home(i + 1);
    const hits = [open(d, clients[i], ip, "human", `open ${d} s after delivery: the person was at their inbox`)];
    if (i < 4) hits.push(click(d + 15 + i * 8, "link1", clickers[i], home(i + 1), "human", "quick click right after the quick open"));
    return { sentAt: sent(i), hits };
  });
  return { name: "Person at the inbox when it lands: opens within a minute", emails };
}

function clickWithoutOpen(): Scenario {
  const browsers = [
    BROWSER.chromeWin,
    BROWSER.edgeWin,
    BROWSER.safariMac,
    BROWSER.firefoxWin,
    BROWSER.chromeAndroid,
    BROWSER.safariIphone,
    BROWSER.edgeWin,
    BROWSER.opera,
    BROWSER.chromeLinux,
    BROWSER.chromeMac,
    BROWSER.edgeWin,
    BROWSER.safariIphone,
    BROWSER.chromeWin,
  ];
  const delays = [300, 2400, 7200, 16000, 50000, 130000, 95, 900, 21000, 4100, 66000, 180, 11000];
  const emails = delays.map((d, i) => ({
    sentAt: sent(i),
    hits: [
      click(d, `link${1 + (i % 2)}`, browsers[i], home(i + 2), "human" as const, `images blocked, so no open: one click after ${d} s`),
    ],
  }));
  return { name: "Person clicks with images off (no open recorded)", emails };
}

function officeNat(): Scenario[] {
  const office = "62.172.138";
  const colleagues: PlannedEmail[] = [0, 20, 40, 60].map((s, i) => ({
    sentAt: s,
    hits: [
      open(1500 - s + i * 25, READER.outlook365, at(office, 5), "human", `colleague ${i + 1} opens in Outlook behind the office NAT`),
      ...(i < 2 ? [click(1600 - s + i * 40, "link1", BROWSER.edgeWin, at(office, 5), "human" as const, `colleague ${i + 1} clicks`)] : []),
    ],
  }));
  const spread: PlannedEmail[] = [0, 1, 2, 3, 4].map((i) => ({
    sentAt: i * 30,
    hits: [
      open(
        900 + i * 700 + (i === 2 ? -700 : 0),
        i % 2 ? READER.outlook2016 : READER.outlookWordIE,
        at("195.12.44", 1 + i),
        "human",
        `employee ${i + 1} reads during the morning`,
      ),
    ],
  }));
  spread[4].hits.push(click(3800 + 200, "link2", BROWSER.chromeWin, at("195.12.44", 5), "human", "employee 5 clicks"));
  const campus: PlannedEmail[] = [0, 1, 2].map((i) => ({
    sentAt: i * 10,
    hits: [
      open(
        7200 + i * 20,
        READER.thunderbirdLinux,
        `2001:630:12:${600 + i}::${(30 + i).toString(16)}`,
        "human",
        `university staff ${i + 1} (IPv6, one /48)`,
      ),
    ],
  }));
  campus[1].hits.push(click(7300, "link1", BROWSER.firefoxLinux, "2001:630:12:601::1f", "human", "clicks in Firefox"));
  return [
    { name: "Four colleagues behind one office NAT read within a minute", emails: colleagues },
    { name: "Five employees of one company read over the morning", emails: spread },
    { name: "University staff on one IPv6 /48", emails: campus },
  ];
}

function appleMailPrivacyOff(): Scenario {
  const clients = [READER.appleMailMac, READER.iosMail, READER.ipadMail, READER.iosMail18, READER.appleMailMac];
  const emails: PlannedEmail[] = clients.map((ua, i) => {
    const ip = home(i + 6);
    const first = 2000 + i * 4100;
    const hits = [open(first, ua, ip, "human", "Apple Mail with Privacy Protection off: opens")];
    if (i !== 2) hits.push(open(first + 20000 + i * 3000, ua, home(i + 7), "human", "opens it again later from another network"));
    if (i % 2 === 0)
      hits.push(click(first + 120, "link1", i === 2 ? BROWSER.safariIpad : BROWSER.safariMac, ip, "human", "clicks in Safari"));
    return { sentAt: sent(i), hits };
  });
  return { name: "Person reads in Apple Mail with Mail Privacy Protection off", emails };
}

function unusualClients(): Scenario {
  const emails: PlannedEmail[] = [
    {
      sentAt: 0,
      hits: [
        open(11000, READER.lotusNotes, at("193.108.73", 4), "human", "Lotus Notes open"),
        click(11200, "link1", BROWSER.ie11, at("193.108.73", 4), "human", "clicks in IE 11"),
      ],
    },
    { sentAt: 900, hits: [open(26000, READER.outlook2010, at("80.229.3", 17), "human", "Outlook 2010 open")] },
    {
      sentAt: 1800,
      hits: [
        open(4000, READER.outlook2013IE, at("212.58.244", 9), "human", "Outlook 2013 (IE engine UA)"),
        click(4090, "link3", BROWSER.firefoxWin, at("212.58.244", 9), "human", "click"),
      ],
    },
    {
      sentAt: 2700,
      hits: [
        open(700, READER.androidWebView, home(9), "human", "Outlook for Android (WebView) open"),
        click(760, "link1", READER.androidWebView, home(9), "human", "click in the in-app WebView"),
      ],
    },
    {
      sentAt: 3600,
      hits: [
        open(9000, READER.samsungEmail, home(13), "human", "Samsung Email open"),
        click(9040, "link2", BROWSER.samsungInternet, home(13), "human", "click in Samsung Internet"),
      ],
    },
    {
      sentAt: 4500,
      hits: [
        open(15000, READER.thunderbirdLinux, home(4), "human", "Thunderbird on Linux open"),
        click(15100, "link1", BROWSER.firefoxLinux, home(4), "human", "click in Firefox"),
      ],
    },
    { sentAt: 5400, hits: [open(50000, READER.outlookWordIE, at("193.108.73", 30), "human", "Outlook 2016 (Word engine) open, next day")] },
    {
      sentAt: 6300,
      hits: [click(3000, "link1", null, at("145.64.134", 2), "human", "click through a corporate proxy that strips the User-Agent")],
    },
    { sentAt: 7200, hits: [open(5400, null, at("145.64.134", 2), "human", "open through the same UA-stripping proxy")] },
  ];
  return { name: "Person on an unusual or old client", emails };
}

function severalClicks(): Scenario {
  const emails: PlannedEmail[] = [0, 1].map((i) => ({
    sentAt: sent(i),
    hits: [
      open(3000 + i * 999, READER.outlook365, home(i), "human", "opens"),
      click(3060 + i * 999, "link1", BROWSER.chromeWin, home(i), "human", "clicks the first link"),
      click(3170 + i * 999, "link2", BROWSER.chromeWin, home(i), "human", "comes back and clicks the second link two minutes later"),
    ],
  }));
  emails.push({
    sentAt: sent(2),
    hits: [
      open(8000, READER.iosMail18, home(10), "human", "opens on the phone"),
      click(8030, "link1", BROWSER.safariIphone, home(10), "human", "taps the link"),
      click(8031, "link1", BROWSER.safariIphone, home(10), "human", "double tap: the same link again within a second"),
    ],
  });
  emails.push({
    sentAt: sent(3),
    hits: [
      open(12000, READER.thunderbirdWin, home(11), "human", "opens"),
      click(12050, "link1", BROWSER.firefoxWin, home(11), "human", "middle-clicks one link into a tab"),
      click(12053, "link2", BROWSER.firefoxWin, home(11), "human", "and another 3 s later"),
    ],
  });
  return { name: "Person clicks more than once", emails };
}

function forwarded(): Scenario {
  const emails: PlannedEmail[] = [0, 1].map((i) => ({
    sentAt: sent(i),
    hits: [
      open(5000, READER.outlook365, home(i + 12), "human", "the lead opens"),
      open(90000 + i * 5000, READER.iosMail, home(i + 14), "human", "a colleague opens the forwarded copy the next day"),
      click(90100 + i * 5000, "link1", BROWSER.safariIphone, home(i + 14), "human", "the colleague clicks"),
    ],
  }));
  return { name: "Lead forwards the email to a colleague", emails };
}

function laterReaders(): Scenario {
  const readers = [
    READER.outlook365,
    READER.iosMail,
    READER.gmailProxy,
    READER.thunderbirdWin,
    READER.appleMailMac,
    READER.windowsMail,
    READER.outlook2019,
    READER.iosMail18,
    READER.gmailProxy,
    READER.samsungEmail,
    READER.outlook2016,
    READER.yahooProxy,
    READER.outlookWordIE,
    READER.ipadMail,
  ];
  const emails: PlannedEmail[] = readers.map((ua, i) => {
    const d = 3 * 86400 + i * 37000;
    const ip =
      ua === READER.gmailProxy ? at(NET.gmail2, 150 + i) : ua === READER.yahooProxy ? at(NET.yahoo1, 150 + i) : home(i + 1, 200 + i);
    const hits = [open(d, ua, ip, "human", `opened ${Math.round(d / 86400)} days later`)];
    if (i % 3 === 0) hits.push(click(d + 200, "link1", BROWSER.chromeWin, home(i + 1, 200 + i), "human", "clicks"));
    return { sentAt: sent(i), hits };
  });
  return { name: "Person gets to it days later", emails };
}

function phoneReaders(): Scenario {
  const carriers = ["2607:fb90:9b2e:41c", "2a00:23c7:e1a2:5b01", "2600:387:f:7d1", "172.58.44", "2a01:4b00:8e3c:d200"];
  const readers = [READER.iosMail18, READER.samsungEmail, READER.androidWebView, READER.gmailProxy, READER.iosMail];
  const tappers = [BROWSER.safariIphone, BROWSER.samsungInternet, BROWSER.chromeAndroid, BROWSER.chromeAndroid, BROWSER.chromeIos];
  const emails: PlannedEmail[] = readers.map((ua, i) => {
    const ip = at(carriers[i], 0x21 + i);
    const d = 1100 + i * 5300;
    return {
      sentAt: sent(i),
      hits: [
        open(d, ua, ua === READER.gmailProxy ? at(NET.gmail1, 170 + i) : ip, "human", "opens on the phone, on the move"),
        click(d + 25 + i * 6, `link${1 + (i % 2)}`, tappers[i], ip, "human", "taps a link on the mobile network"),
      ],
    };
  });
  return { name: "Person reads and taps on a phone over a mobile network", emails };
}

function unknownAcceptance(): Scenario {
  const emails: PlannedEmail[] = [
    {
      sentAt: 0,
      sentKnown: false,
      hits: [
        open(4000, READER.outlook365, home(3, 77), "human", "opens"),
        click(4100, "link1", BROWSER.chromeWin, home(3, 77), "human", "clicks"),
      ],
    },
    { sentAt: 900, sentKnown: false, hits: [open(9000, READER.gmailProxy, at(NET.gmail3, 88), "human", "opens in Gmail")] },
  ];
  return { name: "Person reads an email whose acceptance time was not recorded", emails };
}

export const PEOPLE: Scenario[] = [
  outlookReaders(),
  gmailReaders(),
  gmailMorningPeak(),
  yahooReaders(),
  fastReaders(),
  clickWithoutOpen(),
  ...officeNat(),
  appleMailPrivacyOff(),
  unusualClients(),
  severalClicks(),
  ...MIXED,
  forwarded(),
  laterReaders(),
  phoneReaders(),
  unknownAcceptance(),
];
