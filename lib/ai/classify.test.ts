import { describe, expect, it } from "vitest";
import { classify, isAutomatic, newText } from "./classify";

describe("automatic replies", () => {
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

/** What the built-in path decides for a message without automatic-reply headers. */
function intentOf(subject: string, text: string) {
  return classify({ automatic: isAutomatic({}, subject, text), text });
}

describe("a person's reply is never OUT_OF_OFFICE, even when it mentions being away", () => {
  it.each([
    ["I'm out of office? no, I'm interested", "INTERESTED"],
    ["I'm on holiday until the 3rd but this sounds interesting. Let's talk when I'm back.", "INTERESTED"],
    ["Currently travelling with limited access to email. Not interested, thanks.", "NOT_INTERESTED"],
    ["I am out of the office this week. Can you send me the pricing?", "QUESTION"],
    [
      "Hi Tom,\n\n" +
        "I'm on parental leave from Friday, so please reach out to my colleague Sarah instead — she owns vendor tools now.\n\n" +
        "Best,\nMark",
      "WRONG_PERSON",
    ],
    ["Back from vacation and catching up. How does this compare to Lemlist?", "QUESTION"],
    ["I'm away until Monday 12 January. Interested though, can we book a call for the week after?", "INTERESTED"],
    ["Out of office till Jan 5th. Please remove me from your list.", "UNSUBSCRIBE_REQUEST"],
    ["I'm on annual leave right now, but yes — send me more info and I'll read it when I'm back.", "INTERESTED"],
    ["Thanks for the note. I'm travelling this week; we already use Outreach for this, so it's not a fit.", "NOT_INTERESTED"],
    ["I'm at a conference until Thursday. Does it integrate with HubSpot?", "QUESTION"],
    ["Sorry for the slow reply, I was on holiday. Not the right person — I no longer work at Acme.", "WRONG_PERSON"],
    ["I'll be out of the office from Dec 20 to Jan 3 — let's schedule a demo for the week of the 6th.", "INTERESTED"],
    ["On leave at the moment. No thanks.", "NOT_INTERESTED"],
    ["I'm currently away on maternity leave. Please stop emailing me.", "UNSUBSCRIBE_REQUEST"],
    ["Out of office today, but happy to chat tomorrow afternoon.", "INTERESTED"],
    ["I'm on vacation until next Wednesday with no access to email. What would it cost for a team of 12?", "QUESTION"],
    ["Ich bin bis Freitag im Urlaub, aber das klingt interessant — können wir nächste Woche telefonieren?", "QUESTION"],
    ["Je suis en congé jusqu'au 5 janvier. Est-ce que votre outil gère plusieurs domaines ?", "QUESTION"],
    ["Estoy de vacaciones hasta el lunes, pero sí, me interesa. ¿Podemos hablar el martes?", "QUESTION"],
    ["I was out of office last week, just seeing this. We're not interested at this time.", "NOT_INTERESTED"],
    ["Travelling until the 14th. Who else uses this in the logistics space?", "QUESTION"],
    ["I'm on sabbatical until March, so I'm not the right person. Try jane@acme.test.", "WRONG_PERSON"],
    ["I'm on holiday until Monday. We signed with a competitor last month.", "UNCLASSIFIED"],
    ["Out of office until the 5th, ping me then", "UNCLASSIFIED"],
    ["I'm on leave until Monday, call me then.", "UNCLASSIFIED"],
    ["I'm out of the office until Monday. Our CFO decides on this.", "UNCLASSIFIED"],
    ["On vacation. Not a fit for us.", "NOT_INTERESTED"],
    ["Away this week — Anna handles this, anna@acme.test", "UNCLASSIFIED"],
  ] as const)("%s → %s", (text, intent) => {
    expect(isAutomatic({}, "Re: Quick question about Acme", text)).toBe(false);
    expect(intentOf("Re: Quick question about Acme", text)).toBe(intent);
  });
});

describe("an automatic notice is OUT_OF_OFFICE by its text alone, in the languages it is written in", () => {
  it.each([
    // English: Outlook, Gmail vacation responder, Exchange
    "Thank you for your email. " +
      "I am currently out of the office until Monday 12 January 2027 with limited access to email. " +
      "For urgent matters, please contact my colleague Jane Doe at jane.doe@acme.test or +44 20 7946 0958.\n\n" +
      "Kind regards,\nJohn Smith\nHead of Procurement | Acme Ltd",
    "Hello,\n\nI'm on annual leave from 22 December to 2 January and will respond to your message when I return. " +
      "If your matter is urgent, please email support@acme.test.\n\nBest regards\nAnna",
    "I am out of the office with no access to email until 06/01/2027. Your email will not be forwarded. " +
      "In my absence, please contact Peter Miller (peter.miller@acme.test).",
    "This is an automatic reply. I'm away on a business trip and will be back on Tuesday, 14 April. " +
      "I will reply to your email as soon as possible.\n\nThanks,\nSam",
    "Hi there,\nThanks for your message! I'm currently on parental leave and returning on 3 March 2027. " +
      "During my absence, please reach out to team@acme.test.\n\nCheers,\nLeo",
    "Our office is closed for the public holiday on Monday, 25 May. We will reply to your email on Tuesday.",
    // German
    "Sehr geehrte Damen und Herren,\n\nvielen Dank für Ihre Nachricht. Ich bin bis einschließlich 9. " +
      "Januar 2027 nicht im Büro und habe nur eingeschränkt Zugriff auf meine E-Mails. " +
      "In dringenden Fällen wenden Sie sich bitte an meine Kollegin Frau Müller (mueller@acme.test, Tel. " +
      "+49 30 1234567).\n\nMit freundlichen Grüßen\nThomas Schmidt",
    "Guten Tag,\n\nich bin vom 22.12. bis 06.01. im Urlaub. Ihre E-Mail wird nicht weitergeleitet. " +
      "Ab dem 07.01.2027 bin ich wieder erreichbar.\n\nBeste Grüße\nKatrin Weber",
    "Vielen Dank für Ihre E-Mail. Ich bin auf Dienstreise und ab Montag wieder im Büro. " +
      "Ihre Nachricht beantworte ich nach meiner Rückkehr.",
    // French
    "Bonjour,\n\nJe suis absente du bureau jusqu'au 5 janvier inclus, avec un accès limité à mes e-mails. " +
      "En cas d'urgence, merci de contacter Julie Martin (julie.martin@acme.test).\n\nCordialement,\nClaire Dubois",
    "Merci pour votre message. Je suis en congés et serai de retour le lundi 12 janvier. Je répondrai à votre e-mail à mon retour.",
    // Spanish
    "Gracias por su correo. " +
      "Me encuentro fuera de la oficina hasta el 10 de enero, con acceso limitado al correo electrónico. " +
      "Para asuntos urgentes, contacte con Luis García en luis.garcia@acme.test.\n\nSaludos cordiales,\nMaría López",
    "Hola,\nEstoy de vacaciones y regresaré el 7 de enero. Responderé a su mensaje a mi regreso.\n\nUn saludo",
    // Dutch
    "Bedankt voor uw e-mail. Ik ben afwezig tot en met vrijdag 9 januari en heb beperkte toegang tot mijn e-mail. " +
      "Voor dringende zaken kunt u contact opnemen met mijn collega Eva de Vries via eva@acme.test.\n\n" +
      "Met vriendelijke groet,\nJan Jansen",
    "Beste afzender,\n\nIk ben met vakantie en vanaf 12 januari weer op kantoor. Uw e-mail wordt niet doorgestuurd.",
    // Italian
    "Grazie per la sua e-mail. Sono fuori ufficio fino al 6 gennaio con accesso limitato alla posta. " +
      "Per urgenze si prega di contattare Marco Rossi all'indirizzo marco.rossi@acme.test.\n\nCordiali saluti,\n" +
      "Giulia Bianchi",
    "Buongiorno,\nsono in ferie dal 10 al 21 agosto. Risponderò alla sua e-mail al mio rientro.\n\nSaluti",
    // Portuguese
    "Obrigado pelo seu e-mail. Estou fora do escritório até o dia 15 de janeiro, com acesso limitado ao e-mail. " +
      "Para assuntos urgentes, entre em contato com Ana Souza pelo e-mail ana.souza@acme.test.\n\nAtenciosamente,\n" +
      "Pedro Costa",
    "Olá,\nEstou de férias e retornarei no dia 3 de fevereiro. Responderei à sua mensagem assim que possível.\n\nCumprimentos",
    // a few more English ones with other wording
    "I'm currently out of the office attending a conference and will have limited access to email. " +
      "I'll get back to you upon my return on 18 September.",
    "Thank you for contacting me. I am on sick leave until further notice. Please direct any enquiries to office@acme.test.",
    "OOO until 2 Jan. For anything urgent call +1 (415) 555-0132.",
    "I'm out of the office until 2027-01-05. For urgent requests contact the service desk: +1 555 123 4567.",
    "Dear Sender,\n\nI am on vacation from 12/20 through 1/2 and will have limited access to email. " +
      "I will respond to your message when I return.\n\nRegards,\nBob",
    "Ich bin ab dem 23.12.2026 nicht im Büro und ab dem 04.01.2027 wieder da. Ihre E-Mail wird nicht weitergeleitet.",
    "Je suis actuellement absent et n'ai pas accès à mes e-mails. Je vous répondrai dès mon retour le 8 janvier.",
    "Estaré fuera de la oficina del 20 de diciembre al 6 de enero.",
    "Sono assente dall'ufficio fino a lunedì 12 gennaio.",
    "Ik ben vandaag niet op kantoor. Morgen ben ik weer bereikbaar.",
  ])("%s", (text) => {
    expect(isAutomatic({}, "Re: Quick question about Acme", text)).toBe(true);
    expect(intentOf("Re: Quick question about Acme", text)).toBe("OUT_OF_OFFICE");
  });
});
