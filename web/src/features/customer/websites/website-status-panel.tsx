/**
 * An edge website's three steps to going live (docs/edge-delivery.md, "Your website's status"): DNS, ownership (the
 * TXT record, with copy buttons) and certificate, each with its state and the next step. Read again every 20 s
 * until every step is done; "Check now" runs the same check as the minute cron (POST …/verify) and reads it again.
 */
import type { Website, WebsiteStatus, WebsiteStepState } from "#contract/responses";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useVerifyWebsite, useWebsiteStatus } from "@/queries/websites";
import { VerificationRecord } from "./verification-record";
import { WEBSITE_STATUS_TEXT, type WebsiteStatusLanguage, type WebsiteStep } from "./website-status-text";

type Text = (typeof WEBSITE_STATUS_TEXT)[WebsiteStatusLanguage];
type ShownState = WebsiteStepState | "managed";

const BADGE: Record<ShownState, "success" | "secondary" | "destructive" | "outline"> = {
  done: "success",
  managed: "success",
  waiting: "secondary",
  unknown: "outline",
  failed: "destructive",
};

function Step({
  step,
  state,
  detail,
  text,
  children,
}: {
  step: WebsiteStep;
  state: ShownState;
  detail: string;
  text: Text;
  children?: React.ReactNode;
}) {
  const title = text.steps[step].title;
  return (
    <li aria-label={title} className="space-y-2">
      <p className="flex items-center gap-2 text-sm font-medium">
        {title} <Badge variant={BADGE[state]}>{text.states[state]}</Badge>
      </p>
      <p className="text-sm text-muted-foreground">{detail}</p>
      {children}
    </li>
  );
}

/** As the API's `ownership.state`, from the claim the list already has: shown even before the status is read. */
const ownershipState = (website: Website): WebsiteStepState =>
  website.status === "pending" ? "waiting" : website.checkProblem ? "failed" : "done";

function Steps({
  website,
  status,
  lang,
}: {
  website: Website;
  status: WebsiteStatus | undefined;
  lang: WebsiteStatusLanguage;
}) {
  const text = WEBSITE_STATUS_TEXT[lang];
  const ownership = ownershipState(website);
  const dns = status?.dns;
  const certificate = status?.certificate;
  return (
    <ol className="space-y-3">
      {dns && <Step step="dns" state={dns.state} detail={text.steps.dns.next[dns.state]} text={text} />}
      <Step step="ownership" state={ownership} detail={text.steps.ownership.next[ownership]} text={text}>
        {ownership !== "done" && <VerificationRecord website={website} lang={lang} />}
      </Step>
      {certificate && (
        <Step
          step="certificate"
          state={certificate.state}
          detail={
            certificate.state === "managed"
              ? text.managed
              : [
                  text.steps.certificate.next[certificate.state],
                  certificate.sslStatus && text.sslStatus(certificate.sslStatus),
                ]
                  .filter(Boolean)
                  .join(" ")
          }
          text={text}
        />
      )}
    </ol>
  );
}

export function WebsiteStatusPanel({ website, lang = "en" }: { website: Website; lang?: WebsiteStatusLanguage }) {
  const text = WEBSITE_STATUS_TEXT[lang];
  const status = useWebsiteStatus(website.hostname);
  const verify = useVerifyWebsite();
  const ready = status.data?.ready === true;
  return (
    <section aria-label={text.title} className="space-y-3 rounded-md border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{text.title}</h3>
        {!ready && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={verify.isPending}
            onClick={() => verify.mutate(website.hostname)}
          >
            {verify.isPending ? text.checking : text.checkNow}
          </Button>
        )}
      </div>
      {status.isError && <p className="text-sm text-destructive">{text.loadError}</p>}
      <Steps website={website} status={status.data} lang={lang} />
      {!ready && <p className="text-xs text-muted-foreground">{text.rechecking}</p>}
    </section>
  );
}
