// scorekeeper: progressive enhancement only. Every form also works without this file.
(function () {
  "use strict";

  if ("serviceWorker" in navigator && document.body.dataset.sw) {
    navigator.serviceWorker.register(document.body.dataset.sw, { scope: "/" }).catch(function () {});
  }
  // Everything for play without a signal stored? The service worker checks its cache (and fills
  // it if not); then <html data-offline-ready="1"> and the note by the create form say so.
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.ready.then(function askReady(reg) {
      if (!reg.active) return;
      var channel = new MessageChannel();
      channel.port1.onmessage = function (evt) {
        if (evt.data === true) {
          document.documentElement.dataset.offlineReady = "1";
          var note = document.getElementById("offline-ready");
          if (note) note.hidden = false;
        } else if (evt.data === false && navigator.onLine) {
          setTimeout(function () { askReady(reg); }, 5000);
        }
      };
      reg.active.postMessage("offline-ready?", [channel.port2]);
    });
  }

  // A table kept from an older copy may be removed once its file is downloaded. The worker notes a
  // download it answers; this notes the tap too (a download need not pass the worker) and asks.
  document.addEventListener("click", function (evt) {
    var link = evt.target.closest ? evt.target.closest("a[data-kept-download]") : null;
    if (!link) return;
    var remove = document.querySelector('[data-remove-kept="' + CSS.escape(link.dataset.keptDownload) + '"]');
    if (!remove) return;
    remove.querySelector("input[name=downloaded]").value = "1";
    remove.hidden = false;
  });

  // The status bar says a move in at most two lines on a phone (app.css). A tap on the text reads
  // it whole — who undid what, in Swedish or German, is often longer — and a second tap folds it;
  // the next redraw of the bar draws it folded again.
  document.addEventListener("click", function (evt) {
    var text = evt.target.closest ? evt.target.closest("#last-move .lm-text") : null;
    if (!text || evt.target.closest("a")) return;
    text.toggleAttribute("data-whole");
  });

  // Keep the screen on while a table is open (Wake Lock API where the browser has it).
  var wakeLock = null;
  function keepAwake() {
    if (!document.querySelector("[data-wake]") || !("wakeLock" in navigator)) return;
    if (document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (lock) { wakeLock = lock; }).catch(function () {});
  }

  function sheet() { return document.getElementById("sheet"); }

  // The sheet's redraw (hx-swap="outerHTML" on it) without htmx's clean-up of every old element:
  // htmx fires two events on each of the old sheet's ~500 elements and walks each one's ancestors
  // for extensions, two thirds of its swap (7 of 12 ms of a move on a laptop, four times that on
  // a slow phone). Only the few elements htmx set up hold anything to release; they get the same
  // clean-up event, and their timers and outside listeners go, as in htmx's own deInitNode.
  // body[hx-ext="sheet"] (base.html) lets htmx find this; any other swap is htmx's own.
  if (window.htmx) {
    var htmxApi = null;
    window.htmx.defineExtension("sheet", {
      init: function (api) { htmxApi = api; },
      handleSwap: function (style, target, fragment, settleInfo) {
        if (style !== "sheet" || !htmxApi) return false;
        var old = [target].concat(Array.prototype.slice.call(target.querySelectorAll("*")));
        old.forEach(function (elt) {
          if (!("htmx-internal-data" in elt)) return;  // never set up by htmx: nothing to release
          htmxApi.triggerEvent(elt, "htmx:beforeCleanupElement");
          var data = htmxApi.getInternalData(elt);
          if (data.timeout) clearTimeout(data.timeout);
          (data.listenerInfos || []).forEach(function (info) {
            if (info.on) info.on.removeEventListener(info.trigger, info.listener);
          });
          (data.onHandlers || []).forEach(function (h) { elt.removeEventListener(h.event, h.listener); });
        });
        var made = Array.prototype.slice.call(fragment.children);
        target.replaceWith(fragment);
        settleInfo.elts = settleInfo.elts.filter(function (e) { return e !== target; }).concat(made);
        return made;
      },
    });
    // Every swap into the sheet replaces it whole (its templates say outerHTML).
    document.addEventListener("htmx:beforeSwap", function (evt) {
      var target = evt.detail.target;
      if (target && target.classList.contains("sheet") && !evt.detail.swapOverride) evt.detail.swapOverride = "sheet";
    });
  }

  // A phone that slept or lost its stream catches up as soon as it is looked at again.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      keepAwake();
      if (sheet() && window.htmx) window.htmx.trigger(sheet(), "refresh");
    }
  });

  // Do not wipe what someone is typing when another phone moves; refresh when they leave the field.
  // Checked when the sheet's own redraw is asked for and again when its answer comes: a redraw
  // already on its way (the stream's catch-up as it opens) must not land under the thumb either.
  var pending = false;
  function typingIn(el) {
    var active = document.activeElement;
    // Points are typed too (the score pad's number fields), not only names and notes.
    return Boolean(active && el.contains(active) && active.value &&
      active.matches("input[type=text], input[type=number], input[type=search], input[type=tel], input:not([type]), textarea"));
  }
  function ownRedraw(evt) {
    var el = evt.detail.elt;
    return el && el.id === "sheet" && evt.detail.requestConfig && evt.detail.requestConfig.verb === "get" ? el : null;
  }
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var el = ownRedraw(evt);
    if (el && typingIn(el)) {
      evt.preventDefault();
      pending = true;
    }
  });
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var el = ownRedraw(evt);
    if (el && el.isConnected && typingIn(el)) {
      evt.detail.shouldSwap = false;
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

// A table's page the phone's worker kept, shown while the phone's app starts (templates/sw.js,
// keptPage): it says so until the app answers, for a tap meanwhile waits for it.
(function () {
  "use strict";
  var root = document.documentElement;
  var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (!root.hasAttribute("data-kept-page") || !worker) return;
  var note = document.getElementById("phone-starting");
  if (note) note.hidden = false;
  var channel = new MessageChannel();
  channel.port1.onmessage = function () {
    root.removeAttribute("data-kept-page");
    if (note) note.hidden = true;
  };
  worker.postMessage("started?", [channel.port2]);
})();

// A page of this phone's tables going out of view: the worker draws and keeps it anew if a move
// since deleted the page it kept, so that it is shown at once if the phone reopens it while the
// app starts (templates/sw.js, keepShown). Not at each move: a tap would wait behind the drawing.
(function () {
  "use strict";
  if (!document.documentElement.dataset.phone || !navigator.serviceWorker) return;
  document.addEventListener("visibilitychange", function () {
    var worker = navigator.serviceWorker.controller;
    if (worker && document.visibilityState === "hidden") worker.postMessage({ hidden: location.pathname + location.search });
  });
})();

// Every sheet: a move announced while the sheet was
// being fetched can be lost (htmx queues that refresh on the element the fetch then replaces), so
// the stream itself is watched (its notices and its keep-alives, which name the head): a sheet older than the newest announced move, and not already
// fetching, fetches itself once more. A circle's standings likewise (their seq is the time they
// were drawn, the stream's head the time of the newest change): a page that slept through a
// change, or whose stream reconnected after one, fetches them when the stream names that head.
(function () {
  "use strict";
  var newest = 0;
  function catchUp() {
    var el = document.getElementById("sheet") || document.getElementById("standings");
    // Not while any request is out: this phone's own move is synced on the sheet (`hx-sync`) but
    // marked on its form, and a refresh queued behind it drew the sheet a second time under the
    // player's next entry. Its answer brings the sheet up to date, and afterSettle asks again.
    if (el && window.htmx && Number(el.dataset.seq) < newest && !document.querySelector(".htmx-request")) {
      window.htmx.trigger(el, "refresh");
    }
  }
  document.addEventListener("htmx:sseOpen", function (evt) {
    var source = evt.detail && evt.detail.source;
    if (!source || source.scorekeeperWatched) return;
    source.scorekeeperWatched = true;
    function heard(msg) {
      try {
        var seq = JSON.parse(msg.data).seq;
        if (typeof seq === "number" && seq > newest) newest = seq;
      } catch (e) { return; /* not a move notice */ }
      setTimeout(catchUp, 250);
    }
    source.addEventListener("message", heard);
    // The stream's keep-alive names the head too: a move whose notice this page lost is fetched then.
    source.addEventListener("head", heard);
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
      var data = JSON.parse(trigger.detail.data);
      if (data.seats) return;  // someone took or left a seat: redraw (not a move)
      var seq = data.seq;
      if (typeof seq === "number" && seq <= Number(el.dataset.seq)) evt.preventDefault();
    } catch (e) { /* not a move notice: redraw as usual */ }
  });
})();

// At the table (issue 13): the move composer's chooser and Confirm, the status region at the
// thumb, an honest connection state (banner, refused-while-offline with retry, sheet refreshes
// retried with back-off), the invite folding away, local times, the create form's seat names.
(function () {
  "use strict";
  function $(sel, root) { return (root || document).querySelector(sel); }

  // --- Composer: a new rank drops a suit chosen under another rank; Confirm only when legal. ---
  function syncConfirm() {
    var btn = document.getElementById("confirm-move");
    if (!btn) return;
    var form = btn.form;
    var chosen = !!form.querySelector("input[name=card]:checked");
    form.querySelectorAll("input[name=card]:not([type=radio])").forEach(function (el) { if (el.value.trim()) chosen = true; });
    var preview = form.querySelector(".preview");
    btn.disabled = !chosen || !!(preview && preview.classList.contains("bad"));
    btn.setAttribute("aria-describedby", "confirm-why");
    if (preview) preview.id = "confirm-why";
  }
  document.addEventListener("change", function (evt) {
    var t = evt.target;
    // Only the move composer's chooser holds one card: the deal's keeps every card chosen, and a
    // chooser that sends on a suit's tap must see that tap as a change.
    if (t && t.matches && t.matches("#composer #card-chooser .rank input")) {
      var chooser = t.closest(".chooser");
      chooser.querySelectorAll(".suit-step input:checked").forEach(function (el) {
        if (el.closest(".suit-step").dataset.of !== t.value) el.checked = false;
      });
      // Only one suit of this rank left unseen: that is the card.
      var open = chooser.querySelectorAll('.suit-step[data-of="' + t.value + '"] input:not([disabled])');
      if (open.length === 1) open[0].checked = true;
    }
    syncConfirm();
  });
  document.addEventListener("input", function (evt) {
    if (evt.target && evt.target.closest && evt.target.closest("form.move")) syncConfirm();
  });

  // --- The status region: what went wrong on this phone, with a retry that resends the move. ---
  var retry = null;
  function say(text, withRetry) {
    var region = document.getElementById("last-move");
    if (!region) return;
    region.textContent = "";
    var p = document.createElement("p");
    p.className = "lm-text lm-bad";
    p.textContent = text;
    region.appendChild(p);
    if (withRetry) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "primary lm-retry";
      b.textContent = region.dataset.retry || "Retry";
      b.addEventListener("click", resend);
      region.appendChild(b);
    }
  }
  // The move waits, visibly, until it is sent again: by the button, or by itself when the phone is
  // back online. The server's answer (the move, or 409/422 with its reason) then shows as usual.
  function resend() {
    if (!retry || !window.htmx) return;
    var r = retry;
    retry = null;
    window.htmx.ajax("POST", r.path, { source: r.source && r.source.isConnected ? r.source : "#sheet",
                                       values: r.values, target: "#sheet", swap: "outerHTML" });
  }
  // A sheet redraw must not wipe the waiting move's notice.
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    if (retry && target && target.id === "last-move") evt.detail.shouldSwap = false;
  });
  function failed(evt) {
    var cfg = evt.detail.requestConfig || {};
    var elt = evt.detail.elt;
    if (!elt) return;
    if (cfg.verb === "get" && elt.id === "sheet") { refreshLater(); return; }
    if (cfg.verb !== "post") return;
    var values = {};
    if (elt.tagName === "FORM") {
      new FormData(elt).forEach(function (v, k) {
        if (values[k] === undefined) values[k] = v; else values[k] = [].concat(values[k], v);
      });
    }
    var sub = cfg.triggeringEvent && cfg.triggeringEvent.submitter;
    if (sub && sub.name) values[sub.name] = sub.value;
    retry = { path: cfg.path, values: values, source: elt };
    var region = document.getElementById("last-move");
    // A table kept on this phone (data-phone) needs no network: a failure there is its app's.
    var offline = !document.documentElement.dataset.phone && (!navigator.onLine || evt.type === "htmx:sendError");
    say(offline ? (region && region.dataset.offline) || "Not sent: this phone is offline."
                : (region && region.dataset.failed) || "Not sent: the server did not answer.", true);
    if (offline) showOffline(true);
  }
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:timeout", failed);

  // --- A sheet refresh that failed is tried again, 1 s, 2 s, 4 s … up to 30 s apart. ---
  var delay = 0, timer = null;
  function refreshLater() {
    if (timer) return;
    delay = Math.min(delay ? delay * 2 : 1000, 30000);
    showOffline(true);
    timer = setTimeout(function () {
      timer = null;
      var el = document.getElementById("sheet");
      if (el && window.htmx) window.htmx.trigger(el, "refresh");
    }, delay);
  }

  // --- The offline banner: the network is gone or the live stream is down (never on a table
  // kept on this phone, data-phone: it needs no network). ---
  var streamUp = true;
  function showOffline(on) {
    var banner = document.getElementById("offline");
    if (banner) banner.hidden = !on || !!document.documentElement.dataset.phone;
  }
  function sync() { showOffline(!navigator.onLine || !streamUp); }
  window.addEventListener("offline", sync);
  window.addEventListener("online", function () {
    sync();
    if (retry) { setTimeout(resend, 300); return; }
    var el = document.getElementById("sheet");
    if (el && window.htmx) window.htmx.trigger(el, "refresh");
  });
  var downTimer = null;
  document.addEventListener("htmx:sseError", function () {
    streamUp = false;
    // The server ends a stream now and then and the phone reconnects within a second: say
    // "offline" only when it stays down.
    if (!downTimer) downTimer = setTimeout(function () { downTimer = null; if (!streamUp || !navigator.onLine) sync(); }, navigator.onLine ? 1500 : 0);
  });
  document.addEventListener("htmx:sseOpen", function () {
    streamUp = true;
    if (retry && navigator.onLine) setTimeout(resend, 300);
    if (downTimer) { clearTimeout(downTimer); downTimer = null; }
    sync();
  });

  // --- After every redraw of the sheet. ---
  function afterSheet() {
    syncConfirm();
    var sheetEl = document.getElementById("sheet");
    var invite = $("#invite[data-auto-open]");
    if (sheetEl && invite) {
      var free = document.querySelectorAll('#seat-list [data-seated="0"]').length;
      if (Number(sheetEl.dataset.seq) > 0 || free === 0) {
        invite.open = false;
        invite.removeAttribute("data-auto-open");
      }
    }
    localTimes();
  }
  // After this phone's own move the next one is composed at once: bring the composer (or a trick
  // game's card grid, `data-act`) back on the screen if it is not. Other phones' moves never
  // move the page. Asked once the redraw is settled, after the settle's own changes (Confirm's
  // state, the times): the layout its measuring forces is then the last one before the frame.
  function composerBack(evt) {
    var cfg = evt.detail.requestConfig || {};
    var mine = cfg.verb === "post" || (cfg.elt && cfg.elt.closest && cfg.elt.closest("#sheet [data-act]"));
    var composer = document.querySelector("#composer, #sheet [data-act]");
    if (!mine || !composer) return;
    var r = composer.getBoundingClientRect();
    var bar = document.getElementById("last-move");
    var floor = bar ? bar.getBoundingClientRect().top : window.innerHeight;
    if (r.top < 0 || r.bottom > floor) window.scrollTo(0, Math.max(0, window.scrollY + r.top - 8));
  }
  // A move sent from the sheet takes focus off the control that sent it while the answer is
  // awaited, and gives it back (by id, to the redrawn control) once the answer is drawn. Removing
  // the focused element with the old sheet made the browser restyle and lay out that old sheet
  // first, inside the swap: about 10 ms of a move on a slowed phone, now spent while it waits.
  var refocus = null;
  document.addEventListener("htmx:beforeSend", function (evt) {
    var cfg = evt.detail.requestConfig || {};
    var s = evt.detail.target;
    var a = document.activeElement;
    if (cfg.verb !== "post" || !s || s.id !== "sheet" || !a || a === document.body || !s.contains(a)) return;
    refocus = { id: a.id, xhr: evt.detail.xhr };
    a.blur();
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    // That move's own answer (a preview ending meanwhile would hand focus back to the old sheet).
    if (!refocus || evt.detail.xhr !== refocus.xhr) return;
    var id = refocus.id;
    refocus = null;
    var el = id && document.getElementById(id);
    var a = document.activeElement;
    // Not when the player has since moved on to another control, nor onto a control now disabled.
    if (el && !el.disabled && (!a || a === document.body)) el.focus({ preventScroll: true });
  });
  document.addEventListener("htmx:afterSettle", function (evt) {
    var el = evt.detail.elt;
    if (el && el.id === "sheet") {
      delay = 0;
      if (timer) { clearTimeout(timer); timer = null; }
      if (navigator.onLine && streamUp) showOffline(false);
    }
    afterSheet();
    composerBack(evt);
  });

  // --- Times in the phone's own clock (the server writes UTC). ---
  function localTimes() {
    document.querySelectorAll("time[data-local]").forEach(function (t) {
      var d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d)) t.textContent = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
      t.removeAttribute("data-local");
    });
  }

  // --- The create form: "which seat is yours?" shows the names as they are typed. ---
  function seatNames() {
    var select = document.getElementById("my-seat");
    if (!select) return;
    Array.prototype.forEach.call(select.options, function (opt) {
      var i = opt.value;
      if (!/^\d+$/.test(i)) return;
      var input = document.getElementById("player" + i);
      var name = input && input.value.trim();
      opt.textContent = name || opt.dataset.label;
      opt.hidden = !name && Number(i) > 1;
    });
  }
  document.addEventListener("input", function (evt) {
    if (evt.target && /^player\d+$/.test(evt.target.id || "")) seatNames();
  });

  document.addEventListener("DOMContentLoaded", function () {
    syncConfirm();
    localTimes();
    seatNames();
    if (!navigator.onLine) showOffline(true);
  });
})();

// A table kept on this phone (data-phone): its app lives in the service worker, which Chromium
// stops after 30 s without an event; the next tap would then wait for a whole start. While the
// page is in view it tells the worker every 20 s, and at once when it comes back into view (the
// worker then starts before the player taps).
(function () {
  "use strict";
  if (!document.documentElement.dataset.phone || !("serviceWorker" in navigator)) return;
  var EVERY_MS = 20000;
  function ping() {
    var worker = navigator.serviceWorker.controller;
    if (worker && document.visibilityState === "visible") worker.postMessage("keep-alive");
  }
  ping();
  setInterval(ping, EVERY_MS);
  document.addEventListener("visibilitychange", ping);
})();

// ops (issue 23 item 9): a table deleted by one of its phones sends the others home with a notice,
// told on the live stream; a phone that missed it (offline then) learns it when the table answers 404.
(function () {
  "use strict";
  function goHome() {
    var live = document.querySelector(".live[data-gone]");
    if (live) window.location.replace(live.dataset.gone);
  }
  document.addEventListener("htmx:sseOpen", function (evt) {
    var source = evt.detail && evt.detail.source;
    if (!source || source.scorekeeperDeleted) return;
    source.scorekeeperDeleted = true;
    source.addEventListener("deleted", function () {
      source.close();
      goHome();
    });
  });
  document.addEventListener("htmx:responseError", function (evt) {
    var xhr = evt.detail && evt.detail.xhr;
    if (xhr && xhr.status === 404) goHome();
  });
})();

// A part of the sheet that folds a long history away (Mousel's earlier deals and ledger,
// `details.ms-more`, fetched when opened) stays open across a redraw: another phone's move would
// otherwise close what this player is reading. Opened again, it fetches its rows anew.
(function () {
  "use strict";
  var open = [];
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== "sheet" || !evt.detail.shouldSwap) return;
    open = Array.prototype.map.call(target.querySelectorAll("details.ms-more[open][id]"), function (d) { return d.id; });
  });
  document.addEventListener("htmx:afterSettle", function () {
    open.forEach(function (id) {
      var part = document.getElementById(id);
      if (part && !part.open) part.open = true;
    });
    open = [];
  });
})();
