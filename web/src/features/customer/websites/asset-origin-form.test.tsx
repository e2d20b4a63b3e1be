import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Website } from "#contract/responses";
import { createQueryClient } from "@/lib/query-client";
import { jsonResponse, mockApi } from "@/test/fetch-mock";
import { PENDING_WEBSITE as PENDING } from "@/test/fixtures";
import { AssetOriginForm } from "./asset-origin-form";

const ACTIVE: Website = { ...PENDING, status: "active", verifiedAt: "2026-05-04T09:10:00.000Z", expiresAt: null };
const CDN = "https://cdn.shop.example";

/** A fake API that answers the website's PUT with `answer`, or the website with what was sent. */
function servePut(answer?: Response) {
  return mockApi(({ method, url, body }) =>
    method === "PUT" && url === "/api/websites/shop.example"
      ? (answer ?? jsonResponse({ ...ACTIVE, ...(body as object) }))
      : undefined,
  );
}

function renderForm(website: Website, lang?: "en" | "de") {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AssetOriginForm website={website} lang={lang} />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("an edge website's asset origin form", () => {
  it("offers the website's https origin once turned on, and saves the host the customer names with origin and mode", async () => {
    const calls = servePut();
    renderForm(ACTIVE);
    expect(screen.getByText("Assets through Dynamic Content")).toBeInTheDocument();
    expect(screen.queryByLabelText("Serve assets from")).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("checkbox", { name: "Serve assets from another host" }));
    const field = screen.getByLabelText("Serve assets from");
    expect(field).toHaveValue("https://origin.shop.example");
    fireEvent.change(field, { target: { value: ` ${CDN} ` } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")).toBeDefined());
    expect(calls.find((c) => c.method === "PUT")?.body).toEqual({
      origin: "https://origin.shop.example",
      mode: "edge",
      assetOrigin: CDN,
    });
  });

  it("shows the host in use, and turns the option off with null", async () => {
    const calls = servePut();
    renderForm({ ...ACTIVE, origin: "http://origin.shop.example", assetOrigin: CDN });
    expect(screen.getByText(`Assets from ${CDN}`)).toBeInTheDocument();
    expect(screen.getByLabelText("Serve assets from")).toHaveValue(CDN);
    fireEvent.click(screen.getByRole("checkbox", { name: "Serve assets from another host" }));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(calls.find((c) => c.method === "PUT")?.body).toMatchObject({ assetOrigin: null }));
  });

  it("offers nothing for an http origin, and shows the server's refusal", async () => {
    servePut(jsonResponse({ error: "Asset origin must start with https://" }, 400));
    renderForm({ ...ACTIVE, origin: "http://origin.shop.example" });
    fireEvent.click(screen.getByRole("checkbox", { name: "Serve assets from another host" }));
    expect(screen.getByLabelText("Serve assets from")).toHaveValue("");
    expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
    fireEvent.change(screen.getByLabelText("Serve assets from"), { target: { value: "http://cdn.shop.example" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Asset origin must start with https://")).toBeInTheDocument();
  });

  it("speaks German", () => {
    renderForm({ ...ACTIVE, assetOrigin: CDN }, "de");
    expect(screen.getByRole("form", { name: "Dateien" })).toHaveTextContent(`Dateien von ${CDN}`);
    expect(screen.getByRole("checkbox", { name: "Dateien von einem anderen Host laden" })).toBeChecked();
    expect(screen.getByLabelText("Dateien laden von")).toHaveValue(CDN);
    expect(screen.getByRole("button", { name: "Speichern" })).toBeInTheDocument();
  });
});
