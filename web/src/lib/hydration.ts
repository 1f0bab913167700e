// What the Worker's HTML and the browser's first render must agree on (decision 030). The Worker renders the
// public pages as a visitor sees them, at the time it renders them; the browser hydrates that HTML, so its
// first render must say exactly the same, whatever this browser knows more (a session in localStorage, a tab
// kept in the history entry, the local time zone, the time now). Components read those only through these
// hooks: the server's version on the server and while hydrating, the browser's own from the render after.
import { createContext, useContext, useSyncExternalStore } from "react";

const subscribeToNothing = () => () => {};
const inBrowser = () => true;
const onServer = () => false;

/**
 * False on the server and while the browser hydrates the server's HTML; true from the render after hydration
 * (React renders again at once when it differs), and from the start when the app renders without server HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribeToNothing, inBrowser, onServer);
}

/** When the server rendered the page (ms since the epoch); null when the app renders without server HTML. */
export const RenderedAtContext = createContext<number | null>(null);

/**
 * The time relative times are measured from ("3 hours ago", "2 days left"): the server's render time on the
 * server and while hydrating its HTML (a cached page may be a minute old), the browser's clock after.
 */
export function useNow(): number {
  const renderedAt = useContext(RenderedAtContext);
  const hydrated = useHydrated();
  return !hydrated && renderedAt !== null ? renderedAt : Date.now();
}
