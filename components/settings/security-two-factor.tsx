"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import QRCode from "qrcode";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { ApiError, client, data, describeError } from "@/components/api-client";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/input";
import type { ResponseOf } from "@/lib/client";

type Setup = ResponseOf<"/account/two-factor/setup", "post">;

export const TWO_FACTOR_KEY = ["twoFactor"];

/** The otpauth:// URI as a QR code image (a data: URL, drawn in the browser: the secret goes nowhere else). */
function useQrCode(uri: string | undefined): string | undefined {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let live = true;
    setSrc(undefined);
    if (uri) QRCode.toDataURL(uri, { margin: 1, width: 192, errorCorrectionLevel: "M" }).then((s) => live && setSrc(s));
    return () => {
      live = false;
    };
  }, [uri]);
  return src;
}

/** The secret in groups of four, easier to type into an app by hand. */
function grouped(secret: string): string {
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

/** The ten recovery codes, shown once: copy them or download them as a text file. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState<"yes" | "no">();
  const text = codes.join("\n");
  const download = `data:text/plain;charset=utf-8,${encodeURIComponent(`Outreach recovery codes (each works once)\n\n${text}\n`)}`;
  return (
    <div className="space-y-3 rounded-lg border border-yellow-300 bg-yellow-50 p-4" data-testid="recovery-codes">
      <p role="status" className="text-sm font-semibold text-yellow-900">
        Save these recovery codes now. They will not be shown again.
      </p>
      <p className="text-sm text-yellow-900">
        Each one signs you in once, in place of a code from your app, if you lose your phone. Keep them somewhere safe, apart from your
        password.
      </p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-x-6 gap-y-1 rounded-md bg-white p-3 font-mono text-sm sm:grid-cols-5">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onClick={() =>
            navigator.clipboard.writeText(text).then(
              () => setCopied("yes"),
              () => setCopied("no"),
            )
          }
        >
          {copied === "yes" ? "Copied" : "Copy"}
        </Button>
        <a
          href={download}
          download="outreach-recovery-codes.txt"
          className="inline-flex h-9 items-center rounded-md border border-gray-300 bg-white px-3.5 text-sm font-medium text-gray-800 hover:bg-gray-50"
        >
          Download
        </a>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
      {copied === "no" && <p className="text-xs text-yellow-900">The browser blocked copying; select the codes above and press Ctrl+C.</p>}
    </div>
  );
}

/**
 * Enrolling an authenticator: a new secret as a QR code and as text, then a code from the app turns
 * two-factor sign-in on and the recovery codes are shown once. `onEnabled` runs after they are saved.
 */
export function TwoFactorEnrol({ onEnabled, onCancel }: { onEnabled: () => void; onCancel?: () => void }) {
  const queryClient = useQueryClient();
  const [code, setCode] = useState("");
  const [codes, setCodes] = useState<string[]>();
  const setup = useMutation({ mutationFn: () => data(client.POST("/account/two-factor/setup")) });
  const enable = useMutation({
    mutationFn: () => data(client.POST("/account/two-factor/enable", { body: { code: code.trim() } })),
    onSuccess: async (r) => {
      setCodes(r.recoveryCodes);
      await queryClient.invalidateQueries({ queryKey: TWO_FACTOR_KEY });
    },
  });
  const qr = useQrCode(setup.data?.otpauthUrl);
  const started: Setup | undefined = setup.data;
  // One new secret when the enrolment opens (once, also where React runs effects twice).
  const asked = useRef(false);
  const start = setup.mutate;
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    start();
  }, [start]);

  if (codes) return <RecoveryCodes codes={codes} onDone={onEnabled} />;

  function submit(e: FormEvent) {
    e.preventDefault();
    enable.mutate();
  }
  const codeErrors = enable.error instanceof ApiError ? enable.error.fieldErrors.code : undefined;

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Set up two-factor sign-in">
      <ol className="list-decimal space-y-1 pl-5 text-sm text-gray-700">
        <li>Open an authenticator app (Google Authenticator, 1Password, Authy, Bitwarden…) on your phone.</li>
        <li>Scan the QR code, or type the key below into the app.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      {setup.error && <Alert tone="error">{describeError(setup.error)}</Alert>}
      {started && <SecretToScan secret={started.secret} qr={qr} />}
      <div className="max-w-xs">
        <Field label="Code from the app" errors={codeErrors}>
          <Input
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]*"
            maxLength={7}
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </Field>
      </div>
      {enable.error && !codeErrors && <Alert tone="error">{describeError(enable.error)}</Alert>}
      <div className="flex gap-2">
        <Button type="submit" disabled={!started || enable.isPending}>
          {enable.isPending ? "Checking…" : "Turn on"}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

/** Turning two-factor sign-in off, confirmed with a code from the app or a recovery code. */
function TurnOffDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [code, setCode] = useState("");
  const off = useMutation({
    mutationFn: () => data(client.DELETE("/account/two-factor", { body: { code: code.trim() } })),
    onSuccess: async () => {
      setCode("");
      onClose();
      await queryClient.invalidateQueries({ queryKey: TWO_FACTOR_KEY });
    },
  });
  const codeErrors = off.error instanceof ApiError ? off.error.fieldErrors.code : undefined;
  return (
    <Dialog
      open={open}
      onClose={() => {
        off.reset();
        onClose();
      }}
      title="Turn off two-factor sign-in?"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="danger" type="submit" form="two-factor-off" disabled={off.isPending || !code.trim()}>
            {off.isPending ? "Turning off…" : "Turn off"}
          </Button>
        </>
      }
    >
      <form
        id="two-factor-off"
        className="space-y-3 text-sm text-gray-700"
        onSubmit={(e) => {
          e.preventDefault();
          off.mutate();
        }}
      >
        <p>Signing in will need only your password again. Your recovery codes stop working.</p>
        <Field label="Code from your app, or a recovery code" errors={codeErrors}>
          <Input name="code" autoComplete="one-time-code" maxLength={64} required value={code} onChange={(e) => setCode(e.target.value)} />
        </Field>
        {off.error && !codeErrors && <Alert tone="error">{describeError(off.error)}</Alert>}
      </form>
    </Dialog>
  );
}

/** The Security page's two-factor section: status, enrolment, turning off. */
export function TwoFactorSection() {
  const status = useQuery({
    queryKey: TWO_FACTOR_KEY,
    queryFn: ({ signal }) => data(client.GET("/account/two-factor", { signal })),
  });
  const [enrolling, setEnrolling] = useState(false);
  const [turningOff, setTurningOff] = useState(false);
  const s = status.data;

  return (
    <section className="space-y-3 rounded-lg border border-gray-200 bg-white p-4" aria-labelledby="two-factor-heading">
      <div className="flex items-center gap-2">
        <h2 id="two-factor-heading" className="text-sm font-semibold text-gray-900">
          Two-factor sign-in
        </h2>
        {s && <Badge tone={s.enabled ? "green" : "gray"}>{s.enabled ? "On" : "Off"}</Badge>}
      </div>
      {status.error && <Alert tone="error">Could not load: {describeError(status.error)}</Alert>}
      {s?.enabled && !enrolling && (
        <div className="space-y-2 text-sm text-gray-700">
          <p>
            On since {s.enabledAt ? new Date(s.enabledAt).toLocaleDateString() : "—"}. Signing in asks for a code from your authenticator
            app after your password. {s.recoveryCodesLeft} of 10 recovery codes left.
          </p>
          <Button variant="secondary" onClick={() => setTurningOff(true)}>
            Turn off…
          </Button>
        </div>
      )}
      {s && !s.enabled && !enrolling && (
        <div className="space-y-2 text-sm text-gray-700">
          <p>Ask for a code from an authenticator app on your phone after your password, so that a stolen password alone is not enough.</p>
          <Button onClick={() => setEnrolling(true)}>Set up two-factor sign-in</Button>
        </div>
      )}
      {enrolling && <TwoFactorEnrol onEnabled={() => setEnrolling(false)} onCancel={() => setEnrolling(false)} />}
      <TurnOffDialog open={turningOff} onClose={() => setTurningOff(false)} />
    </section>
  );
}

/** The new secret as a QR code and as a key to type by hand. */
function SecretToScan({ secret, qr }: { secret: string; qr: string | undefined }) {
  return (
    <div className="flex flex-wrap items-center gap-6">
      <div className="flex h-48 w-48 items-center justify-center rounded-md border border-gray-200 bg-white">
        {qr ? (
          // biome-ignore lint/performance/noImgElement: a data: URL drawn in the browser; next/image has nothing to optimise
          <img src={qr} alt="QR code for your authenticator app" width={192} height={192} />
        ) : (
          <span className="text-xs text-gray-500">Drawing…</span>
        )}
      </div>
      <div className="space-y-1 text-sm">
        <p className="text-gray-600">Key for typing in by hand:</p>
        <p className="font-mono text-base tracking-wide text-gray-900" data-testid="two-factor-secret">
          {grouped(secret)}
        </p>
        <p className="text-xs text-gray-500">Time-based, 6 digits, every 30 seconds.</p>
      </div>
    </div>
  );
}
