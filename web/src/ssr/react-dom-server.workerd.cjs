'use strict';
// react-dom/server for the Worker (package.json "imports" #react-dom-server, decision 030): the streaming renderer
// without the legacy string renderer (renderToString, renderToStaticMarkup, ~105 KB of the Worker's script) that
// react-dom's entries bundle beside it and the Worker never calls. Its Node.js build (the runtime has node:util,
// node:crypto, node:async_hooks and node:stream): the same renderToReadableStream and the same markup as the edge
// build, but it keeps the page's text as strings until it writes them into its output buffer, where the edge
// build encodes every attribute and text into a new Uint8Array as it renders it, some 2,800 of them for the home
// page's 24 cards ("Cheaper cards" in decision 030). The renderer's own build is chosen as react-dom's entry
// chooses it (wrangler defines NODE_ENV: production on deploy).
module.exports =
  process.env.NODE_ENV === 'production'
    ? require('../../../node_modules/react-dom/cjs/react-dom-server.node.production.js')
    : require('../../../node_modules/react-dom/cjs/react-dom-server.node.development.js');
