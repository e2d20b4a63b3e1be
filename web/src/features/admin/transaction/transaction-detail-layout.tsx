import { BackLink } from "@/components/back-link";
import { PageContainer } from "@/components/layout/page-container";
import { TransactionDetailData } from "./transaction-detail-data";

export function TransactionDetailLayout({ transactionId }: { transactionId: string }) {
  return (
    <PageContainer className="space-y-6">
      <div className="space-y-2">
        <BackLink to="/admin/billing">Back to Billing Dashboard</BackLink>
        <h1 className="text-3xl font-bold">Transaction Details</h1>
        <p className="font-mono text-sm break-all text-muted-foreground">{transactionId}</p>
      </div>
      <TransactionDetailData key={transactionId} transactionId={transactionId} />
    </PageContainer>
  );
}
