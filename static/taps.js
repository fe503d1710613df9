// Taps that change one part of a page without reloading it: the cards of the
// trick-by-trick check, the calls of an auction. Each such button carries hx-post: htmx
// (static/htmx.min.js) sends its form as the plain post would and swaps in the part of
// the answer named by hx-select. Without JavaScript each tap is that plain post.
// What htmx leaves to the page is here:
// - a tap made while the answer to the one before is on its way waits its turn (each
//   needs the page the one before leaves: the tricks so far ride in hidden fields), then
//   is tapped again on the new page, unless its button is disabled there (a card played);
//   templates/_htmx.html's htmx-config sets no settle delay, so the new page's buttons are
//   live by then (and no inline style is set: the CSP forbids it);
// - an answer that is not the page's part (a redirect, an error page) is shown as the
//   plain post would have shown it;
// - a tap that could not be sent says so ([data-offline]) and changes nothing.
(function () {
  "use strict";
  var busy = false;
  var waiting = [];

  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail.elt;
    if (!busy) return;
    event.preventDefault();
    waiting.push([elt.getAttribute("name"), elt.getAttribute("value")]);
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    busy = true;
    var box = event.detail.elt.closest("[data-offline]");
    var note = box && box.querySelector(".offline");
    if (note) note.remove();
  });

  document.addEventListener("htmx:afterRequest", function () {
    busy = false;
    var tap;
    while ((tap = waiting.shift())) {
      var button = Array.prototype.find.call(document.querySelectorAll("button[hx-post]"), function (b) {
        return b.getAttribute("name") === tap[0] && b.getAttribute("value") === tap[1];
      });
      if (button && !button.disabled) { button.click(); return; }
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var d = event.detail;
    var xhr = d.xhr;
    var asked = new URL(d.requestConfig.path, location.href);
    if (xhr.responseURL && new URL(xhr.responseURL).pathname !== asked.pathname) {
      d.shouldSwap = false; // redirected (the match is over): go where the post would have
      location.assign(xhr.responseURL);
      return;
    }
    var holder = d.requestConfig.elt.closest("[hx-select]");
    var select = holder && holder.getAttribute("hx-select");
    var page = new DOMParser().parseFromString(xhr.responseText, "text/html");
    if (select && page.querySelector(select)) {
      showError(page, select, d.target);
      return;
    }
    // another page (a refusal, an error): its main part in place of this one's
    d.shouldSwap = true;
    d.target = document.querySelector("main");
    d.selectOverride = "main";
    d.swapOverride = "outerHTML";
  });

  // The answer's refusal (#error) where the swapped part does not hold it (a deal form's
  // error line sits above the form): put in, replaced, or taken away as the answer has it.
  function showError(page, select, target) {
    var fresh = page.getElementById("error");
    var old = document.getElementById("error");
    if (old ? target.contains(old) : !fresh || fresh.closest(select)) return;
    if (fresh) fresh = document.importNode(fresh, true);
    if (old && fresh) old.replaceWith(fresh);
    else if (old) old.remove();
    else (target.closest("form") || target).before(fresh);
    // said where the player looks (the tap was far down the form)
    if (fresh) fresh.scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("htmx:sendError", function (event) {
    waiting = [];
    var box = event.detail.elt.closest("[data-offline]");
    if (!box) return;
    var note = document.createElement("p");
    note.className = "error offline";
    note.setAttribute("role", "alert");
    note.textContent = box.getAttribute("data-offline");
    var legend = box.querySelector(":scope > legend");
    if (legend) legend.after(note); else box.prepend(note);
  });
})();
