/** Shown while the instance has no user and the visitor did not come through the printed link. */
export function SetupNote() {
  return (
    <div className="space-y-3 text-sm text-gray-700">
      <h1 className="text-lg font-semibold text-gray-900">Finish setting up this instance</h1>
      <p>
        No account exists yet. When <code className="rounded bg-gray-100 px-1">npm start</code> started the server, it printed a one-time
        setup link in its terminal, ending in <code className="rounded bg-gray-100 px-1">/setup?token=…</code>. Open that link to create the
        owner account and the first workspace.
      </p>
      <p className="text-gray-500">
        Lost it? Restart the server and it is printed again, or create the owner from the command line with{" "}
        <code className="rounded bg-gray-100 px-1">npx outreach setup --email … --password …</code>.
      </p>
    </div>
  );
}
