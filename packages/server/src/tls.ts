import { createServer as createHttpServer, type RequestListener, type Server, type ServerOptions } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createSecureContext } from "node:tls";
import { describeIoError, readSmallFile } from "@temporal/agent-sdk/node";

/** A certificate chain and its private key, PEM. */
export interface TlsCredentials {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
}

/** The files of --tls-cert and --tls-key cannot be used; the message says which and why, in one line. */
export class TlsFilesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TlsFilesError";
  }
}

/** A certificate chain of a dozen certificates is some 20 KB. */
const PEM_LIMIT_BYTES = 1_048_576;

/** Reads the PEM files and checks that the key belongs to the certificate, so a mistake is reported at the start rather than at the first handshake. */
export async function readTlsFiles(certPath: string, keyPath: string): Promise<TlsCredentials> {
  const read = async (flag: string, path: string) => {
    try {
      return await readSmallFile(path, PEM_LIMIT_BYTES);
    } catch (error) {
      throw new TlsFilesError(`cannot read ${flag} ${path}: ${describeIoError(error)}`);
    }
  };
  const credentials = { cert: await read("--tls-cert", certPath), key: await read("--tls-key", keyPath) };
  try {
    createSecureContext(credentials);
  } catch (error) {
    const detail = (error as Error).message.replace(/^error:[0-9A-F]+:/, "");
    throw new TlsFilesError(`cannot use --tls-cert ${certPath} with --tls-key ${keyPath}: ${detail}`);
  }
  return credentials;
}

/** node:https with `tls`, else node:http; `options` (timeouts, ...) apply to either. */
export function createNodeServer(tls: TlsCredentials | undefined, options: ServerOptions, listener: RequestListener): Server {
  return tls === undefined ? createHttpServer(options, listener) : createHttpsServer({ ...options, ...tls }, listener);
}
