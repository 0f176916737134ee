/** API keys are the SDK service pipeline's (platform-free hashing); kept here for the server's own modules. */
export { apiKeyRecord, createApiKey, hashApiKey, type ApiKeyRecord } from "@temporal/agent-sdk/service";
