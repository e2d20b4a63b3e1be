import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminOverview, AnalyticsHealth } from "#contract/responses";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";
import { ADMIN, signInAsAdmin } from "@/test/session";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Page views counted as they come: the overview says nothing about them. */
const COUNTING: AnalyticsHealth = {
  oldestPendingSeconds: 20,
  failingHandoff: null,
  quarantinedCustomers: 0,
  quarantined: [],
  lost: [],
};

// Intl separates the amount from the sign with a no-break space.
const NBSP = "\u00a0";

/** The overview answer waits until the test calls `resolve`. */
function mockApiWithPendingOverview() {
  let resolve: (overview: AdminOverview) => void = () => {};
  const overview = new Promise<AdminOverview>((r) => (resolve = r));
  const fetchMock = mockFetch(async ({ url }) => {
    if (url === "/api/admin/overview") return jsonResponse(await overview);
    return jsonResponse(ADMIN);
  });
  return { fetchMock, resolve: (body: AdminOverview) => resolve(body) };
}

describe("admin dashboard System Overview", () => {
  it("shows a spinner while loading, then the user count and the revenue in the billing currency", async () => {
    signInAsAdmin();
    const { fetchMock, resolve } = mockApiWithPendingOverview();
    renderApp("/admin");

    const section = (await screen.findByRole("heading", { name: "System Overview" })).closest("section")!;
    expect(within(section).getByRole("status", { name: "Loading" })).toBeInTheDocument();
    expect(within(section).queryByText("Total Users")).not.toBeInTheDocument();

    resolve({
      totalUsers: 42,
      revenueLast7Days: 1234.5,
      revenueCurrentYear: 98765,
      currency: "USD",
      analytics: COUNTING,
      mailFailures: [],
    });

    expect(await within(section).findByText("Total Users")).toBeInTheDocument();
    expect(within(section).queryByRole("status")).not.toBeInTheDocument();
    // Card titles and their figures, in order; the raw text keeps Intl's no-break space.
    const cards = within(section).getAllByRole("heading", { level: 3 });
    expect(cards.map((title) => [title.textContent, title.parentElement?.nextElementSibling?.textContent])).toEqual([
      ["Total Users", "42"],
      ["Revenue Last 7 Days", `1.234,50${NBSP}$`],
      ["Revenue Current Year", `98.765,00${NBSP}$`],
    ]);
    expect(fetchMock.mock.calls.some(([url]) => url === "/api/admin/overview")).toBe(true);
  });

  it("shows the revenue in the currency the server names", async () => {
    signInAsAdmin();
    const { resolve } = mockApiWithPendingOverview();
    renderApp("/admin");
    const section = (await screen.findByRole("heading", { name: "System Overview" })).closest("section")!;
    resolve({
      totalUsers: 1,
      revenueLast7Days: 10,
      revenueCurrentYear: 20,
      currency: "EUR",
      analytics: COUNTING,
      mailFailures: [],
    });
    const card = (await within(section).findByRole("heading", { name: "Revenue Last 7 Days" })).parentElement!;
    expect(card.nextElementSibling?.textContent).toBe(`10,00${NBSP}€`);
  });

  it("keeps the header and the three tiles", async () => {
    signInAsAdmin();
    mockApiWithPendingOverview();
    renderApp("/admin");

    expect(await screen.findByRole("link", { name: "Dynamic Content Manager" })).toHaveAttribute("href", "/");
    expect(screen.getByRole("button", { name: "Logout" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /User Management/ })).toHaveAttribute("href", "/admin/users");
    expect(screen.getByRole("link", { name: /Billing Dashboard/ })).toHaveAttribute("href", "/admin/billing");
    expect(screen.getByRole("link", { name: /Product Versions/ })).toHaveAttribute("href", "/admin/product-versions");
  });

  it("says nothing of page view counting while it keeps up, and names the customers set aside and why when not", async () => {
    signInAsAdmin();
    const { resolve } = mockApiWithPendingOverview();
    renderApp("/admin");
    const section = (await screen.findByRole("heading", { name: "System Overview" })).closest("section")!;
    resolve({
      totalUsers: 2,
      revenueLast7Days: 0,
      revenueCurrentYear: 0,
      currency: "USD",
      analytics: {
        oldestPendingSeconds: 15 * 60,
        failingHandoff: { failures: 3, lastError: "reducer reset" },
        quarantinedCustomers: 1,
        quarantined: [
          {
            userId: "u1",
            email: "evil@example.com",
            views: 3,
            reason: "malformed JSON",
            since: "2026-11-27T10:00:00.000Z",
            retrying: false,
          },
        ],
        lost: [
          { day: "2026-11-27", reason: "enqueue", items: 2 },
          { day: "2026-11-26", reason: "enqueue", items: 10 },
          { day: "2026-11-26", reason: "too-old", items: 1 },
        ],
      },
      mailFailures: [],
    });
    const notice = await within(section).findByRole("alert", { name: "Page view counting" });
    expect(notice).toHaveTextContent(
      "Page views of 1 customer are set aside because counting them fails: evil@example.com (3 views, waiting for release: malformed JSON)",
    );
    expect(notice).toHaveTextContent("Handing page views to the reducers failed 3 times: reducer reset");
    expect(notice).toHaveTextContent("Counting is behind: the oldest waiting page view is 15 minutes old.");
    expect(notice).toHaveTextContent(
      "13 page views and goals of the last 7 days could not be counted: 12 refused by the queue, 1 too old to count exactly (kept in the archive).",
    );
  });

  it("shows no notice while page views are counted", async () => {
    signInAsAdmin();
    const { resolve } = mockApiWithPendingOverview();
    renderApp("/admin");
    const section = (await screen.findByRole("heading", { name: "System Overview" })).closest("section")!;
    resolve({
      totalUsers: 1,
      revenueLast7Days: 0,
      revenueCurrentYear: 0,
      currency: "USD",
      analytics: COUNTING,
      mailFailures: [],
    });
    expect(await within(section).findByText("Total Users")).toBeInTheDocument();
    expect(within(section).queryByRole("alert")).not.toBeInTheDocument();
  });

  it("lists the last mails that could not be sent: when, which mail, the masked recipient and why", async () => {
    signInAsAdmin();
    const { resolve } = mockApiWithPendingOverview();
    renderApp("/admin");
    const section = (await screen.findByRole("heading", { name: "System Overview" })).closest("section")!;
    const at = new Date(2026, 10, 27, 14, 5).toISOString();
    resolve({
      totalUsers: 1,
      revenueLast7Days: 0,
      revenueCurrentYear: 0,
      currency: "USD",
      analytics: COUNTING,
      mailFailures: [
        {
          at,
          kind: "login-code",
          recipient: "an•••@example.com",
          error: "SMTP smtp.x:587: the login was refused: 535 bad credentials",
        },
      ],
    });
    const notice = await within(section).findByRole("alert", { name: "Mail that could not be sent" });
    const [, row] = within(notice).getAllByRole("row");
    expect(
      within(row!)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual([
      "27.11.2026 14:05",
      "Login code",
      "an•••@example.com",
      "SMTP smtp.x:587: the login was refused: 535 bad credentials",
    ]);
  });
});
