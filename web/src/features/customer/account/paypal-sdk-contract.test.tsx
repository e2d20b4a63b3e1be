import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CustomerDashboard, ProductVersion } from "#contract/responses";
import { jsonResponse, mockFetch } from "@/test/fetch-mock";
import { productVersion } from "@/test/fixtures";
import { renderPlanDialog } from "@/test/render-plan-dialog";

// The real @paypal/react-paypal-js this time: what it asks of the SDK script is what an e2e stand-in must provide.

const SDK_URL = "http://127.0.0.1:9999/paypal-sdk.js";

const PLANS: ProductVersion[] = [
  productVersion({
    id: 2,
    name: "Growth",
    eventsLimit: null,
    websitesLimit: null,
    dynamicContentLimit: null,
    price: 79,
    paypalPlanId: "P-GROWTH",
  }),
];

const DASHBOARD = { userId: "user-42" } as CustomerDashboard;

afterEach(() => {
  vi.unstubAllGlobals();
  document.head.querySelectorAll("script[data-react-paypal-script-id]").forEach((script) => script.remove());
  Reflect.deleteProperty(window, "paypal");
});

describe("PayPal SDK script contract", () => {
  it("loads `${sdkUrl}?client-id=…&vault=true&intent=subscription` and renders window.paypal.Buttons into the card", async () => {
    mockFetch(({ url }) => {
      if (url === "/api/paypal/config") return jsonResponse({ clientId: "client-abc", sdkUrl: SDK_URL });
      if (url === "/api/product-versions") return jsonResponse(PLANS);
      return jsonResponse({ error: `unexpected ${url}` }, 500);
    });
    renderPlanDialog(DASHBOARD);

    // The wrapper puts one script tag first in <head>; jsdom does not run it.
    const script = await waitFor(() => {
      const found = document.head.querySelector<HTMLScriptElement>("script[data-react-paypal-script-id]");
      if (!found) throw new Error("no SDK script yet");
      return found;
    });
    expect(script.getAttribute("src")).toBe(`${SDK_URL}?client-id=client-abc&vault=true&intent=subscription`);
    expect(document.head.querySelectorAll("script[data-react-paypal-script-id]")).toHaveLength(1);

    // What the stand-in script does: define window.paypal.Buttons, then the load event fires.
    const render_ = vi.fn((container: HTMLElement) => {
      container.append(Object.assign(document.createElement("button"), { textContent: "PayPal (stand-in)" }));
      return Promise.resolve();
    });
    const Buttons = vi.fn((_options: Record<string, unknown>) => ({
      isEligible: () => true,
      render: render_,
      close: () => Promise.resolve(),
    }));
    vi.stubGlobal("paypal", { Buttons });
    script.dispatchEvent(new Event("load"));

    const card = await screen.findByRole("group", { name: "Growth" });
    expect(await within(card).findByRole("button", { name: "PayPal (stand-in)" })).toBeInTheDocument();
    const options = Buttons.mock.calls[0]![0];
    expect(options.style).toEqual({ layout: "vertical" });
    expect(typeof options.createSubscription).toBe("function");
    expect(typeof options.onApprove).toBe("function");

    const create = vi.fn((_body: unknown) => Promise.resolve("I-NEW"));
    await expect(
      (options.createSubscription as (data: unknown, actions: unknown) => Promise<string>)(
        {},
        { subscription: { create } },
      ),
    ).resolves.toBe("I-NEW");
    expect(create).toHaveBeenCalledWith({ plan_id: "P-GROWTH", custom_id: "user-42" });
  });
});
