import { stat } from "node:fs/promises";
import { describeIoError, readSmallFile } from "@temporal/agent-sdk/node";
import { parseCarbonForecast } from "@temporal/agent-sdk";
import {
  HttpError,
  staticCarbonReader,
  staticQualityReader,
  type CarbonReader,
  type CarbonSource,
  type QualityReader,
  type QualityReading,
  type QualitySource,
} from "@temporal/agent-sdk/service";
import { hsBlochQuality } from "@temporal/quantum";

/** A source file holds one value or a forecast of some thousand points: 4 MiB is far more than either needs. */
const SOURCE_LIMIT_BYTES = 4 * 1_048_576;

/** A value read from a file the operator updates, parsed again only when the file changes. */
class WatchedFile<T> {
  readonly #path: string;
  readonly #parse: (json: unknown) => T;
  #cached: { key: string; value: T; mtimeMs: number } | undefined;

  constructor(path: string, parse: (json: unknown) => T) {
    this.#path = path;
    this.#parse = parse;
  }

  async read(what: string): Promise<{ value: T; mtimeMs: number }> {
    let key: string;
    let mtimeMs: number;
    try {
      const info = await stat(this.#path);
      key = `${info.mtimeMs}:${info.size}:${info.ino}`;
      mtimeMs = Math.floor(info.mtimeMs);
      if (this.#cached?.key === key) return this.#cached;
      const value = this.#parse(JSON.parse((await readSmallFile(this.#path, SOURCE_LIMIT_BYTES)).toString("utf8")));
      this.#cached = { key, value, mtimeMs };
      return this.#cached;
    } catch (error) {
      throw new HttpError(503, "SOURCE_UNAVAILABLE", `the ${what} source file cannot be used: ${describeIoError(error)}`);
    }
  }
}

function parseQualityFile(json: unknown): { score: number; updated_unix_ms?: number } {
  const value = json as { score?: unknown; updated_unix_ms?: unknown } | null;
  if (typeof value !== "object" || value === null || typeof value.score !== "number" || !(value.score >= 0 && value.score <= 1)) {
    throw new Error('expected {"score": <number 0..1>, "updated_unix_ms"?: <integer>}');
  }
  if (value.updated_unix_ms !== undefined && !Number.isSafeInteger(value.updated_unix_ms)) throw new Error("updated_unix_ms must be an integer");
  return value as { score: number; updated_unix_ms?: number };
}

/** The reader of a configured quality source; the static ones are the SDK pipeline's own. */
export function qualityReader(source: QualitySource | null, startedMs: number): QualityReader {
  if (source === null || "score" in source) return staticQualityReader(source, startedMs);
  if ("simulator" in source) return simulatorQualityReader(source, startedMs);
  const file = new WatchedFile(source.file, parseQualityFile);
  return async () => {
    const { value, mtimeMs } = await file.read("quality");
    return { score: value.score, updated_unix_ms: value.updated_unix_ms ?? mtimeMs, source: "file" };
  };
}

/**
 * The HS-Bloch quality of a simulator backend, estimated once, when first asked, and dated the service start like
 * a static score: a simulator's noise does not drift, and with a seed the estimate is the same on every start.
 */
function simulatorQualityReader(source: Extract<QualitySource, { simulator: string }>, startedMs: number): QualityReader {
  let reading: Promise<QualityReading> | undefined;
  return () => {
    reading ??= hsBlochQuality(source.simulator, { noise: source.noise, shots: source.shots, seed: source.seed }).then((score) => ({
      score,
      updated_unix_ms: startedMs,
      source: "simulator",
    }));
    return reading;
  };
}

/** The reader of a configured carbon source; the static ones are the SDK pipeline's own. */
export function carbonReader(source: CarbonSource | null): CarbonReader {
  if (source === null || "intensity" in source) return staticCarbonReader(source);
  const location = source.location;
  const file = new WatchedFile(source.forecast_file, (json) => parseCarbonForecast(json, location === undefined ? {} : { location }));
  return async () => ({ series: (await file.read("carbon forecast")).value, location: location ?? null, source: "file" });
}
