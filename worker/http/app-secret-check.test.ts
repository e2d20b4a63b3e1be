import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import type { CustomerDashboard } from "#contract/responses";
import { apiKeys } from "../db/schema";
import { decryptSecret, encryptSecret, secretKeys } from "../lib/crypto";
import { resealAllKeys } from "../models/api-keys";
import { call, createVerifiedCustomer, db, testEnv } from "../test/helpers";
import { NOT_CONFIGURED_MESSAGE } from "./not-configured";

const OLD_SECRET = "an-old-secret-of-at-least-32-bytes-0000";
const NEW_SECRET = "a-new-secret-of-at-least-32-bytes-11111";

describe("a missing or weak APP_SECRET", () => {
  it("closes every route that needs a secret with a 503, logged once per problem, and keeps delivery and the SPA's config", async () => {
    const { user } = await createVerifiedCustomer("c@example.com");
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const secret of [undefined, "", "x".repeat(31)]) {
      const e = testEnv({ APP_SECRET: secret as unknown as string });
      for (const [path, init] of [
        ["/api/register", { method: "POST", json: { email: "n@example.com" } }],
        ["/api/login/request", { method: "POST", json: { email: "c@example.com" } }],
        ["/api/admin/login", { method: "POST", json: { email: "a@example.com", password: "secret" } }],
        ["/api/auth", {}],
        ["/api/paypal/ipn", { method: "POST", body: "txn_type=subscr_payment" }],
      ] as const) {
        const res = await call(path, init, e);
        expect(res.status, `${path} with APP_SECRET ${JSON.stringify(secret)}`).toBe(503);
        expect(await res.json()).toEqual({ error: NOT_CONFIGURED_MESSAGE });
      }
      const content = await call(`/api/content?u=${user.id}&url=${encodeURIComponent("https://shop.test/")}`, {}, e);
      expect(content.status).toBe(204);
      expect((await call("/api/site-config", {}, e)).status).toBe(200);
    }
    const logged = errors.mock.calls.map((args) => String(args[0]));
    // Once per problem, however many requests it refused.
    expect(logged).toEqual([
      'Refusing every request that needs a secret: APP_SECRET is not set (README, "Configuration")',
      'Refusing every request that needs a secret: APP_SECRET is shorter than 32 bytes (README, "Configuration")',
    ]);
    expect(await db().query.users.findFirst({ where: (u, { eq }) => eq(u.email, "n@example.com") })).toBeUndefined();
  });

  it("serves as usual with a secret of 32 bytes", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    expect((await call("/api/auth", { apiKey }, testEnv({ APP_SECRET: "s".repeat(32) }))).status).toBe(200);
  });
});

describe("rotating APP_SECRET", () => {
  it("keeps every customer's key: sealed under the previous secret, it opens and is sealed again under the new one", async () => {
    const before = testEnv({ APP_SECRET: OLD_SECRET });
    const { apiKey, user } = await createVerifiedCustomer("c@example.com");
    // The helper sealed the key under the test secret; seal it under the old one, as before a rotation.
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.userId, user.id));
    await db()
      .update(apiKeys)
      .set({ keyEncrypted: await encryptSecret(OLD_SECRET, apiKey) })
      .where(eq(apiKeys.id, row!.id));
    const shown = async (e: typeof before) =>
      ((await (await call("/api/user/dashboard", { apiKey }, e)).json()) as CustomerDashboard).apiKey;
    expect(await shown(before)).toBe(apiKey);

    const rotated = testEnv({ APP_SECRET: NEW_SECRET, APP_SECRET_PREVIOUS: OLD_SECRET });
    expect(await shown(rotated)).toBe(apiKey);
    const [resealed] = await db().select().from(apiKeys).where(eq(apiKeys.id, row!.id));
    expect(await decryptSecret(NEW_SECRET, resealed!.keyEncrypted)).toBe(apiKey);
    expect(await shown(testEnv({ APP_SECRET: NEW_SECRET }))).toBe(apiKey);
  });

  it("seals every stored key again, page after page, and leaves one that opens under neither secret", async () => {
    const customers = await Promise.all(
      ["a", "b", "c", "d", "e"].map((n) => createVerifiedCustomer(`${n}@example.com`)),
    );
    const sealedWith = ["old", "old", "new", "old", "other"] as const;
    const secretOf = { old: OLD_SECRET, new: NEW_SECRET, other: "some-other-secret-of-32-bytes-or-more-22" };
    for (const [i, { user, apiKey }] of customers.entries()) {
      await db()
        .update(apiKeys)
        .set({ keyEncrypted: await encryptSecret(secretOf[sealedWith[i]!], apiKey) })
        .where(eq(apiKeys.userId, user.id));
    }
    const keys = secretKeys({ APP_SECRET: NEW_SECRET, APP_SECRET_PREVIOUS: OLD_SECRET });
    expect(await resealAllKeys(db(), keys, 2)).toEqual({ checked: 5, resealed: 3, unreadable: 1 });
    for (const [i, { user, apiKey }] of customers.entries()) {
      const [row] = await db().select().from(apiKeys).where(eq(apiKeys.userId, user.id));
      const under = sealedWith[i] === "other" ? secretOf.other : NEW_SECRET;
      expect(await decryptSecret(under, row!.keyEncrypted)).toBe(apiKey);
    }
    expect(await resealAllKeys(db(), keys, 2)).toEqual({ checked: 5, resealed: 0, unreadable: 1 });
  });
});
