// pnp table: the live page. It follows the game through the table's own API and updates itself
// in place, keeping a form being filled in while it still applies; it enters steps through
// POST api/step (and the rest). The page works without this file: its forms post and it reloads.
//
// One connection per browser: the tabs of one browser share one event stream. One tab holds it
// (a Web Lock, passed on when that tab closes) and tells the others through a BroadcastChannel;
// a browser without them asks for the state every few seconds instead.
//
// No lost tap: an entry made while the table is out of reach is kept (in this tab's session
// storage, with its form's key) and sent again until the table answers; the key makes it count
// once however often it is sent. The page says it is offline, then that the entry is in — or
// that it was refused, and why.
(function () {
  "use strict";
  var body = document.body;
  var change = parseInt(body.dataset.change || "0", 10);
  var board = body.dataset.view === "board";
  var touched = null;      // the key of the form being filled in, if any
  var busy = false, again = false;
  var SECTIONS = ["notice", "next", "position", "last", "history", "tools"];
  var PENDING = "pnp-pending:" + location.pathname;
  var channel = window.BroadcastChannel ? new BroadcastChannel("pnp-table:" + location.host) : null;

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
    form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    send({api: form.dataset.api, body: data.toString()}, form);
  });

  // Post one entry; kept and sent again while the table is out of reach.
  function send(entry, form) {
    fetch(entry.api + "?fragments=1" + (board ? "&view=board" : ""), {
      method: "POST", body: entry.body, credentials: "same-origin",
      headers: {"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"}})
      .then(function (response) {
        if ((response.headers.get("content-type") || "").includes("json")) return response.json();
        forget(entry);  // answered, but not by the table's API: its words, and nothing kept
        if (response.status === 403) { lost(); return null; }
        return response.text().then(function (text) {
          banner(text, "bad");
          if (form) form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
          return null;
        });
      })
      .then(function (answer) {
        if (!answer) return;
        var was = pending().length;
        forget(entry);
        online(was > 0 && answer.ok);
        if (answer.ok) { touched = null; draw(answer.state, true); return; }
        if (answer.state) { touched = null; draw(answer.state, false); }
        if (answer.fragments && answer.fragments.notice !== undefined) place("notice", answer.fragments.notice);
        if (form) form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
        var notice = document.querySelector("#notice section");
        if (notice) notice.scrollIntoView({block: "nearest"});
      })
      .catch(function () {  // out of reach: keep it, say so, and try again
        keep(entry);
        offline();
        setTimeout(retry, 1500);
      });
  }

  function pending() {
    try { return JSON.parse(sessionStorage.getItem(PENDING) || "[]"); } catch (e) { return []; }
  }
  function keep(entry) {
    var list = pending().filter(function (e) { return e.body !== entry.body; });
    list.push(entry);
    try { sessionStorage.setItem(PENDING, JSON.stringify(list)); } catch (e) { /* a private window: kept in memory */ }
  }
  function forget(entry) {
    var list = pending().filter(function (e) { return e.body !== entry.body; });
    try { sessionStorage.setItem(PENDING, JSON.stringify(list)); } catch (e) { /* nothing kept */ }
  }
  function retry() { pending().forEach(function (entry) { send(entry, null); }); }

  function banner(text, kind) {
    var where = document.getElementById("offline");
    if (!where) return;
    where.textContent = text || "";
    where.hidden = !text;
    where.className = "banner offline" + (kind ? " " + kind : "");
  }
  var isOffline = false;
  function offline() { isOffline = true; banner(body.dataset.offline, ""); }
  function online(sent) {
    if (sent) { banner(body.dataset.sent, "good"); setTimeout(function () { if (!isOffline) banner(""); }, 4000); }
    else if (isOffline) { banner(body.dataset.online, "good"); setTimeout(function () { if (!isOffline) banner(""); }, 3000); }
    isOffline = false;
  }
  function lost() { banner(body.dataset.lost, "bad"); }

  // Draw a state answer's parts, keeping the form being filled in if the new parts still offer it.
  // A refusal's notice stays until the seat's own next step (`own`), whatever others do.
  function draw(state, own) {
    if (!state || !state.fragments) return;
    var had = !!document.querySelector("#next form[data-api]");
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
        holder.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
        banner.hidden = true;
      } else {
        touched = null;
        banner.textContent = body.dataset.gone;  // the page's words, in its language
        banner.hidden = false;
      }
    }
    var next = document.getElementById("next");
    if (!had && next && document.querySelector("#next form[data-api]")) {  // the seat's turn has come: its form in view
      var top = next.getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight * 0.6) next.scrollIntoView({block: "start"});
    }
  }

  // The board is drawn alike for every seat seeing the same position; this page marks its own mat.
  function mine() {
    var seat = body.dataset.seat;
    document.querySelectorAll("#position .mat[data-player]").forEach(function (mat) {
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
    fetch("api/state?fragments=1" + (board ? "&view=board" : ""), {cache: "no-store", credentials: "same-origin"})
      .then(function (response) {
        if (response.status === 403) { lost(); return null; }
        return response.ok ? response.json() : null;
      })
      .then(function (state) { if (state && state.change !== change) draw(state, false); })
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }

  function thinking(players) {
    var where = document.querySelector("#status .thinking");
    if (!where) return;
    where.hidden = !players.length;
    where.textContent = players.length ? "· " + (body.dataset.thinking || "{players} …").replace("{players}", players.join(", ")) : "";
  }

  // What the shared stream says, in every tab.
  function heard(message) {
    if (message.type === "change" && message.change !== change) refresh();
    if (message.type === "online") { if (message.change !== change) refresh(); online(false); retry(); }
    if (message.type === "offline") offline();
    if (message.type === "thinking") thinking(message.players);
  }
  function tell(message) { heard(message); if (channel) channel.postMessage(message); }

  // The tab that holds the lock holds the one stream; when it cannot (its link revoked), it lets go.
  function lead() {
    return new Promise(function (letGo) {
      var source = new EventSource("api/events");
      source.addEventListener("hello", function (event) { tell({type: "online", change: JSON.parse(event.data).change}); });
      source.addEventListener("change", function (event) { tell({type: "change", change: JSON.parse(event.data).change}); });
      source.addEventListener("thinking", function (event) { tell({type: "thinking", players: JSON.parse(event.data).players}); });
      source.onerror = function () {
        tell({type: "offline"});
        if (source.readyState === EventSource.CLOSED) {
          fetch("api/state", {cache: "no-store", credentials: "same-origin"}).then(function (response) {
            if (response.status === 403) { lost(); source.close(); letGo("lost"); }
            else { source.close(); setTimeout(function () { letGo(); }, 1000); }
          }).catch(function () { source.close(); setTimeout(function () { letGo(); }, 1000); });
        }
      };
    });
  }

  function poll() {  // no shared stream in this browser: the state every few seconds (its ETag answers 304 when unchanged)
    fetch("api/state" + (board ? "?view=board" : ""), {cache: "no-cache", credentials: "same-origin"})
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) { if (isOffline) online(false); if (state && state.change !== change) refresh(); retry(); })
      .catch(function () { offline(); })
      .then(function () { setTimeout(poll, 3000); });
  }

  if (channel && navigator.locks && window.EventSource) {
    channel.onmessage = function (event) { heard(event.data); };
    var hold = function () {
      return navigator.locks.request("pnp-events:" + location.host, lead).then(function (why) { if (why !== "lost") hold(); });
    };
    hold();
  } else {
    poll();
  }
  if (pending().length) { offline(); retry(); }

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
