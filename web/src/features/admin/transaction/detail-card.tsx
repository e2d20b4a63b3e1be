import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDetailValue } from "./format-detail-value";

type FieldValue = string | number | boolean | null;

export interface DetailField<G> {
  key: keyof G & string;
  label: string;
  /** Shown instead of the formatted value (e.g. the payer email's editor). */
  render?: (value: G[keyof G]) => ReactNode;
  /** Replaces the default formatting. */
  format?: (value: G[keyof G]) => string;
}

interface DetailCardProps<G> {
  title: string;
  group: G;
  fields: DetailField<G>[];
  /** Above the fields (e.g. the 'Subscription Cancelled' box). */
  notice?: ReactNode;
}

/** One group of the detail as a card of label and value rows. */
export function DetailCard<G extends Record<string, FieldValue>>({ title, group, fields, notice }: DetailCardProps<G>) {
  return (
    <Card role="region" aria-label={title}>
      <CardHeader>
        <CardTitle className="text-lg">{title}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {notice}
        <dl className="space-y-3">
          {fields.map(({ key, label, render, format }) => (
            <div key={key} className="grid gap-1 sm:grid-cols-[12rem_1fr]">
              <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
              <dd className="break-all">
                {render ? render(group[key]) : format ? format(group[key]) : formatDetailValue(key, group[key])}
              </dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
