import type { AdminUserDetail } from "#contract/responses";
import { isMaskedApiKey } from "#contract/api-key-mask";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { useRevealApiKey } from "@/queries/admin/users";

/**
 * The key on the General tab: a customer's arrives masked, and 'API-Key anzeigen' fetches the whole key (the server
 * records that this admin saw it); the admin's own key is shown as it is.
 */
export function ApiKeyField({ user }: { user: AdminUserDetail }) {
  const reveal = useRevealApiKey();
  const revealed = reveal.data?.apiKey;
  const shown = revealed ?? user.apiKey;
  const masked = shown !== null && isMaskedApiKey(shown);
  return (
    <>
      <code className="rounded bg-muted px-2 py-1 text-sm break-all">{shown ?? "-"}</code>
      {shown && !masked && <CopyButton text={shown} label="API-Key kopieren" />}
      {masked && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={reveal.isPending}
          onClick={() => reveal.mutate(user.userId)}
        >
          API-Key anzeigen
        </Button>
      )}
    </>
  );
}
