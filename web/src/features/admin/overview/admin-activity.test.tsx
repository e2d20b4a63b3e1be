import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AuditEvent } from "#contract/responses";
import { jsonResponse, mockApi } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";
import { ADMIN, signInAsAdmin } from "@/test/session";

afterEach(() => {
  vi.unstubAllGlobals();
});

const event = (id: number, targetEmail: string, action: AuditEvent["action"] = "impersonate"): AuditEvent => ({
  id,
  action,
  actorEmail: "admin@example.com",
  targetId: `u${id}`,
  targetEmail,
  createdAt: "2026-11-20T09:30:00.000Z",
});

function withTotal(events: AuditEvent[], total: number) {
  const res = jsonResponse(events);
  res.headers.set("X-Total-Count", String(total));
  return res;
}

describe("admin dashboard: Admin Activity", () => {
  it("lists impersonations and revocations (who, whom, when) and pages through them on the server", async () => {
    signInAsAdmin();
    const calls = mockApi(({ url }) => {
      if (url === "/api/auth") return jsonResponse(ADMIN);
      if (url === "/api/admin/overview")
        return jsonResponse({ totalUsers: 1, revenueLast7Days: 0, revenueCurrentYear: 0 });
      if (url === "/api/admin/audit-events?offset=0")
        return withTotal([event(2, "ann@example.com", "revoke-api-key"), event(1, "bob@example.com")], 22);
      if (url === "/api/admin/audit-events?offset=20") return withTotal([event(0, "cid@example.com")], 22);
      return undefined;
    });
    renderApp("/admin");

    const section = (await screen.findByRole("heading", { name: "Admin Activity" })).closest("section")!;
    const rows = await within(section).findAllByRole("row");
    expect(rows.slice(1).map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent))).toEqual([
      ["20.11.2026 09:30", "admin@example.com", "Revoked the API key", "ann@example.com"],
      ["20.11.2026 09:30", "admin@example.com", "Logged in as the user", "bob@example.com"],
    ]);
    expect(within(section).getByText("1–20 of 22")).toBeInTheDocument();

    fireEvent.click(within(section).getByRole("button", { name: "Next page" }));
    expect(await within(section).findByText("cid@example.com")).toBeInTheDocument();
    expect(within(section).getByText("21–22 of 22")).toBeInTheDocument();
    expect(calls.find((c) => c.url === "/api/admin/audit-events?offset=20")?.limit).toBe(20);
  });

  it("says when there is nothing yet, and when the list cannot be loaded", async () => {
    signInAsAdmin();
    mockApi(({ url }) => {
      if (url === "/api/auth") return jsonResponse(ADMIN);
      if (url === "/api/admin/overview")
        return jsonResponse({ totalUsers: 0, revenueLast7Days: 0, revenueCurrentYear: 0 });
      if (url.startsWith("/api/admin/audit-events")) return withTotal([], 0);
      return undefined;
    });
    renderApp("/admin");
    expect(await screen.findByText("No admin activity yet.")).toBeInTheDocument();
  });

  it("reports a failed load in the section", async () => {
    signInAsAdmin();
    mockApi(({ url }) => {
      if (url === "/api/auth") return jsonResponse(ADMIN);
      if (url.startsWith("/api/admin/audit-events")) return jsonResponse({ error: "down" }, 500);
      return undefined;
    });
    renderApp("/admin");
    expect(await screen.findByText("The admin activity could not be loaded.")).toBeInTheDocument();
  });
});
