import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";
import { ADMIN, signInAsAdmin } from "@/test/session";

afterEach(() => {
  vi.unstubAllGlobals();
});

async function submitLogin(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText("Email"), { target: { value: email } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: password } });
  fireEvent.click(screen.getByRole("button", { name: "Login" }));
}

describe("admin login", () => {
  it("stores key and role, toasts and opens the admin dashboard", async () => {
    const fetchMock = mockFetch(({ url }) =>
      url === "/api/admin/login" ? jsonResponse({ apiKey: "admin-key", user: ADMIN }) : jsonResponse(ADMIN),
    );
    renderApp("/admin-login");

    expect(await screen.findByLabelText("Email")).toHaveAttribute("type", "email");
    await submitLogin("admin@example.com", "secret-password");

    expect(await screen.findByText("Login successful!")).toBeInTheDocument();
    expect(await screen.findByRole("link", { name: /User Management/ })).toHaveAttribute("href", "/admin/users");
    expect(screen.getByRole("link", { name: /Billing Dashboard/ })).toHaveAttribute("href", "/admin/billing");
    expect(screen.getByRole("link", { name: /Product Versions/ })).toHaveAttribute("href", "/admin/product-versions");
    expect(window.localStorage.getItem("apiKey")).toBe("admin-key");
    expect(window.localStorage.getItem("userRole")).toBe("admin");
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      email: "admin@example.com",
      password: "secret-password",
    });
  });

  it("requires both fields before calling the server", async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    renderApp("/admin-login");

    await submitLogin("", "");

    expect(await screen.findAllByText("Required")).toHaveLength(2);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("toasts the server's error", async () => {
    mockFetch(() => jsonResponse({ error: "Invalid email or password" }, 401));
    renderApp("/admin-login");

    await submitLogin("admin@example.com", "wrong");

    expect(await screen.findByText("Invalid email or password")).toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBeNull();
  });

  it("toasts 'Login failed' when the server sends no message", async () => {
    mockFetch(() => new Response(null, { status: 500, statusText: "Internal Server Error" }));
    renderApp("/admin-login");

    await submitLogin("admin@example.com", "pw");

    expect(await screen.findByText("Login failed")).toBeInTheDocument();
  });
});

describe("admin logout", () => {
  it("forgets key and role, toasts and leads to the admin login", async () => {
    signInAsAdmin();
    mockFetch(() => jsonResponse(ADMIN));
    renderApp("/admin");

    expect(await screen.findByRole("link", { name: "Dynamic Content Manager" })).toHaveAttribute("href", "/");
    expect(screen.getByRole("link", { name: /SMTP/ })).toHaveAttribute("href", "/smtp-config");
    fireEvent.click(screen.getByRole("button", { name: "Logout" }));

    expect(await screen.findByText("Successfully logged out")).toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBeNull();
    expect(window.localStorage.getItem("userRole")).toBeNull();
    // Not '/', which is admin-only and would show the signed-out admin the 404.
    expect(await screen.findByRole("button", { name: "Login" }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByText("404 Page Not Found")).not.toBeInTheDocument();
  }, 20_000);

  it("carries the admin header on the product versions and SMTP screens", async () => {
    signInAsAdmin();
    mockFetch(({ url }) => (url === "/api/auth" ? jsonResponse(ADMIN) : jsonResponse([])));
    renderApp("/admin/product-versions");
    expect(await screen.findByRole("heading", { name: "Product Versions" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Logout" })).toBeInTheDocument();
  });
});
