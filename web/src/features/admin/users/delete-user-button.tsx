import { Trash2 } from "lucide-react";
import type { AdminUser } from "#contract/responses";
import { ConfirmDeleteButton } from "@/components/confirm-delete-button";
import { Button } from "@/components/ui/button";
import { useDeleteUser } from "@/queries/admin/users";

/** 'Löschen', confirmed in a dialog, deletes the account with all its data. */
export function DeleteUserButton({ user }: { user: Pick<AdminUser, "userId" | "email"> }) {
  const deleteUser = useDeleteUser();

  return (
    <ConfirmDeleteButton
      trigger={
        <Button
          type="button"
          variant="destructive"
          size="sm"
          aria-label={`${user.email} löschen`}
          disabled={deleteUser.isPending}
        >
          <Trash2 aria-hidden="true" />
          Löschen
        </Button>
      }
      consequence={`Das Konto von ${user.email} und alle zugehörigen Daten werden permanent gelöscht.`}
      onConfirm={() => deleteUser.mutate(user.userId)}
    />
  );
}
