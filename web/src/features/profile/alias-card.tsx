// The one-time Gigstr alias (SPEC.md §2 /profile, §5 Alias): a short Lightning address name@<alias domain>
// that forwards payments to the member's own Lightning address.
import { useId, useState, type FormEvent } from "react";
import { normaliseAlias, type OwnUser } from "../../../../domain/profile";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../components/ui/card";
import { CopyButton } from "../../components/ui/copy-button";
import { AlertIcon, BoltIcon, CheckIcon, LockIcon, XIcon } from "../../components/ui/icons";
import { Label } from "../../components/ui/input";
import { useToast } from "../../components/ui/toast";
import { errorText } from "../../lib/api";
import { useAliasDomain } from "../config/use-config";
import { LightningAddressLine } from "./lightning-address-line";
import { useAliasAvailability, useUpdateProfile, type AliasAvailability } from "./use-profile";

export function AliasCard({ user }: { user: OwnUser }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <BoltIcon className="text-brand-600" />
          Gigstr Lightning Alias
        </CardTitle>
        <CardDescription>A short, memorable Lightning address that forwards payments to your own.</CardDescription>
      </CardHeader>
      <CardContent>{user.gigstrAlias ? <ConfiguredAlias user={user} /> : <ClaimAliasForm user={user} />}</CardContent>
    </Card>
  );
}

function ConfiguredAlias({ user }: { user: OwnUser }) {
  const domain = useAliasDomain();
  const address = user.gigstrAliasAddress || `${user.gigstrAlias}@${domain}`;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-1 rounded-lg border border-brand-200 bg-brand-50 px-3 py-2">
        <span className="min-w-0 flex-1 font-mono text-sm font-semibold break-all text-brand-900">{address}</span>
        <CopyButton value={address} label="Copy alias address" copiedDescription="Alias address copied to clipboard" />
      </div>
      <div className="flex flex-col gap-1 text-sm text-stone-600">
        <span>Forwards to</span>
        <LightningAddressLine address={user.lightningAddress ?? ""} className="font-mono font-medium text-stone-900" />
      </div>
      <Badge variant="default" className="self-start">
        <LockIcon size={12} />
        Permanently configured
      </Badge>
    </div>
  );
}

const availabilityText: Record<Exclude<AliasAvailability, "unknown">, string> = {
  checking: "Checking availability...",
  available: "is available",
  taken: "is already taken",
};

export function ClaimAliasForm({ user }: { user: OwnUser }) {
  const inputId = useId();
  const domain = useAliasDomain();
  const { toast } = useToast();
  const update = useUpdateProfile();
  const [alias, setAlias] = useState("");
  const availability = useAliasAvailability(alias);
  const canClaim = availability === "available" && alias.length > 0 && !update.isPending;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!canClaim) return;
    update.mutate(
      { gigstrAlias: alias },
      {
        onSuccess: () => toast({ title: "Settings Updated", description: `Your alias ${alias}@${domain} is now active.` }),
        onError: (err) => toast({ title: "Failed to Update Profile", description: errorText(err, "Please try again."), variant: "destructive" }),
      },
    );
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
      <Label htmlFor={inputId}>Choose your alias</Label>
      <div className="flex items-stretch overflow-hidden rounded-lg border border-stone-300 bg-white shadow-sm focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-200">
        <input
          id={inputId}
          value={alias}
          onChange={(e) => setAlias(normaliseAlias(e.target.value))}
          placeholder="yourname"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={64}
          aria-describedby={`${inputId}-status ${inputId}-warning`}
          className="h-10 min-w-0 flex-1 bg-transparent px-3 font-mono text-sm lowercase focus:outline-none"
        />
        <span className="flex max-w-[55%] items-center truncate border-l border-stone-200 bg-stone-50 px-3 font-mono text-sm text-stone-500">
          @{domain}
        </span>
      </div>
      <p id={`${inputId}-status`} role="status" aria-live="polite" className="min-h-5 text-sm">
        {alias.length > 0 && alias.length < 3 && <span className="text-stone-500">At least 3 characters: a-z, 0-9, dot, underscore, hyphen.</span>}
        {availability === "checking" && <span className="text-stone-500">{availabilityText.checking}</span>}
        {availability === "available" && (
          <span className="flex items-center gap-1 font-medium text-green-700">
            <CheckIcon size={14} strokeWidth={3} />
            {alias}@{domain} {availabilityText.available}
          </span>
        )}
        {availability === "taken" && (
          <span className="flex items-center gap-1 font-medium text-red-700">
            <XIcon size={14} strokeWidth={3} />
            {alias}@{domain} {availabilityText.taken}
          </span>
        )}
      </p>
      {/* The address sits on a line of its own below the words, the warning's full width (a long address in a
          column beside the icon read one letter a line at 360 px). */}
      <div id={`${inputId}-warning`} role="note" className="flex flex-col gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
        <p className="flex gap-2">
          <AlertIcon className="mt-0.5 shrink-0" />
          <span>Your alias can be set only once and cannot be changed later. It will forward to:</span>
        </p>
        <LightningAddressLine address={user.lightningAddress ?? ""} className="rounded-md bg-white/70 px-2 py-1.5 font-mono text-amber-950" />
      </div>
      <Button type="submit" disabled={!canClaim} className="self-start">
        {update.isPending ? "Claiming..." : "Claim Alias"}
      </Button>
    </form>
  );
}
