import Link from "next/link";
import { cn } from "@/components/ui/cn";

const SECTIONS = [
  { id: "api-keys", href: "/settings/api-keys", label: "API keys" },
  { id: "warmup-presets", href: "/settings?section=warmup-presets", label: "Warmup presets" },
] as const;

export type SettingsSection = (typeof SECTIONS)[number]["id"];

/** The sections of Settings, as links (each is its own page). */
export function SettingsNav({ active }: { active: SettingsSection }) {
  return (
    <nav aria-label="Settings" className="flex gap-1 border-b border-gray-200">
      {SECTIONS.map((s) => (
        <Link
          key={s.id}
          href={s.href}
          aria-current={s.id === active ? "page" : undefined}
          className={cn(
            "-mb-px border-b-2 px-3 py-2 text-sm font-medium",
            s.id === active ? "border-indigo-600 text-indigo-700" : "border-transparent text-gray-600 hover:text-gray-900",
          )}
        >
          {s.label}
        </Link>
      ))}
    </nav>
  );
}
