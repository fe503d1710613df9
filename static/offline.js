// Scorer offline: registers the service worker (static/sw.js, served at /sw.js), so
// that the app shell and the last sheet and deal form of each match open without the
// network. What is typed into a deal form, and an entry saved without the network,
// are static/queue.js's (with the deal form's other scripts, forms.js).
(function () {
  "use strict";
  var script = document.currentScript;
  var worker = script && script.getAttribute("data-worker");

  function register() {
    if (!worker || !("serviceWorker" in navigator)) return; // plain HTTP on a local network: none
    var sw = navigator.serviceWorker;
    // ready: the worker is in charge and has this page (it came through the worker,
    // or the worker has fetched and kept it and its files since)
    // (a page that showed a one-time message came through it but was not kept:
    // static/sw.js keeps a copy without it, fetched as a first visit's is)
    var kept = !!sw.controller && !document.querySelector("p.flash");
    var mark = function () { if (sw.controller && kept) document.documentElement.setAttribute("data-offline", "ready"); };
    sw.addEventListener("controllerchange", mark);
    sw.register(worker).then(function () { return sw.ready; }).then(function (reg) {
      if (reg.active) reg.active.postMessage({ words: words(), spare: spare() });
      if (!kept && reg.active) {
        // this page came before the worker took over (a first visit), or was not kept:
        // it hands over its address and the files it needs, so that it opens without
        // the network
        var urls = [location.href];
        document.querySelectorAll("link[rel~=stylesheet], link[rel~=icon], script[src]")
          .forEach(function (el) { urls.push(el.href || el.src); });
        var done = new MessageChannel();
        done.port1.onmessage = function (event) { kept = event.data === "kept"; mark(); };
        reg.active.postMessage({ keep: urls }, [done.port2]);
        return;
      }
      kept = true;
      mark();
    }).catch(function () {});
  }

  // The words of the page the worker draws for a page never kept (static/sw.js), in
  // this page's language.
  function words() {
    var css = document.querySelector("link[rel~=stylesheet]");
    var out = { lang: document.documentElement.lang, css: css ? css.href : "" };
    ["title", "text", "sheet", "back"].forEach(function (k) { out[k] = script.getAttribute("data-offline-" + k); });
    return out;
  }

  // Where a scorer goes from here that a phone cannot reach offline unless it is kept:
  // the next deal's page (a sheet that draws no form of its own) and a form's files.
  function spare() {
    var links = document.querySelectorAll("a[data-keep]");
    if (!links.length) return [];
    var urls = [script.getAttribute("data-forms"), script.getAttribute("data-forms-css")];
    links.forEach(function (a) { urls.push(a.href); });
    return urls.filter(Boolean).map(function (u) { return new URL(u, location.href).href; });
  }

  document.addEventListener("DOMContentLoaded", register);
})();
