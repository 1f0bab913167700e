// NIP-05 names: a member with an alias is `alias@<ALIAS_DOMAIN>` (`GET /.well-known/nostr.json?name=alias`),
// and `_@<ALIAS_DOMAIN>` is the platform's own key (the author of the gig listings). An unknown name, a deleted
// account, a member without a key, or no name at all: no names. Members are never listed in bulk.
import { and, eq, isNull } from "drizzle-orm";
import { ALIAS_MAX_LENGTH } from "../../domain/profile";
import { users } from "../db/schema";
import { nostrSettings } from "./nostr-settings";
import type { Deps } from "./deps";

export interface Nip05Answer {
  names: Record<string, string>;
  relays?: Record<string, string[]>;
}

/** NIP-05 local parts are a-z 0-9 - _ . (case-insensitive); an alias is the same, lower-cased. */
const NAME = /^[a-z0-9._-]+$/;

export async function nip05Names(deps: Pick<Deps, "db" | "env">, requested: string | undefined): Promise<Nip05Answer> {
  const name = (requested ?? "").trim().toLowerCase();
  if (name === "_") {
    const nostr = nostrSettings(deps.env);
    return nostr.pubkey ? { names: { _: nostr.pubkey }, relays: { [nostr.pubkey]: nostr.relays } } : { names: {} };
  }
  if (!NAME.test(name) || name.length > ALIAS_MAX_LENGTH) return { names: {} };
  const member = await deps.db
    .select({ pubkey: users.nostrPubkey })
    .from(users)
    .where(and(eq(users.gigstrAlias, name), isNull(users.deletedAt)))
    .get();
  return member?.pubkey ? { names: { [name]: member.pubkey } } : { names: {} };
}
