import { contextAt, createAuthority, createTsaeRequest, MemorySigner, sha256Hex, type ComposedAuthority, type PrivateKeyJwk, type TsaeRequest, type VerifyingKey } from "@temporal/agent-sdk";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openPostgresStore, type PostgresStore, type PostgresStoreOptions } from "../src/index.js";
import { startPostgres, type TestPostgres } from "../src/testing.js";
import { ed25519KeyPair } from "../../../test/support/key-pair.js";

export interface TestDatabases {
  readonly server: () => TestPostgres;
  /** One of the empty databases made before the tests (in parallel, which costs about what one costs alone). */
  readonly emptyDatabase: () => string;
}

/** One real PostgreSQL server for the test file with `databases` empty databases, made before its tests and deleted after them. */
export function useTestPostgres(databases: number): TestDatabases {
  let server: TestPostgres | undefined;
  const urls: string[] = [];
  beforeAll(async () => {
    server = await startPostgres();
    const started = server;
    urls.push(...(await Promise.all(Array.from({ length: databases }, () => started.createDatabase()))));
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });
  return {
    server() {
      if (server === undefined) throw new Error("the test PostgreSQL server is not started: call useTestPostgres() at the top of the test file");
      return server;
    },
    emptyDatabase() {
      const url = urls.shift();
      if (url === undefined) throw new Error(`the test file uses more than the ${databases} databases it asked useTestPostgres for`);
      return url;
    },
  };
}

export const T0 = Date.UTC(2026, 0, 5, 9);

/** One service node: an authority composed over its own PostgresStore, signing with the key every node shares. */
export interface TestNode {
  readonly store: PostgresStore;
  readonly authority: ComposedAuthority;
  close(): Promise<void>;
}

/** The private key all nodes of a test share (as all service nodes share one key file). */
export async function sharedKey(): Promise<PrivateKeyJwk> {
  const pair = await ed25519KeyPair(true);
  return (await crypto.subtle.exportKey("jwk", pair.privateKey)) as PrivateKeyJwk;
}

/** `options` adds to (or replaces) the store's options; `previousKeys` are the keys the node rotated from. */
export function startNode(
  url: string,
  privateKey: PrivateKeyJwk,
  nodeId: string,
  clock: () => number = Date.now,
  { previousKeys, ...options }: Partial<PostgresStoreOptions> & { readonly previousKeys?: readonly VerifyingKey[] } = {},
): TestNode {
  const store = openPostgresStore({ url, nodeId, pool: { connectionTimeoutMs: 2_000 }, ...options });
  const authority = createAuthority({ signer: new MemorySigner({ privateKey }), log: store.log, challenges: store.challenges, clock, authorityName: "pg.test", previousKeys });
  return {
    store,
    authority,
    async close() {
      await authority.close();
      await store.close();
    },
  };
}

/** A TSAE request in one of `tiles` zones (so receipts spread over several tiles). */
export function request(n: number, zones = 3): TsaeRequest {
  return createTsaeRequest(contextAt(T0 + n * 1000, { zone: n % zones }), { scope: "test.postgres.v1", action_hash_hex: sha256Hex(`pg ${n}`) });
}

/** Runs one statement on its own connection: how a test alters the database behind the stores' back. */
export async function sql<Row extends pg.QueryResultRow>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Changes one character of the signature of record `seq`'s first head in the database: the record still replays, its signature check fails. */
export async function forgeHeadSignature(url: string, seq: number): Promise<void> {
  const [stored] = await sql<{ body: string }>(url, `SELECT body FROM log_records WHERE seq = ${seq}`);
  const record = JSON.parse(stored!.body) as { heads: { note: string }[] };
  const note = record.heads[0]!.note;
  const at = note.lastIndexOf(" ") + 30;
  record.heads[0]!.note = `${note.slice(0, at)}${note[at] === "A" ? "B" : "A"}${note.slice(at + 1)}`;
  await sql(url, `UPDATE log_records SET body = ${pg.escapeLiteral(JSON.stringify(record))} WHERE seq = ${seq}`);
}
