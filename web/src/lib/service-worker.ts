/**
 * Registers the service worker (web/public/sw.js) that lets the app open offline, in a built app only: the
 * dev server's modules change on every edit and must not be kept.
 */
export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch((err: unknown) => console.error("The offline cache could not be set up", err));
  });
}
