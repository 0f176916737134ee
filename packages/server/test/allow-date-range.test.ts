import { describe, expect, it } from "vitest";
import { createClient } from "@temporal/agent-sdk";
import { createTestService } from "../src/testing.js";

const END = 8.64e15;

describe("POST allow at the end of the Date range", () => {
  it("answers 400 BEYOND_DATE_RANGE when the window does not open again before the range ends, and a reply when it does", async () => {
    const service = createTestService({ now: Date.UTC(2026, 10, 22, 12) });
    const client = createClient({ baseUrl: service.baseUrl, fetch: service.fetch });
    try {
      // 23:00 UTC on the last day: [10, 90] opened for the last time that morning.
      await expect(client.checkAllow([10, 90], { at: END - 3_600_000 })).rejects.toMatchObject({
        status: 400,
        code: "BEYOND_DATE_RANGE",
        message: expect.stringContaining("does not open again before the Date range ends"),
      });
      // [0, 10] opens at the very last instant of the range.
      expect(await client.checkAllow([0, 10], { at: END - 3_600_000 })).toMatchObject({ allow: false, next_open_unix_ms: END });
    } finally {
      await service.close();
    }
  });
});
