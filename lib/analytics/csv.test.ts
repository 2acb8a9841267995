import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Cell, csvLines, csvText } from "./csv";

/**
 * leads.csv writes with csvLines (a fast path); every other report with csvText (csv-stringify). The
 * fast path must be the library's output byte for byte: RFC 4180 quoting (commas, quotes, CR, LF, CRLF),
 * formula neutralisation, empty and null cells, numbers and booleans, any Unicode.
 */
describe("csvLines is csv-stringify's output (csvText), byte for byte", () => {
  const tricky = fc.constantFrom(
    "",
    " ",
    ",",
    '"',
    '""',
    "\r",
    "\n",
    "\r\n",
    "=1+2",
    "+x",
    "-3",
    "@a",
    "\tx",
    "\rx",
    "a,b",
    'say "hi"',
    "é漢🙂",
  );
  const cell: fc.Arbitrary<Cell> = fc.oneof(
    fc.string({ unit: "grapheme" }),
    fc.string({ unit: fc.constantFrom("a", ",", '"', "\r", "\n", "=", "+", "-", "@", "\t", " ", "é") }),
    tricky,
    fc.constant(null),
    fc.integer(),
    fc.boolean(),
  );

  it("on arbitrary rows, with and without a header", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { maxLength: 8 }),
        fc.array(fc.string(), { minLength: 1, maxLength: 4 }),
        (rows, header) => {
          expect(csvLines(rows)).toBe(csvText(rows));
          expect(csvLines(rows, header)).toBe(csvText(rows, header));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("quotes fields as RFC 4180 does and makes a leading = into text (no formula runs in a spreadsheet)", () => {
    expect(csvLines([["=SUM(A1)", 'a "b"', "x,y", "l1\nl2", null, 3, true]])).toBe(`'=SUM(A1),"a ""b""","x,y","l1\nl2",,3,true\r\n`);
  });
});
