// Scorer: a little vanilla JS that only makes entry faster. Every page works without it.
(function () {
  "use strict";

  function counts(fieldset) {
    var total = fieldset.hasAttribute("data-total") ? parseInt(fieldset.getAttribute("data-total"), 10) : null;
    var inputs = Array.prototype.slice.call(fieldset.querySelectorAll("input"));
    var left = fieldset.querySelector("[data-left]");
    // An input the player typed in (or stepped) is theirs; the one left over is the app's.
    inputs.forEach(function (input) {
      if (input.value !== "" && !input.hasAttribute("data-auto")) input.setAttribute("data-typed", "");
    });
    var of = fieldset.hasAttribute("data-of") ? parseInt(fieldset.getAttribute("data-of"), 10) : null;
    var restNote = fieldset.querySelector("[data-rest]");
    function refresh() {
      // one number for one side: say what the other side took
      if (of !== null && restNote) {
        var mine = parseInt(inputs[0].value, 10);
        if (!isNaN(mine) && mine >= 0 && mine <= of) restNote.textContent = restNote.getAttribute("data-words").replace("{n}", String(of - mine));
      }
      if (total === null) return;
      var open = inputs.filter(function (i) { return !i.hasAttribute("data-typed"); });
      var sum = inputs.filter(function (i) { return i.hasAttribute("data-typed"); })
        .reduce(function (a, i) { return a + (parseInt(i.value, 10) || 0); }, 0);
      inputs.forEach(function (i) { i.classList.remove("auto"); });
      if (open.length === 1) {
        var rest = total - sum;
        open[0].value = rest >= 0 ? String(rest) : "";
        open[0].setAttribute("data-auto", "");
        open[0].classList.add("auto");
      } else {
        open.forEach(function (i) { if (i.hasAttribute("data-auto")) { i.value = ""; i.removeAttribute("data-auto"); } });
      }
      if (left) {
        var all = inputs.reduce(function (a, i) { return a + (parseInt(i.value, 10) || 0); }, 0);
        left.textContent = all === total ? "✓ " + all + " / " + total
                                         : all + " / " + total;
        left.classList.toggle("bad", all !== total && open.length <= 1);
      }
    }
    inputs.forEach(function (input) {
      input.addEventListener("input", function () {
        input.removeAttribute("data-auto");
        if (input.value === "") input.removeAttribute("data-typed"); else input.setAttribute("data-typed", "");
        refresh();
      });
    });
    fieldset.querySelectorAll("button.step").forEach(function (button) {
      button.addEventListener("click", function () {
        var input = button.parentNode.querySelector("input");
        var max = parseInt(input.getAttribute("max"), 10);
        var v = (parseInt(input.value, 10) || 0) + parseInt(button.getAttribute("data-step"), 10);
        if (v < 0) v = 0;
        if (!isNaN(max) && v > max) v = max;
        input.value = String(v);
        input.removeAttribute("data-auto");
        input.setAttribute("data-typed", "");
        refresh();
      });
    });
    refresh();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("fieldset.counts").forEach(counts);
    // A double tap on Save sends one form, not two (the server refuses a repeat as well).
    document.querySelectorAll("form[data-once]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (form.hasAttribute("data-sent")) { event.preventDefault(); return; }
        form.setAttribute("data-sent", "");
        form.querySelectorAll("button[type=submit]").forEach(function (b) { b.setAttribute("aria-disabled", "true"); b.classList.add("sent"); });
      });
    });
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
    var error = document.getElementById("error");
    if (error) error.scrollIntoView({block: "center"});
  });
})();
