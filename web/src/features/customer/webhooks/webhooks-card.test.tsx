import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CreatedWebhook, Webhook, WebhookDelivery } from "#contract/webhooks";
import { jsonResponse, mockApi, type ApiCall } from "@/test/fetch-mock";
import { customerDashboard } from "@/test/fixtures";
import { renderApp } from "@/test/render-app";
import { storeSession } from "@/test/session";

afterEach(() => vi.unstubAllGlobals());

const HOOK: Webhook = {
  id: "wh_AAAAAAAAAAAAAAAAAAAAAA",
  url: "https://hooks.shop.test/dc",
  createdAt: "2026-05-04T09:00:00.000Z",
  lastDelivery: null,
};

const DELIVERY: WebhookDelivery = {
  id: 7,
  eventId: "e1",
  event: "mapping.changed",
  status: "pending",
  attempts: 2,
  responseStatus: 500,
  error: "HTTP 500",
  createdAt: "2026-05-04T09:30:00.000Z",
  lastAttemptAt: "2026-05-04T09:31:00.000Z",
  nextAttemptAt: "2026-05-04T09:36:00.000Z",
  payload: {
    id: "e1",
    type: "mapping.changed",
    createdAt: "2026-05-04T09:30:00.000Z",
    data: {
      mapping: {
        id: 1,
        url: "https://shop.test/sale",
        status: "published",
        publishAt: null,
        unpublishAt: null,
        changedBy: "customer",
      },
    },
  },
};

/** The dashboard and a webhooks API holding `hooks`, which POST and DELETE change. */
function fakeApi(hooks: Webhook[], onCreate: (call: ApiCall) => Response) {
  return mockApi(
    ({ url }) => (url === "/api/user/dashboard" ? jsonResponse(customerDashboard()) : undefined),
    (call) => {
      if (call.method === "GET" && call.url === "/api/webhooks") return jsonResponse(hooks);
      if (call.method === "POST" && call.url === "/api/webhooks") return onCreate(call);
      if (call.method === "DELETE" && call.url === `/api/webhooks/${HOOK.id}`) {
        hooks.splice(0, hooks.length);
        return jsonResponse({ message: "Webhook deleted successfully" });
      }
      if (call.url === `/api/webhooks/${HOOK.id}/deliveries`) return jsonResponse([DELIVERY]);
      return undefined;
    },
  );
}

async function openWebhooksTab() {
  storeSession("key-ann-123");
  renderApp("/user-dashboard");
  // Radix tabs switch on mouse down, not on click.
  fireEvent.mouseDown(await screen.findByRole("tab", { name: "Webhooks" }));
}

describe("the Webhooks tab", () => {
  it("adds a webhook and shows its secret once, with a copy button", async () => {
    const hooks: Webhook[] = [];
    const calls = fakeApi(hooks, ({ body }) => {
      const created: CreatedWebhook = { ...HOOK, url: (body as { url: string }).url, secret: "whsec_top-secret" };
      hooks.push({ ...HOOK, url: created.url });
      return jsonResponse(created, 201);
    });
    await openWebhooksTab();
    expect(await screen.findByText("No webhooks yet.")).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText("Webhook URL"), { target: { value: "https://hooks.shop.test/dc" } });
    fireEvent.click(screen.getByRole("button", { name: "Add webhook" }));

    const secret = await screen.findByRole("region", { name: "Signing secret" });
    expect(within(secret).getByText("whsec_top-secret")).toBeInTheDocument();
    expect(within(secret).getByRole("button", { name: "Copy signing secret" })).toBeInTheDocument();
    expect(within(secret).getByText(/shown only this once/)).toBeInTheDocument();
    expect(calls).toContainEqual({ method: "POST", url: "/api/webhooks", body: { url: "https://hooks.shop.test/dc" } });
    // The list is asked again and shows the new webhook, without its secret.
    const item = await screen.findByRole("listitem", { name: HOOK.url });
    expect(item).not.toHaveTextContent("whsec_");

    fireEvent.click(within(secret).getByRole("button", { name: "Done" }));
    expect(screen.queryByText("whsec_top-secret")).toBeNull();
  });

  it("shows the server's refusal under the URL", async () => {
    fakeApi([], () => jsonResponse({ error: "Webhook URL must start with https://" }, 400));
    await openWebhooksTab();
    fireEvent.change(await screen.findByLabelText("Webhook URL"), { target: { value: "http://hooks.shop.test" } });
    fireEvent.click(screen.getByRole("button", { name: "Add webhook" }));
    expect(await screen.findByText("Webhook URL must start with https://")).toBeInTheDocument();
    expect(screen.getByLabelText("Webhook URL")).toHaveAttribute("aria-invalid", "true");
  });

  it("shows a webhook's delivery log, and deletes the webhook after asking", async () => {
    const calls = fakeApi([{ ...HOOK }], () => jsonResponse({}, 500));
    await openWebhooksTab();
    const item = await screen.findByRole("listitem", { name: HOOK.url });

    fireEvent.click(within(item).getByRole("button", { name: "Delivery log" }));
    const log = await within(item).findByRole("region", { name: "Delivery log" });
    const row = (await within(log).findByText("mapping.changed")).closest("tr")!;
    expect(row).toHaveTextContent("https://shop.test/sale");
    expect(row).toHaveTextContent("Pending");
    expect(row).toHaveTextContent("Next try");
    expect(row).toHaveTextContent("2");
    expect(row).toHaveTextContent("500");
    expect(row).toHaveTextContent("HTTP 500");

    fireEvent.click(within(item).getByRole("button", { name: "Delete" }));
    const dialog = await screen.findByRole("alertdialog");
    expect(dialog).toHaveTextContent(`Events stop going to ${HOOK.url}`);
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete webhook" }));
    expect(await screen.findByText("No webhooks yet.")).toBeInTheDocument();
    expect(calls).toContainEqual({ method: "DELETE", url: `/api/webhooks/${HOOK.id}`, body: undefined });
  });
});
