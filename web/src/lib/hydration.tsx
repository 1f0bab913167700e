// What the Worker's HTML and the browser's first render must agree on (decision 030). The Worker renders the
// public pages as a visitor sees them, at the time it renders them; the browser hydrates that HTML, so its
// first render must say exactly the same, whatever this browser knows more (a session in localStorage, a tab
// kept in the history entry, the local time zone, the time now). Components read those only through these
// hooks: the server's version on the server and while hydrating, the browser's own from the render after.
import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from "react";

/** True where no server HTML is being taken over: a component rendered on its own (a test) is the browser's. */
const HydratedContext = createContext(true);

/** When the server rendered the page (ms since the epoch); null when the app renders without server HTML. */
const RenderedAtContext = createContext<number | null>(null);

/**
 * Around the app, on the server and in the browser alike. With `renderedAt` (the server rendered this page) the
 * app starts as the server drew it, and switches to the browser's view once hydrated. The switch is a transition:
 * every component that reads the browser's view (the session, the local clock and dates, a history entry's tab)
 * draws again, and as a transition React does that a few milliseconds at a time, yielding to the browser between
 * them, as the hydration before it did (main.tsx). A store read with useSyncExternalStore switched in the same
 * task that ended the hydration, in one piece: on a phone, the page's longest task (Total Blocking Time).
 */
export function HydrationProvider({ renderedAt, children }: { renderedAt: number | null; children: ReactNode }) {
  const [hydrated, setHydrated] = useState(renderedAt === null);
  useEffect(() => {
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return (
    <RenderedAtContext.Provider value={renderedAt}>
      <HydratedContext.Provider value={hydrated}>{children}</HydratedContext.Provider>
    </RenderedAtContext.Provider>
  );
}

/**
 * False on the server and while the browser hydrates the server's HTML; true from the (transition) render after
 * hydration, and from the start when the app renders without server HTML.
 */
export function useHydrated(): boolean {
  return useContext(HydratedContext);
}

/**
 * The time relative times are measured from ("3 hours ago", "2 days left"): the server's render time on the
 * server and while hydrating its HTML (a cached page may be a minute old), the browser's clock after.
 */
export function useNow(): number {
  const renderedAt = useContext(RenderedAtContext);
  const hydrated = useHydrated();
  return !hydrated && renderedAt !== null ? renderedAt : Date.now();
}
