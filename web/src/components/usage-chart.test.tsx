import { fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AppProviders } from "@/app-providers";
import { createQueryClient } from "@/lib/query-client";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { seriesFrom } from "@/queries/analytics";
import { UsageChart } from "./usage-chart";

afterEach(() => {
  vi.unstubAllGlobals();
});

const point = (start: string, requests: number, crawlerRequests = 0) => ({
  start: `${start}T00:00:00.000Z`,
  requests,
  deliveries: requests,
  crawlerRequests,
});

function renderChart(props: Parameters<typeof UsageChart>[0]) {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <UsageChart {...props} />
    </AppProviders>,
  );
}

describe("the usage chart", () => {
  it("asks one page's series when a URL is given, with its crawlers apart, and the whole account again", async () => {
    const asked: string[] = [];
    mockFetch(({ url }) => {
      asked.push(url);
      return jsonResponse(url.includes("url=") ? [point("2026-11-24", 4, 3)] : [point("2026-11-24", 50, 5)]);
    });
    renderChart({ seriesPath: "/api/analytics/timeseries" });
    const chart = await screen.findByRole("region", { name: "Requests over time" });
    expect(
      await within(chart).findByLabelText("Nov 24, 2026: 50 requests, 50 deliveries, 5 from crawlers"),
    ).toBeVisible();

    fireEvent.change(within(chart).getByLabelText("Page URL"), { target: { value: " https://shop.test/a " } });
    fireEvent.click(within(chart).getByRole("button", { name: "Show" }));
    expect(
      await within(chart).findByLabelText("Nov 24, 2026: 4 requests, 4 deliveries, 3 from crawlers"),
    ).toBeVisible();
    expect(within(chart).getByText("Requests of https://shop.test/a over the last 30 days, by day")).toBeVisible();

    fireEvent.click(within(chart).getByRole("button", { name: "All pages" }));
    expect(
      await within(chart).findByLabelText("Nov 24, 2026: 50 requests, 50 deliveries, 5 from crawlers"),
    ).toBeVisible();
    expect(asked).toEqual([
      "/api/analytics/timeseries?interval=day",
      "/api/analytics/timeseries?interval=day&url=https%3A%2F%2Fshop.test%2Fa",
    ]);
  });

  it("shows an admin one customer's series in German, from the admin's route", async () => {
    const asked: string[] = [];
    mockFetch(({ url }) => {
      asked.push(url);
      return jsonResponse([point("2026-11-24", 7, 1)]);
    });
    renderChart({ seriesPath: "/api/admin/users/u-ann/timeseries", lang: "de" });
    const chart = await screen.findByRole("region", { name: "Anfragen über die Zeit" });
    expect(
      await within(chart).findByLabelText("Nov 24, 2026: 7 Anfragen, 7 Auslieferungen, 1 von Crawlern"),
    ).toBeVisible();
    fireEvent.click(within(chart).getByRole("button", { name: "Wochen" }));
    // The range fits the interval: 12 weeks (84 days up to today).
    const from = new Date(Date.now() - 83 * 86_400_000).toISOString().slice(0, 10);
    await vi.waitFor(() => expect(asked).toContain(`/api/admin/users/u-ann/timeseries?interval=week&from=${from}`));
    expect(within(chart).getByText("Anfragen der letzten 12 Wochen, nach Wochen")).toBeVisible();
  });

  it("asks 12 months by month, from the first day of the month 11 months back", () => {
    expect(seriesFrom("month", new Date("2026-11-25T10:00:00Z"))).toBe("2025-12-01");
    expect(seriesFrom("week", new Date("2026-11-25T10:00:00Z"))).toBe("2026-09-03");
    expect(seriesFrom("day", new Date("2026-11-25T10:00:00Z"))).toBeUndefined();
  });

  it("shows the last 30 days without controls on the Overview", async () => {
    mockFetch(() => jsonResponse([point("2026-11-24", 1)]));
    renderChart({ seriesPath: "/api/analytics/timeseries", controls: false });
    const chart = await screen.findByRole("region", { name: "Requests over time" });
    expect(
      await within(chart).findByLabelText("Nov 24, 2026: 1 requests, 1 deliveries, 0 from crawlers"),
    ).toBeVisible();
    expect(within(chart).queryByRole("button")).toBeNull();
    expect(within(chart).queryByLabelText("Page URL")).toBeNull();
  });
});
