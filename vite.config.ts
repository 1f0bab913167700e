import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { staticAssetHeadersFile } from "./worker/security-policy";

/** Static assets skip the Worker, so their headers come from a `_headers` file written from the Worker's own policy. */
function securityHeadersFile(): Plugin {
  return {
    name: "gigstr-security-headers",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "_headers", source: staticAssetHeadersFile() });
    },
  };
}

/** The chunks of web/src/features/layout/user-menu.tsx, notifications-menu.tsx and lib/robot-avatar.ts. */
const MEMBER_MENUS = /(^|\/)(user-menu|notifications-menu|robot-avatar)-[\w-]+\.js$/;

/** The screens (lazy routes, web/src/app.tsx) of the pages the Worker renders besides `/`: a gig's, a member's, not found. */
const RENDERED_PAGE_SCREEN = /(^|\/)web\/src\/routes\/(gig|user|not-found)\.tsx$/;
/** Their chunks, named `page-…` (chunkFileNames below): domain/gig.ts has a chunk named `gig` too. */
const RENDERED_PAGE_SCREEN_CHUNK = /(^|\/)page-[\w-]+\.js$/;
const noPreloadLinks = (file: string) => MEMBER_MENUS.test(file) || RENDERED_PAGE_SCREEN_CHUNK.test(file);

// The web app is built into dist/web, which the Worker serves as static assets (wrangler.toml [assets]).
export default defineConfig({
  root: "web",
  plugins: [react(), tailwindcss(), securityHeadersFile()],
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    sourcemap: false,
    // React, the router and TanStack Query load with every first page: one file, compressed as one, instead of the
    // bundler's split into a chunk per set of pages that share them (react-router's alone was a 14 KB file). With them
    // lib/lazy-part.ts, React.lazy's wrapper (a file of its own was 0.24 KB more of the first page).
    // The top bar's member menus and robot avatar (lib/start-early-reads.ts loads them after the app's first task)
    // are not on any first paint's path: their own imports are found by the browser as it loads them, not named by
    // preload links added all at once, which on a phone held the main thread for a long task (Total Blocking Time).
    // So do the screens of the pages that paint from their HTML (decision 030): React asks for one as it hydrates
    // the page, after its paint, and the links for its imports (14 on a gig's page) were 20-26 ms of that task in
    // Lighthouse's traces, some 80-100 ms on its slowed phone.
    modulePreload: { resolveDependencies: (file, deps) => (noPreloadLinks(file) ? [] : deps) },
    rolldownOptions: {
      output: {
        chunkFileNames: (chunk) => (chunk.facadeModuleId && RENDERED_PAGE_SCREEN.test(chunk.facadeModuleId) ? "assets/page-[name]-[hash].js" : "assets/[name]-[hash].js"),
        advancedChunks: { groups: [{ name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]|web[\\/]src[\\/]lib[\\/]lazy-part\.ts$/ }] },
      },
    },
  },
  server: { proxy: { "/api": { target: "http://127.0.0.1:8787", ws: true }, "/ws": { target: "ws://127.0.0.1:8787", ws: true } } },
});
