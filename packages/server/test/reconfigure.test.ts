import { Agent, request, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { createApiKey } from "../src/index.js";
import { startService } from "./helpers.js";

describe("TemporalService.reconfigure", () => {
  it("serves the next requests with the new keys and origins, also on a kept-alive connection, and names what only a start changes", async () => {
    const { url, service, config, keys } = await startService();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<Socket>();
    const challenge = (key: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        const sent = request(`${url}/v1/challenge`, { agent, headers: { authorization: `Bearer ${key}`, ...headers } }, (reply: IncomingMessage) => {
          reply.resume().on("end", () => resolve(reply.statusCode as number));
        });
        sent
          .on("socket", (socket) => sockets.add(socket))
          .on("error", reject)
          .end();
      });
    try {
      const origin = "https://new.example.com";
      const fresh = createApiKey("developer", "added", new Date(0));
      expect(await challenge(fresh.key)).toBe(401);
      expect(await challenge(keys.developer, { origin })).toBe(403);

      expect(service.reconfigure({ ...config, keys: [fresh.record], cors: { origins: [origin] } })).toEqual([]);
      expect(await challenge(fresh.key, { origin })).toBe(200);
      expect(await challenge(keys.developer)).toBe(401);

      expect(service.reconfigure({ ...config, authority_name: "clock.example.com" })).toEqual(["authority_name"]);
      expect(await challenge(keys.developer)).toBe(200);
      expect(sockets.size, "every request went over the one kept-alive connection").toBe(1);
    } finally {
      agent.destroy();
    }
  });
});
