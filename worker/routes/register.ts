/** @module Sign-up: `POST /api/register` mails a verification link; `GET /api/verify-email` issues the API key. */
import { Hono } from "hono";
import { z } from "zod";
import type { RegisterResponse, VerifyEmailResponse } from "../contract/responses";
import { registerBody } from "../contract/schemas";
import { createDb } from "../db/client";
import { writeDocument } from "../delivery/document";
import { sendApiKeyMail, sendVerificationMail } from "../email/account-mails";
import type { AppEnv } from "../env";
import { badRequest, forbidden } from "../http/errors";
import { publicOrigin } from "../http/origin";
import { validate } from "../http/validate";
import { ensureApiKey } from "../models/api-keys";
import { consumeVerificationToken } from "../models/verification-tokens";
import { createCustomer, findUserByEmail, getUser, markEmailVerified } from "../models/users";

export const registerRoutes = new Hono<AppEnv>()
  .post("/register", validate("json", registerBody), async (c) => {
    const { email, page } = c.req.valid("json");
    const db = createDb(c.env.DB);
    const user = (await findUserByEmail(db, email)) ?? (await createCustomer(db, email));
    await sendVerificationMail(c.env, db, publicOrigin(c), user, page);
    return c.json<RegisterResponse>({ message: "Verification email sent", email: user.email });
  })
  .get("/verify-email", validate("query", z.object({ token: z.string().min(1, "Token is required") })), async (c) => {
    const db = createDb(c.env.DB);
    const userId = await consumeVerificationToken(db, c.req.valid("query").token);
    const user = userId ? await getUser(db, userId) : undefined;
    if (!user) throw badRequest("Invalid or expired verification link");
    if (!user.isActive) throw forbidden("This account is inactive");
    await markEmailVerified(db, user);
    const apiKey = await ensureApiKey(db, c.env.APP_SECRET, user.id);
    await writeDocument(c.env, user.id);
    // The key is in the answer too, so a failed mail must not fail the verification.
    c.executionCtx.waitUntil(sendApiKeyMail(c.env, db, publicOrigin(c), user, apiKey).catch(() => undefined));
    return c.json<VerifyEmailResponse>({ message: "Email verified successfully", email: user.email, apiKey });
  });
