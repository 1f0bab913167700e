// Builds the web bundle with the project's vite.config.ts (the same `vite build` as `npm start`) and
// writes, for every emitted chunk, the modules it holds: the proof of which packages a chunk carries.
// Usage: node bench/lib/build-web.mjs <out.json>   (run with the project's root as cwd)
import { writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "vite";

const out = process.argv[2];
if (!out) throw new Error("usage: build-web.mjs <out.json>");
const root = process.cwd();

/** Reports each JS chunk's module ids, relative to the repo, once the bundle is generated. */
function chunkModules() {
  const chunks = {};
  return {
    name: "gigstr-bench-chunk-modules",
    generateBundle(_options, bundle) {
      for (const [fileName, item] of Object.entries(bundle)) {
        if (item.type !== "chunk") continue;
        const ids = item.moduleIds ?? Object.keys(item.modules ?? {});
        chunks[fileName] = {
          isEntry: item.isEntry,
          isDynamicEntry: item.isDynamicEntry,
          imports: item.imports,
          dynamicImports: item.dynamicImports,
          modules: ids.map((id) => path.relative(root, id.replace(/^\0/, "")).split(path.sep).join("/")),
        };
      }
    },
    closeBundle() {
      writeFileSync(out, JSON.stringify(chunks, null, 1));
    },
  };
}

await build({
  configFile: path.join(root, "vite.config.ts"),
  logLevel: "warn",
  plugins: [chunkModules()],
});
