import { truncateText } from "./users-view";

/** Customer HTML as text, never rendered: cut short, the whole text on hover. */
export function HtmlPreview({ html }: { html: string }) {
  return (
    <code className="block text-xs break-all text-muted-foreground" title={html}>
      {truncateText(html)}
    </code>
  );
}
