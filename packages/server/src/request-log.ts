import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { RequestOutcome } from "@temporal/agent-sdk/service";
import { pino, symbols, type DestinationStream, type Logger } from "pino";
import { innerMap } from "./nested-map.js";

/** `--log-level` values, most severe first; `silent` logs nothing. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Where and how much the service logs: one JSON line per request at `info`. */
export interface RequestLogOptions {
  readonly level: LogLevel;
  /** Default: standard output. */
  readonly destination?: DestinationStream;
}

/** An incoming X-Request-Id is kept when it is 1-128 visible ASCII characters other than `"` and `\`; otherwise one is generated. */
const VALID_REQUEST_ID = /^[!#-[\]-~]{1,128}$/;

/** A request's id: its valid `X-Request-Id`, else a new one (see nextRequestId). Called once per reply, so nothing is kept on the request. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && VALID_REQUEST_ID.test(given) ? given : nextRequestId();
}

/**
 * Generated request ids are UUIDs of version 8 (RFC 9562's layout for ids made in an implementation's own way): 74
 * random bits drawn once per process (drawn again after 2^48 ids), then a 48-bit counter. So ids stay unique across
 * the nodes of a cluster and their restarts, and look like any UUID to a log collector. `randomUUID` formatted 16
 * random bytes into a new string of many pieces per reply: about 2 µs against 0.4 µs here, in one process on the
 * loaded 2-core machine. The counter's first 9 hex digits are formatted once per 4,096 ids and its last 3 are taken
 * from a table, so an id is one join (formatting the whole counter was about 750 instructions per reply).
 */
function nextRequestId(): string {
  const low = idCount % LOW_IDS;
  if (low === 0) {
    if (idCount === ID_COUNTER_LIMIT) {
      idPrefix = requestIdPrefix();
      idCount = 0;
    }
    idHead = idPrefix + (idCount / LOW_IDS).toString(16).padStart(9, "0");
  }
  idCount++;
  return idHead + (LOW_HEX[low] as string);
}

const ID_COUNTER_LIMIT = 2 ** 48;
/** The ids that share the counter's first 9 hex digits. */
const LOW_IDS = 4096;
const LOW_HEX = Array.from({ length: LOW_IDS }, (_, low) => low.toString(16).padStart(3, "0"));

/** The first four groups of a version 8 UUID, with its trailing dash: 80 bits, of which the version takes 4 and the variant 2. */
function requestIdPrefix(): string {
  const hex = randomBytes(10).toString("hex");
  const variant = (0b1000 | (Number.parseInt(hex.charAt(16), 16) & 0b11)).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-`;
}

let idPrefix = requestIdPrefix();
let idCount = 0;
/** The id's text before its last 3 hex digits, for the current 4,096 ids. */
let idHead = "";

/** More distinct (route, method, tier, key) combinations than this in the cache of line loggers start it afresh, so it stays bounded however many keys there are. */
const MAX_LINE_LOGGERS = 1024;

/** The pino child logger of one (route, method, tier, key id), and its bindings as pino rendered them for its lines. */
interface LineLogger {
  readonly logger: Logger;
  readonly bindings: string;
}

/**
 * The request log: one JSON object per line, one line per reply, with the request id the reply carries in `X-Request-Id`.
 * Never logs headers, so neither the API key nor `Authorization` can appear.
 *
 * Each line is pino's: its level and end, the time its `timestamp` option gives, and the bindings of a pino child
 * logger per (route, method, tier, key id), all rendered by pino. Only the reply's own fields are written here,
 * after them, in the order and form pino writes them (a property test compares the lines with pino's own). pino's
 * generic `info(object, message)` walks the object's keys and escapes each name and string, about 25 string joins
 * per line: with the line logger's lookup, that was a tenth of the service's instructions per `allow` request. The
 * fields written here are a request id with no character to escape (see VALID_REQUEST_ID), numbers, and error codes
 * and audit records given to JSON.stringify, as pino gives strings and objects. pino documents its `symbols` for
 * such integrations ("methods to be overridden or proxied for performant integration"), if not for general use; a
 * destination that wants pino's metadata per line (`pino.multistream`) gets pino's generic path, and so does every
 * destination if a sample line written both ways differs (directLinesMatchPino), say after a pino release.
 */
export class RequestLog {
  readonly #logger: Logger;
  readonly #stdout: StdoutBatch | undefined;
  readonly #enabled: boolean;
  /** Where lines are written directly; undefined when the destination needs pino's metadata, so pino writes each line. */
  readonly #direct: DestinationStream | undefined;
  readonly #pieces: LinePieces;
  /**
   * Keyed route, then method, then tier, then key id (or "" without a key), so a lookup builds no string; pino
   * renders a child's bindings once, when it is made.
   */
  #lineLoggers = new Map<string, Map<string, Map<string, Map<string, LineLogger>>>>();
  #lineLoggerCount = 0;

  constructor(options: RequestLogOptions) {
    this.#stdout = options.destination === undefined ? new StdoutBatch() : undefined;
    const destination = options.destination ?? this.#stdout;
    // pino's own line format (numeric level, Unix ms time): the cheapest it writes, and what pino-pretty and log collectors read.
    this.#logger = pino({ level: options.level, base: { pid: process.pid }, timestamp: epochTime }, destination);
    // The level is read at start and never changes (docs/operations.md).
    this.#enabled = this.#logger.isLevelEnabled("info");
    const needsMetadata = (destination as { [symbols.needsMetadataGsym]?: boolean })[symbols.needsMetadataGsym] === true;
    this.#direct = !this.#enabled || needsMetadata || !directLinesMatchInstalledPino() ? undefined : destination;
    this.#pieces = linePieces(this.#logger);
  }

  /** Logs one reply; `route` is the route template (never the raw path, whose query could hold anything). */
  reply(requestId: string, method: string | undefined, outcome: RequestOutcome): void {
    if (!this.#enabled) return;
    const line = this.#lineLogger(outcome.route ?? null, method ?? "", outcome.tier, outcome.keyId ?? "");
    // Microseconds are enough, and a short number is cheaper to write.
    const micros = Math.round(outcome.durationMs * 1000);
    const { errorCode, rateLimited, audit } = outcome;
    if (this.#direct === undefined) {
      line.logger.info({ req_id: requestId, status: outcome.status, duration_ms: micros / 1000, code: errorCode, rate_limited: rateLimited, audit }, "request");
      return;
    }
    this.#direct.write(directLine(this.#pieces, epochTime(), line.bindings, requestId, outcome.status, micros, errorCode, rateLimited, audit));
  }

  /** Writes out what is buffered and stops watching for the process's exit: the service is closed. */
  close(): void {
    this.#stdout?.close();
  }

  #lineLogger(route: string | null, method: string, tier: string, keyId: string): LineLogger {
    const byKey = innerMap(innerMap(innerMap(this.#lineLoggers, route ?? ""), method), tier);
    const found = byKey.get(keyId);
    if (found !== undefined) return found;
    if (this.#lineLoggerCount >= MAX_LINE_LOGGERS) {
      this.#lineLoggers = new Map();
      this.#lineLoggerCount = 0;
      return this.#lineLogger(route, method, tier, keyId);
    }
    this.#lineLoggerCount++;
    // undefined bindings are left out of the line, as undefined fields of the line itself are.
    const logger = this.#logger.child({ method: method === "" ? undefined : method, route, tier, key_id: keyId === "" ? undefined : keyId });
    const made = { logger, bindings: pinoState<string>(logger, symbols.chindingsSym) };
    byKey.set(keyId, made);
    return made;
  }
}

/** A piece of a logger's state that pino renders (its level prefixes, bindings, line end), found by one of `pino.symbols`. */
function pinoState<T>(logger: Logger, symbol: symbol): T {
  return (logger as unknown as Record<symbol, T>)[symbol] as T;
}

/** What pino writes before the time (the level) and after the message (the line end) of an `info` line. */
interface LinePieces {
  readonly levelHead: string;
  readonly end: string;
}

function linePieces(logger: Logger): LinePieces {
  return {
    levelHead: pinoState<Record<number, string>>(logger, symbols.lsCacheSym)[logger.levels.values.info as number] as string,
    end: pinoState<string>(logger, symbols.endSym),
  };
}

/**
 * The line pino's `info(fields, "request")` writes for a reply, from the logger's pieces, its time text and its child's
 * bindings. `requestId` has nothing to escape (requestIdOf); an error code and an audit record are written as pino
 * writes a string and plain data.
 */
function directLine(
  pieces: LinePieces,
  time: string,
  bindings: string,
  requestId: string,
  status: number,
  micros: number,
  errorCode: string | undefined,
  rateLimited: string | undefined,
  audit: unknown,
): string {
  let text = `${pieces.levelHead}${time}${bindings},"req_id":"${requestId}","status":${status},"duration_ms":${millisecondsText(micros)}`;
  if (errorCode !== undefined) text += `,"code":${JSON.stringify(errorCode)}`;
  if (rateLimited !== undefined) text += `,"rate_limited":"${rateLimited}"`;
  if (audit !== undefined) text += `,"audit":${JSON.stringify(audit)}`;
  return `${text},"msg":"request"${pieces.end}`;
}

let installedPinoMatches: boolean | undefined;

/** directLinesMatchPino, checked once per process: its answer depends only on the installed pino. */
function directLinesMatchInstalledPino(): boolean {
  installedPinoMatches ??= directLinesMatchPino();
  return installedPinoMatches;
}

/**
 * Whether directLine writes what the installed pino's own `info` writes, checked on a reply with every
 * field: a pino release that writes its lines otherwise gets its own path rather than lines it would not write.
 */
export function directLinesMatchPino(): boolean {
  const written: string[] = [];
  const time = () => ',"time":0';
  const bindings = { method: "POST", route: '/r"\u00e9', tier: "developer", key_id: "k1" };
  const probe = pino({ level: "info", base: { pid: 1 }, timestamp: time }, { write: (line: string) => void written.push(line) }).child(bindings);
  const audit = { event: "probe", window: [1, 2.5] };
  probe.info({ req_id: "r-1", status: 429, duration_ms: 1.25, code: "RATE_LIMITED", rate_limited: "per_key", audit }, "request");
  return written[0] === directLine(linePieces(probe), time(), pinoState<string>(probe, symbols.chindingsSym), "r-1", 429, 1250, "RATE_LIMITED", "per_key", audit);
}

/**
 * `String(micros / 1000)` for whole microseconds (what pino writes for the duration), from integers: formatting the fraction of a double took about a
 * tenth of a line's instructions. Up to 2^50 µs (35 years) doubles are far denser than 0.001 ms, so the quotient is
 * the double nearest to the decimal with at most three places, and that decimal, without trailing zeros, is the
 * shortest text that reads back as it: JavaScript's. Other numbers take JavaScript's own way, and pino's null.
 */
export function millisecondsText(micros: number): string {
  // JSON has no NaN or Infinity: pino writes null for them.
  if (!Number.isFinite(micros)) return "null";
  if (!(micros >= 0 && micros <= 2 ** 50)) return String(micros / 1000);
  const fraction = micros % 1000;
  const whole = (micros - fraction) / 1000;
  if (fraction === 0) return String(whole);
  if (fraction % 100 === 0) return `${whole}.${fraction / 100}`;
  if (fraction % 10 === 0) return `${whole}.${fraction < 100 ? "0" : ""}${fraction / 10}`;
  return `${whole}.${fraction < 10 ? "00" : fraction < 100 ? "0" : ""}${fraction}`;
}

let timeMs = Number.NaN;
let timeText = "";

/** pino's `time` field in Unix ms (its default), made once per millisecond: a busy service logs many lines within one. */
function epochTime(): string {
  const now = Date.now();
  if (now !== timeMs) {
    timeMs = now;
    timeText = `,"time":${now}`;
  }
  return timeText;
}

/** The batch's size: a pipe's default capacity on Linux, so a write mostly fits in the pipe rather than being queued in the service until the reader catches up. */
const BATCH_BYTES = 64 * 1024;
/** The longest a line waits when little is logged, so a reader following the log sees it promptly. */
const FLUSH_AFTER_MS = 50;

/**
 * Standard output, written in batches: when the next line might not fit in 64 KiB, or 50 ms after the first pending
 * line. Each write costs a system call in the service and a wake-up of the reader; a write per event-loop turn (as
 * before) was still one per few requests, as a busy service answers only a few per turn, and took about 2.5 % of its
 * busy time in a profile. Each line is copied into a byte buffer as it comes (UTF-8), not appended to a pending
 * string: that string was a rope of some thousands of pieces that the write had to flatten, measure and encode
 * into a 192 KiB scratch buffer (mapped and unmapped by the allocator at every write), and its lines outlived
 * several young-generation collections. Copied at once, a line is garbage at the next one. The log's CPU per line
 * in one process writing to a pipe that `cat` read went from 10-14 to 3-4 µs, and to /dev/null from 3.1-3.7 to
 * 2.2-2.7 µs. Lines go through process.stdout, after whatever it
 * wrote before them; a line the service writes itself (SIGTERM) may come before the last 50 ms of request lines,
 * which `flush` writes when closing, or at the process's exit (a second SIGTERM, any process.exit) when it exits
 * before the service closed.
 */
class StdoutBatch implements DestinationStream {
  #batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
  #used = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #flushLater = () => this.flush();

  constructor() {
    watchStdout();
    // process.stdout writes to a file at once, and to a pipe at once while it has room (Node tries the write before
    // queueing it), so lines written in "exit" are not lost, unless a reader left the pipe full.
    process.once("exit", this.#flushLater);
  }

  /** One listener per open service, removed when it closes, so services started one after another in a process do not pile up listeners. */
  close(): void {
    process.off("exit", this.#flushLater);
    this.flush();
  }

  write(line: string): void {
    if (stdoutFailed) return;
    // A UTF-16 code unit takes at most 3 bytes in UTF-8, so a line that passes this check fits whole.
    if (this.#used + line.length * 3 > BATCH_BYTES) {
      this.flush();
      if (line.length * 3 > BATCH_BYTES) {
        process.stdout.write(line);
        return;
      }
    }
    this.#used += this.#batch.write(line, this.#used);
    this.#timer ??= setTimeout(this.#flushLater, FLUSH_AFTER_MS);
  }

  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#used === 0 || stdoutFailed) return;
    process.stdout.write(this.#batch.subarray(0, this.#used));
    // Written at once (a file, a terminal, a pipe with room), the bytes are out and the batch is filled again; a write
    // that waits (a full pipe, a socket not ready) keeps its bytes, so the next lines go into a new batch.
    if (process.stdout.writableLength > 0) this.#batch = Buffer.allocUnsafeSlow(BATCH_BYTES);
    this.#used = 0;
  }
}

let stdoutFailed = false;
let stdoutWatched = false;

/**
 * A reader that goes away (a log collector restarting, `| head`) must not take the service down with an unhandled
 * EPIPE: the request log stops, saying so once on stderr, and requests are still served. One listener per process.
 */
function watchStdout(): void {
  if (stdoutWatched) return;
  stdoutWatched = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (stdoutFailed) return;
    stdoutFailed = true;
    process.stderr.write(`temporal-service: the request log stopped: stdout failed (${error.code ?? error.message}); requests are still served\n`);
  });
}
