// What a rendered page reads (web/src/ssr/contract.ts PageSources), straight from the services and as a
// visitor: the same answers the API routes give a request with no session, without a request of its own.
import type { PageSources } from "#ssr";
import { AppError } from "../errors";
import type { Deps } from "../services/deps";
import { listGigs, type GigListQuery } from "../services/gigs";
import { getGig, type Viewer } from "../services/gig-views";
import { portfolioOf } from "../services/portfolio";
import { reviewsOf } from "../services/reviews";
import { findUserByNpub, publicUser } from "../services/users";

const VISITOR: Viewer = { userId: null, isAdmin: false };

/** GET /api/gigs's default page size (routes/gigs.ts listQuery). */
const DEFAULT_PAGE_SIZE = 50;

/** GET /api/gigs's query string as its route reads it, for the parameters the web app's lists send. */
function listQueryOf(params: Record<string, string>): GigListQuery {
  const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  return {
    status: params.status,
    gigType: params.gigType,
    category: params.category,
    posterId: params.posterId,
    minPayment: number(params.minPayment),
    maxPayment: number(params.maxPayment),
    q: params.q,
    limit: number(params.limit) ?? DEFAULT_PAGE_SIZE,
  };
}

/** A 404 (not there, or not for visitors) as null; any other failure is a real one. */
async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof AppError && err.status === 404) return null;
    throw err;
  }
}

/** Each read once per page: the page's link preview asks for the gig or the member the render read. */
function once<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const done = new Map<string, Promise<T>>();
  return (key) => {
    let answer = done.get(key);
    if (!answer) {
      answer = read(key);
      done.set(key, answer);
    }
    return answer;
  };
}

export function visitorSources(deps: Pick<Deps, "db" | "env">): PageSources {
  return {
    gigs: async (params) => {
      const page = await listGigs(deps, listQueryOf(params), VISITOR);
      return { gigs: page.gigs, nextCursor: page.nextCursor };
    },
    gig: once((id) => orNull(() => getGig(deps, id, VISITOR))),
    member: once((npub) => orNull(async () => publicUser(await findUserByNpub(deps, npub)))),
    portfolio: (userId) => portfolioOf(deps, userId),
    reviews: (userId) => reviewsOf(deps, userId),
  };
}
