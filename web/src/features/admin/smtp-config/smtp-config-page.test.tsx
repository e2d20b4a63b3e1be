import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";

afterEach(() => {
  vi.unstubAllGlobals();
});

const STORED = { host: "smtp.example.com", port: 587, user: "mailer", password: "pw", from: "noreply@example.com" };

describe("SMTP configuration", () => {
  it("loads the stored values, hides the password until asked, and saves with a numeric port", async () => {
    const fetchMock = mockFetch(({ init }) =>
      init.method === "POST"
        ? jsonResponse({ message: "SMTP configuration updated successfully" })
        : jsonResponse(STORED),
    );
    renderApp("/smtp-config");

    expect(await screen.findByLabelText("SMTP Host")).toHaveValue("smtp.example.com");
    expect(screen.getByLabelText("SMTP Port")).toHaveValue("587");
    const password = screen.getByLabelText("SMTP Password");
    expect(password).toHaveAttribute("type", "password");
    fireEvent.click(screen.getByRole("button", { name: "Show password" }));
    expect(password).toHaveAttribute("type", "text");

    fireEvent.change(screen.getByLabelText("SMTP Port"), { target: { value: "2525" } });
    fireEvent.click(screen.getByRole("button", { name: "Update SMTP Config" }));

    expect(await screen.findByText("SMTP configuration updated successfully")).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ ...STORED, port: 2525 });
  });

  it("shows the schema's messages and does not save invalid values", async () => {
    const fetchMock = mockFetch(() => jsonResponse({ host: "", port: null, user: "", password: "", from: "" }));
    renderApp("/smtp-config");

    fireEvent.change(await screen.findByLabelText("SMTP Port"), { target: { value: "abc" } });
    fireEvent.click(screen.getByRole("button", { name: "Update SMTP Config" }));

    for (const message of [
      "SMTP host is required",
      "Port must be a number",
      "SMTP username is required",
      "SMTP password is required",
      "Invalid from email address",
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(false);
  });
});
