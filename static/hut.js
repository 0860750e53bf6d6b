// The hut (issue 39): phones at one table share a table kept on one of them, with no server and no
// internet. The phone that keeps the table (the host) and each guest pair by a short code (shown as
// text and as a QR code, pasted or scanned the other way) and talk over a WebRTC data channel with
// no STUN or TURN server: host candidates on the local network only (docs/architecture.md, "The hut").
//
// A page cannot keep a connection across a navigation, so the page that pairs stays where it is and
// shows the table in a frame: on the host, its own table page; on a guest, the host's pages,
// relayed. The guest's service worker hands every request of the table (/phone/t/<id>/…) to this
// page, which sends it to the host; the host's page asks its own service worker — the app that
// keeps the table, the path its own pages take — and sends the answer back. The host's copy is the
// only authority: moves are ordered and checked there (expected_seq), and every guest is told
// "moved to seq S" to redraw its sheet, as the server's event stream does.
//
// Nothing lost: the host sends each guest the table's log (its export, as the server's import
// takes it) and every acknowledged move after it; the guest keeps it in IndexedDB of its own
// ("scorekeeper-hut", written here: its own phone app is not started while it relays). A guest
// that paired again says how far its copy goes and is sent the rest.
//
// Each guest is a phone of its own at the table: the host's page names it on every request it
// relays (X-Hut-Guest, bound to its channel when it pairs; the guest's own secret id, kept in its
// localStorage, so a guest that pairs again is the same phone), and the host's app answers with
// that guest's session — its own seat, its moves entered by it (offline/guests.py). With the host gone, a guest
// with the copy keeps the table itself ("Keep this table here"): its own app imports the copy
// under the same table id, and the others pair with it.
(function () {
  "use strict";
  var hut = window.scorekeeperHut = { stats: { opened: [], trips: [], told: [], logs: [] } };
  var VERSION = "1";

  // --- Codes: an SDP cut to what a data channel needs, one line of text for one QR code ---

  function b64(bytes) {
    var s = "";
    bytes.forEach(function (b) { s += String.fromCharCode(b); });
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function unb64(text) {
    var s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    var out = [];
    for (var i = 0; i < s.length; i++) out.push(s.charCodeAt(i));
    return out;
  }
  function newId() { return b64(Array.prototype.slice.call(crypto.getRandomValues(new Uint8Array(16)))); }
  var ID = /^[A-Za-z0-9_-]{16,64}$/;
  function hex2(b) { return (b < 16 ? "0" : "") + b.toString(16).toUpperCase(); }

  // VERSION~kind~table~ufrag~pwd~fingerprint~candidates — kind "O" (offer) or "A" (answer); each
  // candidate "address/port" (UDP host candidates: there is nothing else without STUN or TURN).
  function encode(kind, sdp, table) {
    var field = function (name) { var m = sdp.match(new RegExp("^a=" + name + ":(.+)$", "m")); return m ? m[1].trim() : ""; };
    var fp = field("fingerprint").split(" ")[1] || "";
    var candidates = [];
    sdp.split(/\r?\n/).forEach(function (line) {
      var c = line.match(/^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ host/i);
      if (c && candidates.indexOf(c[1] + "/" + c[2]) < 0) candidates.push(c[1] + "/" + c[2]);
    });
    var bytes = fp.split(":").map(function (h) { return parseInt(h, 16); });
    return [VERSION, kind, table || "", field("ice-ufrag"), field("ice-pwd"), b64(bytes), candidates.join(",")].join("~");
  }

  function decode(code) {
    var parts = String(code || "").replace(/\s+/g, "").split("~");
    if (parts.length !== 7 || parts[0] !== VERSION || (parts[1] !== "O" && parts[1] !== "A") || !parts[3] || !parts[4]) return null;
    var fp;
    try { fp = unb64(parts[5]).map(hex2).join(":"); } catch (e) { return null; }
    if (fp.length !== 95) return null;
    var lines = ["v=0", "o=- " + Date.now() + " 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
                 "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0"];
    parts[6].split(",").filter(Boolean).forEach(function (c, i) {
      var at = c.lastIndexOf("/");
      lines.push("a=candidate:" + (i + 1) + " 1 udp " + (2122260223 - i) + " " + c.slice(0, at) + " " + c.slice(at + 1) + " typ host generation 0");
    });
    lines.push("a=end-of-candidates", "a=ice-ufrag:" + parts[3], "a=ice-pwd:" + parts[4], "a=ice-options:trickle",
               "a=fingerprint:sha-256 " + fp, "a=setup:" + (parts[1] === "O" ? "actpass" : "active"), "a=mid:0",
               "a=sctp-port:5000", "a=max-message-size:262144");
    return { kind: parts[1], table: parts[2], sdp: lines.join("\r\n") + "\r\n" };
  }
  hut.encode = encode;
  hut.decode = decode;

  // Every candidate gathered before the code is shown: a code is read once, so nothing trickles.
  function gathered(pc) {
    return new Promise(function (resolve) {
      if (pc.iceGatheringState === "complete") return resolve();
      var done = function () { if (pc.iceGatheringState === "complete") resolve(); };
      pc.addEventListener("icegatheringstatechange", done);
      setTimeout(resolve, 3000);  // what has been found by then is all a local network offers
    });
  }

  // --- Messages on the channel: JSON, cut in parts (a data channel message is at most 256 KiB) ---

  var PART = 32000;
  var nextId = 1;
  function send(channel, message) {
    var text = JSON.stringify(message);
    if (text.length <= PART) { channel.send(text); return; }
    var id = "p" + (nextId++);
    var of = Math.ceil(text.length / PART);
    for (var n = 0; n < of; n++) channel.send(JSON.stringify({ t: "part", id: id, n: n, of: of, s: text.slice(n * PART, (n + 1) * PART) }));
  }
  function receiver(handle) {
    var parts = {};
    return function (event) {
      var message = JSON.parse(event.data);
      if (message.t === "part") {
        var got = parts[message.id] = parts[message.id] || [];
        got[message.n] = message.s;
        if (got.filter(function (s) { return s !== undefined; }).length < message.of) return;
        delete parts[message.id];
        message = JSON.parse(got.join(""));
      }
      handle(message);
    };
  }

  function $(sel, root) { return (root || document).querySelector(sel); }
  function say(box, key) {
    var status = $("[data-peer-status]", box);
    if (status) status.textContent = box.dataset[key] || "";
  }

  // --- The guest's copy of the log: { table, log: <export>, movedTo } by table id ---

  var copiesOpened = null;
  function copies() {
    copiesOpened = copiesOpened || new Promise(function (resolve, reject) {
      var open = indexedDB.open("scorekeeper-hut", 1);
      open.onupgradeneeded = function () { open.result.createObjectStore("copies"); };
      open.onsuccess = function () { resolve(open.result); };
      open.onerror = function () { copiesOpened = null; reject(open.error); };
    });
    return copiesOpened;
  }
  function stored(work, mode) {
    return copies().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction("copies", mode || "readonly", { durability: "strict" });
        var result = work(tx.objectStore("copies"));
        tx.oncomplete = function () { resolve(result && "result" in result ? result.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }
  function copyOf(table) {
    return stored(function (store) { return store.get(table); }).then(function (c) { return c || null; });
  }
  hut.copyOf = copyOf;
  function lastOf(log) {
    var events = (log && log.events) || [];
    return events.length ? events[events.length - 1] : null;
  }

  // The code as text, and as a QR code drawn by this phone's own app (qrcode, as the server draws
  // its join codes): a phone without the app stored still has the text.
  function show(box, code, lazy) {
    var text = $("[data-peer-code]", box);
    text.textContent = code;
    text.hidden = false;
    var qr = $("[data-peer-qr]", box);
    if (!qr) return;
    qr.textContent = "";
    // A guest draws it when asked: its app's first start (seconds) would hold up its worker.
    var asked = qr.closest("details");
    if (lazy && asked && !asked.open) {
      asked.hidden = false;
      asked.addEventListener("toggle", function () { if (asked.open) show(box, code); }, { once: true });
      return;
    }
    fetch("/phone/hut/qr?code=" + encodeURIComponent(code)).then(function (r) {
      return r.ok && /svg/.test(r.headers.get("Content-Type") || "") ? r.text() : "";
    }).then(function (svg) {
      if (svg && $("[data-peer-code]", box).textContent === code) { qr.innerHTML = svg; qr.hidden = false; }
    }, function () { /* the text is there */ });
  }

  // --- The frame: where the table is shown on a page that keeps its connections ---

  var framed = false;
  try { framed = window.parent !== window && window.parent.location.origin === location.origin; } catch (e) { framed = false; }

  function becomeShell(src, bar) {
    var frame = $("#hut-frame");
    if (frame) return frame;
    document.documentElement.classList.add("hut-shell");
    Array.prototype.forEach.call(document.body.children, function (el) {
      if (el !== bar && el.tagName !== "SCRIPT") el.hidden = true;
    });
    if (bar) { document.body.insertBefore(bar, document.body.firstChild); bar.hidden = false; }
    frame = document.createElement("iframe");
    frame.id = "hut-frame";
    frame.title = document.title;
    frame.src = src;
    document.body.appendChild(frame);
    return frame;
  }

  function tellFrame(message) {
    var frame = $("#hut-frame");
    if (frame && frame.contentWindow) frame.contentWindow.postMessage(message, location.origin);
  }

  // --- Inside the frame: report the sheet's seq to the page around it, redraw when told ---

  if (framed) {
    var newest = 0;
    var report = function () {
      var sheet = document.getElementById("sheet");
      if (sheet) window.parent.postMessage({ hut: "seq", seq: Number(sheet.dataset.seq) }, location.origin);
    };
    var catchUp = function () {
      var sheet = document.getElementById("sheet");
      if (sheet && window.htmx && Number(sheet.dataset.seq) < newest && !sheet.classList.contains("htmx-request")) {
        window.htmx.trigger(sheet, "refresh");
      }
    };
    // On a guest a move the table's phone has not answered waits, as a move sent with no signal
    // does on the server's path (app.js: "Send again", and sent by itself once back): the status
    // region says so in the hut's words.
    var waiting = function () {
      var region = document.getElementById("last-move");
      var outer = window.parent.scorekeeperHut;
      if (region && region.dataset.hutWaiting && outer && outer.role === "guest") region.dataset.failed = region.dataset.hutWaiting;
    };
    window.addEventListener("message", function (event) {
      if (event.origin !== location.origin || !event.data) return;
      if (event.data.hut === "back") {
        // Paired again: a waiting move is sent again (app.js resends on "online").
        window.dispatchEvent(new Event("online"));
        return;
      }
      if (event.data.hut === "seats") {
        // Someone took or left a seat: the sheet is redrawn, and with it who sits where.
        var sheet = document.getElementById("sheet");
        if (sheet && window.htmx && !sheet.classList.contains("htmx-request")) window.htmx.trigger(sheet, "refresh");
        return;
      }
      if (event.data.hut !== "moved") return;
      if (typeof event.data.seq === "number" && event.data.seq > newest) newest = event.data.seq;
      hut.stats.told.push(event.data.seq);
      catchUp();
    });
    document.addEventListener("htmx:afterSettle", function () { waiting(); report(); catchUp(); });
    document.addEventListener("DOMContentLoaded", function () {
      var invite = document.getElementById("peer-invite");
      if (invite) invite.hidden = true;  // the page around the frame invites
      waiting();
      report();
    });
    return;
  }

  // --- The host: the table page invites; each guest has a connection of its own ---

  var guests = [];
  var told = -1;
  var hostTable = null;

  function broadcast(seq) {
    if (typeof seq !== "number" || seq <= told) return;
    told = seq;
    hut.stats.told.push(seq);
    guests.forEach(function (g) { if (g.channel.readyState === "open") send(g.channel, { t: "moved", seq: seq }); });
    tellFrame({ hut: "moved", seq: seq });
    shareLog();
  }

  // Each guest's copy brought up to this phone's log: what it lacks after what it said it has (by
  // seq; the whole log if its last entry is not this log's, a copy of another history). One
  // export at a time from this phone's app; moves meanwhile are in the next.
  var exporting = false;
  var exportAgain = false;
  function shareLog() {
    if (!hostTable || !guests.some(function (g) { return g.has; })) return;
    if (exporting) { exportAgain = true; return; }
    exporting = true;
    fetch("/phone/t/" + hostTable + "/export.json", { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (log) { if (log) guests.forEach(function (g) { sendTail(g, log); }); }, function () { /* the next move's */ })
      .then(function () {
        exporting = false;
        if (exportAgain) { exportAgain = false; shareLog(); }
      });
  }
  function sendTail(g, log) {
    if (!g.has || g.channel.readyState !== "open") return;
    var events = log.events || [];
    var from = g.has.seq;
    var mine = events[from - 1];
    if (from > events.length || (from > 0 && (!mine || mine.seq !== from || mine.at !== g.has.at))) from = 0;
    var last = lastOf(log);
    if (g.has.sent && from === (last ? last.seq : 0)) return;
    var head = {};
    Object.keys(log).forEach(function (k) { if (k !== "events") head[k] = log[k]; });
    send(g.channel, { t: "log", table: hostTable, head: head, from: from, events: events.slice(from),
                      movedTo: ($("#moved-to") || {}).href || null });
    g.has = { seq: last ? last.seq : 0, at: last ? last.at : null, sent: true };
  }

  function reseat() {
    guests.forEach(function (g) { if (g.channel.readyState === "open") send(g.channel, { t: "seats" }); });
    tellFrame({ hut: "seats" });
  }

  // The worker answers a request naming a guest only from the page that said it shares the table:
  // said before each request (a worker stopped while idle forgets it).
  function hosting() {
    return new Promise(function (resolve) {
      if (!navigator.serviceWorker || !navigator.serviceWorker.controller) { resolve(); return; }
      tellWorker({ hut: "host", table: hostTable }, resolve);
      setTimeout(resolve, 2000);
    });
  }

  // What a guest may send of a request's headers: what a page's htmx and forms send (the guest's
  // worker sends no more; a guest's page could). Its name is this page's to give, never its own.
  var GUEST_HEADERS = ["accept", "accept-language", "content-type", "hx-request", "hx-target", "hx-trigger",
                       "hx-trigger-name", "hx-current-url", "hx-boosted"];

  // A guest's request, answered by this phone's own app (the service worker, as for its own
  // pages) with that guest's session, and only at the table this page shares.
  function answer(g, request) {
    var channel = g.channel;
    var refuse = function (status) { send(channel, { t: "res", id: request.id, status: status, headers: [["content-type", "text/plain"]], body: "" }); };
    var target;
    try { target = new URL(String(request.path) + String(request.search || ""), location.origin); } catch (e) { refuse(400); return; }
    var mine = "/phone/t/" + hostTable;
    if (target.origin !== location.origin || (target.pathname !== mine && target.pathname.indexOf(mine + "/") !== 0)) { refuse(403); return; }
    var headers = {};
    Object.keys(request.headers || {}).forEach(function (k) {
      var v = request.headers[k];
      if (GUEST_HEADERS.indexOf(k.toLowerCase()) >= 0 && typeof v === "string") headers[k.toLowerCase()] = v;
    });
    headers["x-hut-guest"] = g.guest;
    var init = { method: request.method, headers: headers, credentials: "same-origin" };
    if (request.body !== null && request.method !== "GET" && request.method !== "HEAD") init.body = request.body;
    hosting().then(function () { return fetch(target.pathname + target.search, init); }).then(function (response) {
      return response.text().then(function (body) {
        var headers = [];
        response.headers.forEach(function (v, k) { if (!/^(content-length|content-encoding|transfer-encoding)$/.test(k)) headers.push([k, v]); });
        var reply = { t: "res", id: request.id, status: response.status, headers: headers, body: body };
        if (response.redirected) reply.redirect = new URL(response.url).pathname + new URL(response.url).search;
        send(channel, reply);
        var seq = body.match(/id="sheet" class="sheet" data-seq="(\d+)"/);
        if (request.method !== "GET" && response.ok && seq) broadcast(Number(seq[1]));
        if (request.method === "POST" && response.ok && /\/seat$/.test(target.pathname)) reseat();
      });
    }).catch(function (error) {
      send(channel, { t: "res", id: request.id, status: 503, headers: [["content-type", "text/plain"]], body: String(error) });
    });
  }

  function invite(box) {
    var table = box.dataset.table;
    var pc = new RTCPeerConnection({ iceServers: [] });
    var channel = pc.createDataChannel("hut", { ordered: true });
    // The guest's name at this phone's app: its own id once it says it (a guest that pairs again
    // is the same phone, in the same seat); until then, this channel's.
    var pending = { pc: pc, channel: channel, answered: 0, guest: newId() };
    box.pending = pending;
    channel.onmessage = receiver(function (message) {
      if (message.t === "req") answer(pending, message);
      else if (message.t === "guest" || message.t === "have") {
        if (!pending.named) {
          pending.named = true;
          if (typeof message.guest === "string" && ID.test(message.guest)) pending.guest = message.guest;
          // The same phone paired again while its old channel lingers: that one is gone.
          guests.forEach(function (g) { if (g !== pending && g.guest === pending.guest) { g.channel.close(); g.pc.close(); } });
        }
        if (message.t === "have") {
          pending.has = { seq: Number(message.seq) || 0, at: message.at || null };
          shareLog();
        }
      }
    });
    channel.onopen = function () {
      hut.stats.opened.push(Math.round(performance.now() - pending.answered));
      guests.push(pending);
      $("[data-peer-guests]", box).textContent = String(guests.filter(function (g) { return g.channel.readyState === "open"; }).length);
      say(box, "joined");
      if (told >= 0) send(channel, { t: "moved", seq: told });
      invite(box);  // a fresh code for the next phone
    };
    channel.onclose = function () {
      guests = guests.filter(function (g) { return g !== pending; });
      $("[data-peer-guests]", box).textContent = String(guests.length);
    };
    pc.createOffer().then(function (offer) { return pc.setLocalDescription(offer); })
      .then(function () { return gathered(pc); })
      .then(function () { show(box, encode("O", pc.localDescription.sdp, table)); });
  }

  function acceptAnswer(box) {
    var field = $("#peer-code", box);
    var got = decode(field.value);
    var pending = box.pending;
    if (!got || got.kind !== "A" || !pending || pending.pc.signalingState !== "have-local-offer") { say(box, "bad"); return; }
    pending.answered = performance.now();
    say(box, "connecting");
    field.value = "";
    pending.pc.setRemoteDescription({ type: "answer", sdp: got.sdp }).catch(function () { say(box, "bad"); });
  }

  function startHost(box) {
    if (box.started) return;
    box.started = true;
    hut.role = "host";
    hostTable = box.dataset.table;
    becomeShell(location.href, box);
    window.addEventListener("message", function (event) {
      if (event.origin === location.origin && event.data && event.data.hut === "seq") broadcast(event.data.seq);
    });
    invite(box);
  }

  // --- A guest: pairs from the home page, then shows the host's table in the frame ---

  var pendingTrips = {};
  var host = null;
  var relaying = null;  // the table this page relays, and the timer that tells the worker so again
  var relayTimer = null;

  function relay(event) {
    var data = event.data;
    var port = event.ports && event.ports[0];
    if (!data || data.hut !== "request" || !port) return;
    if (!host || host.readyState !== "open") {
      port.postMessage({ status: 503, headers: [["content-type", "text/plain"]], body: "" });
      return;
    }
    var id = "r" + (nextId++);
    pendingTrips[id] = { port: port, at: performance.now(), method: data.method };
    send(host, { t: "req", id: id, method: data.method, path: data.path, search: data.search, headers: data.headers, body: data.body });
  }

  // A request the table's phone will never answer now: its page is told at once (a move then
  // waits to be sent again; it may have been kept, and sent again it is refused as stale, 409).
  function dropTrips() {
    Object.keys(pendingTrips).forEach(function (id) {
      pendingTrips[id].port.postMessage({ status: 503, headers: [["content-type", "text/plain"]], body: "" });
      delete pendingTrips[id];
    });
  }

  // The host's log (or what this copy lacks of it) into this phone's copy, one write after another.
  var copying = Promise.resolve();
  function keepLog(message, box) {
    hut.stats.logs.push(message.from);
    copying = copying.then(function () {
      return copyOf(message.table).then(function (copy) {
        var before = copy && copy.log ? (copy.log.events || []).slice(0, message.from) : [];
        var log = Object.assign({}, message.head, { events: before.concat(message.events) });
        var kept = { table: message.table, log: log, movedTo: message.movedTo || (copy && copy.movedTo) || null, at: Date.now() };
        return stored(function (store) { store.put(kept, message.table); }, "readwrite").then(function () {
          var last = lastOf(log);
          box.dataset.peerCopy = String(last ? last.seq : 0);  // how far this phone's copy goes
          hut.stats.copied = last ? last.seq : 0;
        });
      });
    }).catch(function (error) { console.warn("hut: the copy was not kept", error); });
  }

  // This phone's id as a guest: made once, kept, and told only to the table's phone it pairs with
  // (it stands for this phone's seat there).
  function myId() {
    var id = null;
    try { id = localStorage.getItem("scorekeeper-hut-guest"); } catch (e) { id = null; }
    if (!id || !ID.test(id)) {
      id = newId();
      try { localStorage.setItem("scorekeeper-hut-guest", id); } catch (e) { /* this pairing's only */ }
    }
    return id;
  }

  function tellWorker(message, then) {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (!worker) return;
    var ack = new MessageChannel();
    if (then) ack.port1.onmessage = then;
    worker.postMessage(message, [ack.port2]);
  }

  function join(box) {
    var got = decode($("#peer-code", box).value);
    if (!got || got.kind !== "O" || !got.table) { say(box, "bad"); return; }
    var pc = new RTCPeerConnection({ iceServers: [] });
    var started = performance.now();
    hut.role = "guest";
    $("[data-peer-code]", box).hidden = true;  // the answer to an earlier code is no answer to this one
    withdraw(box);  // paired: the table's phone keeps it
    say(box, "connecting");
    pc.ondatachannel = function (event) {
      var channel = event.channel;
      channel.onmessage = receiver(function (message) {
        if (message.t === "res") {
          var trip = pendingTrips[message.id];
          if (!trip) return;
          delete pendingTrips[message.id];
          if (trip.method !== "GET") hut.stats.trips.push(Math.round(performance.now() - trip.at));
          trip.port.postMessage(message);
        } else if (message.t === "moved") {
          hut.stats.told.push(message.seq);
          tellFrame({ hut: "moved", seq: message.seq });
        } else if (message.t === "seats") {
          tellFrame({ hut: "seats" });
        } else if (message.t === "log" && message.table === got.table) {
          keepLog(message, box);
        }
      });
      channel.onopen = function () {
        host = channel;
        hut.stats.opened.push(Math.round(performance.now() - started));
        say(box, "joined");
        box.dataset.table = got.table;
        // Which phone this is, first and at once: the host answers every request with this phone's
        // own session and seat, and the frame's first request may leave before the copy is read
        // (it did in CI: a guest that paired again was shown "Not seated").
        send(channel, { t: "guest", guest: myId() });
        // How far this phone's copy goes: the host sends the rest.
        copyOf(got.table).then(function (copy) {
          var last = copy && lastOf(copy.log);
          send(channel, { t: "have", seq: last ? last.seq : 0, at: last ? last.at : null, guest: myId() });
        }, function () { send(channel, { t: "have", seq: 0, at: null, guest: myId() }); });
        // The service worker relays the table's requests to this page from now on.
        relaying = got.table;
        tellWorker({ hut: "relay", table: got.table }, function () {
          becomeShell("/phone/t/" + got.table, box);
          tellFrame({ hut: "back" });
        });
        // Said again now and then: a worker stopped while idle forgets it.
        if (!relayTimer) {
          relayTimer = setInterval(function () {
            var now = navigator.serviceWorker.controller;
            if (now && relaying) now.postMessage({ hut: "relay", table: relaying });
          }, 10000);
        }
      };
      channel.onclose = function () {
        if (host !== channel) return;
        host = null;
        dropTrips();
        say(box, "lost");
        offerTakeover(box, got.table);
      };
    };
    if (!hut.relaying) {
      hut.relaying = true;
      navigator.serviceWorker.addEventListener("message", relay);
      navigator.serviceWorker.startMessages();
    }
    pc.setRemoteDescription({ type: "offer", sdp: got.sdp })
      .then(function () { return pc.createAnswer(); })
      .then(function (answer) { return pc.setLocalDescription(answer); })
      .then(function () { return gathered(pc); })
      .then(function () { show(box, encode("A", pc.localDescription.sdp, ""), true); say(box, "answer"); })
      .catch(function () { say(box, "bad"); });
    hut.pc = pc;
  }

  // --- "Keep this table here": a guest with the copy becomes the table's phone ---

  function offerTakeover(box, table) {
    var button = $("#peer-takeover", box);
    if (!button) return;
    copyOf(table).then(function (copy) {
      if (!copy || copy.movedTo || host) return;
      button.dataset.table = table;
      button.hidden = false;
      var why = $("#peer-takeover-why", box);
      if (why) why.hidden = false;
      offerServer(box, table);
    }, function () { /* no copy: nothing to keep */ });
  }

  // One offer at a time: keeping the table here and putting it on the server exclude each other.
  function busy(box, on) {
    Array.prototype.forEach.call(box.querySelectorAll("#peer-takeover, #peer-to-server, [data-peer-put]"), function (el) {
      el.disabled = on;
    });
  }

  // Withdraws what is offered for a copy (on the server now, removed, or its table's phone paired).
  function withdraw(box) {
    ["#peer-takeover", "#peer-takeover-why", "#peer-to-server", "#peer-forget"].forEach(function (sel) {
      var el = $(sel, box);
      if (el) el.hidden = true;
    });
  }

  function takeOver(box, button) {
    var table = button.dataset.table;
    busy(box, true);
    say(box, "taking");
    // This phone stops relaying the table: from now on its own app answers it.
    if (relayTimer) { clearInterval(relayTimer); relayTimer = null; }
    relaying = null;
    copyOf(table).then(function (copy) {
      if (!copy) throw new Error("no copy");
      return new Promise(function (resolve) { tellWorker({ hut: "unrelay", table: table }, resolve); setTimeout(resolve, 2000); })
        .then(function () {
          return fetch("/phone/hut/keep", { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
                                            body: JSON.stringify({ table: table, log: copy.log }) });
        });
    }).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    }).then(function (kept) {
      location.assign(kept.url);  // this phone's own table page: it invites the others
    }).catch(function (error) {
      console.warn("hut: not kept here", error);
      busy(box, false);
      say(box, "notKept");
    });
  }

  // --- "Put it on the server": online, a guest's copy goes there itself, no table kept first ---
  // The server's import replays it (a tampered copy is refused with its rule) and keeps one table
  // per origin (docs/api.md): the first copy there makes it, and the phone that put it there owns
  // it, as the table's own phone would (templates/sw.js, putOnServer); a copy after it is sent the
  // table's watch link. Offered only online; a hotspot with no internet is "online" too, so the
  // ask gives up in time and says so.
  function offerServer(box, table) {
    var button = $("#peer-to-server", box);
    if (!button || !window.fetch) return;
    button.dataset.table = table;
    button.hidden = !navigator.onLine;
  }
  window.addEventListener("online", function () {
    var button = $("#peer-to-server");
    var keep = $("#peer-takeover");
    if (button && keep && !keep.hidden && button.dataset.table === keep.dataset.table) button.hidden = false;
  });

  // The owner's own link (`/t/<id>/k/<owner token>`, made as the join link is), or null.
  function ownerLink(made) {
    var tail = /\/k\/[^/?#]+$/;
    if (!made.owner_token || !tail.test(made.join_url || "")) return null;
    return made.join_url.replace(tail, "/k/" + encodeURIComponent(made.owner_token));
  }

  function putOnServer(box, button) {
    var table = button.dataset.table || button.dataset.peerPut;
    var status = $("[data-peer-status]", box);
    var stop = window.AbortController ? new AbortController() : null;
    var timer = null;
    var copy = null;
    busy(box, true);
    say(box, "putting");
    copyOf(table).then(function (found) {
      copy = found;
      if (!copy) throw new Error("no copy");
      timer = stop && setTimeout(function () { stop.abort(); }, 30000);
      return fetch("/api/v1/tables/import", {
        method: "POST", credentials: "omit", signal: stop ? stop.signal : undefined,
        headers: { "Content-Type": "application/json", "Accept-Language": document.documentElement.lang || "en" },
        body: JSON.stringify(copy.log) });
    }).then(function (response) {
      return response.json().then(function (made) { return { ok: response.ok, made: made || {} }; });
    }).then(function (got) {
      if (timer) clearTimeout(timer);
      var made = got.made;
      if (!got.ok || !/^https?:\/\//.test(made.watch_url || "")) {
        var error = made.error || {};
        var why = (error.message || "") + (error.rule ? " (" + error.rule + ")" : "");
        if (status) status.textContent = (box.dataset.refused || "").replace("{why}", why);
        busy(box, false);
        return;
      }
      // Said once, here: the copy knows where its table is and is no longer offered. This page
      // relays the table no more (a refused copy left the relay as it was: the guest may pair again).
      copy.movedTo = made.watch_url;
      copy.opened = true;
      copy.ahead = false;
      copy.notThere = false;
      if (relayTimer) { clearInterval(relayTimer); relayTimer = null; }
      relaying = null;
      return Promise.all([
        new Promise(function (resolve) { tellWorker({ hut: "unrelay", table: table }, resolve); setTimeout(resolve, 2000); }),
        stored(function (store) { store.put(copy, copy.table); }, "readwrite").catch(function () { /* on the server all the same */ }),
      ]).then(function () { location.assign(ownerLink(made) || made.watch_url); });
    }).catch(function (error) {
      if (timer) clearTimeout(timer);
      console.warn("hut: not put on the server", error);
      busy(box, false);
      say(box, "offline");
    });
  }

  // Online, a copy asks where its table went: a phone may have put it on the server since this one
  // last paired (its origin finds it there; POST, as the origin is never put in an address).
  // Resolves to the copies found moved now. A hotspot with no internet is "online" too: each ask
  // gives up after a few seconds, and nothing on the page waits for it.
  // Ten copies at most a visit, the newest first, each once an hour (a phone of many evenings).
  var ASK_AGAIN_MS = 3600 * 1000;
  function learnWhere(all) {
    if (!navigator.onLine || !window.fetch) return Promise.resolve([]);
    var now = Date.now();
    var ask = all.filter(function (c) { return !c.movedTo && c.log && c.log.origin && !(now - (c.askedAt || 0) < ASK_AGAIN_MS); })
      .sort(function (a, b) { return b.at - a.at; }).slice(0, 10);
    return Promise.all(ask.map(function (copy) {
      var origin = copy.log.origin;
      var stop = window.AbortController ? new AbortController() : null;
      var timer = stop && setTimeout(function () { stop.abort(); }, 5000);
      return fetch("/hut/where", { method: "POST", credentials: "omit", headers: { "Content-Type": "application/json" },
                                   body: JSON.stringify({ origin: origin }), signal: stop ? stop.signal : undefined })
        .then(function (response) {
          if (response.ok) return response.json();
          copy.askedAt = now;  // not there (404), shut to copies (403), busy: not asked again within the hour
          if (response.status === 404) copy.notThere = true;  // the server answered: on no server yet
          return stored(function (store) { store.put(copy, copy.table); }, "readwrite").then(function () { return null; });
        })
        .then(function (found) {
          if (!found || !/^https?:\/\//.test(found.watch_url || "")) return null;  // a web address, nothing else
          copy.movedTo = found.watch_url;
          copy.notThere = false;
          var last = lastOf(copy.log);
          copy.ahead = Boolean(last && typeof found.seq === "number" && last.seq > found.seq);
          return stored(function (store) { store.put(copy, copy.table); }, "readwrite").then(function () { return copy; });
        })
        .catch(function () { return null; })  // no answer: asked again next time
        .then(function (moved) { if (timer) clearTimeout(timer); return moved; });
    })).then(function (found) { return found.filter(Boolean); });
  }

  // Each copy whose table is on the server, once, until its link is followed; a copy ahead of the
  // server's table until it has put its moves there.
  function showMoved(all) {
    var box = $("#peer-moved");
    if (!box) return;
    all.filter(function (c) { return c.movedTo && (!c.opened || c.ahead) && /^https?:\/\//.test(c.movedTo); }).forEach(function (copy) {
      var line = document.createElement("p");
      var players = ((copy.log && copy.log.players) || []).join(", ");
      line.textContent = (box.dataset.moved || "").replace("{players}", players);
      var link = document.createElement("a");
      link.href = copy.movedTo;
      link.textContent = box.dataset.open || "";
      link.className = "button";  // a thumb's target on a line of its own, as the table's own "Open it on the server"
      link.dataset.peerMoved = copy.table;
      var linkLine = document.createElement("p");
      linkLine.appendChild(link);
      var status = $("[data-peer-status]", box);
      box.insertBefore(line, status);
      box.insertBefore(linkLine, status);
      if (copy.ahead) {  // moves the server's table has not: this copy adds them (an import of its origin)
        line.textContent += " " + (box.dataset.ahead || "");
        var put = document.createElement("button");
        put.type = "button";
        put.textContent = box.dataset.put || "";
        put.dataset.peerPut = copy.table;
        linkLine.appendChild(document.createTextNode(" "));
        linkLine.appendChild(put);
      }
      box.hidden = false;
    });
  }

  // Online, the newest copy the server said it has not (404) is offered to put there, in sight:
  // back home a guest does not look under "Join a table nearby (no internet)".
  function showHere(all) {
    var box = $("#peer-here");
    if (!box) return;
    var status = $("[data-peer-status]", box);
    Array.prototype.slice.call(box.children).forEach(function (el) { if (el !== status) box.removeChild(el); });
    var newest = all.filter(function (c) { return !c.movedTo && c.notThere; }).sort(function (a, b) { return b.at - a.at; })[0];
    box.hidden = !newest || !navigator.onLine;
    if (box.hidden) return;
    var line = document.createElement("p");
    line.textContent = (box.dataset.here || "").replace("{players}", ((newest.log && newest.log.players) || []).join(", "));
    var put = document.createElement("button");
    put.type = "button";
    put.textContent = box.dataset.put || "";
    put.dataset.peerPut = newest.table;
    var putLine = document.createElement("p");
    putLine.appendChild(put);
    box.insertBefore(line, status);
    box.insertBefore(putLine, status);
  }

  // The home page: a copy kept from an earlier pairing may be kept here too (the host's phone gone),
  // or removed from the phone.
  function offerNewest(box, all) {
    var newest = all.filter(function (c) { return !c.movedTo; }).sort(function (a, b) { return b.at - a.at; })[0];
    if (!newest || host) return;
    offerTakeover(box, newest.table);
    var forget = $("#peer-forget", box);
    if (forget) { forget.dataset.table = newest.table; forget.hidden = false; }
  }

  // A copy whose table is on the server, said and opened there, is only a record of an evening: it
  // is removed a month after it was last written. A copy not on the server is kept until the
  // player removes it (#peer-forget): it may be the one left of a table.
  var KEEP_MOVED_MS = 30 * 24 * 3600 * 1000;
  function prune(all) {
    var now = Date.now();
    var old = all.filter(function (c) { return c.movedTo && c.opened && !c.ahead && now - (c.at || 0) > KEEP_MOVED_MS; });
    if (!old.length) return Promise.resolve(all);
    return stored(function (store) { old.forEach(function (c) { store.delete(c.table); }); }, "readwrite")
      .then(function () { return all.filter(function (c) { return old.indexOf(c) < 0; }); }, function () { return all; });
  }

  function forget(box, button) {
    var details = button.closest("#peer-forget");
    var table = details && details.dataset.table;
    if (!table) return;
    button.disabled = true;
    stored(function (store) { store.delete(table); }, "readwrite").then(function () {
      withdraw(box);
      details.open = false;
      details.hidden = true;
      return stored(function (store) { return store.getAll(); });
    }).then(function (all) {
      offerNewest(box, all || []);  // the next newest copy, if any
      showHere(all || []);
    }).catch(function (error) { console.warn("hut: the copy was not removed", error); })
      .then(function () { button.disabled = false; });
  }

  document.addEventListener("DOMContentLoaded", function () { homeCopies(true); });
  // Opened with no signal (at the hut) and online since: the copies ask now, not at the next visit.
  window.addEventListener("online", function () { homeCopies(false); });

  function homeCopies(first) {
    var box = $("#peer-join");
    if (!box || !window.indexedDB || host || $("#hut-frame")) return;  // not while a table is relayed
    stored(function (store) { return store.getAll(); }).then(function (all) {
      return first ? prune(all || []) : all || [];
    }).then(function (all) {
      if (first) showMoved(all);
      showHere(all);
      if (first) offerNewest(box, all);
      return learnWhere(all).then(function (moved) {
        showHere(all);  // the answers update the copies in place
        if (!moved.length) return;
        showMoved(moved);
        var button = $("#peer-takeover", box);
        if (!button) return;
        if (moved.some(function (c) { return c.table === button.dataset.table; })) withdraw(box);  // on the server
        if (button.hidden) offerNewest(box, all);  // the newest copy not on the server, if any
      });
    }).catch(function () { /* no copies */ });
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target || !target.closest) return;
    var start = target.closest("[data-peer-start]");
    if (start) { startHost(start.closest("#peer-invite")); return; }
    var moved = target.closest("[data-peer-moved]");
    if (moved) {  // said once: the copy is marked seen, then the link is followed
      event.preventDefault();
      copyOf(moved.dataset.peerMoved).then(function (copy) {
        if (copy) { copy.opened = true; return stored(function (store) { store.put(copy, copy.table); }, "readwrite"); }
      }).catch(function () { /* shown again next time */ }).then(function () { location.assign(moved.href); });
      return;
    }
    var takeover = target.closest("#peer-takeover");
    if (takeover) { takeOver(takeover.closest("#peer-join"), takeover); return; }
    var forgetting = target.closest("[data-peer-forget]");
    if (forgetting) { forget(forgetting.closest("#peer-join"), forgetting); return; }
    var server = target.closest("#peer-to-server, [data-peer-put]");
    if (server) { putOnServer(server.closest("#peer-join, #peer-moved, #peer-here"), server); return; }
    var connect = target.closest("[data-peer-connect]");
    if (!connect) return;
    var box = connect.closest("#peer-invite, #peer-join");
    if (box.id === "peer-invite") acceptAnswer(box);
    else join(box);
  });
})();
