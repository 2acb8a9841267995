import { describe, expect, it } from "vitest";
import corpus from "@/test/fixtures/engagement-corpus.json";
import { type LabelledHit, scoreCorpus } from "@/test/engagement-eval";
import { classifyHit, countsAsPerson } from "./engagement";
import { type HitFacts, ipRangeOf } from "./engagement-facts";

const THUNDERBIRD = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.5.0";
const base: HitFacts = {
  kind: "OPEN",
  method: "GET",
  userAgent: THUNDERBIRD,
  ip: "198.51.100.7",
  secondsSinceSent: 3600,
  opensBefore: 0,
  otherLinksNearby: 0,
  otherHitsNearby: 0,
  rangeEmailsNearby: 0,
};
const GMAIL_PROXY = "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)";

describe("the engagement classifier, rule by rule (the first rule that matches decides)", () => {
  const table: [string, Partial<HitFacts>, string, string][] = [
    ["a person's client, an hour later", {}, "human", "mail-client-or-browser"],
    ["a HEAD request, whatever it says it is", { method: "HEAD" }, "scanner", "head-request"],
    [
      "Gmail's image proxy: a person opening",
      { userAgent: GMAIL_PROXY, ip: "66.249.84.10", rangeEmailsNearby: 30 },
      "human",
      "person-image-proxy",
    ],
    [
      "Yahoo's proxy",
      { userAgent: "YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html" },
      "human",
      "person-image-proxy",
    ],
    ["Apple's prefetch: exactly Mozilla/5.0", { userAgent: "Mozilla/5.0", secondsSinceSent: 4 }, "proxy", "apple-prefetch"],
    ["an open from Apple's network", { ip: "17.58.63.2" }, "proxy", "apple-network-open"],
    ["no user agent", { userAgent: null }, "scanner", "no-user-agent"],
    ["a script", { userAgent: "python-requests/2.32.3" }, "scanner", "machine-user-agent"],
    ["Microsoft's scanning network", { kind: "CLICK", opensBefore: 1, ip: "40.93.29.5" }, "scanner", "scanner-network"],
    ["an IPv6 address in Microsoft's range", { ip: "2a01:111:f400:fe1f::3" }, "scanner", "scanner-network"],
    ["two links of one email within seconds", { kind: "CLICK", opensBefore: 1, otherLinksNearby: 1 }, "scanner", "every-link-at-once"],
    ["a click on arrival with no open", { kind: "CLICK", secondsSinceSent: 12 }, "scanner", "click-on-arrival"],
    [
      "a click on arrival after an open is a fast reader",
      { kind: "CLICK", secondsSinceSent: 40, opensBefore: 1 },
      "human",
      "mail-client-or-browser",
    ],
    ["one network over many leads at once", { rangeEmailsNearby: 12 }, "scanner", "network-over-many-leads"],
    ["an office NAT: a few leads", { rangeEmailsNearby: 3 }, "human", "mail-client-or-browser"],
    ["an open on arrival among other hits", { secondsSinceSent: 3, otherHitsNearby: 2 }, "scanner", "open-on-arrival"],
    ["an open on arrival alone is a reader at the inbox", { secondsSinceSent: 3 }, "human", "mail-client-or-browser"],
    ["nothing recognisable", { userAgent: "SomethingElse/1.0" }, "unknown", "no-rule"],
  ];
  it.each(table)("%s", (_name, over, cls, reason) => {
    expect(classifyHit({ ...base, ...over })).toEqual({ class: cls, reason });
  });

  it("counts people and unknown hits, never machines", () => {
    expect(["human", "unknown", "proxy", "scanner"].map((c) => countsAsPerson(c as never))).toEqual([true, true, false, false]);
  });

  it("groups addresses by network: IPv4 /24, IPv6 /48, mapped IPv4", () => {
    expect(ipRangeOf("203.0.113.77")).toBe("203.0.113.0/24");
    expect(ipRangeOf("::ffff:203.0.113.77")).toBe("203.0.113.0/24");
    expect(ipRangeOf("2001:db8:abcd:12::1")).toBe("2001:db8:abcd::/48");
    expect(ipRangeOf("2001:0db8:00ab::")).toBe("2001:db8:ab::/48");
    expect([ipRangeOf(null), ipRangeOf("local"), ipRangeOf("1::2::3")]).toEqual([null, null, null]);
    // A reverse proxy's own address (no X-Forwarded-For) is no client's network: no range rule for it.
    expect(["127.0.0.1", "::1", "10.1.2.3", "192.168.0.9", "172.16.5.5", "fd00::1", "fe80::1"].map(ipRangeOf)).toEqual(Array(7).fill(null));
  });
});

describe("the labelled corpus (test/fixtures/engagement-corpus.json)", () => {
  const score = scoreCorpus(corpus as LabelledHit[]);
  it("the person class has precision and recall of at least 0.95", () => {
    console.log(
      `engagement corpus: ${score.hits} hits, precision ${score.precision.toFixed(3)}, recall ${score.recall.toFixed(3)}, ${score.wrong.length} wrong`,
    );
    expect(score.hits).toBeGreaterThanOrEqual(300);
    expect(score.precision).toBeGreaterThanOrEqual(0.95);
    expect(score.recall).toBeGreaterThanOrEqual(0.95);
  });

  it("tells Apple's prefetch and the scanners apart from each other, mostly", () => {
    const share = (label: "proxy" | "scanner") =>
      score.confusion[label][label] / Object.values(score.confusion[label]).reduce((a, b) => a + b, 0);
    expect(share("proxy")).toBeGreaterThan(0.9);
    expect(share("scanner")).toBeGreaterThan(0.9);
  });
});
