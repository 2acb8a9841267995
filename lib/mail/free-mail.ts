import providers from "email-providers/all.json";

/** Domains of free, consumer mail services (gmail.com, outlook.com, yahoo.co.uk, web.de … ~8,800 of them). */
const FREE = new Set<string>(providers as string[]);

/**
 * Whether a domain belongs to a free mail service: people there are not colleagues of each other, so a
 * stranger at gmail.com is never taken for someone answering for a lead at gmail.com.
 */
export function isFreeMailDomain(domain: string): boolean {
  return FREE.has(domain.trim().toLowerCase());
}
