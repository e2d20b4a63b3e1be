import { describe, expect, it } from "vitest";
import { renderPayload } from "./webhook-payload";

describe("a webhook delivery's body", () => {
  it("is rendered from the facts its trigger kept, in the documented shape and key order", () => {
    const body = renderPayload({
      eventId: "0f".repeat(16),
      event: "mapping.unpublished",
      createdAt: new Date(Date.UTC(2026, 10, 25, 14, 7, 35, 42)),
      facts: {
        id: 7,
        url: "https://shop.test/sale",
        publishedAt: null,
        publishAt: null,
        unpublishAt: Date.UTC(2026, 11, 24, 18, 30, 0, 5),
        changedBy: "schedule",
      },
      payload: null,
    });
    expect(body).toBe(
      JSON.stringify({
        id: "0f".repeat(16),
        type: "mapping.unpublished",
        createdAt: "2026-11-25T14:07:35.042Z",
        data: {
          mapping: {
            id: 7,
            url: "https://shop.test/sale",
            status: "draft",
            publishAt: null,
            unpublishAt: "2026-12-24T18:30:00.005Z",
            changedBy: "schedule",
          },
        },
      }),
    );
  });

  it("is the stored payload, byte for byte, for a ping and for events written before facts were kept", () => {
    const stored = '{"id":"e1","type":"mapping.changed","createdAt":"2026-11-20T10:00:00.000Z","data":{}}';
    expect(
      renderPayload({ eventId: "e1", event: "mapping.changed", createdAt: new Date(), facts: null, payload: stored }),
    ).toBe(stored);
  });
});
