import { createHash } from "node:crypto";

/**
 * Spintax: `{Hi|Hello|Hey}` in a subject or body becomes one of its choices, so that the leads of one
 * step do not all get the same words. Groups nest (`{Hi|Hello {there|friend}}`), `\{`, `\}` and `\|` are
 * literal characters, and `{{variable}}` tokens are never groups (they may sit inside a choice).
 *
 * A brace pair counts as a group only when it holds a `|` at its own level: `{color: red}` in an HTML
 * body's CSS, or any other braces without a choice, stay as written. The choice of each group is a hash
 * of (lead, step, the group's position in the template), so one lead always gets the same words —
 * retries, test sends and previews agree — while the leads of a step spread evenly over the choices.
 * Positions count every group in document order (chosen or not), so a choice never shifts another's.
 */

type Node = string | Group;
interface Group {
  /** The group's position among all groups of the template, in document order. */
  position: number;
  choices: Node[][];
}

/** Where spinning's own literal braces and bars wait while `{{variables}}` are filled (private-use characters). */
export const LITERAL = { open: "\uE000", close: "\uE001", bar: "\uE002" } as const;

const VARIABLE = /^\{\{[^{}]+\}\}/;

interface Parsed {
  nodes: Node[];
  /** How many groups (brace pairs with a choice) the template has. */
  groups: number;
  /** The most choices any one group has: how many spin indexes show every choice of every group. */
  widest: number;
  /** Unbalanced spintax braces, as a reader would find them in the template. */
  problems: string[];
}

const cache = new Map<string, Parsed>();

/** The template's groups, parsed once per distinct template (a step's text is rendered for thousands of leads). */
export function parseSpintax(template: string): Parsed {
  const hit = cache.get(template);
  if (hit) return hit;
  const parsed = parse(template);
  if (cache.size >= 500) cache.delete(cache.keys().next().value as string);
  cache.set(template, parsed);
  return parsed;
}

function parse(template: string): Parsed {
  let position = 0;
  let groups = 0;
  let widest = 0;
  const problems: string[] = [];
  // A stack of open groups: each holds its finished choices and the choice being read.
  const stack: { start: number; choices: Node[][]; current: Node[]; position: number }[] = [];
  const root: Node[] = [];
  const out = () => (stack.length ? stack[stack.length - 1].current : root);
  const text = (s: string) => {
    const list = out();
    if (typeof list[list.length - 1] === "string") list[list.length - 1] += s;
    else list.push(s);
  };
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if (ch === "\\" && "{}|".includes(template[i + 1] ?? "")) {
      const next = template[++i];
      text(next === "{" ? LITERAL.open : next === "}" ? LITERAL.close : LITERAL.bar);
    } else if (ch === "{" && VARIABLE.test(template.slice(i))) {
      const token = (VARIABLE.exec(template.slice(i)) as RegExpExecArray)[0];
      text(token);
      i += token.length - 1;
    } else if (ch === "{") {
      stack.push({ start: i, choices: [], current: [], position: position++ });
    } else if (ch === "|" && stack.length) {
      const g = stack[stack.length - 1];
      g.choices.push(g.current);
      g.current = [];
    } else if (ch === "}" && stack.length) {
      const g = stack.pop() as (typeof stack)[number];
      g.choices.push(g.current);
      if (g.choices.length > 1) {
        groups++;
        widest = Math.max(widest, g.choices.length);
        out().push({ position: g.position, choices: g.choices });
      } else {
        // Braces without a choice are plain text, kept as written.
        text("{");
        for (const n of g.choices[0]) typeof n === "string" ? text(n) : out().push(n);
        text("}");
      }
    } else {
      if (ch === "}" && barBefore(template, i)) problems.push(excerpt(template, i, "a } with no { before it"));
      text(ch);
    }
  }
  // Groups never closed: their text is kept as written; with a | in it, it was meant as spintax.
  while (stack.length) {
    const g = stack.pop() as (typeof stack)[number];
    const raw = template.slice(g.start);
    if (raw.includes("|")) problems.push(excerpt(template, g.start, "a { that is never closed"));
    // What followed the open brace was read into the group's choices: written back as it was.
    text(`{${[...g.choices, g.current].map(flatten).join("|")}`);
  }
  return { nodes: root, groups, widest, problems: [...new Set(problems)] };
}

/** Whether a `|` stands between the last brace before `i` (or the start) and `i`: a `}` closing nothing, in spintax. */
function barBefore(template: string, i: number): boolean {
  const before = template.slice(0, i);
  const from = Math.max(before.lastIndexOf("{"), before.lastIndexOf("}"));
  return before.slice(from + 1).includes("|");
}

function excerpt(template: string, at: number, what: string): string {
  const s = template.slice(Math.max(0, at - 15), at + 25).replace(/\s+/g, " ");
  return `${what}: "${s}"`;
}

/** A node list back to text, every group kept as written (for a group that was never closed). */
function flatten(nodes: Node[]): string {
  return nodes.map((n) => (typeof n === "string" ? n : `{${n.choices.map(flatten).join("|")}}`)).join("");
}

export interface SpinKey {
  leadId: string;
  stepId: string;
  /** Which part of the email: the subject's groups and the body's are chosen apart. */
  part: "subject" | "body";
  /** Added to every group's choice: 0 is what the lead receives; 1, 2 … show the other choices (previews). */
  index?: number;
}

/** The choice (0 … n−1) of the group at `position` for this lead and step: an even spread over leads. */
export function choiceOf(key: SpinKey, position: number, n: number): number {
  const h = createHash("sha256").update(`${key.leadId}\u0000${key.stepId}\u0000${key.part}\u0000${position}`).digest();
  return (h.readUInt32BE(0) + (key.index ?? 0)) % n;
}

/**
 * The template with every group replaced by its choice for `key`. Literal braces and bars come out as
 * LITERAL's placeholders so that filling `{{variables}}` afterwards cannot read them as a token;
 * `restoreLiterals` turns them back into characters.
 */
export function spin(template: string, key: SpinKey): string {
  if (!template.includes("{") && !template.includes("\\")) return template;
  const { nodes, groups } = parseSpintax(template);
  if (groups === 0 && !template.includes("\\")) return template;
  const write = (list: Node[]): string =>
    list.map((n) => (typeof n === "string" ? n : write(n.choices[choiceOf(key, n.position, n.choices.length)]))).join("");
  return write(nodes);
}

export function restoreLiterals(s: string): string {
  if (!/[\uE000-\uE002]/.test(s)) return s;
  return s.replaceAll(LITERAL.open, "{").replaceAll(LITERAL.close, "}").replaceAll(LITERAL.bar, "|");
}

/** Unbalanced spintax braces in a template, for the variables check's `malformed` list. */
export function spintaxProblems(template: string): string[] {
  return template.includes("|") ? parseSpintax(template).problems : [];
}
