/**
 * @module `GET/POST/DELETE /api/smtp-config`: the stored SMTP configuration, admins only. A POST is tried first
 * (email/smtp-check.ts) and stored only when it works; DELETE goes back to MailChannels or the console.
 */
import { Hono } from "hono";
import type { MessageResponse, SmtpConfig } from "#contract/responses";
import { smtpConfigBody } from "#contract/schemas";
import { requireAdmin } from "../auth/middleware";
import { assertSmtpWorks } from "../email/smtp-check";
import type { AppEnv } from "../env";
import { validate } from "../http/validate";
import { secretKeys } from "../lib/crypto";
import { endMailOutage } from "../models/mail-failures";
import { deleteSmtpSettings, getSmtpSettings, saveSmtpSettings } from "../models/smtp-config";

export const smtpConfigRoutes = new Hono<AppEnv>()
  .use(requireAdmin)
  .get("/", async (c) => {
    const settings = await getSmtpSettings(c.var.db, secretKeys(c.env));
    return c.json<SmtpConfig>(settings ?? { host: "", port: null, user: "", password: "", from: "" });
  })
  .post("/", validate("json", smtpConfigBody), async (c) => {
    const { testTo, ...settings } = c.req.valid("json");
    await assertSmtpWorks(settings, testTo);
    await saveSmtpSettings(c.var.db, secretKeys(c.env), settings);
    await endMailOutage(c.var.db);
    return c.json<MessageResponse>({ message: "SMTP configuration updated successfully" });
  })
  .delete("/", async (c) => {
    await deleteSmtpSettings(c.var.db);
    await endMailOutage(c.var.db);
    return c.json<MessageResponse>({ message: "SMTP configuration removed" });
  });
