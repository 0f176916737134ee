/// <reference lib="webworker" />
/**
 * The playground's service worker: offline once loaded. The build replaces
 * PRECACHE_MANIFEST with this build's files (hashed names from the bundle)
 * and a version derived from their contents, so a new build is a new sw.js:
 * the browser installs it, it caches the new files, and on activation it
 * deletes every older playground cache.
 *
 * Pages are fetched network first (a deploy shows up on the next load when
 * online) and fall back to the cached page offline; hashed assets never
 * change, so they are served from the cache first. Every navigation falls
 * back to the cached index.html, whether to ./, index.html or either with a
 * query, so the folder's own URL is not precached as a second copy of it.
 */
declare const PRECACHE_MANIFEST: { version: string; files: string[] };

const worker = self as unknown as ServiceWorkerGlobalScope;
const { version, files } = PRECACHE_MANIFEST;
const CACHE_PREFIX = "mission-playground-";
const cacheName = `${CACHE_PREFIX}${version}`;
const scope = new URL(worker.registration.scope);
const precached = new Set(files.map((file) => new URL(file, scope).href));
const page = new URL("index.html", scope).href;

worker.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(cacheName)
      // Past the HTTP cache: a stale index.html from it would pin this version's cache to the previous build's assets.
      .then((cache) => cache.addAll([...precached].map((url) => new Request(url, { cache: "reload" }))))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== cacheName).map((name) => caches.delete(name))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !request.url.startsWith(scope.href)) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(async () => (await fromThisVersion(page)) ?? Response.error()));
    return;
  }
  const url = new URL(request.url);
  url.hash = "";
  if (!precached.has(url.href)) return;
  event.respondWith(fromThisVersion(url.href).then((cached) => cached ?? fetch(request)));
});

/** A response from this build's cache only: an older cache not yet deleted holds another build's files. */
async function fromThisVersion(url: string): Promise<Response | undefined> {
  return (await caches.open(cacheName)).match(url);
}
