// The request helpers live in components/api-client; kept here so the mailbox components' imports stay short.
export { apiRequest, fetchPlainPage, smtpCodeOf, type PlainPage } from "@/components/api-client";
