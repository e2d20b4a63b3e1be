import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  DELIVERY_EVERYWHERE_BY_HEADER,
  DELIVERY_PENDING_HEADER,
  REQUIRED_ONBOARDING_STEPS,
  type Mapping,
  type Onboarding,
} from "#contract/responses";
import { HISTORY_PRUNED_NOTE } from "#contract/versions";
import { DELIVERY_PENDING_MESSAGE } from "@/lib/delivery-note";
import { seriesFrom } from "@/queries/analytics";
import { jsonResponse, mockFetch as mockApi } from "@/test/fetch-mock";
import { mapping } from "@/test/fixtures";
import { renderApp } from "@/test/render-app";

afterEach(() => {
  vi.unstubAllGlobals();
});

/**
 * The dashboard's fake API, without recently deleted mappings (their card: deleted-and-bulk.test.tsx), for a customer
 * past getting started (the checklist: getting-started-checklist.test.tsx), and with an empty series for the
 * Overview's chart where a test's handler answers the series with something else.
 */
const gettingStartedDone: Onboarding = { steps: REQUIRED_ONBOARDING_STEPS.map((key) => ({ key, done: true })) };
const mockFetch: typeof mockApi = (handler) =>
  mockApi(async (call) => {
    if (call.url.startsWith("/api/mappings/deleted")) return jsonResponse([]);
    if (call.url === "/api/onboarding") return jsonResponse(gettingStartedDone);
    const answer = await handler(call);
    if (!call.url.startsWith("/api/analytics/timeseries")) return answer;
    const body: unknown = await answer
      .clone()
      .json()
      .catch(() => null);
    return Array.isArray(body) ? answer : jsonResponse([]);
  });

function openTab(name: string) {
  // Radix tabs switch on mouse down (and keyboard focus), not on click.
  fireEvent.mouseDown(screen.getByRole("tab", { name }));
}

/** The dashboard with a stored key and no mappings, on its URL Mappings tab; `post` answers an added mapping. */
async function openAddForm(post = () => jsonResponse({ error: "unexpected POST" }, 500)) {
  window.localStorage.setItem("apiKey", "key-1");
  const fetchMock = mockFetch(({ url, init }) => {
    if (url === "/api/mappings" && init.method === "POST") return post();
    if (url === "/api/user/stats") return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
    return jsonResponse([]);
  });
  renderApp("/dashboard");
  openTab("URL Mappings");
  await screen.findByText("Add URL Mapping");
  return fetchMock;
}

describe("dashboard without a stored api key", () => {
  it("hides Analytics, the add form and Actions, and points to /register in the empty state", async () => {
    const fetchMock = mockFetch(({ url }) =>
      url === "/api/mappings?limit=100&group=url"
        ? jsonResponse({ error: "Invalid or missing API key" }, 401)
        : jsonResponse({ error: "unexpected" }, 500),
    );
    renderApp("/dashboard");

    expect(screen.getByRole("heading", { name: "Dynamic Content Manager" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Overview" })).toBeInTheDocument();
    expect(screen.queryByRole("tab", { name: "Analytics" })).not.toBeInTheDocument();
    expect(screen.getByText("Request Limit").closest("div")?.parentElement).toHaveTextContent("∞");

    openTab("URL Mappings");

    expect(await screen.findByText("No mappings found.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Register to get an API key" })).toHaveAttribute("href", "/register");
    expect(screen.queryByText("Add URL Mapping")).not.toBeInTheDocument();
    expect(screen.queryByRole("columnheader", { name: "Actions" })).not.toBeInTheDocument();
    // A 401 is "no key", not a failure: no error toast, and stats/analytics are never asked for.
    expect(screen.queryByText("Error")).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(["/api/mappings?limit=100&group=url"]);
  });

  it("refuses to add a mapping when the key has gone, without calling the API", async () => {
    const fetchMock = await openAddForm();

    // Another tab cleared the key after this page rendered.
    window.localStorage.removeItem("apiKey");
    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "https://example.com/x" } });
    fireEvent.click(screen.getByRole("button", { name: "Add Mapping" }));

    expect(await screen.findByText("Please register and verify your email to get an API key.")).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(false);
  });
});

describe("dashboard with a stored api key", () => {
  it("shows the server's rows (one per URL), searches on the server, shows HTML as text, and adds a mapping", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    // The server groups by normalised URL (worker/routes/lists.test.ts): this is its answer for two URLs.
    let rows: Mapping[] = [
      mapping({ id: 2, url: "https://www.example.com/a/", htmlContent: "<b>newest</b>", totalRequests: 9 }),
      mapping({ id: 3, url: "https://example.com/draft", publishedAt: null, createdAt: "2025-02-01T10:00:00.000Z" }),
    ];
    const asked: string[] = [];
    const fetchMock = mockFetch(({ url, init }) => {
      if (url === "/api/mappings" && init.method === "POST") {
        const created = mapping({
          id: 4,
          ...(JSON.parse(String(init.body)) as Partial<Mapping>),
          createdAt: "2025-04-01T10:00:00.000Z",
        });
        rows = [created, ...rows];
        return jsonResponse(created, 201);
      }
      if (url.startsWith("/api/mappings?")) {
        asked.push(url);
        const search = new URL(url, "http://dc.test").searchParams.get("searchTerm");
        const answer = search ? rows.filter((m) => m.url.includes(search.toLowerCase())) : rows;
        const res = jsonResponse(answer);
        res.headers.set("X-Total-Count", String(answer.length));
        return res;
      }
      if (url === "/api/user/stats")
        return jsonResponse({ totalRequests: 42, requestLimit: 1000, lastMonthRequests: 7 });
      return jsonResponse([]);
    });
    renderApp("/dashboard");

    expect(await screen.findByText("42")).toBeInTheDocument();
    expect(screen.getByText("1000")).toBeInTheDocument();
    // Unique URLs: the number of the server's rows.
    expect(screen.getByText("Unique URLs").closest("div")?.parentElement).toHaveTextContent("2");
    expect(screen.getByRole("tab", { name: "Analytics" })).toBeInTheDocument();

    openTab("URL Mappings");
    const table = await screen.findByRole("table");
    const tableRows = within(table).getAllByRole("row").slice(1);
    expect(tableRows).toHaveLength(2);
    expect(tableRows[0]).toHaveTextContent("<b>newest</b>");
    expect(tableRows[0]).toHaveTextContent("Published");
    expect(tableRows[0]).toHaveTextContent("Mar 5, 2025");
    expect(tableRows[1]).toHaveTextContent("Draft");
    expect(table.querySelector("b")).toBeNull();
    expect(within(table).getByRole("columnheader", { name: "Actions" })).toBeInTheDocument();
    expect(asked[0]).toBe("/api/mappings?limit=100&group=url");

    fireEvent.change(screen.getByPlaceholderText("Search mappings..."), { target: { value: "DRAFT" } });
    await waitFor(() => expect(within(screen.getByRole("table")).getAllByRole("row").slice(1)).toHaveLength(1));
    expect(asked).toContain("/api/mappings?limit=100&group=url&searchTerm=DRAFT");
    fireEvent.change(screen.getByPlaceholderText("Search mappings..."), { target: { value: "" } });
    await waitFor(() => expect(within(screen.getByRole("table")).getAllByRole("row").slice(1)).toHaveLength(2));

    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "not a url" } });
    fireEvent.click(screen.getByRole("button", { name: "Add Mapping" }));
    expect(await screen.findByText("Please enter a valid URL")).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "https://example.com/new" } });
    fireEvent.change(screen.getByLabelText("HTML Content"), { target: { value: "<i>new</i>" } });
    fireEvent.click(screen.getByRole("button", { name: "Add Mapping" }));

    expect(await screen.findByText("URL mapping added successfully")).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole("table")).getAllByRole("row").slice(1)).toHaveLength(3));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ url: "https://example.com/new", htmlContent: "<i>new</i>" });
    expect((post?.[1]?.headers as Record<string, string>)["X-API-Key"]).toBe("key-1");
  });

  it("says when an added mapping is saved but not live yet", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    mockFetch(({ url, init }) => {
      if (url === "/api/mappings" && init.method === "POST") {
        const res = jsonResponse(mapping({ id: 7, url: "https://example.com/p" }), 201);
        res.headers.set(DELIVERY_PENDING_HEADER, "1");
        return res;
      }
      return jsonResponse([]);
    });
    renderApp("/dashboard");
    openTab("URL Mappings");
    fireEvent.change(await screen.findByLabelText("URL"), { target: { value: "https://example.com/p" } });
    fireEvent.change(screen.getByLabelText("HTML Content"), { target: { value: "<i>p</i>" } });
    fireEvent.click(screen.getByRole("button", { name: "Add Mapping" }));
    expect(await screen.findByText("URL mapping added successfully")).toBeInTheDocument();
    expect(screen.getByText(DELIVERY_PENDING_MESSAGE)).toBeInTheDocument();
  });

  it("says when a live change is served everywhere, as the Worker answers it", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    const everywhereBy = new Date(2026, 10, 25, 14, 7, 35);
    mockFetch(({ url, init }) => {
      if (url === "/api/mappings" && init.method === "POST") {
        const res = jsonResponse(mapping({ id: 7, url: "https://example.com/p" }), 201);
        res.headers.set(DELIVERY_EVERYWHERE_BY_HEADER, everywhereBy.toISOString());
        return res;
      }
      return jsonResponse([]);
    });
    renderApp("/dashboard");
    openTab("URL Mappings");
    fireEvent.change(await screen.findByLabelText("URL"), { target: { value: "https://example.com/p" } });
    fireEvent.click(screen.getByRole("button", { name: "Add Mapping" }));
    expect(await screen.findByText("Live now; served everywhere by 14:07:35.")).toBeInTheDocument();
  });

  it("adds no pending note to a change that is live", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    mockFetch(({ url, init }) => {
      if (url === "/api/mappings" && init.method === "POST") {
        return jsonResponse(mapping({ id: 7, url: "https://example.com/p" }), 201);
      }
      return jsonResponse([]);
    });
    renderApp("/dashboard");
    openTab("URL Mappings");
    fireEvent.change(await screen.findByLabelText("URL"), { target: { value: "https://example.com/p" } });
    fireEvent.change(screen.getByLabelText("HTML Content"), { target: { value: "<i>p</i>" } });
    fireEvent.click(screen.getByRole("button", { name: "Add Mapping" }));
    expect(await screen.findByText("URL mapping added successfully")).toBeInTheDocument();
    expect(screen.queryByText(DELIVERY_PENDING_MESSAGE)).not.toBeInTheDocument();
  });

  it("pages through the rows with the server", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    const all = Array.from({ length: 130 }, (_, i) => mapping({ id: i + 1, url: `https://example.com/p${i + 1}` }));
    mockFetch(({ url }) => {
      if (url.startsWith("/api/mappings")) {
        const offset = Number(new URL(url, "http://dc.test").searchParams.get("offset") ?? 0);
        const res = jsonResponse(all.slice(offset, offset + 100));
        res.headers.set("X-Total-Count", "130");
        return res;
      }
      return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
    });
    renderApp("/dashboard");
    openTab("URL Mappings");

    expect(await screen.findByText("1–100 of 130")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Next page" }));
    expect(await screen.findByText("101–130 of 130")).toBeInTheDocument();
    expect(await screen.findByText("https://example.com/p101")).toBeInTheDocument();
    expect(screen.queryByText("https://example.com/p1")).not.toBeInTheDocument();
  });

  it("refuses an over-long URL or HTML over 256 KB before sending, and toasts a server refusal", async () => {
    const fetchMock = await openAddForm(() =>
      jsonResponse({ error: "Request body too large: at most 2,568 KB (2,629,632 bytes) is accepted" }, 413),
    );
    const add = () => fireEvent.click(screen.getByRole("button", { name: "Add Mapping" }));

    fireEvent.change(screen.getByLabelText("URL"), { target: { value: `https://example.com/${"p".repeat(2_029)}` } });
    add();
    expect(await screen.findByText("URL must be at most 2,048 characters")).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "ftp://example.com/a" } });
    add();
    expect(await screen.findByText("URL must start with http:// or https://")).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "https://example.com/a" } });
    fireEvent.change(screen.getByLabelText("HTML Content"), { target: { value: "€".repeat(87_382) } });
    add();
    expect(await screen.findByText("HTML content must be at most 256 KB (262,144 bytes)")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(false);

    // Whatever the server refuses is shown in the error toast with its message.
    fireEvent.change(screen.getByLabelText("HTML Content"), { target: { value: "<p>ok</p>" } });
    add();
    expect(
      await screen.findByText("Request body too large: at most 2,568 KB (2,629,632 bytes) is accepted"),
    ).toBeInTheDocument();
    expect(screen.getByText("Error")).toBeInTheDocument();
  });

  it("sends a placement and SEO fields when the customer sets them, refusing bad ones under their field first", async () => {
    const fetchMock = await openAddForm(() => jsonResponse(mapping({ id: 9 }), 201));
    const add = () => fireEvent.click(screen.getByRole("button", { name: "Add Mapping" }));
    fireEvent.click(screen.getByText("Placement, SEO & publishing (optional)"));
    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "https://example.com/offer" } });
    fireEvent.change(screen.getByLabelText("HTML Content"), { target: { value: "<p>Sale</p>" } });
    fireEvent.change(screen.getByLabelText("Position"), { target: { value: "inside" } });
    fireEvent.change(screen.getByLabelText("Canonical URL"), { target: { value: "/offer" } });
    fireEvent.change(screen.getByLabelText("JSON-LD"), { target: { value: "{broken" } });
    add();
    expect(
      await screen.findByText('A selector is required for "before", "after", "inside" and "replace"'),
    ).toBeVisible();
    expect(screen.getByText("The canonical URL must be an absolute http:// or https:// URL")).toBeVisible();
    expect(screen.getByText("JSON-LD must be a JSON object or array")).toBeVisible();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === "POST")).toBe(false);

    fireEvent.change(screen.getByLabelText("CSS selector"), { target: { value: "#slot" } });
    fireEvent.change(screen.getByLabelText("Canonical URL"), { target: { value: "https://example.com/offer" } });
    fireEvent.change(screen.getByLabelText("JSON-LD"), { target: { value: '{"@type": "Offer"}' } });
    fireEvent.change(screen.getByLabelText("Page title"), { target: { value: "Sale" } });
    add();
    expect(await screen.findByText("URL mapping added successfully")).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      url: "https://example.com/offer",
      htmlContent: "<p>Sale</p>",
      placement: { position: "inside", selector: "#slot" },
      seo: { title: "Sale", canonical: "https://example.com/offer", jsonLd: { "@type": "Offer" } },
    });
  });

  it("sends a draft with publish and unpublish times as instants, and shows when a scheduled row goes live", async () => {
    const publishAt = new Date(Date.now() + 3 * 3_600_000 + 60_000).toISOString();
    const fetchMock = await openAddForm(() =>
      jsonResponse(mapping({ id: 9, publishedAt: null, publishAt, url: "https://example.com/later" }), 201),
    );
    fireEvent.click(screen.getByText("Placement, SEO & publishing (optional)"));
    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "https://example.com/later" } });
    fireEvent.change(screen.getByLabelText("Publish at"), { target: { value: "2026-12-01T09:00" } });
    fireEvent.change(screen.getByLabelText("Unpublish at"), { target: { value: "2026-12-02T09:00" } });
    fireEvent.click(screen.getByLabelText("Save as draft (not delivered until published)"));
    fireEvent.click(screen.getByRole("button", { name: "Add Mapping" }));
    expect(await screen.findByText("URL mapping added successfully")).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === "POST");
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      url: "https://example.com/later",
      htmlContent: "",
      status: "draft",
      // The browser's own time zone, as the instant it means.
      publishAt: new Date("2026-12-01T09:00").toISOString(),
      unpublishAt: new Date("2026-12-02T09:00").toISOString(),
    });
  });

  it("says in the table when a scheduled mapping goes live", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    const publishAt = new Date(Date.now() + 3 * 3_600_000 + 60_000).toISOString();
    mockFetch(({ url }) => {
      if (url.startsWith("/api/mappings")) return jsonResponse([mapping({ publishedAt: null, publishAt })]);
      return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
    });
    renderApp("/dashboard");
    openTab("URL Mappings");
    const row = (await screen.findByText("Goes live in 3 hours")).closest("tr")!;
    expect(row).toHaveTextContent("Draft");
  });

  it("tests a URL with the server and shows which mapping serves it and why, as text", async () => {
    const xss = "<img src=x onerror=alert(1)>";
    const asked: string[] = [];
    window.localStorage.setItem("apiKey", "key-1");
    mockFetch(({ url }) => {
      if (url.startsWith("/api/mappings/match")) {
        asked.push(new URL(url, "http://dc.test").searchParams.get("url")!);
        return jsonResponse({
          mapping: mapping({
            url: `https://shop.test/blog/*${xss}`,
            match: "prefix",
            placement: { position: "inside", selector: `[data-x="${xss}"]` },
            seo: { title: xss, robots: "noindex" },
          }),
          reason: `Prefix match: shop.test/blog/* is the longest prefix ${xss}`,
        });
      }
      if (url === "/api/user/stats")
        return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
      return jsonResponse([]);
    });
    renderApp("/dashboard");
    openTab("URL Mappings");
    await screen.findByText("Test a URL");
    const test = () => fireEvent.click(screen.getByRole("button", { name: "Test URL" }));

    fireEvent.change(screen.getByLabelText("Page URL"), { target: { value: "javascript:alert(1)//x" } });
    test();
    expect(await screen.findByText("URL must start with http:// or https://")).toBeInTheDocument();
    expect(asked).toEqual([]);

    fireEvent.change(screen.getByLabelText("Page URL"), { target: { value: "https://shop.test/blog/a?utm_source=x" } });
    test();
    const result = await screen.findByRole("status");
    expect(asked).toEqual(["https://shop.test/blog/a?utm_source=x"]);
    expect(within(result).getByText(`https://shop.test/blog/*${xss}`)).toBeInTheDocument();
    expect(within(result).getByText("Prefix")).toBeInTheDocument();
    expect(within(result).getByText(`Prefix match: shop.test/blog/* is the longest prefix ${xss}`)).toBeInTheDocument();
    expect(
      within(result).getByText(`Placed first inside [data-x="${xss}"]; sets title, robots in <head>`),
    ).toBeInTheDocument();
    expect(result.querySelector("img")).toBeNull();
  });

  it("saves the customer's own ignored parameters, refusing a bad name before sending", async () => {
    const puts: unknown[] = [];
    window.localStorage.setItem("apiKey", "key-1");
    mockFetch(({ url, init }) => {
      if (url === "/api/url-rules" && init.method === "PUT") {
        const body = JSON.parse(String(init.body)) as { ignoredParameters: string[] };
        puts.push(body);
        return jsonResponse({ trackingParameters: ["utm_*", "gclid"], ignoredParameters: body.ignoredParameters });
      }
      if (url === "/api/url-rules")
        return jsonResponse({ trackingParameters: ["utm_*", "gclid"], ignoredParameters: ["ref"] });
      if (url === "/api/user/stats")
        return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
      return jsonResponse([]);
    });
    renderApp("/dashboard");
    openTab("URL Mappings");
    const field = await screen.findByLabelText("Also ignore these parameters");
    await waitFor(() => expect(field).toHaveValue("ref"));
    expect(screen.getByText("utm_*, gclid")).toBeInTheDocument();
    const save = () => fireEvent.click(screen.getByRole("button", { name: "Save Parameters" }));

    fireEvent.change(field, { target: { value: "ref, bad name" } });
    save();
    expect(
      await screen.findByText("A parameter name may hold letters, digits, _ . - [ ] and end in *"),
    ).toBeInTheDocument();
    expect(puts).toEqual([]);

    fireEvent.change(field, { target: { value: "ref, aff_*," } });
    save();
    expect(await screen.findByText("Ignored parameters saved")).toBeInTheDocument();
    expect(puts).toEqual([{ ignoredParameters: ["ref", "aff_*"] }]);
  });

  it("charts requests, deliveries and crawlers over time from the server, by day, week or month", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    const asked: string[] = [];
    mockFetch(({ url }) => {
      if (url.startsWith("/api/analytics/timeseries")) {
        asked.push(url);
        const week = url.includes("interval=week");
        return jsonResponse([
          { start: "2026-11-23T00:00:00.000Z", requests: week ? 70 : 10, deliveries: 8, crawlerRequests: 2 },
          { start: "2026-11-24T00:00:00.000Z", requests: 0, deliveries: 0, crawlerRequests: 0 },
        ]);
      }
      return jsonResponse([]);
    });
    renderApp("/dashboard");
    openTab("Analytics");
    const chart = await screen.findByRole("region", { name: "Requests over time" });
    expect(
      await within(chart).findByLabelText("Nov 23, 2026: 10 requests, 8 deliveries, 2 from crawlers"),
    ).toBeInTheDocument();
    expect(within(chart).getByLabelText("Nov 24, 2026: 0 requests, 0 deliveries, 0 from crawlers")).toBeInTheDocument();
    fireEvent.click(within(chart).getByRole("button", { name: "Weeks" }));
    expect(
      await within(chart).findByLabelText("Nov 23, 2026: 70 requests, 8 deliveries, 2 from crawlers"),
    ).toBeInTheDocument();
    // Weeks reach back 12 weeks (days default to the server's 30 days).
    expect(asked).toEqual([
      "/api/analytics/timeseries?interval=day",
      `/api/analytics/timeseries?interval=week&from=${seriesFrom("week")}`,
    ]);
  });

  it("shows analytics rows, or the empty text", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    mockFetch(({ url }) => {
      if (url === "/api/analytics") return jsonResponse([]);
      if (url === "/api/user/stats")
        return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
      return jsonResponse([]);
    });
    renderApp("/dashboard");

    openTab("Analytics");

    expect(await screen.findByText("No analytics data available yet.")).toBeInTheDocument();
    // The counts come from the minute cron's fold: the tab says how fresh they are.
    expect(screen.getByText("Page views are counted within about a minute.")).toBeInTheDocument();
  });

  it("shows a mapping's versions with what changed, as text, and restores one", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    const xss = "<img src=x onerror=alert(1)>";
    const version = (n: number, htmlContent: string, extra: object = {}) => ({
      version: n,
      changedBy: "customer",
      createdAt: `2026-11-2${n}T10:00:00.000Z`,
      url: "https://example.com/a",
      htmlContent,
      placement: { position: "body-start" },
      seo: {},
      publishedAt: "2026-11-21T10:00:00.000Z",
      publishAt: null,
      unpublishAt: null,
      ...extra,
    });
    const fetchMock = mockFetch(({ url, init }) => {
      if (url === "/api/mappings/7/versions/1/restore" && init.method === "POST") {
        return jsonResponse(mapping({ id: 7, htmlContent: "<p>old</p>" }));
      }
      if (url === "/api/mappings/7/versions?limit=50") {
        const res = jsonResponse([
          version(2, `<p>new</p>\n${xss}`, { changedBy: "schedule", url: "https://example.com/b" }),
          version(1, "<p>old</p>"),
        ]);
        res.headers.set("X-Total-Count", "2");
        return res;
      }
      if (url.startsWith("/api/mappings?")) return jsonResponse([mapping({ id: 7 })]);
      return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
    });
    renderApp("/dashboard");
    openTab("URL Mappings");
    fireEvent.click(await screen.findByRole("button", { name: "History" }));
    const dialog = await screen.findByRole("dialog");
    const newest = await within(dialog).findByRole("listitem", { name: "Version 2" });
    expect(newest).toHaveTextContent("Current");
    expect(newest).toHaveTextContent("The schedule");
    expect(newest).toHaveTextContent("https://example.com/a → https://example.com/b");
    expect(newest).toHaveTextContent("- <p>old</p>");
    expect(newest).toHaveTextContent(`+ <p>new</p> ${xss}`);
    expect(dialog.querySelector("img")).toBeNull();
    expect(within(newest).queryByRole("button", { name: "Restore" })).toBeNull();
    expect(within(dialog).queryByText(HISTORY_PRUNED_NOTE)).toBeNull();

    const oldest = within(dialog).getByRole("listitem", { name: "Version 1" });
    fireEvent.click(within(oldest).getByRole("button", { name: "Restore" }));
    expect(await screen.findByText("Version 1 restored")).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => url === "/api/mappings/7/versions/1/restore" && init?.method === "POST",
      ),
    ).toBe(true);
  });

  it("says so in the History dialog when older versions were pruned", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    mockFetch(({ url }) => {
      if (url === "/api/mappings/7/versions?limit=50") {
        const version = { changedBy: "customer", url: "https://example.com/a", placement: { position: "body-start" } };
        const res = jsonResponse(
          [9, 8].map((n) => ({
            ...version,
            version: n,
            createdAt: "2026-11-27T10:00:00.000Z",
            htmlContent: `<p>${n}</p>`,
            seo: {},
            publishedAt: null,
            publishAt: null,
            unpublishAt: null,
          })),
        );
        res.headers.set("X-Total-Count", "2");
        return res;
      }
      if (url.startsWith("/api/mappings?")) return jsonResponse([mapping({ id: 7 })]);
      return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
    });
    renderApp("/dashboard");
    openTab("URL Mappings");
    fireEvent.click(await screen.findByRole("button", { name: "History" }));
    const dialog = await screen.findByRole("dialog");
    await within(dialog).findByRole("listitem", { name: "Version 9" });
    expect(within(dialog).getByText(HISTORY_PRUNED_NOTE)).toBeInTheDocument();
  });

  it("removes a mapping through the API at once when its URL has no other mapping", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    let mappings: Mapping[] = [mapping({ id: 7, url: "https://example.com/draft", publishedAt: null })];
    const fetchMock = mockFetch(({ url, init }) => {
      if (url === "/api/mappings/7" && init.method === "DELETE") {
        mappings = [];
        return jsonResponse({ message: "URL mapping deleted successfully" });
      }
      if (url.startsWith("/api/mappings?")) return jsonResponse(mappings);
      return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
    });
    renderApp("/dashboard");
    openTab("URL Mappings");

    fireEvent.click(await screen.findByRole("button", { name: "Remove" }));
    expect(await screen.findByText("URL mapping deleted successfully")).toBeInTheDocument();
    // A draft was never on the pages.
    expect(screen.getByText("It was not live, so your pages do not change.")).toBeInTheDocument();
    expect(await screen.findByText("No mappings found.")).toBeInTheDocument();
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === "DELETE").map(([u]) => u)).toEqual([
      "/api/mappings/7",
    ]);
  });
});
