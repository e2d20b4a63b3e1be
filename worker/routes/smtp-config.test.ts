import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createAdmin } from "../test/helpers";

const valid = {
  host: "smtp.example.com",
  port: "587",
  user: "mailer",
  password: "pa55word",
  from: "noreply@example.com",
};

async function post(body: unknown, apiKey?: string) {
  return call("/api/smtp-config", { method: "POST", json: body, apiKey });
}

describe("/api/smtp-config", () => {
  it("stores the configuration, returns it to the admin, and keeps the password encrypted", async () => {
    const { apiKey } = await createAdmin();
    const res = await post(valid, apiKey);
    expect(await res.json()).toEqual({ message: "SMTP configuration updated successfully" });
    const read = await call("/api/smtp-config", { apiKey });
    expect(await read.json()).toEqual({ ...valid, port: 587 });
    const raw = await env.DB.prepare("select * from smtp_config").first<Record<string, unknown>>();
    expect(JSON.stringify(raw)).not.toContain("pa55word");
  });

  it.each([
    [{ host: "" }, "SMTP host is required"],
    [{ port: "58x" }, "Port must be a number"],
    [{ user: "" }, "SMTP username is required"],
    [{ password: "" }, "SMTP password is required"],
    [{ from: "nope" }, "Invalid from email address"],
  ])("refuses %o with '%s' and stores nothing", async (change, message) => {
    const { apiKey } = await createAdmin();
    const res = await post({ ...valid, ...change }, apiKey);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: message });
    expect(await env.DB.prepare("select count(*) as n from smtp_config").first("n")).toBe(0);
  });

  it("is admins only: no key 401, and nothing stored", async () => {
    expect((await post(valid)).status).toBe(401);
    expect((await call("/api/smtp-config")).status).toBe(401);
    expect(await env.DB.prepare("select count(*) as n from smtp_config").first("n")).toBe(0);
  });
});
