import type { Website } from "#contract/responses";
import { Badge } from "@/components/ui/badge";

/** Active (proven, served) or pending (waiting for its DNS proof). */
export function WebsiteStatusBadge({ status }: { status: Website["status"] }) {
  return status === "active" ? <Badge variant="success">Active</Badge> : <Badge variant="secondary">Pending</Badge>;
}
