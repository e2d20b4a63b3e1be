import { Loading } from "@/components/loading";
import { usePaymentHistory } from "@/queries/payment-history";
import { PaymentHistoryTable } from "./payment-history-table";

/** Loads the payments; a failure is toasted (with the server's message) and leaves a short note here. */
export function PaymentHistoryDataTable() {
  const payments = usePaymentHistory();

  if (payments.isPending) return <Loading />;
  if (payments.isError) {
    return <p className="py-8 text-center text-muted-foreground">The payment history could not be loaded.</p>;
  }
  return <PaymentHistoryTable payments={payments.data} />;
}
