// Profile rules shared by the worker and the web form (SPEC.md §5 "Lightning address", "Alias", "Profile").
import { z } from "./zod";

export const INVALID_LIGHTNING_ADDRESS =
  "Invalid Lightning Address - Please enter a valid Lightning address (not a regular email) or LNURL.";

/** Email providers that do not speak LNURL: an address there is almost always a mistyped email. */
export const EMAIL_ONLY_DOMAINS = ["gmail.com", "yahoo.com", "hotmail.com", "outlook.com", "icloud.com", "protonmail.com"];

const LNURL = /^lnurl[a-z0-9]+$/i;
const ADDRESS = /^[a-z0-9._-]+@([a-z0-9-]+\.)+[a-z]{2,}$/i;

export function isValidLightningAddress(value: string): boolean {
  if (/^lnurl/i.test(value)) return value.length > 10 && LNURL.test(value);
  if (!ADDRESS.test(value)) return false;
  const domain = value.split("@")[1]!.toLowerCase();
  return !EMAIL_ONLY_DOMAINS.includes(domain);
}

export const ALIAS_MIN_LENGTH = 3;
export const ALIAS_MAX_LENGTH = 64;
export const ALIAS_TOO_SHORT = "Alias must be at least 3 characters";
export const ALIAS_INVALID = "Alias may only contain a-z, 0-9, dot, underscore and hyphen";

/** What the alias input does to what is typed: lower-case, and drop characters outside a-z 0-9 . _ - */
export function normaliseAlias(input: string): string {
  return input.toLowerCase().replace(/[^a-z0-9._-]/g, "");
}

export const aliasSchema = z
  .string()
  .min(ALIAS_MIN_LENGTH, ALIAS_TOO_SHORT)
  .max(ALIAS_MAX_LENGTH, `Alias must be at most ${ALIAS_MAX_LENGTH} characters`)
  .regex(/^[a-z0-9._-]+$/, ALIAS_INVALID);

/** Empty strings mean "absent" (SPEC.md §5 Profile). */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional();

/**
 * A NIP-05 name on the alias domain is this site's own word about whose key it is (worker/services/nip05.ts
 * answers it): a member's is their alias there, and `_` (or the bare domain) is the platform's. So a member may
 * show one only when it is their own alias; anything else there would put their key under another member's name
 * or the platform's (decision 043). Names on other domains are the member's to claim (SPEC.md §2 shows whatever
 * they set). Answers why the name is refused, or null.
 */
export function nip05OnAliasDomainProblem(nip05: string, alias: string | null, aliasDomain: string): string | null {
  const at = nip05.lastIndexOf("@");
  const [name, domain] = at === -1 ? ["_", nip05] : [nip05.slice(0, at), nip05.slice(at + 1)];
  const domainLower = aliasDomain.toLowerCase();
  if (domain.toLowerCase() !== domainLower || (alias !== null && name.toLowerCase() === alias)) return null;
  return alias
    ? `Your NIP-05 identifier on ${domainLower} is your alias, ${alias}@${domainLower}`
    : `NIP-05 identifiers on ${domainLower} are Gigstr aliases: claim yours first, then use it here`;
}

export const PICTURE_URL_INVALID = "Profile picture must be an http(s) URL";

export const profileUpdateSchema = z
  .object({
    displayName: optionalText(100, "Display name"),
    bio: optionalText(1000, "Bio"),
    nip05: optionalText(200, "NIP-05 identifier").refine(
      (v) => v == null || /^[a-z0-9._-]+@([a-z0-9-]+\.)+[a-z]{2,}$/i.test(v) || /^([a-z0-9-]+\.)+[a-z]{2,}$/i.test(v),
      "NIP-05 identifier must look like name@domain",
    ),
    profilePicture: optionalText(2000, "Profile picture URL").refine((v) => {
      if (v == null) return true;
      try {
        const url = new URL(v);
        return url.protocol === "https:" || url.protocol === "http:";
      } catch {
        return false;
      }
    }, PICTURE_URL_INVALID),
    lightningAddress: optionalText(320, "Lightning address").refine(
      (v) => v == null || isValidLightningAddress(v),
      INVALID_LIGHTNING_ADDRESS,
    ),
    gigstrAlias: z
      .string()
      .trim()
      .transform((v) => v.toLowerCase())
      .pipe(aliasSchema)
      .optional(),
    username: z.string().optional(),
    /** "Send my notifications as Nostr DMs" (docs/decisions/026): a switch, nothing else. */
    nostrDmNotifications: z.boolean().optional(),
  })
  .strict();

export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** The fields anyone may see of a user (SPEC.md §3 User). */
export interface PublicUser {
  id: string;
  username: string;
  displayName: string | null;
  profilePicture: string | null;
  picture: string | null;
  bio: string | null;
  nip05: string | null;
  nostrPubkey: string | null;
  gigstrAlias: string | null;
  completedGigs: number;
  successfulGigs: number;
  successRate: number;
  averageRating: number;
  totalReviews: number;
  createdAt: string;
}

/** The signed-in user's own view adds what only they should see. */
export interface OwnUser extends PublicUser {
  lightningAddress: string | null;
  /** `alias@<alias domain>` once an alias is claimed. */
  gigstrAliasAddress: string | null;
  /** Each notification also arrives as a private Nostr message (NIP-17) from Gigstr's key; off by default. */
  nostrDmNotifications: boolean;
}
