// Scorer offline, the deal form's part: nothing typed is lost to a lost connection.
// Every page works without it. (static/offline.js registers the service worker.)
//
// - A form marked data-queue (a deal form, wherever it is drawn) is sent with fetch and
//   the header X-Scorer-Queue: the server answers with the outcome as JSON (scorer/web/
//   entry.py): saved; the same as a deal another phone entered (one deal, said so); a
//   conflict (kept on the server for a scorer's choice: its page); waiting (a deal
//   before it is not in yet); refused (the rules say no: why).
// - Without the network the entry waits on this phone (localStorage), each waiting deal
//   under its own number: a new deal's form is for the table's deal N (data-deal), and
//   once deal N waits the form offers deal N + 1, with what can be known without the
//   server (data-ahead: who deals and leads, the passing; else "not known until the
//   connection is back"). The sheet shows each waiting deal as a row of its own.
// - Back online, they are sent oldest first, each with its page's mark (expect), its
//   deal's number (number) and idempotency key (key): a repeat is answered as the first time, so
//   a retry never saves twice. A refused one stays on the phone with the server's reason
//   (and holds back the later deals of its match) until it is opened and put right.
//   A conflict goes to its choice page, unless a choice page is open: the sheet lists
//   every choice that waits; one page never replaces another unanswered.
// - What is typed into such a form is kept as a draft (per form address) until the
//   server has it: a reload, a lost connection or Back brings it back.
(function () {
  "use strict";
  var QUEUE = "scorer.queue";  // entries waiting for the connection, oldest first
  var SENT = "scorer.sent";    // the last keys the server answered, never used again
  var DRAFT = "scorer.draft:"; // + the form's address: what is typed and not yet sent
  var TOLD = "scorer.told";    // what was said, carried to the choice page it went on to
  var SEEN = "scorer.seen";    // per match (its sheet's address): the newest next-deal mark shown
  var DRAFT_DAYS = 1;          // an older draft is dropped, not brought back
  // ms between tries while something waits: 5 s on a phone; the browser tests set
  // window.SCORER_QUEUE_RETRY before any script runs (tests/conftest.py), not to wait
  var RETRY = window.SCORER_QUEUE_RETRY > 0 ? window.SCORER_QUEUE_RETRY : 5000;
  var PATIENCE = 20000;        // ms without an answer before an entry waits (a bad line)

  var restored = false; // this page's form got back a draft
  var aside = null; // a draft of an earlier deal whose questions this form does not ask
  var told = [];        // what the server said of entries sent from this page (or the one before)

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

  // what the page before said, going on to this one (a minute at most)
  var carried = read(TOLD, null);
  write(TOLD, null);
  if (carried && Date.now() - carried.at < 60000 && Array.isArray(carried.said)) told = carried.said;

  function path(url) { return new URL(url, location.href).pathname; }

  // On to another page (a choice), taking along what was said of the deals before.
  function goTo(url) {
    if (told.length) write(TOLD, { at: Date.now(), said: told });
    location.assign(url);
  }
  function here() { return location.pathname; }
  function queue() { return read(QUEUE, []); }

  function update(key, change) {
    write(QUEUE, queue().map(function (q) { return q.key === key ? Object.assign(q, change) : q; }));
  }

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
      return p[0] !== "key" && p[0] !== "expect" && p[0] !== "csrf_token" && p[0] !== "number";
    }));
  }

  function valueOf(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return null;
  }

  function setValue(fields, name, value) {
    fields.forEach(function (pair) { if (pair[0] === name) pair[1] = value; });
  }

  function freshKey() { return window.scorerKey(); } // static/scorer.js's

  function words(template, n) { return (template || "").replace("{n}", String(n)); }

  // Each player's counts as typed (a suggestion as shown), for the deal's row while it
  // waits: ["4", "0", "6", "3"]; "3 · 2" where a deal asks two counts. Empty where the
  // counts are not a player's each (Variety's attackers' tricks).
  function countsOf(form) {
    var seats = [];
    form.querySelectorAll("fieldset.counts input").forEach(function (input) {
      var s = parseInt(input.name.split("__")[1], 10);
      if (isNaN(s)) return;
      var v = input.value || (input.classList.contains("auto") ? input.getAttribute("placeholder") : "");
      (seats[s] = seats[s] || []).push(v || "–");
    });
    var out = [];
    for (var i = 0; i < seats.length; i++) out.push((seats[i] || []).join(" · "));
    return out;
  }

  // What those counts are ("Hearts taken"): the questions' own words.
  function countedOf(form) {
    var asked = [];
    form.querySelectorAll("fieldset.counts > legend").forEach(function (legend) {
      var words = legend.firstChild ? legend.firstChild.textContent.trim() : "";
      if (words) asked.push(words);
    });
    return asked.join(" · ");
  }

  function itemOf(form) {
    var fields = fieldsOf(form);
    var number = parseInt(valueOf(fields, "number") || "", 10);
    var item = {
      action: path(form.action),
      home: form.getAttribute("data-queue") ? path(form.getAttribute("data-queue")) : here(),
      number: isNaN(number) ? null : number, // a new deal's: the table's deal it records
      label: words(form.getAttribute("data-queue-label"), number),
      fields: fields,
      counts: countsOf(form),
      counted: countedOf(form),
      at: Date.now()
    };
    // A key the server already answered, or one waiting with another entry (a deal
    // form kept from before, opened again without the network), is not this entry's:
    // it gets its own, so it is neither taken for a repeat nor refused as a reuse. A
    // refused entry opened again and put right keeps its key, and takes its place.
    var key = valueOf(fields, "key");
    var same = JSON.stringify(fields);
    var held = queue().filter(function (q) { return q.key === key && q.held; })[0];
    var clash = !held && (read(SENT, []).indexOf(key) >= 0 || queue().some(function (q) {
      return q.key === key && JSON.stringify(q.fields) !== same;
    }));
    if (!key || clash) setValue(fields, "key", freshKey()); // none: a form every phone is shown
    item.key = valueOf(fields, "key") || freshKey();
    return item;
  }

  // --- sending -----------------------------------------------------------------

  // The answers that settle an entry (scorer/web/entry.py's ``told``); "waiting" with a
  // number is the server's "a deal before it comes first".
  var OUTCOMES = { saved: 1, same: 1, conflict: 1, refused: 1, present: 1, waiting: 1 };

  // The server's outcome ({outcome, message, number, go}). Only the queue's own answer
  // (JSON, with one of OUTCOMES) settles anything: no answer (no network, no server
  // behind it), or any other (a proxy's error page, a 500, a login page), is
  // {outcome: "waiting"} (with ``trouble``, its status): the entry stays and is tried
  // again. Nothing leaves the phone on an answer it cannot read.
  function send(item, now) {
    var stop = window.AbortController ? new AbortController() : null;
    var timer = stop && setTimeout(function () { stop.abort(); }, PATIENCE);
    var waiting = function (r) { return { outcome: "waiting", trouble: r.status || -1 }; };
    return fetch(item.action, {
      method: "POST",
      body: new URLSearchParams(current(item.fields)),
      headers: { "X-Scorer-Queue": now ? "now" : "1" },
      credentials: "same-origin",
      redirect: "manual",
      cache: "no-store",
      signal: stop ? stop.signal : undefined
    }).then(function (r) {
      clearTimeout(timer);
      if ((r.headers.get("Content-Type") || "").indexOf("application/json") !== 0) return waiting(r);
      return r.json().then(function (answer) {
        return answer && OUTCOMES[answer.outcome] === 1 ? answer : waiting(r);
      }, function () { return waiting(r); });
    }, function () {
      clearTimeout(timer);
      return { outcome: "waiting" };
    });
  }

  // An entry's fields as sent now: with this page's form token, not the one of the
  // page it was typed on (its session may be gone with a browser closed since; the
  // server takes a same-origin request without it, an old browser needs a live one).
  function current(fields) {
    var token = document.querySelector("input[name=csrf_token]");
    if (!token) return fields;
    return fields.map(function (p) { return p[0] === "csrf_token" ? [p[0], token.value] : p; });
  }

  // An entry the server has: its key never sent again, and the deals its answer names
  // remembered (static/scorer.js) for a page kept from before, opened offline before
  // the live sheet has redrawn.
  function saved(item, answer) {
    write(SENT, read(SENT, []).concat([item.key]).slice(-50));
    var seen = { home: path(item.home), mark: answer.mark, version: answer.version };
    document.dispatchEvent(new CustomEvent("scorer:seen", { detail: seen }));
  }

  // The draft of a form address goes once the server has its entry; a draft typed
  // since (the next deal, on a form kept from before) stays.
  function forgetDraft(item) {
    var name = DRAFT + item.action;
    var draft = read(name, null);
    if (draft && Array.isArray(draft.fields) && bare(draft.fields) === bare(item.fields)) write(name, null);
  }

  // The entry posted the ordinary way: the server draws its page (the form with what
  // was typed and why it was refused; a deal deleted meanwhile). That page holds it.
  function present(item) {
    forgetDraft(item);
    post(item.action, item.fields);
  }

  // ``fields`` posted to ``action`` the ordinary way: the server draws the page.
  function post(action, fields) {
    var form = document.createElement("form");
    form.method = "post";
    form.action = action;
    form.hidden = true;
    fields.forEach(function (pair) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = pair[0];
      input.value = pair[1];
      form.appendChild(input);
    });
    document.body.appendChild(form);
    HTMLFormElement.prototype.submit.call(form);
  }

  function button(text, then) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.addEventListener("click", then);
    return b;
  }

  function unqueue(key) {
    write(QUEUE, queue().filter(function (q) { return q.key !== key; }));
  }

  function enqueue(item) {
    var q = queue();
    var at = q.findIndex(function (other) { return other.key === item.key; });
    if (at >= 0 && !q[at].held) return true; // already waiting
    // a refused entry put right takes its place: the deals after it wait for it
    if (at >= 0) q[at] = item; else q.push(item);
    return write(QUEUE, q);
  }

  function choosing() { return !!document.querySelector("[data-choice]"); }

  // Send what waits, oldest first; stop at the first that still cannot go. A refused
  // entry is held (with the server's reason) and holds back its match's later deals.
  // A deal the server says waits for an earlier one (another phone's) holds back
  // its own match only: the next match's deals go on (``skip``).
  var flushing = false;
  function flush(skip) {
    if (flushing) return;
    skip = skip || {};
    var q = queue();
    var held = []; // the entries held on the phone: those after them wait for the table
    var item = null;
    q.forEach(function (e) { if (e.held) held.push(e); });
    q.forEach(function (e) {
      if (e.held || skip[e.home] || held.some(function (h) { return before(h, e); })) return;
      // of a match, the lowest-numbered first (one typed in a freed place is queued last)
      if (!item) item = e;
      else if (e.home === item.home && e.number && item.number && e.number < item.number) item = e;
    });
    if (!item) return;
    flushing = true;
    send(item, false).then(function (answer) {
      flushing = false;
      var outcome = answer.outcome;
      if (outcome === "waiting") {
        if (answer.number) { // the server's "not yet": said, and tried again on its own
          if (item.waits !== answer.message) { update(item.key, { waits: answer.message || "?", trouble: null }); notes(); }
          skip[item.home] = true;
          flush(skip);
        } else if ((item.trouble || null) !== (answer.trouble || null)) {
          update(item.key, { trouble: answer.trouble || null }); // said on the sheet
          notes();
        }
        return;
      }
      if (outcome === "refused") {
        update(item.key, { held: answer.message || "?", waits: null });
        notes();
        return;
      }
      unqueue(item.key);
      saved(item, answer);
      forgetDraft(item);
      if (answer.message) told.push(answer.message);
      notes();
      if (outcome === "conflict" && answer.go && !choosing()) { goTo(answer.go); return; }
      if (outcome === "present") { present(item); return; }
      flush();
    });
  }

  // Whether ``first`` of a match is to be settled before ``then``: an entry of a
  // deal before it (one held after a deal undone elsewhere leaves that deal, entered
  // again here, to go first).
  function before(first, then) {
    if (first.home !== then.home) return false;
    return !(first.number && then.number && then.number < first.number);
  }

  // --- what the page says ----------------------------------------------------

  function mine(q) { return q.home === here() || q.action === here(); }

  // Whether ``q`` is held back on the phone behind a refused entry of its match (flush
  // sends nothing after one until it is put right): it waits for that, not for the
  // connection.
  function behindRefused(q) {
    return !q.held && !q.waits && queue().some(function (h) { return h.held && before(h, q); });
  }

  // One line per entry of ``list`` (its box's ``one``), or one for them all when
  // several deals are in it ("Deals 2–11: …", ``many``).
  function said(box, list, one, many) {
    var numbers = list.filter(function (q) { return q.number; }).map(function (q) { return q.number; });
    list.forEach(function (q) {
      if (numbers.length < 2 || !q.number) line(box, box.getAttribute(one).replace("{what}", q.label));
    });
    if (numbers.length > 1) line(box, box.getAttribute(many).replace("{list}", spans(numbers)));
  }

  function notes() {
    var box = document.getElementById("queue-note");
    if (!box) return;
    var waiting = queue().filter(mine);
    box.textContent = "";
    told.forEach(function (message) { line(box, message); });
    // waiting for the connection: one line for them all ("Deals 2–11: …"), and one
    // for an answer the server gave that was not the queue's (its error page); those
    // held back behind a refused one wait for it to be put right, and say so below it
    var plain = waiting.filter(function (q) { return !q.held && !q.waits && !behindRefused(q); });
    said(box, plain, "data-waiting", "data-waiting-many");
    var trouble = plain.filter(function (q) { return q.trouble; })[0];
    if (trouble) line(box, box.getAttribute("data-trouble").replace("{code}", String(trouble.trouble)));
    waiting.forEach(function (q) {
      // for a deal before it that is not in (it goes in on its own once that one is);
      // or held, refused, until it is put right
      if (!q.held && !q.waits) return;
      var p = q.held ? line(box, box.getAttribute("data-held").replace("{what}", q.label).replace("{why}", q.held))
        : line(box, box.getAttribute("data-waits").replace("{what}", q.label).replace("{why}", q.waits));
      var open = button(box.getAttribute("data-open"), function () { reopen(q); });
      // one the match can never take (it is over, say): thrown away, when the table says so
      var drop = button(box.getAttribute("data-drop"), function () {
        if (!window.confirm(box.getAttribute("data-drop-ask").replace("{what}", q.label))) return;
        unqueue(q.key);
        forgetDraft(q);
        location.reload(); // the form numbered past it is drawn again for the deal it was
      });
      p.appendChild(document.createTextNode(" "));
      p.appendChild(open);
      p.appendChild(document.createTextNode(" "));
      p.appendChild(drop);
    });
    // under the refused ones they wait for ("first put right the one refused above")
    said(box, waiting.filter(behindRefused), "data-behind", "data-behind-many");
    // the sheet's one-tap Undo is of a change before the deals that wait: not now
    document.querySelectorAll(".said form.undo").forEach(function (undo) { undo.hidden = waiting.length > 0; });
    rows(waiting);
    renumber(waiting); // first: a form sent and drawn blank holds no draft any more
    if (restored) line(box, box.getAttribute("data-restored"));
    if (aside) {
      var kept = line(box, box.getAttribute("data-aside").replace("{what}", aside.label));
      kept.appendChild(document.createTextNode(" "));
      kept.appendChild(button(box.getAttribute("data-open"), openAside));
    }
    box.hidden = !box.childNodes.length;
  }

  // "Open it": sent once more first (what refused it may have gone: an earlier deal
  // put right on another phone); still refused, or still after a deal that is not in,
  // its form with the reason, to put right or to save in that deal's place (held, so
  // that what is saved there takes its place in the queue, under its key).
  function reopen(q) {
    send(q, true).then(function (answer) {
      var outcome = answer.outcome;
      if (outcome === "waiting" && !answer.number) return; // no network: it stays
      if (outcome === "waiting" || outcome === "refused" || outcome === "present") {
        update(q.key, { held: answer.message || "?", waits: null });
        present(q);
        return;
      }
      unqueue(q.key);
      saved(q, answer);
      forgetDraft(q);
      if (answer.message) told.push(answer.message);
      notes();
      if (outcome === "conflict" && answer.go) { goTo(answer.go); return; }
      flush();
    });
  }

  // The draft of an earlier deal, posted as it was typed (its number, its page's
  // mark): the server draws that deal's form with it, or finds it the same deal.
  function openAside() {
    var csrf = aside.form.querySelector("input[name=csrf_token]"); // this page's, fresh
    var fields = aside.draft.fields.filter(function (pair) { return pair[0] !== "csrf_token"; });
    write(DRAFT + path(aside.form.action), null); // the page the server draws holds it
    post(aside.form.action, csrf ? fields.concat([["csrf_token", csrf.value]]) : fields);
  }

  // Deal numbers as runs: [2, 3, 4, 5, 7] → "2–5, 7".
  function spans(numbers) {
    var sorted = numbers.slice().sort(function (a, b) { return a - b; });
    var out = [];
    sorted.forEach(function (n, i) {
      if (i && n === sorted[i - 1] + 1) out[out.length - 1][1] = n; else out.push([n, n]);
    });
    return out.map(function (r) { return r[0] === r[1] ? String(r[0]) : r[0] + "–" + r[1]; }).join(", ");
  }

  function line(box, text) {
    var p = document.createElement("p");
    p.textContent = text;
    box.appendChild(p);
    return p;
  }

  // Each waiting deal as a row of its own at the foot of the sheet's deals table.
  function rows(waiting) {
    var body = document.querySelector("table.deals tbody");
    if (!body) return;
    body.querySelectorAll("tr.waiting, tr.waiting-note").forEach(function (tr) { tr.remove(); });
    // before the first deal the table is its head alone, shown only for what waits
    var unplayed = body.closest("[data-unplayed]");
    if (unplayed) unplayed.hidden = !waiting.some(function (q) { return q.number; });
    var box = document.getElementById("queue-note");
    var columns = body.closest("table").querySelectorAll("thead th").length - 1;
    waiting.filter(function (q) { return q.number; }).forEach(function (q) {
      var tr = document.createElement("tr");
      tr.className = "waiting";
      var th = document.createElement("th");
      th.scope = "row";
      th.textContent = String(q.number);
      tr.appendChild(th);
      var status = box.getAttribute(q.held || q.waits ? "data-row-held"
        : behindRefused(q) ? "data-row-behind" : "data-row-waiting");
      var td = document.createElement("td");
      td.colSpan = columns;
      td.textContent = status;
      // the counts typed, in their players' columns, so that the table can read them
      // over before they are sent; what waits under them
      if (q.counts && q.counts.length === columns) {
        q.counts.forEach(function (text) {
          var cell = document.createElement("td");
          cell.className = "typed";
          cell.textContent = text;
          tr.appendChild(cell);
        });
        tr.classList.add("counted");
        body.appendChild(tr);
        tr = document.createElement("tr");
        tr.className = "waiting-note";
        td.colSpan = columns + 1;
        if (q.counted) td.textContent = q.counted + " · " + status;
      }
      tr.appendChild(td);
      body.appendChild(tr);
    });
  }

  // The newest next deal this phone has shown of this page's match (static/scorer.js
  // remembers it: its mark and the match's version), if newer than this page: a page
  // kept from before (the deal page, opened without the network after the live sheet
  // showed deals since) is numbered from it, and its entry sent with that mark.
  function seen(el) {
    var home = el.tagName === "FORM" ? path(el.getAttribute("data-queue")) : here();
    var newest = read(SEEN, {})[home];
    var version = parseInt(el.getAttribute("data-version"), 10);
    return newest && newest.version > version ? newest : null;
  }

  // A new deal's form (or the sheet's link to it) on a page drawn before the deals
  // that wait, or before deals the phone has shown since: for the deal after them.
  // The newest mark is read once, as the page opens (``data-base``: the deal it is for
  // then); after that, never back: a deal of its own sent meanwhile stays sent, and
  // what is being typed is never wiped for a change seen in another tab.
  function renumber(waiting) {
    var el = document.querySelector("[data-deal]");
    // a form the server drew with what was typed and why it was refused holds that entry
    if (!el || el.hasAttribute("data-typed") || document.getElementById("error")) return;
    var form = el.tagName === "FORM" ? el : null;
    var drawn = parseInt(el.getAttribute("data-deal"), 10);
    var input = form && form.querySelector("input[name=number]");
    var shown = parseInt(input ? input.value : el.getAttribute("data-shown") || drawn, 10);
    var first = !el.hasAttribute("data-base");
    if (first) {
      var newer = seen(el);
      var mark = form && form.querySelector("input[name=expect]");
      if (newer && mark) mark.value = newer.mark;
      el.setAttribute("data-base", String(newer ? parseInt(newer.mark, 10) + 1 : drawn));
    }
    var after = parseInt(el.getAttribute("data-base"), 10);
    // the first deal from there that no entry waits as: one held after a deal that is
    // not in (undone elsewhere, thrown away here) leaves that deal to be entered first
    var taken = {};
    waiting.forEach(function (q) { if (q.number) taken[q.number] = true; });
    var next = after;
    while (taken[next]) next += 1;
    if (next === shown || (next < shown && !(first && after < drawn))) return;
    if (input) input.value = String(next); else el.setAttribute("data-shown", String(next));
    if (!label(el, form, next) || !form) return;
    // a game whose questions change with the deal before: they are not known here
    var other = !ahead(el).length;
    if (other && !form.querySelector(".other-questions")) {
      say(form, el.getAttribute("data-other-questions").replace("{what}", words(el.getAttribute("data-title-words"), next)));
    }
    form.classList.toggle("other", other);
    fresh(form);
  }

  function ahead(el) {
    try { return JSON.parse(el.getAttribute("data-ahead") || "[]"); } catch (e) { return []; }
  }

  // The page's title, facts and Save for deal ``next`` (what the server sent of the
  // deals ahead; else "not known"); false where the match is over before it.
  function label(el, form, next) {
    var later = ahead(el);
    // a match played to a number of deals is over after its last: no deal to offer
    if (later.some(function (a) { return a.over && next >= a.n; })) {
      document.querySelectorAll("[data-deal-title]").forEach(function (t) { t.textContent = el.getAttribute("data-over"); });
      document.querySelectorAll("[data-deal-facts], [data-deal-summary]").forEach(function (f) {
        (f.closest("details.facts-fold") || f).hidden = true;
      });
      el.hidden = true;
      return false;
    }
    var known = later.filter(function (a) { return a.n === next; })[0];
    var title = known ? known.title : words(el.getAttribute("data-title-words"), next);
    document.querySelectorAll("[data-deal-title]").forEach(function (t) { t.textContent = title; });
    var facts = document.querySelector("[data-deal-facts]");
    if (facts) {
      if (known) facts.outerHTML = known.facts;
      else {
        facts.textContent = "";
        var li = document.createElement("li");
        li.textContent = el.getAttribute("data-unknown");
        facts.appendChild(li);
      }
    }
    var summary = document.querySelector("[data-deal-summary]");
    if (summary) summary.textContent = known ? known.summary : el.getAttribute("data-unknown");
    var save = form ? form.querySelector("[data-save]") : el;
    if (save) save.textContent = words(el.getAttribute("data-save-words"), next);
    return true;
  }

  // A word at the head of the form (brought into sight when ``show``).
  function say(form, text, show) {
    var note = form.querySelector(".other-questions");
    if (!note) {
      note = document.createElement("p");
      note.className = "hint other-questions";
      note.setAttribute("role", "status");
      form.insertBefore(note, form.firstChild);
    }
    note.textContent = text;
    if (show) note.scrollIntoView({ block: "center" });
  }

  // The form blank again for the next deal: what the page drew, a key of its own.
  function fresh(form) {
    var deal = form.querySelector("input[name=number]").value;
    form.reset();
    form.querySelector("input[name=number]").value = deal;
    var key = form.querySelector("input[name=key]");
    if (key) key.value = freshKey();
    form.drawn = bare(fieldsOf(form));
    recount(form);
    form.removeAttribute("data-typed"); // static/live.js: nothing typed into it yet
    restored = false; // what came back was sent: the blank form holds nothing of it
    form.dispatchEvent(new CustomEvent("scorer:fresh")); // static/pad.js outlines the first count
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
    var drafted = {};
    draft.fields.forEach(function (pair) { drafted[pair[0]] = true; });
    // a count this form asks that the draft's form did not (an unpicked chip is in neither)
    var more = Array.prototype.some.call(form.elements, function (el) {
      return el.name && el.name !== "csrf_token" && !drafted[el.name] && !/^(radio|checkbox|submit|button|reset|file)$/.test(el.type);
    });
    if (more || !draft.fields.every(function (pair) { return names[pair[0]]; })) {
      // another form now: a draft of an earlier deal (saved elsewhere since; in a game
      // whose questions change from deal to deal) is offered to open as that deal
      var typedAs = draft.fields.filter(function (p) { return p[0] === "number"; })[0];
      var drawnAs = form.querySelector("input[name=number]");
      if (typedAs && drawnAs && parseInt(typedAs[1], 10) < parseInt(drawnAs.value, 10)) {
        aside = { form: form, draft: draft, label: words(form.getAttribute("data-queue-label"), typedAs[1]) };
      }
      return;
    }
    if (bare(draft.fields) === form.drawn) {
      write(name, null); // nothing typed beyond what the page shows
      return;
    }
    // a draft of another deal (a new deal's, typed before this page's deal was saved
    // elsewhere) comes back as that deal, with its page's mark: sent, the server says
    // whether it is the same deal or another entry of it, never a later deal
    var number = form.querySelector("input[name=number]");
    var was = draft.fields.filter(function (p) { return p[0] === "number"; })[0];
    if (number && was && was[1] !== number.value) {
      number.value = was[1];
      label(form, form, parseInt(was[1], 10));
    }
    var seen = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.name === "csrf_token" || el.name === "number" || /^(submit|button|file|reset)$/.test(el.type)) return;
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
    form.setAttribute("data-typed", ""); // not renumbered under it
    recount(form);
  }

  // The number entry (static/entry.js) counts again and updates its suggestions: every
  // count, typed ones (inputmode "numeric") and the pad's ("none") alike.
  function recount(form) {
    form.querySelectorAll("fieldset.counts input").forEach(function (input) {
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
    renumber(queue().filter(mine));
    restore(form);
    var typed = function () {
      keepDraft(form); // in the draft's place: an earlier deal's, set aside, goes
      if (aside) { aside = null; notes(); }
    };
    form.addEventListener("input", function () { typed(); form.setAttribute("data-typed", ""); });
    form.addEventListener("change", typed);
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
      if (form.classList.contains("other")) { event.preventDefault(); release(form); return; }
      if (!window.fetch || !window.URLSearchParams || !write("scorer.probe", null)) return;
      event.preventDefault();
      var item = itemOf(form);
      keepDraft(form); // this entry, until the server has it
      // behind an entry of the same match that comes before it, it waits too: in order
      var behind = queue().some(function (q) { return q.key !== item.key && before(q, item); });
      var sending = behind ? Promise.resolve({ outcome: "waiting" }) : send(item, true);
      sending.then(function (answer) {
        var outcome = answer.outcome;
        if (outcome === "saved" || outcome === "same" || (outcome === "conflict" && answer.go)) {
          unqueue(item.key); // held here before, opened and saved: it waits no more
          forgetDraft(item);
          saved(item, answer);
          if (outcome === "conflict") goTo(answer.go); else location.assign(item.home);
          return;
        }
        if (outcome === "waiting" && form.hasAttribute("data-steps-first")) {
          // its counts come with the server's next step: nothing whole to keep yet
          release(form);
          say(form, form.getAttribute("data-steps-first").replace("{what}", item.label), true);
          return;
        }
        if (outcome === "waiting") {
          if (!enqueue(item)) { release(form); HTMLFormElement.prototype.submit.call(form); return; }
          write(DRAFT + item.action, null); // the queue holds it now
          release(form);
          form.removeAttribute("data-typed");
          cached(item.home).then(function (there) {
            if (there && item.home !== here()) { location.assign(item.home); return; }
            notes();
            if (!behind) flush();
            var box = document.getElementById("queue-note");
            if (box) box.scrollIntoView({ block: "center" });
          });
          return;
        }
        present(item); // refused, or a page of its own: the server draws it with the entry
      });
    });
  }

  function setUpAll() {
    document.querySelectorAll("form[data-queue]:not([data-queued])").forEach(function (form) {
      form.setAttribute("data-queued", "");
      setUp(form);
    });
  }
  // the live sheet draws the sheet afresh (static/live.js): its form, its rows
  document.addEventListener("scorer:redrawn", function () { setUpAll(); notes(); });

  // Loaded with a deal form's other scripts (forms.js): by a page drawn with a deal
  // form, or by static/scorer.js when the live sheet draws one or an entry waits.
  function start() {
    setUpAll();
    notes();
    flush();
    window.addEventListener("online", function () { flush(); });
    window.addEventListener("storage", notes); // another tab queued or sent something
    window.addEventListener("pageshow", function (event) { if (event.persisted) { notes(); flush(); } });
    document.addEventListener("visibilitychange", function () { if (!document.hidden) flush(); });
    setInterval(function () { if (!document.hidden) flush(); }, RETRY);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
