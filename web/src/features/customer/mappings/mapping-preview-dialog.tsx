/**
 * @module A mapping's preview link (docs/publishing.md): made when the dialog opens, valid 24 hours, to open or to
 * share, and revocable. The page it opens shows the mapping's current content, a draft's too, to whoever holds the
 * link; on a mapping running an experiment, the variant chosen here (docs/experiments.md); on a mapping for an
 * audience, whatever the previewer's attributes (docs/audiences.md).
 */
import { useId, useState } from "react";
import type { Mapping } from "#contract/responses";
import { CopyButton } from "@/components/copy-button";
import { Button, buttonVariants } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { formatDayTime } from "@/lib/format-date";
import { usePreviewLink, useRevokePreviewLinks } from "@/queries/mappings";
import { AUDIENCE_TEXT } from "./audience-text";
import { EXPERIMENT_TEXT } from "./experiment-text";

interface MappingPreviewDialogProps {
  mapping: Mapping;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (event: Event) => void;
}

export function MappingPreviewDialog({ mapping, open, onOpenChange, onCloseAutoFocus }: MappingPreviewDialogProps) {
  const variantId = useId();
  const variants = mapping.variants ?? [];
  const [variant, setVariant] = useState(variants[0]?.key);
  // The control is what a link without a variant shows: the same link as before the experiment (and after it).
  const chosen = variant !== variants[0]?.key && variants.some((v) => v.key === variant) ? variant : undefined;
  const { data: link, isError } = usePreviewLink(mapping.id, open, chosen);
  const revoke = useRevokePreviewLinks(mapping.id);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Preview</DialogTitle>
          <DialogDescription>
            The page with this mapping&apos;s content as it is now, even as a draft, for whoever opens the link. Not
            counted, not cached.
          </DialogDescription>
        </DialogHeader>
        {mapping.audience && (
          <p className="text-sm text-muted-foreground">{AUDIENCE_TEXT.en.previewAudience(mapping.audience.name)}</p>
        )}
        {variants.length > 0 && (
          <div className="flex items-center gap-2">
            <label htmlFor={variantId} className="text-sm font-medium">
              {EXPERIMENT_TEXT.en.previewVariant}
            </label>
            <select
              id={variantId}
              value={chosen ?? variants[0]?.key}
              onChange={(e) => setVariant(e.target.value)}
              className="flex h-9 rounded-md border border-input bg-background px-3 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              {variants.map((v, i) => (
                <option key={v.key} value={v.key}>
                  {i === 0 ? `${v.key} ${EXPERIMENT_TEXT.en.controlMark}` : v.key}
                </option>
              ))}
            </select>
          </div>
        )}
        {!link ? (
          isError ? (
            <p className="text-sm">The preview link could not be made.</p>
          ) : (
            <Spinner />
          )
        ) : (
          <div className="space-y-3">
            <Input readOnly aria-label="Preview link" value={link.url} onFocus={(e) => e.target.select()} />
            <p className="text-sm text-muted-foreground">Valid until {formatDayTime(link.expiresAt)}.</p>
            <div className="flex gap-2">
              <a href={link.url} target="_blank" rel="noopener noreferrer" className={buttonVariants({ size: "sm" })}>
                Open preview
              </a>
              <CopyButton text={link.url} label="Copy preview link" />
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={revoke.isPending}
                onClick={() => revoke.mutate()}
              >
                Revoke links
              </Button>
            </div>
            <p className="text-xs text-muted-foreground">
              Revoke links ends every preview link of this mapping shared so far; a new one is shown here.
            </p>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
