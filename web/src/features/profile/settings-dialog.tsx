import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { isValidLightningAddress, type OwnUser } from "../../../../domain/profile";
import { Button } from "../../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../components/ui/dialog";
import { FormField, Input, Label, describedBy } from "../../components/ui/input";
import { useToast } from "../../components/ui/toast";
import { SessionsSection } from "../auth/sessions-section";
import { NostrProfileSection } from "../nostr-profile/nostr-profile-card";
import { INVALID_LIGHTNING_ADDRESS_TEXT, INVALID_LIGHTNING_ADDRESS_TITLE } from "./profile-texts";
import { useUpdateProfile } from "./use-profile";

export const NOSTR_DMS_LABEL = "Send my notifications as Nostr DMs";
export const NOSTR_DMS_HINT = "Each notification also arrives as a private Nostr message from Gigstr, readable only by you.";

/**
 * Display name and Lightning address, the two settings the marketplace needs; whether notifications also come as
 * Nostr DMs (NIP-17, docs/decisions/026); and where the member is logged in.
 */
export function SettingsDialog({ user, open, onOpenChange }: { user: OwnUser; open: boolean; onOpenChange: (open: boolean) => void }) {
  const nameId = useId();
  const addressId = useId();
  const nostrDmsId = useId();
  const { toast } = useToast();
  const update = useUpdateProfile();
  const [displayName, setDisplayName] = useState(user.displayName ?? "");
  const [lightningAddress, setLightningAddress] = useState(user.lightningAddress ?? "");
  const [nostrDms, setNostrDms] = useState(user.nostrDmNotifications ?? false);
  const addressHint = "Where your payouts are sent, e.g. you@walletofsatoshi.com. Required before posting or receiving payments.";

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const address = lightningAddress.trim();
    if (address && !isValidLightningAddress(address)) {
      toast({ title: INVALID_LIGHTNING_ADDRESS_TITLE, description: INVALID_LIGHTNING_ADDRESS_TEXT, variant: "destructive" });
      return;
    }
    update.mutate(
      { displayName: displayName.trim(), lightningAddress: address, nostrDmNotifications: nostrDms },
      {
        onSuccess: () => {
          toast({ title: "Settings Updated", description: "Your settings have been saved." });
          onOpenChange(false);
        },
        onError: () => toast({ title: "Failed to Update Settings", description: "Please try again.", variant: "destructive" }),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Profile and Settings</DialogTitle>
          <DialogDescription>How other members see you, and where your sats go.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
          <FormField id={nameId} label="Display Name">
            <Input id={nameId} value={displayName} onChange={(e) => setDisplayName(e.target.value)} autoComplete="nickname" maxLength={100} />
          </FormField>
          <FormField id={addressId} label="Lightning Address" hint={addressHint}>
            <Input
              id={addressId}
              value={lightningAddress}
              onChange={(e) => setLightningAddress(e.target.value)}
              placeholder="you@getalby.com"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              inputMode="email"
              aria-describedby={describedBy(addressId, addressHint)}
            />
          </FormField>
          <p className="text-sm text-stone-600">
            More options (picture, bio, NIP-05, alias) are on{" "}
            <Link to="/profile" className="font-medium text-brand-700 underline-offset-2 hover:underline" onClick={() => onOpenChange(false)}>
              your profile page
            </Link>
            .
          </p>
          <div className="flex items-start gap-3 rounded-lg border border-stone-200 bg-stone-50 p-3">
            <input
              id={nostrDmsId}
              type="checkbox"
              checked={nostrDms}
              onChange={(e) => setNostrDms(e.target.checked)}
              aria-describedby={`${nostrDmsId}-hint`}
              className="mt-0.5 size-4 shrink-0 cursor-pointer rounded border-stone-300 accent-brand-600 focus-visible:ring-2 focus-visible:ring-brand-200 focus-visible:outline-none"
            />
            <div className="flex flex-col gap-0.5">
              <Label htmlFor={nostrDmsId} className="cursor-pointer">
                {NOSTR_DMS_LABEL}
              </Label>
              <p id={`${nostrDmsId}-hint`} className="text-xs text-stone-500">
                {NOSTR_DMS_HINT}
              </p>
            </div>
          </div>
          <NostrProfileSection
            user={user}
            onRefreshed={(refreshed) => {
              setDisplayName(refreshed.displayName ?? "");
              setLightningAddress(refreshed.lightningAddress ?? "");
            }}
          />
          <SessionsSection />
          <DialogFooter className="mt-2">
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? "Saving..." : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
