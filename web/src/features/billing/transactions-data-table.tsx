import { Spinner } from "@/components/ui/spinner";
import { useAdminTransactions, type TransactionQuery } from "@/queries/admin-billing";
import { BillingTransactionsTable } from "./billing-transactions-table";

export const TRANSACTIONS_LOAD_ERROR = "Error loading transaction data";

/** The transactions of the current filters; the previous rows stay (dimmed) while a new filter loads. */
export function TransactionsDataTable({ query }: { query: TransactionQuery }) {
  const transactions = useAdminTransactions(query);

  if (transactions.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner />
      </div>
    );
  }
  if (transactions.isError) {
    return <p className="py-8 text-center text-destructive">{TRANSACTIONS_LOAD_ERROR}</p>;
  }
  return (
    <div
      aria-busy={transactions.isPlaceholderData || undefined}
      className={transactions.isPlaceholderData ? "opacity-60" : undefined}
    >
      <BillingTransactionsTable transactions={transactions.data} />
    </div>
  );
}
