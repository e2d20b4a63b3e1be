import { useParams } from "react-router-dom";
import { TransactionDetailLayout } from "./transaction-detail-layout";

/** /admin/billing/transaction/:id: one PayPal transaction (by PayPal's transaction id), grouped in cards. */
export function TransactionDetailPage() {
  const { id = "" } = useParams();
  return <TransactionDetailLayout transactionId={id} />;
}
