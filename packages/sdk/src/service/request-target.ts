import { HttpError } from "./http-error.js";

/** The path of a request target, without its query. */
export function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/**
 * The path a route is looked up by: `%`-escapes of unreserved characters decoded (`/api/v1/%63ontext` is
 * `/api/v1/context`), escapes of reserved ones such as `%2F` kept, so they never split a segment.
 * A broken escape is 400 INVALID_URL.
 */
export function routingPath(url: string): string {
  const path = pathOf(url);
  if (!path.includes("%")) return path;
  try {
    return decodeURI(path);
  } catch {
    throw new HttpError(400, "INVALID_URL", `the path ${JSON.stringify(path)} has a broken %-escape`);
  }
}

/**
 * The query of a request target as name -> value (or values, when a name repeats), decoded as
 * `application/x-www-form-urlencoded`. Names come from the client, so the object has no prototype
 * (`__proto__` is just a name); the route's schema then refuses any name it does not list.
 */
export function queryOf(url: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  const start = url.indexOf("?");
  if (start === -1) return query;
  for (const [name, value] of new URLSearchParams(url.slice(start + 1))) {
    const earlier = query[name];
    query[name] = earlier === undefined ? value : Array.isArray(earlier) ? [...earlier, value] : [earlier, value];
  }
  return query;
}
