import { LoadError, Loading } from "@/components/loading";
import { useAdminTransactions, type TransactionQuery } from "@/queries/admin-billing";
import { BillingTransactionsTable } from "./billing-transactions-table";

export const TRANSACTIONS_LOAD_ERROR = "Error loading transaction data";

/** The transactions of the current filters; the previous rows stay (dimmed) while a new filter loads. */
export function TransactionsDataTable({ query }: { query: TransactionQuery }) {
  const transactions = useAdminTransactions(query);

  if (transactions.isPending) return <Loading />;
  if (transactions.isError) return <LoadError>{TRANSACTIONS_LOAD_ERROR}</LoadError>;
  return (
    <div
      aria-busy={transactions.isPlaceholderData || undefined}
      className={transactions.isPlaceholderData ? "opacity-60" : undefined}
    >
      <BillingTransactionsTable transactions={transactions.data} />
    </div>
  );
}
