// Nostr login (SPEC.md §2 Other modals): tabs Extension / With Key / Create New.
import { useId, useState, type FormEvent } from "react";
import { Button } from "../../components/ui/button";
import { CopyButton } from "../../components/ui/copy-button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { AlertIcon, DownloadIcon, EyeIcon, EyeOffIcon, KeyIcon, ShieldIcon } from "../../components/ui/icons";
import { FormField, Input, describedBy } from "../../components/ui/input";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/tabs";
import { useToast } from "../../components/ui/toast";
import { generateKeys, parsePrivateKey, signWithPrivateKey, type GeneratedKeys } from "../../lib/nostr";
import { downloadKeyBackup } from "./key-backup-pdf";
import { useNostrLogin } from "./use-nostr-login";

export function LoginDialog({
  open,
  onOpenChange,
  reason,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Why the dialog opened ("Sign in to claim this gig."), when something asked for it. */
  reason?: string;
}) {
  const close = () => onOpenChange(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Login with Nostr</DialogTitle>
          <DialogDescription>
            Sign in with your Nostr identity. Your private key stays in this browser: Gigstr never receives or stores it.
          </DialogDescription>
        </DialogHeader>
        <Tabs defaultValue="extension">
          <TabsList aria-label="Login method">
            <TabsTrigger value="extension">Extension</TabsTrigger>
            <TabsTrigger value="key">With Key</TabsTrigger>
            <TabsTrigger value="create">Create New</TabsTrigger>
          </TabsList>
          <TabsContent value="extension">
            <ExtensionLogin onSignedIn={close} />
          </TabsContent>
          <TabsContent value="key">
            <PrivateKeyLogin onSignedIn={close} />
          </TabsContent>
          <TabsContent value="create">
            <CreateKeys onSignedIn={close} />
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}

function ExtensionLogin({ onSignedIn }: { onSignedIn: () => void }) {
  const { toast } = useToast();
  const signIn = useNostrLogin(onSignedIn);
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-stone-600">
        Use a NIP-07 browser extension such as Alby or nos2x. It signs a one-time login challenge; your key never leaves the extension.
      </p>
      <Button
        size="lg"
        disabled={signIn.isPending}
        onClick={() => {
          const signer = window.nostr;
          if (!signer) {
            toast({
              title: "No Extension Found",
              description: "Please install a Nostr extension like Alby or nos2x to use this login method.",
              variant: "destructive",
            });
            return;
          }
          signIn.mutate((template) => signer.signEvent(template));
        }}
      >
        {signIn.isPending ? "Waiting for extension..." : "Login with Extension"}
      </Button>
    </div>
  );
}

function PrivateKeyLogin({ onSignedIn }: { onSignedIn: () => void }) {
  const id = useId();
  const { toast } = useToast();
  const [key, setKey] = useState("");
  const [visible, setVisible] = useState(false);
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
        <div className="relative">
          <Input
            id={id}
            type={visible ? "text" : "password"}
            value={key}
            onChange={(e) => setKey(e.target.value)}
            placeholder="nsec1..."
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            className="pr-10 font-mono"
            aria-describedby={describedBy(id, hint)}
          />
          <button
            type="button"
            className="absolute top-1/2 right-1 flex h-8 w-8 -translate-y-1/2 cursor-pointer items-center justify-center rounded-md text-stone-500 hover:bg-stone-100"
            aria-label={visible ? "Hide private key" : "Show private key"}
            aria-pressed={visible}
            onClick={() => setVisible((v) => !v)}
          >
            {visible ? <EyeOffIcon /> : <EyeIcon />}
          </button>
        </div>
      </FormField>
      <Button type="submit" size="lg" disabled={signIn.isPending}>
        <KeyIcon />
        {signIn.isPending ? "Signing in..." : "Login with Key"}
      </Button>
    </form>
  );
}

function CreateKeys({ onSignedIn }: { onSignedIn: () => void }) {
  const { toast } = useToast();
  const [keys, setKeys] = useState<GeneratedKeys | null>(null);
  const [generating, setGenerating] = useState(false);
  const [nsecVisible, setNsecVisible] = useState(false);
  const [downloading, setDownloading] = useState(false);
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
          <code aria-labelledby="new-nsec-label" className="min-w-0 flex-1 font-mono text-xs break-all">
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
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button
          variant="outline"
          className="sm:flex-1"
          disabled={downloading}
          onClick={async () => {
            setDownloading(true);
            try {
              await downloadKeyBackup(keys);
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
        <Button className="sm:flex-1" disabled={signIn.isPending} onClick={() => signIn.mutate((template) => signWithPrivateKey(keys.secretKey, template))}>
          <ShieldIcon />
          {signIn.isPending ? "Signing in..." : "Sign In With This Key"}
        </Button>
      </div>
    </div>
  );
}
