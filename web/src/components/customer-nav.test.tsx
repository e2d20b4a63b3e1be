import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { siteConfigKeys } from "@/queries/site-config";
import { statsKeys } from "@/queries/stats";
import { userDashboardKeys } from "@/queries/user-dashboard";
import { mockApi, jsonResponse } from "@/test/fetch-mock";
import { customerDashboard } from "@/test/fixtures";
import { renderApp } from "@/test/render-app";
import { storeSession } from "@/test/session";

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The customer API: Ann's dashboard, no mappings, empty stats. */
function mockCustomerApi() {
  return mockApi(({ url }) => {
    if (url === "/api/user/dashboard") return jsonResponse(customerDashboard());
    if (url === "/api/mappings?group=url") return jsonResponse([]);
    if (url === "/api/user/stats") return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
    return undefined;
  });
}

function startImpersonating() {
  storeSession("key-ann-123", "user");
  window.localStorage.setItem("adminApiKey", "admin-key");
  window.localStorage.setItem("impersonatedUserEmail", "ann@example.com");
}

describe("between the customer screens", () => {
  it.each([
    { path: "/user-dashboard", label: "Manage mappings", href: "/dashboard", heading: "Dynamic Content Manager" },
    { path: "/dashboard", label: "My account", href: "/user-dashboard", heading: "Customer Dashboard" },
  ])("links $path to $href with $label, and the link opens it", async ({ path, label, href, heading }) => {
    storeSession("key-ann-123", "user");
    mockCustomerApi();
    renderApp(path);

    const link = screen.getByRole("link", { name: label });
    expect(link.tagName).toBe("A");
    expect(link).toHaveAttribute("href", href);

    fireEvent.click(link);
    expect(await screen.findByRole("heading", { name: heading })).toBeInTheDocument();
  });

  it("keeps the link but offers no Logout to a visitor without a key", () => {
    mockApi(({ url }) =>
      url === "/api/mappings?group=url" ? jsonResponse({ error: "Invalid or missing API key" }, 401) : undefined,
    );
    renderApp("/dashboard");

    expect(screen.getByRole("link", { name: "My account" })).toHaveAttribute("href", "/user-dashboard");
    expect(screen.queryByRole("button", { name: "Logout" })).not.toBeInTheDocument();
  });
});

describe("customer logout", () => {
  it.each(["/user-dashboard", "/dashboard"])(
    "on %s forgets the key and role, drops the cache, toasts and opens /login",
    async (path) => {
      storeSession("key-ann-123", "user");
      mockCustomerApi();
      const { queryClient } = renderApp(path);
      // An answer only a signed-in customer gets.
      const cachedKey = path === "/dashboard" ? statsKeys.all : userDashboardKeys.all;
      await vi.waitFor(() => expect(queryClient.getQueryData(cachedKey)).toBeDefined());

      fireEvent.click(screen.getByRole("button", { name: "Logout" }));

      expect(await screen.findByText("Successfully logged out")).toBeInTheDocument();
      expect(await screen.findByRole("button", { name: "Send Code" })).toBeInTheDocument();
      expect(window.localStorage.getItem("apiKey")).toBeNull();
      expect(window.localStorage.getItem("userRole")).toBeNull();
      expect(queryClient.getQueryData(cachedKey)).toBeUndefined();
      // The site configuration is the same for everyone and stays.
      expect(queryClient.getQueryData(siteConfigKeys.all)).toBeDefined();
    },
  );
});

describe("while an admin impersonates a customer", () => {
  it("keeps the bar on /dashboard too, the way back to the console", async () => {
    startImpersonating();
    mockCustomerApi();
    renderApp("/dashboard");

    expect(screen.getByText("Eingeloggt als ann@example.com")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Zurück zum Admin-Dashboard" })).toBeInTheDocument();
  });

  it("logs the admin out entirely and opens the admin login", async () => {
    startImpersonating();
    mockCustomerApi();
    renderApp("/user-dashboard");
    await screen.findByText("key-ann-123");

    fireEvent.click(screen.getByRole("button", { name: "Logout" }));

    expect(await screen.findByText("Successfully logged out")).toBeInTheDocument();
    expect(await screen.findByLabelText("Password")).toBeInTheDocument();
    for (const key of ["apiKey", "userRole", "adminApiKey", "impersonatedUserEmail"]) {
      expect(window.localStorage.getItem(key)).toBeNull();
    }
    expect(screen.queryByText(/Eingeloggt als/)).not.toBeInTheDocument();
  });
});
