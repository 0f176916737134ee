import { constantCarbonSeries, type CarbonSeries } from "../core/index.js";
import { HttpError } from "./http-error.js";

/**
 * What the quality and carbon endpoints read. The static sources of the config are answered here; a file
 * source needs a platform that reads files, so temporal-service supplies its own reader for those.
 */

export interface QualityReading {
  readonly score: number;
  readonly updated_unix_ms: number;
  readonly source: "static" | "file" | "simulator";
}

export type QualityReader = () => Promise<QualityReading>;

export interface CarbonReading {
  readonly series: CarbonSeries;
  readonly location: string | null;
  readonly source: "static" | "file";
}

export type CarbonReader = () => Promise<CarbonReading>;

/** The reader of no source (503 SOURCE_UNCONFIGURED) or of a static score, fixed when the service starts. */
export function staticQualityReader(source: { readonly score: number } | null, startedMs: number): QualityReader {
  if (source === null) {
    return () => Promise.reject(new HttpError(503, "SOURCE_UNCONFIGURED", 'no HS-Bloch quality source is configured: set "quality" in the service config'));
  }
  const reading: QualityReading = { score: source.score, updated_unix_ms: startedMs, source: "static" };
  return () => Promise.resolve(reading);
}

/** The reader of no source (503 SOURCE_UNCONFIGURED) or of a static intensity. */
export function staticCarbonReader(source: { readonly intensity: number; readonly location?: string } | null): CarbonReader {
  if (source === null) {
    return () => Promise.reject(new HttpError(503, "SOURCE_UNCONFIGURED", 'no carbon intensity source is configured: set "carbon" in the service config'));
  }
  const reading: CarbonReading = { series: constantCarbonSeries(source.intensity), location: source.location ?? null, source: "static" };
  return () => Promise.resolve(reading);
}
