import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { MAIL_NOT_SENT, sendMail } from "../email/send-mail";
import { latestMailFailures, recordMailFailure } from "../models/mail-failures";
import { call, createAdmin, db, testEnv } from "../test/helpers";
import { mailStandins, received } from "../test/mail-standins";

const { smtp, credentials, refusedRecipientPrefix } = mailStandins();

/** The STARTTLS stand-in: the check on save connects, upgrades and logs in. */
const valid = {
  host: "localhost",
  port: String(smtp.starttls),
  user: credentials.user,
  password: credentials.pass,
  from: "noreply@dc.test",
};
const stored = { ...valid, port: smtp.starttls };

async function post(body: unknown, apiKey?: string) {
  return call("/api/smtp-config", { method: "POST", json: body, apiKey });
}

const storedRows = () => env.DB.prepare("select count(*) as n from smtp_config").first("n");

let errors: MockInstance<typeof console.error>;
beforeEach(() => {
  errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => errors.mockRestore());

describe("/api/smtp-config", () => {
  it("stores a configuration that works, returns it to the admin, and keeps the password encrypted", async () => {
    const { apiKey } = await createAdmin();
    const res = await post(valid, apiKey);
    expect(await res.json()).toEqual({ message: "SMTP configuration updated successfully" });
    const read = await call("/api/smtp-config", { apiKey });
    expect(await read.json()).toEqual(stored);
    const raw = await env.DB.prepare("select * from smtp_config").first<Record<string, unknown>>();
    expect(JSON.stringify(raw)).not.toContain(credentials.pass);
    expect((await received()).smtp.starttls.logins.at(-1)).toEqual({ user: credentials.user, tls: true });
  });

  it("sends a test mail to 'Send test mail to' before storing", async () => {
    const { apiKey } = await createAdmin();
    const testTo = `test-${crypto.randomUUID()}@example.com`;
    const res = await post({ ...valid, testTo }, apiKey);
    expect(res.status).toBe(200);
    const mail = (await received()).smtp.starttls.messages.find((m) => m.to === testTo);
    expect(mail).toMatchObject({ subject: "Dynamic Content: test mail", tls: true });
    expect(await storedRows()).toBe(1);
  });

  it.each([
    ["nothing listens on the port", { port: "1" }, /^Could not connect to localhost:1: ./],
    [
      "the server offers no STARTTLS",
      { port: String(smtp.plaintext) },
      /^TLS upgrade failed: the server does not offer STARTTLS/,
    ],
    [
      "the certificate is not trusted",
      { port: String(smtp.untrustedCertificate) },
      /^TLS upgrade failed: the TLS handshake failed/,
    ],
    ["the password is wrong", { password: "wrong-password" }, /^Authentication failed: the login was refused: 535/],
    [
      "the test mail's recipient is refused",
      { testTo: `${refusedRecipientPrefix}-x@example.com` },
      /^The test mail was refused: the recipient was refused: 550/,
    ],
  ])("refuses with 400 naming the step when %s, and keeps what was stored", async (_, change, message) => {
    const { apiKey } = await createAdmin();
    await post(valid, apiKey);

    const res = await post({ ...valid, from: "other@dc.test", ...change }, apiKey);
    expect(res.status).toBe(400);
    const { error } = await res.json<{ error: string }>();
    expect(error).toMatch(message);
    expect(error).not.toContain("wrong-password");
    expect(await (await call("/api/smtp-config", { apiKey })).json()).toEqual(stored);
  });

  it.each([
    [{ host: "" }, "SMTP host is required"],
    [{ port: "58x" }, "Port must be a number"],
    [{ user: "" }, "SMTP username is required"],
    [{ password: "" }, "SMTP password is required"],
    [{ from: "nope" }, "Invalid from email address"],
    [{ testTo: "nope" }, "Invalid test mail address"],
  ])("refuses %o with '%s' and stores nothing", async (change, message) => {
    const { apiKey } = await createAdmin();
    const res = await post({ ...valid, ...change }, apiKey);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: message });
    expect(await storedRows()).toBe(0);
  });

  it("takes an empty 'Send test mail to' as none", async () => {
    const { apiKey } = await createAdmin();
    expect((await post({ ...valid, testTo: "" }, apiKey)).status).toBe(200);
  });

  it("removes the stored configuration: mail goes by the console again", async () => {
    const { apiKey } = await createAdmin();
    await post(valid, apiKey);

    const res = await call("/api/smtp-config", { method: "DELETE", apiKey });
    expect(await res.json()).toEqual({ message: "SMTP configuration removed" });
    expect(await storedRows()).toBe(0);
    expect(await (await call("/api/smtp-config", { apiKey })).json()).toEqual({
      host: "",
      port: null,
      user: "",
      password: "",
      from: "",
    });
    const logs = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const to = `after-removal-${crypto.randomUUID()}@example.com`;
    await sendMail(testEnv(), db(), { kind: "test", to, subject: "After removal", text: "hello" });
    expect(logs.mock.calls.flat().join("\n")).toContain(`[mail] from no-reply@dynamic-content.local to ${to}`);
    expect((await received()).smtp.starttls.messages.some((m) => m.to === to)).toBe(false);
    logs.mockRestore();
  });

  it("ends a mail outage when a working configuration is stored", async () => {
    const { apiKey } = await createAdmin();
    await recordMailFailure(db(), { kind: "login-code", to: "a@example.com", error: "SMTP: down", blocksMail: true });
    const refused = await call("/api/register", { method: "POST", json: { email: "new@example.com" } });
    expect(await refused.json()).toEqual({ error: MAIL_NOT_SENT });

    await post(valid, apiKey);
    const registered = await call("/api/register", { method: "POST", json: { email: "new@example.com" } });
    expect(await registered.json()).toEqual({ message: "Verification email sent", email: "new@example.com" });
    expect(await latestMailFailures(db())).toHaveLength(1);
  });

  it("is admins only: no key 401, and nothing stored or removed", async () => {
    expect((await post(valid)).status).toBe(401);
    expect((await call("/api/smtp-config")).status).toBe(401);
    expect(await storedRows()).toBe(0);
    const { apiKey } = await createAdmin();
    await post(valid, apiKey);
    expect((await call("/api/smtp-config", { method: "DELETE" })).status).toBe(401);
    expect(await storedRows()).toBe(1);
  });
});
