/** @module The stored SMTP configuration (one row). The password is kept encrypted with APP_SECRET. */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { smtpConfig } from "../db/schema";
import { encryptSecret, openSecret, type SecretKeys } from "../lib/crypto";

export interface SmtpSettings {
  host: string;
  port: number;
  user: string;
  password: string;
  from: string;
}

const ROW_ID = 1;

export async function getSmtpSettings(db: Db, keys: SecretKeys): Promise<SmtpSettings | null> {
  const row = await db.query.smtpConfig.findFirst({ where: eq(smtpConfig.id, ROW_ID) });
  if (!row) return null;
  const { plaintext: password, stale } = await openSecret(keys, row.passwordEncrypted);
  if (stale) {
    const passwordEncrypted = await encryptSecret(keys.current, password);
    await db.update(smtpConfig).set({ passwordEncrypted }).where(eq(smtpConfig.id, ROW_ID));
  }
  return { host: row.host, port: row.port, user: row.user, password, from: row.fromAddress };
}

/** Whether a configuration is stored, without opening its password. */
export async function hasSmtpSettings(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: smtpConfig.id }).from(smtpConfig).where(eq(smtpConfig.id, ROW_ID)).limit(1);
  return row !== undefined;
}

/** Removes the stored configuration: mail goes by MailChannels or the console again. */
export async function deleteSmtpSettings(db: Db): Promise<void> {
  await db.delete(smtpConfig).where(eq(smtpConfig.id, ROW_ID));
}

export async function saveSmtpSettings(db: Db, keys: SecretKeys, settings: SmtpSettings): Promise<void> {
  const values = {
    host: settings.host,
    port: settings.port,
    user: settings.user,
    passwordEncrypted: await encryptSecret(keys.current, settings.password),
    fromAddress: settings.from,
    updatedAt: new Date(),
  };
  await db
    .insert(smtpConfig)
    .values({ id: ROW_ID, ...values })
    .onConflictDoUpdate({ target: smtpConfig.id, set: values });
}
