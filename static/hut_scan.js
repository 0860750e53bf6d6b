// The hut (issue 39): read the other phone's pairing code with the camera. A guest scans the host's
// invite (#peer-join), the host scans the guest's answer (#peer-invite). What is read is put in
// textarea#peer-code and the box's own button is pressed, so a scanned code takes exactly the path
// of a pasted one (static/hut.js), refusals included; pasting always stays possible.
//
// BarcodeDetector where the browser has one that reads QR codes; otherwise jsQR, vendored at build
// time (Makefile) and stored by the service worker, so a phone with no internet scans too. The
// camera is on only while scanning: it stops at the first code read, on Stop, or when the page hides.
(function () {
  "use strict";
  var INTERVAL = 150;  // ms between two looks at the camera: jsQR takes tens of ms a frame on a phone
  var LONGEST = 640;   // px: frames are read scaled down to this, enough for a code held up close
  var active = null;
  // For the tests and the bench: how each code was read, and ms from the tap to the code.
  var stats = window.scorekeeperScan = { read: [] };

  function $(sel, root) { return (root || document).querySelector(sel); }

  function note(scanner, key) {
    var text = key ? scanner.dataset[key] || "" : "";
    $("[data-peer-scan-note]", scanner).textContent = text;
  }

  // Why this page cannot scan at all, before asking for the camera (a message key), or "".
  function cannot() {
    if (!window.isSecureContext) return "insecure";
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return "noCamera";
    return "";
  }

  function detector() {
    if (!("BarcodeDetector" in window)) return Promise.resolve(null);
    var formats = window.BarcodeDetector.getSupportedFormats ? window.BarcodeDetector.getSupportedFormats() : Promise.resolve([]);
    return formats.then(function (supported) {
      if (supported.indexOf("qr_code") < 0) return null;
      var found = new window.BarcodeDetector({ formats: ["qr_code"] });
      return function (video) {
        return found.detect(video).then(function (codes) { return codes.length ? codes[0].rawValue : null; });
      };
    }, function () { return null; });
  }

  var loading = null;
  function jsQR(url) {
    if (window.jsQR) return Promise.resolve(window.jsQR);
    if (!url) return Promise.reject(new Error("no-decoder"));
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = url;
        script.onload = function () { if (window.jsQR) resolve(window.jsQR); else reject(new Error("no-decoder")); };
        script.onerror = function () { loading = null; reject(new Error("no-decoder")); };
        document.head.appendChild(script);
      });
    }
    return loading;
  }

  function canvasReader(decode) {
    var canvas = document.createElement("canvas");
    var context = canvas.getContext("2d", { willReadFrequently: true });
    return function (video) {
      var w = video.videoWidth, h = video.videoHeight;
      if (!w || !h) return Promise.resolve(null);
      var scale = Math.min(1, LONGEST / Math.max(w, h));
      canvas.width = Math.round(w * scale);
      canvas.height = Math.round(h * scale);
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      var image = context.getImageData(0, 0, canvas.width, canvas.height);
      var found = decode(image.data, canvas.width, canvas.height, { inversionAttempts: "dontInvert" });
      return Promise.resolve(found && found.data ? found.data : null);
    };
  }

  function reader(scanner) {
    return detector().then(function (read) {
      if (read) return { read: read, by: "BarcodeDetector" };
      return jsQR(scanner.dataset.decoder).then(function (decode) { return { read: canvasReader(decode), by: "jsQR" }; });
    });
  }

  function buttons(scanner, scanning) {
    $("[data-peer-scan]", scanner).hidden = scanning;
    $("[data-peer-scan-stop]", scanner).hidden = !scanning;
  }

  function stop(key) {
    var now = active;
    if (!now) return;
    active = null;
    clearTimeout(now.timer);
    if (now.stream) now.stream.getTracks().forEach(function (track) { track.stop(); });
    now.video.pause();
    now.video.srcObject = null;
    now.video.hidden = true;
    buttons(now.scanner, false);
    if (key !== undefined) note(now.scanner, key);
  }

  // The code read goes where a pasted one would, and the box's own button takes it from there.
  function deliver(scanner, text) {
    var box = scanner.closest("#peer-invite, #peer-join");
    var field = $("#peer-code", box);
    field.value = text;
    field.dispatchEvent(new Event("input", { bubbles: true }));
    $("[data-peer-connect]", box).click();
  }

  function look(run) {
    if (active !== run) return;
    var next = function () { if (active === run) run.timer = setTimeout(function () { look(run); }, INTERVAL); };
    if (run.video.readyState < 2) { next(); return; }
    Promise.resolve(run.video).then(run.read).then(function (text) {
      if (active !== run) return;
      if (!text) { next(); return; }
      stats.read.push({ by: run.by, ms: Math.round(performance.now() - run.at) });
      stop("");
      deliver(run.scanner, text);
    }, next);
  }

  function start(scanner) {
    stop();
    var why = cannot();
    if (why) { note(scanner, why); return; }
    var video = $("#peer-video", scanner);
    var run = { scanner: scanner, video: video, stream: null, timer: 0, read: null, at: performance.now() };
    active = run;
    buttons(scanner, true);
    note(scanner, "looking");
    // The reader first: a browser that cannot decode is told so without being asked for the camera.
    reader(scanner).then(function (got) {
      if (active !== run) return null;
      run.read = got.read;
      run.by = got.by;
      return navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false });
    }).then(function (stream) {
      if (!stream) return null;
      if (active !== run) { stream.getTracks().forEach(function (track) { track.stop(); }); return null; }  // stopped meanwhile
      run.stream = stream;
      video.srcObject = stream;
      video.hidden = false;
      return video.play().then(function () { look(run); });
    }).catch(function (error) {
      if (active !== run) return;
      var name = error && error.name;
      stop(error && error.message === "no-decoder" ? "noDecoder"
        : name === "NotAllowedError" || name === "SecurityError" ? "denied"
        : name === "NotFoundError" || name === "OverconstrainedError" ? "noCamera" : "failed");
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!target || !target.closest) return;
    var scan = target.closest("[data-peer-scan]");
    if (scan) { start(scan.closest("[data-peer-scanner]")); return; }
    if (target.closest("[data-peer-scan-stop]")) stop("");
  });
  // A hidden page (the phone locked, another app opened) lets go of the camera.
  document.addEventListener("visibilitychange", function () { if (document.hidden) stop(""); });
  window.addEventListener("pagehide", function () { stop(""); });
  // A folded box stops scanning too.
  document.addEventListener("toggle", function (event) {
    if (active && event.target.open === false && event.target.contains(active.scanner)) stop("");
  }, true);

  // A browser that can never scan says so on the button's box at once, not after a tap.
  document.addEventListener("DOMContentLoaded", function () {
    var why = cannot();
    Array.prototype.forEach.call(document.querySelectorAll("[data-peer-scanner]"), function (scanner) {
      if (why) { note(scanner, why); return; }
      if (scanner.dataset.decoder) return;
      detector().then(function (read) { if (!read) note(scanner, "noDecoder"); });
    });
  });
})();
