import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { AppProviders } from "@/app-providers";
import { createQueryClient } from "@/lib/query-client";
import { renderApp } from "@/test/render-app";
import { SmtpConfigForm } from "./smtp-config-form";

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

  it("toasts the step that failed, not the success, when the server refuses the settings", async () => {
    const refusal = "Could not connect to smtp.example.com:2525: Connection refused";
    const fetchMock = mockFetch(({ init }) =>
      init.method === "POST" ? jsonResponse({ error: refusal }, 400) : jsonResponse(STORED),
    );
    renderApp("/smtp-config");

    fireEvent.change(await screen.findByLabelText("Send test mail to"), { target: { value: "me@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Update SMTP Config" }));

    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.queryByText("SMTP configuration updated successfully")).not.toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ ...STORED, testTo: "me@example.com" });
  });

  it("removes a stored configuration after asking, and shows the empty form", async () => {
    let stored: unknown = STORED;
    const fetchMock = mockFetch(({ init }) => {
      if (init.method === "DELETE") {
        stored = { host: "", port: null, user: "", password: "", from: "" };
        return jsonResponse({ message: "SMTP configuration removed" });
      }
      return jsonResponse(stored);
    });
    renderApp("/smtp-config");

    fireEvent.click(await screen.findByRole("button", { name: "Remove SMTP configuration" }));
    expect(await screen.findByText("Remove the SMTP configuration?")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "DELETE")).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Remove" }));

    expect(await screen.findByText("SMTP configuration removed")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText("SMTP Host")).toHaveValue(""));
    expect(screen.queryByRole("button", { name: "Remove SMTP configuration" })).not.toBeInTheDocument();
  });

  it("offers no removal while nothing is stored", async () => {
    mockFetch(() => jsonResponse({ host: "", port: null, user: "", password: "", from: "" }));
    renderApp("/smtp-config");

    expect(await screen.findByLabelText("SMTP Host")).toHaveValue("");
    expect(screen.queryByRole("button", { name: "Remove SMTP configuration" })).not.toBeInTheDocument();
  });
});

describe("SMTP configuration in German", () => {
  it("labels the test mail field and the removal in German", async () => {
    mockFetch(() => jsonResponse({}));
    render(
      <AppProviders queryClient={createQueryClient()}>
        <SmtpConfigForm initial={{ ...STORED, port: "587", testTo: "" }} stored lang="de" />
      </AppProviders>,
    );
    expect(screen.getByLabelText("Testmail senden an")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "SMTP-Konfiguration entfernen" }));
    expect(await screen.findByText("SMTP-Konfiguration entfernen?")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Abbrechen" })).toBeInTheDocument();
  });
});
