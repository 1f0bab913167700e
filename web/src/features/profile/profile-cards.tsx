import type { OwnUser } from "../../../../domain/profile";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { CopyButton } from "../../components/ui/copy-button";
import { AlertIcon, BoltIcon, CheckIcon, KeyIcon, ShieldIcon } from "../../components/ui/icons";
import { LightningAddressLine } from "./lightning-address-line";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <dt className="text-xs font-medium tracking-wide text-stone-500 uppercase">{label}</dt>
      <dd className="flex min-w-0 items-center gap-2 text-sm text-stone-900">{children}</dd>
    </div>
  );
}

export function NostrIdentityCard({ user }: { user: OwnUser }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <KeyIcon className="text-brand-600" />
          Nostr Identity
        </CardTitle>
        <CardDescription>Your account is your Nostr key. Your username is your public key and cannot be changed.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="flex flex-col gap-4">
          <Row label="NIP-05">
            {user.nip05 ? (
              <>
                <span className="min-w-0 break-all">{user.nip05}</span>
                <Badge variant="success">
                  <CheckIcon size={12} strokeWidth={3} />
                  Verified
                </Badge>
              </>
            ) : user.gigstrAliasAddress ? (
              // The alias names them for NIP-05 (/.well-known/nostr.json) and goes out with a profile publish.
              <span className="min-w-0 break-all">
                {user.gigstrAliasAddress} <span className="text-stone-500">(your Gigstr alias)</span>
              </span>
            ) : (
              <span className="text-stone-500">Not set</span>
            )}
          </Row>
          <Row label="Public key (npub)">
            <code className="min-w-0 flex-1 rounded-md bg-stone-50 px-2 py-1.5 font-mono text-xs break-all">{user.username}</code>
            <CopyButton value={user.username} label="Copy npub" copiedDescription="npub copied to clipboard" />
          </Row>
        </dl>
      </CardContent>
    </Card>
  );
}

export function PaymentSettingsCard({ user, onEdit }: { user: OwnUser; onEdit: () => void }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <BoltIcon className="text-brand-600" />
          Payment Settings
        </CardTitle>
        <CardDescription>Where your earnings and refunds are paid, over Lightning.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl>
          <Row label="Lightning Address">
            {user.lightningAddress ? (
              <LightningAddressLine address={user.lightningAddress} className="min-w-0 font-medium" />
            ) : (
              <span className="text-stone-500">Not set</span>
            )}
          </Row>
        </dl>
        {!user.lightningAddress && (
          <div role="note" className="flex flex-col items-start gap-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
            <p className="flex gap-2">
              <AlertIcon className="mt-0.5 shrink-0" />
              You must set a Lightning address before you can receive payments.
            </p>
            <Button size="sm" variant="outline" onClick={onEdit}>
              Set Lightning Address
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

export function PrivateKeySecurityNotice() {
  return (
    <Card className="border-sky-200 bg-sky-50">
      <CardHeader>
        <CardTitle className="text-sky-950">
          <ShieldIcon className="text-sky-700" />
          Private Key Security
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 text-sm text-sky-950">
        <p>Gigstr never stores your private key (nsec). You log in by signing a one-time challenge in your browser or extension.</p>
        <p>Keep your key backup safe and offline. Nobody, including Gigstr, can recover your account if the key is lost, and anyone who has it controls your account.</p>
      </CardContent>
    </Card>
  );
}
