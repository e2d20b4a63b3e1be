import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ImportReport } from "#contract/bulk";
import type { DeletedMapping, Mapping } from "#contract/responses";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";

afterEach(() => {
  vi.unstubAllGlobals();
});

// jsdom's Blob has no text() (every browser's has): read it as a browser would.
Blob.prototype.text ??= function (this: Blob) {
  return new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(this);
  });
};

function openMappingsTab() {
  window.localStorage.setItem("apiKey", "key-1");
  renderApp("/dashboard");
  // Radix tabs switch on mouse down (and keyboard focus), not on click.
  fireEvent.mouseDown(screen.getByRole("tab", { name: "URL Mappings" }));
}

const deleted: DeletedMapping = {
  id: 9,
  url: "https://example.com/gone",
  htmlContent: "<p>gone</p>",
  htmlContentLength: 11,
  match: "exact",
  publishedAt: "2026-11-01T10:00:00.000Z",
  createdAt: "2026-11-01T10:00:00.000Z",
  deletedAt: "2026-11-20T10:00:00.000Z",
  restorableUntil: "2026-12-20T10:00:00.000Z",
};

const report = (overrides: Partial<ImportReport>): ImportReport => ({
  dryRun: true,
  applied: false,
  total: 2,
  added: 1,
  updated: 0,
  refused: 1,
  message: "1 row is refused: nothing was imported",
  rows: [
    { row: 1, action: "add", url: "https://example.com/a" },
    { row: 2, action: "refuse", url: "ftp://example.com/b", errors: ["url: URL must start with http:// or https://"] },
  ],
  ...overrides,
});

describe("preview links", () => {
  const mapping = { id: 7, url: "https://example.com/launch", htmlContent: "<p>soon</p>", publishedAt: null };

  /** The mappings tab with one mapping, whose preview links the server makes (link1, link2, …) and revokes. */
  function previewApi() {
    let made = 0;
    return mockFetch(({ url, init }) => {
      if (url === "/api/mappings/7/preview" && init.method === "POST") {
        made += 1;
        return jsonResponse(
          { url: `https://example.com/launch?dc_preview=link${made}`, expiresAt: "2026-11-26T10:00:00.000Z" },
          201,
        );
      }
      if (url === "/api/mappings/7/preview" && init.method === "DELETE") {
        return jsonResponse({ message: "Every preview link of this mapping was revoked" });
      }
      if (url.startsWith("/api/mappings/deleted")) return jsonResponse([]);
      if (url.startsWith("/api/mappings?"))
        return jsonResponse([{ ...mapping, placement: { position: "body-start" } }]);
      return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
    });
  }

  const calls = (fetchMock: ReturnType<typeof mockFetch>, method: string) =>
    fetchMock.mock.calls.filter(([url, init]) => url === "/api/mappings/7/preview" && init?.method === method);

  it("makes a mapping's preview link when Preview is opened, to open or copy", async () => {
    const fetchMock = previewApi();
    const link = "https://example.com/launch?dc_preview=link1";
    openMappingsTab();
    fireEvent.click(await screen.findByRole("button", { name: "Preview" }));
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByLabelText("Preview link")).toHaveValue(link);
    expect(within(dialog).getByRole("link", { name: "Open preview" })).toHaveAttribute("href", link);
    expect(within(dialog).getByRole("link", { name: "Open preview" })).toHaveAttribute("rel", "noopener noreferrer");
    expect(calls(fetchMock, "POST")).toHaveLength(1);
  });

  it("revokes every link of the mapping and shows a new one", async () => {
    const fetchMock = previewApi();
    openMappingsTab();
    fireEvent.click(await screen.findByRole("button", { name: "Preview" }));
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByLabelText("Preview link")).toHaveValue(
      "https://example.com/launch?dc_preview=link1",
    );
    fireEvent.click(within(dialog).getByRole("button", { name: "Revoke links" }));
    expect(await screen.findByText("Every preview link of this mapping was revoked")).toBeInTheDocument();
    await waitFor(() =>
      expect(within(dialog).getByLabelText("Preview link")).toHaveValue("https://example.com/launch?dc_preview=link2"),
    );
    expect(calls(fetchMock, "DELETE")).toHaveLength(1);
  });
});

describe("recently deleted mappings", () => {
  it("lists what was deleted in the last 30 days and restores one in one step", async () => {
    let gone = [deleted];
    const fetchMock = mockFetch(({ url, init }) => {
      if (url === "/api/mappings/deleted/9/restore" && init.method === "POST") {
        gone = [];
        return jsonResponse({ id: 9, url: deleted.url } as Mapping);
      }
      if (url.startsWith("/api/mappings/deleted")) {
        const res = jsonResponse(gone);
        res.headers.set("X-Total-Count", String(gone.length));
        return res;
      }
      if (url.startsWith("/api/mappings?")) return jsonResponse([]);
      return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
    });
    openMappingsTab();
    const table = await screen.findByRole("table", { name: "Recently deleted mappings" });
    expect(table).toHaveTextContent("https://example.com/gone");
    expect(table).toHaveTextContent("Dec 20, 2026");
    fireEvent.click(within(table).getByRole("button", { name: "Restore https://example.com/gone" }));
    expect(await screen.findByText("URL mapping restored")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === "/api/mappings/deleted/9/restore")).toBe(true);
    await vi.waitFor(() => expect(screen.queryByText("Recently deleted")).not.toBeInTheDocument());
  });
});

describe("import and export", () => {
  it("checks a file first, shows the refused rows and why, and offers the import only for a clean file", async () => {
    const sent: { url: string; type: string | null; body: string }[] = [];
    mockFetch(({ url, init }) => {
      if (url.startsWith("/api/mappings/import")) {
        const body = String(init.body);
        sent.push({ url, type: new Headers(init.headers).get("Content-Type"), body });
        if (body.includes("ftp://")) return jsonResponse(report({}));
        if (url.includes("dryRun=1")) {
          return jsonResponse(report({ refused: 0, message: "1 added, 0 updated: checked, nothing changed yet" }));
        }
        return jsonResponse(report({ dryRun: false, applied: true, refused: 0, message: "1 added, 0 updated" }));
      }
      if (url.startsWith("/api/mappings")) return jsonResponse([]);
      return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
    });
    openMappingsTab();
    const input = await screen.findByLabelText("Import file");
    const importButton = screen.getByRole("button", { name: "Import" });
    const bad = new File(["url,htmlContent\nftp://example.com/b,<p>b</p>"], "bad.csv", { type: "text/csv" });
    fireEvent.change(input, { target: { files: [bad] } });
    await vi.waitFor(() => expect(screen.getByRole("button", { name: "Check file" })).toBeEnabled());
    fireEvent.click(screen.getByRole("button", { name: "Check file" }));
    const refused = await screen.findByRole("table", { name: "Refused rows" });
    expect(refused).toHaveTextContent("url: URL must start with http:// or https://");
    expect(importButton).toBeDisabled();
    expect(sent[0]).toMatchObject({ url: "/api/mappings/import?dryRun=1", type: "text/csv" });

    const good = new File(['[{"url":"https://example.com/a","htmlContent":"<p>a</p>"}]'], "good.json");
    fireEvent.change(input, { target: { files: [good] } });
    expect(await screen.findByText("Chosen: good.json")).toBeInTheDocument();
    expect(screen.queryByRole("table", { name: "Refused rows" })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Check file" }));
    expect(await screen.findByText("1 added, 0 updated: checked, nothing changed yet")).toBeInTheDocument();
    fireEvent.click(importButton);
    expect(await screen.findByText("Imported: 1 added, 0 updated")).toBeInTheDocument();
    expect(sent.at(-1)).toMatchObject({ url: "/api/mappings/import", type: "application/json" });
  });
});
