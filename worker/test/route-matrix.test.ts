import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createFixture, snapshot, stubPayPalPostBack, watchWrites } from "./route-matrix";

beforeEach(stubPayPalPostBack);
afterEach(() => vi.restoreAllMocks());

describe("watchWrites", () => {
  it("records the writes a snapshot would see, once each, and not the columns it leaves out", async () => {
    const fixture = await createFixture();
    const writes = await watchWrites();
    const before = await snapshot();
    const run = (sql: string) => env.DB.prepare(sql).run();

    await run("update api_keys set last_used_at = 1");
    await run(`update users set email = email where id = '${fixture.customerId}'`);
    expect(await writes.take()).toEqual([]);
    expect(await snapshot()).toEqual(before);

    await run(`update url_mappings set html_content = '<p>changed</p>' where id = ${fixture.mappingId}`);
    await run("insert into product_versions (name) values ('Watched')");
    await run(`delete from websites`);
    expect(await writes.take()).toEqual(
      expect.arrayContaining(["update of url_mappings", "insert into product_versions", "delete from websites"]),
    );
    expect(await snapshot()).not.toEqual(before);
    expect(await writes.take()).toEqual([]);
  });
});
