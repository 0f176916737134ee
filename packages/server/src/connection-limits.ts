import type { Server, ServerOptions } from "node:http";
import type { Socket } from "node:net";
import type { ConnectionLimits, TrustedProxies } from "@temporal/agent-sdk/service";

/**
 * What keeps slow or numerous connections from one client from starving the others: Node's timeouts for
 * a request's headers and whole body, a cap on connections overall and one per peer address.
 */

/** The node:http options the limits set at creation; `connectionsCheckingInterval` cannot change later, the rest can. */
export function connectionServerOptions(limits: ConnectionLimits): ServerOptions {
  return {
    headersTimeout: limits.headers_timeout_ms,
    requestTimeout: limits.request_timeout_ms,
    keepAliveTimeout: limits.keep_alive_timeout_ms,
    // Node checks the timeouts only this often (30 s by default, which is how slow headers were held ~65 s): a tenth of the shortest, at most 1 s.
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(Math.min(limits.headers_timeout_ms, limits.request_timeout_ms) / 10))),
    // A request without Host is answered in the service's error shape (reply.ts), not with Node's bare 400.
    requireHostHeader: false,
  };
}

/** Caps on a server's open connections, changeable while it runs (a reconfigure). */
export interface ConnectionGate {
  /** From the next connection on; timeouts apply to requests from now on. */
  update(limits: ConnectionLimits, proxies: TrustedProxies): void;
}

/**
 * Applies `limits` to `server`: over `max_connections` Node closes the new connection as it accepts it; over
 * `max_connections_per_address` from one socket peer (trusted proxies are exempt: every client behind them shares
 * their address) the new socket is destroyed before the HTTP layer reads from it. A failing accept (EMFILE when
 * the file descriptor limit is reached) is reported, at most every 10 s, instead of crashing the server.
 */
export function gateConnections(server: Server, limits: ConnectionLimits, proxies: TrustedProxies, report: (error: unknown) => void): ConnectionGate {
  const open = new Map<string, number>();
  let current = { limits, proxies };
  let reportedAtMs = -Infinity;

  const apply = () => {
    server.maxConnections = current.limits.max_connections;
    server.headersTimeout = current.limits.headers_timeout_ms;
    server.requestTimeout = current.limits.request_timeout_ms;
    server.keepAliveTimeout = current.limits.keep_alive_timeout_ms;
  };
  apply();

  // Before the HTTP layer's own listener, so a refused socket costs no parser.
  server.prependListener("connection", (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) {
      socket.destroy();
      return;
    }
    const count = open.get(address) ?? 0;
    if (count >= current.limits.max_connections_per_address && !current.proxies.trusts(address)) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) as number) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });

  server.on("error", (error: NodeJS.ErrnoException) => {
    // Errors while starting to listen are the listen call's to report.
    if (!server.listening) return;
    if (error.syscall !== "accept") throw error;
    const nowMs = Date.now();
    if (nowMs - reportedAtMs < 10_000) return;
    reportedAtMs = nowMs;
    report(new Error(`cannot accept connections (${error.code ?? error.message}): raise the file descriptor limit (ulimit -n) above limits.max_connections`, { cause: error }));
  });

  return {
    update(limits, proxies) {
      current = { limits, proxies };
      apply();
    },
  };
}
