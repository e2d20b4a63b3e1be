import { Copy } from "lucide-react";
import { Button } from "@/components/ui/button";
import { copyToClipboard } from "@/lib/clipboard";

/** Copies `text`; `label` names what is copied for screen readers (e.g. "Copy API key"). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  return (
    <Button type="button" variant="outline" size="sm" aria-label={label} onClick={() => void copyToClipboard(text)}>
      <Copy aria-hidden="true" />
      Copy
    </Button>
  );
}
