import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";

afterEach(() => {
  vi.unstubAllGlobals();
});

const topBar = () => within(screen.getByRole("banner"));

describe("top bar", () => {
  it("links Pricing and Login", () => {
    mockFetch(() => jsonResponse([]));
    renderApp("/snippet");

    expect(topBar().getByRole("link", { name: "Pricing" })).toHaveAttribute("href", expect.stringMatching(/^https:/));
    expect(topBar().getByRole("link", { name: "Login" })).toHaveAttribute("href", "/login");
  });

  it.each(["/login", "/user-dashboard"])("hides Login on %s", (path) => {
    mockFetch(() => jsonResponse([]));
    renderApp(path);

    expect(topBar().queryByRole("link", { name: "Login" })).not.toBeInTheDocument();
  });

  it("has the footer's external links", () => {
    mockFetch(() => jsonResponse([]));
    renderApp("/snippet");

    const footer = within(screen.getByRole("contentinfo"));
    for (const name of ["Home", "Pricing", "FAQs", "Privacy Policy", "Terms of Service", "Contact"]) {
      expect(footer.getByRole("link", { name })).toHaveAttribute("href", expect.stringMatching(/^https:/));
    }
  });
});
