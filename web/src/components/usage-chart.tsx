/**
 * @module Requests over time (docs/analytics.md), one chart for the customer's Overview and Analytics tab and the
 * admin's user detail: requests per day, week or month, with the deliveries and the known crawlers' share of each
 * bar, from the server's rollups; of the whole account or, with the URL filter, of one page. Each bar states its
 * numbers as text, for screen readers and on hover.
 */
import { format, parseISO } from "date-fns";
import { useState, type FormEvent } from "react";
// Types only: the contract module holds zod, which the initial bundle must not carry (docs/spa.md).
import type { Interval, TimeseriesPoint } from "#contract/timeseries";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { useUsageSeries } from "@/queries/analytics";

const TEXT = {
  en: {
    intervals: { day: "Days", week: "Weeks", month: "Months" },
    caption: (interval: Interval, url: string) =>
      `Requests${url ? ` of ${url}` : ""} over the last ${{ day: "30 days", week: "12 weeks", month: "12 months" }[interval]}, by ${interval}`,
    bar: (date: string, p: TimeseriesPoint) =>
      `${date}: ${p.requests} requests, ${p.deliveries} deliveries, ${p.crawlerRequests} from crawlers`,
    region: "Requests over time",
    page: "Page URL",
    pagePlaceholder: "All pages, or one page's URL",
    show: "Show",
    all: "All pages",
    legend: ["Requests", "Deliveries", "Search and AI crawlers"],
  },
  de: {
    intervals: { day: "Tage", week: "Wochen", month: "Monate" },
    caption: (interval: Interval, url: string) =>
      `Anfragen${url ? ` für ${url}` : ""} der letzten ${{ day: "30 Tage", week: "12 Wochen", month: "12 Monate" }[interval]}, nach ${{ day: "Tagen", week: "Wochen", month: "Monaten" }[interval]}`,
    bar: (date: string, p: TimeseriesPoint) =>
      `${date}: ${p.requests} Anfragen, ${p.deliveries} Auslieferungen, ${p.crawlerRequests} von Crawlern`,
    region: "Anfragen über die Zeit",
    page: "Seiten-URL",
    pagePlaceholder: "Alle Seiten oder die URL einer Seite",
    show: "Anzeigen",
    all: "Alle Seiten",
    legend: ["Anfragen", "Auslieferungen", "Such- und KI-Crawler"],
  },
} as const;

const INTERVALS: Interval[] = ["day", "week", "month"];

interface UsageChartProps {
  /** Whose series: `/api/analytics/timeseries` (the customer's own) or the admin's route for one customer. */
  seriesPath: string;
  /** Offer the interval buttons and the URL filter (the Overview shows the last 30 days by day only). */
  controls?: boolean;
  lang?: keyof typeof TEXT;
}

export function UsageChart({ seriesPath, controls = true, lang = "en" }: UsageChartProps) {
  const text = TEXT[lang];
  const [interval, setInterval] = useState<Interval>("day");
  const [urlInput, setUrlInput] = useState("");
  const [url, setUrl] = useState("");
  const series = useUsageSeries(seriesPath, interval, url);
  const points = series.data ?? [];
  const highest = Math.max(1, ...points.map((p) => p.requests));
  const describe = (p: TimeseriesPoint) =>
    text.bar(format(parseISO(p.start), interval === "month" ? "MMM yyyy" : "MMM d, yyyy"), p);

  function showUrl(event: FormEvent) {
    event.preventDefault();
    setUrl(urlInput.trim());
  }

  return (
    <section aria-label={text.region} className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <p className="mr-auto text-sm text-muted-foreground">{text.caption(interval, url)}</p>
        {controls &&
          INTERVALS.map((value) => (
            <Button
              key={value}
              size="sm"
              variant={value === interval ? "default" : "outline"}
              aria-pressed={value === interval}
              onClick={() => setInterval(value)}
            >
              {text.intervals[value]}
            </Button>
          ))}
      </div>
      {controls && (
        <form onSubmit={showUrl} className="flex flex-wrap items-center gap-2">
          <Input
            aria-label={text.page}
            placeholder={text.pagePlaceholder}
            value={urlInput}
            onChange={(e) => setUrlInput(e.target.value)}
            className="max-w-md"
          />
          <Button type="submit" size="sm" variant="outline">
            {text.show}
          </Button>
          {url && (
            <Button
              type="button"
              size="sm"
              variant="ghost"
              onClick={() => {
                setUrl("");
                setUrlInput("");
              }}
            >
              {text.all}
            </Button>
          )}
        </form>
      )}
      <ol className="flex h-40 items-end gap-1 border-b" aria-busy={series.isFetching}>
        {points.map((p) => (
          <li
            key={p.start}
            className="relative flex h-full flex-1 flex-col justify-end"
            title={describe(p)}
            aria-label={describe(p)}
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
        {text.legend.map((label, i) => (
          <span key={label}>
            <span
              className={`mr-1 inline-block h-2 w-2 ${["bg-primary/30", "bg-primary", "bg-amber-500"][i]}`}
              aria-hidden="true"
            />
            {label}
          </span>
        ))}
      </p>
    </section>
  );
}
