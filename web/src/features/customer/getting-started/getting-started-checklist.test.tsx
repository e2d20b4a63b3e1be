import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { QueryClientProvider } from "@tanstack/react-query";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Onboarding, OnboardingStep, OnboardingStepKey } from "#contract/responses";
import { createQueryClient } from "@/lib/query-client";
import { ONBOARDING_POLL_MS } from "@/queries/onboarding";
import { jsonResponse, mockApi } from "@/test/fetch-mock";
import { renderApp } from "@/test/render-app";
import { GettingStartedChecklist } from "./getting-started-checklist";

const KEYS: OnboardingStepKey[] = ["verified", "mapping", "snippet", "firstView", "website"];

/** The steps with `done` done (and the snippet seen on shop.test when it is). */
function onboarding(...done: OnboardingStepKey[]): Onboarding {
  return {
    steps: KEYS.map((key): OnboardingStep => ({
      key,
      done: done.includes(key),
      ...(key === "snippet" && done.includes(key) ? { host: "shop.test", at: "2026-11-27T16:00:00.000Z" } : {}),
    })),
  };
}

/** A fake API whose answer to GET /api/onboarding is `answers`' next one (the last one again when they run out). */
function serveOnboarding(...answers: Onboarding[]) {
  let asked = 0;
  const calls = mockApi((call) =>
    call.url === "/api/onboarding" ? jsonResponse(answers[Math.min(asked++, answers.length - 1)]) : undefined,
  );
  return () => calls.filter((c) => c.url === "/api/onboarding").length;
}

function renderChecklist(lang?: "en" | "de") {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <GettingStartedChecklist lang={lang} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const step = (name: string) => screen.getByRole("listitem", { name });

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the getting-started checklist", () => {
  it("shows each step with its next action, and links to the snippet and to edge websites", async () => {
    serveOnboarding(onboarding("verified"));
    renderChecklist();
    expect(await screen.findByRole("heading", { name: "Getting started" })).toBeInTheDocument();
    expect(step("Verify your email address")).toHaveTextContent("Verified");
    expect(within(step("Verify your email address")).getByLabelText("Done")).toBeInTheDocument();
    expect(step("Add a URL mapping")).toHaveTextContent("Open URL Mappings and add your first one.");
    expect(within(step("Add the snippet to your website")).getByRole("link")).toHaveAttribute("href", "/snippet");
    expect(step("Deliver at the edge")).toHaveTextContent("(optional)");
    expect(within(step("Deliver at the edge")).getByRole("link")).toHaveAttribute("href", "/user-dashboard");
    // Nothing to wait for before there is a mapping.
    expect(screen.queryByText("Waiting for your first page view…")).not.toBeInTheDocument();
  });

  it("waits visibly for the first page view, asking again every 3 s, and turns green by itself", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const asked = serveOnboarding(
      onboarding("verified", "mapping"),
      onboarding("verified", "mapping", "snippet"),
      onboarding("verified", "mapping", "snippet", "firstView"),
    );
    renderChecklist();
    expect(await screen.findByText("Waiting for your first page view…")).toBeInTheDocument();
    expect(within(step("Add the snippet to your website")).getByRole("status")).toHaveAccessibleName(
      "Waiting for your first page view…",
    );
    expect(asked()).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(ONBOARDING_POLL_MS));
    expect(await screen.findByText("Seen on shop.test")).toBeInTheDocument();
    expect(within(step("Add the snippet to your website")).getByLabelText("Done")).toBeInTheDocument();
    expect(step("Count your first page view")).toHaveTextContent("Counted within a minute of the first page view.");
    expect(asked()).toBe(2);

    await act(() => vi.advanceTimersByTimeAsync(ONBOARDING_POLL_MS));
    expect(await screen.findByText("All set: your content is live.")).toBeInTheDocument();
    expect(asked()).toBe(3);
    // Done: it asks no more.
    await act(() => vi.advanceTimersByTimeAsync(3 * ONBOARDING_POLL_MS));
    expect(asked()).toBe(3);

    fireEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("heading", { name: "Getting started" })).not.toBeInTheDocument();
  });

  it("does not ask again while nothing is awaited", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const asked = serveOnboarding(onboarding("verified"));
    renderChecklist();
    expect(await screen.findByRole("heading", { name: "Getting started" })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(3 * ONBOARDING_POLL_MS));
    expect(asked()).toBe(1);
  });

  it("never shows for a customer who has done every required step", async () => {
    const asked = serveOnboarding(onboarding("verified", "mapping", "snippet", "firstView"));
    renderChecklist();
    await vi.waitFor(() => expect(asked()).toBe(1));
    expect(screen.queryByRole("heading", { name: "Getting started" })).not.toBeInTheDocument();
  });

  it("speaks German when asked to", async () => {
    serveOnboarding(onboarding("verified", "mapping"));
    renderChecklist("de");
    expect(await screen.findByRole("heading", { name: "Erste Schritte" })).toBeInTheDocument();
    expect(screen.getByText("Warte auf Ihren ersten Seitenaufruf…")).toBeInTheDocument();
    expect(step("E-Mail-Adresse bestätigen")).toHaveTextContent("Bestätigt");
  });

  it("shows on the dashboard of a signed-in customer", async () => {
    window.localStorage.setItem("apiKey", "key-1");
    serveOnboarding(onboarding("verified"));
    renderApp("/dashboard");
    expect(await screen.findByRole("heading", { name: "Getting started" })).toBeInTheDocument();
  });
});
