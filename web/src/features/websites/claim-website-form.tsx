/** Claims a website (or changes one's origin and mode): hostname, the origin that serves it, and the delivery mode. */
import { useId, useState, type FormEvent } from "react";
import type { WebsiteMode } from "../../../../worker/contract/schemas";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { describeError } from "@/lib/api";
import { useClaimWebsite } from "@/queries/websites";

const MODES: { value: WebsiteMode; label: string }[] = [
  { value: "snippet", label: "Snippet: the script on your pages inserts the content" },
  { value: "edge", label: "Edge: Dynamic Content serves your pages with the content already in them" },
];

export function ClaimWebsiteForm() {
  const claim = useClaimWebsite();
  const [hostname, setHostname] = useState("");
  const [origin, setOrigin] = useState("");
  const [mode, setMode] = useState<WebsiteMode>("edge");
  const ids = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    claim.mutate(
      { hostname: hostname.trim(), origin: origin.trim(), mode },
      {
        onSuccess: () => {
          setHostname("");
          setOrigin("");
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Hostname">
          <Input value={hostname} onChange={(e) => setHostname(e.target.value)} placeholder="shop.example.com" />
        </FormField>
        <FormField label="Origin">
          <Input
            type="url"
            value={origin}
            onChange={(e) => setOrigin(e.target.value)}
            placeholder="https://origin.shop.example.com"
          />
        </FormField>
      </div>
      <RadioGroup
        aria-label="Delivery mode"
        value={mode}
        onValueChange={(value) => setMode(value as WebsiteMode)}
        className="space-y-1"
      >
        {MODES.map((m) => (
          <div key={m.value} className="flex items-center gap-2">
            <RadioGroupItem id={`${ids}-${m.value}`} value={m.value} />
            <Label htmlFor={`${ids}-${m.value}`}>{m.label}</Label>
          </div>
        ))}
      </RadioGroup>
      {claim.isError && <p className="text-sm font-medium text-destructive">{describeError(claim.error)}</p>}
      <Button type="submit" variant="outline" disabled={claim.isPending || !hostname.trim() || !origin.trim()}>
        {claim.isPending ? "Saving..." : "Add website"}
      </Button>
    </form>
  );
}
