// /.well-known/lnurlp/<alias> and its callback. Answers follow LUD-06: errors are {status: "ERROR", reason}.
import { Hono } from "hono";
import type { AppContext, AppEnv } from "../context";
import { aliasDomainOf } from "./config";
import { LnurlError } from "../lightning/lnurl";
import { AliasError, aliasInvoice, aliasPayRequest } from "../services/alias-lnurl";
import { depsOf } from "./deps";
import { rateLimit } from "../rate-limits";

const lnurlError = (reason: string, status: 400 | 404 | 502 = 400) => ({ body: { status: "ERROR", reason }, status });

function failure(err: unknown) {
  if (err instanceof AliasError) return lnurlError(err.message, 404);
  if (err instanceof LnurlError && err.code === "amount_out_of_range") return lnurlError(err.message);
  if (err instanceof LnurlError) return lnurlError(`The owner's wallet could not be reached: ${err.message}`, 502);
  if (err instanceof RangeError) return lnurlError(err.message);
  throw err;
}

/** This site's own hosts: the one asked, and the alias domain. */
const ownHosts = (c: AppContext) => [new URL(c.req.url).hostname, aliasDomainOf(c)];

export const lnurlpRoutes = new Hono<AppEnv>()
  // Each request fetches the owner's real address (and the callback asks it for an invoice): counted
  // by the client's address, payRequests and callbacks together, and refused as a LUD-06 error.
  .use("*", rateLimit("aliasLnurl", { answer: "lud06" }))
  .get("/:alias", async (c) => {
    const alias = c.req.param("alias");
    const deps = depsOf(c);
    const callback = new URL(`/.well-known/lnurlp/${encodeURIComponent(alias)}/callback`, c.req.url).toString();
    try {
      return c.json(await aliasPayRequest(deps.db, deps.lnurl, alias, callback, ownHosts(c)));
    } catch (err) {
      const e = failure(err);
      return c.json(e.body, e.status);
    }
  })
  .get("/:alias/callback", async (c) => {
    const amount = Number(c.req.query("amount"));
    if (!Number.isSafeInteger(amount) || amount <= 0) return c.json({ status: "ERROR", reason: "amount (msat) is required" }, 400);
    const deps = depsOf(c);
    try {
      return c.json(await aliasInvoice(deps.db, deps.lnurl, c.req.param("alias"), amount, ownHosts(c), c.req.query("comment")));
    } catch (err) {
      const e = failure(err);
      return c.json(e.body, e.status);
    }
  });
