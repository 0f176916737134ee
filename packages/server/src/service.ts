import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Signer, VerifyingKey, WitnessingOptions } from "@temporal/agent-sdk";
import { FileSigner, homePaths } from "@temporal/agent-sdk/node";
import { TrustedProxies, serviceZttSigner } from "@temporal/agent-sdk/service";
import type { Registry } from "prom-client";
import { DEFAULT_CONFIG, type ServiceConfig } from "./config.js";
import { connectionServerOptions, gateConnections } from "./connection-limits.js";
import { readinessCheck } from "./health.js";
import { ServiceMetrics } from "./metrics.js";
import { Operations, OPERATIONS_OPENAPI_PATHS } from "./operations.js";
import { createPipeline, type Transport } from "./pipeline.js";
import { lacksHost, rejectMalformedRequest, rejectMissingHost, writeReply } from "./reply.js";
import { readJsonBody } from "./request-body.js";
import { RequestLog, type RequestLogOptions } from "./request-log.js";
import { serviceAuthority, type ServiceAuthority, type ServiceStore } from "./store.js";
import { createNodeServer, type TlsCredentials } from "./tls.js";

export { BODY_LIMIT_BYTES } from "./pipeline.js";

export interface ServiceOptions {
  /** Where the file store keeps its ledger and challenges, and the file signer its key (each unused when replaced below). */
  readonly home: string;
  readonly config?: ServiceConfig;
  /** Replaces the embedded file store (the ledger and challenges in `home`). */
  readonly store?: ServiceStore;
  /** Replaces the key file in `home`. */
  readonly signer?: Signer;
  /** How this node names itself in `GET clockchain/status` (see ServiceAuthorityOptions). */
  readonly nodeId?: string;
  /** Retired verifying keys that `GET keys` still lists. */
  readonly previousKeys?: readonly VerifyingKey[];
  /** Witnesses and quorum for the clockchain's checkpoints (the config file's `witnessing`); none by default. */
  readonly witnessing?: WitnessingOptions;
  /** Service time in Unix ms; defaults to `Date.now`. */
  readonly clock?: () => number;
  /** Where unexpected errors (answered 500) and failures to accept a connection (EMFILE) are reported; defaults to stderr. */
  readonly onUnexpectedError?: (error: unknown) => void;
  /** One JSON line per request (docs/operations.md); none when not given. `temporal-service` logs at `info` to stdout by default. */
  readonly requestLog?: RequestLogOptions;
  /** Serve HTTPS with this certificate and key instead of HTTP. */
  readonly tls?: TlsCredentials;
}

export interface TemporalService {
  /** The Node HTTP server; `listen` starts it. */
  readonly server: Server;
  /** The SDK authority the handlers use, composed of the store and the signer. */
  readonly authority: ServiceAuthority;
  /** The service's own Prometheus registry, served at `GET /metrics`; add process metrics to it with prom-client's `collectDefaultMetrics({ register })`. */
  readonly metrics: Registry;
  /** Starts listening; resolves with the base URL, for example `http://127.0.0.1:8787` (`https://` with `tls`). */
  listen(options: { host: string; port: number }): Promise<string>;
  /**
   * Serves the requests that arrive from now on with `config`: keys, CORS,
   * rate limits (whose buckets start full again), sources, challenge TTL,
   * trust_proxy and connection limits (the timeout check's interval stays);
   * requests already arriving finish with the config they started with. `authority_name` is the authority's and `ztt`
   * the ZTT signer's, fixed when the service is made: returns the fields that take effect only at the next
   * start (`["authority_name"]`, `["ztt"]` when they differ), else `[]`.
   */
  reconfigure(config: ServiceConfig): readonly (keyof ServiceConfig)[];
  /** Stops accepting, lets requests in flight finish, then closes the authority and its store (every anchor is durable once acknowledged). Idempotent. */
  close(): Promise<void>;
}

/** node:http as a transport of the pipeline: Node's request and reply objects are used as they are. */
const NODE_TRANSPORT: Transport<IncomingMessage, ServerResponse> = {
  remoteAddress: (request) => request.socket.remoteAddress ?? "",
  readJsonBody,
  send: (response, status, headers, body, ascii) => writeReply(response, status, headers, body, ascii ? "ascii" : "utf8"),
  replied: (response) => response.headersSent,
  // The connection is in an unknown state, so it is dropped rather than written to again.
  abort: (response) => response.destroy(),
};

/** Builds the service: the request pipeline (pipeline.ts) served by node:http. */
export function createService(options: ServiceOptions): TemporalService {
  const config = options.config ?? DEFAULT_CONFIG;
  const clock = options.clock ?? Date.now;
  const metrics = new ServiceMetrics();
  // Resolved here, not in serviceAuthority, because the ZTT signer's certificates are signed by the same key.
  const signer = options.signer ?? new FileSigner(homePaths(options.home));
  const authority = serviceAuthority({ ...options, signer, clock, authorityName: config.authority_name ?? undefined, instrument: (store) => metrics.instrumentStore(store) });
  // Made once: its ephemeral key belongs to a window opening, which a reconfigure must not split in two.
  const ztt = serviceZttSigner(config.ztt, signer, authority, clock);
  const onUnexpectedError = options.onUnexpectedError ?? ((error: unknown) => console.error("temporal-service: unexpected error:", error));
  const requestLog = options.requestLog === undefined ? undefined : new RequestLog(options.requestLog);
  const operations = new Operations({ metrics, readiness: readinessCheck(authority, options.store), log: requestLog, onUnexpectedError });
  const servedWith = (next: ServiceConfig) => {
    const pipeline = createPipeline({
      config: next,
      clock,
      authority,
      onUnexpectedError,
      observer: operations.observer,
      openApiPaths: OPERATIONS_OPENAPI_PATHS,
      ...(ztt === undefined ? {} : { ztt }),
    });
    return { pipeline, handle: pipeline.handler(NODE_TRANSPORT) };
  };
  let current = servedWith(config);
  let closing: Promise<void> | undefined;
  // Looked up per request, so a reconfigured pipeline takes over at the next request, also on a kept-alive connection.
  const server = createNodeServer(options.tls, connectionServerOptions(config.limits), (request, response) => {
    if (lacksHost(request)) rejectMissingHost(response);
    else if (!operations.serve(request, response)) current.handle(request, response);
  });
  server.on("clientError", rejectMalformedRequest);
  // A failed accept (EMFILE) is an operator's matter, not a bug: one line without a stack by default.
  const reportAcceptFailure = options.onUnexpectedError ?? ((error: unknown) => console.error(`temporal-service: ${(error as Error).message}`));
  const gate = gateConnections(server, config.limits, new TrustedProxies(config.trust_proxy), reportAcceptFailure);

  return {
    server,
    authority,
    metrics: metrics.registry,
    async listen({ host, port }) {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen({ host, port }, () => {
          server.off("error", reject);
          resolve();
        });
      });
      const address = server.address();
      if (address === null || typeof address === "string") throw new Error(`unexpected listening address ${String(address)}`);
      const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
      return `${options.tls === undefined ? "http" : "https"}://${shownHost}:${address.port}`;
    },
    reconfigure(next) {
      const startOnly = [
        ...((next.authority_name ?? null) !== (config.authority_name ?? null) ? (["authority_name"] as const) : []),
        ...(JSON.stringify(next.ztt ?? null) !== JSON.stringify(config.ztt ?? null) ? (["ztt"] as const) : []),
      ];
      current = servedWith(next);
      gate.update(next.limits, new TrustedProxies(next.trust_proxy));
      if (closing !== undefined) current.pipeline.shutDown();
      return startOnly;
    },
    close() {
      current.pipeline.shutDown();
      ztt?.close();
      operations.shutDown();
      closing ??= new Promise<void>((resolve) => {
        if (!server.listening) {
          resolve();
          return;
        }
        // Stops accepting and closes kept-alive connections as they fall idle; a request that still comes in on one is answered 503 SHUTTING_DOWN.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      })
        .then(() => authority.close())
        .finally(() => requestLog?.close());
      return closing;
    },
  };
}
