import {
  TemporalError,
  WINDOW_TEXT_RULE,
  ZONE_TEXT_RULE,
  checkReceiptAndProof,
  parseWindowText,
  parseWitnesses,
  parseZoneText,
  verifyFinality,
  verifyZtt,
  type AnchorProof,
  type KeySet,
  type Receipt,
  type Window,
  type WitnessSet,
  type ZttBundle,
} from "@temporal/agent-sdk";
import { EXIT_FAILURE, EXIT_OK } from "../errors.js";
import { readFileOrStop } from "../io-errors.js";
import { readJsonFile, readKeySet, recognise, VerifyUsageError } from "./verify-input.js";

/**
 * `temporalc verify <file> --keys <keys.json>`: checks a ZTT bundle, or a receipt and its anchor proof, offline
 * with the SDK's verifiers and the keys of the service's `GET keys`; nothing is sent anywhere. Exit 0 when every
 * check holds, 1 when one fails (each is named), 2 for usage problems (verify-input.ts).
 *
 * The SDK is imported statically: this module is itself loaded only when `temporalc verify` runs (main.ts imports
 * each command when it runs), so `temporalc --help` and `temporalc verify --help` never load it.
 */

export interface VerifyOptions {
  /** The certifier's keys (the ZTT certificate's); also the log's unless `logKeys` is given. */
  readonly keys: string;
  /** The log's keys (the anchor's receipt, checkpoints and finality; a receipt and proof's), when not the certifier's. */
  readonly logKeys?: string;
  /** A ZTT bundle without an anchor fails (`anchor_receipt`). */
  readonly requireAnchor?: boolean;
  /** The window the ZTT certificate must be for, "start,end" in degrees. */
  readonly window?: string;
  /** The SWT zone the ZTT certificate must be for. */
  readonly zone?: string;
  /** A file whose bytes are the ZTT payload: checked against the bundle's payload_sha256. */
  readonly payload?: string;
  /** cosignature/v1 vkeys of the witnesses trusted for finality and the witnessed time. */
  readonly witness?: readonly string[];
  readonly quorum?: number;
  readonly json: boolean;
}

interface NamedCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly reason?: string;
}

interface Report {
  readonly valid: boolean;
  readonly kind: "ztt" | "receipt";
  readonly checks: readonly NamedCheck[];
  readonly witnessed_unix_s?: number;
  /** A ZTT bundle's certificate: which window, zone and opening it is for (whatever the checks say of it). */
  readonly certificate?: { readonly window_deg: unknown; readonly swt_zone: unknown; readonly start_unix_ms: unknown; readonly end_unix_ms: unknown };
}

/** Whom the verifier trusts beyond the log's keys: witnesses (their vkeys, or parsed already for --quorum) and how many must have cosigned. */
interface Trust {
  readonly witnesses: readonly string[] | WitnessSet;
  readonly quorum: number | undefined;
}

export async function runVerify(file: string, options: VerifyOptions): Promise<number> {
  const opening = expectedOpening(options);
  const found = recognise(await readJsonFile(file, "the file"), file);
  const keySet = await readKeySet(options.keys);
  // Without --log-keys the service is both certifier and log (a bundle from its POST ztt/sign): one keys file for both.
  const logKeySet = options.logKeys === undefined ? keySet : await readKeySet(options.logKeys);
  const trust = await trustOf(options);
  const report =
    found.kind === "ztt"
      ? await verifyBundle(
          found.bundle,
          { certifier: keySet, log: logKeySet, requireAnchor: options.requireAnchor === true, ...opening },
          trust,
          options.payload === undefined ? found.payload : await readFileOrStop(options.payload, "the payload file"),
        )
      : await verifyReceiptProof(found.receipt, found.proof, logKeySet, trust);
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : describe(report));
  return report.valid ? EXIT_OK : EXIT_FAILURE;
}

async function trustOf(options: VerifyOptions): Promise<Trust | undefined> {
  const witnesses = options.witness ?? [];
  if (witnesses.length === 0) {
    if (options.quorum !== undefined) throw new VerifyUsageError("INVALID_WITNESS", "--quorum counts cosignatures of the witnesses given with --witness: give them too");
    return undefined;
  }
  // Without --quorum the verifiers parse the vkeys, and take the majority of the distinct ones.
  if (options.quorum === undefined) return { witnesses, quorum: undefined };
  // Parsed once, here, and counted as the SDK's verifiers count them (a key given twice, or under two names, is one
  // witness): a quorum above that could never be met. The check comes before the payload file is read, and holds for
  // a receipt without a proof, which no verifier checks; the verifiers take the parsed set as it is.
  const parsed = await asUsage(() => parseWitnesses(witnesses));
  if (options.quorum > parsed.size) {
    const repeats = parsed.size < witnesses.length ? ` (of ${witnesses.length} given: a key given twice, or under two names, is one witness)` : "";
    throw new VerifyUsageError("INVALID_WITNESS", `--quorum ${options.quorum} needs at least as many distinct --witness keys, got ${parsed.size}${repeats}`);
  }
  return { witnesses: parsed, quorum: options.quorum };
}

/** The SDK refuses a witness vkey or quorum as the caller's configuration: here, the command line's. */
async function asUsage<T>(verify: () => T | Promise<T>): Promise<T> {
  try {
    return await verify();
  } catch (error) {
    if (error instanceof TemporalError) throw new VerifyUsageError("INVALID_WITNESS", `--witness/--quorum: ${error.message}`);
    throw error;
  }
}

/** The keys a ZTT bundle is checked against: the certificate's issuer and the anchor's log, whether an anchor is required, and for which window and zone. */
interface BundleKeys {
  readonly certifier: KeySet;
  readonly log: KeySet;
  readonly requireAnchor: boolean;
  readonly window?: Window;
  readonly zone?: number;
}

/**
 * `--window 330,30` and `--zone Z1` (or `1`): the opening the verifier expects, read by the SDK's one reader of that
 * text (the service's `--ztt-window`/`--ztt-zone` use it too), before any file is read, so a typo is a usage error
 * rather than a failed check.
 */
export function expectedOpening(options: Pick<VerifyOptions, "window" | "zone">): Pick<BundleKeys, "window" | "zone"> {
  const window = options.window === undefined ? undefined : parseWindowText(options.window);
  if (options.window !== undefined && window === undefined) throw new VerifyUsageError("INVALID_WINDOW", `--window ${JSON.stringify(options.window)}: ${WINDOW_TEXT_RULE}`);
  const zone = options.zone === undefined ? undefined : parseZoneText(options.zone);
  if (options.zone !== undefined && zone === undefined) throw new VerifyUsageError("INVALID_ZONE", `--zone ${JSON.stringify(options.zone)}: ${ZONE_TEXT_RULE}`);
  return { ...(window === undefined ? {} : { window }), ...(zone === undefined ? {} : { zone }) };
}

async function verifyBundle(bundle: ZttBundle, keys: BundleKeys, trust: Trust | undefined, payload: string | Uint8Array | undefined): Promise<Report> {
  // The rest of BundleKeys (log, requireAnchor, and window and zone when given) are verifyZtt's options as they are.
  const { certifier, ...checks } = keys;
  const options = { ...checks, ...(payload === undefined ? {} : { payload }), ...(trust === undefined ? {} : { witnesses: trust.witnesses, quorum: trust.quorum }) };
  // verifyZtt parses the witnesses once (unless --quorum had them parsed), for the default quorum (a majority) and for the witnessed time.
  const result = await asUsage(() => verifyZtt(bundle, certifier, options));
  const c = (bundle as { certificate?: Partial<ZttBundle["certificate"]> }).certificate;
  const certificate = typeof c === "object" && c !== null ? { window_deg: c.window_deg, swt_zone: c.swt_zone, start_unix_ms: c.start_unix_ms, end_unix_ms: c.end_unix_ms } : undefined;
  return {
    valid: result.valid,
    kind: "ztt",
    checks: result.checks,
    ...(result.witnessed_unix_s === undefined ? {} : { witnessed_unix_s: result.witnessed_unix_s }),
    ...(certificate === undefined ? {} : { certificate }),
  };
}

/**
 * A receipt, its anchor proof, or both: `receipt_signature` (a key of the set signed it), `inclusion` (the proof's
 * leaf is the receipt's hash, under the proof's root and checkpoint), `checkpoint_signature` (a key of the set signed
 * the checkpoint) and, with witnesses, `finality` (`verifyFinality`: a quorum of them cosigned a checkpoint covering it).
 */
async function verifyReceiptProof(receipt: Receipt | undefined, proof: AnchorProof | undefined, keySet: KeySet, trust: Trust | undefined): Promise<Report> {
  const checks: NamedCheck[] = await checkReceiptAndProof(receipt, proof, keySet.keys, "the keys file");
  if (proof === undefined || trust === undefined) return report("receipt", checks);
  // Without --quorum, verifyFinality checks a majority of the distinct witness keys, as verifyZtt does, and says which.
  const finality = await asUsage(() => verifyFinality(proof, { log: keySet, witnesses: trust.witnesses }, trust.quorum));
  const failed = finality.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
  checks.push(named("finality", finality.valid, `not FINAL for quorum ${finality.quorum} of the given witnesses: ${failed.join("; ")}`));
  return { ...report("receipt", checks), ...(finality.witnessed_unix_s === null ? {} : { witnessed_unix_s: finality.witnessed_unix_s }) };
}

function named(name: string, ok: boolean, reason: string): NamedCheck {
  return ok ? { name, ok } : { name, ok, reason };
}

function report(kind: Report["kind"], checks: readonly NamedCheck[]): Report {
  return { valid: checks.every((c) => c.ok), kind, checks };
}

function describe(report: Report): string {
  const what = report.kind === "ztt" ? "ZTT bundle" : "receipt and proof";
  const failed = report.checks.filter((c) => !c.ok).length;
  const head = report.valid ? `valid: ${what}, all ${report.checks.length} checks hold` : `invalid: ${what}, ${failed} of ${report.checks.length} checks fail`;
  const lines = report.checks.map((c) => (c.ok ? `  ok    ${c.name}` : `  FAIL  ${c.name}: ${c.reason ?? ""}`));
  const witnessed = report.witnessed_unix_s === undefined ? [] : [`  witnessed at ${new Date(report.witnessed_unix_s * 1000).toISOString()}`];
  return `${[head, ...lines, ...witnessed, ...certified(report)].join("\n")}\n`;
}

/** Which window and zone the certificate vouches for: `valid` alone does not say (any window open now can be certified). */
function certified(report: Report): string[] {
  const c = report.certificate;
  if (c === undefined) return [];
  const window = Array.isArray(c.window_deg) ? `[${c.window_deg.map(String).join(", ")}]` : JSON.stringify(c.window_deg);
  const opening = typeof c.start_unix_ms === "number" && typeof c.end_unix_ms === "number" ? `, ${isoOrRaw(c.start_unix_ms)} .. ${isoOrRaw(c.end_unix_ms)}` : "";
  return [`  certificate for window ${window} in zone Z${String(c.swt_zone)}${opening}`];
}

function isoOrRaw(unixMs: number): string {
  const date = new Date(unixMs);
  return Number.isNaN(date.getTime()) ? String(unixMs) : date.toISOString();
}
