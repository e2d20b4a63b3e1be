import { Spinner } from "@/components/ui/spinner";
import { useTransactionDetail } from "@/queries/admin-billing";
import { TransactionDetailCards } from "./transaction-detail-cards";

export const DETAIL_LOAD_ERROR = "Error loading transaction details";

export function TransactionDetailData({ transactionId }: { transactionId: string }) {
  const detail = useTransactionDetail(transactionId);

  if (detail.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner />
      </div>
    );
  }
  if (detail.isError) {
    return <p className="py-8 text-center text-destructive">{DETAIL_LOAD_ERROR}</p>;
  }
  return <TransactionDetailCards detail={detail.data} />;
}
