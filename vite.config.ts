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

// The web app is built into dist/web, which the Worker serves as static assets (wrangler.toml [assets]).
export default defineConfig({
  root: "web",
  plugins: [react(), tailwindcss(), securityHeadersFile()],
  build: { outDir: "../dist/web", emptyOutDir: true, sourcemap: false },
  server: { proxy: { "/api": { target: "http://127.0.0.1:8787", ws: true }, "/ws": { target: "ws://127.0.0.1:8787", ws: true } } },
});
