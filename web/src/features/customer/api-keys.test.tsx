/**
 * Keys in the SPA: a customer rotates their key, an admin revokes a customer's or renews their own (never sees
 * another admin's), the console offers no "Login" as an admin, and a mailed sign-in link signs a customer in.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminUser, AdminUserDetail, CustomerDashboard } from "#contract/responses";
import { jsonResponse, mockApi } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";
import { ADMIN, signInAsAdmin, storeSession } from "@/test/session";

afterEach(() => {
  vi.unstubAllGlobals();
});

const DASHBOARD: CustomerDashboard = {
  userId: "u1",
  email: "ann@example.com",
  apiKey: "key-old",
  jsSnippet: "<script></script>",
  productVersion: null,
  limits: { websitesLimit: null, eventsLimit: null, dynamicContentLimit: null },
  billingPeriodStart: null,
  billingPeriodEnd: null,
  usage: {
    activeWebsites: 0,
    dynamicEvents: 0,
    contentGenerations: 0,
    notBilled: { requests: 0, contentGenerations: 0 },
  },
  subscription: null,
};

const adminUser = (overrides: Partial<AdminUserDetail> & Pick<AdminUser, "userId" | "email">): AdminUserDetail => ({
  role: "user",
  emailVerified: true,
  isActive: true,
  createdAt: "2025-01-01T00:00:00.000Z",
  productVersionId: null,
  productVersionName: null,
  profileStatus: null,
  totalRequests: 0,
  periodRequests: 0,
  uniqueUrlsCount: 0,
  dynamicContentCount: 0,
  eventsUsed: 0,
  websitesUsed: 0,
  dynamicContentDeliveryUsed: 0,
  requestLimit: null,
  uniqueUrlLimit: null,
  eventsLimit: null,
  dynamicContentLimit: null,
  limitOverrides: { uniqueUrlLimit: null, dynamicContentLimit: null },
  apiKey: null,
  billingPeriodStart: null,
  billingPeriodEnd: null,
  mappings: [],
  ...overrides,
});

const ANN = adminUser({ userId: "u-ann", email: "ann@example.com", apiKey: "key-ann" });
const ME = adminUser({ userId: "a1", email: "admin@example.com", role: "admin", apiKey: "admin-key" });
const OTHER = adminUser({ userId: "a2", email: "other@example.com", role: "admin", apiKey: null });
const USERS = [ANN, ME, OTHER];

function mockAdminApi() {
  return mockApi(({ method, url }) => {
    if (url === "/api/auth") return jsonResponse(ADMIN);
    if (url === "/api/admin/users" && method === "GET") return jsonResponse(USERS.map((u) => ({ ...u, apiKey: null })));
    if (url === "/api/admin/product-versions") return jsonResponse([]);
    if (url === "/api/admin/mappings") return jsonResponse([]);
    for (const u of USERS) {
      if (url === `/api/admin/users/${u.userId}` && method === "GET") return jsonResponse(u);
      if (url === `/api/admin/users/${u.userId}/transactions`) return jsonResponse([]);
    }
    if (url === "/api/admin/users/u-ann/revoke-api-key") return jsonResponse({ message: "API key revoked" });
    if (url === "/api/user/api-key/rotate") return jsonResponse({ apiKey: "admin-key-new" });
    return undefined;
  });
}

async function selectUser(email: string) {
  fireEvent.click(await screen.findByText(email));
  await screen.findByRole("tab", { name: "Allgemeine Informationen" });
}

async function confirm(trigger: string, confirmLabel: string) {
  fireEvent.click(screen.getByRole("button", { name: trigger }));
  const dialog = await screen.findByRole("alertdialog");
  fireEvent.click(within(dialog).getByRole("button", { name: confirmLabel }));
}

describe("the customer's key", () => {
  it("is rotated after a confirmation; the new key is stored and shown", async () => {
    storeSession("key-old", "user");
    let current = DASHBOARD;
    const calls = mockApi(({ method, url }) => {
      if (url === "/api/user/dashboard") return jsonResponse(current);
      if (method === "POST" && url === "/api/user/api-key/rotate") {
        current = { ...DASHBOARD, apiKey: "key-new" };
        return jsonResponse({ apiKey: "key-new" });
      }
      return undefined;
    });
    renderApp("/user-dashboard");

    expect(await screen.findByText("key-old")).toBeInTheDocument();
    await confirm("Rotate API key", "Rotate key");

    expect(await screen.findByText("API key rotated")).toBeInTheDocument();
    expect(await screen.findByText("key-new")).toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBe("key-new");
    expect(calls.filter((c) => c.method === "POST").map((c) => c.url)).toEqual(["/api/user/api-key/rotate"]);
  });

  it("is kept when the confirmation is cancelled; the focus returns to the button", async () => {
    storeSession("key-old", "user");
    const calls = mockApi(({ url }) => (url === "/api/user/dashboard" ? jsonResponse(DASHBOARD) : undefined));
    renderApp("/user-dashboard");

    const button = await screen.findByRole("button", { name: "Rotate API key" });
    button.focus();
    fireEvent.click(button);
    const dialog = await screen.findByRole("alertdialog", { name: "Rotate your API key?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));

    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute("aria-expanded", "false");
    expect(calls.filter((c) => c.method === "POST")).toEqual([]);
    expect(window.localStorage.getItem("apiKey")).toBe("key-old");
  });

  it("cannot be rotated by an admin acting as the customer", async () => {
    storeSession("acting-key", "user");
    window.localStorage.setItem("adminApiKey", "admin-key");
    window.localStorage.setItem("impersonatedUserEmail", "ann@example.com");
    mockApi(({ url }) => (url === "/api/user/dashboard" ? jsonResponse(DASHBOARD) : undefined));
    renderApp("/user-dashboard");

    expect(await screen.findByText("key-old")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Rotate API key" })).not.toBeInTheDocument();
  });
});

describe("keys in the admin console", () => {
  it("revokes a customer's key after 'Sind Sie sicher?'", async () => {
    signInAsAdmin();
    const calls = mockAdminApi();
    renderApp("/admin/users");
    await selectUser("ann@example.com");

    await confirm("API-Key widerrufen", "Widerrufen");

    expect(await screen.findByText("API-Key widerrufen", { selector: "div" })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === "POST").map((c) => c.url)).toEqual([
      "/api/admin/users/u-ann/revoke-api-key",
    ]);
  });

  it("renews the admin's own key and keeps it in the browser", async () => {
    signInAsAdmin();
    mockAdminApi();
    renderApp("/admin/users");
    await selectUser("admin@example.com");

    expect(screen.queryByRole("button", { name: "API-Key widerrufen" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "API-Key per E-Mail senden" })).not.toBeInTheDocument();
    await confirm("API-Key erneuern", "Erneuern");

    await waitFor(() => expect(window.localStorage.getItem("apiKey")).toBe("admin-key-new"));
    expect(window.localStorage.getItem("userRole")).toBe("admin");
  });

  it("shows nothing of another admin's key and offers no 'Login' as an admin", async () => {
    signInAsAdmin();
    mockAdminApi();
    renderApp("/admin/users");

    expect(await screen.findByRole("button", { name: "Als ann@example.com einloggen" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Als other@example.com einloggen" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Als admin@example.com einloggen" })).not.toBeInTheDocument();

    await selectUser("other@example.com");
    expect(screen.queryByRole("button", { name: "API-Key erneuern" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "API-Key widerrufen" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Verifizierungs-E-Mail erneut senden" })).not.toBeInTheDocument();
  });
});

describe("a mailed sign-in link", () => {
  it("signs the customer in and opens their dashboard", async () => {
    const calls = mockApi(({ url }) => {
      if (url === "/api/verify-email?token=tok%2Fen") {
        return jsonResponse({ message: "Email verified successfully", email: "ann@example.com", apiKey: "key-ann" });
      }
      if (url === "/api/user/dashboard") return jsonResponse({ ...DASHBOARD, apiKey: "key-ann" });
      return undefined;
    });
    renderApp("/login?token=tok%2Fen");

    expect(await screen.findByText("key-ann")).toBeInTheDocument();
    expect(screen.getByText("Login successful!")).toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBe("key-ann");
    expect(window.localStorage.getItem("userRole")).toBe("user");
    expect(calls.filter((c) => c.url.startsWith("/api/verify-email"))).toHaveLength(1);
  });

  it("says when the link is invalid or expired, and offers a new code", async () => {
    mockApi(({ url }) =>
      url.startsWith("/api/verify-email")
        ? jsonResponse({ error: "Invalid or expired verification link" }, 400)
        : undefined,
    );
    renderApp("/login?token=old");

    expect(await screen.findByText("Invalid or expired verification link")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("link", { name: "Request a new code" }));
    expect(await screen.findByRole("button", { name: "Send Code" })).toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBeNull();
  });
});
