// The alias Lightning address (LUD-16), non-custodial (DESIGN.md §5): `alias@<our domain>` answers
// with the owner's own payRequest metadata and our callback; the callback asks the owner's provider
// for an invoice (checked like a payout's) and passes it through. No sat touches the platform.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { LnurlError, destinationHost, isOwnHost, requestInvoiceMsat, resolvePayDestination, type LnurlClientOptions, type PayRequest } from "../lightning/lnurl";

export class AliasError extends Error {}

/**
 * The owner's own address. One on this very site (set before that was refused, or through the LNURL
 * form) is never fetched: it would have the Worker call itself, possibly in a loop.
 */
async function ownerDestination(db: Db, alias: string, ownHosts: readonly string[]): Promise<string> {
  const owner = await db.query.users.findFirst({ where: and(eq(users.gigstrAlias, alias.toLowerCase()), isNull(users.deletedAt)) });
  if (!owner?.lightningAddress) throw new AliasError("Unknown alias");
  const host = destinationHost(owner.lightningAddress);
  if (host && isOwnHost(host, ownHosts)) {
    throw new AliasError("This alias forwards to another address on this site, which is not allowed");
  }
  return owner.lightningAddress;
}

/**
 * The owner's payRequest, by a client told this site's hosts: an address elsewhere whose payRequest
 * sends payments back to an alias here (its callback is ours) is the same loop one step later, and is
 * refused the same way, before our own callback is ever fetched.
 */
async function ownerPayRequest(destination: string, lnurl: LnurlClientOptions, ownHosts: readonly string[]): Promise<PayRequest> {
  try {
    return await resolvePayDestination(destination, { ...lnurl, ownHosts: [...(lnurl.ownHosts ?? []), ...ownHosts] });
  } catch (err) {
    if (err instanceof LnurlError && err.code === "alias_loop") {
      throw new AliasError("This alias's wallet sends payments back to an alias on this site, which is not allowed");
    }
    throw err;
  }
}

/** The payRequest for `alias@domain`: the owner's limits and metadata, our callback. */
export async function aliasPayRequest(db: Db, lnurl: LnurlClientOptions, alias: string, callbackUrl: string, ownHosts: readonly string[]) {
  const destination = await ownerDestination(db, alias, ownHosts);
  const theirs = await ownerPayRequest(destination, lnurl, ownHosts);
  return {
    tag: "payRequest",
    callback: callbackUrl,
    minSendable: theirs.minSendable,
    maxSendable: theirs.maxSendable,
    metadata: theirs.metadata,
    commentAllowed: theirs.commentAllowed,
  };
}

/** The callback: an invoice from the owner's provider, verified for amount and description hash. */
export async function aliasInvoice(
  db: Db,
  lnurl: LnurlClientOptions,
  alias: string,
  amountMsat: number,
  ownHosts: readonly string[],
  comment?: string,
) {
  const destination = await ownerDestination(db, alias, ownHosts);
  const theirs = await ownerPayRequest(destination, lnurl, ownHosts);
  const invoice = await requestInvoiceMsat(theirs, amountMsat, lnurl, { comment });
  return { pr: invoice.bolt11, routes: [] as unknown[] };
}
