import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { UnclaimedSubscription } from "#contract/responses";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";
import { ADMIN, signInAsAdmin } from "@/test/session";
import { findToast } from "@/test/toast";
import { unclaimedNoticeText, UNCLAIMED_NOTICE_LINK } from "../overview/unclaimed-subscriptions-notice";
import { CANCEL_AT_PAYPAL, linkLabel, NO_ACCOUNT_TEXT, UNCLAIMED_TITLE } from "./unclaimed-subscriptions-card";

afterEach(() => vi.unstubAllGlobals());

const LOST: UnclaimedSubscription = {
  subscriptionId: "I-LOST",
  lastPaymentAt: new Date(2026, 10, 20, 10, 0).toISOString(),
  transactionId: "TXN-1",
  payerEmail: "jane@shop.test",
  productName: "Growth",
  amount: 29,
  currency: "USD",
  account: { id: "u1", email: "jane@shop.test" },
};
const STRANGER: UnclaimedSubscription = {
  ...LOST,
  subscriptionId: "I-STRANGER",
  transactionId: "TXN-2",
  payerEmail: "who@else.test",
  account: null,
};

/** An admin against a fake API whose unclaimed list is `rows` until an action empties it. */
function openScreen(path: string, rows: UnclaimedSubscription[], action = () => jsonResponse({ message: "Done." })) {
  signInAsAdmin();
  let listed = rows;
  const posted: string[] = [];
  mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, "http://app.test");
    if (pathname === "/api/auth") return jsonResponse(ADMIN);
    if (pathname === "/api/admin/billing/unclaimed-subscriptions") {
      const res = jsonResponse(listed);
      res.headers.set("X-Total-Count", String(listed.length));
      return res;
    }
    if (init.method === "POST" && pathname.startsWith("/api/admin/billing/unclaimed-subscriptions/")) {
      posted.push(pathname);
      const answer = action();
      if (answer.ok) listed = [];
      return answer;
    }
    if (pathname === "/api/admin/billing/transactions") return jsonResponse([]);
    if (pathname === "/api/admin/overview") {
      return jsonResponse({ totalUsers: 1, revenueLast7Days: 0, revenueCurrentYear: 0, currency: "USD" });
    }
    return jsonResponse([]);
  });
  renderApp(path);
  return { posted };
}

describe("paid subscriptions without an account, on the billing screen", () => {
  it("lists each with its last payment, payer and account; Link posts at once and the server's words are toasted", async () => {
    const { posted } = openScreen("/admin/billing", [LOST, STRANGER], () =>
      jsonResponse({ message: "Linked to jane@shop.test. Subscribed to Growth" }),
    );
    const card = await screen.findByRole("region", { name: UNCLAIMED_TITLE });
    const rows = within(card).getAllByRole("row").slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole("cell")
          .map((c) => c.textContent),
      ),
    ).toEqual([
      [
        "I-LOST",
        "20.11.2026 10:00$29.00 · Growth",
        "jane@shop.test",
        "jane@shop.test",
        `${linkLabel("jane@shop.test")}${CANCEL_AT_PAYPAL}`,
      ],
      ["I-STRANGER", "20.11.2026 10:00$29.00 · Growth", "who@else.test", NO_ACCOUNT_TEXT, CANCEL_AT_PAYPAL],
    ]);

    fireEvent.click(within(rows[0]!).getByRole("button", { name: linkLabel("jane@shop.test") }));
    expect(await findToast()).toEqual({
      title: "Subscription linked",
      description: "Linked to jane@shop.test. Subscribed to Growth",
    });
    expect(posted).toEqual(["/api/admin/billing/unclaimed-subscriptions/I-LOST/link"]);
    await waitFor(() => expect(screen.queryByRole("region", { name: UNCLAIMED_TITLE })).not.toBeInTheDocument());
  });

  it("cancels only after the confirmation, and toasts PayPal's refusal without hiding the row", async () => {
    const { posted } = openScreen("/admin/billing", [STRANGER], () =>
      jsonResponse({ error: "PayPal did not confirm the cancellation. Please try again in a few minutes." }, 502),
    );
    const card = await screen.findByRole("region", { name: UNCLAIMED_TITLE });
    fireEvent.click(within(card).getByRole("button", { name: CANCEL_AT_PAYPAL }));
    const confirm = await screen.findByRole("alertdialog", { name: "Cancel I-STRANGER at PayPal?" });
    expect(posted).toEqual([]);
    fireEvent.click(within(confirm).getByRole("button", { name: CANCEL_AT_PAYPAL }));
    expect(await findToast()).toEqual({
      title: "Failed to cancel subscription",
      description: "PayPal did not confirm the cancellation. Please try again in a few minutes.",
    });
    expect(posted).toEqual(["/api/admin/billing/unclaimed-subscriptions/I-STRANGER/cancel"]);
    expect(screen.getByRole("region", { name: UNCLAIMED_TITLE })).toBeInTheDocument();
  });

  it("shows nothing while every paid subscription has its account", async () => {
    openScreen("/admin/billing", []);
    expect(await screen.findByRole("heading", { name: "Transaction History" })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText("No transactions found")).toBeInTheDocument());
    expect(screen.queryByRole("region", { name: UNCLAIMED_TITLE })).not.toBeInTheDocument();
  });
});

describe("paid subscriptions without an account, on the admin dashboard", () => {
  it("alerts with their number and a link to the billing screen", async () => {
    openScreen("/admin", [LOST, STRANGER]);
    const alert = await screen.findByRole("alert", { name: "Paid subscriptions without an account" });
    expect(alert).toHaveTextContent(unclaimedNoticeText(2));
    expect(unclaimedNoticeText(2)).toBe(
      "PayPal charges 2 subscriptions that belong to no account: their payments grant no plan.",
    );
    expect(within(alert).getByRole("link", { name: UNCLAIMED_NOTICE_LINK })).toHaveAttribute("href", "/admin/billing");
  });

  it("says nothing while there are none", async () => {
    openScreen("/admin", []);
    expect(await screen.findByText("Total Users")).toBeInTheDocument();
    expect(screen.queryByRole("alert", { name: "Paid subscriptions without an account" })).not.toBeInTheDocument();
  });
});
