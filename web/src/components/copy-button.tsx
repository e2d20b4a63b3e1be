import { Copy } from "lucide-react";
import { Button } from "@/components/ui/button";
import { copyToClipboard, ENGLISH_COPY, type CopyMessages } from "@/lib/clipboard";

/**
 * Copies `text`; `label` names what is copied for screen readers (e.g. "Copy API key"), `messages` the toasts (the
 * screen's language; English by default).
 */
export function CopyButton({
  text,
  label,
  messages = ENGLISH_COPY,
}: {
  text: string;
  label: string;
  messages?: CopyMessages;
}) {
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      aria-label={label}
      onClick={() => void copyToClipboard(text, messages)}
    >
      <Copy aria-hidden="true" />
      Copy
    </Button>
  );
}
