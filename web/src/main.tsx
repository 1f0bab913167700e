import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { registerServiceWorker } from "./lib/service-worker";
import "./styles.css";

if (import.meta.env.PROD) registerServiceWorker();

// The first render as a transition: React yields to the browser every few milliseconds instead of holding the
// main thread for the whole tree (Lighthouse's Total Blocking Time on a phone).
const root = createRoot(document.getElementById("root")!);
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
