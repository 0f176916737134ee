import { describeIoError } from "./describe-errno.js";

const FREE_PORT_HINT = "or --port 0 to pick a free one";

interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

/**
 * The one line a server program (`program`: `temporal-service`, `temporal-witness`) prints when its address cannot
 * be opened, with what to do about it, in terms of its `--host` and `--port`; undefined for an error that is not
 * about the address.
 */
export function describeListenFailure(error: unknown, address: ListenAddress, program: string): string | undefined {
  const where = cannotListenOn(address);
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case "EADDRINUSE":
      return `${where}: the address is in use (another ${program}?); stop that process, choose another --port, ${FREE_PORT_HINT}`;
    case "EACCES":
      return `${where}: permission denied (ports below 1024 need privileges); choose a --port of 1024 or above, ${FREE_PORT_HINT}`;
    case "EADDRNOTAVAIL":
      return `${where}: the address is not one of this machine's; choose another --host, such as 127.0.0.1 or 0.0.0.0`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `${where}: the host name cannot be resolved; choose another --host, such as 127.0.0.1 or 0.0.0.0`;
    default:
      return undefined;
  }
}

/** `describeListenFailure`'s line, else the address and `describeIoError`'s words: for a program whose listen step does nothing but listen. */
export function listenFailureLine(error: unknown, address: ListenAddress, program: string): string {
  return describeListenFailure(error, address, program) ?? `${cannotListenOn(address)}: ${describeIoError(error)}`;
}

function cannotListenOn({ host, port }: ListenAddress): string {
  return `cannot listen on ${host.includes(":") ? `[${host}]` : host}:${port}`;
}
