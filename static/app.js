// scorekeeper: progressive enhancement only. Every form also works without this file.
(function () {
  "use strict";

  if ("serviceWorker" in navigator && document.body.dataset.sw) {
    navigator.serviceWorker.register(document.body.dataset.sw, { scope: "/" }).catch(function () {});
  }

  // Keep the screen on while a table is open (Wake Lock API where the browser has it).
  var wakeLock = null;
  function keepAwake() {
    if (!document.querySelector("[data-wake]") || !("wakeLock" in navigator)) return;
    if (document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (lock) { wakeLock = lock; }).catch(function () {});
  }

  function sheet() { return document.getElementById("sheet"); }

  // A phone that slept or lost its stream catches up as soon as it is looked at again.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      keepAwake();
      if (sheet() && window.htmx) window.htmx.trigger(sheet(), "refresh");
    }
  });

  // Do not wipe what someone is typing when another phone moves; refresh when they leave the field.
  var pending = false;
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var el = evt.detail.elt;
    if (!el || el.id !== "sheet" || evt.detail.requestConfig.verb !== "get") return;
    var active = document.activeElement;
    if (active && el.contains(active) && active.value && active.matches("input[type=text], input:not([type]), textarea")) {
      evt.preventDefault();
      pending = true;
    }
  });
  document.addEventListener("focusout", function () {
    if (pending && sheet() && window.htmx) {
      pending = false;
      setTimeout(function () { window.htmx.trigger(sheet(), "refresh"); }, 50);
    }
  });

  // The "new table" form shows only the chosen game's house rules.
  function showHouseRules() {
    var chosen = document.querySelector("input[name=game]:checked");
    document.querySelectorAll("fieldset.house").forEach(function (fs) {
      fs.hidden = !chosen || fs.dataset.game !== chosen.value;
    });
  }
  document.addEventListener("change", function (evt) {
    if (evt.target && evt.target.name === "game") showHouseRules();
  });

  document.addEventListener("DOMContentLoaded", function () {
    showHouseRules();
    keepAwake();
  });
  document.addEventListener("htmx:afterSwap", function () {
    var pop = document.querySelector("#sheet .scored");
    if (pop) pop.classList.add("show");
  });
  window.scorekeeper = { wakeLock: function () { return wakeLock; } };
})();

// muggins: an optional "Muggins!" sound. Off until this phone's player switches it on; each
// muggins is heard once per page, not again when the sheet redraws itself.
(function () {
  "use strict";
  var KEY = "scorekeeper.muggins.sound";
  var heard = null;
  function on() { try { return window.localStorage.getItem(KEY) === "on"; } catch (e) { return false; } }
  function sync() {
    document.querySelectorAll("[data-mg-sound]").forEach(function (btn) {
      btn.hidden = false;
      btn.setAttribute("aria-pressed", on() ? "true" : "false");
    });
    var call = document.querySelector("[data-mg-call]");
    var id = call ? call.getAttribute("data-mg-call") : null;
    if (call && id !== heard && on() && call.dataset.sound) {
      new Audio(call.dataset.sound).play().catch(function () {});
    }
    heard = id;
  }
  document.addEventListener("click", function (evt) {
    var btn = evt.target.closest ? evt.target.closest("[data-mg-sound]") : null;
    if (!btn) return;
    try { window.localStorage.setItem(KEY, on() ? "off" : "on"); } catch (e) { /* private mode: stays off */ }
    sync();
  });
  document.addEventListener("DOMContentLoaded", sync);
  document.addEventListener("htmx:afterSwap", sync);
})();

// Every sheet: a move announced while the sheet was
// being fetched can be lost (htmx queues that refresh on the element the fetch then replaces), so
// the stream itself is watched: a sheet older than the newest announced move, and not already
// fetching, fetches itself once more.
(function () {
  "use strict";
  var newest = 0;
  function catchUp() {
    var el = document.getElementById("sheet");
    if (el && window.htmx && Number(el.dataset.seq) < newest && !el.classList.contains("htmx-request")) {
      window.htmx.trigger(el, "refresh");
    }
  }
  document.addEventListener("htmx:sseOpen", function (evt) {
    var source = evt.detail && evt.detail.source;
    if (!source || source.scorekeeperWatched) return;
    source.scorekeeperWatched = true;
    source.addEventListener("message", function (msg) {
      try {
        var seq = JSON.parse(msg.data).seq;
        if (typeof seq === "number" && seq > newest) newest = seq;
      } catch (e) { return; /* not a move notice */ }
      setTimeout(catchUp, 250);
    });
  });
  document.addEventListener("htmx:afterSettle", catchUp);
  // The stream's echo of a move this sheet already shows would redraw it and wipe what the player
  // is choosing for the next move (cards just tapped, a tally half filled in): skip that redraw.
  // Newer moves from other phones still redraw.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var el = evt.detail.elt;
    if (!el || el.id !== "sheet") return;
    var trigger = (evt.detail.requestConfig || {}).triggeringEvent;
    if (!trigger || trigger.type !== "sse:message" || !trigger.detail || !trigger.detail.data) return;
    try {
      var seq = JSON.parse(trigger.detail.data).seq;
      if (typeof seq === "number" && seq <= Number(el.dataset.seq)) evt.preventDefault();
    } catch (e) { /* not a move notice: redraw as usual */ }
  });
})();
