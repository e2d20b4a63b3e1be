import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Website, WebsiteStatus } from "#contract/responses";
import { createQueryClient } from "@/lib/query-client";
import { STATUS_RECHECK_MS } from "@/queries/websites";
import { jsonResponse, mockApi } from "@/test/fetch-mock";
import { PENDING_WEBSITE as PENDING } from "@/test/fixtures";
import { WebsiteStatusPanel } from "./website-status-panel";

const ACTIVE: Website = { ...PENDING, status: "active", verifiedAt: "2026-05-04T09:10:00.000Z", expiresAt: null };

const WAITING: WebsiteStatus = {
  hostname: "shop.example",
  ready: false,
  dns: { state: "waiting", addresses: [] },
  ownership: { state: "waiting", record: PENDING.verification, problem: null },
  certificate: { state: "managed", sslStatus: null },
};
const READY: WebsiteStatus = {
  ...WAITING,
  ready: true,
  dns: { state: "done", addresses: ["203.0.113.7"] },
  ownership: { ...WAITING.ownership, state: "done" },
};

/** A fake API whose answer to the status is `answers`' next one (the last one again when they run out). */
function serveStatus(...answers: WebsiteStatus[]) {
  let asked = 0;
  const calls = mockApi(({ method, url }) => {
    if (method === "GET" && url === "/api/websites/shop.example/status") {
      return jsonResponse(answers[Math.min(asked++, answers.length - 1)]);
    }
    if (method === "POST" && url === "/api/websites/shop.example/verify") return jsonResponse(ACTIVE);
    return undefined;
  });
  return {
    calls,
    statusReads: () => calls.filter((c) => c.url === "/api/websites/shop.example/status").length,
  };
}

function renderPanel(website: Website, lang?: "en" | "de") {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <WebsiteStatusPanel website={website} lang={lang} />
    </QueryClientProvider>,
  );
}

const step = (name: string) => screen.getByRole("listitem", { name });

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("an edge website's status panel", () => {
  it("shows DNS, ownership with the TXT record to copy, and a certificate left to Cloudflare, each with its next step", async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    serveStatus(WAITING);
    renderPanel(PENDING);
    expect(await screen.findByRole("listitem", { name: "DNS" })).toHaveTextContent("Waiting");
    expect(step("DNS")).toHaveTextContent("Point your hostname at Dynamic Content");
    expect(step("Ownership")).toHaveTextContent("Add this TXT record at your DNS provider, then check it.");
    expect(step("Certificate")).toHaveTextContent("Managed by Cloudflare once DNS points at us.");
    const record = within(step("Ownership")).getByRole("region", { name: "DNS record to add" });
    fireEvent.click(within(record).getByRole("button", { name: "Copy TXT record name" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith("_dynamic-content.shop.example"));
    fireEvent.click(within(record).getByRole("button", { name: "Copy TXT record value" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(PENDING.verification.value));
  });

  it("shows Cloudflare's certificate status, and a failed certificate as failed", async () => {
    serveStatus({
      ...READY,
      ready: false,
      certificate: { state: "failed", sslStatus: "validation_timed_out" },
    });
    renderPanel(ACTIVE);
    expect(await screen.findByText(/Cloudflare says: validation_timed_out/)).toBeInTheDocument();
    expect(step("Certificate")).toHaveTextContent("Failed");
    expect(step("DNS")).toHaveTextContent("Your hostname points at Dynamic Content.");
    expect(within(step("Ownership")).queryByRole("region", { name: "DNS record to add" })).toBeNull();
  });

  it("reads the status again every 20 seconds until every step is done, then stops", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = serveStatus(WAITING, WAITING, READY);
    renderPanel(ACTIVE);
    expect(await screen.findByText("Checked again every 20 seconds while this page is open.")).toBeInTheDocument();
    expect(api.statusReads()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(STATUS_RECHECK_MS));
    expect(api.statusReads()).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(STATUS_RECHECK_MS));
    await waitFor(() => expect(step("DNS")).toHaveTextContent("Done"));
    expect(screen.queryByRole("button", { name: "Check now" })).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(3 * STATUS_RECHECK_MS));
    expect(api.statusReads()).toBe(3);
  });

  it("checks now: runs the proof check and reads the status again", async () => {
    const api = serveStatus(WAITING, READY);
    renderPanel(PENDING);
    fireEvent.click(await screen.findByRole("button", { name: "Check now" }));
    await waitFor(() => expect(api.calls.some((c) => c.method === "POST")).toBe(true));
    expect(api.calls.find((c) => c.method === "POST")?.url).toBe("/api/websites/shop.example/verify");
    await waitFor(() => expect(api.statusReads()).toBe(2));
    await waitFor(() => expect(step("DNS")).toHaveTextContent("Done"));
  });

  it("speaks German", async () => {
    serveStatus(WAITING);
    renderPanel(PENDING, "de");
    expect(await screen.findByRole("region", { name: "Status der Website" })).toBeInTheDocument();
    expect(await screen.findByRole("listitem", { name: "DNS" })).toHaveTextContent("Ausstehend");
    expect(step("Inhaberschaft")).toHaveTextContent("Legen Sie diesen TXT-Eintrag bei Ihrem DNS-Anbieter an");
    expect(step("Zertifikat")).toHaveTextContent("Wird von Cloudflare verwaltet, sobald Ihr DNS auf uns zeigt.");
    expect(screen.getByRole("button", { name: "Jetzt prüfen" })).toBeInTheDocument();
    const record = within(step("Inhaberschaft")).getByRole("region", { name: "Anzulegender DNS-Eintrag" });
    expect(record).toHaveTextContent("Weisen Sie nach, dass shop.example Ihnen gehört");
    expect(within(record).getByRole("button", { name: "TXT-Eintrag: Wert kopieren" })).toBeInTheDocument();
  });
});
