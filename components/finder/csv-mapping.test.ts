import { describe, expect, it } from "vitest";
import { guessPersonMapping, personMappingProblems, rowToPerson } from "./csv-mapping";

describe("directory person CSV mapping", () => {
  const headers = ["First Name", "Last Name", "Job Title", "Company", "Website", "# Employees", "Country", "Person Linkedin Url", "Notes"];

  it("guesses the person fields from common export headers and leaves the rest out", () => {
    expect(guessPersonMapping(headers)).toEqual([
      "firstName",
      "lastName",
      "title",
      "companyName",
      "companyDomain",
      "companySize",
      "country",
      "linkedinUrl",
      "ignore",
    ]);
    expect(personMappingProblems(guessPersonMapping(headers))).toEqual([]);
  });

  it("needs a name or a LinkedIn column, one column per field, and not a full name beside first and last", () => {
    expect(personMappingProblems(["title", "companyName"])[0]).toContain("every person needs a name or a profile");
    expect(personMappingProblems(["firstName", "title", "title"])).toEqual(["Job title is mapped from more than one column."]);
    expect(personMappingProblems(["fullName", "firstName"])).toEqual(["Map either Full name or First name and Last name, not both."]);
    expect(personMappingProblems(["fullName"])).toEqual([]);
  });

  it("sends the mapped non-empty cells, trimmed, and splits a full name at its first space", () => {
    const mapping = guessPersonMapping(["Name", "Title", "City", "Industry"]);
    expect(mapping).toEqual(["fullName", "title", "city", "industry"]);
    const row = { Name: " Ada  King Lovelace ", Title: "CTO", City: "", Industry: "FinTech" };
    expect(rowToPerson(row, ["Name", "Title", "City", "Industry"], mapping)).toEqual({
      firstName: "Ada",
      lastName: "King Lovelace",
      title: "CTO",
      industry: "FinTech",
    });
  });
});
