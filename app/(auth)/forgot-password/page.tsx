import type { Metadata } from "next";
import Link from "next/link";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";
import { systemMailerConfigured } from "@/lib/mail/system-mailer";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Forgot password" };

/** Asks for a reset link; an instance without a mail server says how its operator resets a password instead. */
export default function ForgotPasswordPage() {
  if (!systemMailerConfigured()) {
    return (
      <div className="space-y-3 text-sm text-gray-700">
        <h1 className="text-lg font-semibold text-gray-900">Forgot your password?</h1>
        <p>This instance has no mail server set up, so it cannot email you a reset link.</p>
        <p>Whoever runs it can set a new password on the server:</p>
        <pre className="overflow-x-auto rounded bg-gray-100 px-3 py-2 text-xs">npx outreach reset-password --email you@example.com</pre>
        <p>
          It prints a new password once (or sets the one given with <code className="rounded bg-gray-100 px-1">--password</code>) and signs
          out every session of the account.
        </p>
        <p>
          <Link className="text-indigo-700 hover:underline" href="/login">
            Back to sign in
          </Link>
        </p>
      </div>
    );
  }
  return <ForgotPasswordForm />;
}
