/**
 * The words warmup mail is made of (content.ts puts them together). `[a|b|c]` is one of its choices,
 * `{slot}` one of the shared phrases of content-phrases.ts; both may nest. Every topic is everyday small talk between
 * colleagues — never money, logins, parcels or anything a message would ask someone to act on fast.
 */

import { TEAM_TOPICS } from "./content-team-topics";

export interface Topic {
  /** What the email is about, as a noun phrase ("the {topic}"). */
  topic: string[];
  subjects: string[];
  lines: string[];
}

const WORK_TOPICS: Topic[] = [
  {
    topic: ["plan", "roadmap", "planning"],
    subjects: [
      "[Quarterly|Next quarter's|Q{n}] [planning|priorities|goals]",
      "Roadmap [check-in|thoughts|draft]",
      "Planning for [next quarter|{month}]",
    ],
    lines: [
      "I [went through|had a look at|read through] {notes} and [most of it|nearly all of it|the bulk of it] [looks|seems] [realistic|doable|sensible] [to me|so far].",
      "We [should probably|could|might want to] move the reporting work [earlier|up a bit], since [two teams|{who}] [depend on it|are waiting for it].",
      "The [timeline|sequence|plan] [still|probably] [needs|could use] [a second look|another pass|one more read] [before we share it|before it goes out] [with|to] {who}.",
      "Could we [keep|put] the hiring [items|bits] [separate|in their own section] so they are [easier|simpler] to [follow|keep track of]?",
      "I added a {small} [notes|comments|questions] on timing to {notes}.",
      "The [customer section|part about onboarding|section on new features] is the [strongest|clearest|best] part [so far|at the moment].",
      "[It would help|It might help|I think it helps] to agree on three [main goals|priorities|themes] [first|before anything else].",
      "{who} [asked|wondered] whether we could [look at|revisit] the plan again {when}.",
    ],
  },
  {
    topic: ["meeting", "call", "notes"],
    subjects: ["[Notes|Recap] from [today|our call|the meeting]", "Follow-up from [our call|{day}|this morning]", "[Quick|Short] recap"],
    lines: [
      "Thanks for [taking the time|making the time] [today|this morning|earlier], it was a {good} [conversation|discussion|chat].",
      "I wrote up the [action items|next steps|open points] so nothing [slips through|gets lost].",
      "We agreed to [revisit|come back to] the [pricing|staffing|scope] question once we have [the new figures|more input from {who}].",
      "[Let me know|Tell me|Shout] if I [missed|left out|got wrong] anything [important|in the summary|you said].",
      "The next [session|call] [could|might] be [shorter|a bit shorter|more focused] if we [collect|prepare|list] the [open|remaining] questions [beforehand|in advance].",
      "I will [send|pass] the slides [around|on] [once|as soon as] they are [cleaned up|tidied up|in better shape].",
      "[It was good|It was nice|Good] to [finally|] hear {who} [weigh in|share their view] on this.",
      "[My notes|The notes] are in {notes} if anyone wants to [add to them|correct something].",
    ],
  },
  {
    topic: ["project", "rollout", "migration"],
    subjects: [
      "Project update",
      "[Quick|Short|Weekly] update on the [project|rollout|migration]",
      "Where [we are|things stand] with the [migration|rollout|new tool]",
    ],
    lines: [
      "The first phase [wrapped up|finished] [on schedule|as planned|a day early], which is [good news|a relief].",
      "Testing took [a little|a bit] longer than [expected|planned] because of the [holiday week|team offsite|conference].",
      "We found a {small} [issues|rough edges|loose ends], nothing that [blocks|holds up] the [launch|next phase].",
      "I [expect|hope] we can [hand it over|pass it on] to {who} [by the end of the month|{when}].",
      "The [handbook|how-to guide|wiki page] is [about|roughly|more or less] [halfway|half] done and [getting better|improving] every [day|week].",
      "{who} [have been|were] a [great|big] help with the [testing|setup|planning].",
      "[If nothing changes|All going well|If things stay on track], we [wrap up|finish] [this part|the next step] {when}.",
      "I will [post|share] a [short|brief] [summary|overview] [on the team board|in {notes}] {when}.",
    ],
  },
  {
    topic: ["lunch idea", "catch-up"],
    subjects: ["Lunch [next week|on {day}]?", "Coffee [sometime|soon|on {day}]?", "Catching up", "Long time no [see|chat]"],
    lines: [
      "It has been [a while|ages|too long] since we last [caught up|had a proper chat].",
      "There is a new [place|cafe|lunch spot] near the office that [people keep recommending|{first} keeps talking about].",
      "{day} or {day} would work [best|well] for me, [around noon|after twelve|in the early afternoon].",
      "I would [love|like] to [hear|know] how the new [role|team|project] is [going|treating you].",
      "No [pressure|worries] if the week is [busy|packed|hectic], we can [always|easily] [push it|move it][| to {day}].",
      "[Happy|Glad] to [come over|walk over] to your [side of town|end of the building|floor] if that is [easier|simpler].",
      "[Maybe|Perhaps] {first} [wants|would like] to join [as well|too], [the more the merrier|if that is fine with you].",
      "[I am|I'll be] [around|in the office] [most of the week|on {day}], so [just|] [let me know|tell me] what [suits you|works best].",
    ],
  },
  {
    topic: ["event", "conference"],
    subjects: [
      "[Conference|Summit] in {month}",
      "Event planning",
      "[Booth|Stand] for the [expo|fair]",
      "[Plans|Ideas] for the {month} event",
    ],
    lines: [
      "Registration for the [event|conference] opens [next week|soon], so we should [decide|make up our minds] {when}.",
      "Last [year|time] the [stand|booth] [location|spot] made a [real|big] difference [in how many people stopped by|to the number of visitors].",
      "I can [sort out|take care of] the [travel plans|trains and hotel] if you [handle|look after] the [materials|posters|handouts].",
      "We might want to [plan|set up] a few [customer chats|meetings] around the [sessions|talks].",
      "The [speaker list|programme|agenda] looks [stronger|more interesting] than [last time|last year].",
      "{who} [offered|volunteered] to help [on the stand|with the setup] on the first day.",
      "[It might be worth|We could think about] [booking|reserving] the hotel {when}, [rooms go quickly|it tends to fill up].",
      "I [liked|enjoyed] the [talk|panel] on [design|teamwork|remote work] last time, [so I hope they repeat it|it would be nice to see more of that].",
    ],
  },
  {
    topic: ["hiring", "interviews"],
    subjects: [
      "Hiring update",
      "Candidates for the [open role|new position]",
      "Interview [schedule|plan] for {day}",
      "[New team member|Welcoming our new colleague]",
    ],
    lines: [
      "We have [three|two|four] [strong|good|promising] [candidates|people] for the [final|last] round[| {when}].",
      "[Could|Would] you [join|sit in on] [one of the interviews|an interview] on {day} [afternoon|morning]?",
      "The feedback [so far|until now] has been [very|pretty|fairly] consistent, which [helps|makes things easier].",
      "The onboarding [guide|plan] [needs|could use] a [refresh|small update] before the new [person|colleague] starts.",
      "I will share the [scorecards|interview notes] once everyone has [filled them in|added theirs].",
      "[It would be great|I would like] to [have a decision|wrap this up] {when}.",
      "{who} [suggested|proposed] a short [team lunch|welcome coffee] for the first [day|week].",
      "[We should|Let us] [pair|match] the new [person|colleague] with a [buddy|mentor] from {who}.",
    ],
  },
  {
    topic: ["office move", "new office"],
    subjects: ["Office move", "New office [details|layout|plans]", "[Facilities|Building] update", "Parking and [access|badges]"],
    lines: [
      "The move is [planned|pencilled in] for the [second half|last week|first week] of {month}.",
      "[Badges|Keys] for the new [building|floor] will be [handed out|ready] on the first [day|morning][| in {place}].",
      "Please label [anything|any equipment] that should come along.",
      "The meeting rooms there are [bigger|brighter|quieter], which should [help|be nice] [with|for] [workshops|team days].",
      "There will be a [short period|day or two] where the [wifi|network] is being set up.",
      "[Let me know|Tell me] if you have any [special requests|particular wishes] for your [desk|corner].",
      "{who} [asked|wondered] whether there will be [more|quiet] space for [calls|focused work].",
      "[The kitchen|The terrace|The new lounge] [looks great|is a nice surprise] [in the photos|from what I saw].",
    ],
  },
  {
    topic: ["training", "workshop"],
    subjects: ["Training session", "Workshop [materials|ideas]", "Learning plan for {month}", "Course [recommendations|ideas]"],
    lines: [
      "The workshop [last month|in {month}] got [good|very positive] feedback from {who}.",
      "I [collected|put together] a [few|short list of] courses that [could|might] be [useful|helpful] for {who}.",
      "[Maybe|Perhaps] we could run an [internal|informal] session on the new [tools|planning board].",
      "Recording the sessions [would|could] [help|be nice for] [people in other time zones|colleagues who cannot make it].",
      "I am [happy|glad] to [prepare|put together] the first [module|session] if that [helps|is useful].",
      "{first} [mentioned|recommended] a [book|podcast|course] on [writing|facilitation|data] that [sounds|looks] {good}.",
      "[A shorter|A more hands-on] format [might work better|could suit people better] [this time|for the next round].",
      "We [could|should] [pick|set] a date for the next [session|round] {when}.",
    ],
  },
  {
    topic: ["feedback", "survey"],
    subjects: ["Customer feedback", "Survey [results|highlights]", "What [customers|people] are saying", "Feedback [summary|themes]"],
    lines: [
      "The survey [response rate|turnout] was [higher|a lot higher] than [we expected|last time].",
      "[Most|Many] comments were about [response times|the help pages], and they were [mostly|largely] [positive|kind].",
      "A few [customers|people] asked for [better|more flexible] [reporting options|reports].",
      "I grouped the [feedback|comments] into [themes|a few groups] to make it [easier|simpler] to discuss.",
      "It [might|could] be worth [calling|talking to] a [handful|few] of them for more [detail|context].",
      "[Overall|All in all], [satisfaction|the mood] went up [compared to|since] the [spring|last round].",
      "{who} [want|would like] to [go through|look at] the comments together {when}.",
      "[One|A] [comment|remark] about the [new layout|help pages] [stood out|made me smile], I will [share it|read it out] on {day}.",
    ],
  },
  {
    topic: ["team day", "offsite"],
    subjects: ["Team offsite", "[Ideas|Plans] for the team day", "Offsite [agenda|location] in {month}", "[Summer|Winter] team outing"],
    lines: [
      "I [started|began] [collecting|gathering] ideas for the [team day|offsite] in {month}.",
      "[A few|Several] people [suggested|asked for] something [outdoors|a bit more active] this time.",
      "The [venue|place] {first} [found|mentioned] has a [garden|big room] and [good|decent] train links.",
      "We [could|should] keep the morning for [planning|strategy] and the afternoon [open|for something fun].",
      "{who} [offered|said they would like] to [run|host] a short session.",
      "[Let me know|Tell me] if [there are|you have] any dates that [do not work|are difficult] for you.",
      "[I think|I feel] a [shorter|simpler] agenda [worked better|was more relaxed] last time.",
      "[Dinner|A team dinner] [afterwards|in the evening] [would be nice|could be fun], [if people are up for it|no pressure].",
    ],
  },
  {
    topic: ["newsletter", "blog"],
    subjects: [
      "[Website|Blog] [refresh|ideas]",
      "Newsletter [draft|ideas] for {month}",
      "[Content|Article] plan",
      "[Feedback|Thoughts] on the new [blog post|landing page]",
    ],
    lines: [
      "I [read|went through] the [new|latest] [blog post|article] and [liked|enjoyed] the [tone|structure].",
      "[The intro|The opening] could be [a bit shorter|tighter], [but|and] the rest [reads well|flows nicely].",
      "{who} [have|came up with] a few ideas for [the next issue|upcoming posts].",
      "[Maybe|Perhaps] we [could|should] add a [short|small] [case study|interview] [next time|in the next issue].",
      "The [photos|illustrations] from {first} [look great|are lovely] and [fit|suit] the [topic|piece] well.",
      "[Let us|We could] [aim|plan] to [publish|put it out] {when}.",
      "I [left|added] a {small} [comments|suggestions] in {notes}, [nothing major|mostly wording].",
      "[Readers|People] [seem to|appear to] [like|enjoy] the [how-to|behind-the-scenes] pieces [most|the most].",
    ],
  },
  {
    topic: ["time off", "handover"],
    subjects: [
      "[Holiday|Vacation] plans",
      "[Cover|Handover] while I am away",
      "Out of office in {month}",
      "Time off [next month|in {month}]",
    ],
    lines: [
      "I am [taking|planning] a [week|few days] off in {month}, [finally|at last].",
      "{first} [kindly|has] [agreed|offered] to [cover|look after] the [weekly call|team board] while I am away.",
      "I will [write|put together] a [short|brief] handover [note|page] {when}.",
      "[Anything|Whatever] [that comes up|else] can [wait|go to {first}], [I will catch up|I can pick it up] when I am back.",
      "[Are you|Will you be] [around|in the office] [over the holidays|in {month}] [this year|as well]?",
      "[We are|I am] [thinking of|planning] [a trip to the coast|some hiking|visiting family] [if the weather holds|for a change].",
      "[It would be good|Let us make sure] to [sync|catch up] before I [go|leave], [maybe|perhaps] on {day}.",
      "[Any|Some] [tips|recommendations] for [books|podcasts] for the [train|flight] are [welcome|very welcome].",
    ],
  },
];

/** Every topic: work ones here, team life in content-team-topics.ts. */
export const TOPICS: Topic[] = [...WORK_TOPICS, ...TEAM_TOPICS];
