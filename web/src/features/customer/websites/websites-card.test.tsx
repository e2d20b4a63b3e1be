import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Website } from "#contract/responses";
import { jsonResponse, mockApi } from "@/test/fetch-mock";
import { customerDashboard, PENDING_WEBSITE as PENDING } from "@/test/fixtures";
import { renderApp } from "@/test/render-app";
import { storeSession } from "@/test/session";

afterEach(() => vi.unstubAllGlobals());

/** A pending claim in snippet mode: its card checks the TXT record itself ("Check DNS now"). */
const SNIPPET_PENDING: Website = { ...PENDING, mode: "snippet" };

async function openWebsitesTab() {
  storeSession("key-ann-123");
  renderApp("/user-dashboard");
  // Radix tabs switch on mouse down, not on click.
  fireEvent.mouseDown(await screen.findByRole("tab", { name: "Websites" }));
}

describe("the Websites tab", () => {
  it("claims a website and shows the TXT record that proves it, each part with a copy button", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const websites: Website[] = [];
    const calls = mockApi(
      ({ url }) => (url === "/api/user/dashboard" ? jsonResponse(customerDashboard()) : undefined),
      ({ method, url }) => {
        if (method === "GET" && url === "/api/websites") return jsonResponse(websites);
        if (method === "PUT" && url === "/api/websites/shop.example") {
          websites.push(PENDING);
          return jsonResponse(PENDING, 201);
        }
        return undefined;
      },
    );
    await openWebsitesTab();
    // The first test also waits for the tab's lazy chunk to be transformed, which can take a while under load.
    expect(await screen.findByText("No websites yet.", undefined, { timeout: 10_000 })).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText("Hostname"), { target: { value: "shop.example" } });
    fireEvent.change(screen.getByLabelText("Origin"), { target: { value: "https://origin.shop.example" } });
    fireEvent.click(screen.getByRole("button", { name: "Add website" }));

    const item = await screen.findByRole("listitem", { name: "shop.example" });
    expect(await screen.findByText("shop.example claimed")).toBeInTheDocument();
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({
      origin: "https://origin.shop.example",
      mode: "edge",
    });
    expect(within(item).getByText("Pending")).toBeInTheDocument();
    const record = within(item).getByRole("region", { name: "DNS record to add" });
    expect(record).toHaveTextContent("_dynamic-content.shop.example");
    expect(record).toHaveTextContent(PENDING.verification.value);
    fireEvent.click(within(record).getByRole("button", { name: "Copy TXT record value" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(PENDING.verification.value));
  }, 20_000);

  it("checks a snippet website's record now and says what is missing, then shows it active", async () => {
    let current: Website = SNIPPET_PENDING;
    mockApi(
      ({ url }) => (url === "/api/user/dashboard" ? jsonResponse(customerDashboard()) : undefined),
      ({ method, url }) => {
        if (method === "GET" && url === "/api/websites") return jsonResponse([current]);
        if (method === "POST" && url === "/api/websites/shop.example/verify") {
          current =
            current.checkProblem === null
              ? { ...SNIPPET_PENDING, checkedAt: "2026-05-04T09:05:00.000Z", checkProblem: "No TXT record found yet." }
              : { ...SNIPPET_PENDING, status: "active", verifiedAt: "2026-05-04T09:10:00.000Z", expiresAt: null };
          return jsonResponse(current);
        }
        return undefined;
      },
    );
    await openWebsitesTab();
    const item = await screen.findByRole("listitem", { name: "shop.example" });
    fireEvent.click(within(item).getByRole("button", { name: "Check DNS now" }));
    expect(await screen.findByText("Not proven yet")).toBeInTheDocument();
    expect(await within(item).findByText(/No TXT record found yet\./)).toBeInTheDocument();

    fireEvent.click(within(item).getByRole("button", { name: "Check DNS now" }));
    expect(await screen.findByText("shop.example is proven")).toBeInTheDocument();
    expect(await within(item).findByText("Active")).toBeInTheDocument();
    expect(within(item).queryByRole("region", { name: "DNS record to add" })).toBeNull();
  });

  it("offers one check on a pending edge website: its status panel's", async () => {
    mockApi(
      ({ url }) => (url === "/api/user/dashboard" ? jsonResponse(customerDashboard()) : undefined),
      ({ method, url }) => (method === "GET" && url === "/api/websites" ? jsonResponse([PENDING]) : undefined),
    );
    await openWebsitesTab();
    const item = await screen.findByRole("listitem", { name: "shop.example" });
    expect(await within(item).findByRole("button", { name: "Check now" })).toBeInTheDocument();
    expect(within(item).queryByRole("button", { name: "Check DNS now" })).toBeNull();
  });

  it("warns about a proven website whose daily check no longer finds its record, with the record to keep", async () => {
    const failing: Website = {
      ...PENDING,
      status: "active",
      verifiedAt: "2026-05-04T09:10:00.000Z",
      expiresAt: null,
      checkedAt: "2026-05-05T09:10:00.000Z",
      checkProblem: "No TXT record found at _dynamic-content.shop.example yet.",
    };
    mockApi(
      ({ url }) => (url === "/api/user/dashboard" ? jsonResponse(customerDashboard()) : undefined),
      ({ method, url }) => (method === "GET" && url === "/api/websites" ? jsonResponse([failing]) : undefined),
    );
    await openWebsitesTab();
    const item = await screen.findByRole("listitem", { name: "shop.example" });
    expect(within(item).getByText("Active")).toBeInTheDocument();
    const record = within(item).getByRole("region", { name: "DNS record to add" });
    expect(record).toHaveTextContent("Our daily check no longer finds the record that proves shop.example");
    expect(record).toHaveTextContent(PENDING.verification.value);
    expect(record).toHaveTextContent("No TXT record found at _dynamic-content.shop.example yet.");
    expect(within(item).queryByRole("button", { name: "Check DNS now" })).toBeNull();
  });
});
