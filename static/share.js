// Scorer's share page: Send (the Web Share API: the phone's own share sheet, where the
// browser has it) and Copy beside each link. Copy uses the Clipboard API on a secure
// page; on plain HTTP, where it is missing, it copies the selected link the old way.
(function () {
  "use strict";

  function copyOld(text) {
    var field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.style.position = "fixed";
    field.style.opacity = "0";
    document.body.appendChild(field);
    field.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    document.body.removeChild(field);
    return done ? Promise.resolve() : Promise.reject(new Error("not copied"));
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () { return copyOld(text); });
    }
    return copyOld(text);
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-share]").forEach(function (box) {
      var link = box.getAttribute("data-share");
      var send = box.querySelector("[data-send]");
      var copier = box.querySelector("[data-copy]");
      var note = box.querySelector("[role=status]");
      var shared = { title: box.getAttribute("data-share-title"), url: link };
      if (navigator.share && (!navigator.canShare || navigator.canShare(shared))) {
        send.hidden = false;
        send.addEventListener("click", function () {
          navigator.share(shared).catch(function () { /* the phone's share sheet closed */ });
        });
      }
      copier.addEventListener("click", function () {
        copy(link).then(function () {
          note.textContent = copier.getAttribute("data-copied");
        }, function () {
          note.textContent = copier.getAttribute("data-failed");
        });
      });
      box.hidden = false;
    });
  });
})();
