import { stat } from "node:fs/promises";
import { TemporalError, type SignedCheckpoint, type VerifyingKey } from "@temporal/agent-sdk";
import {
  FileLogStore,
  FileSigner,
  LEDGER_FORMAT,
  LedgerCorruptError,
  checkLedgerFile,
  defaultHome,
  describeIoError,
  errnoCode,
  homePaths,
  ledgerFormat,
  migrateLedger,
  readHomeLockHolder,
  readVerifyingKeyFile,
  type LedgerCheck,
  type LedgerFormat,
} from "@temporal/agent-sdk/node";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "../errors.js";

/**
 * `temporalc ledger status|verify|repair|migrate`: a home's clockchain
 * ledger, inspected and maintained from the command line. Exit 0 when
 * the ledger is sound (or was made so), 1 when it is damaged (with where),
 * 2 for usage and I/O errors (thrown as `UsageError`).
 */

export interface LedgerCommandOptions {
  home?: string;
  json: boolean;
  /** `migrate` only: the authority name the rewritten checkpoints carry. */
  authorityName?: string;
  /** Key files (PEM) of retired keys that signed earlier checkpoints of a rotated log. */
  previousKey?: string[];
}

interface Home {
  readonly home: string;
  readonly ledger: string;
  readonly lock: string;
  /** The home's files, as `homePaths` gives them: computed once, for the signer and the file store too. */
  readonly paths: ReturnType<typeof homePaths>;
  /** Bytes in the ledger; 0 when it does not exist. */
  readonly size: number;
  readonly format: LedgerFormat | undefined;
}

async function openHome(options: LedgerCommandOptions): Promise<Home> {
  const paths = homePaths(options.home ?? defaultHome());
  const { home, ledger, lock } = paths;
  const size = await stat(ledger).then(
    (info) => info.size,
    async (error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw new UsageError("FILE_UNREADABLE", `cannot read ledger ${ledger}: ${describeIoError(error)}`);
      // A home without a ledger has nothing in it yet; a home that is not there is a mistyped --home, never "valid".
      await stat(home).catch((missing: unknown) => {
        throw new UsageError(errnoCode(missing) === "ENOENT" ? "FILE_NOT_FOUND" : "FILE_UNREADABLE", `no home at ${home}: ${describeIoError(missing)}; give the home's folder with --home`);
      });
      return 0;
    },
  );
  return { home, ledger, lock, paths, size, format: size === 0 ? undefined : await ledgerFormat(ledger) };
}

/** The home's public key, never creating one (only a ledger with records needs it), and the retired keys given with `--previous-key`. */
async function homeKeys({ paths }: Home, options: LedgerCommandOptions): Promise<{ key: VerifyingKey; previousKeys: VerifyingKey[] }> {
  const previousKeys = await Promise.all((options.previousKey ?? []).map((file) => readVerifyingKeyFile(file)));
  return { key: (await new FileSigner(paths).load()).verifying, previousKeys };
}

async function checkHomeLedger(home: Home, options: LedgerCommandOptions): Promise<LedgerCheck> {
  const { key, previousKeys } = await homeKeys(home, options);
  return checkLedgerFile(home.ledger, key, { previousKeys });
}

/** Runs `work`, turning the SDK's storage errors into usage errors (exit 2) and corruption into a report (exit 1). */
async function guarded(options: LedgerCommandOptions, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof LedgerCorruptError) {
      print(options, { valid: false, reason: error.reason, offset: error.offset, message: error.message }, `invalid: ${error.message}`);
      return EXIT_FAILURE;
    }
    // The SDK's message says how a service lists retired keys; here they are files given on the command line.
    if (error instanceof TemporalError && error.code === "LOG_KEY_UNKNOWN")
      throw new UsageError(error.code, `${error.message}. With temporalc ledger, give each retired key's file with --previous-key <file>`);
    if (error instanceof TemporalError) throw new UsageError(error.code, error.message);
    if (errnoCode(error) !== undefined) throw new UsageError("LEDGER_IO_FAILED", `${(error as NodeJS.ErrnoException).path ?? "the home"}: ${describeIoError(error)}`);
    throw error;
  }
}

function print(options: LedgerCommandOptions, json: object, text: string): void {
  process.stdout.write(options.json ? `${JSON.stringify(json, null, 2)}\n` : `${text}\n`);
}

function describeCheckpoint(checkpoint: SignedCheckpoint | undefined): string {
  return checkpoint === undefined ? "none" : `#${checkpoint.sequence} ${checkpoint.origin} size ${checkpoint.tree_size}, issued ${new Date(checkpoint.issued_unix_ms).toISOString()}`;
}

function needsMigration(home: Home): UsageError {
  return new UsageError("LEDGER_MIGRATION_REQUIRED", `ledger ${home.ledger} is in format 1 (JSON heads); run \`temporalc ledger migrate --home ${home.home}\` first`);
}

export async function runLedgerStatus(options: LedgerCommandOptions): Promise<number> {
  const home = await openHome(options);
  const holder = await readHomeLockHolder(home.lock);
  const lock = holder === undefined ? null : holder === null ? { pid: null } : holder;
  const base = { home: home.home, path: home.ledger, format: home.format ?? (home.size === 0 ? LEDGER_FORMAT : null), size: home.size, lock_holder: lock };
  const lockText =
    holder === undefined ? "free" : holder === null ? "held (holder unreadable)" : `held by pid ${holder.pid} on ${holder.host} since ${new Date(holder.since_unix_ms).toISOString()}`;
  if (home.format === 1) {
    print(
      options,
      { ...base, migration_needed: true },
      `${home.ledger}\n  format 1 (JSON heads): run \`temporalc ledger migrate --home ${home.home}\`\n  size ${home.size} bytes\n  lock ${lockText}`,
    );
    return EXIT_OK;
  }
  return guarded(options, async () => {
    const check: LedgerCheck | undefined = home.size === 0 ? undefined : await checkHomeLedger(home, options);
    const counts = { records: check?.records ?? 0, tiles: check?.tiles ?? 0, anchors: check?.anchors ?? 0 };
    const torn = check?.torn_tail;
    print(
      options,
      { ...base, ...counts, last_checkpoint: check?.last_checkpoint ?? null, torn_tail: torn ?? null },
      [
        home.ledger,
        `  format ${base.format}, ${home.size} bytes`,
        `  ${counts.records} records, ${counts.anchors} anchors in ${counts.tiles} tiles`,
        `  last checkpoint ${describeCheckpoint(check?.last_checkpoint)}`,
        ...(torn === undefined ? [] : [`  torn tail: ${torn.bytes} bytes at offset ${torn.offset} (temporalc ledger repair removes it)`]),
        `  lock ${lockText}`,
      ].join("\n"),
    );
    return EXIT_OK;
  });
}

export async function runLedgerVerify(options: LedgerCommandOptions): Promise<number> {
  const home = await openHome(options);
  if (home.format === 1) throw needsMigration(home);
  return guarded(options, async () => {
    if (home.size === 0) {
      print(options, { valid: true, records: 0, anchors: 0 }, `valid: ${home.ledger} is empty`);
      return EXIT_OK;
    }
    const check = await checkHomeLedger(home, options);
    if (check.torn_tail !== undefined) {
      const { offset, bytes } = check.torn_tail;
      print(
        options,
        { valid: false, reason: "TORN_TAIL", offset, bytes, message: `a torn final write of ${bytes} bytes at offset ${offset}` },
        `invalid: ledger ${home.ledger} ends in a torn final write of ${bytes} bytes at offset ${offset}; every record before it verified (temporalc ledger repair removes it)`,
      );
      return EXIT_FAILURE;
    }
    print(
      options,
      { valid: true, records: check.records, anchors: check.anchors, tiles: check.tiles, last_checkpoint: check.last_checkpoint ?? null },
      `valid: ${check.records} records, ${check.anchors} anchors in ${check.tiles} tiles; every inclusion, checkpoint signature and chain link checked`,
    );
    return EXIT_OK;
  });
}

export async function runLedgerRepair(options: LedgerCommandOptions): Promise<number> {
  const home = await openHome(options);
  if (home.format === 1) throw needsMigration(home);
  if (home.size === 0) {
    print(options, { repaired: false }, `nothing to repair: ${home.ledger} is empty`);
    return EXIT_OK;
  }
  return guarded(options, async () => {
    // Every record is checked first, as `verify` does: opening the store from its saved state would not read the records
    // that state covers, so damage among them would pass as "nothing to repair". Damage other than a torn tail is refused
    // here, untouched (exit 1); opening the store then cuts a torn tail under the home's lock, after saving it.
    const { key, previousKeys } = await homeKeys(home, options);
    await checkLedgerFile(home.ledger, key, { previousKeys });
    const store = new FileLogStore(home.paths);
    try {
      await store.open(key, previousKeys);
      const { recovered, records, anchors } = await store.status();
      if (recovered === undefined) {
        print(options, { repaired: false, records, anchors }, `nothing to repair: ${records} records, ${anchors} anchors verified`);
      } else {
        print(
          options,
          { repaired: true, offset: recovered.offset, bytes: recovered.bytes, saved_to: recovered.saved_to, records, anchors },
          `repaired: removed a torn tail of ${recovered.bytes} bytes at offset ${recovered.offset}, saved to ${recovered.saved_to}; ${records} records, ${anchors} anchors verified`,
        );
      }
      return EXIT_OK;
    } finally {
      await store.close();
    }
  });
}

export async function runLedgerMigrate(options: LedgerCommandOptions): Promise<number> {
  const home = await openHome(options);
  return guarded(options, async () => {
    const result = await migrateLedger(home.home, options.authorityName === undefined ? {} : { authorityName: options.authorityName });
    if (!result.migrated) {
      print(options, { migrated: false, format: LEDGER_FORMAT }, `already in format ${LEDGER_FORMAT}: ${home.ledger}`);
    } else {
      const torn = result.dropped_torn_tail === 0 ? "" : `; a torn tail of ${result.dropped_torn_tail} bytes was left out (it is in the backup)`;
      print(
        options,
        { ...result, format: LEDGER_FORMAT },
        `migrated ${home.ledger} to format ${LEDGER_FORMAT}: ${result.records} records, ${result.anchors} anchors re-signed as checkpoints and verified; format 1 kept in ${result.backup}${torn}`,
      );
    }
    return EXIT_OK;
  });
}
