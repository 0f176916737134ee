import type { ChildProcess } from "node:child_process";

/** The URL a `temporalc playground` process prints once it listens (its stdout piped); rejects when the process exits first. */
export function playgroundUrl(child: ChildProcess): Promise<string>;
