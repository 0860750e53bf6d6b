// scorekeeper service worker: the app shell and rule book from the cache, pages from the network.
const CACHE = "scorekeeper-{{ version }}";
const SHELL = {{ shell|tojson }};
const OFFLINE = {{ offline|tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.endsWith("/stream") || url.pathname.startsWith("/api/")) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request).then((response) => {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(request, copy));
      return response;
    })));
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

// Offline, a table's link to its rule book (?table=…&lang=sv) opens the cached book in that language.
function bookPage(url) {
  if (!url.pathname.startsWith("/rules")) return undefined;
  return caches.match(url.pathname + "?lang=" + encodeURIComponent(url.searchParams.get("lang") || "en"));
}
