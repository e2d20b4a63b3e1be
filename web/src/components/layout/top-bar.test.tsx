import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { siteConfigKeys } from "@/queries/site-config";
import { siteConfig } from "@/test/fixtures";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";

afterEach(() => {
  vi.unstubAllGlobals();
});

const topBar = () => within(screen.getByRole("banner"));

describe("top bar", () => {
  it("links Pricing and the logo to the configured site, and Login", () => {
    mockFetch(() => jsonResponse([]));
    renderApp("/snippet");

    expect(topBar().getByRole("link", { name: "Pricing" })).toHaveAttribute(
      "href",
      "https://www.dc-marketing.test/pricing",
    );
    expect(topBar().getByRole("link", { name: "Dynamic Content home" })).toHaveAttribute(
      "href",
      "https://www.dc-marketing.test",
    );
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
    const expected = {
      Home: "https://www.dc-marketing.test",
      Pricing: "https://www.dc-marketing.test/pricing",
      FAQs: "https://www.dc-marketing.test/faq",
      "Privacy Policy": "https://www.dc-marketing.test/privacy",
      "Terms of Service": "https://www.dc-marketing.test/terms",
      Contact: "https://www.dc-marketing.test/contact",
    };
    for (const [name, href] of Object.entries(expected)) {
      expect(footer.getByRole("link", { name })).toHaveAttribute("href", href);
    }
  });
});

describe("site configuration", () => {
  it("is asked for once and shows the links the server names", async () => {
    const fetchMock = mockFetch(({ url }) =>
      url === "/api/site-config" ? jsonResponse(siteConfig()) : jsonResponse({ error: "unexpected" }, 500),
    );
    renderApp("/snippet", { siteConfig: null });

    expect(await topBar().findByRole("link", { name: "Pricing" })).toHaveAttribute(
      "href",
      "https://www.dc-marketing.test/pricing",
    );
    expect(within(screen.getByRole("contentinfo")).getAllByRole("link")).toHaveLength(6);
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(["/api/site-config"]);
  });

  it("shows no external link when no site is configured", async () => {
    mockFetch(() => jsonResponse({ links: null, trackingPixelUrl: null }));
    const { queryClient } = renderApp("/snippet", { siteConfig: null });

    await vi.waitFor(() => expect(queryClient.getQueryState(siteConfigKeys.all)?.status).toBe("success"));
    expect(topBar().getByText("Dynamic Content")).toBeInTheDocument();
    expect(topBar().queryByRole("link", { name: "Pricing" })).not.toBeInTheDocument();
    expect(topBar().queryByRole("link", { name: "Dynamic Content home" })).not.toBeInTheDocument();
    expect(topBar().getByRole("link", { name: "Login" })).toHaveAttribute("href", "/login");
    expect(screen.queryByRole("contentinfo")).not.toBeInTheDocument();
  });

  it("shows no external link and no error toast when the configuration cannot be loaded", async () => {
    mockFetch(() => jsonResponse({ error: "Internal error" }, 500));
    const { queryClient } = renderApp("/snippet", { siteConfig: null });

    await vi.waitFor(() => expect(queryClient.getQueryState(siteConfigKeys.all)?.status).toBe("error"));
    expect(topBar().queryByRole("link", { name: "Pricing" })).not.toBeInTheDocument();
    expect(screen.queryByRole("contentinfo")).not.toBeInTheDocument();
    expect(screen.queryByText("Error")).not.toBeInTheDocument();
  });
});
