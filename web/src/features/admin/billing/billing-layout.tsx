import { useState } from "react";
import { BackLink } from "@/components/back-link";
import { PageContainer } from "@/components/layout/page-container";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { TooltipProvider } from "@/components/ui/tooltip";
import { BillingFiltersForm } from "./billing-filters-form";
import { NO_FILTERS, toTransactionQuery, type BillingFilters } from "./billing-filters-value";
import { ExportTransactionsButton } from "./export-transactions-button";
import { TransactionsDataTable } from "./transactions-data-table";
import { UnclaimedSubscriptionsCard } from "./unclaimed-subscriptions-card";

export function BillingLayout() {
  const [filters, setFilters] = useState<BillingFilters>(NO_FILTERS);
  const query = toTransactionQuery(filters);

  return (
    <TooltipProvider delayDuration={200}>
      <PageContainer className="space-y-6">
        <div className="space-y-2">
          <BackLink to="/admin">Back to Admin Dashboard</BackLink>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h1 className="text-3xl font-bold">Billing Dashboard</h1>
            <ExportTransactionsButton query={query} />
          </div>
        </div>
        <UnclaimedSubscriptionsCard />
        <Card>
          <CardHeader>
            <CardTitle className="text-xl">Filters</CardTitle>
          </CardHeader>
          <CardContent>
            <BillingFiltersForm value={filters} onChange={setFilters} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-xl">Transaction History</CardTitle>
          </CardHeader>
          <CardContent>
            <TransactionsDataTable query={query} />
          </CardContent>
        </Card>
      </PageContainer>
    </TooltipProvider>
  );
}
