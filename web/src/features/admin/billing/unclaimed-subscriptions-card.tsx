/**
 * @module The billing screen's list of subscriptions PayPal charges but no account stores (docs/decisions.md,
 * "Issue 39: a payment always lands with its payer"), each with a Link to the account its payment came from and a
 * Cancel at PayPal (asked once to confirm: it cannot be undone). Nothing is shown while there are none.
 */
import type { UnclaimedSubscription } from "#contract/responses";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { PagedRows } from "@/components/paged-rows";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { usePage } from "@/hooks/use-page";
import { formatGermanDayTime } from "@/lib/format-date";
import { formatMoney } from "@/lib/format-money";
import { useUnclaimedSubscriptionAction, useUnclaimedSubscriptions } from "@/queries/admin/billing";

export const UNCLAIMED_TITLE = "Paid subscriptions without an account";
export const NO_ACCOUNT_TEXT = "No account has the payer's email";
export const CANCEL_AT_PAYPAL = "Cancel at PayPal";
export const linkLabel = (email: string) => `Link to ${email}`;

function UnclaimedRow({ row }: { row: UnclaimedSubscription }) {
  const action = useUnclaimedSubscriptionAction();
  const run = (kind: "link" | "cancel") => action.mutate({ subscriptionId: row.subscriptionId, action: kind });

  return (
    <TableRow>
      <TableCell className="font-mono text-xs break-all">{row.subscriptionId}</TableCell>
      <TableCell className="whitespace-nowrap">
        <div>{formatGermanDayTime(row.lastPaymentAt)}</div>
        <div className="text-xs text-muted-foreground">
          {formatMoney(row.amount, row.currency, { locale: "en-US", nonNumeric: "as-sent" })}
          {row.productName ? ` · ${row.productName}` : ""}
        </div>
      </TableCell>
      <TableCell className="break-all">{row.payerEmail ?? "-"}</TableCell>
      <TableCell className="break-all">{row.account?.email ?? NO_ACCOUNT_TEXT}</TableCell>
      <TableCell>
        <div className="flex flex-wrap gap-2">
          {row.account && (
            <Button size="sm" disabled={action.isPending} onClick={() => run("link")}>
              {linkLabel(row.account.email)}
            </Button>
          )}
          <ConfirmActionButton
            trigger={
              <Button size="sm" variant="destructive" disabled={action.isPending}>
                {CANCEL_AT_PAYPAL}
              </Button>
            }
            title={`Cancel ${row.subscriptionId} at PayPal?`}
            description="PayPal will not charge this subscription again. Payments already made stay as they are; this cannot be undone."
            confirmLabel={CANCEL_AT_PAYPAL}
            cancelLabel="Keep it"
            onConfirm={() => run("cancel")}
          />
        </div>
      </TableCell>
    </TableRow>
  );
}

export function UnclaimedSubscriptionsCard() {
  const page = usePage(null);
  const unclaimed = useUnclaimedSubscriptions(page.offset);
  if (!unclaimed.data || unclaimed.data.total === 0) return null;

  return (
    <Card className="border-red-300" role="region" aria-label={UNCLAIMED_TITLE}>
      <CardHeader>
        <CardTitle className="text-xl">{UNCLAIMED_TITLE}</CardTitle>
        <CardDescription>
          PayPal charges these subscriptions, but no account stores them, so their payments grant no plan. Link one to
          the account its payment came from (its plan is granted as if the customer had stored it), or cancel it at
          PayPal.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <PagedRows query={unclaimed} page={page}>
          {(rows) => (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Subscription</TableHead>
                  <TableHead>Last payment</TableHead>
                  <TableHead>Payer</TableHead>
                  <TableHead>Account</TableHead>
                  <TableHead>Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.map((row) => (
                  <UnclaimedRow key={row.subscriptionId} row={row} />
                ))}
              </TableBody>
            </Table>
          )}
        </PagedRows>
      </CardContent>
    </Card>
  );
}
