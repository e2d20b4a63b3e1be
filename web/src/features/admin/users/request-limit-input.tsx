import { useId } from "react";
import type { AdminUser } from "#contract/responses";
import { useSetRequestLimit } from "@/queries/admin/users";
import { UNLIMITED_SIGN } from "@/lib/usage-meter";
import { LimitNumberInput } from "./limit-number-input";

type LimitUser = Pick<AdminUser, "userId" | "email" | "requestLimit" | "periodRequests">;

/**
 * The user's request limit, saved on blur or Enter when it changed. Empty shows ∞ (no limit); a non-numeric
 * entry saves null. Below it, what the limit caps: this billing period's requests against the saved limit, or
 * '∞ Events' without one.
 */
export function RequestLimitInput({ user }: { user: LimitUser }) {
  const saved = user.requestLimit;
  const setLimit = useSetRequestLimit();
  const hintId = useId();

  return (
    <div className="w-28 space-y-1">
      <LimitNumberInput
        saved={saved}
        save={(requestLimit, reset) => setLimit.mutate({ userId: user.userId, requestLimit }, { onError: reset })}
        aria-label={`Request-Limit von ${user.email}`}
        aria-describedby={hintId}
        placeholder={UNLIMITED_SIGN}
        disabled={setLimit.isPending}
        className="h-8"
      />
      <p
        id={hintId}
        title="Requests im aktuellen Abrechnungszeitraum / Limit"
        className="text-xs text-muted-foreground"
      >
        {saved === null ? `${UNLIMITED_SIGN} Events` : `${user.periodRequests} / ${saved}`}
      </p>
    </div>
  );
}
