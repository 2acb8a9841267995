import { describe, expect, it } from "vitest";
import { type DraftInput, proposedTime, questionsAsked, templateDraft } from "./template-draft";

const draft = (theirMessage: string, over: Partial<DraftInput> = {}) =>
  templateDraft({
    leadName: "Ann",
    senderName: "Sam",
    subject: "Quick question",
    theirMessage,
    intent: "INTERESTED",
    customInstructions: "",
    ...over,
  });

describe("the time a lead proposes", () => {
  it.each([
    ["Tuesday at 3pm works for me.", "Tuesday at 3pm"],
    ["Could we do 3pm on Thursday?", "3pm on Thursday"],
    ["How about next Friday, 10:30?", "next Friday, 10:30"],
    ["Let's talk at 10:30 tomorrow", "10:30 tomorrow"],
    ["Monday doesn't work, but Wednesday at 2 pm does.", "Wednesday at 2 pm"],
    ["Sure — March 3rd is good.", "March 3rd"],
    ["Happy to chat. Thursday afternoon?", "Thursday afternoon"],
    ["I'm free at noon", "noon"],
  ])("finds it in %j", (text, time) => {
    expect(proposedTime(text)).toBe(time);
  });

  it.each([
    ["Sounds interesting, tell me more."],
    ["I'm away until Monday."],
    ["Busy on Friday, sorry."],
    ["May 3 of us join the call?"],
    ["Great.\n\nOn Tue, 3 Nov 2026 at 09:00, Sam wrote:\n> Would Tuesday at 3pm work?"],
  ])("finds none in %j", (text) => {
    expect(proposedTime(text)).toBeNull();
  });
});

describe("the questions a lead asks", () => {
  it("takes the sentences ending with a question mark from the new text only, at most two", () => {
    expect(questionsAsked("Thanks. Do you integrate with HubSpot? What does it cost for 10 seats? And is there a trial?")).toEqual([
      "Do you integrate with HubSpot?",
      "What does it cost for 10 seats?",
    ]);
    expect(questionsAsked("Looks good.\n\n> Do you have a minute?")).toEqual([]);
    expect(questionsAsked("???")).toEqual([]);
  });
});

describe("the built-in draft", () => {
  it("confirms the time the lead proposed instead of offering others", () => {
    const body = draft("Tuesday at 3pm works for me.");
    expect(body).toContain("Tuesday at 3pm works for me — I'll send a calendar invite for then.");
    expect(body).not.toContain("Would Tuesday or Thursday work");
    expect(body.startsWith("Hi Ann,\n\n")).toBe(true);
    expect(body.endsWith("Best,\nSam")).toBe(true);
  });

  it("quotes the lead's question back and promises an answer, still asking for a call when they are interested", () => {
    const body = draft("Sounds interesting. Do you integrate with HubSpot?");
    expect(body).toContain("Thanks for your question:\n\n> Do you integrate with HubSpot?\n\n");
    expect(body).toContain("I'll follow up with the details shortly.");
    expect(body).toContain("would Tuesday or Thursday work for a 20-minute call?");
  });

  it("does both for a time and a separate question, and treats a question about the time as answered by confirming it", () => {
    const both = draft("Could we do 3pm on Thursday? Also, do you support Outlook?", { intent: "QUESTION" });
    expect(both).toContain("3pm on Thursday works for me");
    expect(both).toContain("> Also, do you support Outlook?");
    expect(both).not.toContain("> Could we do 3pm on Thursday?");
    expect(both).not.toContain("would a short call be easiest");
  });

  it("keeps the intent's answer when the lead neither proposes a time nor asks, and ignores times in refusals", () => {
    expect(draft("Sounds good.")).toContain("Would Tuesday or Thursday work for a 20-minute call?");
    const no = draft("Not interested, maybe Tuesday at 3pm next year? No.", { intent: "NOT_INTERESTED" });
    expect(no).toContain("I won't follow up on this");
    expect(no).not.toContain("calendar invite");
    expect(draft("Please remove me. Why do you email me?", { intent: "UNSUBSCRIBE_REQUEST" })).not.toContain(">");
  });

  it("is deterministic: the same message gives the same draft", () => {
    const text = "Happy to chat. Wednesday at 11am? What's the price per seat?";
    expect(draft(text)).toBe(draft(text));
  });
});
