import { PagedRows } from "@/components/paged-rows";
import { usePage } from "@/hooks/use-page";
import { useAdminTransactions, type TransactionQuery } from "@/queries/admin/billing";
import { BillingTransactionsTable } from "./billing-transactions-table";

export const TRANSACTIONS_LOAD_ERROR = "Error loading transaction data";

/** The transactions of the current filters, a page at a time; the previous rows stay (dimmed) while a new page loads. */
export function TransactionsDataTable({ query }: { query: TransactionQuery }) {
  const page = usePage(query);
  const transactions = useAdminTransactions(query, page.offset);
  return (
    <PagedRows query={transactions} page={page} loadError={TRANSACTIONS_LOAD_ERROR}>
      {(rows) => (
        <div
          aria-busy={transactions.isPlaceholderData || undefined}
          className={transactions.isPlaceholderData ? "opacity-60" : undefined}
        >
          <BillingTransactionsTable transactions={rows} />
        </div>
      )}
    </PagedRows>
  );
}
