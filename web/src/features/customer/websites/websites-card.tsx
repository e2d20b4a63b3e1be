/**
 * @module The customer's websites (docs/edge-delivery.md): claim one, prove it with a DNS TXT record (shown with copy
 * buttons), check the proof now, follow an edge website's steps to going live (website-status-panel.tsx), choose where
 * an edge website's assets load from (asset-origin-form.tsx), remove one after asking. The Websites tab loads this as
 * a chunk of its own.
 */
import type { Website } from "#contract/responses";
import { ConfirmActionButton } from "@/components/confirm-action-button";
import { PagedRows } from "@/components/paged-rows";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { usePage } from "@/hooks/use-page";
import { formatDayTime } from "@/lib/format-date";
import { useReleaseWebsite, useVerifyWebsite, useWebsites } from "@/queries/websites";
import { AssetOriginForm } from "./asset-origin-form";
import { ClaimWebsiteForm } from "./claim-website-form";
import { VerificationRecord } from "./verification-record";
import { WebsiteStatusBadge } from "./website-status-badge";
import { WebsiteStatusPanel } from "./website-status-panel";

const MODE_LABELS: Record<Website["mode"], string> = { snippet: "Snippet", edge: "Edge" };

function WebsiteItem({ website }: { website: Website }) {
  const verify = useVerifyWebsite();
  const release = useReleaseWebsite();
  const pending = website.status === "pending";
  return (
    <li aria-label={website.hostname} className="space-y-3 rounded-md border p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <p className="flex items-center gap-2 font-medium break-all">
            {website.hostname} <WebsiteStatusBadge status={website.status} />
          </p>
          <p className="text-xs text-muted-foreground">
            {MODE_LABELS[website.mode]} · origin <span className="font-mono">{website.origin}</span>
            {website.verifiedAt && <> · proven {formatDayTime(website.verifiedAt)}</>}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {pending && website.mode !== "edge" && (
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={verify.isPending}
              onClick={() => verify.mutate(website.hostname)}
            >
              {verify.isPending ? "Checking..." : "Check DNS now"}
            </Button>
          )}
          <ConfirmActionButton
            trigger={
              <Button type="button" variant="destructive" size="sm" disabled={release.isPending}>
                Remove
              </Button>
            }
            title={`Remove ${website.hostname}?`}
            description={
              website.status === "active" && website.mode === "edge"
                ? `Dynamic Content stops serving ${website.hostname} at once: point its DNS back at your server first.`
                : `Your claim of ${website.hostname} is removed. You can claim it again later.`
            }
            confirmLabel="Remove website"
            cancelLabel="Cancel"
            onConfirm={() => release.mutate(website.hostname)}
          />
        </div>
      </div>
      {website.mode === "edge" ? (
        <>
          <WebsiteStatusPanel website={website} />
          <AssetOriginForm website={website} />
        </>
      ) : (
        (pending || website.checkProblem) && <VerificationRecord website={website} />
      )}
    </li>
  );
}

function WebsiteList() {
  const page = usePage("websites");
  const websites = useWebsites(page.offset);
  return (
    <PagedRows query={websites} page={page} loadError="Your websites could not be loaded.">
      {(rows) =>
        rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">No websites yet.</p>
        ) : (
          <ul className="space-y-3">
            {rows.map((website) => (
              <WebsiteItem key={website.hostname} website={website} />
            ))}
          </ul>
        )
      }
    </PagedRows>
  );
}

export function WebsitesCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">Websites</CardTitle>
        <CardDescription>
          Serve a website at the edge: Dynamic Content fetches its pages from your server and puts your content in
          before they reach the visitor. Each website is served once you prove it is yours with a DNS record.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <ClaimWebsiteForm />
        <WebsiteList />
      </CardContent>
    </Card>
  );
}
