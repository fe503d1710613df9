// Scorer's service worker (served at /sw.js so that its scope is the whole site).
// Network first for every page and every file of the app; the last answer of each is
// kept for when the network is gone: the app shell (CSS, scripts, icons, manifest)
// and the last sheet and deal form of each match opened (a scorer's sheet hands over
// its next deal's page as it opens: entered offline from the first look). Any other
// page tapped offline gets a page in the phone's language that says so. Writes never pass through
// here: a deal saved without the network waits in the page (static/queue.js).
"use strict";

var CACHE = "scorer-v1";
var BASE = new URL("./", self.location).pathname; // "/" (or the prefix the app is served under)
var STATIC = BASE + "static/";

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// An answer worth keeping: a whole page or file of this site, not a download.
// (A page that showed a one-time message, "Deal 3 saved.", is not the copy to open
// offline: it would say it again; the next visit's copy is kept.)
function keepable(response) {
  return response && response.status === 200 && response.type === "basic" && !response.redirected &&
    !/attachment/i.test(response.headers.get("Content-Disposition") || "") &&
    !response.headers.get("Scorer-Flash");
}

function put(key, response) {
  if (!keepable(response)) return Promise.resolve();
  var copy = response.clone();
  return caches.open(CACHE).then(function (cache) { return cache.put(key, copy); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return; // writes go to the network as they are
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  var page = request.mode === "navigate";
  if (!page && url.pathname.indexOf(STATIC) !== 0) return; // the API, the live sheet's polls
  event.respondWith(
    fetch(request).then(function (response) {
      event.waitUntil(put(request, response));
      return response;
    }, function () {
      return caches.match(request, { ignoreVary: true }).then(function (kept) {
        return kept || (page ? offline(request.referrer) : Response.error());
      });
    })
  );
});

// A page this phone never kept, tapped without the network (the rules, the history, the
// home page): a page in the phone's language (the words the last page handed over)
// that says what works offline and leads back to the sheet it came from.
var WORDS = BASE + "offline-words";

function offline(referrer) {
  return caches.match(WORDS).then(function (kept) {
    return kept ? kept.json() : null;
  }).then(function (words) {
    if (!words) return Response.error();
    var back = { href: BASE, label: words.back };
    if (sameSite(referrer)) {
      var path = new URL(referrer).pathname;
      var sheet = path.slice(BASE.length).match(/^m\/[A-Za-z0-9_-]{12}/);
      back = sheet ? { href: BASE + sheet[0], label: words.sheet } : { href: path, label: words.back };
    }
    var page = '<!doctype html><html lang="' + esc(words.lang) + '"><head><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1"><title>' + esc(words.title) +
      '</title><link rel="stylesheet" href="' + esc(words.css) + '"></head><body><main class="offline">' +
      "<h1>" + esc(words.title) + "</h1><p>" + esc(words.text) + '</p><p><a class="button primary big" href="' +
      esc(back.href) + '">' + esc(back.label) + "</a></p></main></body></html>";
    return new Response(page, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

function esc(text) {
  return String(text || "").replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
}

// A page opened before this worker took over sends its own address and files, so
// that they are kept from the first visit on. (The manifest's icons are not: a phone
// that installs the app keeps its own copy.)
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.live) { event.waitUntil(patch(data.live)); return; }
  if (data.words) {
    event.waitUntil(caches.open(CACHE).then(function (cache) {
      return cache.put(WORDS, new Response(JSON.stringify(data.words), { headers: { "Content-Type": "application/json" } }));
    }));
  }
  // what a page may lead to without the network (a scorer's next deal page and its
  // files): fetched once, if not kept already
  if (Array.isArray(data.spare)) {
    event.waitUntil(caches.open(CACHE).then(function (cache) {
      return Promise.all(data.spare.filter(sameSite).map(function (url) {
        return cache.match(url, { ignoreVary: true }).then(function (kept) {
          if (kept) return null;
          return fetch(url, { credentials: "same-origin" }).then(function (r) { return put(url, r); }, function () {});
        });
      }));
    }));
  }
  if (!Array.isArray(data.keep)) return;
  var reply = event.ports && event.ports[0];
  event.waitUntil(Promise.all(data.keep.filter(sameSite).map(function (url) {
    return fetch(url, { credentials: "same-origin" }).then(function (r) {
      return keepable(r) && put(url, r).then(function () { return true; });
    }).catch(function () { return false; });
  })).then(function (kept) {
    // "kept" only if every one of them is: else the page is not ready for offline use
    if (reply) reply.postMessage(kept.every(Boolean) ? "kept" : "not kept");
  }));
});

// The live sheet drew a change ({url, html, etag}: static/live.js): the copy kept of
// that page gets the new live part (between <!--live--> and <!--/live-->), so that
// without the network the phone opens the sheet it last showed, not the one it first
// loaded; nothing is asked of the server.
function patch(live) {
  if (!sameSite(live.url) || typeof live.html !== "string") return Promise.resolve();
  return caches.open(CACHE).then(function (cache) {
    return cache.match(live.url, { ignoreVary: true }).then(function (kept) {
      if (!kept) return null;
      return kept.text().then(function (page) {
        var start = page.indexOf("<!--live-->");
        var end = page.indexOf("<!--/live-->");
        if (start < 0 || end < start) return null;
        page = page.slice(0, start + 11) + live.html + page.slice(end);
        page = page.replace(/(<div id="sheet-live"[^>]* data-etag=")[^"]*/, "$1" + String(live.etag).replace(/[^\w.-]/g, ""));
        // its own headers (the page's safe ones among them), but not those of the bytes
        // as they came over the wire
        var headers = new Headers(kept.headers);
        ["Content-Length", "Content-Encoding", "ETag"].forEach(function (h) { headers.delete(h); });
        return cache.put(live.url, new Response(page, { headers: headers }));
      });
    });
  });
}

function sameSite(url) {
  try { return new URL(url, self.location).origin === self.location.origin; } catch (e) { return false; }
}
