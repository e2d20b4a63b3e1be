import { LoadError, Loading } from "@/components/loading";
import { Card, CardContent } from "@/components/ui/card";
import { useAdminUserTransactions } from "@/queries/admin-users";
import { TransactionsTable } from "./transactions-table";

export const TRANSACTIONS_LOAD_ERROR = "Error loading transactions";

/** The user's PayPal transactions; loaded when the tab is first opened. */
export function TransactionsTab({ userId }: { userId: string }) {
  const transactions = useAdminUserTransactions(userId);
  return (
    <Card>
      <CardContent className="pt-6">
        {transactions.isPending ? (
          <Loading />
        ) : transactions.isError ? (
          <LoadError>{TRANSACTIONS_LOAD_ERROR}</LoadError>
        ) : (
          <TransactionsTable transactions={transactions.data} />
        )}
      </CardContent>
    </Card>
  );
}
