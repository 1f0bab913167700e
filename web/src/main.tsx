// First: a member's first reads go out before the rest of the app is evaluated (lib/start-early-reads.ts).
import { openedMemberTab } from "./lib/start-early-reads";
import { startTransition, StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./app";
import { readMemberTab } from "./features/layout/member-tab-reads";
import { createQueryClient } from "./lib/query-client";
import { PAGE_STATE_ID, type ServerPage } from "./lib/server-page";
import { registerServiceWorker } from "./lib/service-worker";
import "./styles.css";

if (import.meta.env.PROD) registerServiceWorker();

/** The page the Worker rendered into this document (decision 030), if it is the one the address names. */
function serverPage(root: HTMLElement): ServerPage | undefined {
  const script = document.getElementById(PAGE_STATE_ID);
  if (!script?.textContent || !root.hasChildNodes()) return undefined;
  try {
    const page = JSON.parse(script.textContent) as ServerPage;
    return page.url === location.pathname + location.search ? page : undefined;
  } catch {
    return undefined;
  }
}

const rootElement = document.getElementById("root")!;
const page = serverPage(rootElement);
if (page && !openedMemberTab) {
  // The Worker's HTML already shows the page: React takes it over with the same data, asking for none again.
  // As a transition, so React hydrates a few milliseconds at a time and yields to the browser between them
  // (as Next.js does) instead of holding the main thread for the whole page: a phone's Total Blocking Time.
  // A click on a part not yet hydrated makes React hydrate that part first.
  startTransition(() => {
    hydrateRoot(
      rootElement,
      <StrictMode>
        <App page={page} />
      </StrictMode>,
    );
  });
} else {
  // The plain shell (another route, or the service worker's offline copy), or a member's own tab whose HTML is
  // its placeholder (the same placeholder this render draws first): the first render as a transition,
  // so React yields to the browser every few milliseconds instead of holding the main thread for the whole
  // tree (Lighthouse's Total Blocking Time on a phone). It replaces whatever the root held.
  const root = createRoot(rootElement);
  const client = createQueryClient();
  const draw = () =>
    startTransition(() =>
      root.render(
        <StrictMode>
          <App client={client} />
        </StrictMode>,
      ),
    );
  // A member's own tab is drawn once its reads are in (features/layout/member-tab-reads.ts).
  if (openedMemberTab) void readMemberTab(client, openedMemberTab).then(draw);
  else draw();
}
