import { describe, expect, it } from "vitest";
import { hardBlockers } from "./launch-rules";

describe("which launch blockers disable Launch", () => {
  it("keeps Launch disabled for blockers under which nothing could be sent", () => {
    const entries = ["NO_STEPS", "NO_LEADS", "NO_ELIGIBLE_MAILBOX"].map((code) => ({ code, message: code }));
    expect(hardBlockers(entries).map((b) => b.code)).toEqual(["NO_STEPS", "NO_LEADS", "NO_ELIGIBLE_MAILBOX"]);
  });
  it("lets raw template tokens be confirmed past, alone or beside a hard blocker", () => {
    expect(hardBlockers([{ code: "TEMPLATE_TOKENS", message: "raw tokens" }])).toEqual([]);
    const both = [
      { code: "TEMPLATE_TOKENS", message: "raw tokens" },
      { code: "NO_LEADS", message: "no leads" },
    ];
    expect(hardBlockers(both).map((b) => b.code)).toEqual(["NO_LEADS"]);
  });
});
