import { describe, expect, it } from "vitest";
import { candidateEmails, learnedPatterns, patternOf } from "./patterns";

describe("email patterns", () => {
  it.each([
    ["ada.lovelace@x.test", "Ada", "Lovelace", "first.last"],
    ["ada@x.test", "Ada", "Lovelace", "first"],
    ["alovelace@x.test", "Ada", "Lovelace", "flast"],
    ["adal@x.test", "Ada", "Lovelace", "firstl"],
    ["ada_lovelace@x.test", "Ada", "Lovelace", "first_last"],
    ["lovelace.ada@x.test", "Ada", "Lovelace", "last.first"],
    ["jose.nunez@x.test", "José", "Núñez", "first.last"],
    ["anne-marie@x.test", "Anne-Marie", "Smith", undefined],
    ["sales@x.test", "Ada", "Lovelace", undefined],
  ])("%s follows %s %s's pattern %s", (email, first, last, pattern) => {
    expect(patternOf(email, first, last)).toBe(pattern);
  });

  it("guesses the common patterns in order, at most six, for a person without known colleagues", () => {
    expect(candidateEmails({ firstName: "Ada", lastName: "Lovelace" }, "acme.test")).toEqual([
      "ada.lovelace@acme.test",
      "ada@acme.test",
      "alovelace@acme.test",
      "adalovelace@acme.test",
      "adal@acme.test",
      "ada_lovelace@acme.test",
    ]);
    expect(candidateEmails({ firstName: "Ada", lastName: null }, "acme.test")).toEqual(["ada@acme.test"]);
    expect(candidateEmails({ firstName: null, lastName: null }, "acme.test")).toEqual([]);
  });

  it("puts the colleagues' most used pattern first", () => {
    const learned = learnedPatterns([
      { email: "gh@acme.test", firstName: "Grace", lastName: "Hopper" },
      { email: "ghopper@acme.test", firstName: "Grace", lastName: "Hopper" },
      { email: "aturing@acme.test", firstName: "Alan", lastName: "Turing" },
      { email: "alan.turing@acme.test", firstName: "Alan", lastName: "Turing" },
    ]);
    expect(learned).toEqual(["flast", "first.last"]);
    expect(candidateEmails({ firstName: "Ada", lastName: "Lovelace" }, "acme.test", learned).slice(0, 3)).toEqual([
      "alovelace@acme.test",
      "ada.lovelace@acme.test",
      "ada@acme.test",
    ]);
  });
});
