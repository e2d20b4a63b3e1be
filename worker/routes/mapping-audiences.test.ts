import { describe, expect, it } from "vitest";
import { AUDIENCE_MAPPINGS_FULL, AUDIENCE_MAPPINGS_TOO_LARGE, AUDIENCE_NEEDS_A_CONDITION } from "#contract/audiences";
import type { Mapping } from "#contract/responses";
import type { ImportReport } from "#contract/bulk";
import { AUDIENCE_CELL_NOT_JSON } from "../bulk/import-file";
import type { MappingVersion } from "#contract/versions";
import { urlMappings } from "../db/schema";
import { call, createCustomerOnPlan, createVerifiedCustomer, db } from "../test/helpers";

const mobile = { name: "Mobile", device: ["mobile"] };
const german = { name: "Germany", country: ["de"] };

const post = (apiKey: string, json: unknown) => call("/api/mappings", { method: "POST", apiKey, json });
const patch = (apiKey: string, id: number, json: unknown) =>
  call(`/api/mappings/${id}`, { method: "PATCH", apiKey, json });
const listed = async (apiKey: string) => (await (await call("/api/mappings", { apiKey })).json()) as Mapping[];

/** `count` published mappings for an audience at a.com/x, written directly (the API's throttle aside), 10 a statement. */
async function insertAudienceMappings(userId: string, count: number) {
  for (let from = 0; from < count; from += 10) {
    await db()
      .insert(urlMappings)
      .values(
        Array.from({ length: Math.min(10, count - from) }, (_, k) => ({
          userId,
          url: "https://a.com/x",
          normalizedUrl: "a.com/x",
          htmlContent: `<p>${from + k}</p>`,
          audience: { name: `A${from + k}`, country: ["FR"] },
          priority: from + k,
          publishedAt: new Date(),
        })),
      );
  }
}

describe("audiences on mappings (POST/PATCH /api/mappings)", () => {
  it("takes an audience and priority, answers them back with country codes upper case, and lists them", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const res = await post(apiKey, { url: "https://a.com/x", htmlContent: "<p>de</p>", audience: german, priority: 5 });
    expect(res.status).toBe(201);
    const created = (await res.json()) as Mapping;
    expect(created).toMatchObject({ audience: { name: "Germany", country: ["DE"] }, priority: 5 });
    expect((await listed(apiKey))[0]).toMatchObject({ id: created.id, audience: created.audience, priority: 5 });
  });

  it("answers a mapping without an audience as before: neither field", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const created = (await (
      await post(apiKey, { url: "https://a.com/x", htmlContent: "<p>all</p>" })
    ).json()) as Mapping;
    expect(created).not.toHaveProperty("audience");
    expect(created).not.toHaveProperty("priority");
  });

  it("lets several mappings share a URL, each for its own audience, besides the fallback", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    for (const json of [
      { url: "https://a.com/x", htmlContent: "<p>all</p>" },
      { url: "https://a.com/x", htmlContent: "<p>mobile</p>", audience: mobile },
      { url: "https://a.com/x", htmlContent: "<p>de</p>", audience: german, priority: 1 },
    ]) {
      expect((await post(apiKey, json)).status).toBe(201);
    }
    const rows = (await (await call("/api/mappings?group=url", { apiKey })).json()) as Mapping[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.urlMappingCount).toBe(3);
  });

  it("refuses a bad audience or priority with the field's message and adds nothing", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const refusals: [unknown, string][] = [
      [{ audience: { name: "All" } }, AUDIENCE_NEEDS_A_CONDITION],
      [
        { audience: { name: "x", country: ["Germany"] } },
        "audience.country must hold two-letter country codes (ISO 3166-1 alpha-2)",
      ],
      [{ audience: mobile, priority: -1 }, "priority must be at least 0"],
    ];
    for (const [fields, message] of refusals) {
      const res = await post(apiKey, { url: "https://a.com/x", htmlContent: "<p>x</p>", ...(fields as object) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain(message);
    }
    expect(await listed(apiKey)).toEqual([]);
  });

  it("changes an audience with PATCH, makes the mapping the fallback again with null, and keeps each in its versions", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const created = (await (
      await post(apiKey, { url: "https://a.com/x", htmlContent: "<p>x</p>", audience: mobile })
    ).json()) as Mapping;
    const changed = await patch(apiKey, created.id, { audience: german, priority: 7 });
    expect(await changed.json()).toMatchObject({ audience: { name: "Germany", country: ["DE"] }, priority: 7 });
    const cleared = (await (await patch(apiKey, created.id, { audience: null })).json()) as Mapping;
    expect(cleared).not.toHaveProperty("audience");

    const versions = (await (
      await call(`/api/mappings/${created.id}/versions`, { apiKey })
    ).json()) as MappingVersion[];
    expect(versions.map((v) => v.audience?.name ?? null)).toEqual([null, "Germany", "Mobile"]);
    // Restoring a version brings its audience back.
    const restored = await call(`/api/mappings/${created.id}/versions/2/restore`, { method: "POST", apiKey });
    expect(await restored.json()).toMatchObject({ audience: { name: "Germany" }, priority: 7 });
  });

  it(`allows ${20} published or scheduled audience mappings per URL, refusing the next with 409 and changing nothing`, async () => {
    const { user, apiKey } = await createCustomerOnPlan({ eventsLimit: null, websitesLimit: null });
    await insertAudienceMappings(user.id, 20);
    const more = { url: "https://a.com/x", htmlContent: "<p>21</p>", audience: mobile };
    const refused = await post(apiKey, more);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: AUDIENCE_MAPPINGS_FULL });
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await post(apiKey, { ...more, status: "draft", publishAt: future })).status).toBe(409);
    expect((await listed(apiKey)).length).toBe(20);

    // A draft is not counted, nor is the fallback; publishing the draft is refused.
    const draft = (await (await post(apiKey, { ...more, status: "draft" })).json()) as Mapping;
    expect((await post(apiKey, { url: "https://a.com/x", htmlContent: "<p>all</p>" })).status).toBe(201);
    const publish = await call(`/api/mappings/${draft.id}/status`, {
      method: "PATCH",
      apiKey,
      json: { status: "published" },
    });
    expect(publish.status).toBe(409);
    expect(await patch(apiKey, draft.id, { status: "published" }).then((r) => r.status)).toBe(409);
    expect((await listed(apiKey)).find((m) => m.id === draft.id)?.publishedAt).toBeNull();
    // A mapping already counted may change within the bound; another URL has its own.
    const [first] = (await listed(apiKey)).filter((m) => m.audience?.name === "A0");
    expect((await patch(apiKey, first!.id, { priority: 99 })).status).toBe(200);
    expect((await post(apiKey, { ...more, url: "https://a.com/y" })).status).toBe(201);

    // A deleted audience mapping does not come back past the bound.
    await call(`/api/mappings/${first!.id}`, { method: "DELETE", apiKey });
    expect((await post(apiKey, more)).status).toBe(201);
    const restore = await call(`/api/mappings/deleted/${first!.id}/restore`, { method: "POST", apiKey });
    expect(restore.status).toBe(409);
    expect(await restore.json()).toEqual({ error: AUDIENCE_MAPPINGS_FULL });
  });

  it("holds a URL's published or scheduled audience mappings to 4 MB together, refusing more with 409 and changing nothing", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ eventsLimit: null, websitesLimit: null });
    // Four of 1,000,000 bytes each, written directly (the API takes 256 KB of HTML): about 194,000 bytes are left.
    for (const k of [0, 1, 2, 3]) {
      await db()
        .insert(urlMappings)
        .values({
          userId: user.id,
          url: "https://a.com/x",
          normalizedUrl: "a.com/x",
          htmlContent: "x".repeat(1_000_000),
          audience: { name: `Big${k}`, country: ["FR"] },
          publishedAt: new Date(),
        });
    }
    const tooLarge = { url: "https://a.com/x", htmlContent: "y".repeat(200_000), audience: mobile };
    const refused = await post(apiKey, tooLarge);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: AUDIENCE_MAPPINGS_TOO_LARGE });
    expect((await listed(apiKey)).length).toBe(4);

    const fits = await post(apiKey, { ...tooLarge, htmlContent: "y".repeat(100_000) });
    expect(fits.status).toBe(201);
    const { id } = (await fits.json()) as Mapping;
    expect((await patch(apiKey, id, { htmlContent: "y".repeat(200_000) })).status).toBe(409);
    expect((await listed(apiKey)).find((m) => m.id === id)?.htmlContent).toHaveLength(100_000);

    // A draft is not counted; publishing it is refused. The fallback is not counted either.
    const draft = (await (await post(apiKey, { ...tooLarge, status: "draft" })).json()) as Mapping;
    const publish = await call(`/api/mappings/${draft.id}/status`, {
      method: "PATCH",
      apiKey,
      json: { status: "published" },
    });
    expect(publish.status).toBe(409);
    expect(await publish.json()).toEqual({ error: AUDIENCE_MAPPINGS_TOO_LARGE });
    expect((await post(apiKey, { url: "https://a.com/x", htmlContent: "z".repeat(200_000) })).status).toBe(201);
  });

  it("imports audience and priority from JSON and CSV, each row checked, and exports them so that they import again", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const importFile = async (body: string, type: string) => {
      const res = await call("/api/mappings/import", {
        method: "POST",
        apiKey,
        headers: { "Content-Type": type },
        body,
      });
      return { status: res.status, report: (await res.json()) as ImportReport };
    };
    const json = await importFile(
      JSON.stringify([
        { url: "https://a.com/x", htmlContent: "<p>all</p>" },
        { url: "https://a.com/x", htmlContent: "<p>mobile</p>", audience: mobile, priority: 3 },
        { url: "https://a.com/x", htmlContent: "<p>de</p>", audience: german },
      ]),
      "application/json",
    );
    expect(json.report).toMatchObject({ applied: true, added: 3 });
    expect(new Set(json.report.rows.map((r) => r.id)).size).toBe(3);
    const mappings = await listed(apiKey);
    expect(mappings.map((m) => [m.htmlContent, m.audience?.name ?? null, m.priority ?? null]).sort()).toEqual([
      ["<p>all</p>", null, null],
      ["<p>de</p>", "Germany", 100],
      ["<p>mobile</p>", "Mobile", 3],
    ]);

    // A row without id changes the mapping at its URL for the same audience; bad rows are refused, naming the field.
    const csv = await importFile(
      [
        "url,htmlContent,audience,priority",
        'https://a.com/x,<p>mobile 2</p>,"{""name"":""Mobile"",""device"":[""mobile""]}",4',
        "https://a.com/y,<p>y</p>,not json,",
        'https://a.com/z,<p>z</p>,"{""name"":""Nowhere"",""country"":[""Germany""]}",',
        'https://a.com/w,<p>w</p>,"{""name"":""W"",""eu"":true}",high',
      ].join("\r\n"),
      "text/csv",
    );
    expect(csv.status).toBe(422);
    expect(csv.report.rows.map((r) => r.errors ?? [])).toEqual([
      [],
      [AUDIENCE_CELL_NOT_JSON],
      ["audience.country.0: audience.country must hold two-letter country codes (ISO 3166-1 alpha-2)"],
      ["priority: priority must be a number"],
    ]);
    expect(csv.report.rows[0]).toMatchObject({ action: "update" });

    const exported = await (await call("/api/mappings/export?format=csv", { apiKey })).text();
    expect(exported).toContain(`"{""name"":""Mobile"",""device"":[""mobile""]}",3,`);
    const again = await importFile(exported, "text/csv");
    expect(again.report).toMatchObject({ applied: true, added: 0, updated: 3 });
    expect(await listed(apiKey)).toEqual(mappings);
    const exportedJson = JSON.parse(
      await (await call("/api/mappings/export?format=json", { apiKey })).text(),
    ) as Mapping[];
    expect(exportedJson.find((m) => m.audience?.name === "Germany")).toMatchObject({
      audience: { name: "Germany", country: ["DE"] },
      priority: 100,
    });
    expect(exportedJson.find((m) => !m.audience)).not.toHaveProperty("priority");
  });

  it("holds an import to 20 published audience mappings per URL, counting its own rows", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ eventsLimit: null, websitesLimit: null });
    await insertAudienceMappings(user.id, 19);
    const res = await call("/api/mappings/import", {
      method: "POST",
      apiKey,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify([
        { url: "https://a.com/x", htmlContent: "<p>m</p>", audience: mobile },
        { url: "https://a.com/x", htmlContent: "<p>de</p>", audience: german },
        { url: "https://a.com/x", htmlContent: "<p>draft</p>", audience: { name: "Draft", eu: true }, status: "draft" },
      ]),
    });
    expect(res.status).toBe(422);
    const report = (await res.json()) as ImportReport;
    expect(report.rows.map((r) => r.errors ?? [])).toEqual([[], [AUDIENCE_MAPPINGS_FULL], []]);
    expect((await listed(apiKey)).length).toBe(19);
  });
});
