import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { ApiError } from "../http/errors";
import { db, testEnv } from "../test/helpers";
import { mailStandins, received } from "../test/mail-standins";
import type { MailMessage } from "./message";
import { sendMail } from "./send-mail";

const { mailChannels } = mailStandins();
const message = (to: string): MailMessage => ({
  kind: "login-code",
  to,
  subject: "Your Dynamic Content login code",
  text: "Your login code is 424242",
});
const unique = (name: string) => `${name}-${crypto.randomUUID()}@example.com`;
const mailChannelsEnv = (overrides: { url?: string; apiKey?: string } = {}) =>
  testEnv({
    MAILCHANNELS_API_KEY: overrides.apiKey ?? mailChannels.apiKey,
    MAILCHANNELS_API_URL: overrides.url ?? mailChannels.url,
    MAIL_FROM: "noreply@dc.test",
  });

let errors: MockInstance<typeof console.error>;
beforeEach(() => {
  errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => errors.mockRestore());
const logged = () => errors.mock.calls.map((args) => args.join(" ")).join("\n");

async function expectRefusal(env: ReturnType<typeof mailChannelsEnv>, reason: RegExp) {
  const failure = await sendMail(env, db(), message(unique("refused"))).catch((err: unknown) => err);
  expect(failure).toBeInstanceOf(ApiError);
  expect(failure).toMatchObject({ status: 502, message: "We could not send the email; please try again later" });
  expect(logged()).toMatch(reason);
  expect(logged()).not.toContain("424242");
}

describe("MailChannels against a local stand-in of its Email API", () => {
  it("posts personalizations, from, subject and content with the key in X-Api-Key", async () => {
    const to = unique("mailchannels");
    await sendMail(mailChannelsEnv(), db(), message(to));

    const request = (await received()).mailChannels.find((r) => JSON.stringify(r.body).includes(to));
    expect(request).toEqual({
      path: "/tx/v1/send",
      apiKey: mailChannels.apiKey,
      contentType: "application/json",
      body: {
        personalizations: [{ to: [{ email: to }] }],
        from: { email: "noreply@dc.test" },
        subject: "Your Dynamic Content login code",
        content: [{ type: "text/plain", value: "Your login code is 424242" }],
      },
    });
  });

  it("answers 502 and logs MailChannels' 4xx answer when the key is refused", async () => {
    await expectRefusal(
      mailChannelsEnv({ apiKey: "wrong-key" }),
      /via MailChannels: MailChannels answered 401: .*invalid API key/,
    );
    expect(logged()).not.toContain("wrong-key");
  });

  it("answers 502 and logs the status when MailChannels fails (5xx)", async () => {
    await expectRefusal(mailChannelsEnv({ url: `${mailChannels.base}/answer/503` }), /MailChannels answered 503/);
  });

  it("answers 502 when MailChannels cannot be reached", async () => {
    await expectRefusal(mailChannelsEnv({ url: "http://127.0.0.1:1/tx/v1/send" }), /MailChannels could not be reached/);
  });
});
