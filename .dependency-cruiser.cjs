// The allowed directions of import (docs/architecture.md). `npm test` runs this; a violation fails it.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      severity: "error",
      comment: "No import loop anywhere, type-only imports included: a loop hides which part depends on which.",
      from: { path: "^(worker|durable-objects|domain|web/src)/" },
      to: { circular: true },
    },
    {
      name: "domain-is-pure",
      severity: "error",
      comment: "domain/ is shared by the Worker and the web app: it imports nothing of ours outside itself.",
      from: { path: "^domain/" },
      to: { path: "^(worker|durable-objects|web|scripts|e2e|bench)/" },
    },
    {
      name: "routes-never-touch-the-database",
      severity: "error",
      comment: "Routes parse, authorise, call a service and shape the answer; the database belongs to services.",
      from: { path: "^worker/routes/", pathNot: "\\.test\\.ts$" },
      to: { path: "^worker/db/" },
    },
    {
      name: "web-never-imports-the-worker",
      severity: "error",
      comment: "The web app talks to the Worker over HTTP only; what both sides share lives in domain/.",
      from: { path: "^web/" },
      to: { path: "^(worker|durable-objects)/" },
    },
    {
      name: "only-the-page-renderer-imports-the-web-app",
      severity: "error",
      comment:
        "The Worker renders public pages with the web app's own components (decision 030), and only worker/pages/ does: " +
        "nothing else of the Worker's, no Durable Object and nothing in domain/ imports web/.",
      from: { path: "^(worker|durable-objects|domain)/", pathNot: "^worker/pages/" },
      to: { path: "^web/" },
    },
    {
      name: "the-page-renderer-uses-the-server-entry-only",
      severity: "error",
      comment:
        "worker/pages/ reaches the web app through `#ssr` alone (package.json imports): its types are web/src/ssr/contract.ts, " +
        "its code web/src/ssr/render.tsx. No other web module is the Worker's to import.",
      from: { path: "^worker/pages/" },
      to: { path: "^web/", pathNot: "^web/src/ssr/contract\\.ts$" },
    },
    {
      name: "the-browser-never-imports-the-server-render",
      severity: "error",
      comment: "web/src/ssr/ is the Worker's entry into the web app (react-dom/server and all): no browser module imports it.",
      from: { path: "^web/", pathNot: "^web/src/ssr/" },
      to: { path: "^web/src/ssr/" },
    },
    {
      name: "durable-objects-never-touch-the-database",
      severity: "error",
      comment: "The GigRoom and the MemberInbox hold sockets and broadcast; reading and storing go through services.",
      from: { path: "^durable-objects/", pathNot: "\\.test\\.ts$" },
      to: { path: "^worker/db/" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "An import that resolves to nothing is a typo the bundler may only find later.",
      from: {},
      to: { couldNotResolve: true, pathNot: "^cloudflare:" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|\\.wrangler)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".tsx", ".js", ".mjs", ".json"] },
    skipAnalysisNotInRules: true,
  },
};
