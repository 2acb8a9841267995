import { describe, expect, it } from "vitest";
import { classify, isAutomatic, newText } from "./classify";

describe("automatic replies (spec 2.9)", () => {
  it("are told by headers, subject, or an unmistakable phrase", () => {
    expect(isAutomatic({ "auto-submitted": "auto-replied" }, "Re: Hi", "Thanks")).toBe(true);
    expect(isAutomatic({ "auto-submitted": "no" }, "Re: Hi", "Thanks")).toBe(false);
    expect(isAutomatic({ "x-autoreply": "yes" }, "Re: Hi", "Thanks")).toBe(true);
    expect(isAutomatic({ precedence: "auto_reply" }, "Re: Hi", "Thanks")).toBe(true);
    expect(isAutomatic({}, "Automatic reply: Quick question", "")).toBe(true);
    expect(isAutomatic({}, "Out of Office: Quick question", "")).toBe(true);
    expect(isAutomatic({}, "Re: Quick question", "I am currently out of the office until Monday with limited access to email.")).toBe(true);
    expect(isAutomatic({}, "Re: Quick question", "Sounds good, let's talk next week.")).toBe(false);
  });
  it("only automatic replies are OUT_OF_OFFICE: a person mentioning it is not", () => {
    expect(classify({ automatic: true, text: "I'm on vacation" })).toBe("OUT_OF_OFFICE");
    expect(classify({ automatic: false, text: "Was out of office last week, but yes — interested, let's talk." })).toBe("INTERESTED");
  });
});

describe("the built-in classifier", () => {
  it.each([
    ["Please remove me from your list.", "UNSUBSCRIBE_REQUEST"],
    ["Unsubscribe", "UNSUBSCRIBE_REQUEST"],
    ["I'm not the right person, try Jane.", "WRONG_PERSON"],
    ["Tom has left the company.", "WRONG_PERSON"],
    ["Not interested, thanks.", "NOT_INTERESTED"],
    ["We already use a tool for that.", "NOT_INTERESTED"],
    ["Sounds interesting — can we book a call Thursday?", "INTERESTED"],
    ["How much does it cost?", "QUESTION"],
    ["Thanks.", "UNCLASSIFIED"],
  ])("%s → %s", (text, intent) => {
    expect(classify({ automatic: false, text })).toBe(intent);
  });
  it("reads only the new text, not the quoted email", () => {
    const t = "Not for us.\n\nOn Mon, Nov 2, 2026 at 9:00 AM Ann <ann@acme.test> wrote:\n> Interested in a call? Click here to unsubscribe";
    expect(newText(t)).toBe("Not for us.");
    expect(classify({ automatic: false, text: t })).toBe("UNCLASSIFIED");
  });
});
