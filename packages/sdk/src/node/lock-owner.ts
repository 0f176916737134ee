import { randomBytes } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { threadId } from "node:worker_threads";
import { isErrno, type HomeLockHolder } from "./errors.js";

/**
 * Who holds a lock (or a takeover guard), as written in its file: one line of
 * JSON. Only `token` identifies the holding; the other fields let a waiter
 * judge whether the holder still runs and let an error name it.
 */
export interface LockOwner {
  /** Random, unique to one holding. */
  readonly token: string;
  readonly pid: number;
  /** The `worker_threads` thread id within the process (0 for the main thread): threads do not share the set of held tokens. */
  readonly thread_id: number;
  readonly host: string;
  /** When the file was linked into place, Unix ms by the owner's clock. */
  readonly since_unix_ms: number;
  /** `/proc/sys/kernel/random/boot_id`; absent where unreadable. */
  readonly boot_id?: string;
  /** Inode of `/proc/self/ns/pid`; absent where unreadable. */
  readonly pid_ns?: string;
  /** Start time of the owner process in clock ticks since boot (`/proc/<pid>/stat`); absent where `/proc` does not show the owner's pid namespace. */
  readonly start_ticks?: string;
}

/** The part of an owner record that an error or a status report names: no token, no liveness details. */
export function holderOf(owner: HomeLockHolder): HomeLockHolder {
  return { pid: owner.pid, host: owner.host, since_unix_ms: owner.since_unix_ms };
}

/** What a waiter can tell about a lock's owner without looking at the heartbeat. */
export type OwnerLiveness = "alive" | "dead" | "unknown";

interface ProcessIdentity {
  readonly pid: number;
  readonly thread_id: number;
  readonly host: string;
  readonly boot_id: string | undefined;
  readonly pid_ns: string | undefined;
  readonly start_ticks: string | undefined;
  /** Whether `/proc/<pid>` names processes as this process's pid namespace numbers them. */
  readonly procShowsOwnPids: boolean;
}

let identity: ProcessIdentity | undefined;

/** This process's identity, read once: none of it changes while the process runs. */
function self(): ProcessIdentity {
  if (identity !== undefined) return identity;
  const procShowsOwnPids = readLink("/proc/self") === String(process.pid);
  identity = {
    pid: process.pid,
    thread_id: threadId,
    host: hostname(),
    boot_id: readText("/proc/sys/kernel/random/boot_id")?.trim() || undefined,
    pid_ns: /^pid:\[(\d+)\]$/.exec(readLink("/proc/self/ns/pid") ?? "")?.[1],
    start_ticks: procShowsOwnPids ? readProcStat(process.pid)?.startTicks : undefined,
    procShowsOwnPids,
  };
  return identity;
}

/** A new owner record for this process, with a fresh token. */
export function newOwner(): LockOwner {
  const { pid, thread_id, host, boot_id, pid_ns, start_ticks } = self();
  return {
    token: randomBytes(16).toString("hex"),
    pid,
    thread_id,
    host,
    since_unix_ms: Date.now(),
    ...(boot_id === undefined ? {} : { boot_id }),
    ...(pid_ns === undefined ? {} : { pid_ns }),
    ...(start_ticks === undefined ? {} : { start_ticks }),
  };
}

export function formatOwner(owner: LockOwner): string {
  return `${JSON.stringify(owner)}\n`;
}

/** The owner a lock file names, or undefined for any other content (half-written, foreign, or a pid-only lock of an older version). */
export function parseOwner(text: string): LockOwner | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { token, pid, thread_id = 0, host, since_unix_ms, boot_id, pid_ns, start_ticks } = value as Record<string, unknown>;
  if (typeof token !== "string" || token === "" || !Number.isSafeInteger(pid) || (pid as number) <= 0) return undefined;
  if (!Number.isSafeInteger(thread_id) || (thread_id as number) < 0) return undefined;
  if (typeof host !== "string" || !Number.isFinite(since_unix_ms)) return undefined;
  const optional = (field: unknown) => (typeof field === "string" && field !== "" ? field : undefined);
  return {
    token,
    pid: pid as number,
    thread_id: thread_id as number,
    host,
    since_unix_ms: since_unix_ms as number,
    ...(optional(boot_id) === undefined ? {} : { boot_id: boot_id as string }),
    ...(optional(pid_ns) === undefined ? {} : { pid_ns: pid_ns as string }),
    ...(optional(start_ticks) === undefined ? {} : { start_ticks: start_ticks as string }),
  };
}

/**
 * Decides from the owner's pid alone, which is only possible when the owner
 * ran in this boot and this pid namespace: only then does its pid name the
 * same process for us. There the owner is
 * - dead when the pid does not run, runs as a zombie, or runs with another
 *   start time (the pid was reused), or when it is this process's pid and
 *   thread but the token is not one this thread holds (an earlier process
 *   with our pid, or a holding this thread abandoned);
 * - alive when the pid runs with the owner's start time and the owner is
 *   its main thread (or is this thread holding that token).
 * Everything else is "unknown" and left to the heartbeat: owners in another
 * container (pid namespace), on another host or from before a reboot (boot
 * id), a worker thread (of this process, whose tokens this thread cannot
 * see, or of a live process), and any owner where `/proc` cannot show start
 * times (not Linux, `/proc` mounted for another pid namespace, `hidepid`).
 */
export function ownerLiveness(owner: LockOwner, heldTokens: ReadonlySet<string>): OwnerLiveness {
  const me = self();
  if (owner.boot_id === undefined || owner.boot_id !== me.boot_id || owner.pid_ns === undefined || owner.pid_ns !== me.pid_ns) return "unknown";
  if (owner.pid === me.pid) {
    if (owner.start_ticks !== undefined && me.start_ticks !== undefined && owner.start_ticks !== me.start_ticks) return "dead";
    if (owner.thread_id === me.thread_id) return heldTokens.has(owner.token) ? "alive" : "dead";
    return "unknown";
  }
  if (!pidRuns(owner.pid)) return "dead";
  if (owner.start_ticks === undefined || !me.procShowsOwnPids) return "unknown";
  const stat = readProcStat(owner.pid);
  // Unreadable (hidepid) tells nothing; exited since kill() is handled on the next look.
  if (stat === undefined) return "unknown";
  if (stat.state === "Z" || stat.state === "X") return "dead";
  if (stat.startTicks !== owner.start_ticks) return "dead";
  // A worker thread can end (terminate()) without releasing while its process runs on.
  return owner.thread_id === 0 ? "alive" : "unknown";
}

function pidRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrno(error, "EPERM");
  }
}

/** State and start time from `/proc/<pid>/stat`; the command name may hold spaces and parentheses, so fields are counted after its last ")". */
function readProcStat(pid: number): { state: string; startTicks: string } | undefined {
  const text = readText(`/proc/${pid}/stat`);
  if (text === undefined) return undefined;
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const startTicks = fields[19];
  return state !== undefined && startTicks !== undefined && /^\d+$/.test(startTicks) ? { state, startTicks } : undefined;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function readLink(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
