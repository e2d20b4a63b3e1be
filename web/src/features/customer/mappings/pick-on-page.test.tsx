import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PICK_MESSAGE_TYPE } from "#contract/pick-selector";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";

const FRAME_ORIGIN = "https://cdn.dc.test";

/** The add form with its placement section open and a URL typed; answers the API calls it made. */
async function openPlacement() {
  window.localStorage.setItem("apiKey", "key-1");
  const fetchMock = mockFetch(({ url, init }) => {
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
