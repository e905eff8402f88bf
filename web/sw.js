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

// How long a request waits for the host before the kept copy answers: a connection that hangs
// rather than fails (a captive portal, a dead access point) must not hang the table.
const PATIENCE_MS = 4000;
// After the host was that slow once, the kept copies answer at once for a while (and the host is
// still asked, to refresh them): a page loads its files in waves, and each would wait again.
const SLOW_HOST_MS = 30000;
let hostSlowUntil = 0;

async function networkFirst(event) {
  const request = event.request;
  const cache = await caches.open(CACHE);
  // A page's address may carry a query (?pace=0): the page is the same file.
  const kept = () => cache.match(request, { ignoreSearch: request.mode === "navigate" });
  // "no-cache": revalidated with the host, never a stale copy from the HTTP cache.
  const network = fetch(request, { cache: "no-cache" }).then((response) => {
    if (response.ok) event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
    return response;
  });
  network.catch(() => {}); // awaited below, or dropped for the kept copy
  if (Date.now() < hostSlowUntil) {
    const copy = await kept();
    if (copy) {
      event.waitUntil(network.catch(() => {}));
      return copy;
    }
  }
  let timer;
  const patience = new Promise((resolve) => {
    timer = setTimeout(resolve, PATIENCE_MS);
  });
  try {
    const first = await Promise.race([network, patience]);
    if (first) return first;
    // The host is slow: the kept copy if there is one, else keep waiting for the host.
    hostSlowUntil = Date.now() + SLOW_HOST_MS;
    return (await kept()) ?? (await network);
  } catch (error) {
    const copy = await kept();
    if (copy) return copy;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
