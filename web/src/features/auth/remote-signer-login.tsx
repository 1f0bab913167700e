// The login dialog's Remote Signer tab (NIP-46, decision 027): paste a bunker:// link from a signer app, or show a
// nostrconnect:// QR code (and link, for a signer app on this same phone) and wait for the signer to connect. Either
// way the signer gives the member's key and signs the login challenge; it then stays the app's signer for this tab.
// The NIP-46 code and the QR drawing load only when used.
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { DEFAULT_NOSTR_RELAYS } from "../../../../domain/nostr-relays";
import { Button, buttonClasses } from "../../components/ui/button";
import { CopyButton } from "../../components/ui/copy-button";
import { AlertIcon, ExternalLinkIcon, LockIcon } from "../../components/ui/icons";
import { FormField, Input, describedBy } from "../../components/ui/input";
import type { AppSigner } from "../../lib/nostr";
import { useConfig } from "../config/use-config";
import { isCancelled, parseBunkerUrl, RemoteSignerError } from "./remote-signer-url";
import { useNostrLogin } from "./use-nostr-login";

type Waiting =
  | { way: "bunker"; step: "connecting" | "signing" }
  | { way: "qr"; step: "preparing" | "connecting" | "signing"; uri: string | null };

export const REMOTE_SIGNER_TEXTS = {
  intro:
    "Use a signer app that keeps your key for you, such as Amber or nsec.app. It signs for Gigstr when you approve; your key never leaves it.",
  bunkerLabel: "Bunker URL",
  bunkerHint: "In your signer app, add a connection and copy its bunker:// link.",
  connecting: "Connecting to your signer…",
  signing: "Approve the login in your signer…",
  qrPrompt: "Scan this code with your signer app, or open the link in the signer app on this phone.",
  qrWaiting: "Waiting for your signer app to connect…",
} as const;

function useQrCode(value: string | null): string | null {
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  useEffect(() => {
    setDataUrl(null);
    if (!value) return;
    let live = true;
    void import("qrcode")
      .then((QRCode) => QRCode.toDataURL(value, { errorCorrectionLevel: "M", margin: 1, width: 320 }))
      .then((url) => live && setDataUrl(url))
      .catch((err) => console.error("Drawing the QR code failed", err));
    return () => {
      live = false;
    };
  }, [value]);
  return dataUrl;
}

export function RemoteSignerLogin({ onSignedIn }: { onSignedIn: () => void }) {
  const id = useId();
  const config = useConfig();
  const [url, setUrl] = useState("");
  const [urlError, setUrlError] = useState<string | null>(null);
  const [waiting, setWaiting] = useState<Waiting | null>(null);
  const [authUrl, setAuthUrl] = useState<string | null>(null);
  const attempt = useRef<AbortController | null>(null);
  const signIn = useNostrLogin(() => {
    setUrl("");
    onSignedIn();
  });
  const qr = useQrCode(waiting?.way === "qr" ? waiting.uri : null);

  // Closing the dialog stops waiting for the signer.
  useEffect(() => () => attempt.current?.abort(), []);

  const start = (next: Waiting, connect: (signal: AbortSignal) => Promise<AppSigner>) => {
    attempt.current?.abort();
    const controller = new AbortController();
    attempt.current = controller;
    setAuthUrl(null);
    setWaiting(next);
    signIn.mutate(
      { connect: () => connect(controller.signal), signal: controller.signal },
      { onSettled: () => attempt.current === controller && setWaiting(null) },
    );
  };

  const connectWithUrl = (e: FormEvent) => {
    e.preventDefault();
    let pointer;
    try {
      pointer = parseBunkerUrl(url);
    } catch (err) {
      setUrlError(err instanceof RemoteSignerError ? err.message : String(err));
      return;
    }
    setUrlError(null);
    start({ way: "bunker", step: "connecting" }, async (signal) => {
      const { connectBunker } = await import("./remote-signer");
      const signer = await connectBunker(pointer, { signal, onAuthUrl: setAuthUrl });
      setWaiting({ way: "bunker", step: "signing" });
      return signer;
    });
  };

  const connectWithQr = () => {
    start({ way: "qr", step: "preparing", uri: null }, async (signal) => {
      // The deployment's relays (GET /api/config: a local run's own relay), else the default ones.
      const configured = (config.data ?? (await config.refetch()).data)?.nostr?.relays;
      const relays = configured?.length ? configured : [...DEFAULT_NOSTR_RELAYS];
      const { inviteNostrConnect } = await import("./remote-signer");
      const invite = await inviteNostrConnect(relays, { signal, onAuthUrl: setAuthUrl });
      setWaiting({ way: "qr", step: "connecting", uri: invite.uri });
      const signer = await invite.connected;
      setWaiting({ way: "qr", step: "signing", uri: null });
      return signer;
    });
  };

  const cancel = () => attempt.current?.abort();
  const failure = !waiting && signIn.error && !isCancelled(signIn.error) ? signIn.error.message : null;

  if (waiting) {
    const status =
      waiting.step === "signing" ? REMOTE_SIGNER_TEXTS.signing : waiting.way === "qr" && waiting.uri ? REMOTE_SIGNER_TEXTS.qrWaiting : REMOTE_SIGNER_TEXTS.connecting;
    return (
      <div className="flex flex-col gap-4">
        {waiting.way === "qr" && waiting.uri && (
          <div className="flex flex-col items-center gap-3">
            <p className="text-center text-sm text-stone-600">{REMOTE_SIGNER_TEXTS.qrPrompt}</p>
            <div className="flex h-60 w-60 items-center justify-center rounded-lg border border-stone-200 bg-white p-2">
              {qr ? <img src={qr} alt="QR code to connect your signer app" className="h-full w-full" /> : <span className="text-sm text-stone-500">Drawing the code…</span>}
            </div>
            <div className="flex w-full items-center gap-2">
              <a href={waiting.uri} className={buttonClasses("primary", "lg", "flex-1")}>
                <ExternalLinkIcon />
                Open Signer App
              </a>
              <CopyButton value={waiting.uri} label="Copy connection link" copiedDescription="Connection link copied to clipboard" className="h-12 w-12 border border-stone-300 bg-white" />
            </div>
          </div>
        )}
        <p role="status" className="flex items-center justify-center gap-2 text-center text-sm font-medium text-stone-700">
          <span aria-hidden className="h-2 w-2 shrink-0 animate-pulse rounded-full bg-brand-500" />
          {status}
        </p>
        {authUrl && (
          <p className="rounded-lg border border-brand-200 bg-brand-50 p-3 text-center text-sm text-brand-900">
            Your signer asks you to approve this login on its page.{" "}
            <a href={authUrl} target="_blank" rel="noopener noreferrer" className="font-medium underline">
              Open the approval page
            </a>
          </p>
        )}
        <Button variant="outline" size="lg" onClick={cancel}>
          Cancel
        </Button>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-stone-600">{REMOTE_SIGNER_TEXTS.intro}</p>
      {failure && (
        <div role="alert" className="flex gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <AlertIcon className="mt-0.5 shrink-0" />
          <p>{failure}</p>
        </div>
      )}
      <form className="flex flex-col gap-3" onSubmit={connectWithUrl} noValidate>
        <FormField id={id} label={REMOTE_SIGNER_TEXTS.bunkerLabel} hint={REMOTE_SIGNER_TEXTS.bunkerHint} error={urlError}>
          <Input
            id={id}
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              setUrlError(null);
            }}
            placeholder="bunker://…"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            className="font-mono"
            aria-invalid={urlError ? true : undefined}
            aria-describedby={describedBy(id, REMOTE_SIGNER_TEXTS.bunkerHint, urlError)}
          />
        </FormField>
        <Button type="submit" size="lg">
          <LockIcon />
          Connect to Signer
        </Button>
      </form>
      <div className="flex items-center gap-3 text-xs font-medium tracking-wide text-stone-500 uppercase" aria-hidden>
        <span className="h-px flex-1 bg-stone-200" />
        or
        <span className="h-px flex-1 bg-stone-200" />
      </div>
      <Button variant="outline" size="lg" onClick={connectWithQr}>
        Connect with a QR Code
      </Button>
    </div>
  );
}
