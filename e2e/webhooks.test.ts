/**
 * Webhooks end to end (docs/webhooks.md): a customer adds a webhook in the dashboard that points at a receiver this
 * test runs on a loopback port (allowed in development), changes a mapping, and the receiver gets the event, signed
 * so that the secret the dashboard showed once verifies it with the documentation's Node code. The delivery log
 * then shows it delivered.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Mapping } from "#contract/responses";
import type { WebhookPayload } from "#contract/webhooks";
import { freePort } from "../scripts/dev/lib.mjs";
import { api, openWithKey, registerCustomer } from "./support/product";
import { useBrowserAndMail } from "./support/session";

const session = useBrowserAndMail();

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

const received: Received[] = [];
let receiver: Server;
let port: number;

beforeAll(async () => {
  port = await freePort();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, rawBody: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(port, "127.0.0.1", resolve));
});

afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

/** docs/webhooks.md's verification, as a receiver would write it. */
function verify(secret: string, header: string, rawBody: string, toleranceSeconds = 300) {
  const parts = Object.fromEntries(header.split(",").map((part) => part.split("=", 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1 ?? "", "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe("webhooks", () => {
  it("sends a signed event for a mapping change to the customer's URL, and logs it delivered", async () => {
    const apiKey = await registerCustomer(session.mail, "webhooks@shop.test");
    const mapping = await api<Mapping>("/api/mappings", {
      method: "POST",
      apiKey,
      body: JSON.stringify({ url: "https://webhooks.shop.test/offer", htmlContent: "<p>Autumn sale</p>" }),
    });

    const page = await openWithKey(session.browser, apiKey, "/user-dashboard", "Webhooks");
    const hookUrl = `http://127.0.0.1:${port}/dc-events`;
    await page.getByLabel("Webhook URL").fill(hookUrl);
    await page.getByRole("button", { name: "Add webhook" }).click();
    const shown = page.getByRole("region", { name: "Signing secret" });
    const secret = (await shown.locator("code").textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await expect.poll(() => page.getByRole("listitem", { name: hookUrl }).isVisible()).toBe(true);

    await api(`/api/mappings/${mapping.id}`, {
      method: "PATCH",
      apiKey,
      body: JSON.stringify({ htmlContent: "<p>Winter sale</p>" }),
    });
    // Sent right after the change's answer, not a minute later by the cron.
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    const [event] = received;
    expect(event!.path).toBe("/dc-events");
    expect(event!.headers["content-type"]).toBe("application/json");
    expect(event!.headers["x-dc-event"]).toBe("mapping.changed");
    expect(verify(secret, String(event!.headers["x-dc-signature"]), event!.rawBody)).toBe(true);
    expect(verify(`${secret}x`, String(event!.headers["x-dc-signature"]), event!.rawBody)).toBe(false);
    const payload = JSON.parse(event!.rawBody) as WebhookPayload;
    expect(payload).toMatchObject({
      type: "mapping.changed",
      data: {
        mapping: {
          id: mapping.id,
          url: "https://webhooks.shop.test/offer",
          status: "published",
          changedBy: "customer",
        },
      },
    });
    expect(event!.rawBody).not.toContain("Winter sale");

    const item = page.getByRole("listitem", { name: hookUrl });
    await item.getByRole("button", { name: "Delivery log" }).click();
    const log = item.getByRole("region", { name: "Delivery log" });
    const row = log.getByRole("row").filter({ hasText: "mapping.changed" });
    await expect.poll(() => row.textContent()).toContain("Delivered");
    expect(await row.textContent()).toContain("204");
  });
});
