import type { AdminUserDetail } from "#contract/responses";
import { ConfirmedOutlineButton } from "@/components/confirm-action-button";
import { useRevokeApiKey } from "@/queries/admin/users";
import { useRotateApiKey } from "@/queries/api-keys";

function RevokeButton({ user }: { user: AdminUserDetail }) {
  const revoke = useRevokeApiKey();
  return (
    <ConfirmedOutlineButton
      label="API-Key widerrufen"
      pending={revoke.isPending}
      title="Sind Sie sicher?"
      description={`Der API-Key von ${user.email} funktioniert sofort nicht mehr, auch für Admins, die gerade als dieser Nutzer eingeloggt sind. Beim nächsten Login erhält der Nutzer einen neuen Key.`}
      confirmLabel="Widerrufen"
      cancelLabel="Abbrechen"
      onConfirm={() => revoke.mutate(user.userId)}
    />
  );
}

function RotateOwnKeyButton() {
  const rotate = useRotateApiKey({
    success: { title: "API-Key erneuert", description: "Der alte API-Key funktioniert nicht mehr." },
  });
  return (
    <ConfirmedOutlineButton
      label="API-Key erneuern"
      pending={rotate.isPending}
      title="Sind Sie sicher?"
      description="Ihr API-Key und alle Ihre anderen Anmeldungen werden sofort ungültig; dieser Browser erhält den neuen Key."
      confirmLabel="Erneuern"
      cancelLabel="Abbrechen"
      onConfirm={() => rotate.mutate()}
    />
  );
}

/**
 * What an admin may do with the key shown: revoke a customer's; renew their own (an admin's own key is the only
 * admin key the console shows). Nothing for another admin.
 */
export function ApiKeyActions({ user }: { user: AdminUserDetail }) {
  if (user.role === "user") return user.apiKey ? <RevokeButton user={user} /> : null;
  return user.apiKey ? <RotateOwnKeyButton /> : null;
}
