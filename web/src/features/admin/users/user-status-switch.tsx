import { useId } from "react";
import type { AdminUser } from "#contract/responses";
import { Switch } from "@/components/ui/switch";
import { useSetUserStatus } from "@/queries/admin/users";

/** Active or inactive, switched at once; while the call runs it shows the state asked for. */
export function UserStatusSwitch({ user }: { user: Pick<AdminUser, "userId" | "email" | "isActive"> }) {
  const setStatus = useSetUserStatus();
  const labelId = useId();
  const isActive = setStatus.isPending ? setStatus.variables.isActive : user.isActive;

  return (
    <div className="flex items-center gap-2">
      <Switch
        checked={isActive}
        disabled={setStatus.isPending}
        aria-label={`Status von ${user.email}`}
        aria-describedby={labelId}
        onCheckedChange={(checked) => setStatus.mutate({ userId: user.userId, isActive: checked })}
      />
      <span id={labelId} className="text-sm">
        {isActive ? "Aktiv" : "Inaktiv"}
      </span>
    </div>
  );
}
