/** @module Sending the account mails: a fresh verification link, a sign-in link, or the API key. */
import type { RegistrationPage } from "#contract/schemas";
import type { Db } from "../db/client";
import type { User } from "../db/schema";
import type { Env } from "../env";
import { createVerificationToken, SIGN_IN_LINK_TTL_MS } from "../models/verification-tokens";
import { apiKeyMail, signInLink, signInLinkMail, verificationLink, verificationMail } from "./messages";
import { sendMail } from "./send-mail";

/** Creates a verification token for the user and mails its link, to registration `page` (default page A). */
export async function sendVerificationMail(
  env: Env,
  db: Db,
  origin: string,
  user: User,
  page?: RegistrationPage,
): Promise<void> {
  const token = await createVerificationToken(db, user.id);
  await sendMail(env, db, verificationMail(user.email, verificationLink(origin, token, page)));
}

export async function sendApiKeyMail(env: Env, db: Db, origin: string, user: User, apiKey: string): Promise<void> {
  await sendMail(env, db, apiKeyMail(user.email, apiKey, origin));
}

/** Mails a one-hour sign-in link (a verification token) to a customer whose login codes are locked. */
export async function sendSignInLinkMail(env: Env, db: Db, origin: string, user: User): Promise<void> {
  const token = await createVerificationToken(db, user.id, Date.now(), SIGN_IN_LINK_TTL_MS);
  await sendMail(env, db, signInLinkMail(user.email, signInLink(origin, token)));
}
