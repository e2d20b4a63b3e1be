/**
 * @module Sign-up: `POST /api/register` mails a verification link; `GET /api/verify-email` issues the API key.
 * The registration answer is the same for every address; an admin's address gets no mail, and no link ever
 * yields an admin's key (admins sign in with their password only).
 */
import { Hono } from "hono";
import { z } from "zod";
import type { RegisterResponse, VerifyEmailResponse } from "#contract/responses";
import { registerBody } from "#contract/schemas";
import { clearWrongCodes, throttle } from "../auth/throttle";
import { syncCustomerState } from "../delivery/sync";
import { sendApiKeyMail, sendVerificationMail } from "../email/account-mails";
import { assertMailCanBeSent } from "../email/send-mail";
import type { AppEnv } from "../env";
import { inBackground } from "../http/background";
import { badRequest, forbidden } from "../http/errors";
import { publicOrigin } from "../http/origin";
import { validate } from "../http/validate";
import { secretKeys } from "../lib/crypto";
import { ensureCustomerKey } from "../models/api-keys";
import { consumeVerificationToken } from "../models/verification-tokens";
import { ensureCustomer, getUser, markEmailVerified } from "../models/users";

const INVALID_LINK = "Invalid or expired verification link";

/** A token is 43 base64url characters; anything much longer is not one. */
const verificationQuery = z.object({ token: z.string().min(1, "Token is required").max(256, INVALID_LINK) });

export const registerRoutes = new Hono<AppEnv>()
  .post("/register", validate("json", registerBody), async (c) => {
    const { page } = c.req.valid("json");
    const email = c.req.valid("json").email.toLowerCase();
    await throttle(c, "registration", email);
    const db = c.var.db;
    await assertMailCanBeSent(c.env, db);
    // After the answer: neither it nor its timing tells whether the address had an account.
    inBackground(c, "Registration", async () => {
      const user = await ensureCustomer(db, email);
      if (user.role === "user") await sendVerificationMail(c.env, db, publicOrigin(c), user, page);
    });
    return c.json<RegisterResponse>({ message: "Verification email sent", email });
  })
  .get("/verify-email", validate("query", verificationQuery), async (c) => {
    await throttle(c, "verification-link");
    const db = c.var.db;
    const userId = await consumeVerificationToken(db, c.req.valid("query").token);
    const user = userId ? await getUser(db, userId) : undefined;
    if (!user || user.role !== "user") throw badRequest(INVALID_LINK);
    if (!user.isActive) throw forbidden("This account is inactive");
    const firstVerification = !user.emailVerified;
    await markEmailVerified(db, user);
    // The link proves the mailbox: it also lifts a lock on login codes (it is how a locked customer gets in).
    await clearWrongCodes(db, user.email);
    const apiKey = await ensureCustomerKey(db, secretKeys(c.env), user.id);
    await syncCustomerState(c.env, user.id);
    if (firstVerification) {
      // The key is in the answer too, so a failed mail must not fail the verification.
      inBackground(c, "API key mail", () => sendApiKeyMail(c.env, db, publicOrigin(c), user, apiKey));
    }
    return c.json<VerifyEmailResponse>({
      message: "Email verified successfully",
      email: user.email,
      apiKey,
      keyMailed: firstVerification,
    });
  });
