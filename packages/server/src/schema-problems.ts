/** The config's schema errors are described as the pipeline's request errors are. */
export { schemaProblems } from "@temporal/agent-sdk/service";
