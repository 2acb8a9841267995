import Link from "next/link";

/** The page of an emailed link that can no longer be used (expired, used, withdrawn or unknown). */
export function LinkGone({ title, reason }: { title: string; reason: string }) {
  return (
    <div className="space-y-3">
      <h1 className="text-lg font-semibold text-gray-900">{title}</h1>
      <p className="text-sm text-gray-700">{reason}</p>
      <p className="text-sm">
        <Link className="text-indigo-700 hover:underline" href="/login">
          Go to the sign-in page
        </Link>
      </p>
    </div>
  );
}
