import { describe, expect, it } from "vitest";
import { maskEmail } from "../lib/mask-email";
import { db } from "../test/helpers";
import {
  endMailOutage,
  latestMailFailures,
  MAIL_FAILURES_KEPT,
  MAIL_FAILURES_SHOWN,
  MAIL_OUTAGE_MS,
  mailOutageUntil,
  recordMailFailure,
} from "./mail-failures";

const failure = (n: number, blocksMail = false) => ({
  kind: "login-code" as const,
  to: `person${n}@example.com`,
  error: `SMTP: failure ${n}`,
  blocksMail,
});

describe("mail failures", () => {
  it("keeps the newest MAIL_FAILURES_KEPT and lists the newest first, recipients masked", async () => {
    const now = Date.UTC(2026, 10, 27, 12);
    for (let n = 1; n <= MAIL_FAILURES_KEPT + 3; n++) await recordMailFailure(db(), failure(n), now + n);

    const kept = await db().query.mailFailures.findMany();
    expect(kept).toHaveLength(MAIL_FAILURES_KEPT);
    expect(kept.map((row) => row.error)).not.toContain("SMTP: failure 3");
    expect(JSON.stringify(kept)).not.toContain("person");

    const shown = await latestMailFailures(db());
    expect(shown).toHaveLength(MAIL_FAILURES_SHOWN);
    expect(shown[0]).toEqual({
      at: new Date(now + MAIL_FAILURES_KEPT + 3).toISOString(),
      kind: "login-code",
      recipient: "pe•••@example.com",
      error: `SMTP: failure ${MAIL_FAILURES_KEPT + 3}`,
    });
  });

  it("holds mail back for MAIL_OUTAGE_MS after a transport failure, not after a refused recipient", async () => {
    const now = Date.UTC(2026, 10, 27, 12);
    await recordMailFailure(db(), failure(1, false), now);
    expect(await mailOutageUntil(db(), now + 1)).toBeNull();

    await recordMailFailure(db(), failure(2, true), now);
    expect(await mailOutageUntil(db(), now + 1)).toBe(now + MAIL_OUTAGE_MS);
    expect(await mailOutageUntil(db(), now + MAIL_OUTAGE_MS)).toBeNull();

    await endMailOutage(db());
    expect(await mailOutageUntil(db(), now + 1)).toBeNull();
    expect(await latestMailFailures(db())).toHaveLength(2);
  });

  it("masks an address to its first two characters and the domain", () => {
    expect(maskEmail("anna.smith@example.com")).toBe("an•••@example.com");
    expect(maskEmail("ab@example.com")).toBe("a•••@example.com");
    expect(maskEmail("a@example.com")).toBe("a•••@example.com");
    expect(maskEmail("no-at-sign")).toBe("•••");
  });
});
