// pnp table: follow the game from other devices, and a running total for forms with a budget.
// The page works without this file; it only saves reloading by hand.
(function () {
  "use strict";
  var body = document.body;
  var version = body.dataset.version;
  var every = parseInt(body.dataset.poll || "1500", 10);
  var touched = false;

  document.addEventListener("change", function (event) {
    if (event.target.form) { touched = true; total(event.target.form); }
  });
  document.addEventListener("submit", function (event) {
    var buttons = event.target.querySelectorAll("button");
    setTimeout(function () { buttons.forEach(function (b) { b.disabled = true; }); }, 0);
  });

  function check() {
    if (!version) return;
    fetch("/version", {cache: "no-store", credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (!data || data.version === version) return;
        if (touched) { document.getElementById("changed").hidden = false; }
        else { window.location.assign("/"); }
      })
      .catch(function () {});
  }
  setInterval(check, every);

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
    line.textContent = "costs " + sum + " of " + limit;
    line.classList.toggle("over", sum > limit);
  }
})();
