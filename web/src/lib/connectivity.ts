// Whether the API can be reached: the browser says it is offline, or the last request found no network (a
// fetch that threw instead of answering). Any answer, even an error status, means the network is back.
let unreachable = false;
const listeners = new Set<() => void>();

function set(value: boolean): void {
  if (unreachable === value) return;
  unreachable = value;
  for (const listener of listeners) listener();
}

/** A request got no answer at all (no network, the server gone). */
export const noteNoAnswer = () => set(true);
/** A request got an answer: the network is there. */
export const noteAnswer = () => set(false);

export function isOffline(): boolean {
  return unreachable || (typeof navigator !== "undefined" && navigator.onLine === false);
}

export function subscribeConnectivity(onChange: () => void): () => void {
  listeners.add(onChange);
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
}
