// Scorer offline, the deal form's part: nothing typed is lost to a lost connection.
// Every page works without it. (static/offline.js registers the service worker.)
//
// - A form marked data-queue (a deal form, wherever it is drawn) is sent with fetch. If
//   the network is gone, the entry waits on this phone (localStorage), each page it
//   concerns says "not saved yet — waiting for the connection", and it is sent again
//   when the connection returns, with its stale-page mark (`expect`) and idempotency
//   `key`: the server answers a repeat as it answered the first, so a retry never
//   saves twice, and a deal that meets another phone's change gets the side-by-side
//   choice (the server's own page), never saved over it.
// - What is typed into such a form is kept as a draft (per form address) until the
//   server has it (saved, or drawn back on a page of its own: the side-by-side choice,
//   a refusal): a reload, a lost connection or Back brings it back, with the page's
//   mark and key of the time, so the stale-page guard still applies.
//
// data-queue="<address>": the page to show once the entry is saved or queued (the
// sheet). data-queue-label: how the waiting notice names the entry ("Deal 3").
(function () {
  "use strict";
  var QUEUE = "scorer.queue";  // entries waiting for the connection, oldest first
  var SENT = "scorer.sent";    // the last keys the server answered, never used again
  var DRAFT = "scorer.draft:"; // + the form's address: what is typed and not yet sent
  var DRAFT_DAYS = 1;          // an older draft is dropped, not brought back
  var RETRY = 5000;            // ms between tries while something waits
  var PATIENCE = 20000;        // ms without an answer before an entry waits (a bad line)

  var restored = false; // this page's form got back a draft

  // --- storage ---------------------------------------------------------------

  function read(key, otherwise) {
    try {
      var raw = localStorage.getItem(key);
      return raw ? JSON.parse(raw) : otherwise;
    } catch (e) { return otherwise; }
  }

  function write(key, value) {
    try {
      if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value));
      return true;
    } catch (e) { return false; } // private mode, full: the form is sent the ordinary way
  }

  function path(url) { return new URL(url, location.href).pathname; }
  function here() { return location.pathname; }
  function queue() { return read(QUEUE, []); }

  // --- the form's entry --------------------------------------------------------

  function fieldsOf(form) {
    var out = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") out.push([name, value]);
    });
    return out;
  }

  // An entry as typed: its fields without the page's own marks.
  function bare(fields) {
    return JSON.stringify(fields.filter(function (p) {
      return p[0] !== "key" && p[0] !== "expect" && p[0] !== "csrf_token";
    }));
  }

  function valueOf(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return null;
  }

  function setValue(fields, name, value) {
    fields.forEach(function (pair) { if (pair[0] === name) pair[1] = value; });
  }

  function freshKey() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  }

  function itemOf(form) {
    var primary = form.querySelector("button.primary[type=submit]");
    var item = {
      action: path(form.action),
      home: form.getAttribute("data-queue") ? path(form.getAttribute("data-queue")) : here(),
      label: form.getAttribute("data-queue-label") || (primary ? primary.textContent.trim() : ""),
      fields: fieldsOf(form),
      at: Date.now()
    };
    // A key the server already answered, or one waiting with another entry (a deal
    // form kept from before, opened again without the network), is not this entry's:
    // it gets its own, so it is neither taken for a repeat nor refused as a reuse.
    var key = valueOf(item.fields, "key");
    var same = JSON.stringify(item.fields);
    var clash = read(SENT, []).indexOf(key) >= 0 || queue().some(function (q) {
      return q.key === key && JSON.stringify(q.fields) !== same;
    });
    if (key && clash) setValue(item.fields, "key", freshKey());
    item.key = valueOf(item.fields, "key") || freshKey();
    return item;
  }

  // --- sending -----------------------------------------------------------------

  // "saved" (the server redirected: saved, or a repeat answered as the first time),
  // "waiting" (no network, or no server behind it), "refused" (any other answer: 409,
  // the side-by-side choice, or the form and why; the server's page says it).
  function send(item) {
    var stop = window.AbortController ? new AbortController() : null;
    var timer = stop && setTimeout(function () { stop.abort(); }, PATIENCE);
    return fetch(item.action, {
      method: "POST",
      body: new URLSearchParams(item.fields),
      credentials: "same-origin",
      redirect: "manual",
      cache: "no-store",
      signal: stop ? stop.signal : undefined
    }).then(function (r) {
      clearTimeout(timer);
      if (r.type === "opaqueredirect" || (r.status >= 300 && r.status < 400)) return "saved";
      if (r.status === 0 || r.status >= 500) return "waiting";
      return "refused";
    }, function () {
      clearTimeout(timer);
      return "waiting";
    });
  }

  function saved(item) {
    write(SENT, read(SENT, []).concat([item.key]).slice(-50));
  }

  // The draft of a form address goes once the server has its entry; a draft typed
  // since (the next deal, on a form kept from before) stays.
  function forgetDraft(item) {
    var name = DRAFT + item.action;
    var draft = read(name, null);
    if (draft && Array.isArray(draft.fields) && bare(draft.fields) === bare(item.fields)) write(name, null);
  }

  // The server's answer to an entry it did not save, as a page of its own: the same
  // fields posted the ordinary way (nothing was saved, so the answer is the same: the
  // side-by-side choice, or the form with what was typed and why it was refused).
  // That page holds the entry now, not the draft.
  function present(item) {
    forgetDraft(item);
    var form = document.createElement("form");
    form.method = "post";
    form.action = item.action;
    form.hidden = true;
    item.fields.forEach(function (pair) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[1];
      form.appendChild(input);
    });
    document.body.appendChild(form);
    HTMLFormElement.prototype.submit.call(form);
  }

  function unqueue(key) {
    write(QUEUE, queue().filter(function (q) { return q.key !== key; }));
  }

  function enqueue(item) {
    var q = queue();
    if (q.some(function (other) { return other.key === item.key; })) return true; // already waiting
    q.push(item);
    return write(QUEUE, q);
  }

  // Send what waits, oldest first; stop at the first that still cannot go.
  var flushing = false;
  function flush() {
    var q = queue();
    if (flushing || !q.length) return;
    flushing = true;
    var item = q[0];
    send(item).then(function (outcome) {
      flushing = false;
      if (outcome === "waiting") return;
      unqueue(item.key);
      notes();
      if (outcome === "saved") {
        saved(item);
        forgetDraft(item);
        flush();
        return;
      }
      present(item);
    });
  }

  // --- what the page says ----------------------------------------------------

  function notes() {
    var box = document.getElementById("queue-note");
    if (!box) return;
    var waiting = queue().filter(function (q) { return q.home === here() || q.action === here(); });
    box.textContent = "";
    waiting.forEach(function (q) {
      var p = document.createElement("p");
      p.textContent = box.getAttribute("data-waiting").replace("{what}", q.label);
      box.appendChild(p);
    });
    if (restored) {
      var p = document.createElement("p");
      p.textContent = box.getAttribute("data-restored");
      box.appendChild(p);
    }
    box.hidden = !box.childNodes.length;
  }

  // --- drafts ------------------------------------------------------------------

  // The form as typed, kept while it differs from the form as the page drew it.
  function keepDraft(form) {
    var fields = fieldsOf(form);
    var name = DRAFT + path(form.action);
    if (bare(fields) === form.drawn) write(name, null);
    else write(name, { at: Date.now(), fields: fields });
  }

  function restore(form) {
    var name = DRAFT + path(form.action);
    var draft = read(name, null);
    if (!draft || !Array.isArray(draft.fields)) return;
    if (Date.now() - draft.at > DRAFT_DAYS * 864e5) {
      write(name, null);
      return;
    }
    var names = {};
    Array.prototype.forEach.call(form.elements, function (el) { if (el.name) names[el.name] = true; });
    if (!draft.fields.every(function (pair) { return names[pair[0]]; })) return; // another form now
    if (bare(draft.fields) === form.drawn) {
      write(name, null); // nothing typed beyond what the page shows
      return;
    }
    var seen = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.name === "csrf_token" || /^(submit|button|file|reset)$/.test(el.type)) return;
      var values = draft.fields.filter(function (p) { return p[0] === el.name; }).map(function (p) { return p[1]; });
      if (el.type === "radio" || el.type === "checkbox") {
        el.checked = values.indexOf(el.value) >= 0;
      } else {
        var n = seen[el.name] || 0;
        seen[el.name] = n + 1;
        if (n < values.length) el.value = values[n];
      }
    });
    restored = true;
    // the number entry (static/entry.js) updates its suggestions and counters
    form.querySelectorAll("input[inputmode=numeric]").forEach(function (input) {
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }

  // After scorer.js's double-tap guard: the form can be saved again.
  function release(form) {
    form.removeAttribute("data-sent");
    form.querySelectorAll("button.sent").forEach(function (b) {
      b.classList.remove("sent");
      b.removeAttribute("aria-disabled");
    });
  }

  function cached(url) {
    if (!window.caches || !navigator.serviceWorker || !navigator.serviceWorker.controller) return Promise.resolve(false);
    return caches.match(url).then(function (r) { return !!r; }, function () { return false; });
  }

  function setUp(form) {
    form.drawn = bare(fieldsOf(form));
    restore(form);
    form.addEventListener("input", function () { keepDraft(form); });
    form.addEventListener("change", function () { keepDraft(form); });
    form.addEventListener("click", function (event) { // the − and + steps
      if (event.target.closest("button[type=button]")) keepDraft(form);
    });
    form.addEventListener("submit", function (event) {
      if (event.defaultPrevented) return; // a second tap (scorer.js's guard hears it first)
      var by = event.submitter;
      if (by && (by.name || by.hasAttribute("formaction"))) {
        // a step of the form (an auction call, the trick-by-trick check): sent the
        // ordinary way, and the page the server draws from it holds the entry
        write(DRAFT + path(form.action), null);
        return;
      }
      if (!window.fetch || !window.URLSearchParams || !write("scorer.probe", null)) return;
      event.preventDefault();
      var item = itemOf(form);
      keepDraft(form); // this entry, until the server has it
      send(item).then(function (outcome) {
        if (outcome === "saved") {
          forgetDraft(item);
          saved(item);
          location.assign(item.home);
          return;
        }
        if (outcome === "waiting") {
          if (!enqueue(item)) { release(form); HTMLFormElement.prototype.submit.call(form); return; }
          write(DRAFT + item.action, null); // the queue holds it now
          release(form);
          cached(item.home).then(function (there) {
            if (there && item.home !== here()) { location.assign(item.home); return; }
            notes();
            var box = document.getElementById("queue-note");
            if (box) box.scrollIntoView({ block: "center" });
          });
          return;
        }
        present(item);
      });
    });
  }

  function setUpAll() {
    document.querySelectorAll("form[data-queue]:not([data-queued])").forEach(function (form) {
      form.setAttribute("data-queued", "");
      setUp(form);
    });
  }
  // the live sheet draws the next deal's form afresh (static/live.js)
  document.addEventListener("scorer:redrawn", setUpAll);

  // Loaded with a deal form's other scripts (forms.js): by a page drawn with a deal
  // form, or by static/scorer.js when the live sheet draws one or an entry waits.
  function start() {
    setUpAll();
    notes();
    flush();
    window.addEventListener("online", flush);
    window.addEventListener("storage", notes); // another tab queued or sent something
    window.addEventListener("pageshow", function (event) { if (event.persisted) { notes(); flush(); } });
    document.addEventListener("visibilitychange", function () { if (!document.hidden) flush(); });
    setInterval(function () { if (!document.hidden) flush(); }, RETRY);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
