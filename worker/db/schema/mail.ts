/** @module Mail: the stored SMTP configuration and the mail that could not be sent. */
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { MailKind } from "#contract/responses";

/** The one stored SMTP configuration (row id 1). The password is AES-GCM encrypted with APP_SECRET. */
export const smtpConfig = sqliteTable("smtp_config", {
  id: integer("id").primaryKey(),
  host: text("host").notNull(),
  port: integer("port").notNull(),
  user: text("user").notNull(),
  passwordEncrypted: text("password_encrypted").notNull(),
  fromAddress: text("from_address").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * The newest mails that could not be sent (at most `MAIL_FAILURES_KEPT` rows: each insert drops the older ones),
 * for the admin overview; `blocksMail` marks a failure of the transport itself, which answers mail requests for a
 * while (docs/decisions.md, "Issue 39: mail that fails is told").
 */
export const mailFailures = sqliteTable("mail_failures", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  at: integer("at", { mode: "timestamp_ms" }).notNull(),
  kind: text("kind").$type<MailKind>().notNull(),
  /** Masked when stored: the full address is never kept here. */
  recipient: text("recipient").notNull(),
  error: text("error").notNull(),
  blocksMail: integer("blocks_mail", { mode: "boolean" }).notNull(),
});
