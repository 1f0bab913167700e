// Loads the web app once the page the Worker rendered has been painted (decision 030, "The script after the
// first paint"). Such a page shows everything from its HTML; the app only takes it over (hydrates it). Asked for
// in the HTML's head, the app's 130 KB of script shared a phone's link with the page and ran before its first
// paint. This file is the only script the page names (worker/pages/document.ts): `data-app` holds the app's
// module script, then the modules it imports at once (its preloads), in the order the build listed them.
(function () {
  var urls = (document.currentScript && document.currentScript.getAttribute("data-app") || "").split(" ").filter(Boolean);
  if (!urls.length) return;
  var started = false;
  function load() {
    if (started) return;
    started = true;
    var app = document.createElement("script");
    app.type = "module";
    app.crossOrigin = "";
    app.src = urls[0];
    document.head.appendChild(app);
    // Each request a page starts costs its task some milliseconds on a slow phone (more with the browser's tools
    // open): the preloads go one task each, so that none holds the page for all eleven.
    urls.slice(1).forEach(function (url) {
      setTimeout(function () {
        var preload = document.createElement("link");
        preload.rel = "modulepreload";
        preload.crossOrigin = "";
        preload.href = url;
        document.head.appendChild(preload);
      }, 0);
    });
  }
  // A page out of sight paints nothing: it loads at once, or as soon as it is hidden before its paint.
  if (document.visibilityState !== "visible") return load();
  document.addEventListener("visibilitychange", load, { once: true });
  // Once the browser reports the page's first contentful paint (on screen, not only drawn: an animation frame
  // can come before it is shown). Without that report, after the next two frames. And at the latest after 3 s.
  var supported = typeof PerformanceObserver === "function" && (PerformanceObserver.supportedEntryTypes || []).indexOf("paint") >= 0;
  if (supported) {
    new PerformanceObserver(function (list, observer) {
      if (list.getEntriesByName("first-contentful-paint").length) {
        observer.disconnect();
        setTimeout(load, 0);
      }
    }).observe({ type: "paint", buffered: true });
  } else {
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        setTimeout(load, 0);
      });
    });
  }
  setTimeout(load, 3000);
})();
