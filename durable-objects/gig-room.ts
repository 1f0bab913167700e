// GigRoom: one per gig. Holds the gig's chat sockets and watches its open funding invoice.
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../worker/env";

export class GigRoom extends DurableObject<Env> {}
