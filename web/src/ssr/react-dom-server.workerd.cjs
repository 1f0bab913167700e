'use strict';
// react-dom/server for the Worker (package.json "imports" #react-dom-server, decision 030): the same streaming
// renderer as react-dom/server.edge, whose entry also bundles the legacy string renderer (renderToString,
// renderToStaticMarkup, ~105 KB of the Worker's script) that the Worker never calls. The renderer's own build
// is chosen as react-dom's entry chooses it (wrangler defines NODE_ENV: production on deploy).
module.exports =
  process.env.NODE_ENV === 'production'
    ? require('../../../node_modules/react-dom/cjs/react-dom-server.edge.production.js')
    : require('../../../node_modules/react-dom/cjs/react-dom-server.edge.development.js');
