/** Claims a website (or changes one's origin and mode): hostname, the origin that serves it, and the delivery mode. */
import { useState, type FormEvent } from "react";
import type { WebsiteMode } from "#contract/schemas";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
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
      <FormField label="Delivery mode">
        <select
          value={mode}
          onChange={(e) => setMode(e.target.value as WebsiteMode)}
          className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none md:text-sm"
        >
          {MODES.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </select>
      </FormField>
      {claim.isError && <p className="text-sm font-medium text-destructive">{describeError(claim.error)}</p>}
      <Button type="submit" variant="outline" disabled={claim.isPending || !hostname.trim() || !origin.trim()}>
        {claim.isPending ? "Saving..." : "Add website"}
      </Button>
    </form>
  );
}
