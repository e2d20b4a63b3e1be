/**
 * @module The dashboard's getting-started checklist (docs/getting-started.md): the customer's steps with the next
 * action for each, shown until the required ones are done. While it waits for the first page view it asks every few
 * seconds (queries/onboarding.ts), so the step turns green by itself; once everything is done while it was shown, it
 * says so and can be dismissed. A customer who had done everything already never sees it.
 */
import { useState } from "react";
import { Link } from "react-router-dom";
import { CheckCircle2, Circle } from "lucide-react";
import { REQUIRED_ONBOARDING_STEPS, type OnboardingStep } from "#contract/responses";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useOnboarding, waitingForFirstView } from "@/queries/onboarding";
import { GETTING_STARTED_TEXT, type GettingStartedLanguage } from "./getting-started-text";

const LINK = "text-primary underline-offset-4 hover:underline";

function StepItem({ step, waiting, lang }: { step: OnboardingStep; waiting: boolean; lang: GettingStartedLanguage }) {
  const text = GETTING_STARTED_TEXT[lang];
  const { title, next, done } = text.steps[step.key];
  const optional = !REQUIRED_ONBOARDING_STEPS.includes(step.key);
  // The snippet's step waits for the first page view itself; the count's step for the minute's count.
  const waitingText = step.key === "snippet" ? text.waiting : next;
  let detail = step.done ? done : waiting ? waitingText : next;
  if (step.key === "snippet" && step.done && step.host) detail = text.seenOn(step.host);
  return (
    <li aria-label={title} data-done={step.done} className="flex items-start gap-3">
      {step.done ? (
        <CheckCircle2 aria-label={text.stateDone} className="mt-0.5 h-5 w-5 shrink-0 text-green-600" />
      ) : waiting ? (
        <Spinner className="mt-0.5 h-5 w-5" label={waitingText} />
      ) : (
        <Circle aria-label={text.stateOpen} className="mt-0.5 h-5 w-5 shrink-0 text-muted-foreground" />
      )}
      <div className="space-y-0.5">
        <p className="font-medium">
          {title}
          {optional && <span className="text-muted-foreground font-normal"> ({text.optional})</span>}
        </p>
        <p className={step.done ? "text-sm text-green-700" : "text-sm text-muted-foreground"}>{detail}</p>
        {!step.done && step.key === "snippet" && (
          <Link to="/snippet" className={`text-sm ${LINK}`}>
            {text.snippetLink}
          </Link>
        )}
        {!step.done && step.key === "website" && (
          <Link to="/user-dashboard" className={`text-sm ${LINK}`}>
            {text.websiteLink}
          </Link>
        )}
      </div>
    </li>
  );
}

export function GettingStartedChecklist({ lang = "en" }: { lang?: GettingStartedLanguage }) {
  const text = GETTING_STARTED_TEXT[lang];
  const { data } = useOnboarding();
  const [shownIncomplete, setShownIncomplete] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  if (!data) return null;
  const complete = REQUIRED_ONBOARDING_STEPS.every((key) => data.steps.find((s) => s.key === key)?.done);
  if (!complete && !shownIncomplete) setShownIncomplete(true);
  if (dismissed || (complete && !shownIncomplete)) return null;
  const waiting = waitingForFirstView(data);
  const snippetDone = data.steps.some((s) => s.key === "snippet" && s.done);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xl">{text.title}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <ol className="space-y-3">
          {data.steps.map((step) => (
            <StepItem
              key={step.key}
              step={step}
              // The first view is awaited on the snippet's step (seen in seconds), then on the count's own.
              waiting={waiting && (step.key === "snippet" || (step.key === "firstView" && snippetDone))}
              lang={lang}
            />
          ))}
        </ol>
        {complete && (
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p role="status" className="text-sm font-medium text-green-700">
              {text.allDone}
            </p>
            <Button type="button" variant="outline" size="sm" onClick={() => setDismissed(true)}>
              {text.dismiss}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
