/**
 * The dashboard's row actions of issue 25: Edit, Publish / Unpublish, Remove on a URL with older mappings, and the
 * note under each change's toast, which says what happened to the pages (never "Live now" for a draft, a schedule
 * or a removal).
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DELIVERY_EVERYWHERE_BY_HEADER, type Mapping } from "#contract/responses";
import { jsonResponse, type ApiCall } from "@/test/fetch-mock";
import { mapping } from "@/test/fixtures";
import { changes, openMappingsTab } from "@/test/mappings-tab";

afterEach(() => {
  vi.unstubAllGlobals();
});

const EVERYWHERE_BY = new Date(2026, 10, 25, 14, 7, 35);

/** An answer as the Worker sends it after a change it wrote to the delivery store. */
function delivered(body: unknown, status = 200) {
  const res = jsonResponse(body, status);
  res.headers.set(DELIVERY_EVERYWHERE_BY_HEADER, EVERYWHERE_BY.toISOString());
  return res;
}

describe("Publish and Unpublish", () => {
  it("publishes a draft: the row's action, PATCH status, and a note that it is live", async () => {
    const draft = mapping({ id: 7, publishedAt: null });
    const { calls } = openMappingsTab([draft], (call) =>
      call.method === "PATCH" ? delivered({ ...draft, publishedAt: "2026-11-25T13:07:00.000Z" }) : undefined,
    );

    fireEvent.click(await screen.findByRole("button", { name: "Publish" }));
    expect(await screen.findByText("URL mapping published")).toBeInTheDocument();
    expect(screen.getByText("Live now; served everywhere by 14:07:35.")).toBeInTheDocument();
    expect(changes(calls)).toEqual([["PATCH", "/api/mappings/7/status", { status: "published" }]]);
  });

  it("unpublishes a live mapping, and says when it is gone from the pages, not that it is live", async () => {
    const live = mapping({ id: 7 });
    const { calls } = openMappingsTab([live], (call) =>
      call.method === "PATCH" ? delivered({ ...live, publishedAt: null }) : undefined,
    );

    expect(await screen.findByRole("button", { name: "Unpublish" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Publish" })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Unpublish" }));
    expect(await screen.findByText("URL mapping unpublished")).toBeInTheDocument();
    expect(screen.getByText("Removed from your pages by 14:07:35.")).toBeInTheDocument();
    expect(screen.queryByText(/Live now/)).not.toBeInTheDocument();
    expect(changes(calls)).toEqual([["PATCH", "/api/mappings/7/status", { status: "unpublished" }]]);
  });
});

describe("notes after adding", () => {
  async function addWith(answer: Mapping, fill: () => void = () => undefined) {
    openMappingsTab([], (call) => (call.method === "POST" ? delivered(answer, 201) : undefined));
    fireEvent.change(await screen.findByLabelText("URL"), { target: { value: "https://example.com/p" } });
    fireEvent.change(screen.getByLabelText("HTML Content"), { target: { value: "<i>p</i>" } });
    fill();
    fireEvent.click(screen.getByRole("button", { name: "Add Mapping" }));
    expect(await screen.findByText("URL mapping added successfully")).toBeInTheDocument();
  }

  it("says a draft is saved as a draft, though the Worker wrote it to the delivery store", async () => {
    await addWith(mapping({ id: 7, publishedAt: null }), () =>
      fireEvent.click(screen.getByLabelText("Save as draft (not delivered until published)")),
    );
    expect(screen.getByText("Saved as draft: not delivered until published.")).toBeInTheDocument();
    expect(screen.queryByText(/Live now/)).not.toBeInTheDocument();
  });

  it("says when a scheduled mapping goes live", async () => {
    const at = new Date(2026, 11, 1, 9, 0);
    await addWith(mapping({ id: 7, publishedAt: null, publishAt: at.toISOString() }));
    expect(screen.getByText("Saved as draft. Goes live at Dec 1, 2026 09:00.")).toBeInTheDocument();
    expect(screen.queryByText(/Live now/)).not.toBeInTheDocument();
  });

  it("says a live mapping is live, and when it ends if it is scheduled to", async () => {
    const ends = new Date(2026, 11, 24, 18, 30);
    await addWith(mapping({ id: 7, unpublishAt: ends.toISOString() }));
    expect(
      screen.getByText("Live now; served everywhere by 14:07:35. Ends at Dec 24, 2026 18:30."),
    ).toBeInTheDocument();
  });
});

describe("Edit", () => {
  const current = mapping({
    id: 7,
    url: "https://example.com/a",
    htmlContent: "<p>old</p>",
    placement: { position: "after", selector: "#hero" },
    seo: { title: "Old title", jsonLd: { "@type": "Offer" } },
  });

  async function openEdit(answer = (body: unknown) => delivered({ ...current, ...(body as object) })) {
    const api = openMappingsTab([current], (call) => (call.method === "PATCH" ? answer(call.body) : undefined));
    fireEvent.click(await screen.findByRole("button", { name: "Edit" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit URL mapping" });
    return { ...api, dialog };
  }

  it("shows the mapping as it is, and sends only what changed", async () => {
    const { calls, dialog } = await openEdit();
    expect(within(dialog).getByLabelText("URL")).toHaveValue("https://example.com/a");
    expect(within(dialog).getByLabelText("HTML Content")).toHaveValue("<p>old</p>");
    expect(within(dialog).getByLabelText("CSS selector")).toHaveValue("#hero");
    expect(within(dialog).getByLabelText("Page title")).toHaveValue("Old title");
    expect(within(dialog).getByLabelText("JSON-LD")).toHaveValue('{\n  "@type": "Offer"\n}');

    fireEvent.change(within(dialog).getByLabelText("HTML Content"), { target: { value: "<p>new</p>" } });
    fireEvent.change(within(dialog).getByLabelText("Page title"), { target: { value: "New title" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));

    expect(await screen.findByText("URL mapping updated")).toBeInTheDocument();
    expect(screen.getByText("Live now; served everywhere by 14:07:35.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    // SEO goes whole (the API replaces it), parsed as the contract reads it; the rest stays out.
    expect(changes(calls)).toEqual([
      [
        "PATCH",
        "/api/mappings/7",
        { htmlContent: "<p>new</p>", seo: { title: "New title", jsonLd: { "@type": "Offer" } } },
      ],
    ]);
  });

  it("makes a live mapping a draft, and says so", async () => {
    const { calls, dialog } = await openEdit((body) =>
      delivered({ ...current, publishedAt: null, ...(body as object) }),
    );
    fireEvent.click(within(dialog).getByLabelText("Save as draft (not delivered until published)"));
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("Saved as draft: not delivered until published.")).toBeInTheDocument();
    expect(changes(calls)).toEqual([["PATCH", "/api/mappings/7", { status: "draft" }]]);
  });

  it("shows a field's problem in the form and sends nothing", async () => {
    const { calls, dialog } = await openEdit();
    fireEvent.change(within(dialog).getByLabelText("URL"), { target: { value: "not a url" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    expect(await within(dialog).findByText("Please enter a valid URL")).toBeInTheDocument();
    expect(changes(calls)).toEqual([]);
  });

  it("sends nothing when nothing changed, and closes", async () => {
    const { calls, dialog } = await openEdit();
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(changes(calls)).toEqual([]);
  });

  it("toasts the server's reason when it refuses, and keeps the form", async () => {
    const { dialog } = await openEdit(() =>
      jsonResponse({ error: "Your plan allows 1 website. Upgrade to add more." }, 403),
    );
    fireEvent.change(within(dialog).getByLabelText("URL"), { target: { value: "https://other.example/a" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("Your plan allows 1 website. Upgrade to add more.")).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Edit URL mapping" })).toBeInTheDocument();
  });
});

describe("Remove on a URL with older mappings", () => {
  const newest = mapping({ id: 7, urlMappingCount: 3 });

  async function openRemove(change: (call: ApiCall) => Response | undefined) {
    const api = openMappingsTab([newest], change);
    fireEvent.click(await screen.findByRole("button", { name: "Remove" }));
    const dialog = await screen.findByRole("alertdialog", { name: "This URL has 2 older mappings" });
    return { ...api, dialog };
  }

  it("asks first, and removes them all on request", async () => {
    const { calls, dialog, state } = await openRemove((call) => {
      if (call.method !== "DELETE") return undefined;
      state.rows = [];
      return delivered({ message: "3 URL mappings deleted successfully", deleted: 3, remaining: 0 });
    });
    expect(changes(calls)).toEqual([]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove all 3" }));

    expect(await screen.findByText("3 URL mappings deleted successfully")).toBeInTheDocument();
    expect(screen.getByText("Removed from your pages by 14:07:35.")).toBeInTheDocument();
    expect(await screen.findByText("No mappings found.")).toBeInTheDocument();
    expect(changes(calls)).toEqual([["DELETE", "/api/mappings/7?scope=url", undefined]]);
  });

  it("removes only the newest on request, and says an older one may show instead", async () => {
    const { calls, dialog } = await openRemove((call) =>
      call.method === "DELETE" ? delivered({ message: "URL mapping deleted successfully" }) : undefined,
    );
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove only the newest" }));

    expect(await screen.findByText("URL mapping deleted successfully")).toBeInTheDocument();
    expect(
      screen.getByText(
        "Removed from your pages by 14:07:35. The URL's older mappings stay: a published one shows instead.",
      ),
    ).toBeInTheDocument();
    expect(changes(calls)).toEqual([["DELETE", "/api/mappings/7", undefined]]);
  });

  it("says what is left when the server removed only part of a very large URL", async () => {
    const { dialog } = await openRemove((call) =>
      call.method === "DELETE"
        ? delivered({
            message:
              "5,000 URL mappings deleted successfully; 11 URL mappings of this URL remain: remove again for the rest",
            deleted: 5000,
            remaining: 11,
          })
        : undefined,
    );
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove all 3" }));
    expect(
      await screen.findByText(
        "5,000 URL mappings deleted successfully; 11 URL mappings of this URL remain: remove again for the rest",
      ),
    ).toBeInTheDocument();
    expect(screen.getByText("Your pages do not change until the last of them is removed.")).toBeInTheDocument();
  });
});
