import { describe, expect, it } from "vitest";
import { findReturnDate, type ReturnDateOptions } from "./return-date";

// Anchors: Sunday 20 Dec 2026 (year end), Wednesday 10 Jun 2026, Friday 4 Dec 2026.
const DEC20 = new Date("2026-12-20T09:15:00Z");
const JUN10 = new Date("2026-06-10T14:00:00Z");
const DEC4 = new Date("2026-12-04T08:00:00Z");
const AT: Record<string, Date> = { DEC20, JUN10, DEC4 };

/**
 * One automatic reply a row: name (starting with its language) | received | expected date or null | options | body.
 * Options are locale=… and senderDomain=…; "\\n" in a body is a line break; a row starting with "+" goes on with the
 * body of the row above; "#" starts a comment.
 */
const TABLE = String.raw`
# English
en: back on a day and month | JUN10 | 2026-06-15 |  | Hello,\n\nThank you for your email. I am currently out of the office and will be back on 15
+ June.\n\nBest regards,\nAnna Smith\nAcme Ltd
en: year end, year-less January date is next year | DEC20 | 2027-01-04 |  | Hi,\n\nI'm out of the office for the holidays and will return on Monday 4
+ January.\nFor urgent matters please contact support@acme.com.\n\nMerry Christmas,\nTom
en: bare weekday is the next such day | JUN10 | 2026-06-15 |  | Thanks for your message. I'm travelling this week and back Monday.\n\nCheers,\nJim
en: a weekday that is today counts as today | JUN10 | 2026-06-10 |  | Automatic reply: I am out of the office and return Wednesday.
en: tomorrow | JUN10 | 2026-06-11 |  | I'm off sick today and will be back tomorrow.\nRegards, Lisa
en: next week means the Monday after | JUN10 | 2026-06-15 |  | Hi there,\nI'm on annual leave and back next week.\nThanks,\nPete
en: in two weeks | JUN10 | 2026-06-24 |  | I am on parental leave and will be back in two weeks. Please contact hr@acme.com meanwhile.
en: until a date is that date | JUN10 | 2026-06-19 |  | Hello,\n\nI am out of the office until 19 June with limited access to email.\n\nKind
+ regards,\nMaria Jones\nSales Director
en: through a date is the day after | JUN10 | 2026-06-20 |  | I'm on vacation through June 19. I will reply when I can.\nSam
en: up to and including | JUN10 | 2026-06-13 |  | I am away up to and including 12 June.\nBest, Kate
en: range from A to B is the day after B | DEC20 | 2027-01-11 |  | Dear sender,\n\nI'm away from 3 to 10 January and will have no access to
+ email.\n\nBest,\nOliver
en: a return word beats a range | DEC20 | 2027-01-12 |  | Hi,\nI'm on holiday from 22 December to 8 January.\nI will be back in the office on 12
+ January.\nThanks, Ruth
en: ISO date | DEC20 | 2027-01-05 |  | This is an automatic reply. I am out of the office until 2027-01-05.\n\n-- \nJohn Doe | CTO | +1 555 0100
en: explicit past year is ignored | DEC20 | null |  | Hi,\nI'm out of the office and will be back on 5 January 2025.\nRegards,\nDan
en: year-less date already past this year is next year | JUN10 | 2027-06-02 |  | I am away and return on 2 June.\nBest, Ivy
en (en-US): numeric month/day | DEC20 | 2027-01-04 | locale=en-US | Thank you for your email. I'm out of the office and will return on 1/4.\n\nSent from
+ my iPhone
en (en-GB): numeric day/month | DEC20 | 2027-04-01 | locale=en-GB | Thank you for your email. I'm out of the office and will return on 1/4.\n\nSent from
+ my iPhone
en: with a .com sender and no region: month/day | DEC20 | 2027-01-04 | senderDomain=acme.com | Hi,\nI'm on vacation, back 1/4/2027.\nThanks!
en: with a .co.uk sender: day/month | DEC20 | 2027-04-01 | senderDomain=acme.co.uk | Hi,\nI'm on holiday, back 1/4/2027.\nThanks!
en (en-US): a day over 12 falls back to day/month | DEC20 | 2027-01-13 | locale=en-US | I am out of office. I will be back on 13/01.
en: get back to you is not a return | JUN10 | null |  | Hi Mark,\n\nThanks for reaching out! I will get back to you on Monday with the
+ numbers.\n\nBest,\nJane
en: a date without a cue does not count | DEC4 | null |  | Hello,\nI received your invoice sent on 3 December and forwarded it to accounting on 4
+ December.\nRegards,\nPaul
en: no date at all | DEC4 | null |  | Thank you for your email. I am currently out of the office with limited access to email. I will respond as soon
+ as possible.
en: a signature date is ignored, the return date is found | DEC4 | 2026-12-14 |  | I'm away at a conference and return on 14 December.\n\nJane
+ Roe\nAcme Inc., est. 01/02/1999\nPosted 2026-12-01
en: quoted original message is left out | JUN10 | null |  | I am out of the office.\n\n-----Original Message-----\nFrom: Bob\nCan we meet? I'm back
+ on 20 June.
en: Outlook's 'will not return until' is that day | DEC20 | 2027-01-04 |  | I will be out of the office starting 21/12/2026 and will not return until
+ 04/01/2027.\nIf you need immediate assistance, please contact helpdesk@acme.co.uk.
en: returning a weekday with a date | DEC20 | 2027-01-05 |  | Hello,\nI am out of the office from Monday 21 December, returning Tuesday 5
+ January.\nHappy holidays!
en: the 5th is this month's or the next | JUN10 | 2026-07-05 |  | I'm on leave and back on the 5th.\nKim
en: a time alone is no date | JUN10 | null |  | I'm in meetings all day and back at 2pm. Regards, Leo
en: a month alone is no date | DEC4 | null |  | I am on sabbatical and will return in January.\nBest, Max
en: ISO date with a past year | DEC20 | null |  | Out of office: back 2025-01-05.\nThanks
en: thanks again is not a return | JUN10 | null |  | Thanks again for your note, see you at the meeting on 15 June!\nJo
en: from … until with numeric dates is a range | DEC20 | 2027-01-05 |  | Hello,\nI'm out of the office from 21.12.2026 until 04.01.2027.\nBest regards, Nina
en: an office closed over the holidays reopens | DEC20 | 2027-01-02 |  | Thank you for your email. Please note our office is closed from 24 December until 1 January inclusive.
+ We reopen on 2 January.\n\nThe Acme Team
# German
de: zurück am | DEC20 | 2027-01-04 |  | Sehr geehrte Damen und Herren,\n\nvielen Dank für Ihre Nachricht. Ich bin ab Montag, 4. Januar wieder
+ zurück.\n\nMit freundlichen Grüßen\nHans Müller
de: numeric without year | DEC4 | 2026-12-12 |  | Guten Tag,\nich bin ab dem 12.12. wieder im Büro.\nViele Grüße\nPetra Schmidt
de: vom A bis B | DEC20 | 2026-12-31 |  | Hallo,\n\nich bin vom 21. bis 30. Dezember im Urlaub. In dringenden Fällen wenden Sie sich an
+ info@firma.de.\n\nGruß\nKlaus
de: bis X is that day | JUN10 | 2026-06-19 |  | Ich bin bis zum 19.06.2026 nicht im Büro und lese keine E-Mails.\n\nBeste Grüße, Jana
de: bis einschließlich is the day after | DEC20 | 2027-01-09 |  | Ich bin bis einschließlich 8. Januar abwesend.\n\nMit freundlichen Grüßen\nDr. Weber
de: a return line beats the range | DEC20 | 2027-01-07 |  | Guten Tag,\nich bin vom 21.12. bis 06.01. im Urlaub.\nAb dem 07.01. bin ich wieder
+ erreichbar.\nFreundliche Grüße\nS. Becker
de: call back is not a return | JUN10 | null |  | Hallo Herr Meier,\ndanke für Ihren Anruf, ich rufe Sie am Montag zurück.\nGruß\nTim
de: past year is ignored | DEC20 | null |  | Ich bin am 03.01.2025 wieder im Büro.\nGruß\nAnja
de: relative weekday | JUN10 | 2026-06-12 |  | Ich bin auf Dienstreise und ab Freitag wieder erreichbar.
de: no date | JUN10 | null |  | Vielen Dank für Ihre E-Mail. Ich bin derzeit nicht im Büro und habe keinen Zugriff auf meine E-Mails.
de: nächste Woche | JUN10 | 2026-06-15 |  | Ich bin im Urlaub und nächste Woche wieder da.\nLG Maria
de: a time with a full stop is no date | JUN10 | null |  | Ich bin in einem Termin und um 9.30 wieder am Platz.
de: bilingual with English, the first return line wins | DEC20 | 2027-01-07 |  | Vielen Dank für Ihre Nachricht. Ich bin ab dem 7. Januar wieder im
+ Büro.\n\nThank you for your message. I will be back on 7 January.\n\nMfG / Best regards\nJörg
de: numeric range with a dash | DEC20 | 2027-01-07 |  | Ich bin im Urlaub (24.12.–06.01.) und lese keine E-Mails.
de: two-digit year | DEC20 | 2027-01-04 |  | Ich bin am 04.01.27 wieder zurück im Büro.
de: Betriebsferien as a range | DEC20 | 2027-01-04 |  | Sehr geehrte Kunden,\nunser Büro ist vom 23.12. bis 03.01. geschlossen.\nIhr Team der Muster GmbH
de: bis X, danach wieder is the day after | DEC20 | 2027-01-07 |  | Hallo,\nich bin bis 6. Januar im Urlaub, danach wieder erreichbar.\nGruß, Ute
# French
fr: de retour le | DEC20 | 2027-01-03 |  | Bonjour,\n\nJe suis absente du bureau et serai de retour le 3 janvier.\n\nCordialement,\nClaire Dubois
fr: du A au B | DEC20 | 2027-01-05 |  | Bonjour,\nJe suis en congés du 21 décembre au 4 janvier inclus. Pour toute urgence, contactez mon
+ collègue.\nBien à vous,\nLuc
fr: jusqu'au X | JUN10 | 2026-06-19 |  | Je suis absent jusqu'au 19 juin.\nMerci,\nPierre
fr: jusqu'au X inclus | JUN10 | 2026-06-20 |  | Je suis en vacances jusqu’au vendredi 19 juin inclus.\nMarie
fr: numeric | DEC20 | 2027-01-04 |  | Bonjour, je suis absent. De retour le 04/01.\nCordialement
fr: weekday | JUN10 | 2026-06-15 |  | Bonjour, je serai de retour lundi. Bonne journée, Sophie
fr: revenir vers vous is not a return | JUN10 | null |  | Merci pour votre message, je reviendrai vers vous le 15 juin avec une proposition.
fr: no date | JUN10 | null |  | Bonjour,\nJe suis actuellement absent et je répondrai à votre message dès mon retour.\nCordialement
fr: du … au 1er … inclus | DEC20 | 2027-01-02 |  | Je serai absent du lundi 21 décembre au vendredi 1er janvier inclus.
# Spanish
es: hasta el X | DEC20 | 2027-01-05 |  | Hola,\n\nEstaré fuera de la oficina hasta el 5 de enero.\n\nSaludos,\nCarlos García
es: del A al B | DEC20 | 2027-01-05 |  | Buenos días,\nEstoy de vacaciones del 21 de diciembre al 4 de enero. Para urgencias escriba a
+ soporte@empresa.es.\nUn saludo,\nLucía
es: regreso el lunes | JUN10 | 2026-06-15 |  | Gracias por su correo. Estoy de viaje y regreso el lunes.\nAtentamente, Jorge
es: numeric | DEC20 | 2027-01-07 |  | Estoy ausente. Estaré de vuelta el 07/01/2027.\nSaludos
es: hasta el X inclusive | JUN10 | 2026-06-20 |  | Estaré de vacaciones hasta el 19 de junio inclusive.\nGracias, Ana
es: past year | DEC20 | null |  | Estoy fuera de la oficina. Regreso el 10 de enero de 2025.
es: no date | JUN10 | null |  | Hola, en este momento no estoy en la oficina. Responderé a su correo lo antes posible.
es: me reincorporo | DEC20 | 2027-01-04 |  | Hola, estoy de vacaciones. Me reincorporo el lunes 4 de enero.\nSaludos, Elena
# Dutch
nl: terug op numeric | DEC20 | 2027-01-04 |  | Beste,\n\nIk ben met vakantie en terug op 4/1.\n\nMet vriendelijke groet,\nJan de Vries
nl: tot X | JUN10 | 2026-06-19 |  | Ik ben afwezig tot 19 juni.\nGroet, Sanne
nl: tot en met X | DEC20 | 2027-01-04 |  | Ik ben met vakantie tot en met 3 januari.\nMvg, Pieter
nl: van A tot B | DEC20 | 2027-01-04 |  | Hallo,\nIk ben van 21 december tot 3 januari niet op kantoor.\nGroeten,\nEva
nl: weer aanwezig | JUN10 | 2026-06-15 |  | Ik ben maandag weer aanwezig. Met vriendelijke groet, Bram
nl: call back is not a return | JUN10 | null |  | Dank voor uw bericht, ik bel u maandag terug.
nl: no date | JUN10 | null |  | Ik ben momenteel afwezig en lees mijn e-mail niet. Voor dringende zaken kunt u bellen.
nl: vanaf … weer bereikbaar | DEC20 | 2027-01-04 |  | Vanaf maandag 4 januari ben ik weer bereikbaar.\nGroet, Lotte
# Italian
it: rientro il | DEC20 | 2027-01-07 |  | Buongiorno,\n\nsono fuori ufficio con rientro il 7 gennaio.\n\nCordiali saluti,\nMarco Rossi
it: dal A al B | DEC20 | 2027-01-07 |  | Salve,\nsarò in ferie dal 21 dicembre al 6 gennaio.\nGrazie,\nGiulia
it: fino al X | JUN10 | 2026-06-19 |  | Sono assente fino al 19 giugno. Per urgenze contattare l'ufficio.
it: weekday | JUN10 | 2026-06-15 |  | Sono in viaggio, sarò di ritorno lunedì. Saluti, Paolo
it: numeric | DEC20 | 2027-01-08 |  | Sono in ferie. Rientrerò in ufficio il 08/01.\nSaluti
it: no date | JUN10 | null |  | Grazie per la sua email. Al momento sono fuori ufficio e risponderò al più presto.
it: nuovamente in ufficio | DEC20 | 2027-01-07 |  | Sarò nuovamente in ufficio a partire dal 7 gennaio.\nCordiali saluti
# Portuguese
pt: volto em | DEC20 | 2027-01-05 |  | Olá,\n\nEstou de férias e volto em 5 de janeiro.\n\nAtenciosamente,\nJoão Silva
pt: até X | JUN10 | 2026-06-19 |  | Estou fora do escritório até 19 de junho.\nObrigado, Pedro
pt: de A a B | DEC20 | 2027-01-05 |  | Bom dia,\nEstarei de férias de 21 de dezembro a 4 de janeiro.\nCumprimentos,\nInês
pt: retorno numeric | DEC20 | 2027-01-04 |  | Estou ausente. Retorno dia 04/01.\nAbraço
pt: weekday | JUN10 | 2026-06-15 |  | Estou de licença, estarei de volta na segunda-feira.\nAtt, Rafael
pt: returning a call is not a return | JUN10 | null |  | Obrigado pela mensagem, retornarei o seu contato no dia 15 de junho.
pt: no date | JUN10 | null |  | Estou de férias com acesso limitado ao e-mail. Responderei assim que possível.
pt: entre os dias … e … | DEC20 | 2027-01-05 |  | Estarei ausente entre os dias 21/12 e 04/01.\nAtenciosamente, Ana
`;

interface Case {
  name: string;
  at: Date;
  want: string | null;
  opts: Omit<ReturnDateOptions, "receivedAt">;
  body: string;
}

function parseTable(table: string): Case[] {
  const cases: Case[] = [];
  for (const row of table.split("\n")) {
    if (!row.trim() || row.startsWith("#")) continue;
    if (row.startsWith("+")) {
      cases[cases.length - 1]!.body += row.slice(1).replaceAll("\\n", "\n");
      continue;
    }
    const [name, at, want, opts, ...body] = row.split(" | ");
    const anchor = AT[at ?? ""];
    if (!anchor || !name || !want) throw new Error(`bad row: ${row}`);
    const options = Object.fromEntries(
      (opts ?? "")
        .split(" ")
        .filter(Boolean)
        .map((kv) => kv.split("=")),
    );
    cases.push({ name, at: anchor, want: want === "null" ? null : want, opts: options, body: body.join(" | ").replaceAll("\\n", "\n") });
  }
  return cases;
}

const cases = parseTable(TABLE);

describe("findReturnDate", () => {
  it("has at least 60 replies, at least 6 in each language, and many with no return date", () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    for (const lang of ["en", "de", "fr", "es", "nl", "it", "pt"])
      expect(cases.filter((c) => c.name.startsWith(lang)).length).toBeGreaterThanOrEqual(6);
    expect(cases.filter((c) => c.want === null).length).toBeGreaterThanOrEqual(15);
  });
  it.each(cases)("$name", ({ body, at, want, opts }) => {
    expect(findReturnDate(body, { receivedAt: at, ...opts })?.date ?? null).toBe(want);
  });

  it("gives the sentence the date was found in", () => {
    const body =
      "Hello,\n\nThank you for your email. I am out of the office and will be back on 15 June. Please contact Bob.\n\nBest,\nAnna";
    expect(findReturnDate(body, { receivedAt: JUN10 })?.text).toBe("I am out of the office and will be back on 15 June.");
  });

  it("cuts a long sentence to 200 characters around the date", () => {
    const body = `I am out of the office ${"and travelling between several customer sites ".repeat(6)}and will be back on 15 June.`;
    const found = findReturnDate(body, { receivedAt: JUN10 });
    expect(found?.date).toBe("2026-06-15");
    expect(found!.text.length).toBeLessThanOrEqual(200);
    expect(found!.text).toContain("15 June");
  });

  it("anchors on the received day in the given time zone", () => {
    // 23:30 UTC on Tuesday 9 June is already Wednesday 10 June in Berlin.
    const at = new Date("2026-06-09T23:30:00Z");
    expect(findReturnDate("I'm away and back Tuesday.", { receivedAt: at })?.date).toBe("2026-06-09");
    expect(findReturnDate("I'm away and back Tuesday.", { receivedAt: at, timeZone: "Europe/Berlin" })?.date).toBe("2026-06-16");
  });

  it("a date needs a cue word even when the locale is known", () => {
    expect(findReturnDate("Ab 12.12. bin ich im Büro.", { receivedAt: DEC4, locale: "de-DE" })).toBeNull();
    expect(findReturnDate("Zurück: 12.12.", { receivedAt: DEC4, locale: "de-DE" })?.date).toBe("2026-12-12");
  });
});
