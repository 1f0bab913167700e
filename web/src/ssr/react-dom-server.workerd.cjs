'use strict';
// react-dom/server for the Worker (package.json "imports" #react-dom-server, decision 030): the string renderer
// (renderToString) alone, without the streaming renderer that react-dom's entries bundle beside it and the Worker
// never calls. Its Node.js build: it builds the page as one string, where the streaming builds write every piece of
// it into an output buffer and hand it out as a stream of chunks ("A string, not a stream" in decision 030). It
// needs no Node.js module. The renderer's own build is chosen as react-dom's entry chooses it (wrangler defines
// NODE_ENV: production on deploy).
module.exports =
  process.env.NODE_ENV === 'production'
    ? require('../../../node_modules/react-dom/cjs/react-dom-server-legacy.node.production.js')
    : require('../../../node_modules/react-dom/cjs/react-dom-server-legacy.node.development.js');
