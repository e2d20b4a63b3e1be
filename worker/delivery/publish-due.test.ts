import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Mapping } from "#contract/responses";
import {
  PUBLISHED_BUT_SCHEDULED,
  SCHEDULE_TOO_FAR,
  UNPUBLISH_IN_PAST,
  UNPUBLISH_NOT_AFTER_PUBLISH,
} from "#contract/publication";
import worker from "../index";
import { EVERY_MINUTE, runEveryMinute } from "../scheduled";
import { expectStoreMatchesD1, storedEntry } from "../test/delivery-store";
import { call, createVerifiedCustomer } from "../test/helpers";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();

async function add(apiKey: string, url: string, extras: object) {
  const res = await call("/api/mappings", {
    method: "POST",
    apiKey,
    json: { url, htmlContent: `<p>${url}</p>`, ...extras },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Mapping;
}

describe("drafts and scheduled publishing", () => {
  it("saves a draft that is never delivered, and publishes it with the status", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const draft = await add(apiKey, "https://shop.test/draft", { status: "draft" });
    expect(draft).toMatchObject({ publishedAt: null, publishAt: null, unpublishAt: null });
    expect(await storedEntry(user.id, "shop.test/draft")).toBeNull();
    const res = await call(`/api/mappings/${draft.id}`, { method: "PATCH", apiKey, json: { status: "published" } });
    expect(((await res.json()) as Mapping).publishedAt).not.toBeNull();
    expect(await storedEntry(user.id, "shop.test/draft")).toMatchObject({ mappingId: draft.id });
  });

  it("publishes and unpublishes on time, within the minute, by the minute cron (a controlled clock)", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const start = Date.now();
    const campaign = await add(apiKey, "https://shop.test/sale", {
      publishAt: iso(start + 3 * HOUR),
      unpublishAt: iso(start + 27 * HOUR),
    });
    expect(campaign).toMatchObject({
      publishedAt: null,
      publishAt: iso(start + 3 * HOUR),
      unpublishAt: iso(start + 27 * HOUR),
    });
    expect(await storedEntry(user.id, "shop.test/sale")).toBeNull();

    await runEveryMinute(env, new Date(start + 3 * HOUR - MINUTE));
    expect(await storedEntry(user.id, "shop.test/sale")).toBeNull();
    await runEveryMinute(env, new Date(start + 3 * HOUR));
    expect(await storedEntry(user.id, "shop.test/sale")).toMatchObject({ mappingId: campaign.id });
    await expectStoreMatchesD1(user.id, "after the publish time");
    const [live] = (await (await call("/api/mappings", { apiKey })).json()) as Mapping[];
    expect(live).toMatchObject({
      publishedAt: iso(start + 3 * HOUR),
      publishAt: null,
      unpublishAt: iso(start + 27 * HOUR),
    });

    await runEveryMinute(env, new Date(start + 27 * HOUR - 1));
    expect(await storedEntry(user.id, "shop.test/sale")).not.toBeNull();
    await runEveryMinute(env, new Date(start + 27 * HOUR + 30_000));
    expect(await storedEntry(user.id, "shop.test/sale")).toBeNull();
    await expectStoreMatchesD1(user.id, "after the unpublish time");
    const [ended] = (await (await call("/api/mappings", { apiKey })).json()) as Mapping[];
    expect(ended).toMatchObject({ publishedAt: null, publishAt: null, unpublishAt: null });
  });

  it("runs from the Worker's minute cron, and carries out more schedules than one page in one run", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const soon = iso(Date.now() + 2_000);
    for (let i = 0; i < 3; i++) await add(apiKey, `https://shop.test/p${i}`, { publishAt: soon });
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < 150)
       insert into url_mappings (url, normalized_url, html_content, user_id, publish_at)
       select 'https://shop.test/bulk' || i, 'shop.test/bulk' || i, 'x', ?, ? from n`,
    )
      .bind(user.id, Date.now() + 1_000)
      .run();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: EVERY_MINUTE }), env, ctx);
    await waitOnExecutionContext(ctx);
    const { results } = await env.DB.prepare(
      "select count(*) as waiting from url_mappings where user_id = ? and (publish_at is not null or published_at is null)",
    )
      .bind(user.id)
      .all<{ waiting: number }>();
    expect(results[0]!.waiting).toBe(0);
    expect(await storedEntry(user.id, "shop.test/p2")).not.toBeNull();
    await expectStoreMatchesD1(user.id, "after a run of 153 schedules");
  });

  it("a manual publish ends a pending publish time, and an unpublish ends the end time too", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const later = Date.now() + HOUR;
    const m = await add(apiKey, "https://shop.test/x", { publishAt: iso(later), unpublishAt: iso(later + HOUR) });
    const status = async (value: string) =>
      (await (
        await call(`/api/mappings/${m.id}/status`, { method: "PATCH", apiKey, json: { status: value } })
      ).json()) as Mapping;
    expect(await status("published")).toMatchObject({ publishAt: null, unpublishAt: iso(later + HOUR) });
    expect(await status("unpublished")).toMatchObject({ publishedAt: null, publishAt: null, unpublishAt: null });
  });

  it("refuses schedules that cannot hold, with a message, and saves nothing", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const now = Date.now();
    for (const [extras, error] of [
      [
        { publishAt: "tomorrow" },
        "Publish at must be an ISO 8601 date and time with a time zone, such as 2026-12-01T09:00:00+01:00",
      ],
      [
        { publishAt: "2026-12-01T09:00:00" },
        "Publish at must be an ISO 8601 date and time with a time zone, such as 2026-12-01T09:00:00+01:00",
      ],
      [{ unpublishAt: iso(now - HOUR) }, UNPUBLISH_IN_PAST],
      [{ publishAt: iso(now + 2 * HOUR), unpublishAt: iso(now + HOUR) }, UNPUBLISH_NOT_AFTER_PUBLISH],
      [{ status: "published", publishAt: iso(now + HOUR) }, PUBLISHED_BUT_SCHEDULED],
      [{ publishAt: iso(now + 800 * 24 * HOUR) }, SCHEDULE_TOO_FAR],
      [{ status: "live" }, 'Status must be "draft" or "published"'],
    ] as const) {
      const res = await call("/api/mappings", {
        method: "POST",
        apiKey,
        json: { url: "https://shop.test/bad", htmlContent: "x", ...extras },
      });
      expect(res.status, JSON.stringify(extras)).toBe(400);
      expect(await res.json()).toEqual({ error });
    }
    expect(await (await call("/api/mappings", { apiKey })).json()).toEqual([]);
  });

  it("takes a publish time in another time zone as that instant, and one that has passed as now", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const instant = new Date(Date.now() + 24 * HOUR);
    instant.setUTCSeconds(0, 0);
    // The same instant as a clock in Berlin in winter shows it.
    const berlinClock = new Date(instant.getTime() + HOUR).toISOString().slice(0, 19) + "+01:00";
    const berlin = await add(apiKey, "https://shop.test/tz", { publishAt: berlinClock });
    expect(berlin.publishAt).toBe(instant.toISOString());
    const past = await add(apiKey, "https://shop.test/past", { publishAt: "2020-01-01T09:00:00-05:00" });
    expect(past).toMatchObject({ publishAt: null });
    expect(past.publishedAt).not.toBeNull();
    expect(await storedEntry(user.id, "shop.test/past")).not.toBeNull();
  });
});
