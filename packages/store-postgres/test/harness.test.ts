import pg from "pg";
import { describe, expect, it } from "vitest";
import { startPostgres } from "../src/testing.js";

async function count(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM kept");
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

describe("startPostgres", () => {
  it("runs a real server that keeps committed rows through a crash and a restart, and stop() ends it", { timeout: 60_000 }, async () => {
    const server = await startPostgres();
    try {
      expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.query("CREATE TABLE kept (n int); INSERT INTO kept VALUES (1), (2)");
      const { rows } = await client.query<{ fsync: string }>("SHOW fsync");
      expect(rows[0]?.fsync).toBe("on");
      await client.end();

      await server.kill();
      await expect(count(server.url)).rejects.toThrow();
      await server.start();
      expect(await count(server.url)).toBe(2);

      await server.restart();
      expect(await count(server.url)).toBe(2);

      const other = await server.createDatabase();
      await expect(count(other)).rejects.toThrow(/kept/);
    } finally {
      await server.stop();
    }
    await expect(count(server.url)).rejects.toThrow();
  });
});
