import type { AddressInfo } from "node:net";
import { createStaticServer } from "../../packages/cli/src/commands/playground-server.js";

/**
 * A folder served for a test: the repository's one static server (`temporalc playground`'s, so its headers and path
 * checks are the ones under test) on a free loopback port. 127.0.0.1 is a secure context: a page served here has
 * WebCrypto and service workers.
 */
export interface ServedFolder {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server, dropping kept-alive connections (a browser's) instead of waiting for them. */
  close(): Promise<void>;
}

export async function serveFolder(root: string): Promise<ServedFolder> {
  const server = createStaticServer(root);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
