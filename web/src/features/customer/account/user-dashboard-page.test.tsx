import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PaymentHistoryItem, ProductVersion } from "#contract/responses";
import { apiCall, jsonResponse, mockFetch } from "@/test/fetch-mock";
import { customerDashboard as dashboard, CUSTOMER_SNIPPET as SNIPPET, productVersion } from "@/test/fixtures";
import { renderApp } from "@/test/render-app";
import { ADMIN, storeSession } from "@/test/session";
import { userDashboardKeys } from "@/queries/user-dashboard";

afterEach(() => {
  vi.unstubAllGlobals();
  // jsdom has no clipboard; tests that need one define it.
  Reflect.deleteProperty(navigator, "clipboard");
});

// Intl separates the amount from the sign with a no-break space.
const NBSP = "\u00a0";

const PLANS: ProductVersion[] = [
  productVersion({ id: 1, name: "Free", price: 0, isDefault: true }),
  productVersion({ id: 2, name: "Starter", price: 29, websitesLimit: 3, eventsLimit: 1000, dynamicContentLimit: 100 }),
  productVersion({
    id: 3,
    name: "Growth",
    description: "For growing sites",
    price: 79,
    websitesLimit: 10,
    eventsLimit: 10000,
    dynamicContentLimit: null,
  }),
  productVersion({
    id: 4,
    name: "Scale",
    price: 199,
    websitesLimit: null,
    eventsLimit: null,
    dynamicContentLimit: null,
  }),
];

interface Answers {
  dashboard?: () => Response;
  cancel?: () => Response;
  payments?: PaymentHistoryItem[];
  plans?: ProductVersion[];
}

function mockApi({
  dashboard: dashboardAnswer = () => jsonResponse(dashboard()),
  cancel = () => jsonResponse({ error: "unexpected cancel" }, 500),
  payments = [],
  plans = PLANS,
}: Answers) {
  return mockFetch((request) => {
    const { url, method } = apiCall(request);
    if (url === "/api/user/dashboard") return dashboardAnswer();
    if (method === "POST" && url === "/api/user/subscription/cancel") return cancel();
    if (url === "/api/user/payment-history") return jsonResponse(payments);
    if (url === "/api/product-versions") return jsonResponse(plans);
    if (url === "/api/auth") return jsonResponse(ADMIN);
    return jsonResponse({ error: `unexpected ${url}` }, 500);
  });
}

function openTab(name: string) {
  // Radix tabs switch on mouse down (and keyboard focus), not on click.
  fireEvent.mouseDown(screen.getByRole("tab", { name }));
}

describe("customer dashboard, account", () => {
  it("shows email, plan, billing period, api key and the snippet as text", async () => {
    storeSession("key-ann-123");
    const fetchMock = mockApi({});
    renderApp("/user-dashboard");

    expect(await screen.findByText("ann@example.com")).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Account" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Usage" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Billing" })).toBeInTheDocument();
    expect(screen.getByText("Starter")).toBeInTheDocument();
    expect(screen.getByText("For a first website")).toBeInTheDocument();
    expect(screen.getByText("05.03.2025")).toBeInTheDocument();
    expect(screen.getByText("05.04.2025")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Upgrade / Change Plans" })).toBeInTheDocument();
    expect(screen.getByText("key-ann-123")).toBeInTheDocument();
    // The snippet is shown verbatim, never run or rendered.
    const snippet = screen.getByText((_, element) => element?.tagName === "CODE" && element.textContent === SNIPPET);
    expect(snippet.querySelector("script")).toBeNull();
    expect(document.querySelector("main script")).toBeNull();

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/user/dashboard");
    expect((init?.headers as Record<string, string>)["X-API-Key"]).toBe("key-ann-123");
    // Plans and payments load only when their parts are opened.
    expect(fetchMock.mock.calls.map(([u]) => u)).toEqual(["/api/user/dashboard"]);
  });

  it("marks the plan the customer holds 'Current plan', and nothing without a plan", async () => {
    mockApi({});
    const { unmount } = renderApp("/user-dashboard");
    await screen.findByText("ann@example.com");
    const planRow = screen.getByText("Starter").parentElement!;
    expect(within(planRow).getByText("Current plan")).toBeInTheDocument();
    unmount();

    mockApi({ dashboard: () => jsonResponse(dashboard({ productVersion: null })) });
    renderApp("/user-dashboard");
    await screen.findByText("ann@example.com");
    expect(screen.queryByText("Current plan")).not.toBeInTheDocument();
  });

  it("copies the api key and the snippet, and says when copying fails", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    mockApi({});
    renderApp("/user-dashboard");

    fireEvent.click(await screen.findByRole("button", { name: "Copy API key" }));
    expect(await screen.findByText("Copied!")).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith("key-ann-123");

    fireEvent.click(screen.getByRole("button", { name: "Copy snippet" }));
    await vi.waitFor(() => expect(writeText).toHaveBeenLastCalledWith(SNIPPET));

    writeText.mockImplementation(() => Promise.reject(new Error("denied")));
    fireEvent.click(screen.getByRole("button", { name: "Copy snippet" }));
    expect(await screen.findByText("Could not copy the text.")).toBeInTheDocument();
  });

  it("shows 'Error loading user data' when the dashboard cannot be loaded", async () => {
    mockApi({ dashboard: () => jsonResponse({ error: "Invalid or missing API key" }, 401) });
    renderApp("/user-dashboard");

    expect(await screen.findByText("Error loading user data")).toBeInTheDocument();
    expect(screen.getByText("Invalid or missing API key")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Login" })).toHaveAttribute("href", "/login");
    expect(screen.queryByRole("tab", { name: "Account" })).not.toBeInTheDocument();
  });
});

describe("customer dashboard, usage", () => {
  it("shows used / limit with rounded percentages capped at 100, and ∞ for no limit", async () => {
    mockApi({});
    renderApp("/user-dashboard");
    await screen.findByText("ann@example.com");

    openTab("Usage");

    const websites = await screen.findByRole("progressbar", { name: "Active websites" });
    expect(websites).toHaveAttribute("aria-valuenow", "33");
    expect(screen.getByText("1 / 3 (33%)")).toBeInTheDocument();

    const events = screen.getByRole("progressbar", { name: "API content updates this month" });
    expect(events).toHaveAttribute("aria-valuenow", "100");
    expect(screen.getByText("2500 / 1000 (100%)")).toBeInTheDocument();

    const generations = screen.getByRole("progressbar", { name: "Content generations this month" });
    expect(generations).toHaveAttribute("aria-valuenow", "0");
    expect(screen.getByText("7 / ∞ (0%)")).toBeInTheDocument();
  });

  it("says how fresh the numbers are", async () => {
    mockApi({});
    renderApp("/user-dashboard");
    await screen.findByText("ann@example.com");

    openTab("Usage");

    expect(await screen.findByText("Page views are counted within about a minute.")).toBeInTheDocument();
  });

  it("measures against the limits that hold for the customer: an admin's per-user limit over the plan's", async () => {
    const limits = { websitesLimit: 1, eventsLimit: 1000, dynamicContentLimit: 10 };
    mockApi({ dashboard: () => jsonResponse(dashboard({ limits })) });
    renderApp("/user-dashboard");
    await screen.findByText("ann@example.com");

    openTab("Usage");

    expect(await screen.findByText("1 / 1 (100%)")).toBeInTheDocument();
    expect(screen.getByText("7 / 10 (70%)")).toBeInTheDocument();
  });

  it("says what this month's views did not spend of the plan, under the content generations", async () => {
    const usage = {
      activeWebsites: 1,
      dynamicEvents: 2,
      contentGenerations: 7,
      notBilled: { requests: 1300, contentGenerations: 1234 },
    };
    mockApi({ dashboard: () => jsonResponse(dashboard({ usage })) });
    renderApp("/user-dashboard");
    await screen.findByText("ann@example.com");

    openTab("Usage");

    expect(
      await screen.findByText("Not billed: 1,234 (search and AI crawlers, and visitors past 500 a day)"),
    ).toBeInTheDocument();
  });

  it("treats every limit as unlimited without a plan", async () => {
    const limits = { websitesLimit: null, eventsLimit: null, dynamicContentLimit: null };
    mockApi({ dashboard: () => jsonResponse(dashboard({ productVersion: null, limits })) });
    renderApp("/user-dashboard");
    await screen.findByText("ann@example.com");

    openTab("Usage");

    const bars = await screen.findAllByRole("progressbar");
    expect(bars.map((bar) => bar.getAttribute("aria-valuenow"))).toEqual(["0", "0", "0"]);
    expect(screen.getAllByText(/\/ ∞ \(0%\)$/)).toHaveLength(3);
  });
});

describe("customer dashboard, billing", () => {
  it("shows the billing period and the empty payment history", async () => {
    mockApi({ payments: [] });
    renderApp("/user-dashboard");
    await screen.findByText("ann@example.com");

    openTab("Billing");

    expect(await screen.findByText("No payment history available")).toBeInTheDocument();
    expect(screen.getByText("05.03.2025 – 05.04.2025")).toBeInTheDocument();
    for (const name of ["Date of Payment", "Product", "Amount", "Billing Period", "Status"]) {
      expect(screen.getByRole("columnheader", { name })).toBeInTheDocument();
    }
  });

  it("formats dates as dd.MM.yyyy, amounts in German currency format, and shows each payment's period and status", async () => {
    mockApi({
      payments: [
        {
          date: "2025-03-05T12:00:00.000Z",
          product: "Starter",
          amount: 29,
          currency: "USD",
          billingPeriod: { start: "2025-03-05T12:00:00.000Z", end: "2025-04-03T12:00:00.000Z" },
          status: "Completed",
          transactionId: "T2",
        },
        {
          date: "2025-02-05T12:00:00.000Z",
          product: "Growth",
          amount: 1234.5,
          currency: "",
          billingPeriod: { start: null, end: null },
          status: "Pending",
          transactionId: "T1",
        },
      ],
    });
    renderApp("/user-dashboard");
    await screen.findByText("ann@example.com");

    openTab("Billing");

    const table = await screen.findByRole("table");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(2);
    expect(
      within(rows[0]!)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["05.03.2025", "Starter", `29,00${NBSP}$`, "05.03.2025 – 03.04.2025", "Completed"]);
    expect(
      within(rows[1]!)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["05.02.2025", "Growth", `1.234,50${NBSP}$`, "-", "Pending"]);
  });
});

describe("plan dialog", () => {
  it("lists the non-default plans with monthly prices, 'Unlimited' for null, and Growth as Popular", async () => {
    const fetchMock = mockApi({});
    renderApp("/user-dashboard");

    fireEvent.click(await screen.findByRole("button", { name: "Upgrade / Change Plans" }));

    const dialog = await screen.findByRole("dialog", { name: "Choose Your Plan" });
    const cards = await within(dialog).findAllByRole("group");
    expect(cards.map((card) => within(card).getByRole("heading").textContent)).toEqual(["Starter", "Growth", "Scale"]);
    expect(within(dialog).queryByText("Free")).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([u]) => u)).toContain("/api/product-versions");

    const starter = within(dialog).getByRole("group", { name: "Starter" });
    expect(within(starter).getByText("$29 / month")).toBeInTheDocument();
    expect(within(starter).getByText("Websites").nextSibling).toHaveTextContent("3");
    expect(within(starter).getByText("Events per month").nextSibling).toHaveTextContent("1,000");
    expect(within(starter).getByText("Dynamic content generations per month").nextSibling).toHaveTextContent("100");
    expect(within(starter).queryByText("Popular")).not.toBeInTheDocument();
    expect(within(starter).queryByText("Unlimited")).not.toBeInTheDocument();

    const growth = within(dialog).getByRole("group", { name: "Growth" });
    expect(within(growth).getByText("Popular")).toBeInTheDocument();
    expect(within(growth).getByText("For growing sites")).toBeInTheDocument();
    expect(within(growth).getByText("$79 / month")).toBeInTheDocument();
    expect(within(growth).getByText("Dynamic content generations per month").nextSibling).toHaveTextContent(
      "Unlimited",
    );

    const scale = within(dialog).getByRole("group", { name: "Scale" });
    expect(within(scale).getAllByText("Unlimited")).toHaveLength(3);
    expect(within(dialog).getAllByText("Popular")).toHaveLength(1);

    fireEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

    // Opened again, it shows the cached plans without asking the server twice.
    fireEvent.click(screen.getByRole("button", { name: "Upgrade / Change Plans" }));
    expect(await screen.findByRole("dialog", { name: "Choose Your Plan" })).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([u]) => u === "/api/product-versions")).toHaveLength(1);
  });
});

describe("customer dashboard, subscription", () => {
  const SUBSCRIBED = dashboard({
    productVersion: PLANS[2]!,
    subscription: {
      subscriptionId: "I-GROWTH",
      status: "active",
      productVersionId: 3,
      plan: "Growth",
      paidThrough: "2025-04-05T00:00:00.000Z",
    },
  });

  it("shows no subscription row to a customer who never subscribed", async () => {
    mockApi({});
    renderApp("/user-dashboard");

    await screen.findByText("ann@example.com");
    expect(screen.queryByText("Subscription")).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Cancel subscription" })).not.toBeInTheDocument();
  });

  it("shows the plan, status and paid-through day, and cancels after asking, with the server's answer", async () => {
    let current = SUBSCRIBED;
    const fetchMock = mockApi({
      dashboard: () => jsonResponse(current),
      cancel: () => {
        current = { ...SUBSCRIBED, subscription: { ...SUBSCRIBED.subscription!, status: "cancelled" } };
        return jsonResponse({ message: "Your subscription is cancelled: PayPal will not charge it again." });
      },
    });
    renderApp("/user-dashboard");

    const row = (await screen.findByText("Subscription")).parentElement!;
    expect(within(row).getByText("Growth")).toBeInTheDocument();
    expect(within(row).getByTestId("subscription-status")).toHaveTextContent("Active");
    expect(within(row).getByText("Paid through: 05.04.2025")).toBeInTheDocument();

    fireEvent.click(within(row).getByRole("button", { name: "Cancel subscription" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Cancel your subscription?" });
    expect(fetchMock.mock.calls.map(([u]) => u)).not.toContain("/api/user/subscription/cancel");
    fireEvent.click(within(confirm).getByRole("button", { name: "Cancel subscription" }));

    expect(await screen.findByText("Subscription cancelled")).toBeInTheDocument();
    expect(screen.getByText("Your subscription is cancelled: PayPal will not charge it again.")).toBeInTheDocument();
    await vi.waitFor(() => expect(within(row).getByTestId("subscription-status")).toHaveTextContent("Cancelled"));
    expect(within(row).queryByRole("button", { name: "Cancel subscription" })).not.toBeInTheDocument();
  });

  it("toasts the server's reason when the cancellation fails, and keeps the subscription shown as it was", async () => {
    mockApi({
      dashboard: () => jsonResponse(SUBSCRIBED),
      cancel: () =>
        jsonResponse({ error: "PayPal did not confirm the cancellation. Please try again in a few minutes." }, 502),
    });
    renderApp("/user-dashboard");

    fireEvent.click(await screen.findByRole("button", { name: "Cancel subscription" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Cancel your subscription?" });
    fireEvent.click(within(confirm).getByRole("button", { name: "Cancel subscription" }));

    expect(
      await screen.findByText("PayPal did not confirm the cancellation. Please try again in a few minutes."),
    ).toBeInTheDocument();
    expect(screen.getByTestId("subscription-status")).toHaveTextContent("Active");
  });

  it("offers no cancel button while an admin acts as the customer", async () => {
    storeSession("key-ann-123", "user");
    window.localStorage.setItem("adminApiKey", "admin-key");
    window.localStorage.setItem("impersonatedUserEmail", "ann@example.com");
    mockApi({ dashboard: () => jsonResponse(SUBSCRIBED) });
    renderApp("/user-dashboard");

    expect(await screen.findByTestId("subscription-status")).toHaveTextContent("Active");
    expect(screen.queryByRole("button", { name: "Cancel subscription" })).not.toBeInTheDocument();
  });

  it("marks the current plan in the plan dialog and offers no second subscription to the plan paid for", async () => {
    mockApi({ dashboard: () => jsonResponse(SUBSCRIBED) });
    renderApp("/user-dashboard");

    fireEvent.click(await screen.findByRole("button", { name: "Upgrade / Change Plans" }));
    const dialog = await screen.findByRole("dialog", { name: "Choose Your Plan" });
    const growth = await within(dialog).findByRole("group", { name: "Growth" });
    expect(within(growth).getByText("Current plan")).toBeInTheDocument();
    expect(within(growth).getByText("Your subscription pays for this plan.")).toBeInTheDocument();
    expect(within(dialog).getAllByText("Current plan")).toHaveLength(1);
    const starter = within(dialog).getByRole("group", { name: "Starter" });
    expect(within(starter).queryByText("Your subscription pays for this plan.")).not.toBeInTheDocument();
  });
});

describe("impersonation", () => {
  it("shows no bar without stored impersonation entries", async () => {
    storeSession("key-ann-123");
    mockApi({});
    renderApp("/user-dashboard");

    await screen.findByText("ann@example.com");
    expect(screen.queryByText(/Eingeloggt als/)).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Zurück zum Admin-Dashboard" })).not.toBeInTheDocument();
  });

  it("names the viewed customer and returns the admin to /admin with their own key", async () => {
    storeSession("key-ann-123", "user");
    window.localStorage.setItem("adminApiKey", "admin-key");
    window.localStorage.setItem("impersonatedUserEmail", "ann@example.com");
    const fetchMock = mockApi({});
    const { queryClient } = renderApp("/user-dashboard");

    expect(screen.getByText("Eingeloggt als ann@example.com")).toBeInTheDocument();
    expect(await screen.findByText("key-ann-123")).toBeInTheDocument();
    expect(queryClient.getQueryData(userDashboardKeys.all)).toBeDefined();

    fireEvent.click(screen.getByRole("button", { name: "Zurück zum Admin-Dashboard" }));

    expect(await screen.findByRole("heading", { name: "Admin Dashboard" })).toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBe("admin-key");
    expect(window.localStorage.getItem("userRole")).toBe("admin");
    expect(window.localStorage.getItem("adminApiKey")).toBeNull();
    expect(window.localStorage.getItem("impersonatedUserEmail")).toBeNull();
    expect(queryClient.getQueryData(userDashboardKeys.all)).toBeUndefined();
    expect(screen.queryByText(/Eingeloggt als/)).not.toBeInTheDocument();
    // The admin guard checks the restored key.
    const auth = fetchMock.mock.calls.find(([u]) => u === "/api/auth");
    expect((auth?.[1]?.headers as Record<string, string>)["X-API-Key"]).toBe("admin-key");
  });
});
