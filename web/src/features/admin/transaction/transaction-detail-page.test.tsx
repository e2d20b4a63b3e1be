import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TransactionDetail } from "#contract/responses";
import { apiCall, jsonResponse, mockApiRecording, type ApiCall, type ApiRoute } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";
import { findToast } from "@/test/toast";
import { ADMIN, signInAsAdmin } from "@/test/session";

afterEach(() => {
  vi.unstubAllGlobals();
});

const ID = "8AB12345CD678901E";
const DETAIL_PATH = `/api/admin/billing/transaction/${ID}`;
const UPDATE_PATH = `${DETAIL_PATH}/update-email`;

const detail = (overrides: Partial<TransactionDetail> = {}): TransactionDetail => ({
  transactionId: ID,
  hasMatchingUser: false,
  receivedAt: new Date(2025, 2, 5, 14, 7).toISOString(),
  payerInfo: {
    email: "old@example.com",
    originalEmail: "old@example.com",
    firstName: "Ann",
    lastName: "",
    payerId: "PAYER1",
    payerStatus: "verified",
  },
  productInfo: { productName: "Growth", productType: null },
  paymentDetails: {
    amount: "79.00",
    currency: "USD",
    tax: "0.00",
    fee: "2.59",
    paymentType: "instant",
    paymentStatus: "Completed",
    outstandingBalance: null,
    shipping: null,
  },
  subscriptionData: {
    subscriptionType: "recurring_payment",
    paymentCycle: "Monthly",
    amountPerCycle: "79.00",
    initialPaymentAmount: "0.00",
    profileStatus: "Active",
    nextPaymentDate: new Date(2025, 3, 5, 9, 30).toISOString(),
    transactionId: ID,
    recurringPaymentId: "I-SUB1",
    transactionType: "recurring_payment",
  },
  merchantInfo: { email: "shop@example.com", businessEmail: null, receiverId: "RECV1" },
  payerAddress: {
    name: "Ann",
    street: null,
    city: "Berlin",
    state: null,
    postalCode: "10115",
    country: "Germany",
    countryCode: "DE",
    residenceCountry: "DE",
    addressStatus: "confirmed",
  },
  additionalInfo: {
    transactionSubject: null,
    timeCreated: "14:07:00 Mar 05, 2025 PST",
    verifySign: "SIGN",
    ipnTrackId: "TRACK1",
    notifyVersion: "3.9",
  },
  ...overrides,
});

interface Call extends ApiCall {
  apiKey: string | undefined;
}

/** An admin session on the detail screen; `answer` may override any call. */
function openScreen(answer?: ApiRoute<Call>) {
  signInAsAdmin();
  const calls = mockApiRecording(
    (request): Call => ({
      ...apiCall(request),
      apiKey: (request.init.headers as Record<string, string> | undefined)?.["X-API-Key"],
    }),
    answer,
    ({ url }) => {
      if (url === "/api/auth") return jsonResponse(ADMIN);
      if (url === DETAIL_PATH) return jsonResponse(detail());
      return undefined;
    },
  );
  const rendered = renderApp(`/admin/billing/transaction/${ID}`);
  const detailLoads = () => calls.filter((c) => c.method === "GET" && c.url === DETAIL_PATH).length;
  const updates = () => calls.filter((c) => c.url === UPDATE_PATH);
  return { ...rendered, calls, detailLoads, updates };
}

const card = (title: string) => screen.getByRole("region", { name: title });

/** The value next to `label` in a card. */
const valueOf = (cardTitle: string, label: string) =>
  within(card(cardTitle)).getByText(label, { selector: "dt" }).nextElementSibling!;

async function startEditing() {
  const payer = await screen.findByRole("region", { name: "Zahler" });
  fireEvent.click(within(payer).getByRole("button", { name: "Edit" }));
  return screen.getByRole("textbox", { name: "Zahler-E-Mail" });
}

describe("transaction detail", () => {
  it("shows the seven groups as German cards, '-' for empty values and dates as dd.MM.yyyy HH:mm", async () => {
    openScreen();
    expect(await screen.findByRole("heading", { name: "Transaction Details" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Billing Dashboard" })).toHaveAttribute("href", "/admin/billing");

    await screen.findByRole("region", { name: "Zahler" });
    expect(screen.getAllByRole("heading", { level: 3 }).map((h) => h.textContent)).toEqual([
      "Zahler",
      "Produktversion",
      "Zahlungsdetails",
      "Abonnement- und Transaktionsdaten",
      "Zahlungsempfänger",
      "Kundenadresse",
      "Weitere Informationen",
    ]);

    expect(valueOf("Zahler", "E-Mail")).toHaveTextContent("old@example.com");
    expect(valueOf("Zahler", "Ursprüngliche E-Mail")).toHaveTextContent("old@example.com");
    expect(valueOf("Zahler", "Vorname")).toHaveTextContent("Ann");
    expect(valueOf("Zahler", "Nachname")).toHaveTextContent(/^-$/);
    expect(valueOf("Produktversion", "Produkttyp")).toHaveTextContent(/^-$/);
    expect(valueOf("Zahlungsdetails", "Betrag")).toHaveTextContent("$79.00");
    expect(valueOf("Zahlungsdetails", "Versand")).toHaveTextContent(/^-$/);
    expect(valueOf("Abonnement- und Transaktionsdaten", "Nächstes Zahlungsdatum")).toHaveTextContent(
      /^05\.04\.2025 09:30$/,
    );
    expect(valueOf("Abonnement- und Transaktionsdaten", "Abonnement-ID")).toHaveTextContent("I-SUB1");
    expect(valueOf("Zahlungsempfänger", "Geschäfts-E-Mail")).toHaveTextContent(/^-$/);
    expect(valueOf("Kundenadresse", "Straße")).toHaveTextContent(/^-$/);
    expect(valueOf("Kundenadresse", "Stadt")).toHaveTextContent("Berlin");
    // 'timeCreated' has no 'date' in its name: shown as PayPal sent it.
    expect(valueOf("Weitere Informationen", "Erstellt (PayPal)")).toHaveTextContent("14:07:00 Mar 05, 2025 PST");
    expect(valueOf("Weitere Informationen", "Betreff")).toHaveTextContent(/^-$/);
    expect(screen.getByText("Eingegangen am 05.03.2025 14:07")).toBeInTheDocument();
    expect(screen.getByText("No matching user account found")).toBeInTheDocument();

    // Active subscription: no cancelled box.
    expect(screen.queryByText("Subscription Cancelled")).not.toBeInTheDocument();
  });

  it("shows an unparseable date field as it is", async () => {
    openScreen(({ url }) =>
      url === DETAIL_PATH
        ? jsonResponse(
            detail({
              subscriptionData: { ...detail().subscriptionData, nextPaymentDate: "03:00:00 Apr 05, 2025 PDT" },
            }),
          )
        : undefined,
    );
    await screen.findByRole("region", { name: "Abonnement- und Transaktionsdaten" });
    expect(valueOf("Abonnement- und Transaktionsdaten", "Nächstes Zahlungsdatum")).toHaveTextContent(
      "03:00:00 Apr 05, 2025 PDT",
    );
  });

  it("shows the red 'Subscription Cancelled' box in the subscription card for a cancelled profile (any case)", async () => {
    openScreen(({ url }) =>
      url === DETAIL_PATH
        ? jsonResponse(detail({ subscriptionData: { ...detail().subscriptionData, profileStatus: "CANCELLED" } }))
        : undefined,
    );
    const box = await within(
      await screen.findByRole("region", { name: "Abonnement- und Transaktionsdaten" }),
    ).findByText("Subscription Cancelled");
    expect(box).toHaveClass("bg-red-50");
    expect(within(card("Zahler")).queryByText("Subscription Cancelled")).not.toBeInTheDocument();
  });

  it("shows 'Error loading transaction details' when the detail fails", async () => {
    openScreen(({ url }) => (url === DETAIL_PATH ? jsonResponse({ error: "Transaction not found" }, 404) : undefined));
    expect(await screen.findByText("Error loading transaction details")).toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Zahler" })).not.toBeInTheDocument();
  });
});

describe("payer email edit", () => {
  it("saves the new email, toasts, closes the input and reloads detail and lists", async () => {
    const { updates, detailLoads, queryClient } = openScreen(({ method, url }) =>
      method === "PATCH" && url === UPDATE_PATH
        ? jsonResponse({
            message: "Email updated successfully",
            transaction: detail({
              hasMatchingUser: true,
              payerInfo: { ...detail().payerInfo, email: "jane@shop.test" },
            }),
            linked: { email: "jane@shop.test", by: "email" },
          })
        : undefined,
    );
    const input = await startEditing();
    // A cached billing list must be refreshed too.
    queryClient.setQueryData(["admin", "billing", "transactions", {}], []);
    expect(input).toHaveValue("old@example.com");
    expect(screen.getByRole("button", { name: "Cancel" })).toBeInTheDocument();

    fireEvent.change(input, { target: { value: " Jane@Shop.test " } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));

    expect(await findToast()).toEqual({
      title: "Email updated successfully",
      description: "The transaction has been linked to the new user account.",
    });
    expect(updates()).toEqual([
      { method: "PATCH", url: UPDATE_PATH, body: { email: "Jane@Shop.test" }, apiKey: "admin-key" },
    ]);
    await waitFor(() => expect(screen.queryByRole("textbox", { name: "Zahler-E-Mail" })).not.toBeInTheDocument());
    await waitFor(() => expect(detailLoads()).toBe(2));
    expect(queryClient.getQueryState(["admin", "billing", "transactions", {}])?.isInvalidated).toBe(true);
  });

  it.each([
    [
      { email: "jane@shop.test", by: "subscription" },
      "The transaction stays with jane@shop.test, who holds its subscription.",
    ],
    [null, "No user account has this email: the transaction is linked to none."],
  ])("says what the correction linked: %o", async (linked, description) => {
    openScreen(({ method, url }) =>
      method === "PATCH" && url === UPDATE_PATH
        ? jsonResponse({ message: "Email updated successfully", transaction: detail(), linked })
        : undefined,
    );
    const input = await startEditing();
    fireEvent.change(input, { target: { value: "payer@shop.test" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await findToast()).toEqual({ title: "Email updated successfully", description });
  });

  it("Cancel closes the input without sending", async () => {
    const { updates } = openScreen();
    const input = await startEditing();
    fireEvent.change(input, { target: { value: "x@y.z" } });
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("textbox", { name: "Zahler-E-Mail" })).not.toBeInTheDocument();
    expect(valueOf("Zahler", "E-Mail")).toHaveTextContent("old@example.com");
    expect(updates()).toEqual([]);
  });

  it("checks the email with the server's schema before sending", async () => {
    const { updates } = openScreen();
    fireEvent.change(await startEditing(), { target: { value: "not-an-email" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Invalid payer email")).toBeInTheDocument();
    expect(updates()).toEqual([]);
  });

  it("without a stored key fails with 'Authentication required' and sends nothing", async () => {
    const { updates } = openScreen();
    const input = await startEditing();
    // The key is gone (e.g. signed out in another tab).
    window.localStorage.removeItem("apiKey");
    fireEvent.change(input, { target: { value: "jane@shop.test" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));

    expect(await findToast()).toEqual({ title: "Failed to update email", description: "Authentication required" });
    expect(updates()).toEqual([]);
    expect(screen.getByRole("textbox", { name: "Zahler-E-Mail" })).toBeInTheDocument();
  });

  it.each([
    ["the server's error", () => jsonResponse({ error: "Invalid payer email" }, 400), "Invalid payer email"],
    ["'Failed to update email' for a JSON body without error", () => jsonResponse({}, 500), "Failed to update email"],
    [
      "the status for an unreadable body",
      () => new Response("<html>Bad gateway</html>", { status: 502 }),
      "Failed to update email (status 502)",
    ],
  ])("toasts 'Failed to update email' with %s", async (_case, respond, message) => {
    openScreen(({ method }) => (method === "PATCH" ? respond() : undefined));
    fireEvent.change(await startEditing(), { target: { value: "jane@shop.test" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));

    expect(await findToast()).toEqual({ title: "Failed to update email", description: message });
    // No generic 'Error' toast beside it; the input stays open for another try.
    expect(screen.queryByText("Error")).not.toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Zahler-E-Mail" })).toBeInTheDocument();
  });
});
