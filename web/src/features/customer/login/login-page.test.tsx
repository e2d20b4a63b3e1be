import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { siteConfig } from "@/test/fixtures";
import { renderApp } from "@/test/render-app";

afterEach(() => {
  vi.unstubAllGlobals();
});

const CUSTOMER = { userId: "u1", email: "ann@example.com", role: "user" as const };

async function requestCode(email: string) {
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: email } });
  fireEvent.click(screen.getByRole("button", { name: "Send Code" }));
}

function submitCode(code: string) {
  fireEvent.change(screen.getByLabelText("Code"), { target: { value: code } });
  fireEvent.click(screen.getByRole("button", { name: "Verify Code" }));
}

function bodyOf(fetchMock: ReturnType<typeof mockFetch>, path: string): unknown {
  const call = fetchMock.mock.calls.find(([url]) => url === path);
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
}

describe("customer login, step 1", () => {
  it("validates the email, sends it lowercased and shows the address the code went to", async () => {
    const fetchMock = mockFetch(() => jsonResponse({ message: "Login code sent", email: "ann@example.com" }));
    renderApp("/login");

    expect(screen.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", "/register");

    await requestCode("not-an-email");
    expect(await screen.findByText("Please enter a valid email address")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await requestCode("  Ann@Example.COM ");

    expect(await screen.findByText("ann@example.com")).toBeInTheDocument();
    const code = screen.getByLabelText("Code");
    expect(code).toHaveAttribute("inputmode", "numeric");
    expect(code).toHaveAttribute("maxlength", "5");
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/login/request-otp");
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe("POST");
    expect(bodyOf(fetchMock, "/api/login/request-otp")).toEqual({ email: "ann@example.com" });
  });

  it.each([
    ["lacks the email", () => jsonResponse({ message: "Login code sent" })],
    ["is not JSON", () => new Response("<html>oops</html>", { status: 200 })],
  ])("reports an answer that %s and stays on step 1", async (_case, answer) => {
    mockFetch(answer);
    renderApp("/login");

    await requestCode("ann@example.com");

    expect(await screen.findByText("Failed to retrieve email from server.")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send Code" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Code")).not.toBeInTheDocument();
  });

  it("toasts the server's message, e.g. a rate limit", async () => {
    mockFetch(() => jsonResponse({ error: "Too many login requests. Please try again later." }, 429));
    renderApp("/login");

    await requestCode("ann@example.com");

    expect(await screen.findByText("Too many login requests. Please try again later.")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
  });

  it("says the email could not be sent, and stays on step 1, when the mail cannot go out", async () => {
    mockFetch(() => jsonResponse({ error: "We could not send the email; please try again later" }, 503));
    renderApp("/login");

    await requestCode("ann@example.com");

    expect(await screen.findByText("We could not send the email; please try again later")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Send Code" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Code")).not.toBeInTheDocument();
  });

  it("loads the tracking pixel when its address is configured", () => {
    mockFetch(() => jsonResponse({}));
    const { container } = renderApp("/login", {
      siteConfig: siteConfig({ trackingPixelUrl: "https://pixel.example/p.gif" }),
    });
    expect(container.querySelector('img[src="https://pixel.example/p.gif"]')).toBeInTheDocument();
  });
});

describe("customer login, step 2", () => {
  it("validates the code before sending it", async () => {
    const fetchMock = mockFetch(() => jsonResponse({ message: "Login code sent", email: "ann@example.com" }));
    renderApp("/login");
    await requestCode("ann@example.com");
    await screen.findByLabelText("Code");

    submitCode("123");
    expect(await screen.findByText("Code must be exactly 5 digits")).toBeInTheDocument();

    submitCode("12a45");
    expect(await screen.findByText("Code must contain only numbers")).toBeInTheDocument();
    expect(screen.queryByText("Code must be exactly 5 digits")).not.toBeInTheDocument();

    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(["/api/login/request-otp"]);
  });

  it("'Use Different Email' returns to step 1 with the email kept", async () => {
    mockFetch(() => jsonResponse({ message: "Login code sent", email: "ann@example.com" }));
    renderApp("/login");
    await requestCode("ann@example.com");

    fireEvent.click(await screen.findByRole("button", { name: "Use Different Email" }));

    expect(screen.getByRole("button", { name: "Send Code" })).toBeInTheDocument();
    expect(screen.queryByLabelText("Code")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveValue("ann@example.com");
  });

  it("stores key and role, toasts and opens the customer dashboard", async () => {
    // Left over from an admin's impersonation in this browser: signing in ends it.
    window.localStorage.setItem("adminApiKey", "admin-key");
    window.localStorage.setItem("impersonatedUserEmail", "someone@example.com");
    const fetchMock = mockFetch(({ url }) => {
      if (url === "/api/login/request-otp") return jsonResponse({ message: "Login code sent", email: CUSTOMER.email });
      if (url === "/api/login/verify-otp") return jsonResponse({ apiKey: "key-ann", user: CUSTOMER });
      if (url === "/api/user/dashboard") return jsonResponse({ error: "not under test" }, 500);
      return jsonResponse({ error: `unexpected ${url}` }, 500);
    });
    renderApp("/login");
    await requestCode(CUSTOMER.email);
    await screen.findByLabelText("Code");

    submitCode("01234");

    expect(await screen.findByText("Login successful!")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Customer Dashboard" })).toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBe("key-ann");
    expect(window.localStorage.getItem("userRole")).toBe("user");
    expect(window.localStorage.getItem("adminApiKey")).toBeNull();
    expect(screen.queryByText(/Eingeloggt als/)).not.toBeInTheDocument();
    expect(bodyOf(fetchMock, "/api/login/verify-otp")).toEqual({ code: "01234" });
    const verify = fetchMock.mock.calls.find(([url]) => url === "/api/login/verify-otp");
    // The login cookie set by request-otp must travel with the code.
    expect(verify?.[1]?.credentials).toBe("include");
    // The dashboard is asked for with the new key.
    await waitFor(() => {
      const dashboard = fetchMock.mock.calls.find(([url]) => url === "/api/user/dashboard");
      expect((dashboard?.[1]?.headers as Record<string, string> | undefined)?.["X-API-Key"]).toBe("key-ann");
    });
  });

  it("says so when the answer has no api key, and stays on step 2", async () => {
    mockFetch(({ url }) =>
      url === "/api/login/request-otp"
        ? jsonResponse({ message: "Login code sent", email: CUSTOMER.email })
        : jsonResponse({ user: CUSTOMER }),
    );
    renderApp("/login");
    await requestCode(CUSTOMER.email);
    await screen.findByLabelText("Code");

    submitCode("12345");

    expect(await screen.findByText("No API key received from server")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBeNull();
    expect(screen.getByLabelText("Code")).toBeInTheDocument();
  });

  it("toasts the server's message for a wrong code", async () => {
    mockFetch(({ url }) =>
      url === "/api/login/request-otp"
        ? jsonResponse({ message: "Login code sent", email: CUSTOMER.email })
        : jsonResponse({ error: "Invalid or expired code" }, 400),
    );
    renderApp("/login");
    await requestCode(CUSTOMER.email);
    await screen.findByLabelText("Code");

    submitCode("99999");

    expect(await screen.findByText("Invalid or expired code")).toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBeNull();
  });
});
