import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../db/schema";
import { call, createAdmin, createVerifiedCustomer, db } from "../../test/helpers";

/** Every admin endpoint, with a body that would be valid for an admin. */
const endpoints = (userId: string): [string, string, unknown?][] => [
  ["GET", "/api/admin/overview"],
  ["GET", "/api/admin/users"],
  ["GET", "/api/admin/users/emails"],
  ["GET", `/api/admin/users/${userId}`],
  ["GET", `/api/admin/users/${userId}/transactions`],
  ["GET", `/api/admin/users/${userId}/api-key`],
  ["PATCH", `/api/admin/users/${userId}/status`, { isActive: false }],
  ["PATCH", `/api/admin/users/${userId}/limits`, { requestLimit: 1 }],
  ["PATCH", `/api/admin/users/${userId}/limit`, { limit: 1 }],
  ["PATCH", `/api/admin/users/${userId}/email`, { email: "changed@example.com" }],
  ["POST", `/api/admin/users/${userId}/product-version`, { versionId: 1 }],
  ["POST", `/api/admin/users/${userId}/resend-api-key`],
  ["POST", `/api/admin/users/${userId}/resend-verification`],
  ["DELETE", `/api/admin/users/${userId}`],
  ["GET", "/api/admin/mappings"],
  ["DELETE", "/api/admin/mappings/1"],
  ["GET", "/api/admin/product-versions"],
  [
    "POST",
    "/api/admin/product-versions",
    { name: "X", eventsLimit: null, websitesLimit: null, dynamicContentLimit: null },
  ],
  [
    "PATCH",
    "/api/admin/product-versions/1",
    { name: "X", eventsLimit: null, websitesLimit: null, dynamicContentLimit: null },
  ],
  ["DELETE", "/api/admin/product-versions/1"],
  ["GET", "/api/smtp-config"],
  ["POST", "/api/smtp-config", { host: "h", port: "25", user: "u", password: "p", from: "a@b.co" }],
];

async function snapshot() {
  const tables = ["users", "url_mappings", "product_versions", "smtp_config", "verification_tokens"];
  const { env } = await import("cloudflare:workers");
  return Promise.all(
    tables.map((t) =>
      env.DB.prepare(`select * from ${t} order by 1`)
        .all()
        .then((r) => r.results),
    ),
  );
}

describe("admin endpoints: authorization matrix", () => {
  it("refuses no key (401), a customer's key (403) and an inactive admin (403), and changes nothing", async () => {
    const customer = await createVerifiedCustomer("c@example.com");
    await call("/api/mappings", {
      method: "POST",
      apiKey: customer.apiKey,
      json: { url: "https://a.test/", htmlContent: "A" },
    });
    const inactive = await createAdmin("off-admin@example.com", "password-123");
    await db().update(users).set({ isActive: false }).where(eq(users.id, inactive.user.id));
    const before = await snapshot();

    for (const [method, path, json] of endpoints(customer.user.id)) {
      for (const [who, apiKey, status] of [
        ["no key", undefined, 401],
        ["customer", customer.apiKey, 403],
        ["inactive admin", inactive.apiKey, 403],
      ] as const) {
        const res = await call(path, { method, apiKey, json });
        expect(res.status, `${who}: ${method} ${path}`).toBe(status);
        expect(((await res.json()) as { error: string }).error, `${who}: ${method} ${path}`).toBeTruthy();
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it("admits an active admin to every endpoint", async () => {
    const customer = await createVerifiedCustomer("c@example.com");
    const { apiKey } = await createAdmin();
    for (const [method, path, json] of endpoints(customer.user.id)) {
      const res = await call(path, { method, apiKey, json });
      // 404 is an admitted request for something that is gone (the customer deleted above, mapping 1).
      expect([200, 201, 404], `${method} ${path}: ${res.status}`).toContain(res.status);
    }
  });
});
