import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";
import { storeSession } from "@/test/session";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("admin guard", () => {
  it("sends a visitor without a stored key to the 404 screen without asking the server", async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    renderApp("/admin");

    expect(await screen.findByText("404 Page Not Found")).toBeInTheDocument();
    expect(screen.getByText("Did you forget to add the page to the router?")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends a stored non-admin role to the 404 screen and keeps the customer's key", async () => {
    storeSession("customer-key", "user");
    const fetchMock = mockFetch(() => jsonResponse({}));
    renderApp("/");

    expect(await screen.findByText("404 Page Not Found")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(window.localStorage.getItem("apiKey")).toBe("customer-key");
  });

  it("forgets key and role when the server rejects the key, and leads to the admin login with a toast", async () => {
    storeSession("stale-key", "admin");
    mockFetch(() => jsonResponse({ error: "Invalid or missing API key" }, 401));
    renderApp("/admin");

    // The admin login's lazy chunk may take a while to be transformed under load.
    expect(await screen.findByRole("button", { name: "Login" }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText("Session ended")).toBeInTheDocument();
    expect(screen.getByText("Your admin session has ended. Please log in again.")).toBeInTheDocument();
    expect(screen.queryByText("404 Page Not Found")).not.toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBeNull();
    expect(window.localStorage.getItem("userRole")).toBeNull();
    expect(screen.queryByText("Error")).not.toBeInTheDocument();
  }, 20_000);

  it("forgets key and role when the server says the key is not an admin's", async () => {
    storeSession("user-key", "admin");
    mockFetch(() => jsonResponse({ userId: "u1", email: "u@example.com", role: "user" }));
    renderApp("/admin");

    expect(await screen.findByText("Session ended")).toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBeNull();
  });

  it("shows the screen once the server confirms an admin", async () => {
    storeSession("admin-key", "admin");
    const fetchMock = mockFetch(() => jsonResponse({ userId: "a1", email: "a@example.com", role: "admin" }));
    renderApp("/");

    expect(await screen.findByRole("link", { name: "Product Versions" })).toHaveAttribute("href", "/product-versions");
    expect(screen.getByRole("link", { name: "Admin Login" })).toHaveAttribute("href", "/admin-login");
    expect(screen.getByRole("link", { name: "SMTP Configuration" })).toHaveAttribute("href", "/smtp-config");
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/auth");
    expect((fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>)["X-API-Key"]).toBe("admin-key");
  });
});
