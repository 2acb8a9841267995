import type { SystemMail } from "../mail/system-mailer";
import { ROLE_LABEL, type Role } from "../roles";

/** The texts of the instance's own emails: an invitation, a password reset, an email-address confirmation. */

const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

function html(paragraphs: string[], link: { href: string; label: string }): string {
  const p = paragraphs.map((t) => `<p>${escapeHtml(t)}</p>`);
  const a = `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`;
  return `<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">${p[0]}${a}${p.slice(1).join("")}</body></html>`;
}

export function invitationMail(input: {
  to: string;
  inviter: string;
  workspace: string;
  role: Role;
  url: string;
  expiresAt: Date;
}): SystemMail {
  const lead = `${input.inviter} invited you to join the workspace "${input.workspace}" on Outreach as ${ROLE_LABEL[input.role]}.`;
  const rest = [`The link works once and until ${utc(input.expiresAt)}.`, "If you did not expect this invitation, ignore this email."];
  return {
    to: input.to,
    subject: `${input.inviter} invited you to ${input.workspace} on Outreach`,
    text: [lead, `Accept the invitation: ${input.url}`, ...rest].join("\n\n"),
    html: html([lead, ...rest], { href: input.url, label: "Accept the invitation" }),
  };
}

export function passwordResetMail(input: { to: string; url: string; expiresAt: Date }): SystemMail {
  const lead = "Someone (hopefully you) asked to reset the password of your Outreach account.";
  const rest = [
    `The link works once and until ${utc(input.expiresAt)}. Setting a new password signs out every session of the account.`,
    "If you did not ask for this, ignore this email: your password stays as it is.",
  ];
  return {
    to: input.to,
    subject: "Reset your Outreach password",
    text: [lead, `Choose a new password: ${input.url}`, ...rest].join("\n\n"),
    html: html([lead, ...rest], { href: input.url, label: "Choose a new password" }),
  };
}

export function emailChangeMail(input: { to: string; url: string; expiresAt: Date }): SystemMail {
  const lead = "Confirm that this is the new email address of your Outreach account.";
  const rest = [`The link works once and until ${utc(input.expiresAt)}.`, "If you did not ask for this, ignore this email."];
  return {
    to: input.to,
    subject: "Confirm your new email address for Outreach",
    text: [lead, `Confirm the address: ${input.url}`, ...rest].join("\n\n"),
    html: html([lead, ...rest], { href: input.url, label: "Confirm the address" }),
  };
}
