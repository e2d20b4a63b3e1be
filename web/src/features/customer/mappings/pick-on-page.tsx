/**
 * @module "Pick on page" (docs/placement.md): the customer's page in a sandboxed frame on the delivery origin, never
 * the dashboard's, with the picker script the Worker puts in; a click there posts the element's selector here. A
 * message counts only from that frame (`source`) and with the picker's type; the frame's origin is opaque
 * (`sandbox="allow-scripts"` without `allow-same-origin`), so its messages come from "null" or the frame origin.
 * Once an element is picked, the form's HTML is posted to the frame at the form's position (again whenever either
 * changes), and for a prefix rule the Worker checks the selector on other pages under it.
 */
import { useEffect, useRef, useState } from "react";
import type { PickCheck } from "#contract/responses";
import { SHOW_MESSAGE_TYPE, type ShowMessage } from "#contract/place-content";
import { PICK_MESSAGE_TYPE } from "#contract/pick-selector";
import type { PlacementPosition } from "#contract/placement";
import { isPrefixUrl } from "#contract/url-rules";
import { Button } from "@/components/ui/button";
import { usePickCheck, usePickFrame } from "@/queries/pick-on-page";
import { PICK_ON_PAGE_TEXT, type PickOnPageLanguage } from "./pick-on-page-text";

interface PickOnPageProps {
  /** The mapping's URL (for a prefix, the page the prefix names). */
  url: string;
  /** The form's HTML (for an experiment, the control's), shown in the frame once an element is picked. */
  html: string;
  position: PlacementPosition;
  selector: string;
  onPick: (selector: string) => void;
  lang?: PickOnPageLanguage;
}

/** The page a URL rule names: a prefix's `/*` is its own page. */
const pageOf = (url: string) => url.trim().replace(/\/\*$/, "/");

export function PickOnPage({ url, html, position, selector, onPick, lang = "en" }: PickOnPageProps) {
  const text = PICK_ON_PAGE_TEXT[lang];
  const frameLink = usePickFrame();
  const check = usePickCheck();
  const checkSelector = check.mutate;
  const frame = useRef<HTMLIFrameElement>(null);
  const [picked, setPicked] = useState(false);
  const link = frameLink.data;

  useEffect(() => {
    if (!link) return;
    const receive = (event: MessageEvent) => {
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      if (event.origin !== "null" && event.origin !== link.frameOrigin) return;
      const data = event.data as { type?: unknown; selector?: unknown } | null;
      if (data?.type !== PICK_MESSAGE_TYPE || typeof data.selector !== "string") return;
      onPick(data.selector);
      setPicked(true);
      if (isPrefixUrl(url.trim())) checkSelector({ url: url.trim(), selector: data.selector });
    };
    window.addEventListener("message", receive);
    return () => window.removeEventListener("message", receive);
  }, [link, onPick, url, checkSelector]);

  useEffect(() => {
    if (!link || !picked) return;
    const message: ShowMessage = { type: SHOW_MESSAGE_TYPE, html, position, selector };
    // The frame's origin is opaque (sandboxed), so no origin can be named; the HTML is the customer's own content.
    frame.current?.contentWindow?.postMessage(message, "*");
  }, [link, picked, html, position, selector]);

  const close = () => {
    frameLink.reset();
    check.reset();
    setPicked(false);
  };

  return (
    <div className="grid gap-2 md:col-span-2">
      <div className="flex items-center gap-2">
        <Button
          type="button"
          variant="outline"
          disabled={!url.trim() || frameLink.isPending}
          onClick={() => {
            close();
            frameLink.mutate(pageOf(url));
          }}
        >
          {text.button}
        </Button>
        {link && (
          <Button type="button" variant="ghost" onClick={close}>
            {text.close}
          </Button>
        )}
        {!url.trim() && <span className="text-sm text-muted-foreground">{text.urlFirst}</span>}
      </div>
      {frameLink.error && <p className="text-sm text-destructive">{frameLink.error.message}</p>}
      {link && (
        <>
          <p className="text-sm text-muted-foreground">{text.hint}</p>
          {check.isPending && <p className="text-sm text-muted-foreground">{text.checking}</p>}
          {check.error && <p className="text-sm text-destructive">{check.error.message}</p>}
          {check.data && <OtherPages result={check.data} lang={lang} />}
          <iframe
            ref={frame}
            title={text.frameTitle}
            src={link.frameUrl}
            sandbox="allow-scripts"
            referrerPolicy="no-referrer"
            className="h-[480px] w-full rounded-md border"
          />
        </>
      )}
    </div>
  );
}

/** "Found on 2 of 3 other pages", the pages where it was not, and how many could not be checked. */
function OtherPages({ result, lang }: { result: PickCheck; lang: PickOnPageLanguage }) {
  const text = PICK_ON_PAGE_TEXT[lang];
  if (result.pages.length === 0) return <p className="text-sm text-muted-foreground">{text.noOtherPages}</p>;
  const checked = result.pages.filter((page) => page.found !== null);
  if (checked.length === 0) return <p className="text-sm text-muted-foreground">{text.notChecked}</p>;
  const missed = checked.filter((page) => !page.found);
  const unchecked = result.pages.length - checked.length;
  return (
    <div role="status" className="text-sm">
      <p>{text.found(checked.length - missed.length, checked.length)}</p>
      {missed.length > 0 && (
        <p className="text-muted-foreground">
          {text.notFoundOn} {missed.map((page) => page.url).join(", ")}
        </p>
      )}
      {unchecked > 0 && <p className="text-muted-foreground">{text.unchecked(unchecked)}</p>}
    </div>
  );
}
