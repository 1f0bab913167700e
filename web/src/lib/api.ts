// The API client (SPEC.md §7): credentials always, JSON content type only with a body,
// the bearer session token when one exists. A non-OK answer becomes an Error whose message is
// "<status>: <body text or status text>" (SPEC.md §8), so toasts can show the server's words.

import { noteAnswer, noteNoAnswer } from "./connectivity";
import { takeEarlyRead } from "./early-reads";

export const SESSION_TOKEN_KEY = "sessionToken";

export function getSessionToken(): string | null {
  return localStorage.getItem(SESSION_TOKEN_KEY);
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** The server's human text ({message} or {error}), when the body is our JSON error shape. */
  get serverMessage(): string | undefined {
    try {
      const parsed = JSON.parse(this.body) as { message?: unknown; error?: unknown };
      if (typeof parsed.message === "string") return parsed.message;
      if (typeof parsed.error === "string") return parsed.error;
    } catch {
      /* not JSON */
    }
    return this.body || undefined;
  }
}

/** The D1 bookmark of the newest answer this browser has seen (the Worker's read replicas, worker/d1-sessions.ts). */
export const BOOKMARK_KEY = "d1Bookmark";
const BOOKMARK_HEADER = "x-d1-bookmark";

function lastBookmark(): string | null {
  try {
    return localStorage.getItem(BOOKMARK_KEY);
  } catch {
    return null;
  }
}

/** Keeps the newest bookmark (they sort oldest to newest), so every tab reads what any tab wrote. */
function keepBookmark(res: Response): void {
  const bookmark = res.headers.get(BOOKMARK_HEADER);
  if (!bookmark) return;
  const last = lastBookmark();
  try {
    if (!last || bookmark > last) localStorage.setItem(BOOKMARK_KEY, bookmark);
  } catch {
    /* storage off: each request reads what the nearest copy has */
  }
}

export async function apiRequest(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const token = getSessionToken();
  // The same read already asked for while the app started (lib/early-reads.ts), with this session.
  const early = body === undefined ? takeEarlyRead(method, path, token) : undefined;
  if (early) return early;
  const headers: Record<string, string> = { ...extraHeaders };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const bookmark = lastBookmark();
  if (bookmark) headers[BOOKMARK_HEADER] = bookmark;
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: "include",
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    // No answer at all: the network (or the server) is not there. The offline banner says so.
    noteNoAnswer();
    throw err;
  }
  noteAnswer();
  keepBookmark(res);
  if (!res.ok) {
    const text = await res.text();
    throw new ApiError(res.status, text, `${res.status}: ${text || res.statusText}`);
  }
  return res;
}

/**
 * An answer's JSON as the type the Worker answers it with. The answers' types are defined once, in domain/,
 * and the Worker builds them against the same definitions: this is the one place the web app takes an
 * answer's type on trust, so feature code never casts one.
 */
export async function readJson<T>(res: Response): Promise<T> {
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function apiJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  return readJson<T>(await apiRequest(method, path, body));
}

/** Reads use GET to the path built from the query key's parts joined by a slash (SPEC.md §7). */
export function pathFromKey(key: readonly unknown[]): string {
  return key.filter((part) => part !== undefined && part !== null && typeof part !== "object").join("/");
}

/** What any screen or toast says when a request got no answer at all (no network, the server out of reach). */
export const NO_CONNECTION_TEXT = "Gigstr could not be reached. Check your internet connection and try again.";

/**
 * Whether an error is a request that got no answer: what fetch throws for it is a TypeError whose words
 * depend on the browser ("Failed to fetch" in Chrome, "NetworkError when attempting to fetch resource." in
 * Firefox, "Load failed" in Safari), never something to show a person.
 */
export function isNetworkError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === "AbortError") return false;
  return /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed|Network request failed|fetch failed)\b/i.test(err.message);
}

/** The best human text of an error for a toast or an error screen; a network failure is said in plain words. */
export function errorText(err: unknown, fallback?: string): string {
  if (err instanceof ApiError) return err.serverMessage ?? fallback ?? err.message;
  if (isNetworkError(err)) return NO_CONNECTION_TEXT;
  if (err instanceof Error && err.message) return err.message;
  return fallback ?? "Please try again.";
}
