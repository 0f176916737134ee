import { isIP } from "node:net";
import type { ListenSettings } from "./config.js";
import { UsageError } from "./exit-status.js";

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export const DEFAULT_LISTEN_ADDRESS: ListenAddress = { host: "127.0.0.1", port: 8787 };

export const PORT_RULE = "a port is an integer 0..65535 (0 picks a free port)";
export const HOST_RULE = "a host is an IP address or a host name, such as 127.0.0.1, :: or localhost (no scheme, port or path)";
// Letters, digits, dots and hyphens: a URL or a host:port pasted by mistake is refused here rather than by a DNS lookup.
const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;

/** The port `value` names, or undefined when it breaks PORT_RULE. */
export function parsePort(value: string): number | undefined {
  return /^\d{1,5}$/.test(value) && Number(value) <= 65_535 ? Number(value) : undefined;
}

/** `value` when it names a host to listen on, or undefined when it breaks HOST_RULE. */
export function parseHost(value: string): string | undefined {
  return isIP(value) !== 0 || HOST_NAME.test(value) ? value : undefined;
}

/**
 * Where to listen: host and port each from the flag, else the environment
 * (HOST, PORT; empty counts as unset), else the config file, else the
 * default. Only a value that is used is checked: a bad one is a usage error
 * naming where it came from.
 */
export function resolveListenAddress(flags: Partial<ListenAddress>, env: NodeJS.ProcessEnv, file: ListenSettings, configPath: string): ListenAddress {
  const fromEnv = <T>(name: "HOST" | "PORT", parse: (value: string) => T | undefined, rule: string) => checked(env[name] || undefined, `the environment variable ${name}`, parse, rule);
  return {
    host: flags.host ?? fromEnv("HOST", parseHost, HOST_RULE) ?? checked(file.host, `host in config ${configPath}`, parseHost, HOST_RULE) ?? DEFAULT_LISTEN_ADDRESS.host,
    // The config schema has already checked the file's port.
    port: flags.port ?? fromEnv("PORT", parsePort, PORT_RULE) ?? file.port ?? DEFAULT_LISTEN_ADDRESS.port,
  };
}

function checked<T>(value: string | undefined, source: string, parse: (value: string) => T | undefined, rule: string): T | undefined {
  if (value === undefined) return undefined;
  const parsed = parse(value);
  if (parsed === undefined) throw new UsageError(`${source} is ${JSON.stringify(value)}: ${rule}`);
  return parsed;
}
