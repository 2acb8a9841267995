"use client";

import type { ResponseOf } from "@/lib/client";
import { HEX_COLOUR, textOn } from "./tags-color";

export type BrandedReport = ResponseOf<"/reports/branded", "get">;
export type BrandingFields = ResponseOf<"/settings/branding", "get">["branding"];

const DEFAULT_PRIMARY = "#4f46e5";
const DEFAULT_ACCENT = "#0f766e";

const pct = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const num = (n: number) => n.toLocaleString();
const day = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

/** A colour the preview can paint with: the typed one when it is complete, else the default. */
const paint = (hex: string | null, fallback: string) => (hex && HEX_COLOUR.test(hex) ? hex : fallback);

interface Headline {
  label: string;
  sent: number;
  contacted: number;
  openRate: number;
  replyRate: number;
  positiveRate: number;
  bounceRate: number;
  opensTracked: boolean;
}

function headlineOf(report: BrandedReport, campaignId: string): Headline {
  const c = report.campaigns.find((x) => x.id === campaignId);
  if (c)
    return {
      label: c.name,
      sent: c.sentCount,
      contacted: c.leadsContacted,
      openRate: c.openedRate,
      replyRate: c.repliedRate,
      positiveRate: c.positiveRate,
      bounceRate: c.bouncedRate,
      opensTracked: c.opensTracked,
    };
  const o = report.overview;
  return {
    label: "All campaigns",
    sent: o.totalSent,
    contacted: o.leadsContacted,
    openRate: o.openRate,
    replyRate: o.replyRate,
    positiveRate: o.positiveRate,
    bounceRate: o.bounceRate,
    opensTracked: o.opensTracked,
  };
}

function Kpi({ label, value, accent, testId }: { label: string; value: string; accent: string; testId: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-gray-200 p-3">
      <p className="truncate text-xs text-gray-500">{label}</p>
      <p className="text-xl font-semibold tabular-nums" style={{ color: accent }} data-testid={testId}>
        {value}
      </p>
    </div>
  );
}

/**
 * The branded report as a client receives it, painted with the branding being edited (saved or not):
 * the header band in the primary colour with the logo and name, the headline numbers in the accent
 * colour, every campaign's row (or the one picked), and the footer line. Numbers are the API's
 * `GET /reports/branded` for the period.
 */
export function BrandingPreview({ branding, report, campaignId }: { branding: BrandingFields; report: BrandedReport; campaignId: string }) {
  const primary = paint(branding.primaryColor, DEFAULT_PRIMARY);
  const accent = paint(branding.accentColor, DEFAULT_ACCENT);
  const h = headlineOf(report, campaignId);
  const rows = campaignId ? report.campaigns.filter((c) => c.id === campaignId) : report.campaigns;
  return (
    <article
      className="overflow-hidden rounded-xl border border-gray-200 bg-white shadow-sm"
      aria-label="Branded report preview"
      data-testid="branding-preview"
      data-primary={primary}
      data-accent={accent}
    >
      <PreviewHeader branding={branding} report={report} primary={primary} />
      <div className="space-y-4 p-5">
        <h3 className="text-sm font-semibold" style={{ color: primary }}>
          {h.label}
        </h3>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <Kpi label="Emails sent" value={num(h.sent)} accent={accent} testId="preview-sent" />
          <Kpi label="Leads contacted" value={num(h.contacted)} accent={accent} testId="preview-contacted" />
          <Kpi label="Open rate" value={h.opensTracked ? pct(h.openRate) : "not tracked"} accent={accent} testId="preview-open-rate" />
          <Kpi label="Reply rate" value={pct(h.replyRate)} accent={accent} testId="preview-reply-rate" />
          <Kpi label="Positive replies" value={pct(h.positiveRate)} accent={accent} testId="preview-positive-rate" />
          <Kpi label="Bounce rate" value={pct(h.bounceRate)} accent={accent} testId="preview-bounce-rate" />
        </div>
        <div className="overflow-x-auto" data-scroll-x>
          <table className="min-w-full text-sm">
            <thead>
              <tr className="border-b-2 text-left text-xs text-gray-600" style={{ borderColor: primary }}>
                <th className="py-1.5 pr-3 font-semibold">Campaign</th>
                <th className="py-1.5 pr-3 text-right font-semibold">Sent</th>
                <th className="py-1.5 pr-3 text-right font-semibold">Replied</th>
                <th className="py-1.5 text-right font-semibold">Positive</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && (
                <tr>
                  <td colSpan={4} className="py-2 text-gray-500">
                    No campaigns yet.
                  </td>
                </tr>
              )}
              {rows.map((c) => (
                <tr key={c.id} className="border-b border-gray-100">
                  <td className="max-w-48 truncate py-1.5 pr-3">{c.name}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">{num(c.sentCount)}</td>
                  <td className="py-1.5 pr-3 text-right tabular-nums">
                    {num(c.repliedCount)} ({pct(c.repliedRate)})
                  </td>
                  <td className="py-1.5 text-right tabular-nums">{num(c.positiveCount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      {branding.footerText && (
        <footer className="border-t border-gray-200 px-5 py-3 text-xs break-words text-gray-600" data-testid="branding-preview-footer">
          {branding.footerText}
        </footer>
      )}
    </article>
  );
}

/** The report's band in the primary colour: the logo, the name and the period. */
function PreviewHeader({ branding, report, primary }: { branding: BrandingFields; report: BrandedReport; primary: string }) {
  return (
    <header className="flex min-w-0 items-center gap-3 px-5 py-4" style={{ backgroundColor: primary, color: textOn(primary) }}>
      {branding.logoUrl && (
        // biome-ignore lint/performance/noImgElement: a customer's logo from any host; next/image would need each host configured
        <img
          src={branding.logoUrl}
          alt={`${branding.name} logo`}
          className="h-10 max-w-32 shrink-0 rounded bg-white/90 object-contain p-1"
        />
      )}
      <div className="min-w-0">
        <p className="truncate text-lg font-semibold" data-testid="branding-preview-name">
          {branding.name}
        </p>
        <p className="text-xs opacity-80">
          Campaign report · {day(report.period.from)} – {day(report.period.to)}
        </p>
      </div>
    </header>
  );
}
