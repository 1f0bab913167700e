// Is this a phone? A screen narrower than Tailwind's `sm` (640 px, where the app switches to its phone layout),
// or a touch screen as the main pointer (a phone held sideways is wider than 640 px). Both are facts the browser
// reports itself, unlike a user-agent guess. The login dialog picks its first tab by it, the payment dialog its
// order (on a phone the wallet is likely on this device).
import { useSyncExternalStore } from "react";

export const PHONE_QUERY = "(max-width: 639px), (pointer: coarse)";

export function isPhone(): boolean {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" && window.matchMedia(PHONE_QUERY).matches;
}

function subscribeToPhone(onChange: () => void) {
  if (typeof window === "undefined" || typeof window.matchMedia !== "function") return () => {};
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener?.("change", onChange);
  return () => query.removeEventListener?.("change", onChange);
}

/** isPhone(), following the screen as it turns or resizes. */
export function useIsPhone(): boolean {
  return useSyncExternalStore(subscribeToPhone, isPhone, () => false);
}
