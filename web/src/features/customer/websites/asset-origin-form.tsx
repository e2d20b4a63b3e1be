/**
 * An edge website's asset origin (docs/edge-delivery.md, "Assets from another host"): off, or the https host its
 * pages' own images, scripts and styles load from instead of through the Worker; the website's origin is offered
 * first when it is https. Saved with the website's PUT, its origin and mode unchanged.
 */
import { useId, useState, type FormEvent } from "react";
import type { Website } from "#contract/responses";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { describeError } from "@/lib/api";
import { useClaimWebsite } from "@/queries/websites";
import { ASSET_ORIGIN_TEXT } from "./asset-origin-text";
import type { WebsiteStatusLanguage } from "./website-status-text";

export function AssetOriginForm({ website, lang = "en" }: { website: Website; lang?: WebsiteStatusLanguage }) {
  const text = ASSET_ORIGIN_TEXT[lang];
  const save = useClaimWebsite();
  const toggleId = useId();
  const [enabled, setEnabled] = useState(website.assetOrigin !== null);
  const [assetOrigin, setAssetOrigin] = useState(
    website.assetOrigin ?? (website.origin.startsWith("https://") ? website.origin : ""),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    const { hostname, origin, mode } = website;
    save.mutate({ hostname, origin, mode, assetOrigin: enabled ? assetOrigin.trim() : null });
  }

  return (
    <form onSubmit={submit} noValidate aria-label={text.title} className="space-y-3">
      <p className="text-xs text-muted-foreground">{text.current(website.assetOrigin)}</p>
      <div className="flex items-center gap-2">
        <Checkbox id={toggleId} checked={enabled} onCheckedChange={(checked) => setEnabled(checked === true)} />
        <Label htmlFor={toggleId}>{text.toggle}</Label>
      </div>
      {enabled && (
        <FormField label={text.field}>
          <Input
            type="url"
            value={assetOrigin}
            onChange={(e) => setAssetOrigin(e.target.value)}
            placeholder="https://cdn.shop.example.com"
          />
        </FormField>
      )}
      <p className="text-xs text-muted-foreground">{text.hint}</p>
      {save.isError && <p className="text-sm font-medium text-destructive">{describeError(save.error)}</p>}
      <Button type="submit" variant="outline" size="sm" disabled={save.isPending || (enabled && !assetOrigin.trim())}>
        {save.isPending ? text.saving : text.save}
      </Button>
    </form>
  );
}
