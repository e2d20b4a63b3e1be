import { ArrowLeft } from "lucide-react";
import { Link } from "react-router-dom";
import { PageContainer } from "@/components/layout/page-container";
import { TransactionDetailData } from "./transaction-detail-data";

export function TransactionDetailLayout({ transactionId }: { transactionId: string }) {
  return (
    <PageContainer className="space-y-6">
      <div className="space-y-2">
        <Link
          to="/admin/billing"
          className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground hover:underline"
        >
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          Back to Billing Dashboard
        </Link>
        <h1 className="text-3xl font-bold">Transaction Details</h1>
        <p className="font-mono text-sm break-all text-muted-foreground">{transactionId}</p>
      </div>
      <TransactionDetailData key={transactionId} transactionId={transactionId} />
    </PageContainer>
  );
}
