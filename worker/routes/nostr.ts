// Gigstr on Nostr, over HTTP: NIP-05 names (`/.well-known/nostr.json?name=`), which any web client may read
// (CORS `*`, as NIP-05 asks), answered from the edge cache for visitors like the other public reads.
import { Hono } from "hono";
import { cors } from "hono/cors";
import type { AppEnv } from "../context";
import { nip05Names } from "../services/nip05";
import { depsOf } from "./deps";

const anyOrigin = cors({ origin: "*", allowMethods: ["GET", "OPTIONS"] });

export const nip05Routes = new Hono<AppEnv>()
  // The preflight a web client's read may send, and the read itself: both open to every origin.
  .options("/", anyOrigin)
  .get("/", anyOrigin, async (c) => c.json(await nip05Names(depsOf(c), c.req.query("name"))));
