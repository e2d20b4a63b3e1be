import type { AdminUser } from "#contract/responses";
import { Badge } from "@/components/ui/badge";
import { isCancelled } from "./users-view";

/**
 * The user's version: a green badge with its name, red when the subscription is cancelled; a user without a
 * version of their own shows the default version's name as plain text.
 */
export function ProductVersionBadge({
  user,
  defaultVersionName,
}: {
  user: Pick<AdminUser, "productVersionName" | "profileStatus">;
  defaultVersionName: string | null;
}) {
  const name = user.productVersionName ?? defaultVersionName ?? "-";
  if (isCancelled(user.profileStatus)) {
    return (
      <Badge variant="destructive" title="Abonnement gekündigt">
        {name}
      </Badge>
    );
  }
  if (user.productVersionName) return <Badge variant="success">{name}</Badge>;
  return <span className="text-sm text-muted-foreground">{name}</span>;
}
