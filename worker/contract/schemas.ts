/**
 * @module Request bodies and queries, with SPEC.md §5's messages. The Worker validates with these and the
 * SPA's forms use the same ones, so both sides say the same thing.
 */
import { z } from "zod";

export const emailSchema = z.string().trim().email("Please enter a valid email address");

export const registerBody = z.object({ email: emailSchema });

export const loginRequestBody = z.object({ email: emailSchema });

export const loginVerifyBody = z.object({
  code: z.string().length(5, "Code must be exactly 5 digits").regex(/^\d+$/, "Code must contain only numbers"),
});

export const adminLoginBody = z.object({
  email: z.string().min(1, "Required").email("Please enter a valid email address"),
  password: z.string().min(1, "Required"),
});

export const passwordSchema = z.string().min(8, "Password must be at least 8 characters");

export const mappingBody = z.object({
  url: z.string().trim().url("Please enter a valid URL"),
  htmlContent: z.string(),
});

export const mappingStatusBody = z.object({ status: z.enum(["published", "unpublished"]) });

export const smtpConfigBody = z.object({
  host: z.string().trim().min(1, "SMTP host is required"),
  port: z.union([z.string(), z.number()]).transform((v, ctx) => {
    const s = String(v).trim();
    if (!/^\d+$/.test(s) || Number(s) < 1 || Number(s) > 65535) {
      ctx.addIssue({ code: "custom", message: "Port must be a number" });
      return z.NEVER;
    }
    return Number(s);
  }),
  user: z.string().trim().min(1, "SMTP username is required"),
  password: z.string().min(1, "SMTP password is required"),
  from: z.string().trim().email("Invalid from email address"),
});

export const analyticsQuery = z.object({
  searchTerm: z.string().optional(),
  sortBy: z.enum(["url", "timestamp"]).optional(),
  sortDirection: z.enum(["asc", "desc"]).optional(),
});

export type MappingBody = z.infer<typeof mappingBody>;
export type SmtpConfigBody = z.input<typeof smtpConfigBody>;
