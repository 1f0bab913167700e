// The Gigstr profile <-> Nostr profile metadata (kind 0 content: name, display_name, about, picture, nip05,
// lud16; NIP-01 and NIP-24). Pure functions: what to publish, and what of a Nostr profile may be copied in.
import { isValidLightningAddress, profileUpdateSchema, type OwnUser } from "../../../../domain/profile";
import type { ProfileEdit } from "../profile/use-profile";

/** The kind 0 content: the fields Gigstr writes, plus whatever else the member's Nostr profile holds. */
export type ProfileMetadata = Record<string, unknown>;

/** A kind 0's content as an object, or null when it is not a JSON object (it is written by any client). */
export function parseProfileMetadata(content: string): ProfileMetadata | null {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  return value as ProfileMetadata;
}

function text(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * What Gigstr publishes: the member's display name (as name and display_name), bio, picture, NIP-05 (their own,
 * else their alias: alias@ALIAS_DOMAIN, which this site's NIP-05 answer names) and the
 * Lightning address to be paid at (the alias if claimed, else the payout address; an LNURL goes in lud06).
 * A kind 0 replaces the whole Nostr profile, so the fields of the current one (banner, website, ...) are
 * kept, and a field Gigstr has no value for keeps its current value rather than being blanked.
 */
export function profileMetadataFromUser(user: OwnUser, current: ProfileMetadata = {}): ProfileMetadata {
  const metadata: ProfileMetadata = { ...current };
  const set = (key: string, value: string | undefined) => {
    if (value !== undefined) metadata[key] = value;
  };
  const displayName = text(user.displayName);
  set("name", displayName);
  set("display_name", displayName);
  set("about", text(user.bio));
  set("picture", text(user.profilePicture));
  // A member's own NIP-05 identifier; else their Gigstr alias, which /.well-known/nostr.json vouches for (issue 27).
  set("nip05", text(user.nip05) ?? text(user.gigstrAliasAddress));
  const payTo = text(user.gigstrAliasAddress) ?? text(user.lightningAddress);
  if (payTo && /^lnurl/i.test(payTo)) set("lud06", payTo);
  else set("lud16", payTo);
  return metadata;
}

type CopiedField = "displayName" | "bio" | "profilePicture" | "nip05" | "lightningAddress";

/** A value the profile form would accept for this field (the same rules as PATCH /api/user/me). */
function accepted(field: CopiedField, value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  if (field === "lightningAddress" && !isValidLightningAddress(trimmed)) return undefined;
  const checked = profileUpdateSchema.shape[field].safeParse(trimmed);
  return checked.success && typeof checked.data === "string" ? checked.data : undefined;
}

/**
 * The profile changes a Nostr profile brings: only values Gigstr accepts, only where they differ from the
 * member's profile, and never the member's own alias as their payout address (the alias forwards to the
 * payout address, so that would be a loop).
 */
export function profileEditFromMetadata(metadata: ProfileMetadata, user: OwnUser): ProfileEdit {
  const found: Record<CopiedField, string | undefined> = {
    displayName: accepted("displayName", metadata.display_name) ?? accepted("displayName", metadata.name),
    bio: accepted("bio", metadata.about),
    profilePicture: accepted("profilePicture", metadata.picture),
    nip05: accepted("nip05", metadata.nip05),
    lightningAddress: accepted("lightningAddress", metadata.lud16),
  };
  const alias = user.gigstrAliasAddress?.toLowerCase();
  if (alias && found.lightningAddress?.toLowerCase() === alias) found.lightningAddress = undefined;

  const edit: ProfileEdit = {};
  for (const field of Object.keys(found) as CopiedField[]) {
    const value = found[field];
    if (value !== undefined && value !== (user[field] ?? undefined)) edit[field] = value;
  }
  return edit;
}
