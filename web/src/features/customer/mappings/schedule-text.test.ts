import { describe, expect, it } from "vitest";
import { scheduleText } from "./schedule-text";

const now = new Date("2026-11-25T10:00:00Z");

describe("scheduleText", () => {
  it("says when a draft goes live, else when a live mapping ends, else nothing", () => {
    expect(scheduleText({ publishAt: "2026-11-25T13:00:00Z", unpublishAt: "2026-11-27T10:00:00Z" }, now)).toBe(
      "Goes live in 3 hours",
    );
    expect(scheduleText({ publishAt: null, unpublishAt: "2026-11-27T10:00:00Z" }, now)).toBe("Ends in 2 days");
    expect(scheduleText({ publishAt: "2026-11-25T09:59:30Z", unpublishAt: null }, now)).toBe("Goes live any moment");
    expect(scheduleText({ publishAt: null, unpublishAt: null }, now)).toBeNull();
  });
});
