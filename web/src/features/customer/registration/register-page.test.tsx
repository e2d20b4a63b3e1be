import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { siteConfig } from "@/test/fixtures";
import { renderApp } from "@/test/render-app";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("register page A", () => {
  it("validates the email, registers, then asks to check the inbox", async () => {
    const fetchMock = mockFetch(() => jsonResponse({ message: "sent", email: "ann@example.com" }));
    renderApp("/register");

    expect(screen.getByText("Register for API Access")).toBeInTheDocument();
    const page = within(screen.getByRole("main"));
    expect(page.getByRole("link", { name: "Terms of Service" })).toBeInTheDocument();
    expect(page.getByRole("link", { name: "Privacy Policy" })).toBeInTheDocument();
    expect(page.getByRole("link", { name: "Login" })).toHaveAttribute("href", "/login");

    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "not-an-email" } });
    fireEvent.click(screen.getByRole("button", { name: "Register" }));
    expect(await screen.findByText("Please enter a valid email address")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "ann@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Register" }));

    expect(await screen.findByText("Check Your Email")).toBeInTheDocument();
    expect(screen.getByText(/expires in 24 hours/)).toBeInTheDocument();
    expect(screen.getByText(/spam/)).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/register");
    expect(init?.method).toBe("POST");
    expect(JSON.parse(String(init?.body))).toEqual({ email: "ann@example.com" });
  });

  it("toasts the server's error when registering fails", async () => {
    mockFetch(() => jsonResponse({ error: "Too many requests" }, 429));
    renderApp("/register");

    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "ann@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Register" }));

    expect(await screen.findByText("Too many requests")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    expect(screen.getByText("Register for API Access")).toBeInTheDocument();
  });

  it("says the email could not be sent, never 'sent', when the mail cannot go out", async () => {
    mockFetch(() => jsonResponse({ error: "We could not send the email; please try again later" }, 503));
    renderApp("/register");

    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "ann@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Register" }));

    expect(await screen.findByText("We could not send the email; please try again later")).toBeInTheDocument();
    expect(screen.queryByText("Verification email sent")).not.toBeInTheDocument();
    expect(screen.getByText("Register for API Access")).toBeInTheDocument();
  });

  it("verifies a ?token= link once, stores the api key and offers the login", async () => {
    const fetchMock = mockFetch(() =>
      jsonResponse({ message: "ok", email: "ann@example.com", apiKey: "key-abc", keyMailed: true }),
    );
    window.history.replaceState(null, "", "/verify-email?token=tok%2B1");
    renderApp("/verify-email?token=tok%2B1");

    expect(await screen.findByText("Registration Successful")).toBeInTheDocument();
    // The used token has left the address bar.
    expect(window.location.pathname + window.location.search).toBe("/verify-email");
    expect(screen.getByRole("link", { name: "Go to Login" })).toHaveAttribute("href", "/login");
    expect(window.localStorage.getItem("apiKey")).toBe("key-abc");
    expect(await screen.findByText("API key stored successfully!")).toBeInTheDocument();
    // StrictMode runs effects twice; the single-use token must still be sent once.
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(["/api/verify-email?token=tok%2B1"]);

    // Signing in dropped the old session's answers, but not the site configuration: the next screen has it.
    fireEvent.click(screen.getByRole("link", { name: "Go to Login" }));
    expect(await screen.findByRole("button", { name: "Send Code" })).toBeInTheDocument();
    expect(within(screen.getByRole("banner")).getByRole("link", { name: "Pricing" })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("says the key is stored here, not mailed, when an address is verified again", async () => {
    mockFetch(() => jsonResponse({ message: "ok", email: "ann@example.com", apiKey: "key-abc", keyMailed: false }));
    renderApp("/verify-email?token=again");

    expect(await screen.findByText("Registration Successful")).toBeInTheDocument();
    expect(screen.getByText(/Your API key is stored in this browser/)).toBeInTheDocument();
    expect(screen.queryByText(/has been sent to your email/)).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Dashboard" })).toHaveAttribute("href", "/user-dashboard");
  });

  it("shows the server's verification error, or a generic one", async () => {
    mockFetch(() => jsonResponse({ error: "Invalid or expired verification link" }, 400));
    renderApp("/register?token=old");
    expect(await screen.findByText("Invalid or expired verification link")).toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBeNull();
  });

  it("offers 'Log in' and 'Register again' after a used or expired link; registering again shows the form", async () => {
    mockFetch(() => jsonResponse({ error: "Invalid or expired verification link" }, 400));
    renderApp("/verify-email?token=used");
    expect(await screen.findByRole("link", { name: "Log in" })).toHaveAttribute("href", "/login");
    const again = screen.getByRole("link", { name: "Register again" });
    expect(again).toHaveAttribute("href", "/register");
    fireEvent.click(again);
    expect(await screen.findByText("Register for API Access")).toBeInTheDocument();
  });

  it("falls back to 'Failed to verify email' when the server says nothing", async () => {
    mockFetch(() => new Response(null, { status: 500, statusText: "Internal Server Error" }));
    renderApp("/register?token=x");
    expect(await screen.findByText("Failed to verify email")).toBeInTheDocument();
  });

  it("loads the tracking pixel only when its address is configured", () => {
    mockFetch(() => jsonResponse({}));
    const { container, unmount } = renderApp("/register");
    expect(container.querySelector("img")).toBeNull();
    unmount();

    const second = renderApp("/register", {
      siteConfig: siteConfig({ trackingPixelUrl: "https://pixel.example/p.gif" }),
    });
    expect(second.container.querySelector('img[src="https://pixel.example/p.gif"]')).toHaveAttribute("width", "1");
  });

  it("links the terms and privacy pages of the configured site, and drops the sentence without one", () => {
    mockFetch(() => jsonResponse({}));
    const { unmount } = renderApp("/register");
    const page = within(screen.getByRole("main"));
    expect(page.getByRole("link", { name: "Terms of Service" })).toHaveAttribute(
      "href",
      "https://www.dc-marketing.test/terms",
    );
    expect(page.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute(
      "href",
      "https://www.dc-marketing.test/privacy",
    );
    unmount();

    renderApp("/register", { siteConfig: siteConfig({ links: null }) });
    expect(screen.getByText("Register for API Access")).toBeInTheDocument();
    expect(screen.queryByText(/By registering, you agree/)).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Terms of Service" })).not.toBeInTheDocument();
  });
});

describe("register page B", () => {
  it("offers instant access by email, asking for a link back to this page", async () => {
    const fetchMock = mockFetch(() => jsonResponse({ message: "sent", email: "bob@example.com" }));
    renderApp("/register-form");

    expect(
      screen.getByRole("heading", { name: "Automate Updates with One Snippet – Get Your Free API Key!" }),
    ).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "bob@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Get Instant Access now" }));

    expect(await screen.findByText("Check Your Email")).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/register");
    expect(JSON.parse(String(init?.body))).toEqual({ email: "bob@example.com", page: "register-form" });
  });

  it("stores the key after verification and links to the dashboard", async () => {
    mockFetch(() => jsonResponse({ message: "ok", email: "bob@example.com", apiKey: "key-b" }));
    renderApp("/register-form?token=t");

    expect(await screen.findByRole("link", { name: "Go to Dashboard" })).toHaveAttribute("href", "/dashboard");
    expect(window.localStorage.getItem("apiKey")).toBe("key-b");
  });

  it("explains a failed verification in its own words", async () => {
    mockFetch(() => jsonResponse({ error: "Invalid or expired verification link" }, 400));
    renderApp("/register-form?token=t");

    expect(await screen.findByText("Failed to verify email. The link may be expired or invalid.")).toBeInTheDocument();
  });

  it("offers 'Log in' and 'Register again' (back to this page's form) after a used or expired link", async () => {
    mockFetch(() => jsonResponse({ error: "Invalid or expired verification link" }, 400));
    renderApp("/register-form?token=t");
    expect(await screen.findByRole("link", { name: "Log in" })).toHaveAttribute("href", "/login");
    fireEvent.click(screen.getByRole("link", { name: "Register again" }));
    expect(await screen.findByRole("button", { name: "Get Instant Access now" })).toBeInTheDocument();
  });
});
