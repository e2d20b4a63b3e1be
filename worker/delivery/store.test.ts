import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  DELIVERY_EVERYWHERE_BY_HEADER,
  DELIVERY_PENDING_HEADER,
  type Mapping,
  type ProductVersion,
} from "#contract/responses";
import { deliveryRepairs, productVersions, users } from "../db/schema";
import type { Env } from "../env";
import { countingKv, expectStoreMatchesD1, storedEntry, storedState } from "../test/delivery-store";
import { call, createAdmin, createVerifiedCustomer, db, testEnv, visit } from "../test/helpers";
import { provenWebsite } from "../test/websites";
import { edgeHostKey, stateKey, urlKey, urlKeyPrefix } from "./keys";
import { IsolateMemo } from "./memo";
import { rebuildAll, rebuildCustomer } from "./rebuild";
import { runEveryMinute } from "../scheduled";
import { drainRepairs } from "./repairs";
import { lookupDelivery } from "./store";
import { syncCustomerState, syncUrl } from "./sync";

/** The KV calls made through the returned env, by kind. */
async function add(apiKey: string, url: string, htmlContent = `<p>${url}</p>`, e: Env = testEnv()) {
  const res = await call("/api/mappings", { method: "POST", apiKey, json: { url, htmlContent } }, e);
  expect(res.status).toBe(201);
  return (await res.json()) as Mapping;
}

const setStatus = (apiKey: string, id: number, status: "published" | "unpublished", e: Env = testEnv()) =>
  call(`/api/mappings/${id}/status`, { method: "PATCH", apiKey, json: { status } }, e);

const edit = (apiKey: string, id: number, json: object) =>
  call(`/api/mappings/${id}`, { method: "PATCH", apiKey, json });

const remove = (apiKey: string, id: number, e: Env = testEnv()) =>
  call(`/api/mappings/${id}`, { method: "DELETE", apiKey }, e);

/** A proven website of the customer's, its entries written. */
const setWebsite = (userId: string, hostname: string) =>
  provenWebsite(userId, hostname, { origin: "https://o.test", mode: "edge" });

/** Inserts `count` published mappings for the customer in one statement (a large customer, fast). */
async function insertMappings(userId: string, count: number) {
  await env.DB.prepare(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?2)
     insert into url_mappings (url, normalized_url, html_content, published_at, user_id, created_at)
     select 'https://big.test/p' || i, 'big.test/p' || i, '<p>' || i || '</p>', 1, ?1, i from n`,
  )
    .bind(userId, count)
    .run();
}

const content = async (userId: string, url: string) => {
  const res = await call(`/api/content?u=${userId}&url=${encodeURIComponent(url)}`);
  return res.status === 200 ? res.text() : res.status;
};

describe("the delivery store agrees with D1 after every kind of change", () => {
  it("create, publish, unpublish, delete by the customer and by an admin, with two mappings on one URL", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const older = await add(apiKey, "https://shop.test/a", "old");
    await expectStoreMatchesD1(user.id, "after a create");
    const newer = await add(apiKey, "http://www.Shop.test/a/", "new");
    await expectStoreMatchesD1(user.id, "after a second mapping on the same URL");
    expect(await content(user.id, "https://shop.test/a")).toBe("new");

    await setStatus(apiKey, newer.id, "unpublished");
    await expectStoreMatchesD1(user.id, "after unpublishing the newer one");
    expect(await content(user.id, "https://shop.test/a")).toBe("old");
    await setStatus(apiKey, older.id, "unpublished");
    await expectStoreMatchesD1(user.id, "after unpublishing both");
    expect(await content(user.id, "https://shop.test/a")).toBe(204);
    await setStatus(apiKey, older.id, "published");
    await expectStoreMatchesD1(user.id, "after publishing the older one again");
    expect(await content(user.id, "https://shop.test/a")).toBe("old");

    await setStatus(apiKey, newer.id, "published");
    expect((await remove(apiKey, newer.id)).status).toBe(200);
    await expectStoreMatchesD1(user.id, "after deleting the newer one");
    expect(await content(user.id, "https://shop.test/a")).toBe("old");
    const admin = await call(`/api/admin/mappings/${older.id}`, { method: "DELETE", apiKey: adminKey });
    expect(admin.status).toBe(200);
    await expectStoreMatchesD1(user.id, "after an admin deleted the last one");
    expect(await storedEntry(user.id, "shop.test/a")).toBeNull();
    expect(await content(user.id, "https://shop.test/a")).toBe(204);
  });

  it("deactivation and reactivation, a limit reached and lifted, a plan changed and deleted", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const created = await call("/api/admin/product-versions", {
      method: "POST",
      apiKey: adminKey,
      json: { name: "Tiny", eventsLimit: null, websitesLimit: null, dynamicContentLimit: 2 },
    });
    const tiny = (await created.json()) as ProductVersion;
    const a = await createVerifiedCustomer("a@example.com");
    const b = await createVerifiedCustomer("b@example.com");
    for (const { user } of [a, b]) {
      await call(`/api/admin/users/${user.id}/product-version`, {
        method: "POST",
        apiKey: adminKey,
        json: { versionId: tiny.id },
      });
    }
    await add(a.apiKey, "https://a.test/");
    const agree = async (because: string) => {
      await expectStoreMatchesD1(a.user.id, because);
      await expectStoreMatchesD1(b.user.id, because);
    };

    await call(`/api/admin/users/${a.user.id}/status`, {
      method: "PATCH",
      apiKey: adminKey,
      json: { isActive: false },
    });
    await agree("after deactivation");
    expect(await visit(a.user.id, "https://a.test/")).toBe(204);
    await call(`/api/admin/users/${a.user.id}/status`, { method: "PATCH", apiKey: adminKey, json: { isActive: true } });
    await agree("after reactivation");

    expect(await visit(a.user.id, "https://a.test/")).toBe(200);
    expect(await visit(a.user.id, "https://a.test/")).toBe(200);
    await agree("after the dynamic-content limit was reached");
    expect(await storedState(a.user.id)).toMatchObject({ limited: true });
    expect(await visit(a.user.id, "https://a.test/")).toBe(204);

    await call(`/api/admin/product-versions/${tiny.id}`, {
      method: "PATCH",
      apiKey: adminKey,
      json: { name: "Tiny", eventsLimit: null, websitesLimit: null, dynamicContentLimit: 10 },
    });
    await agree("after the plan's limit was raised");
    expect(await visit(a.user.id, "https://a.test/")).toBe(200);

    await call(`/api/admin/users/${a.user.id}/limits`, {
      method: "PATCH",
      apiKey: adminKey,
      json: { requestLimit: 1 },
    });
    await agree("after the admin's request limit put the customer over it");
    expect(await storedState(a.user.id)).toMatchObject({ limited: true });

    await call(`/api/admin/product-versions/${tiny.id}`, { method: "DELETE", apiKey: adminKey });
    await agree("after the plan was deleted (its users moved to the default plan)");
    await call(`/api/admin/users/${a.user.id}/limits`, {
      method: "PATCH",
      apiKey: adminKey,
      json: { requestLimit: null },
    });
    await agree("after the request limit was lifted");
    expect(await visit(a.user.id, "https://a.test/")).toBe(200);
  });

  it("whether the customer is metered (a visitor budget to ask) follows their plan's and the admin's limits", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const admin = (path: string, method: string, json?: unknown) => call(path, { method, apiKey: adminKey, json });
    const created = await admin("/api/admin/product-versions", "POST", {
      name: "Open",
      eventsLimit: 5,
      websitesLimit: 1,
      dynamicContentLimit: null,
    });
    const open = (await created.json()) as ProductVersion;
    const { user } = await createVerifiedCustomer("metered@example.com");
    const metered = async () => (await storedState(user.id))!.unmetered !== true;

    // The default plan limits content deliveries.
    expect(await metered()).toBe(true);
    // Limits on events and websites spend nothing per page view.
    await admin(`/api/admin/users/${user.id}/product-version`, "POST", { versionId: open.id });
    expect(await storedState(user.id)).toMatchObject({ unmetered: true });
    await admin(`/api/admin/users/${user.id}/limits`, "PATCH", { requestLimit: 1000 });
    expect(await metered()).toBe(true);
    await admin(`/api/admin/users/${user.id}/limits`, "PATCH", { requestLimit: null });
    expect(await metered()).toBe(false);
    await admin(`/api/admin/product-versions/${open.id}`, "PATCH", { dynamicContentLimit: 100 });
    expect(await metered()).toBe(true);
    // 0 is unlimited (SPEC.md §9).
    await admin(`/api/admin/product-versions/${open.id}`, "PATCH", { dynamicContentLimit: 0 });
    expect(await metered()).toBe(false);
    // Its users move to the default plan.
    await admin(`/api/admin/product-versions/${open.id}`, "DELETE");
    expect(await metered()).toBe(true);
    await expectStoreMatchesD1(user.id);
  });

  it("deleting a customer leaves nothing of theirs to deliver, their entries deleted in bounded steps", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await insertMappings(user.id, 250);
    await rebuildCustomer(env, user.id);
    await add(apiKey, "https://big.test/a");
    expect((await env.DELIVERY.list({ prefix: urlKeyPrefix(user.id) })).keys).toHaveLength(251);
    await setWebsite(user.id, "big.test");
    await setWebsite(user.id, "small.test");
    expect(await env.DELIVERY.get(edgeHostKey("big.test"))).not.toBeNull();

    await call(`/api/admin/users/${user.id}`, { method: "DELETE", apiKey: adminKey });
    expect(await visit(user.id, "https://big.test/a")).toBe(204);
    // The request deletes one page of entries; the repairs (the minute and daily crons) do the rest.
    expect((await env.DELIVERY.list({ prefix: urlKeyPrefix(user.id) })).keys.length).toBeGreaterThan(0);
    while (
      await db()
        .select()
        .from(deliveryRepairs)
        .limit(1)
        .then((r) => r.length)
    )
      await drainRepairs(env, 20);
    await expectStoreMatchesD1(user.id, "after the deletion");
    expect((await env.DELIVERY.list({ prefix: urlKeyPrefix(user.id) })).keys).toHaveLength(0);
    expect(await env.DELIVERY.get(edgeHostKey("big.test"))).toBeNull();
    expect(await env.DELIVERY.get(edgeHostKey("small.test"))).toBeNull();
  });

  it("edits: new HTML and extras on the URL's newest mapping, a move away and back, edits racing each other and a delete", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const older = await add(apiKey, "https://shop.test/a", "old");
    const newer = await add(apiKey, "https://shop.test/a", "new");
    await edit(apiKey, newer.id, { htmlContent: "newer", placement: { position: "after", selector: "header" } });
    await expectStoreMatchesD1(user.id, "after editing the delivered mapping");
    expect(await content(user.id, "https://shop.test/a")).toBe("newer");
    await edit(apiKey, older.id, { htmlContent: "older", seo: { title: "T" } });
    await expectStoreMatchesD1(user.id, "after editing the one that is not delivered");
    expect(await content(user.id, "https://shop.test/a")).toBe("newer");

    await edit(apiKey, newer.id, { url: "https://shop.test/b" });
    await expectStoreMatchesD1(user.id, "after moving the delivered mapping away");
    expect(await content(user.id, "https://shop.test/a")).toBe("older");
    expect(await content(user.id, "https://shop.test/b")).toBe("newer");
    await edit(apiKey, newer.id, { url: "https://shop.test/a" });
    await expectStoreMatchesD1(user.id, "after moving it back");
    expect(await content(user.id, "https://shop.test/b")).toBe(204);

    await Promise.all([
      edit(apiKey, older.id, { url: "https://shop.test/c" }),
      edit(apiKey, older.id, { url: "https://shop.test/d", htmlContent: "d" }),
      edit(apiKey, newer.id, { htmlContent: "racing" }),
    ]);
    await expectStoreMatchesD1(user.id, "after edits at once");
    await Promise.all([edit(apiKey, newer.id, { url: "https://shop.test/e" }), remove(apiKey, newer.id)]);
    await expectStoreMatchesD1(user.id, "after an edit racing a delete");
  });

  it("two mappings created at once for one URL: the newest is delivered", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await Promise.all([
      add(apiKey, "https://shop.test/race", "one"),
      add(apiKey, "https://www.shop.test/race/", "two"),
      add(apiKey, "http://shop.test/race", "three"),
    ]);
    await expectStoreMatchesD1(user.id, "after parallel creates");
  });

  it("a create and a delete at once on one URL, and a publish racing an unpublish", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const first = await add(apiKey, "https://shop.test/x", "first");
    await Promise.all([add(apiKey, "https://shop.test/x", "second"), remove(apiKey, first.id)]);
    await expectStoreMatchesD1(user.id, "after a parallel create and delete");

    const third = await add(apiKey, "https://shop.test/y", "third");
    const fourth = await add(apiKey, "https://shop.test/y", "fourth");
    await Promise.all([setStatus(apiKey, fourth.id, "unpublished"), setStatus(apiKey, third.id, "unpublished")]);
    await expectStoreMatchesD1(user.id, "after two parallel unpublishes");
    await Promise.all([setStatus(apiKey, third.id, "published"), remove(apiKey, fourth.id)]);
    await expectStoreMatchesD1(user.id, "after a parallel publish and delete");
  });

  it("a stale write that lands last is written again from D1", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const mapping = await add(apiKey, "https://shop.test/a", "A");
    // A request that read D1 before the mapping was unpublished, and whose write lands after the unpublish's.
    const slowKv = {
      ...env.DELIVERY,
      put: async (...args: Parameters<KVNamespace["put"]>) => {
        if (!unpublished) await unpublishing;
        return env.DELIVERY.put(...args);
      },
      delete: (key: string) => env.DELIVERY.delete(key),
      get: env.DELIVERY.get.bind(env.DELIVERY),
    } as unknown as KVNamespace;
    let unpublished = false;
    let unpublishing!: Promise<unknown>;
    const stale = syncUrl(testEnv({ DELIVERY: slowKv }), user.id, "shop.test/a");
    unpublishing = setStatus(apiKey, mapping.id, "unpublished").then(() => (unpublished = true));
    await Promise.all([stale, unpublishing]);
    await expectStoreMatchesD1(user.id, "after a stale write landed last");
    expect(await storedEntry(user.id, "shop.test/a")).toBeNull();
  });
});

describe("costs that do not grow with the customer's size", () => {
  it("a change to one mapping writes its entry and the state (its new content version), and a deactivation the state, for a customer of 1,000 mappings", async () => {
    const { apiKey: adminKey } = await createAdmin();
    const { user, apiKey } = await createVerifiedCustomer("big@example.com");
    await insertMappings(user.id, 1_000);
    await rebuildCustomer(env, user.id);
    const { calls, env: counting } = countingKv();

    const created = await add(apiKey, "https://big.test/new", "<p>new</p>", counting);
    const changed = [await urlKey(user.id, "big.test/new"), stateKey(user.id)];
    expect(calls.keysWritten).toEqual(changed);
    calls.keysWritten.length = 0;
    await setStatus(apiKey, created.id, "unpublished", counting);
    await remove(apiKey, created.id, counting);
    expect(calls.keysWritten).toEqual([...changed, ...changed]);
    calls.keysWritten.length = 0;
    await call(
      `/api/admin/users/${user.id}/status`,
      { method: "PATCH", apiKey: adminKey, json: { isActive: false } },
      counting,
    );
    expect(calls.keysWritten).toEqual([stateKey(user.id)]);
    await expectStoreMatchesD1(user.id);
    // 1,000 mappings to seed and rebuild: close to the default 5 s on two busy cores.
  }, 20_000);

  it("a page view reads at most two small values and no D1, however large the customer", async () => {
    const { user } = await createVerifiedCustomer("big@example.com");
    await insertMappings(user.id, 1_000);
    await rebuildCustomer(env, user.id);
    const { calls, env: counting } = countingKv();
    const noD1 = new Proxy({} as D1Database, {
      get: () => {
        throw new Error("D1 was asked");
      },
    });
    // Later than the memo of this isolate lives, so that the reads go to KV.
    const later = Date.now() + 60_000;
    const view = (url: string) => lookupDelivery({ ...counting, DB: noD1 }, user.id, url, later);
    expect((await view("big.test/p500")).match).toEqual({ mappingId: expect.any(Number), html: "<p>500</p>" });
    expect(calls.reads).toBe(2);
    // The state read, its filter of the customer's URLs rules an unmapped page out: no read.
    expect((await view("big.test/unmapped")).match).toBeNull();
    expect(calls.reads).toBe(2);
    // Memoised: the same views again cost nothing.
    await view("big.test/p500");
    await view("big.test/unmapped");
    expect(calls.reads).toBe(2);
    // A thousand mappings and their delivery entries to write first.
  }, 20_000);

  it("hashes URL keys, so that a 2,048-character URL stays within KV's 512-byte keys", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const url = `https://shop.test/${"p".repeat(2_048 - "https://shop.test/".length)}`;
    await add(apiKey, url, "long");
    const key = await urlKey(user.id, url.slice("https://".length));
    expect(key.length).toBe(83);
    expect(await content(user.id, url)).toBe("long");
  });
});

describe("repairs", () => {
  it("a write KV refuses is left to the repairs and carried out by the next drain", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const refusing = testEnv({
      DELIVERY: {
        ...env.DELIVERY,
        put: async () => {
          throw new Error("KV PUT failed: 429 Too Many Requests");
        },
      } as unknown as KVNamespace,
    });
    const spy = console.error;
    console.error = () => {};
    let answer: Response;
    try {
      answer = await call(
        "/api/mappings",
        { method: "POST", apiKey, json: { url: "https://shop.test/a", htmlContent: "A" } },
        refusing,
      );
    } finally {
      console.error = spy;
    }
    // Saved, and the customer is told it is not delivered yet; a change that is live says nothing of the kind.
    expect(answer.status).toBe(201);
    expect(answer.headers.get(DELIVERY_PENDING_HEADER)).toBe("1");
    expect(answer.headers.get(DELIVERY_EVERYWHERE_BY_HEADER)).toBeNull();
    const before = Date.now();
    const live = await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: "https://shop.test/b", htmlContent: "B" },
    });
    expect(live.headers.get(DELIVERY_PENDING_HEADER)).toBeNull();
    // Live here now, and everywhere once KV's propagation (60 s), a location's cache and memo of the state (30 s,
    // 5 s) and the memo of a URL read under the old state (5 s) have passed.
    const everywhereBy = Date.parse(live.headers.get(DELIVERY_EVERYWHERE_BY_HEADER)!);
    expect(everywhereBy).toBeGreaterThanOrEqual(before + 100_000);
    expect(everywhereBy).toBeLessThanOrEqual(Date.now() + 100_000);
    expect(await storedEntry(user.id, "shop.test/a")).toBeNull();
    expect(await db().select().from(deliveryRepairs)).toMatchObject([{ userId: user.id, target: "url:shop.test/a" }]);
    // The minute cron carries the repair out.
    await runEveryMinute(env);
    await expectStoreMatchesD1(user.id, "after the repair");
    expect(await db().select().from(deliveryRepairs)).toEqual([]);
  });
});

describe("npm run delivery:rebuild", () => {
  it("writes what D1 delivers and removes what it no longer does, for one customer and for all", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const kept = await add(apiKey, "https://shop.test/kept", "kept");
    const gone = await add(apiKey, "https://shop.test/gone", "gone");
    // An incident: a lost write, an entry that outlived its mapping, a state from before a change.
    await env.DELIVERY.delete(await urlKey(user.id, "shop.test/kept"));
    await env.DB.prepare("delete from url_mappings where id = ?").bind(gone.id).run();
    // Edge websites: one whose entries were lost, one deleted in D1 whose entries outlived it.
    await setWebsite(user.id, "shop.test");
    await setWebsite(user.id, "old.test");
    await db().update(users).set({ isActive: false }).where(eq(users.id, user.id));
    await insertMappings(user.id, 120);
    await env.DELIVERY.delete(edgeHostKey("shop.test"));
    await env.DB.prepare("delete from websites where hostname = 'old.test'").run();

    expect(await rebuildCustomer(env, user.id)).toEqual({ written: 121, removed: 1 });
    await expectStoreMatchesD1(user.id, "after the rebuild");
    expect(await storedEntry(user.id, "shop.test/kept")).toEqual({ mappingId: kept.id, html: "kept" });
    expect(await env.DELIVERY.get(edgeHostKey("shop.test"), "json")).toEqual({
      userId: user.id,
      origin: "https://o.test",
    });
    expect(await env.DELIVERY.get(edgeHostKey("old.test"))).toBeNull();

    const other = await createVerifiedCustomer("d@example.com");
    await add(other.apiKey, "https://d.test/", "d");
    await env.DELIVERY.delete(stateKey(other.user.id));
    await env.DELIVERY.put(`doc:${other.user.id}`, "{}");
    const rebuilt: string[] = [];
    expect(await rebuildAll(env, (id) => rebuilt.push(id))).toBe(2);
    expect(rebuilt.sort()).toEqual([user.id, other.user.id].sort());
    await expectStoreMatchesD1(other.user.id, "after rebuilding all");
    expect(await env.DELIVERY.get(`doc:${other.user.id}`)).toBeNull();
  });

  it("marks a customer's store complete only once every entry is written", async () => {
    const { user } = await createVerifiedCustomer("c@example.com");
    await insertMappings(user.id, 10);
    // As after the move from the old store: the customer's mappings have no entries yet.
    await db().update(users).set({ deliveryStoreComplete: false }).where(eq(users.id, user.id));
    await syncCustomerState(env, user.id);
    // Before the rebuild, an entry that is missing is found in D1 (the store says it is incomplete).
    expect(await content(user.id, "https://big.test/p3")).toBe("<p>3</p>");
    await rebuildCustomer(env, user.id);
    expect((await db().select().from(users).where(eq(users.id, user.id)))[0]!.deliveryStoreComplete).toBe(true);
    expect(await storedState(user.id)).toMatchObject({ complete: true });
    await expectStoreMatchesD1(user.id);
  });

  // The same entries as the writes made them (expectStoreMatchesD1 knows entries without audiences only).
  it("writes the entry of a URL whose mappings all have audiences, and of one with a fallback besides", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const audienceOnly = await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: "https://shop.test/de", htmlContent: "de", audience: { name: "DE", country: ["DE"] } },
    });
    const withAudience = await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: "https://shop.test/a", htmlContent: "fr", audience: { name: "FR", country: ["FR"] } },
    });
    expect([audienceOnly.status, withAudience.status]).toEqual([201, 201]);
    const fallback = await add(apiKey, "https://shop.test/a", "all");
    const entries = ["shop.test/de", "shop.test/a"];
    const before = await Promise.all(entries.map((u) => storedEntry(user.id, u)));
    for (const u of entries) await env.DELIVERY.delete(await urlKey(user.id, u));

    expect(await rebuildCustomer(env, user.id)).toEqual({ written: 2, removed: 0 });
    expect(await Promise.all(entries.map((u) => storedEntry(user.id, u)))).toEqual(before);
    expect(before[0]).toMatchObject({ ordered: [{ html: "de", audience: { name: "DE" } }] });
    expect(before[1]).toMatchObject({ ordered: [{ html: "fr" }, { mappingId: fallback.id, audience: null }] });
  });

  it("removes every entry of a customer that no longer exists", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    await add(apiKey, "https://shop.test/a");
    await env.DB.prepare("delete from users where id = ?").bind(user.id).run();
    expect(await rebuildCustomer(env, user.id)).toEqual({ written: 0, removed: 1 });
    await expectStoreMatchesD1(user.id);
  });
});

describe("the per-isolate memo", () => {
  it("forgets entries after their time, and the oldest first past its byte budget", () => {
    const memo = new IsolateMemo<string>(5_000, 1_000);
    memo.set("a", "A", 100, 0);
    expect(memo.get("a", 4_999)).toBe("A");
    expect(memo.get("a", 5_000)).toBeUndefined();
    for (let i = 0; i < 20; i++) memo.set(`k${i}`, "x", 100, 10);
    expect(memo.size).toBeLessThanOrEqual(1_000);
    expect(memo.get("k0", 11)).toBeUndefined();
    expect(memo.get("k19", 11)).toBe("x");
    // One value larger than an eighth of the budget is not kept at all.
    memo.set("big", "B", 200, 10);
    expect(memo.get("big", 11)).toBeUndefined();
  });
});

describe("plans with many customers", () => {
  // Hundreds of customers and their KV writes: seconds of work, more on two busy cores.
  it("writes the first hundred states at once and the rest through the repairs", { timeout: 30_000 }, async () => {
    const { apiKey: adminKey } = await createAdmin();
    const [plan] = await db().insert(productVersions).values({ name: "Mass", dynamicContentLimit: 1 }).returning();
    const customers = await Promise.all(
      Array.from({ length: 130 }, (_, i) => createVerifiedCustomer(`m${i}@example.com`)),
    );
    await env.DB.prepare("update users set product_version_id = ? where role = 'user'").bind(plan!.id).run();
    await env.DB.prepare(
      "insert into usage_counters (user_id, period_deliveries) select id, 1 from users where role = 'user'",
    ).run();
    await call(`/api/admin/product-versions/${plan!.id}`, {
      method: "PATCH",
      apiKey: adminKey,
      json: { name: "Mass", eventsLimit: null, websitesLimit: null, dynamicContentLimit: 1 },
    });
    expect(await db().select().from(deliveryRepairs)).toHaveLength(30);
    await drainRepairs(env, 20);
    await drainRepairs(env, 20);
    expect(await db().select().from(deliveryRepairs)).toHaveLength(0);
    for (const { user } of customers) expect(await storedState(user.id)).toMatchObject({ limited: true });
  });
});
