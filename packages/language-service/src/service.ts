import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Diagnostic, Hover, Position } from "vscode-languageserver-types";
import { AnalysisCache } from "./analysis.js";
import { systemTimeZone } from "./clock.js";
import { diagnostics } from "./diagnostics.js";
import { hover } from "./hover.js";
import type { ServiceContext } from "./service-context.js";

export interface LanguageServiceOptions {
  /** The clock code lenses and hovers read; default `() => new Date()`. */
  now?: () => Date;
  /** The viewer's IANA time zone for hovers; default the runtime's own (`Intl`). */
  viewerTimeZone?: string;
}

/**
 * The mission language's editor features over `TextDocument`s, as pure
 * functions of the document (and the injected clock). Each document is
 * analysed once per version; no request throws on any text.
 */
export interface LanguageService {
  /** Exactly `temporalc check`'s diagnostics, with docs links and related information. */
  diagnostics(document: TextDocument): Diagnostic[];
  hover(document: TextDocument, position: Position): Hover | null;
  /** Drops what is cached for a closed document. */
  forget(uri: string): void;
}

export function createLanguageService(options: LanguageServiceOptions = {}): LanguageService {
  const context = serviceContext(options);
  const cache = new AnalysisCache();
  return {
    diagnostics: (document) => diagnostics(cache.get(document)),
    hover: (document, position) => hover(cache.get(document), position, context),
    forget: (uri) => cache.forget(uri),
  };
}

function serviceContext(options: LanguageServiceOptions): ServiceContext {
  if (options === null || typeof options !== "object") throw new TypeError("createLanguageService: options must be an object");
  const { now = () => new Date(), viewerTimeZone = systemTimeZone() } = options;
  if (typeof now !== "function") throw new TypeError("createLanguageService: options.now must be a function returning a Date");
  if (typeof viewerTimeZone !== "string" || !isTimeZone(viewerTimeZone)) {
    throw new RangeError(`createLanguageService: options.viewerTimeZone must be an IANA time zone such as "Europe/Paris", got ${JSON.stringify(viewerTimeZone)}`);
  }
  return { now, viewerTimeZone };
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
