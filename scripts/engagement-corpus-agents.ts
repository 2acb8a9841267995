/**
 * The user agents and networks the engagement corpus (scripts/engagement-corpus.ts) draws on: real
 * strings as mail clients, browsers, proxies and scanners send them, and addresses inside the ranges
 * their operators publish. Sources are listed in test/fixtures/engagement-corpus.md.
 */

/** Mail clients that fetch the pixel when a person opens the message (or a proxy fetching on their behalf). */
export const READER = {
  outlook365: "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)",
  outlook2016: "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.4266; Pro)",
  outlook2019: "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.10417; Pro)",
  outlook2013: "Microsoft Office/15.0 (Windows NT 6.1; Microsoft Outlook 15.0.5023; Pro)",
  outlook2010: "Microsoft Office/14.0 (Windows NT 6.1; Microsoft Outlook 14.0.7268; Pro)",
  outlookWordIE:
    "Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 10.0; WOW64; Trident/7.0; .NET4.0C; .NET4.0E; Microsoft Outlook 16.0.5432; ms-office; MSOffice 16)",
  outlook2013IE:
    "Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.1; WOW64; Trident/7.0; SLCC2; .NET CLR 2.0.50727; .NET CLR 3.5.30729; Microsoft Outlook 15.0.4420; ms-office; MSOffice 15)",
  windowsMail:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; WebView/3.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19045",
  thunderbirdWin: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0",
  thunderbirdLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Thunderbird/115.16.0",
  appleMailMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)",
  iosMail: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  iosMail18: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  ipadMail: "Mozilla/5.0 (iPad; CPU OS 16_7_10 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  gmailProxy: "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
  yahooProxy: "YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html",
  samsungEmail:
    "Mozilla/5.0 (Linux; Android 14; SM-S918B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.107 Mobile Safari/537.36",
  androidWebView:
    "Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230901.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/129.0.6668.100 Mobile Safari/537.36",
  lotusNotes: "Mozilla/4.0 (compatible; Lotus-Notes/6.0; Windows-NT)",
} as const;

/** Browsers a person clicks in (also what Outlook on the web and new Outlook render with). */
export const BROWSER = {
  chromeWin: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  chromeMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36",
  chromeLinux: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  edgeWin: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
  firefoxWin: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  firefoxLinux: "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0",
  safariMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  safariIpad:
    "Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.7 Mobile/15E148 Safari/604.1",
  chromeIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  chromeAndroid: "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  samsungInternet:
    "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
  ie11: "Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko",
  opera: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
} as const;

/** Apple Mail Privacy Protection's prefetch sends exactly this. */
export const MPP_UA = "Mozilla/5.0";

/** Scanners, link checkers and bots. */
export const BOT = {
  pythonRequests: "python-requests/2.31.0",
  goHttp: "Go-http-client/1.1",
  goHttp2: "Go-http-client/2.0",
  curl: "curl/8.5.0",
  java: "Java/1.8.0_381",
  apacheHttp: "Apache-HttpClient/4.5.14 (Java/17.0.9)",
  okhttp: "okhttp/4.12.0",
  wget: "Wget/1.21.4",
  aiohttp: "Python/3.11 aiohttp/3.9.1",
  nodeFetch: "node-fetch/1.0 (+https://github.com/bitinn/node-fetch)",
  headless: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.109 Safari/537.36",
  headlessLinux: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/119.0.6045.105 Safari/537.36",
  oldChrome: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.88 Safari/537.36",
  oldChrome41: "Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2228.0 Safari/537.36",
  msie6: "Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1)",
  msie9: "Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)",
  edge122: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Safari/537.36 Edg/122.0.0.0",
  slackbot: "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
  skypePreview: "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com",
  facebook: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
  linkedin: "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
  googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
} as const;

/**
 * Networks, as the first three octets of an IPv4 /24 (or an IPv6 prefix to which a host part is added).
 * Operators' ranges: Microsoft EOP 40.92.0.0/15, 40.107.0.0/16, 52.100.0.0/14, 104.47.0.0/17; Proofpoint
 * 67.231.144.0/20, 148.163.128.0/19; Mimecast US 205.139.110.0/24, 207.211.30.0/24, 170.10.128.0/24;
 * Barracuda US 209.222.80.0/21, 64.235.144.0/20; Google 66.249.80.0/20, 66.102.0.0/20, 74.125.0.0/16;
 * Apple 17.0.0.0/8 and 2620:149::/32, iCloud Private Relay egress 172.224.226.0/27 and partners' ranges.
 */
export const NET = {
  eop1: "40.107.94",
  eop2: "40.107.220",
  eop3: "52.100.172",
  eop4: "104.47.58",
  eop5: "40.92.18",
  azure: "20.83.211",
  azure2: "52.167.144",
  proofpoint1: "67.231.152",
  proofpoint2: "148.163.156",
  proofpoint3: "148.163.138",
  mimecast1: "205.139.110",
  mimecast2: "207.211.30",
  mimecast3: "170.10.128",
  barracuda1: "209.222.82",
  barracuda2: "64.235.150",
  aws1: "3.236.18",
  aws2: "54.209.77",
  gcp: "34.141.22",
  gmail1: "66.249.84",
  gmail2: "66.102.8",
  gmail3: "74.125.210",
  googleScan: "66.249.93",
  googleScan2: "74.125.151",
  yahoo1: "98.137.69",
  yahoo2: "74.6.128",
  apple1: "17.58.63",
  apple2: "17.57.144",
  apple3: "17.252.66",
  relayAkamai: "172.224.226",
  relayCloudflare: "104.28.82",
  relayFastly: "146.75.166",
  apple6: "2620:149:a:9",
} as const;

/** Home, office and mobile networks of people (none of them a gateway's or a proxy's). */
const HOME = [
  "73.15.204",
  "86.154.33",
  "24.130.18",
  "99.88.112",
  "90.89.12",
  "5.148.97",
  "81.2.69",
  "2a02:c7c:5f1e:7e00",
  "68.42.190",
  "2607:fb90:2c1a:9f3",
  "109.150.201",
  "71.201.66",
  "2600:1700:ab0:6d0",
  "92.40.176",
  "174.204.3",
  "82.132.221",
] as const;

export const home = (i: number, host = 10 + i): string => at(HOME[i % HOME.length], host);

export function at(net: string, host: number): string {
  return net.includes(":") ? `${net}::${host.toString(16)}` : `${net}.${host}`;
}

type Hit = import("./engagement-corpus").PlannedHit;
type Label = import("./engagement-corpus").Label;

/** A pixel fetch. */
export function open(
  t: number,
  userAgent: string | null,
  ip: string | null,
  label: Label,
  who: string,
  method: "GET" | "HEAD" = "GET",
): Hit {
  return { t, kind: "OPEN", method, userAgent, ip, label, who };
}

/** A fetch of one link's redirect. */
export function click(
  t: number,
  link: string,
  userAgent: string | null,
  ip: string | null,
  label: Label,
  who: string,
  method: "GET" | "HEAD" = "GET",
): Hit {
  return { t, kind: "CLICK", method, link, userAgent, ip, label, who };
}

export interface SweepOptions {
  /** Seconds after acceptance of the first request. */
  start: number;
  links: readonly string[];
  /** Fetch the pixel too (first). */
  pixel?: boolean;
  /** HEAD each link before its GET. */
  head?: boolean;
  /** Seconds between successive requests. */
  step?: number;
  userAgent: string | null;
  net: string;
  /** Host part of the first address; each request uses the next one when `rotate` is set. */
  host: number;
  rotate?: boolean;
  who: string;
}

/** A gateway's pass over one message: the pixel, then each link (HEAD then GET when `head`), `step` seconds apart. */
export function sweep(o: SweepOptions): Hit[] {
  const hits: Hit[] = [];
  const step = o.step ?? 1;
  let t = o.start;
  let host = o.host;
  const next = () => {
    const ip = at(o.net, host);
    if (o.rotate) host++;
    return ip;
  };
  if (o.pixel) {
    hits.push(open(t, o.userAgent, next(), "scanner", `${o.who}: pixel`));
    t = Math.round((t + step) * 1000) / 1000;
  }
  for (const link of o.links) {
    if (o.head) {
      hits.push(click(t, link, o.userAgent, next(), "scanner", `${o.who}: HEAD ${link}`, "HEAD"));
      t = Math.round((t + step) * 1000) / 1000;
    }
    hits.push(click(t, link, o.userAgent, next(), "scanner", `${o.who}: GET ${link}`));
    t = Math.round((t + step) * 1000) / 1000;
  }
  return hits;
}
