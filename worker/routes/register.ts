/** @module Sign-up: `POST /api/register` mails a verification link; `GET /api/verify-email` issues the API key. */
import { Hono } from "hono";
import { z } from "zod";
import type { RegisterResponse, VerifyEmailResponse } from "../contract/responses";
import { registerBody } from "../contract/schemas";
import { createDb } from "../db/client";
import { writeDocument } from "../delivery/document";
import { apiKeyMail, verificationMail } from "../email/messages";
import { sendMail } from "../email/send-mail";
import type { AppEnv } from "../env";
import { badRequest, forbidden } from "../http/errors";
import { publicOrigin } from "../http/origin";
import { validate } from "../http/validate";
import { ensureApiKey } from "../models/api-keys";
import { consumeVerificationToken, createVerificationToken } from "../models/verification-tokens";
import { createCustomer, findUserByEmail, getUser, markEmailVerified } from "../models/users";

export const registerRoutes = new Hono<AppEnv>()
  .post("/register", validate("json", registerBody), async (c) => {
    const { email } = c.req.valid("json");
    const db = createDb(c.env.DB);
    const user = (await findUserByEmail(db, email)) ?? (await createCustomer(db, email));
    const token = await createVerificationToken(db, user.id);
    const link = `${publicOrigin(c)}/verify-email?token=${encodeURIComponent(token)}`;
    await sendMail(c.env, db, verificationMail(user.email, link));
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
    c.executionCtx.waitUntil(
      sendMail(c.env, db, apiKeyMail(user.email, apiKey, `${publicOrigin(c)}/dashboard`)).catch(() => undefined),
    );
    return c.json<VerifyEmailResponse>({ message: "Email verified successfully", email: user.email, apiKey });
  });
