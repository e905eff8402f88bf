// The service worker of the site: it keeps every file of the site in a cache of its own version and
// answers network first, the cache only when the network fails, so that
// - after one visit the table loads and plays offline (the cache holds every page, script, style,
//   the package and its WebAssembly module, the manifest and the icon), and
// - a new version of the site is what the next load online gets, file by file from the host.
// It never reads or writes localStorage: the saves are the pages' alone, and survive any update.
//
// web/build.sh writes the two lines below in dist/sw.js: VERSION, a hash of the site's files (so a
// changed site is a new service worker with a new cache, and the old cache is dropped), and
// PRECACHE, every file of dist/. Served unbuilt, the worker keeps what the pages load as they load it.
const VERSION = "unbuilt";
const PRECACHE = [];

const PREFIX = "reversis-site-";
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // "./" too: the address the pages link to and a host serves index.html at. Fetched past the
      // HTTP cache, so that the cache of a new version never holds a file of the old one.
      await cache.addAll(["./", ...PRECACHE].map((path) => new Request(path, { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(networkFirst(event));
});

async function networkFirst(event) {
  const request = event.request;
  const cache = await caches.open(CACHE);
  try {
    // "no-cache": revalidated with the host, never a stale copy from the HTTP cache.
    const response = await fetch(request, { cache: "no-cache" });
    if (response.ok) event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
    return response;
  } catch (error) {
    // A page's address may carry a query (?pace=0): the page is the same file.
    const kept = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
    if (kept) return kept;
    throw error;
  }
}
