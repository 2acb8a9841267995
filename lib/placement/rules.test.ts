import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { junkFolder, sentFolder } from "../mail/imap-ops";
import { inboxPct, isDrop, tabOf, tally } from "./rules";
import { loadSeedPool, poolProvider, SeedPoolError } from "./seeds";

describe("placement rules", () => {
  it.each([
    [["\\Inbox", "CATEGORY_PROMOTIONS"], "PROMOTIONS"],
    [["\\Inbox", "category_social"], "SOCIAL"],
    [["CATEGORY_UPDATES"], "UPDATES"],
    [["CATEGORY_FORUMS"], "FORUMS"],
    [["CATEGORY_PERSONAL"], "PRIMARY"],
    [["\\Inbox", "\\Important", "^smartlabel_promo"], "PROMOTIONS"],
    [["^smartlabel_notification"], "UPDATES"],
    [["^smartlabel_group"], "FORUMS"],
    [["^smartlabel_social"], "SOCIAL"],
    [["\\Inbox", "\\Important"], "PRIMARY"],
    [[], "PRIMARY"],
  ])("reads Gmail labels %j as the %s tab", (labels, tab) => {
    expect(tabOf(labels)).toBe(tab);
  });

  it("counts results by placement and inbox tabs (PENDING counts nowhere)", () => {
    const t = tally([
      { placement: "INBOX", tab: "PROMOTIONS" },
      { placement: "INBOX", tab: "PRIMARY" },
      { placement: "INBOX", tab: "PROMOTIONS" },
      { placement: "INBOX", tab: null },
      { placement: "SPAM", tab: null },
      { placement: "MISSING", tab: null },
      { placement: "PENDING", tab: null },
    ]);
    expect(t).toEqual({ inboxCount: 4, spamCount: 1, missingCount: 1, gmailTabs: { PROMOTIONS: 2, PRIMARY: 1 } });
  });

  it.each([
    // [inbox %, previous %, drop?]
    [49, null, true],
    [50, null, false],
    [100, null, false],
    [80, 100, true], // down 20 points
    [81, 100, false],
    [60, 70, false],
    [40, 40, true], // still under 50 %: stays open
    [0, 0, true],
  ])("inbox share %i%% after %s%% is a drop: %s", (pct, prev, drop) => {
    expect(isDrop(pct, prev)).toBe(drop);
  });

  it("takes inbox share over all seeds, whole percent", () => {
    expect(inboxPct({ inboxCount: 2, seedCount: 3 })).toBe(67);
    expect(inboxPct({ inboxCount: 0, seedCount: 0 })).toBe(0);
  });

  it("finds the spam folder by SPECIAL-USE, else by its usual names", () => {
    const f = (p: string, specialUse?: string, delimiter = "/") => ({ path: p, specialUse: specialUse ?? "", delimiter });
    expect(junkFolder([f("INBOX"), f("Bulk", "\\Junk"), f("Spam")])).toBe("Bulk");
    expect(junkFolder([f("INBOX"), f("[Gmail]/Spam")])).toBe("[Gmail]/Spam");
    expect(junkFolder([f("INBOX"), f("INBOX.Junk E-mail", undefined, ".")])).toBe("INBOX.Junk E-mail");
    expect(junkFolder([f("INBOX"), f("Archive")])).toBeUndefined();
  });

  it("finds the sent folder by SPECIAL-USE, else by its usual names (the inbox sync reads answers from it)", () => {
    const f = (p: string, specialUse?: string, delimiter = "/") => ({ path: p, specialUse: specialUse ?? "", delimiter });
    expect(sentFolder([f("INBOX"), f("Gesendet", "\\Sent"), f("Sent")])).toBe("Gesendet");
    expect(sentFolder([f("INBOX"), f("INBOX.Sent Items", undefined, ".")])).toBe("INBOX.Sent Items");
    expect(sentFolder([f("INBOX"), f("[Gmail]/Sent Mail")])).toBe("[Gmail]/Sent Mail");
    expect(sentFolder([f("INBOX"), f("Drafts")])).toBeUndefined();
  });

  it("gives a pool seed its provider class: as given, by address domain, by IMAP host preset, else OTHER", () => {
    expect(poolProvider({ email: "a@custom.test", imapHost: "imap.custom.test", provider: "MICROSOFT" })).toBe("MICROSOFT");
    expect(poolProvider({ email: "a@gmail.com", imapHost: "127.0.0.1" })).toBe("GOOGLE");
    expect(poolProvider({ email: "a@corp.test", imapHost: "outlook.office365.com" })).toBe("MICROSOFT");
    expect(poolProvider({ email: "a@icloud.com", imapHost: "imap.mail.me.com" })).toBe("OTHER");
    expect(poolProvider({ email: "a@corp.test", imapHost: "mail.corp.test" })).toBe("OTHER");
  });

  it("reads SEED_POOL_FILE with bulk-import items; an unreadable or invalid file is a SeedPoolError naming the problem", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pool-"));
    const write = (name: string, text: string) => {
      writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const good = write(
      "good.json",
      JSON.stringify([{ email: "S@Pool.test", imapHost: "h", imapPort: 143, smtpHost: "x", smtpPassword: "pw" }]),
    );
    const [seed] = await loadSeedPool(good);
    expect(seed).toMatchObject({ email: "s@pool.test", provider: "OTHER", mailboxId: null });
    expect(await seed.imap()).toEqual({ host: "h", port: 143, security: "STARTTLS", username: "S@Pool.test", password: "pw" });
    expect(await loadSeedPool("")).toEqual([]);
    await expect(loadSeedPool(path.join(dir, "absent.json"))).rejects.toThrow(SeedPoolError);
    await expect(loadSeedPool(write("broken.json", "[{"))).rejects.toThrow(/could not be read as JSON/);
    await expect(loadSeedPool(write("nopw.json", JSON.stringify([{ email: "a@b.test", imapHost: "h", imapPort: 993 }])))).rejects.toThrow(
      /\[0\]\.imapPassword: imapPassword \(or smtpPassword\) is required/,
    );
    await expect(loadSeedPool(write("obj.json", "{}"))).rejects.toThrow(/not a valid seed list/);
  });
});
