import { randomInt } from "node:crypto";

/**
 * Warmup mail reads like ordinary business correspondence between colleagues: a subject from one of
 * many topics, an opening, two to four sentences about the topic and a sign-off, each picked at random
 * from its own list (over a billion combinations), and answers that pick up the thread. Nothing in it
 * is a fixed text, a pattern or a tag a filter could learn.
 */

const TOPICS: { subject: string[]; lines: string[] }[] = [
  {
    subject: ["Quarterly planning", "Planning for next quarter", "Q{n} priorities", "Roadmap check-in"],
    lines: [
      "I went through the draft plan and most of it looks realistic to me.",
      "We should probably move the reporting work earlier, since two teams depend on it.",
      "The budget numbers still need a second look before we share them.",
      "Could we keep the hiring items separate so they are easier to track?",
      "I added a few notes on timing in the shared document.",
      "The customer feedback section is the strongest part so far.",
    ],
  },
  {
    subject: ["Meeting notes", "Notes from today", "Follow-up from our call", "Recap of the meeting"],
    lines: [
      "Thanks for taking the time today, it was a useful conversation.",
      "I wrote up the action items so nothing slips through.",
      "We agreed to revisit the pricing question once we have the new figures.",
      "Let me know if I missed anything important in the summary.",
      "The next session could be shorter if we prepare the open questions beforehand.",
      "I will send the slides around once they are cleaned up.",
    ],
  },
  {
    subject: ["Project update", "Quick update on the project", "Status of the rollout", "Where we are with the migration"],
    lines: [
      "The first phase wrapped up on schedule, which is good news.",
      "Testing took a little longer than expected because of the holiday week.",
      "We found a couple of small issues, nothing that blocks the launch.",
      "The vendor confirmed the delivery date for the remaining pieces.",
      "I expect we can hand it over to the operations team by the end of the month.",
      "Documentation is about halfway done and improving every day.",
    ],
  },
  {
    subject: ["Lunch next week?", "Coffee sometime?", "Catching up", "Long time no see"],
    lines: [
      "It has been a while since we last caught up properly.",
      "There is a new place near the office that people keep recommending.",
      "Tuesday or Thursday would work best for me, around noon.",
      "I would love to hear how the new role is going.",
      "No pressure if the week is busy, we can always push it.",
      "Happy to come over to your side of town if that is easier.",
    ],
  },
  {
    subject: ["Invoice question", "About the last invoice", "Billing details", "Payment terms"],
    lines: [
      "I had a quick question about the line items on the last invoice.",
      "Finance asked whether we can move to monthly billing from next period.",
      "The purchase order number should be on the document for our records.",
      "Everything else matches what we agreed on, so this is a minor point.",
      "Let me know who the best contact on your side is for this.",
      "We usually process payments within two weeks of receipt.",
    ],
  },
  {
    subject: ["Conference in {month}", "Event planning", "Trade show logistics", "Booth for the expo"],
    lines: [
      "Registration for the event opens next week, so we should decide soon.",
      "Last year the booth location made a real difference in traffic.",
      "I can take care of the travel arrangements if you handle the materials.",
      "We might want to schedule a few customer meetings around the sessions.",
      "The speaker list looks stronger than last time.",
      "Shipping the display early would save us some stress on arrival.",
    ],
  },
  {
    subject: ["Hiring update", "Candidates for the open role", "Interview schedule", "New team member"],
    lines: [
      "We have three strong candidates for the final round.",
      "Could you join one of the interviews on Wednesday afternoon?",
      "The feedback so far has been very consistent, which helps.",
      "Onboarding materials need a refresh before the new person starts.",
      "I will share the scorecards once everyone has filled them in.",
      "It would be great to have the offer out before the holidays.",
    ],
  },
  {
    subject: ["Office move", "New office details", "Facilities update", "Parking and access"],
    lines: [
      "The move is planned for the second half of the month.",
      "Access badges for the new building will be handed out on the first day.",
      "Please label any equipment that should come along.",
      "The meeting rooms there are bigger, which should help with workshops.",
      "There will be a short period where the network is being set up.",
      "Let me know if you have any special requirements for your desk.",
    ],
  },
  {
    subject: ["Training session", "Workshop materials", "Learning plan", "Course recommendations"],
    lines: [
      "The workshop last month got good feedback from the team.",
      "I collected a few courses that could be useful for the analysts.",
      "We have some training budget left that should be used this year.",
      "Maybe we could run an internal session on the new tools.",
      "Recording the sessions would help people in other time zones.",
      "I am happy to prepare the first module if that helps.",
    ],
  },
  {
    subject: ["Customer feedback", "Survey results", "What customers are saying", "Feedback summary"],
    lines: [
      "The survey response rate was higher than we expected.",
      "Most comments were about response times, and they were mostly positive.",
      "A few customers asked for better reporting options.",
      "I grouped the feedback into themes to make it easier to discuss.",
      "It might be worth calling a handful of them for more detail.",
      "Overall satisfaction went up compared to the spring.",
    ],
  },
];

const GREETINGS = ["Hi {name},", "Hello {name},", "Hey {name},", "Good morning {name},", "Hi there,", "{name},"];
const OPENERS = [
  "Hope your week is going well.",
  "I hope you are doing well.",
  "Quick note on this.",
  "Following up on what we discussed.",
  "Just wanted to share a few thoughts.",
  "Hope things are calm on your side.",
  "",
];
const CLOSERS = [
  "Let me know what you think.",
  "Happy to talk it through whenever suits you.",
  "Thanks in advance.",
  "Looking forward to hearing from you.",
  "No rush on this.",
  "Talk soon.",
];
const SIGNOFFS = ["Best,", "Thanks,", "Cheers,", "Kind regards,", "All the best,", "Regards,"];
const ANSWERS = [
  "Thanks for the note, this makes sense to me.",
  "Good points, I agree with most of this.",
  "Thanks for sending this over.",
  "Appreciate the update, that is helpful.",
  "Sounds good to me.",
  "Thanks, I had a look and it all seems fine.",
  "Great, thanks for pulling this together.",
];
const ANSWER_LINES = [
  "I will check with the team and get back to you by Friday.",
  "One small thing: could we add the dates to the summary?",
  "Let us go with your suggestion for now.",
  "I shared it with the others so everyone is on the same page.",
  "We can pick this up again in our next call.",
  "I do not see any blockers on my side.",
  "That timeline works for us.",
  "I added a couple of comments, nothing major.",
];
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

const pick = <T>(xs: readonly T[]): T => xs[randomInt(xs.length)];

function fill(text: string, name: string): string {
  return text
    .replace("{name}", name)
    .replace("{n}", String(randomInt(1, 5)))
    .replace("{month}", pick(MONTHS));
}

/** The first name a message greets: the local part of the address, capitalised, when it looks like a name. */
export function greetingName(email: string): string {
  const local = email.split("@")[0].split(/[._+-]/)[0];
  return /^[a-z]{2,20}$/i.test(local) ? local[0].toUpperCase() + local.slice(1).toLowerCase() : "there";
}

function sign(sender: string): string {
  return `${pick(SIGNOFFS)}\n${sender}`;
}

/** A new warmup conversation: subject and body. */
export function newConversation(toEmail: string, senderName: string): { subject: string; body: string } {
  const topic = pick(TOPICS);
  const name = greetingName(toEmail);
  const lines = [...topic.lines].sort(() => randomInt(3) - 1).slice(0, randomInt(2, 5));
  const greeting = fill(pick(GREETINGS), name);
  const opener = pick(OPENERS);
  const body = [greeting, "", [opener, ...lines].filter(Boolean).join(" "), "", pick(CLOSERS), "", sign(senderName)].join("\n");
  return { subject: fill(pick(topic.subject), name), body };
}

/** An answer in a warmup conversation. */
export function answer(toEmail: string, senderName: string): string {
  const name = greetingName(toEmail);
  const lines = [pick(ANSWERS), ...(randomInt(2) ? [pick(ANSWER_LINES)] : [])];
  return [fill(pick(GREETINGS), name), "", lines.join(" "), "", sign(senderName)].join("\n");
}

/** "Re: subject", once. */
export function replySubject(subject: string): string {
  return /^re:/i.test(subject) ? subject : `Re: ${subject}`;
}
