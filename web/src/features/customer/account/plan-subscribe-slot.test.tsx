import type { PayPalButtonsComponentProps, ReactPayPalScriptOptions } from "@paypal/react-paypal-js";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CustomerDashboard, PayPalClientConfig, ProductVersion } from "#contract/responses";
import { AppProviders } from "@/app-providers";
import { setImpersonation } from "@/lib/storage";
import { jsonResponse, mockApi } from "@/test/fetch-mock";
import { productVersion, siteConfig } from "@/test/fixtures";
import { renderPlanDialog } from "@/test/render-plan-dialog";
import { storeSession } from "@/test/session";
import { PlanDialog } from "./plan-dialog";
import { CONTACT_TO_SWITCH, UNSTORED_NOTE } from "./plan-subscribe-slot";

// PayPal's React wrapper, replaced by stand-ins that record what the slot hands them.
const paypal = vi.hoisted(() => ({
  providerOptions: [] as unknown[],
  buttons: [] as unknown[],
}));

vi.mock("@paypal/react-paypal-js", () => ({
  PayPalScriptProvider: ({ options, children }: { options: unknown; children: ReactNode }) => {
    paypal.providerOptions.push(options);
    return <div data-testid="paypal-script-provider">{children}</div>;
  },
  // Each render's props are kept; the element points at them, so a test can take the props of a card's buttons.
  PayPalButtons: (props: unknown) => {
    paypal.buttons.push(props);
    return <div data-testid="paypal-buttons" data-props-index={paypal.buttons.length - 1} />;
  },
}));

type CreateSubscriptionActions = Parameters<NonNullable<PayPalButtonsComponentProps["createSubscription"]>>[1];
type OnApproveData = Parameters<NonNullable<PayPalButtonsComponentProps["onApprove"]>>[0];
type OnApproveActions = Parameters<NonNullable<PayPalButtonsComponentProps["onApprove"]>>[1];

const SDK_URL = "http://127.0.0.1:9999/sdk/js";

const PLANS: ProductVersion[] = [
  productVersion({ id: 1, name: "Free", price: 0, isDefault: true, paypalPlanId: "P-FREE" }),
  productVersion({ id: 2, name: "Starter", price: 29, paypalPlanId: "P-STARTER" }),
  productVersion({ id: 3, name: "Growth", price: 79, paypalPlanId: "P-GROWTH" }),
  productVersion({ id: 4, name: "Enterprise", price: null, paypalPlanId: null }),
];

const DASHBOARD: CustomerDashboard = {
  userId: "user-42",
  email: "ann@example.com",
  apiKey: "key-ann",
  jsSnippet: "",
  productVersion: null,
  limits: { websitesLimit: null, eventsLimit: null, dynamicContentLimit: null },
  billingPeriodStart: null,
  billingPeriodEnd: null,
  usage: {
    activeWebsites: 0,
    dynamicEvents: 0,
    contentGenerations: 0,
    notBilled: { requests: 0, contentGenerations: 0 },
  },
  subscription: null,
};

function openDialog(
  config: PayPalClientConfig,
  storeAnswer: () => Response = () => jsonResponse({ message: "ok" }),
  dashboard: CustomerDashboard = DASHBOARD,
) {
  storeSession("key-ann");
  const calls = mockApi(({ method, url }) => {
    if (url === "/api/paypal/config") return jsonResponse(config);
    if (url === "/api/user/dashboard") return jsonResponse(dashboard);
    if (url === "/api/product-versions") return jsonResponse(PLANS);
    if (url === "/api/site-config") return jsonResponse(siteConfig());
    if (url === "/api/store-subscription" && method === "POST") return storeAnswer();
    return undefined;
  });
  const rendered = renderPlanDialog(dashboard);
  return { calls, ...rendered };
}

/** What each plan card offers: PayPal's buttons, the retry of an approved subscription, a note, or nothing. */
async function offers() {
  const dialog = await screen.findByRole("dialog", { name: "Choose Your Plan" });
  const cards = await within(dialog).findAllByRole("group");
  return cards.map((card) => {
    const plan = within(card).getByRole("heading").textContent;
    if (within(card).queryByTestId("paypal-buttons")) return [plan, "buttons"];
    if (within(card).queryByRole("button", { name: "Try again" })) return [plan, "try again"];
    return [plan, card.lastElementChild?.textContent ?? ""];
  });
}

/** Which plan cards have buttons, once the SDK wrapper has rendered some. */
async function buttonsByPlan() {
  await waitFor(() => expect(paypal.buttons.length).toBeGreaterThan(0));
  const dialog = screen.getByRole("dialog", { name: "Choose Your Plan" });
  const cards = within(dialog).getAllByRole("group");
  return cards.map((card) => ({
    plan: within(card).getByRole("heading").textContent,
    hasButtons: within(card).queryByTestId("paypal-buttons") !== null,
  }));
}

/** The props of the buttons in the plan card named `planName`. */
function buttonsOf(planName: string): PayPalButtonsComponentProps {
  const card = screen.getByRole("group", { name: planName });
  const index = Number(within(card).getByTestId("paypal-buttons").getAttribute("data-props-index"));
  return paypal.buttons[index] as PayPalButtonsComponentProps;
}

const reload = vi.fn();

beforeEach(() => {
  paypal.providerOptions.length = 0;
  paypal.buttons.length = 0;
  reload.mockClear();
  // jsdom's location.reload cannot be spied on; the test replaces the whole location.
  vi.stubGlobal("location", { ...window.location, reload });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("plan subscribe buttons", () => {
  it("offers no buttons when PayPal is not configured (no client id): every plan says to contact us", async () => {
    const { calls } = openDialog({ clientId: null, sdkUrl: SDK_URL });
    const dialog = await screen.findByRole("dialog", { name: "Choose Your Plan" });
    expect(await within(dialog).findAllByRole("group")).toHaveLength(3);
    await waitFor(() => expect(calls.map((c) => c.url)).toContain("/api/paypal/config"));
    await waitFor(() => expect(within(dialog).getAllByText(/to switch to this plan/)).toHaveLength(3));

    expect(screen.queryByTestId("paypal-script-provider")).not.toBeInTheDocument();
    expect(screen.queryByTestId("paypal-buttons")).not.toBeInTheDocument();
    expect(paypal.buttons).toHaveLength(0);
  });

  it("says 'Contact us to switch to this plan' on a plan without a PayPal plan id, linking the contact page", async () => {
    openDialog({ clientId: "client-abc", sdkUrl: SDK_URL });
    await buttonsByPlan();
    const enterprise = screen.getByRole("group", { name: "Enterprise" });
    await waitFor(() => expect(enterprise).toHaveTextContent(CONTACT_TO_SWITCH));
    expect(within(enterprise).getByRole("link", { name: "Contact us" })).toHaveAttribute(
      "href",
      siteConfig().links!.contact,
    );
    expect(await offers()).toEqual([
      ["Starter", "buttons"],
      ["Growth", "buttons"],
      ["Enterprise", CONTACT_TO_SWITCH],
    ]);
  });

  it("says nothing of contacting us on the plan the customer holds already", async () => {
    const enterprise = PLANS[3]!;
    openDialog({ clientId: "client-abc", sdkUrl: SDK_URL }, undefined, { ...DASHBOARD, productVersion: enterprise });
    await buttonsByPlan();
    const card = screen.getByRole("group", { name: "Enterprise" });
    expect(within(card).getByText("Current plan")).toBeInTheDocument();
    expect(card).not.toHaveTextContent("to switch to this plan");
  });

  it("loads the SDK once from the server's address and renders buttons for plans with a PayPal plan id", async () => {
    const { calls } = openDialog({ clientId: "client-abc", sdkUrl: SDK_URL });

    expect(await buttonsByPlan()).toEqual([
      { plan: "Starter", hasButtons: true },
      { plan: "Growth", hasButtons: true },
      { plan: "Enterprise", hasButtons: false },
    ]);
    expect(screen.getAllByTestId("paypal-script-provider")).toHaveLength(1);
    const options = paypal.providerOptions.at(-1) as ReactPayPalScriptOptions;
    expect(options).toEqual({ clientId: "client-abc", vault: true, intent: "subscription", sdkBaseUrl: SDK_URL });
    expect(buttonsOf("Growth").style).toEqual({ layout: "vertical" });
    expect(calls.filter((c) => c.url === "/api/paypal/config")).toHaveLength(1);
  });

  it("creates the subscription with the plan's PayPal plan id and the customer's id as custom_id", async () => {
    openDialog({ clientId: "client-abc", sdkUrl: SDK_URL });
    await buttonsByPlan();

    const create = vi.fn((_body: unknown) => Promise.resolve("I-NEW"));
    const actions = { subscription: { create } } as unknown as CreateSubscriptionActions;
    await expect(buttonsOf("Growth").createSubscription!({} as never, actions)).resolves.toBe("I-NEW");
    expect(create).toHaveBeenCalledWith({ plan_id: "P-GROWTH", custom_id: "user-42" });

    create.mockClear();
    await buttonsOf("Starter").createSubscription!({} as never, actions);
    expect(create).toHaveBeenCalledWith({ plan_id: "P-STARTER", custom_id: "user-42" });
  });

  it("stores the approved subscription as ACTIVE, toasts the server's message and refreshes the account", async () => {
    const { calls } = openDialog({ clientId: "client-abc", sdkUrl: SDK_URL }, () =>
      jsonResponse({
        message: "Subscription stored. The Growth plan starts as soon as PayPal confirms the first payment.",
      }),
    );
    await buttonsByPlan();
    const before = Date.now();
    const dashboardLoads = () => calls.filter((c) => c.url === "/api/user/dashboard").length;
    const loadsBefore = dashboardLoads();

    await buttonsOf("Growth").onApprove!(
      { subscriptionID: "I-APPROVED", orderID: "O-1" } as OnApproveData,
      {} as OnApproveActions,
    );

    const stores = calls.filter((c) => c.url === "/api/store-subscription");
    expect(stores).toHaveLength(1);
    expect(stores[0]!.method).toBe("POST");
    const body = stores[0]!.body as { subscriptionId: string; status: string; updatedAt: string };
    expect(body).toEqual({ subscriptionId: "I-APPROVED", status: "ACTIVE", updatedAt: expect.any(String) });
    expect(new Date(body.updatedAt).toISOString()).toBe(body.updatedAt);
    expect(Date.parse(body.updatedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(await screen.findByText("Subscription stored")).toBeInTheDocument();
    expect(
      screen.getByText("Subscription stored. The Growth plan starts as soon as PayPal confirms the first payment."),
    ).toBeInTheDocument();
    await waitFor(() => expect(dashboardLoads()).toBeGreaterThan(loadsBefore));
    expect(reload).not.toHaveBeenCalled();
  });

  it("toasts the server's reason when the subscription cannot be stored", async () => {
    openDialog({ clientId: "client-abc", sdkUrl: SDK_URL }, () =>
      jsonResponse({ error: "PayPal could not be reached. Please try again." }, 502),
    );
    await buttonsByPlan();

    await buttonsOf("Starter").onApprove!(
      { subscriptionID: "I-BAD", orderID: "O-2" } as OnApproveData,
      {} as OnApproveActions,
    );

    expect(await screen.findByText("Failed to store subscription")).toBeInTheDocument();
    expect(screen.getByText("PayPal could not be reached. Please try again.")).toBeInTheDocument();
  });

  it("keeps an approved subscription PayPal could not confirm, and 'Try again' stores that same one", async () => {
    let answer = () => jsonResponse({ error: "PayPal could not be reached. Please try again." }, 502);
    const { calls } = openDialog({ clientId: "client-abc", sdkUrl: SDK_URL }, () => answer());
    await buttonsByPlan();

    await buttonsOf("Growth").onApprove!(
      { subscriptionID: "I-FIRST", orderID: "O-1" } as OnApproveData,
      {} as OnApproveActions,
    );
    expect(await screen.findByText("Failed to store subscription")).toBeInTheDocument();
    const growth = screen.getByRole("group", { name: "Growth" });
    expect(within(growth).getByText(UNSTORED_NOTE)).toBeInTheDocument();
    // No card offers a second approval while this one waits.
    expect(await offers()).toEqual([
      ["Starter", ""],
      ["Growth", "try again"],
      ["Enterprise", CONTACT_TO_SWITCH],
    ]);

    // Failing again keeps it; succeeding stores the same id and gives the buttons back.
    fireEvent.click(within(growth).getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(calls.filter((c) => c.url === "/api/store-subscription")).toHaveLength(2));
    expect(await within(growth).findByRole("button", { name: "Try again" })).toBeEnabled();
    answer = () => jsonResponse({ message: "Subscribed to Growth" });
    fireEvent.click(within(growth).getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Subscribed to Growth")).toBeInTheDocument();
    const stored = calls.filter((c) => c.url === "/api/store-subscription").map((c) => c.body);
    expect(stored.map((body) => (body as { subscriptionId: string }).subscriptionId)).toEqual([
      "I-FIRST",
      "I-FIRST",
      "I-FIRST",
    ]);
    await waitFor(() => expect(within(growth).queryByText(UNSTORED_NOTE)).not.toBeInTheDocument());
    expect(within(growth).getByTestId("paypal-buttons")).toBeInTheDocument();
  });

  it("offers the same approval again after the dialog is closed and reopened", async () => {
    const { rerender, queryClient } = openDialog({ clientId: "client-abc", sdkUrl: SDK_URL }, () =>
      jsonResponse({ error: "PayPal could not be reached. Please try again." }, 502),
    );
    await buttonsByPlan();
    await buttonsOf("Starter").onApprove!(
      { subscriptionID: "I-KEPT", orderID: "O-1" } as OnApproveData,
      {} as OnApproveActions,
    );
    expect(await screen.findByText(UNSTORED_NOTE)).toBeInTheDocument();

    // The same tree as renderPlanDialog's, so the dialog stays mounted as the plan chooser keeps it.
    rerender(
      <AppProviders queryClient={queryClient}>
        <PlanDialog open={false} onOpenChange={() => {}} />
      </AppProviders>,
    );
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Choose Your Plan" })).not.toBeInTheDocument());
    rerender(
      <AppProviders queryClient={queryClient}>
        <PlanDialog open onOpenChange={() => {}} />
      </AppProviders>,
    );
    const starter = await screen.findByRole("group", { name: "Starter" });
    expect(within(starter).getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });

  it("drops an approval the server refused (no retry of a refusal): the buttons come back", async () => {
    openDialog({ clientId: "client-abc", sdkUrl: SDK_URL }, () =>
      jsonResponse({ error: "PayPal did not confirm this subscription" }, 400),
    );
    await buttonsByPlan();
    await buttonsOf("Starter").onApprove!(
      { subscriptionID: "I-REFUSED", orderID: "O-1" } as OnApproveData,
      {} as OnApproveActions,
    );
    expect(await screen.findByText("PayPal did not confirm this subscription")).toBeInTheDocument();
    expect(screen.queryByText(UNSTORED_NOTE)).not.toBeInTheDocument();
    expect(within(screen.getByRole("group", { name: "Starter" })).getByTestId("paypal-buttons")).toBeInTheDocument();
  });

  it("shows no subscribe button while an admin acts as the customer", async () => {
    setImpersonation({ adminApiKey: "admin-key", email: "ann@example.com" });
    openDialog({ clientId: "client-abc", sdkUrl: SDK_URL });
    const dialog = await screen.findByRole("dialog", { name: "Choose Your Plan" });
    expect(await within(dialog).findAllByRole("group")).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId("paypal-buttons")).not.toBeInTheDocument();
  });
});
