import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { endOfDay, startOfDay } from "date-fns";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Transaction } from "#contract/responses";
import { apiCall, jsonResponse, mockFetch } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";
import { ADMIN, signInAsAdmin } from "@/test/session";
import { transactionDetailPath } from "./billing-transactions-table";

// SheetJS itself, except that nothing is downloaded: the test reads the workbook handed to writeFile.
vi.mock("xlsx", async (importOriginal) => ({
  ...(await importOriginal<typeof import("xlsx")>()),
  writeFile: vi.fn(),
}));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const transaction = (overrides: Partial<Transaction>): Transaction => ({
  transactionId: "T-1",
  receivedAt: null,
  recurringPaymentId: null,
  payerEmail: null,
  payerFirstName: null,
  payerLastName: null,
  payerId: null,
  payerStatus: null,
  productName: null,
  productType: null,
  amount: null,
  currency: null,
  fee: null,
  tax: null,
  paymentStatus: null,
  paymentType: null,
  subscriptionType: null,
  paymentCycle: null,
  nextPaymentDate: null,
  profileStatus: null,
  transactionType: null,
  receiverEmail: null,
  receiverId: null,
  addressName: null,
  addressStreet: null,
  addressCity: null,
  addressState: null,
  addressZip: null,
  addressCountry: null,
  addressCountryCode: null,
  residenceCountry: null,
  addressStatus: null,
  ipnTrackId: null,
  notifyVersion: null,
  hasMatchingUser: true,
  ...overrides,
});

const TRANSACTIONS: Transaction[] = [
  transaction({
    transactionId: "8AB12345CD678901E",
    receivedAt: new Date(2025, 2, 5, 14, 7).toISOString(),
    recurringPaymentId: "I-SUB1",
    payerEmail: "ann@example.com",
    payerFirstName: "Ann",
    payerLastName: "Smith",
    productName: "Growth",
    subscriptionType: "Monthly",
    amount: 1234.5,
    currency: "USD",
    paymentStatus: "Completed",
    fee: "2.50",
  }),
  transaction({
    transactionId: "T-EUR",
    receivedAt: new Date(2025, 1, 1, 9, 0).toISOString(),
    payerEmail: "stranger@example.org",
    payerFirstName: "Sam",
    payerLastName: "Stranger",
    productName: "Starter",
    amount: "12.5",
    currency: "EUR",
    paymentStatus: "completed",
    hasMatchingUser: false,
  }),
  transaction({
    transactionId: "T-PENDING",
    payerEmail: "bob@example.com",
    productName: "Scale",
    amount: "n/a",
    currency: null,
    paymentStatus: "Pending",
  }),
  transaction({ transactionId: "T-NODOLLAR", amount: 29, currency: null, paymentStatus: "Refunded" }),
];

/** The Worker's filters (docs/api.md): dates inclusive, status and email case-insensitive substrings. */
function filterLikeServer(url: URL): Transaction[] {
  const startDate = url.searchParams.get("startDate");
  const endDate = url.searchParams.get("endDate");
  const status = url.searchParams.get("status")?.toLowerCase();
  const email = url.searchParams.get("email")?.toLowerCase();
  return TRANSACTIONS.filter(
    (t) =>
      (!startDate || (t.receivedAt !== null && t.receivedAt >= startDate)) &&
      (!endDate || (t.receivedAt !== null && t.receivedAt <= endDate)) &&
      (!status || (t.paymentStatus ?? "").toLowerCase().includes(status)) &&
      (!email || (t.payerEmail ?? "").toLowerCase().includes(email)),
  );
}

/** An admin session against a fake API; `answer` may override any call. */
function openScreen(answer?: (url: URL) => Response | undefined) {
  signInAsAdmin();
  const fetchMock = mockFetch(({ url: path }) => {
    const url = new URL(path, "http://app.test");
    const custom = answer?.(url);
    if (custom) return custom;
    if (url.pathname === "/api/auth") return jsonResponse(ADMIN);
    if (url.pathname === "/api/admin/billing/transactions") return jsonResponse(filterLikeServer(url));
    if (url.pathname === "/api/admin/billing/unclaimed-subscriptions") return jsonResponse([]);
    return jsonResponse({ error: `unexpected ${path}` }, 500);
  });
  // The list's addresses without the page size, which every page names (apiCall).
  const listCalls = () =>
    fetchMock.mock.calls
      .map(([u, init]) => apiCall({ url: String(u), init: init ?? {} }).url)
      .filter((u) => u.startsWith("/api/admin/billing/transactions"));
  return { ...renderApp("/admin/billing"), fetchMock, listCalls };
}

async function rowOf(transactionId: string) {
  return (await screen.findByRole("link", { name: transactionId })).closest("tr")!;
}

const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole("cell")
    .map((cell) => cell.textContent);

async function pickDay(fieldLabel: string, day: number) {
  fireEvent.click(screen.getByRole("button", { name: fieldLabel }));
  const month = await screen.findByRole("grid");
  fireEvent.click(
    within(month)
      .getAllByRole("button")
      .find((button) => button.textContent === String(day))!,
  );
  await waitFor(() => expect(screen.queryByRole("grid")).not.toBeInTheDocument());
}

describe("billing dashboard table", () => {
  it("shows a spinner, then Date, Transaction ID, Payer, Product, US amounts and coloured status badges", async () => {
    openScreen();
    expect(await screen.findByRole("heading", { name: "Billing Dashboard" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Admin Dashboard" })).toHaveAttribute("href", "/admin");
    expect(screen.getByRole("heading", { name: "Transaction History" })).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Loading" })).toBeInTheDocument();

    const first = await rowOf("8AB12345CD678901E");
    expect(screen.getAllByRole("columnheader").map((h) => h.textContent)).toEqual([
      "Date",
      "Transaction ID",
      "Payer",
      "Product",
      "Amount",
      "Status",
    ]);
    expect(cellTexts(first)).toEqual([
      "05.03.2025 14:07",
      "8AB12345CD678901E",
      "ann@example.comAnn Smith",
      "GrowthMonthly",
      "$1,234.50",
      "Completed",
    ]);
    expect(within(first).getByText("Completed")).toHaveClass("bg-success");
    expect(within(first).getByText("Ann Smith")).toBeInTheDocument();
    expect(within(first).getByText("Monthly")).toBeInTheDocument();

    // Another currency keeps the US format; 'completed' in any case is green.
    const euro = await rowOf("T-EUR");
    expect(cellTexts(euro)[4]).toBe("€12.50");
    expect(within(euro).getByText("completed")).toHaveClass("bg-success");

    // A non-numeric amount is shown as it is; any other status is yellow.
    const pending = await rowOf("T-PENDING");
    expect(cellTexts(pending)[0]).toBe("-");
    expect(cellTexts(pending)[4]).toBe("n/a");
    expect(within(pending).getByText("Pending")).toHaveClass("bg-yellow-100");
    expect(within(pending).getByText("Pending")).not.toHaveClass("bg-success");

    // No currency: USD.
    const refunded = await rowOf("T-NODOLLAR");
    expect(cellTexts(refunded)[4]).toBe("$29.00");
    expect(within(refunded).getByText("Refunded")).toHaveClass("bg-yellow-100");
  });

  it("tints a payer without an account red, with a warning icon and its tooltip", async () => {
    openScreen();
    const unmatched = await rowOf("T-EUR");
    expect(unmatched).toHaveClass("bg-red-50");
    const mark = within(unmatched).getByRole("img", { name: "No matching user account found" });
    fireEvent.focus(mark);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("No matching user account found");

    const matched = await rowOf("8AB12345CD678901E");
    expect(matched).not.toHaveClass("bg-red-50");
    expect(within(matched).queryByRole("img", { name: "No matching user account found" })).not.toBeInTheDocument();
    expect(screen.getAllByRole("img", { name: "No matching user account found" })).toHaveLength(1);
  });

  it("opens a row's transaction detail when the row is clicked", async () => {
    const { fetchMock } = openScreen((url) =>
      url.pathname.startsWith("/api/admin/billing/transaction/")
        ? jsonResponse({ error: "Not found" }, 404)
        : undefined,
    );
    const row = await rowOf("8AB12345CD678901E");
    fireEvent.click(within(row).getByText("Growth"));

    expect(await screen.findByRole("heading", { name: "Transaction Details" })).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain(
        "/api/admin/billing/transaction/8AB12345CD678901E",
      ),
    );
  });

  it("opens the detail from the warning icon of an unmatched row too (the ID is an encoded link)", async () => {
    const { fetchMock } = openScreen((url) =>
      url.pathname.startsWith("/api/admin/billing/transaction/")
        ? jsonResponse({ error: "Not found" }, 404)
        : undefined,
    );
    expect(await screen.findByRole("link", { name: "T-EUR" })).toHaveAttribute(
      "href",
      "/admin/billing/transaction/T-EUR",
    );
    expect(transactionDetailPath("A B/1")).toBe("/admin/billing/transaction/A%20B%2F1");
    fireEvent.click(within(await rowOf("T-EUR")).getByRole("img", { name: "No matching user account found" }));

    expect(await screen.findByText("Error loading transaction details")).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain("/api/admin/billing/transaction/T-EUR");
  });

  it("shows 'Error loading transaction data' when the list fails", async () => {
    openScreen((url) =>
      url.pathname === "/api/admin/billing/transactions" ? jsonResponse({ error: "boom" }, 500) : undefined,
    );
    expect(await screen.findByText("Error loading transaction data")).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });
});

describe("billing filters", () => {
  it("refetches as the filters change: start of the start day, end of the end day, status and email", async () => {
    const { listCalls } = openScreen();
    await rowOf("8AB12345CD678901E");
    expect(listCalls()).toEqual(["/api/admin/billing/transactions"]);

    expect(screen.getByLabelText("Payment Status")).toHaveAttribute("placeholder", "Completed");
    expect(screen.getByRole("button", { name: "Start Date" })).toHaveTextContent("Pick a date");
    expect(screen.getByRole("button", { name: "End Date" })).toHaveTextContent("Pick a date");

    const today = new Date();
    const day10 = new Date(today.getFullYear(), today.getMonth(), 10);
    const day20 = new Date(today.getFullYear(), today.getMonth(), 20);
    const startIso = startOfDay(day10).toISOString();
    const endIso = endOfDay(day20).toISOString();
    // The local day's first and last millisecond.
    expect(startIso).toBe(new Date(today.getFullYear(), today.getMonth(), 10, 0, 0, 0, 0).toISOString());
    expect(endIso).toBe(new Date(today.getFullYear(), today.getMonth(), 20, 23, 59, 59, 999).toISOString());

    await pickDay("Start Date", 10);
    await waitFor(() =>
      expect(listCalls().at(-1)).toBe(
        `/api/admin/billing/transactions?${new URLSearchParams({ startDate: startIso })}`,
      ),
    );

    await pickDay("End Date", 20);
    await waitFor(() =>
      expect(listCalls().at(-1)).toBe(
        `/api/admin/billing/transactions?${new URLSearchParams({ startDate: startIso, endDate: endIso })}`,
      ),
    );
    // Nothing this month: the table empties.
    expect(await screen.findByText("No transactions found")).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText("Payment Status"), { target: { value: " Completed " } });
    fireEvent.change(screen.getByLabelText("Payer Email"), { target: { value: "ann@" } });
    await waitFor(() =>
      expect(listCalls().at(-1)).toBe(
        `/api/admin/billing/transactions?${new URLSearchParams({
          startDate: startIso,
          endDate: endIso,
          status: "Completed",
          email: "ann@",
        })}`,
      ),
    );

    // 'Apply Filters' asks for nothing itself.
    const count = listCalls().length;
    fireEvent.click(screen.getByRole("button", { name: "Apply Filters" }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(listCalls()).toHaveLength(count);
  });

  it("narrows the table to the rows the server answers for the filters", async () => {
    openScreen();
    await rowOf("8AB12345CD678901E");

    fireEvent.change(screen.getByLabelText("Payment Status"), { target: { value: "pend" } });
    await waitFor(() => expect(screen.queryByRole("link", { name: "8AB12345CD678901E" })).not.toBeInTheDocument());
    expect(screen.getByRole("link", { name: "T-PENDING" })).toBeInTheDocument();
    expect(screen.getAllByRole("row")).toHaveLength(2);
  });
});

describe("export", () => {
  it("writes transactions.xlsx with a sheet 'Transactions' holding every field of the filtered rows", async () => {
    const XLSX = await import("xlsx");
    openScreen();
    await rowOf("8AB12345CD678901E");

    fireEvent.change(screen.getByLabelText("Payment Status"), { target: { value: "completed" } });
    await waitFor(() => expect(screen.queryByRole("link", { name: "T-PENDING" })).not.toBeInTheDocument());

    fireEvent.click(screen.getByRole("button", { name: "Export Full Details (XLSX)" }));
    await waitFor(() => expect(XLSX.writeFile).toHaveBeenCalledTimes(1));

    const [workbook, fileName] = vi.mocked(XLSX.writeFile).mock.calls[0]!;
    expect(fileName).toBe("transactions.xlsx");
    expect(workbook.SheetNames).toEqual(["Transactions"]);
    const sheet = workbook.Sheets["Transactions"]!;

    // Header row: every field of a transaction.
    const [header] = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1 });
    expect([...header!].sort()).toEqual(Object.keys(TRANSACTIONS[0]!).sort());

    // Data rows: the two completed transactions, field by field (missing values are empty cells).
    const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(sheet, { defval: null });
    const expected = TRANSACTIONS.filter((t) => t.paymentStatus?.toLowerCase() === "completed");
    expect(rows).toEqual(expected);
  });
});
