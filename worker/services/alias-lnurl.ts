// The alias Lightning address (LUD-16), non-custodial (DESIGN.md §5): `alias@<our domain>` answers
// with the owner's own payRequest metadata and our callback; the callback asks the owner's provider
// for an invoice (checked like a payout's) and passes it through. No sat touches the platform.
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../context";
import { users } from "../db/schema";
import { requestInvoiceMsat, resolvePayDestination, type LnurlClientOptions } from "../lightning/lnurl";

export class AliasError extends Error {}

async function ownerDestination(db: Db, alias: string): Promise<string> {
  const owner = await db.query.users.findFirst({ where: and(eq(users.gigstrAlias, alias.toLowerCase()), isNull(users.deletedAt)) });
  if (!owner?.lightningAddress) throw new AliasError("Unknown alias");
  return owner.lightningAddress;
}

/** The payRequest for `alias@domain`: the owner's limits and metadata, our callback. */
export async function aliasPayRequest(db: Db, lnurl: LnurlClientOptions, alias: string, callbackUrl: string) {
  const destination = await ownerDestination(db, alias);
  const theirs = await resolvePayDestination(destination, lnurl);
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
export async function aliasInvoice(db: Db, lnurl: LnurlClientOptions, alias: string, amountMsat: number, comment?: string) {
  const destination = await ownerDestination(db, alias);
  const theirs = await resolvePayDestination(destination, lnurl);
  const invoice = await requestInvoiceMsat(theirs, amountMsat, lnurl, { comment });
  return { pr: invoice.bolt11, routes: [] as unknown[] };
}
