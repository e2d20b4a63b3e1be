import { useId, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { DatePicker } from "@/components/ui/date-picker";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { BillingFilters } from "./billing-filters-value";

interface BillingFiltersFormProps {
  value: BillingFilters;
  onChange: (filters: BillingFilters) => void;
}

/**
 * Start Date, End Date, Payment Status and Payer Email. The list follows every change at once, so
 * 'Apply Filters' has nothing left to do (SPEC.md §2); it stays because the screen has it.
 */
export function BillingFiltersForm({ value, onChange }: BillingFiltersFormProps) {
  const id = useId();
  const set = <K extends keyof BillingFilters>(key: K, next: BillingFilters[K]) => onChange({ ...value, [key]: next });

  return (
    <form
      noValidate
      onSubmit={(event: FormEvent) => event.preventDefault()}
      className="grid items-end gap-4 sm:grid-cols-2 lg:grid-cols-5"
    >
      <div className="space-y-2">
        <Label htmlFor={`${id}-start`}>Start Date</Label>
        <DatePicker id={`${id}-start`} value={value.startDate} onChange={(date) => set("startDate", date)} />
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${id}-end`}>End Date</Label>
        <DatePicker id={`${id}-end`} value={value.endDate} onChange={(date) => set("endDate", date)} />
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${id}-status`}>Payment Status</Label>
        <Input
          id={`${id}-status`}
          placeholder="Completed"
          value={value.status}
          onChange={(event) => set("status", event.target.value)}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${id}-email`}>Payer Email</Label>
        <Input
          id={`${id}-email`}
          type="email"
          value={value.email}
          onChange={(event) => set("email", event.target.value)}
        />
      </div>
      <Button type="submit">Apply Filters</Button>
    </form>
  );
}
