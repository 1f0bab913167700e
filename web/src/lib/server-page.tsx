// A page the Worker rendered (decision 030): the data it read travels in the HTML as one JSON script, the browser
// hydrates with it, and a browser holding a session then reads it again as the member.
import { useQueryClient, type DehydratedState } from "@tanstack/react-query";
import { createContext, useContext, useEffect } from "react";
import { getSessionToken } from "./api";

/** The id of the `<script type="application/json">` holding the rendered page. */
export const PAGE_STATE_ID = "gigstr-page";

/** What that script holds: the page's URL, when it was rendered, and its reads as the query cache takes them. */
export interface ServerPage {
  url: string;
  renderedAt: number;
  state: DehydratedState;
}

/**
 * JSON text made fit to sit inside a `<script>` element whatever the data says: every "<" is escaped, so no string
 * in it (a gig titled "</script><script>…") can close the element or open a comment. JSON.parse reads it back
 * unchanged.
 */
export function scriptSafeJson(json: string): string {
  return json.replace(/</g, "\\u003c");
}

/** The page the browser hydrated, if it started from one. */
export const ServerPageContext = createContext<ServerPage | null>(null);

/** Pages already read again: React's development build mounts every effect twice. */
const readAgain = new WeakSet<ServerPage>();

/**
 * What the Worker read is the visitor's view. In a browser holding a session, once the page has hydrated, its
 * reads are asked for again as the member (their own unpaid gig, what only the parties see); a visitor's browser
 * asks for nothing again. Rendered next to the page inside its Suspense boundary (routes/root-layout.tsx), so it
 * mounts only once the page itself has hydrated: a read started earlier would change what the page draws while
 * React still compares it with the server's HTML.
 */
export function ReadAgainAsMember() {
  const page = useContext(ServerPageContext);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!page || readAgain.has(page) || getSessionToken() === null) return;
    readAgain.add(page);
    const fromServer = new Set(page.state.queries.map((q) => q.queryHash));
    void queryClient.invalidateQueries({ predicate: (query) => fromServer.has(query.queryHash) });
  }, [page, queryClient]);
  return null;
}
