/**
 * Whether an address has an account must not show in the answers of the public credential endpoints, nor in
 * their timing: the answer is the same for every address, and it is sent before any mail (whose sending time
 * would differ) is even started.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../app";
import { createAdmin, createVerifiedCustomer, testEnv } from "../test/helpers";

const MAILCHANNELS = "https://mail.test/send";

afterEach(() => vi.restoreAllMocks());

/** Mail through a MailChannels stand-in that does not answer until `release` is called. */
function holdMail() {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const sent: string[] = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url !== MAILCHANNELS) return realFetch(input, init);
    sent.push(String(init?.body));
    await held;
    return new Response(null, { status: 202 });
  });
  return { sent, release };
}

async function ask(path: string, email: string) {
  const env = testEnv({ MAILCHANNELS_API_KEY: "mc-key", MAILCHANNELS_API_URL: MAILCHANNELS });
  const ctx = createExecutionContext();
  const res = await app.request(
    `http://dc.test${path}`,
    { method: "POST", body: JSON.stringify({ email }), headers: { "Content-Type": "application/json" } },
    env,
    ctx,
  );
  return { res, background: () => waitOnExecutionContext(ctx) };
}

describe.each(["/api/register", "/api/login/request-otp"])("POST %s", (path) => {
  it("answers alike for a customer, an admin and an unknown address, before any mail is sent", async () => {
    await createVerifiedCustomer("customer@example.com");
    await createAdmin("root@example.com");
    const answers = [];
    let mailed = 0;
    for (const email of ["customer@example.com", "root@example.com", "nobody@example.com"]) {
      const mail = holdMail();
      // Would hang here if the answer waited for the mail: the stand-in answers only after `release`.
      const { res, background } = await ask(path, email);
      const body = (await res.json()) as { email: string };
      answers.push({
        status: res.status,
        body: { ...body, email: "<address>" },
        cookie: res.headers.has("Set-Cookie"),
      });
      expect(body.email).toBe(email);
      mail.release();
      await background();
      mailed += mail.sent.length;
      vi.restoreAllMocks();
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    // The customer's mail went out (after the answer); the unknown address got none.
    expect(mailed).toBeGreaterThanOrEqual(1);
  });
});
