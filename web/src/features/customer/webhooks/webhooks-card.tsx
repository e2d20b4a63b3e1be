/**
 * @module The customer's webhooks (docs/webhooks.md): add one (its secret shown once), send a test event, read a
 * webhook's delivery log, delete one after asking. The Webhooks tab loads this as a chunk of its own.
 */
import { useState } from "react";
import type { Webhook } from "#contract/webhooks";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { LoadError, Loading } from "@/components/loading";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDayTime } from "@/lib/format-date";
import { useDeleteWebhook, useTestWebhook, useWebhooks } from "@/queries/webhooks";
import { AddWebhookForm } from "./add-webhook-form";
import { DeliveryLog } from "./delivery-log";
import { DeliveryStatusBadge } from "./delivery-status-badge";

function WebhookItem({ webhook }: { webhook: Webhook }) {
  const [logOpen, setLogOpen] = useState(false);
  const remove = useDeleteWebhook();
  const test = useTestWebhook();
  const last = webhook.lastDelivery;
  return (
    <li aria-label={webhook.url} className="space-y-3 rounded-md border p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <p className="font-mono text-sm break-all">{webhook.url}</p>
          <p className="text-xs text-muted-foreground">
            Added {formatDayTime(webhook.createdAt)}
            {last && (
              <>
                {" · "}last event <span className="font-mono">{last.event}</span> {formatDayTime(last.createdAt)}{" "}
                <DeliveryStatusBadge status={last.status} />
              </>
            )}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={test.isPending}
            onClick={() => test.mutate(webhook.id)}
          >
            {test.isPending ? "Sending..." : "Send test event"}
          </Button>
          <Button
            type="button"
            variant="outline"
            size="sm"
            aria-expanded={logOpen}
            onClick={() => setLogOpen(!logOpen)}
          >
            {logOpen ? "Hide delivery log" : "Delivery log"}
          </Button>
          <ConfirmActionButton
            trigger={
              <Button type="button" variant="destructive" size="sm" disabled={remove.isPending}>
                Delete
              </Button>
            }
            title="Delete this webhook?"
            description={`Events stop going to ${webhook.url}, and its delivery log is deleted. This cannot be undone.`}
            confirmLabel="Delete webhook"
            cancelLabel="Cancel"
            onConfirm={() => remove.mutate(webhook.id)}
          />
        </div>
      </div>
      {logOpen && <DeliveryLog webhookId={webhook.id} />}
    </li>
  );
}

function WebhookList() {
  const webhooks = useWebhooks();
  if (webhooks.isPending) return <Loading />;
  if (webhooks.isError) return <LoadError>Your webhooks could not be loaded.</LoadError>;
  if (webhooks.data.rows.length === 0) return <p className="text-sm text-muted-foreground">No webhooks yet.</p>;
  return (
    <ul className="space-y-3">
      {webhooks.data.rows.map((webhook) => (
        <WebhookItem key={webhook.id} webhook={webhook} />
      ))}
    </ul>
  );
}

export function WebhooksCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Webhooks</CardTitle>
        <CardDescription>
          Your URL gets a signed event whenever one of your mappings is published, unpublished, changed or deleted. Up
          to 10 webhooks.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <AddWebhookForm />
        <WebhookList />
      </CardContent>
    </Card>
  );
}
