import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type {
  AdminMapping,
  AdminUser,
  AdminUserDetail,
  Mapping,
  MappingGroup,
  Website,
  ProductVersion,
  Transaction,
} from "#contract/responses";
import { snippetText } from "#contract/snippet-text";
import { jsonResponse, mockApi, type ApiCall, type ApiRoute } from "@/test/fetch-mock";
import { mapping as fixtureMapping, productVersion } from "@/test/fixtures";
import { renderApp } from "@/test/render-app";
import { ADMIN, signInAsAdmin } from "@/test/session";
import { statsKeys } from "@/queries/stats";
import { userDashboardKeys } from "@/queries/user-dashboard";

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, "clipboard");
});

const user = (overrides: Partial<AdminUser> & Pick<AdminUser, "userId" | "email">): AdminUser => ({
  role: "user",
  emailVerified: true,
  isActive: true,
  createdAt: "2025-01-01T00:00:00.000Z",
  productVersionId: 2,
  productVersionName: "Starter",
  profileStatus: null,
  totalRequests: 0,
  uniqueUrlsCount: 0,
  dynamicContentCount: 0,
  eventsUsed: 0,
  websitesUsed: 0,
  dynamicContentDeliveryUsed: 0,
  periodRequests: 0,
  requestLimit: null,
  uniqueUrlLimit: 3,
  eventsLimit: 1000,
  dynamicContentLimit: null,
  limitOverrides: { uniqueUrlLimit: null, dynamicContentLimit: null },
  apiKey: null,
  billingPeriodStart: null,
  billingPeriodEnd: null,
  ...overrides,
});

const ANN = user({
  userId: "u-ann",
  email: "ann@example.com",
  totalRequests: 50,
  uniqueUrlsCount: 2,
  dynamicContentCount: 4,
  periodRequests: 40,
  requestLimit: 1000,
});
const BOB = user({
  userId: "u-bob",
  email: "Bob@Example.org",
  emailVerified: false,
  totalRequests: 500,
  productVersionId: null,
  productVersionName: null,
  uniqueUrlLimit: null,
});
const CAROL = user({
  userId: "u-carol",
  email: "carol@example.com",
  totalRequests: 5,
  productVersionName: "Growth",
  profileStatus: "CANCELLED",
});
const USERS = [ANN, BOB, CAROL];

const VERSIONS: ProductVersion[] = [
  productVersion({ id: 1, name: "Free", isDefault: true }),
  productVersion({
    id: 2,
    name: "Starter",
    eventsLimit: 1000,
    websitesLimit: 3,
    dynamicContentLimit: null,
    price: 29,
    paypalPlanId: "P-1",
  }),
];

const XSS = "<img src=x onerror=alert(1)>";

/** Ann's draft mappings: the shared fixture with her id and content of their own. */
const mapping = (overrides: Partial<Mapping> & Pick<Mapping, "id" | "url">): Mapping =>
  fixtureMapping({ userId: "u-ann", htmlContent: `<p>${overrides.id}</p>`, publishedAt: null, ...overrides });

const ANN_DETAIL: AdminUserDetail = {
  ...ANN,
  apiKey: "key-ann",
  eventsUsed: 2500,
  websitesUsed: 1,
  dynamicContentDeliveryUsed: 7,
  billingPeriodStart: "2025-03-05T14:07:00",
  billingPeriodEnd: null,
  mappings: [
    mapping({ id: 1, url: "https://Example.com/page", totalRequests: 3, contentDeliveryCount: 1 }),
    mapping({
      id: 2,
      url: "http://example.com/page",
      htmlContent: XSS,
      publishedAt: "2025-03-06T10:00:00.000Z",
      totalRequests: 5,
      contentDeliveryCount: 2,
      // Without a zone the date is local time, so the expected text does not depend on the machine.
      createdAt: "2025-03-07T10:00:00",
    }),
    mapping({ id: 3, url: "https://other.example/x", totalRequests: 11, contentDeliveryCount: 13 }),
  ],
};

/** What the server answers for Ann's mappings grouped by URL ignoring case and scheme (worker/routes/lists.test.ts). */
const website = (hostname: string, status: Website["status"], verifiedAt: string | null): Website => ({
  hostname,
  origin: `https://origin.${hostname}`,
  mode: "edge",
  assetOrigin: null,
  status,
  verification: { type: "txt", name: `_dynamic-content.${hostname}`, value: "token" },
  verifiedAt,
  expiresAt: status === "pending" ? "2026-03-09T09:30:00.000Z" : null,
  checkedAt: null,
  checkProblem: null,
  createdAt: "2026-03-02T09:00:00.000Z",
  updatedAt: "2026-03-02T09:30:00.000Z",
});
const ANN_WEBSITES: Website[] = [
  website("blog.example", "pending", null),
  website("shop.example", "active", "2026-03-02T09:30:00.000Z"),
];

const ANN_GROUPS: MappingGroup[] = [
  {
    key: "other.example/x",
    url: "https://other.example/x",
    events: 1,
    totalRequests: 11,
    contentDeliveryCount: 13,
    lastCreatedAt: "2025-03-05T10:00:00.000Z",
  },
  {
    key: "example.com/page",
    url: "http://example.com/page",
    events: 2,
    totalRequests: 8,
    contentDeliveryCount: 3,
    lastCreatedAt: "2025-03-07T10:00:00.000Z",
  },
];

/** The admin API: `routes` answer first, then the defaults; every call is recorded in `calls`. */
function mockAdminApi(...routes: ApiRoute[]) {
  return mockApi(...routes, ({ method, url }) => {
    if (url === "/api/auth") return jsonResponse(ADMIN);
    if (url === "/api/admin/users" && method === "GET") return jsonResponse(USERS);
    if (url === "/api/admin/product-versions") return jsonResponse(VERSIONS);
    if (url === "/api/admin/users/u-ann" && method === "GET") return jsonResponse(ANN_DETAIL);
    if (url === "/api/admin/users/u-ann/transactions") return jsonResponse([]);
    if (url === "/api/admin/users/u-ann/mapping-groups") return jsonResponse(ANN_GROUPS);
    if (url === "/api/admin/users/u-ann/websites") return jsonResponse(ANN_WEBSITES);
    if (url.startsWith("/api/admin/users/u-ann/mappings?url=")) {
      const key = new URL(url, "http://dc.test").searchParams.get("url");
      return jsonResponse(key === "example.com/page" ? [ANN_DETAIL.mappings[1], ANN_DETAIL.mappings[0]] : []);
    }
    if (url === "/api/admin/mappings") return jsonResponse([]);
    return undefined;
  });
}

const sent = (calls: ApiCall[], method: string) => calls.filter((c) => c.method === method);

async function openUsers(path = "/admin/users") {
  signInAsAdmin();
  const rendered = renderApp(path);
  // The first test also waits for the screen's lazy chunk to be transformed, which can take a while.
  await screen.findByText("ann@example.com", undefined, { timeout: 5000 });
  return rendered;
}

function openTab(name: string) {
  // Radix tabs switch on mouse down (and keyboard focus), not on click.
  fireEvent.mouseDown(screen.getByRole("tab", { name }));
}

const bodyRows = () => within(screen.getAllByRole("table")[0]!).getAllByRole("row").slice(1);
const rowOf = (email: string) => screen.getByText(email).closest("tr")!;
const emailsInOrder = () => bodyRows().map((row) => within(row).getAllByRole("cell")[1]!.textContent);

describe("admin users overview", () => {
  it("is only for admins", async () => {
    mockAdminApi();
    renderApp("/admin/users");
    expect(await screen.findByText("404 Page Not Found")).toBeInTheDocument();
  });

  it("shows the two top-level tabs and one row per user with counts, version and marks", async () => {
    mockAdminApi();
    await openUsers();

    expect(screen.getByRole("tab", { name: "Nutzerübersicht" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Event-Verwaltung" })).toBeInTheDocument();
    for (const name of ["Login", "E-Mail", "Produktversion", "API-Requests", "Request-Limit", "Status", "Löschen"]) {
      expect(screen.getByRole("columnheader", { name })).toBeInTheDocument();
    }
    expect(bodyRows()).toHaveLength(3);

    const ann = within(rowOf("ann@example.com"));
    expect(ann.getByText("Starter")).toHaveClass("bg-success");
    expect(ann.getByText("50")).toBeInTheDocument();
    expect(ann.getByText("2")).toBeInTheDocument();
    expect(ann.getByText("4")).toBeInTheDocument();
    expect(ann.getByRole("spinbutton", { name: "Request-Limit von ann@example.com" })).toHaveValue(1000);
    // The hint is what the limit caps: requests this billing period against the limit (not URLs against websites).
    expect(ann.getByText("40 / 1000")).toHaveAttribute("title", "Requests im aktuellen Abrechnungszeitraum / Limit");
    expect(ann.queryByText("2 / 3")).not.toBeInTheDocument();
    expect(ann.queryByRole("img", { name: "Email nicht verifiziert" })).not.toBeInTheDocument();
    expect(ann.getByRole("switch", { name: "Status von ann@example.com" })).toBeChecked();
    expect(ann.getByText("Aktiv")).toBeInTheDocument();

    // No version of his own: the default version's name, no badge; no limits: ∞.
    const bob = within(rowOf("Bob@Example.org"));
    expect(await bob.findByText("Free")).not.toHaveClass("bg-success");
    const mark = bob.getByRole("img", { name: "Email nicht verifiziert" });
    fireEvent.focus(mark);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("Email nicht verifiziert");
    fireEvent.blur(mark);
    const bobLimit = bob.getByRole("spinbutton", { name: "Request-Limit von Bob@Example.org" });
    expect(bobLimit).toHaveValue(null);
    expect(bobLimit).toHaveAttribute("placeholder", "∞");
    expect(bob.getByText("∞ Events")).toBeInTheDocument();

    // A cancelled subscription (any case) is a red badge.
    expect(within(rowOf("carol@example.com")).getByText("Growth")).toHaveClass("bg-destructive");
  });

  it("says how fresh the counts are", async () => {
    mockAdminApi();
    await openUsers();
    expect(screen.getByText("Seitenaufrufe werden innerhalb etwa einer Minute gezählt.")).toBeInTheDocument();
  });

  it("searches on the server, once typing pauses, and shows its answer", async () => {
    const calls = mockAdminApi(({ url }) =>
      url === "/api/admin/users?searchTerm=EXAMPLE.COM"
        ? jsonResponse([ANN, CAROL])
        : url === "/api/admin/users?searchTerm=nobody"
          ? jsonResponse([])
          : undefined,
    );
    await openUsers();

    fireEvent.change(screen.getByPlaceholderText("Suche nach Nutzern..."), { target: { value: "EXAMPLE.COM" } });
    await waitFor(() => expect(emailsInOrder()).toEqual(["ann@example.com", "carol@example.com"]));

    fireEvent.change(screen.getByPlaceholderText("Suche nach Nutzern..."), { target: { value: "nobody" } });
    expect(await screen.findByText("Keine Nutzer gefunden.")).toBeInTheDocument();
    // Only the paused texts were asked for, not every keystroke.
    expect(calls.filter((c) => c.url.startsWith("/api/admin/users?")).map((c) => c.url)).toEqual([
      "/api/admin/users?searchTerm=EXAMPLE.COM",
      "/api/admin/users?searchTerm=nobody",
    ]);
  });

  it("sorts on the server by API-Requests, ascending then descending, and by email", async () => {
    const answers: Record<string, AdminUser[]> = {
      "sortBy=totalRequests&sortDirection=asc": [CAROL, ANN, BOB],
      "sortBy=totalRequests&sortDirection=desc": [BOB, ANN, CAROL],
      "sortBy=email&sortDirection=asc": [ANN, BOB, CAROL],
    };
    mockAdminApi(({ url }) => {
      const query = url.split("?")[1];
      return url.startsWith("/api/admin/users?") && query && answers[query] ? jsonResponse(answers[query]) : undefined;
    });
    await openUsers();
    expect(emailsInOrder()).toEqual(["ann@example.com", "Bob@Example.org", "carol@example.com"]);

    fireEvent.click(screen.getByRole("button", { name: "API-Requests" }));
    await waitFor(() => expect(emailsInOrder()).toEqual(["carol@example.com", "ann@example.com", "Bob@Example.org"]));
    expect(screen.getByRole("columnheader", { name: "API-Requests" })).toHaveAttribute("aria-sort", "ascending");

    fireEvent.click(screen.getByRole("button", { name: "API-Requests" }));
    await waitFor(() => expect(emailsInOrder()).toEqual(["Bob@Example.org", "ann@example.com", "carol@example.com"]));
    expect(screen.getByRole("columnheader", { name: "API-Requests" })).toHaveAttribute("aria-sort", "descending");

    fireEvent.click(screen.getByRole("button", { name: "E-Mail" }));
    await waitFor(() => expect(emailsInOrder()).toEqual(["ann@example.com", "Bob@Example.org", "carol@example.com"]));
    expect(screen.getByRole("columnheader", { name: "E-Mail" })).toHaveAttribute("aria-sort", "ascending");
  });

  it("saves the request limit on Enter and on blur; a non-numeric entry is sent as null", async () => {
    const calls = mockAdminApi(({ method, url }) =>
      method === "PATCH" && url === "/api/admin/users/u-ann/limits" ? jsonResponse(ANN) : undefined,
    );
    await openUsers();
    const input = screen.getByRole("spinbutton", { name: "Request-Limit von ann@example.com" });

    fireEvent.change(input, { target: { value: "250" } });
    fireEvent.keyDown(input, { key: "Enter" });
    fireEvent.blur(input);
    expect(await screen.findByText("Request limit updated successfully")).toBeInTheDocument();
    await waitFor(() => expect(sent(calls, "PATCH")).toHaveLength(1));
    expect(sent(calls, "PATCH")[0]).toEqual({
      method: "PATCH",
      url: "/api/admin/users/u-ann/limits",
      body: { requestLimit: 250 },
    });

    // A number field hands over "" for text that is not a number; either way it means "no limit".
    await waitFor(() => expect(input).toBeEnabled());
    fireEvent.change(input, { target: { value: "abc" } });
    fireEvent.blur(input);
    await waitFor(() => expect(sent(calls, "PATCH")).toHaveLength(2));
    expect(sent(calls, "PATCH")[1]!.body).toEqual({ requestLimit: null });
    // Clicking into the field selected nobody.
    expect(screen.queryByRole("tab", { name: "Allgemeine Informationen" })).not.toBeInTheDocument();
  });

  it("does not call the server when the limit did not change", async () => {
    const calls = mockAdminApi();
    await openUsers();
    const input = screen.getByRole("spinbutton", { name: "Request-Limit von ann@example.com" });

    fireEvent.change(input, { target: { value: "1000" } });
    fireEvent.blur(input);

    expect(sent(calls, "PATCH")).toHaveLength(0);
  });

  it("switches a user inactive through PATCH .../status", async () => {
    let current = USERS;
    const calls = mockAdminApi(({ method, url }) => {
      if (method === "PATCH" && url === "/api/admin/users/u-ann/status") {
        current = USERS.map((u) => (u.userId === "u-ann" ? { ...u, isActive: false } : u));
        return jsonResponse(current[0]);
      }
      if (method === "GET" && url === "/api/admin/users") return jsonResponse(current);
      return undefined;
    });
    await openUsers();

    fireEvent.click(screen.getByRole("switch", { name: "Status von ann@example.com" }));

    expect(await screen.findByText("User status updated successfully")).toBeInTheDocument();
    expect(sent(calls, "PATCH")).toEqual([
      { method: "PATCH", url: "/api/admin/users/u-ann/status", body: { isActive: false } },
    ]);
    await waitFor(() => expect(screen.getByRole("switch", { name: "Status von ann@example.com" })).not.toBeChecked());
    expect(within(rowOf("ann@example.com")).getByText("Inaktiv")).toBeInTheDocument();
    expect(screen.queryByRole("tab", { name: "Allgemeine Informationen" })).not.toBeInTheDocument();
  });

  it("deletes a user only after 'Sind Sie sicher?' is confirmed", async () => {
    let current = USERS;
    const calls = mockAdminApi(({ method, url }) => {
      if (method === "DELETE" && url === "/api/admin/users/u-bob") {
        current = USERS.filter((u) => u.userId !== "u-bob");
        return jsonResponse({ message: "User deleted successfully" });
      }
      if (method === "GET" && url === "/api/admin/users") return jsonResponse(current);
      return undefined;
    });
    await openUsers();

    fireEvent.click(screen.getByRole("button", { name: "Bob@Example.org löschen" }));
    let dialog = await screen.findByRole("alertdialog", { name: "Sind Sie sicher?" });
    expect(dialog).toHaveTextContent(
      "Das Konto von Bob@Example.org und alle zugehörigen Daten werden permanent gelöscht.",
    );
    fireEvent.click(within(dialog).getByRole("button", { name: "Abbrechen" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(sent(calls, "DELETE")).toHaveLength(0);

    fireEvent.click(screen.getByRole("button", { name: "Bob@Example.org löschen" }));
    dialog = await screen.findByRole("alertdialog", { name: "Sind Sie sicher?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Löschen" }));

    expect(await screen.findByText("User deleted successfully")).toBeInTheDocument();
    expect(sent(calls, "DELETE")).toEqual([{ method: "DELETE", url: "/api/admin/users/u-bob", body: undefined }]);
    await waitFor(() => expect(screen.queryByText("Bob@Example.org")).not.toBeInTheDocument());
    // Neither the dialog's buttons nor the row's selected anybody.
    expect(screen.queryByRole("tab", { name: "Allgemeine Informationen" })).not.toBeInTheDocument();
  });
});

describe("impersonation", () => {
  it("asks for the key by email, then by user id, stores the entries and opens /user-dashboard", async () => {
    const calls = mockAdminApi(({ url }) => {
      if (url === "/api/admin/users/ann%40example.com/api-key") return jsonResponse({ error: "Not found" }, 404);
      if (url === "/api/admin/users/u-ann/api-key") return jsonResponse({ apiKey: "key-ann" });
      if (url === "/api/user/dashboard") return jsonResponse({ error: "stop here" }, 500);
      return undefined;
    });
    await openUsers();

    fireEvent.click(screen.getByRole("button", { name: "Als ann@example.com einloggen" }));

    expect(await screen.findByText("Eingeloggt als ann@example.com")).toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBe("key-ann");
    expect(window.localStorage.getItem("userRole")).toBe("user");
    expect(window.localStorage.getItem("adminApiKey")).toBe("admin-key");
    expect(window.localStorage.getItem("impersonatedUserEmail")).toBe("ann@example.com");
    expect(calls.filter((c) => c.url.endsWith("/api-key")).map((c) => c.url)).toEqual([
      "/api/admin/users/ann%40example.com/api-key",
      "/api/admin/users/u-ann/api-key",
    ]);
  });

  it("says so when neither try gets the key, and stays signed in as admin", async () => {
    mockAdminApi(({ url }) => (url.endsWith("/api-key") ? jsonResponse({ error: "Not found" }, 404) : undefined));
    await openUsers();

    fireEvent.click(screen.getByRole("button", { name: "Als ann@example.com einloggen" }));

    // SPEC.md's text, and the server's reason as its second line.
    expect(
      await screen.findByText("Konnte API-Key für Benutzer ann@example.com nicht abrufen Not found"),
    ).toBeInTheDocument();
    expect(window.localStorage.getItem("apiKey")).toBe("admin-key");
    expect(window.localStorage.getItem("adminApiKey")).toBeNull();
    expect(screen.getByRole("tab", { name: "Nutzerübersicht" })).toBeInTheDocument();
  });

  it("says 'API key is missing in the response' for an answer without a key", async () => {
    mockAdminApi(({ url }) => (url.endsWith("/api-key") ? jsonResponse({}) : undefined));
    await openUsers();

    fireEvent.click(screen.getByRole("button", { name: "Als ann@example.com einloggen" }));

    expect(await screen.findByText("API key is missing in the response")).toBeInTheDocument();
    expect(window.localStorage.getItem("impersonatedUserEmail")).toBeNull();
  });
});

describe("one user's tabs", () => {
  async function selectAnn() {
    const rendered = await openUsers();
    // A click anywhere on the row (here its API-Requests cell) selects the user.
    fireEvent.click(within(rowOf("ann@example.com")).getByText("50"));
    await screen.findByRole("tab", { name: "Allgemeine Informationen" });
    return rendered;
  }

  it("selecting a row shows the four German tabs, and the way back shows the overview", async () => {
    mockAdminApi();
    await selectAnn();

    expect(screen.getByRole("heading", { name: "ann@example.com" })).toBeInTheDocument();
    for (const name of ["Allgemeine Informationen", "Webseiten & Events", "JavaScript Snippet", "Transaktionen"]) {
      expect(screen.getByRole("tab", { name })).toBeInTheDocument();
    }
    expect(screen.queryByRole("tab", { name: "Nutzerübersicht" })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "Zurück zur Übersicht" }));
    expect(await screen.findByRole("tab", { name: "Nutzerübersicht" })).toBeInTheDocument();
    expect(screen.queryByRole("tab", { name: "Allgemeine Informationen" })).not.toBeInTheDocument();
  });

  it("the general tab shows facts, limits with use and the usage bars", async () => {
    mockAdminApi();
    await selectAnn();

    expect(screen.getByText("u-ann")).toBeInTheDocument();
    expect(screen.getByText("key-ann")).toBeInTheDocument();
    expect(screen.getByText("Ja")).toBeInTheDocument();
    expect(screen.getByText("05.03.2025 14:07")).toBeInTheDocument();
    expect(screen.getByText("Nicht festgelegt")).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "E-Mail" })).toHaveValue("ann@example.com");

    expect(screen.getByRole("group", { name: "Webseiten" })).toHaveTextContent("1 / 3");
    expect(screen.getByRole("group", { name: "Events" })).toHaveTextContent("2500 / 1000");
    expect(screen.getByRole("group", { name: "Dynamic Content" })).toHaveTextContent("7 / ∞");

    expect(screen.getByRole("progressbar", { name: "Websites" })).toHaveAttribute("aria-valuenow", "33");
    expect(screen.getByRole("progressbar", { name: "Events (updates this month)" })).toHaveAttribute(
      "aria-valuenow",
      "100",
    );
    expect(
      screen.getByRole("progressbar", { name: "Dynamic content deliveries (generations this month)" }),
    ).toHaveAttribute("aria-valuenow", "0");

    const versions = await screen.findByRole("radiogroup", { name: "Produktversion" });
    expect(within(versions).getByRole("radio", { name: "Free (Standard)" })).not.toBeChecked();
    expect(within(versions).getByRole("radio", { name: "Starter" })).toBeChecked();
    expect(within(versions).getAllByText("Aktuelle Version")).toHaveLength(1);
    const starter = within(versions).getByRole("radio", { name: "Starter" }).parentElement!;
    expect(within(starter).getByText("Aktuelle Version")).toBeInTheDocument();
  });

  it("says how fresh the numbers are, on the general tab (usage bars) and on the Nutzung tab", async () => {
    mockAdminApi();
    await selectAnn();
    const note = "Seitenaufrufe werden innerhalb etwa einer Minute gezählt.";
    expect(within(screen.getByRole("tabpanel")).getByText(note)).toBeInTheDocument();

    openTab("Nutzung");
    const usage = await screen.findByRole("region", { name: "Anfragen über die Zeit" });
    expect(within(usage.closest("[role='tabpanel']") as HTMLElement).getByText(note)).toBeInTheDocument();
  });

  it("saves a per-user websites or dynamic-content limit in place of the version's (0: unlimited)", async () => {
    const calls = mockAdminApi(({ method, url }) =>
      method === "PATCH" && url === "/api/admin/users/u-ann/limits" ? jsonResponse(ANN) : undefined,
    );
    await selectAnn();
    const own = (card: string) =>
      within(screen.getByRole("group", { name: card })).getByLabelText(
        "Eigenes Limit (leer: wie die Version, 0: unbegrenzt)",
      );
    expect(own("Webseiten")).toHaveValue(null);
    expect(within(screen.getByRole("group", { name: "Events" })).queryByRole("spinbutton")).not.toBeInTheDocument();

    fireEvent.change(own("Webseiten"), { target: { value: "1" } });
    fireEvent.blur(own("Webseiten"));
    expect(await screen.findByText("Limits updated successfully")).toBeInTheDocument();
    await waitFor(() => expect(own("Dynamic Content")).toBeEnabled());
    fireEvent.change(own("Dynamic Content"), { target: { value: "0" } });
    fireEvent.blur(own("Dynamic Content"));
    await waitFor(() => expect(sent(calls, "PATCH")).toHaveLength(2));
    expect(sent(calls, "PATCH").map((c) => c.body)).toEqual([{ uniqueUrlLimit: 1 }, { dynamicContentLimit: 0 }]);
  });

  it("assigns a product version and refreshes the admin and customer data", async () => {
    const calls = mockAdminApi(({ method, url }) =>
      method === "POST" && url === "/api/admin/users/u-ann/product-version" ? jsonResponse(ANN) : undefined,
    );
    const { queryClient } = await selectAnn();
    queryClient.setQueryData(userDashboardKeys.all, { cached: true });
    queryClient.setQueryData(statsKeys.all, { cached: true });

    const versions = await screen.findByRole("radiogroup", { name: "Produktversion" });
    fireEvent.click(within(versions).getByRole("radio", { name: "Free (Standard)" }));

    expect(await screen.findByText("Product version assigned successfully")).toBeInTheDocument();
    expect(sent(calls, "POST")).toEqual([
      { method: "POST", url: "/api/admin/users/u-ann/product-version", body: { versionId: 1 } },
    ]);
    expect(queryClient.getQueryState(userDashboardKeys.all)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(statsKeys.all)?.isInvalidated).toBe(true);
    await waitFor(() =>
      expect(calls.filter((c) => c.url === "/api/admin/users/u-ann" && c.method === "GET")).toHaveLength(2),
    );
  });

  it("reports a failed assignment with the server's message", async () => {
    mockAdminApi(({ url }) =>
      url.endsWith("/product-version") ? jsonResponse({ error: "Product version not found" }, 404) : undefined,
    );
    await selectAnn();

    const versions = await screen.findByRole("radiogroup", { name: "Produktversion" });
    fireEvent.click(within(versions).getByRole("radio", { name: "Free (Standard)" }));

    expect(await screen.findByText("Failed to assign product version: Product version not found")).toBeInTheDocument();
  });

  it("updates the email with German toasts, and shows the server's message on failure", async () => {
    let answer = () => jsonResponse({ error: "Email already in use" }, 409);
    const calls = mockAdminApi(({ method, url }) =>
      method === "PATCH" && url === "/api/admin/users/u-ann/email" ? answer() : undefined,
    );
    await selectAnn();
    const field = screen.getByRole("textbox", { name: "E-Mail" });

    fireEvent.change(field, { target: { value: "taken@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Speichern" }));
    expect(await screen.findByText("Email already in use")).toBeInTheDocument();
    expect(screen.getByText("Fehler")).toBeInTheDocument();

    answer = () => jsonResponse({ ...ANN, email: "new@example.com" });
    fireEvent.change(field, { target: { value: "new@example.com" } });
    fireEvent.click(screen.getByRole("button", { name: "Speichern" }));
    expect(await screen.findByText("E-Mail-Adresse wurde erfolgreich aktualisiert")).toBeInTheDocument();
    expect(screen.getByText("Erfolg")).toBeInTheDocument();
    expect(sent(calls, "PATCH").map((c) => c.body)).toEqual([
      { email: "taken@example.com" },
      { email: "new@example.com" },
    ]);
  });

  it("checks the email before sending it", async () => {
    const calls = mockAdminApi();
    await selectAnn();

    fireEvent.change(screen.getByRole("textbox", { name: "E-Mail" }), { target: { value: "not-an-email" } });
    fireEvent.click(screen.getByRole("button", { name: "Speichern" }));

    expect(await screen.findByText("Please enter a valid email address")).toBeInTheDocument();
    expect(sent(calls, "PATCH")).toHaveLength(0);
  });

  it("resends the verification email and the api key, with their toasts", async () => {
    let keyAnswer = () => jsonResponse({ message: "sent" });
    mockAdminApi(({ method, url }) => {
      if (method === "POST" && url === "/api/admin/users/u-ann/resend-verification")
        return jsonResponse({ error: "SMTP down" }, 500);
      if (method === "POST" && url === "/api/admin/users/u-ann/resend-api-key") return keyAnswer();
      return undefined;
    });
    await selectAnn();

    fireEvent.click(screen.getByRole("button", { name: "Verifizierungs-E-Mail erneut senden" }));
    expect(await screen.findByText("Failed to send verification email SMTP down")).toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "API-Key per E-Mail senden" }));
    expect(await screen.findByText("Der API-Key wurde erneut per E-Mail versendet.")).toBeInTheDocument();
    expect(screen.getByText("E-Mail gesendet")).toBeInTheDocument();

    keyAnswer = () => jsonResponse({ error: "SMTP down" }, 500);
    fireEvent.click(screen.getByRole("button", { name: "API-Key per E-Mail senden" }));
    expect(await screen.findByText("Der API-Key konnte nicht erneut gesendet werden. SMTP down")).toBeInTheDocument();
  });

  it("shows the server's websites (URL ignoring scheme and case, summed counts), opens one, and deletes an event", async () => {
    let groupEvents = [ANN_DETAIL.mappings[1]!, ANN_DETAIL.mappings[0]!];
    const calls = mockAdminApi(({ method, url }) => {
      if (method === "DELETE" && url === "/api/admin/mappings/1") {
        groupEvents = groupEvents.filter((m) => m.id !== 1);
        return jsonResponse({ message: "Mapping deleted successfully" });
      }
      if (url === "/api/admin/users/u-ann/mappings?url=example.com%2Fpage") return jsonResponse(groupEvents);
      return undefined;
    });
    await selectAnn();
    openTab("Webseiten & Events");

    const panel = await screen.findByRole("tabpanel", { name: "Webseiten & Events" });
    await waitFor(() => expect(within(panel).getAllByRole("region")).toHaveLength(2));
    // The group is named by its newest mapping's URL.
    const page = screen.getByRole("region", { name: "http://example.com/page" });
    expect(page).toHaveTextContent("2 Events");
    expect(page).toHaveTextContent("API-Requests: 8");
    expect(page).toHaveTextContent("Content-Aufrufe: 3");
    const other = screen.getByRole("region", { name: "https://other.example/x" });
    expect(other).toHaveTextContent("1 Event");
    expect(other).toHaveTextContent("API-Requests: 11");
    expect(other).toHaveTextContent("Content-Aufrufe: 13");
    expect(calls.some((c) => c.url.includes("/mappings?url="))).toBe(false);

    const toggle = within(page).getByRole("button", { name: /example\.com\/page/ });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");

    await waitFor(() => expect(within(page).getAllByRole("row").slice(1)).toHaveLength(2));
    const rows = within(page).getAllByRole("row").slice(1);
    expect(within(rows[0]!).getByText("Veröffentlicht")).toBeInTheDocument();
    expect(within(rows[0]!).getByText("07.03.2025 10:00")).toBeInTheDocument();
    expect(within(rows[1]!).getByText("Entwurf")).toBeInTheDocument();
    expect(within(rows[1]!).getByText("<p>1</p>")).toBeInTheDocument();

    fireEvent.click(within(rows[1]!).getByRole("button", { name: /löschen/ }));
    expect(await screen.findByText("Mapping deleted successfully")).toBeInTheDocument();
    expect(sent(calls, "DELETE")).toEqual([{ method: "DELETE", url: "/api/admin/mappings/1", body: undefined }]);
    await waitFor(() => expect(within(page).getAllByRole("row").slice(1)).toHaveLength(1));
  });

  it("lists the user's claimed domains, pending and proven, and releases one after asking", async () => {
    let websites = ANN_WEBSITES;
    const calls = mockAdminApi(({ method, url }) => {
      if (method === "DELETE" && url === "/api/admin/users/u-ann/websites/shop.example") {
        websites = websites.filter((w) => w.hostname !== "shop.example");
        return jsonResponse({ message: "shop.example was released" });
      }
      if (url === "/api/admin/users/u-ann/websites") return jsonResponse(websites);
      return undefined;
    });
    await selectAnn();
    openTab("Webseiten & Events");

    const panel = await screen.findByRole("tabpanel", { name: "Webseiten & Events" });
    const proven = await within(panel).findByRole("row", { name: /shop\.example/ });
    expect(proven).toHaveTextContent("Bestätigt");
    expect(proven).toHaveTextContent("Edge");
    expect(proven).toHaveTextContent("02.03.2026 09:30");
    expect(within(panel).getByRole("row", { name: /blog\.example/ })).toHaveTextContent("Ausstehend");

    fireEvent.click(within(proven).getByRole("button", { name: "Freigeben" }));
    fireEvent.click(await screen.findByRole("button", { name: "Freigeben", hidden: false }));
    expect(await screen.findByText("Der Hostname wurde freigegeben.")).toBeInTheDocument();
    expect(sent(calls, "DELETE")).toEqual([
      { method: "DELETE", url: "/api/admin/users/u-ann/websites/shop.example", body: undefined },
    ]);
    await waitFor(() => expect(within(panel).queryByRole("row", { name: /shop\.example/ })).toBeNull());
  });

  it("shows customer HTML as text: an onerror payload runs nothing", async () => {
    const alert = vi.fn();
    mockAdminApi();
    vi.stubGlobal("alert", alert);
    await selectAnn();
    openTab("Webseiten & Events");

    const page = await screen.findByRole("region", { name: "http://example.com/page" });
    fireEvent.click(within(page).getByRole("button", { name: /example\.com\/page/ }));

    expect(await within(page).findByText(XSS)).toBeInTheDocument();
    expect(document.querySelector("main img, [role=region] img")).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alert).not.toHaveBeenCalled();
  });

  it("the snippet tab shows the customer's exact snippet with this user's id, and copies it", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    mockAdminApi();
    await selectAnn();
    openTab("JavaScript Snippet");

    const expected = snippetText(window.location.origin, "u-ann");
    const code = await screen.findByText((_, el) => el?.tagName === "CODE" && el.textContent === expected);
    expect(code.querySelector("script")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Snippet kopieren" }));
    expect(await screen.findByText("Kopiert!")).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(expected);
  });

  it("the transactions tab says when there are none", async () => {
    mockAdminApi();
    await selectAnn();
    openTab("Transaktionen");

    expect(await screen.findByText("No transactions found for this user")).toBeInTheDocument();
    for (const name of ["Date", "Product", "Amount", "Status", "Transaction ID", "Next Payment"]) {
      expect(screen.getByRole("columnheader", { name })).toBeInTheDocument();
    }
  });

  it("the transactions tab shows rows, the cancelled ones red", async () => {
    const tx = (overrides: Partial<Transaction>) =>
      ({
        transactionId: "T-1",
        receivedAt: "2025-03-05T14:07:00",
        productName: "Starter",
        amount: "29.00",
        currency: "USD",
        paymentStatus: "Completed",
        nextPaymentDate: "2025-04-05T14:07:00",
        profileStatus: "Active",
        ...overrides,
      }) as Transaction;
    mockAdminApi(({ url }) =>
      url === "/api/admin/users/u-ann/transactions"
        ? jsonResponse([tx({}), tx({ transactionId: "T-2", amount: 79, profileStatus: "Cancelled" })])
        : undefined,
    );
    await selectAnn();
    openTab("Transaktionen");

    const active = (await screen.findByText("T-1")).closest("tr")!;
    expect(
      within(active)
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["05.03.2025 14:07", "Starter", "$29.00", "Completed", "T-1", "05.04.2025 14:07"]);
    expect(active).not.toHaveClass("bg-red-50");
    const cancelled = screen.getByText("T-2").closest("tr")!;
    expect(cancelled).toHaveClass("bg-red-50", "text-red-700");
    expect(within(cancelled).getByText("$79.00")).toBeInTheDocument();
  });

  it("the transactions tab reports a load failure", async () => {
    mockAdminApi(({ url }) =>
      url === "/api/admin/users/u-ann/transactions" ? jsonResponse({ error: "boom" }, 500) : undefined,
    );
    await selectAnn();
    openTab("Transaktionen");

    expect(await screen.findByText("Error loading transactions")).toBeInTheDocument();
  });
});

describe("Event-Verwaltung", () => {
  const MAPPINGS: AdminMapping[] = [
    { ...mapping({ id: 7, url: "https://shop.example/a", htmlContent: XSS }), userEmail: "ann@example.com" },
    {
      ...mapping({
        id: 8,
        url: "https://blog.example/b",
        htmlContent: "<b>Sale</b>",
        publishedAt: "2025-03-06T10:00:00Z",
      }),
      userEmail: "carol@example.com",
    },
  ];

  it("lists every customer's events with the owner's email, searches URL and HTML, and deletes", async () => {
    let current = MAPPINGS;
    const calls = mockAdminApi(({ method, url }) => {
      if (method === "GET" && url === "/api/admin/mappings") return jsonResponse(current);
      if (method === "GET" && url === "/api/admin/mappings?searchTerm=SALE")
        return jsonResponse(current.filter((m) => m.url.includes("blog")));
      if (method === "DELETE" && url === "/api/admin/mappings/8") {
        current = MAPPINGS.filter((m) => m.id !== 8);
        return jsonResponse({ message: "Mapping deleted successfully" });
      }
      return undefined;
    });
    await openUsers();
    openTab("Event-Verwaltung");

    const table = await screen.findByRole("table");
    expect(await within(table).findByText("https://shop.example/a")).toBeInTheDocument();
    for (const name of ["URL", "HTML-Content", "Erstellt", "Status", "Nutzer-E-Mail", "Löschen"]) {
      expect(within(table).getByRole("columnheader", { name })).toBeInTheDocument();
    }
    // The payload is text: no element was made from it.
    expect(within(table).getByText(XSS)).toBeInTheDocument();
    expect(table.querySelector("img")).toBeNull();
    const blogRow = within(table).getByText("https://blog.example/b").closest("tr")!;
    expect(within(blogRow).getByText("carol@example.com")).toBeInTheDocument();
    expect(within(blogRow).getByText("Veröffentlicht")).toBeInTheDocument();

    // The server searches URL and HTML; the table shows its answer.
    const search = screen.getByPlaceholderText("Suche nach URL oder HTML-Content...");
    fireEvent.change(search, { target: { value: "SALE" } });
    await waitFor(() => expect(within(table).queryByText("https://shop.example/a")).not.toBeInTheDocument());
    expect(within(table).getByText("https://blog.example/b")).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toContain("/api/admin/mappings?searchTerm=SALE");
    fireEvent.change(search, { target: { value: "" } });
    await waitFor(() => expect(within(table).getByText("https://shop.example/a")).toBeInTheDocument());

    const shownAgain = within(table).getByText("https://blog.example/b").closest("tr")!;
    fireEvent.click(within(shownAgain).getByRole("button", { name: /löschen/ }));
    expect(await screen.findByText("Mapping deleted successfully")).toBeInTheDocument();
    expect(sent(calls, "DELETE")).toEqual([{ method: "DELETE", url: "/api/admin/mappings/8", body: undefined }]);
    await waitFor(() => expect(screen.queryByText("https://blog.example/b")).not.toBeInTheDocument());
  });
});
