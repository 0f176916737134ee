import { createPipeline as createSdkPipeline, type Pipeline, type PipelineOptions } from "@temporal/agent-sdk/service";
import { carbonReader, qualityReader } from "./sources.js";
import { SERVICE_VERSION } from "./version.js";

export { BODY_LIMIT_BYTES, type Pipeline, type Transport } from "@temporal/agent-sdk/service";

/** The SDK's request pipeline with what only the server has: its package version and the file sources of the config. */
export function createPipeline(options: Omit<PipelineOptions, "version" | "quality" | "carbon">): Pipeline {
  return createSdkPipeline({
    ...options,
    version: SERVICE_VERSION,
    quality: qualityReader(options.config.quality, options.clock()),
    carbon: carbonReader(options.config.carbon),
  });
}
