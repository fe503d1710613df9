// Scorer: "Keep the screen on" on the sheet, with the Screen Wake Lock API where the
// browser has it (secure pages only: HTTPS or this machine). The choice is remembered
// in this browser. Without the API, or without JavaScript, the switch stays hidden.
(function () {
  "use strict";
  var KEY = "scorer.awake";

  function remembered() {
    try { return localStorage.getItem(KEY) === "1"; } catch (e) { return false; }
  }

  function remember(on) {
    try { if (on) localStorage.setItem(KEY, "1"); else localStorage.removeItem(KEY); } catch (e) { /* private mode */ }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector("[data-awake]");
    if (!box || !("wakeLock" in navigator)) return;
    var input = box.querySelector("input");
    var note = box.querySelector("[data-awake-note]");
    var lock = null;
    function show(state) { box.setAttribute("data-state", state); }
    function acquire() {
      if (lock || document.visibilityState !== "visible") return;
      navigator.wakeLock.request("screen").then(function (sentinel) {
        lock = sentinel;
        note.textContent = "";
        show("on");
        sentinel.addEventListener("release", function () { lock = null; show("off"); });
      }, function () {
        input.checked = false;
        note.textContent = note.getAttribute("data-refused");
        show("refused");
      });
    }
    function release() {
      if (lock) lock.release();
      lock = null;
      show("off");
    }
    input.checked = remembered();
    box.hidden = false;
    show("off");
    if (input.checked) acquire();
    input.addEventListener("change", function () {
      remember(input.checked);
      if (input.checked) acquire(); else release();
    });
    // the browser lets the lock go whenever the page is hidden: take it again on return
    document.addEventListener("visibilitychange", function () {
      if (input.checked && document.visibilityState === "visible") acquire();
    });
  });
})();
