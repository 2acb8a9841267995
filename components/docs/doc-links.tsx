import Link from "next/link";
import type { ReactNode } from "react";
import { DOC_REF, docHref } from "./repo-docs";

/** Plain text with each `docs/<name>.md` of an existing guide as a link to its page in the dashboard. */
export function WithDocLinks({ text, names }: { text: string; names: Set<string> }): ReactNode {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(DOC_REF)) {
    const name = m[2];
    if (!names.has(name)) continue;
    out.push(text.slice(last, m.index));
    out.push(
      <Link key={m.index} href={docHref(name)} className="text-indigo-700 hover:underline">
        docs/{name}.md
      </Link>,
    );
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}
