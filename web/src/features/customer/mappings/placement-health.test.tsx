/** Selector health in the mappings list (docs/placement.md): a row whose selector missed is marked, others are not. */
import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mapping } from "@/test/fixtures";
import { openMappingsTab } from "@/test/mappings-tab";
import { PLACEMENT_HEALTH_TEXT } from "./placement-health-text";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the mappings list's selector health", () => {
  it("marks a row whose selector missed with how often, and adds nothing to a row without misses", async () => {
    const missing = mapping({ id: 7, url: "https://example.com/missing", placementMisses: 3 });
    const fine = mapping({ id: 8, url: "https://example.com/fine" });
    openMappingsTab([missing, fine]);
    const rows = await screen.findAllByRole("row");
    const missingRow = rows.find((row) => row.textContent?.includes(missing.url))!;
    expect(
      within(missingRow).getByRole("img", {
        name: "The selector found no element on 3 page views in the last 7 days: the content was not shown there.",
      }),
    ).toBeInTheDocument();
    const fineRow = rows.find((row) => row.textContent?.includes(fine.url))!;
    expect(within(fineRow).queryByRole("img", { name: /selector/ })).toBeNull();
  });

  it("has the warning in German", () => {
    expect(PLACEMENT_HEALTH_TEXT.de.misses(1)).toBe(
      "Der Selektor fand in den letzten 7 Tagen bei 1 Seitenaufruf kein Element: Der Inhalt wurde dort nicht angezeigt.",
    );
  });
});
