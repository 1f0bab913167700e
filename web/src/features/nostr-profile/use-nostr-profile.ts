// Publishing the profile to Nostr and refreshing it from Nostr (SPEC.md §7 Other services, §8 toasts).
// The relay code (nostr-tools' pool) loads on the first click, not with the page. The profile is signed by the
// app's current signer (features/auth/signer.ts): the extension or remote signer the member logged in with, else
// the browser's extension.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { OwnUser } from "../../../../domain/profile";
import { useToast } from "../../components/ui/toast";
import { apiJson, errorText } from "../../lib/api";
import type { NostrEventTemplate } from "../../lib/nostr";
import { authKeys, useAuth } from "../auth/auth-context";
import { currentSigner, signAsMember } from "../auth/signer";
import { parseProfileMetadata, profileEditFromMetadata, profileMetadataFromUser } from "./profile-metadata";

export const NOSTR_PROFILE_TEXTS = {
  extensionRequired: "Nostr Extension Required",
  extensionRequiredText: "Install a Nostr extension like Alby or nos2x, or log in with a remote signer, to publish your profile.",
  published: "Published to Nostr!",
  publishFailed: "Failed to Publish",
  refreshed: "Profile Refreshed!",
  refreshFailed: "Refresh Failed",
  noProfile: "No Profile Found",
  noProfileText: "No Nostr profile found for your account.",
} as const;

/** The member's public key in hex: stored on the account, else decoded from the npub username. */
async function pubkeyOf(user: OwnUser): Promise<string> {
  if (user.nostrPubkey) return user.nostrPubkey;
  const { decode } = await import("nostr-tools/nip19");
  const decoded = decode(user.username);
  if (decoded.type !== "npub") throw new Error("Your account has no Nostr public key.");
  return decoded.data;
}

async function publishProfile(user: OwnUser) {
  if (!currentSigner()) throw new Error(NOSTR_PROFILE_TEXTS.extensionRequiredText);
  const [relays, pubkey] = await Promise.all([import("./relays"), pubkeyOf(user)]);
  // The new kind 0 replaces the old one everywhere: start from it so fields Gigstr does not know survive.
  const current = await relays.fetchLatestProfileEvent(pubkey).catch(() => null);
  const template: NostrEventTemplate = {
    kind: relays.PROFILE_METADATA_KIND,
    created_at: Math.floor(Date.now() / 1000),
    tags: [],
    content: JSON.stringify(profileMetadataFromUser(user, (current && parseProfileMetadata(current.content)) ?? {})),
  };
  // Refused: another key than the member's, or the signer said no (its reason is in the message).
  const signed = await signAsMember(template, { pubkey });
  const outcome = await relays.publishEvent(signed);
  if (outcome.accepted.length === 0) throw new Error(outcome.reached === 0 ? relays.RELAYS_UNREACHABLE : "No relay accepted your profile. Please try again.");
  return { accepted: outcome.accepted.length, total: outcome.accepted.length + outcome.failed.length };
}

type RefreshOutcome = { kind: "none" } | { kind: "unchanged" } | { kind: "updated"; user: OwnUser | undefined };

export interface NostrProfileActions {
  publish: () => void;
  refresh: () => void;
  publishing: boolean;
  refreshing: boolean;
}

export function useNostrProfile(user: OwnUser, { onRefreshed }: { onRefreshed?: (user: OwnUser) => void } = {}): NostrProfileActions {
  const { toast } = useToast();
  const { refreshUser } = useAuth();
  const queryClient = useQueryClient();

  const publish = useMutation({
    mutationFn: () => publishProfile(user),
    onSuccess: ({ accepted, total }) =>
      toast({ title: NOSTR_PROFILE_TEXTS.published, description: `Your profile is on ${accepted} of ${total} relays.` }),
    onError: (err) => {
      console.error("Publishing the profile to Nostr failed", err);
      toast({ title: NOSTR_PROFILE_TEXTS.publishFailed, description: errorText(err, "Please try again."), variant: "destructive" });
    },
  });

  const refresh = useMutation({
    mutationFn: async (): Promise<RefreshOutcome> => {
      const [relays, pubkey] = await Promise.all([import("./relays"), pubkeyOf(user)]);
      const event = await relays.fetchLatestProfileEvent(pubkey);
      const metadata = event && parseProfileMetadata(event.content);
      if (!metadata) return { kind: "none" };
      const edit = profileEditFromMetadata(metadata, user);
      if (Object.keys(edit).length === 0) return { kind: "unchanged" };
      await apiJson("PATCH", "/api/user/me", edit);
      await refreshUser();
      return { kind: "updated", user: queryClient.getQueryData<OwnUser | null>(authKeys.me()) ?? undefined };
    },
    onSuccess: (outcome) => {
      if (outcome.kind === "none") {
        toast({ title: NOSTR_PROFILE_TEXTS.noProfile, description: NOSTR_PROFILE_TEXTS.noProfileText, variant: "destructive" });
        return;
      }
      toast({
        title: NOSTR_PROFILE_TEXTS.refreshed,
        description: outcome.kind === "updated" ? "Your profile now shows your Nostr profile." : "Your profile already matches your Nostr profile.",
      });
      if (outcome.kind === "updated" && outcome.user) onRefreshed?.(outcome.user);
    },
    onError: (err) => {
      console.error("Refreshing the profile from Nostr failed", err);
      toast({ title: NOSTR_PROFILE_TEXTS.refreshFailed, description: errorText(err, "Please try again."), variant: "destructive" });
    },
  });

  return {
    publish: () => {
      // Checked before anything loads: without an extension or a remote signer there is nothing to sign with.
      if (!currentSigner()) {
        toast({ title: NOSTR_PROFILE_TEXTS.extensionRequired, description: NOSTR_PROFILE_TEXTS.extensionRequiredText, variant: "destructive" });
        return;
      }
      publish.mutate();
    },
    refresh: () => refresh.mutate(),
    publishing: publish.isPending,
    refreshing: refresh.isPending,
  };
}
