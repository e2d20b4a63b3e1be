/** A webhook's delivery log (docs/webhooks.md): each event sent, what came of it, a page at a time. */
import { RefreshCw } from "lucide-react";
import type { WebhookDelivery } from "#contract/webhooks";
import { PagedRows } from "@/components/paged-rows";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { usePage } from "@/hooks/use-page";
import { formatDayTime } from "@/lib/format-date";
import { DELIVERIES_PAGE_SIZE, useDeliveries } from "@/queries/webhooks";
import { DeliveryStatusBadge } from "./delivery-status-badge";

function Response({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <div className="space-y-1">
      <span>{delivery.responseStatus ?? "—"}</span>
      {delivery.error && <p className="text-xs text-muted-foreground">{delivery.error}</p>}
    </div>
  );
}

function DeliveriesTable({ deliveries }: { deliveries: WebhookDelivery[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Time</TableHead>
          <TableHead>Event</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Attempts</TableHead>
          <TableHead>Response</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {deliveries.length === 0 && <TableEmptyRow colSpan={5}>No events sent yet.</TableEmptyRow>}
        {deliveries.map((delivery) => (
          <TableRow key={delivery.id}>
            <TableCell className="whitespace-nowrap">{formatDayTime(delivery.createdAt)}</TableCell>
            <TableCell>
              <span className="font-mono text-xs">{delivery.event}</span>
              {delivery.payload.data.mapping && (
                <p className="text-xs break-all text-muted-foreground">{delivery.payload.data.mapping.url}</p>
              )}
            </TableCell>
            <TableCell>
              <DeliveryStatusBadge status={delivery.status} />
              {delivery.nextAttemptAt && (
                <p className="text-xs text-muted-foreground">Next try {formatDayTime(delivery.nextAttemptAt)}</p>
              )}
            </TableCell>
            <TableCell>{delivery.attempts}</TableCell>
            <TableCell>
              <Response delivery={delivery} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const page = usePage(webhookId, DELIVERIES_PAGE_SIZE);
  const deliveries = useDeliveries(webhookId, page.offset);
  return (
    <section aria-label="Delivery log" className="space-y-2">
      <div className="flex items-center justify-between">
        <h4 className="font-medium">Delivery log</h4>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          disabled={deliveries.isFetching}
          onClick={() => void deliveries.refetch()}
        >
          <RefreshCw aria-hidden="true" />
          Refresh
        </Button>
      </div>
      <PagedRows query={deliveries} page={page} loadError="The delivery log could not be loaded.">
        {(rows) => <DeliveriesTable deliveries={rows} />}
      </PagedRows>
    </section>
  );
}
