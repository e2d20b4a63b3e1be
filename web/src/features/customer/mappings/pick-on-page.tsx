/**
 * @module "Pick on page" (docs/placement.md): the customer's page in a sandboxed frame on the delivery origin, never
 * the dashboard's, with the picker script the Worker puts in; a click there posts the element's selector here. A
 * message counts only from that frame (`source`) and with the picker's type; the frame's origin is opaque
 * (`sandbox="allow-scripts"` without `allow-same-origin`), so its messages come from "null" or the frame origin.
 */
import { useEffect, useRef } from "react";
import { PICK_MESSAGE_TYPE } from "#contract/pick-selector";
import { Button } from "@/components/ui/button";
import { usePickFrame } from "@/queries/pick-on-page";

interface PickOnPageProps {
  /** The mapping's URL (for a prefix, the page the prefix names). */
  url: string;
  onPick: (selector: string) => void;
}

/** The page a URL rule names: a prefix's `/*` is its own page. */
const pageOf = (url: string) => url.trim().replace(/\/\*$/, "/");

export function PickOnPage({ url, onPick }: PickOnPageProps) {
  const frameLink = usePickFrame();
  const frame = useRef<HTMLIFrameElement>(null);
  const link = frameLink.data;

  useEffect(() => {
    if (!link) return;
    const receive = (event: MessageEvent) => {
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      if (event.origin !== "null" && event.origin !== link.frameOrigin) return;
      const data = event.data as { type?: unknown; selector?: unknown } | null;
      if (data?.type === PICK_MESSAGE_TYPE && typeof data.selector === "string") onPick(data.selector);
    };
    window.addEventListener("message", receive);
    return () => window.removeEventListener("message", receive);
  }, [link, onPick]);

  return (
    <div className="grid gap-2 md:col-span-2">
      <div className="flex items-center gap-2">
        <Button
          type="button"
          variant="outline"
          disabled={!url.trim() || frameLink.isPending}
          onClick={() => frameLink.mutate(pageOf(url))}
        >
          Pick on page
        </Button>
        {link && (
          <Button type="button" variant="ghost" onClick={() => frameLink.reset()}>
            Close page
          </Button>
        )}
        {!url.trim() && <span className="text-sm text-muted-foreground">Enter the page URL first.</span>}
      </div>
      {frameLink.error && <p className="text-sm text-destructive">{frameLink.error.message}</p>}
      {link && (
        <>
          <p className="text-sm text-muted-foreground">Click the element the content belongs to.</p>
          <iframe
            ref={frame}
            title="Pick on page"
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
