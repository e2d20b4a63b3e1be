import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { SHOW_MESSAGE_TYPE } from "#contract/place-content";
import { PICK_MESSAGE_TYPE } from "#contract/pick-selector";
import type { PickCheck } from "#contract/responses";
import { createQueryClient } from "@/lib/query-client";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";
import { PickOnPage } from "./pick-on-page";

const FRAME_ORIGIN = "https://cdn.dc.test";

const FRAME_LINK = {
  frameUrl: `${FRAME_ORIGIN}/pick-frame?t=token`,
  frameOrigin: FRAME_ORIGIN,
  expiresAt: "2026-01-01T00:10:00.000Z",
};

/** The add form with its placement section open; answers the API calls it made (a check with `checked`). */
async function openPlacement(checked: PickCheck = { pages: [] }) {
  window.localStorage.setItem("apiKey", "key-1");
  const fetchMock = mockFetch(({ url, init }) => {
    if (url === "/api/pick-on-page/check" && init.method === "POST") return jsonResponse(checked);
    if (url === "/api/pick-on-page" && init.method === "POST") {
      return jsonResponse({
        frameUrl: `${FRAME_ORIGIN}/pick-frame?t=token`,
        frameOrigin: FRAME_ORIGIN,
        expiresAt: "2026-01-01T00:10:00.000Z",
      });
    }
    if (url === "/api/onboarding") return jsonResponse({ steps: [] });
    if (url === "/api/user/stats") return jsonResponse({ totalRequests: 0, requestLimit: null, lastMonthRequests: 0 });
    return jsonResponse([]);
  });
  renderApp("/dashboard");
  fireEvent.mouseDown(await screen.findByRole("tab", { name: "URL Mappings" }));
  await screen.findByText("Add URL Mapping");
  fireEvent.click(screen.getByText("Placement, SEO & publishing (optional)"));
  return fetchMock;
}

const post = (frame: HTMLIFrameElement | Window, data: unknown, origin = "null") =>
  act(() => {
    window.dispatchEvent(
      new MessageEvent("message", {
        data,
        origin,
        source: frame instanceof HTMLIFrameElement ? frame.contentWindow : frame,
      }),
    );
  });

describe("Pick on page", () => {
  it("opens the page in a sandboxed frame on the frame origin and fills the selector the picker posts", async () => {
    const fetchMock = await openPlacement();
    expect(screen.getByRole("button", { name: "Pick on page" })).toBeDisabled();
    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "https://shop.example/offers/*" } });
    fireEvent.click(screen.getByRole("button", { name: "Pick on page" }));

    const frame = (await screen.findByTitle("Pick on page")) as HTMLIFrameElement;
    expect(new URL(frame.src).origin).toBe(FRAME_ORIGIN);
    expect(new URL(frame.src).origin).not.toBe(window.location.origin);
    expect(frame.getAttribute("sandbox")).toBe("allow-scripts");
    const asked = fetchMock.mock.calls.find(([url]) => String(url) === "/api/pick-on-page");
    expect(JSON.parse(String(asked?.[1]?.body))).toEqual({ url: "https://shop.example/offers/" });

    // Not from the frame, or not the picker's message: nothing changes.
    post(window, { type: PICK_MESSAGE_TYPE, selector: "#evil" });
    post(frame, { type: "other", selector: "#evil" });
    post(frame, { type: PICK_MESSAGE_TYPE, selector: "#evil" }, "https://evil.example");
    expect(screen.getByLabelText("CSS selector")).toHaveValue("");

    post(frame, { type: PICK_MESSAGE_TYPE, selector: "#hero" });
    expect(screen.getByLabelText("CSS selector")).toHaveValue("#hero");
    expect(screen.getByLabelText("Position")).toHaveValue("inside");
  });
});

describe("Pick on page's live view and check", () => {
  it("shows the form's HTML at the picked place in the frame, again when the position changes", async () => {
    await openPlacement();
    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "https://shop.example/offer" } });
    fireEvent.change(screen.getByLabelText("HTML Content"), { target: { value: "<b>Sale</b>" } });
    fireEvent.click(screen.getByRole("button", { name: "Pick on page" }));
    const frame = (await screen.findByTitle("Pick on page")) as HTMLIFrameElement;
    const shown = vi.spyOn(frame.contentWindow!, "postMessage");
    expect(shown).not.toHaveBeenCalled();

    post(frame, { type: PICK_MESSAGE_TYPE, selector: "#hero" });
    expect(shown).toHaveBeenLastCalledWith(
      { type: SHOW_MESSAGE_TYPE, html: "<b>Sale</b>", position: "inside", selector: "#hero" },
      "*",
    );
    fireEvent.change(screen.getByLabelText("Position"), { target: { value: "replace" } });
    expect(shown).toHaveBeenLastCalledWith(
      { type: SHOW_MESSAGE_TYPE, html: "<b>Sale</b>", position: "replace", selector: "#hero" },
      "*",
    );
    // An exact URL: no other pages to check.
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });

  it("checks a prefix rule's picked selector on other pages and says on how many it was found", async () => {
    const fetchMock = await openPlacement({
      pages: [
        { url: "https://shop.example/offers/a", found: true },
        { url: "https://shop.example/offers/b", found: false },
        { url: "https://shop.example/offers/c", found: null },
      ],
    });
    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "https://shop.example/offers/*" } });
    fireEvent.click(screen.getByRole("button", { name: "Pick on page" }));
    post((await screen.findByTitle("Pick on page")) as HTMLIFrameElement, {
      type: PICK_MESSAGE_TYPE,
      selector: "#hero",
    });

    const status = await screen.findByRole("status");
    expect(status).toHaveTextContent("Found on 1 of 2 other pages.");
    expect(status).toHaveTextContent("Not found on: https://shop.example/offers/b");
    expect(status).toHaveTextContent("1 could not be checked");
    const asked = fetchMock.mock.calls.find(([url]) => String(url) === "/api/pick-on-page/check");
    expect(JSON.parse(String(asked?.[1]?.body))).toEqual({ url: "https://shop.example/offers/*", selector: "#hero" });
  });

  it("speaks German", async () => {
    mockFetch(({ url }) =>
      url === "/api/pick-on-page/check"
        ? jsonResponse({ pages: [{ url: "https://shop.example/offers/a", found: true }] })
        : jsonResponse(FRAME_LINK),
    );
    const client = createQueryClient();
    const picker = (url: string) => (
      <QueryClientProvider client={client}>
        <PickOnPage url={url} html="" position="body-start" selector="" onPick={() => undefined} lang="de" />
      </QueryClientProvider>
    );
    const { rerender } = render(picker(""));
    expect(screen.getByRole("button", { name: "Auf der Seite wählen" })).toBeDisabled();
    expect(screen.getByText("Bitte zuerst die URL der Seite eingeben.")).toBeInTheDocument();

    rerender(picker("https://shop.example/offers/*"));
    fireEvent.click(screen.getByRole("button", { name: "Auf der Seite wählen" }));
    const frame = (await screen.findByTitle("Auf der Seite wählen")) as HTMLIFrameElement;
    expect(screen.getByRole("button", { name: "Seite schließen" })).toBeInTheDocument();
    expect(screen.getByText(/^Klicken Sie auf das Element/)).toBeInTheDocument();
    post(frame, { type: PICK_MESSAGE_TYPE, selector: "#hero" });
    expect(await screen.findByRole("status")).toHaveTextContent("Auf 1 von 1 anderen Seite gefunden.");
  });
});
