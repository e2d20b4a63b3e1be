import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ProductVersion } from "#contract/responses";
import { jsonResponse, mockApi, type ApiRoute } from "@/test/fetch-mock";
import { productVersion } from "@/test/fixtures";
import { renderApp } from "@/test/render-app";
import { ADMIN, signInAsAdmin } from "@/test/session";

afterEach(() => {
  vi.unstubAllGlobals();
});

const VERSIONS: ProductVersion[] = [
  productVersion({ id: 1, name: "Free", description: "The default plan", isDefault: true }),
  productVersion({
    id: 2,
    name: "Growth",
    eventsLimit: null,
    websitesLimit: 0,
    dynamicContentLimit: 500,
    price: 79,
    paypalPlanId: "P-GROWTH",
  }),
  productVersion({ id: 3, name: "Enterprise", price: 499, paypalPlanId: null }),
];

/** An admin session against a fake API; `answer` may override any call, otherwise the list is VERSIONS. */
function openScreen(answer?: ApiRoute) {
  signInAsAdmin();
  const calls = mockApi(answer, ({ method, url }) => {
    if (url === "/api/auth") return jsonResponse(ADMIN);
    if (url === "/api/admin/product-versions" && method === "GET") return jsonResponse(VERSIONS);
    return undefined;
  });
  const rendered = renderApp("/admin/product-versions");
  const writes = () => calls.filter((c) => c.method !== "GET");
  const listLoads = () => calls.filter((c) => c.method === "GET" && c.url === "/api/admin/product-versions").length;
  return { ...rendered, calls, writes, listLoads };
}

async function rowOf(name: string) {
  return (await screen.findByRole("cell", { name })).closest("tr")!;
}

const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole("cell")
    .map((cell) => cell.textContent);

describe("product versions table", () => {
  it("shows ∞ for null and 0 limits, '$' prices or '-', and the 'Standard' badge for the default", async () => {
    openScreen();

    const headers = (await screen.findAllByRole("columnheader")).map((h) => h.textContent);
    expect(headers).toEqual([
      "Name",
      "Description",
      "Events Limit",
      "Websites Limit",
      "Dynamic Content Limit",
      "Price",
      "PayPal Plan ID",
      "Status",
      "Actions",
    ]);
    expect(cellTexts(await rowOf("Free")).slice(0, 8)).toEqual([
      "Free",
      "The default plan",
      "100",
      "1",
      "10",
      "-",
      "",
      "Standard",
    ]);
    expect(cellTexts(await rowOf("Growth")).slice(0, 8)).toEqual([
      "Growth",
      "",
      "∞",
      "∞",
      "500",
      "$79",
      "P-GROWTH",
      "",
    ]);
    expect(screen.getAllByText("Standard")).toHaveLength(1);
  });

  it("marks a plan without a PayPal plan id, the default aside, as one customers cannot buy", async () => {
    openScreen();
    expect(cellTexts(await rowOf("Enterprise"))[6]).toBe(
      "Nicht kaufbar: Kunden sehen „Contact us to switch to this plan“",
    );
    expect(cellTexts(await rowOf("Free"))[6]).toBe("");
  });
});

describe("product version dialog", () => {
  it("creates a version: empty limits are sent as null, numbers as integers", async () => {
    const { writes, listLoads, queryClient } = openScreen(({ method }) =>
      method === "POST" ? jsonResponse(productVersion({ id: 3, name: "Pro" }), 201) : undefined,
    );
    await rowOf("Free");
    // Other lists that show versions are cached; they must be refreshed too.
    queryClient.setQueryData(["product-versions"], VERSIONS);
    queryClient.setQueryData(["admin", "users"], []);

    fireEvent.click(screen.getByRole("button", { name: "Neue Version" }));
    const dialog = await screen.findByRole("dialog", { name: "Neue Produktversion" });
    expect(within(dialog).getByLabelText("Events Limit")).toHaveAttribute("placeholder", "Unbegrenzt");
    expect(within(dialog).getByLabelText("Websites Limit")).toHaveAttribute("placeholder", "Unbegrenzt");
    expect(within(dialog).getByLabelText("Dynamic Content Limit")).toHaveAttribute("placeholder", "Unbegrenzt");
    expect(within(dialog).getByRole("button", { name: "Abbrechen" })).toBeInTheDocument();

    fireEvent.change(within(dialog).getByLabelText("Name"), { target: { value: "  Pro " } });
    fireEvent.change(within(dialog).getByLabelText("Events Limit"), { target: { value: "5000" } });
    fireEvent.change(within(dialog).getByLabelText("Dynamic Content Limit"), { target: { value: "12.9" } });
    fireEvent.change(within(dialog).getByLabelText("Price"), { target: { value: "49" } });
    fireEvent.change(within(dialog).getByLabelText("PayPal Plan ID"), { target: { value: "P-PRO" } });
    fireEvent.click(within(dialog).getByRole("checkbox", { name: "Standard Version" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Erstellen" }));

    expect(await screen.findByText("Product version created successfully")).toBeInTheDocument();
    expect(writes()).toEqual([
      {
        method: "POST",
        url: "/api/admin/product-versions",
        body: {
          name: "Pro",
          description: null,
          eventsLimit: 5000,
          websitesLimit: null,
          dynamicContentLimit: 12,
          price: 49,
          paypalPlanId: "P-PRO",
          isDefault: true,
        },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(listLoads()).toBe(2));
    expect(queryClient.getQueryState(["product-versions"])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(["admin", "users"])?.isInvalidated).toBe(true);
  });

  it("edits a version with its own title and 'Speichern'", async () => {
    const { writes } = openScreen(({ method, body }) =>
      method === "PATCH" ? jsonResponse({ ...VERSIONS[1], ...(body as object) }) : undefined,
    );

    fireEvent.click(within(await rowOf("Growth")).getByRole("button", { name: "Edit Growth" }));
    const dialog = await screen.findByRole("dialog", { name: "Produktversion bearbeiten" });
    expect(within(dialog).queryByRole("button", { name: "Erstellen" })).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText("Name")).toHaveValue("Growth");
    // null is shown empty (the 'Unbegrenzt' placeholder); 0 stays 0.
    expect(within(dialog).getByLabelText("Events Limit")).toHaveValue(null);
    expect(within(dialog).getByLabelText("Websites Limit")).toHaveValue(0);
    expect(within(dialog).getByRole("checkbox", { name: "Standard Version" })).not.toBeChecked();

    fireEvent.change(within(dialog).getByLabelText("Name"), { target: { value: "Growth Plus" } });
    fireEvent.change(within(dialog).getByLabelText("Price"), { target: { value: "" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Speichern" }));

    expect(await screen.findByText("Product version updated successfully")).toBeInTheDocument();
    expect(writes()).toEqual([
      {
        method: "PATCH",
        url: "/api/admin/product-versions/2",
        body: {
          name: "Growth Plus",
          description: null,
          eventsLimit: null,
          websitesLimit: 0,
          dynamicContentLimit: 500,
          price: null,
          paypalPlanId: "P-GROWTH",
          isDefault: false,
        },
      },
    ]);
  });

  it("shows 'Name is required' and sends nothing when the name is empty", async () => {
    const { writes } = openScreen();
    await rowOf("Free");

    fireEvent.click(screen.getByRole("button", { name: "Neue Version" }));
    const dialog = await screen.findByRole("dialog", { name: "Neue Produktversion" });
    fireEvent.change(within(dialog).getByLabelText("Name"), { target: { value: "   " } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Erstellen" }));

    expect(await within(dialog).findByText("Name is required")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
    expect(writes()).toEqual([]);
  });

  it("keeps the dialog open and toasts the server's message when saving fails", async () => {
    openScreen(({ method }) => (method === "POST" ? jsonResponse({ error: "Name already taken" }, 409) : undefined));
    await rowOf("Free");

    fireEvent.click(screen.getByRole("button", { name: "Neue Version" }));
    const dialog = await screen.findByRole("dialog", { name: "Neue Produktversion" });
    fireEvent.change(within(dialog).getByLabelText("Name"), { target: { value: "Free" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Erstellen" }));

    expect(await screen.findByText("Name already taken")).toBeInTheDocument();
    expect(screen.getByRole("dialog", { name: "Neue Produktversion" })).toBeInTheDocument();
  });
});

describe("deleting a product version", () => {
  const WARNING = "Achtung: Dies ist die Standard-Version. Das Löschen kann zu Problemen führen.";

  it("asks first, then deletes and reloads the list", async () => {
    const { writes, listLoads } = openScreen(({ method }) =>
      method === "DELETE" ? jsonResponse({ message: "Product version deleted successfully" }) : undefined,
    );

    fireEvent.click(within(await rowOf("Growth")).getByRole("button", { name: "Delete Growth" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Sind Sie sicher?" });
    expect(confirm).toHaveTextContent(
      "Diese Aktion kann nicht rückgängig gemacht werden. Die Produktversion wird permanent gelöscht.",
    );
    expect(within(confirm).queryByText(WARNING)).not.toBeInTheDocument();
    expect(writes()).toEqual([]);

    fireEvent.click(within(confirm).getByRole("button", { name: "Löschen" }));

    expect(await screen.findByText("Product version deleted successfully")).toBeInTheDocument();
    expect(writes()).toEqual([{ method: "DELETE", url: "/api/admin/product-versions/2", body: undefined }]);
    await waitFor(() => expect(listLoads()).toBe(2));
  });

  it("warns in red about the default version and sends nothing on 'Abbrechen'", async () => {
    const { writes } = openScreen();

    fireEvent.click(within(await rowOf("Free")).getByRole("button", { name: "Delete Free" }));
    const confirm = await screen.findByRole("alertdialog", { name: "Sind Sie sicher?" });
    expect(within(confirm).getByText(WARNING)).toHaveClass("text-destructive");

    fireEvent.click(within(confirm).getByRole("button", { name: "Abbrechen" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(writes()).toEqual([]);
  });

  it("toasts the server's message when deleting fails", async () => {
    openScreen(({ method }) =>
      method === "DELETE" ? jsonResponse({ error: "Product version not found" }, 404) : undefined,
    );

    fireEvent.click(within(await rowOf("Growth")).getByRole("button", { name: "Delete Growth" }));
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Löschen" }));

    expect(await screen.findByText("Product version not found")).toBeInTheDocument();
    expect(screen.getByRole("cell", { name: "Growth" })).toBeInTheDocument();
  });
});
