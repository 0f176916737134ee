/**
 * The witness's config file (docs/witness.md): its name and key file, the
 * logs it witnesses and their keys, its state directory. Relative paths are
 * resolved against the file's folder. Everything is checked before the
 * witness starts, each problem named with its place in the file.
 */

import { dirname, resolve } from "node:path";
import { TemporalError, isNoteKeyName, jsonSyntaxProblem, noteVerifier, parseVerifierKey, tileVerifierKey, type NoteVerifier } from "@temporal/agent-sdk";
import { describeIoError, readSmallFile } from "@temporal/agent-sdk/node";
import { KnownLogs } from "./known-logs.js";

/** 1 MiB: a checkpoint with 100 signatures of post-quantum size still fits, and nothing much larger is ever needed. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;
/** A config lists logs and their keys: 1 MiB holds thousands. */
const CONFIG_LIMIT_BYTES = 1_048_576;

export interface WitnessConfig {
  readonly name: string;
  readonly keyFile: string;
  readonly stateDir: string;
  readonly logs: KnownLogs;
  readonly maxBodyBytes: number;
}

const FIELDS = new Set(["name", "key_file", "state_dir", "logs", "max_body_bytes"]);
const LOG_FIELDS = new Set(["origin", "authority", "keys"]);

/** Reads and checks the config at `path`. Throws `INVALID_WITNESS_CONFIG` naming the file and the field. */
export async function loadWitnessConfig(path: string): Promise<WitnessConfig> {
  const bad = (problem: string): TemporalError => new TemporalError("INVALID_WITNESS_CONFIG", `config ${path}: ${problem}`);
  let text: string;
  try {
    text = (await readSmallFile(path, CONFIG_LIMIT_BYTES)).toString("utf8");
  } catch (error) {
    throw bad(`cannot be read (${describeIoError(error)})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const { where, reason } = jsonSyntaxProblem(text, error);
    throw bad(`is not JSON${where === undefined ? "" : ` at ${where}`} (${reason})`);
  }
  if (!isObject(raw)) throw bad("is not a JSON object");
  for (const key of Object.keys(raw)) if (!FIELDS.has(key)) throw bad(`has an unknown field "${key}"; the fields are ${[...FIELDS].join(", ")}`);
  const { name, key_file, state_dir, logs, max_body_bytes = DEFAULT_MAX_BODY_BYTES } = raw;
  if (!isNoteKeyName(name)) throw bad('"name" must be the witness\'s key name: non-empty, no spaces, no "+", such as "witness.example/w1"');
  if (typeof key_file !== "string" || key_file === "")
    throw bad('"key_file" must be the path of the witness\'s private key (create it with `temporal-witness key create <file> --name <name>`)');
  if (typeof state_dir !== "string" || state_dir === "") throw bad('"state_dir" must be the path of the folder that keeps the latest cosigned checkpoints');
  if (!Number.isSafeInteger(max_body_bytes) || (max_body_bytes as number) < 1024) throw bad('"max_body_bytes" must be an integer of at least 1024');
  if (!Array.isArray(logs) || logs.length === 0) throw bad('"logs" must be a non-empty array of { "origin": ..., "keys": [vkey, ...] } or { "authority": ..., "keys": [vkey, ...] }');
  const known = new Map<string, readonly NoteVerifier[]>();
  const authorities = new Map<string, readonly string[]>();
  for (const [i, log] of logs.entries()) {
    const at = `logs[${i}]`;
    if (!isObject(log)) throw bad(`${at} is not an object`);
    for (const key of Object.keys(log)) if (!LOG_FIELDS.has(key)) throw bad(`${at} has an unknown field "${key}"; the fields are origin or authority, and keys`);
    if ("authority" in log) {
      const [name, vkeys] = authorityEntry(log, at, bad);
      if (authorities.has(name)) throw bad(`${at}.authority ${JSON.stringify(name)} appears twice; list all of its keys in one entry`);
      authorities.set(name, vkeys);
      continue;
    }
    const { origin, keys } = log;
    if (!isNoteKeyName(origin)) throw bad(`${at}.origin must be the log's checkpoint origin line (no spaces, no "+")`);
    if (known.has(origin)) throw bad(`${at}.origin ${JSON.stringify(origin)} appears twice; list all of a log's keys in one entry`);
    if (!Array.isArray(keys) || keys.length === 0) throw bad(`${at}.keys must be a non-empty array of the log's Ed25519 vkeys (<name>+<key ID>+<base64 key>)`);
    const verifiers: NoteVerifier[] = [];
    for (const [j, vkey] of keys.entries()) {
      if (keys.indexOf(vkey) !== j) throw bad(`${at}.keys[${j}] repeats ${at}.keys[${keys.indexOf(vkey)}]`);
      try {
        verifiers.push(await noteVerifier(vkey as string));
      } catch (error) {
        throw bad(`${at}.keys[${j}]: ${(error as Error).message}`);
      }
    }
    known.set(origin, verifiers);
  }
  const folder = dirname(path);
  return { name, keyFile: resolve(folder, key_file), stateDir: resolve(folder, state_dir), logs: new KnownLogs(known, authorities), maxBodyBytes: max_body_bytes as number };
}

/** A clockchain authority: every tile origin `<authority>/tile/<id>` is known, its key derived from the authority's Ed25519 vkeys (type 0x01, named `authority`). */
function authorityEntry(log: Record<string, unknown>, at: string, bad: (problem: string) => TemporalError): [string, string[]] {
  const { authority, keys, origin } = log;
  if (origin !== undefined) throw bad(`${at} has both "origin" and "authority"; an entry is one log or one clockchain authority`);
  if (!isNoteKeyName(authority)) throw bad(`${at}.authority must be the clockchain's authority name (no spaces, no "+"), such as "clock.example.com"`);
  if (!Array.isArray(keys) || keys.length === 0) throw bad(`${at}.keys must be a non-empty array of the authority's vkeys (GET keys' note_verifier_keys)`);
  return [
    authority,
    keys.map((vkey, j) => {
      if (keys.indexOf(vkey) !== j) throw bad(`${at}.keys[${j}] repeats ${at}.keys[${keys.indexOf(vkey)}]`);
      try {
        // Checks the vkey is an Ed25519 note key, as every tile key derived from it must be.
        tileVerifierKey(vkey as string, 0);
      } catch (error) {
        throw bad(`${at}.keys[${j}]: ${(error as Error).message}`);
      }
      const keyName = parseVerifierKey(vkey as string).name;
      if (keyName !== authority) throw bad(`${at}.keys[${j}] is a key of ${JSON.stringify(keyName)}, not of the authority ${JSON.stringify(authority)}`);
      return vkey as string;
    }),
  ];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
