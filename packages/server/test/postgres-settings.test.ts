/**
 * A node's settings for running several nodes on one store (issue 16), without a database: where --store,
 * --signing-key and --node-id come from, the usage errors they give (never echoing a password), the shared
 * key file, and retired keys in GET keys. The real command runs as a child process on loopback.
 */
import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfigFile } from "../src/config.js";
import { parseNodeId, resolveNodeSettings } from "../src/node-settings.js";
import { tempDir } from "./helpers.js";
import { runCommand, startServiceProcess } from "./service-process.js";

const PROCESS_TEST = { timeout: 60_000 };

describe("resolveNodeSettings", () => {
  const file = { store: "postgres://file@db/t", signing_key: "/etc/file.pem", node_id: "from-file" };
  const env = { TEMPORAL_STORE_URL: "postgres://env@db/t", TEMPORAL_SIGNING_KEY_FILE: "/etc/env.pem", TEMPORAL_NODE_ID: "from-env" };

  it("takes the flag, else the environment, else the config file", () => {
    const flags = { store: "postgres://flag@db/t", signingKey: "/etc/flag.pem", nodeId: "from-flag" };
    expect(resolveNodeSettings(flags, env, file, "c.json")).toMatchObject({ storeUrl: flags.store, signingKeyFile: flags.signingKey, nodeId: flags.nodeId });
    expect(resolveNodeSettings({}, env, file, "c.json")).toMatchObject({ storeUrl: env.TEMPORAL_STORE_URL, signingKeyFile: "/etc/env.pem", nodeId: "from-env" });
    // An empty variable counts as unset, as HOST and PORT do.
    expect(resolveNodeSettings({}, { TEMPORAL_STORE_URL: "", TEMPORAL_NODE_ID: "" }, file, "c.json")).toMatchObject({
      storeUrl: file.store,
      signingKeyFile: file.signing_key,
      nodeId: "from-file",
    });
  });

  it("counts a node id's characters as the config's schema does (code points), whether from the environment or a flag", () => {
    const emoji = "\u{1F600}";
    expect(resolveNodeSettings({}, { TEMPORAL_NODE_ID: emoji.repeat(200) }, {}, "c.json").nodeId).toBe(emoji.repeat(200));
    expect(() => resolveNodeSettings({}, { TEMPORAL_NODE_ID: emoji.repeat(201) }, {}, "c.json")).toThrow("TEMPORAL_NODE_ID is 201 characters long");
    expect([parseNodeId(emoji.repeat(200)), parseNodeId(emoji.repeat(201)), parseNodeId("")]).toEqual([emoji.repeat(200), undefined, undefined]);
  });

  it("defaults to the file store, the home's key and <host name>:<pid>", () => {
    const settings = resolveNodeSettings({}, {}, {}, "c.json");
    expect(settings.storeUrl).toBeUndefined();
    expect(settings.signingKeyFile).toBeUndefined();
    expect(settings.nodeId).toMatch(new RegExp(`^.+:${process.pid}$`));
  });

  it("refuses a store URL from the environment that is not PostgreSQL's, naming the variable and hiding the password", () => {
    expect(() => resolveNodeSettings({}, { TEMPORAL_STORE_URL: "mysql://u:secret@db/t" }, {}, "c.json")).toThrow(
      /TEMPORAL_STORE_URL is "mysql:\/\/u:\*\*\*@db\/t": a store is a PostgreSQL URL/,
    );
  });
});

describe("the config file's node settings", () => {
  it("resolves signing_key and previous_keys files against the config file's directory, and keeps JWKs as they are", async () => {
    const dir = await tempDir();
    const jwk = { kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" };
    await writeFile(join(dir, "service.json"), JSON.stringify({ store: "postgres://t@db/t", signing_key: "keys/now.pem", node_id: "web-1", previous_keys: ["keys/old.pem", jwk] }));
    const { node } = await loadConfigFile(join(dir, "service.json"), false);
    expect(node).toEqual({ store: "postgres://t@db/t", signing_key: join(dir, "keys/now.pem"), node_id: "web-1", previous_keys: [join(dir, "keys/old.pem"), jwk] });
  });
});

describe("temporal-service store usage errors", () => {
  it.each([
    ["--store", ["--store", "mysql://u:secret@db/t"], {}, /--store is "mysql:\/\/u:\*\*\*@db\/t": a store is a PostgreSQL URL/],
    ["TEMPORAL_STORE_URL", [], { TEMPORAL_STORE_URL: "sqlite:///tmp/x" }, /TEMPORAL_STORE_URL is "sqlite:\/\/\/tmp\/x": a store is a PostgreSQL URL/],
  ])("a bad %s exits 2 with one clear line", async (_name, args, env, message) => {
    const home = await tempDir();
    const result = runCommand([...args, "--home", home, "--port", "0"], env);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain("secret");
    expect(result.stdout).toBe("");
  });

  it("a config file's store that is not a postgres URL exits 2 naming the field", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "service.json"), JSON.stringify({ store: "file:///srv" }));
    const result = runCommand(["--home", dir, "--config", join(dir, "service.json"), "--port", "0"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/is invalid: store must match pattern/);
  });
});

describe("temporal-service with one signing key file", () => {
  it("signing-key create writes a key once; nodes with separate homes given that file have one key id; a missing file exits 1", PROCESS_TEST, async () => {
    const dir = await tempDir();
    const keyFile = join(dir, "signing-key.pem");
    const created = runCommand(["signing-key", "create", keyFile]);
    expect(created.status).toBe(0);
    const keyId = created.stdout.trim();
    expect(keyId).toMatch(/^[0-9a-f]{16}$/);
    const again = runCommand(["signing-key", "create", keyFile]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/exists; a key file is never replaced/);

    const nodes = await Promise.all(["a", "b"].map((name) => startServiceProcess(["--home", join(dir, name), "--port", "0", "--node-id", name], { TEMPORAL_SIGNING_KEY_FILE: keyFile })));
    try {
      for (const node of nodes) {
        const { keys } = (await (await fetch(`${node.url}/api/v1/keys`)).json()) as { keys: Record<string, unknown> };
        expect(Object.keys(keys)).toEqual([keyId]);
      }
    } finally {
      await Promise.all(nodes.map((node) => node.stop()));
    }

    const missing = runCommand(["--home", join(dir, "c"), "--port", "0", "--signing-key", join(dir, "nope.pem")]);
    expect(missing.status).toBe(1);
    expect(missing.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^temporal-service: KEY_MISSING: signing key .*nope\.pem does not exist/)]);
  });

  it("GET keys keeps listing the retired keys of previous_keys (a PEM file or a JWK), so what they signed stays verifiable", PROCESS_TEST, async () => {
    const dir = await tempDir();
    const oldFile = generateKeyPairSync("ed25519");
    const oldJwk = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" });
    await writeFile(join(dir, "old.pem"), oldFile.privateKey.export({ type: "pkcs8", format: "pem" }));
    await writeFile(join(dir, "service.json"), JSON.stringify({ authority_name: "clock.example.com", previous_keys: ["old.pem", oldJwk] }));
    const node = await startServiceProcess(["--home", dir, "--config", join(dir, "service.json"), "--port", "0"]);
    try {
      const body = (await (await fetch(`${node.url}/api/v1/keys`)).json()) as { keys: Record<string, { x: string }>; note_verifier_keys: Record<string, string> };
      const xs = Object.values(body.keys).map((key) => key.x);
      expect(xs).toHaveLength(3);
      expect(xs).toEqual(expect.arrayContaining([oldFile.publicKey.export({ format: "jwk" }).x, oldJwk.x]));
      expect(Object.keys(body.note_verifier_keys)).toEqual(Object.keys(body.keys));
      for (const vkey of Object.values(body.note_verifier_keys)) expect(vkey).toMatch(/^clock\.example\.com\+[0-9a-f]{8}\+/);

      // Node settings are read at start only: SIGHUP says which changed.
      await writeFile(join(dir, "service.json"), JSON.stringify({ authority_name: "clock.example.com", previous_keys: ["old.pem"], node_id: "renamed" }));
      node.child.kill("SIGHUP");
      expect(await node.waitFor("stdout", /^SIGHUP: reloaded/)).toMatch(/; node_id, previous_keys changed, which takes effect at the next start$/);
    } finally {
      await node.stop();
    }

    await writeFile(join(dir, "service.json"), JSON.stringify({ previous_keys: ["missing.pem"] }));
    const bad = runCommand(["--home", dir, "--config", join(dir, "service.json"), "--port", "0"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/previous_keys\/0 \(.*missing\.pem\) is not an Ed25519 public key/);
  });
});
