// What the Worker's HTML and the browser's first render must agree on (decision 030). The Worker renders the
// public pages as a visitor sees them, at the time it renders them; the browser hydrates that HTML, so its
// first render must say exactly the same, whatever this browser knows more (a session in localStorage, a tab
// kept in the history entry, the local time zone, the time now). Components read those only through these
// hooks: the server's version on the server and while hydrating, the browser's own from the render after.
import { createContext, startTransition, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from "react";

const subscribeToNothing = () => () => {};
const inBrowser = () => true;
const onServer = () => false;

/**
 * Who reads the page, and so what its controls do (the session in localStorage, the tab kept in the history entry):
 * false on the server and while the browser hydrates the server's HTML; true from the render after hydration, which
 * React makes at once, in the task that ends the hydration (a button must never act for a visitor once it can be
 * clicked by the member), and from the start when the app renders without server HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribeToNothing, inBrowser, onServer);
}

/** True where no server HTML is being taken over: a component rendered on its own (a test) is the browser's. */
const LocalTimeContext = createContext(true);

/** When the server rendered the page (ms since the epoch); null when the app renders without server HTML. */
const RenderedAtContext = createContext<number | null>(null);

/**
 * Around the app, on the server and in the browser alike. With `renderedAt` (the server rendered this page) times
 * are written as the server wrote them (its clock, UTC) until hydrated, then in the reader's clock and time zone.
 * That switch changes only how a time reads, never what a control does, so it is a transition: every card of the
 * browse list writes its age again, and as a transition React does that a few milliseconds at a time, yielding to
 * the browser between them, as the hydration before it did (main.tsx). Read through useHydrated, it was one task
 * of the whole list, in the task that ended the hydration: on a phone, the page's longest (Total Blocking Time).
 */
export function HydrationProvider({ renderedAt, children }: { renderedAt: number | null; children: ReactNode }) {
  const [localTime, setLocalTime] = useState(renderedAt === null);
  useEffect(() => {
    if (!localTime) startTransition(() => setLocalTime(true));
  }, [localTime]);
  return (
    <RenderedAtContext.Provider value={renderedAt}>
      <LocalTimeContext.Provider value={localTime}>{children}</LocalTimeContext.Provider>
    </RenderedAtContext.Provider>
  );
}

/**
 * Whether times are written in the reader's clock and time zone: false on the server and while the browser
 * hydrates its HTML, true from a transition after (HydrationProvider), and from the start without server HTML.
 */
export function useLocalTime(): boolean {
  return useContext(LocalTimeContext);
}

/**
 * The time relative times are measured from ("3 hours ago", "2 days left"): the server's render time on the
 * server and while hydrating its HTML (a cached page may be a minute old), the browser's clock after.
 */
export function useNow(): number {
  const renderedAt = useContext(RenderedAtContext);
  const localTime = useLocalTime();
  return !localTime && renderedAt !== null ? renderedAt : Date.now();
}
