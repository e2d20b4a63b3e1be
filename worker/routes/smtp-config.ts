/** @module `GET/POST /api/smtp-config`: the stored SMTP configuration, admins only. */
import { Hono } from "hono";
import type { MessageResponse, SmtpConfig } from "#contract/responses";
import { smtpConfigBody } from "#contract/schemas";
import { requireAdmin } from "../auth/middleware";
import type { AppEnv } from "../env";
import { validate } from "../http/validate";
import { secretKeys } from "../lib/crypto";
import { getSmtpSettings, saveSmtpSettings } from "../models/smtp-config";

export const smtpConfigRoutes = new Hono<AppEnv>()
  .use(requireAdmin)
  .get("/", async (c) => {
    const settings = await getSmtpSettings(c.var.db, secretKeys(c.env));
    return c.json<SmtpConfig>(settings ?? { host: "", port: null, user: "", password: "", from: "" });
  })
  .post("/", validate("json", smtpConfigBody), async (c) => {
    await saveSmtpSettings(c.var.db, secretKeys(c.env), c.req.valid("json"));
    return c.json<MessageResponse>({ message: "SMTP configuration updated successfully" });
  });
