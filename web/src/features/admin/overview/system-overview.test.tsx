import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminOverview } from "#contract/responses";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";
import { ADMIN, signInAsAdmin } from "@/test/session";

afterEach(() => {
  vi.unstubAllGlobals();
});

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

    resolve({ totalUsers: 42, revenueLast7Days: 1234.5, revenueCurrentYear: 98765, currency: "USD" });

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
    resolve({ totalUsers: 1, revenueLast7Days: 10, revenueCurrentYear: 20, currency: "EUR" });
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
});
