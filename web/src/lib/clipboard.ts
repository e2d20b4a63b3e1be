/**
 * @module The one copy helper: copies text and says how it went in a toast, in the screen's language. The admin's
 * snippet tab says SPEC.md §8's German words ('Kopiert!', 'Der Code konnte nicht kopiert werden.'); the customer
 * screens, which are English, say the same in English.
 */
import { toast } from "@/lib/toast";

export interface CopyMessages {
  copied: string;
  failedTitle: string;
  failed: string;
}

export const ENGLISH_COPY: CopyMessages = {
  copied: "Copied!",
  failedTitle: "Error",
  failed: "Could not copy the text.",
};
export const GERMAN_COPY: CopyMessages = {
  copied: "Kopiert!",
  failedTitle: "Fehler",
  failed: "Der Code konnte nicht kopiert werden.",
};

/** Copies `text` to the clipboard; answers whether it worked. The clipboard needs a secure context. */
export async function copyToClipboard(text: string, messages: CopyMessages = ENGLISH_COPY): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error("No clipboard");
    await navigator.clipboard.writeText(text);
    toast({ title: messages.copied });
    return true;
  } catch {
    toast({ variant: "destructive", title: messages.failedTitle, description: messages.failed });
    return false;
  }
}
