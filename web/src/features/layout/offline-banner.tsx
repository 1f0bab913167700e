// "You are offline": shown while the browser has no network or the last request got no answer (the service
// worker still opens the app, and what was read stays on screen). Meanwhile the API is asked again every few
// seconds; once it answers, the banner goes and whatever failed meanwhile is read again.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { apiRequest } from "../../lib/api";
import { isOffline, subscribeConnectivity } from "../../lib/connectivity";

/** How often the API is asked whether it is back, while offline. */
export const OFFLINE_RETRY_MS = 5_000;

export function useOffline(): boolean {
  return useSyncExternalStore(subscribeConnectivity, isOffline, () => false);
}

export function OfflineBanner() {
  const offline = useOffline();
  const queryClient = useQueryClient();
  const wasOffline = useRef(offline);

  useEffect(() => {
    if (wasOffline.current && !offline) void queryClient.refetchQueries({ type: "active", predicate: (q) => q.state.status === "error" });
    wasOffline.current = offline;
    if (!offline) return;
    const timer = setInterval(() => void apiRequest("GET", "/api/config").catch(() => undefined), OFFLINE_RETRY_MS);
    return () => clearInterval(timer);
  }, [offline, queryClient]);

  if (!offline) return null;
  return (
    <div role="status" className="bg-stone-900 px-4 py-2 text-center text-sm text-white">
      You are offline. Gigstr will try again when you are back online.
    </div>
  );
}
