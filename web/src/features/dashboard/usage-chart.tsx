/**
 * @module The Analytics tab's chart (docs/analytics.md): requests per day, week or month, with the deliveries and
 * the known crawlers' share of each bar, from the server's rollups. Each bar states its numbers as text, for
 * screen readers and on hover.
 */
import { format, parseISO } from "date-fns";
import { useState } from "react";
// Types only: the contract module holds zod, which the initial bundle must not carry (docs/spa.md).
import type { Interval, TimeseriesPoint } from "../../../../worker/contract/timeseries";
import { Button } from "@/components/ui/button";
import { useUsageSeries } from "@/queries/analytics";

const LABELS: Record<Interval, string> = { day: "Days", week: "Weeks", month: "Months" };
const INTERVALS = Object.keys(LABELS) as Interval[];

const describe = (p: TimeseriesPoint, interval: Interval) =>
  `${format(parseISO(p.start), interval === "month" ? "MMM yyyy" : "MMM d, yyyy")}: ${p.requests} requests, ` +
  `${p.deliveries} deliveries, ${p.crawlerRequests} from crawlers`;

export function UsageChart() {
  const [interval, setInterval] = useState<Interval>("day");
  const series = useUsageSeries(interval);
  const points = series.data ?? [];
  const highest = Math.max(1, ...points.map((p) => p.requests));
  return (
    <section aria-label="Requests over time" className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <p className="mr-auto text-sm text-muted-foreground">Requests over the last 30 days, by {interval}</p>
        {INTERVALS.map((value) => (
          <Button
            key={value}
            size="sm"
            variant={value === interval ? "default" : "outline"}
            aria-pressed={value === interval}
            onClick={() => setInterval(value)}
          >
            {LABELS[value]}
          </Button>
        ))}
      </div>
      <ol className="flex h-40 items-end gap-1 border-b" aria-busy={series.isFetching}>
        {points.map((p) => (
          <li
            key={p.start}
            className="relative flex h-full flex-1 flex-col justify-end"
            title={describe(p, interval)}
            aria-label={describe(p, interval)}
          >
            <div
              className="flex w-full flex-col justify-end bg-primary/30"
              style={{ height: `${(p.requests / highest) * 100}%` }}
            >
              <div
                className="w-full bg-primary"
                style={{ height: `${p.requests ? (p.deliveries / p.requests) * 100 : 0}%` }}
              />
            </div>
            {p.crawlerRequests > 0 && (
              <div
                className="absolute bottom-0 w-full bg-amber-500"
                style={{ height: `${(p.crawlerRequests / highest) * 100}%` }}
              />
            )}
          </li>
        ))}
      </ol>
      <p className="flex flex-wrap gap-4 text-xs text-muted-foreground">
        <span>
          <span className="mr-1 inline-block h-2 w-2 bg-primary/30" aria-hidden="true" />
          Requests
        </span>
        <span>
          <span className="mr-1 inline-block h-2 w-2 bg-primary" aria-hidden="true" />
          Deliveries
        </span>
        <span>
          <span className="mr-1 inline-block h-2 w-2 bg-amber-500" aria-hidden="true" />
          Search and AI crawlers
        </span>
      </p>
    </section>
  );
}
