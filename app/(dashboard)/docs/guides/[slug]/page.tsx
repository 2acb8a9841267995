import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DocArticle } from "@/components/docs/doc-article";
import { renderDoc } from "@/components/docs/repo-docs";

type Params = Promise<{ slug: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const doc = renderDoc((await params).slug);
  return { title: doc?.title ?? "Guide not found" };
}

/** /docs/guides/<name>: the guide docs/<name>.md of the running version, where the dashboard's references to it lead. */
export default async function GuidePage({ params }: { params: Params }) {
  const { slug } = await params;
  const doc = renderDoc(slug);
  if (!doc) notFound();
  return (
    <div className="space-y-4">
      <p className="text-sm text-gray-500">
        <Link href="/docs/api" className="text-indigo-700 hover:underline">
          API reference
        </Link>{" "}
        · Guide <code className="rounded bg-gray-100 px-1">docs/{slug}.md</code>
      </p>
      <DocArticle html={doc.html} />
    </div>
  );
}
