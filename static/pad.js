// Scorer: the number pad of a deal form: one tap a count. The pad holds every number
// a count of the deal can be (0 to 13 for hearts; Variety's one count, the attackers'
// tricks, too); a tap writes it into the count the
// outline marks and moves the outline to the next count left to type (not one the app
// fills in: static/entry.js shows those as suggestions; with nothing left to type, the
// outline goes to the question's suggestion, then stays on the last count tapped, so
// a tap puts it otherwise). A tap on a count moves the outline there. The phone's keyboard stays shut (it would cover the form); a real
// keyboard still types. Without JavaScript the pad stays hidden and the counts are typed.
(function () {
  "use strict";

  function setUp(form) {
    var pad = form.querySelector("[data-pad]");
    if (!pad || pad.hasAttribute("data-ready")) return;
    pad.setAttribute("data-ready", "");
    var top = pad.querySelectorAll("button").length - 1;
    var inputs = Array.prototype.slice.call(form.querySelectorAll("fieldset.counts input"))
      .filter(function (i) { return parseInt(i.getAttribute("max"), 10) <= top; });
    if (!inputs.length) return;
    var current = null;

    // the pad's name to a screen reader: the question and whose count it fills ("Hearts taken: Bartek")
    function nameOf(input) {
      var label = form.querySelector("label[for='" + input.id + "']");
      var legend = input.closest("fieldset").querySelector("legend");
      var drawn = label && label.querySelector(".name[title]");  // a player's name (player_names)
      var name = drawn ? drawn.title : label ? label.textContent.trim() : "";
      if (legend && legend.contains(label)) return name;  // one count: its question
      return (legend ? legend.firstChild.textContent.trim() + ": " : "") + name;
    }

    function mark(input) {
      if (current) current.classList.remove("current");
      current = input;
      if (input) {
        input.classList.add("current");
        pad.setAttribute("aria-label", nameOf(input));
      }
    }

    // the first count after `from` (or from the start) that is blank and not filled in
    function open(from) {
      var later = inputs.slice(from ? inputs.indexOf(from) + 1 : 0);
      for (var k = 0; k < later.length; k++) {
        if (later[k].value === "" && !later[k].classList.contains("auto")) return later[k];
      }
      return null;
    }

    // nothing left to type in the question of `input`: the count the app filled in
    // there, which a tap then puts otherwise
    function suggested(input) {
      var box = input.closest("fieldset");
      for (var k = 0; k < inputs.length; k++) {
        var other = inputs[k];
        if (other.closest("fieldset") === box && other.value === "" && other.classList.contains("auto")) return other;
      }
      return null;
    }

    inputs.forEach(function (input) {
      input.setAttribute("inputmode", "none");
      input.addEventListener("focus", function () { mark(input); });
    });
    pad.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-value]");
      if (!button) return;
      var input = current || open(null);
      if (!input) return;
      input.value = button.getAttribute("data-value");
      // static/entry.js recounts (a paste-like input: it does not move focus itself)
      input.dispatchEvent(new Event("input", { bubbles: true }));
      if (document.activeElement === input) input.blur();
      // the next count left to type; else this question's suggestion, else this count
      // again: the outline always says where the next tap goes
      mark(open(input) || suggested(input) || input);
    });
    pad.hidden = false;
    form.classList.add("padded");
    mark(open(null));
    // static/queue.js made the form blank for the next deal
    form.addEventListener("scorer:fresh", function () { mark(open(null)); });
  }

  function setUpAll() {
    document.querySelectorAll("form.deal").forEach(setUp);
  }
  // on a page drawn with a deal form this file is linked; where the live sheet draws
  // one later, static/scorer.js loads it then
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUpAll);
  else setUpAll();
  // the live sheet drew a new form (static/live.js)
  document.addEventListener("scorer:redrawn", setUpAll);
  // an auction's last call brought its count and the pad in place (static/taps.js)
  document.addEventListener("htmx:load", function (event) {
    var form = event.detail.elt.closest && event.detail.elt.closest("form.deal");
    if (form) setUp(form);
  });
})();
