/**
 * @module 'Export Full Details (XLSX)': every field of the rows on screen into `transactions.xlsx`, sheet
 * `Transactions`. SheetJS is large, so it is loaded only when the button is pressed.
 */
import type { Transaction } from "#contract/responses";

export const EXPORT_FILE_NAME = "transactions.xlsx";
export const EXPORT_SHEET_NAME = "Transactions";

// Every field of a transaction, in the order of SPEC.md §3; `satisfies` keeps the list complete.
const COLUMN_SET = {
  transactionId: true,
  receivedAt: true,
  recurringPaymentId: true,
  payerEmail: true,
  payerFirstName: true,
  payerLastName: true,
  payerId: true,
  payerStatus: true,
  productName: true,
  productType: true,
  amount: true,
  currency: true,
  fee: true,
  tax: true,
  paymentStatus: true,
  paymentType: true,
  subscriptionType: true,
  paymentCycle: true,
  nextPaymentDate: true,
  profileStatus: true,
  transactionType: true,
  receiverEmail: true,
  receiverId: true,
  addressName: true,
  addressStreet: true,
  addressCity: true,
  addressState: true,
  addressZip: true,
  addressCountry: true,
  addressCountryCode: true,
  residenceCountry: true,
  addressStatus: true,
  ipnTrackId: true,
  notifyVersion: true,
  hasMatchingUser: true,
} satisfies Record<keyof Transaction, true>;

/** The column headers: the field names as the API sends them. */
export const EXPORT_COLUMNS = Object.keys(COLUMN_SET) as (keyof Transaction)[];

/** Writes the rows as they came from the server (ISO dates, amounts as sent); missing values are empty cells. */
export async function exportTransactions(transactions: Transaction[]): Promise<void> {
  const XLSX = await import("xlsx");
  const rows = transactions.map((transaction) =>
    Object.fromEntries(EXPORT_COLUMNS.map((column) => [column, transaction[column] ?? null])),
  );
  const sheet = XLSX.utils.json_to_sheet(rows, { header: EXPORT_COLUMNS });
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, sheet, EXPORT_SHEET_NAME);
  XLSX.writeFile(workbook, EXPORT_FILE_NAME);
}
