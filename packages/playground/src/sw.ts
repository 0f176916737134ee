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
 * change, so they are served from the cache first.
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
      .then((cache) => cache.addAll([...precached]))
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
    event.respondWith(fetch(request).catch(async () => (await caches.match(page)) ?? Response.error()));
    return;
  }
  const url = new URL(request.url);
  url.hash = "";
  if (!precached.has(url.href)) return;
  event.respondWith(caches.match(url.href).then((cached) => cached ?? fetch(request)));
});
