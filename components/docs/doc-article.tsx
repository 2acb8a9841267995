import { cn } from "@/components/ui/cn";

/** Rendered markdown in the dashboard's type: headings, lists, tables and code as the rest of the app shows them. */
const PROSE = cn(
  "max-w-3xl space-y-4 text-sm leading-6 text-gray-800",
  "[&_h1]:text-xl [&_h1]:font-semibold [&_h1]:text-gray-900",
  "[&_h2]:mt-8 [&_h2]:text-lg [&_h2]:font-semibold [&_h2]:text-gray-900",
  "[&_h3]:mt-6 [&_h3]:font-semibold [&_h3]:text-gray-900",
  "[&_a]:text-indigo-700 [&_a:hover]:underline",
  "[&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5 [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-5",
  "[&_code]:rounded [&_code]:bg-gray-100 [&_code]:px-1 [&_code]:text-[0.8125rem]",
  "[&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:border [&_pre]:border-gray-200 [&_pre]:bg-gray-50 [&_pre]:p-3",
  "[&_pre_code]:bg-transparent [&_pre_code]:p-0",
  "[&_table]:block [&_table]:overflow-x-auto [&_table]:text-left [&_td]:border-t [&_td]:border-gray-200 [&_td]:px-2 [&_td]:py-1 [&_td]:align-top",
  "[&_th]:px-2 [&_th]:py-1 [&_th]:font-semibold [&_blockquote]:border-l-4 [&_blockquote]:border-gray-200 [&_blockquote]:pl-3",
);

/** A guide's HTML (already rendered and sanitised by repo-docs). */
export function DocArticle({ html }: { html: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the project's own docs, rendered and sanitised on the server
  return <article className={PROSE} data-testid="doc-article" dangerouslySetInnerHTML={{ __html: html }} />;
}
