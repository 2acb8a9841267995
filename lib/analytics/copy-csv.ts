import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type postgres from "postgres";

/**
 * CSV written by Postgres itself: `COPY (query) TO STDOUT (FORMAT csv)` streamed to the client. The database's CSV writer quotes exactly what csvLines quotes (a
 * field holding a comma, a quote or a line break, quotes doubled; csvLines is csv-stringify's bytes),
 * writes NULL as an empty field and LF after each record. The query writes an empty string as NULL
 * (csvCell: COPY would quote it), csvBytes adds the formula prefix and the CR, and copy-csv.test.ts proves the bytes equal csvLines's on awkward values. It is the fast path
 * of leads.csv: no row is parsed into JavaScript values and written out again.
 */

const dialect = new PgDialect();

/**
 * A text expression as COPY must write it for csvLines's bytes: an empty string as NULL (an empty
 * field either way; COPY would quote an empty string). The formula prefix is added to the bytes
 * (csvBytes).
 */
export function csvCell(expr: SQL): SQL {
  return sql`nullif((${expr}), '')`;
}

/**
 * A parameter as a dollar-quoted literal: COPY takes no bind parameters, so a query's values are
 * written into its text. Dollar quoting needs no escaping (the tag is chosen so it does not occur in
 * the value), whatever standard_conforming_strings says. Only text values are expected here.
 */
export function literal(value: unknown): string {
  if (typeof value !== "string") throw new TypeError(`COPY query parameter must be text, got ${typeof value}`);
  if (value.includes("\0")) throw new TypeError("COPY query parameter holds a NUL character");
  let tag = "$c$";
  // The literal ends at the first tag after the opening one: it must be the closing one.
  for (let i = 0; `${value}${tag}`.indexOf(tag) !== value.length; i++) tag = `$c${i}$`;
  return `${tag}${value}${tag}`;
}

/** A statement's text with its parameters written in as literals (literal). */
export function inlined(query: SQL): string {
  const q = dialect.sqlToQuery(query);
  return q.sql.replace(/\$(\d+)/g, (_, n: string) => literal(q.params[Number(n) - 1]));
}

/** `COPY (query) TO STDOUT (FORMAT csv)` with the query's parameters written in as literals. */
export function copyCsvText(query: SQL): string {
  return `copy (${inlined(query)}) to stdout (format csv)`;
}

const LF = 10;
const CR = 13;
const QUOTE = 34;
const COMMA = 44;
const APOSTROPHE = 39;

/** A cell starting with one of these is prefixed with ' (csv.ts neutralise): =, +, -, @, tab, CR. */
function formulaStart(b: number): boolean {
  return b === 61 || b === 43 || b === 45 || b === 64 || b === 9 || b === 13;
}

/** Where the byte rewriter stands between chunks. */
export interface CsvState {
  /** Inside a quoted field. */
  quoted: boolean;
  /** The next byte starts a cell. */
  cellStart: boolean;
  /** The next byte is the first of a quoted cell's content. */
  openQuote: boolean;
}

export const csvStart = (): CsvState => ({ quoted: false, cellStart: true, openQuote: false });

/**
 * COPY's CSV bytes → csvLines's, in one pass, across chunks (`state` is carried from one to the next):
 * every cell whose text starts with a formula character gets ' in front of it (after the opening quote
 * of a quoted cell: the quoting is decided on the text without it, and ' never needs quotes), and each
 * LF record end becomes CRLF. Inside quotes a line break is data and stays; a doubled quote flips the
 * state twice. Neutralising here instead of in the query halves the database's work per cell.
 */
export function csvBytes(chunk: Uint8Array, state: CsvState): { out: Uint8Array; state: CsvState } {
  const out = Buffer.allocUnsafe(chunk.length * 2); // at most one byte added per byte read
  let o = 0;
  let { quoted, cellStart, openQuote } = state;
  for (let i = 0; i < chunk.length; i++) {
    const b = chunk[i];
    if (openQuote) {
      openQuote = false;
      if (formulaStart(b)) out[o++] = APOSTROPHE;
    } else if (cellStart) {
      cellStart = false;
      if (b === QUOTE) openQuote = true;
      else if (formulaStart(b)) out[o++] = APOSTROPHE;
    }
    if (b === QUOTE) quoted = !quoted;
    else if (!quoted && b === COMMA) cellStart = true;
    else if (!quoted && b === LF) {
      out[o++] = CR;
      cellStart = true;
    }
    out[o++] = b;
  }
  return { out: out.subarray(0, o), state: { quoted, cellStart, openQuote } };
}

/** Bytes gathered from the COPY before one chunk goes to the client. */
const CHUNK = 64 * 1024;

/**
 * The COPY's CSV as a web stream, `head` first, each CHUNK handed on as it arrives. The COPY is read
 * at the database's pace, never paused: the statement ends and its pooled connection is free whatever
 * the client does, and a client that goes away only has the rest dropped. What a slow client has not
 * read yet waits in memory, at most the whole download (leads.csv: at most LEADS_CSV_MAX rows).
 * (Pausing postgres.js's COPY stream for a slow client, or destroying it for one that left, can leave
 * its socket paused and the connection lost to the pool.)
 */
export async function copyCsvStream(
  client: postgres.Sql | postgres.ReservedSql,
  query: SQL,
  head: string,
  /** Called when the COPY has ended or failed, before the download ends (e.g. to release a reserved connection). */
  finish: () => unknown = () => {},
): Promise<ReadableStream<Uint8Array>> {
  const source = await client.unsafe(copyCsvText(query)).readable();
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(head));
      let parts: Buffer[] = [];
      let size = 0;
      let state = csvStart();
      const flush = () => {
        if (size > 0 && open) {
          const r = csvBytes(parts.length === 1 ? parts[0] : Buffer.concat(parts, size), state);
          state = r.state;
          controller.enqueue(r.out);
        }
        parts = [];
        size = 0;
      };
      source.on("data", (c: Buffer) => {
        if (!open) return;
        parts.push(c);
        size += c.length;
        if (size >= CHUNK) flush();
      });
      // The download ends after `finish` has run, so whatever it frees is free when the client sees the end.
      let ended = false;
      const end = (e?: Error) => {
        if (ended) return;
        ended = true;
        if (!e) flush();
        void Promise.resolve()
          .then(finish)
          .catch(() => {})
          .finally(() => {
            if (open && e) controller.error(e);
            else if (open) controller.close();
            open = false;
          });
      };
      source.on("end", () => end());
      source.on("error", (e) => end(e));
    },
    cancel() {
      open = false;
    },
  });
}
