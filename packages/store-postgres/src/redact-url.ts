import { formatPostgresUrl, parsePostgresUrl } from "./postgres-url.js";

/**
 * The URL with its password replaced by `***`, for messages and status: `postgres://user:***@host/db`.
 * A string that is not a URL is not echoed at all (it might be a password pasted in the wrong place).
 */
export function redactUrl(url: string): string {
  const parsed = parsePostgresUrl(url);
  if (parsed === undefined) return "(an invalid PostgreSQL URL)";
  if (parsed.password !== "") parsed.password = "***";
  parsed.searchParams.forEach((_, name) => {
    if (name.toLowerCase() === "password") parsed.searchParams.set(name, "***");
  });
  return formatPostgresUrl(parsed).replaceAll("%2A%2A%2A", "***");
}
