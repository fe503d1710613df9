// Scorer: a little vanilla JS that only makes entry faster. Every page works without it.
// A deal form's number entry, pad and queue are static/entry.js, pad.js and queue.js,
// loaded as forms.js, with its style sheet, forms.css.
(function () {
  "use strict";

  // A fresh idempotency key: a second tap, or a resend, is answered as the first time.
  function freshKey() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  }
  window.scorerKey = freshKey; // static/queue.js's entries too

  // A double tap on Save sends one form, not two (the server refuses a repeat as well).
  // Heard first (capture), whenever the form's other scripts were set up: a second tap
  // reaches them already cancelled (static/queue.js sends the first itself). A form the
  // page draws for every phone (the sheet's) has no key: made here, as it is sent.
  function once() {
    document.querySelectorAll("form[data-once]:not([data-once-bound])").forEach(function (form) {
      form.setAttribute("data-once-bound", "");
      form.addEventListener("submit", function (event) {
        if (form.hasAttribute("data-sent")) { event.preventDefault(); return; }
        form.setAttribute("data-sent", "");
        var key = form.querySelector("input[name=key]");
        if (key && !key.value) key.value = freshKey();
        form.querySelectorAll("button[type=submit]").forEach(function (b) { b.setAttribute("aria-disabled", "true"); b.classList.add("sent"); });
      }, true);
    });
  }

  // A deal form's style sheet (static/forms.css) and scripts (static/entry.js, pad.js
  // and queue.js, as forms.js) come only to a page that needs them: linked where the
  // page is drawn with a deal form, loaded here where the live sheet draws one later,
  // or an entry saved without the network waits (the page says so, and sends it).
  var script = document.currentScript;
  var forms = script && script.getAttribute("data-forms");
  var formsCss = script && script.getAttribute("data-forms-css");
  function waiting() { // static/queue.js's QUEUE, or what it carried on to this page (TOLD)
    try {
      return (JSON.parse(localStorage.getItem("scorer.queue")) || []).length > 0 || !!localStorage.getItem("scorer.told");
    } catch (e) { return false; }
  }
  function formScripts() {
    if (!forms || !(document.querySelector("form.deal") || waiting())) return;
    var has = function (selector, attr, url) {
      return Array.prototype.some.call(document.querySelectorAll(selector), function (el) { return el.getAttribute(attr) === url; });
    };
    if (formsCss && !has("link[rel=stylesheet]", "href", formsCss)) {
      var css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = formsCss;
      css.onerror = function () { css.remove(); };
      document.head.appendChild(css);
    }
    if (has("script", "src", forms)) return;
    var el = document.createElement("script");
    el.src = forms;
    el.onerror = function () { el.remove(); }; // a bad line: tried again at the next occasion
    document.head.appendChild(el);
  }
  // The newest next deal this phone has shown of each match (by its sheet's address): its
  // page's mark (the deals then, the last one's id) and the match's version. A deal page
  // kept from before and opened without the network is numbered from it (static/queue.js).
  // static/queue.js tells the deals a queued entry's answer names ("scorer:seen").
  function remember() {
    var el = document.querySelector("[data-deal][data-mark][data-version]");
    if (!el) return;
    var home = new URL(el.getAttribute("data-queue") || location.pathname, location.href).pathname;
    keep(home, el.getAttribute("data-mark"), parseInt(el.getAttribute("data-version"), 10));
  }
  function keep(home, mark, version) {
    try {
      var all = JSON.parse(localStorage.getItem("scorer.seen")) || {};
      if (all[home] && all[home].version >= version) return;
      all[home] = { mark: mark, version: version, at: Date.now() };
      Object.keys(all).sort(function (a, b) { return all[b].at - all[a].at; }).slice(30)
        .forEach(function (h) { delete all[h]; }); // the last 30 matches
      localStorage.setItem("scorer.seen", JSON.stringify(all));
    } catch (e) { /* private mode, full: nothing remembered */ }
  }

  document.addEventListener("scorer:seen", function (event) {
    var d = event.detail;
    if (d && d.mark && d.version) keep(d.home, String(d.mark), parseInt(d.version, 10));
  });
  window.addEventListener("storage", formScripts); // another tab queued an entry
  window.addEventListener("pageshow", function (event) { if (event.persisted) formScripts(); });

  // A line the page holds for the address it was opened at (#scoring: the score link's
  // landing), said once, and the address made clean.
  function hashLine() {
    var line = location.hash.length > 1 && document.querySelector('[data-hash="' + location.hash.slice(1).replace(/[^\w-]/g, "") + '"]');
    if (!line) return;
    line.hidden = false;
    line.className = "flash";
    history.replaceState(history.state, "", location.pathname + location.search);
  }

  // The trust page opened from a code the share page drew (its #: the match's path):
  // its ways on lead where the code pointed, on the scorer's own address.
  function onward() {
    var links = document.querySelectorAll("a[data-onward]");
    var path = location.hash.slice(1);
    if (!links.length || !/^\/m\/[\w-]{12}(\/score\?key=[\w-]+)?$/.test(path)) return;
    links.forEach(function (a) { a.href = new URL(path, a.href).href; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    hashLine();
    onward();
    once();
    formScripts();
    remember();
    document.addEventListener("scorer:redrawn", function () { once(); formScripts(); remember(); }); // the live sheet drew a new form
    // New match: the first-dealer list names the players as they are typed.
    var dealer = document.getElementById("first_dealer");
    if (dealer) {
      var rename = function () {
        Array.prototype.forEach.call(dealer.options, function (option) {
          var input = document.getElementById("name_" + option.value);
          if (!input) return;
          if (!option.hasAttribute("data-label")) option.setAttribute("data-label", option.textContent);
          option.textContent = input.value.trim() || option.getAttribute("data-label");
        });
      };
      document.querySelectorAll("input[id^=name_]").forEach(function (i) { i.addEventListener("input", rename); });
      rename();
    }
    // New match: a tap on a name this browser has used fills the next empty row (without
    // JS the rows offer the same names as suggestions, from the datalist).
    var known = document.querySelector("[data-known-names]");
    if (known) {
      var rows = Array.prototype.slice.call(document.querySelectorAll("input[id^=name_]"));
      var key = function (name) { return name.trim().normalize("NFC").toLowerCase(); };
      var mark = function () {
        var used = rows.map(function (i) { return key(i.value); });
        known.querySelectorAll("button[data-name]").forEach(function (b) {
          b.setAttribute("aria-disabled", used.indexOf(key(b.getAttribute("data-name"))) >= 0 ? "true" : "false");
        });
      };
      known.addEventListener("click", function (event) {
        var b = event.target.closest("button[data-name]");
        if (!b || b.getAttribute("aria-disabled") === "true") return;
        var empty = rows.filter(function (i) { return !i.value.trim(); })[0];
        if (!empty) return;
        empty.value = b.getAttribute("data-name");
        empty.dispatchEvent(new Event("input", {bubbles: true}));
      });
      rows.forEach(function (i) { i.addEventListener("input", mark); });
      known.hidden = false;
      mark();
    }
    // New match: an option that applies only under another's value (Spot values under
    // Spot scoring, Deals when the match ends after a number of deals) is hidden otherwise.
    // Without JS it stays, with its condition written beside it.
    document.querySelectorAll("fieldset[data-when]").forEach(function (fieldset) {
      var radios = document.querySelectorAll("input[name='" + fieldset.getAttribute("data-when") + "']");
      var want = fieldset.getAttribute("data-when-value");
      var refresh = function () {
        var on = Array.prototype.some.call(radios, function (r) { return r.checked && r.value === want; });
        fieldset.hidden = !on;
      };
      radios.forEach(function (r) { r.addEventListener("change", refresh); });
      refresh();
    });
    // A number the form already holds (a target of 100) is replaced by what is typed,
    // not added to: the whole of it is selected when the field is entered.
    document.querySelectorAll("input[data-select]").forEach(function (input) {
      var entered = false;
      input.addEventListener("focus", function () { input.select(); entered = true; });
      input.addEventListener("mouseup", function (event) { if (entered) event.preventDefault(); entered = false; });
    });
    // A file picker in the page's language: the browser's own button and "No file
    // chosen" are hidden behind ours, which names the file once one is chosen.
    document.querySelectorAll("input[type=file].file-input").forEach(function (input) {
      var name = input.parentNode.querySelector(".file-name");
      input.addEventListener("change", function () {
        name.textContent = input.files && input.files.length ? input.files[0].name : name.getAttribute("data-none");
      });
    });
    var error = document.getElementById("error");
    if (error) error.scrollIntoView({block: "center"});
  });
})();
