import type { LanguageServiceOptions } from "@temporal/language-service";

/**
 * The `initializationOptions` an editor may send, both optional:
 * - `now`: a fixed clock, an ISO 8601 time ("2026-11-22T18:25:00Z"), for tests and screenshots that must not depend
 *   on when they run (code lenses and hovers say "opens in 35 min");
 * - `viewerTimeZone`: the IANA zone hovers show times in besides the anchored zone and UTC (default: the system's).
 * Other keys are ignored, since editors pass along whatever their users configure.
 */
export function languageServiceOptions(initializationOptions: unknown): LanguageServiceOptions {
  if (initializationOptions === undefined || initializationOptions === null) return {};
  if (typeof initializationOptions !== "object" || Array.isArray(initializationOptions)) {
    throw new TypeError(`initializationOptions must be an object such as { "now": "2026-11-22T18:25:00Z" }, got ${JSON.stringify(initializationOptions)}`);
  }
  const { now, viewerTimeZone } = initializationOptions as Record<string, unknown>;
  const options: LanguageServiceOptions = {};
  if (now !== undefined) {
    const at = typeof now === "string" ? Date.parse(now) : Number.NaN;
    if (Number.isNaN(at)) throw new TypeError(`initializationOptions.now must be an ISO 8601 time such as "2026-11-22T18:25:00Z", got ${JSON.stringify(now)}`);
    options.now = () => new Date(at);
  }
  // The service checks that it is a time zone Intl knows, and says so if not.
  if (viewerTimeZone !== undefined) options.viewerTimeZone = viewerTimeZone as string;
  return options;
}
