/** @module What admins did to accounts (impersonations, key revocations), kept for the console to show. */
import { count, desc, eq } from "drizzle-orm";
import type { AuditEvent } from "#contract/responses";
import type { Db } from "../db/client";
import { auditEvents, type User } from "../db/schema";
import type { Page } from "#contract/page";
import { pageOf } from "./page";

export type AuditAction = (typeof auditEvents.$inferSelect)["action"];

export async function recordAuditEvent(db: Db, action: AuditAction, actor: User, target: User): Promise<void> {
  await db.insert(auditEvents).values({
    action,
    actorId: actor.id,
    actorEmail: actor.email,
    targetId: target.id,
    targetEmail: target.email,
  });
}

/** One page of events, newest first, and how many there are in all. */
export async function listAuditEvents(
  db: Db,
  query: { action?: AuditAction; limit: number; offset: number },
): Promise<Page<AuditEvent>> {
  const where = query.action ? eq(auditEvents.action, query.action) : undefined;
  return pageOf(
    db,
    db
      .select()
      .from(auditEvents)
      .where(where)
      .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(auditEvents).where(where),
    (r) => ({
      id: r.id,
      action: r.action,
      actorEmail: r.actorEmail,
      targetId: r.targetId,
      targetEmail: r.targetEmail,
      createdAt: r.createdAt.toISOString(),
    }),
  );
}
