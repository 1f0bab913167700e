// Nostr login (SPEC.md §2 Other modals): tabs Extension / With Key / Create New, and beyond the spec a fourth,
// Remote Signer (NIP-46, decision 027), for a phone without an extension whose key lives in a signer app.
import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Button } from "../../components/ui/button";
import { CopyButton } from "../../components/ui/copy-button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { AlertIcon, DownloadIcon, EyeIcon, EyeOffIcon, KeyIcon, ShieldIcon } from "../../components/ui/icons";
import { FormField, describedBy } from "../../components/ui/input";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { useToast } from "../../components/ui/toast";
import { cn } from "../../lib/cn";
import { isPhone } from "../../lib/phone";
import { generateKeys, parsePrivateKey, signWithPrivateKey, type GeneratedKeys } from "../../lib/nostr";
import { downloadKeyBackup } from "./key-backup-pdf";
import { RemoteSignerLogin } from "./remote-signer-login";
import { extensionSigner } from "./signer";
import { PrivateKeyInput } from "./private-key-input";
import { useNostrLogin } from "./use-nostr-login";

export type LoginTab = "extension" | "key" | "create" | "remote";

function hasExtension(): boolean {
  return typeof window !== "undefined" && window.nostr !== undefined;
}

/** The tab that can work on this device: the extension when there is one, else a new key on a phone (pasting a long secret there is awkward), else an existing key. */
export function defaultLoginTab(): LoginTab {
  if (hasExtension()) return "extension";
  return isPhone() ? "create" : "key";
}

/** A link-looking button inside a sentence ("No key yet? Create a new key"). */
const TEXT_BUTTON_CLASS = "cursor-pointer font-medium text-brand-800 underline hover:text-brand-900 disabled:cursor-default disabled:opacity-60";

export function LoginDialog({
  open,
  onOpenChange,
  reason,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Why the dialog opened ("Log in to claim this gig."), when something asked for it. */
  reason?: string;
}) {
  const close = () => onOpenChange(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* Full screen on a phone: after "Generate New Keys" the keys, the warning and three controls fill more than a card's height. */}
      <DialogContent phoneFullScreen>
        <DialogHeader>
          <DialogTitle>Login with Nostr</DialogTitle>
          <DialogDescription asChild>
            <div className="flex flex-col gap-2">
              {reason && <p className="rounded-lg border border-brand-200 bg-brand-50 px-3 py-2 text-sm font-semibold text-brand-900">{reason}</p>}
              <p>
                A Nostr key is like a username and password in one, that you keep yourself: no email, no password to remember.{" "}
                <Link to="/faq#nostr-keys" onClick={close} className={cn(TEXT_BUTTON_CLASS, "whitespace-nowrap")}>
                  What is a Nostr key?
                </Link>
              </p>
            </div>
          </DialogDescription>
        </DialogHeader>
        {/* Mounted while the dialog is open, so the default tab is chosen afresh each time it opens. */}
        <LoginTabs onSignedIn={close} />
      </DialogContent>
    </Dialog>
  );
}

function LoginTabs({ onSignedIn }: { onSignedIn: () => void }) {
  const [tab, setTab] = useState<LoginTab>(defaultLoginTab);
  return (
    <Tabs value={tab} onValueChange={(value) => setTab(value as LoginTab)}>
      {/* Four tabs do not fit one row of a phone: two rows of two there, the spec's three first. */}
      <TabsList aria-label="Login method" className="max-sm:grid-flow-row max-sm:grid-cols-2">
        <TabsTrigger value="extension">Extension</TabsTrigger>
        <TabsTrigger value="key">With Key</TabsTrigger>
        <TabsTrigger value="create">Create New</TabsTrigger>
        <TabsTrigger value="remote">Remote Signer</TabsTrigger>
      </TabsList>
      <TabsContent value="extension">
        <ExtensionLogin onSignedIn={onSignedIn} switchTo={setTab} />
      </TabsContent>
      <TabsContent value="key">
        <PrivateKeyLogin onSignedIn={onSignedIn} switchTo={setTab} />
      </TabsContent>
      <TabsContent value="create">
        <CreateKeys onSignedIn={onSignedIn} />
      </TabsContent>
      <TabsContent value="remote">
        <RemoteSignerLogin onSignedIn={onSignedIn} />
      </TabsContent>
    </Tabs>
  );
}

function ExtensionLogin({ onSignedIn, switchTo }: { onSignedIn: () => void; switchTo: (tab: LoginTab) => void }) {
  const { toast } = useToast();
  const signIn = useNostrLogin(onSignedIn);
  const [installed] = useState(hasExtension);
  const logIn = () => {
    if (!window.nostr) {
      toast({
        title: "No Extension Found",
        description: "Please install a Nostr extension like Alby or nos2x to use this login method.",
        variant: "destructive",
      });
      return;
    }
    // The extension stays the app's signer after sign-in (features/auth/signer.ts).
    signIn.mutate(extensionSigner());
  };

  if (installed) {
    return (
      <div className="flex flex-col gap-4">
        <p className="text-sm text-stone-600">
          Use a NIP-07 browser extension such as Alby or nos2x. It signs a one-time login challenge; your key never leaves the extension.
        </p>
        <Button size="lg" disabled={signIn.isPending} onClick={logIn}>
          {signIn.isPending ? "Waiting for extension..." : "Login with Extension"}
        </Button>
      </div>
    );
  }

  // No extension here (every phone browser, most desktops): say so and lead to a tab that works.
  return (
    <div className="flex flex-col gap-4">
      <div role="note" className="flex gap-2 rounded-lg border border-stone-200 bg-stone-50 p-3 text-sm text-stone-700">
        <AlertIcon className="mt-0.5 shrink-0 text-stone-500" />
        <p>
          This browser has no Nostr extension (such as Alby or nos2x). You can create a new key here instead, or log in with a key you
          already have.
        </p>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button size="lg" className="sm:flex-1" onClick={() => switchTo("create")}>
          <KeyIcon />
          Create a New Key
        </Button>
        <Button size="lg" variant="outline" className="sm:flex-1" onClick={() => switchTo("key")}>
          I Have a Key
        </Button>
      </div>
      {/* An extension can load after the page did: the button still tries, and says so when there is none. */}
      <p className="text-center text-sm text-stone-600">
        Installed one already?{" "}
        <button type="button" className={TEXT_BUTTON_CLASS} disabled={signIn.isPending} onClick={logIn}>
          {signIn.isPending ? "Waiting for extension..." : "Login with Extension"}
        </button>
      </p>
      {/* A phone has no extension, but its owner may keep their key in a signer app (Amber, nsec.app). */}
      <p className="text-center text-sm text-stone-600">
        Key in a signer app?{" "}
        <button type="button" className={TEXT_BUTTON_CLASS} onClick={() => switchTo("remote")}>
          Use a remote signer
        </button>
      </p>
    </div>
  );
}

function PrivateKeyLogin({ onSignedIn, switchTo }: { onSignedIn: () => void; switchTo: (tab: LoginTab) => void }) {
  const id = useId();
  const { toast } = useToast();
  const [key, setKey] = useState("");
  const signIn = useNostrLogin(() => {
    setKey("");
    onSignedIn();
  });
  const hint = "Your key only signs the login challenge here in your browser. It is never sent or stored.";

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!key.trim()) {
      toast({ title: "Private Key Required", description: "Please enter your private key (nsec or 64-character hex).", variant: "destructive" });
      return;
    }
    const typed = key;
    signIn.mutate(async (template) => signWithPrivateKey(await parsePrivateKey(typed), template));
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} noValidate>
      <FormField id={id} label="Private Key (nsec or hex)" hint={hint}>
        <PrivateKeyInput id={id} value={key} onChange={setKey} describedBy={describedBy(id, hint)} />
      </FormField>
      <Button type="submit" size="lg" disabled={signIn.isPending}>
        <KeyIcon />
        {signIn.isPending ? "Logging in..." : "Login with Key"}
      </Button>
      {/* A newcomer on a desktop lands here (see defaultLoginTab): one step to a key of their own. */}
      <p className="text-center text-sm text-stone-600">
        No key yet?{" "}
        <button type="button" className={TEXT_BUTTON_CLASS} onClick={() => switchTo("create")}>
          Create a new key
        </button>
      </p>
    </form>
  );
}

function CreateKeys({ onSignedIn }: { onSignedIn: () => void }) {
  const { toast } = useToast();
  const savedId = useId();
  const gateId = useId();
  const [keys, setKeys] = useState<GeneratedKeys | null>(null);
  const [generating, setGenerating] = useState(false);
  const [nsecVisible, setNsecVisible] = useState(false);
  const [downloading, setDownloading] = useState(false);
  // The new key opens the account only once it is kept somewhere: a lost nsec is a lost account.
  const [saved, setSaved] = useState(false);
  const signIn = useNostrLogin(onSignedIn);

  if (!keys) {
    return (
      <div className="flex flex-col gap-4">
        <p className="text-sm text-stone-600">
          New to Nostr? Create a key pair right here. The public key (npub) is your identity; the private key (nsec) proves it is you.
        </p>
        <Button
          size="lg"
          disabled={generating}
          onClick={async () => {
            setGenerating(true);
            try {
              setKeys(await generateKeys());
            } finally {
              setGenerating(false);
            }
          }}
        >
          <KeyIcon />
          {generating ? "Generating..." : "Generate New Keys"}
        </Button>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1.5">
        <span className="text-sm font-medium text-stone-800" id="new-npub-label">
          Public Key (npub)
        </span>
        <div className="flex items-center gap-1 rounded-lg border border-stone-200 bg-stone-50 p-2">
          <code aria-labelledby="new-npub-label" className="min-w-0 flex-1 font-mono text-xs break-all">
            {keys.npub}
          </code>
          <CopyButton value={keys.npub} label="Copy npub" copiedDescription="Public key copied to clipboard" />
        </div>
      </div>
      <div className="flex flex-col gap-1.5">
        <span className="text-sm font-medium text-stone-800" id="new-nsec-label">
          Private Key (nsec)
        </span>
        <div className="flex items-center gap-1 rounded-lg border border-red-200 bg-red-50 p-2">
          <code
            aria-labelledby="new-nsec-label"
            className={cn("min-w-0 flex-1 font-mono text-xs", nsecVisible ? "break-all" : "overflow-hidden whitespace-nowrap")}
          >
            {nsecVisible ? keys.nsec : "•".repeat(32)}
          </code>
          <button
            type="button"
            className="inline-flex h-8 w-8 shrink-0 cursor-pointer items-center justify-center rounded-md text-stone-500 hover:bg-red-100"
            aria-label={nsecVisible ? "Hide private key" : "Show private key"}
            aria-pressed={nsecVisible}
            onClick={() => setNsecVisible((v) => !v)}
          >
            {nsecVisible ? <EyeOffIcon /> : <EyeIcon />}
          </button>
          <CopyButton value={keys.nsec} label="Copy nsec" copiedDescription="Private key copied to clipboard" />
        </div>
      </div>
      <div role="note" className="flex gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
        <AlertIcon className="mt-0.5 shrink-0" />
        <p>
          Save your private key now. It is the only way into your account: Gigstr never stores it and cannot recover it. Never share it
          with anyone.
        </p>
      </div>
      <Button
        variant="outline"
        size="lg"
        className="w-full"
        disabled={downloading}
        onClick={async () => {
          setDownloading(true);
          try {
            await downloadKeyBackup(keys);
            setSaved(true);
            toast({ title: "Keys Downloaded", description: "Keep the backup card somewhere safe and offline." });
          } catch (err) {
            console.error("Key backup failed", err);
            toast({ title: "Download Failed", description: "Could not create the key backup. Copy your keys instead.", variant: "destructive" });
          } finally {
            setDownloading(false);
          }
        }}
      >
        <DownloadIcon />
        Download Key Backup
      </Button>
      <label htmlFor={savedId} className="flex cursor-pointer items-start gap-3 rounded-lg border border-stone-200 p-3 text-sm font-medium text-stone-800">
        <input
          id={savedId}
          type="checkbox"
          className="mt-0.5 h-5 w-5 shrink-0 cursor-pointer accent-brand-600"
          checked={saved}
          onChange={(e) => setSaved(e.target.checked)}
        />
        I saved my key
      </label>
      <div className="flex flex-col gap-2">
        {/* Above the button, not below it: on a phone the line under the button would sit off screen. */}
        {!saved && (
          <p id={gateId} className="text-center text-sm text-stone-600">
            Download the backup or tick “I saved my key” first.
          </p>
        )}
        <Button
          size="lg"
          className="w-full"
          disabled={!saved || signIn.isPending}
          aria-describedby={saved ? undefined : gateId}
          onClick={() => signIn.mutate((template) => signWithPrivateKey(keys.secretKey, template))}
        >
          <ShieldIcon />
          {signIn.isPending ? "Logging in..." : "Log In With This Key"}
        </Button>
      </div>
    </div>
  );
}
