import { describe, expect, it } from "vitest";
import { renderStep, renderSubject } from "./render";

const lead = {
  email: "ann@acme.io",
  firstName: "Ann",
  lastName: "",
  companyName: "Acme & Co",
  customFields: { plan: "Pro", "Team Size": "12", empty: "" },
};
const withSig = { senderName: "Sam Seller", signatureHtml: "<p>Sam Seller<br><b>Outreach Inc</b></p>" };
const noSig = { senderName: "Sam Seller", signatureHtml: null };

describe("template variables", () => {
  it("fills lead fields, custom fields and senderName, case-sensitively", () => {
    const r = renderStep(
      {
        subject: "Hi {{firstName}} at {{companyName}}",
        bodyTemplate: "{{firstName}} on {{plan}} ({{Team Size}}) from {{senderName}}, {{email}}",
      },
      lead,
      noSig,
    );
    expect(r.subject).toBe("Hi Ann at Acme & Co");
    expect(r.text).toBe("Ann on Pro (12) from Sam Seller, ann@acme.io");
    expect(r.variables.used.sort()).toEqual(["Team Size", "companyName", "email", "firstName", "plan", "senderName"].sort());
  });

  it("a misspelt variable is sent as literal text, and reported with a suggestion", () => {
    const r = renderStep({ subject: "{{FirstName}}", bodyTemplate: "Hi {{frstName}}, {{ firstName }}" }, lead, noSig);
    expect(r.subject).toBe("{{FirstName}}");
    expect(r.text).toBe("Hi {{frstName}}, {{ firstName }}");
    expect(r.variables.unknown.sort()).toEqual([" firstName ", "FirstName", "frstName"].sort());
    expect(r.notes.join("\n")).toContain("Did you mean {{firstName}}?");
  });

  it("an empty lead field becomes empty text, in text and HTML; a custom field another lead has counts as empty", () => {
    const r = renderStep(
      { subject: "x", bodyTemplate: "[{{lastName}}][{{empty}}][{{industry}}]", bodyHtmlTemplate: "<p>[{{lastName}}][{{industry}}]</p>" },
      lead,
      noSig,
      { knownCustomFields: ["industry"] },
    );
    expect(r.text).toBe("[][][]");
    expect(r.html).toBe("<p>[][]</p>");
    expect(r.variables.empty.sort()).toEqual(["empty", "industry", "lastName"]);
    expect(r.variables.unknown).toEqual([]);
  });

  it("escapes lead values in the HTML part only", () => {
    const r = renderStep({ subject: "s", bodyTemplate: "{{companyName}}", bodyHtmlTemplate: "<p>{{companyName}}</p>" }, lead, noSig);
    expect(r.text).toBe("Acme & Co");
    expect(r.html).toBe("<p>Acme &amp; Co</p>");
  });

  it("reports malformed variable text", () => {
    const r = renderStep({ subject: "{{firstName", bodyTemplate: "Hi {firstName}, {{{lastName}}} and }} and {{}}" }, lead, noSig);
    expect(r.variables.malformed).toEqual(expect.arrayContaining(["{{firstName", "{firstName}", "{{{lastName}}}"]));
    expect(r.variables.malformed.length).toBeGreaterThanOrEqual(4);
  });
});

describe("signature rules", () => {
  it("plain: {{signature}} is placed exactly where written, as text", () => {
    const r = renderStep({ subject: "s", bodyTemplate: "Hi {{firstName}},\n\n{{signature}}\n\nP.S. more" }, lead, withSig);
    expect(r.text).toBe("Hi Ann,\n\nSam Seller\nOutreach Inc\n\nP.S. more");
    expect(r.signature).toBe("at_token");
  });

  it("HTML: {{signature}} is placed where written, as HTML", () => {
    const r = renderStep(
      { subject: "s", bodyTemplate: "Hi\n\n{{signature}}", bodyHtmlTemplate: "<p>Hi</p><p>{{signature}}</p><p>P.S.</p>" },
      lead,
      withSig,
    );
    expect(r.html).toBe('<p>Hi</p><p><div class="signature"><p>Sam Seller<br><b>Outreach Inc</b></p></div></p><p>P.S.</p>');
    expect(r.text).toBe("Hi\n\nSam Seller\nOutreach Inc");
  });

  it("plain: without {{signature}} it is appended at the bottom, once", () => {
    const r = renderStep({ subject: "s", bodyTemplate: "Hi {{firstName}}\n" }, lead, withSig);
    expect(r.text).toBe("Hi Ann\n\nSam Seller\nOutreach Inc");
    expect(r.text.match(/Outreach Inc/g)).toHaveLength(1);
    expect(r.signature).toBe("appended_at_bottom");
  });

  it("HTML: appended before </body> when absent, never twice", () => {
    const r = renderStep({ subject: "s", bodyTemplate: "Hi", bodyHtmlTemplate: "<html><body><p>Hi</p></body></html>" }, lead, withSig);
    expect(r.html).toBe('<html><body><p>Hi</p><br><div class="signature"><p>Sam Seller<br><b>Outreach Inc</b></p></div></body></html>');
    expect(r.html!.match(/Outreach Inc/g)).toHaveLength(1);
    expect(r.text.match(/Outreach Inc/g)).toHaveLength(1);
  });

  it("never adds it twice when {{signature}} is written twice", () => {
    const r = renderStep({ subject: "s", bodyTemplate: "A\n{{signature}}\nB\n{{signature}}" }, lead, withSig);
    expect(r.text.match(/Outreach Inc/g)).toHaveLength(1);
    expect(r.text).not.toContain("{{signature}}");
  });

  it("plain: with no signature the token's line is removed cleanly", () => {
    const r = renderStep({ subject: "s", bodyTemplate: "Hi {{firstName}},\n\nThanks!\n{{signature}}\n" }, lead, noSig);
    expect(r.text).toBe("Hi Ann,\n\nThanks!");
    expect(r.signature).toBe("none");
    const inline = renderStep({ subject: "s", bodyTemplate: "Best, {{signature}}" }, lead, noSig);
    expect(inline.text).toBe("Best,");
  });

  it("HTML: with no signature the token's element is removed cleanly", () => {
    const r = renderStep({ subject: "s", bodyTemplate: "x", bodyHtmlTemplate: "<p>Thanks!</p><p>{{signature}}</p>" }, lead, noSig);
    expect(r.html).toBe("<p>Thanks!</p>");
    const br = renderStep({ subject: "s", bodyTemplate: "x", bodyHtmlTemplate: "<div>Thanks!<br>{{signature}}</div>" }, lead, noSig);
    expect(br.html).toBe("<div>Thanks!</div>");
    expect(r.notes.join(" ")).toContain("no signature");
  });

  it("senderName and signature are the assigned mailbox's", () => {
    const other = { senderName: "Olga", signatureHtml: "<p>Olga, Other Ltd</p>" };
    const r = renderStep({ subject: "s", bodyTemplate: "{{senderName}}\n{{signature}}" }, lead, other);
    expect(r.text).toBe("Olga\nOlga, Other Ltd");
  });

  it("makes an HTML part from the text when asked (open tracking), with the HTML signature", () => {
    const r = renderStep({ subject: "s", bodyTemplate: "Hi <{{firstName}}>\nline two" }, lead, withSig, { htmlFromText: true });
    expect(r.html).toBe('<p>Hi &lt;Ann&gt;<br>line two</p>\n<div class="signature"><p>Sam Seller<br><b>Outreach Inc</b></p></div>');
    const none = renderStep({ subject: "s", bodyTemplate: "Hi" }, lead, withSig);
    expect(none.html).toBeNull();
  });
});

describe("renderSubject", () => {
  it("makes exactly the subject renderStep makes: known, empty, custom, unknown and signature tokens, line breaks", () => {
    const lead = { email: "a@b.test", firstName: "Ann", companyName: "", customFields: { city: "Oslo" } };
    const mailbox = { senderName: "Sam", signatureHtml: "<p>Sam</p>" };
    const subjects = [
      "Hi {{firstName}}",
      "{{companyName}} idea",
      "From {{senderName}} in {{city}}",
      "{{fistName}} {{unknown}}",
      "A\n  {{firstName}}\r\nB",
      "{{signature}} x",
      "{{region}} plain",
      "",
    ];
    for (const subject of subjects) {
      const full = renderStep({ subject, bodyTemplate: "Body" }, lead, mailbox, { knownCustomFields: ["city", "region"] }).subject;
      expect(renderSubject(subject, lead, mailbox, { knownCustomFields: ["city", "region"] })).toBe(full);
    }
    expect(renderSubject("Hi {{firstName}} of {{companyName}}\n{{city}}", lead, mailbox, { knownCustomFields: ["city"] })).toBe(
      "Hi Ann of Oslo",
    );
  });
});
