/** @module The one copy helper: copies text and says how it went in a toast (SPEC.md §8). */
import { toast } from "@/hooks/use-toast";

export const COPIED_MESSAGE = "Kopiert!";
export const COPY_FAILED_MESSAGE = "Der Code konnte nicht kopiert werden.";

/** Copies `text` to the clipboard; answers whether it worked. The clipboard needs a secure context. */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error("No clipboard");
    await navigator.clipboard.writeText(text);
    toast({ title: COPIED_MESSAGE });
    return true;
  } catch {
    toast({ variant: "destructive", title: "Fehler", description: COPY_FAILED_MESSAGE });
    return false;
  }
}
