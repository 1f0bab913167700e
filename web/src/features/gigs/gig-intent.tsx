// The gig the main page was asked to open (SPEC.md §2: /?tab=active&gigId={id}[&openChat=true], used by
// notification clicks). The main page reads the query, stores it here and resets the URL to /; the Active
// tab's details modal or chat takes it and then clears it.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";

export interface GigIntent {
  gigId: string;
  /** Open the chat instead of the details modal. */
  openChat: boolean;
}

interface GigIntentApi {
  intent: GigIntent | null;
  openGig: (intent: GigIntent) => void;
  clearIntent: () => void;
}

const GigIntentContext = createContext<GigIntentApi | null>(null);

export function GigIntentProvider({ children }: { children: ReactNode }) {
  const [intent, setIntent] = useState<GigIntent | null>(null);
  const openGig = useCallback((next: GigIntent) => setIntent(next), []);
  const clearIntent = useCallback(() => setIntent(null), []);
  const api = useMemo(() => ({ intent, openGig, clearIntent }), [intent, openGig, clearIntent]);
  return <GigIntentContext.Provider value={api}>{children}</GigIntentContext.Provider>;
}

export function useGigIntent(): GigIntentApi {
  const api = useContext(GigIntentContext);
  if (!api) throw new Error("useGigIntent must be used within GigIntentProvider");
  return api;
}
