import { LoadError, Loading } from "@/components/loading";
import { useTransactionDetail } from "@/queries/admin/billing";
import { TransactionDetailCards } from "./transaction-detail-cards";

export const DETAIL_LOAD_ERROR = "Error loading transaction details";

export function TransactionDetailData({ transactionId }: { transactionId: string }) {
  const detail = useTransactionDetail(transactionId);

  if (detail.isPending) return <Loading />;
  if (detail.isError) return <LoadError>{DETAIL_LOAD_ERROR}</LoadError>;
  return <TransactionDetailCards detail={detail.data} />;
}
