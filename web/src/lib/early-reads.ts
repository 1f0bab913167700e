// Reads a signed-in member's screen will make, started as soon as the app's script runs rather than after the
// page has hydrated and the session has been checked: on the Active tab the member's gigs wait for nothing but
// the session, so on a phone the screen draws one round trip sooner (issue 29, the Active screen's Lighthouse
// budget). Each read is the very request the screen makes (apiRequest, same session and headers); the screen's
// first request for that path takes it instead of asking again, once, and only with the session it was made with.

interface EarlyRead {
  token: string;
  startedAt: number;
  answer: Promise<Response>;
}

/** A read not taken within this long is dropped: the screen then asks afresh (its data would be stale). */
const KEPT_MS = 15_000;

const reads = new Map<string, EarlyRead>();

/** Starts a GET of `path` with the member's session `token`; `request` is the app's own request function. */
export function startEarlyRead(path: string, token: string, request: () => Promise<Response>): void {
  const answer = request();
  // Nobody may ever take it: a failure is then the screen's own request's to report, not an unhandled rejection.
  answer.catch(() => undefined);
  reads.set(path, { token, startedAt: Date.now(), answer });
}

/** The early answer to a GET of `path` made with `token`, if there is one: it is handed out once. */
export function takeEarlyRead(method: string, path: string, token: string | null): Promise<Response> | undefined {
  if (method !== "GET" || reads.size === 0) return undefined;
  const read = reads.get(path);
  if (!read) return undefined;
  reads.delete(path);
  if (read.token !== token || Date.now() - read.startedAt > KEPT_MS) return undefined;
  return read.answer;
}
