// The live sheet: ask whether the match changed (a 304 when not) and put the new
// sheet in place, keeping the scroll position. Where the server holds the
// question until the match changes (data-wait: `make run`'s gevent workers) the
// next question follows each answer; elsewhere it is asked every two seconds.
// A deal form learns the same way that the match changed on another phone.
// Without JavaScript a reload shows the same.
(function () {
  "use strict";
  var box = document.getElementById("sheet-live");
  var form = document.querySelector("form[data-watch]");
  var url = box ? box.getAttribute("data-poll") : form && form.getAttribute("data-watch");
  if (!url) return;
  var etag = '"' + (box ? box.getAttribute("data-etag") : form.getAttribute("data-etag")) + '"';
  var wait = (box || form).hasAttribute("data-wait");
  if (wait) url += (url.indexOf("?") < 0 ? "?" : "&") + "wait=1";
  var busy = false;

  // The sheet's form for the next deal, once something is typed into it: a new sheet
  // keeps it (saving then shows both entries side by side; nothing typed is lost).
  if (box) {
    ["input", "change"].forEach(function (type) {
      box.addEventListener(type, function (event) {
        var form = event.target.closest && event.target.closest("form.deal");
        if (form) form.setAttribute("data-typed", "");
      });
    });
  }
  function typing() {
    return box.querySelector("form.deal[data-typed]");
  }
  function dealOf(form) {
    var input = form && form.querySelector("input[name=number]");
    return input ? input.value : null;
  }
  function keep(form, focused) {
    var fresh = box.querySelector("form.deal");
    var mine = form.closest("section.next");
    var theirs = box.querySelector("section.next");
    if (fresh && dealOf(fresh) === dealOf(form)) {
      fresh.parentNode.replaceChild(form, fresh); // the same deal: its facts as they are now
    } else if (mine && theirs) {
      // another deal next, or the match over: the form with the title and facts of the
      // deal it is for (a phone typing deal 3 while another saved it read "Deal 4" over
      // "Save deal 3"; a last deal typed as another phone saved it was dropped)
      theirs.parentNode.replaceChild(mine, theirs);
      // the match over, the end of it above: the form stays in sight
      if (!fresh) setTimeout(function () { mine.scrollIntoView({ block: "nearest" }); }, 0);
    } else if (fresh) {
      fresh.parentNode.replaceChild(form, fresh);
    } else {
      return;
    }
    var note = document.getElementById("changed-elsewhere");
    if (note) note.hidden = false;
    if (focused) focused.focus({ preventScroll: true });
  }

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    var again = 0; // the next question at once, unless the line failed
    fetch(url, { headers: { "If-None-Match": etag }, cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (r.status !== 200 && r.status !== 304) again = 2000;
        if (r.status !== 200) return null;
        etag = r.headers.get("ETag") || etag;
        return r.text();
      })
      .then(function (html) {
        if (html === null || html === undefined) return;
        if (box) {
          var y = window.scrollY;
          var kept = typing();
          var focused = kept && kept.contains(document.activeElement) ? document.activeElement : null;
          box.innerHTML = html;
          // the one-tap Undo goes once its change is no longer the match's latest (the
          // new sheet names the change its Undo is for; the history still offers it)
          var still = box.querySelector("[data-undo]");
          document.querySelectorAll(".said form.undo").forEach(function (undo) {
            if (!still || still.getAttribute("data-undo") !== undo.getAttribute("data-event")) undo.remove();
          });
          if (kept) keep(kept, focused);
          window.scrollTo(0, y);
          document.dispatchEvent(new CustomEvent("scorer:redrawn"));
          // the copy the service worker keeps of this page, as it is now (static/sw.js)
          var sw = "serviceWorker" in navigator && navigator.serviceWorker.controller;
          if (sw) sw.postMessage({ live: { url: location.href, html: html, etag: etag.replace(/^W\//, "").replace(/"/g, "") } });
        } else {
          var note = document.getElementById("changed-elsewhere");
          if (note) note.hidden = false;
        }
      })
      .catch(function () { again = 2000; })
      .then(function () {
        busy = false;
        if (wait) setTimeout(poll, again);
      });
  }
  if (wait) poll();
  else setInterval(poll, 2000);
  document.addEventListener("visibilitychange", poll);
})();
