import { useId, useState, type FormEvent } from "react";
import type { ProductVersion } from "#contract/responses";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { DialogClose, DialogFooter } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { useSchemaCheck } from "@/hooks/use-schema-check";
import { useCreateProductVersion, useUpdateProductVersion } from "@/queries/admin/product-versions";
import { toFormValues, toProductVersionBody, type ProductVersionFormValues } from "./product-version-form-values";

type LimitField = "eventsLimit" | "websitesLimit" | "dynamicContentLimit";

const LIMIT_FIELDS: { field: LimitField; label: string }[] = [
  { field: "eventsLimit", label: "Events Limit" },
  { field: "websitesLimit", label: "Websites Limit" },
  { field: "dynamicContentLimit", label: "Dynamic Content Limit" },
];

interface ProductVersionFormProps {
  /** The version to edit, or null for a new one. */
  version: ProductVersion | null;
  /** Called once the server has stored the version. */
  onSaved: () => void;
}

/** The fields of the product version dialog; creates (POST) or updates (PATCH) on submit. */
export function ProductVersionForm({ version, onSaved }: ProductVersionFormProps) {
  const [values, setValues] = useState<ProductVersionFormValues>(() => toFormValues(version));
  const { errors, check } = useSchemaCheck((schemas) => schemas.productVersionBody);
  const createVersion = useCreateProductVersion();
  const updateVersion = useUpdateProductVersion();
  const isPending = createVersion.isPending || updateVersion.isPending;
  const checkboxId = useId();

  const set = <K extends keyof ProductVersionFormValues>(field: K, value: ProductVersionFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body = await check(toProductVersionBody(values));
    if (!body) return;
    if (version) {
      updateVersion.mutate({ id: version.id, body }, { onSuccess: onSaved });
    } else {
      createVersion.mutate(body, { onSuccess: onSaved });
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label="Name" error={errors.name}>
        <Input value={values.name} onChange={(e) => set("name", e.target.value)} />
      </FormField>
      <FormField label="Description" error={errors.description}>
        <Textarea value={values.description} onChange={(e) => set("description", e.target.value)} rows={3} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-3">
        {LIMIT_FIELDS.map(({ field, label }) => (
          <FormField key={field} label={label} error={errors[field]}>
            <Input
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              placeholder="Unbegrenzt"
              value={values[field]}
              onChange={(e) => set(field, e.target.value)}
            />
          </FormField>
        ))}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Price" error={errors.price}>
          <Input
            type="number"
            min={0}
            step={0.01}
            inputMode="decimal"
            value={values.price}
            onChange={(e) => set("price", e.target.value)}
          />
        </FormField>
        <FormField label="PayPal Plan ID" error={errors.paypalPlanId}>
          <Input value={values.paypalPlanId} onChange={(e) => set("paypalPlanId", e.target.value)} />
        </FormField>
      </div>
      <div className="flex items-center gap-2">
        <Checkbox
          id={checkboxId}
          checked={values.isDefault}
          onCheckedChange={(checked) => set("isDefault", checked === true)}
        />
        <Label htmlFor={checkboxId}>Standard Version</Label>
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline">
            Abbrechen
          </Button>
        </DialogClose>
        <Button type="submit" disabled={isPending}>
          {version ? "Speichern" : "Erstellen"}
        </Button>
      </DialogFooter>
    </form>
  );
}
