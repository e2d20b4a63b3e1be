/**
 * Experiments on the dashboard (issue 28, docs/experiments.md): the variants' editor in the edit dialog and the add
 * form (checked with the contract's schemas, sending the variants and goals, or `variants: null` to stop), the
 * results dialog (the sentences, the SRM warning, Make B permanent) and the preview of a chosen variant.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ExperimentResults, VariantGoalResult } from "#contract/experiments";
import type { Mapping } from "#contract/responses";
import { jsonResponse, type ApiCall } from "@/test/fetch-mock";
import { mapping } from "@/test/fixtures";
import { changes, openMappingsTab } from "@/test/mappings-tab";

afterEach(() => {
  vi.unstubAllGlobals();
});

const plain = mapping({ id: 7, htmlContent: "<p>old</p>" });
const running = mapping({
  id: 7,
  htmlContent: "<p>old</p>",
  variants: [
    { key: "A", htmlContent: "<p>old</p>", weight: 50 },
    { key: "B", htmlContent: "<p>new</p>", weight: 50 },
  ],
  goals: ["signup"],
});

async function openEdit(row: Mapping) {
  const { calls } = openMappingsTab([row], (call) =>
    call.method === "PATCH" ? jsonResponse({ ...row, ...(call.body as object) }) : undefined,
  );
  fireEvent.click(await screen.findByRole("button", { name: "Edit" }));
  const dialog = await screen.findByRole("dialog", { name: "Edit URL mapping" });
  return { calls, dialog };
}

/** Checks "Run an experiment" and waits for the variants' editor. */
async function startExperiment(form: HTMLElement) {
  fireEvent.click(within(form).getByRole("checkbox", { name: "Run an experiment" }));
  return within(form).findByRole("textbox", { name: "HTML content of variant 2" });
}

describe("the experiment editor in the edit dialog", () => {
  it("starts with A and B at 50/50, B a copy of the mapping's HTML to change, and sends the variants and goals", async () => {
    const { calls, dialog } = await openEdit(plain);
    const html = await startExperiment(dialog);
    expect(within(dialog).getByRole("textbox", { name: "Key of variant 1" })).toHaveValue("A");
    expect(within(dialog).getByRole("spinbutton", { name: "Weight of variant 1" })).toHaveValue(50);
    expect(within(dialog).getByRole("textbox", { name: "Key of variant 2" })).toHaveValue("B");
    expect(within(dialog).getByRole("spinbutton", { name: "Weight of variant 2" })).toHaveValue(50);
    expect(html).toHaveValue("<p>old</p>");
    // The control has no HTML of its own.
    expect(within(dialog).queryByRole("textbox", { name: "HTML content of variant 1" })).not.toBeInTheDocument();

    fireEvent.change(html, { target: { value: "<p>B</p>" } });
    fireEvent.change(within(dialog).getByLabelText("Goals"), { target: { value: "signup, checkout , signup" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));

    expect(await screen.findByText("URL mapping updated")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(changes(calls)).toEqual([
      [
        "PATCH",
        "/api/mappings/7",
        {
          variants: [
            { key: "A", weight: 50 },
            { key: "B", weight: 50, htmlContent: "<p>B</p>" },
          ],
          goals: ["signup", "checkout"],
        },
      ],
    ]);
  });

  it("shows the schema's message when the weights do not add up to 100, and sends nothing", async () => {
    const { calls, dialog } = await openEdit(plain);
    await startExperiment(dialog);
    fireEvent.change(within(dialog).getByRole("spinbutton", { name: "Weight of variant 2" }), {
      target: { value: "40" },
    });
    expect(within(dialog).getByText("Weights add up to 90 %.")).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText("Goals"), { target: { value: "signup" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));

    expect(await within(dialog).findByText("The variants' weights must add up to 100")).toBeInTheDocument();
    expect(changes(calls)).toEqual([]);
  });

  it("shows each field's message next to it: a bad key, a weight out of range, no goals", async () => {
    const { calls, dialog } = await openEdit(plain);
    await startExperiment(dialog);
    const key = within(dialog).getByRole("textbox", { name: "Key of variant 2" });
    fireEvent.change(key, { target: { value: "B 2" } });
    fireEvent.change(within(dialog).getByRole("spinbutton", { name: "Weight of variant 1" }), {
      target: { value: "100" },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));

    const keyError = await within(dialog).findByText("A variant's key may hold letters, digits, - and _ only");
    expect(key).toHaveAttribute("aria-describedby", keyError.id);
    expect(within(dialog).getByText("A variant's weight must be at most 99")).toBeInTheDocument();
    expect(within(dialog).getByText("Name at least one goal the experiment measures")).toBeInTheDocument();
    expect(changes(calls)).toEqual([]);
  });

  it("adds a variant C with the weights evened out, and removes it again", async () => {
    const { calls, dialog } = await openEdit(plain);
    await startExperiment(dialog);
    fireEvent.click(within(dialog).getByRole("button", { name: "Add variant" }));
    expect(within(dialog).getByRole("textbox", { name: "Key of variant 3" })).toHaveValue("C");
    const weights = () =>
      [1, 2, 3].map(
        (n) => within(dialog).getByRole<HTMLInputElement>("spinbutton", { name: `Weight of variant ${n}` }).value,
      );
    expect(weights()).toEqual(["34", "33", "33"]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Add variant" }));
    expect(within(dialog).getByRole("textbox", { name: "Key of variant 4" })).toHaveValue("D");
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove variant D" }));
    expect(within(dialog).queryByRole("textbox", { name: "Key of variant 4" })).not.toBeInTheDocument();
    expect(weights()).toEqual(["34", "33", "33"]);
    fireEvent.change(within(dialog).getByRole("textbox", { name: "HTML content of variant 3" }), {
      target: { value: "<p>C</p>" },
    });
    fireEvent.change(within(dialog).getByLabelText("Goals"), { target: { value: "signup" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(changes(calls)).toHaveLength(1));
    expect(changes(calls)[0]?.[2]).toEqual({
      variants: [
        { key: "A", weight: 34 },
        { key: "B", weight: 33, htmlContent: "<p>old</p>" },
        { key: "C", weight: 33, htmlContent: "<p>C</p>" },
      ],
      goals: ["signup"],
    });
  });

  it("shows a running experiment, sends nothing of it when it is unchanged, and stops it with variants: null", async () => {
    const { calls, dialog } = await openEdit(running);
    expect(within(dialog).getByText("Experiment (running)")).toBeInTheDocument();
    expect(await within(dialog).findByRole("textbox", { name: "HTML content of variant 2" })).toHaveValue("<p>new</p>");
    expect(within(dialog).getByLabelText("Goals")).toHaveValue("signup");

    fireEvent.click(within(dialog).getByRole("button", { name: "Stop experiment" }));
    expect(
      within(dialog).getByText("The experiment ends when you save; the mapping keeps its own HTML content."),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole("textbox", { name: "HTML content of variant 2" })).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));

    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(changes(calls)).toEqual([["PATCH", "/api/mappings/7", { variants: null }]]);
  });

  it("keeps a running experiment after Keep running, and sends nothing when nothing changed", async () => {
    const { calls, dialog } = await openEdit(running);
    fireEvent.click(within(dialog).getByRole("button", { name: "Stop experiment" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Keep running" }));
    expect(await within(dialog).findByRole("textbox", { name: "HTML content of variant 2" })).toHaveValue("<p>new</p>");
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(changes(calls)).toEqual([]);
  });
});

describe("the experiment editor in the add form", () => {
  it("adds a mapping with its experiment", async () => {
    const { calls } = openMappingsTab([], (call) =>
      call.method === "POST" ? jsonResponse(mapping({ id: 8, ...(call.body as object) }), 201) : undefined,
    );
    fireEvent.change(await screen.findByLabelText("URL"), { target: { value: "https://example.com/p" } });
    fireEvent.change(screen.getByLabelText("HTML Content"), { target: { value: "<i>p</i>" } });
    const form = screen.getByRole("button", { name: "Add Mapping" }).closest("form")!;
    const html = await startExperiment(form);
    expect(html).toHaveValue("");
    fireEvent.change(html, { target: { value: "<b>p</b>" } });
    fireEvent.change(within(form).getByLabelText("Goals"), { target: { value: "buy" } });
    fireEvent.click(screen.getByRole("button", { name: "Add Mapping" }));

    expect(await screen.findByText("URL mapping added successfully")).toBeInTheDocument();
    expect(changes(calls)).toEqual([
      [
        "POST",
        "/api/mappings",
        {
          url: "https://example.com/p",
          htmlContent: "<i>p</i>",
          variants: [
            { key: "A", weight: 50 },
            { key: "B", weight: 50, htmlContent: "<b>p</b>" },
          ],
          goals: ["buy"],
        },
      ],
    ]);
    // The form starts afresh, without an experiment.
    await waitFor(() => expect(within(form).getByRole("checkbox", { name: "Run an experiment" })).not.toBeChecked());
  });

  it("sends no experiment fields unless asked to run one", async () => {
    const { calls } = openMappingsTab([], (call) =>
      call.method === "POST" ? jsonResponse(mapping({ id: 8 }), 201) : undefined,
    );
    fireEvent.change(await screen.findByLabelText("URL"), { target: { value: "https://example.com/p" } });
    fireEvent.change(screen.getByLabelText("HTML Content"), { target: { value: "<i>p</i>" } });
    fireEvent.click(screen.getByRole("button", { name: "Add Mapping" }));
    expect(await screen.findByText("URL mapping added successfully")).toBeInTheDocument();
    expect(changes(calls)).toEqual([
      ["POST", "/api/mappings", { url: "https://example.com/p", htmlContent: "<i>p</i>" }],
    ]);
  });
});

const figures = (key: string, goal: string, overrides: Partial<VariantGoalResult> = {}): VariantGoalResult => ({
  key,
  goal,
  visitors: 1000,
  conversions: 50,
  rate: 0.05,
  uplift: null,
  upliftCi95: null,
  probabilityToBeatControl: null,
  topAddressVisitorShare: 0.001,
  topAddressConversionShare: 0.02,
  ...overrides,
});

const results: ExperimentResults = {
  variants: [
    figures("A", "signup"),
    figures("B", "signup", {
      conversions: 56,
      rate: 0.056,
      uplift: 0.12,
      upliftCi95: [-0.05, 0.31],
      probabilityToBeatControl: 0.97,
    }),
    figures("A", "checkout", { conversions: 20, rate: 0.02 }),
    figures("B", "checkout", {
      conversions: 18,
      rate: 0.018,
      uplift: -0.1,
      upliftCi95: [-0.4, 0.2],
      probabilityToBeatControl: 0.3,
    }),
  ],
  srm: { pValue: 0.0003, ok: false },
  weights: [
    { key: "A", weight: 50 },
    { key: "B", weight: 50 },
  ],
  goals: ["signup", "checkout"],
  startedAt: "2026-11-20T10:00:00.000Z",
  concentrated: false,
  sampleFull: false,
  visitorCap: 50_000,
};

describe("the experiment results", () => {
  async function openResults(answer: () => Response, promote?: (call: ApiCall) => Response) {
    const { calls } = openMappingsTab([running], (call) => {
      if (call.method === "GET" && call.url === "/api/mappings/7/experiment") return answer();
      if (call.method === "POST" && call.url === "/api/mappings/7/experiment/promote") return promote?.(call);
      return undefined;
    });
    fireEvent.click(await screen.findByRole("button", { name: "Experiment results" }));
    const dialog = await screen.findByRole("dialog", { name: "Experiment results" });
    return { calls, dialog };
  }

  it("is offered only on a mapping running an experiment", async () => {
    openMappingsTab([plain]);
    expect(await screen.findByRole("button", { name: "History" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Experiment results" })).not.toBeInTheDocument();
  });

  it("shows the chosen goal's rates, figures and sentence, and warns when the split does not match the weights", async () => {
    const { dialog } = await openResults(() => jsonResponse(results));
    expect(
      await within(dialog).findByText("B converts 12 % better than A; 97 % likely to be better."),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole("alert")).toHaveTextContent(
      "The split of visitors does not match the weights (p = 0.0003): check the setup before trusting these results.",
    );
    const table = within(dialog).getByRole("table", { name: "Goal: signup" });
    const rowB = within(table).getByRole("row", { name: /^B / });
    expect(rowB).toHaveTextContent(["B", "1,000", "56", "5.6 %", "+12.0 %", "-5.0 % to +31.0 %", "97 %"].join(""));
    expect(within(table).getByRole("row", { name: /^A \(control\)/ })).toHaveTextContent("5.0 %");
    expect(within(dialog).getByRole("region", { name: "Conversion rate by variant for signup" })).toBeInTheDocument();
    expect(within(dialog).getByLabelText("B: 5.6 % (95 % interval 4.8 % to 6.6 %)")).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole("button", { name: "checkout" }));
    expect(within(dialog).getByText("B converts 10 % worse than A; 30 % likely to be better.")).toBeInTheDocument();
    expect(within(dialog).getByRole("table", { name: "Goal: checkout" })).toBeInTheDocument();
  });

  it("says when there is not enough data yet, and warns of nothing while the split is fine", async () => {
    const { dialog } = await openResults(() =>
      jsonResponse({
        ...results,
        variants: [figures("A", "signup", { visitors: 0, rate: 0 }), figures("B", "signup", { visitors: 0, rate: 0 })],
        goals: ["signup"],
        srm: { pValue: 0.5, ok: true },
      }),
    );
    expect(await within(dialog).findByText("Not enough data yet.")).toBeInTheDocument();
    expect(within(dialog).queryByRole("alert")).not.toBeInTheDocument();
    // One goal: no goal to choose.
    expect(within(dialog).queryByRole("group", { name: "Goal" })).not.toBeInTheDocument();
  });

  it("warns plainly when one address carries much of a variant's visitors or conversions, and when the sample is full", async () => {
    const { dialog } = await openResults(() =>
      jsonResponse({
        ...results,
        srm: { pValue: 0.5, ok: true },
        concentrated: true,
        sampleFull: true,
        visitorCap: 5_000,
      }),
    );
    const alerts = await within(dialog).findAllByRole("alert");
    expect(alerts.map((alert) => alert.textContent)).toEqual([
      "Much of a variant's visitors or conversions came from one network address: these results may be skewed or forged.",
      "Your experiments have counted 5,000 visitors, the most your plan keeps: new visitors are not counted until ended experiments are purged, 90 days after they end.",
    ]);
  });

  it("makes B permanent once confirmed: promote, the toast, the lists asked again, the dialog closed", async () => {
    const { calls, dialog } = await openResults(
      () => jsonResponse(results),
      () => jsonResponse({ ...running, htmlContent: "<p>new</p>", variants: undefined, goals: undefined }),
    );
    fireEvent.click(await within(dialog).findByRole("button", { name: "Make B permanent" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Make B permanent?" });
    expect(changes(calls)).toEqual([]);
    fireEvent.click(within(confirm).getByRole("button", { name: "Make B permanent" }));

    expect(await screen.findByText("B is now the mapping's content")).toBeInTheDocument();
    expect(changes(calls)).toEqual([["POST", "/api/mappings/7/experiment/promote", { variant: "B" }]]);
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Experiment results" })).not.toBeInTheDocument());
    const listReads = calls.filter((c) => c.method === "GET" && c.url === "/api/mappings?group=url");
    expect(listReads.length).toBeGreaterThan(1);
  });

  it("asks for the results again at each opening", async () => {
    const { calls, dialog } = await openResults(() => jsonResponse(results));
    await within(dialog).findByText("B converts 12 % better than A; 97 % likely to be better.");
    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    fireEvent.click(screen.getByRole("button", { name: "Experiment results" }));
    await screen.findByRole("dialog", { name: "Experiment results" });
    await waitFor(() =>
      expect(calls.filter((c) => c.url === "/api/mappings/7/experiment").map((c) => c.method)).toEqual(["GET", "GET"]),
    );
  });

  it("says so when the mapping runs no experiment", async () => {
    const { dialog } = await openResults(() => jsonResponse({ error: "This mapping runs no experiment" }, 404));
    expect(await within(dialog).findByText("This mapping runs no experiment")).toBeInTheDocument();
  });
});

describe("the experiment results by segment", () => {
  it("asks with ?segment= for the chosen split and shows a table per segment value", async () => {
    const byDevice: ExperimentResults = {
      ...results,
      segments: {
        dimension: "device",
        values: [
          { value: "mobile", visitors: 1200, variants: [figures("A", "signup"), figures("B", "signup")] },
          { value: "other", visitors: 30, variants: [figures("A", "signup"), figures("B", "signup")] },
        ],
      },
    };
    const { calls } = openMappingsTab([running], (call) => {
      if (call.method !== "GET") return undefined;
      if (call.url === "/api/mappings/7/experiment") return jsonResponse(results);
      if (call.url === "/api/mappings/7/experiment?segment=device") return jsonResponse(byDevice);
      return undefined;
    });
    fireEvent.click(await screen.findByRole("button", { name: "Experiment results" }));
    const dialog = await screen.findByRole("dialog", { name: "Experiment results" });
    const picker = await within(dialog).findByRole("combobox", { name: "Visitors" });
    expect(picker).toHaveValue("all");
    expect(within(dialog).getAllByRole("table")).toHaveLength(1);

    fireEvent.change(picker, { target: { value: "device" } });
    const mobile = await within(dialog).findByRole("region", { name: "Mobile" });
    expect(within(mobile).getByText("Mobile: 1,200 visitors")).toBeInTheDocument();
    expect(within(mobile).getAllByRole("row")).toHaveLength(3);
    expect(within(dialog).getByRole("region", { name: "Other" })).toBeInTheDocument();
    expect(calls.filter((c) => c.url.startsWith("/api/mappings/7/experiment")).map((c) => c.url)).toEqual([
      "/api/mappings/7/experiment",
      "/api/mappings/7/experiment?segment=device",
    ]);

    fireEvent.change(picker, { target: { value: "all" } });
    await waitFor(() => expect(within(dialog).queryByRole("region", { name: "Mobile" })).toBeNull());
  });
});

describe("the preview of a mapping running an experiment", () => {
  it("makes the link for the chosen variant; the control's is the plain link", async () => {
    const { calls } = openMappingsTab([running], (call) =>
      call.method === "POST" && call.url === "/api/mappings/7/preview"
        ? jsonResponse(
            {
              url: `https://example.com/a?dc_preview=${(call.body as { variant?: string } | undefined)?.variant ?? "A"}`,
              expiresAt: "2026-11-26T10:00:00.000Z",
            },
            201,
          )
        : undefined,
    );
    fireEvent.click(await screen.findByRole("button", { name: "Preview" }));
    const dialog = await screen.findByRole("dialog", { name: "Preview" });
    expect(await within(dialog).findByLabelText("Preview link")).toHaveValue("https://example.com/a?dc_preview=A");
    fireEvent.change(within(dialog).getByRole("combobox", { name: "Variant" }), { target: { value: "B" } });
    await waitFor(() =>
      expect(within(dialog).getByLabelText("Preview link")).toHaveValue("https://example.com/a?dc_preview=B"),
    );
    expect(changes(calls)).toEqual([
      ["POST", "/api/mappings/7/preview", undefined],
      ["POST", "/api/mappings/7/preview", { variant: "B" }],
    ]);
  });
});
