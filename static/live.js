// The live sheet: every two seconds, ask whether the match changed (a 304 when
// not) and put the new sheet in place, keeping the scroll position. A deal
// form learns the same way that the match changed on another phone.
// Without JavaScript a reload shows the same.
(function () {
  "use strict";
  var box = document.getElementById("sheet-live");
  var form = document.querySelector("form[data-watch]");
  var url = box ? box.getAttribute("data-poll") : form && form.getAttribute("data-watch");
  if (!url) return;
  var etag = '"' + (box ? box.getAttribute("data-etag") : form.getAttribute("data-etag")) + '"';
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
  function keep(form, focused) {
    var fresh = box.querySelector("form.deal");
    if (!fresh) return;
    fresh.parentNode.replaceChild(form, fresh);
    var note = document.getElementById("changed-elsewhere");
    if (note) note.hidden = false;
    if (focused) focused.focus({ preventScroll: true });
  }

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(url, { headers: { "If-None-Match": etag }, cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
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
          if (kept) keep(kept, focused);
          window.scrollTo(0, y);
          document.dispatchEvent(new CustomEvent("scorer:redrawn"));
        } else {
          var note = document.getElementById("changed-elsewhere");
          if (note) note.hidden = false;
        }
      })
      .catch(function () {})
      .then(function () { busy = false; });
  }
  setInterval(poll, 2000);
  document.addEventListener("visibilitychange", poll);
})();
