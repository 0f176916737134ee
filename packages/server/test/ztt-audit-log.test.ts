/**
 * Every certificate `POST ztt/certify` issues is in the request log (docs/ztt.md, "Remote signing", Audit): who
 * (the API key's id and tier), for which ephemeral key (its id) and which opening, and never a key itself.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, createApiKey, createService } from "../src/index.js";
import { tempDir } from "./helpers.js";
import { ed25519KeyPair } from "../../../test/support/key-pair.js";

describe("the audit of ZTT certificates", () => {
  it("logs the API key's id and tier, the ephemeral key's id, the window, zone and opening day with the request line", async () => {
    const lines: string[] = [];
    const { key, record } = createApiKey("managed", "audit test", new Date(0));
    const service = createService({
      home: await tempDir(),
      config: { ...DEFAULT_CONFIG, keys: [record] },
      requestLog: { level: "info", destination: { write: (line: string) => lines.push(line) } },
    });
    try {
      const url = await service.listen({ host: "127.0.0.1", port: 0 });
      const pair = await ed25519KeyPair(true);
      const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
      const ephemeralX = Buffer.from(raw).toString("base64url");
      const reply = await fetch(`${url}/api/v1/ztt/certify`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "x-request-id": "certify-1" },
        body: JSON.stringify({ ephemeral_x: ephemeralX, window: [0, 360], zone: 3 }),
      });
      expect(reply.status).toBe(200);
      const certificate = (await reply.json()) as { day_index: number };
      await service.close();

      const entry = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line.req_id === "certify-1");
      expect(entry).toMatchObject({
        route: "/ztt/certify",
        status: 200,
        tier: "managed",
        key_id: record.id,
        audit: { event: "ztt_certified", ephemeral_key_id: createHash("sha256").update(raw).digest("hex").slice(0, 16), window: [0, 360], zone: 3, day_index: certificate.day_index },
      });
      const all = lines.join("\n");
      expect(all).not.toContain(key);
      expect(all).not.toContain(ephemeralX);
    } finally {
      await service.close();
    }
  });
});
