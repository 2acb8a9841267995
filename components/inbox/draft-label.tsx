import Link from "next/link";

/** How a draft was made, as the composer says it: "AI draft", or a template draft with where to set a provider. */
export function DraftLabel({ agent, generatedBy }: { agent: { name: string } | null; generatedBy: "template" | "ai" }) {
  if (agent) {
    const how = generatedBy === "ai" ? "AI draft" : "Template draft (no AI answer)";
    return <span data-testid="draft-label">{`${how} by ${agent.name} from its knowledge: review it before sending.`}</span>;
  }
  if (generatedBy === "ai") return <span data-testid="draft-label">AI draft: review it before sending.</span>;
  return (
    <span data-testid="draft-label">
      Template draft — no AI provider configured.{" "}
      <Link href="/settings/ai" className="font-medium underline">
        Set one in Settings → AI
      </Link>
      . Review it before sending.
    </span>
  );
}
