/**
 * A store URL as pg reads it. pg takes a user name with no host, for a Unix-domain socket named by `?host=`
 * (`postgres://app@/temporal?host=/var/run/postgresql`), where the WHATWG URL parser refuses an empty host after a
 * user. Such a URL (`@/`, as pg-connection-string fills in no other empty host) is parsed with a stand-in host,
 * which `formatPostgresUrl` takes out again.
 */
const STAND_IN_HOST = "temporal-empty-host.invalid";

/**
 * The parsed URL, or undefined for text that is no URL even to pg. Text without `scheme://` is none, though the WHATWG
 * parser takes `Summer:2024!` for one: `redactUrl` would then echo a password pasted in the wrong place.
 */
export function parsePostgresUrl(url: string): URL | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return undefined;
  for (const text of [url, url.replace(/^([a-z]+:\/\/[^/?#@]*@)(?=\/)/i, `$1${STAND_IN_HOST}`)]) {
    try {
      return new URL(text);
    } catch {
      // Next: the stand-in host, if the URL has a user and no host.
    }
  }
  return undefined;
}

/** `parsed` as text, with the empty host it had, if it had one. */
export function formatPostgresUrl(parsed: URL): string {
  return parsed.toString().replace(STAND_IN_HOST, "");
}
