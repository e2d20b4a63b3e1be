/**
 * @module A mapping's optional fields in the add and edit forms, folded away: placement and SEO
 * (docs/placement.md), and publishing: a draft, or times to publish and unpublish at in the browser's time zone
 * (docs/publishing.md). A customer who opens nothing sends exactly SPEC.md's body; an edit sends what changed.
 */
import { format, parseISO } from "date-fns";
import type { Mapping } from "#contract/responses";
import type { PlacementPosition } from "#contract/placement";
import { useId } from "react";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Label } from "@/components/ui/label";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { PickOnPage } from "./pick-on-page";

export interface MappingExtrasInput {
  position: PlacementPosition;
  selector: string;
  title: string;
  description: string;
  canonical: string;
  robots: string;
  jsonLd: string;
  draft: boolean;
  /** `datetime-local` values: the browser's own time zone. */
  publishAt: string;
  unpublishAt: string;
}

export const NO_EXTRAS: MappingExtrasInput = {
  position: "body-start",
  selector: "",
  title: "",
  description: "",
  canonical: "",
  robots: "",
  jsonLd: "",
  draft: false,
  publishAt: "",
  unpublishAt: "",
};

const POSITIONS: { value: PlacementPosition; label: string }[] = [
  { value: "body-start", label: "Top of the page (first in <body>)" },
  { value: "before", label: "Before the element" },
  { value: "after", label: "After the element" },
  { value: "inside", label: "Inside the element, first" },
  { value: "replace", label: "Instead of the element" },
];

/**
 * The body's `placement`, `seo`, `status`, `publishAt` and `unpublishAt`, each only when the customer set it: the
 * defaults send nothing (a selector typed before going back to the top of the page is dropped with its position).
 */
export function extrasBody(input: MappingExtrasInput) {
  const { position, selector, draft, publishAt, unpublishAt, ...seo } = input;
  const hasSeo = Object.values(seo).some((value) => value.trim() !== "");
  return {
    ...(position === "body-start" ? {} : { placement: { position, selector } }),
    ...(hasSeo ? { seo } : {}),
    ...(draft ? { status: "draft" as const } : {}),
    ...(publishAt ? { publishAt: instant(publishAt) } : {}),
    ...(unpublishAt ? { unpublishAt: instant(unpublishAt) } : {}),
  };
}

/** A stored mapping's fields as the form shows them (times in the browser's zone, JSON-LD as text). */
export function extrasOf(mapping: Mapping): MappingExtrasInput {
  const { placement, seo } = mapping;
  return {
    position: placement.position,
    selector: placement.position === "body-start" ? "" : placement.selector,
    title: seo.title ?? "",
    description: seo.description ?? "",
    canonical: seo.canonical ?? "",
    robots: seo.robots ?? "",
    jsonLd: seo.jsonLd === undefined ? "" : JSON.stringify(seo.jsonLd, null, 2),
    draft: !mapping.publishedAt && !mapping.publishAt,
    publishAt: localInput(mapping.publishAt),
    unpublishAt: localInput(mapping.unpublishAt),
  };
}

const localInput = (iso: string | null) => (iso ? format(parseISO(iso), "yyyy-MM-dd'T'HH:mm") : "");

const SEO_FIELDS = ["title", "description", "canonical", "robots", "jsonLd"] as const;

/**
 * The `PATCH /api/mappings/{id}` fields for what the customer changed in the form (`before` is `extrasOf` the
 * mapping): placement and SEO whole (an emptied SEO form clears them), each publication field on its own. Unchecking
 * "draft" without a publish time publishes now.
 */
export function extrasChange(before: MappingExtrasInput, after: MappingExtrasInput) {
  const changed = (field: keyof MappingExtrasInput) => before[field] !== after[field];
  const { position, selector } = after;
  return {
    ...(changed("position") || changed("selector")
      ? { placement: position === "body-start" ? { position } : { position, selector } }
      : {}),
    ...(SEO_FIELDS.some(changed) ? { seo: Object.fromEntries(SEO_FIELDS.map((f) => [f, after[f]])) } : {}),
    ...(changed("draft") && (after.draft || !after.publishAt)
      ? { status: after.draft ? ("draft" as const) : ("published" as const) }
      : {}),
    ...(changed("publishAt") ? { publishAt: after.publishAt ? instant(after.publishAt) : null } : {}),
    ...(changed("unpublishAt") ? { unpublishAt: after.unpublishAt ? instant(after.unpublishAt) : null } : {}),
  };
}

/** A `datetime-local` value as the ISO instant it means in the browser's time zone (the schema refuses a bad one). */
function instant(local: string): string {
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? local : date.toISOString();
}

const OPTIONAL_FIELDS = ["placement", "seo", "status", "publishAt", "unpublishAt"];

interface MappingExtrasFieldsProps {
  value: MappingExtrasInput;
  onChange: (value: MappingExtrasInput) => void;
  errors: Partial<Record<string, string>>;
  /** The mapping's URL and HTML (for an experiment, the control's), for "Pick on page". */
  pageUrl: string;
  pageHtml: string;
}

export function MappingExtrasFields({ value, onChange, errors, pageUrl, pageHtml }: MappingExtrasFieldsProps) {
  const draftId = useId();
  const set = (field: keyof MappingExtrasInput) => (event: { target: { value: string } }) =>
    onChange({ ...value, [field]: event.target.value });
  const hasErrors = Object.keys(errors).some((field) => OPTIONAL_FIELDS.some((name) => field.startsWith(name)));
  return (
    <details className="rounded-md border p-4" open={hasErrors || undefined}>
      <summary className="cursor-pointer text-sm font-medium">Placement, SEO &amp; publishing (optional)</summary>
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <FormField label="Position" error={errors["placement.position"] ?? errors.placement}>
          <select
            value={value.position}
            onChange={set("position")}
            className="flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none md:text-sm"
          >
            {POSITIONS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </FormField>
        <FormField label="CSS selector" error={errors["placement.selector"]}>
          <Input
            value={value.selector}
            onChange={set("selector")}
            placeholder="#promo-slot"
            disabled={value.position === "body-start"}
          />
        </FormField>
        <PickOnPage
          url={pageUrl}
          html={pageHtml}
          position={value.position}
          selector={value.selector}
          // A pick at the top of the page means the element: its content goes inside it, first.
          onPick={(selector) =>
            onChange({ ...value, selector, position: value.position === "body-start" ? "inside" : value.position })
          }
        />
        <FormField label="Page title" error={errors["seo.title"]}>
          <Input value={value.title} onChange={set("title")} />
        </FormField>
        <FormField label="Canonical URL" error={errors["seo.canonical"]}>
          <Input value={value.canonical} onChange={set("canonical")} placeholder="https://example.com/page" />
        </FormField>
        <FormField label="Meta description" error={errors["seo.description"]}>
          <Input value={value.description} onChange={set("description")} />
        </FormField>
        <FormField label="Robots" error={errors["seo.robots"]}>
          <Input value={value.robots} onChange={set("robots")} placeholder="noindex, nofollow" />
        </FormField>
        <div className="md:col-span-2">
          <FormField label="JSON-LD" error={errors["seo.jsonLd"]}>
            <Textarea
              value={value.jsonLd}
              onChange={set("jsonLd")}
              placeholder='{"@context": "https://schema.org", "@type": "Offer"}'
              rows={4}
              className="font-mono"
            />
          </FormField>
        </div>
        <FormField label="Publish at" error={errors.publishAt}>
          <Input type="datetime-local" value={value.publishAt} onChange={set("publishAt")} />
        </FormField>
        <FormField label="Unpublish at" error={errors.unpublishAt ?? errors.status}>
          <Input type="datetime-local" value={value.unpublishAt} onChange={set("unpublishAt")} />
        </FormField>
        <div className="flex items-center gap-2 md:col-span-2">
          <Checkbox
            id={draftId}
            checked={value.draft}
            onCheckedChange={(checked) => onChange({ ...value, draft: checked === true })}
          />
          <Label htmlFor={draftId}>Save as draft (not delivered until published)</Label>
        </div>
      </div>
    </details>
  );
}
