/**
 * @module Mails to the owner of a website claim about its proof (a failing check, a lapse, a takeover). The change
 * they report is made already: a mail that cannot be sent is logged, never a reason to undo or repeat it.
 */
import type { Db } from "../db/client";
import type { Env } from "../env";
import type { MailMessage } from "../email/message";
import { sendMail } from "../email/send-mail";
import { getUser } from "../models/users";

export async function mailClaimOwner(
  env: Env,
  db: Db,
  userId: string,
  message: (to: string) => MailMessage,
): Promise<void> {
  try {
    const owner = await getUser(db, userId);
    if (owner) await sendMail(env, db, message(owner.email));
  } catch (err) {
    console.error(`A mail about a website claim of ${userId} could not be sent`, err);
  }
}
