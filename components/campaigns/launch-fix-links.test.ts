import { describe, expect, it } from "vitest";
import { fixLinkOf, splitFix } from "./launch-rules";

describe("where the launch dialog sends each warning to be fixed", () => {
  it("links each deliverability warning to the page that fixes it", () => {
    const link = (code: string) => fixLinkOf({ code, message: "" }, "cmp_1")?.href;
    expect(link("DOMAIN_NOT_AUTHENTICATED")).toBe("/domains");
    expect(link("MAILBOX_NOT_WARMED")).toBe("/mailboxes");
    for (const code of ["EMPTY_VARIABLES", "SPAM_WORDS", "TRACKED_SHORT_HTML"]) expect(link(code)).toBe("/campaigns/cmp_1?tab=sequence");
    expect(link("TRACKING_SHARED_DOMAIN")).toBe("/settings/tracking-domains");
    expect(link("NO_TIMEZONE")).toBeUndefined();
    // A warning that names its step opens the sequence editor at that step.
    expect(fixLinkOf({ code: "EMPTY_VARIABLES", message: "", stepId: "stp_a b" }, "cmp_1")?.href).toBe(
      "/campaigns/cmp_1?tab=sequence#step-stp_a%20b",
    );
  });
  it("splits a message into its problem and its fix", () => {
    expect(splitFix("step 2 is short. Fix: lengthen it.")).toEqual({ problem: "step 2 is short.", fix: "lengthen it." });
    expect(splitFix("Sending starts later.")).toEqual({ problem: "Sending starts later.", fix: "" });
  });
});
