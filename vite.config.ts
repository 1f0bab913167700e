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

// The web app is built into dist/web, which the Worker serves as static assets (wrangler.toml [assets]).
export default defineConfig({
  root: "web",
  plugins: [react(), tailwindcss(), securityHeadersFile()],
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    sourcemap: false,
    // React, the router and TanStack Query load with every first page: one file, compressed as one, instead of the
    // bundler's split into a chunk per set of pages that share them (react-router's alone was a 14 KB file).
    // The top bar's member menus and robot avatar (lib/start-early-reads.ts loads them after the app's first task)
    // are not on any first paint's path: their own imports are found by the browser as it loads them, not named by
    // preload links added all at once, which on a phone held the main thread for a long task (Total Blocking Time).
    modulePreload: { resolveDependencies: (file, deps) => (MEMBER_MENUS.test(file) ? [] : deps) },
    rolldownOptions: { output: { advancedChunks: { groups: [{ name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]/ }] } } },
  },
  server: { proxy: { "/api": { target: "http://127.0.0.1:8787", ws: true }, "/ws": { target: "ws://127.0.0.1:8787", ws: true } } },
});
