/** The tiers are the SDK service pipeline's; kept here for the server's own modules. */
export { TIERS, isTier, tierAllows } from "@temporal/agent-sdk/service";
