/**
 * Audiences on the dashboard (issue 41, docs/audiences.md): the audience editor in the add form and the edit dialog
 * (checked with the contract's schema, sending `audience` and `priority`, or `audience: null` to clear), the
 * audience and priority in the mappings list, the URL tester asked for a chosen visitor, and an audience mapping's
 * preview.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AUDIENCE_NEEDS_A_CONDITION, HOLDOUT_GOALS_NEEDED, HOLDOUT_WITH_EXPERIMENT } from "#contract/audiences";
import type { ExperimentResults } from "#contract/experiments";
import type { Mapping } from "#contract/responses";
import { jsonResponse, type ApiCall } from "@/test/fetch-mock";
import { mapping } from "@/test/fixtures";
import { changes, openMappingsTab } from "@/test/mappings-tab";

afterEach(() => {
  vi.unstubAllGlobals();
});

const dach = mapping({
  id: 7,
  htmlContent: "<p>hallo</p>",
  audience: { name: "DACH mobile", country: ["DE", "AT"], device: ["mobile"] },
  priority: 10,
});

/** Opens the form's folded "Audience (optional)" section. */
function openAudience(form: HTMLElement) {
  fireEvent.click(within(form).getByText("Audience (optional)"));
  return form;
}

function typeTags(form: HTMLElement, label: string, ...values: string[]) {
  const input = within(form).getByLabelText(label);
  for (const value of values) {
    fireEvent.change(input, { target: { value } });
    fireEvent.keyDown(input, { key: "Enter" });
  }
}

async function addForm(change: (call: ApiCall) => Response | undefined) {
  const { calls } = openMappingsTab([], change);
  fireEvent.change(await screen.findByLabelText("URL"), { target: { value: "https://example.com/p" } });
  fireEvent.change(screen.getByLabelText("HTML Content"), { target: { value: "<i>p</i>" } });
  const form = screen.getByRole("button", { name: "Add Mapping" }).closest("form")!;
  return { calls, form };
}

describe("the mappings list", () => {
  it("names a row's audience and priority under its URL, and adds nothing to a row for everyone", async () => {
    const plain = mapping({ id: 8, url: "https://example.com/everyone" });
    openMappingsTab([dach, plain]);
    const rows = await screen.findAllByRole("row");
    const dachRow = rows.find((row) => row.textContent?.includes(dach.url) && row !== rows[0])!;
    expect(within(dachRow).getByText("Audience: DACH mobile")).toBeInTheDocument();
    expect(within(dachRow).getByText("Priority 10")).toBeInTheDocument();
    const plainRow = rows.find((row) => row.textContent?.includes("https://example.com/everyone"))!;
    expect(plainRow.textContent).not.toMatch(/Audience|Priority|Everyone/);
    // The columns are SPEC.md's, as before.
    expect(
      within(rows[0]!)
        .getAllByRole("columnheader")
        .map((h) => h.textContent),
    ).toEqual(["URL", "HTML Content", "Status", "Created", "Published", "Actions"]);
  });
});

describe("the audience editor in the add form", () => {
  it("is folded away, and adds a mapping with the audience's chips and priority", async () => {
    const { calls, form } = await addForm((call) =>
      call.method === "POST" ? jsonResponse(mapping({ id: 8, ...(call.body as object) }), 201) : undefined,
    );
    expect(within(form).getByText("Audience (optional)").closest("details")).not.toHaveAttribute("open");
    openAudience(form);
    fireEvent.change(within(form).getByLabelText("Audience name"), { target: { value: "DACH campaign" } });
    const countries = within(form).getByRole("combobox", { name: "Countries" });
    fireEvent.change(countries, { target: { value: "germ" } });
    fireEvent.click(within(form).getByRole("option", { name: "Germany (DE)" }));
    fireEvent.change(countries, { target: { value: "at" } });
    fireEvent.keyDown(countries, { key: "Enter" });
    fireEvent.click(within(form).getByRole("button", { name: "Mobile" }));
    fireEvent.click(within(form).getByRole("button", { name: "AI assistant" }));
    fireEvent.click(within(form).getByRole("button", { name: "Returning" }));
    fireEvent.change(within(form).getByLabelText("Priority"), { target: { value: "10" } });
    fireEvent.click(within(form).getByRole("button", { name: "Add Mapping" }));

    expect(await screen.findByText("URL mapping added successfully")).toBeInTheDocument();
    expect(changes(calls)).toEqual([
      [
        "POST",
        "/api/mappings",
        {
          url: "https://example.com/p",
          htmlContent: "<i>p</i>",
          audience: {
            name: "DACH campaign",
            country: ["DE", "AT"],
            device: ["mobile"],
            referrer: ["ai"],
            visitor: "returning",
          },
          priority: 10,
        },
      ],
    ]);
    // The form starts afresh, without an audience.
    await waitFor(() => expect(within(form).getByLabelText("Audience name")).toHaveValue(""));
  });

  it("sends the continent, EU, language, UTM and query tags, without a removed one, at the default priority", async () => {
    const { calls, form } = await addForm((call) =>
      call.method === "POST" ? jsonResponse(mapping({ id: 8, ...(call.body as object) }), 201) : undefined,
    );
    openAudience(form);
    fireEvent.change(within(form).getByLabelText("Audience name"), { target: { value: "Spring" } });
    fireEvent.click(within(form).getByRole("button", { name: "Europe" }));
    fireEvent.change(within(form).getByLabelText("European Union"), { target: { value: "in" } });
    typeTags(form, "Languages", "de", "fr");
    typeTags(form, "UTM source", "newsletter");
    typeTags(form, "UTM campaign", "spring");
    typeTags(form, "Query parameters", "plan=pro", "plan=team", "ref");
    fireEvent.click(within(form).getByRole("button", { name: "Remove fr" }));
    fireEvent.click(within(form).getByRole("button", { name: "Add Mapping" }));

    expect(await screen.findByText("URL mapping added successfully")).toBeInTheDocument();
    expect(changes(calls)).toEqual([
      [
        "POST",
        "/api/mappings",
        {
          url: "https://example.com/p",
          htmlContent: "<i>p</i>",
          audience: {
            name: "Spring",
            continent: ["EU"],
            eu: true,
            utm: { source: ["newsletter"], campaign: ["spring"] },
            language: ["de"],
            query: { plan: ["pro", "team"], ref: [] },
          },
          priority: 100,
        },
      ],
    ]);
  });

  it("shows the contract's messages under their fields, opens the section and sends nothing", async () => {
    const { calls, form } = await addForm(() => undefined);
    openAudience(form);
    fireEvent.change(within(form).getByLabelText("Audience name"), { target: { value: "Nobody" } });
    fireEvent.change(within(form).getByLabelText("Priority"), { target: { value: "5000" } });
    fireEvent.click(within(form).getByRole("button", { name: "Add Mapping" }));
    expect(await within(form).findByText(AUDIENCE_NEEDS_A_CONDITION)).toBeInTheDocument();
    expect(within(form).getByText("priority must be at most 1,000")).toBeInTheDocument();

    typeTags(form, "Languages", "not a tag!");
    fireEvent.click(within(form).getByRole("button", { name: "Add Mapping" }));
    expect(
      await within(form).findByText("audience.language must hold language tags such as de or pt-BR"),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText("Languages")).toHaveAttribute("aria-invalid", "true");
    expect(within(form).getByText("Audience (optional)").closest("details")).toHaveAttribute("open");
    expect(changes(calls)).toEqual([]);
  });
});

async function openEdit(row: Mapping) {
  const { calls } = openMappingsTab([row], (call) =>
    call.method === "PATCH" ? jsonResponse({ ...row, ...(call.body as object) }) : undefined,
  );
  fireEvent.click(await screen.findByRole("button", { name: "Edit" }));
  const dialog = await screen.findByRole("dialog", { name: "Edit URL mapping" });
  return { calls, dialog };
}

describe("the audience editor in the edit dialog", () => {
  it("shows the mapping's audience and sends only a changed priority", async () => {
    const { calls, dialog } = await openEdit(dach);
    openAudience(dialog);
    expect(within(dialog).getByLabelText("Audience name")).toHaveValue("DACH mobile");
    expect(within(dialog).getByRole("button", { name: "Remove Germany" })).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Mobile" })).toHaveAttribute("aria-pressed", "true");
    expect(within(dialog).getByRole("button", { name: "Desktop" })).toHaveAttribute("aria-pressed", "false");
    fireEvent.change(within(dialog).getByLabelText("Priority"), { target: { value: "5" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(changes(calls)).toEqual([["PATCH", "/api/mappings/7", { priority: 5 }]]));
  });

  it("sends the whole audience when a condition changes", async () => {
    const { calls, dialog } = await openEdit(dach);
    openAudience(dialog);
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove Austria" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() =>
      expect(changes(calls)).toEqual([
        ["PATCH", "/api/mappings/7", { audience: { name: "DACH mobile", country: ["DE"], device: ["mobile"] } }],
      ]),
    );
  });

  it("sends audience: null when every field is emptied, making the mapping its URL's fallback again", async () => {
    const { calls, dialog } = await openEdit(dach);
    openAudience(dialog);
    fireEvent.change(within(dialog).getByLabelText("Audience name"), { target: { value: "" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove Germany" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove Austria" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Mobile" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(changes(calls)).toEqual([["PATCH", "/api/mappings/7", { audience: null }]]));
  });

  it("gives a mapping without an audience its first one, with its priority", async () => {
    const { calls, dialog } = await openEdit(mapping({ id: 7 }));
    openAudience(dialog);
    expect(within(dialog).getByLabelText("Priority")).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText("Audience name"), { target: { value: "Phones" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Mobile" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() =>
      expect(changes(calls)).toEqual([
        ["PATCH", "/api/mappings/7", { audience: { name: "Phones", device: ["mobile"] }, priority: 100 }],
      ]),
    );
  });
});

const heldOut = mapping({ ...dach, holdout: 10, goals: ["signup"] });

describe("the holdout in the audience editor", () => {
  it("shows only with an audience, asks for goals with the API's message, then adds the holdout and its goals", async () => {
    const { calls, form } = await addForm((call) =>
      call.method === "POST" ? jsonResponse(mapping({ id: 8, ...(call.body as object) }), 201) : undefined,
    );
    openAudience(form);
    expect(within(form).queryByLabelText("Holdout (%)")).toBeNull();
    fireEvent.change(within(form).getByLabelText("Audience name"), { target: { value: "Phones" } });
    fireEvent.click(within(form).getByRole("button", { name: "Mobile" }));
    fireEvent.change(within(form).getByLabelText("Holdout (%)"), { target: { value: "60" } });
    fireEvent.click(within(form).getByRole("button", { name: "Add Mapping" }));
    expect(await within(form).findByText("holdout must be at most 50 (percent)")).toBeInTheDocument();
    expect(within(form).getByText(HOLDOUT_GOALS_NEEDED)).toBeInTheDocument();
    expect(changes(calls)).toEqual([]);

    fireEvent.change(within(form).getByLabelText("Holdout (%)"), { target: { value: "10" } });
    typeTags(form, "Goals the holdout measures", "signup");
    fireEvent.click(within(form).getByRole("button", { name: "Add Mapping" }));
    expect(await screen.findByText("URL mapping added successfully")).toBeInTheDocument();
    expect(changes(calls)).toEqual([
      [
        "POST",
        "/api/mappings",
        {
          url: "https://example.com/p",
          htmlContent: "<i>p</i>",
          audience: { name: "Phones", device: ["mobile"] },
          priority: 100,
          holdout: 10,
          goals: ["signup"],
        },
      ],
    ]);
  });

  it("adds no holdout when the field is left empty or 0", async () => {
    const { calls, form } = await addForm((call) =>
      call.method === "POST" ? jsonResponse(mapping({ id: 8, ...(call.body as object) }), 201) : undefined,
    );
    openAudience(form);
    fireEvent.change(within(form).getByLabelText("Audience name"), { target: { value: "Phones" } });
    fireEvent.click(within(form).getByRole("button", { name: "Mobile" }));
    fireEvent.change(within(form).getByLabelText("Holdout (%)"), { target: { value: "0" } });
    fireEvent.click(within(form).getByRole("button", { name: "Add Mapping" }));
    expect(await screen.findByText("URL mapping added successfully")).toBeInTheDocument();
    expect(changes(calls)[0]?.[2]).not.toHaveProperty("holdout");
    expect(changes(calls)[0]?.[2]).not.toHaveProperty("goals");
  });

  it("shows a mapping's holdout and goals on edit and sends only a changed share", async () => {
    const { calls, dialog } = await openEdit(heldOut);
    openAudience(dialog);
    expect(within(dialog).getByLabelText("Holdout (%)")).toHaveValue(10);
    expect(within(dialog).getByRole("button", { name: "Remove signup" })).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText("Holdout (%)"), { target: { value: "20" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(changes(calls)).toEqual([["PATCH", "/api/mappings/7", { holdout: 20 }]]));
  });

  it("sends changed goals alone", async () => {
    const goals = await openEdit(heldOut);
    openAudience(goals.dialog);
    typeTags(goals.dialog, "Goals the holdout measures", "purchase");
    fireEvent.click(within(goals.dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() =>
      expect(changes(goals.calls)).toEqual([["PATCH", "/api/mappings/7", { goals: ["signup", "purchase"] }]]),
    );
  });

  it("refuses a holdout beside a running experiment with the API's message, and sends nothing", async () => {
    const withExperiment = mapping({
      ...dach,
      variants: [
        { key: "A", htmlContent: "<p>hallo</p>", weight: 50 },
        { key: "B", htmlContent: "<p>hi</p>", weight: 50 },
      ],
      goals: ["signup"],
    });
    const { calls, dialog } = await openEdit(withExperiment);
    openAudience(dialog);
    expect(within(dialog).getByLabelText("Holdout (%)")).toHaveValue(null);
    expect(within(dialog).queryByRole("button", { name: "Remove signup" })).toBeNull();
    fireEvent.change(within(dialog).getByLabelText("Holdout (%)"), { target: { value: "10" } });
    typeTags(dialog, "Goals the holdout measures", "signup");
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    expect(await within(dialog).findByText(HOLDOUT_WITH_EXPERIMENT)).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Holdout (%)")).toHaveAttribute("aria-invalid", "true");
    expect(changes(calls)).toEqual([]);
  });

  it("ends the holdout with holdout: 0 when the field is emptied", async () => {
    const { calls, dialog } = await openEdit(heldOut);
    openAudience(dialog);
    fireEvent.change(within(dialog).getByLabelText("Holdout (%)"), { target: { value: "" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(changes(calls)).toEqual([["PATCH", "/api/mappings/7", { holdout: 0 }]]));
  });
});

describe("the audience results", () => {
  const arm = (key: string, visitors: number, conversions: number, uplift: number | null) => ({
    key,
    goal: "signup",
    visitors,
    conversions,
    rate: conversions / visitors,
    uplift,
    upliftCi95: uplift === null ? null : ([0.05, 0.45] as [number, number]),
    probabilityToBeatControl: uplift === null ? null : 0.99,
    topAddressVisitorShare: 0,
    topAddressConversionShare: 0,
  });
  const armsResults: ExperimentResults = {
    variants: [arm("holdout", 100, 5, null), arm("audience", 900, 63, 0.4)],
    srm: { pValue: 0.8, ok: true },
    weights: [
      { key: "holdout", weight: 10 },
      { key: "audience", weight: 90 },
    ],
    goals: ["signup"],
    startedAt: "2026-11-20T10:00:00.000Z",
    concentrated: false,
    sampleFull: false,
    visitorCap: 50_000,
  };

  it("is offered only on a mapping with a holdout, and shows its two arms in the experiment's results, nothing to make permanent", async () => {
    const { calls } = openMappingsTab(
      [heldOut, mapping({ ...dach, id: 9, url: "https://example.com/no-holdout" })],
      (call) =>
        call.method === "GET" && call.url === "/api/mappings/7/audience-results"
          ? jsonResponse(armsResults)
          : undefined,
    );
    const buttons = await screen.findAllByRole("button", { name: "Audience results" });
    expect(buttons).toHaveLength(1);
    expect(screen.queryByRole("button", { name: "Experiment results" })).toBeNull();
    fireEvent.click(buttons[0]!);
    const dialog = await screen.findByRole("dialog", { name: "Audience results" });
    const table = await within(dialog).findByRole("table", { name: "Goal: signup" });
    const rows = within(table).getAllByRole("row");
    expect(rows[1]).toHaveTextContent(/^holdout \(control\)100/);
    expect(rows[2]).toHaveTextContent(/^audience900/);
    expect(within(dialog).getByText(/10 % of the audience is held out/)).toBeInTheDocument();
    expect(
      within(dialog).getByText("audience converts 40 % better than holdout; 99 % likely to be better."),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole("button", { name: /permanent/ })).toBeNull();
    expect(calls.filter((c) => c.url.includes("/audience-results")).map((c) => c.url)).toEqual([
      "/api/mappings/7/audience-results",
    ]);
  });
});

describe("the URL tester", () => {
  it("asks for a visitor with the attributes chosen, and names the audience whose mapping answers", async () => {
    const asked: URLSearchParams[] = [];
    openMappingsTab([], (call) => {
      if (!call.url.startsWith("/api/mappings/match")) return undefined;
      asked.push(new URL(call.url, "http://spa.test").searchParams);
      return jsonResponse({
        mapping: dach,
        reason: 'Exact match: example.com/a is this mapping\'s URL; …"DACH mobile"',
      });
    });
    const tester = (await screen.findByRole("button", { name: "Test URL" })).closest("form")!;
    fireEvent.change(within(tester).getByLabelText("Page URL"), {
      target: { value: "https://example.com/a?plan=pro" },
    });
    fireEvent.click(within(tester).getByText("Visitor attributes (optional)"));
    fireEvent.change(within(tester).getByLabelText("Language"), { target: { value: "de AT" } });
    fireEvent.click(within(tester).getByRole("button", { name: "Test URL" }));
    expect(await within(tester).findByText("language must hold language tags such as de or pt-BR")).toBeInTheDocument();
    expect(asked).toEqual([]);

    fireEvent.change(within(tester).getByLabelText("Language"), { target: { value: "de-AT" } });
    fireEvent.change(within(tester).getByLabelText("Country"), { target: { value: "DE" } });
    fireEvent.change(within(tester).getByLabelText("Device"), { target: { value: "mobile" } });
    fireEvent.change(within(tester).getByLabelText("Arriving from"), { target: { value: "search" } });
    fireEvent.change(within(tester).getByLabelText("Visitor"), { target: { value: "returning" } });
    fireEvent.click(within(tester).getByRole("button", { name: "Test URL" }));
    const result = await within(tester).findByRole("status");
    expect(within(result).getByText("For the audience DACH mobile")).toBeInTheDocument();
    expect(Object.fromEntries(asked[0]!)).toEqual({
      url: "https://example.com/a?plan=pro",
      country: "DE",
      device: "mobile",
      referrer: "search",
      visitor: "returning",
      language: "de-at",
    });
  });

  it("asks with the URL alone when no attribute is chosen, and shows no audience for everyone's mapping", async () => {
    const asked: string[] = [];
    openMappingsTab([], (call) => {
      if (!call.url.startsWith("/api/mappings/match")) return undefined;
      asked.push(call.url);
      return jsonResponse({ mapping: mapping({ id: 8 }), reason: "Exact match" });
    });
    const tester = (await screen.findByRole("button", { name: "Test URL" })).closest("form")!;
    fireEvent.change(within(tester).getByLabelText("Page URL"), { target: { value: "https://example.com/a" } });
    fireEvent.click(within(tester).getByRole("button", { name: "Test URL" }));
    const result = await within(tester).findByRole("status");
    expect(asked).toEqual([`/api/mappings/match?url=${encodeURIComponent("https://example.com/a")}`]);
    expect(result.textContent).not.toMatch(/audience/i);
  });
});

describe("the preview of a mapping for an audience", () => {
  it("says the link shows the mapping whatever the previewer's attributes, and makes its plain link", async () => {
    const { calls } = openMappingsTab([dach], (call) =>
      call.method === "POST" && call.url === "/api/mappings/7/preview"
        ? jsonResponse({ url: "https://example.com/a?dc_preview=t", expiresAt: "2026-11-26T10:00:00.000Z" }, 201)
        : undefined,
    );
    fireEvent.click(await screen.findByRole("button", { name: "Preview" }));
    const dialog = await screen.findByRole("dialog", { name: "Preview" });
    expect(await within(dialog).findByLabelText("Preview link")).toHaveValue("https://example.com/a?dc_preview=t");
    expect(
      within(dialog).getByText(
        "This mapping is for the audience DACH mobile: the link shows its content to whoever opens it, whatever their country, device or referrer.",
      ),
    ).toBeInTheDocument();
    expect(changes(calls)).toEqual([["POST", "/api/mappings/7/preview", undefined]]);
  });
});
