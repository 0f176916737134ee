import { createReadStream, realpathSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { extname, resolve, sep } from "node:path";
import { pipeline } from "node:stream/promises";

/**
 * A static file server for the built playground (node:http, no framework):
 * GET and HEAD only, a content type per extension, hashed assets cached
 * for a year and everything else revalidated, and no file outside `root`
 * ever served (`..`, encoded or not, and absolute paths are refused, and so
 * is a symbolic link that leads out of it).
 */

/**
 * What the page may load, sent with every answer: its own files only, inline styles (CodeMirror's and the dial's)
 * and data: images (the empty icon). No `'unsafe-eval'`: the page evaluates nothing. index.html carries the same
 * policy in a meta tag, for any other server; a CLI test checks the two agree.
 */
export const PLAYGROUND_CSP =
  "default-src 'self'; script-src 'self'; worker-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'";

/**
 * The policy sent with scripts: a worker takes the policy its script is sent with, not the page's, and the language
 * worker runs the compiler's output with `new Function` (Run and the verdicts), so scripts alone add `'unsafe-eval'`.
 * For a script the page loads, the header is ignored: the page's policy governs it.
 */
export const PLAYGROUND_SCRIPT_CSP = PLAYGROUND_CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-eval'");

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

const SCRIPT_EXTENSIONS = new Set([".js", ".mjs"]);

/** Vite names what it hashes `assets/<name>-<hash>.<ext>`: such a file never changes, so browsers may keep it. */
const HASHED_ASSET = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

export function createStaticServer(root: string): Server {
  // The real path: a root reached through a symbolic link (a temp folder on macOS, an npm link) still contains its files.
  const base = realpathSync(resolve(root));
  return createServer((request, response) => {
    void serve(base, request, response).catch(() => {
      if (!response.headersSent) send(response, 500, "could not read the file\n");
      else response.destroy();
    });
  });
}

async function serve(base: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.setHeader("Allow", "GET, HEAD");
    return send(response, 405, "only GET and HEAD\n");
  }
  const pathname = urlPath(request.url ?? "/");
  if (pathname === null) return send(response, 400, "bad request path\n");
  const relative = pathname.endsWith("/") ? `${pathname}index.html` : pathname;
  const file = resolve(base, `.${relative}`);
  if (file !== base && !file.startsWith(base + sep)) return send(response, 403, "outside the playground\n");
  const real = await realpath(file).catch(() => null);
  if (real === null) return send(response, 404, "not found\n");
  if (!real.startsWith(base + sep)) return send(response, 403, "outside the playground\n");
  const info = await stat(real).catch(() => null);
  if (info === null || !info.isFile()) return send(response, 404, "not found\n");
  response.writeHead(200, {
    "Content-Type": CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream",
    "Content-Length": info.size,
    "Cache-Control": HASHED_ASSET.test(relative) ? "public, max-age=31536000, immutable" : "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": SCRIPT_EXTENSIONS.has(extname(file).toLowerCase()) ? PLAYGROUND_SCRIPT_CSP : PLAYGROUND_CSP,
  });
  if (request.method === "HEAD") return void response.end();
  // A file removed or unreadable mid-answer ends this answer (the headers are sent: nothing else can say so), not the server.
  await pipeline(createReadStream(real), response).catch(() => response.destroy());
}

/** The request's decoded path, or null when it cannot be one: bad percent-encoding, a NUL, a backslash, or a `..` segment. */
function urlPath(url: string): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url, "http://localhost").pathname);
  } catch {
    return null;
  }
  if (pathname.includes("\0") || pathname.includes("\\") || pathname.split("/").includes("..")) return null;
  return pathname;
}

function send(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(text), "X-Content-Type-Options": "nosniff" });
  response.end(text);
}
