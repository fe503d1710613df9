// Scorer: number entry on a deal form that never fights the player. Every page works
// without it (the server fills in the one count left blank, or 0s once the total is made).
//
// - The count the others leave over is shown as a suggestion (the field's placeholder),
//   never written into the field: typing replaces it, clearing a field leaves it clear.
// - A count that already makes the total (13 hearts to one player) shows 0 for the others.
// - Focus moves on by itself once the digits typed cannot grow into a larger valid number.
// - Enter moves to the next field; only from the last field does it save.
(function () {
  "use strict";

  function number(input) {
    return /^[0-9]+$/.test(input.value) ? parseInt(input.value, 10) : null;
  }

  // Every number field of a form, in order (counts and single numbers alike).
  function numberFields(form) {
    return Array.prototype.slice.call(form.querySelectorAll("input[inputmode]"))
      .filter(function (i) { return !i.disabled && i.type !== "hidden"; });
  }

  function Counts(fieldset) {
    this.fieldset = fieldset;
    this.total = fieldset.hasAttribute("data-total") ? parseInt(fieldset.getAttribute("data-total"), 10) : null;
    this.inputs = Array.prototype.slice.call(fieldset.querySelectorAll("input[inputmode]"));
    this.left = fieldset.querySelector("[data-left]");
    this.of = fieldset.hasAttribute("data-of") ? parseInt(fieldset.getAttribute("data-of"), 10) : null;
    this.restNote = fieldset.querySelector("[data-rest]");
    this.inputs.forEach(function (i) { i.setAttribute("data-placeholder", i.getAttribute("placeholder") || ""); });
    fieldset.counts = this;
  }

  Counts.prototype.typed = function () {
    return this.inputs.reduce(function (a, i) { var v = number(i); return a + (v === null ? 0 : v); }, 0);
  };

  // The count the others leave over for this field: what it may still grow into.
  Counts.prototype.room = function (input) {
    var max = parseInt(input.getAttribute("max"), 10);
    if (this.total === null) return isNaN(max) ? Infinity : max;
    var others = this.typed() - (number(input) || 0);
    var room = this.total - others;
    return isNaN(max) ? room : Math.min(max, room);
  };

  // The fields left blank that the app would fill in, and with what.
  Counts.prototype.suggestions = function () {
    if (this.total === null) return [];
    var open = this.inputs.filter(function (i) { return i.value === ""; });
    var sum = this.typed();
    if (open.length === 1 && sum <= this.total) return [[open[0], this.total - sum]];
    if (open.length > 1 && sum === this.total) return open.map(function (i) { return [i, 0]; });
    return [];
  };

  Counts.prototype.refresh = function () {
    if (this.of !== null && this.restNote) { // one number for one side: say what the other side took
      var mine = number(this.inputs[0]);
      if (mine !== null && mine <= this.of) {
        this.restNote.textContent = this.restNote.getAttribute("data-words").replace("{n}", String(this.of - mine));
      }
    }
    if (this.total === null) return;
    this.inputs.forEach(function (i) {
      i.classList.remove("auto");
      i.setAttribute("placeholder", i.getAttribute("data-placeholder"));
    });
    var filled = this.suggestions();
    filled.forEach(function (pair) {
      pair[0].setAttribute("placeholder", String(pair[1]));
      pair[0].classList.add("auto");
    });
    if (this.left) {
      var all = this.typed() + filled.reduce(function (a, p) { return a + p[1]; }, 0);
      var open = this.inputs.filter(function (i) { return i.value === ""; }).length - filled.length;
      this.left.textContent = all === this.total ? "✓ " + all + " / " + this.total : all + " / " + this.total;
      this.left.classList.toggle("bad", all !== this.total && open === 0);
    }
  };

  // The field a finished count moves on to: the next blank one the app does not fill
  // in, else the form's Save button (so Enter there saves).
  function nextField(form, input) {
    var fields = numberFields(form);
    var later = fields.slice(fields.indexOf(input) + 1);
    for (var k = 0; k < later.length; k++) {
      if (later[k].value === "" && !later[k].classList.contains("auto")) return later[k];
    }
    return null;
  }

  function moveOn(form, input) {
    var next = nextField(form, input);
    if (next) { next.focus(); return; }
    var save = form.querySelector("button.primary[type=submit]");
    input.blur(); // the phone's keyboard closes: the chips below come into view
    if (save) save.focus({preventScroll: true});
  }

  // The digits typed so far are a whole count: no further digit keeps it valid.
  function complete(input, counts) {
    var v = number(input);
    if (v === null) return false;
    if (input.value.length > 1 && input.value.charAt(0) === "0") return true;
    return v === 0 || v * 10 > counts.room(input);
  }

  function setUpCounts(form, fieldset) {
    if (fieldset.counts) return; // already
    var counts = new Counts(fieldset);
    counts.inputs.forEach(function (input) {
      input.addEventListener("input", function (event) {
        counts.refresh();
        // only what the player typed moves on, not a paste or a stepper
        if (event.inputType === "insertText" && complete(input, counts)) moveOn(form, input);
      });
    });
    fieldset.querySelectorAll("button.step").forEach(function (button) {
      button.addEventListener("click", function () {
        var input = button.parentNode.querySelector("input");
        var max = parseInt(input.getAttribute("max"), 10);
        // a step from the suggestion, if the field shows one
        var from = number(input);
        if (from === null) from = input.classList.contains("auto") ? parseInt(input.getAttribute("placeholder"), 10) : 0;
        var v = from + parseInt(button.getAttribute("data-step"), 10);
        if (v < 0) v = 0;
        if (!isNaN(max) && v > max) v = max;
        input.value = String(v);
        counts.refresh();
      });
    });
    counts.refresh();
  }

  function setUp(form) {
    form.querySelectorAll("fieldset.counts").forEach(function (fieldset) { setUpCounts(form, fieldset); });
    // Enter in a number field moves to the next field; from the last one it saves.
    form.addEventListener("keydown", function (event) {
      var input = event.target;
      if (event.key !== "Enter" || input.tagName !== "INPUT" || !input.hasAttribute("inputmode")) return;
      event.preventDefault();
      var fields = numberFields(form);
      var at = fields.indexOf(input);
      if (at >= 0 && at < fields.length - 1) { fields[at + 1].focus(); return; }
      var save = form.querySelector("button.primary[type=submit]");
      if (form.requestSubmit) form.requestSubmit(save || undefined); else form.submit();
    });
  }

  function setUpAll() {
    document.querySelectorAll("form.deal:not([data-entry])").forEach(function (form) {
      form.setAttribute("data-entry", "");
      setUp(form);
    });
  }
  // on a page drawn with a deal form this file is linked; where the live sheet draws
  // one later, static/scorer.js loads it then
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUpAll);
  else setUpAll();
  document.addEventListener("scorer:redrawn", setUpAll); // the live sheet drew a new form
  // A part of the form swapped in without a reload (an auction's call, static/taps.js)
  // brings the counts that now apply.
  document.addEventListener("htmx:load", function (event) {
    var elt = event.detail.elt;
    var form = elt.closest && elt.closest("form.deal");
    if (!form) return;
    if (elt.matches("fieldset.counts")) setUpCounts(form, elt);
    elt.querySelectorAll("fieldset.counts").forEach(function (fieldset) { setUpCounts(form, fieldset); });
  });
})();
