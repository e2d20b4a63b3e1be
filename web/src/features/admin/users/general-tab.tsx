import type { ReactNode } from "react";
import type { AdminUserDetail } from "#contract/responses";
import { CopyButton } from "@/components/copy-button";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { formatGermanDayTime } from "@/lib/format-date";
import { UsageCard } from "@/components/usage-card";
import { COUNTS_LAG_NOTE_DE } from "@/lib/counts-note";
import { useResendApiKey, useResendVerification } from "@/queries/admin/users";
import { ApiKeyActions } from "./api-key-actions";
import { LimitCards } from "./limit-cards";
import { ProductVersionChoice } from "./product-version-choice";
import { UserEmailForm } from "./user-email-form";
import { versionLimits } from "./version-limits";

export const NOT_SET = "Nicht festgelegt";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[14rem_1fr] sm:items-center">
      <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

/** An outline button that sends the user a mail (`action`), disabled while it is being sent. */
function SendMailButton({
  action,
  userId,
  children,
}: {
  action: { isPending: boolean; mutate: (userId: string) => void };
  userId: string;
  children: ReactNode;
}) {
  return (
    <Button type="button" variant="outline" size="sm" disabled={action.isPending} onClick={() => action.mutate(userId)}>
      {children}
    </Button>
  );
}

const periodDate = (iso: string | null) => (iso ? formatGermanDayTime(iso) : NOT_SET);

/** Account facts and actions, the product version, the limits with their use, and the usage bars. */
export function GeneralTab({ user }: { user: AdminUserDetail }) {
  const resendVerification = useResendVerification();
  const resendApiKey = useResendApiKey();
  const limits = versionLimits(user);
  // Admins sign in with their password: no verification link, no key by mail.
  const isCustomer = user.role === "user";

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle className="text-xl">Allgemeine Informationen</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="space-y-4">
            <Row label="E-Mail">
              {/* Keyed by the saved address, so the field starts over from it after a change. */}
              <UserEmailForm key={user.email} userId={user.userId} email={user.email} />
            </Row>
            <Row label="User-ID">
              <code className="text-sm break-all">{user.userId}</code>
            </Row>
            <Row label="Status">
              {user.isActive ? <Badge variant="success">Aktiv</Badge> : <Badge variant="secondary">Inaktiv</Badge>}
            </Row>
            <Row label="E-Mail verifiziert">
              <div className="flex flex-wrap items-center gap-3">
                <span>{user.emailVerified ? "Ja" : "Nein"}</span>
                {isCustomer && (
                  <SendMailButton action={resendVerification} userId={user.userId}>
                    Verifizierungs-E-Mail erneut senden
                  </SendMailButton>
                )}
              </div>
            </Row>
            <Row label="API-Key">
              <div className="flex flex-wrap items-center gap-3">
                <code className="rounded bg-muted px-2 py-1 text-sm break-all">{user.apiKey ?? "-"}</code>
                {user.apiKey && <CopyButton text={user.apiKey} label="API-Key kopieren" />}
                {isCustomer && (
                  <SendMailButton action={resendApiKey} userId={user.userId}>
                    API-Key per E-Mail senden
                  </SendMailButton>
                )}
                <ApiKeyActions user={user} />
              </div>
            </Row>
            <Row label="Abrechnungszeitraum Beginn">{periodDate(user.billingPeriodStart)}</Row>
            <Row label="Abrechnungszeitraum Ende">{periodDate(user.billingPeriodEnd)}</Row>
          </dl>
        </CardContent>
      </Card>
      <ProductVersionChoice userId={user.userId} productVersionId={user.productVersionId} />
      <LimitCards user={user} limits={limits} />
      {/* SPEC.md §2 "Usage": the customer dashboard's bars (rounded, capped at 100, ∞ and 0% when unlimited). */}
      <UsageCard
        note={COUNTS_LAG_NOTE_DE}
        bars={[
          { label: "Websites", used: user.websitesUsed, limit: limits.websites },
          { label: "Events (updates this month)", used: user.eventsUsed, limit: limits.events },
          {
            label: "Dynamic content deliveries (generations this month)",
            used: user.dynamicContentDeliveryUsed,
            limit: limits.deliveries,
          },
        ]}
      />
    </div>
  );
}
