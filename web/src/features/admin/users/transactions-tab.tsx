import { PagedRows } from "@/components/paged-rows";
import { Card, CardContent } from "@/components/ui/card";
import { usePage } from "@/hooks/use-page";
import { useAdminUserTransactions } from "@/queries/admin/users";
import { TransactionsTable } from "./transactions-table";

export const TRANSACTIONS_LOAD_ERROR = "Error loading transactions";

/** The user's PayPal transactions, a page at a time; loaded when the tab is first opened. */
export function TransactionsTab({ userId }: { userId: string }) {
  const page = usePage(userId);
  const transactions = useAdminUserTransactions(userId, page.offset);
  return (
    <Card>
      <CardContent className="pt-6">
        <PagedRows query={transactions} page={page} loadError={TRANSACTIONS_LOAD_ERROR}>
          {(rows) => <TransactionsTable transactions={rows} />}
        </PagedRows>
      </CardContent>
    </Card>
  );
}
