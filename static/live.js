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
          box.innerHTML = html;
          window.scrollTo(0, y);
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
