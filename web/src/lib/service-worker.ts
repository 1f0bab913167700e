/**
 * Registers the service worker (web/public/sw.js) that lets the app open offline, in a built app only: the
 * dev server's modules change on every edit and must not be kept. Once the page has loaded, so that it does not
 * compete with the page's own requests; a page the Worker rendered starts the app after its first paint
 * (web/public/after-paint.js), often after `load`, and registers at once.
 */
export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register("/sw.js").catch((err: unknown) => console.error("The offline cache could not be set up", err));
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
