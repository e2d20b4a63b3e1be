import type { DeliveryStatus } from "#contract/webhooks";
import { Badge } from "@/components/ui/badge";

const LOOK = {
  delivered: { label: "Delivered", variant: "success" },
  pending: { label: "Pending", variant: "secondary" },
  failed: { label: "Failed", variant: "destructive" },
} as const;

/** A delivery's state: delivered, waiting for its next attempt, or given up. */
export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  const { label, variant } = LOOK[status];
  return <Badge variant={variant}>{label}</Badge>;
}
