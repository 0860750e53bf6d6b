// scorekeeper service worker: the app shell and rule book from the cache, pages from the network —
// and tables kept on this phone alone (/phone/…), answered here by the app itself running under
// Pyodide: the same Flask views, templates and engine as the server (docs/architecture.md).
// A classic worker, not a module: Chromium keeps a code cache of what it imports, which spares each
// start compiling Pyodide's 1.25 MB of JavaScript again (offline/build.py, CLASSIC).
{% if worker_scripts %}self.pyodideModuleURL = new URL("{{ worker_scripts[1] }}", self.location.href).href;
importScripts(...{{ worker_scripts|tojson }});
const { loadPyodide, createPyodideModule } = self;
{% endif %}
const CACHE = "scorekeeper-{{ version }}";
const SHELL = {{ shell|tojson }};
const OFFLINE = {{ offline|tojson }};
// Everything the phone needs to keep a table with no signal, cached under its build's hash.
const PHONE_CACHE = "scorekeeper-phone-{{ offline_version }}";
const PHONE_FILES = {{ offline_files|tojson }};
const PHONE_BASE = "{{ offline_base }}";
const PHONE = "/phone";

self.addEventListener("install", (event) => {
  // The phone's files (13 MB) are fetched after the shell and may fail without failing the install:
  // the page asks for them again ("offline-ready?") until they are all stored.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL))
    .then(() => storePhoneFiles().catch(() => false)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE && k !== PHONE_CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

// The page asks whether everything for offline play is stored (and has it stored if not).
self.addEventListener("message", (event) => {
  if (event.data === "keep-alive") {
    // A phone table's page says so every 20 s while in view: Chromium stops a worker idle for
    // 30 s, and the next tap would pay a whole start (seconds on a slow phone) in the middle of a
    // trick. Each message is an event, which resets that clock; a stopped worker is started here,
    // before the tap, when the page comes back into view.
    self.phoneKeptAlive = (self.phoneKeptAlive || 0) + 1;
    // A table another phone keeps needs no app here: starting it (seconds of Python that hold
    // this worker) would hold up every request relayed meanwhile. The message alone keeps it awake.
    const framed = event.source && event.source.url && new URL(event.source.url).pathname.match(/^\/phone\/t\/([^/]+)/);
    if (framed && relays.has(framed[1])) return;
    event.waitUntil(app().catch(() => null));
    return;
  }
  if (event.data && event.data.hut === "relay" && event.source) {
    relays.set(event.data.table, event.source.id);  // the page that holds the connection to the table's phone
    if (event.ports[0]) event.ports[0].postMessage(true);
    return;
  }
  if (event.data && event.data.hut === "host" && event.source) {
    hosting.set(event.source.id, event.data.table);  // the page that keeps this phone's table's guests
    if (event.ports[0]) event.ports[0].postMessage(true);
    return;
  }
  if (event.data && event.data.hut === "unrelay") {
    relays.delete(event.data.table);  // this phone keeps the table now ("Keep this table here")
    if (event.ports[0]) event.ports[0].postMessage(true);
    return;
  }
  if (event.data && event.data.hidden && started) {
    // A page of this phone's tables went out of view: the phone may close it (or the browser
    // discard it) before it is looked at again, so the page is drawn and kept anew if a change
    // since it was kept deleted it. Now, not after every move: no tap waits behind the drawing.
    event.waitUntil(keepShown(String(event.data.hidden)).catch(() => undefined));
    return;
  }
  if (event.data === "started?" && event.ports[0]) {
    // A page shown while the app starts (keptPage) asks when it answers.
    const port = event.ports[0];
    event.waitUntil(app().then(() => port.postMessage(true), () => port.postMessage(false)));
    return;
  }
  if (event.data !== "offline-ready?" || !event.ports[0]) return;
  event.waitUntil(storePhoneFiles().catch(() => false).then((ok) => event.ports[0].postMessage(ok)));
});

async function storePhoneFiles() {
  if (!PHONE_FILES.length) return null; // nothing to store: this server was built without them
  const cache = await caches.open(PHONE_CACHE);
  const shell = await caches.open(CACHE);
  const missing = [];
  for (const url of PHONE_FILES) if (!(await cache.match(url))) missing.push(url);
  if (missing.length) await cache.addAll(missing);
  for (const url of SHELL) if (!(await shell.match(url))) await shell.add(url);
  return true;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (PHONE_FILES.length && (url.pathname === PHONE || url.pathname.startsWith(PHONE + "/"))) {
    const relayed = url.pathname.match(/^\/phone\/t\/([^/]+)/);
    if (request.headers.has(GUEST)) event.respondWith(forGuest(event, request, url, relayed && relayed[1]));
    else if (relayed && relays.has(relayed[1])) event.respondWith(relay(request, url, relays.get(relayed[1])));
    else event.respondWith(phone(request, url));
    return;
  }
  if (PHONE_FILES.length && request.method === "POST" && url.pathname === "/tables") {
    event.respondWith(createTable(request));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.endsWith("/stream") || url.pathname.startsWith("/api/")) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(staticFile(request));
    return;
  }
  if (request.mode === "navigate" || url.pathname.startsWith("/rules")) {
    event.respondWith(fetch(request).then((response) => {
      if (url.pathname.startsWith("/rules") && response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    }).catch(() => caches.match(request).then((hit) => hit || bookPage(url)).then((hit) => hit || caches.match(OFFLINE))));
  }
});

function staticFile(request) {
  return caches.match(request).then((hit) => hit || fetch(request).then((response) => {
    if (!response.ok) return thisBuilds(request.url).then((mine) => mine || response);
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
    return response;
  }, (error) => thisBuilds(request.url).then((mine) => mine || Promise.reject(error))));
}

// A page of another build names that build's hashed files: a hut table's phone that updated since
// this phone last did (static/hut.js relays its pages here), with no server to fetch them from, or
// a server that has moved on. This phone then answers with its own build's file of the same name —
// two builds' pages differ little, and a page without its style and script is not usable.
const HASHED = /^\/static\/dist\/(.+)\.[0-9a-f]{12}\.([a-z0-9]+)$/;
function thisBuilds(address) {
  const wanted = new URL(address).pathname.match(HASHED);
  const mine = wanted && SHELL.find((path) => {
    const named = path.match(HASHED);
    return named && named[1] === wanted[1] && named[2] === wanted[2];
  });
  return mine ? caches.match(mine).then((hit) => hit || null) : Promise.resolve(null);
}

// Offline, a table's link to its rule book (?table=…&lang=sv) opens the cached book in that language.
function bookPage(url) {
  if (!url.pathname.startsWith("/rules")) return undefined;
  return caches.match(url.pathname + "?lang=" + encodeURIComponent(url.searchParams.get("lang") || "en"));
}

// --- Tables kept on another phone (the hut, issue 39) ---

// A table another phone keeps, by id: the page (client id) that holds the data channel to it. The
// table's requests go to that page, which sends them to the table's phone and hands back its answer.
// Forgotten when this worker stops; the page says so again with its keep-alive (static/hut.js).
const relays = new Map();
const RELAYED_HEADERS = ["accept", "accept-language", "content-type", "hx-request", "hx-target", "hx-trigger",
                         "hx-trigger-name", "hx-current-url", "hx-boosted"];

async function relay(request, url, clientId) {
  const client = await self.clients.get(clientId);
  const gone = (status) => new Response(null, { status });
  if (!client) return gone(503);
  if (url.pathname.endsWith("/stream")) return gone(204);  // the page around the frame is told of moves
  const headers = {};
  request.headers.forEach((value, key) => { if (RELAYED_HEADERS.includes(key)) headers[key] = value; });
  const body = ["GET", "HEAD"].includes(request.method) ? null : await request.text();
  const channel = new MessageChannel();
  const answered = new Promise((resolve) => {
    channel.port1.onmessage = (event) => resolve(event.data);
    setTimeout(() => resolve(null), 20000);
  });
  client.postMessage({ hut: "request", method: request.method, path: url.pathname, search: url.search, headers, body },
                     [channel.port2]);
  const got = await answered;
  if (!got) return gone(504);
  if (got.redirect) return Response.redirect(new URL(got.redirect, url).href, 303);
  return new Response([204, 304].includes(got.status) ? null : got.body, { status: got.status, headers: got.headers });
}

// A guest's request, relayed by the page that keeps the table's connections (static/hut.js): it
// names the guest, and the app answers with that guest's own session, at that table only
// (offline/guests.py). Taken only from the page that said it hosts this table: any other request
// naming a guest is refused, never answered with this phone's own session.
const GUEST = "x-hut-guest";
const hosting = new Map();  // client id of a host's page -> the table it shares

function forGuest(event, request, url, table) {
  const shared = hosting.get(event.clientId);
  if (!shared || shared !== table) return new Response("Not a table this page shares.", { status: 403, headers: { "Content-Type": "text/plain" } });
  return phone(request, url, { id: request.headers.get(GUEST), table });
}

// --- Tables kept on this phone ---

// The create form says where the table is kept; "phone" opens it here, anything else goes on.
async function createTable(request) {
  const form = new URLSearchParams(await request.clone().text());
  if (form.get("where") !== "phone") return fetch(request);
  return phone(request, new URL(PHONE + "/tables", request.url));
}

let booting = null;
let started = false;  // the app answers: no kept page is shown any more (see keptPage)
function app() {
  booting = booting || boot().then((loaded) => { started = true; return loaded; },
                                   (error) => { booting = null; throw error; });
  return booting;
}

// Pyodide fetches its own files (the wasm, the standard library): from this phone's cache first.
const networkFetch = self.fetch.bind(self);
self.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input), self.location.href);
  if (!url.pathname.startsWith(PHONE_BASE)) return networkFetch(input, init);
  return caches.open(PHONE_CACHE).then((cache) => cache.match(url.pathname)).then((hit) => hit || networkFetch(input, init));
};

// Where the start has got to, with times (ms) — read by bench/bench_offline.py and when debugging.
self.phoneBoot = {};
function stage(name) { self.phoneBoot[name] = Math.round(performance.now() - self.phoneBoot.t0); }

// A start restores Pyodide's memory as it was once the app was made (phone.prepare(): imported,
// templates compiled, no table in it), taken on this phone at its first start and kept in the
// phone's cache, so it goes when the build does. Without it a start is Pyodide's own (7 s on a
// slow phone) and the app's import (5 s); with it, a copy of memory. Kept with it: a pack of the
// files the snapshot has not imported (data files, templates, what a page may still import), a
// tenth of the packs: a restored start reads and lays out only that.
const SNAPSHOT = PHONE_BASE + "memory-snapshot";  // the pages of memory (see sparse)
const SNAPSHOT_HEAD = PHONE_BASE + "memory-snapshot-head";  // which pages, and Pyodide's own state
const SNAPSHOT_FILES = PHONE_BASE + "memory-snapshot-files";

async function boot() {
  self.phoneBoot = { t0: performance.now() };
  const wasm = compileWasm();  // while the snapshot and the tables are read
  // The tables are needed only once Python runs: read while Pyodide starts (300 kept tables are
  // 14 MB in 850 records, read for as long as Pyodide takes to restore on a slow phone).
  const reading = load();
  reading.catch(() => undefined);  // a failed read fails the start below, when it is awaited
  const kept = await storedSnapshot();
  stage("snapshotHead");
  let py = kept && await startPyodide(kept, wasm).catch((error) => {
    self.phoneBoot.restoreFailed = String(error);  // taken again below; said for the bench and the tests
    return dropSnapshot();
  });
  if (py) {
    stage("pyodide");
    eachFile(await kept.files, (name, data) => write(py, "/lib/" + name, data));
    stage("unpacked");
  } else {
    const [site, code] = await Promise.all([bytesOf("site.pack"), bytesOf("app.pack")]);
    py = await startPyodide(null, wasm);
    stage("pyodide");
    eachFile(site, (name, data) => write(py, "/lib/site/" + name, data));
    eachFile(code, (name, data) => write(py, "/lib/app/" + name, data));
    stage("unpacked");
    py.runPython("import sys; sys.path[:0] = ['/lib/app', '/lib/site']");
    py.pyimport("scorekeeper.offline.phone").prepare();
    const imported = new Set(py.runPython(
      "import sys; [m.__file__ for m in list(sys.modules.values()) if getattr(m, '__file__', None)]").toJs());
    keepSnapshot(py.makeMemorySnapshot(), packOf([[site, "site/"], [code, "app/"]], (name) => !imported.has("/lib/" + name)));
    stage("prepared");
  }
  const saved = await reading;
  stage("read");
  watchWrites(py);
  const entry = py.pyimport("scorekeeper.offline.phone");
  entry.open_phone(saved ? saved.db : null, saved ? saved.cookie : null, self.location.host, Boolean(saved && saved.chunked),
                   (saved && saved.guests) || null);
  stage("ready");
  return { py, entry };
}

// Pyodide compiles its wasm (9.6 MB) only once it has the snapshot in hand. So it is compiled
// from the cache as the start begins, beside the read, and Pyodide's own instantiation (which
// adds two imports of its own) is handed that module while the Python module is made. V8 compiles
// lazily, so this is the smaller part of a start (25–35 ms unthrottled); each function's own
// compile comes at its first call. A compile that fails is left to Pyodide's own.
function compileWasm() {
  const compiled = caches.open(PHONE_CACHE).then((cache) => cache.match(PHONE_BASE + "pyodide.asm.wasm"))
    .then((response) => { stage("wasmFound"); return response ? WebAssembly.compileStreaming(response) : null; });
  compiled.then(() => stage("wasmCompiled"), () => undefined);
  compiled.catch(() => undefined);
  return compiled;
}

function withModule(wasm, make) {
  return (settings) => wasm.catch(() => null).then((module) => {
    stage("moduleStarted");  // Emscripten's module factory begins
    const streaming = WebAssembly.instantiateStreaming;
    if (module) {
      WebAssembly.instantiateStreaming = (source, imports) => {
        stage("wasmInstantiating");
        return WebAssembly.instantiate(module, imports).then((instance) => { stage("wasmInstantiated"); return { module, instance }; });
      };
    }
    return make(settings).finally(() => { WebAssembly.instantiateStreaming = streaming; });
  });
}

function startPyodide(kept, wasm) {
  const options = { indexURL: PHONE_BASE, packages: [], createPyodideModule: withModule(wasm, createPyodideModule) };
  if (!kept) return loadPyodide({ ...options, _makeSnapshot: true });
  // Pyodide restores its own state from the snapshot's head; the memory is laid out here first:
  // grown to its size (which Pyodide 314 does not do itself), then the kept pages read into it.
  const restored = withModule(wasm, (settings) => createPyodideModule(settings).then(async (module) => {
    stage("instantiated");
    const fresh = module.HEAPU8.length;
    module.growMemory(kept.size);
    await layOut(module.HEAPU8, kept, fresh);
    stage("laidOut");
    return module;
  }));
  return loadPyodide({ ...options, createPyodideModule: restored, _loadSnapshot: kept.head });
}

// The snapshot is kept sparse. Pyodide's is its head (header and state) and then the whole memory,
// and a third of the memory is pages of zeros (grown once, never used since): reading them from
// the cache and copying them in was a third of a start's restore. Kept in two entries: the head
// (SNAPSHOT_HEAD: a 16-byte top — SPARSE, the head's length, the memory's, the number of pages
// kept — the kept pages' numbers, then Pyodide's head), a few kB read first, so that Pyodide's
// module is made at once; and the 64 KiB pages of memory that hold anything (SNAPSHOT), read
// straight into the module's memory once it is there, never into a buffer of their own first
// (which was one more copy of 48 MB and had the module wait for the whole read).
const SPARSE = 0x53505332;
const PAGE = 65536;

function sparse(snapshot) {
  const headLength = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 2)[1];
  const memory = snapshot.subarray(headLength);
  const words = new Uint32Array(memory.buffer, memory.byteOffset, memory.length / 4);
  const pages = [];
  for (let page = 0; page * PAGE < memory.length; page++) {
    for (let i = page * PAGE / 4, end = i + PAGE / 4; i < end; i++) {
      if (words[i]) { pages.push(page); break; }
    }
  }
  const top = new Uint32Array([SPARSE, headLength, memory.length, pages.length, ...pages]);
  const head = new Uint8Array(top.byteLength + headLength);
  head.set(new Uint8Array(top.buffer));
  head.set(snapshot.subarray(0, headLength), top.byteLength);
  const data = new Uint8Array(pages.length * PAGE);
  pages.forEach((page, at) => data.set(memory.subarray(page * PAGE, (page + 1) * PAGE), at * PAGE));
  return { head, data };
}

// A kept snapshot's head read back, or null if it is not one (an older format, a torn write); its
// pages are the body of `data`, unread, and its files a promise of their bytes.
function unsparse(stored) {
  if (stored.length < 16 || stored.byteOffset % 4) return null;
  const [magic, headLength, size, count] = new Uint32Array(stored.buffer, stored.byteOffset, 4);
  const headAt = 16 + 4 * count;
  if (magic !== SPARSE || stored.length !== headAt + headLength) return null;
  return { head: stored.subarray(headAt), size, pages: new Uint32Array(stored.buffer, stored.byteOffset + 16, count) };
}

// The kept pages read into Pyodide's grown memory as they come from the cache, piece by piece. A
// page not kept was zeros: memory grown just now is zeros already, and below that (what the
// module's start wrote to) it is made zeros. Fewer bytes than the head names (a torn write) fail
// the restore, which then makes the snapshot again.
async function layOut(heap, kept, fresh) {
  const reader = kept.data.body.getReader();
  let at = 0;  // bytes of the pages laid out so far
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (let from = 0; from < value.length;) {
      const index = Math.floor(at / PAGE);
      if (index >= kept.pages.length) throw new Error("the snapshot holds more pages than its head names");
      const length = Math.min(value.length - from, PAGE - at % PAGE);
      heap.set(value.subarray(from, from + length), kept.pages[index] * PAGE + at % PAGE);
      from += length;
      at += length;
    }
  }
  if (at !== kept.pages.length * PAGE) throw new Error(`the snapshot holds ${at} bytes of ${kept.pages.length * PAGE}`);
  const words = new Uint32Array(heap.buffer);
  let next = 0;
  for (let page = 0; page * PAGE < Math.min(fresh, kept.size); page++) {
    if (next < kept.pages.length && kept.pages[next] === page) {
      next++;
      continue;
    }
    for (let i = page * PAGE / 4, end = i + PAGE / 4; i < end; i++) {
      if (words[i]) { heap.fill(0, page * PAGE, (page + 1) * PAGE); break; }
    }
  }
}

async function storedSnapshot() {
  const cache = await caches.open(PHONE_CACHE);
  const [head, data, files] = await Promise.all([cache.match(SNAPSHOT_HEAD), cache.match(SNAPSHOT), cache.match(SNAPSHOT_FILES)]);
  if (!head || !data || !files) return null;
  const kept = unsparse(new Uint8Array(await head.arrayBuffer()));
  if (!kept) return null;  // taken again by this start
  self.phoneBoot.snapshot = { stored: kept.pages.length * PAGE, memory: kept.size };
  const rest = files.arrayBuffer().then((bytes) => new Uint8Array(bytes));
  rest.catch(() => undefined);  // a failed read fails the start where it is awaited
  return { ...kept, data, files: rest };
}

function keepSnapshot(snapshot, files) {
  // After the first page's answer (a task later): sparse() reads all 78 MB. The files and the
  // pages first, the head last: a snapshot is read only when its head is there.
  setTimeout(() => {
    const kept = sparse(snapshot);
    self.phoneBoot.snapshot = { stored: kept.data.length, memory: snapshot.length };
    caches.open(PHONE_CACHE).then((cache) => cache.delete(SNAPSHOT_HEAD)
      .then(() => cache.put(SNAPSHOT_FILES, new Response(files)))
      .then(() => cache.put(SNAPSHOT, new Response(kept.data)))
      .then(() => cache.put(SNAPSHOT_HEAD, new Response(kept.head))))
      .then(() => stage("snapshotStored"), () => undefined);
  }, 0);
}

async function dropSnapshot() {
  const cache = await caches.open(PHONE_CACHE);
  await Promise.all([cache.delete(SNAPSHOT_HEAD), cache.delete(SNAPSHOT), cache.delete(SNAPSHOT_FILES)]);
  return null;
}

// A pack (scorekeeper/offline/precompile.mjs): a 4-byte length, a JSON list [[path, size], ...]
// that long, then the files, laid out here with no unzipping.
function eachFile(pack, use) {
  const length = new DataView(pack.buffer, pack.byteOffset).getUint32(0, true);
  let at = 4 + length;
  for (const [name, size] of JSON.parse(new TextDecoder().decode(pack.subarray(4, at)))) {
    use(name, pack.subarray(at, at + size));
    at += size;
  }
}

function packOf(packs, keep) {
  const index = [];
  const parts = [];
  for (const [pack, prefix] of packs) {
    eachFile(pack, (name, data) => {
      if (!keep(prefix + name)) return;
      index.push([prefix + name, data.length]);
      parts.push(data);
    });
  }
  const head = new TextEncoder().encode(JSON.stringify(index));
  const out = new Uint8Array(4 + head.length + parts.reduce((sum, part) => sum + part.length, 0));
  new DataView(out.buffer).setUint32(0, head.length, true);
  out.set(head, 4);
  let at = 4 + head.length;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const madeDirs = new WeakMap();
function write(py, path, data) {
  const made = madeDirs.get(py) || new Set();
  madeDirs.set(py, made);
  const parent = path.slice(0, path.lastIndexOf("/"));
  if (!made.has(parent)) {
    py.FS.mkdirTree(parent);
    made.add(parent);
  }
  py.FS.writeFile(path, data, { canOwn: true });
}

// The app's database is a file of Emscripten's file system (phone.py): the pieces SQLite writes to
// it are noted here, and the app reads back only those after a write (phone.py, _written). Comparing
// the whole database with the stored copy instead was most of a move on a phone that keeps 300
// tables. The file system's own write and truncate, wrapped: every way a file changes goes through them.
const DB_FILE = ["phone", "db.sqlite"];
function watchWrites(py) {
  const FS = py.FS;
  if (FS.phoneWatched) return;
  FS.phoneWatched = true;
  const written = new Set();
  const ours = (node) => node && node.name === DB_FILE[1] && node.parent && node.parent.name === DB_FILE[0]
    && node.parent.parent === node.parent.parent.parent;  // /phone/db.sqlite: its folder is in the root
  const note = (from, to) => {
    for (let n = Math.floor(from / CHUNK); n * CHUNK < to; n++) written.add(n);
  };
  const write = FS.write;
  FS.write = function (stream, buffer, offset, length, position, canOwn) {
    if (ours(stream.node) && length > 0) {
      // As FS.write places it: at the position given, else the stream's (its end when appending).
      const at = typeof position !== "undefined" ? position : (stream.flags & 1024) ? stream.node.usedBytes : stream.position;
      note(at, at + length);
    }
    return write.apply(this, arguments);
  };
  const doTruncate = FS.doTruncate;
  FS.doTruncate = function (stream, node, length) {
    if (ours(node)) {
      const size = node.usedBytes || 0;
      note(Math.min(size, length), Math.max(size, length));  // the piece it now ends in, and any it grew by
    }
    return doTruncate.apply(this, arguments);
  };
  self.phoneWritten = () => {
    const found = Array.from(written);
    written.clear();
    return found;
  };
}

// For the bench and the tests: start the phone's app without a page request.
self.phoneStart = () => app().then(() => self.phoneBoot, (error) => ({ error: String(error) }));

async function bytesOf(name) {
  const response = await fetch(PHONE_BASE + name);
  if (!response.ok) throw new Error(name + ": " + response.status);
  return new Uint8Array(await response.arrayBuffer());
}

// One request at a time: the app is one Python interpreter, and each write is stored before the next.
let queue = Promise.resolve();
function serially(work) {
  const done = queue.then(work, work);
  queue = done.catch(() => undefined);
  return done;
}

async function phone(request, url, guest = null, redrawn = false) {
  const got = performance.now();
  const path = url.pathname.slice(PHONE.length) || "/";
  if (path.startsWith("/static/")) return staticFile(new Request(url.origin + path + url.search));
  if (path.endsWith("/stream")) return new Response(null, { status: 204 }); // nobody else to hear from
  const body = ["GET", "HEAD"].includes(request.method) ? null : new Uint8Array(await request.arrayBuffer());
  const headers = {};
  request.headers.forEach((value, key) => { if (key !== GUEST) headers[key] = value; });
  const moving = path.match(/^\/t\/([^/]+)\/to-server$/);
  const shown = !guest && request.method === "GET" && request.mode === "navigate";
  if (shown && !started) {
    // The kept page's read asked for before the start's: its transaction comes first, not after
    // the start's read of every kept table (300 tables: 850 records, 14 MB).
    const reading = keptPage(url, headers);
    const starting = app();
    starting.catch(() => undefined);  // a failed start is answered below, if no page was kept
    const kept = await reading;
    if (kept) {
      // Once started, the table's sheet is drawn once, its answer dropped: a table in play is
      // replayed from its log at its first request (seconds on a slow phone for a long evening),
      // and a first tap should not wait for that on top of the start.
      const table = path.match(/^\/t\/[^/]+$/);
      const sheet = table && new URL(PHONE + table[0] + "/sheet", url.origin);
      // Asked after the requests the page made while the app started (a tap): if one of them
      // replayed the table, it paid for that itself, and the sheet is not drawn behind it.
      if (sheet) {
        const drawn = { "accept-language": headers["accept-language"] || "", "hx-request": "true" };
        const id = decodeURIComponent(table[0].slice("/t/".length));
        starting.then((loaded) => new Promise((next) => setTimeout(() => next(loaded), 0)))  // the waiting requests queued first
          .then((loaded) => serially(() => loaded.entry.held(id)))
          .then((held) => {
            if (held) return stage("tableHeld");
            return phone(new Request(sheet.href, { headers: drawn }), sheet)
              .then((answer) => { if (answer.ok) stage("sheetDrawn"); });
          })
          .catch(() => undefined);
      }
      return kept;
    }
  }
  let loaded;
  try {
    loaded = await app();
  } catch (error) {
    return new Response("This phone could not start its tables: " + error, { status: 503, headers: { "Content-Type": "text/plain" } });
  }
  if (moving && request.method === "POST") return toServer(loaded, moving[1], url, headers);
  return serially(async () => {
    const t0 = performance.now();
    // A write is handed over as soon as it is committed: IndexedDB stores it while Python draws
    // the sheet. Each put follows the one before (IndexedDB runs them in order), so the last holds.
    // Each is worked out against the copy the store was last confirmed to hold (entry.stored()),
    // so the last one to land holds the whole state even if one before it failed.
    let kept = null;
    const keep = (pieces, size, cookie, guests) => {
      if (kept) kept.catch(() => undefined);
      try {
        kept = put(pieces, size, cookie, guests);
      } catch (error) {  // never thrown into the app mid-request: the answer waits for it below
        kept = Promise.reject(error);
      }
    };
    const answer = loaded.entry.handle(request.method, path, url.search.slice(1), loaded.py.toPy(headers), body, keep,
                                       guest ? guest.id : null, guest ? guest.table : null);
    const [status, pairs, data, changed] = answer.toJs();
    answer.destroy();
    const t1 = performance.now();
    if (changed === "kept") await store(loaded.entry, kept);  // what was kept already is the state after this request
    else {
      if (kept) kept.catch(() => undefined);
      if (changed) await store(loaded.entry);
    }
    // The last request's times (ms) — read by bench/bench_offline.py: from the fetch event to the
    // app's start (the body read, the queue), in the app, storing it, and the whole in the worker.
    const last = { path, before: Math.round(t0 - got), app: Math.round(t1 - t0), stored: Math.round(performance.now() - t1) };
    const location = pairs.find(([k]) => k.toLowerCase() === "location");
    const response = location && status >= 300 && status < 400 ? Response.redirect(new URL(location[1], url).href, status)
      : new Response([204, 304].includes(status) ? null : data, { status, headers: pairs });
    self.phoneLast = Object.assign(last, { inside: Math.round(performance.now() - got) });
    if ((shown || redrawn) && status === 200 && !changed) keepPage(url, headers, pairs, data);
    return response;
  });
}

// Puts the table on the server through its import (replayed there by the server's engine; a
// tampered log is refused with its rule), then opens it there through its join link. One import
// per table at a time, and none once it has moved: a double tap must not make two server tables.
const moves = new Map();
function toServer(loaded, tableId, url, headers) {
  if (!moves.has(tableId)) moves.set(tableId, putOnServer(loaded, tableId, headers).finally(() => moves.delete(tableId)));
  return moves.get(tableId).then((where) => Response.redirect(new URL(where, url).href, 303));
}

async function putOnServer(loaded, tableId, headers) {
  const already = await serially(() => loaded.entry.moved_to(tableId));
  if (already) return already;
  const exported = await serially(() => loaded.entry.export(tableId));
  const here = PHONE + "/t/" + tableId + "?to_server=";
  let answer, made;
  try {
    answer = await networkFetch("/api/v1/tables/import", {
      method: "POST", headers: { "Content-Type": "application/json", "Accept-Language": headers["accept-language"] || "en" }, body: exported,
    });
    made = await answer.json();
  } catch (error) {
    return here + "offline";
  }
  if (!answer.ok) {
    const failure = made.error ? made.error.message + (made.error.rule ? " (" + made.error.rule + ")" : "") : String(answer.status);
    return here + "refused&why=" + encodeURIComponent(failure);
  }
  try {
    // The phone's copy says where the table went and turns read-only: no second copy played on.
    await serially(async () => { loaded.entry.moved(tableId, made.join_url || made.watch_url); await store(loaded.entry); });
  } catch (error) {
    // On the server all the same: go there (this phone's copy stays as it was).
  }
  // This phone opened the table, so on the server it owns it (deletes it, makes new codes): the
  // owner's own link, once. What the copy keeps is the join link, which it shows to guests.
  // Another copy put it there first: the server gives this one its watch code (docs/api.md).
  return ownerLink(made) || made.join_url || made.watch_url;
}

// The owner's own link (`/t/<id>/k/<owner token>`, as a join link is made), or null. Its token
// goes into the session cookie and out of the address bar, as a join link's does.
function ownerLink(made) {
  if (!made.owner_token || !made.join_url || !/\/k\/[^/?#]+$/.test(made.join_url)) return null;
  return made.join_url.replace(/\/k\/[^/?#]+$/, "/k/" + encodeURIComponent(made.owner_token));
}

// --- The phone's store: the database in pieces, written in one transaction per change ---

// The database is kept in records of CHUNK bytes (phone.CHUNK), keyed ["db", number], and a head
// record "tables" with its size and the session cookies (the phone's, and the hut guests' as JSON).
// A change writes the pieces it changed and the head in one strict transaction: a crash leaves the copy before or the copy after, never
// half of either, and the page hears of a move only once it is on disk. An older build kept the
// whole database in the head ({ db, cookie }); that is read as it is and replaced at the first change.
const CHUNK = {{ chunk }};
const PIECES = (from) => IDBKeyRange.bound(["db", from], ["db", Infinity]);

let opened = null;
let openedHandle = null;  // once open: a write begins in the same call (see put)
function database() {
  opened = opened || new Promise((resolve, reject) => {
    const open = indexedDB.open("scorekeeper-phone", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("store");
    open.onsuccess = () => resolve(openedHandle = open.result);
    open.onerror = () => { opened = null; reject(open.error); };
  });
  return opened;
}

async function load() {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction("store");
    const store = tx.objectStore("store");
    const head = store.get("tables");
    const keys = store.getAllKeys(PIECES(0));
    const pieces = store.getAll(PIECES(0));
    tx.oncomplete = () => resolve(whole(head.result, keys.result, pieces.result));
    tx.onerror = () => reject(tx.error);
  });
}

function whole(head, keys, pieces) {
  if (!head || head.db || typeof head.size !== "number") return head || null;  // an older build's record, or none
  const db = new Uint8Array(head.size);
  let found = 0;
  keys.forEach(([, number], i) => {
    const at = number * CHUNK;
    if (at >= head.size) return;
    db.set(pieces[i].subarray(0, head.size - at), at);
    found++;
  });
  // A missing piece leaves zeros: SQLite then finds the copy damaged and the phone keeps its bytes
  // whole (offline/carry.py); the next change writes every piece again.
  return { db, cookie: head.cookie, guests: head.guests || null, chunked: found === Math.ceil(head.size / CHUNK) };
}

// The page last shown, kept as the app drew it, with the build that drew it: while a start is
// under way (two seconds and more on a slow phone) a page opened again is shown from here at
// once, and its requests wait for the app. Every change of the store deletes it in the change's
// own transaction (putIn), so a page kept is always the one the app would draw now from what the
// store holds. Only a page read with nothing changed is kept (a GET, store untouched).
const PAGE_BUILD = "{{ version }}/{{ offline_version }}";
function pageKey(url, headers) {
  return JSON.stringify([PAGE_BUILD, url.pathname + url.search, headers["accept-language"] || ""]);
}

async function keptPage(url, headers) {
  try {
    const handle = await database();
    const page = await new Promise((resolve, reject) => {
      const got = handle.transaction("store").objectStore("store").get("page");
      got.onsuccess = () => resolve(got.result);
      got.onerror = () => reject(got.error);
    });
    if (!page || page.key !== pageKey(url, headers)) return null;
    stage("keptPage");
    return new Response(page.body, { status: 200, headers: page.headers });
  } catch (error) {
    return null;  // no kept page: the app draws it once started
  }
}

// Called inside the request's turn of the queue, so the put's transaction is made before any
// later request's change, which then deletes it (IndexedDB runs them in the order they were made).
function keepPage(url, headers, pairs, data) {
  if (!openedHandle) return;
  lastShown = { path: url.pathname + url.search, headers: { "accept-language": headers["accept-language"] || "" } };
  try {
    // Marked, so the page says it is starting until the app answers (static/app.js).
    const body = new TextDecoder().decode(data).replace("<html ", "<html data-kept-page ");
    const page = { key: pageKey(url, headers), headers: pairs.filter(([k]) => k.toLowerCase() !== "content-length"), body };
    const store = openedHandle.transaction("store", "readwrite").objectStore("store");
    store.put(page, "page");
    store.put(lastShown, "shown");  // no change deletes it: what keepShown draws again
  } catch (error) {
    // not kept: the next start draws the page itself
  }
}

// The page last kept, which a change deleted, drawn and kept again (the page went out of view).
let lastShown = null;  // { path, headers } of the page last kept
async function keepShown(path) {
  const handle = await database();
  const [page, shown] = await new Promise((resolve, reject) => {
    const tx = handle.transaction("store");
    const page = tx.objectStore("store").get("page");
    const shown = tx.objectStore("store").get("shown");
    tx.oncomplete = () => resolve([page.result, shown.result || lastShown]);
    tx.onerror = () => reject(tx.error);
  });
  if (!shown || shown.path !== path) return;  // another page: the one kept stays
  const url = new URL(path, self.location.origin);
  if (page && page.key === pageKey(url, shown.headers)) return;  // kept, and nothing changed since
  await phone(new Request(url.href, { headers: shown.headers }), url, null, true);
  stage("keptAgain");
}

// What changed written (or the write handed over mid-request, ``kept``), then the app told: it works
// out later changes against this copy (phone.stored), or, if the write failed, goes back to the
// copy the store holds (phone.unstored), so the page shows what the phone keeps.
async function store(entry, kept = null) {
  try {
    if (kept) await kept;
    else {
      const changes = entry.changes();
      const [pieces, size, cookie, guests] = changes.toJs();
      changes.destroy();
      await put(pieces, size, cookie, guests);
    }
  } catch (error) {
    entry.unstored();
    throw error;
  }
  entry.stored();
}

// Not async: called from Python mid-request (handle's keep), the transaction must begin before
// the call returns — an await would put it off until the app is done.
function put(pieces, size, cookie, guests) {
  return openedHandle ? putIn(openedHandle, pieces, size, cookie, guests)
    : database().then((handle) => putIn(handle, pieces, size, cookie, guests));
}

function putIn(handle, pieces, size, cookie, guests) {
  return new Promise((resolve, reject) => {
    const tx = handle.transaction("store", "readwrite", { durability: "strict" });
    const store = tx.objectStore("store");
    for (const [number, piece] of pieces) {
      // A view into a larger buffer would be stored with all of that buffer.
      store.put(piece.byteLength === piece.buffer.byteLength ? piece : piece.slice(), ["db", number]);
    }
    store.delete(PIECES(Math.ceil(size / CHUNK)));  // a database that shrank leaves none behind
    store.delete("page");  // drawn from what this change replaces (keepPage)
    store.put({ size, cookie, guests, at: Date.now() }, "tables");
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
    // At once, not when this task ends: the app goes on drawing the answer meanwhile.
    if (tx.commit) tx.commit();
  });
}
