import { useAdminUserTransactions } from "@/queries/admin-users";
import { Card, CardContent } from "@/components/ui/card";
import { Loading } from "./loading";
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
          <p className="py-8 text-center text-destructive">{TRANSACTIONS_LOAD_ERROR}</p>
        ) : (
          <TransactionsTable transactions={transactions.data} />
        )}
      </CardContent>
    </Card>
  );
}
