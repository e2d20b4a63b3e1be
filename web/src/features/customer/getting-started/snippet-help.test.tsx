import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { InstallCheck } from "#contract/responses";
import { snippetText } from "#contract/snippet-text";
import { jsonResponse, mockApi } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";
import { siteConfig } from "@/test/fixtures";

const ORIGIN = siteConfig().snippetOrigin;

const found: InstallCheck = {
  reachable: true,
  snippetFound: false,
  userIdMatches: false,
  mappingMatches: true,
  problems: [`The snippet is missing: no script on the page loads ${ORIGIN}/snippet.js.`],
};

afterEach(() => vi.unstubAllGlobals());

describe("the Snippet page's guides and Check my page", () => {
  it("offers a guide with a copy button for each way of building a site", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    mockApi();
    renderApp("/snippet");
    for (const name of ["HTML", "Next.js", "WordPress", "Shopify", "Google Tag Manager"]) {
      expect(await screen.findByRole("tab", { name })).toBeInTheDocument();
    }
    fireEvent.click(screen.getByRole("button", { name: "Copy the HTML code" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(snippetText(ORIGIN)));

    fireEvent.mouseDown(screen.getByRole("tab", { name: "Next.js" }));
    const nextJs = await screen.findByRole("tabpanel", { name: "Next.js" });
    expect(nextJs).toHaveTextContent(`<script async src="${ORIGIN}/snippet.js" />`);
    expect(nextJs).toHaveTextContent('window.dynamicContentUserId = \\"YOUR_USER_ID\\";');
  });

  it("has no page check for a visitor who is not signed in", async () => {
    const calls = mockApi();
    renderApp("/snippet");
    expect(await screen.findByRole("tab", { name: "HTML" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Check my page" })).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("checks the page it is given and lists what it found, a sentence per problem", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    const calls = mockApi((call) => (call.url === "/api/install-check" ? jsonResponse(found) : undefined));
    renderApp("/snippet");
    fireEvent.change(await screen.findByLabelText("Page URL"), { target: { value: "https://shop.test/offer" } });
    fireEvent.click(screen.getByRole("button", { name: "Check my page" }));

    const result = await screen.findByRole("status", { name: "Check my page" });
    expect(calls.filter((c) => c.url === "/api/install-check")).toEqual([
      { method: "POST", url: "/api/install-check", body: { url: "https://shop.test/offer" } },
    ]);
    expect(result).toHaveTextContent("Page reachable: yes");
    expect(result).toHaveTextContent("Snippet found: no");
    expect(result).toHaveTextContent("Your user ID set: no");
    expect(result).toHaveTextContent("A mapping serves this URL: yes");
    expect(within(result).getByRole("list", { name: "What to fix" })).toHaveTextContent(found.problems[0]!);
  });

  it("refuses a URL that is not one before asking, and shows the server's refusal", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    const calls = mockApi((call) =>
      call.url === "/api/install-check"
        ? jsonResponse({ error: "Too many page checks. Please try again in a minute." }, 429)
        : undefined,
    );
    renderApp("/snippet");
    const input = await screen.findByLabelText("Page URL");
    fireEvent.change(input, { target: { value: "shop" } });
    fireEvent.click(screen.getByRole("button", { name: "Check my page" }));
    expect(await screen.findByText("Please enter a valid URL")).toBeInTheDocument();
    expect(calls).toEqual([]);

    fireEvent.change(input, { target: { value: "https://shop.test/" } });
    fireEvent.click(screen.getByRole("button", { name: "Check my page" }));
    expect(await screen.findByText(/Too many page checks\. Please try again in a minute\./)).toBeInTheDocument();
  });
});
