import { useId, useState } from "react";
import type { AdminUser } from "#contract/responses";
import { Input } from "@/components/ui/input";
import { useSetRequestLimit } from "@/queries/admin/users";
import { UNLIMITED_SIGN } from "@/lib/usage-meter";
import { parseRequestLimit } from "./users-view";

type LimitUser = Pick<AdminUser, "userId" | "email" | "requestLimit" | "periodRequests">;

/**
 * The user's request limit, saved on blur or Enter when it changed. Empty shows ∞ (no limit); a non-numeric
 * entry saves null. Below it, what the limit caps: this billing period's requests against the saved limit, or
 * '∞ Events' without one.
 */
export function RequestLimitInput({ user }: { user: LimitUser }) {
  const saved = user.requestLimit;
  const [text, setText] = useState(saved === null ? "" : String(saved));
  const setLimit = useSetRequestLimit();
  const hintId = useId();

  function save() {
    const requestLimit = parseRequestLimit(text);
    if (requestLimit === saved) {
      setText(saved === null ? "" : String(saved));
      return;
    }
    setLimit.mutate(
      { userId: user.userId, requestLimit },
      { onError: () => setText(saved === null ? "" : String(saved)) },
    );
  }

  return (
    <div className="w-28 space-y-1">
      <Input
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        aria-label={`Request-Limit von ${user.email}`}
        aria-describedby={hintId}
        placeholder={UNLIMITED_SIGN}
        value={text}
        disabled={setLimit.isPending}
        onChange={(e) => setText(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => {
          if (e.key === "Enter") e.currentTarget.blur();
        }}
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
