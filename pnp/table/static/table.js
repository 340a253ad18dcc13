// pnp table: the live page. It follows the game through the table's own API (GET /api/events,
// then GET /api/state with the page's parts drawn for this seat) and updates itself in place,
// keeping a form being filled in while it still applies; it enters steps through POST
// /api/step and /api/undo. The page works without this file (the forms post, reload by hand).
(function () {
  "use strict";
  var body = document.body;
  var change = parseInt(body.dataset.change || "0", 10);
  var touched = null;      // the key of the form being filled in, if any
  var busy = false, again = false;
  var SECTIONS = ["notice", "next", "position", "last", "history", "tools"];

  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && form.dataset.key) { touched = form.dataset.key; total(form); }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.dataset.api || !window.fetch) return;
    event.preventDefault();
    var data = new URLSearchParams(new FormData(form));
    if (event.submitter && event.submitter.name) data.append(event.submitter.name, event.submitter.value);
    var buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    fetch(form.dataset.api + "?fragments=1", {method: "POST", body: data, credentials: "same-origin",
                                              headers: {"Accept": "application/json"}})
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        if (answer.ok) { touched = null; draw(answer.state, true); }
        else {
          if (answer.state) { touched = null; draw(answer.state, false); }
          if (answer.fragments && answer.fragments.notice !== undefined) place("notice", answer.fragments.notice);
          buttons.forEach(function (b) { b.disabled = false; });
          var notice = document.querySelector("#notice section");
          if (notice) notice.scrollIntoView({block: "nearest"});
        }
      })
      .catch(function () { form.submit(); });  // the API unreachable: post the form as a page does
  });

  // Draw a state answer's parts, keeping the form being filled in if the new parts still offer it.
  // A refusal's notice stays until the seat's own next step (`own`), whatever others do.
  function draw(state, own) {
    if (!state || !state.fragments) return;
    change = state.change;
    body.dataset.version = state.version;
    body.dataset.change = state.change;
    document.getElementById("status").innerHTML = state.fragments.status;
    var kept = touched && document.querySelector('#next form[data-key="' + cssEscape(touched) + '"]');
    var holder = kept && (kept.closest("details.action") || kept);
    SECTIONS.forEach(function (name) { if (name !== "notice" || own) place(name, state.fragments[name]); });
    mine();
    var banner = document.getElementById("changed");
    if (holder) {
      var fresh = document.querySelector('#next form[data-key="' + cssEscape(touched) + '"]');
      if (fresh) {
        var target = fresh.closest("details.action") || fresh;
        target.replaceWith(holder);
        holder.querySelectorAll('input[name="v"]').forEach(function (v) { v.value = state.version; });
        for (var up = holder.parentElement; up; up = up.parentElement) { if (up.tagName === "DETAILS") up.open = true; }
        banner.hidden = true;
      } else {
        touched = null;
        banner.textContent = body.dataset.gone;  // the page's words, in its language
        banner.hidden = false;
      }
    }
  }

  // The board is drawn alike for every seat seeing the same position; this page marks its own mat.
  function mine() {
    var seat = body.dataset.seat;
    document.querySelectorAll(".mat[data-player]").forEach(function (mat) {
      mat.classList.toggle("mine", mat.dataset.player === seat);
    });
  }
  mine();

  function place(name, html) {
    var where = document.getElementById(name);
    if (where && html !== undefined) where.innerHTML = html;
  }

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch("/api/state?fragments=1", {cache: "no-store", credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) { if (state && state.change !== change) draw(state, false); })
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }

  if (window.EventSource) {
    var events = new EventSource("/api/events");
    events.addEventListener("change", function (event) {
      var told = JSON.parse(event.data);
      if (told.change !== change) refresh();
    });
    events.addEventListener("hello", function (event) {  // (re)connected: catch up on what was missed
      if (JSON.parse(event.data).change !== change) refresh();
    });
  }

  function cssEscape(text) { return window.CSS && CSS.escape ? CSS.escape(text) : text.replace(/"/g, '\\"'); }

  // Σ weight × value against the limit, as the rules' budget says (the engine still judges).
  function total(form) {
    if (!form.dataset.weights) return;
    var weights = JSON.parse(form.dataset.weights), sum = 0;
    weights.forEach(function (pair) {
      var field = form.querySelector('[name="' + pair[0] + '"]:checked') || form.querySelector('select[name="' + pair[0] + '"]');
      if (field) sum += pair[1] * parseFloat(field.value || "0");
    });
    var limit = parseFloat(form.dataset.limit), line = form.querySelector(".total");
    line.hidden = false;
    line.textContent = body.dataset.costs.replace("{sum}", sum).replace("{limit}", limit);
    line.classList.toggle("over", sum > limit);
  }
})();
