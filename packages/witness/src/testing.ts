/**
 * `@temporal/witness/testing`: witnesses in the test's own process, for
 * tests of a log's witnessing. Each is the real thing (a `Witness` with a
 * `FileStateStore` and its key in a folder of its own, its `node:http`
 * server on a free loopback port), only without a process of its own, so a
 * test can start several in milliseconds.
 */

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { noteVerifier, type NoteVerifier } from "@temporal/agent-sdk";
import { Witness } from "./add-checkpoint.js";
import { DEFAULT_MAX_BODY_BYTES } from "./config.js";
import { createWitnessServer } from "./server.js";
import { FileStateStore } from "./state-store.js";
import { createWitnessKey } from "./witness-key.js";

export interface InProcessWitness {
  readonly name: string;
  /** The submission prefix, `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Its cosignature/v1 vkey, what a log configures. */
  readonly vkey: string;
  /** Stops answering (its state stays in its folder); idempotent. */
  stop(): Promise<void>;
}

export interface InProcessWitnesses {
  readonly witnesses: readonly InProcessWitness[];
  /** Stops every witness and releases its state folder. */
  close(): Promise<void>;
}

/**
 * Starts one witness per name under `directory` (`<directory>/<index>/`),
 * each following the logs given as note vkeys (`<origin>+<key ID>+<key>`,
 * the origin being the key's name, as for a clockchain tile's vkey).
 */
export async function startInProcessWitnesses(directory: string, names: readonly string[], logVkeys: readonly string[]): Promise<InProcessWitnesses> {
  const logs = new Map<string, NoteVerifier[]>();
  for (const vkey of logVkeys) {
    const verifier = await noteVerifier(vkey);
    logs.set(verifier.name, [...(logs.get(verifier.name) ?? []), verifier]);
  }
  const stores: FileStateStore[] = [];
  const witnesses = await Promise.all(
    names.map(async (name, i) => {
      const folder = join(directory, String(i));
      const store = await FileStateStore.open(join(folder, "state"));
      stores.push(store);
      const cosigner = await createWitnessKey(join(folder, "witness.key"), name);
      const server = createWitnessServer({ witness: new Witness({ cosigner, logs, store }), maxBodyBytes: DEFAULT_MAX_BODY_BYTES });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return { name, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, vkey: cosigner.vkey, stop: () => stopServer(server) };
    }),
  );
  return {
    witnesses,
    async close() {
      await Promise.all(witnesses.map((witness) => witness.stop()));
      await Promise.all(stores.map((store) => store.close()));
    },
  };
}

function stopServer(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
